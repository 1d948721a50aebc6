/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Conditions on arguments, down to tests of 32-bit words.
 *
 * A 64-bit comparison becomes a formula over "atoms", each one test of one
 * masked word: lexicographic on (high word, low word), so every boundary of
 * both halves is exact (the bug class of CVE-2019-9893).  A width-32
 * comparison is the same formula with a high word that is always 0, which
 * folds away.
 *
 * cond_decide() compiles a whole decision -- rules in order, first match
 * wins -- by splitting on one atom at a time, the next one short-circuit
 * evaluation of the first undecided rule would test.  Each branch remembers
 * the atoms decided on its path ("facts"), and every later atom those facts
 * decide is folded, in this rule and in all later rules.  That single
 * mechanism threads jumps, tests a high word shared by several comparisons
 * once, drops rules that can no longer match, and stops as soon as every
 * remaining outcome is the same action.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "util/grow.h"

#define F_FALSE_ID 0U
#define F_TRUE_ID 1U
/* decide() steps per compilation before falling back to plain jumping code. */
#define DECIDE_BUDGET 400000U
#define MAX_FACTS 128
/* Entries single_outcome() looks at before it answers "not known to be one". */
#define SINGLE_SCAN 256
#define MAX_EXCLUDED 16

struct cond_scratch;
static void scratch_free(struct cond_scratch *s);

int cond_init(struct cond_ctx *c, struct dag *dag)
{
	memset(c, 0, sizeof(*c));
	c->dag = dag;
	c->budget = DECIDE_BUDGET;
	c->f = malloc(64 * sizeof(*c->f));
	if (!c->f)
		return -ENOMEM;
	c->f_cap = 64;
	c->f[F_FALSE_ID] = (struct fnode){ .kind = F_FALSE };
	c->f[F_TRUE_ID] = (struct fnode){ .kind = F_TRUE };
	c->nf = 2;
	return 0;
}

void cond_release(struct cond_ctx *c)
{
	free(c->atoms);
	hashmap_release(&c->atom_index);
	scratch_free(c->scratch);
	free(c->f);
	memset(c, 0, sizeof(*c));
}

/* --- building formulas --------------------------------------------------- */

static uint32_t f_push(struct cond_ctx *c, struct fnode n)
{
	if (c->err)
		return F_FALSE_ID;
	if (GROW_ARRAY(&c->f, &c->f_cap, c->nf + 1, 64)) {
		c->err = -ENOMEM;
		return F_FALSE_ID;
	}
	c->f[c->nf] = n;
	return (uint32_t)c->nf++;
}

static uint32_t f_not(struct cond_ctx *c, uint32_t a)
{
	if (a <= F_TRUE_ID)
		return a ^ 1U;
	if (c->f[a].kind == F_NOT)
		return c->f[a].a;
	return f_push(c, (struct fnode){ .kind = F_NOT, .a = a });
}

static uint32_t f_and(struct cond_ctx *c, uint32_t a, uint32_t b)
{
	if (a == F_FALSE_ID || b == F_FALSE_ID)
		return F_FALSE_ID;
	if (a == F_TRUE_ID)
		return b;
	if (b == F_TRUE_ID)
		return a;
	return f_push(c, (struct fnode){ .kind = F_AND, .a = a, .b = b });
}

static uint32_t f_or(struct cond_ctx *c, uint32_t a, uint32_t b)
{
	if (a == F_TRUE_ID || b == F_TRUE_ID)
		return F_TRUE_ID;
	if (a == F_FALSE_ID)
		return b;
	if (b == F_FALSE_ID)
		return a;
	return f_push(c, (struct fnode){ .kind = F_OR, .a = a, .b = b });
}

/* The outcome of an atom that the mask alone decides, or -1. */
static int atom_static(const struct atom *at)
{
	switch (at->op) {
	case BPF_JEQ:
		if (at->k & ~at->mask)
			return 0;
		return at->mask == 0 ? 1 : -1;
	case BPF_JGT:
		return at->k >= at->mask ? 0 : -1;
	case BPF_JGE:
		if (at->k == 0)
			return 1;
		return at->k > at->mask ? 0 : -1;
	default:
		return -1;
	}
}

static uint64_t atom_hash(const struct atom *at)
{
	return hash_combine((uint64_t)at->word << 40 ^ (uint64_t)at->op << 32 ^ at->mask, at->k);
}

