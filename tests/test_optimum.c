/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * opt_tree_cost() (lib/compile/optimum.c), the optimum `compile --stats`
 * measures the layout against, held against brute force over every
 * decision tree on small inputs: every subset of numbers that can reach a
 * node, every test `nr >= k` and every `nr == k` on a weighted number.
 * Then scg_compile_stats() on the built-in profiles: the optimum never
 * exceeds what the compiler's layout does.  And the layout's height bound
 * (tree.c, layout.c): the bounded tree against its own brute force, never
 * higher than its bound; generated policies and workloads whose layout
 * keeps within the bound and near the unbounded optimum.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "support/progen.h"

#define MAXN 12

struct brute {
	size_t n;
	uint32_t node[MAXN];
	uint64_t weight[MAXN];
	uint64_t memo[1U << MAXN];
	bool known[1U << MAXN];
};

/* Numbers 0..n-1; @set a bitmask of the numbers that reach the node. */
static uint64_t brute_cost(struct brute *b, uint32_t set)
{
	if (b->known[set])
		return b->memo[set];
	uint64_t w = 0;
	bool one = true;
	int first = -1;
	for (size_t i = 0; i < b->n; i++)
		if (set >> i & 1U) {
			w += b->weight[i];
			if (first < 0)
				first = (int)i;
			else if (b->node[i] != b->node[first])
				one = false;
		}
	uint64_t best = 0;
	if (!one && w) {
		best = UINT64_MAX;
		for (size_t k = 1; k < b->n; k++) { /* nr >= k */
			uint32_t hi = set & ~((1U << k) - 1), lo = set & ((1U << k) - 1);
			if (!hi || !lo)
				continue;
			uint64_t c = w + brute_cost(b, lo) + brute_cost(b, hi);
			if (c < best)
				best = c;
		}
		for (size_t p = 0; p < b->n; p++) { /* nr == p, for weighted p */
			if (!(set >> p & 1U) || !b->weight[p])
				continue;
			uint64_t c = w + brute_cost(b, set & ~(1U << p));
			if (c < best)
				best = c;
		}
	}
	b->known[set] = true;
	b->memo[set] = best;
	return best;
}

/* Ranges of lengths @len (weights only on ranges of one number) against the numbers they expand to. */
static void check(const uint32_t *len, const uint32_t *node, const uint64_t *weight, size_t nr)
{
	static struct brute b;
	memset(&b, 0, sizeof(b));
	struct opt_range r[MAXN];
	uint32_t at = 0;
	for (size_t i = 0; i < nr; i++) {
		r[i] = (struct opt_range){ at, at + len[i] - 1, node[i], len[i] == 1 ? weight[i] : 0, false };
		for (uint32_t k = 0; k < len[i]; k++) {
			b.node[b.n] = node[i];
			b.weight[b.n++] = len[i] == 1 ? weight[i] : 0;
		}
		at += len[i];
	}
	uint64_t got = 0, want = brute_cost(&b, (1U << b.n) - 1);
	assert_int_equal(opt_tree_cost(r, nr, false, OPT_MAX_POINTS, &got), 0);
	if (got != want) {
		char line[512];
		int o = 0;
		for (size_t i = 0; i < nr; i++)
			o += snprintf(line + o, sizeof(line) - (size_t)o, " [len %u node %u w %llu]",
				      len[i], node[i], (unsigned long long)r[i].weight);
		fail_msg("dp %llu, brute force %llu for%s", (unsigned long long)got,
			 (unsigned long long)want, line);
	}
}

