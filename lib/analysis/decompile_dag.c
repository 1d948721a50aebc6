/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Structured decompiling of one syscall number.  With the arch and number
 * words known, a filter reduces to a graph whose inner nodes test one
 * argument word ((word & mask) OP k) and whose leaves are verdicts.  The
 * regions of the symbolic walk are that graph's paths, which multiply
 * where tests join again; here the graph itself is kept:
 *
 *  1. a walk with A, X and scratch memory tracked as constants or masked
 *     words builds the graph, nodes shared by (pc, state);
 *  2. short-circuit shapes fold into one node (a's true edge to b, b's
 *     false edge to a's false edge: "a && b"; and the three mirror
 *     shapes), the way a compiler lays out && and ||;
 *  3. the graph is written as first-match rules: a node with a verdict on
 *     one side is a rule and the walk goes on along the other side; a node
 *     with tests on both sides writes one side under its condition, then
 *     the other side without it (the first side decided every call the
 *     condition holds for).
 *
 * Anything else (arithmetic on a loaded word, the instruction pointer,
 * loads of halves or bytes) is left to the region path.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decompile_dag.h"
#include "bpf/opcodes.h"

#define MAX_NODES 16384U
/* Instructions on one path the walk follows (a stack frame each) */
#define MAX_DEPTH 1024U
#define WORD_NR 0U
#define WORD_ARCH 1U

enum val_kind { V_NONE, V_CONST, V_NR, V_WORD };

/* A register or scratch slot: a constant, the syscall number, or (word & mask). */
struct val {
	uint32_t kind, word, v; /* v: the constant, or the mask of a word */
};

struct state {
	struct val a, x, m[16];
};

struct node {
	bool test;
	uint32_t ret;          /* leaf */
	struct scg_expr *cond; /* test */
	size_t jt, jf;
	size_t preds;
	bool dead;
};

struct built {
	size_t pc;
	struct state st;
	size_t node;
	size_t next; /* next entry with the same pc, or SIZE_MAX */
};

struct dag {
	const struct scg_prog *prog;
	const struct scg_arch *arch;
	uint32_t nr, audit, lo, hi;
	uint32_t (*canonical)(uint32_t);
	struct node *nodes;
	size_t nnodes, cap;
	struct built *memo;
	size_t nmemo, memocap;
	size_t *by_pc; /* first memo entry per pc */
	size_t depth;
};

