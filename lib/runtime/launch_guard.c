/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The guard: what keeps a supervised program and its descendants away from
 * the launcher's processes (the supervisor and the watchdog).
 *
 * A supervised program could otherwise end its supervision: kill the
 * watchdog and the supervisor (same user, or root), and go on under a
 * filter nobody answers, where the kernel fails every call meant for the
 * supervisor with ENOSYS and KILL verdicts no longer kill.  The guard
 * refuses with EPERM, on every native ABI:
 *
 *   - prlimit64 on them (a lowered RLIMIT_CPU hard limit ends in SIGKILL;
 *     Landlock does not judge limits);
 *
 * and what the program's Landlock domain (landlock.c) does not already
 * refuse in the kernel, which sees the target where a filter sees only
 * numbers (and testing them costs those syscalls the kernel's cache):
 * without a domain of ABI 6, the signals:
 *
 *   - any signal to the supervisor or the watchdog by pid: kill, tkill,
 *     tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo (kill also to the
 *     watchdog's group, which is its own);
 *   - SIGKILL to a group that may hold them: kill(0), kill(-1) and
 *     kill(-GROUP) with the supervisor's process group (the program stays
 *     in it, for job control; other signals to the group are blocked by
 *     the supervisor or stop it, and stopping it only makes denied calls
 *     wait);
 *   - pidfd_open on them;
 *   - fcntl(F_SETSIG, SIGKILL): SIGIO to a descriptor's owner (F_SETOWN,
 *     which can name any process) would otherwise deliver SIGKILL.
 *
 * and without any domain, ptrace and process_vm_readv/writev on them.
 *
 * Without a scoped domain pidfd_send_signal fails with ENOSYS, as on kernels before 5.1: a
 * /proc/PID directory serves as its pidfd, and which process that is the
 * filter cannot see.  Programs that probe for it (Go's runtime does) fall
 * back to kill(), which the guard can judge.
 *
 * Under REPORT (watch_own_filters), the guard also sends the supervisor
 * every filter the program installs, through seccomp(SECCOMP_SET_MODE_FILTER)
 * or prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER), where the policy lets that
 * run: the kernel ranks that filter's ERRNO, TRAP, KILL and USER_NOTIF above
 * the reported verdicts, so from then on it could answer calls the policy
 * kills, and nobody would hear of them.  The supervisor reports the install
 * and lets it run or refuses it (scg_launch_options.own_filters).
 *
 * The guard decides only what the policy lets run.  It goes into the
 * policy's own filter: every return of the compiled policy that lets a call
 * run (ALLOW, LOG, TRACE) becomes a jump into a copy of the guard whose
 * other calls get that same return (guard_attach()).  Calls the policy
 * refuses keep its verdict, reported: a separate filter would not do, since
 * the kernel ranks an ERRNO above USER_NOTIF and the guard's EPERM would
 * then replace the supervised verdicts of the policy, a KILL among them.
 * Whatever a supervisor would let run (a notification answered CONTINUE)
 * passes the same guard first (guard_refuses()).  The guard's own
 * refusals are not reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/compile.h>

#include "arch/kernel_abi.h"
#include "runtime/launch_internal.h"
#include "util/grow.h"

enum { GUARD_EPERM = SCG_RET_ERRNO | EPERM, GUARD_ENOSYS = SCG_RET_ERRNO | ENOSYS };

/* Argument @arg (a C int) equals @value. */
static struct scg_expr *arg_is(unsigned arg, int32_t value)
{
	return scg_expr_cmp(arg, 32, SCG_CMP_EQ, UINT32_MAX, (uint32_t)value);
}

/* Argument @arg names one of @g's processes. */
static struct scg_expr *names_ours(const struct launch_guard *g, unsigned arg)
{
	return scg_expr_or(arg_is(arg, g->supervisor), arg_is(arg, g->watchdog));
}

/* kill(): any signal to ours or to the watchdog's group (its own); SIGKILL to every
 * process, to the supervisor's group or to the caller's. */
static struct scg_expr *kill_cond(const struct launch_guard *g)
{
	struct scg_expr *groups = scg_expr_or(scg_expr_or(arg_is(0, 0), arg_is(0, -1)),
					      arg_is(0, -g->group));
	struct scg_expr *ours = scg_expr_or(names_ours(g, 0), arg_is(0, -g->watchdog));
	return scg_expr_or(ours, scg_expr_and(arg_is(1, SIGKILL), groups));
}