static void test_hand_made(void **state)
{
	(void)state;
	/* A x A, x weighted: one jeq, then one leaf for both A */
	check((uint32_t[]){ 1, 1, 1 }, (uint32_t[]){ 0, 1, 0 }, (uint64_t[]){ 5, 7, 5 }, 3);
	/* A x A with x unweighted: two tests for one of the A */
	check((uint32_t[]){ 1, 1, 1 }, (uint32_t[]){ 0, 1, 0 }, (uint64_t[]){ 5, 0, 5 }, 3);
	/* one heavy number among many nodes: a jeq at the root */
	check((uint32_t[]){ 1, 1, 1, 1, 1, 1 }, (uint32_t[]){ 0, 1, 2, 3, 4, 5 },
	      (uint64_t[]){ 1, 1, 100, 1, 1, 1 }, 6);
	/* equal weights: a balanced tree */
	check((uint32_t[]){ 1, 1, 1, 1, 1, 1, 1, 1 }, (uint32_t[]){ 0, 1, 2, 3, 4, 5, 6, 7 },
	      (uint64_t[]){ 3, 3, 3, 3, 3, 3, 3, 3 }, 8);
	/* long unweighted runs between weighted numbers (reduced to three ranges) */
	check((uint32_t[]){ 1, 2, 1, 1, 1, 1, 2, 1 }, (uint32_t[]){ 0, 1, 2, 3, 4, 0, 1, 0 },
	      (uint64_t[]){ 4, 0, 0, 0, 0, 0, 0, 9 }, 8);
	/* nothing weighted, one node: nothing to decide */
	check((uint32_t[]){ 3 }, (uint32_t[]){ 0 }, (uint64_t[]){ 0 }, 1);
}

static void test_random_against_brute_force(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x0971);
	for (int round = 0; round < 3000; round++) {
		uint32_t len[MAXN], node[MAXN];
		uint64_t weight[MAXN];
		size_t nr = 0, total = 0;
		uint32_t nodes = 1 + progen_below(&rng, 4);
		while (nr < MAXN) {
			uint32_t l = progen_below(&rng, 4) ? 1 : 1 + progen_below(&rng, 3);
			if (total + l > 11)
				break;
			len[nr] = l;
			node[nr] = progen_below(&rng, nodes);
			weight[nr] = progen_below(&rng, 3) ? 0 : 1 + progen_below(&rng, 20);
			total += l;
			nr++;
			if (progen_below(&rng, 8) == 0)
				break;
		}
		check(len, node, weight, nr);
	}
}

/* The compiler's layout never beats the optimum, and the figures hang together. */
static void test_stats_profiles(void **state)
{
	(void)state;
	static const char *const names[] = { "default", "docker-default" };
	for (size_t i = 0; i < 2; i++) {
		struct scg_policy *p = NULL;
		assert_int_equal(scg_profile_load(names[i], NULL, &p, NULL), 0);
		SCG_OPTS(scg_compile_stats, st);
		assert_int_equal(scg_compile_stats(p, NULL, NULL, NULL, &st), 0);
		assert_true(st.length > 0);
		assert_true(st.uncached_calls > 0);
		assert_true(st.optimal_weighted_uncached > 0);
		assert_true(st.optimal_weighted_uncached <= st.weighted_uncached + 1e-9);
		assert_true(st.optimal_weighted_dispatch <= st.weighted_dispatch + 1e-9);
		assert_true(st.weighted_dispatch <= st.weighted_uncached);
		assert_true(st.uniform_syscalls > 0);
		assert_true(st.uniform_dispatch <= st.uniform_uncached);
		assert_true(st.max_dispatch <= st.max_path);
		for (int f = 0; f < 3; f++)
			assert_true(st.jeq_points[f] <= st.jeq_candidates[f]);
		if (st.jeq_points[1] == st.jeq_candidates[1])
			assert_true(st.optimal_uniform_uncached <= st.uniform_uncached + 1e-9);
		if (st.jeq_points[2] == st.jeq_candidates[2])
			assert_true(st.optimal_max_dispatch <= st.max_dispatch);
		/* a layout for no workload is still measured on the built-in one */
		SCG_OPTS(scg_compile_options, none, .optimize = 1, .unweighted = true);
		SCG_OPTS(scg_compile_stats, st0);
		assert_int_equal(scg_compile_stats(p, &none, NULL, NULL, &st0), 0);
		assert_int_equal(st0.uncached_calls, st.uncached_calls);
		assert_true(st0.optimal_weighted_uncached <= st0.weighted_uncached + 1e-9);
		scg_policy_free(p);
	}
}

