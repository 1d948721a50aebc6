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
 * The walk is depth first: at a fork the state narrows its region to one
 * way, goes on, and is restored for the next.  Programs only jump forward,
 * so at an instruction where paths meet (a join) a copy of the state waits
 * in a list ordered by instruction: when the walk takes that instruction up,
 * every state that will ever reach it is there.  A state arriving at a
 * join is merged with one waiting there whose live registers agree, when
 * the union of their regions is a region, so a chain of tests whose two
 * sides meet again costs a few states per test instead of one walk per
 * path.  The leaves still partition the input: regions only split at a
 * fork and join again at a merge.  A join where many states arrived and
 * none merged is walked through from then on (paths that never meet in
 * one state cost no copies).
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
#include "util/grow.h"
#include "util/hashmap.h"

/* Leaves (regions times filters) one walk may produce before -E2BIG. */
#define LEAF_LIMIT (1UL << 24)
/* Distinct values of RET A over a loaded word before -E2BIG. */
#define RET_A_LIMIT 1024U
/* The same for a computed value: each one costs a solver call. */
#define RET_TERM_LIMIT 64U
/* States of one join a new arrival is compared with for a merge. */
#define MERGE_TRIES 256U
/* Arrivals at a join without a merge after which it is walked through. */
#define DEAD_JOIN 64U

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

struct state {
	size_t pc;
	uint64_t seq;  /* creation order: ties at one instruction keep it */
	uint64_t hash; /* of the live registers, while its join is merged */
	struct frame f;
	struct scg_region region;
	/* the word sets changed since the general conditions were last decided with them */
	bool unchecked;
};

/* The states waiting at one join. */
struct bucket {
	size_t pc;
	struct state **v;
	size_t n, cap;
	size_t arrivals, merges;
};

/* One filter's walk: the joins where states wait, by instruction. */
struct walk {
	size_t fi;
	const struct prog_info *info;
	struct bucket **at; /* per instruction: its bucket while states wait there */
	struct bucket **heap;
	size_t nheap, cheap;
};

/* Relations of (word & mask) to a constant. */
enum rel { REL_EQ, REL_NE, REL_GT, REL_GE, REL_LT, REL_LE, REL_SET, REL_CLEAR };

static int walk_filter(struct symexec *s, size_t fi, struct state *init);
static int run_from(struct symexec *s, struct walk *w, struct state *st, bool first);

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
	info->insns = p->insns;
	info->len = len;
	info->join = calloc(len ? len : 1, sizeof(*info->join));
	info->dead = calloc(len ? len : 1, sizeof(*info->dead));
	info->live = calloc(len ? len : 1, sizeof(*info->live));
	if (!edges || !info->join || !info->dead || !info->live) {
		free(edges);
		free(info->join);
		free(info->dead);
		free(info->live);
		info->join = info->dead = NULL;
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
	free(info->dead);
	free(info->live);
}

/* The shape of @p, worked out once per run (the run's walks learn which joins are dead). */
static const struct prog_info *run_info(struct analysis_run *run, const struct scg_prog *p)
{
	for (size_t i = 0; i < run->ninfos; i++)
		if (run->infos[i]->insns == p->insns && run->infos[i]->len == p->len)
			return run->infos[i];
	/* each apart: walks under way hold pointers to the others */
	if (RESIZE_ARRAY(&run->infos, run->ninfos + 1))
		return NULL;
	struct prog_info *info = malloc(sizeof(*info));
	if (!info || info_init(info, p) < 0) {
		free(info);
		return NULL;
	}
	return run->infos[run->ninfos++] = info;
}

