/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Phases under the launcher (scg_launch_options.phases, docs/phases.md).
 *
 * The program's first filter is its start phase with the trigger of the
 * next phase as SECCOMP_RET_TRACE.  The program asked its parent, the
 * supervisor, to trace it before exec (PTRACE_TRACEME: no attach, so
 * neither the supervisor's non-dumpable state nor the program's Landlock
 * domain stands in the way), and the supervisor follows every process and
 * thread it makes.  At the trigger's seccomp stop, the supervisor turns
 * the stopped call into seccomp(SECCOMP_SET_MODE_FILTER, TSYNC, prog) with
 * the next phase's filter written on the thread's stack below the red
 * zone, sees its result at the syscall-exit stop, then puts the registers
 * back with the instruction pointer on the syscall instruction, so that
 * the trigger runs again, under the new filter too.  TSYNC puts every
 * thread of the process under the filter before the call returns, or fails
 * with the id of a thread it could not move; any failure ends the program
 * and its tree (fail closed).
 *
 * The injected call carries a random cookie in its fourth argument
 * register, which seccomp(2) ignores: every phase's filter, and the guard,
 * let that call alone through, whatever the policy says of seccomp.
 *
 * Each process transitions on its own trigger: a forked worker inherits its
 * parent's filters and phase.  A trigger seen again in a process already
 * past it (the earlier filter keeps sending it here: filters cannot be
 * removed) is let run at once.  Only the native ABI's calls trigger: the
 * trigger rules are the native ABI's, and the injection speaks x86_64.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <syscage/compile.h>
#include <syscage/lang.h>

#include "arch/kernel_abi.h"
#include "runtime/launch_internal.h"
#include "util/grow.h"

#if defined(__x86_64__)
#define PHASES_SUPPORTED 1
#else
#define PHASES_SUPPORTED 0
#endif

enum { TASK_RUNNING = 0, TASK_INJECTING };

struct task {
	pid_t tid, tgid;
	int state;
#if PHASES_SUPPORTED
	struct user_regs_struct saved; /* TASK_INJECTING: the trigger's registers */
#endif
	unsigned target; /* TASK_INJECTING: the phase being entered */
	bool fresh;	 /* made by a traced task: its first stop is the attach's SIGSTOP */
};

struct proc {
	pid_t tgid;
	unsigned phase;
};

struct phase_trace {
	const struct scg_phases *phases;
	struct launch *l;
	struct scg_prog *progs; /* progs[i]: the filter of phase i (i >= 1) */
	size_t nphases;
	uint64_t cookie;
	pid_t program;
	bool options_set;
	struct task *tasks;
	size_t ntasks, tasks_cap;
	struct proc *procs;
	size_t nprocs, procs_cap;
};

static void tell(struct phase_trace *t, pid_t pid, unsigned phase, int error)
{
	if (t->l->o.on_phase)
		t->l->o.on_phase(pid, scg_phases_name(t->phases, phase), error, t->l->o.ctx);
}

int phase_trace_new(struct launch *l, uint64_t cookie, struct phase_trace **out)
{
	*out = NULL;
	if (!PHASES_SUPPORTED)
		return -EOPNOTSUPP;
	struct phase_trace *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->phases = l->o.phases;
	t->l = l;
	t->cookie = cookie;
	t->nphases = scg_phases_count(t->phases);
	t->progs = calloc(t->nphases, sizeof(*t->progs));
	int r = t->progs ? 0 : -ENOMEM;
	for (size_t i = 1; r == 0 && i < t->nphases; i++) {
		struct scg_policy *phase, *built;
		r = scg_phases_filter_policy(t->phases, i, &phase);
		if (r < 0)
			break;
		r = launch_build_policy(phase, 0, cookie, INSTALL_AS_IS, &built);
		scg_policy_free(phase);
		if (r == 0)
			r = scg_compile(built, NULL, &t->progs[i], l->o.diag);
		scg_policy_free(built);
	}
	if (r < 0) {
		phase_trace_free(t);
		return r;
	}
	*out = t;
	return 0;
}

void phase_trace_free(struct phase_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->progs && i < t->nphases; i++) {
		if (t->progs[i].insns)
			explicit_bzero(t->progs[i].insns,
				       t->progs[i].len * sizeof(struct scg_insn));
		scg_prog_release(&t->progs[i]);
	}
	free(t->progs);
	free(t->tasks);
	free(t->procs);
	explicit_bzero(&t->cookie, sizeof(t->cookie));
	free(t);
}

/* --- tasks and processes ------------------------------------------------------ */

static struct task *find_task(struct phase_trace *t, pid_t tid)
{
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].tid == tid)
			return &t->tasks[i];
	return NULL;
}

static struct proc *find_proc(struct phase_trace *t, pid_t tgid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].tgid == tgid)
			return &t->procs[i];
	return NULL;
}

/* The thread group of @tid, from /proc (@tid itself when it cannot be read). */
static pid_t trace_tgid_of(pid_t tid)
{
	char path[64], line[128];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	pid_t tgid = tid;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return tgid;
}

