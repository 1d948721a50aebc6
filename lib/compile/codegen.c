/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emission: the decision graph as straight-line BPF.
 *
 * Nodes are laid out in reverse post-order of a depth-first walk that takes
 * the true branch first, so every jump goes forward and the false branch of
 * a test usually follows it directly (except after `jeq` on one syscall
 * number, whose argument checks follow it).  A test node has up to three entry
 * points: `ld` (load its word), `and` (mask what is already loaded) and the
 * jump itself.  Each edge enters as late as the register allows: the value
 * a test leaves in A is the (word, mask) it tested, so a run of tests on one
 * word -- the whole syscall-number tree, both halves of an argument --
 * loads it once.  Entry points no edge uses are not emitted.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <syscage/bpf.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"

enum { ENTRY_LOAD = 1, ENTRY_AND = 2, ENTRY_TEST = 4 };

struct emitter {
	const struct dag *g;
	struct lprog *lp;
	uint32_t *order; /* reachable nodes, in emission order */
	size_t n;
	uint8_t *entries; /* per node: ENTRY_* used by some edge */
	lprog_label (*labels)[3];
};

/* How an edge from a test of (@word, @mask) enters node @to. */
static int entry_kind(const struct dag *g, uint32_t word, uint32_t mask, uint32_t to)
{
	const struct dag_node *n = &g->nodes[to];
	if (n->kind == DAG_RET)
		return ENTRY_TEST;
	if (n->word == word && n->mask == mask)
		return ENTRY_TEST;
	if (n->word == word && mask == WORD_FULL)
		return ENTRY_AND;
	return ENTRY_LOAD;
}

static int entry_index(int kind)
{
	return kind == ENTRY_LOAD ? 0 : kind == ENTRY_AND ? 1 : 2;
}

/*
 * `jeq #nr` leading to that syscall's argument checks: the checks are laid
 * out right behind the test (the walk takes the false branch first, so the
 * true branch comes next in reverse post-order).  A frequent syscall tested
 * ahead of the tree (hot.c) then falls straight into its checks, with no
 * jump out to the end of the program.
 */
static bool checks_one_number(const struct dag *g, const struct dag_node *n)
{
	return n->op == BPF_JEQ && n->word == SCG_DATA_NR && n->mask == WORD_FULL &&
	       g->nodes[n->t].kind == DAG_TEST;
}

/* Reverse post-order from @root, true branches first (but see above); iterative. */
static int order_nodes(struct emitter *e, uint32_t root)
{
	size_t total = e->g->len;
	uint8_t *state = calloc(total, 1); /* 0 new, 1 on stack, 2 done */
	uint32_t *stack = malloc(total * sizeof(*stack));
	uint32_t *post = malloc(total * sizeof(*post));
	if (!state || !stack || !post) {
		free(state);
		free(stack);
		free(post);
		return -ENOMEM;
	}
	size_t sp = 0, np = 0;
	stack[sp++] = root;
	state[root] = 1;
	while (sp) {
		uint32_t v = stack[sp - 1];
		const struct dag_node *n = &e->g->nodes[v];
		uint32_t next = UINT32_MAX;
		if (n->kind == DAG_TEST) {
			bool false_first = checks_one_number(e->g, n);
			uint32_t first = false_first ? n->f : n->t, second = false_first ? n->t : n->f;
			if (!state[first])
				next = first;
			else if (!state[second])
				next = second;
		}
		if (next != UINT32_MAX) {
			state[next] = 1;
			stack[sp++] = next;
			continue;
		}
		state[v] = 2;
		post[np++] = v;
		sp--;
	}
	for (size_t i = 0; i < np; i++)
		stack[i] = post[np - 1 - i];
	free(state);
	free(post);
	e->order = stack;
	e->n = np;
	return 0;
}

static lprog_label label_of(struct emitter *e, uint32_t node, int kind)
{
	return e->labels[node][entry_index(kind)];
}

static void mark_entries(struct emitter *e, uint32_t root)
{
	e->entries[root] |= e->g->nodes[root].kind == DAG_RET ? ENTRY_TEST : ENTRY_LOAD;
	for (size_t i = 0; i < e->n; i++) {
		const struct dag_node *n = &e->g->nodes[e->order[i]];
		if (n->kind != DAG_TEST)
			continue;
		e->entries[n->t] |= (uint8_t)entry_kind(e->g, n->word, n->mask, n->t);
		e->entries[n->f] |= (uint8_t)entry_kind(e->g, n->word, n->mask, n->f);
	}
	for (size_t i = 0; i < e->n; i++) {
		uint32_t v = e->order[i];
		for (int k = 0; k < 3; k++)
			if (e->entries[v] & (1 << k))
				e->labels[v][k] = lprog_label_new(e->lp);
	}
}

static void emit_node(struct emitter *e, uint32_t v)
{
	const struct dag_node *n = &e->g->nodes[v];
	uint8_t used = e->entries[v];
	if (n->kind == DAG_RET) {
		lprog_bind(e->lp, label_of(e, v, ENTRY_TEST));
		lprog_stmt(e->lp, BPF_RET | BPF_K, n->k);
		return;
	}
	if (used & ENTRY_LOAD) {
		lprog_bind(e->lp, label_of(e, v, ENTRY_LOAD));
		lprog_stmt(e->lp, BPF_LD | BPF_W | BPF_ABS, n->word);
	}
	if (n->mask != WORD_FULL && (used & (ENTRY_LOAD | ENTRY_AND))) {
		if (used & ENTRY_AND)
			lprog_bind(e->lp, label_of(e, v, ENTRY_AND));
		lprog_stmt(e->lp, BPF_ALU | BPF_AND | BPF_K, n->mask);
	}
	if (used & ENTRY_TEST)
		lprog_bind(e->lp, label_of(e, v, ENTRY_TEST));
	lprog_label t = label_of(e, n->t, entry_kind(e->g, n->word, n->mask, n->t));
	lprog_label f = label_of(e, n->f, entry_kind(e->g, n->word, n->mask, n->f));
	lprog_jcond(e->lp, (uint16_t)(BPF_JMP | n->op | BPF_K), n->k, t, f);
}

int codegen_emit(const struct dag *g, uint32_t root, struct lprog *lp)
{
	struct emitter e = { .g = g, .lp = lp };
	int r = order_nodes(&e, root);
	if (r < 0)
		return r;
	e.entries = calloc(g->len, 1);
	e.labels = calloc(g->len, sizeof(*e.labels));
	if (!e.entries || !e.labels) {
		r = -ENOMEM;
	} else {
		mark_entries(&e, root);
		for (size_t i = 0; i < e.n; i++)
			emit_node(&e, e.order[i]);
		r = lprog_error(lp);
	}
	free(e.order);
	free(e.entries);
	free(e.labels);
	return r;
}
