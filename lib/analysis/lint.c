/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Lint: known ways seccomp filters fail to confine.  Every finding is
 * decided on the filter itself (the engine or the emulator), so it holds
 * for compiled policies, libseccomp's output and hand-written BPF alike;
 * the policy, when known, only supplies the rule to point at.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/policy.h>

#include <syscage/lang.h>

#include "analysis/symexec.h"
#include "bpf/opcodes.h"
#include "lang/lang_internal.h"
#include "util/strbuf.h"

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define ENOSYS_GENERIC 38U

/* The checks, in the order lint runs them: two on the whole filter, then per ABI. */
enum lint_step {
	STEP_ARCH,
	STEP_REACHABLE,
	STEP_TARGET,
	STEP_ABI_BYPASS,
	STEP_MULTIPLEXER,
	STEP_IO_URING,
	STEP_RISKY,
	STEP_UNKNOWN,
	STEP_INT_WIDTH,
	STEP_DONE,
};

static const char *const step_codes[] = {
	"no-arch-check",   "unreachable",   "whether it is a target", "abi-bypass",
	"multiplexer-bypass", "io-uring-bypass", "risky-syscall", "unknown-not-enosys",
	"int-compared-64",
};

struct lint {
	const struct scg_prog *prog;
	const struct scg_policy *policy;
	struct scg_diag *diag;
	struct analysis_run *run;
	/* how far it got, for the report when the budget runs out */
	enum lint_step step;
	size_t at_arch, at_syscall;
	bool arch_checked;
};

static void last_pc(void *ctx, const struct scg_emu_step *step)
{
	*(size_t *)ctx = step->pc;
}

/* The filter's value for one call, and the RET instruction that gave it. */
static uint32_t verdict(const struct lint *l, uint32_t audit, uint32_t nr, uint64_t arg0,
			size_t *ret_pc)
{
	struct scg_seccomp_data d = { .nr = nr, .arch = audit, .args = { arg0 } };
	uint32_t ret = 0;
	size_t pc = 0;
	scg_emu_run(l->prog, &d, &ret, NULL, last_pc, &pc);
	if (ret_pc)
		*ret_pc = pc;
	return ret;
}

static bool lets_through(uint32_t ret)
{
	enum scg_action a = scg_action_of(ret);
	return a == SCG_ACTION_ALLOW || a == SCG_ACTION_LOG;
}

/* Where to point: the deciding rule of the policy, or the RET instruction. */
static struct scg_loc where(const struct lint *l, uint32_t audit, uint32_t nr, uint64_t arg0,
			    size_t ret_pc)
{
	if (l->policy) {
		struct scg_seccomp_data d = { .nr = nr, .arch = audit, .args = { arg0 } };
		struct scg_verdict v;
		scg_policy_eval(l->policy, &d, &v);
		struct scg_rule rule;
		if (v.source == SCG_VERDICT_RULE && scg_policy_rule_at(l->policy, v.rule, &rule) == 0 &&
		    rule.loc.line)
			return rule.loc;
		/* no rule: the setting that decided, where the policy says where it was written */
		struct scg_loc s = scg_policy_setting_loc(l->policy, SCG_SETTING_DEFAULT);
		if (v.source == SCG_VERDICT_BADARCH)
			s = scg_policy_setting_loc(l->policy, SCG_SETTING_BADARCH);
		else if (v.source == SCG_VERDICT_UNKNOWN &&
			 scg_policy_setting_loc(l->policy, SCG_SETTING_UNKNOWN).line)
			s = scg_policy_setting_loc(l->policy, SCG_SETTING_UNKNOWN);
		if (v.source != SCG_VERDICT_RULE && s.line)
			return s;
	}
	return SCG_LOC_INSN(ret_pc);
}

