/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The supervisor side of SECCOMP_RET_USER_NOTIF: receive, read the
 * target's memory without being fooled by PID reuse, answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime/internal.h"

/* The ioctl numbers encode these sizes, fixed by the kernel ABI. */
_Static_assert(sizeof(struct scg_notif) == 80, "struct seccomp_notif is 80 bytes");
_Static_assert(sizeof(struct scg_notif_resp) == 24, "struct seccomp_notif_resp is 24 bytes");

#define SCG_IOCTL_NOTIF_RECV _IOWR('!', 0, struct scg_notif)
#define SCG_IOCTL_NOTIF_SEND _IOWR('!', 1, struct scg_notif_resp)
#define SCG_IOCTL_NOTIF_ID_VALID _IOW('!', 2, uint64_t)

int scg_notif_receive(int listener, struct scg_notif *out)
{
	/* The kernel refuses a buffer that is not zeroed. */
	memset(out, 0, sizeof(*out));
	if (ioctl(listener, SCG_IOCTL_NOTIF_RECV, out) < 0)
		return -errno;
	return 0;
}

int scg_notif_respond(int listener, const struct scg_notif_resp *resp)
{
	struct scg_notif_resp copy = *resp;
	if (ioctl(listener, SCG_IOCTL_NOTIF_SEND, &copy) < 0)
		return -errno;
	return 0;
}

int scg_notif_id_valid(int listener, uint64_t id)
{
	uint64_t copy = id;
	if (ioctl(listener, SCG_IOCTL_NOTIF_ID_VALID, &copy) < 0)
		return -errno;
	return 0;
}

int scg_notif_mem_open(int listener, const struct scg_notif *notif)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/mem", notif->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Between the notification and open() the target may have died and its
	 * PID been reused: only a still-pending notification proves the fd is
	 * the target's. */
	int r = scg_notif_id_valid(listener, notif->id);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/*
 * One read of the target's memory as the kernel's own copy from the caller
 * would see it: process_vm_readv() fails on a page the program cannot read
 * (PROT_NONE) as the real call would fail with EFAULT, where /proc/PID/mem
 * reads it all the same (it forces access, as a debugger's read does).
 * /proc/PID/mem serves only where process_vm_readv() is missing or refused.
 */
static ssize_t read_chunk(pid_t pid, int mem_fd, uint64_t addr, char *buf, size_t len)
{
	struct iovec local = { .iov_base = buf, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (n >= 0 || (errno != ENOSYS && errno != EPERM))
		return n;
	return pread(mem_fd, buf, len, (off_t)addr);
}

/* Reads up to @size bytes at @addr; stops early at an unreadable page (or a NUL with @string). */
static ssize_t read_mem(pid_t pid, int mem_fd, uint64_t addr, char *buf, size_t size, bool string)
{
	size_t done = 0;
	while (done < size) {
		/* Never cross a page boundary in one read, so a string that ends
		 * just before an unmapped page is still found. */
		size_t chunk = 4096 - (size_t)((addr + done) % 4096);
		if (chunk > size - done)
			chunk = size - done;
		ssize_t n = read_chunk(pid, mem_fd, addr + done, buf + done, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
		if (string && memchr(buf + done - (size_t)n, '\0', (size_t)n))
			break;
	}
	if (done == 0)
		return -EFAULT;
	return (ssize_t)done;
}

ssize_t scg_notif_read(int listener, const struct scg_notif *notif, int mem_fd, uint64_t addr,
		       void *buf, size_t len)
{
	if (len == 0)
		return -EINVAL;
	if (addr > UINT64_MAX - len || addr + len > (uint64_t)INT64_MAX)
		return -EFAULT;
	ssize_t n = read_mem((pid_t)notif->pid, mem_fd, addr, buf, len, false);
	if (n < 0)
		return n;
	int r = scg_notif_id_valid(listener, notif->id);
	return r < 0 ? r : n;
}

ssize_t scg_notif_read_string(int listener, const struct scg_notif *notif, int mem_fd,
			      uint64_t addr, char *buf, size_t size)
{
	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (addr > UINT64_MAX - size || addr > (uint64_t)INT64_MAX)
		return -EFAULT;
	ssize_t n = read_mem((pid_t)notif->pid, mem_fd, addr, buf, size - 1, true);
	if (n < 0)
		return n;
	/* No NUL before an unreadable page: the kernel's copy would fault there. */
	if ((size_t)n < size - 1 && !memchr(buf, '\0', (size_t)n)) {
		buf[0] = '\0';
		return -EFAULT;
	}
	buf[n] = '\0';
	int r = scg_notif_id_valid(listener, notif->id);
	if (r < 0) {
		buf[0] = '\0';
		return r;
	}
	size_t len = strlen(buf);
	if (len == (size_t)n && (size_t)n == size - 1)
		return -ENAMETOOLONG;
	return (ssize_t)len;
}

int scg_notif_handle_one(int listener, scg_notif_decide_fn decide, void *ctx)
{
	struct scg_notif notif;
	int r = scg_notif_receive(listener, &notif);
	if (r == -ENOENT)
		return 0; /* the target was killed before we got to it */
	if (r < 0)
		return r;
	struct scg_notif_resp resp = { .id = notif.id };
	int verdict = decide(listener, &notif, &resp, ctx);
	if (verdict < 0)
		return verdict;
	resp.id = notif.id;
	r = scg_notif_respond(listener, &resp);
	if (r < 0 && r != -ENOENT)
		return r;
	return verdict > 0 ? 1 : 0;
}

int scg_notif_loop(int listener, scg_notif_decide_fn decide, void *ctx)
{
	for (;;) {
		struct pollfd pfd = { .fd = listener, .events = POLLIN };
		int n = poll(&pfd, 1, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd.revents & POLLIN) {
			int r = scg_notif_handle_one(listener, decide, ctx);
			if (r == -EINTR)
				continue;
			if (r != 0)
				return r < 0 ? r : 0;
			continue;
		}
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			return pfd.revents & POLLNVAL ? -EBADF : 0;
	}
}
