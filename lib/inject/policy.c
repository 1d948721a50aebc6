/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy a fault injector installs (`syscage inject`'s filter).  Rules the kernel can carry alone
 * (an errno for every matching call) become SECCOMP_RET_ERRNO and never
 * leave the kernel; counted, retval and signal rules become USER_NOTIF;
 * every other call gets the base policy's verdict (allow-all by default),
 * so the program runs at full speed outside the calls it asked about.
 *
 * A rule takes precedence over the base policy's verdict, except over the
 * verdicts only the kernel can carry out: KILL_PROCESS, KILL_THREAD, TRAP
 * and actions it does not know (which kill the process).  A supervisor
 * cannot kill one thread and leave the others, nor raise the SIGSYS
 * seccomp forces on a program that ignores or blocks it.  So the filter
 * follows the base policy's rules in order, and puts the injection rules'
 * calls in front of each base rule whose verdict a supervisor could give
 * (narrowed to the calls that base rule decides) and in front of the
 * default verdict, unless that one too is the kernel's: a call the base
 * policy kills is killed by the kernel before any rule sees it.
 */
#include <errno.h>
#include <stdlib.h>

#include <syscage/bpf.h>
#include <syscage/inject.h>

/* Verdicts a supervisor cannot give as the kernel does. */
static bool kernel_only(uint32_t action)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_TRAP:
	case SCG_ACTION_UNKNOWN:
		return true;
	case SCG_ACTION_ERRNO:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_TRACE:
	case SCG_ACTION_LOG:
	case SCG_ACTION_ALLOW:
		return false;
	}
	return true;
}

bool scg_inject_rule_in_filter(const struct scg_inject_rule *rule, bool count_all)
{
	return !count_all && scg_inject_rule_is_static(rule);
}

static uint32_t installed_action(const struct scg_inject_rule *rule, bool count_all)
{
	if (scg_inject_rule_in_filter(rule, count_all))
		return SCG_RET_ERRNO | (rule->error & SCG_RET_DATA);
	return SCG_RET_USER_NOTIF;
}

/* Adds a copy of @rule with @action, on the ABIs of @arch_mask, and @extra ANDed to its condition. */
static int add_copy(struct scg_policy *p, const struct scg_rule *rule, uint32_t action,
		    uint32_t arch_mask, const struct scg_expr *extra)
{
	struct scg_rule_spec spec = {
		.action = action,
		.syscall = rule->syscall,
		.has_number = rule->has_number,
		.number = rule->number,
		.number_last = rule->number_last,
		.arch_mask = arch_mask,
		.cond = NULL,
		.loc = rule->loc,
	};
	struct scg_expr *a = rule->cond ? scg_expr_clone(rule->cond) : NULL;
	struct scg_expr *b = extra ? scg_expr_clone(extra) : NULL;
	if ((rule->cond && !a) || (extra && !b)) {
		scg_expr_free(a);
		scg_expr_free(b);
		return -ENOMEM;
	}
	spec.cond = a && b ? scg_expr_and(a, b) : a ? a : b;
	if (a && b && !spec.cond)
		return -ENOMEM;
	return scg_policy_add_rule(p, &spec);
}

/* The numbers rule @index of @from covers on each target ABI of @p (first > last: none). */
struct span {
	uint32_t first, last;
};

static int spans_of(const struct scg_policy *from, size_t index, const struct scg_policy *p,
		    struct span *out)
{
	for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
		out[t] = (struct span){ 1, 0 };
		int r = scg_policy_rule_range(from, index, scg_policy_arch_at(p, t), &out[t].first,
					      &out[t].last);
		if (r < 0 && r != -ENOSYS)
			return r;
		if (r < 0)
			out[t] = (struct span){ 1, 0 };
	}
	return 0;
}

/* Every rule of every injection rule's match, with the ABIs and numbers each covers. */
struct match_rule {
	const struct scg_inject_rule *owner;
	size_t index;
	struct span *spans; /* one per target ABI of the installed policy */
};

struct matches {
	struct match_rule *v;
	size_t n;
	struct span *spans;
	bool count_all; /* --count: no rule in the filter */
};

static void matches_free(struct matches *m)
{
	free(m->v);
	free(m->spans);
}

static int matches_collect(struct scg_inject_rule *const *rules, size_t nrules,
			   const struct scg_policy *p, struct matches *m)
{
	size_t n = 0, ntargets = scg_policy_arch_count(p);
	for (size_t i = 0; i < nrules; i++)
		n += scg_policy_rule_count(rules[i]->match);
	m->n = 0;
	m->v = calloc(n ? n : 1, sizeof(*m->v));
	m->spans = calloc(n && ntargets ? n * ntargets : 1, sizeof(*m->spans));
	if (!m->v || !m->spans)
		return -ENOMEM;
	for (size_t i = 0; i < nrules; i++)
		for (size_t k = 0; k < scg_policy_rule_count(rules[i]->match); k++) {
			struct match_rule *mr = &m->v[m->n];
			*mr = (struct match_rule){ rules[i], k, &m->spans[m->n * ntargets] };
			m->n++;
			int r = spans_of(rules[i]->match, k, p, mr->spans);
			if (r < 0)
				return r;
		}
	return 0;
}

/* The injection rules' calls that base rule @b (with spans @bs) decides, before it. */
static int add_narrowed(struct scg_policy *p, const struct matches *m, const struct scg_rule *b,
			const struct span *bs)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct match_rule *mr = &m->v[i];
		uint32_t mask = 0;
		for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
			const struct span *s = &mr->spans[t];
			if (s->first <= s->last && bs[t].first <= bs[t].last &&
			    s->first <= bs[t].last && bs[t].first <= s->last)
				mask |= scg_arch_mask_bit(scg_policy_arch_at(p, t));
		}
		if (!mask)
			continue;
		struct scg_rule rule;
		int r = scg_policy_rule_at(mr->owner->match, mr->index, &rule);
		if (r == 0)
			r = add_copy(p, &rule, installed_action(mr->owner, m->count_all), mask, b->cond);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_rules(struct scg_policy *p, const struct scg_policy *base, const struct matches *m)
{
	struct span *bs = calloc(scg_policy_arch_count(p) + 1, sizeof(*bs));
	if (!bs)
		return -ENOMEM;
	int r = 0;
	for (size_t i = 0; i < scg_policy_rule_count(base) && r == 0; i++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(base, i, &rule);
		if (r == 0 && !kernel_only(rule.action))
			r = spans_of(base, i, p, bs);
		if (r == 0 && !kernel_only(rule.action))
			r = add_narrowed(p, m, &rule, bs);
		if (r == 0)
			r = add_copy(p, &rule, rule.action, rule.arch_mask, NULL);
	}
	free(bs);
	/* Calls no base rule decides: the default verdict, for the names of the rules' sets. */
	for (size_t i = 0; i < m->n && r == 0 && !kernel_only(scg_policy_default(base)); i++) {
		struct scg_rule rule;
		r = scg_policy_rule_at(m->v[i].owner->match, m->v[i].index, &rule);
		if (r == 0)
			r = add_copy(p, &rule, installed_action(m->v[i].owner, m->count_all), rule.arch_mask, NULL);
	}
	return r;
}

int scg_inject_policy_build(struct scg_inject_rule *const *rules, size_t nrules,
			    const struct scg_policy *base, bool count_all, struct scg_policy **out)
{
	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!base || (nrules && !rules))
		return -EINVAL;
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
	struct matches m = { .count_all = count_all };
	if (r == 0)
		r = matches_collect(rules, nrules, p, &m);
	if (r == 0)
		r = add_rules(p, base, &m);
	matches_free(&m);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
