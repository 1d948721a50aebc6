/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one place where libseccomp's filter layout decides a verdict the
 * policy model would not: x86_64 numbers with bit 31 set and bit 30 clear,
 * in a filter without x32.  See high_numbers.h.
 */
#include <string.h>

#include "libseccomp/high_numbers.h"

#define HIGH_FIRST 0x80000000U
#define HIGH_LAST 0xbfffffffU

static bool targets(const struct scg_policy *policy, const char *name)
{
	for (size_t i = 0; i < scg_policy_arch_count(policy); i++)
		if (!strcmp(scg_arch_name(scg_policy_arch_at(policy, i)), name))
			return true;
	return false;
}

/* Where libseccomp would give those numbers its bad-architecture action. */
static bool applies(const struct scg_policy *policy)
{
	return targets(policy, "x86_64") && !targets(policy, "x32");
}

int libseccomp_high_add(struct scg_policy *policy)
{
	if (!applies(policy))
		return 0;
	struct scg_rule_spec spec = {
		.action = scg_policy_badarch(policy),
		.has_number = true,
		.number = HIGH_FIRST,
		.number_last = HIGH_LAST,
		.arch_mask = SCG_ARCH_BIT_X86_64,
		.loc = SCG_LOC_NONE,
	};
	return scg_policy_add_rule(policy, &spec);
}

bool libseccomp_high_rule_is(const struct scg_policy *policy, size_t index)
{
	struct scg_rule rule;
	if (scg_policy_rule_at(policy, index, &rule) < 0 || !applies(policy))
		return false;
	return rule.has_number && rule.number == HIGH_FIRST && rule.number_last == HIGH_LAST &&
	       !rule.cond && rule.action == scg_policy_badarch(policy) &&
	       (rule.arch_mask == 0 || (rule.arch_mask & SCG_ARCH_BIT_X86_64));
}