/* Where the policy writes the action @ret: a setting, or the first rule that gives it. */
static struct scg_loc action_loc(const struct lint *l, uint32_t ret, size_t pc)
{
	if (!l->policy)
		return SCG_LOC_INSN(pc);
	uint32_t unknown;
	const struct {
		bool gives;
		enum scg_setting setting;
	} settings[] = {
		{ scg_policy_badarch(l->policy) == ret, SCG_SETTING_BADARCH },
		{ scg_policy_default(l->policy) == ret, SCG_SETTING_DEFAULT },
		{ scg_policy_unknown(l->policy, &unknown) && unknown == ret, SCG_SETTING_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		struct scg_loc s = scg_policy_setting_loc(l->policy, settings[i].setting);
		if (settings[i].gives && s.line)
			return s;
	}
	struct scg_rule rule;
	for (size_t i = 0; i < scg_policy_rule_count(l->policy); i++)
		if (scg_policy_rule_at(l->policy, i, &rule) == 0 && rule.action == ret && rule.loc.line)
			return rule.loc;
	return SCG_LOC_INSN(pc);
}

/* --- whole-filter checks --------------------------------------------------- */

static int note_arch_word(void *ctx, const struct scg_region *region, const uint32_t *rets,
			  uint32_t winner)
{
	(void)rets;
	(void)winner;
	bool *checked = ctx;
	if (!scg_region_word_free(region, SCG_WORD_ARCH))
		*checked = true;
	return 0;
}

static int check_arch(struct lint *l, bool *checked_out)
{
	bool checked = false;
	int r = analysis_walk(l->run, l->prog, 1, NULL, note_arch_word, &checked, l->diag);
	if (r == 0 && !checked)
		scg_diag_add(l->diag, SCG_SEV_ERROR, SCG_LOC_INSN(0), "no-arch-check",
			     "load seccomp_data.arch first and kill every ABI you did not write the "
			     "rules for",
			     "the filter never tests the ABI: syscall numbers of other ABIs (i386 "
			     "through int 0x80, x32) mean other syscalls");
	*checked_out = checked;
	return r;
}

static void check_returns(struct lint *l)
{
	for (size_t pc = 0; pc < l->prog->len; pc++) {
		const struct scg_insn *in = &l->prog->insns[pc];
		if (in->code != (BPF_RET | BPF_K))
			continue;
		enum scg_action a = scg_action_of(in->k);
		if (a == SCG_ACTION_KILL_THREAD)
			scg_diag_add(l->diag, SCG_SEV_WARNING, action_loc(l, in->k, pc), "kill-thread",
				     "use KILL_PROCESS (kill-process in policies)",
				     "KILL_THREAD leaves the other threads running, in a state "
				     "the program never expected");
		else if (a == SCG_ACTION_TRACE)
			scg_diag_add(l->diag, SCG_SEV_NOTE, SCG_LOC_INSN(pc), "trace-without-tracer",
				     "use ERRNO or USER_NOTIF unless a ptrace supervisor is sure to "
				     "be attached",
				     "TRACE fails the call with ENOSYS when no tracer asked for "
				     "seccomp events");
	}
}

static int check_reachable(struct lint *l)
{
	bool *reached = calloc(l->prog->len, sizeof(*reached));
	if (!reached)
		return -ENOMEM;
	int r = analysis_reachable(l->run, l->prog, reached, l->diag);
	for (size_t pc = 0; r == 0 && pc < l->prog->len; pc++) {
		if (reached[pc])
			continue;
		size_t end = pc;
		while (end + 1 < l->prog->len && !reached[end + 1])
			end++;
		scg_diag_add(l->diag, SCG_SEV_WARNING, SCG_LOC_INSN(pc), "unreachable",
			     "remove them, or fix the jump or comparison that was meant to reach them",
			     "no input reaches instructions %zu..%zu", pc, end);
		pc = end;
	}
	free(reached);
	return r;
}

/* --- per-ABI checks -------------------------------------------------------- */

static bool nr_of(const struct scg_arch *arch, const char *name, uint32_t *nr)
{
	return arch && scg_syscall_lookup(arch, name, nr) == 0;
}

/* A syscall the native ABI denies but a companion ABI lets through under the same name. */
static void check_abi_bypass(struct lint *l, const struct scg_arch *native,
			     const struct scg_arch *other)
{
	size_t holes = 0;
	const char *first = NULL;
	size_t first_pc = 0;
	for (size_t i = 0; i < scg_syscall_count(native); i++) {
		const char *name;
		uint32_t nr, onr;
		scg_syscall_at(native, i, &name, &nr);
		if (!nr_of(other, name, &onr) || lets_through(verdict(l, scg_arch_audit(native), nr, 0, NULL)))
			continue;
		size_t pc;
		if (!lets_through(verdict(l, scg_arch_audit(other), onr, 0, &pc)))
			continue;
		if (!holes++) {
			first = name;
			first_pc = pc;
		}
	}
	if (holes)
		scg_diag_add(l->diag, SCG_SEV_ERROR, SCG_LOC_INSN(first_pc), "abi-bypass",
			     "deny the other ABI outright (badarch kill-process) or give it the same rules",
			     "%zu syscall%s denied on %s %s allowed through the %s ABI (first: %s)",
			     holes, holes == 1 ? "" : "s", scg_arch_name(native), holes == 1 ? "is" : "are",
			     scg_arch_name(other), first);
}

static int note_denial(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)region;
	(void)rets;
	if (!lets_through(winner))
		*(bool *)ctx = true;
	return 0;
}

