/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Workloads with known syscall counts, for the tests of syscage learn.
 *
 *   learn_workload getppid CHILDREN THREADS TOTAL
 *       CHILDREN processes with THREADS threads each make TOTAL getppid
 *       calls between them (TOTAL must divide evenly), all at once
 *   learn_workload int80 N    N getpid calls through int $0x80 (the x86 ABI; x86_64 only)
 *   learn_workload x32 N      N getpid calls with the x32 bit (seen by seccomp even
 *                             when the kernel has no x32 support)
 *   learn_workload x32-ran N  the same, failing (exit 1) unless each call ran and
 *                             returned the pid: for kernels with x32 on
 *   learn_workload prio WHICH...   getpriority(WHICH, 0) for each WHICH
 *   learn_workload uname      one uname call
 *   learn_workload signals N  N getppid calls while another thread keeps
 *                             interrupting this one with SIGUSR1 (SA_RESTART)
 *   learn_workload prctl-name  prctl(PR_SET_NAME) with a name in freshly
 *                             allocated memory: an address that changes from run to run
 *   learn_workload reuseaddr  setsockopt(SOL_SOCKET, SO_REUSEADDR) on a Unix socket
 *   learn_workload sockopts [crossed]
 *       a TCP socket's options at two levels: SO_REUSEADDR at SOL_SOCKET and
 *       TCP_NODELAY at IPPROTO_TCP, then getsockopt(SOL_SOCKET, SO_TYPE);
 *       crossed: also option 2 at IPPROTO_TCP (TCP_MAXSEG, SO_REUSEADDR's
 *       number), a pair the others do not make.  Exits 3 without AF_INET.
 *   learn_workload daemon uname|getppid
 *       forks a child and exits 0; the child waits until the parent's end of
 *       a pipe is closed (the parent is exiting) and then makes that call
 *
 * Exits 0 when everything went as planned, 1 otherwise, 2 on bad usage.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_barrier_t start;
static long per_thread;

static void *caller(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start); /* all threads call at the same time */
	for (long i = 0; i < per_thread; i++)
		syscall(SYS_getppid);
	return NULL;
}

static int child_work(long threads)
{
	pthread_t t[64];
	pthread_barrier_init(&start, NULL, (unsigned)threads);
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, caller, NULL) != 0)
			return 1;
	for (long i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static int many_getppid(long children, long threads, long total)
{
	if (children < 1 || threads < 1 || threads > 64 || total % (children * threads))
		return 2;
	per_thread = total / (children * threads);
	for (long c = 0; c < children; c++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(child_work(threads));
	}
	int failed = 0, status;
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	return failed;
}

static atomic_bool calls_done;
static pid_t caller_tid;

static void on_usr1(int sig)
{
	(void)sig;
}

/* A signal every few microseconds: most calls that wait on the supervisor are interrupted, yet
 * on a single processor the caller and the supervisor still get their turns (an interrupter that
 * never slept kept them off it, and the calls hardly advanced). */
static void *interrupter(void *arg)
{
	(void)arg;
	const struct timespec pause = { .tv_nsec = 5000 };
	while (!atomic_load(&calls_done)) {
		syscall(SYS_tgkill, getpid(), caller_tid, SIGUSR1);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* Calls interrupted while they wait for the supervisor must still count once each. */
static int interrupted_getppid(long n)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) < 0)
		return 1;
	caller_tid = (pid_t)syscall(SYS_gettid);
	pthread_t t;
	if (pthread_create(&t, NULL, interrupter, NULL) != 0)
		return 1;
	int failed = 0;
	pid_t parent = getppid();
	for (long i = 1; i < n; i++)
		failed |= syscall(SYS_getppid) != parent;
	atomic_store(&calls_done, true);
	pthread_join(t, NULL);
	return failed;
}

#if defined(__x86_64__)
static long getpid_int80(void)
{
	long ret = 20; /* getpid on i386 */
	__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
	return ret;
}
#endif

/* A descendant that makes @call once the program (this process) is gone. */
/* `sockopts [crossed]`: options at two levels (see the usage above). */
static int socket_options(const char *mode)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, type = 0, seg = 1200;
	socklen_t len = sizeof(type);
	if (fd < 0)
		return 3;
	bool done = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
		    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0 &&
		    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
	if (done && !strcmp(mode, "crossed"))
		done = setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &seg, sizeof(seg)) == 0;
	return close(fd) == 0 && done ? 0 : 1;
}

static int daemon_call(const char *call)
{
	int p[2];
	if (pipe(p) < 0)
		return 1;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0)
		return 0; /* exit: the child's read sees the end of the pipe */
	close(p[1]);
	char c;
	while (read(p[0], &c, 1) > 0)
		;
	if (!strcmp(call, "uname")) {
		struct utsname u;
		uname(&u);
	} else {
		syscall(SYS_getppid);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "getppid"))
		return many_getppid(atol(argv[2]), atol(argv[3]), atol(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "int80")) {
#if defined(__x86_64__)
		for (long i = atol(argv[2]); i > 0; i--)
			if (getpid_int80() != getpid())
				return 1;
		return 0;
#else
		return 1;
#endif
	}
	if (argc == 3 && !strcmp(argv[1], "x32")) {
		for (long i = atol(argv[2]); i > 0; i--)
			syscall(0x40000000L | SYS_getpid); /* ENOSYS without x32: the count is what matters */
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "x32-ran")) {
		for (long i = atol(argv[2]); i > 0; i--)
			if (syscall(0x40000000L | SYS_getpid) != getpid())
				return 1;
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "prio")) {
		for (int i = 2; i < argc; i++)
			getpriority((__priority_which_t)atoi(argv[i]), 0);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "signals"))
		return interrupted_getppid(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "uname")) {
		struct utsname u;
		return uname(&u) == 0 ? 0 : 1;
	}
	if (argc == 2 && !strcmp(argv[1], "prctl-name")) {
		char *name = strdup("learned");
		return name && prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL) == 0 ? 0 : 1;
	}
	if (argc == 2 && !strcmp(argv[1], "reuseaddr")) { /* a socket option, by its level */
		int fd = socket(AF_UNIX, SOCK_STREAM, 0), one = 1;
		return fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
				       close(fd) == 0
			       ? 0
			       : 1;
	}
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "sockopts"))
		return socket_options(argc == 3 ? argv[2] : "");
	if (argc == 3 && !strcmp(argv[1], "daemon"))
		return daemon_call(argv[2]);
	fprintf(stderr, "usage: learn_workload getppid|int80|x32|prio|uname|signals|reuseaddr|sockopts|daemon ...\n");
	return 2;
}