/* --- the height bound ------------------------------------------------------ */

#define BMAX 10

/* The least cost of ranges i..j in a tree of `jge` no higher than @h; UINT64_MAX: none fits. */
static uint64_t bounded_brute(const uint64_t *w, const uint32_t *node, size_t i, size_t j,
			      unsigned h)
{
	bool one = true;
	uint64_t total = 0;
	for (size_t k = i; k <= j; k++) {
		one &= node[k] == node[i];
		total += w[k];
	}
	if (one)
		return 0; /* (merged ranges never repeat a node side by side) */
	if (h == 0)
		return UINT64_MAX;
	uint64_t best = UINT64_MAX;
	for (size_t r = i + 1; r <= j; r++) {
		uint64_t a = bounded_brute(w, node, i, r - 1, h - 1);
		uint64_t b = bounded_brute(w, node, r, j, h - 1);
		if (a != UINT64_MAX && b != UINT64_MAX && a + b + total < best)
			best = a + b + total;
	}
	return best;
}

/* The longest chain of tests on nr from @node down. */
static unsigned dag_height(const struct dag *g, uint32_t node)
{
	const struct dag_node *d = &g->nodes[node];
	if (d->kind != DAG_TEST || d->word != SCG_DATA_NR)
		return 0;
	unsigned a = dag_height(g, d->t), b = dag_height(g, d->f);
	return 1 + (a > b ? a : b);
}

/* Every number of @r in order, down the tree at @root, reaches its range's node. */
static void check_routes(const struct dag *g, uint32_t root, const struct nr_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t at = root;
		while (g->nodes[at].kind == DAG_TEST && g->nodes[at].word == SCG_DATA_NR) {
			const struct dag_node *d = &g->nodes[at];
			bool taken = d->op == BPF_JGE ? r[i].first >= d->k : r[i].first == d->k;
			at = taken ? d->t : d->f;
		}
		assert_int_equal(at, r[i].node);
	}
}

/*
 * Random ranges and weights (heavy ones among light ones, where the
 * unbounded optimum grows deep): for every limit from the least possible
 * up, the bounded tree is exactly as cheap as brute force over the trees
 * of that height, never higher, routes every number right, and costs no
 * less than the unbounded optimum, which it equals once the limit allows it.
 */
static void test_tree_height_bound(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x28b0);
	for (int round = 0; round < 300; round++) {
		struct dag g;
		assert_int_equal(dag_init(&g), 0);
		size_t n = 2 + progen_below(&rng, BMAX - 1);
		struct nr_range r[BMAX];
		uint64_t w[BMAX];
		uint32_t node[BMAX], at = 0;
		for (size_t i = 0; i < n; i++) {
			/* two numbers each, so that no chain of jeq applies: only splits */
			uint32_t ret;
			do
				ret = dag_ret(&g, 0x00050000U + progen_below(&rng, 4));
			while (i > 0 && ret == node[i - 1]);
			node[i] = ret;
			w[i] = progen_below(&rng, 4) ? progen_below(&rng, 4) : 1000 + progen_below(&rng, 9000);
			r[i] = (struct nr_range){ .first = at, .last = at + 1, .node = node[i], .weight = w[i] };
			at += 2;
		}
		int err = 0;
		uint64_t unbounded = tree_cost(r, n, 0, &err);
		assert_int_equal(err, 0);
		unsigned least = tree_height_needed(n);
		for (unsigned h = least; h < least + 4; h++) {
			uint64_t got = tree_cost(r, n, h, &err), want = bounded_brute(w, node, 0, n - 1, h);
			assert_int_equal(err, 0);
			assert_int_equal(got, want);
			assert_true(got >= unbounded);
			if (h + 1 >= n)
				assert_int_equal(got, unbounded);
			uint32_t root = tree_build(&g, r, n, h, &err);
			assert_int_equal(err, 0);
			assert_true(dag_height(&g, root) <= h);
			check_routes(&g, root, r, n);
		}
		dag_release(&g);
	}
}