/*
 * 1 when @name on @arch is denied for some argument values, or always (a
 * proof), else 0; or the budget's stop error.
 */
static int restricted(struct lint *l, const struct scg_arch *arch, const char *name)
{
	uint32_t nr, audit = scg_arch_audit(arch);
	if (!nr_of(arch, name, &nr))
		return 0;
	struct scg_region *r = scg_region_new();
	bool denied = false;
	int e = 0;
	if (r && scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit) == 0 &&
	    scg_region_restrict_range(r, SCG_WORD_NR, nr, nr) == 0)
		e = analysis_walk(l->run, l->prog, 1, r, note_denial, &denied, NULL);
	scg_region_free(r);
	return analysis_stopped(e) ? e : denied;
}

static bool allowed(struct lint *l, const struct scg_arch *arch, const char *name, uint64_t arg0,
		    size_t *pc)
{
	uint32_t nr;
	return nr_of(arch, name, &nr) && lets_through(verdict(l, scg_arch_audit(arch), nr, arg0, pc));
}

static int check_multiplexers(struct lint *l, const struct scg_arch *arch)
{
	static const char *const net[] = { "socket", "connect", "bind", "accept", "sendto", "setsockopt", NULL };
	static const char *const ipc[] = { "shmget", "shmat", "msgget", "semget", NULL };
	struct { const char *mux; const char *const *calls; } muxes[] = { { "socketcall", net }, { "ipc", ipc } };
	for (size_t m = 0; m < 2; m++) {
		size_t pc;
		if (!allowed(l, arch, muxes[m].mux, 1, &pc))
			continue;
		for (const char *const *c = muxes[m].calls; *c; c++) {
			int e = restricted(l, arch, *c);
			if (e < 0)
				return e;
			if (!e)
				continue;
			uint32_t nr = 0;
			nr_of(arch, muxes[m].mux, &nr);
			scg_diag_add(l->diag, SCG_SEV_WARNING, where(l, scg_arch_audit(arch), nr, 1, pc),
				     "multiplexer-bypass",
				     "deny the multiplexer on this ABI (errno(ENOSYS) makes libc use the "
				     "direct calls)",
				     "on %s, %s is restricted but %s, which performs it too, is allowed "
				     "and its arguments are behind a pointer", scg_arch_name(arch), *c,
				     muxes[m].mux);
			break;
		}
	}
	return 0;
}

static int check_io_uring(struct lint *l, const struct scg_arch *arch)
{
	static const char *const io[] = { "openat", "open", "connect", "socket", "read", "write", NULL };
	size_t pc;
	uint32_t nr = 0;
	if (!allowed(l, arch, "io_uring_setup", 0, &pc) || !nr_of(arch, "io_uring_setup", &nr))
		return 0;
	for (const char *const *c = io; *c; c++) {
		int e = restricted(l, arch, *c);
		if (e < 0)
			return e;
		if (!e)
			continue;
		scg_diag_add(l->diag, SCG_SEV_WARNING, where(l, scg_arch_audit(arch), nr, 0, pc),
			     "io-uring-bypass", "deny io_uring_setup, io_uring_enter and io_uring_register",
			     "on %s, io_uring is allowed while %s is restricted: io_uring performs "
			     "file and network operations without those syscalls",
			     scg_arch_name(arch), *c);
		return 0;
	}
	return 0;
}

struct risky {
	const char *name;
	uint64_t arg0; /* the dangerous argument value to probe */
	const char *why;
};