static int new_node(struct dag *g, size_t *out)
{
	if (g->nnodes == MAX_NODES)
		return -ENOTSUP;
	if (g->nnodes == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct node *n = realloc(g->nodes, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		g->nodes = n;
		g->cap = cap;
	}
	memset(&g->nodes[g->nnodes], 0, sizeof(g->nodes[0]));
	*out = g->nnodes++;
	return 0;
}

/* The leaf of verdict @ret: one per verdict, so equal verdicts are one node. */
static int leaf(struct dag *g, uint32_t ret, size_t *out)
{
	ret = g->canonical(ret);
	for (size_t i = 0; i < g->nnodes; i++)
		if (!g->nodes[i].test && g->nodes[i].ret == ret) {
			*out = i;
			return 0;
		}
	int r = new_node(g, out);
	if (r == 0)
		g->nodes[*out].ret = ret;
	return r;
}

/* Narrows lo..hi to the numbers for which "nr OP k" comes out as it does for nr. */
static bool nr_test(struct dag *g, unsigned op, uint32_t k)
{
	uint32_t nr = g->nr, lo = 0, hi = UINT32_MAX;
	bool taken;
	switch (op) {
	case BPF_JEQ:
		taken = nr == k;
		if (taken)
			lo = hi = k;
		else if (nr < k)
			hi = k - 1;
		else
			lo = k + 1;
		break;
	case BPF_JGT:
		taken = nr > k;
		if (taken)
			lo = k + 1;
		else
			hi = k;
		break;
	case BPF_JGE:
		taken = nr >= k;
		if (taken)
			lo = k;
		else if (k > 0)
			hi = k - 1;
		break;
	default: { /* JSET: constant within the aligned block of k's lowest set bit */
		taken = (nr & k) != 0;
		uint32_t low = k & -k;
		if (low) {
			lo = nr & ~(low - 1);
			hi = nr | (low - 1);
		}
		break;
	}
	}
	if (lo > g->lo)
		g->lo = lo;
	if (hi < g->hi)
		g->hi = hi;
	return taken;
}

static bool arg_of_word(const struct scg_arch *arch, unsigned w, unsigned *arg, bool *high)
{
	for (unsigned a = 0; a < 6; a++)
		for (int h = 0; h < 2; h++)
			if ((unsigned)scg_arch_arg_offset(arch, a, h) == w * 4) {
				*arg = a;
				*high = h;
				return true;
			}
	return false;
}

/* (word & mask) OP k as a condition on the argument the word belongs to. */
static struct scg_expr *word_test(const struct scg_arch *arch, const struct val *a,
				  enum scg_cmp_op op, uint32_t mask, uint32_t k)
{
	unsigned arg;
	bool high;
	if (!arg_of_word(arch, a->word, &arg, &high)) {
		errno = ENOTSUP;
		return NULL;
	}
	struct scg_expr *e = high ? scg_expr_cmp(arg, 64, op, (uint64_t)mask << 32, (uint64_t)k << 32)
				  : scg_expr_cmp(arg, 32, op, mask, k);
	if (!e)
		errno = ENOMEM;
	return e;
}

static int alu_const(unsigned op, uint32_t a, uint32_t b, uint32_t *out)
{
	switch (op) {
	case BPF_ADD: *out = a + b; return 0;
	case BPF_SUB: *out = a - b; return 0;
	case BPF_MUL: *out = a * b; return 0;
	case BPF_OR: *out = a | b; return 0;
	case BPF_AND: *out = a & b; return 0;
	case BPF_XOR: *out = a ^ b; return 0;
	case BPF_NEG: *out = -a; return 0;
	case BPF_LSH:
		if (b >= 32)
			return -ENOTSUP;
		*out = a << b;
		return 0;
	case BPF_RSH:
		if (b >= 32)
			return -ENOTSUP;
		*out = a >> b;
		return 0;
	case BPF_DIV:
	case BPF_MOD:
		if (b == 0)
			return -ENOTSUP;
		*out = op == BPF_DIV ? a / b : a % b;
		return 0;
	default:
		return -ENOTSUP;
	}
}

static int build(struct dag *g, size_t pc, const struct state *st, size_t *out);

/* The syscall number used as a plain constant: the rules hold for this number alone. */
static void pin(struct dag *g, struct val *v)
{
	if (v->kind != V_NR)
		return;
	v->kind = V_CONST;
	g->lo = g->hi = g->nr;
}

/* A conditional jump at @pc with A and the operand @k. */
static int build_jump(struct dag *g, size_t pc, const struct state *st, uint32_t k,
		      size_t *out)
{
	const struct scg_insn *in = &g->prog->insns[pc];
	unsigned op = BPF_OP(in->code);
	size_t t = pc + 1 + in->jt, f = pc + 1 + in->jf;
	const struct val *a = &st->a;
	if (a->kind == V_CONST || a->kind == V_NR) {
		bool taken;
		if (a->kind == V_NR)
			taken = nr_test(g, op, k);
		else if (op == BPF_JEQ)
			taken = a->v == k;
		else if (op == BPF_JGT)
			taken = a->v > k;
		else if (op == BPF_JGE)
			taken = a->v >= k;
		else
			taken = (a->v & k) != 0;
		return build(g, taken ? t : f, st, out);
	}
	if (a->kind != V_WORD)
		return -ENOTSUP;
	enum scg_cmp_op cmp = SCG_CMP_EQ;
	uint32_t mask = a->v, value = k;
	if (op == BPF_JGT)
		cmp = SCG_CMP_GT;
	else if (op == BPF_JGE)
		cmp = SCG_CMP_GE;
	else if (op == BPF_JSET) {
		mask &= k;
		if (mask == 0) /* no bit can be set: never taken */
			return build(g, f, st, out);
		cmp = SCG_CMP_NE;
		value = 0;
	}
	size_t jt, jf;
	int r = build(g, t, st, &jt);
	if (r == 0)
		r = build(g, f, st, &jf);
	if (r < 0)
		return r;
	if (jt == jf) {
		*out = jt;
		return 0;
	}
	struct scg_expr *e = word_test(g->arch, a, cmp, mask, value);
	if (!e)
		return -errno;
	r = new_node(g, out);
	if (r < 0) {
		scg_expr_free(e);
		return r;
	}
	struct node *n = &g->nodes[*out];
	n->test = true;
	n->cond = e;
	n->jt = jt;
	n->jf = jf;
	return 0;
}

static int load_word(struct dag *g, uint32_t k, struct val *v)
{
	if (k % 4 || k >= 64)
		return -ENOTSUP;
	unsigned w = k / 4;
	if (w == WORD_NR)
		*v = (struct val){ V_NR, 0, g->nr };
	else if (w == WORD_ARCH)
		*v = (struct val){ V_CONST, 0, g->audit };
	else
		*v = (struct val){ V_WORD, w, UINT32_MAX };
	return 0;
}

static int step(struct dag *g, size_t pc, const struct state *in_st, size_t *out)
{
	struct state st = *in_st;
	const struct scg_insn *in = &g->prog->insns[pc];
	uint32_t k = in->k;
	int r = 0;
	switch (BPF_CLASS(in->code)) {
	case BPF_LD:
	case BPF_LDX: {
		struct val v = { V_CONST, 0, k };
		unsigned mode = BPF_MODE(in->code);
		if (mode == BPF_ABS && BPF_SIZE(in->code) == BPF_W)
			r = load_word(g, k, &v);
		else if (mode == BPF_MEM && k < 16)
			v = st.m[k];
		else if (mode == BPF_LEN)
			v.v = 64;
		else if (mode != BPF_IMM)
			r = -ENOTSUP;
		if (r < 0)
			return r;
		if (BPF_CLASS(in->code) == BPF_LD)
			st.a = v;
		else
			st.x = v;
		return build(g, pc + 1, &st, out);
	}
	case BPF_ST:
	case BPF_STX:
		if (k >= 16)
			return -ENOTSUP;
		st.m[k] = BPF_CLASS(in->code) == BPF_ST ? st.a : st.x;
		return build(g, pc + 1, &st, out);
	case BPF_ALU: {
		unsigned op = BPF_OP(in->code);
		uint32_t b = k;
		pin(g, &st.a);
		if (op != BPF_NEG && BPF_SRC(in->code) == BPF_X) {
			pin(g, &st.x);
			if (st.x.kind != V_CONST)
				return -ENOTSUP;
			b = st.x.v;
		}
		if (st.a.kind == V_CONST)
			r = alu_const(op, st.a.v, b, &st.a.v);
		else if (st.a.kind == V_WORD && op == BPF_AND)
			st.a.v &= b;
		else
			r = -ENOTSUP;
		return r < 0 ? r : build(g, pc + 1, &st, out);
	}
	case BPF_JMP:
		if (BPF_OP(in->code) == BPF_JA)
			return build(g, pc + 1 + k, &st, out);
		if (BPF_SRC(in->code) == BPF_X) {
			pin(g, &st.x);
			if (st.x.kind != V_CONST)
				return -ENOTSUP;
			k = st.x.v;
		}
		return build_jump(g, pc, &st, k, out);
	case BPF_RET: {
		unsigned src = BPF_RVAL(in->code);
		if (src == BPF_A || src == BPF_X) {
			struct val *v = src == BPF_A ? &st.a : &st.x;
			pin(g, v);
			if (v->kind != V_CONST)
				return -ENOTSUP;
			k = v->v;
		}
		return leaf(g, k, out);
	}
	case BPF_MISC:
		if (BPF_MISCOP(in->code) == BPF_TAX)
			st.x = st.a;
		else if (BPF_MISCOP(in->code) == BPF_TXA)
			st.a = st.x;
		else
			return -ENOTSUP;
		return build(g, pc + 1, &st, out);
	default:
		return -ENOTSUP;
	}
}

static int build(struct dag *g, size_t pc, const struct state *st, size_t *out)
{
	if (pc >= g->prog->len)
		return -ENOTSUP;
	/* SIZE_MAX, the end of a chain, is past every entry */
	for (size_t i = g->by_pc[pc]; i < g->nmemo; i = g->memo[i].next)
		if (memcmp(&g->memo[i].st, st, sizeof(*st)) == 0) {
			*out = g->memo[i].node;
			return 0;
		}
	/* one frame per instruction on a path: bounded, so small thread stacks are safe */
	if (g->depth == MAX_DEPTH)
		return -ENOTSUP;
	g->depth++;
	int r = step(g, pc, st, out);
	g->depth--;
	if (r < 0)
		return r;
	if (g->nmemo == g->memocap) {
		size_t cap = g->memocap ? g->memocap * 2 : 64;
		struct built *m = realloc(g->memo, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		g->memo = m;
		g->memocap = cap;
	}
	g->memo[g->nmemo] = (struct built){ pc, *st, *out, g->by_pc[pc] };
	g->by_pc[pc] = g->nmemo++;
	return 0;
}

/* --- folding && and || ---------------------------------------------------- */

/* !@e, taking it: a comparison turns into its opposite, !!c into c. */
static struct scg_expr *negated(struct scg_expr *e)
{
	static const enum scg_cmp_op opposite[] = {
		[SCG_CMP_EQ] = SCG_CMP_NE, [SCG_CMP_NE] = SCG_CMP_EQ, [SCG_CMP_LT] = SCG_CMP_GE,
		[SCG_CMP_LE] = SCG_CMP_GT, [SCG_CMP_GT] = SCG_CMP_LE, [SCG_CMP_GE] = SCG_CMP_LT,
	};
	if (e && e->kind == SCG_EXPR_CMP) {
		e->op = opposite[e->op];
		return e;
	}
	if (e && e->kind == SCG_EXPR_NOT) {
		struct scg_expr *inner = e->left;
		e->left = NULL;
		scg_expr_free(e);
		return inner;
	}
	return e ? scg_expr_not(e) : NULL;
}

/* Node @a's condition becomes "a OP (b or !b)"; false (and nothing changed) on no memory. */
static bool combine(struct node *a, struct node *b, bool and, bool negate)
{
	struct scg_expr *rb = b->cond;
	if (negate && !(rb = negated(rb))) {
		b->cond = NULL;
		return false;
	}
	b->cond = NULL;
	a->cond = and ? scg_expr_and(a->cond, rb) : scg_expr_or(a->cond, rb);
	b->dead = true;
	return a->cond != NULL;
}

static int fold(struct dag *g)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (g->nodes[i].test) {
			g->nodes[g->nodes[i].jt].preds++;
			g->nodes[g->nodes[i].jf].preds++;
		}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t i = 0; i < g->nnodes; i++) {
			struct node *a = &g->nodes[i];
			if (!a->test || a->dead)
				continue;
			struct node *b = &g->nodes[a->jt];
			if (b->test && b->preds == 1 && (b->jf == a->jf || b->jt == a->jf)) {
				bool neg = b->jt == a->jf;
				size_t next = neg ? b->jf : b->jt;
				g->nodes[a->jf].preds--;
				if (!combine(a, b, true, neg))
					return -ENOMEM;
				a->jt = next;
				changed = true;
				continue;
			}
			b = &g->nodes[a->jf];
			if (b->test && b->preds == 1 && (b->jt == a->jt || b->jf == a->jt)) {
				bool neg = b->jf == a->jt;
				size_t next = neg ? b->jt : b->jf;
				g->nodes[a->jt].preds--;
				if (!combine(a, b, false, neg))
					return -ENOMEM;
				a->jf = next;
				changed = true;
			}
		}
	}
	return 0;
}