/*
 * Generated policies (x86_64: a default of allow or errno, a random set of
 * the first 120 syscalls allowed, some with argument checks, some answered
 * ENOSYS) with generated workloads (a few heavy syscalls, many light ones):
 * the number dispatch stays within the height bound (a balanced tree over
 * at most 256 ranges, TREE_EXACT_MAX, plus the slack and the load), and
 * the weighted figure within 1.25 of the unbounded optimum where that
 * optimum is exact (the blend gives up at most (bound - uniform mean) / 4
 * tests per call to the uniform prior, which on a dispatch of three or
 * four tests can be a tenth).
 */
static void test_layout_bound_generated(void **state)
{
	(void)state;
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	assert_non_null(x64);
	struct progen_rng rng;
	progen_seed(&rng, 0x2828);
	char *text = malloc(1 << 16);
	assert_non_null(text);
	for (int round = 0; round < 8; round++) {
		size_t o = (size_t)snprintf(text, 1 << 16, "arch x86_64\ndefault %s\n",
					    round % 2 ? "allow" : "errno(EPERM)");
		struct scg_syscall_weight w[64];
		size_t nw = 0;
		for (size_t i = 0; i < 120; i++) { /* 2 * 120 + 1 ranges at most */
			const char *name;
			uint32_t nr;
			if (scg_syscall_at(x64, i, &name, &nr) < 0)
				continue;
			uint32_t pick = progen_below(&rng, 8);
			if (pick < 3)
				o += (size_t)snprintf(text + o, (1 << 16) - o, "allow %s\n", name);
			else if (pick == 3)
				o += (size_t)snprintf(text + o, (1 << 16) - o, "allow %s if arg0 < %u\n", name,
						      progen_below(&rng, 100));
			else if (pick == 4)
				o += (size_t)snprintf(text + o, (1 << 16) - o, "errno(ENOSYS) %s\n", name);
			if (nw < 64 && progen_below(&rng, 6) == 0)
				w[nw++] = (struct scg_syscall_weight){
					name, progen_below(&rng, 5) ? 1 + progen_below(&rng, 50)
								    : 1000 + progen_below(&rng, 100000) };
		}
		struct scg_policy *p = NULL;
		assert_int_equal(scg_policy_parse(text, o, NULL, &p, NULL), 0);
		SCG_OPTS(scg_compile_options, opts, .optimize = 1, .weights = w, .nweights = nw);
		SCG_OPTS(scg_compile_stats, st);
		assert_int_equal(scg_compile_stats(p, &opts, NULL, x64, &st), 0);
		/* ld [nr], at most ceil(log2(256)) + 2 tests (hot chain and tree) */
		assert_true(st.max_dispatch <= 1 + 8 + 2);
		if (st.jeq_points[0] == st.jeq_candidates[0] && st.uncached_calls > 0 &&
		    st.weighted_uncached > 1.25 * st.optimal_weighted_uncached + 1e-9)
			fail_msg("round %d: weighted %.3f, optimum %.3f (dispatch %.3f, %.3f), %zu points",
				 round, st.weighted_uncached, st.optimal_weighted_uncached,
				 st.weighted_dispatch, st.optimal_weighted_dispatch, st.jeq_points[0]);
		scg_policy_free(p);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_stats_profiles),
		cmocka_unit_test(test_tree_height_bound),
		cmocka_unit_test(test_layout_bound_generated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
