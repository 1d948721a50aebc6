/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbolic execution of seccomp filters.
 *
 * A and X (and the scratch words) are either a constant, "loaded word w AND
 * mask m", or a Z3 term.  Every conditional jump on a masked word compares
 * it with a constant, which narrows that word's set exactly (wordset.c);
 * other jumps split the region by a general condition.  A state is an
 * instruction, the registers, and the region of inputs that reach it so.
 *
 * Programs only jump forward, so the states are kept in a work list
 * ordered by instruction: when the walk takes up an instruction where
 * paths meet (a join), every state that will ever reach it is there.
 * States there whose live registers agree and whose regions have a union
 * the region type says exactly are merged into one, so a chain of tests
 * whose two sides meet again costs one state per instruction instead of
 * one per path.  The leaves still partition the input: regions only ever
 * split at a fork and join again at a merge.
 *
 * A stack is handled by starting the next (older) filter at each leaf of
 * the newer one on the leaf's region.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/verify.h>

#include "analysis/symexec.h"
#include "bpf/opcodes.h"

/* Leaves (regions times filters) one walk may produce before -E2BIG. */
#define LEAF_LIMIT (1UL << 24)
/* Distinct values of RET A over a loaded word before -E2BIG. */
#define RET_A_LIMIT 1024U
/* The same for a computed value: each one costs a solver call. */
#define RET_TERM_LIMIT 64U
/* States of one join a new arrival is compared with for a merge. */
#define MERGE_TRIES 256U

enum sval_kind { SV_CONST, SV_WORD, SV_TERM };

struct sval {
	enum sval_kind kind;
	unsigned word;  /* SV_WORD */
	uint32_t value; /* SV_CONST: the value; SV_WORD: the mask; SV_TERM: the words in it */
	Z3_ast term;    /* SV_TERM: a Z3 bit-vector over the words */
};

struct frame {
	struct sval a, x, mem[SCG_BPF_MEMWORDS];
};

/* Live registers: bit 0 A, bit 1 X, bit 2 + i scratch word i. */
#define LIVE_A 1U
#define LIVE_X 2U
#define LIVE_MEM(i) (4U << (i))

/* What the walk needs to know of one filter's shape. */
struct prog_info {
	bool *join;     /* more than one edge leads here */
	uint32_t *live; /* registers read before written from here on */
};

struct state {
	size_t pc;
	uint64_t seq;  /* creation order: ties at one instruction keep it */
	uint64_t hash; /* of the live registers, while its join is merged */
	struct frame f;
	struct scg_region region;
	/* the word sets changed since the general conditions were last decided with them */
	bool unchecked;
};

/* A binary heap of states by (pc, seq). */
struct worklist {
	struct state **heap;
	size_t n, cap;
};

/* Relations of (word & mask) to a constant. */
enum rel { REL_EQ, REL_NE, REL_GT, REL_GE, REL_LT, REL_LE, REL_SET, REL_CLEAR };

static int walk_filter(struct symexec *s, size_t fi, struct state *init);

static struct sval sv_const(uint32_t v)
{
	return (struct sval){ SV_CONST, 0, v, NULL };
}

static struct sval sv_word(unsigned word, uint32_t mask)
{
	return mask ? (struct sval){ SV_WORD, word, mask, NULL } : sv_const(0);
}

/* A term over the words in the bit mask @words. */
static struct sval sv_term(Z3_ast term, uint32_t words)
{
	return (struct sval){ SV_TERM, 0, words, term };
}

/* The words @v depends on, as a bit mask. */
static uint32_t words_of(struct sval v)
{
	switch (v.kind) {
	case SV_CONST:
		return 0;
	case SV_WORD:
		return 1U << v.word;
	case SV_TERM:
		break;
	}
	return v.value;
}

/* Equal terms are one node: Z3 shares the structure of its expressions. */
static bool sval_equal(const struct sval *a, const struct sval *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SV_CONST:
		return a->value == b->value;
	case SV_WORD:
		return a->word == b->word && a->value == b->value;
	case SV_TERM:
		break;
	}
	return a->term == b->term;
}

static bool frame_equal(const struct frame *a, const struct frame *b, uint32_t live)
{
	if ((live & LIVE_A) && !sval_equal(&a->a, &b->a))
		return false;
	if ((live & LIVE_X) && !sval_equal(&a->x, &b->x))
		return false;
	for (unsigned i = 0; i < SCG_BPF_MEMWORDS; i++)
		if ((live & LIVE_MEM(i)) && !sval_equal(&a->mem[i], &b->mem[i]))
			return false;
	return true;
}

/* --- the shape of a filter: joins and liveness ------------------------------ */

/* The instructions @pc may go to next: 0, 1 or 2 of them. */
static size_t successors(const struct scg_prog *p, size_t pc, size_t next[2])
{
	const struct scg_insn *in = &p->insns[pc];
	switch (BPF_CLASS(in->code)) {
	case BPF_RET:
		return 0;
	case BPF_JMP:
		if (BPF_OP(in->code) == BPF_JA) {
			next[0] = pc + 1 + in->k;
			return 1;
		}
		next[0] = pc + 1 + in->jt;
		next[1] = pc + 1 + in->jf;
		return next[0] == next[1] ? 1 : 2;
	default:
		next[0] = pc + 1;
		return 1;
	}
}

