/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The filter `syscage inject` installs.  Rules the kernel can carry alone
 * (an errno for every matching call) become SECCOMP_RET_ERRNO and never
 * leave the kernel; counted, retval and signal rules become USER_NOTIF;
 * every other call gets the base policy's verdict (allow-all by default),
 * so the program runs at full speed outside the calls it asked about.
 */
#include <errno.h>

#include "inject.h"

static int append_rule(struct scg_policy *p, const struct scg_rule *rule, uint32_t action)
{
	struct scg_rule_spec spec = {
		.action = action,
		.syscall = rule->syscall,
		.has_number = rule->has_number,
		.number = rule->number,
		.number_last = rule->number_last,
		.arch_mask = rule->arch_mask,
		.cond = NULL,
		.loc = rule->loc,
	};
	if (rule->cond && !(spec.cond = scg_expr_clone(rule->cond)))
		return -ENOMEM;
	return scg_policy_add_rule(p, &spec);
}

static int append_all(struct scg_policy *p, const struct scg_policy *from, bool keep,
		      uint32_t action)
{
	for (size_t i = 0; i < scg_policy_rule_count(from); i++) {
		struct scg_rule rule;
		int r = scg_policy_rule_at(from, i, &rule);
		if (r == 0)
			r = append_rule(p, &rule, keep ? rule.action : action);
		if (r < 0)
			return r;
	}
	return 0;
}

static uint32_t installed_action(const struct scg_inject_rule *rule)
{
	if (scg_inject_rule_is_static(rule))
		return SCG_RET_ERRNO | (rule->error & SCG_RET_DATA);
	return SCG_RET_USER_NOTIF;
}

int inject_build_policy(struct scg_inject_rule *const *rules, size_t nrules,
			const struct scg_policy *base, struct scg_policy **out)
{
	*out = NULL;
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = 0;
	for (size_t i = 0; i < scg_policy_arch_count(base) && r == 0; i++)
		r = scg_policy_add_arch(p, scg_policy_arch_at(base, i));
	scg_policy_set_default(p, scg_policy_default(base));
	scg_policy_set_badarch(p, scg_policy_badarch(base));
	uint32_t unknown;
	if (scg_policy_unknown(base, &unknown))
		scg_policy_set_unknown(p, unknown);
	for (size_t i = 0; i < nrules && r == 0; i++)
		r = append_all(p, rules[i]->match, false, installed_action(rules[i]));
	if (r == 0)
		r = append_all(p, base, true, 0);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