/* Appends a rule: @syscall gets @action (when @cond holds, if @cond is not NULL). */
static int refuse(struct scg_policy *p, const char *syscall, uint32_t action, struct scg_expr *cond)
{
	struct scg_rule_spec spec = { .action = action, .syscall = syscall, .cond = cond,
				      .loc = SCG_LOC_NONE };
	return scg_policy_add_rule(p, &spec);
}

/* The same when @cond holds; NULL there means the condition could not be built. */
static int refuse_if(struct scg_policy *p, const char *syscall, struct scg_expr *cond)
{
	return cond ? refuse(p, syscall, GUARD_EPERM, cond) : -ENOMEM;
}

/* seccomp() and prctl() installing a filter go to the supervisor, but for a transition's. */
static int watch_own_filters(struct scg_policy *p, const struct launch_guard *g, uint32_t allow)
{
	if (g->phase_cookie) {
		struct scg_expr *ours = scg_expr_cmp(3, 64, SCG_CMP_EQ, UINT64_MAX, g->phase_cookie);
		int r = ours ? refuse(p, "seccomp", allow, ours) : -ENOMEM;
		if (r < 0)
			return r;
	}
	struct scg_expr *set_filter = arg_is(0, SCG_SECCOMP_SET_MODE_FILTER);
	/* prctl's second argument is an unsigned long: the kernel compares all of it */
	struct scg_expr *prctl_filter = scg_expr_and(
		arg_is(0, SCG_PR_SET_SECCOMP),
		scg_expr_cmp(1, 64, SCG_CMP_EQ, UINT64_MAX, SCG_MODE_FILTER));
	int r = set_filter ? refuse(p, "seccomp", SCG_RET_USER_NOTIF, set_filter) : -ENOMEM;
	if (r == 0)
		r = prctl_filter ? refuse(p, "prctl", SCG_RET_USER_NOTIF, prctl_filter) : -ENOMEM;
	else
		scg_expr_free(prctl_filter);
	return r;
}

/* Signals to ours, by pid, by group, through a pidfd or SIGIO: Landlock's signal scope
 * (ABI 6) refuses them all in the kernel, which sees the target. */
static int refuse_signals(struct scg_policy *p, const struct launch_guard *g)
{
	static const char by_first_arg[][16] = {"tkill", "rt_sigqueueinfo", "pidfd_open"};
	int r = refuse_if(p, "kill", kill_cond(g));
	for (size_t i = 0; r == 0 && i < sizeof(by_first_arg) / sizeof(by_first_arg[0]); i++)
		r = refuse_if(p, by_first_arg[i], names_ours(g, 0));
	if (r == 0)
		r = refuse_if(p, "tgkill", scg_expr_or(names_ours(g, 0), names_ours(g, 1)));
	if (r == 0)
		r = refuse_if(p, "rt_tgsigqueueinfo", scg_expr_or(names_ours(g, 0), names_ours(g, 1)));
	/* fcntl64: the 32-bit ABI's name for it */
	for (size_t i = 0; r == 0 && i < 2; i++)
		r = refuse_if(p, i ? "fcntl64" : "fcntl",
			      scg_expr_and(arg_is(1, F_SETSIG), arg_is(2, SIGKILL)));
	if (r == 0)
		r = refuse(p, "pidfd_send_signal", GUARD_ENOSYS, NULL);
	return r;
}

/* Tracing ours and reading or writing their memory: any Landlock domain (ABI 1)
 * refuses it to its processes. */
static int refuse_tracing(struct scg_policy *p, const struct launch_guard *g)
{
	int r = refuse_if(p, "ptrace", names_ours(g, 1));
	if (r == 0)
		r = refuse_if(p, "process_vm_readv", names_ours(g, 0));
	if (r == 0)
		r = refuse_if(p, "process_vm_writev", names_ours(g, 0));
	return r;
}

static int add_rules(struct scg_policy *p, const struct launch_guard *g, uint32_t allow)
{
	/* Landlock does not judge resource limits: RLIMIT_CPU's hard limit ends with SIGKILL. */
	int r = refuse_if(p, "prlimit64", names_ours(g, 0));
	if (r == 0 && g->landlock_abi < 6)
		r = refuse_signals(p, g);
	if (r == 0 && g->landlock_abi < 1)
		r = refuse_tracing(p, g);
	/* Only where the call would run unseen: a TRACE return stays the tracer's. */
	if (r == 0 && g->watch_own_filters &&
	    (scg_action_of(allow) == SCG_ACTION_ALLOW || scg_action_of(allow) == SCG_ACTION_LOG))
		r = watch_own_filters(p, g, allow);
	return r;
}