/* Registers @in reads (*use) and writes (*def). */
static void insn_regs(const struct scg_insn *in, uint32_t *use, uint32_t *def)
{
	uint32_t mem = LIVE_MEM(in->k % SCG_BPF_MEMWORDS);
	*use = *def = 0;
	switch (BPF_CLASS(in->code)) {
	case BPF_LD:
	case BPF_LDX:
		*def = BPF_CLASS(in->code) == BPF_LD ? LIVE_A : LIVE_X;
		if (BPF_MODE(in->code) == BPF_MEM)
			*use = mem;
		break;
	case BPF_ST:
		*use = LIVE_A, *def = mem;
		break;
	case BPF_STX:
		*use = LIVE_X, *def = mem;
		break;
	case BPF_ALU:
		*use = LIVE_A;
		if (BPF_SRC(in->code) == BPF_X && BPF_OP(in->code) != BPF_NEG)
			*use |= LIVE_X;
		*def = LIVE_A;
		break;
	case BPF_JMP:
		if (BPF_OP(in->code) != BPF_JA)
			*use = LIVE_A | (BPF_SRC(in->code) == BPF_X ? LIVE_X : 0);
		break;
	case BPF_RET:
		*use = BPF_RVAL(in->code) == BPF_K ? 0 : LIVE_A;
		break;
	default: /* BPF_MISC */
		if (BPF_MISCOP(in->code) == BPF_TAX)
			*use = LIVE_A, *def = LIVE_X;
		else
			*use = LIVE_X, *def = LIVE_A;
		break;
	}
}

static int info_init(struct prog_info *info, const struct scg_prog *p)
{
	size_t len = p->len;
	unsigned char *edges = calloc(len ? len : 1, 1);
	info->join = calloc(len ? len : 1, sizeof(*info->join));
	info->live = calloc(len ? len : 1, sizeof(*info->live));
	if (!edges || !info->join || !info->live) {
		free(edges);
		free(info->join);
		free(info->live);
		info->join = NULL;
		info->live = NULL;
		return -ENOMEM;
	}
	for (size_t pc = 0; pc < len; pc++) {
		size_t next[2];
		size_t k = successors(p, pc, next);
		for (size_t i = 0; i < k; i++)
			if (next[i] < len && edges[next[i]]++)
				info->join[next[i]] = true;
	}
	/* backwards: every jump goes forward, so one pass settles it */
	for (size_t pc = len; pc-- > 0;) {
		size_t next[2];
		size_t k = successors(p, pc, next);
		uint32_t out = 0, use, def;
		for (size_t i = 0; i < k; i++)
			if (next[i] < len)
				out |= info->live[next[i]];
		insn_regs(&p->insns[pc], &use, &def);
		info->live[pc] = use | (out & ~def);
	}
	free(edges);
	return 0;
}

static void info_release(struct prog_info *info)
{
	free(info->join);
	free(info->live);
}

/* --- states and the work list -------------------------------------------------- */

static void state_free(struct state *st)
{
	if (!st)
		return;
	region_release(&st->region);
	free(st);
}

/* A new state at @pc with a copy of @region.  NULL on allocation failure. */
static struct state *state_new(struct symexec *s, size_t pc, const struct frame *f,
			       const struct scg_region *region, bool unchecked)
{
	struct state *st = malloc(sizeof(*st));
	if (!st)
		return NULL;
	if (region_copy(&st->region, region) < 0) {
		free(st);
		return NULL;
	}
	st->pc = pc;
	st->seq = s->seq++;
	st->f = *f;
	st->unchecked = unchecked;
	return st;
}

static bool before(const struct state *a, const struct state *b)
{
	return a->pc < b->pc || (a->pc == b->pc && a->seq < b->seq);
}

/* Takes @st; on failure frees it. */
static int wl_push(struct worklist *wl, struct state *st)
{
	if (wl->n == wl->cap) {
		size_t cap = wl->cap ? wl->cap * 2 : 16;
		struct state **h = realloc(wl->heap, sizeof(*h) * cap);
		if (!h) {
			state_free(st);
			return -ENOMEM;
		}
		wl->heap = h;
		wl->cap = cap;
	}
	size_t i = wl->n++;
	while (i > 0 && before(st, wl->heap[(i - 1) / 2])) {
		wl->heap[i] = wl->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	wl->heap[i] = st;
	return 0;
}

static struct state *wl_pop(struct worklist *wl)
{
	struct state *top = wl->heap[0], *last = wl->heap[--wl->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= wl->n)
			break;
		if (c + 1 < wl->n && before(wl->heap[c + 1], wl->heap[c]))
			c++;
		if (!before(wl->heap[c], last))
			break;
		wl->heap[i] = wl->heap[c];
		i = c;
	}
	if (wl->n)
		wl->heap[i] = last;
	return top;
}

/* --- merging --------------------------------------------------------------------- */

/*
 * General conditions of two regions with the same word sets: the common
 * prefix stays, the tails become one disjunction (nothing when they are a
 * condition and its negation, the two sides of one jump).
 */
static int merge_conds(struct scg_region *a, const struct scg_region *b)
{
	if (a->smt != b->smt)
		return 0;
	a->cond_words |= b->cond_words;
	size_t k = 0;
	while (k < a->nconds && k < b->nconds && a->conds[k] == b->conds[k])
		k++;
	size_t ta = a->nconds - k, tb = b->nconds - k;
	if (ta == 0 || tb == 0) {
		/* one contains the other (paths are disjoint: only when one is empty) */
		a->nconds = k;
		return 1;
	}
	Z3_context c = a->smt->ctx;
	if (ta == 1 && tb == 1 &&
	    (Z3_mk_not(c, a->conds[k]) == b->conds[k] || Z3_mk_not(c, b->conds[k]) == a->conds[k])) {
		a->nconds = k;
		return 1;
	}
	Z3_ast ea = ta == 1 ? a->conds[k] : Z3_mk_and(c, (unsigned)ta, a->conds + k);
	Z3_ast eb = tb == 1 ? b->conds[k] : Z3_mk_and(c, (unsigned)tb, b->conds + k);
	Z3_ast either[2] = { ea, eb };
	a->conds[k] = Z3_mk_or(c, 2, either);
	a->nconds = k + 1;
	return 1;
}

/*
 * Folds @b into @a when the union of their regions is a region: the word
 * sets differ in at most one word (and that word's union is exact) and the
 * general conditions are the same, or the word sets are the same.
 * 1 merged, 0 not, or -ENOMEM.
 */