static int set_proc(struct phase_trace *t, pid_t tgid, unsigned phase)
{
	struct proc *p = find_proc(t, tgid);
	if (!p) {
		if (GROW_ARRAY(&t->procs, &t->procs_cap, t->nprocs + 1, 16))
			return -ENOMEM;
		p = &t->procs[t->nprocs++];
		p->tgid = tgid;
	}
	p->phase = phase;
	return 0;
}

/* A new task (the program, or one it made): @phase is its process's when it is a new process. */
static int add_task(struct phase_trace *t, pid_t tid, unsigned phase)
{
	if (find_task(t, tid))
		return 0;
	if (GROW_ARRAY(&t->tasks, &t->tasks_cap, t->ntasks + 1, 16))
		return -ENOMEM;
	pid_t tgid = trace_tgid_of(tid);
	t->tasks[t->ntasks++] = (struct task){.tid = tid, .tgid = tgid, .fresh = tid != t->program};
	return find_proc(t, tgid) ? 0 : set_proc(t, tgid, phase);
}

static void drop_task(struct phase_trace *t, pid_t tid)
{
	for (size_t i = 0; i < t->ntasks; i++)
		if (t->tasks[i].tid == tid) {
			pid_t tgid = t->tasks[i].tgid;
			t->tasks[i] = t->tasks[--t->ntasks];
			bool left = false;
			for (size_t k = 0; k < t->ntasks; k++)
				left |= t->tasks[k].tgid == tgid;
			for (size_t k = 0; !left && k < t->nprocs; k++)
				if (t->procs[k].tgid == tgid)
					t->procs[k] = t->procs[--t->nprocs];
			return;
		}
}

int phase_trace_start(struct phase_trace *t, pid_t program)
{
	t->program = program;
	return add_task(t, program, 0);
}

/* --- the transition ------------------------------------------------------------ */

#if PHASES_SUPPORTED
/* Writes @len bytes to @tid's memory at @addr. */
static int poke(pid_t tid, uint64_t addr, const void *data, size_t len)
{
	struct iovec local = {(void *)data, len}, remote = {(void *)(uintptr_t)addr, len};
	if (process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)len)
		return 0;
	/* the program's memory may be read-only to process_vm_writev: /proc/PID/mem */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	FILE *f = fopen(path, "r+e");
	if (!f)
		return -errno;
	int r = fseeko(f, (off_t)addr, SEEK_SET) == 0 && fwrite(data, 1, len, f) == len &&
			fflush(f) == 0
		    ? 0
		    : -EIO;
	fclose(f);
	return r;
}

/* At @task's trigger stop: its call becomes seccomp(SET_MODE_FILTER, TSYNC, phase @target). */
static int inject(struct phase_trace *t, struct task *task, unsigned target)
{
	const struct scg_prog *prog = &t->progs[target];
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, task->tid, NULL, &regs) < 0)
		return -errno;
	/* struct sock_fprog, then the instructions, below the 128-byte red zone */
	size_t bytes = 16 + prog->len * sizeof(*prog->insns);
	uint64_t at = (regs.rsp - 128 - bytes) & ~(uint64_t)15;
	struct {
		uint16_t len;
		uint16_t pad[3];
		uint64_t filter;
	} fprog = {(uint16_t)prog->len, {0}, at + 16};
	int r = poke(task->tid, at, &fprog, sizeof(fprog));
	if (r == 0)
		r = poke(task->tid, at + 16, prog->insns, bytes - 16);
	if (r < 0)
		return r;
	task->saved = regs;
	regs.orig_rax = SYS_seccomp;
	regs.rdi = SCG_SECCOMP_SET_MODE_FILTER;
	regs.rsi = SCG_FILTER_FLAG_TSYNC;
	regs.rdx = at;
	regs.r10 = t->cookie;
	if (ptrace(PTRACE_SETREGS, task->tid, NULL, &regs) < 0)
		return -errno;
	/* the next stop of this thread is the injected call's exit */
	if (ptrace(PTRACE_SYSCALL, task->tid, NULL, NULL) < 0)
		return -errno;
	task->state = TASK_INJECTING;
	task->target = target;
	return 0;
}

/* At the injected call's exit: its result, then the trigger again. */
static int finish(struct phase_trace *t, struct task *task)
{
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, task->tid, NULL, &regs) < 0)
		return -errno;
	long result = (long)regs.rax;
	task->state = TASK_RUNNING;
	if (result != 0) /* -errno, or (TSYNC) the id of a thread left behind: EBUSY */
		return result < 0 ? (int)result : -EBUSY;
	regs = task->saved;
	regs.rip -= 2; /* syscall is two bytes: run the trigger again */
	regs.rax = regs.orig_rax;
	if (ptrace(PTRACE_SETREGS, task->tid, NULL, &regs) < 0)
		return -errno;
	explicit_bzero(&task->saved, sizeof(task->saved));
	int r = set_proc(t, task->tgid, task->target);
	if (r == 0)
		tell(t, task->tgid, task->target, 0);
	return r < 0 ? r : (ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 ? -errno : 0);
}
#endif

