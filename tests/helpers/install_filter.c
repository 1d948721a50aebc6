/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test program for syscage dump -- CMD: installs the raw filter in FILE and,
 * only if the install went through, creates MARKER.
 *
 *   install_filter MODE FILE MARKER
 *
 * MODE: seccomp (seccomp(SECCOMP_SET_MODE_FILTER)), prctl
 * (prctl(PR_SET_SECCOMP)), probe (first the calls libseccomp probes the
 * kernel with: strict mode with a flag, and a filter with a NULL program;
 * then a real install), fork
 * (a child process installs; the parent waits), thread (a second thread
 * installs), int80 (x86_64 only: through the i386 ABI, int $0x80 with a
 * 32-bit struct sock_fprog below 4 GiB), hold (installs it twice, creates MARKER, then sleeps up to
 * 60 s so it can be inspected), hold1 (the same with one install), thread-hold (a second
 * thread installs it and creates MARKER; both threads then sleep up to 60 s, so that only
 * a thread other than the leader holds a filter), thread-more (the leader installs it, then
 * a second thread installs it again: the threads hold 1 and 2 filters), unfiltered-only (installs only when
 * prctl(PR_GET_SECCOMP) says the process is not filtered yet, as man-db does; exits 5
 * otherwise), none (exits 3 without installing).  Exit 0 after an install, 3 for none, 4
 * when the install failed, 5 when unfiltered-only saw a filter, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static struct sock_filter insns[4096];
static struct sock_fprog prog;
static const char *marker;

/* seccomp(SECCOMP_SET_MODE_FILTER) as an i386 program makes it: compat layout, int $0x80. */
static int install_int80(void)
{
#ifdef __x86_64__
	unsigned char *low = mmap(NULL, sizeof(insns) + 16, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED)
		return -1;
	uint32_t filter = (uint32_t)(uintptr_t)(low + 16);
	memcpy(low, &prog.len, 2);
	memcpy(low + 4, &filter, 4);
	memcpy(low + 16, insns, prog.len * sizeof(insns[0]));
	long ret;
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "0"(354L), "b"(1L), "c"(0L), "d"((long)(uintptr_t)low)
			 : "memory");
	return ret < 0 ? -1 : 0;
#else
	return -1;
#endif
}

static int install(const char *mode)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return -1;
	if (!strcmp(mode, "int80"))
		return install_int80();
	if (!strcmp(mode, "prctl"))
		return prctl(PR_SET_SECCOMP, 2L, &prog, 0L, 0L);
	/* libseccomp's probes: strict mode with a flag (EINVAL), a NULL program (EFAULT) */
	if (!strcmp(mode, "probe") && (syscall(SYS_seccomp, 0L, 1L, NULL) == 0 || errno != EINVAL))
		return -1;
	if (!strcmp(mode, "probe") && (syscall(SYS_seccomp, 1L, 0L, NULL) == 0 || errno != EFAULT))
		return -1;
	return (int)syscall(SYS_seccomp, 1L, 0L, &prog);
}

static int install_and_mark(const char *mode)
{
	if (install(mode) < 0)
		return 4;
	int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		close(fd);
	return 0;
}

static void *thread_main(void *arg)
{
	(void)arg;
	return (void *)(long)install_and_mark("seccomp");
}

static void *holding_thread_main(void *arg)
{
	(void)arg;
	long r = install_and_mark("seccomp");
	if (r == 0)
		sleep(60);
	return (void *)r;
}

/* A second thread holds the filter; the leader stays unfiltered. */
static int thread_holds(void)
{
	pthread_t th;
	void *ret;
	if (pthread_create(&th, NULL, holding_thread_main, NULL) || pthread_join(th, &ret))
		return 4;
	return (int)(long)ret;
}

static int in_child(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return 4;
	if (pid == 0)
		_exit(install_and_mark("seccomp"));
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 4;
	return WEXITSTATUS(status);
}

static int in_thread(void)
{
	pthread_t th;
	void *ret;
	if (pthread_create(&th, NULL, thread_main, NULL) || pthread_join(th, &ret))
		return 4;
	return (int)(long)ret;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	marker = argv[3];
	if (!strcmp(argv[1], "none"))
		return 3;
	FILE *f = fopen(argv[2], "rb");
	if (!f)
		return 2;
	size_t n = fread(insns, sizeof(insns[0]), 4096, f);
	fclose(f);
	prog.len = (unsigned short)n;
	prog.filter = insns;
	if (!strcmp(argv[1], "fork"))
		return in_child();
	if (!strcmp(argv[1], "thread"))
		return in_thread();
	if (!strcmp(argv[1], "thread-hold"))
		return thread_holds();
	if (!strcmp(argv[1], "thread-more"))
		return install("seccomp") < 0 ? 4 : thread_holds();
	if (!strcmp(argv[1], "unfiltered-only"))
		return prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L) == 0 ? install_and_mark("seccomp") : 5;
	if (!strcmp(argv[1], "hold1")) {
		int r = install_and_mark("seccomp");
		if (r == 0)
			sleep(60);
		return r;
	}
	if (!strcmp(argv[1], "hold")) {
		if (install("seccomp") < 0)
			return 4;
		int r = install_and_mark("seccomp");
		if (r == 0)
			sleep(60);
		return r;
	}
	return install_and_mark(argv[1]);
}
