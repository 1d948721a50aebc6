/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The search tree over syscall-number ranges.
 *
 * Each inner node is one `jge #first-of-right-half`: numbers at or above go
 * right.  The tree is an optimal alphabetic tree for the range weights
 * (layout.c says what they are) among the trees no deeper than a limit:
 * first the classic dynamic program with Knuth's bound on the root
 * position, O(n^2); when its tree is deeper than the limit, the same
 * program with the height as one more dimension, O(n^3 * limit), which is
 * exact for the bounded trees (Knuth's bound does not carry over to it, so
 * every root is tried).  Past 256 ranges (TREE_EXACT_MAX) the top levels
 * split the weight in halves until the pieces are that small, and each
 * piece is the unbounded optimum: the bounded program on every piece of a
 * policy with thousands of numbered rules would take minutes.
 *
 * A stretch where a few single numbers interrupt one decision ("allowed,
 * except these two") can instead be a short chain of `jeq`: the dynamic
 * program weighs that against splitting, interval by interval.
 *
 * Only `ld [nr]`, `jge` and `jeq` appear on these paths, so a syscall whose
 * range ends in `ret ALLOW` stays in the kernel's action cache.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"

#define DP_MAX TREE_EXACT_MAX
/* Longest stretch B x B y B z B tested as a chain of `jeq` (x, y, z single numbers). */
#define CHAIN_MAX 7

struct planner {
	const struct nr_range *r;
	size_t n;
	uint64_t *prefix; /* prefix[i] = weight of ranges [0, i) */
	/* Triangular tables over intervals i <= j: by row (i) and by column (j), so that the
	 * inner loop of the DP reads both operands sequentially. */
	uint64_t *cost_row, *cost_col;
	uint16_t *root; /* by row: first range of the right subtree */
	uint8_t *chain; /* by row: 1 when the interval is better a chain of jeq */
	/* The bounded program: per height limit 0..limit, by row (NULL when unbounded). */
	unsigned limit;
	uint64_t *bcost;
	uint64_t *bcol; /* bcost by column (j), so that the inner loop reads it in order */
	uint16_t *broot;
	uint8_t *bchain;
};

#define NO_TREE UINT64_MAX

static size_t row_at(size_t n, size_t i, size_t j)
{
	return i * n - i * (i - 1) / 2 + (j - i);
}

static size_t col_at(size_t i, size_t j)
{
	return j * (j + 1) / 2 + i;
}

static uint64_t weight(const struct planner *p, size_t i, size_t j)
{
	return p->prefix[j + 1] - p->prefix[i];
}

/*
 * The cost of deciding ranges i..j with a chain of `jeq`, or UINT64_MAX when
 * they do not have the shape for one: the same node at every even offset,
 * single numbers with other nodes at the odd offsets.  The heaviest numbers
 * are tested first; the common node is reached after every test.  *@tests:
 * the chain's length (its height).
 */
static uint64_t chain_cost(const struct planner *p, size_t i, size_t j, size_t *tests)
{
	size_t len = j - i + 1;
	if (len < 3 || len > CHAIN_MAX || len % 2 == 0)
		return UINT64_MAX;
	uint64_t points[CHAIN_MAX / 2];
	size_t m = 0;
	uint64_t background = 0;
	for (size_t k = i; k <= j; k++) {
		const struct nr_range *r = &p->r[k];
		if ((k - i) % 2 == 0) {
			if (r->node != p->r[i].node)
				return UINT64_MAX;
			background += r->weight;
		} else {
			if (r->first != r->last)
				return UINT64_MAX;
			points[m++] = r->weight;
		}
	}
	for (size_t a = 1; a < m; a++) /* heaviest first */
		for (size_t b = a; b > 0 && points[b - 1] < points[b]; b--) {
			uint64_t t = points[b];
			points[b] = points[b - 1];
			points[b - 1] = t;
		}
	uint64_t cost = background * m;
	for (size_t k = 0; k < m; k++)
		cost += points[k] * (k + 1);
	*tests = m;
	return cost;
}

/*
 * Fills cost and root for every interval, by rows from the bottom: an
 * interval needs only shorter ones of its own row and ones of the rows
 * below, and rows are contiguous in memory (a diagonal order would miss
 * the cache on every cell).  Knuth's bound limits the root search.
 */
static void plan_optimal(struct planner *p)
{
	size_t n = p->n;
	for (size_t i = 0; i < n; i++) {
		p->cost_row[row_at(n, i, i)] = p->cost_col[col_at(i, i)] = 0;
		p->root[row_at(n, i, i)] = (uint16_t)i;
	}
	for (size_t i = n - 1; i-- > 0;) {
		for (size_t j = i + 1; j < n; j++) {
			size_t len = j - i + 1, tests;
			size_t lo = len == 2 ? j : p->root[row_at(n, i, j - 1)];
			size_t hi = len == 2 ? j : p->root[row_at(n, i + 1, j)];
			if (lo < i + 1)
				lo = i + 1;
			const uint64_t *left = &p->cost_row[row_at(n, i, i)]; /* [x - i]: cost(i, x) */
			const uint64_t *right = &p->cost_col[col_at(0, j)];   /* [x]: cost(x, j) */
			uint64_t best = UINT64_MAX;
			size_t best_r = lo;
			for (size_t r = lo; r <= hi && r <= j; r++) {
				uint64_t c = left[r - 1 - i] + right[r];
				if (c < best) {
					best = c;
					best_r = r;
				}
			}
			uint64_t total = best + weight(p, i, j), chained = chain_cost(p, i, j, &tests);
			p->chain[row_at(n, i, j)] = chained < total;
			if (chained < total)
				total = chained;
			p->cost_row[row_at(n, i, j)] = p->cost_col[col_at(i, j)] = total;
			/* The best split is kept even for a chain: it bounds longer intervals' roots. */
			p->root[row_at(n, i, j)] = (uint16_t)best_r;
		}
	}
}

/* The height of the tree plan_optimal() chose for i..j. */
static unsigned planned_height(const struct planner *p, size_t i, size_t j)
{
	if (i == j)
		return 0;
	size_t at = row_at(p->n, i, j), tests;
	if (p->chain[at])
		return chain_cost(p, i, j, &tests) == UINT64_MAX ? 0 : (unsigned)tests;
	size_t r = p->root[at];
	unsigned a = planned_height(p, i, r - 1), b = planned_height(p, r, j);
	return 1 + (a > b ? a : b);
}

static size_t bounded_at(const struct planner *p, unsigned h, size_t i, size_t j)
{
	return (size_t)h * (p->n * (p->n + 1) / 2) + row_at(p->n, i, j);
}

/*
 * The bounded program: cost(h, i, j), the least cost of deciding ranges
 * i..j with a tree of height at most h (NO_TREE when none fits), from
 * cost(h - 1, ...) for both subtrees of every root, or a chain of `jeq` of
 * at most h tests.
 */
static void plan_bounded(struct planner *p)
{
	size_t n = p->n, cells = n * (n + 1) / 2;
	/* reach[h]: the most ranges a tree of height h decides, 1 and then
	 * max(2 reach[h - 1], 2h + 1) (a chain of h tests decides 2h + 1) */
	size_t reach[64];
	reach[0] = 1;
	for (unsigned h = 1; h < 64; h++) { /* (limit < 64: plan_tree()) */
		size_t split = reach[h - 1] > n ? n + 1 : 2 * reach[h - 1];
		reach[h] = split > 2 * h + 1 ? split : 2 * h + 1;
	}
	for (unsigned h = 0; h <= p->limit; h++) {
		for (size_t i = n; i-- > 0;) {
			p->bcost[bounded_at(p, h, i, i)] = p->bcol[(size_t)h * cells + col_at(i, i)] = 0;
			p->broot[bounded_at(p, h, i, i)] = (uint16_t)i;
			p->bchain[bounded_at(p, h, i, i)] = 0;
			for (size_t j = i + 1; j < n; j++) {
				size_t at = bounded_at(p, h, i, j), tests = 0;
				/* Nothing reads the rest of the top two heights: the root's cell
				 * reads only the prefixes and suffixes below it. */
				if ((h == p->limit && (i != 0 || j != n - 1)) ||
				    (h + 1 == p->limit && i != 0 && j != n - 1))
					continue;
				uint64_t best = NO_TREE;
				size_t best_r = i + 1;
				/* Each side must fit in h - 1: it holds at most reach[h - 1] ranges. */
				size_t lo = i + 1, hi = j;
				if (h > 0 && j + 1 - i > reach[h - 1]) {
					if (j + 1 - reach[h - 1] > lo)
						lo = j + 1 - reach[h - 1];
					if (i + reach[h - 1] < hi)
						hi = i + reach[h - 1];
				}
				if (h > 0 && j + 1 - i <= 2 * reach[h - 1]) {
					/* [x - i]: cost(h - 1, i, x); [x]: cost(h - 1, x, j) */
					const uint64_t *left = &p->bcost[bounded_at(p, h - 1, i, i)];
					const uint64_t *right = &p->bcol[(size_t)(h - 1) * cells + col_at(0, j)];
					for (size_t r = lo; r <= hi; r++) {
						uint64_t a = left[r - 1 - i];
						uint64_t b = right[r];
						if (a == NO_TREE || b == NO_TREE || a + b >= best)
							continue;
						best = a + b;
						best_r = r;
					}
					if (best != NO_TREE)
						best += weight(p, i, j);
				}
				/* (a chain has an odd length from 3 to CHAIN_MAX and one test or more) */
				size_t len = j - i + 1;
				uint64_t chained = h > 0 && len % 2 && len <= CHAIN_MAX
							   ? chain_cost(p, i, j, &tests)
							   : UINT64_MAX;
				bool chain = chained != UINT64_MAX && tests <= h && chained < best;
				p->bcost[at] = p->bcol[(size_t)h * cells + col_at(i, j)] = chain ? chained : best;
				p->broot[at] = (uint16_t)best_r;
				p->bchain[at] = chain;
			}
		}
	}
}

/* Without the table: the split that halves the weight best while both sides fit @limit. */
static size_t balanced_root(const struct planner *p, size_t i, size_t j, unsigned limit)
{
	uint64_t total = weight(p, i, j);
	size_t best = i + 1 + (j - i) / 2;
	uint64_t best_gap = UINT64_MAX;
	uint64_t fit = limit == 0 ? UINT64_MAX
				  : limit - 1 >= 63 ? UINT64_MAX : (uint64_t)1 << (limit - 1);
	for (size_t r = i + 1; r <= j; r++) {
		if (r - i > fit || j - r + 1 > fit)
			continue;
		uint64_t left = weight(p, i, r - 1);
		uint64_t gap = left * 2 > total ? left * 2 - total : total - left * 2;
		if (gap < best_gap) {
			best_gap = gap;
			best = r;
		}
	}
	return best;
}

/* The chain chain_cost() priced: built from the last test (lightest number) outwards. */
static uint32_t emit_chain(struct dag *g, const struct planner *p, size_t i, size_t j)
{
	size_t order[CHAIN_MAX / 2], m = 0;
	for (size_t k = i + 1; k < j; k += 2)
		order[m++] = k;
	for (size_t a = 1; a < m; a++) /* lightest first, the same order chain_cost() assumed reversed */
		for (size_t b = a; b > 0 && p->r[order[b - 1]].weight > p->r[order[b]].weight; b--) {
			size_t t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	uint32_t node = p->r[i].node;
	for (size_t k = 0; k < m; k++) {
		const struct nr_range *r = &p->r[order[k]];
		node = dag_test(g, SCG_DATA_NR, WORD_FULL, BPF_JEQ, r->first, r->node, node);
	}
	return node;
}

/* @h: the height left in the bounded table, or UINT_MAX for the unbounded one. */
static uint32_t emit_planned(struct dag *g, const struct planner *p, size_t i, size_t j, unsigned h)
{
	if (i == j)
		return p->r[i].node;
	bool bounded = h != UINT_MAX;
	size_t at = bounded ? bounded_at(p, h, i, j) : row_at(p->n, i, j);
	if (bounded ? p->bchain[at] : p->chain[at])
		return emit_chain(g, p, i, j);
	size_t r = bounded ? p->broot[at] : p->root[at];
	unsigned sub = bounded ? h - 1 : h;
	uint32_t left = emit_planned(g, p, i, r - 1, sub);
	uint32_t right = emit_planned(g, p, r, j, sub);
	return dag_test(g, SCG_DATA_NR, WORD_FULL, BPF_JGE, p->r[r].first, right, left);
}

static void planner_release(struct planner *p)
{
	free(p->prefix);
	free(p->cost_row);
	free(p->cost_col);
	free(p->root);
	free(p->chain);
	free(p->bcost);
	free(p->bcol);
	free(p->broot);
	free(p->bchain);
}

/*
 * Plans the optimal tree of @n ranges (n <= DP_MAX) no higher than @limit
 * (0: no limit) in @p: its cost into *@cost (NO_TREE when no tree fits) and
 * the height emit_planned() starts from into *@h.  -ENOMEM or 0; @p is
 * planner_release()d by the caller either way.
 */
static int optimal_plan(struct planner *p, const struct nr_range *ranges, size_t n,
			unsigned limit, uint64_t *cost, unsigned *h)
{
	*p = (struct planner){ .r = ranges, .n = n };
	size_t cells = n * (n + 1) / 2;
	p->prefix = malloc((n + 1) * sizeof(*p->prefix));
	p->cost_row = malloc(cells * sizeof(*p->cost_row));
	p->cost_col = malloc(cells * sizeof(*p->cost_col));
	p->root = malloc(cells * sizeof(*p->root));
	p->chain = calloc(cells, sizeof(*p->chain));
	*cost = NO_TREE;
	*h = UINT_MAX;
	if (!p->prefix || !p->cost_row || !p->cost_col || !p->root || !p->chain)
		return -ENOMEM;
	p->prefix[0] = 0;
	for (size_t i = 0; i < n; i++)
		p->prefix[i + 1] = p->prefix[i] + ranges[i].weight;
	plan_optimal(p);
	if (limit && planned_height(p, 0, n - 1) > limit) {
		p->limit = limit;
		p->bcost = malloc((limit + 1) * cells * sizeof(*p->bcost));
		p->bcol = malloc((limit + 1) * cells * sizeof(*p->bcol));
		p->broot = malloc((limit + 1) * cells * sizeof(*p->broot));
		p->bchain = malloc((limit + 1) * cells * sizeof(*p->bchain));
		if (!p->bcost || !p->bcol || !p->broot || !p->bchain)
			return -ENOMEM;
		plan_bounded(p);
		*h = limit;
		*cost = p->bcost[bounded_at(p, limit, 0, n - 1)];
	} else {
		*cost = p->cost_row[row_at(n, 0, n - 1)];
	}
	return 0;
}

/*
 * The optimal tree of @n ranges (n <= DP_MAX) no higher than @limit (0: no
 * limit): its cost into *@cost and, when @g is not NULL, its node.  0 with
 * *@err set on ENOMEM; *@cost NO_TREE when no tree fits.
 */
static uint32_t optimal_tree(struct dag *g, const struct nr_range *ranges, size_t n,
			     unsigned limit, uint64_t *cost, int *err)
{
	struct planner p;
	unsigned h;
	uint32_t node = 0;
	int r = optimal_plan(&p, ranges, n, limit, cost, &h);
	if (r < 0) {
		*err = r;
		*cost = NO_TREE;
	} else if (g && *cost != NO_TREE) {
		node = emit_planned(g, &p, 0, n - 1, h);
	}
	planner_release(&p);
	return node;
}

/*
 * Above DP_MAX ranges the table would cost more than it saves: the top
 * levels split the weight in halves (which is what the optimum does there
 * anyway, give or take one level) until the pieces are small enough.
 */
static uint32_t hybrid_tree(struct dag *g, const struct planner *p, size_t i, size_t j,
			    unsigned limit, uint64_t *cost, int *err)
{
	if (j - i + 1 <= DP_MAX)
		return optimal_tree(g, p->r + i, j - i + 1, limit, cost, err);
	if (limit == 1) {
		*cost = NO_TREE;
		return 0;
	}
	size_t r = balanced_root(p, i, j, limit);
	unsigned sub = limit ? limit - 1 : 0;
	uint64_t a = NO_TREE, b = NO_TREE;
	uint32_t left = hybrid_tree(g, p, i, r - 1, sub, &a, err);
	uint32_t right = *err || a == NO_TREE ? 0 : hybrid_tree(g, p, r, j, sub, &b, err);
	if (*err || a == NO_TREE || b == NO_TREE) {
		*cost = NO_TREE;
		return 0;
	}
	*cost = a + b + weight(p, i, j);
	return g ? dag_test(g, SCG_DATA_NR, WORD_FULL, BPF_JGE, p->r[r].first, right, left) : 0;
}

static uint32_t plan_tree(struct dag *g, const struct nr_range *ranges, size_t n, unsigned limit,
			  uint64_t *cost, int *err)
{
	struct planner p = { .r = ranges, .n = n };
	*err = 0;
	*cost = NO_TREE;
	if (n == 0) {
		*err = -EINVAL;
		return 0;
	}
	p.prefix = malloc((n + 1) * sizeof(*p.prefix));
	if (!p.prefix) {
		*err = -ENOMEM;
		return 0;
	}
	p.prefix[0] = 0;
	for (size_t i = 0; i < n; i++)
		p.prefix[i + 1] = p.prefix[i] + ranges[i].weight;
	if (n > DP_MAX || limit >= 64)
		limit = 0; /* (TREE_EXACT_MAX; and no layout asks 64 levels of a tree of 256) */
	uint32_t node = hybrid_tree(g, &p, 0, n - 1, limit, cost, err);
	free(p.prefix);
	return node;
}

unsigned tree_height_needed(size_t n)
{
	unsigned h = 0;
	while (n > ((size_t)1 << h))
		h++;
	return h;
}

uint32_t tree_build(struct dag *g, const struct nr_range *ranges, size_t n, unsigned limit,
		    int *err)
{
	uint64_t cost;
	if (limit && limit < tree_height_needed(n))
		limit = tree_height_needed(n);
	uint32_t node = plan_tree(g, ranges, n, limit, &cost, err);
	if (*err == 0 && cost == NO_TREE)
		*err = -EINVAL;
	return node;
}

uint64_t tree_cost(const struct nr_range *ranges, size_t n, unsigned limit, int *err)
{
	uint64_t cost;
	if (limit && limit < tree_height_needed(n))
		return UINT64_MAX;
	plan_tree(NULL, ranges, n, limit, &cost, err);
	return cost;
}

/* A tree planned by tree_plan(), with its own copy of the ranges. */
struct tree_plan {
	struct planner p;
	struct nr_range *ranges;
	unsigned h;
};

struct tree_plan *tree_plan(const struct nr_range *ranges, size_t n, unsigned limit,
			    uint64_t *cost, int *err)
{
	*err = 0;
	*cost = UINT64_MAX;
	if (n == 0 || n > DP_MAX || limit == 0 || limit >= 64) {
		*err = -EINVAL;
		return NULL;
	}
	if (limit < tree_height_needed(n))
		return NULL;
	struct tree_plan *t = calloc(1, sizeof(*t));
	if (!t || !(t->ranges = malloc(n * sizeof(*t->ranges)))) {
		free(t);
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(t->ranges, ranges, n * sizeof(*ranges));
	*err = optimal_plan(&t->p, t->ranges, n, limit, cost, &t->h);
	if (*err < 0 || *cost == NO_TREE) {
		*cost = UINT64_MAX;
		tree_plan_free(t);
		return NULL;
	}
	return t;
}

uint32_t tree_plan_emit(struct dag *g, const struct tree_plan *t)
{
	return emit_planned(g, &t->p, 0, t->p.n - 1, t->h);
}

void tree_plan_free(struct tree_plan *t)
{
	if (!t)
		return;
	planner_release(&t->p);
	free(t->ranges);
	free(t);
}