void symexec_release_infos(struct analysis_run *run)
{
	for (size_t i = 0; i < run->ninfos; i++) {
		info_release(run->infos[i]);
		free(run->infos[i]);
	}
	free(run->infos);
	run->infos = NULL;
	run->ninfos = 0;
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

/* The bucket of @pc, made (and queued by instruction) on first use.  NULL: no memory. */
static struct bucket *bucket_at(struct walk *w, size_t pc)
{
	if (w->at[pc])
		return w->at[pc];
	if (GROW_ARRAY(&w->heap, &w->cheap, w->nheap + 1, 16))
		return NULL;
	struct bucket *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->pc = pc;
	size_t i = w->nheap++;
	while (i > 0 && pc < w->heap[(i - 1) / 2]->pc) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = b;
	w->at[pc] = b;
	return b;
}

/* The bucket of the lowest instruction, out of the queue. */
static struct bucket *bucket_pop(struct walk *w)
{
	struct bucket *top = w->heap[0], *last = w->heap[--w->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->nheap)
			break;
		if (c + 1 < w->nheap && w->heap[c + 1]->pc < w->heap[c]->pc)
			c++;
		if (w->heap[c]->pc >= last->pc)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->nheap)
		w->heap[i] = last;
	w->at[top->pc] = NULL;
	return top;
}

/* Frees @b and its states, reporting those from @from on as undecided when @report. */
static void bucket_drop(struct symexec *s, struct bucket *b, size_t from, bool report)
{
	for (size_t i = 0; i < b->n; i++) {
		if (report && i >= from)
			run_undecided(s->run, &b->v[i]->region);
		state_free(b->v[i]);
	}
	free(b->v);
	free(b);
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
		h = hash_combine(h, parts[i]);
	return h;
}

/* A hash of the live registers: states that can merge have the same. */
static uint64_t frame_hash(const struct frame *f, uint32_t live)
{
	uint64_t h = 0;
	if (live & LIVE_A)
		h = hash_sval(h, &f->a);
	if (live & LIVE_X)
		h = hash_sval(h, &f->x);
	for (unsigned i = 0; i < SCG_BPF_MEMWORDS; i++)
		if (live & LIVE_MEM(i))
			h = hash_sval(h, &f->mem[i]);
	return h;
}

/*
 * A copy of @cur waits at its join: merged into a state already there when
 * they can be one (and the result again, while it merges), else added.
 * 0 or -ENOMEM.
 */
