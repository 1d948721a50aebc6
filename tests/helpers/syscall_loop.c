/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscall_loop [-f FILTER]... [-r ROUNDS] [-c getppid|fcntl|personality] N: the cost of one
 * allowed syscall.
 *
 * With -f, first installs the raw filter in FILTER (struct sock_filter
 * records, as `syscage compile` writes them) itself, the way a program that
 * sandboxes itself would; -f given again installs a stack, oldest first (at
 * most 16).  Then makes N getppid calls ROUNDS times (default
 * 7) and prints the median and the fastest round as "ns/call X min Y"
 * (on a busy machine the fastest round is the one least disturbed).  getppid does no work of
 * its own, so what changes between runs is the filter's cost.  With -c fcntl,
 * fcntl(0, F_GETFD) instead: a call the launcher's guard once had to test
 * the arguments of; with -c personality, personality(0xffffffff), which only
 * reads the persona and which a filter checking personality's argument makes
 * uncacheable.  Used by bench/run-overhead.sh and bench/report.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct fprog {
	unsigned short len;
	struct insn *filter;
};

static int install(const char *path)
{
	static struct insn insns[4096];
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t n = fread(insns, sizeof(insns[0]), 4096, f);
	fclose(f);
	struct fprog prog = { .len = (unsigned short)n, .filter = insns };
	if (n == 0 || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0 ||
	    syscall(SYS_seccomp, 1L, 0L, &prog) < 0) {
		fprintf(stderr, "syscall_loop: cannot install %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *filters[16];
	int nfilters = 0, rounds = 7, c;
	long nr = SYS_getppid;
	while ((c = getopt(argc, argv, "f:r:c:")) != -1) {
		if (c == 'c' && !strcmp(optarg, "getppid"))
			nr = SYS_getppid;
		else if (c == 'c' && !strcmp(optarg, "fcntl"))
			nr = SYS_fcntl;
		else if (c == 'c' && !strcmp(optarg, "personality"))
			nr = SYS_personality;
		else if (c == 'f' && nfilters < 16)
			filters[nfilters++] = optarg;
		else if (c == 'r')
			rounds = atoi(optarg);
		else
			return 2;
	}
	if (optind != argc - 1 || rounds < 1 || rounds > 1000)
		return 2;
	long n = atol(argv[optind]);
	if (n < 1)
		return 2;
	for (int i = 0; i < nfilters; i++)
		if (install(filters[i]) < 0)
			return 4;
	double per_call[1000];
	/* getppid takes no arguments: the extra ones are ignored */
	long a0 = nr == SYS_personality ? 0xffffffffL : 0, a1 = nr == SYS_fcntl ? F_GETFD : 0;
	for (long i = 0; i < n / 10; i++) /* warm up caches and the CPU's frequency */
		syscall(nr, a0, a1);
	for (int r = 0; r < rounds; r++) {
		double t0 = now_ns();
		for (long i = 0; i < n; i++)
			syscall(nr, a0, a1);
		per_call[r] = (now_ns() - t0) / (double)n;
	}
	qsort(per_call, (size_t)rounds, sizeof(per_call[0]), cmp_double);
	printf("ns/call %.1f min %.1f\n", per_call[rounds / 2], per_call[0]);
	return 0;
}