int guard_policy(const struct launch_guard *g, uint32_t allow, struct scg_policy **out)
{
	*out = NULL;
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = scg_policy_add_native_arches(p);
	scg_policy_set_default(p, allow);
	scg_policy_set_badarch(p, allow);
	if (r == 0)
		r = add_rules(p, g, allow);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

bool guard_watches(const struct scg_policy *guard, const struct scg_notif *n)
{
	if (!guard)
		return false;
	struct scg_verdict v;
	scg_policy_eval(guard, &n->data, &v);
	return scg_action_of(v.action) == SCG_ACTION_USER_NOTIF;
}

bool guard_refuses(const struct scg_policy *guard, const struct scg_notif *n,
		       struct scg_notif_resp *resp)
{
	if (!guard || !(resp->flags & SCG_NOTIF_FLAG_CONTINUE))
		return false;
	struct scg_verdict v;
	scg_policy_eval(guard, &n->data, &v);
	if (scg_action_of(v.action) != SCG_ACTION_ERRNO)
		return false;
	resp->flags = 0;
	resp->val = 0;
	resp->error = -(int32_t)(v.action & SCG_RET_DATA);
	return true;
}

/* classic BPF opcodes (linux/filter.h) */
enum { OP_RET_K = 0x06, OP_JA = 0x05 };

/* A return that lets the call run, which the guard must see first. */
static bool lets_run(uint32_t ret)
{
	switch (scg_action_of(ret)) {
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_LOG:
	case SCG_ACTION_TRACE: /* the program's own tracer may let it run */
		return true;
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_TRAP:
	case SCG_ACTION_ERRNO:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_UNKNOWN:
		return false;
	}
	return false;
}

enum { MAX_COPIES = 8 };

/* The distinct returns of @prog that let a call run, in @rets (at most MAX_COPIES). */
static int collect_rets(const struct scg_prog *prog, uint32_t *rets, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < prog->len; i++) {
		const struct scg_insn *in = &prog->insns[i];
		if (SCG_BPF_CLASS(in->code) != SCG_BPF_CLASS(OP_RET_K))
			continue;
		if (in->code != OP_RET_K)
			return -EINVAL; /* ret A: which verdict, only the run tells */
		if (!lets_run(in->k))
			continue;
		size_t k = 0;
		while (k < *n && rets[k] != in->k)
			k++;
		if (k == *n) {
			if (*n == MAX_COPIES)
				return -E2BIG;
			rets[(*n)++] = in->k;
		}
	}
	return 0;
}

int guard_attach(const struct launch_guard *g, struct scg_prog *prog)
{
	uint32_t rets[MAX_COPIES];
	size_t nrets, len = prog->len;
	struct scg_prog copies[MAX_COPIES] = { { 0 } };
	int r = collect_rets(prog, rets, &nrets);
	for (size_t i = 0; r == 0 && i < nrets; i++) {
		struct scg_policy *p;
		r = guard_policy(g, rets[i], &p);
		if (r == 0)
			r = scg_compile(p, NULL, &copies[i], NULL);
		scg_policy_free(p);
		len += copies[i].len;
	}
	if (r == 0 && len > SCG_BPF_MAXINSNS)
		r = -E2BIG;
	if (r == 0)
		r = RESIZE_ARRAY(&prog->insns, len);
	if (r == 0) {
		struct scg_insn *insns = prog->insns;
		/* Each copy after the policy; the policy's returns that let a call
		 * run jump (forward, with a 32-bit reach) to the copy for theirs. */
		size_t at[MAX_COPIES], end = prog->len;
		for (size_t i = 0; i < nrets; i++) {
			at[i] = end;
			memcpy(&insns[end], copies[i].insns, copies[i].len * sizeof(*insns));
			end += copies[i].len;
		}
		for (size_t pc = 0; pc < prog->len; pc++) {
			for (size_t i = 0; i < nrets; i++) {
				if (insns[pc].code == OP_RET_K && insns[pc].k == rets[i]) {
					insns[pc] = (struct scg_insn){ .code = OP_JA,
								       .k = (uint32_t)(at[i] - pc - 1) };
					break;
				}
			}
		}
		prog->len = len;
	}
	for (size_t i = 0; i < nrets; i++)
		scg_prog_release(&copies[i]);
	return r;
}