/* --- first-match rules ---------------------------------------------------- */

static int push_rule(struct dag_rules *rules, size_t max, uint32_t action,
		     const struct scg_expr *prefix, const struct scg_expr *cond, bool negate)
{
	if (rules->n == max)
		return -ENOTSUP;
	if (rules->n == rules->cap) {
		size_t cap = rules->cap ? rules->cap * 2 : 16;
		struct dag_rule *v = realloc(rules->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		rules->v = v;
		rules->cap = cap;
	}
	struct scg_expr *c = NULL;
	if (cond) {
		c = scg_expr_clone(cond);
		if (c && negate)
			c = negated(c);
		if (!c)
			return -ENOMEM;
	}
	if (prefix) {
		struct scg_expr *p = scg_expr_clone(prefix);
		if (!p) {
			scg_expr_free(c);
			return -ENOMEM;
		}
		c = c ? scg_expr_and(p, c) : p;
		if (!c)
			return -ENOMEM;
	}
	rules->v[rules->n++] = (struct dag_rule){ action, c };
	return 0;
}

/* Rules deciding every call of @prefix that reaches node @i as the graph does. */
static int emit(const struct dag *g, size_t i, const struct scg_expr *prefix,
		struct dag_rules *rules, size_t max)
{
	for (;;) {
		const struct node *n = &g->nodes[i];
		if (!n->test)
			return push_rule(rules, max, n->ret, prefix, NULL, false);
		const struct node *t = &g->nodes[n->jt], *f = &g->nodes[n->jf];
		int r;
		if (!t->test) {
			r = push_rule(rules, max, t->ret, prefix, n->cond, false);
			i = n->jf;
		} else if (!f->test) {
			r = push_rule(rules, max, f->ret, prefix, n->cond, true);
			i = n->jt;
		} else {
			struct scg_expr *p = scg_expr_clone(n->cond);
			struct scg_expr *q = p && prefix ? scg_expr_clone(prefix) : NULL;
			if (p && prefix)
				p = q ? scg_expr_and(q, p) : (scg_expr_free(p), NULL);
			if (!p)
				return -ENOMEM;
			r = emit(g, n->jt, p, rules, max);
			scg_expr_free(p);
			i = n->jf;
		}
		if (r < 0)
			return r;
	}
}

void dag_rules_release(struct dag_rules *rules)
{
	for (size_t i = 0; i < rules->n; i++)
		scg_expr_free(rules->v[i].cond);
	free(rules->v);
	*rules = (struct dag_rules){ 0 };
}

int dag_rules_for(const struct scg_prog *prog, const struct scg_arch *arch, uint32_t nr,
		  uint32_t (*canonical)(uint32_t), size_t max_rules, uint32_t *lo, uint32_t *hi,
		  struct dag_rules *out)
{
	struct dag g = {
		.prog = prog, .arch = arch, .nr = nr, .audit = scg_arch_audit(arch),
		.lo = 0, .hi = UINT32_MAX, .canonical = canonical,
	};
	g.by_pc = malloc((prog->len ? prog->len : 1) * sizeof(*g.by_pc));
	if (!g.by_pc)
		return -ENOMEM;
	for (size_t i = 0; i < prog->len; i++)
		g.by_pc[i] = SIZE_MAX;
	struct state st;
	memset(&st, 0, sizeof(st));
	st.a = st.x = (struct val){ V_CONST, 0, 0 }; /* the kernel starts A and X at 0 */
	size_t root;
	int r = build(&g, 0, &st, &root);
	if (r == 0)
		r = fold(&g);
	struct dag_rules rules = { 0 };
	if (r == 0)
		r = emit(&g, root, NULL, &rules, max_rules);
	for (size_t i = 0; i < g.nnodes; i++)
		scg_expr_free(g.nodes[i].cond);
	free(g.nodes);
	free(g.memo);
	free(g.by_pc);
	if (r == 0 && out->n + rules.n > out->cap) {
		struct dag_rule *v = realloc(out->v, (out->n + rules.n) * sizeof(*v));
		if (!v)
			r = -ENOMEM;
		else {
			out->v = v;
			out->cap = out->n + rules.n;
		}
	}
	if (r < 0) {
		dag_rules_release(&rules);
		return r;
	}
	if (rules.n)
		memcpy(out->v + out->n, rules.v, rules.n * sizeof(*rules.v));
	out->n += rules.n;
	free(rules.v);
	*lo = g.lo;
	*hi = g.hi;
	return 0;
}
