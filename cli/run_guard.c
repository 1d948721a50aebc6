/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The guard: a filter of its own, installed before the policy's, that keeps
 * a supervised program and its descendants away from syscage's processes.
 *
 * A supervised program could otherwise end its supervision: kill the
 * watchdog and the supervisor (same user, or root), and go on under a
 * filter nobody answers, where the kernel fails every call meant for the
 * supervisor with ENOSYS and KILL verdicts no longer kill.  The guard
 * refuses with EPERM, on every native ABI:
 *
 *   - any signal to the supervisor or the watchdog by pid: kill, tkill,
 *     tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo;
 *   - SIGKILL to a group that may hold them: kill(0), kill(-1) and
 *     kill(-GROUP) with the supervisor's process group (the program stays
 *     in it, for job control; other signals to the group are blocked by
 *     the supervisor or stop it, and stopping it only makes denied calls
 *     wait);
 *   - pidfd_open, ptrace, process_vm_readv/writev and prlimit64 on them;
 *   - fcntl(F_SETSIG, SIGKILL): SIGIO to a descriptor's owner (F_SETOWN,
 *     which can name any process) would otherwise deliver SIGKILL.
 *
 * pidfd_send_signal fails with ENOSYS, as on kernels before 5.1: a
 * /proc/PID directory serves as its pidfd, and which process that is the
 * filter cannot see.  Programs that probe for it (Go's runtime does) fall
 * back to kill(), which the guard can judge.
 *
 * A separate filter, rather than rules in the policy's: where both decide
 * a call the kernel takes the stricter verdict, so the guard can only add
 * refusals, never soften a KILL of the policy's, and its EPERM (an ERRNO)
 * wins over the policy's USER_NOTIF, so no supervisor is asked to allow
 * these calls.  Its refusals are not reported.  Allowed calls it never
 * decides by argument are allowed from the kernel's per-filter cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>

#include "run.h"

enum { GUARD_EPERM = SCG_RET_ERRNO | EPERM, GUARD_ENOSYS = SCG_RET_ERRNO | ENOSYS };

/* Argument @arg (a C int) equals @value. */
static struct scg_expr *arg_is(unsigned arg, int32_t value)
{
	return scg_expr_cmp(arg, 32, SCG_CMP_EQ, UINT32_MAX, (uint32_t)value);
}

/* Argument @arg names one of @g's processes. */
static struct scg_expr *names_ours(const struct run_guard *g, unsigned arg)
{
	return scg_expr_or(arg_is(arg, g->supervisor), arg_is(arg, g->watchdog));
}

/* kill(): any signal to ours; SIGKILL to every process, to our group or to the caller's. */
static struct scg_expr *kill_cond(const struct run_guard *g)
{
	struct scg_expr *groups = scg_expr_or(scg_expr_or(arg_is(0, 0), arg_is(0, -1)),
					      arg_is(0, -g->group));
	return scg_expr_or(names_ours(g, 0), scg_expr_and(arg_is(1, SIGKILL), groups));
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

static int add_rules(struct scg_policy *p, const struct run_guard *g)
{
	static const char *const by_first_arg[] = { "tkill",	     "rt_sigqueueinfo",
						    "pidfd_open",	     "process_vm_readv",
						    "process_vm_writev", "prlimit64" };
	int r = refuse_if(p, "kill", kill_cond(g));
	for (size_t i = 0; r == 0 && i < sizeof(by_first_arg) / sizeof(by_first_arg[0]); i++)
		r = refuse_if(p, by_first_arg[i], names_ours(g, 0));
	if (r == 0)
		r = refuse_if(p, "tgkill", scg_expr_or(names_ours(g, 0), names_ours(g, 1)));
	if (r == 0)
		r = refuse_if(p, "rt_tgsigqueueinfo", scg_expr_or(names_ours(g, 0), names_ours(g, 1)));
	if (r == 0)
		r = refuse_if(p, "ptrace", names_ours(g, 1));
	/* fcntl64: the 32-bit ABI's name for it */
	for (size_t i = 0; r == 0 && i < 2; i++)
		r = refuse_if(p, i ? "fcntl64" : "fcntl",
			      scg_expr_and(arg_is(1, F_SETSIG), arg_is(2, SIGKILL)));
	if (r == 0)
		r = refuse(p, "pidfd_send_signal", GUARD_ENOSYS, NULL);
	return r;
}

int run_guard_compile(const struct run_guard *g, struct scg_prog *out)
{
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = scg_policy_add_native_arches(p);
	scg_policy_set_default(p, SCG_RET_ALLOW);
	scg_policy_set_badarch(p, SCG_RET_ALLOW);
	if (r == 0)
		r = add_rules(p, g);
	if (r == 0)
		r = scg_compile(p, NULL, out, NULL);
	scg_policy_free(p);
	return r;
}
