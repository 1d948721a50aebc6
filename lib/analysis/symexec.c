/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Symbolic execution of seccomp filters.
 *
 * A and X (and the scratch words) are either a constant or "loaded word w
 * AND mask m".  Every conditional jump then compares one word's masked
 * value with a constant, which narrows that word's set exactly (wordset.c);
 * both sides are explored when both are possible.  Because programs only
 * jump forward, the walk ends, and the paths it finds are disjoint and
 * cover every input.  A stack is handled by starting the next (older)
 * filter at each leaf of the newer one on the same path condition.
 */
#include <errno.h>
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

enum sval_kind { SV_CONST, SV_WORD, SV_TERM };

struct sval {
	enum sval_kind kind;
	unsigned word;  /* SV_WORD */
	uint32_t value; /* SV_CONST: the value; SV_WORD: the mask */
	Z3_ast term;    /* SV_TERM: a Z3 bit-vector over the words */
};

struct frame {
	struct sval a, x, mem[SCG_BPF_MEMWORDS];
};

/* Relations of (word & mask) to a constant. */
enum rel { REL_EQ, REL_NE, REL_GT, REL_GE, REL_LT, REL_LE, REL_SET, REL_CLEAR };

static int run_filter(struct symexec *s, size_t fi, size_t pc, struct frame f);

static struct sval sv_const(uint32_t v)
{
	return (struct sval){ SV_CONST, 0, v, NULL };
}

static struct sval sv_word(unsigned word, uint32_t mask)
{
	return mask ? (struct sval){ SV_WORD, word, mask, NULL } : sv_const(0);
}

static struct sval sv_term(Z3_ast term)
{
	return (struct sval){ SV_TERM, 0, 0, term };
}

/* --- the general tier ------------------------------------------------------ */

static struct smt *need_smt(struct symexec *s)
{
	if (!s->smt)
		s->smt = s->region.smt ? smt_ref(s->region.smt) : smt_new();
	return s->smt;
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

/* Whether the region is still non-empty after a change: both tiers together. */
static int region_ok(struct symexec *s, unsigned word)
{
	if (s->region.nconds)
		return smt_solve(s->region.smt, &s->region, NULL);
	uint32_t any;
	return wset_next(&s->region.w[word], 0, &any);
}

/* Follows @target (or, with @leaf_value, returns it) under the extra condition @cond. */
static int follow_cond(struct symexec *s, size_t fi, size_t target, const struct frame *f,
		       Z3_ast cond, const uint32_t *leaf_value);

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

static int leaf(struct symexec *s, size_t fi, uint32_t ret)
{
	if (++s->leaves > LEAF_LIMIT) {
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "analysis-too-big", NULL,
			     "more than %lu regions", LEAF_LIMIT);
		return -E2BIG;
	}
	s->rets[fi] = ret;
	if (fi > 0) {
		struct frame f;
		memset(&f, 0, sizeof(f));
		return run_filter(s, fi - 1, 0, f);
	}
	if (!s->fn)
		return 0;
	return s->fn(s->ctx, &s->region, s->rets, symexec_winner(s->rets, s->n));
}

static int follow_cond(struct symexec *s, size_t fi, size_t target, const struct frame *f,
		       Z3_ast cond, const uint32_t *leaf_value)
{
	size_t saved = s->region.nconds;
	int r = region_add_cond(&s->region, s->smt, cond);
	if (r == 0)
		r = smt_solve(s->smt, &s->region, NULL);
	if (r > 0)
		r = leaf_value ? leaf(s, fi, *leaf_value) : run_filter(s, fi, target, *f);
	if (r == -E2BIG)
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(target), "analysis-too-big", NULL,
			     "filter %zu: the solver gave up on a condition", fi);
	s->region.nconds = saved;
	return r;
}