static const struct risky risky_calls[] = {
	{ "ptrace", 0, "inspects and controls other processes" },
	{ "bpf", 0, "loads programs into the kernel" },
	{ "kexec_load", 0, "replaces the running kernel" },
	{ "kexec_file_load", 0, "replaces the running kernel" },
	{ "init_module", 0, "loads kernel modules" },
	{ "finit_module", 0, "loads kernel modules" },
	{ "mount", 0, "changes the file system view" },
	{ "umount2", 0, "changes the file system view" },
	{ "pivot_root", 0, "changes the root file system" },
	{ "unshare", 0x10000000, "creates user namespaces with CLONE_NEWUSER" },
	{ "setns", 0, "enters other namespaces" },
	{ "clone", 0x10000000, "creates user namespaces with CLONE_NEWUSER" },
	{ "keyctl", 0, "reaches the kernel keyring, not namespaced" },
	{ "add_key", 0, "reaches the kernel keyring, not namespaced" },
	{ "userfaultfd", 0, "helps win kernel race conditions" },
	{ "perf_event_open", 0, "exposes kernel and other processes' data" },
	{ "personality", 0x0400000, "sets READ_IMPLIES_EXEC, which makes data executable" },
	{ "open_by_handle_at", 0, "opens files outside the mount namespace" },
	{ "process_vm_writev", 0, "writes other processes' memory" },
	{ "iopl", 3, "grants raw I/O port access" },
	{ "ioperm", 0, "grants raw I/O port access" },
};

static void check_risky(struct lint *l, const struct scg_arch *arch)
{
	for (size_t i = 0; i < sizeof(risky_calls) / sizeof(risky_calls[0]); i++) {
		const struct risky *rc = &risky_calls[i];
		size_t pc;
		uint32_t nr;
		if (!nr_of(arch, rc->name, &nr) || !allowed(l, arch, rc->name, rc->arg0, &pc))
			continue;
		scg_diag_add(l->diag, SCG_SEV_WARNING, where(l, scg_arch_audit(arch), nr, rc->arg0, pc),
			     "risky-syscall", "deny it unless the sandboxed program needs it",
			     "on %s, %s is allowed (it %s)", scg_arch_name(arch), rc->name, rc->why);
	}
}

static void check_unknown(struct lint *l, const struct scg_arch *arch)
{
	uint32_t nr = scg_syscall_max(arch) + 1 + scg_arch_nr_flags(arch);
	size_t pc;
	uint32_t ret = verdict(l, scg_arch_audit(arch), nr, 0, &pc);
	enum scg_action a = scg_action_of(ret);
	uint32_t enosys = ENOSYS_GENERIC;
	scg_errno_lookup(arch, "ENOSYS", &enosys);
	if (lets_through(ret) || (a == SCG_ACTION_ERRNO && (ret & SCG_RET_DATA) == enosys))
		return;
	char text[48];
	scg_ret_format(ret, text, sizeof(text));
	scg_diag_add(l->diag, SCG_SEV_NOTE, where(l, scg_arch_audit(arch), nr, 0, pc),
		     "unknown-not-enosys", "set `unknown errno(ENOSYS)` in the policy",
		     "on %s, syscalls newer than the filter get %s: programs probe new syscalls and "
		     "fall back only on ENOSYS", scg_arch_name(arch), text);
}

/* --- 64-bit tests of int parameters ---------------------------------------- */

struct high_words {
	const struct scg_arch *arch;
	const struct scg_syscall_params *params;
	unsigned tested; /* bit i: a region constrains argument i's high word */
};

static int note_high_words(void *ctx, const struct scg_region *region, const uint32_t *rets,
			   uint32_t winner)
{
	(void)rets;
	(void)winner;
	struct high_words *h = ctx;
	for (unsigned i = 0; i < h->params->count && i < 6; i++) {
		unsigned w = (unsigned)scg_arch_arg_offset(h->arch, i, true) / 4;
		if (!scg_region_word_free(region, w))
			h->tested |= 1U << i;
	}
	return 0;
}

/* Does @e test argument @arg's upper half (a 64-bit comparison whose mask reaches it)? */
static bool tests_high_word(const struct scg_expr *e, unsigned arg)
{
	if (!e)
		return false;
	if (e->kind == SCG_EXPR_CMP)
		return e->arg == arg && e->width == 64 && (e->mask >> 32) != 0;
	return tests_high_word(e->left, arg) || tests_high_word(e->right, arg);
}

/* The rule of the policy deciding @d, when it tests argument @arg's upper half. */
static bool decided_by_high_test(const struct lint *l, const struct scg_seccomp_data *d,
				 unsigned arg, struct scg_loc *loc)
{
	struct scg_verdict v;
	struct scg_rule rule;
	if (!l->policy)
		return false;
	scg_policy_eval(l->policy, d, &v);
	if (v.source != SCG_VERDICT_RULE || scg_policy_rule_at(l->policy, v.rule, &rule) < 0 ||
	    !rule.loc.line || !tests_high_word(rule.cond, arg))
		return false;
	*loc = rule.loc;
	return true;
}

