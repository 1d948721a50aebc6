/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decision graph: every node is created once (hash-consed), so two
 * requests for the same return value, the same test with the same branches,
 * or the same subtree get the same node.  That one rule gives the compiler
 * shared returns, shared argument checks and shared subtrees for free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compile/internal.h"
#include "util/grow.h"

static uint64_t node_hash(const struct dag_node *n)
{
	uint64_t h = (uint64_t)(n->kind | (uint32_t)n->op << 8 | (uint32_t)n->copy << 16) << 32 |
		     n->word;
	h = hash_combine(h, (uint64_t)n->mask << 32 | n->k);
	return hash_combine(h, (uint64_t)n->t << 32 | n->f);
}

static bool node_equal(const struct dag_node *a, const struct dag_node *b)
{
	return a->kind == b->kind && a->op == b->op && a->word == b->word && a->mask == b->mask &&
	       a->k == b->k && a->t == b->t && a->f == b->f && a->copy == b->copy;
}

int dag_init(struct dag *g)
{
	memset(g, 0, sizeof(*g));
	/* Small: a short policy's graph has a few dozen nodes, and a fresh table is
	 * filled whole, which a one-shot compile pays at every start; it doubles as it grows. */
	int r = hashmap_reserve(&g->index, 64);
	/* Node 0 exists from the start, so a failed request can return a valid index. */
	if (r == 0)
		dag_ret(g, 0);
	return r ? r : g->err;
}

void dag_release(struct dag *g)
{
	free(g->nodes);
	hashmap_release(&g->index);
	memset(g, 0, sizeof(*g));
}

static uint32_t intern(struct dag *g, const struct dag_node *n)
{
	if (g->err)
		return 0;
	uint64_t hash = node_hash(n), i;
	for (size_t pos = HASHMAP_START; hashmap_next(&g->index, hash, &pos, &i);)
		if (node_equal(&g->nodes[i], n))
			return (uint32_t)i;
	if (GROW_ARRAY(&g->nodes, &g->cap, g->len + 1, 256) ||
	    hashmap_add(&g->index, hash, g->len) < 0) {
		g->err = -ENOMEM;
		return 0;
	}
	g->nodes[g->len] = *n;
	return (uint32_t)g->len++;
}

uint32_t dag_ret(struct dag *g, uint32_t value)
{
	struct dag_node n = { .kind = DAG_RET, .k = value };
	return intern(g, &n);
}

/* True when @child repeats the test of @n: its outcome is known on that branch. */
static bool same_test(const struct dag *g, uint32_t child, const struct dag_node *n)
{
	const struct dag_node *c = &g->nodes[child];
	return c->kind == DAG_TEST && c->op == n->op && c->word == n->word && c->mask == n->mask &&
	       c->k == n->k;
}

uint32_t dag_test(struct dag *g, uint32_t word, uint32_t mask, uint8_t op, uint32_t k, uint32_t t,
		  uint32_t f)
{
	if (g->err)
		return 0;
	struct dag_node n = { .kind = DAG_TEST, .op = op, .word = word, .mask = mask, .k = k };
	/* Thread through a repeated test: the branch taken already says how it ends. */
	while (same_test(g, t, &n))
		t = g->nodes[t].t;
	while (same_test(g, f, &n))
		f = g->nodes[f].f;
	if (t == f)
		return t;
	n.t = t;
	n.f = f;
	return intern(g, &n);
}

static size_t tests_under(const struct dag *g, uint32_t node, size_t limit)
{
	const struct dag_node *n = &g->nodes[node];
	if (n->kind == DAG_RET || limit == 0)
		return 0;
	size_t t = tests_under(g, n->t, limit - 1);
	return 1 + t + tests_under(g, n->f, limit - 1 - (t < limit - 1 ? t : limit - 1));
}

static uint32_t copy_of(struct dag *g, uint32_t node, uint8_t copy)
{
	struct dag_node n = g->nodes[node];
	if (n.kind == DAG_RET || g->err)
		return node;
	n.t = copy_of(g, n.t, copy);
	n.f = copy_of(g, n.f, copy);
	n.copy = copy;
	return intern(g, &n);
}

uint32_t dag_private_copy(struct dag *g, uint32_t node, uint8_t copy, size_t budget)
{
	if (tests_under(g, node, budget + 1) > budget)
		return node;
	return copy_of(g, node, copy);
}