/* RET A of a computed value: one leaf per value it can take. */
static int run_ret_term(struct symexec *s, size_t fi, size_t pc, Z3_ast term)
{
	Z3_context c = s->smt->ctx;
	size_t saved = s->region.nconds;
	int r;
	for (unsigned count = 0;; count++) {
		uint32_t words[SCG_DATA_WORDS];
		r = smt_solve(s->smt, &s->region, words);
		if (r <= 0)
			break;
		if (count == RET_TERM_LIMIT) {
			scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(pc), "analysis-too-big", NULL,
				     "filter %zu: RET A of a computed value with more than %u values",
				     fi, RET_TERM_LIMIT);
			r = -E2BIG;
			break;
		}
		uint32_t v = smt_eval(s->smt, term, words);
		Z3_ast is_v = Z3_mk_eq(c, term, smt_const(s->smt, v));
		r = follow_cond(s, fi, pc, NULL, is_v, &v);
		if (r == 0)
			r = region_add_cond(&s->region, s->smt, Z3_mk_not(c, is_v));
		if (r != 0)
			break;
	}
	s->region.nconds = saved;
	return r;
}

/* DIV by an X that may be 0: the kernel then returns 0 (KILL_THREAD) at once. */
static int run_div_split(struct symexec *s, size_t fi, size_t pc, struct frame f)
{
	if (!need_smt(s))
		return scg_z3_load() < 0 ? -ENOSYS : -ENOMEM;
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, f.x);
	Z3_ast zero = Z3_mk_eq(c, x, smt_const(s->smt, 0));
	uint32_t killed = SCG_RET_KILL_THREAD;
	int r = follow_cond(s, fi, pc, NULL, zero, &killed);
	if (r != 0)
		return r;
	f.a = sv_term(Z3_mk_bvudiv(c, term_of(s, f.a), x));
	return follow_cond(s, fi, pc + 1, &f, Z3_mk_not(c, zero), NULL);
}

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

/* Follows @target with word @word narrowed by @narrow; restores the word afterwards. */
struct narrowing {
	uint32_t mask;
	enum rel rel;
	uint32_t k;
	bool pattern; /* fix (pmask, pvalue) instead of the relation */
	uint32_t pmask, pvalue;
};

static int follow(struct symexec *s, size_t fi, size_t target, const struct frame *f,
		  unsigned word, const struct narrowing *nw)
{
	struct wset saved;
	int r = wset_copy(&saved, &s->region.w[word]);
	if (r < 0)
		return r;
	struct wset *ws = &s->region.w[word];
	r = nw->pattern ? wset_fix_bits(ws, nw->pmask, nw->pvalue)
			: apply_simple(ws, nw->mask, nw->rel, nw->k);
	if (r == 0)
		r = region_ok(s, word);
	if (r > 0)
		r = run_filter(s, fi, target, *f);
	if (r == -E2BIG)
		scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(target), "analysis-too-big", NULL,
			     "filter %zu: the value set of word %u is too complex", fi, word);
	wset_release(ws);
	*ws = saved;
	return r;
}

/*
 * (w & mask) compared with k by an ordering, for a partial mask: the
 * values form up to 33 disjoint bit patterns, found by walking the bits
 * from the top and branching where the masked value first differs from k.
 */
static int follow_masked_order(struct symexec *s, size_t fi, size_t target, const struct frame *f,
			       unsigned word, uint32_t mask, enum rel rel, uint32_t k)
{
	bool greater = rel == REL_GT || rel == REL_GE;
	bool equal_ok = rel == REL_GE || rel == REL_LE;
	struct narrowing nw = { .pattern = true };
	uint32_t pm = 0, pv = 0;
	for (int b = 31; b >= 0; b--) {
		uint32_t bit = 1U << b;
		int r = 0;
		if (!(mask & bit)) {
			if (!(k & bit))
				continue;
			/* the masked value has 0 where k has 1: it is below k from here */
			if (!greater) {
				nw.pmask = pm, nw.pvalue = pv;
				r = follow(s, fi, target, f, word, &nw);
			}
			return r;
		}
		if ((k & bit) && !greater) {
			nw.pmask = pm | bit, nw.pvalue = pv;
			r = follow(s, fi, target, f, word, &nw);
		} else if (!(k & bit) && greater) {
			nw.pmask = pm | bit, nw.pvalue = pv | bit;
			r = follow(s, fi, target, f, word, &nw);
		}
		if (r != 0)
			return r;
		pm |= bit;
		pv |= k & bit;
	}
	if (!equal_ok)
		return 0;
	nw.pmask = pm, nw.pvalue = pv;
	return follow(s, fi, target, f, word, &nw);
}

