/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The filters a running task has installed, copied out with PTRACE_SECCOMP_GET_FILTER. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <syscage/inspect.h>

#include "inspect/internal.h"
#include "util/grow.h"

uint64_t inspect_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}

pid_t inspect_wait(pid_t pid, int *status, uint64_t deadline_ms)
{
	/* Polling keeps the wait bounded without signals or timers in a library. */
	for (unsigned spins = 0;; spins++) {
		pid_t r = waitpid(pid, status, __WALL | WNOHANG);
		if (r > 0)
			return r;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (inspect_now_ms() >= deadline_ms)
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
	uint64_t deadline = inspect_now_ms() + timeout_ms;
	int status;
	pid_t r = inspect_wait(pid, &status, deadline);
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
		if (GROW_ARRAY(&list, &cap, count + 1, 4)) {
			scg_prog_release(&p);
			r = -ENOMEM;
			break;
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

/* Whether this process's effective set holds capability @cap. */
static bool self_has_cap(unsigned cap)
{
	char hex[32];
	if (inspect_status_field(getpid(), "CapEff:", hex, sizeof(hex)) < 0)
		return geteuid() == 0;
	unsigned long long eff = strtoull(hex, NULL, 16);
	return cap < 64 && (eff >> cap) & 1ULL;
}

/* The real uid of @pid, or -1. */
static long owner_uid(pid_t pid)
{
	char uids[64];
	if (inspect_status_field(pid, "Uid:", uids, sizeof(uids)) < 0)
		return -1;
	return strtol(uids, NULL, 10);
}

#define CAP_SYS_PTRACE_BIT 19U
#define CAP_SYS_ADMIN_BIT 21U

/* PTRACE_SEIZE said EPERM: what stands in the way, and what would let it through. */
static void report_attach(struct scg_diag *diag, pid_t pid)
{
	char tracer[32] = "0";
	long uid = owner_uid(pid);
	inspect_status_field(pid, "TracerPid:", tracer, sizeof(tracer));
	if (strcmp(tracer, "0") != 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-traced",
			     "a process has one tracer at a time: read its filters once that one "
			     "has detached",
			     "process %d: cannot attach, process %s already traces it", (int)pid,
			     tracer);
	} else if (uid >= 0 && (uid_t)uid != geteuid() && !self_has_cap(CAP_SYS_PTRACE_BIT)) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-attach",
			     "attaching to another user's process needs CAP_SYS_PTRACE (run as "
			     "root, or as that user); reading its filters then needs CAP_SYS_ADMIN",
			     "process %d: cannot attach (ptrace): it belongs to uid %ld, and "
			     "syscage runs as uid %ld without CAP_SYS_PTRACE",
			     (int)pid, uid, (long)geteuid());
	} else {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-attach",
			     "CAP_SYS_PTRACE overrides a non-dumpable process (setuid, or "
			     "PR_SET_DUMPABLE 0) and Yama's ptrace_scope "
			     "(/proc/sys/kernel/yama/ptrace_scope 1 lets only ancestors attach)",
			     "process %d: cannot attach (ptrace): %s", (int)pid, strerror(EPERM));
	}
}

/* PTRACE_SECCOMP_GET_FILTER said EACCES: which of its two conditions failed. */
static void report_get_filter(struct scg_diag *diag, pid_t pid)
{
	char mode[16] = "0";
	inspect_status_field(getpid(), "Seccomp:", mode, sizeof(mode));
	if (!self_has_cap(CAP_SYS_ADMIN_BIT))
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-filters",
			     "run syscage as root, or give it CAP_SYS_ADMIN",
			     "process %d: reading its filters needs CAP_SYS_ADMIN, which syscage "
			     "(uid %ld) does not have", (int)pid, (long)geteuid());
	else if (strcmp(mode, "0") != 0)
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-filters",
			     "run syscage outside the sandbox or container that filters it",
			     "process %d: syscage runs under seccomp itself, and the kernel lets "
			     "only an unfiltered reader read filters", (int)pid);
	else
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-filters",
			     "reading filters needs CAP_SYS_ADMIN and a reader under no filter",
			     "process %d: %s", (int)pid, strerror(EACCES));
}

static void report(struct scg_diag *diag, pid_t pid, int r)
{
	const char *why = strerror(-r);
	if (r == -EPERM) {
		report_attach(diag, pid);
		return;
	}
	if (r == -EACCES) {
		report_get_filter(diag, pid);
		return;
	}
	if (r == -ESRCH)
		why = "no such process (or it exited)";
	else if (r == -ETIMEDOUT)
		why = "the process did not stop in time";
	scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "inspect-filters", NULL,
		     "process %d: %s", (int)pid, why);
}

