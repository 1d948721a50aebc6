/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Timing a syscall loop under filters.  Filters cannot be removed, so every
 * measurement gets a fresh child.  The child reports through shared memory
 * rather than a pipe: after the filters are in, it makes no syscall but the
 * one measured (clock_gettime goes through the vDSO), so a policy that
 * denies write() or kills on exit_group() cannot lose the results.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* The child gives up after this long (a filter that blocks the call, say). */
#define CHILD_TIMEOUT_S 60

enum child_state { CHILD_STARTED, CHILD_INSTALLED, CHILD_DONE, CHILD_FAILED };

struct shared {
	volatile int state;
	int err;             /* with CHILD_FAILED */
	size_t failed_at;    /* which filter did not load */
	uint64_t calls;
	long result;
	double ns;
};

double bench_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_pick_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return -1;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The measured loop; noinline keeps its shape the same for every filter. */
static __attribute__((noinline)) long call_loop(const struct bench_call *c, uint64_t n)
{
	long r = 0;
	for (uint64_t i = 0; i < n; i++)
		r = syscall((long)c->nr, c->args[0], c->args[1], c->args[2], c->args[3],
			    c->args[4], c->args[5]);
	return r < 0 ? -errno : r;
}

static int install(const struct scg_prog *progs, size_t nprogs, struct shared *sh)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return -errno;
	for (size_t i = 0; i < nprogs; i++) {
		struct sock_fprog fprog = { .len = (unsigned short)progs[i].len,
					    .filter = (struct sock_filter *)progs[i].insns };
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0) {
			sh->failed_at = i;
			return -errno;
		}
	}
	return 0;
}

/* Calls per repetition so that one lasts about @rep_ms. */
static uint64_t calibrate(const struct bench_call *call, double rep_ms)
{
	double t0 = now_ns();
	call_loop(call, 200);
	double per_call = (now_ns() - t0) / 200;
	double want = rep_ms * 1e6 / (per_call > 1 ? per_call : 1);
	return want < 1000 ? 1000 : (uint64_t)want;
}

static __attribute__((noreturn)) void child(const struct bench_params *p, const struct scg_prog *progs,
					    size_t nprogs, const struct bench_call *call, uint64_t calls,
					    struct shared *sh)
{
	if (p->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(p->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	alarm(CHILD_TIMEOUT_S);
	int r = install(progs, nprogs, sh);
	if (r < 0) {
		sh->err = -r;
		sh->state = CHILD_FAILED;
		_exit(1);
	}
	sh->state = CHILD_INSTALLED;
	uint64_t n = calls ? calls : calibrate(call, p->rep_ms);
	call_loop(call, n / 4 + 1); /* warm-up: caches, branch predictors, frequency */
	double t0 = now_ns();
	sh->result = call_loop(call, n);
	sh->ns = (now_ns() - t0) / (double)n;
	sh->calls = n;
	sh->state = CHILD_DONE;
	_exit(0);
}

void bench_summarize(double *samples, unsigned n, struct bench_timing *out)
{
	double dev[BENCH_MAX_REPS];
	double med = bench_median(samples, n);
	for (unsigned k = 0; k < n; k++)
		dev[k] = samples[k] > med ? samples[k] - med : med - samples[k];
	out->median_ns = med;
	out->min_ns = samples[0];
	out->max_ns = samples[n - 1];
	out->mad_pct = med > 0 ? 100 * bench_median(dev, n) / med : 0;
	out->ok = n > 0;
}

static void describe_failure(const struct shared *sh, int status, char *error, size_t size)
{
	if (sh->state == CHILD_FAILED)
		snprintf(error, size, "filter %zu did not load: %s", sh->failed_at + 1, strerror(sh->err));
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
		snprintf(error, size, "the filter killed the process (SIGSYS)");
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(error, size, "no result after %d s", CHILD_TIMEOUT_S);
	else if (WIFSIGNALED(status))
		snprintf(error, size, "the child died by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(error, size, "the child exited with status %d before finishing",
			 WEXITSTATUS(status));
}

int bench_measure_rep(const struct bench_params *params, const struct scg_prog *progs,
		      size_t nprogs, const struct bench_call *call, struct bench_timing *t, double *ns)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	if (sh == MAP_FAILED) {
		snprintf(t->error, sizeof(t->error), "mmap: %s", strerror(errno));
		return -errno;
	}
	memset(sh, 0, sizeof(*sh));
	fflush(NULL);
	int r = 0;
	pid_t pid = fork();
	if (pid < 0) {
		r = -errno;
		snprintf(t->error, sizeof(t->error), "fork: %s", strerror(-r));
	} else if (pid == 0) {
		child(params, progs, nprogs, call, t->calls, sh);
	} else {
		int status = 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (sh->state == CHILD_DONE) {
			*ns = sh->ns;
			t->calls = sh->calls;
			t->result = sh->result;
		} else {
			describe_failure(sh, status, t->error, sizeof(t->error));
			r = -ECHILD;
		}
	}
	munmap(sh, sizeof(*sh));
	return r;
}