static int follow_rel(struct symexec *s, size_t fi, size_t target, const struct frame *f,
		      unsigned word, uint32_t mask, enum rel rel, uint32_t k)
{
	bool order = rel == REL_GT || rel == REL_GE || rel == REL_LT || rel == REL_LE;
	if (order && mask != UINT32_MAX)
		return follow_masked_order(s, fi, target, f, word, mask, rel, k);
	struct narrowing nw = { .mask = mask, .rel = rel, .k = k };
	return follow(s, fi, target, f, word, &nw);
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
static int guided_side(struct symexec *s, size_t tpc, size_t fpc);

/* A jump on computed values or two words: Z3 decides each side. */
static int run_jump_general(struct symexec *s, size_t fi, size_t pc, const struct frame *f,
			    struct sval a, struct sval b)
{
	const struct scg_insn *in = &s->progs[fi].insns[pc];
	if (!need_smt(s))
		return scg_z3_load() < 0 ? -ENOSYS : -ENOMEM;
	Z3_context c = s->smt->ctx;
	Z3_ast x = term_of(s, a), y = term_of(s, b), cond;
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
	size_t tpc = pc + 1 + in->jt, fpc = pc + 1 + in->jf;
	int side = guided_side(s, tpc, fpc);
	int r = 0;
	if (side != 0)
		r = follow_cond(s, fi, tpc, f, cond, NULL);
	if (r == 0 && side != 1)
		r = follow_cond(s, fi, fpc, f, Z3_mk_not(c, cond), NULL);
	return r;
}


static int guided_side(struct symexec *s, size_t tpc, size_t fpc)
{
	if (!s->guide)
		return -1;
	if (s->step + 1 >= s->nguide)
		return -1;
	size_t next = s->guide[s->step + 1];
	return next == tpc ? 1 : next == fpc ? 0 : -1;
}

static int run_jump(struct symexec *s, size_t fi, size_t pc, const struct frame *f)
{
	const struct scg_insn *in = &s->progs[fi].insns[pc];
	uint16_t op = BPF_OP(in->code);
	size_t tpc = pc + 1 + in->jt, fpc = pc + 1 + in->jf;
	struct sval a = f->a;
	struct sval b = BPF_SRC(in->code) == BPF_X ? f->x : sv_const(in->k);
	if (tpc == fpc)
		return run_filter(s, fi, tpc, *f);
	if (a.kind == SV_CONST && b.kind == SV_CONST)
		return run_filter(s, fi, eval_jump(op, a.value, b.value) ? tpc : fpc, *f);
	bool swapped = a.kind == SV_CONST;
	struct sval subj = swapped ? b : a, other = swapped ? a : b;
	enum rel t, nt;
	if (a.kind == SV_TERM || b.kind == SV_TERM ||
	    (other.kind != SV_CONST && (other.word != subj.word || other.value != subj.value)))
		return run_jump_general(s, fi, pc, f, a, b);
	if (other.kind != SV_CONST) {
		/* the same masked word on both sides: y == y, y >= y always; y > y never */
		if (op != BPF_JSET)
			return run_filter(s, fi, op == BPF_JGT ? fpc : tpc, *f);
		t = REL_NE, nt = REL_EQ, other.value = 0;
	} else {
		jump_relations(op, swapped, &t, &nt);
	}
	int side = guided_side(s, tpc, fpc);
	int r = 0;
	if (side != 0)
		r = follow_rel(s, fi, tpc, f, subj.word, subj.value, t, other.value);
	if (r == 0 && side != 1)
		r = follow_rel(s, fi, fpc, f, subj.word, subj.value, nt, other.value);
	return r;
}

/* The value set of RET A over a masked word: one leaf per distinct value. */
static int run_ret_word(struct symexec *s, size_t fi, size_t pc, struct sval a)
{
	struct wset saved;
	int r = wset_copy(&saved, &s->region.w[a.word]);
	if (r < 0)
		return r;
	struct wset *ws = &s->region.w[a.word];
	for (unsigned count = 0;; count++) {
		uint32_t x;
		r = wset_next(ws, 0, &x);
		if (r <= 0)
			break;
		if (count == RET_A_LIMIT) {
			scg_diag_add(s->diag, SCG_SEV_ERROR, SCG_LOC_INSN(pc), "analysis-too-big", NULL,
				     "filter %zu: RET A of a loaded word with more than %u values", fi,
				     RET_A_LIMIT);
			r = -E2BIG;
			break;
		}
		uint32_t v = x & a.value;
		struct wset before;
		r = wset_copy(&before, ws);
		if (r < 0)
			break;
		r = apply_simple(ws, a.value, REL_EQ, v);
		int ok = r == 0 && s->region.nconds ? region_ok(s, a.word) : 1;
		if (r == 0 && ok > 0)
			r = leaf(s, fi, v);
		else if (r == 0 && ok < 0)
			r = ok;
		wset_release(ws);
		*ws = before;
		if (r == 0)
			r = wset_exclude(ws, a.value, v);
		if (r != 0)
			break;
	}
	wset_release(ws);
	*ws = saved;
	return r;
}

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
		return scg_z3_load() < 0 ? -ENOSYS : -ENOMEM;
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
	f->a = sv_term(r);
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

static int run_filter(struct symexec *s, size_t fi, size_t pc, struct frame f)
{
	const struct scg_prog *p = &s->progs[fi];
	for (; pc < p->len; pc++) {
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
			run_load(in, &f);
			break;
		case BPF_ST:
			f.mem[in->k % SCG_BPF_MEMWORDS] = f.a;
			break;
		case BPF_STX:
			f.mem[in->k % SCG_BPF_MEMWORDS] = f.x;
			break;
		case BPF_ALU:
			if (BPF_OP(in->code) == BPF_DIV && BPF_SRC(in->code) == BPF_X &&
			    f.x.kind != SV_CONST)
				return run_div_split(s, fi, pc, f);
			r = run_alu(s, fi, pc, &f);
			if (r != 0)
				return r == 1 ? leaf(s, fi, SCG_RET_KILL_THREAD) : r;
			break;
		case BPF_JMP:
			if (BPF_OP(in->code) == BPF_JA) {
				pc += in->k;
				break;
			}
			return run_jump(s, fi, pc, &f);
		case BPF_RET:
			if (BPF_RVAL(in->code) == BPF_K)
				return leaf(s, fi, in->k);
			if (f.a.kind == SV_CONST)
				return leaf(s, fi, f.a.value);
			if (f.a.kind == SV_TERM)
				return run_ret_term(s, fi, pc, f.a.term);
			return run_ret_word(s, fi, pc, f.a);
		default: /* BPF_MISC */
			if (BPF_MISCOP(in->code) == BPF_TAX)
				f.x = f.a;
			else
				f.a = f.x;
			break;
		}
	}
	return -EINVAL; /* unreachable for a verified program */
}

int symexec_run(struct symexec *s)
{
	struct frame f;
	memset(&f, 0, sizeof(f));
	s->leaves = 0;
	int r = run_filter(s, s->n - 1, 0, f);
	smt_unref(s->smt);
	s->smt = NULL;
	return r;
}
