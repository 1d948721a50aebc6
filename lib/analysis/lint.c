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

#include "analysis/symexec.h"
#include "bpf/opcodes.h"
#include "policy/lang_internal.h"

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define ENOSYS_GENERIC 38U

struct lint {
	const struct scg_prog *prog;
	const struct scg_policy *policy;
	struct scg_diag *diag;
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
	}
	return SCG_LOC_INSN(ret_pc);
}

/* The first conditional rule of the policy for @nr on @arch, or the instruction. */
static struct scg_loc rule_of(const struct lint *l, const struct scg_arch *arch, uint32_t nr,
			      size_t pc)
{
	for (size_t i = 0; l->policy && i < scg_policy_rule_count(l->policy); i++) {
		struct scg_rule rule;
		uint32_t first, last;
		if (scg_policy_rule_range(l->policy, i, arch, &first, &last) == 0 && first <= nr &&
		    nr <= last &&
		    scg_policy_rule_at(l->policy, i, &rule) == 0 && rule.cond && rule.loc.line)
			return rule.loc;
	}
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
	int r = analysis_walk(l->prog, 1, NULL, note_arch_word, &checked, l->diag);
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
			scg_diag_add(l->diag, SCG_SEV_WARNING, SCG_LOC_INSN(pc), "kill-thread",
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
	int r = scg_analysis_reachable(l->prog, reached, l->diag);
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

/* True when @name on @arch is denied for some argument values, or always (a proof). */
static bool restricted(struct lint *l, const struct scg_arch *arch, const char *name)
{
	uint32_t nr, audit = scg_arch_audit(arch);
	if (!nr_of(arch, name, &nr))
		return false;
	struct scg_region *r = scg_region_new();
	bool denied = false;
	if (r && scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit) == 0 &&
	    scg_region_restrict_range(r, SCG_WORD_NR, nr, nr) == 0)
		analysis_walk(l->prog, 1, r, note_denial, &denied, NULL);
	scg_region_free(r);
	return denied;
}

static bool allowed(struct lint *l, const struct scg_arch *arch, const char *name, uint64_t arg0,
		    size_t *pc)
{
	uint32_t nr;
	return nr_of(arch, name, &nr) && lets_through(verdict(l, scg_arch_audit(arch), nr, arg0, pc));
}

static void check_multiplexers(struct lint *l, const struct scg_arch *arch)
{
	static const char *const net[] = { "socket", "connect", "bind", "accept", "sendto", "setsockopt", NULL };
	static const char *const ipc[] = { "shmget", "shmat", "msgget", "semget", NULL };
	struct { const char *mux; const char *const *calls; } muxes[] = { { "socketcall", net }, { "ipc", ipc } };
	for (size_t m = 0; m < 2; m++) {
		size_t pc;
		if (!allowed(l, arch, muxes[m].mux, 1, &pc))
			continue;
		for (const char *const *c = muxes[m].calls; *c; c++) {
			if (!restricted(l, arch, *c))
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
}

static void check_io_uring(struct lint *l, const struct scg_arch *arch)
{
	static const char *const io[] = { "openat", "open", "connect", "socket", "read", "write", NULL };
	size_t pc;
	uint32_t nr = 0;
	if (!allowed(l, arch, "io_uring_setup", 0, &pc) || !nr_of(arch, "io_uring_setup", &nr))
		return;
	for (const char *const *c = io; *c; c++) {
		if (!restricted(l, arch, *c))
			continue;
		scg_diag_add(l->diag, SCG_SEV_WARNING, where(l, scg_arch_audit(arch), nr, 0, pc),
			     "io-uring-bypass", "deny io_uring_setup, io_uring_enter and io_uring_register",
			     "on %s, io_uring is allowed while %s is restricted: io_uring performs "
			     "file and network operations without those syscalls",
			     scg_arch_name(arch), *c);
		return;
	}
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

/* The parameter list of @name (the table is sorted by name). */
static const struct scg_syscall_params *params_of(const char *name)
{
	size_t lo = 0, hi = scg_syscall_params_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(scg_syscall_params[mid].syscall, name);
		if (c == 0)
			return &scg_syscall_params[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * The kernel does not clear the upper half of an int parameter's register:
 * a filter that looks at it (a 64-bit comparison) can be steered by the
 * caller, e.g. -1 as 0x00000000ffffffff instead of the sign-extended value.
 */
static int check_int_width(struct lint *l, const struct scg_arch *arch)
{
	if (scg_arch_bits(arch) != 64)
		return 0;
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr, audit = scg_arch_audit(arch);
		scg_syscall_at(arch, i, &name, &nr);
		struct high_words h = { arch, params_of(name), 0 };
		if (!h.params)
			continue;
		struct scg_region *r = scg_region_new();
		int e = r ? 0 : -ENOMEM;
		if (e == 0)
			e = scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit);
		if (e == 0)
			e = scg_region_restrict_range(r, SCG_WORD_NR, nr, nr);
		if (e == 0)
			e = analysis_walk(l->prog, 1, r, note_high_words, &h, NULL);
		scg_region_free(r);
		if (e < 0)
			return e;
		for (unsigned a = 0; a < h.params->count && a < 6; a++) {
			const struct scg_syscall_param *p = &h.params->params[a];
			if (!(h.tested & (1U << a)) || p->kind != SCG_PARAM_32)
				continue;
			size_t pc;
			verdict(l, audit, nr, 0, &pc);
			scg_diag_add(l->diag, SCG_SEV_WARNING, rule_of(l, arch, nr, pc), "int-compared-64",
				     "compare only the low 32 bits (argN.lo, or the parameter's name in a policy)",
				     "on %s, %s's argument %u (%s %s) is tested over 64 bits, but the "
				     "kernel leaves the upper half of an int's register to the caller",
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
 * than an ABI nobody knows (AUDIT_ARCH 0) gets.
 */
static bool is_target(struct lint *l, const struct scg_arch *arch)
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
		analysis_walk(l->prog, 1, r, note_non_badarch, &t, NULL);
	scg_region_free(r);
	return t.differs;
}

int scg_lint(const struct scg_prog *prog, const struct scg_policy *policy, struct scg_diag *diag)
{
	int r = analysis_check(prog, 1, diag);
	if (r < 0)
		return r;
	struct lint l = { prog, policy, diag };
	bool arch_checked = false;
	r = check_arch(&l, &arch_checked);
	if (r == 0)
		r = check_reachable(&l);
	if (r < 0)
		return r;
	check_returns(&l);
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *arch = scg_arch_at(i);
		/* without an arch check every ABI looks like a target: judge the native one */
		if (!arch_checked && arch != scg_arch_native())
			continue;
		if (!is_target(&l, arch))
			continue;
		const struct scg_arch *comp[8];
		size_t nc = scg_arch_companions(arch, comp, 8);
		for (size_t k = 0; k < nc && k < 8; k++)
			check_abi_bypass(&l, arch, comp[k]);
		check_multiplexers(&l, arch);
		check_io_uring(&l, arch);
		check_risky(&l, arch);
		check_unknown(&l, arch);
		r = check_int_width(&l, arch);
		if (r < 0)
			return r;
	}
	return 0;
}
