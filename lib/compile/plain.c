/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The unoptimised compiler (optimize = 0): the reference the optimised
 * output is checked against.
 *
 * It shares nothing with the optimiser but the jump resolver: the arch
 * check is a chain of `jeq`; x32 is split off with `jset #0x40000000` and
 * `jeq #-1` (the -1 exception stays with x86_64); each ABI then tests its
 * rules one after the other in policy order (a number with `jeq`, a range
 * with `jge` on its first and `jgt` on its last), each condition written out as
 * plain short-circuit code with both words of every 64-bit argument; after
 * the rules, numbers the table does not know are told apart by one range
 * test per run of consecutive known numbers.
 */
#include <errno.h>
#include <stdlib.h>

#include <syscage/arch.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"

struct plain {
	const struct scg_policy *policy;
	struct lprog *lp;
	struct abi_stats *stats;
	size_t nstats;
	uint32_t default_action, unknown_action, badarch_action;
	bool has_unknown;
};

static void ld(struct plain *p, uint32_t offset)
{
	lprog_stmt(p->lp, BPF_LD | BPF_W | BPF_ABS, offset);
}

static void jump(struct plain *p, uint8_t op, uint32_t k, lprog_label t, lprog_label f)
{
	lprog_jcond(p->lp, (uint16_t)(BPF_JMP | op | BPF_K), k, t, f);
}

static void ret(struct plain *p, uint32_t value)
{
	lprog_stmt(p->lp, BPF_RET | BPF_K, value);
}

/* Loads one word of an argument and applies its mask. */
static void load_masked(struct plain *p, uint32_t offset, uint32_t mask)
{
	ld(p, offset);
	if (mask != WORD_FULL)
		lprog_stmt(p->lp, BPF_ALU | BPF_AND | BPF_K, mask);
}

/* A comparison on the (masked) word in A. */
static void compare_word(struct plain *p, enum scg_cmp_op op, uint32_t v, lprog_label t,
			 lprog_label f)
{
	switch (op) {
	case SCG_CMP_EQ:
		jump(p, BPF_JEQ, v, t, f);
		return;
	case SCG_CMP_NE:
		jump(p, BPF_JEQ, v, f, t);
		return;
	case SCG_CMP_LT:
		jump(p, BPF_JGE, v, f, t);
		return;
	case SCG_CMP_LE:
		jump(p, BPF_JGT, v, f, t);
		return;
	case SCG_CMP_GT:
		jump(p, BPF_JGT, v, t, f);
		return;
	case SCG_CMP_GE:
		jump(p, BPF_JGE, v, t, f);
		return;
	}
}

/* 64 bits: decide on the high words unless they are equal, then on the low words. */
static void compare64(struct plain *p, const struct scg_expr *e, uint32_t lo_off, uint32_t hi_off,
		      lprog_label t, lprog_label f)
{
	uint32_t mh = (uint32_t)(e->mask >> 32), vh = (uint32_t)(e->value >> 32);
	lprog_label low = lprog_label_new(p->lp);
	load_masked(p, hi_off, mh);
	switch (e->op) {
	case SCG_CMP_EQ:
		jump(p, BPF_JEQ, vh, low, f);
		break;
	case SCG_CMP_NE:
		jump(p, BPF_JEQ, vh, low, t);
		break;
	case SCG_CMP_LT:
	case SCG_CMP_LE: {
		lprog_label equal = lprog_label_new(p->lp);
		jump(p, BPF_JGT, vh, f, equal);
		lprog_bind(p->lp, equal);
		jump(p, BPF_JEQ, vh, low, t);
		break;
	}
	case SCG_CMP_GT:
	case SCG_CMP_GE: {
		lprog_label equal = lprog_label_new(p->lp);
		jump(p, BPF_JGT, vh, t, equal);
		lprog_bind(p->lp, equal);
		jump(p, BPF_JEQ, vh, low, f);
		break;
	}
	}
	lprog_bind(p->lp, low);
	load_masked(p, lo_off, (uint32_t)e->mask);
	compare_word(p, e->op, (uint32_t)e->value, t, f);
}

static void emit_cond(struct plain *p, const struct scg_expr *e, bool big_endian, lprog_label t,
		      lprog_label f)
{
	switch (e->kind) {
	case SCG_EXPR_CMP: {
		uint32_t base = SCG_DATA_ARGS + 8U * e->arg;
		uint32_t lo_off = base + (big_endian ? 4U : 0U), hi_off = base + (big_endian ? 0U : 4U);
		if (e->width == 32) {
			load_masked(p, lo_off, (uint32_t)e->mask);
			compare_word(p, e->op, (uint32_t)e->value, t, f);
		} else {
			compare64(p, e, lo_off, hi_off, t, f);
		}
		return;
	}
	case SCG_EXPR_NOT:
		emit_cond(p, e->left, big_endian, f, t);
		return;
	case SCG_EXPR_AND: {
		lprog_label mid = lprog_label_new(p->lp);
		emit_cond(p, e->left, big_endian, mid, f);
		lprog_bind(p->lp, mid);
		emit_cond(p, e->right, big_endian, t, f);
		return;
	}
	case SCG_EXPR_OR: {
		lprog_label mid = lprog_label_new(p->lp);
		emit_cond(p, e->left, big_endian, t, mid);
		lprog_bind(p->lp, mid);
		emit_cond(p, e->right, big_endian, t, f);
		return;
	}
	}
}

