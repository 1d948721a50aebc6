/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests: libseccomp's rule tree (lib/libseccomp/rule_tree.h) and the
 * rules for calls where rules of different actions meet
 * (lib/libseccomp/overlap.h).  The walk's paths and the emitted conditions
 * are evaluated here on concrete calls, by their documented meaning.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "libseccomp/overlap.h"
#include "libseccomp/rule_tree.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define ERRNO(n) (SCG_RET_ERRNO | (n))
#define TRACE(n) (SCG_RET_TRACE | (n))
/* What a call no rule matches gets: the filter's default. */
#define NO_RULE UINT32_MAX

/* --- the walk's rules, collected and evaluated ------------------------------ */

struct path {
	struct libseccomp_word_test test[LIBSECCOMP_MAX_PATH];
	size_t ntests;
	uint32_t action;
};

struct paths {
	struct path *v;
	size_t n, cap;
	int stop_with; /* what emit returns */
};

static int collect_path(void *ctx, const struct libseccomp_word_test *path, size_t ntests,
			uint32_t action)
{
	struct paths *ps = ctx;
	assert_true(ntests <= LIBSECCOMP_MAX_PATH);
	assert_true(ntests == 0 || path != NULL);
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 16;
		ps->v = realloc(ps->v, ps->cap * sizeof(*ps->v));
		assert_non_null(ps->v);
	}
	struct path *p = &ps->v[ps->n++];
	if (ntests > 0)
		memcpy(p->test, path, ntests * sizeof(*path));
	p->ntests = ntests;
	p->action = action;
	return ps->stop_with;
}

