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

/* Memo entries before the search gives up (-E2BIG). */
#define OPT_MAX_STATES (1U << 22)

struct opt {
	const struct opt_range *r;
	size_t n;
	int *point;         /* per range: its index among the points, or -1 */
	struct hashmap memo; /* (i, j, mask) packed -> cost */
	int err;
};

static bool is_point(const struct opt_range *r)
{
	return r->first == r->last && r->weight > 0;
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
			struct opt_range mid = { m[i + 1].first, m[j - 2].last, fresh--, 0 };
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
	return (uint64_t)i << 44 | (uint64_t)j << 24 | mask;
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
	/* only the points inside count for the key */
	uint32_t inside = 0;
	uint64_t weight = 0;
	bool one_node = true;
	uint32_t node = o->r[i].node;
	for (size_t k = i; k <= j; k++) {
		if (taken(o, k, mask)) {
			inside |= 1U << o->point[k];
			continue;
		}
		weight += o->r[k].weight;
		one_node &= o->r[k].node == node;
	}
	if (one_node || weight == 0 || o->err)
		return 0;
	uint64_t key = pack(i, j, inside), best;
	if (hashmap_get(&o->memo, key, &best))
		return best;
	best = UINT64_MAX;
	for (size_t r = i + 1; r <= j; r++) {
		if (taken(o, r, inside))
			continue; /* the same sets as the split at the next range */
		uint64_t c = cost(o, i, r - 1, inside);
		if (c < best)
			c += cost(o, r, j, inside);
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
	best += weight;
	if (o->err)
		return 0;
	if (o->memo.len >= OPT_MAX_STATES) {
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

int opt_tree_cost(const struct opt_range *r, size_t n, uint64_t *out)
{
	*out = 0;
	if (n == 0)
		return 0;
	struct opt o = { .memo = HASHMAP_INIT };
	size_t m = 0;
	struct opt_range *red = reduce(r, n, &m);
	if (!red)
		return -ENOMEM;
	o.r = red;
	o.n = m;
	o.point = malloc(m * sizeof(*o.point));
	int err = o.point ? 0 : -ENOMEM;
	int points = 0;
	for (size_t i = 0; !err && i < m; i++) {
		o.point[i] = is_point(&red[i]) ? points++ : -1;
		if (points > OPT_MAX_POINTS)
			err = -E2BIG;
	}
	if (!err && m >= (1U << 20))
		err = -E2BIG;
	if (!err) {
		*out = cost(&o, 0, m - 1, 0);
		err = o.err;
	}
	free(red);
	free(o.point);
	hashmap_release(&o.memo);
	if (err)
		*out = 0;
	return err;
}