static int region_merge(struct scg_region *a, const struct scg_region *b)
{
	int differ = -1;
	for (unsigned w = 0; w < SCG_DATA_WORDS; w++) {
		if (wset_equal(&a->w[w], &b->w[w]))
			continue;
		if (differ >= 0)
			return 0;
		differ = (int)w;
	}
	bool same_conds = a->nconds == b->nconds &&
			  (!a->nconds || (a->smt == b->smt &&
					  !memcmp(a->conds, b->conds, sizeof(*a->conds) * a->nconds)));
	if (differ < 0)
		return same_conds ? 1 : merge_conds(a, b);
	if (!same_conds)
		return 0;
	return wset_union(&a->w[differ], &b->w[differ]);
}

static uint64_t hash_sval(uint64_t h, const struct sval *v)
{
	uint64_t parts[3] = { (uint64_t)v->kind, (uint64_t)v->word << 32 | v->value,
			      (uint64_t)(uintptr_t)v->term };
	if (v->kind != SV_TERM)
		parts[2] = 0;
	if (v->kind == SV_CONST)
		parts[1] = v->value;
	for (size_t i = 0; i < 3; i++)
		h = (h ^ parts[i]) * 1099511628211ULL;
	return h;
}

/* A hash of the live registers: states that can merge have the same. */
static uint64_t frame_hash(const struct frame *f, uint32_t live)
{
	uint64_t h = 1469598103934665603ULL;
	if (live & LIVE_A)
		h = hash_sval(h, &f->a);
	if (live & LIVE_X)
		h = hash_sval(h, &f->x);
	for (unsigned i = 0; i < SCG_BPF_MEMWORDS; i++)
		if (live & LIVE_MEM(i))
			h = hash_sval(h, &f->mem[i]);
	return h;
}

static int by_frame_then_seq(const void *a, const void *b)
{
	const struct state *x = *(struct state *const *)a, *y = *(struct state *const *)b;
	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_seq(const void *a, const void *b)
{
	const struct state *x = *(struct state *const *)a, *y = *(struct state *const *)b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Merges the states of one join where it can; *@n shrinks.  States are
 * grouped by the hash of their live registers, so only those that may
 * agree are compared.  0 or -ENOMEM.
 */
static int merge_batch(struct symexec *s, size_t fi, struct state **batch, size_t *n)
{
	if (*n < 2)
		return 0;
	uint32_t live = s->info[fi].live[batch[0]->pc];
	for (size_t i = 0; i < *n; i++)
		batch[i]->hash = frame_hash(&batch[i]->f, live);
	qsort(batch, *n, sizeof(*batch), by_frame_then_seq);
	bool again = true;
	while (again) {
		again = false;
		size_t kept = 0, group = 0; /* batch[group..kept) share the current hash */
		for (size_t i = 0; i < *n; i++) {
			struct state *st = batch[i];
			bool merged = false;
			if (kept > group && batch[kept - 1]->hash != st->hash)
				group = kept;
			size_t from = kept - group > MERGE_TRIES ? kept - MERGE_TRIES : group;
			for (size_t j = from; j < kept && !merged; j++) {
				if (!frame_equal(&batch[j]->f, &st->f, live))
					continue;
				int r = region_merge(&batch[j]->region, &st->region);
				if (r < 0)
					return r;
				if (r > 0) {
					/* the union is non-empty when either part is known to be */
					batch[j]->unchecked = batch[j]->unchecked && st->unchecked;
					merged = true;
				}
			}
			if (merged) {
				state_free(st);
				s->run->stats.merges++;
				again = true;
			} else {
				batch[kept++] = st;
			}
		}
		*n = kept;
	}
	qsort(batch, *n, sizeof(*batch), by_seq); /* back in the order they came */
	return 0;
}

/* --- the general tier ------------------------------------------------------------ */

static struct smt *need_smt(struct symexec *s)
{
	if (!s->smt)
		s->smt = run_smt(s->run);
	return s->smt;
}

static int no_smt(void)
{
	return scg_z3_load() < 0 ? -ENOSYS : -ENOMEM;
}

static Z3_ast term_of(struct symexec *s, struct sval v)
{
	struct smt *smt = s->smt;
	switch (v.kind) {
	case SV_CONST:
		return smt_const(smt, v.value);
	case SV_WORD:
		if (v.value == UINT32_MAX)
			return smt->words[v.word];
		return Z3_mk_bvand(smt->ctx, smt->words[v.word], smt_const(smt, v.value));
	case SV_TERM:
		break;
	}
	return v.term;
}

/* Both tiers of @region together: 1 non-empty (an input kept as its hint), 0 empty, or an error. */
static int region_solve(struct symexec *s, struct scg_region *region)
{
	int r = smt_solve(region->smt, region, region->hint, s->run);
	region->has_hint = r > 0;
	return r;
}

uint32_t symexec_winner(const uint32_t *rets, size_t n)
{
	uint32_t best = rets[n - 1];
	for (size_t i = n - 1; i-- > 0;)
		if ((int32_t)(rets[i] & SCG_RET_ACTION_FULL) < (int32_t)(best & SCG_RET_ACTION_FULL))
			best = rets[i];
	return best;
}

static int unsupported(struct symexec *s, size_t fi, size_t pc, const char *what)
{
	scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(pc), "analysis-unsupported",
		     "the engine models loads, masks and comparisons with constants",
		     "filter %zu: %s", fi, what);
	return -ENOTSUP;
}

static void solver_gave_up(struct symexec *s, size_t fi, size_t pc, int r)
{
	if (r == -E2BIG)
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(pc), "analysis-too-big", NULL,
			     "filter %zu: the solver gave up on a condition", fi);
}

/*
 * Filter @fi returns @ret on @region (not consumed).  Decides the region
 * first when the word sets changed since its conditions were last asked
 * about; an empty one is no leaf.
 */