/* A trigger's stop: a transition, or (a process already past it) the call runs. */
static int on_trigger(struct phase_trace *t, struct task *task)
{
#if PHASES_SUPPORTED
	unsigned long data = 0;
	ptrace(PTRACE_GETEVENTMSG, task->tid, NULL, &data);
	struct proc *p = find_proc(t, task->tgid);
	unsigned now = p ? p->phase : 0;
	if (data == 0 || data >= t->nphases || data <= now || data != now + 1)
		return ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 && errno != ESRCH ? -errno
											: 0;
	return inject(t, task, (unsigned)data);
#else
	(void)t;
	(void)task;
	return -EOPNOTSUPP;
#endif
}

static int on_event(struct phase_trace *t, struct task *task, int event)
{
	unsigned long msg = 0;
	switch (event) {
	case PTRACE_EVENT_SECCOMP:
		return on_trigger(t, task);
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE: {
		/* the new task has its parent's filters: its process's phase */
		ptrace(PTRACE_GETEVENTMSG, task->tid, NULL, &msg);
		struct proc *p = find_proc(t, task->tgid);
		if (msg && add_task(t, (pid_t)msg, p ? p->phase : 0) < 0)
			return -ENOMEM;
		break;
	}
	case PTRACE_EVENT_EXEC:
		/* a thread that execs takes the leader's id: the old one is gone */
		ptrace(PTRACE_GETEVENTMSG, task->tid, NULL, &msg);
		if ((pid_t)msg != task->tid && msg)
			for (size_t i = 0; i < t->ntasks; i++)
				if (t->tasks[i].tid == (pid_t)msg)
					t->tasks[i] = t->tasks[--t->ntasks];
		break;
	default:
		break;
	}
	return ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 && errno != ESRCH ? -errno : 0;
}

/* One stop of @task with wait @status. */
static int on_stop(struct phase_trace *t, struct task *task, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	if (!t->options_set && task->tid == t->program) {
		/* the exec's SIGTRAP: from here on, the seccomp stops and new tasks */
		long opts = PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			    PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL |
			    PTRACE_O_TRACESYSGOOD;
		if (ptrace(PTRACE_SETOPTIONS, task->tid, NULL, (void *)opts) < 0)
			return -errno;
		t->options_set = true;
		if (sig == SIGTRAP && event == 0)
			return ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 ? -errno : 0;
	}
#if PHASES_SUPPORTED
	if (task->state == TASK_INJECTING && sig == (SIGTRAP | 0x80))
		return finish(t, task);
#endif
	if (sig == SIGTRAP && event)
		return on_event(t, task, event);
	if (sig == (SIGTRAP | 0x80))
		return ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 ? -errno : 0;
	/* a new task's first stop carries no signal of the program's */
	if (sig == SIGSTOP && task->fresh) {
		task->fresh = false;
		return ptrace(PTRACE_CONT, task->tid, NULL, NULL) < 0 ? -errno : 0;
	}
	/* any other signal goes on to the program */
	return ptrace(PTRACE_CONT, task->tid, NULL, (void *)(long)sig) < 0 && errno != ESRCH
		   ? -errno
		   : 0;
}

int phase_trace_poll(struct phase_trace *t, int *status)
{
	bool program_ended = false;
	for (bool again = true; again;) {
		again = false;
		for (size_t i = 0; i < t->ntasks; i++) {
			struct task *task = &t->tasks[i];
			int st;
			pid_t r;
			do
				r = waitpid(task->tid, &st, __WALL | WNOHANG);
			while (r < 0 && errno == EINTR);
			if (r <= 0) {
				if (r < 0 && errno == ECHILD)
					drop_task(t, task->tid), i--;
				continue;
			}
			again = true;
			if (WIFSTOPPED(st)) {
				/* a transition that fails ends the program: fail closed */
				unsigned entering =
				    task->state == TASK_INJECTING ? task->target : 0;
				pid_t tgid = task->tgid;
				int e = on_stop(t, task, st);
				if (e < 0) {
					struct proc *p = find_proc(t, tgid);
					tell(t, tgid,
					     entering ? entering
					     : p      ? p->phase + 1
						      : 0,
					     -e);
					return e;
				}
				continue;
			}
			pid_t tid = task->tid;
			if (tid == t->program) {
				*status = st;
				program_ended = true;
			}
			drop_task(t, tid);
			i--;
		}
	}
	return program_ended ? 1 : 0;
}

void phase_trace_kill(struct phase_trace *t)
{
	for (size_t i = 0; i < t->ntasks; i++)
		kill(t->tasks[i].tgid, SIGKILL);
	/* a traced thread that dies waits for its tracer: threads first, then
	 * the leaders, whose end the kernel reports once their threads are gone */
	for (int leaders = 0; leaders < 2; leaders++)
		for (size_t i = 0; i < t->ntasks; i++) {
			struct task *task = &t->tasks[i];
			if ((task->tid == task->tgid) != leaders)
				continue;
			int st;
			while (waitpid(task->tid, &st, __WALL) < 0 && errno == EINTR)
				;
		}
	t->ntasks = 0;
	t->nprocs = 0;
}
