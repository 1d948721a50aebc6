/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program for `syscage inject` tests and benchmarks: makes one syscall a
 * number of times and prints, for each call, what it returned.
 *
 *   inject_probe [-f] open PATH N   openat(PATH) N times
 *   inject_probe [-f] getppid N     getppid() N times
 *   inject_probe [-f] sync N        sync() N times
 *   inject_probe [-f] unshare N     unshare(0) N times
 *   inject_probe loop N PATH        N getppid() calls, then one openat(PATH)
 *
 * Lines read "open 3: ENOENT", "getppid 2: 42" or "getppid 1: ppid"
 * (the real parent); -f forks first and runs
 * the calls in the child, then in the parent, with "child"/"parent" in front;
 * -t does the same with a second thread ("thread"/"main"), and prints
 * "thread joined" once it has ended.  -s (first) ignores SIGSYS, so that
 * only a real seccomp kill ends the program, never a catchable SIGSYS.
 * SIGUSR1 is counted, and the count printed at the end ("SIGUSR1: 2").
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

/* The parent's pid as /proc says, without a getppid() a rule could change. */
static long real_ppid(void)
{
	long ppid = -1;
	FILE *f = fopen("/proc/self/stat", "re");
	/* "pid (comm) state ppid ...": comm may hold spaces, so start after the last ')'. */
	char line[512];
	if (f && fgets(line, sizeof(line), f)) {
		char *p = strrchr(line, ')');
		if (p)
			sscanf(p + 1, " %*c %ld", &ppid);
	}
	if (f)
		fclose(f);
	return ppid;
}

static void report(const char *who, const char *what, long i, long r)
{
	if (!strcmp(what, "getppid") && r == real_ppid())
		printf("%s%s %ld: ppid\n", who, what, i);
	else if (r < 0)
		printf("%s%s %ld: %s\n", who, what, i, strerrorname_np(errno));
	else
		printf("%s%s %ld: %ld\n", who, what, i, r);
}

static void calls(const char *who, const char *what, const char *path, long n)
{
	for (long i = 1; i <= n; i++) {
		long r;
		if (!strcmp(what, "open")) {
			r = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
			if (r >= 0) {
				close((int)r);
				r = 0; /* fd numbers vary; success is what matters */
			}
		} else if (!strcmp(what, "sync")) {
			r = syscall(SYS_sync);
		} else if (!strcmp(what, "unshare")) {
			r = syscall(SYS_unshare, 0L);
		} else {
			r = syscall(SYS_getppid);
		}
		report(who, what, i, r);
	}
	fflush(stdout);
}

/* The benchmark workload: many calls that stay in the kernel, one that is injected. */
static int loop(long n, const char *path)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	printf("open: %s\n", fd < 0 ? strerrorname_np(errno) : "ok");
	return fd < 0 ? 1 : 0;
}

struct job {
	const char *what, *path;
	long n;
};

static void *thread_calls(void *arg)
{
	const struct job *j = arg;
	calls("thread ", j->what, j->path, j->n);
	return NULL;
}

int main(int argc, char **argv)
{
	signal(SIGUSR1, on_usr1);
	if (argc > 1 && !strcmp(argv[1], "-s")) {
		signal(SIGSYS, SIG_IGN);
		argv++;
		argc--;
	}
	bool fork_first = argc > 1 && !strcmp(argv[1], "-f");
	bool thread_first = argc > 1 && !strcmp(argv[1], "-t");
	argv += fork_first || thread_first;
	argc -= fork_first || thread_first;
	if (argc == 4 && !strcmp(argv[1], "loop"))
		return loop(atol(argv[2]), argv[3]);
	bool open_call = argc == 4 && !strcmp(argv[1], "open");
	bool other = argc == 3 && (!strcmp(argv[1], "getppid") || !strcmp(argv[1], "sync") ||
				   !strcmp(argv[1], "unshare"));
	if (!open_call && !other) {
		fprintf(stderr, "usage: inject_probe [-s] [-f|-t] open PATH N | [-s] [-f|-t] "
				"getppid|sync|unshare N | loop N PATH\n");
		return 2;
	}
	const char *path = open_call ? argv[2] : NULL;
	long n = atol(argv[argc - 1]);
	if (fork_first) {
		pid_t child = fork();
		if (child == 0) {
			calls("child ", argv[1], path, n);
			_exit(0);
		}
		waitpid(child, NULL, 0);
	}
	if (thread_first) {
		pthread_t t;
		struct job j = { argv[1], path, n };
		if (pthread_create(&t, NULL, thread_calls, &j) != 0)
			return 1;
		pthread_join(t, NULL);
		printf("thread joined\n");
		fflush(stdout);
	}
	calls(fork_first ? "parent " : thread_first ? "main " : "", argv[1], path, n);
	printf("SIGUSR1: %d\n", (int)usr1_seen);
	return 0;
}
