/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Timing a syscall loop under filters (scg_measure_syscall()).  Filters
 * cannot be removed, so every measurement gets a fresh child.  The child
 * reports through shared memory rather than a pipe: after the filters are
 * in, it makes no syscall but the one measured (clock_gettime goes through
 * the vDSO), so a policy that denies write() or kills on exit_group()
 * cannot lose the results.
 *
 * The time is the child's CPU time, which the parent reads from the
 * child's CPU-time clock right before and right after the loop, each time
 * with the child stopped (SIGSTOP, which the child's filters never see): a
 * running task's CPU time is brought up to date only at scheduler ticks
 * (4 ms at HZ=250), so a reading taken while the child runs can be that
 * much behind, more than a whole repetition of the loop; a stopped one is
 * exact.  Between its loop and the second stop the child spins, and counts
 * the time it spent on a CPU in that spin itself (the steps between two
 * clock reads short enough that nothing else ran), which comes off.  Time
 * the child spent waiting for a CPU taken by something else on the machine
 * does not count.  A CPU-time clock read in the child would be a syscall
 * its filters judge.  When the CPU time cannot be read, or comes out at no
 * time or above the loop's wall-clock time, the result is the loop's wall
 * clock time and says so.
 */
#include <errno.h>
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

#include <syscage/runtime.h>

#include "util/opts.h"

/* The child gives up after this long (a filter that blocks the call, say). */
#define CHILD_TIMEOUT_S 60

enum child_state { CHILD_STARTED, CHILD_INSTALLED, CHILD_READY, CHILD_LOOPED, CHILD_DONE,
		   CHILD_FAILED };

struct shared {
	volatile int state;
	volatile int go;      /* the parent read the CPU time: start the loop */
	volatile int release; /* the parent read it again: finish */
	int err;             /* with CHILD_FAILED */
	size_t failed_at;    /* which filter did not load */
	uint64_t calls;
	long result;
	double loop_ns;      /* wall-clock ns the loop took */
	volatile double tail_cpu_ns; /* time on a CPU spent spinning after the loop, so far */
};

/*
 * Two clock reads in the spin further apart than this had something else
 * run between them (another task, or a long interrupt): the step is not
 * counted as the child's time on a CPU.  A read takes tens of ns.
 */
#define SPIN_STEP_MAX_NS 5000.0

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The measured loop; noinline keeps its shape the same for every filter. */
static __attribute__((noinline)) long call_loop(const struct scg_measure_call *c, uint64_t n)
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
		int r = scg_filter_install(&progs[i], 0, NULL);
		if (r < 0) {
			sh->failed_at = i;
			return r;
		}
	}
	return 0;
}

/* Calls per repetition so that one lasts about @rep_ms. */
static uint64_t calibrate(const struct scg_measure_call *call, double rep_ms)
{
	double t0 = now_ns();
	call_loop(call, 200);
	double per_call = (now_ns() - t0) / 200;
	double want = rep_ms * 1e6 / (per_call > 1 ? per_call : 1);
	return want < 1000 ? 1000 : (uint64_t)want;
}

static __attribute__((noreturn)) void child(const struct scg_measure_opts *o,
					    const struct scg_prog *progs, size_t nprogs,
					    const struct scg_measure_call *call, struct shared *sh)
{
	if (o->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(o->cpu, &set);
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
	uint64_t n = o->calls ? o->calls : calibrate(call, o->rep_ms > 0 ? o->rep_ms : 20);
	call_loop(call, n / 4 + 1); /* warm-up: caches, branch predictors, frequency */
	sh->calls = n;
	sh->state = CHILD_READY;
	while (!sh->go)
		;
	double t0 = now_ns();
	sh->result = call_loop(call, n);
	double t1 = now_ns();
	sh->loop_ns = t1 - t0;
	sh->state = CHILD_LOOPED;
	/* Until the parent has stopped the child and read its CPU time: the
	 * spin's own time on a CPU, kept current at every step. */
	double last = t1, on_cpu = 0;
	while (!sh->release) {
		double t = now_ns();
		if (t - last < SPIN_STEP_MAX_NS)
			on_cpu += t - last;
		last = t;
		sh->tail_cpu_ns = on_cpu;
	}
	sh->state = CHILD_DONE;
	_exit(0);
}

/* The process's time on a CPU so far, in ns; -1: unknown.  Exact while it is stopped. */
static double cpu_ns_of(pid_t pid)
{
	clockid_t clock;
	struct timespec ts;
	if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &ts) == 0)
		return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	FILE *f = fopen(path, "re");
	unsigned long long ns;
	bool ok = f && fscanf(f, "%llu", &ns) == 1;
	if (f)
		fclose(f);
	return ok ? (double)ns : -1;
}