static int leaf(struct symexec *s, size_t fi, size_t pc, struct scg_region *region,
		bool unchecked, uint32_t ret)
{
	if (unchecked && region->nconds) {
		int ok = region_solve(s, region);
		if (ok <= 0) {
			solver_gave_up(s, fi, pc, ok);
			if (ok < 0 && analysis_stopped(ok))
				run_undecided(s->run, region);
			return ok;
		}
	}
	if (++s->leaves > LEAF_LIMIT) {
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "analysis-too-big", NULL,
			     "more than %lu regions", LEAF_LIMIT);
		return -E2BIG;
	}
	s->run->stats.leaves++;
	s->rets[fi] = ret;
	if (fi > 0) {
		struct frame f;
		memset(&f, 0, sizeof(f));
		struct state *st = state_new(s, 0, &f, region, false);
		return st ? walk_filter(s, fi - 1, st) : -ENOMEM;
	}
	if (!s->fn)
		return 0;
	return s->fn(s->ctx, region, s->rets, symexec_winner(s->rets, s->n));
}

/*
 * Adds @cond to @st's region: 1 when some input is left (asked now), 0
 * when none, or an error; the condition stays either way.
 */
static int add_cond(struct symexec *s, struct state *st, Z3_ast cond, uint32_t words)
{
	int r = region_add_cond(&st->region, s->smt, cond, words);
	if (r < 0)
		return r;
	st->unchecked = false;
	return region_solve(s, &st->region);
}

/* The value set of RET A over a computed value: one leaf per value it can take. */
static int run_ret_term(struct symexec *s, size_t fi, struct state *st, Z3_ast term,
			uint32_t term_words)
{
	Z3_context c = s->smt->ctx;
	struct smt_enum values;
	int r = smt_enum_open(&values, s->smt, &st->region);
	for (unsigned count = 0; r > 0; count++) {
		uint32_t words[SCG_DATA_WORDS];
		r = smt_enum_next(&values, words, s->run);
		if (r <= 0) {
			solver_gave_up(s, fi, st->pc, r);
			if (analysis_stopped(r))
				run_undecided(s->run, &st->region);
			break;
		}
		if (count == RET_TERM_LIMIT) {
			scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(st->pc), "analysis-too-big",
				     NULL, "filter %zu: RET A of a computed value with more than %u values",
				     fi, RET_TERM_LIMIT);
			r = -E2BIG;
			break;
		}
		uint32_t v = smt_eval(s->smt, term, words);
		Z3_ast is_v = Z3_mk_eq(c, term, smt_const(s->smt, v));
		memcpy(st->region.hint, words, sizeof(words));
		st->region.has_hint = true;
		r = region_add_cond(&st->region, s->smt, is_v, term_words);
		if (r == 0)
			r = leaf(s, fi, st->pc, &st->region, false, v);
		st->region.nconds--;
		if (r == 0 || analysis_stopped(r)) {
			int e = region_add_cond(&st->region, s->smt, Z3_mk_not(c, is_v), term_words);
			/* what the other values would have decided */
			if (r != 0 && e == 0 && r == s->run->stop)
				run_undecided(s->run, &st->region);
			if (r == 0)
				r = e;
		}
		if (r != 0)
			break;
		smt_enum_exclude(&values, is_v);
		r = 1;
	}
	smt_enum_close(&values);
	return r;
}

/* DIV by an X that may be 0: the kernel then returns 0 (KILL_THREAD) at once. */
static int run_div_split(struct symexec *s, size_t fi, struct state *st)
{
	if (!need_smt(s))
		return no_smt();
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, st->f.x);
	uint32_t words = words_of(st->f.x);
	Z3_ast zero = Z3_mk_eq(c, x, smt_const(s->smt, 0));
	struct state *z = state_new(s, st->pc, &st->f, &st->region, st->unchecked);
	if (!z)
		return -ENOMEM;
	int r = add_cond(s, z, zero, words);
	if (r > 0)
		r = leaf(s, fi, st->pc, &z->region, false, SCG_RET_KILL_THREAD);
	else if (analysis_stopped(r))
		run_undecided(s->run, &z->region);
	solver_gave_up(s, fi, st->pc, r);
	state_free(z);
	if (r < 0) {
		/* the other side was not looked at */
		if (r == s->run->stop &&
		    region_add_cond(&st->region, s->smt, Z3_mk_not(c, zero), words) == 0)
			run_undecided(s->run, &st->region);
		return r;
	}
	r = add_cond(s, st, Z3_mk_not(c, zero), words);
	if (analysis_stopped(r))
		run_undecided(s->run, &st->region);
	solver_gave_up(s, fi, st->pc, r);
	if (r <= 0)
		return r;
	st->f.a = sv_term(Z3_mk_bvudiv(c, term_of(s, st->f.a), x), words | words_of(st->f.a));
	return 1;
}

/* --- jumps on masked words --------------------------------------------------------- */

/* Narrows @ws to (w & mask) REL k for a relation a single set operation expresses. */
static int apply_simple(struct wset *ws, uint32_t mask, enum rel rel, uint32_t k)
{
	bool full = mask == UINT32_MAX;
	switch (rel) {
	case REL_EQ:
		if (k & ~mask) {
			ws->niv = 0;
			return 0;
		}
		return full ? wset_intersect(ws, k, k) : wset_fix_bits(ws, mask, k);
	case REL_NE:
		return wset_exclude(ws, mask, k);
	case REL_GT:
		if (k == UINT32_MAX) {
			ws->niv = 0;
			return 0;
		}
		return wset_intersect(ws, k + 1, UINT32_MAX);
	case REL_GE:
		return wset_intersect(ws, k, UINT32_MAX);
	case REL_LT:
		if (k == 0) {
			ws->niv = 0;
			return 0;
		}
		return wset_intersect(ws, 0, k - 1);
	case REL_LE:
		return wset_intersect(ws, 0, k);
	case REL_SET: {
		uint32_t t = k & mask;
		if (!t) {
			ws->niv = 0;
			return 0;
		}
		if (!(t & (t - 1)))
			return wset_fix_bits(ws, t, t);
		return wset_exclude(ws, t, 0);
	}
	case REL_CLEAR:
		return wset_fix_bits(ws, k & mask, 0);
	}
	return 0;
}

/* One way out of a jump on a masked word: a target and the word's set there. */
struct side {
	size_t target;
	struct wset ws;
};

/* The ways out of one jump, each with its own copy of the word's set. */
struct sides {
	struct side v[70]; /* two relations of up to 33 patterns each */
	size_t n;
};

