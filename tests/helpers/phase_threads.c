/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program with two threads for policies with phases (tests/cli/phases.sh,
 * docs/phases.md).  The policy it runs under gives getuid in the start
 * phase only; getppid is the trigger.
 *
 *   phase_threads            both threads call getuid before the trigger
 *                            (must work) and after it (must fail with EPERM)
 *   phase_threads fork       the same in a child forked before the trigger,
 *                            which enters the phase at its own trigger
 *   phase_threads diverge    the second thread first installs a filter of
 *                            its own, so that TSYNC cannot move it: the
 *                            transition fails and the program must not go on
 *
 * It prints one line per check (main before=0, thread after=-EPERM, ...) and
 * "done" at the end; the exit status is 0 when every check held.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int to_thread[2], from_thread[2];
static int failures;

static long raw_getuid(void)
{
	long r = syscall(SYS_getuid);
	return r < 0 ? -errno : r;
}

static void check(const char *who, const char *when, long got, int want_errno)
{
	bool good = want_errno ? got == -want_errno : got >= 0;
	printf("%s %s=%s%s\n", who, when, got < 0 ? "-" : "",
	       got < 0 ? strerrorname_np((int)-got) : "ok");
	if (!good)
		failures++;
}

/* A filter that lets everything run: enough to set this thread apart from the others. */
static int own_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = {1, &allow};
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void *thread_main(void *arg)
{
	bool diverge = arg != NULL;
	char c;
	if (diverge && own_filter() < 0)
		printf("thread own filter: %s\n", strerror(errno));
	check("thread", "before", raw_getuid(), 0);
	if (write(from_thread[1], "r", 1) != 1 || read(to_thread[0], &c, 1) != 1)
		exit(3);
	check("thread", "after", raw_getuid(), EPERM);
	if (write(from_thread[1], "d", 1) != 1)
		exit(3);
	return NULL;
}

/* Both threads before and after the trigger. */
static int run(const char *who, bool diverge)
{
	pthread_t t;
	char c;
	if (pipe(to_thread) < 0 || pipe(from_thread) < 0 ||
	    pthread_create(&t, NULL, thread_main, diverge ? (void *)1 : NULL) != 0)
		return 3;
	if (read(from_thread[0], &c, 1) != 1) /* the thread made its first call */
		return 3;
	check(who, "before", raw_getuid(), 0);
	syscall(SYS_getppid); /* the trigger */
	printf("%s passed the trigger\n", who);
	check(who, "after", raw_getuid(), EPERM);
	if (write(to_thread[1], "g", 1) != 1 || read(from_thread[0], &c, 1) != 1)
		return 3;
	pthread_join(t, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "fork")) {
		pid_t child = fork();
		if (child < 0)
			return 3;
		if (child == 0) {
			int r = run("child", false);
			_exit(r ? r : failures ? 1 : 0);
		}
		int status;
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			printf("child failed\n");
			failures++;
		}
		/* the parent never called the trigger: still in the start phase */
		check("parent", "still", raw_getuid(), 0);
	} else if (run("main", !strcmp(mode, "diverge")) != 0) {
		return 3;
	}
	printf("done\n");
	return failures ? 1 : 0;
}