/* After the rules: default for numbers in the table, unknown for the others. */
static void emit_fallback(struct plain *p, const struct scg_arch *arch)
{
	if (!p->has_unknown) {
		ret(p, p->default_action);
		return;
	}
	lprog_label known = lprog_label_new(p->lp), unknown = lprog_label_new(p->lp);
	ld(p, SCG_DATA_NR);
	size_t n = scg_syscall_count(arch);
	for (size_t i = 0; i < n;) {
		uint32_t first, last, next;
		scg_syscall_at(arch, i, NULL, &first);
		last = first;
		for (i++; i < n && scg_syscall_at(arch, i, NULL, &next) == 0 && next == last + 1; i++)
			last = next;
		lprog_label above = lprog_label_new(p->lp), inside = lprog_label_new(p->lp);
		jump(p, BPF_JGT, last, above, inside);
		lprog_bind(p->lp, inside);
		jump(p, BPF_JGE, first, known, unknown);
		lprog_bind(p->lp, above);
	}
	lprog_bind(p->lp, unknown);
	ret(p, p->unknown_action);
	lprog_bind(p->lp, known);
	ret(p, p->default_action);
}

/* Every rule that applies on @arch, in order, then the fallback. */
static void emit_section(struct plain *p, const struct scg_arch *arch)
{
	bool a_is_nr = false;
	bool big = scg_arch_big_endian(arch);
	for (size_t i = 0; i < scg_policy_rule_count(p->policy); i++) {
		uint32_t first, last;
		struct scg_rule r;
		if (scg_policy_rule_range(p->policy, i, arch, &first, &last) < 0)
			continue;
		scg_policy_rule_at(p->policy, i, &r);
		lprog_set_tag(p->lp, (long)i);
		lprog_label body = lprog_label_new(p->lp), next = lprog_label_new(p->lp);
		if (!a_is_nr)
			ld(p, SCG_DATA_NR);
		if (first == last) {
			jump(p, BPF_JEQ, first, body, next);
		} else {
			lprog_label from = lprog_label_new(p->lp);
			jump(p, BPF_JGE, first, from, next);
			lprog_bind(p->lp, from);
			jump(p, BPF_JGT, last, next, body);
		}
		lprog_bind(p->lp, body);
		if (r.cond) {
			lprog_label match = lprog_label_new(p->lp);
			emit_cond(p, r.cond, big, match, next);
			lprog_bind(p->lp, match);
		}
		ret(p, compile_action(r.action));
		lprog_bind(p->lp, next);
		a_is_nr = !r.cond;
	}
	lprog_set_tag(p->lp, -1);
	emit_fallback(p, arch);
}

static bool is_target(const struct scg_policy *policy, const struct scg_arch *arch)
{
	for (size_t i = 0; arch && i < scg_policy_arch_count(policy); i++)
		if (scg_policy_arch_at(policy, i) == arch)
			return true;
	return false;
}

static void emit_abi_or_badarch(struct plain *p, const struct scg_arch *arch)
{
	if (!is_target(p->policy, arch)) {
		ret(p, p->badarch_action);
		return;
	}
	size_t before = lprog_len(p->lp);
	emit_section(p, arch);
	if (p->nstats < 32)
		p->stats[p->nstats++] = (struct abi_stats){ .arch = arch,
							    .insns = lprog_len(p->lp) - before };
}

/* Everything under one AUDIT_ARCH value; x32 split off by bit 30 (but not -1). */
static void emit_audit(struct plain *p, uint32_t audit)
{
	const struct scg_arch *low = scg_arch_from_audit(audit, 0);
	const struct scg_arch *high = scg_arch_from_audit(audit, SCG_X32_SYSCALL_BIT);
	if (low == high) {
		emit_abi_or_badarch(p, low);
		return;
	}
	lprog_label upper = lprog_label_new(p->lp), lower = lprog_label_new(p->lp);
	lprog_label x32 = lprog_label_new(p->lp);
	ld(p, SCG_DATA_NR);
	jump(p, BPF_JSET, SCG_X32_SYSCALL_BIT, upper, lower);
	lprog_bind(p->lp, upper);
	jump(p, BPF_JEQ, UINT32_MAX, lower, x32);
	lprog_bind(p->lp, lower);
	emit_abi_or_badarch(p, low);
	lprog_bind(p->lp, x32);
	emit_abi_or_badarch(p, high);
}

int plain_emit(const struct scg_policy *policy, struct lprog *lp, struct abi_stats *stats,
	       size_t *nstats)
{
	struct plain p = { .policy = policy, .lp = lp, .stats = stats };
	uint32_t unknown;
	p.default_action = compile_action(scg_policy_default(policy));
	p.badarch_action = compile_action(scg_policy_badarch(policy));
	p.has_unknown = scg_policy_unknown(policy, &unknown);
	p.unknown_action = p.has_unknown ? compile_action(unknown) : p.default_action;

	size_t narch = scg_policy_arch_count(policy);
	uint32_t audits[32];
	lprog_label starts[32];
	size_t naudits = 0;
	for (size_t i = 0; i < narch && naudits < 32; i++) {
		uint32_t a = scg_arch_audit(scg_policy_arch_at(policy, i));
		size_t j;
		for (j = 0; j < naudits && audits[j] != a; j++)
			;
		if (j == naudits)
			audits[naudits++] = a;
	}
	ld(&p, SCG_DATA_ARCH);
	for (size_t i = 0; i < naudits; i++) {
		starts[i] = lprog_label_new(lp);
		lprog_label next = lprog_label_new(lp);
		jump(&p, BPF_JEQ, audits[i], starts[i], next);
		lprog_bind(lp, next);
	}
	ret(&p, p.badarch_action);
	for (size_t i = 0; i < naudits; i++) {
		lprog_bind(lp, starts[i]);
		emit_audit(&p, audits[i]);
	}
	*nstats = p.nstats;
	return lprog_error(lp);
}