static void sides_release(struct sides *sd)
{
	for (size_t i = 0; i < sd->n; i++)
		wset_release(&sd->v[i].ws);
	sd->n = 0;
}

/*
 * Adds the side "@ws narrowed by (w & pmask) == pvalue, or by (w & mask) REL
 * k" when some value is left.  0, or an error.
 */
static int add_side(struct symexec *s, size_t fi, struct sides *sd, size_t target,
		    const struct wset *ws, bool pattern, uint32_t pmask, uint32_t pvalue,
		    uint32_t mask, enum rel rel, uint32_t k, unsigned word)
{
	struct side *side = &sd->v[sd->n];
	int r = wset_copy(&side->ws, ws);
	if (r < 0)
		return r;
	r = pattern ? wset_fix_bits(&side->ws, pmask, pvalue)
		    : apply_simple(&side->ws, mask, rel, k);
	uint32_t any;
	if (r == 0)
		r = wset_next(&side->ws, 0, &any);
	if (r == -E2BIG)
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(target), "analysis-too-big", NULL,
			     "filter %zu: the value set of word %u is too complex", fi, word);
	if (r <= 0) {
		wset_release(&side->ws);
		return r;
	}
	side->target = target;
	sd->n++;
	return 0;
}

/*
 * (w & mask) compared with k by an ordering, for a partial mask: the
 * values form up to 33 disjoint bit patterns, found by walking the bits
 * from the top and branching where the masked value first differs from k.
 */
static int masked_order_sides(struct symexec *s, size_t fi, struct sides *sd, size_t target,
			      const struct wset *ws, unsigned word, uint32_t mask, enum rel rel,
			      uint32_t k)
{
	bool greater = rel == REL_GT || rel == REL_GE;
	bool equal_ok = rel == REL_GE || rel == REL_LE;
	uint32_t pm = 0, pv = 0;
	for (int b = 31; b >= 0; b--) {
		uint32_t bit = 1U << b;
		int r = 0;
		if (!(mask & bit)) {
			if (!(k & bit))
				continue;
			/* the masked value has 0 where k has 1: it is below k from here */
			if (!greater)
				r = add_side(s, fi, sd, target, ws, true, pm, pv, 0, REL_EQ, 0, word);
			return r;
		}
		if ((k & bit) && !greater)
			r = add_side(s, fi, sd, target, ws, true, pm | bit, pv, 0, REL_EQ, 0, word);
		else if (!(k & bit) && greater)
			r = add_side(s, fi, sd, target, ws, true, pm | bit, pv | bit, 0, REL_EQ, 0,
				     word);
		if (r != 0)
			return r;
		pm |= bit;
		pv |= k & bit;
	}
	if (!equal_ok)
		return 0;
	return add_side(s, fi, sd, target, ws, true, pm, pv, 0, REL_EQ, 0, word);
}

static int rel_sides(struct symexec *s, size_t fi, struct sides *sd, size_t target,
		     const struct wset *ws, unsigned word, uint32_t mask, enum rel rel, uint32_t k)
{
	bool order = rel == REL_GT || rel == REL_GE || rel == REL_LT || rel == REL_LE;
	if (order && mask != UINT32_MAX)
		return masked_order_sides(s, fi, sd, target, ws, word, mask, rel, k);
	return add_side(s, fi, sd, target, ws, false, 0, 0, mask, rel, k, word);
}

static bool eval_jump(uint16_t op, uint32_t a, uint32_t k)
{
	switch (op) {
	case BPF_JEQ:
		return a == k;
	case BPF_JGT:
		return a > k;
	case BPF_JGE:
		return a >= k;
	default:
		return (a & k) != 0;
	}
}

/* Relations (taken, not taken) of "subject OP k", or of "k OP subject" when @swapped. */
static void jump_relations(uint16_t op, bool swapped, enum rel *t, enum rel *nt)
{
	switch (op) {
	case BPF_JEQ:
		*t = REL_EQ, *nt = REL_NE;
		break;
	case BPF_JGT:
		*t = swapped ? REL_LT : REL_GT, *nt = swapped ? REL_GE : REL_LE;
		break;
	case BPF_JGE:
		*t = swapped ? REL_LE : REL_GE, *nt = swapped ? REL_GT : REL_LT;
		break;
	default:
		*t = REL_SET, *nt = REL_CLEAR;
		break;
	}
}

/* Which way the guided run went at this jump: 1 taken, 0 not, -1 not guided. */
static int guided_side(struct symexec *s, size_t tpc, size_t fpc)
{
	if (!s->guide)
		return -1;
	if (s->step + 1 >= s->nguide)
		return -1;
	size_t next = s->guide[s->step + 1];
	return next == tpc ? 1 : next == fpc ? 0 : -1;
}

/*
 * Sends @st on along @sd: itself along the last way, a new state along
 * each other.  With general conditions the solver
 * decides each way with them, now in path and reachability modes (a step
 * into nothing is no step there), else at the next question or the leaf.
 * 1: @st goes on at st->pc; 0: done; or an error.  Consumes @st unless 1.
 */