/* Field by field: memcmp() would also compare the padding after op, which is
 * indeterminate, and could keep two copies of one atom. */
static bool atom_equal(const struct atom *a, const struct atom *b)
{
	return a->word == b->word && a->mask == b->mask && a->op == b->op && a->k == b->k;
}

/* The index of atom @at, added when new: atoms are numbered in order of first use. */
static int atom_intern(struct cond_ctx *c, const struct atom *at, uint32_t *index)
{
	uint64_t hash = atom_hash(at), i;
	for (size_t pos = HASHMAP_START; hashmap_next(&c->atom_index, hash, &pos, &i);) {
		if (atom_equal(&c->atoms[i], at)) {
			*index = (uint32_t)i;
			return 0;
		}
	}
	if (GROW_ARRAY(&c->atoms, &c->atoms_cap, c->natoms + 1, 32) ||
	    hashmap_add(&c->atom_index, hash, c->natoms) < 0)
		return -ENOMEM;
	c->atoms[c->natoms] = *at;
	*index = (uint32_t)c->natoms++;
	return 0;
}

static uint32_t f_atom(struct cond_ctx *c, uint32_t word, uint32_t mask, uint8_t op, uint32_t k)
{
	struct atom at = { word, mask, op, k };
	int fixed = atom_static(&at);
	if (fixed >= 0)
		return fixed ? F_TRUE_ID : F_FALSE_ID;
	uint32_t i;
	if (c->err)
		return F_FALSE_ID;
	if (atom_intern(c, &at, &i) < 0) {
		c->err = -ENOMEM;
		return F_FALSE_ID;
	}
	return f_push(c, (struct fnode){ .kind = F_ATOM, .a = i });
}

/* One half of an argument: where it is and what the comparison masks and compares. */
struct half {
	uint32_t word, mask, value;
};

/* (x & mask) op value on 64 bits, as (high, low) compared lexicographically. */
static uint32_t compare_formula(struct cond_ctx *c, enum scg_cmp_op op, const struct half *hi,
				const struct half *lo)
{
	uint32_t hi_eq = f_atom(c, hi->word, hi->mask, BPF_JEQ, hi->value);
	uint32_t hi_gt = f_atom(c, hi->word, hi->mask, BPF_JGT, hi->value);
	uint32_t hi_ge = f_atom(c, hi->word, hi->mask, BPF_JGE, hi->value);
	switch (op) {
	case SCG_CMP_EQ:
		return f_and(c, hi_eq, f_atom(c, lo->word, lo->mask, BPF_JEQ, lo->value));
	case SCG_CMP_NE:
		return f_not(c, f_and(c, hi_eq, f_atom(c, lo->word, lo->mask, BPF_JEQ, lo->value)));
	case SCG_CMP_LT: /* hi < v.hi, or hi == v.hi and lo < v.lo */
		return f_or(c, f_not(c, hi_ge),
			    f_and(c, hi_eq, f_not(c, f_atom(c, lo->word, lo->mask, BPF_JGE, lo->value))));
	case SCG_CMP_LE:
		return f_or(c, f_not(c, hi_ge),
			    f_and(c, hi_eq, f_not(c, f_atom(c, lo->word, lo->mask, BPF_JGT, lo->value))));
	case SCG_CMP_GT:
		return f_or(c, hi_gt, f_and(c, hi_eq, f_atom(c, lo->word, lo->mask, BPF_JGT, lo->value)));
	case SCG_CMP_GE:
		return f_or(c, hi_gt, f_and(c, hi_eq, f_atom(c, lo->word, lo->mask, BPF_JGE, lo->value)));
	}
	return F_FALSE_ID;
}

uint32_t cond_formula(struct cond_ctx *c, const struct scg_expr *expr, bool big_endian)
{
	if (!expr)
		return F_TRUE_ID;
	switch (expr->kind) {
	case SCG_EXPR_CMP: {
		uint32_t base = SCG_DATA_ARGS + 8U * expr->arg;
		/* A width-32 comparison has mask and value below 2^32: its high half folds to 0 == 0. */
		struct half hi = { base + (big_endian ? 0U : 4U), (uint32_t)(expr->mask >> 32),
				   (uint32_t)(expr->value >> 32) };
		struct half lo = { base + (big_endian ? 4U : 0U), (uint32_t)expr->mask,
				   (uint32_t)expr->value };
		return compare_formula(c, expr->op, &hi, &lo);
	}
	case SCG_EXPR_NOT:
		return f_not(c, cond_formula(c, expr->left, big_endian));
	case SCG_EXPR_AND:
		return f_and(c, cond_formula(c, expr->left, big_endian),
			     cond_formula(c, expr->right, big_endian));
	case SCG_EXPR_OR:
		return f_or(c, cond_formula(c, expr->left, big_endian),
			    cond_formula(c, expr->right, big_endian));
	}
	return F_FALSE_ID;
}