/* The first rule for @nr on @arch that tests argument @arg's upper half, or instruction @pc. */
static struct scg_loc rule_testing(const struct lint *l, const struct scg_arch *arch, uint32_t nr,
				   unsigned arg, size_t pc)
{
	for (size_t i = 0; l->policy && i < scg_policy_rule_count(l->policy); i++) {
		struct scg_rule rule;
		uint32_t first, last;
		if (scg_policy_rule_range(l->policy, i, arch, &first, &last) == 0 && first <= nr &&
		    nr <= last && scg_policy_rule_at(l->policy, i, &rule) == 0 &&
		    tests_high_word(rule.cond, arg) && rule.loc.line)
			return rule.loc;
	}
	return SCG_LOC_INSN(pc);
}

/*
 * A bypass through an int parameter's upper half: a call the filter lets
 * through whose low half, the value the kernel reads, is denied when passed
 * as callers pass an int (zero-extended, or sign-extended when negative).
 * Found by walking the denied regions with that upper half 0, each again
 * with the upper half free, and checked on the emulator.
 */
struct bypass {
	struct lint *l;
	unsigned arg, hi_word;
	unsigned denied_left, through_left; /* how many regions to look at */
	bool found;
	struct scg_seccomp_data through; /* let through */
	size_t through_pc;
	uint32_t canonical_ret; /* what the same call gets with a clean upper half */
	int err;
};

static uint32_t verdict_of(const struct lint *l, const struct scg_seccomp_data *d, size_t *ret_pc)
{
	uint32_t ret = 0;
	size_t pc = 0;
	scg_emu_run(l->prog, d, &ret, NULL, last_pc, &pc);
	if (ret_pc)
		*ret_pc = pc;
	return ret;
}

static uint64_t with_upper(uint64_t v, uint32_t upper)
{
	return (v & 0xffffffffULL) | (uint64_t)upper << 32;
}

/* Is the call @d denied with argument @arg zero-extended, and sign-extended when negative? */
static bool denied_as_int(const struct bypass *b, const struct scg_seccomp_data *d, uint32_t *ret)
{
	struct scg_seccomp_data c = *d;
	c.args[b->arg] = with_upper(d->args[b->arg], 0);
	*ret = verdict_of(b->l, &c, NULL);
	if (lets_through(*ret))
		return false;
	if (!(c.args[b->arg] & 0x80000000U))
		return true;
	c.args[b->arg] = with_upper(d->args[b->arg], UINT32_MAX);
	return !lets_through(verdict_of(b->l, &c, NULL));
}

static int note_let_through(void *ctx, const struct scg_region *region, const uint32_t *rets,
			    uint32_t winner)
{
	(void)rets;
	struct bypass *b = ctx;
	if (!lets_through(winner))
		return 0;
	if (!b->through_left)
		return 1;
	b->through_left--;
	struct scg_seccomp_data d;
	size_t pc;
	if (scg_region_example(region, &d) < 0 || !lets_through(verdict_of(b->l, &d, &pc)) ||
	    !denied_as_int(b, &d, &b->canonical_ret))
		return 0;
	b->found = true;
	b->through = d;
	b->through_pc = pc;
	return 1;
}

static int note_denied_int(void *ctx, const struct scg_region *region, const uint32_t *rets,
			   uint32_t winner)
{
	(void)rets;
	struct bypass *b = ctx;
	if (lets_through(winner))
		return 0;
	if (!b->denied_left)
		return 1;
	b->denied_left--;
	/* the same words, but any upper half (general conditions left out: the emulator checks) */
	struct scg_region wide;
	int e = region_init(&wide);
	if (e < 0) {
		b->err = e;
		return 1;
	}
	for (unsigned w = 0; e == 0 && w < SCG_DATA_WORDS; w++) {
		if (w == b->hi_word)
			continue;
		wset_release(&wide.w[w]);
		e = wset_copy(&wide.w[w], &region->w[w]);
	}
	if (e == 0)
		e = analysis_walk(b->l->run, b->l->prog, 1, &wide, note_let_through, b, NULL);
	region_release(&wide);
	if (e < 0 && e != -E2BIG)
		b->err = e;
	return b->found || b->err || !b->through_left ? 1 : 0;
}

