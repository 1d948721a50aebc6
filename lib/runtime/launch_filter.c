/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filter the launcher installs, derived from the caller's policy.
 *
 * The first rules let execve/execveat through when argument 5 holds a
 * random 64-bit cookie.  execve has three arguments and ignores the sixth
 * register, so only the launcher's own raw syscall, made with the cookie in
 * that register, matches: the program starts even when the policy denies
 * execve.  The cookie lives only in the child's memory and in the installed
 * filter; the successful exec replaces that memory, the filter cannot be
 * read back without CAP_SYS_ADMIN, and the launcher is not dumpable, so the
 * program has no way to learn it and no later exec can use the rule.  The
 * child also needs sendmsg (to hand the listener to the supervisor) and
 * exit_group (when exec fails) before exec, so they get the same cookie rule.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/compile.h>
#include <syscage/lang.h>

#include "runtime/launch_internal.h"

static const char cookie_syscalls[][11] = {"execve", "execveat", "sendmsg", "exit_group"};

bool launch_action_reported(uint32_t action)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_ERRNO:
		/* ENOSYS says "no such syscall here", and the program falls back:
		 * glibc tries clone3 before clone on every pthread_create, so
		 * reporting it would cost each new thread a round trip through the
		 * supervisor and a line of noise.  The launcher runs only native
		 * programs, so the host's ENOSYS is the one to match. */
		return (action & SCG_RET_DATA) != ENOSYS;
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_UNKNOWN:
		return true;
	case SCG_ACTION_KILL_THREAD: /* the supervisor cannot kill just one thread */
	case SCG_ACTION_TRAP:        /* a SIGSYS with siginfo only the kernel can raise */
	case SCG_ACTION_TRACE:
	case SCG_ACTION_LOG:
	case SCG_ACTION_ALLOW:
		return false;
	}
	return false;
}

/* The verdict the filter carries for the policy's @action. */
static uint32_t installed_action(uint32_t action, enum install_how how)
{
	enum scg_action a = scg_action_of(action);
	bool denies = a != SCG_ACTION_ALLOW && a != SCG_ACTION_LOG;
	switch (how) {
	case INSTALL_AS_IS:
		break;
	case INSTALL_REPORT:
		return launch_action_reported(action) ? SCG_RET_USER_NOTIF : action;
	case INSTALL_COMPLAIN:
		/* ENOSYS is the fallback signal run leaves unreported (see above):
		 * the kernel's log takes it, so that clone3 costs no round trip. */
		if (a == SCG_ACTION_ERRNO && (action & SCG_RET_DATA) == ENOSYS)
			return SCG_RET_LOG;
		return denies ? SCG_RET_USER_NOTIF : action;
	case INSTALL_LOG:
		return denies ? SCG_RET_LOG : action;
	}
	return action;
}

static int native_arch_mask(uint32_t *mask)
{
	*mask = scg_arch_mask_bit(scg_arch_native());
	return *mask ? 0 : -ENOSYS;
}

static int add_cookie_rules(struct scg_policy *p, uint64_t cookie, uint64_t phase_cookie)
{
	uint32_t mask;
	int r = native_arch_mask(&mask);
	if (r < 0)
		return r;
	if (phase_cookie) {
		/* the transition to the next phase (launch_phases.c) */
		struct scg_rule_spec spec = {
			.action = SCG_RET_ALLOW,
			.syscall = "seccomp",
			.arch_mask = mask,
			.cond = scg_expr_cmp(3, 64, SCG_CMP_EQ, UINT64_MAX, phase_cookie),
			.loc = SCG_LOC_NONE,
		};
		if (!spec.cond || (r = scg_policy_add_rule(p, &spec)) < 0)
			return spec.cond ? r : -ENOMEM;
	}
	for (size_t i = 0; cookie && i < sizeof(cookie_syscalls) / sizeof(cookie_syscalls[0]); i++) {
		struct scg_rule_spec spec = {
			.action = SCG_RET_ALLOW,
			.syscall = cookie_syscalls[i],
			.arch_mask = mask,
			.cond = scg_expr_cmp(5, 64, SCG_CMP_EQ, UINT64_MAX, cookie),
			.loc = SCG_LOC_NONE,
		};
		if (!spec.cond)
			return -ENOMEM;
		r = scg_policy_add_rule(p, &spec);
		if (r < 0)
			return r;
	}
	return 0;
}