/* scg_inspect_filters() without the diagnostic. */
static int read_filters(pid_t pid, unsigned timeout_ms, struct scg_prog **progs, size_t *n)
{
	*progs = NULL;
	*n = 0;
	if (ptrace((enum __ptrace_request)SCG_PTRACE_SEIZE, pid, NULL, NULL) < 0)
		return -errno;
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
	return r;
}

int scg_inspect_filters(pid_t pid, unsigned timeout_ms, struct scg_prog **progs, size_t *n,
			struct scg_diag *diag)
{
	if (pid <= 0 || !progs || !n)
		return -EINVAL;
	int r = read_filters(pid, timeout_ms, progs, n);
	if (r < 0)
		report(diag, pid, r);
	return r;
}

/* --- thread by thread ---------------------------------------------------- */

static bool same_stack(const struct scg_thread_filters *g, const struct scg_prog *progs, size_t n)
{
	if (g->nprogs != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (g->progs[i].len != progs[i].len ||
		    memcmp(g->progs[i].insns, progs[i].insns, progs[i].len * sizeof(struct scg_insn)))
			return false;
	return true;
}

/* Files thread @tid's @n filters (taking them, even on failure) with the threads that hold the same. */
static int add_thread(struct scg_process_filters *pf, pid_t tid, struct scg_prog *progs, size_t n)
{
	struct scg_thread_filters *g = NULL;
	for (size_t i = 0; i < pf->ngroups && !g; i++)
		if (same_stack(&pf->groups[i], progs, n))
			g = &pf->groups[i];
	if (!g) {
		if (RESIZE_ARRAY(&pf->groups, pf->ngroups + 1)) {
			scg_progs_free(progs, n);
			return -ENOMEM;
		}
		g = &pf->groups[pf->ngroups++];
		*g = (struct scg_thread_filters){ .progs = progs, .nprogs = n };
	} else {
		scg_progs_free(progs, n);
	}
	if (RESIZE_ARRAY(&g->tids, g->ntids + 1))
		return -ENOMEM;
	g->tids[g->ntids++] = tid;
	return 0;
}

/* Reads thread @tid into @pf; a thread that is gone, or holds no filter, adds nothing. */
static int read_thread(struct scg_process_filters *pf, pid_t tid, unsigned timeout_ms,
		       struct scg_diag *diag)
{
	struct scg_prog *progs;
	size_t n;
	int r = read_filters(tid, timeout_ms, &progs, &n);
	if (r == -ESRCH)
		return 0;
	if (r < 0) {
		report(diag, tid, r);
		return r;
	}
	if (n == 0)
		return 0;
	return add_thread(pf, tid, progs, n);
}

int scg_inspect_process_filters(pid_t pid, unsigned timeout_ms, struct scg_process_filters *out,
				struct scg_diag *diag)
{
	if (pid <= 0 || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	struct scg_proc_seccomp st;
	int r = scg_proc_seccomp_read(pid, &st, diag);
	if (r < 0)
		return r;
	struct scg_process_filters pf = { .pid = pid };
	char tgid[32];
	if (inspect_status_field(pid, "Tgid:", tgid, sizeof(tgid)) == 0 && atol(tgid) > 0)
		pf.pid = (pid_t)atol(tgid);
	if (pf.pid != pid) { /* a thread named by its own id: that one alone */
		pf.nthreads = 1;
		r = read_thread(&pf, pid, timeout_ms, diag);
	} else {
		pf.nthreads = st.nthreads;
		for (size_t i = 0; r == 0 && i < st.nthreads; i++) {
			enum scg_seccomp_mode m = st.threads[i].mode;
			if (m == SCG_SECCOMP_FILTER || m == SCG_SECCOMP_UNKNOWN)
				r = read_thread(&pf, st.threads[i].tid, timeout_ms, diag);
		}
	}
	scg_proc_seccomp_release(&st);
	if (r < 0) {
		scg_process_filters_release(&pf);
		return r;
	}
	*out = pf;
	return 0;
}

void scg_process_filters_release(struct scg_process_filters *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->ngroups; i++) {
		free(pf->groups[i].tids);
		scg_progs_free(pf->groups[i].progs, pf->groups[i].nprogs);
	}
	free(pf->groups);
	memset(pf, 0, sizeof(*pf));
}