static int find_bypass(struct lint *l, const struct scg_arch *arch, uint32_t nr, unsigned arg,
		       struct bypass *b)
{
	uint32_t audit = scg_arch_audit(arch);
	*b = (struct bypass){ .l = l, .arg = arg, .denied_left = 64, .through_left = 256 };
	b->hi_word = (unsigned)scg_arch_arg_offset(arch, arg, true) / 4;
	struct scg_region *r = scg_region_new();
	int e = r ? 0 : -ENOMEM;
	if (e == 0)
		e = scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit);
	if (e == 0)
		e = scg_region_restrict_range(r, SCG_WORD_NR, nr, nr);
	if (e == 0)
		e = scg_region_restrict_range(r, b->hi_word, 0, 0);
	if (e == 0)
		e = analysis_walk(l->run, l->prog, 1, r, note_denied_int, b, NULL);
	scg_region_free(r);
	if (b->err)
		return b->err;
	return e < 0 && e != -E2BIG ? e : 0;
}

/* Constant prefixes that name the values of some int parameters. */
static const char *value_prefix(const char *syscall, const char *param)
{
	static const struct {
		const char *syscall, *param, *prefix;
	} names[] = {
		{ "socket", "domain", "AF_" }, { "socketpair", "domain", "AF_" },
		{ "fcntl", "cmd", "F_" },      { "prctl", "option", "PR_" },
		{ "kill", "sig", "SIG" },      { "tgkill", "sig", "SIG" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].syscall, syscall) && !strcmp(names[i].param, param))
			return names[i].prefix;
	return NULL;
}

static void put_int(struct strbuf *sb, const struct scg_arch *arch, const char *syscall,
		    const struct scg_syscall_param *p, uint32_t v)
{
	const char *prefix = p->name[0] ? value_prefix(syscall, p->name) : NULL;
	const char *name = prefix ? scg_constant_name(arch, prefix, v) : NULL;
	if (name)
		strbuf_appendf(sb, "%s", name);
	else if (v < 10)
		strbuf_appendf(sb, "%u", (unsigned)v);
	else if (v >= 0xfffff000U)
		strbuf_appendf(sb, "%d", (int)v);
	else
		strbuf_appendf(sb, "%#x", (unsigned)v);
}

/*
 * "socket(AF_VSOCK | 1 << 32, ...)": the arguments up to @arg, each as the
 * kernel reads it, @arg with the upper half the call carries (@upper) when
 * @with_upper.
 */
static void put_call(struct strbuf *sb, const struct scg_arch *arch, const char *syscall,
		     const struct scg_syscall_params *params, const struct scg_seccomp_data *d,
		     unsigned arg, bool show_upper)
{
	strbuf_appendf(sb, "%s(", syscall);
	for (unsigned i = 0; i <= arg; i++) {
		const struct scg_syscall_param *p = &params->params[i];
		if (i)
			strbuf_appendf(sb, ", ");
		if (p->kind != SCG_PARAM_32) {
			strbuf_appendf(sb, "%#llx", (unsigned long long)d->args[i]);
			continue;
		}
		put_int(sb, arch, syscall, p, (uint32_t)d->args[i]);
		uint32_t upper = (uint32_t)(d->args[i] >> 32);
		if (i == arg && show_upper && upper == 1)
			strbuf_appendf(sb, " | 1 << 32");
		else if (i == arg && show_upper && upper)
			strbuf_appendf(sb, " | %#llx", (unsigned long long)upper << 32);
	}
	strbuf_appendf(sb, "%s)", arg + 1 < params->count ? ", ..." : "");
}

static void report_bypass(struct lint *l, const struct scg_arch *arch, const char *name,
			  const struct scg_syscall_params *params, const struct bypass *b)
{
	const struct scg_syscall_param *p = &params->params[b->arg];
	struct scg_seccomp_data clean = b->through;
	clean.args[b->arg] = with_upper(clean.args[b->arg], 0);
	struct scg_loc loc;
	if (!decided_by_high_test(l, &b->through, b->arg, &loc) &&
	    !decided_by_high_test(l, &clean, b->arg, &loc))
		loc = rule_testing(l, arch, b->through.nr, b->arg, b->through_pc);
	struct strbuf through = { 0 }, denied = { 0 };
	put_call(&through, arch, name, params, &b->through, b->arg, true);
	put_call(&denied, arch, name, params, &clean, b->arg, false);
	char ret[48];
	scg_ret_format(b->canonical_ret, ret, sizeof(ret));
	const char *pname = p->name[0] ? p->name : "";
	scg_diag_add(l->diag, SCG_SEV_ERROR, loc, "int-compared-64",
		     scg_hint_text(SCG_HINT_INT_ARGS_32),
		     "on %s, %s is allowed, but the kernel reads %s's argument %u (%s %s) as its low "
		     "32 bits: that is %s, which gets %s",
		     scg_arch_name(arch), through.failed ? name : through.data, name, b->arg,
		     p->type, pname, denied.failed ? name : denied.data, ret);
	strbuf_release(&through);
	strbuf_release(&denied);
}