static int copy_rules(struct scg_policy *p, const struct scg_policy *policy,
		      enum install_how how)
{
	for (size_t i = 0; i < scg_policy_rule_count(policy); i++) {
		struct scg_rule rule;
		int r = scg_policy_rule_at(policy, i, &rule);
		if (r < 0)
			return r;
		struct scg_rule_spec spec = {
			.action = installed_action(rule.action, how),
			.syscall = rule.syscall,
			.has_number = rule.has_number,
			.number = rule.number,
			.number_last = rule.number_last,
			.arch_mask = rule.arch_mask,
			.cond = NULL,
			.loc = rule.loc,
		};
		if (rule.cond && !(spec.cond = scg_expr_clone(rule.cond)))
			return -ENOMEM;
		r = scg_policy_add_rule(p, &spec);
		if (r < 0)
			return r;
	}
	return 0;
}

int launch_build_policy(const struct scg_policy *policy, uint64_t cookie, uint64_t phase_cookie,
			enum install_how how, struct scg_policy **out)
{
	*out = NULL;
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = 0;
	bool native = false;
	for (size_t i = 0; i < scg_policy_arch_count(policy) && r == 0; i++) {
		const struct scg_arch *arch = scg_policy_arch_at(policy, i);
		native |= arch == scg_arch_native();
		r = scg_policy_add_arch(p, arch);
	}
	if (r == 0 && !native)
		r = -EXDEV; /* the policy does not cover the programs we run */
	scg_policy_set_default(p, installed_action(scg_policy_default(policy), how));
	scg_policy_set_badarch(p, installed_action(scg_policy_badarch(policy), how));
	uint32_t unknown;
	if (scg_policy_unknown(policy, &unknown))
		scg_policy_set_unknown(p, installed_action(unknown, how));
	if (r == 0)
		r = add_cookie_rules(p, cookie, phase_cookie);
	if (r == 0)
		r = copy_rules(p, policy, how);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

/*
 * Without the parse and the compile: a built-in profile ships compiled
 * (scg_profile_prebuilt()), and what launch_build_policy() adds to it is
 * simple to add to the program instead.  Its verdicts become the installed
 * ones, return by return, and the cookie rules go in front as a prefix
 * that lets the cookie calls through on the native ABI and falls into the
 * profile's program for everything else, the meaning of the cookie rules
 * placed first.  tests/cli/run_report.sh checks that the result decides
 * like the compiled policy.
 */
enum { OP_LD_ABS = 0x20, OP_JEQ_K = 0x15, OP_RET_K = 0x06 };

static struct scg_insn insn(uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	return (struct scg_insn){ .code = code, .jt = jt, .jf = jf, .k = k };
}

/* The cookie prefix for @native into @out (room for 16); returns its length. */
static size_t cookie_prefix(const struct scg_arch *native, uint64_t cookie, struct scg_insn *out)
{
	uint32_t nrs[sizeof(cookie_syscalls) / sizeof(cookie_syscalls[0])];
	size_t n = 0;
	for (size_t i = 0; i < sizeof(nrs) / sizeof(nrs[0]); i++)
		if (scg_syscall_lookup(native, cookie_syscalls[i], &nrs[n]) == 0)
			n++;
	if (n == 0)
		return 0; /* none of them exists here: nothing to let through */
	/* 3 + n tests, then 5 for the cookie: a jump "to the profile" skips the rest */
	size_t len = 3 + n + 5, at = 0;
	out[at++] = insn(OP_LD_ABS, 0, 0, SCG_DATA_ARCH);
	out[at++] = insn(OP_JEQ_K, 0, (uint8_t)(len - 2), scg_arch_audit(native));
	out[at++] = insn(OP_LD_ABS, 0, 0, SCG_DATA_NR);
	for (size_t i = 0; i < n; i++) {
		uint8_t to_check = (uint8_t)(n - 1 - i), to_profile = (uint8_t)(len - at - 1);
		out[at] = insn(OP_JEQ_K, to_check, i + 1 == n ? to_profile : 0, nrs[i]);
		at++;
	}
	out[at++] = insn(OP_LD_ABS, 0, 0, (uint32_t)scg_arch_arg_offset(native, 5, false));
	out[at] = insn(OP_JEQ_K, 0, (uint8_t)(len - at - 1), (uint32_t)cookie);
	at++;
	out[at++] = insn(OP_LD_ABS, 0, 0, (uint32_t)scg_arch_arg_offset(native, 5, true));
	out[at] = insn(OP_JEQ_K, 0, (uint8_t)(len - at - 1), (uint32_t)(cookie >> 32));
	at++;
	out[at++] = insn(OP_RET_K, 0, 0, SCG_RET_ALLOW);
	return at;
}

int launch_prebuilt_filter(const char *profile, uint64_t cookie, enum install_how how,
			   struct scg_prog *out)
{
	*out = (struct scg_prog){ 0 };
	const struct scg_arch *native = scg_arch_native();
	struct scg_prog body;
	int r = scg_profile_prebuilt(profile, native, &body);
	if (r < 0)
		return r;
	struct scg_insn prefix[16];
	size_t plen = cookie_prefix(native, cookie, prefix);
	struct scg_insn *insns = malloc((plen + body.len) * sizeof(*insns));
	if (!insns || plen + body.len > SCG_BPF_MAXINSNS) {
		free(insns);
		scg_prog_release(&body);
		return insns ? -E2BIG : -ENOMEM;
	}
	memcpy(insns, prefix, plen * sizeof(*insns));
	for (size_t i = 0; i < body.len; i++) {
		struct scg_insn in = body.insns[i];
		if (in.code == OP_RET_K)
			in.k = installed_action(in.k, how);
		insns[plen + i] = in;
	}
	*out = (struct scg_prog){ insns, plen + body.len };
	scg_prog_release(&body);
	return 0;
}

const struct scg_policy *launch_policy(struct launch *l)
{
	if (l->policy)
		return l->policy;
	if (!l->lazy) {
		struct scg_diag *diag = scg_diag_new();
		if (diag && scg_profile_load(l->o.profile, NULL, &l->lazy, diag) < 0)
			l->lazy = NULL;
		scg_diag_free(diag);
	}
	return l->lazy;
}

const struct scg_policy *launch_fallback(struct launch *l)
{
	if (l->owned_fallback)
		return l->owned_fallback;
	return l->o.fallback ? l->o.fallback : launch_policy(l);
}

bool launch_refuses_own_filters(const struct launch *l)
{
	/* complaining, every call runs: installs too */
	return l->o.own_filters == SCG_OWN_FILTERS_REFUSE && l->how == INSTALL_REPORT;
}

void launch_policy_eval(const struct scg_policy *policy, const struct scg_seccomp_data *data,
			struct scg_verdict *v)
{
	if (policy)
		scg_policy_eval(policy, data, v);
	else /* the profile could not be parsed (no memory): refuse, do not guess */
		*v = (struct scg_verdict){ SCG_RET_ERRNO | ENOMEM, SCG_VERDICT_DEFAULT, 0 };
}

/* The policy built and compiled; diagnostics go to the caller's list. */
static int compile_policy(struct launch *l, uint64_t cookie, struct scg_prog *prog,
			  enum scg_launch_stage *stage)
{
	struct scg_policy *p;
	const struct scg_policy *policy = launch_policy(l);
	*stage = SCG_LAUNCH_STAGE_POLICY;
	int r = policy ? launch_build_policy(policy, cookie, l->phase_cookie, l->how, &p) : -ENOMEM;
	if (r < 0)
		return r;
	*stage = SCG_LAUNCH_STAGE_COMPILE;
	r = scg_compile(p, NULL, prog, l->o.diag);
	scg_policy_free(p);
	return r;
}

int launch_filter(struct launch *l, const struct launch_guard *g, uint64_t cookie,
		  struct scg_prog *out, enum scg_launch_stage *stage)
{
	*out = (struct scg_prog){ 0 };
	*stage = SCG_LAUNCH_STAGE_POLICY;
	int r = l->policy ? -ENOENT : launch_prebuilt_filter(l->o.profile, cookie, l->how, out);
	if (r == -ENOENT)
		r = compile_policy(l, cookie, out, stage);
	/* Unsupervised, every verdict is the kernel's: nothing to guard. */
	if (r == 0 && l->supervised) {
		*stage = SCG_LAUNCH_STAGE_GUARD;
		r = guard_attach(g, out);
		if (r < 0) {
			explicit_bzero(out->insns, out->len * sizeof(*out->insns));
			scg_prog_release(out);
		}
	}
	if (r == 0)
		*stage = SCG_LAUNCH_STAGE_NONE;
	return r;
}
