/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decompiler's last step: conditions rebuilt from every test on the path
 * to a verdict repeat an operand when the filter tests the same bits twice
 * ("(a & m) != 0 && (a & m) != 0").  These functions leave the repeats out,
 * so scg_decompile() (and through it `decompile`, `dump --format policy` and
 * `fuse --format policy`) states each test once.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <syscage/analysis.h>
#include <syscage/policy.h>

/* Folds the @kind (AND or OR) chain under @e into @acc, leaving out operands already in it. */
static struct scg_expr *fold_chain(const struct scg_expr *e, enum scg_expr_kind kind,
				   struct scg_expr *acc, bool *fail)
{
	if (*fail)
		return acc;
	if (e->kind == kind) {
		acc = fold_chain(e->left, kind, acc, fail);
		return fold_chain(e->right, kind, acc, fail);
	}
	struct scg_expr *f = scg_expr_simplify(e);
	if (!f) {
		*fail = true;
		return acc;
	}
	/* acc is a left-leaning chain: its operands are the right sides, then the last left */
	for (const struct scg_expr *c = acc; c; c = c->kind == kind ? c->left : NULL) {
		const struct scg_expr *operand = c->kind == kind ? c->right : c;
		if (scg_expr_equal(operand, f)) {
			scg_expr_free(f);
			return acc;
		}
	}
	if (!acc)
		return f;
	acc = kind == SCG_EXPR_AND ? scg_expr_and(acc, f) : scg_expr_or(acc, f);
	if (!acc)
		*fail = true;
	return acc;
}

struct scg_expr *scg_expr_simplify(const struct scg_expr *e)
{
	if (!e) {
		errno = EINVAL;
		return NULL;
	}
	switch (e->kind) {
	case SCG_EXPR_AND:
	case SCG_EXPR_OR: {
		bool fail = false;
		struct scg_expr *r = fold_chain(e, e->kind, NULL, &fail);
		if (fail) {
			scg_expr_free(r);
			errno = ENOMEM;
			return NULL;
		}
		return r;
	}
	case SCG_EXPR_NOT: {
		struct scg_expr *inner = scg_expr_simplify(e->left);
		return inner ? scg_expr_not(inner) : NULL;
	}
	case SCG_EXPR_CMP:
		break;
	}
	return scg_expr_clone(e);
}

/* Copies @policy's targets and its default, unknown and bad-ABI verdicts into @out. */
static int copy_settings(const struct scg_policy *policy, struct scg_policy *out)
{
	for (size_t i = 0; i < scg_policy_arch_count(policy); i++) {
		int r = scg_policy_add_arch(out, scg_policy_arch_at(policy, i));
		if (r < 0)
			return r;
	}
	uint32_t unknown;
	scg_policy_set_default(out, scg_policy_default(policy));
	scg_policy_set_badarch(out, scg_policy_badarch(policy));
	if (scg_policy_unknown(policy, &unknown))
		scg_policy_set_unknown(out, unknown);
	return 0;
}

int scg_policy_simplify(const struct scg_policy *policy, struct scg_policy **out)
{
	if (!policy || !out)
		return -EINVAL;
	*out = NULL;
	struct scg_policy *p = scg_policy_new();
	int r = p ? copy_settings(policy, p) : -ENOMEM;
	for (size_t i = 0; r == 0 && i < scg_policy_rule_count(policy); i++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(policy, i, &rule);
		struct scg_expr *cond = r == 0 && rule.cond ? scg_expr_simplify(rule.cond) : NULL;
		if (r == 0 && rule.cond && !cond)
			r = -ENOMEM;
		struct scg_rule_spec spec = {
			.action = rule.action, .syscall = rule.syscall, .has_number = rule.has_number,
			.number = rule.number, .number_last = rule.number_last,
			.arch_mask = rule.arch_mask, .cond = cond, .loc = rule.loc,
		};
		if (r == 0)
			r = scg_policy_add_rule(p, &spec);
	}
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