int cond_constant(const struct cond_ctx *c, uint32_t formula)
{
	(void)c;
	return formula == F_TRUE_ID ? 1 : formula == F_FALSE_ID ? 0 : -1;
}

/* --- facts and three-valued evaluation ----------------------------------- */

enum { V_FALSE = 0, V_TRUE = 1, V_UNKNOWN = 2 };

struct fact {
	uint32_t atom;
	bool value;
};

struct facts {
	struct fact list[MAX_FACTS];
	size_t n;
};

/* What the facts say about the value of (word & mask): an interval minus a few points. */
struct range_knowledge {
	uint32_t lo, hi;
	uint32_t excluded[MAX_EXCLUDED];
	size_t nexcluded;
	bool empty;
};

static void learn(struct range_knowledge *r, const struct atom *at, bool value)
{
	uint32_t k = at->k;
	switch (at->op) {
	case BPF_JEQ:
		if (value) {
			r->empty |= k < r->lo || k > r->hi;
			r->lo = r->hi = k;
		} else if (r->nexcluded < MAX_EXCLUDED) {
			r->excluded[r->nexcluded++] = k;
		}
		return;
	case BPF_JGT:
		if (value) {
			r->empty |= k == UINT32_MAX;
			if (k != UINT32_MAX && k + 1 > r->lo)
				r->lo = k + 1;
		} else if (k < r->hi) {
			r->hi = k;
		}
		return;
	case BPF_JGE:
		if (value) {
			if (k > r->lo)
				r->lo = k;
		} else {
			r->empty |= k == 0;
			if (k != 0 && k - 1 < r->hi)
				r->hi = k - 1;
		}
		return;
	default:
		return;
	}
}

static bool is_excluded(const struct range_knowledge *r, uint32_t v)
{
	for (size_t i = 0; i < r->nexcluded; i++)
		if (r->excluded[i] == v)
			return true;
	return false;
}

/* Shrinks the interval past excluded end points. */
static void tighten(struct range_knowledge *r)
{
	for (size_t round = 0; round <= r->nexcluded && r->lo <= r->hi; round++) {
		if (is_excluded(r, r->lo)) {
			if (r->lo == r->hi) {
				r->empty = true;
				return;
			}
			r->lo++;
		}
		if (is_excluded(r, r->hi)) {
			if (r->lo == r->hi) {
				r->empty = true;
				return;
			}
			r->hi--;
		}
	}
	r->empty |= r->lo > r->hi;
}

/* What the facts of the current path say about one (word, mask) pair of atoms. */
struct pair_state {
	uint32_t word, mask;
	struct range_knowledge raw;   /* the pair's facts, learned in path order */
	struct range_knowledge tight; /* raw, tightened: what atom_eval() reads */
};

/*
 * cond_decide()'s state per atom and per pair.  It lives as long as the
 * atoms (the compilation) and each decision leaves it clean: facts popped,
 * memo bits cleared.  Keeping what the path knows per pair, updated as
 * facts come and go, makes an atom's value a lookup instead of a pass over
 * every fact of the path.
 */
struct cond_scratch {
	uint32_t *pair;	    /* per atom: index in pairs, UINT32_MAX until needed */
	int8_t *fact;	    /* per atom: its value on the current path, -1 when not a fact */
	uint64_t *word_bit; /* per atom: its pair's bit in the memo's word sets */
	size_t cap;
	struct pair_state *pairs;
	size_t npairs, pairs_cap;
	struct hashmap pair_index; /* (word, mask) -> pair */
	/* a pair's raw and tight before each fact; last: scratch_reserve() zeroes what precedes it */
	struct range_knowledge saved[MAX_FACTS][2];
};

static void scratch_free(struct cond_scratch *s)
{
	if (!s)
		return;
	free(s->pair);
	free(s->fact);
	free(s->word_bit);
	free(s->pairs);
	hashmap_release(&s->pair_index);
	free(s);
}