/* True when the child has exited or died (it stays a zombie for waitpid()). */
static bool child_ended(pid_t pid)
{
	siginfo_t info = { 0 };
	return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0;
}

/* Waits until the child reaches @state (or ends: false). */
static bool await_state(pid_t pid, struct shared *sh, int state)
{
	struct timespec pause = { 0, 20000 };
	while (sh->state < state) {
		if (sh->state == CHILD_FAILED || child_ended(pid))
			return sh->state >= state && sh->state != CHILD_FAILED;
		nanosleep(&pause, NULL);
	}
	return sh->state != CHILD_FAILED;
}

/*
 * Stops the child and reads its CPU time, exact now that it is off every
 * CPU; -1 when it cannot be stopped or read.  A child that ended meanwhile
 * is reaped: *@reaped and *@status say so.
 */
static double stopped_cpu_ns(pid_t pid, bool *reaped, int *status)
{
	if (kill(pid, SIGSTOP) < 0)
		return -1;
	pid_t w;
	while ((w = waitpid(pid, status, WUNTRACED)) < 0 && errno == EINTR)
		;
	if (w != pid)
		return -1;
	if (!WIFSTOPPED(*status)) {
		*reaped = true;
		return -1;
	}
	return cpu_ns_of(pid);
}

/*
 * Takes the child through its loop and reads its CPU time around it; ns
 * per call into *@cpu_ns, or -1 when it cannot be read or cannot be right
 * (no time at all, or more than the loop's wall-clock time, beyond what
 * stopping and resuming the child adds).  *@reaped: the child ended and
 * was reaped, its status in *@status.
 */
static void time_child(pid_t pid, struct shared *sh, double *cpu_ns, bool *reaped, int *status)
{
	*cpu_ns = -1;
	if (!await_state(pid, sh, CHILD_READY)) {
		sh->go = sh->release = 1;
		return;
	}
	double start = stopped_cpu_ns(pid, reaped, status);
	sh->go = 1;
	if (*reaped || kill(pid, SIGCONT) < 0) {
		sh->release = 1;
		return;
	}
	bool looped = await_state(pid, sh, CHILD_LOOPED);
	double end = looped ? stopped_cpu_ns(pid, reaped, status) : -1;
	double tail = sh->tail_cpu_ns;
	sh->release = 1;
	if (*reaped || kill(pid, SIGCONT) < 0 || !await_state(pid, sh, CHILD_DONE) || !sh->calls)
		return;
	double loop = end - start - tail;
	/* Stopping and resuming take the child through the kernel for some µs. */
	double slack = sh->loop_ns / 50 + 50000;
	if (start < 0 || end < 0 || loop <= 0 || loop > sh->loop_ns + slack)
		return;
	if (loop > sh->loop_ns) /* the loop's own wall-clock time bounds its CPU time */
		loop = sh->loop_ns;
	*cpu_ns = loop / (double)sh->calls;
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

SCG_API int scg_measure_syscall(const struct scg_prog *filters, size_t nfilters,
				const struct scg_measure_call *call,
				const struct scg_measure_opts *opts,
				struct scg_measure_result *out)
{
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	struct scg_measure_opts o;
	if (!call || (nfilters && !filters) ||
	    opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_measure_opts, rep_ms)) < 0) {
		snprintf(out->error, sizeof(out->error), "invalid arguments");
		return -EINVAL;
	}
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	if (sh == MAP_FAILED) {
		int r = -errno;
		snprintf(out->error, sizeof(out->error), "mmap: %s", strerror(-r));
		return r;
	}
	memset(sh, 0, sizeof(*sh));
	fflush(NULL);
	int r = 0;
	pid_t pid = fork();
	if (pid < 0) {
		r = -errno;
		snprintf(out->error, sizeof(out->error), "fork: %s", strerror(-r));
	} else if (pid == 0) {
		child(&o, filters, nfilters, call, sh);
	} else {
		double cpu_ns;
		int status = 0;
		bool reaped = false;
		time_child(pid, sh, &cpu_ns, &reaped, &status);
		if (!reaped) {
			kill(pid, SIGCONT); /* when a stop was left pending */
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
		}
		if (sh->state == CHILD_DONE && sh->calls) {
			out->cpu_clock = cpu_ns > 0;
			out->ns_per_call = cpu_ns > 0 ? cpu_ns : sh->loop_ns / (double)sh->calls;
			out->calls = sh->calls;
			out->result = sh->result;
		} else {
			describe_failure(sh, status, out->error, sizeof(out->error));
			out->failed_filter = sh->failed_at;
			r = sh->state == CHILD_FAILED ? -sh->err : -ECHILD;
		}
	}
	munmap(sh, sizeof(*sh));
	return r;
}