static int take_sides(struct symexec *s, struct worklist *wl, struct state *st, unsigned word,
		      struct sides *sd)
{
	bool ask = st->region.nconds && (s->reached || s->guide);
	bool lazy = st->region.nconds && !ask;
	size_t n = sd->n, kept = 0;
	struct state *out[sizeof(sd->v) / sizeof(sd->v[0])];
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		struct state *t = i + 1 < n ? state_new(s, 0, &st->f, &st->region, false) : st;
		if (!t) {
			r = -ENOMEM;
			break;
		}
		t->pc = sd->v[i].target;
		t->unchecked = st->unchecked || lazy;
		wset_release(&t->region.w[word]);
		t->region.w[word] = sd->v[i].ws;
		sd->v[i].ws = (struct wset){ 0 };
		int ok = ask ? region_solve(s, &t->region) : 1;
		if (ok > 0) {
			t->unchecked = t->unchecked && !ask;
			out[kept++] = t;
			continue;
		}
		r = ok;
		if (analysis_stopped(r)) {
			/* before the last way, @st still holds every way: it is what is left */
			for (size_t k = 0; k < kept; k++)
				if (t == st)
					run_undecided(s->run, &out[k]->region);
			run_undecided(s->run, &st->region);
		}
		state_free(t);
		if (t == st)
			st = NULL;
	}
	sides_release(sd);
	if (r < 0) {
		for (size_t k = 0; k < kept; k++)
			if (out[k] != st)
				state_free(out[k]);
		state_free(st);
		return r;
	}
	/* @st goes on in place (when it still has a way), the others wait in the list */
	bool goes_on = kept && out[kept - 1] == st;
	for (size_t k = 0; k + goes_on < kept; k++) {
		if (r == 0)
			r = wl_push(wl, out[k]);
		else
			state_free(out[k]);
	}
	if (r < 0 && goes_on)
		state_free(st);
	return r < 0 ? r : goes_on;
}

/* A jump on computed values or two words: Z3 decides each side. */
static int run_jump_general(struct symexec *s, size_t fi, struct worklist *wl, struct state *st,
			    struct sval a, struct sval b)
{
	const struct scg_insn *in = &s->progs[fi].insns[st->pc];
	if (!need_smt(s))
		return no_smt();
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, a), y = term_of(s, b), cond;
	uint32_t words = words_of(a) | words_of(b);
	switch (BPF_OP(in->code)) {
	case BPF_JEQ:
		cond = Z3_mk_eq(c, x, y);
		break;
	case BPF_JGT:
		cond = Z3_mk_bvugt(c, x, y);
		break;
	case BPF_JGE:
		cond = Z3_mk_bvuge(c, x, y);
		break;
	default:
		cond = Z3_mk_not(c, Z3_mk_eq(c, Z3_mk_bvand(c, x, y), smt_const(s->smt, 0)));
		break;
	}
	size_t pc = st->pc, tpc = pc + 1 + in->jt, fpc = pc + 1 + in->jf;
	int side = guided_side(s, tpc, fpc);
	struct state *taken = NULL;
	int r = 0;
	if (side != 0) {
		taken = state_new(s, tpc, &st->f, &st->region, false);
		if (!taken)
			return -ENOMEM;
		r = add_cond(s, taken, cond, words);
		if (r <= 0) {
			if (analysis_stopped(r))
				run_undecided(s->run, &st->region); /* neither side decided */
			solver_gave_up(s, fi, tpc, r);
			state_free(taken);
			taken = NULL;
			if (r < 0)
				return r;
		}
	}
	int other = 0;
	if (side != 1) {
		other = add_cond(s, st, Z3_mk_not(c, cond), words);
		if (analysis_stopped(other))
			run_undecided(s->run, &st->region);
		solver_gave_up(s, fi, fpc, other);
	}
	if (taken && (r = wl_push(wl, taken)) < 0)
		return r;
	if (other <= 0)
		return other;
	st->pc = fpc;
	return 1;
}

/* The same, consuming @st unless it goes on (1). */
static int run_jump_general_take(struct symexec *s, size_t fi, struct worklist *wl,
				 struct state *st, struct sval a, struct sval b)
{
	int r = run_jump_general(s, fi, wl, st, a, b);
	if (r != 1)
		state_free(st);
	return r;
}

/* 1: @st goes on at st->pc; else (0 or an error) @st is consumed. */
static int run_jump(struct symexec *s, size_t fi, struct worklist *wl, struct state *st)
{
	const struct scg_insn *in = &s->progs[fi].insns[st->pc];
	uint16_t op = BPF_OP(in->code);
	size_t tpc = st->pc + 1 + in->jt, fpc = st->pc + 1 + in->jf;
	struct sval a = st->f.a;
	struct sval b = BPF_SRC(in->code) == BPF_X ? st->f.x : sv_const(in->k);
	if (tpc == fpc) {
		st->pc = tpc;
		return 1;
	}
	if (a.kind == SV_CONST && b.kind == SV_CONST) {
		st->pc = eval_jump(op, a.value, b.value) ? tpc : fpc;
		return 1;
	}
	bool swapped = a.kind == SV_CONST;
	struct sval subj = swapped ? b : a, other = swapped ? a : b;
	enum rel t, nt;
	if (a.kind == SV_TERM || b.kind == SV_TERM ||
	    (other.kind != SV_CONST && (other.word != subj.word || other.value != subj.value)))
		return run_jump_general_take(s, fi, wl, st, a, b);
	if (other.kind != SV_CONST) {
		/* the same masked word on both sides: y == y, y >= y always; y > y never */
		if (op != BPF_JSET) {
			st->pc = op == BPF_JGT ? fpc : tpc;
			return 1;
		}
		t = REL_NE, nt = REL_EQ, other.value = 0;
	} else {
		jump_relations(op, swapped, &t, &nt);
	}
	int side = guided_side(s, tpc, fpc);
	struct sides *sd = s->sides;
	const struct wset *ws = &st->region.w[subj.word];
	int r = 0;
	sd->n = 0;
	if (side != 0)
		r = rel_sides(s, fi, sd, tpc, ws, subj.word, subj.value, t, other.value);
	if (r == 0 && side != 1)
		r = rel_sides(s, fi, sd, fpc, ws, subj.word, subj.value, nt, other.value);
	if (r < 0) {
		sides_release(sd);
		state_free(st);
		return r;
	}
	return take_sides(s, wl, st, subj.word, sd);
}