/* Room for every atom so far; 0 or -ENOMEM. */
static int scratch_reserve(struct cond_ctx *c)
{
	if (!c->scratch) {
		/* saved[] (22 KiB) is a stack written before it is read: only the rest starts zeroed */
		if (!(c->scratch = malloc(sizeof(*c->scratch))))
			return -ENOMEM;
		memset(c->scratch, 0, offsetof(struct cond_scratch, saved));
	}
	struct cond_scratch *s = c->scratch;
	if (s->cap >= c->natoms)
		return 0;
	size_t cap = c->atoms_cap;
	if (RESIZE_ARRAY(&s->pair, cap) || RESIZE_ARRAY(&s->fact, cap) ||
	    RESIZE_ARRAY(&s->word_bit, cap))
		return -ENOMEM;
	memset(s->pair + s->cap, 0xff, (cap - s->cap) * sizeof(*s->pair));
	memset(s->fact + s->cap, 0xff, (cap - s->cap) * sizeof(*s->fact));
	memset(s->word_bit + s->cap, 0, (cap - s->cap) * sizeof(*s->word_bit));
	s->cap = cap;
	return 0;
}

/* Gives atom @ai its pair (nothing known yet); 0 or -ENOMEM. */
static int pair_assign(struct cond_ctx *c, uint32_t ai)
{
	struct cond_scratch *s = c->scratch;
	const struct atom *at = &c->atoms[ai];
	if (s->pair[ai] != UINT32_MAX)
		return 0;
	uint64_t key = (uint64_t)at->word << 32 | at->mask, i;
	if (hashmap_get(&s->pair_index, key, &i)) {
		s->pair[ai] = (uint32_t)i;
		return 0;
	}
	if (GROW_ARRAY(&s->pairs, &s->pairs_cap, s->npairs + 1, 16) ||
	    hashmap_add(&s->pair_index, key, s->npairs) < 0)
		return -ENOMEM;
	struct range_knowledge none = { .lo = 0, .hi = at->mask };
	s->pairs[s->npairs] = (struct pair_state){ at->word, at->mask, none, none };
	s->pair[ai] = (uint32_t)s->npairs++;
	return 0;
}

/* Atom @ai is @value from here down the path. */
static void fact_push(struct cond_ctx *c, struct facts *fs, uint32_t ai, bool value)
{
	struct cond_scratch *s = c->scratch;
	struct pair_state *p = &s->pairs[s->pair[ai]];
	s->saved[fs->n][0] = p->raw;
	s->saved[fs->n][1] = p->tight;
	learn(&p->raw, &c->atoms[ai], value);
	p->tight = p->raw;
	tighten(&p->tight);
	s->fact[ai] = value;
	fs->list[fs->n++] = (struct fact){ ai, value };
}

static void fact_pop(struct cond_ctx *c, struct facts *fs)
{
	struct cond_scratch *s = c->scratch;
	uint32_t ai = fs->list[--fs->n].atom;
	struct pair_state *p = &s->pairs[s->pair[ai]];
	p->raw = s->saved[fs->n][0];
	p->tight = s->saved[fs->n][1];
	s->fact[ai] = -1;
}

/*
 * Atom @ai under the facts of the path: its own value when it is one, else
 * what the facts on its pair, learned in path order and tightened, decide.
 */
static int atom_eval(const struct cond_ctx *c, uint32_t ai)
{
	const struct cond_scratch *s = c->scratch;
	const struct atom *at = &c->atoms[ai];
	if (s->fact[ai] >= 0)
		return s->fact[ai];
	const struct range_knowledge *r = &s->pairs[s->pair[ai]].tight;
	if (r->empty)
		return V_FALSE; /* no value reaches here: any answer is right */
	switch (at->op) {
	case BPF_JEQ:
		if (r->lo == r->hi)
			return at->k == r->lo;
		return at->k < r->lo || at->k > r->hi || is_excluded(r, at->k) ? V_FALSE : V_UNKNOWN;
	case BPF_JGT:
		return r->lo > at->k ? V_TRUE : r->hi <= at->k ? V_FALSE : V_UNKNOWN;
	case BPF_JGE:
		return r->lo >= at->k ? V_TRUE : r->hi < at->k ? V_FALSE : V_UNKNOWN;
	default:
		return V_UNKNOWN;
	}
}

