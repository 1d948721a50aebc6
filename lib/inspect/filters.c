/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filters a running task has installed, copied out with PTRACE_SECCOMP_GET_FILTER. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <syscage/inspect.h>

#include "inspect/internal.h"

uint64_t scg_inspect_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}

pid_t scg_inspect_wait(pid_t pid, int *status, uint64_t deadline_ms)
{
	/* Polling keeps the wait bounded without signals or timers in a library. */
	for (unsigned spins = 0;; spins++) {
		pid_t r = waitpid(pid, status, __WALL | WNOHANG);
		if (r > 0)
			return r;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (scg_inspect_now_ms() >= deadline_ms)
			return -ETIMEDOUT;
		struct timespec nap = { 0, spins < 100 ? 100000L : 2000000L };
		nanosleep(&nap, NULL);
	}
}

void scg_progs_free(struct scg_prog *progs, size_t n)
{
	if (!progs)
		return;
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&progs[i]);
	free(progs);
}

/*
 * Waits for the stop PTRACE_INTERRUPT asked for.  A signal-delivery stop
 * that comes first is as good a stop; its signal is kept in *@pending so the
 * detach delivers it.
 */
static int wait_for_stop(pid_t pid, unsigned timeout_ms, int *pending)
{
	uint64_t deadline = scg_inspect_now_ms() + timeout_ms;
	int status;
	pid_t r = scg_inspect_wait(pid, &status, deadline);
	if (r < 0)
		return r;
	if (WIFEXITED(status) || WIFSIGNALED(status))
		return -ESRCH;
	if (WIFSTOPPED(status) && (status >> 16) == 0)
		*pending = WSTOPSIG(status);
	return 0;
}

/* Copies filter @index into a new program; -ENOENT past the oldest. */
static int copy_filter(pid_t pid, unsigned long index, struct scg_insn *scratch,
		       struct scg_prog *out)
{
	/*
	 * The kernel copies the whole filter without a size argument, and a
	 * TSYNC from another thread could swap filters between a size query
	 * and the copy, so the buffer always holds the largest possible one.
	 */
	long n = ptrace((enum __ptrace_request)SCG_PTRACE_SECCOMP_GET_FILTER, pid, (void *)index,
			scratch);
	if (n < 0)
		return -errno;
	if (n == 0 || (unsigned long)n > SCG_BPF_MAXINSNS)
		return -EMEDIUMTYPE;
	out->insns = malloc((size_t)n * sizeof(*out->insns));
	if (!out->insns)
		return -ENOMEM;
	memcpy(out->insns, scratch, (size_t)n * sizeof(*out->insns));
	out->len = (size_t)n;
	return 0;
}

static int copy_all(pid_t pid, struct scg_prog **progs, size_t *n)
{
	struct scg_insn *scratch = malloc(SCG_BPF_MAXINSNS * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	struct scg_prog *list = NULL;
	size_t count = 0, cap = 0;
	int r;
	for (;;) {
		struct scg_prog p = { 0 };
		r = copy_filter(pid, count, scratch, &p);
		if (r == -ENOENT || (r == -EINVAL && count == 0)) {
			/* past the oldest filter; EINVAL at 0: not in filter mode */
			r = 0;
			break;
		}
		if (r < 0)
			break;
		if (count == cap) {
			cap = cap ? cap * 2 : 4;
			struct scg_prog *grown = realloc(list, cap * sizeof(*list));
			if (!grown) {
				scg_prog_release(&p);
				r = -ENOMEM;
				break;
			}
			list = grown;
		}
		list[count++] = p;
	}
	free(scratch);
	if (r < 0) {
		scg_progs_free(list, count);
		return r;
	}
	*progs = list;
	*n = count;
	return 0;
}

static void report(struct scg_diag *diag, pid_t pid, int r)
{
	const char *why = strerror(-r), *hint = NULL;
	if (r == -EPERM)
		hint = "attaching needs ptrace rights over the process (root, or the same user "
		       "with a permissive Yama ptrace_scope)";
	else if (r == -EACCES)
		hint = "reading filters needs CAP_SYS_ADMIN, and the reader must not be "
		       "under seccomp itself";
	else if (r == -ESRCH)
		why = "no such process (or it exited)";
	else if (r == -ETIMEDOUT)
		why = "the process did not stop in time";
	scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-filters", hint,
		     "process %d: %s", (int)pid, why);
}

int scg_inspect_filters(pid_t pid, unsigned timeout_ms, struct scg_prog **progs, size_t *n,
			struct scg_diag *diag)
{
	if (pid <= 0 || !progs || !n)
		return -EINVAL;
	*progs = NULL;
	*n = 0;
	if (ptrace((enum __ptrace_request)SCG_PTRACE_SEIZE, pid, NULL, NULL) < 0) {
		int r = -errno;
		report(diag, pid, r);
		return r;
	}
	int pending = 0;
	int r = 0;
	if (ptrace((enum __ptrace_request)SCG_PTRACE_INTERRUPT, pid, NULL, NULL) < 0)
		r = -errno;
	if (r == 0)
		r = wait_for_stop(pid, timeout_ms, &pending);
	if (r == 0)
		r = copy_all(pid, progs, n);
	/* Detaching resumes the task; a pending signal is handed back to it. */
	ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)pending);
	if (r < 0)
		report(diag, pid, r);
	return r;
}