static void paths_release(struct paths *ps)
{
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

/* A word test as rule_tree.h says: (word & mask) op datum on the high or low word. */
static bool word_test_holds(const struct libseccomp_word_test *t, const uint64_t args[6])
{
	assert_true(t->arg < 6);
	uint32_t word = (uint32_t)(t->hi ? args[t->arg] >> 32 : args[t->arg]) & t->mask;
	bool r;
	switch (t->op) {
	case LIBSECCOMP_EQ:
		r = word == t->datum;
		break;
	case LIBSECCOMP_GT:
		r = word > t->datum;
		break;
	case LIBSECCOMP_GE:
		r = word >= t->datum;
		break;
	case LIBSECCOMP_NE:
	case LIBSECCOMP_LT:
	case LIBSECCOMP_LE:
	case LIBSECCOMP_MASKED_EQ:
	default:
		fail_msg("a word test with operator %d", (int)t->op);
		return false;
	}
	return r == t->holds;
}

/* The first rule of the walk that @args match decides. */
static uint32_t paths_verdict(const struct paths *ps, const uint64_t args[6])
{
	for (size_t i = 0; i < ps->n; i++) {
		bool all = true;
		for (size_t k = 0; all && k < ps->v[i].ntests; k++)
			all = word_test_holds(&ps->v[i].test[k], args);
		if (all)
			return ps->v[i].action;
	}
	return NO_RULE;
}

static struct libseccomp_tree *tree_of(unsigned bits, const struct libseccomp_rule *rules,
				       size_t n)
{
	struct libseccomp_tree *t = libseccomp_tree_new(bits);
	assert_non_null(t);
	for (size_t i = 0; i < n; i++)
		if (libseccomp_tree_add(t, &rules[i]) != 0)
			fail_msg("rule %zu refused", i);
	return t;
}

static void walk(const struct libseccomp_tree *t, struct paths *ps)
{
	memset(ps, 0, sizeof(*ps));
	assert_int_equal(libseccomp_tree_rules(t, SIZE_MAX, collect_path, ps), 0);
}

#define EQ(argno, value) { .arg = (argno), .op = LIBSECCOMP_EQ, .a = (value) }

/* --- the rule tree ---------------------------------------------------------- */

static void test_tree_empty_and_unconditional(void **state)
{
	(void)state;
	struct paths ps;
	struct libseccomp_tree *t = libseccomp_tree_new(64);
	assert_non_null(t);
	walk(t, &ps);
	assert_int_equal(ps.n, 0);
	paths_release(&ps);

	/* a conditional rule, then an unconditional one that replaces the tree;
	 * every later rule changes nothing */
	const struct libseccomp_rule r1 = { ERRNO(1), 1, { EQ(0, 1) } };
	const struct libseccomp_rule all = { ERRNO(2), 0, { { 0 } } };
	const struct libseccomp_rule r3 = { ERRNO(3), 1, { EQ(1, 5) } };
	const struct libseccomp_rule all4 = { ERRNO(4), 0, { { 0 } } };
	assert_int_equal(libseccomp_tree_add(t, &r1), 0);
	assert_int_equal(libseccomp_tree_add(t, &all), 0);
	assert_int_equal(libseccomp_tree_add(t, &r3), 0);
	assert_int_equal(libseccomp_tree_add(t, &all4), 0);
	walk(t, &ps);
	assert_int_equal(ps.n, 1);
	assert_int_equal(ps.v[0].ntests, 0);
	assert_int_equal(ps.v[0].action, ERRNO(2));
	paths_release(&ps);
	/* one rule is one too many for a budget of none */
	assert_int_equal(libseccomp_tree_rules(t, 0, collect_path, &ps), -E2BIG);
	assert_int_equal(ps.n, 0);
	libseccomp_tree_free(t);
	libseccomp_tree_free(NULL);
}

/*
 * ALLOW where a0 == 1, ERRNO(1) where a1 == 2, on a 64-bit ABI: each
 * argument is tested high word, then low word, and libseccomp 2.5.4's
 * filter tests a1 first (seccomp_export_pfc), so a call both rules match
 * gets ERRNO(1), in either order of adding.
 */
static void test_tree_two_arguments(void **state)
{
	(void)state;
	const struct libseccomp_rule rules[] = {
		{ SCG_RET_ALLOW, 1, { EQ(0, 1) } },
		{ ERRNO(1), 1, { EQ(1, 2) } },
	};
	const struct libseccomp_rule reversed[] = { rules[1], rules[0] };
	const struct libseccomp_rule *orders[] = { rules, reversed };
	for (size_t o = 0; o < N(orders); o++) {
		struct libseccomp_tree *t = tree_of(64, orders[o], 2);
		struct paths ps;
		walk(t, &ps);
		assert_int_equal(ps.n, 2);
		for (size_t i = 0; i < ps.n; i++) {
			/* one argument, its high word then its low word, both equal */
			assert_int_equal(ps.v[i].ntests, 2);
			assert_true(ps.v[i].test[0].hi && !ps.v[i].test[1].hi);
			assert_int_equal(ps.v[i].test[0].arg, ps.v[i].test[1].arg);
			assert_true(ps.v[i].test[0].holds && ps.v[i].test[1].holds);
		}
		const struct {
			uint64_t a0, a1;
			uint32_t want;
		} calls[] = {
			{ 1, 0, SCG_RET_ALLOW },
			{ 1, 3, SCG_RET_ALLOW },
			{ 0, 2, ERRNO(1) },
			{ 7, 2, ERRNO(1) },
			{ 1, 2, ERRNO(1) },
			{ 0, 0, NO_RULE },
			{ 1ULL << 32 | 1, 0, NO_RULE },
			{ 0, 1ULL << 32 | 2, NO_RULE },
			{ 1ULL << 32 | 1, 2, ERRNO(1) },
			{ 1, 1ULL << 63 | 2, SCG_RET_ALLOW },
		};
		for (size_t c = 0; c < N(calls); c++) {
			const uint64_t args[6] = { calls[c].a0, calls[c].a1 };
			uint32_t got = paths_verdict(&ps, args);
			if (got != calls[c].want)
				fail_msg("order %zu, call %zu: %#x, want %#x", o, c, got,
					 calls[c].want);
		}
		paths_release(&ps);
		libseccomp_tree_free(t);
	}
}

/* A 32-bit ABI has only low words: a0 == 0x100000001 is a0 == 1 there. */
static void test_tree_32bit(void **state)
{
	(void)state;
	const struct libseccomp_rule r = { ERRNO(7), 2,
		{ EQ(0, 0x100000001ULL), { .arg = 2, .op = LIBSECCOMP_LT, .a = 10 } } };
	struct libseccomp_tree *t = tree_of(32, &r, 1);
	struct paths ps;
	walk(t, &ps);
	assert_int_equal(ps.n, 1);
	for (size_t k = 0; k < ps.v[0].ntests; k++)
		assert_false(ps.v[0].test[k].hi);
	const uint64_t match[6] = { 1, 0, 9 }, high[6] = { 0x500000001ULL, 0, 0x300000009ULL };
	const uint64_t a0[6] = { 2, 0, 9 }, a2[6] = { 1, 0, 10 };
	assert_int_equal(paths_verdict(&ps, match), ERRNO(7));
	assert_int_equal(paths_verdict(&ps, high), ERRNO(7));
	assert_int_equal(paths_verdict(&ps, a0), NO_RULE);
	assert_int_equal(paths_verdict(&ps, a2), NO_RULE);
	paths_release(&ps);
	libseccomp_tree_free(t);
}

/*
 * Ranges on a 64-bit ABI: a0 > 0x100000005 is a high-word test that
 * decides alone when the high word is above 1, and the low word decides
 * when it is 1; a1 != 3 holds on either word differing.
 */
static void test_tree_ranges(void **state)
{
	(void)state;
	const struct libseccomp_rule r = { TRACE(4), 2,
		{ { .arg = 0, .op = LIBSECCOMP_GT, .a = 0x100000005ULL },
		  { .arg = 1, .op = LIBSECCOMP_NE, .a = 3 } } };
	struct libseccomp_tree *t = tree_of(64, &r, 1);
	struct paths ps;
	walk(t, &ps);
	/* two ways through a0, then two through a1 */
	assert_int_equal(ps.n, 4);
	const uint64_t a0s[] = { 0, 5, 0x100000005ULL, 0x100000006ULL, 0x1ffffffffULL,
				 0x200000000ULL, UINT64_MAX };
	const uint64_t a1s[] = { 0, 3, 4, 0x100000003ULL, UINT64_MAX };
	for (size_t i = 0; i < N(a0s); i++)
		for (size_t j = 0; j < N(a1s); j++) {
			const uint64_t args[6] = { a0s[i], a1s[j] };
			bool match = a0s[i] > 0x100000005ULL && a1s[j] != 3;
			assert_int_equal(paths_verdict(&ps, args), match ? TRACE(4) : NO_RULE);
		}
	paths_release(&ps);
	libseccomp_tree_free(t);
}

/* libseccomp refuses a rule of another action on the same comparisons; a
 * repeated rule of the same action changes nothing. */
static void test_tree_refusal(void **state)
{
	(void)state;
	const struct libseccomp_rule r = { ERRNO(1), 1, { EQ(0, 1) } };
	const struct libseccomp_rule other = { ERRNO(2), 1, { EQ(0, 1) } };
	struct libseccomp_tree *t = tree_of(64, &r, 1);
	assert_int_equal(libseccomp_tree_add(t, &r), 0);
	assert_int_equal(libseccomp_tree_add(t, &other), -EEXIST);
	libseccomp_tree_free(t);
}

/*
 * The third rule's a1 chain is reached twice, through a0's high and low
 * words; libseccomp 2.5.4 links it into a level twice, the level loops on
 * itself and seccomp_rule_add() never returns.  The model refuses the rule
 * and the tree stays what the first two made it.
 */
static void test_tree_level_loop(void **state)
{
	(void)state;
	const struct libseccomp_rule rules[] = {
		{ ERRNO(2), 2, { { .arg = 0, .op = LIBSECCOMP_GE, .a = 0 },
				 { .arg = 1, .op = LIBSECCOMP_GT, .a = 0x200000001ULL } } },
		{ ERRNO(1), 2, { { .arg = 0, .op = LIBSECCOMP_LT, .a = 0xffffffffULL },
				 { .arg = 1, .op = LIBSECCOMP_LE, .a = 0x100000002ULL } } },
	};
	const struct libseccomp_rule loop = { ERRNO(1), 2,
		{ { .arg = 0, .op = LIBSECCOMP_GE, .a = 0 }, EQ(1, 0x200000001ULL) } };
	struct libseccomp_tree *t = tree_of(64, rules, N(rules));
	assert_int_equal(libseccomp_tree_add(t, &loop), -ELOOP);
	libseccomp_tree_free(t);
	/* rebuilt from the accepted rules, as the drop-in does */
	t = tree_of(64, rules, N(rules));
	struct paths ps;
	walk(t, &ps);
	const uint64_t a[6] = { 5, 0x300000000ULL }, b[6] = { 5, 7 }, c[6] = { 5, 0x200000001ULL };
	assert_int_equal(paths_verdict(&ps, a), ERRNO(2));
	assert_int_equal(paths_verdict(&ps, b), ERRNO(1));
	assert_int_equal(paths_verdict(&ps, c), NO_RULE);
	paths_release(&ps);
	libseccomp_tree_free(t);
}

/* The walk stops at the first non-zero return of emit and returns it. */
static void test_tree_emit_stops(void **state)
{
	(void)state;
	const struct libseccomp_rule rules[] = {
		{ ERRNO(1), 1, { EQ(0, 1) } },
		{ ERRNO(2), 1, { EQ(1, 2) } },
		{ ERRNO(3), 1, { EQ(2, 3) } },
	};
	struct libseccomp_tree *t = tree_of(64, rules, N(rules));
	const int stops[] = { -ENOMEM, 7 };
	for (size_t i = 0; i < N(stops); i++) {
		struct paths ps = { .stop_with = stops[i] };
		assert_int_equal(libseccomp_tree_rules(t, SIZE_MAX, collect_path, &ps), stops[i]);
		assert_int_equal(ps.n, 1);
		paths_release(&ps);
	}
	/* past the budget: -E2BIG */
	struct paths ps = { 0 };
	assert_int_equal(libseccomp_tree_rules(t, 2, collect_path, &ps), -E2BIG);
	assert_int_equal(ps.n, 2);
	paths_release(&ps);
	walk(t, &ps);
	assert_int_equal(ps.n, 3);
	paths_release(&ps);
	libseccomp_tree_free(t);
}

/* --- overlap ---------------------------------------------------------------- */

struct emitted {
	uint32_t action[1024];
	struct scg_expr *cond[1024];
	size_t n;
	size_t calls;
};

static int collect_rule(void *ctx, uint32_t action, struct scg_expr *cond)
{
	struct emitted *e = ctx;
	assert_non_null(cond);
	e->calls++;
	if (e->n == N(e->cond)) {
		scg_expr_free(cond);
		return 0;
	}
	e->action[e->n] = action;
	e->cond[e->n++] = cond;
	return 0;
}

static void emitted_release(struct emitted *e)
{
	for (size_t i = 0; i < e->n; i++)
		scg_expr_free(e->cond[i]);
	memset(e, 0, sizeof(*e));
}

/* The first emitted rule that @args match decides. */
static uint32_t emitted_verdict(const struct emitted *e, const uint64_t args[6])
{
	for (size_t i = 0; i < e->n; i++)
		if (scg_expr_eval(e->cond[i], args))
			return e->action[i];
	return NO_RULE;
}

static struct scg_expr *eq64(unsigned arg, uint64_t value)
{
	struct scg_expr *e = scg_expr_cmp(arg, 64, SCG_CMP_EQ, UINT64_MAX, value);
	assert_non_null(e);
	return e;
}

/*
 * One rule where a0 == 1, one of another action where a1 == 2: rules come
 * out only for the calls both match, and there they give the tree's
 * answer, the a1 rule's action (libseccomp tests a1 first), whether or not
 * it is the stricter one.
 */
static void overlap_two_rules(uint32_t act0, uint32_t act1)
{
	const struct libseccomp_rule model[] = {
		{ act0, 1, { EQ(0, 1) } },
		{ act1, 1, { EQ(1, 2) } },
	};
	struct libseccomp_tree *t = tree_of(64, model, N(model));
	struct scg_expr *c0 = eq64(0, 1), *c1 = eq64(1, 2);
	const struct libseccomp_overlap_rule rules[] = { { act0, c0 }, { act1, c1 } };
	struct emitted e = { 0 };
	assert_int_equal(libseccomp_overlap_rules(t, rules, N(rules), collect_rule, &e), 0);
	assert_true(e.n > 0 && e.n == e.calls);
	struct paths ps;
	walk(t, &ps);
	const uint64_t values[] = { 0, 1, 2, 3, 1ULL << 32 | 1, 1ULL << 32 | 2, UINT64_MAX };
	size_t both = 0;
	for (size_t i = 0; i < N(values); i++)
		for (size_t j = 0; j < N(values); j++)
			for (size_t k = 0; k < 2; k++) {
				const uint64_t args[6] = { values[i], values[j], values[k] };
				bool m0 = scg_expr_eval(c0, args), m1 = scg_expr_eval(c1, args);
				for (size_t r = 0; r < e.n; r++)
					if (scg_expr_eval(e.cond[r], args) && !(m0 && m1))
						fail_msg("rule %zu holds for (%#llx, %#llx), "
							 "which not both rules match", r,
							 (unsigned long long)args[0],
							 (unsigned long long)args[1]);
				if (!(m0 && m1))
					continue;
				both++;
				assert_int_equal(paths_verdict(&ps, args), act1);
				assert_int_equal(emitted_verdict(&e, args), act1);
			}
	assert_int_equal(both, 2);
	for (size_t r = 0; r < e.n; r++)
		assert_true(e.action[r] == act0 || e.action[r] == act1);
	paths_release(&ps);
	emitted_release(&e);
	scg_expr_free(c0);
	scg_expr_free(c1);
	libseccomp_tree_free(t);
}

static void test_overlap_two_rules(void **state)
{
	(void)state;
	overlap_two_rules(SCG_RET_ALLOW, ERRNO(1));
	overlap_two_rules(ERRNO(1), SCG_RET_ALLOW);
}

/* An unconditional rule decides alone; rules of one action never disagree. */
static void test_overlap_nothing_to_say(void **state)
{
	(void)state;
	const struct libseccomp_rule model[] = {
		{ SCG_RET_ALLOW, 1, { EQ(0, 1) } },
		{ ERRNO(1), 0, { { 0 } } },
	};
	struct libseccomp_tree *t = tree_of(64, model, N(model));
	struct scg_expr *c0 = eq64(0, 1), *c1 = eq64(1, 2);
	const struct libseccomp_overlap_rule uncond[] = { { SCG_RET_ALLOW, c0 },
							  { ERRNO(1), NULL } };
	struct emitted e = { 0 };
	assert_int_equal(libseccomp_overlap_rules(t, uncond, N(uncond), collect_rule, &e), 0);
	assert_int_equal(e.calls, 0);
	libseccomp_tree_free(t);

	const struct libseccomp_rule same[] = {
		{ ERRNO(1), 1, { EQ(0, 1) } },
		{ ERRNO(1), 1, { EQ(1, 2) } },
	};
	t = tree_of(64, same, N(same));
	const struct libseccomp_overlap_rule one[] = { { ERRNO(1), c0 }, { ERRNO(1), c1 } };
	assert_int_equal(libseccomp_overlap_rules(t, one, N(one), collect_rule, &e), 0);
	assert_int_equal(e.calls, 0);
	assert_int_equal(libseccomp_overlap_rules(t, one, 1, collect_rule, &e), 0);
	assert_int_equal(e.calls, 0);
	libseccomp_tree_free(t);
	scg_expr_free(c0);
	scg_expr_free(c1);
}

/* A rule's comparisons as a condition on 64-bit arguments, as the drop-in writes them. */
static struct scg_expr *cond_of(const struct libseccomp_rule *r)
{
	struct scg_expr *all = NULL;
	for (unsigned i = 0; i < r->ncmp; i++) {
		const struct libseccomp_cmp *c = &r->cmp[i];
		enum scg_cmp_op op = c->op == LIBSECCOMP_NE   ? SCG_CMP_NE
				     : c->op == LIBSECCOMP_LT ? SCG_CMP_LT
				     : c->op == LIBSECCOMP_LE ? SCG_CMP_LE
				     : c->op == LIBSECCOMP_GE ? SCG_CMP_GE
				     : c->op == LIBSECCOMP_GT ? SCG_CMP_GT
							      : SCG_CMP_EQ;
		bool masked = c->op == LIBSECCOMP_MASKED_EQ;
		struct scg_expr *e = scg_expr_cmp(c->arg, 64, op, masked ? c->a : UINT64_MAX,
						  masked ? c->a & c->b : c->a);
		all = all == NULL ? e : scg_expr_and(all, e);
		assert_non_null(all);
	}
	return all;
}

/* @a before @b: the lower rank, or of one rank the action whose first rule comes first. */
static bool stricter(const struct libseccomp_overlap_rule *rules, uint32_t a, uint32_t b)
{
	int32_t ra = (int32_t)(a & SCG_RET_ACTION_FULL), rb = (int32_t)(b & SCG_RET_ACTION_FULL);
	if (ra != rb)
		return ra < rb;
	for (size_t i = 0; rules[i].action != b; i++)
		if (rules[i].action == a)
			return true;
	return false;
}

/*
 * What libseccomp_overlap_rules() emits for @model, on every call built
 * from @values in a0 and a1: nothing where the rules do not meet with
 * different actions; where they do, the action of the tree's path when a
 * matching rule has it, else the strictest of the matching rules' actions
 * (of one rank, the first added).  Returns the calls of the second kind.
 */
static size_t check_overlap(const struct libseccomp_rule *model, size_t n, const uint64_t *values,
			    size_t nvalues)
{
	struct libseccomp_tree *t = tree_of(64, model, n);
	struct libseccomp_overlap_rule rules[8];
	assert_true(n <= N(rules));
	for (size_t i = 0; i < n; i++)
		rules[i] = (struct libseccomp_overlap_rule){ model[i].action, cond_of(&model[i]) };
	struct emitted e = { 0 };
	assert_int_equal(libseccomp_overlap_rules(t, rules, n, collect_rule, &e), 0);
	assert_true(e.n == e.calls);
	struct paths ps;
	walk(t, &ps);
	size_t slips = 0;
	for (size_t i = 0; i < nvalues; i++)
		for (size_t j = 0; j < nvalues; j++) {
			const uint64_t args[6] = { values[i], values[j] };
			uint32_t first = NO_RULE, strictest = NO_RULE;
			bool meet = false, tree_matches = false;
			uint32_t tree = paths_verdict(&ps, args);
			for (size_t r = 0; r < n; r++) {
				if (!scg_expr_eval(rules[r].cond, args))
					continue;
				if (first == NO_RULE)
					first = strictest = rules[r].action;
				meet |= rules[r].action != first;
				tree_matches |= rules[r].action == tree;
				if (stricter(rules, rules[r].action, strictest))
					strictest = rules[r].action;
			}
			uint32_t want = !meet ? NO_RULE : tree_matches ? tree : strictest;
			slips += meet && !tree_matches;
			uint32_t got = emitted_verdict(&e, args);
			if (got != want)
				fail_msg("(%#llx, %#llx): %#x, want %#x (tree %#x)",
					 (unsigned long long)args[0], (unsigned long long)args[1], got,
					 want, tree);
		}
	paths_release(&ps);
	emitted_release(&e);
	for (size_t i = 0; i < n; i++)
		scg_expr_free((struct scg_expr *)rules[i].cond);
	libseccomp_tree_free(t);
	return slips;
}

/*
 * libseccomp 2.5.4's own tree (seccomp_export_pfc) gives close(2, 0)
 * ERRNO(2), the action of a rule it does not match (a0 != 2); the rules it
 * matches are TRACE(1) and LOG, and the stricter, TRACE(1), decides.
 */
static void test_overlap_tree_slip(void **state)
{
	(void)state;
	const struct libseccomp_rule model[] = {
		{ TRACE(1), 2, { { .arg = 1, .op = LIBSECCOMP_NE, .a = 2 },
				 { .arg = 0, .op = LIBSECCOMP_LE, .a = 2 } } },
		{ ERRNO(2), 2, { { .arg = 1, .op = LIBSECCOMP_LE, .a = 2 },
				 { .arg = 0, .op = LIBSECCOMP_NE, .a = 2 } } },
		{ SCG_RET_LOG, 2, { { .arg = 1, .op = LIBSECCOMP_LT, .a = 0x100000000ULL },
				    { .arg = 0, .op = LIBSECCOMP_NE, .a = 0xffffffffULL } } },
	};
	struct libseccomp_tree *t = tree_of(64, model, N(model));
	struct paths ps;
	walk(t, &ps);
	const uint64_t call[6] = { 2, 0 };
	assert_int_equal(paths_verdict(&ps, call), ERRNO(2));
	paths_release(&ps);
	libseccomp_tree_free(t);
	const uint64_t values[] = { 0, 1, 2, 3, 0xffffffffULL, 1ULL << 32, 1ULL << 32 | 2,
				    UINT64_MAX };
	assert_true(check_overlap(model, N(model), values, N(values)) > 0);

	/* Here libseccomp's tree keeps only the first rule: close(1, 0xffffffff),
	 * which the other two match, falls out of it and gets the default; the
	 * first added of their actions (of one rank), ERRNO(3), decides. */
	const struct libseccomp_rule lost[] = {
		{ ERRNO(3), 1, { { .arg = 0, .op = LIBSECCOMP_GT, .a = 2 } } },
		{ ERRNO(3), 2, { EQ(1, 0xffffffffULL), { .arg = 0, .op = LIBSECCOMP_GE, .a = 1 } } },
		{ ERRNO(2), 2, { { .arg = 0, .op = LIBSECCOMP_GE, .a = 0 },
				 { .arg = 1, .op = LIBSECCOMP_LT, .a = 0x100000000ULL } } },
	};
	t = tree_of(64, lost, N(lost));
	walk(t, &ps);
	const uint64_t out[6] = { 1, 0xffffffffULL };
	assert_int_equal(paths_verdict(&ps, out), NO_RULE);
	paths_release(&ps);
	libseccomp_tree_free(t);
	assert_true(check_overlap(lost, N(lost), values, N(values)) > 0);

	/* the two-rule sets above, on the same grid */
	const struct libseccomp_rule two[] = {
		{ ERRNO(1), 1, { EQ(0, 1) } },
		{ SCG_RET_ALLOW, 1, { EQ(1, 2) } },
	};
	assert_int_equal(check_overlap(two, N(two), values, N(values)), 0);
}

/* --- when the rules are left to decide: -E2BIG, nothing emitted -------------- */

/* Nine kinds of actions libseccomp's filter tells apart, strictest first. */
static const uint32_t nine_actions[] = {
	SCG_RET_KILL_PROCESS, SCG_RET_KILL_THREAD, SCG_RET_TRAP, ERRNO(1), ERRNO(2),
	ERRNO(3), TRACE(1), TRACE(2), SCG_RET_LOG,
};

/* Rule i: a0 has bit i set, with the i-th action; a0 = 0x1ff matches them all. */
static int overlap_of_bits(size_t n, struct emitted *e)
{
	struct libseccomp_rule model[N(nine_actions)];
	struct libseccomp_overlap_rule rules[N(nine_actions)];
	assert_true(n <= N(nine_actions));
	struct libseccomp_tree *t = libseccomp_tree_new(64);
	assert_non_null(t);
	for (size_t i = 0; i < n; i++) {
		model[i] = (struct libseccomp_rule){ nine_actions[i], 1,
			{ { .arg = 0, .op = LIBSECCOMP_MASKED_EQ, .a = 1u << i, .b = 1u << i } } };
		assert_int_equal(libseccomp_tree_add(t, &model[i]), 0);
		rules[i].action = nine_actions[i];
		rules[i].cond = scg_expr_cmp(0, 64, SCG_CMP_EQ, 1u << i, 1u << i);
		assert_non_null(rules[i].cond);
	}
	int rc = libseccomp_overlap_rules(t, rules, n, collect_rule, e);
	for (size_t i = 0; i < n; i++)
		scg_expr_free((struct scg_expr *)rules[i].cond);
	libseccomp_tree_free(t);
	return rc;
}

static void test_overlap_too_many_actions(void **state)
{
	(void)state;
	/* eight actions: told apart, and the tree's answer for a0 = 0x1ff is
	 * its last rule's (libseccomp tests the greatest datum first) */
	struct emitted e = { 0 };
	assert_int_equal(overlap_of_bits(8, &e), 0);
	assert_true(e.calls > 0);
	const uint64_t all[6] = { 0x1ff };
	assert_int_equal(emitted_verdict(&e, all), nine_actions[7]);
	emitted_release(&e);
	/* nine: left to the rules, nothing emitted */
	assert_int_equal(overlap_of_bits(9, &e), -E2BIG);
	assert_int_equal(e.calls, 0);
}

/*
 * ALLOW where (a0, a1, a2) is one of 17 * 17 * 17 triples, each rule its
 * own path through the tree, and ERRNO(1) where a3 == 0: the tree unfolds
 * into 4914 rules, past the 4096 overlap_rules() unfolds.
 */
static void test_overlap_tree_too_large(void **state)
{
	(void)state;
	enum { K = 17 };
	struct libseccomp_tree *t = libseccomp_tree_new(64);
	assert_non_null(t);
	struct scg_expr *allow = NULL;
	for (unsigned i = 0; i < K; i++)
		for (unsigned j = 0; j < K; j++)
			for (unsigned k = 0; k < K; k++) {
				const struct libseccomp_rule r = { SCG_RET_ALLOW, 3,
					{ EQ(0, i), EQ(1, j), EQ(2, k) } };
				assert_int_equal(libseccomp_tree_add(t, &r), 0);
			}
	/* what the ALLOW rules match together: every triple below K */
	allow = scg_expr_and(scg_expr_cmp(0, 64, SCG_CMP_LT, UINT64_MAX, K),
			     scg_expr_and(scg_expr_cmp(1, 64, SCG_CMP_LT, UINT64_MAX, K),
					  scg_expr_cmp(2, 64, SCG_CMP_LT, UINT64_MAX, K)));
	assert_non_null(allow);
	const struct libseccomp_rule deny = { ERRNO(1), 1, { EQ(3, 0) } };
	assert_int_equal(libseccomp_tree_add(t, &deny), 0);
	struct paths ps;
	walk(t, &ps);
	assert_int_equal(ps.n, K * K * K + 1);
	paths_release(&ps);

	struct scg_expr *a3 = eq64(3, 0);
	const struct libseccomp_overlap_rule rules[] = { { SCG_RET_ALLOW, allow },
							 { ERRNO(1), a3 } };
	struct emitted e = { 0 };
	assert_int_equal(libseccomp_overlap_rules(t, rules, N(rules), collect_rule, &e), -E2BIG);
	assert_int_equal(e.calls, 0);
	scg_expr_free(allow);
	scg_expr_free(a3);
	libseccomp_tree_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_empty_and_unconditional),
		cmocka_unit_test(test_tree_two_arguments),
		cmocka_unit_test(test_tree_32bit),
		cmocka_unit_test(test_tree_ranges),
		cmocka_unit_test(test_tree_refusal),
		cmocka_unit_test(test_tree_level_loop),
		cmocka_unit_test(test_tree_emit_stops),
		cmocka_unit_test(test_overlap_two_rules),
		cmocka_unit_test(test_overlap_nothing_to_say),
		cmocka_unit_test(test_overlap_tree_slip),
		cmocka_unit_test(test_overlap_too_many_actions),
		cmocka_unit_test(test_overlap_tree_too_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
