/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* User notification: the supervisor side of SCMP_ACT_NOTIFY. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <syscage/runtime.h>

#include "internal.h"

/* The kernel's ABI, checked here so the casts below stay safe. */
_Static_assert(sizeof(struct seccomp_notif) == sizeof(struct scg_notif), "notif layout");
_Static_assert(sizeof(struct seccomp_notif_resp) == sizeof(struct scg_notif_resp), "resp layout");
_Static_assert(sizeof(struct seccomp_notif_addfd) == 24, "addfd layout");

#define COMPAT_IOCTL_NOTIF_ADDFD _IOW('!', 3, struct seccomp_notif_addfd)
#define COMPAT_SECCOMP_GET_NOTIF_SIZES 3

/* struct seccomp_notif_sizes */
struct compat_notif_sizes {
	uint16_t seccomp_notif;
	uint16_t seccomp_notif_resp;
	uint16_t seccomp_data;
};

/* Newer kernels may fill more than this header knows: allocate what they say. */
static size_t kernel_size(size_t ours, uint16_t theirs)
{
	return theirs > ours ? theirs : ours;
}

/*
 * The kernel's sizes, asked once per process with the one call that answers
 * them.  Typically called after a filter is loaded, so nothing else may run
 * here: a probe child or a getpid() would meet that filter, whose NOTIFY
 * calls wait for this very supervisor.
 */
static int notif_sizes(struct compat_notif_sizes *out)
{
	static struct compat_notif_sizes known;
	if (known.seccomp_notif == 0) {
		struct compat_notif_sizes s = { 0 };
		if (syscall(SYS_seccomp, COMPAT_SECCOMP_GET_NOTIF_SIZES, 0, &s) != 0)
			return -ECANCELED;
		known = s;
	}
	*out = known;
	return 0;
}

COMPAT_API int seccomp_notify_alloc(struct seccomp_notif **req, struct seccomp_notif_resp **resp)
{
	struct compat_notif_sizes sizes;
	if (compat_api_level() < 5)
		return -EOPNOTSUPP;
	if (notif_sizes(&sizes) < 0)
		return -ECANCELED;
	struct seccomp_notif *q = NULL;
	struct seccomp_notif_resp *r = NULL;
	if (req != NULL && (q = calloc(1, kernel_size(sizeof(*q), sizes.seccomp_notif))) == NULL)
		return -ENOMEM;
	if (resp != NULL &&
	    (r = calloc(1, kernel_size(sizeof(*r), sizes.seccomp_notif_resp))) == NULL) {
		free(q);
		return -ENOMEM;
	}
	if (req != NULL)
		*req = q;
	if (resp != NULL)
		*resp = r;
	return 0;
}

COMPAT_API void seccomp_notify_free(struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	free(req);
	free(resp);
}

COMPAT_API int seccomp_notify_receive(int fd, struct seccomp_notif *req)
{
	if (req == NULL)
		return -EINVAL;
	if (compat_api_level() < 5)
		return -EOPNOTSUPP;
	int rc = scg_notif_receive(fd, (struct scg_notif *)req);
	return rc < 0 ? -ECANCELED : 0;
}

COMPAT_API int seccomp_notify_respond(int fd, struct seccomp_notif_resp *resp)
{
	if (resp == NULL)
		return -EINVAL;
	if (compat_api_level() < 5)
		return -EOPNOTSUPP;
	int rc = scg_notif_respond(fd, (const struct scg_notif_resp *)resp);
	return rc < 0 ? -ECANCELED : 0;
}

COMPAT_API int seccomp_notify_id_valid(int fd, uint64_t id)
{
	if (compat_api_level() < 5)
		return -EOPNOTSUPP;
	return scg_notif_id_valid(fd, id) == 0 ? 0 : -ENOENT;
}

COMPAT_API int seccomp_notify_addfd(int fd, struct seccomp_notif_addfd *addfd)
{
	if (addfd == NULL)
		return -EINVAL;
	if (compat_api_level() < 5)
		return -EOPNOTSUPP;
	int rc = ioctl(fd, COMPAT_IOCTL_NOTIF_ADDFD, addfd);
	return rc < 0 ? -ECANCELED : rc;
}

COMPAT_API int seccomp_notify_fd(const scmp_filter_ctx ctx)
{
	if (compat_filter_of(ctx) == NULL)
		return -EINVAL;
	int fd = compat_state_notify_fd();
	/* libseccomp 2.5 answers -EFAULT when no listener exists yet. */
	return fd >= 0 ? fd : -EFAULT;
}
