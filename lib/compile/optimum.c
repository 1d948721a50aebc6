/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The optimum of the number dispatch: the least workload-weighted number of
 * tests any decision tree over syscall numbers needs (opt_tree_cost()), the
 * yardstick `syscage compile --stats` holds the compiler's layout against.
 *
 * The trees: inner nodes test `nr >= k` for any k, or `nr == k` for a
 * number the workload calls on an uncached path (a one-number range of
 * positive weight); a leaf decides numbers of one node.  Only the weighted
 * numbers' depths count.  The numbers reaching a node are an interval of
 * ranges less the numbers `jeq` took above it, so the dynamic program runs
 * over (first range, last range, set of taken numbers), memoised:
 *
 *   cost(S) = 0                              when S holds one node only, or no weight
 *   cost(S) = W(S) + min( cost(S below k) + cost(S from k)   for each k,
 *                         cost(S less p)                     for each weighted point p )
 *
 * Before that, runs of unweighted ranges shrink to at most three ranges,
 * which changes no cost: the first and the last of a run keep their nodes
 * (a leaf may reach across numbers `jeq` took to a neighbour of the same
 * node), while the ones between can share a leaf with nothing, since
 * nothing takes them away, and every threshold among them sends them all
 * the same way as long as one stands for them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compile/internal.h"
#include "util/hashmap.h"

struct opt {
	const struct opt_range *r;
	bool minimax; /* the longest path instead of the weighted sum */
	size_t max_states;
	size_t n;
	int *point;         /* per range: its index among the points, or -1 */
	uint32_t *below;    /* per range k (and m): the points among the ranges before k */
	struct hashmap memo; /* (i, j, mask) packed -> cost */
	int err;
};

/* A range `jeq` may test: one number, weighted, and among the @max_points chosen. */
static bool is_point(const struct opt_range *r)
{
	return r->first == r->last && r->weight > 0 && r->jeq;
}

/* Most weighted first; then those between two ranges of one node (where a `jeq` pays); by number. */
static bool before(const struct opt_range *r, size_t n, size_t a, size_t b)
{
	if (r[a].weight != r[b].weight)
		return r[a].weight > r[b].weight;
	bool ia = a > 0 && a + 1 < n && r[a - 1].node == r[a + 1].node;
	bool ib = b > 0 && b + 1 < n && r[b - 1].node == r[b + 1].node;
	if (ia != ib)
		return ia;
	return a < b;
}

/* Marks the @max_points candidates for `jeq` in @r (one-number weighted ranges); 0 or -ENOMEM. */
static int choose_points(struct opt_range *r, size_t n, size_t max_points)
{
	size_t *cand = malloc((n ? n : 1) * sizeof(*cand)), m = 0;
	if (!cand)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r[i].jeq = false;
		if (r[i].first == r[i].last && r[i].weight > 0)
			cand[m++] = i;
	}
	/* a partial selection sort: max_points is small */
	for (size_t k = 0; k < m && k < max_points; k++) {
		size_t best = k;
		for (size_t x = k + 1; x < m; x++)
			if (before(r, n, cand[x], cand[best]))
				best = x;
		size_t t = cand[k];
		cand[k] = cand[best];
		cand[best] = t;
		r[cand[k]].jeq = true;
	}
	free(cand);
	return 0;
}

/* The reduced list: neighbours of one node merged (points kept apart), unweighted runs cut. */
static struct opt_range *reduce(const struct opt_range *in, size_t n, size_t *out_n)
{
	struct opt_range *m = malloc((n ? n : 1) * sizeof(*m));
	if (!m)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && m[k - 1].node == in[i].node && !is_point(&m[k - 1]) && !is_point(&in[i])) {
			m[k - 1].last = in[i].last;
			m[k - 1].weight += in[i].weight;
			continue;
		}
		m[k++] = in[i];
	}
	/* Unweighted runs: the first, one stand-in with a node of its own, the last. */
	uint32_t fresh = UINT32_MAX;
	size_t w = 0;
	for (size_t i = 0; i < k;) {
		if (m[i].weight) {
			m[w++] = m[i++];
			continue;
		}
		size_t j = i;
		while (j < k && m[j].weight == 0)
			j++;
		size_t len = j - i;
		struct opt_range first = m[i], last = m[j - 1];
		m[w++] = first;
		if (len >= 3) {
			struct opt_range mid = { m[i + 1].first, m[j - 2].last, fresh--, 0, false };
			m[w++] = mid;
		}
		if (len >= 2)
			m[w++] = last;
		i = j;
	}
	*out_n = w;
	return m;
}