/*
 * The kernel does not clear the upper half of an int parameter's register:
 * a filter that looks at it (a 64-bit comparison) can be steered by the
 * caller.  Where that lets a denied call through it is an error, with the
 * call that does it; otherwise (a call denied that the kernel would run
 * the same as an allowed one) a warning.
 */
static int check_int_width(struct lint *l, const struct scg_arch *arch)
{
	if (scg_arch_bits(arch) != 64)
		return 0;
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr, audit = scg_arch_audit(arch);
		scg_syscall_at(arch, i, &name, &nr);
		l->at_syscall = i;
		struct high_words h = { arch, scg_syscall_params(name), 0 };
		if (!h.params)
			continue;
		struct scg_region *r = scg_region_new();
		int e = r ? 0 : -ENOMEM;
		if (e == 0)
			e = scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit);
		if (e == 0)
			e = scg_region_restrict_range(r, SCG_WORD_NR, nr, nr);
		if (e == 0)
			e = analysis_walk(l->run, l->prog, 1, r, note_high_words, &h, NULL);
		scg_region_free(r);
		if (e < 0)
			return e;
		for (unsigned a = 0; a < h.params->count && a < 6; a++) {
			const struct scg_syscall_param *p = &h.params->params[a];
			if (!(h.tested & (1U << a)) || p->kind != SCG_PARAM_32)
				continue;
			struct bypass b;
			e = find_bypass(l, arch, nr, a, &b);
			if (e < 0)
				return e;
			if (b.found) {
				report_bypass(l, arch, name, h.params, &b);
				continue;
			}
			size_t pc;
			verdict(l, audit, nr, 0, &pc);
			scg_diag_add(l->diag, SCG_SEV_WARNING, rule_testing(l, arch, nr, a, pc),
				     "int-compared-64",
				     scg_hint_text(SCG_HINT_INT_ARGS_32),
				     "on %s, %s's argument %u (%s %s) is tested over 64 bits, but the "
				     "kernel reads only its low 32 bits: calls are judged by an upper "
				     "half their callers fill at will (here it can only deny calls the "
				     "kernel would run as allowed ones)",
				     scg_arch_name(arch), name, a, p->type, p->name[0] ? p->name : "");
		}
	}
	return 0;
}

struct target_probe {
	uint32_t badarch;
	bool differs;
};

static int note_non_badarch(void *ctx, const struct scg_region *region, const uint32_t *rets,
			    uint32_t winner)
{
	(void)region;
	(void)rets;
	struct target_probe *t = ctx;
	if (!scg_verdict_same(winner, t->badarch, false))
		t->differs = true;
	return 0;
}

/*
 * ABIs the filter was written for: some call of theirs gets another verdict
 * than an ABI nobody knows (AUDIT_ARCH 0) gets.  1 or 0, or the budget's
 * stop error.
 */
static int is_target(struct lint *l, const struct scg_arch *arch)
{
	uint32_t audit = scg_arch_audit(arch);
	struct target_probe t = { verdict(l, 0, 0, 0, NULL), false };
	struct scg_region *r = scg_region_new();
	int e = r ? scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit) : -ENOMEM;
	/* x86_64 and x32 share the AUDIT value; bit 30 of nr tells them apart */
	if (e == 0 && audit == AUDIT_X86_64)
		e = wset_fix_bits(&r->w[SCG_WORD_NR], SCG_X32_SYSCALL_BIT, scg_arch_nr_flags(arch));
	/* nr == -1 carries bit 30 but is an x86_64 call (a tracer's skipped syscall) */
	if (e == 0 && audit == AUDIT_X86_64 && scg_arch_nr_flags(arch))
		e = wset_remove(&r->w[SCG_WORD_NR], UINT32_MAX, UINT32_MAX);
	if (e == 0)
		e = analysis_walk(l->run, l->prog, 1, r, note_non_badarch, &t, NULL);
	scg_region_free(r);
	return analysis_stopped(e) ? e : t.differs;
}

/* Whether lint judges @arch at all (without an arch check, only the native ABI). */
static bool judged(const struct lint *l, const struct scg_arch *arch)
{
	return l->arch_checked || arch == scg_arch_native();
}