/* The value set of RET A over a masked word: one leaf per distinct value. */
static int run_ret_word(struct symexec *s, size_t fi, struct state *st, struct sval a)
{
	struct wset *ws = &st->region.w[a.word];
	int r;
	for (unsigned count = 0;; count++) {
		uint32_t x;
		r = wset_next(ws, 0, &x);
		if (r <= 0)
			break;
		if (count == RET_A_LIMIT) {
			scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(st->pc), "analysis-too-big",
				     NULL, "filter %zu: RET A of a loaded word with more than %u values",
				     fi, RET_A_LIMIT);
			r = -E2BIG;
			break;
		}
		uint32_t v = x & a.value;
		struct wset rest;
		r = wset_copy(&rest, ws);
		if (r < 0)
			break;
		r = apply_simple(ws, a.value, REL_EQ, v);
		if (r == 0)
			r = leaf(s, fi, st->pc, &st->region, st->unchecked || st->region.nconds, v);
		wset_release(ws);
		*ws = rest;
		if (r == 0 || analysis_stopped(r)) {
			int e = wset_exclude(ws, a.value, v);
			if (r != 0 && e == 0 && r == s->run->stop && wset_next(ws, 0, &x) > 0)
				run_undecided(s->run, &st->region); /* the values not reached */
			if (r == 0)
				r = e;
		}
		if (r != 0)
			break;
	}
	return r;
}

/* --- arithmetic --------------------------------------------------------------------- */

/* 32-bit ALU on constants, as the kernel does; false for division by zero. */
static bool alu_const(uint16_t op, uint32_t a, uint32_t b, uint32_t *out)
{
	switch (op) {
	case BPF_ADD: *out = a + b; break;
	case BPF_SUB: *out = a - b; break;
	case BPF_MUL: *out = a * b; break;
	case BPF_DIV:
		if (!b)
			return false;
		*out = a / b;
		break;
	case BPF_OR: *out = a | b; break;
	case BPF_AND: *out = a & b; break;
	case BPF_XOR: *out = a ^ b; break;
	case BPF_LSH: *out = a << (b & 31); break;
	case BPF_RSH: *out = a >> (b & 31); break;
	case BPF_NEG: *out = -a; break;
	default: *out = 0; break;
	}
	return true;
}

/* Operations that leave a loaded word exactly as a masked word: 1 if handled. */
static int alu_word(uint16_t op, struct sval *a, struct sval b)
{
	if (a->kind == SV_WORD && b.kind == SV_CONST) {
		uint32_t c = b.value;
		if (op == BPF_AND) {
			*a = sv_word(a->word, a->value & c);
			return 1;
		}
		bool identity = ((op == BPF_ADD || op == BPF_SUB || op == BPF_OR || op == BPF_XOR ||
				  op == BPF_LSH || op == BPF_RSH) && c == 0) ||
				((op == BPF_MUL || op == BPF_DIV) && c == 1);
		if (identity)
			return 1;
		if (op == BPF_MUL && c == 0) {
			*a = sv_const(0);
			return 1;
		}
		return 0;
	}
	if (a->kind == SV_CONST && b.kind == SV_WORD) {
		if (op == BPF_AND) {
			*a = sv_word(b.word, b.value & a->value);
			return 1;
		}
		if (a->value == 0 && (op == BPF_ADD || op == BPF_OR || op == BPF_XOR)) {
			*a = b;
			return 1;
		}
		return 0;
	}
	if (op == BPF_AND && a->word == b.word) {
		*a = sv_word(a->word, a->value & b.value);
		return 1;
	}
	return 0;
}

/* Arithmetic the word sets cannot follow: A becomes a Z3 term. */
static int run_alu_general(struct symexec *s, size_t fi, size_t pc, struct frame *f, uint16_t op,
			   struct sval b)
{
	if (!need_smt(s))
		return no_smt();
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, f->a), y = term_of(s, b), r;
	switch (op) {
	case BPF_ADD: r = Z3_mk_bvadd(c, x, y); break;
	case BPF_SUB: r = Z3_mk_bvsub(c, x, y); break;
	case BPF_MUL: r = Z3_mk_bvmul(c, x, y); break;
	case BPF_DIV: r = Z3_mk_bvudiv(c, x, y); break; /* a zero divisor was split off before */
	case BPF_OR: r = Z3_mk_bvor(c, x, y); break;
	case BPF_AND: r = Z3_mk_bvand(c, x, y); break;
	case BPF_XOR: r = Z3_mk_bvxor(c, x, y); break;
	/* shift counts are taken modulo 32, as the interpreter does */
	case BPF_LSH: r = Z3_mk_bvshl(c, x, Z3_mk_bvand(c, y, smt_const(s->smt, 31))); break;
	case BPF_RSH: r = Z3_mk_bvlshr(c, x, Z3_mk_bvand(c, y, smt_const(s->smt, 31))); break;
	case BPF_NEG: r = Z3_mk_bvneg(c, x); break;
	default:
		return unsupported(s, fi, pc, "an ALU operation seccomp does not allow");
	}
	f->a = sv_term(r, words_of(f->a) | words_of(b));
	return 0;
}

/* 0: done; 1: division by zero (the filter returns 0); negative: error. */
static int run_alu(struct symexec *s, size_t fi, size_t pc, struct frame *f)
{
	const struct scg_insn *in = &s->progs[fi].insns[pc];
	uint16_t op = BPF_OP(in->code);
	struct sval b = BPF_SRC(in->code) == BPF_X ? f->x : sv_const(in->k);
	if (op == BPF_NEG)
		b = sv_const(0);
	if (f->a.kind == SV_CONST && b.kind == SV_CONST) {
		uint32_t v;
		if (!alu_const(op, f->a.value, b.value, &v))
			return 1;
		f->a = sv_const(v);
		return 0;
	}
	if (op != BPF_NEG && f->a.kind != SV_TERM && b.kind != SV_TERM && alu_word(op, &f->a, b))
		return 0;
	return run_alu_general(s, fi, pc, f, op, b);
}

static void run_load(const struct scg_insn *in, struct frame *f)
{
	struct sval *dst = BPF_CLASS(in->code) == BPF_LD ? &f->a : &f->x;
	switch (BPF_MODE(in->code)) {
	case BPF_ABS:
		*dst = sv_word(in->k / 4, UINT32_MAX);
		break;
	case BPF_LEN:
		*dst = sv_const(SCG_DATA_SIZE);
		break;
	case BPF_MEM:
		*dst = f->mem[in->k % SCG_BPF_MEMWORDS];
		break;
	default:
		*dst = sv_const(in->k);
		break;
	}
}