static uint64_t pack(size_t i, size_t j, uint32_t mask)
{
	return ((uint64_t)i << 44 | (uint64_t)j << 24 | mask) + 1;
}

static bool taken(const struct opt *o, size_t i, uint32_t mask)
{
	return o->point[i] >= 0 && (mask >> o->point[i] & 1U);
}

static uint64_t cost(struct opt *o, size_t i, size_t j, uint32_t mask)
{
	while (i < j && taken(o, i, mask))
		i++;
	while (j > i && taken(o, j, mask))
		j--;
	if (o->err)
		return 0;
	/* only the points inside count for the key; a known state costs no scan */
	uint32_t inside = mask & o->below[j + 1] & ~o->below[i];
	uint64_t key = pack(i, j, inside);
	uint64_t known;
	if (hashmap_get(&o->memo, key, &known))
		return known;
	uint64_t weight = 0;
	bool one_node = true;
	uint32_t node = o->r[i].node;
	for (size_t x = i; x <= j; x++) {
		if (taken(o, x, inside))
			continue;
		weight += o->r[x].weight;
		one_node &= o->r[x].node == node;
	}
	if (one_node || weight == 0)
		return 0;
	uint64_t best = UINT64_MAX;
	for (size_t r = i + 1; r <= j; r++) {
		if (taken(o, r, inside))
			continue; /* the same sets as the split at the next range */
		uint64_t c = cost(o, i, r - 1, inside);
		if (c < best) {
			uint64_t d = cost(o, r, j, inside);
			c = o->minimax ? (c > d ? c : d) : c + d;
		}
		if (c < best)
			best = c;
	}
	for (size_t p = i; p <= j; p++) {
		if (o->point[p] < 0 || taken(o, p, inside))
			continue;
		uint64_t c = cost(o, i, j, inside | 1U << o->point[p]);
		if (c < best)
			best = c;
	}
	best += o->minimax ? 1 : weight;
	if (o->err)
		return 0;
	if (o->memo.len >= o->max_states) {
		o->err = -E2BIG;
		return 0;
	}
	int e = hashmap_add(&o->memo, key, best); /* the key is new: cost() is where it is added */
	if (e < 0) {
		o->err = e;
		return 0;
	}
	return best;
}

int opt_tree_cost(const struct opt_range *r, size_t n, bool minimax, size_t max_points,
		  uint64_t *out)
{
	*out = 0;
	if (n == 0)
		return 0;
	if (max_points > OPT_MAX_POINTS)
		max_points = OPT_MAX_POINTS;
	struct opt o = { .minimax = minimax, .memo = HASHMAP_INIT };
	size_t m = 0;
	struct opt_range *marked = malloc(n * sizeof(*marked));
	if (!marked)
		return -ENOMEM;
	memcpy(marked, r, n * sizeof(*marked));
	int err = choose_points(marked, n, max_points);
	struct opt_range *red = err ? NULL : reduce(marked, n, &m);
	free(marked);
	if (!red)
		return -ENOMEM;
	o.r = red;
	o.n = m;
	o.point = malloc(m * sizeof(*o.point));
	o.below = malloc((m + 1) * sizeof(*o.below));
	err = o.point && o.below ? 0 : -ENOMEM;
	int points = 0;
	for (size_t i = 0; !err && i < m; i++) {
		o.below[i] = points ? (1U << points) - 1 : 0;
		o.point[i] = is_point(&red[i]) ? points++ : -1;
	}
	if (!err)
		o.below[m] = points ? (uint32_t)((1ULL << points) - 1) : 0;
	/* Without points the states are the intervals, all of them (the search is then
	 * O(m^3)): allowed up to OPT_MAX_RANGES ranges. */
	o.max_states = points ? OPT_MAX_STATES : m * (m + 1) / 2 + 1;
	if (!err && m > (points ? (1U << 20) : OPT_MAX_RANGES))
		err = -E2BIG;
	if (!err) {
		*out = cost(&o, 0, m - 1, 0);
		err = o.err;
	}
	free(red);
	free(o.point);
	free(o.below);
	hashmap_release(&o.memo);
	if (err)
		*out = 0;
	return err;
}