/* Three-valued value of formula @fi; with V_UNKNOWN, *@first is the atom evaluated first. */
static int eval3(const struct cond_ctx *c, uint32_t fi, uint32_t *first)
{
	const struct fnode *n = &c->f[fi];
	uint32_t fa = 0, fb = 0;
	int va, vb;
	switch (n->kind) {
	case F_FALSE:
		return V_FALSE;
	case F_TRUE:
		return V_TRUE;
	case F_ATOM:
		va = atom_eval(c, n->a);
		*first = n->a;
		return va;
	case F_NOT:
		va = eval3(c, n->a, first);
		return va == V_UNKNOWN ? V_UNKNOWN : !va;
	case F_AND:
	case F_OR: {
		int absorbing = n->kind == F_AND ? V_FALSE : V_TRUE;
		va = eval3(c, n->a, &fa);
		if (va == absorbing)
			return va;
		vb = eval3(c, n->b, &fb);
		if (va != V_UNKNOWN) {
			*first = fb;
			return vb;
		}
		if (vb == absorbing)
			return vb;
		*first = fa;
		return V_UNKNOWN;
	}
	}
	return V_UNKNOWN;
}

/* --- from atoms and formulas to graph nodes ------------------------------- */

static bool single_bit(uint32_t v)
{
	return v && !(v & (v - 1));
}

/*
 * The test for atom @ai.  (x & m) == 0 and single-bit (x & m) == m become
 * JSET m, which needs no AND and leaves the whole word in A for the next test.
 */
static uint32_t atom_node(struct cond_ctx *c, uint32_t ai, uint32_t t, uint32_t f)
{
	const struct atom *at = &c->atoms[ai];
	if (at->op == BPF_JEQ && at->mask != WORD_FULL) {
		if (at->k == 0)
			return dag_test(c->dag, at->word, WORD_FULL, BPF_JSET, at->mask, f, t);
		if (at->k == at->mask && single_bit(at->mask))
			return dag_test(c->dag, at->word, WORD_FULL, BPF_JSET, at->mask, t, f);
	}
	return dag_test(c->dag, at->word, at->mask, at->op, at->k, t, f);
}

/* Short-circuit jumping code for formula @fi, without facts. */
static uint32_t plain_formula(struct cond_ctx *c, uint32_t fi, uint32_t t, uint32_t f)
{
	const struct fnode *n = &c->f[fi];
	switch (n->kind) {
	case F_FALSE:
		return f;
	case F_TRUE:
		return t;
	case F_ATOM:
		return atom_node(c, n->a, t, f);
	case F_NOT:
		return plain_formula(c, n->a, f, t);
	case F_AND: {
		uint32_t b = n->b, a = n->a;
		return plain_formula(c, a, plain_formula(c, b, t, f), f);
	}
	case F_OR: {
		uint32_t b = n->b, a = n->a;
		return plain_formula(c, a, t, plain_formula(c, b, t, f));
	}
	}
	return f;
}

static uint32_t plain_chain(struct cond_ctx *c, const struct entry *e, size_t n, uint32_t final)
{
	uint32_t node = dag_ret(c->dag, final);
	for (size_t i = n; i-- > 0;)
		node = plain_formula(c, e[i].formula, dag_ret(c->dag, e[i].action), node);
	return node;
}

/* Memo of solved subproblems: (first entry, the facts that matter to it) -> node. */
struct memo_entry {
	uint32_t first;
	uint32_t nfacts;
	size_t facts_at; /* into memo.pool */
	uint32_t node;
};

struct memo {
	struct memo_entry *entries;
	size_t len, cap;
	struct hashmap index; /* memo_key() hash -> entry */
	struct fact *pool;
	size_t pool_len, pool_cap;
};

/* Per-decision state of cond_decide(). */
struct decider {
	struct cond_ctx *c;
	const struct entry *e;
	size_t n;
	uint32_t final;
	struct facts facts;
	uint64_t *suffix_words; /* per entry: bit set of the words entries i.. test (0: no memo) */
	struct memo memo;
};

static void collect_atoms(const struct cond_ctx *c, uint32_t fi, uint64_t *words,
			  const uint64_t *atom_word)
{
	const struct fnode *n = &c->f[fi];
	if (n->kind == F_ATOM)
		*words |= atom_word[n->a];
	else if (n->kind == F_NOT)
		collect_atoms(c, n->a, words, atom_word);
	else if (n->kind == F_AND || n->kind == F_OR) {
		collect_atoms(c, n->a, words, atom_word);
		collect_atoms(c, n->b, words, atom_word);
	}
}

