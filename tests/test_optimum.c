/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * opt_tree_cost() (lib/compile/optimum.c), the optimum `compile --stats`
 * measures the layout against, held against brute force over every
 * decision tree on small inputs: every subset of numbers that can reach a
 * node, every test `nr >= k` and every `nr == k` on a weighted number.
 * Then scg_compile_stats() on the built-in profiles: the optimum never
 * exceeds what the compiler's layout does.
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
		r[i] = (struct opt_range){ at, at + len[i] - 1, node[i], len[i] == 1 ? weight[i] : 0 };
		for (uint32_t k = 0; k < len[i]; k++) {
			b.node[b.n] = node[i];
			b.weight[b.n++] = len[i] == 1 ? weight[i] : 0;
		}
		at += len[i];
	}
	uint64_t got = 0, want = brute_cost(&b, (1U << b.n) - 1);
	assert_int_equal(opt_tree_cost(r, nr, &got), 0);
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
		/* no workload: nothing weighs */
		SCG_OPTS(scg_compile_options, none, .optimize = 1, .unweighted = true);
		SCG_OPTS(scg_compile_stats, st0);
		assert_int_equal(scg_compile_stats(p, &none, NULL, NULL, &st0), 0);
		assert_int_equal(st0.uncached_calls, 0);
		scg_policy_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_stats_profiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