/*
 * What lint had not checked when the budget ran out, as one diagnostic: the
 * check it was in, the checks after it on that ABI, and the ABIs after it.
 */
static void report_budget(const struct lint *l)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_append(&sb, "");
	if (l->step <= STEP_REACHABLE) {
		strbuf_appendf(&sb, "%s%s, and every ABI's checks",
				   l->step == STEP_ARCH ? "no-arch-check, " : "", "unreachable");
	} else {
		const struct scg_arch *arch = scg_arch_at(l->at_arch);
		strbuf_appendf(&sb, "on %s, ", scg_arch_name(arch));
		if (l->step == STEP_INT_WIDTH)
			strbuf_appendf(&sb, "int-compared-64 for %zu of %zu syscalls (from table "
					   "entry %zu on)",
					   scg_syscall_count(arch) - l->at_syscall,
					   scg_syscall_count(arch), l->at_syscall);
		for (enum lint_step st = l->step; st <= STEP_INT_WIDTH && l->step != STEP_INT_WIDTH;
		     st++)
			strbuf_appendf(&sb, "%s%s", st > l->step ? ", " : "", step_codes[st]);
		size_t left = 0;
		for (size_t i = l->at_arch + 1; i < scg_arch_count(); i++)
			left += judged(l, scg_arch_at(i));
		if (left) {
			strbuf_appendf(&sb, "; every check of %zu more ABI%s (", left,
					   left == 1 ? "" : "s");
			size_t k = 0;
			for (size_t i = l->at_arch + 1; i < scg_arch_count(); i++)
				if (judged(l, scg_arch_at(i)))
					strbuf_appendf(&sb, "%s%s", k++ ? ", " : "",
							   scg_arch_name(scg_arch_at(i)));
			strbuf_append(&sb, ")");
		}
	}
	char *what = NULL;
	if (strbuf_finish(&sb, &what) < 0)
		what = NULL;
	scg_diag_add(l->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "analysis-budget",
		     scg_hint_text(SCG_HINT_MORE_TIME),
		     "the time budget ran out: the findings above are decided, but these were not "
		     "checked: %s", what ? what : "(no memory to say)");
	free(what);
}

/* The checks of one ABI the filter was written for. */
static int lint_abi(struct lint *l, const struct scg_arch *arch)
{
	const struct scg_arch *comp[8];
	size_t nc = scg_arch_companions(arch, comp, 8);
	l->step = STEP_ABI_BYPASS;
	for (size_t k = 0; k < nc && k < 8; k++)
		check_abi_bypass(l, arch, comp[k]);
	l->step = STEP_MULTIPLEXER;
	int r = check_multiplexers(l, arch);
	if (r == 0) {
		l->step = STEP_IO_URING;
		r = check_io_uring(l, arch);
	}
	if (r < 0)
		return r;
	l->step = STEP_RISKY;
	check_risky(l, arch);
	l->step = STEP_UNKNOWN;
	check_unknown(l, arch);
	l->step = STEP_INT_WIDTH;
	l->at_syscall = 0;
	return check_int_width(l, arch);
}

static int lint_all(struct lint *l)
{
	l->step = STEP_ARCH;
	int r = check_arch(l, &l->arch_checked);
	if (r == 0) {
		l->step = STEP_REACHABLE;
		r = check_reachable(l);
	}
	if (r < 0)
		return r;
	check_returns(l);
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *arch = scg_arch_at(i);
		/* without an arch check every ABI looks like a target: judge the native one */
		if (!judged(l, arch))
			continue;
		l->at_arch = i;
		l->step = STEP_TARGET;
		r = is_target(l, arch);
		if (r > 0)
			r = lint_abi(l, arch);
		if (r < 0)
			return r;
	}
	l->step = STEP_DONE;
	return 0;
}

int scg_lint(const struct scg_prog *prog, const struct scg_policy *policy, struct scg_diag *diag)
{
	return scg_lint_opts(prog, policy, NULL, diag);
}

int scg_lint_opts(const struct scg_prog *prog, const struct scg_policy *policy,
		  const struct scg_analysis_options *opts, struct scg_diag *diag)
{
	int r = analysis_check(prog, 1, diag);
	if (r < 0)
		return r;
	struct analysis_run run;
	r = run_init(&run, opts);
	if (r < 0)
		return r;
	struct lint l = { .prog = prog, .policy = policy, .diag = diag, .run = &run };
	r = lint_all(&l);
	if (analysis_stopped(r))
		report_budget(&l);
	run_finish(&run, opts);
	return r;
}
