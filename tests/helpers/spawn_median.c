/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * spawn_median N CMD [ARG...] [:: CMD [ARG...]]...: how long starting each
 * command takes, from fork to the end of waitpid.
 *
 * Runs the commands in turn, N times each, interleaved (one of each per
 * turn), so that a change in the machine's load affects all alike; prints
 * one line per command: "median_us M min_us L status S" with S the exit
 * status of its last run.  Output of the commands goes to /dev/null.  Used
 * by bench/run-overhead.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_COMMANDS = 8, MAX_RUNS = 100000 };

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One run of @argv; its duration in microseconds, the exit status in *@status. */
static double run_once(char **argv, int *status)
{
	double t0 = now_us();
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		*status = -1;
	else
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return now_us() - t0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[1]);
	if (n < 1 || n > MAX_RUNS)
		return 2;
	char **cmds[MAX_COMMANDS];
	int ncmds = 0;
	cmds[ncmds++] = argv + 2;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "::"))
			continue;
		argv[i] = NULL; /* ends the previous command */
		if (ncmds == MAX_COMMANDS || i + 1 == argc)
			return 2;
		cmds[ncmds++] = argv + i + 1;
	}
	static double times[MAX_COMMANDS][MAX_RUNS];
	int status[MAX_COMMANDS] = { 0 };
	for (long r = 0; r < n; r++)
		for (int c = 0; c < ncmds; c++)
			times[c][r] = run_once(cmds[c], &status[c]);
	for (int c = 0; c < ncmds; c++) {
		qsort(times[c], (size_t)n, sizeof(double), cmp_double);
		printf("median_us %.1f min_us %.1f status %d\n", times[c][n / 2], times[c][0],
		       status[c]);
	}
	return 0;
}