/* --- the walk ----------------------------------------------------------------------- */

/* RET: the leaves of @st.  Consumes nothing; 0 or an error. */
static int run_ret(struct symexec *s, size_t fi, struct state *st)
{
	const struct scg_insn *in = &s->progs[fi].insns[st->pc];
	if (BPF_RVAL(in->code) == BPF_K)
		return leaf(s, fi, st->pc, &st->region, st->unchecked, in->k);
	if (st->f.a.kind == SV_CONST)
		return leaf(s, fi, st->pc, &st->region, st->unchecked, st->f.a.value);
	if (st->f.a.kind == SV_TERM)
		return run_ret_term(s, fi, st, st->f.a.term, st->f.a.value);
	return run_ret_word(s, fi, st, st->f.a);
}

/*
 * Runs @st from its instruction until it returns, forks, or reaches a join
 * (where it waits in @wl for the other paths).  Consumes @st.
 */
static int exec(struct symexec *s, size_t fi, struct worklist *wl, struct state *st)
{
	const struct scg_prog *p = &s->progs[fi];
	const bool *join = s->info[fi].join;
	s->run->stats.states++;
	for (bool first = true;; first = false) {
		size_t pc = st->pc;
		if (pc >= p->len) {
			state_free(st);
			return -EINVAL; /* unreachable for a verified program */
		}
		if (!first && join[pc])
			return wl_push(wl, st);
		const struct scg_insn *in = &p->insns[pc];
		if (s->reached && fi == 0)
			s->reached[pc] = true;
		if (s->guide) {
			while (s->step < s->nguide && s->guide[s->step] != pc)
				s->step++;
		}
		int r;
		switch (BPF_CLASS(in->code)) {
		case BPF_LD:
		case BPF_LDX:
			run_load(in, &st->f);
			break;
		case BPF_ST:
			st->f.mem[in->k % SCG_BPF_MEMWORDS] = st->f.a;
			break;
		case BPF_STX:
			st->f.mem[in->k % SCG_BPF_MEMWORDS] = st->f.x;
			break;
		case BPF_ALU:
			if (BPF_OP(in->code) == BPF_DIV && BPF_SRC(in->code) == BPF_X &&
			    st->f.x.kind != SV_CONST) {
				r = run_div_split(s, fi, st);
				if (r <= 0) {
					state_free(st);
					return r;
				}
				break;
			}
			r = run_alu(s, fi, pc, &st->f);
			if (r != 0) {
				if (r == 1)
					r = leaf(s, fi, pc, &st->region, st->unchecked,
						 SCG_RET_KILL_THREAD);
				state_free(st);
				return r;
			}
			break;
		case BPF_JMP:
			if (BPF_OP(in->code) == BPF_JA) {
				st->pc = pc + 1 + in->k;
				continue;
			}
			r = run_jump(s, fi, wl, st);
			if (r == 1)
				continue;
			return r;
		case BPF_RET:
			r = run_ret(s, fi, st);
			state_free(st);
			return r;
		default: /* BPF_MISC */
			if (BPF_MISCOP(in->code) == BPF_TAX)
				st->f.x = st->f.a;
			else
				st->f.a = st->f.x;
			break;
		}
		st->pc = pc + 1;
	}
}

/* Reports every state left as undecided and frees them. */
static void drop_states(struct symexec *s, struct state **v, size_t n, bool report)
{
	for (size_t i = 0; i < n; i++) {
		if (report)
			run_undecided(s->run, &v[i]->region);
		state_free(v[i]);
	}
}

/* Walks filter @fi from @init (consumed) to every leaf. */
static int walk_filter(struct symexec *s, size_t fi, struct state *init)
{
	struct worklist wl = { 0 };
	struct state **batch = NULL;
	size_t nbatch = 0, cbatch = 0, next = 0;
	int r = wl_push(&wl, init);
	while (r == 0 && wl.n) {
		/* every state at the lowest instruction: all that will ever reach it */
		size_t pc = wl.heap[0]->pc;
		nbatch = next = 0;
		while (r == 0 && wl.n && wl.heap[0]->pc == pc) {
			if (nbatch == cbatch) {
				size_t cap = cbatch ? cbatch * 2 : 8;
				struct state **b = realloc(batch, sizeof(*b) * cap);
				if (!b) {
					r = -ENOMEM;
					break;
				}
				batch = b;
				cbatch = cap;
			}
			batch[nbatch++] = wl_pop(&wl);
		}
		if (r == 0)
			r = merge_batch(s, fi, batch, &nbatch);
		while (r == 0 && next < nbatch && (r = run_check(s->run)) == 0)
			r = exec(s, fi, &wl, batch[next++]);
		if (r != 0)
			break;
		nbatch = next = 0;
	}
	bool report = r != 0 && r == s->run->stop;
	drop_states(s, batch + next, nbatch - next, report);
	drop_states(s, wl.heap, wl.n, report);
	free(batch);
	free(wl.heap);
	return r;
}

int symexec_run(struct symexec *s)
{
	struct frame f;
	memset(&f, 0, sizeof(f));
	s->leaves = 0;
	s->run->stats.walks++;
	s->smt = s->region.smt ? smt_ref(s->region.smt) : NULL;
	s->info = calloc(s->n, sizeof(*s->info));
	s->sides = malloc(sizeof(*s->sides));
	int r = s->info && s->sides ? 0 : -ENOMEM;
	for (size_t i = 0; i < s->n && r == 0; i++)
		r = info_init(&s->info[i], &s->progs[i]);
	if (r == 0) {
		struct state *st = state_new(s, 0, &f, &s->region, false);
		r = st ? walk_filter(s, s->n - 1, st) : -ENOMEM;
	}
	for (size_t i = 0; s->info && i < s->n; i++)
		info_release(&s->info[i]);
	free(s->info);
	s->info = NULL;
	free(s->sides);
	s->sides = NULL;
	smt_unref(s->smt);
	s->smt = NULL;
	return r;
}