static int park(struct symexec *s, struct walk *w, const struct state *cur)
{
	struct bucket *b = bucket_at(w, cur->pc);
	struct state *st = b ? state_new(s, cur->pc, &cur->f, &cur->region, cur->unchecked) : NULL;
	if (!st)
		return -ENOMEM;
	uint32_t live = w->info->live[cur->pc];
	st->hash = frame_hash(&st->f, live);
	b->arrivals++;
	for (bool merged = true; merged;) {
		merged = false;
		size_t from = b->n > MERGE_TRIES ? b->n - MERGE_TRIES : 0;
		for (size_t j = b->n; j-- > from && !merged;) {
			struct state *o = b->v[j];
			if (o->hash != st->hash || !frame_equal(&o->f, &st->f, live))
				continue;
			int r = region_merge(&o->region, &st->region);
			if (r < 0) {
				state_free(st);
				return r;
			}
			if (r == 0)
				continue;
			/* the union is non-empty when either part is known to be */
			o->unchecked = o->unchecked && st->unchecked;
			state_free(st);
			st = o;
			memmove(b->v + j, b->v + j + 1, sizeof(*b->v) * (b->n - j - 1));
			b->n--;
			b->merges++;
			s->run->stats.merges++;
			merged = true;
		}
	}
	if (GROW_ARRAY(&b->v, &b->cap, b->n + 1, 4)) {
		state_free(st);
		return -ENOMEM;
	}
	b->v[b->n++] = st;
	/* paths that do not meet in one state here: later ones walk through */
	if (!b->merges && b->arrivals >= DEAD_JOIN)
		w->info->dead[cur->pc] = true;
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
	return z3_load() < 0 ? -ENOSYS : -ENOMEM;
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
	/*
	 * The input that showed the region non-empty before its last narrowing
	 * often still lies in it (one way of every fork keeps it): evaluating
	 * the conditions on it costs far less than a solver.
	 */
	if (region->has_hint && scg_region_contains(region, region->hint))
		return 1;
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

/* What a fork restores after each way: all a way may change of the state. */
struct saved {
	size_t pc;
	struct frame f;
	bool unchecked, has_hint;
	size_t nconds;
	uint32_t cond_words, hint[SCG_DATA_WORDS];
	int word; /* the word the ways narrow (its set below), or -1 */
	struct wset ws;
};

/* Saves @st (and word @word's set, when >= 0).  NULL on allocation failure. */
static struct saved *save_state(const struct state *st, int word)
{
	struct saved *sv = malloc(sizeof(*sv));
	if (!sv)
		return NULL;
	sv->pc = st->pc;
	sv->f = st->f;
	sv->unchecked = st->unchecked;
	sv->has_hint = st->region.has_hint;
	sv->nconds = st->region.nconds;
	sv->cond_words = st->region.cond_words;
	memcpy(sv->hint, st->region.hint, sizeof(sv->hint));
	sv->word = word;
	if (word >= 0 && wset_copy(&sv->ws, &st->region.w[word]) < 0) {
		free(sv);
		return NULL;
	}
	return sv;
}

/* Puts @st back as saved; with @last the saved set moves back (then @sv is freed). */
static int restore_state(struct state *st, struct saved *sv, bool last)
{
	int r = 0;
	st->pc = sv->pc;
	st->f = sv->f;
	st->unchecked = sv->unchecked;
	st->region.has_hint = sv->has_hint;
	st->region.nconds = sv->nconds;
	st->region.cond_words = sv->cond_words;
	memcpy(st->region.hint, sv->hint, sizeof(sv->hint));
	if (sv->word >= 0) {
		struct wset *ws = &st->region.w[sv->word];
		wset_release(ws);
		if (last)
			*ws = sv->ws;
		else
			r = wset_copy(ws, &sv->ws);
	}
	if (last)
		free(sv);
	return r;
}

/* The value set of RET A over a computed value: one leaf per value it can take. */
static int run_ret_term(struct symexec *s, size_t fi, struct state *st, Z3_ast term,
			uint32_t term_words)
{
	Z3_context c = s->smt->ctx;
	struct smt_enum values;
	size_t nconds = st->region.nconds;
	uint32_t cond_words = st->region.cond_words;
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
	st->region.nconds = nconds;
	st->region.cond_words = cond_words;
	return r;
}

/*
 * DIV by an X that may be 0: the kernel then returns 0 (KILL_THREAD) at
 * once; the other inputs go on with A divided.  Walks both; 0 or an error.
 */
static int run_div_split(struct symexec *s, struct walk *w, struct state *st)
{
	if (!need_smt(s))
		return no_smt();
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, st->f.x);
	uint32_t words = words_of(st->f.x);
	Z3_ast zero = Z3_mk_eq(c, x, smt_const(s->smt, 0));
	struct saved *sv = save_state(st, -1);
	if (!sv)
		return -ENOMEM;
	int r = 0, ok = add_cond(s, st, zero, words);
	if (ok > 0)
		r = leaf(s, w->fi, st->pc, &st->region, false, SCG_RET_KILL_THREAD);
	else if (ok < 0 && (r = ok) == s->run->stop)
		run_undecided(s->run, &st->region);
	solver_gave_up(s, w->fi, st->pc, ok);
	restore_state(st, sv, false);
	if (r != 0) {
		/* the other side was not looked at */
		if (r == s->run->stop &&
		    region_add_cond(&st->region, s->smt, Z3_mk_not(c, zero), words) == 0)
			run_undecided(s->run, &st->region);
		restore_state(st, sv, true);
		return r;
	}
	ok = add_cond(s, st, Z3_mk_not(c, zero), words);
	if (ok < 0 && (r = ok) == s->run->stop)
		run_undecided(s->run, &st->region);
	solver_gave_up(s, w->fi, st->pc, ok);
	if (ok > 0) {
		st->f.a = sv_term(Z3_mk_bvudiv(c, term_of(s, st->f.a), x), words | words_of(st->f.a));
		st->pc++;
		r = run_from(s, w, st, false);
	}
	restore_state(st, sv, true);
	return r;
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

/* The ways out of one jump (two relations of up to 33 patterns each), each with its set. */
struct sides {
	struct side *v, two[2];
	size_t n, cap;
};

static void sides_release(struct sides *sd)
{
	for (size_t i = 0; i < sd->n; i++)
		wset_release(&sd->v[i].ws);
	if (sd->v != sd->two)
		free(sd->v);
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
	if (sd->n == sd->cap) {
		/* the first two sides live in the struct itself */
		size_t cap = grow_capacity(sd->cap, sd->n + 1, 2, sizeof(*sd->v));
		if (!cap)
			return -ENOMEM;
		if (sd->v != sd->two) {
			if (RESIZE_ARRAY(&sd->v, cap))
				return -ENOMEM;
		} else {
			struct side *v = malloc(sizeof(*v) * cap);
			if (!v)
				return -ENOMEM;
			memcpy(v, sd->two, sizeof(sd->two));
			sd->v = v;
		}
		sd->cap = cap;
	}
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

/*
 * Where @pc is on the guided run (its instructions only go forward), or
 * past its end: the walk comes back to earlier instructions after each
 * way of a fork, so it is looked up, not followed.
 */
static size_t guide_index(const struct symexec *s, size_t pc)
{
	size_t lo = 0, hi = s->nguide;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->guide[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nguide && s->guide[lo] == pc ? lo : s->nguide;
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
 * Walks @st along each of @sd in turn, its word @word narrowed to the way's
 * set, and restores it after each.  With general conditions the solver
 * decides each way with them, at once in path and reachability modes (a
 * step into nothing is no step there), else at the next question or the
 * leaf.  0 or an error; out of budget, the ways not walked are reported.
 */
static int fork_sides(struct symexec *s, struct walk *w, struct state *st, unsigned word,
		      struct sides *sd)
{
	bool ask = st->region.nconds && (s->reached || s->guide);
	bool lazy = st->region.nconds && !ask;
	struct saved *sv = save_state(st, (int)word);
	if (!sv) {
		sides_release(sd);
		return -ENOMEM;
	}
	int r = 0;
	for (size_t i = 0; i < sd->n; i++) {
		bool last = i + 1 == sd->n;
		if (r == 0)
			r = run_check(s->run);
		wset_release(&st->region.w[word]);
		st->region.w[word] = sd->v[i].ws;
		sd->v[i].ws = (struct wset){ 0 };
		st->pc = sd->v[i].target;
		st->unchecked = st->unchecked || lazy;
		if (r == 0 && ask) {
			int ok = region_solve(s, &st->region);
			st->unchecked = false;
			if (ok <= 0)
				r = ok;
			if (ok == 0) {
				int e = restore_state(st, sv, last);
				if (e < 0)
					r = e;
				continue;
			}
		}
		if (r == 0)
			r = run_from(s, w, st, false);
		else if (r == s->run->stop)
			run_undecided(s->run, &st->region); /* a way not walked */
		int e = restore_state(st, sv, last);
		if (r == 0 && e < 0)
			r = e;
	}
	sides_release(sd);
	return r;
}

/* A jump on computed values or two words: Z3 decides each side. */
static int run_jump_general(struct symexec *s, struct walk *w, struct state *st, struct sval a,
			    struct sval b)
{
	const struct scg_insn *in = &s->progs[w->fi].insns[st->pc];
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
	struct saved *sv = save_state(st, -1);
	if (!sv)
		return -ENOMEM;
	int r = 0;
	for (int taken = 1; taken >= 0; taken--) {
		if (side == !taken)
			continue;
		if (r == 0)
			r = run_check(s->run);
		int ok = 1;
		if (r == 0) {
			ok = add_cond(s, st, taken ? cond : Z3_mk_not(c, cond), words);
			solver_gave_up(s, w->fi, taken ? tpc : fpc, ok);
			if (ok < 0)
				r = ok;
		} else if (r == s->run->stop) {
			/* a side not walked */
			if (region_add_cond(&st->region, s->smt, taken ? cond : Z3_mk_not(c, cond),
					    words) == 0)
				run_undecided(s->run, &st->region);
		}
		if (r == 0 && ok > 0) {
			st->pc = taken ? tpc : fpc;
			r = run_from(s, w, st, false);
		} else if (r != 0 && analysis_stopped(ok)) {
			run_undecided(s->run, &st->region);
		}
		restore_state(st, sv, false);
	}
	restore_state(st, sv, true);
	return r;
}

/*
 * A conditional jump.  *@go_on when it did not fork: @st goes on at st->pc.
 * Else the ways were walked: 0, or an error or a callback's value.
 */
static int run_jump(struct symexec *s, struct walk *w, struct state *st, bool *go_on)
{
	*go_on = true;
	const struct scg_insn *in = &s->progs[w->fi].insns[st->pc];
	uint16_t op = BPF_OP(in->code);
	size_t tpc = st->pc + 1 + in->jt, fpc = st->pc + 1 + in->jf;
	struct sval a = st->f.a;
	struct sval b = BPF_SRC(in->code) == BPF_X ? st->f.x : sv_const(in->k);
	if (tpc == fpc) {
		st->pc = tpc;
		return 0;
	}
	if (a.kind == SV_CONST && b.kind == SV_CONST) {
		st->pc = eval_jump(op, a.value, b.value) ? tpc : fpc;
		return 0;
	}
	bool swapped = a.kind == SV_CONST;
	struct sval subj = swapped ? b : a, other = swapped ? a : b;
	enum rel t, nt;
	*go_on = false;
	if (a.kind == SV_TERM || b.kind == SV_TERM ||
	    (other.kind != SV_CONST && (other.word != subj.word || other.value != subj.value)))
		return run_jump_general(s, w, st, a, b);
	if (other.kind != SV_CONST) {
		/* the same masked word on both sides: y == y, y >= y always; y > y never */
		if (op != BPF_JSET) {
			st->pc = op == BPF_JGT ? fpc : tpc;
			*go_on = true;
			return 0;
		}
		t = REL_NE, nt = REL_EQ, other.value = 0;
	} else {
		jump_relations(op, swapped, &t, &nt);
	}
	int side = guided_side(s, tpc, fpc);
	struct sides sd = { .n = 0, .cap = 2 };
	sd.v = sd.two;
	const struct wset *ws = &st->region.w[subj.word];
	int r = 0;
	if (side != 0)
		r = rel_sides(s, w->fi, &sd, tpc, ws, subj.word, subj.value, t, other.value);
	if (r == 0 && side != 1)
		r = rel_sides(s, w->fi, &sd, fpc, ws, subj.word, subj.value, nt, other.value);
	if (r < 0) {
		sides_release(&sd);
		return r;
	}
	/* one way too: the word's set is narrowed for the walk below, then put back */
	return fork_sides(s, w, st, subj.word, &sd);
}

/* The value set of RET A over a masked word: one leaf per distinct value. */
static int run_ret_word(struct symexec *s, size_t fi, struct state *st, struct sval a)
{
	struct wset *ws = &st->region.w[a.word], saved;
	int r = wset_copy(&saved, ws);
	if (r < 0)
		return r;
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
	wset_release(ws);
	*ws = saved; /* the state is walked on along other ways */
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
	/* a divisor known to be 0 ends the filter whatever A is, as in the emulator */
	if (op == BPF_DIV && b.kind == SV_CONST && b.value == 0)
		return 1;
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

/*
 * Word @i as a value: a constant where @region leaves it one value (as in
 * a survey of one syscall), so what the filter computes from it folds
 * instead of reaching the solver.
 */
static struct sval load_word(const struct scg_region *region, unsigned i)
{
	const struct wset *ws = &region->w[i];
	if (ws->niv == 1 && ws->iv[0].lo == ws->iv[0].hi && wset_contains(ws, ws->iv[0].lo))
		return sv_const(ws->iv[0].lo);
	return sv_word(i, UINT32_MAX);
}

static void run_load(const struct scg_insn *in, const struct scg_region *region, struct frame *f)
{
	struct sval *dst = BPF_CLASS(in->code) == BPF_LD ? &f->a : &f->x;
	switch (BPF_MODE(in->code)) {
	case BPF_ABS:
		*dst = load_word(region, in->k / 4);
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

/* RET: the leaves of @st; 0 or an error. */
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
 * Walks @st from its instruction: on to the returns, through every fork
 * (each way in turn, @st restored after each), up to the joins, where a
 * copy waits for the other paths (unless @first: @st was taken up there).
 * Changes @st (its caller puts it back or frees it).  0 or an error; out of
 * budget, what it did not decide has been reported.
 */
static int run_from(struct symexec *s, struct walk *w, struct state *st, bool first)
{
	const struct scg_prog *p = &s->progs[w->fi];
	size_t fi = w->fi;
	s->run->stats.states++;
	for (;; first = false) {
		size_t pc = st->pc;
		if (pc >= p->len)
			return -EINVAL; /* unreachable for a verified program */
		if (!first && w->info->join[pc] && !w->info->dead[pc])
			return park(s, w, st);
		const struct scg_insn *in = &p->insns[pc];
		if (s->reached && fi == 0)
			s->reached[pc] = true;
		if (s->guide)
			s->step = guide_index(s, pc);
		int r;
		switch (BPF_CLASS(in->code)) {
		case BPF_LD:
		case BPF_LDX:
			run_load(in, &st->region, &st->f);
			break;
		case BPF_ST:
			st->f.mem[in->k % SCG_BPF_MEMWORDS] = st->f.a;
			break;
		case BPF_STX:
			st->f.mem[in->k % SCG_BPF_MEMWORDS] = st->f.x;
			break;
		case BPF_ALU:
			if (BPF_OP(in->code) == BPF_DIV && BPF_SRC(in->code) == BPF_X &&
			    st->f.x.kind != SV_CONST)
				return run_div_split(s, w, st);
			r = run_alu(s, fi, pc, &st->f);
			if (r == 1)
				return leaf(s, fi, pc, &st->region, st->unchecked, SCG_RET_KILL_THREAD);
			if (r < 0)
				return r;
			break;
		case BPF_JMP:
			if (BPF_OP(in->code) == BPF_JA) {
				st->pc = pc + 1 + in->k;
				continue;
			}
			bool go_on;
			r = run_jump(s, w, st, &go_on);
			if (go_on)
				continue;
			return r;
		case BPF_RET:
			return run_ret(s, fi, st);
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

/* Walks filter @fi from @init (consumed) to every leaf, joins in the order of their instructions. */
static int walk_filter(struct symexec *s, size_t fi, struct state *init)
{
	struct walk w = { .fi = fi, .info = s->info[fi] };
	w.at = calloc(s->progs[fi].len ? s->progs[fi].len : 1, sizeof(*w.at));
	int r = w.at ? run_from(s, &w, init, true) : -ENOMEM;
	state_free(init);
	while (w.nheap) {
		struct bucket *b = bucket_pop(&w);
		size_t i = 0;
		for (; r == 0 && i < b->n; i++) {
			r = run_check(s->run);
			if (r == 0)
				r = run_from(s, &w, b->v[i], true);
			else
				i--; /* not walked: reported with the rest */
		}
		bucket_drop(s, b, i, r != 0 && r == s->run->stop);
	}
	free(w.heap);
	free(w.at);
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
	int r = s->info ? 0 : -ENOMEM;
	for (size_t i = 0; i < s->n && r == 0; i++)
		if (!(s->info[i] = run_info(s->run, &s->progs[i])))
			r = -ENOMEM;
	if (r == 0) {
		struct state *st = state_new(s, 0, &f, &s->region, false);
		r = st ? walk_filter(s, s->n - 1, st) : -ENOMEM;
	}
	free(s->info);
	s->info = NULL;
	smt_unref(s->smt);
	s->smt = NULL;
	return r;
}