/* The relevant facts of a subproblem, sorted, as the memo key. */
static size_t memo_key(const struct decider *d, size_t first, struct fact *out, uint64_t *hash)
{
	size_t k = 0;
	uint64_t words = d->suffix_words[first];
	for (size_t i = 0; i < d->facts.n; i++)
		if (d->c->scratch->word_bit[d->facts.list[i].atom] & words)
			out[k++] = d->facts.list[i];
	for (size_t i = 1; i < k; i++) /* insertion sort: a handful of facts */
		for (size_t j = i; j > 0 && out[j - 1].atom > out[j].atom; j--) {
			struct fact tmp = out[j];
			out[j] = out[j - 1];
			out[j - 1] = tmp;
		}
	uint64_t h = hash_u64(first);
	for (size_t i = 0; i < k; i++)
		h = hash_combine(h, out[i].atom * 2U + out[i].value);
	*hash = h;
	return k;
}

static const struct memo_entry *memo_find(const struct decider *d, uint64_t hash, size_t first,
					  const struct fact *key, size_t nkey)
{
	const struct memo *m = &d->memo;
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&m->index, hash, &pos, &i);) {
		const struct memo_entry *e = &m->entries[i];
		if (e->first == first && e->nfacts == nkey &&
		    (nkey == 0 || !memcmp(&m->pool[e->facts_at], key, nkey * sizeof(*key))))
			return e;
	}
	return NULL;
}

/* Remembers a solved subproblem; failing to allocate only costs time later. */
static void memo_add(struct decider *d, uint64_t hash, size_t first, const struct fact *key,
		     size_t nkey, uint32_t node)
{
	struct memo *m = &d->memo;
	if (GROW_ARRAY(&m->entries, &m->cap, m->len + 1, 64) ||
	    GROW_ARRAY(&m->pool, &m->pool_cap, m->pool_len + nkey, 2 * nkey) ||
	    hashmap_add(&m->index, hash, m->len) < 0)
		return;
	if (nkey)
		memcpy(&m->pool[m->pool_len], key, nkey * sizeof(*key));
	m->entries[m->len] = (struct memo_entry){ (uint32_t)first, (uint32_t)nkey, m->pool_len,
						  node };
	m->len++;
	m->pool_len += nkey;
}

/*
 * The one action every remaining outcome from entry @first on would give,
 * or false when two differ -- or when the first SINGLE_SCAN entries do not
 * settle it.  A wrong "no" only costs a split whose two branches come out
 * as the same node (dag_test() folds it), so the graph is the same unless
 * those extra steps run into DECIDE_BUDGET or MAX_FACTS; decisions of up
 * to SINGLE_SCAN entries are answered exactly.  The bound keeps a decision
 * of 100,000 entries from rescanning all of them at every step.
 */
static bool single_outcome(const struct decider *d, size_t first, uint32_t *action)
{
	bool have = false;
	uint32_t seen = 0, dummy;
	size_t end = d->n - first > SINGLE_SCAN ? first + SINGLE_SCAN : d->n;
	for (size_t i = first; i < end; i++) {
		int v = eval3(d->c, d->e[i].formula, &dummy);
		if (v == V_FALSE)
			continue;
		if (have && d->e[i].action != seen)
			return false;
		seen = d->e[i].action;
		have = true;
		if (v == V_TRUE) {
			*action = seen;
			return true;
		}
	}
	if (end < d->n || (have && d->final != seen))
		return false;
	*action = d->final;
	return true;
}

static uint32_t decide(struct decider *d, size_t first);

/* Splits on atom @ai and solves both sides. */
static uint32_t split(struct decider *d, size_t first, uint32_t ai)
{
	if (d->facts.n == MAX_FACTS)
		return plain_chain(d->c, d->e + first, d->n - first, d->final);
	fact_push(d->c, &d->facts, ai, true);
	uint32_t yes = decide(d, first);
	fact_pop(d->c, &d->facts);
	fact_push(d->c, &d->facts, ai, false);
	uint32_t no = decide(d, first);
	fact_pop(d->c, &d->facts);
	return atom_node(d->c, ai, yes, no);
}

