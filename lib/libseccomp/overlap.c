/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Calls of overlapping rules as libseccomp's filter decides them: see
 * overlap.h.  Each path of the tree becomes a rule for the calls of the
 * overlap that take it and that a rule of the path's action matches; the
 * calls of the path that no such rule matches, and those that fall out of
 * the tree, take the strictest of their matching rules' actions.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <syscage/bpf.h>

#include "libseccomp/overlap.h"
#include "libseccomp/rule_tree.h"

/* A tree that unfolds into more first-match rules than this is left to the caller's
 * rules (libseccomp's program shares the parts its paths repeat; rules cannot). */
#define TREE_RULES_MAX 4096
/* Kinds of actions among one syscall's rules that are told apart. */
#define ACTIONS_MAX 8

/* The actions of one syscall's rules, and where rules of two of them match. */
struct meeting {
	struct scg_expr *overlap;
	size_t n;
	uint32_t action[ACTIONS_MAX];	  /* distinct, the strictest first */
	struct scg_expr *where[ACTIONS_MAX]; /* where a rule of that action matches */
	libseccomp_overlap_fn emit;	  /* NULL: only count */
	void *ctx;
};

static void meeting_release(struct meeting *m)
{
	scg_expr_free(m->overlap);
	for (size_t i = 0; i < m->n; i++)
		scg_expr_free(m->where[i]);
}

/* The kernel's rank of an action: the lower, the stricter (KILL_PROCESS lowest). */
static int32_t action_rank(uint32_t action)
{
	return (int32_t)(action & SCG_RET_ACTION_FULL);
}

/* ORs @cond into *@into; -ENOMEM (and *@into freed) when out of memory. */
static int or_into(struct scg_expr **into, struct scg_expr *cond)
{
	if (cond == NULL) {
		scg_expr_free(*into);
		*into = NULL;
	} else {
		*into = *into == NULL ? cond : scg_expr_or(*into, cond);
	}
	return *into == NULL ? -ENOMEM : 0;
}

/* The index of @action in @m, taking it in (by rank) if new; -E2BIG past ACTIONS_MAX. */
static int action_slot(struct meeting *m, uint32_t action)
{
	size_t k = 0;
	while (k < m->n && m->action[k] != action)
		k++;
	if (k < m->n)
		return (int)k;
	if (m->n == ACTIONS_MAX)
		return -E2BIG;
	/* a new action of equal rank goes after the earlier ones */
	for (k = m->n; k > 0 && action_rank(m->action[k - 1]) > action_rank(action); k--) {
		m->action[k] = m->action[k - 1];
		m->where[k] = m->where[k - 1];
	}
	m->action[k] = action;
	m->where[k] = NULL;
	m->n++;
	return (int)k;
}

/* 1 when rules of two actions can meet, 0 when not, or -errno. */
static int meet(struct meeting *m, const struct libseccomp_overlap_rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rules[i].cond == NULL)
			return 0; /* an unconditional rule decides alone */
	for (size_t i = 0; i < n; i++) {
		int k = action_slot(m, rules[i].action);
		if (k < 0)
			return k;
		int rc = or_into(&m->where[k], scg_expr_clone(rules[i].cond));
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = i + 1; j < m->n; j++) {
			int rc = or_into(&m->overlap, scg_expr_and(scg_expr_clone(m->where[i]),
								  scg_expr_clone(m->where[j])));
			if (rc < 0)
				return rc;
		}
	return m->n > 1;
}

/* One test of libseccomp's filter as a condition on the whole argument. */
static struct scg_expr *word_test(const struct libseccomp_word_test *t)
{
	enum scg_cmp_op op = t->op == LIBSECCOMP_GT   ? (t->holds ? SCG_CMP_GT : SCG_CMP_LE)
			     : t->op == LIBSECCOMP_GE ? (t->holds ? SCG_CMP_GE : SCG_CMP_LT)
						      : (t->holds ? SCG_CMP_EQ : SCG_CMP_NE);
	if (!t->hi)
		return scg_expr_cmp(t->arg, 32, op, t->mask, t->datum);
	/* The high word in the top half of the argument, the low one masked away:
	 * above the datum means above its last value with any low word. */
	uint64_t value = (uint64_t)t->datum << 32 | (t->op == LIBSECCOMP_GT ? 0xffffffffULL : 0);
	return scg_expr_cmp(t->arg, 64, op, (uint64_t)t->mask << 32, value);
}

/* A rule for the calls of the overlap that match @cond (NULL: any) and @also. */
static int emit(const struct meeting *m, uint32_t action, const struct scg_expr *cond,
		const struct scg_expr *also)
{
	struct scg_expr *where = scg_expr_clone(m->overlap);
	if (where != NULL && cond != NULL)
		where = scg_expr_and(where, scg_expr_clone(cond));
	if (where != NULL)
		where = scg_expr_and(where, scg_expr_clone(also));
	return where == NULL ? -ENOMEM : m->emit(m->ctx, action, where);
}

/* Where @cond holds: the strictest of the actions whose rules match. */
static int emit_strictest(const struct meeting *m, const struct scg_expr *cond)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->n; i++)
		rc = emit(m, m->action[i], cond, m->where[i]);
	return rc;
}

static int emit_path(void *ctx, const struct libseccomp_word_test *path, size_t ntests,
		     uint32_t action)
{
	const struct meeting *m = ctx;
	if (m->emit == NULL)
		return 0;
	struct scg_expr *cond = NULL;
	for (size_t i = 0; i < ntests; i++) {
		struct scg_expr *e = word_test(&path[i]);
		cond = cond == NULL ? e : scg_expr_and(cond, e);
		if (cond == NULL)
			return -ENOMEM;
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m->n; i++)
		if (m->action[i] == action)
			rc = emit(m, action, cond, m->where[i]);
	if (rc == 0)
		rc = emit_strictest(m, cond);
	scg_expr_free(cond);
	return rc;
}

int libseccomp_overlap_rules(const struct libseccomp_tree *tree,
			     const struct libseccomp_overlap_rule *rules, size_t n,
			     libseccomp_overlap_fn fn, void *ctx)
{
	struct meeting m;
	memset(&m, 0, sizeof(m));
	int rc = meet(&m, rules, n);
	/* first only count, so that a tree too large to unfold leaves nothing behind */
	if (rc > 0)
		rc = libseccomp_tree_rules(tree, TREE_RULES_MAX, emit_path, &m);
	if (rc == 0 && m.n > 1 && m.overlap != NULL) {
		m.emit = fn;
		m.ctx = ctx;
		rc = libseccomp_tree_rules(tree, TREE_RULES_MAX, emit_path, &m);
		/* a call that falls out of the tree gets the default: no rule's action */
		if (rc == 0)
			rc = emit_strictest(&m, NULL);
	}
	meeting_release(&m);
	return rc;
}
