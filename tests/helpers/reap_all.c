/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reap_all SECONDS CMD [ARG...]: runs CMD as a child subreaper, so every
 * descendant orphaned on the way becomes our child, and waits for all of
 * them.  Prints one line per process reaped ("reaped PID exit N" or
 * "reaped PID signal N") and exits with CMD's status.  When processes are
 * still alive after SECONDS, prints "left PID" for each, kills them and
 * exits 124: a test that something did not hang and left nothing behind.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* Our children still running (or not yet reaped): their PPid is us. */
static void kill_leftovers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[300], line[128];
		int pid = atoi(e->d_name), ppid = -1;
		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		FILE *f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "PPid: %d", &ppid) == 1)
				break;
		if (f)
			fclose(f);
		if (ppid == getpid()) {
			printf("left %d\n", pid);
			kill(pid, SIGKILL);
		}
	}
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1L, 0L, 0L, 0L) < 0)
		return 3;
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART: wait gets EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	pid_t cmd = fork();
	if (cmd < 0)
		return 3;
	if (cmd == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	alarm((unsigned)atoi(argv[1]));
	int code = 3;
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR && timed_out) {
			kill_leftovers();
			while (waitpid(-1, &status, 0) > 0)
				;
			return 124;
		}
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return code; /* ECHILD: everyone is gone */
		if (WIFEXITED(status))
			printf("reaped %d exit %d\n", (int)pid, WEXITSTATUS(status));
		else
			printf("reaped %d signal %d\n", (int)pid, WTERMSIG(status));
		if (pid == cmd)
			code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
}