static uint32_t decide(struct decider *d, size_t first)
{
	struct cond_ctx *c = d->c;
	if (c->budget == 0 || c->err || c->dag->err)
		return plain_chain(c, d->e + first, d->n - first, d->final);
	c->budget--;
	for (size_t i = first; i < d->n; i++) {
		uint32_t ai = 0;
		int v = eval3(c, d->e[i].formula, &ai);
		if (v == V_FALSE)
			continue;
		if (v == V_TRUE)
			return dag_ret(c->dag, d->e[i].action);
		uint32_t action;
		if (single_outcome(d, i, &action))
			return dag_ret(c->dag, action);
		if (!d->suffix_words)
			return split(d, i, ai);
		struct fact key[MAX_FACTS];
		uint64_t hash;
		size_t nkey = memo_key(d, i, key, &hash);
		const struct memo_entry *m = memo_find(d, hash, i, key, nkey);
		if (m)
			return m->node;
		uint32_t node = split(d, i, ai);
		memo_add(d, hash, i, key, nkey, node);
		return node;
	}
	return dag_ret(c->dag, d->final);
}

/* Gives each (word, mask) tested under @fi a bit of its own; false past 64 of them. */
static bool index_formula(struct decider *d, uint32_t fi, uint32_t (*seen)[2], size_t *nseen)
{
	const struct cond_ctx *c = d->c;
	const struct fnode *n = &c->f[fi];
	if (n->kind == F_NOT)
		return index_formula(d, n->a, seen, nseen);
	if (n->kind == F_AND || n->kind == F_OR)
		return index_formula(d, n->a, seen, nseen) && index_formula(d, n->b, seen, nseen);
	if (n->kind != F_ATOM)
		return true;
	const struct atom *at = &c->atoms[n->a];
	size_t i;
	for (i = 0; i < *nseen; i++)
		if (seen[i][0] == at->word && seen[i][1] == at->mask)
			break;
	if (i == *nseen) {
		if (*nseen == 64)
			return false;
		seen[i][0] = at->word;
		seen[i][1] = at->mask;
		(*nseen)++;
	}
	c->scratch->word_bit[n->a] = 1ULL << i;
	return true;
}

/* Gives every atom under @fi its pair (before a decision), or with @done
 * clears its memo bit (after it). */
static int prepare_atoms(struct cond_ctx *c, uint32_t fi, bool done)
{
	const struct fnode *n = &c->f[fi];
	if (n->kind == F_NOT)
		return prepare_atoms(c, n->a, done);
	if (n->kind == F_AND || n->kind == F_OR) {
		int r = prepare_atoms(c, n->a, done);
		return r < 0 ? r : prepare_atoms(c, n->b, done);
	}
	if (n->kind != F_ATOM)
		return 0;
	if (done) {
		c->scratch->word_bit[n->a] = 0;
		return 0;
	}
	return pair_assign(c, n->a);
}

/* Prepares the memo: which words each suffix of the entries depends on. */
static bool index_words(struct decider *d)
{
	const struct cond_ctx *c = d->c;
	uint32_t seen[64][2];
	size_t nseen = 0;
	d->suffix_words = calloc(d->n + 1, sizeof(*d->suffix_words));
	if (!d->suffix_words)
		return false;
	for (size_t i = 0; i < d->n; i++)
		if (!index_formula(d, d->e[i].formula, seen, &nseen))
			return false;
	for (size_t i = d->n; i-- > 0;) {
		d->suffix_words[i] = d->suffix_words[i + 1];
		collect_atoms(c, d->e[i].formula, &d->suffix_words[i], c->scratch->word_bit);
	}
	return true;
}

uint32_t cond_decide(struct cond_ctx *c, const struct entry *entries, size_t n, uint32_t final)
{
	struct decider d = { .c = c, .e = entries, .n = n, .final = final };
	int r = scratch_reserve(c);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = prepare_atoms(c, entries[i].formula, false);
	if (r < 0) {
		c->err = r;
		return plain_chain(c, entries, n, final);
	}
	if (!index_words(&d)) {
		free(d.suffix_words);
		d.suffix_words = NULL;
	}
	uint32_t node = decide(&d, 0);
	for (size_t i = 0; i < n; i++)
		prepare_atoms(c, entries[i].formula, true);
	free(d.suffix_words);
	free(d.memo.entries);
	hashmap_release(&d.memo.index);
	free(d.memo.pool);
	return node;
}
