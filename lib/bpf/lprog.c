/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Labelled programs and their resolution into offsets (see lprog.h).
 *
 * Resolution gives every conditional branch out of reach a trampoline (or
 * shares one already in reach), lays the program out again, and repeats:
 * each insertion lengthens some forward jumps and never shortens one, so
 * either every branch fits or the program grows past the kernel's limit and
 * is refused.  A trampoline only ever follows an instruction that never
 * falls through (a jump or a return), so inserting it changes no path;
 * offsets the caller gave by number (lprog_offset(), lprog_raw()) are
 * written as given and do not follow.  Where trampolines go is decided in
 * two ways (see "resolution" below) and the shorter result is kept.
 */
#include "bpf/lprog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/opcodes.h"
#include "util/grow.h"

#define UNBOUND UINT32_MAX
#define FIXED (UINT32_MAX - 1) /* an lprog_offset(): no position, a number */
#define NO_TRAMP UINT32_MAX
/* Growth allowed while iterating before giving up (the result must fit 4096 anyway). */
#define WORK_LIMIT (2 * SCG_BPF_MAXINSNS)

enum lp_kind { LP_STMT, LP_JA, LP_JCOND, LP_RAW };

struct lp_insn {
	uint16_t code;
	uint8_t kind;
	uint8_t jt, jf; /* LP_RAW only */
	uint32_t k;
	lprog_label target[2]; /* JA: [0]; JCOND: true, false */
	long tag;
};

struct lp_label {
	uint32_t at;     /* index of the instruction it names (len: the end), UNBOUND or FIXED */
	uint32_t offset; /* FIXED only */
};

struct lprog {
	struct lp_insn *insns;
	size_t len, cap;
	struct lp_label *labels;
	size_t nlabels, labels_cap;
	long tag;
	unsigned flags;
	int err;
};

struct lprog *lprog_new(void)
{
	return calloc(1, sizeof(struct lprog));
}

void lprog_free(struct lprog *lp)
{
	if (!lp)
		return;
	free(lp->insns);
	free(lp->labels);
	free(lp);
}

static void set_error(struct lprog *lp, int err)
{
	if (!lp->err)
		lp->err = err;
}

void lprog_set_flags(struct lprog *lp, unsigned flags)
{
	lp->flags = flags;
}

static lprog_label add_label(struct lprog *lp, struct lp_label label)
{
	if (GROW_ARRAY(&lp->labels, &lp->labels_cap, lp->nlabels + 1, 64)) {
		set_error(lp, -ENOMEM);
		return 0;
	}
	lp->labels[lp->nlabels] = label;
	return (lprog_label)lp->nlabels++;
}

lprog_label lprog_label_new(struct lprog *lp)
{
	return add_label(lp, (struct lp_label){ UNBOUND, 0 });
}

lprog_label lprog_offset(struct lprog *lp, uint32_t offset)
{
	return add_label(lp, (struct lp_label){ FIXED, offset });
}

void lprog_bind(struct lprog *lp, lprog_label label)
{
	if (label >= lp->nlabels || lp->labels[label].at != UNBOUND)
		set_error(lp, -EINVAL);
	else
		lp->labels[label].at = (uint32_t)lp->len;
}

bool lprog_is_bound(const struct lprog *lp, lprog_label label)
{
	return label < lp->nlabels && lp->labels[label].at != UNBOUND;
}

static bool is_fixed(const struct lprog *lp, lprog_label label)
{
	return label < lp->nlabels && lp->labels[label].at == FIXED;
}

void lprog_set_tag(struct lprog *lp, long tag)
{
	lp->tag = tag;
}

static void push(struct lprog *lp, struct lp_insn insn)
{
	if (lp->err)
		return;
	if (GROW_ARRAY(&lp->insns, &lp->cap, lp->len + 1, 256)) {
		set_error(lp, -ENOMEM);
		return;
	}
	insn.tag = lp->tag;
	lp->insns[lp->len++] = insn;
}

void lprog_stmt(struct lprog *lp, uint16_t code, uint32_t k)
{
	push(lp, (struct lp_insn){ .code = code, .kind = LP_STMT, .k = k });
}

void lprog_ja(struct lprog *lp, lprog_label target)
{
	push(lp, (struct lp_insn){ .code = BPF_JMP | BPF_JA, .kind = LP_JA, .target = { target } });
}

void lprog_jcond(struct lprog *lp, uint16_t code, uint32_t k, lprog_label jt, lprog_label jf)
{
	for (int b = 0; b < 2; b++) {
		lprog_label l = b ? jf : jt;
		if (is_fixed(lp, l) && lp->labels[l].offset > SCG_BPF_JUMP_REACH)
			set_error(lp, -EINVAL); /* an 8-bit field cannot hold it */
	}
	push(lp, (struct lp_insn){ .code = code, .kind = LP_JCOND, .k = k, .target = { jt, jf } });
}

void lprog_raw(struct lprog *lp, struct scg_insn insn)
{
	push(lp, (struct lp_insn){ .code = insn.code, .kind = LP_RAW, .jt = insn.jt, .jf = insn.jf,
				   .k = insn.k });
}

size_t lprog_len(const struct lprog *lp)
{
	return lp->len;
}

int lprog_error(const struct lprog *lp)
{
	return lp->err;
}

/* --- label checks ------------------------------------------------------ */

static unsigned fields_of(const struct lp_insn *insn)
{
	return insn->kind == LP_JCOND ? 2 : insn->kind == LP_JA ? 1 : 0;
}

/* What is wrong with field @b of instruction @i, described in *@rep (LPROG_OK: nothing). */
static enum lprog_fault field_fault(const struct lprog *lp, size_t i, unsigned b,
				    struct lprog_report *rep)
{
	const struct lp_insn *insn = &lp->insns[i];
	lprog_label l = insn->target[b];
	*rep = (struct lprog_report){ .fault = LPROG_OK, .label = l, .tag = insn->tag, .branch = b };
	uint32_t at = l < lp->nlabels ? lp->labels[l].at : UNBOUND;
	if (at == UNBOUND) {
		rep->fault = LPROG_UNBOUND_LABEL;
	} else if (at == FIXED) {
		rep->fault = LPROG_OK;
	} else if (at <= i) {
		rep->fault = LPROG_BACKWARD_JUMP;
		rep->allowed = insn->kind == LP_JA && (lp->flags & LPROG_ALLOW_BACKWARD_JA);
	} else if (at >= lp->len) {
		rep->fault = LPROG_LABEL_AT_END;
		rep->allowed = (lp->flags & LPROG_ALLOW_LABEL_AT_END) != 0;
	}
	return rep->fault;
}

size_t lprog_check(const struct lprog *lp, lprog_fault_fn *fn, void *arg)
{
	size_t refused = 0;
	for (size_t i = 0; i < lp->len; i++) {
		for (unsigned b = 0; b < fields_of(&lp->insns[i]); b++) {
			struct lprog_report rep;
			if (field_fault(lp, i, b, &rep) == LPROG_OK)
				continue;
			refused += !rep.allowed;
			if (fn)
				fn(&rep, arg);
		}
	}
	return refused;
}

/* Checks labels before any layout work: the first fault the flags do not allow. */
static enum lprog_fault check_labels(const struct lprog *lp, struct lprog_report *rep)
{
	if (lp->len == 0)
		return LPROG_EMPTY;
	for (size_t i = 0; i < lp->len; i++)
		for (unsigned b = 0; b < fields_of(&lp->insns[i]); b++)
			if (field_fault(lp, i, b, rep) != LPROG_OK && !rep->allowed)
				return rep->fault;
	*rep = (struct lprog_report){ .tag = lp->insns[lp->len - 1].tag };
	if (!(lp->flags & LPROG_ALLOW_FALLS_OFF) && BPF_CLASS(lp->insns[lp->len - 1].code) != BPF_RET)
		return LPROG_FALLS_OFF; /* the kernel wants a ret last */
	return LPROG_OK;
}

/* --- resolution ------------------------------------------------------- */

/*
 * Two ways to place trampolines; each gives the shorter program on some
 * inputs, so lprog_resolve() tries both and keeps the shorter result.
 *
 * PLACE_FAR: passes go from the first jump to the last, and a new
 * trampoline goes after the last instruction in reach that never falls
 * through (a jump or a return), where later jumps to the same target can
 * share it; the program is laid out again after each one.
 *
 * PLACE_NEAR: passes go from the last jump to the first, and a new
 * trampoline goes right after its own jump, so the trampolines of later
 * jumps already exist when earlier ones look for one to share, and one this
 * near is rarely pushed out of reach by later insertions.  New trampolines
 * are laid out at the end of the pass; until then ("pending") their
 * position is an estimate, and reach tests leave room for all of them.
 */
enum placement { PLACE_FAR, PLACE_NEAR };

struct tramp {
	uint32_t slot; /* placed after this instruction (see layout()) */
	lprog_label target;
	long tag;      /* of the jump that needed it */
	uint32_t pos;  /* valid once laid out */
	bool used;
};

struct resolver {
	const struct lprog *lp;
	enum placement place;
	uint32_t *pos;        /* per instruction, then pos[len]: the end */
	uint32_t (*via)[2];   /* per instruction and branch: trampoline index or NO_TRAMP */
	uint32_t *slot_count; /* laid-out trampolines after each instruction */
	uint32_t *slot_next;  /* scratch for layout() */
	uint32_t *tramp_at;   /* per position: the trampoline there, or NO_TRAMP */
	struct tramp *tramps;
	size_t ntramps, tramps_cap;
	size_t laid_out;      /* trampolines [0, laid_out) have positions; the rest are pending */
	size_t total;         /* instructions + laid-out trampolines */
};

/* Whether a trampoline may follow @insn without changing any path (raw jumps never qualify). */
static bool never_falls_through(const struct lp_insn *insn)
{
	if (insn->kind == LP_RAW)
		return false;
	return insn->kind != LP_STMT || BPF_CLASS(insn->code) == BPF_RET;
}

static uint32_t label_pos(const struct resolver *rs, lprog_label label)
{
	return rs->pos[rs->lp->labels[label].at];
}

/*
 * Places every instruction and trampoline.  The trampolines after one
 * instruction come in creation order (PLACE_FAR) or newest first
 * (PLACE_NEAR: a new one goes right after its jump, where it was estimated).
 */
static int layout(struct resolver *rs)
{
	size_t n = rs->lp->len;
	memset(rs->slot_count, 0, n * sizeof(*rs->slot_count));
	for (size_t t = 0; t < rs->ntramps; t++)
		rs->slot_count[rs->tramps[t].slot]++;
	uint32_t p = 0;
	for (size_t i = 0; i < n; i++) {
		rs->pos[i] = p++;
		rs->slot_next[i] = p;
		p += rs->slot_count[i];
	}
	rs->pos[n] = p;
	if (RESIZE_ARRAY(&rs->tramp_at, (size_t)p + 1))
		return -ENOMEM;
	uint32_t *at = rs->tramp_at;
	for (uint32_t q = 0; q < p; q++)
		at[q] = NO_TRAMP;
	for (size_t k = 0; k < rs->ntramps; k++) {
		size_t t = rs->place == PLACE_FAR ? k : rs->ntramps - 1 - k;
		struct tramp *tr = &rs->tramps[t];
		tr->pos = rs->slot_next[tr->slot]++;
		at[tr->pos] = (uint32_t)t;
	}
	rs->total = p;
	rs->laid_out = rs->ntramps;
	return 0;
}

/* Whether a jump at @from reaches @to even if @slack instructions are added in between. */
static bool reaches(uint32_t from, uint32_t to, size_t slack)
{
	return to > from && to - from - 1 + slack <= SCG_BPF_JUMP_REACH;
}

/* Where trampoline @t is; a pending one (PLACE_NEAR) will come right after its jump. */
static uint32_t tramp_pos(const struct resolver *rs, size_t t)
{
	/* t < ntramps, so tramps is allocated (the analyzer cannot tie the two). */
	const struct tramp *tr = &rs->tramps[t];
	return t < rs->laid_out ? tr->pos : rs->pos[tr->slot] + 1; // NOLINT(*NullDereference)
}

/*
 * A trampoline to @target that instruction @i reaches even if every pending
 * one lands in between, or NO_TRAMP.  Pending ones (PLACE_NEAR only) come
 * first, so that the trampolines of one pass serve as many branches as they
 * can and older ones may fall out of use; they were made from the last jump
 * backwards, so the newest is the nearest.  Then a laid-out one: the
 * farthest (PLACE_FAR, to share it most) or the nearest (PLACE_NEAR, the
 * least likely to be pushed out of reach).
 */
static uint32_t shared_tramp(const struct resolver *rs, size_t i, lprog_label target)
{
	size_t slack = rs->ntramps - rs->laid_out;
	uint32_t from = rs->pos[i];
	for (size_t t = rs->ntramps; t-- > rs->laid_out && reaches(from, tramp_pos(rs, t), slack);)
		if (rs->tramps[t].target == target)
			return (uint32_t)t;
	uint32_t best = NO_TRAMP;
	for (uint32_t q = from + 1; q < rs->total && reaches(from, q, slack); q++) {
		/* tramp_at covers every position below total once laid out. */
		uint32_t t = rs->tramp_at[q];
		if (t == NO_TRAMP || rs->tramps[t].target != target) // NOLINT(*NullDereference)
			continue;
		best = t;
		if (rs->place == PLACE_NEAR)
			break;
	}
	return best;
}

/* The instruction a new trampoline of instruction @i to @target follows. */
static size_t choose_slot(const struct resolver *rs, size_t i, lprog_label target)
{
	const struct lprog *lp = rs->lp;
	size_t best = i; /* the jump itself never falls through: always a valid slot */
	if (rs->place == PLACE_NEAR)
		return best;
	for (size_t s = i + 1; s < lp->len; s++) {
		uint32_t at = rs->pos[s] + 1 + rs->slot_count[s];
		if (!reaches(rs->pos[i], at, 0) || at >= label_pos(rs, target))
			break;
		if (never_falls_through(&lp->insns[s]))
			best = s;
	}
	return best;
}

/* A new trampoline to @target for instruction @i: its index, or NO_TRAMP (ENOMEM). */
static uint32_t add_tramp(struct resolver *rs, size_t i, lprog_label target)
{
	if (GROW_ARRAY(&rs->tramps, &rs->tramps_cap, rs->ntramps + 1, 32))
		return NO_TRAMP;
	rs->tramps[rs->ntramps] = (struct tramp){ .slot = (uint32_t)choose_slot(rs, i, target),
						  .target = target,
						  .tag = rs->lp->insns[i].tag };
	uint32_t t = (uint32_t)rs->ntramps++;
	if (rs->place == PLACE_FAR && layout(rs) < 0)
		return NO_TRAMP;
	return t;
}

/* Brings branch @b of instruction @i within reach.  1 if it changed, 0 if not, -ENOMEM. */
static int fix_branch(struct resolver *rs, size_t i, unsigned b)
{
	lprog_label target = rs->lp->insns[i].target[b];
	if (is_fixed(rs->lp, target))
		return 0;
	uint32_t t = rs->via[i][b];
	if (reaches(rs->pos[i], t != NO_TRAMP ? tramp_pos(rs, t) : label_pos(rs, target), 0))
		return 0;
	t = shared_tramp(rs, i, target);
	if (t == NO_TRAMP)
		t = add_tramp(rs, i, target);
	if (t == NO_TRAMP)
		return -ENOMEM;
	rs->via[i][b] = t;
	return 1;
}

/*
 * One pass over every branch, then pending trampolines are laid out.  A
 * pass that only retargets branches moves nothing, so the next one finds
 * everything in reach; one that adds trampolines grows the program, which
 * WORK_LIMIT bounds.  *@changed tells whether anything changed.
 */
static int fix_reach(struct resolver *rs, bool *changed)
{
	const struct lprog *lp = rs->lp;
	*changed = false;
	for (size_t j = 0; j < lp->len; j++) {
		size_t i = rs->place == PLACE_FAR ? j : lp->len - 1 - j;
		for (unsigned b = 0; b < 2 && lp->insns[i].kind == LP_JCOND; b++) {
			int r = fix_branch(rs, i, b);
			if (r < 0)
				return r;
			*changed |= r > 0;
		}
		if (rs->total > WORK_LIMIT)
			return -E2BIG;
	}
	int r = rs->laid_out < rs->ntramps ? layout(rs) : 0;
	return r == 0 && rs->total > WORK_LIMIT ? -E2BIG : r;
}

/* Drops trampolines no branch uses any more (only shortens jumps). */
static int prune(struct resolver *rs)
{
	const struct lprog *lp = rs->lp;
	for (size_t t = 0; t < rs->ntramps; t++)
		rs->tramps[t].used = false;
	for (size_t i = 0; i < lp->len; i++)
		for (int b = 0; b < 2; b++)
			if (lp->insns[i].kind == LP_JCOND && rs->via[i][b] != NO_TRAMP)
				rs->tramps[rs->via[i][b]].used = true;
	uint32_t *renum = malloc((rs->ntramps + 1) * sizeof(*renum));
	if (!renum)
		return 0; /* keeping unused trampolines is still correct */
	size_t kept = 0;
	for (size_t t = 0; t < rs->ntramps; t++) {
		renum[t] = rs->tramps[t].used ? (uint32_t)kept : NO_TRAMP;
		if (rs->tramps[t].used)
			rs->tramps[kept++] = rs->tramps[t];
	}
	for (size_t i = 0; i < lp->len; i++)
		for (int b = 0; b < 2; b++)
			if (lp->insns[i].kind == LP_JCOND && rs->via[i][b] != NO_TRAMP)
				rs->via[i][b] = renum[rs->via[i][b]];
	free(renum);
	rs->ntramps = kept;
	return layout(rs);
}

/* Places trampolines until every branch is in reach.  0, -E2BIG (gave up) or -ENOMEM. */
static int place_trampolines(struct resolver *rs)
{
	size_t n = rs->lp->len;
	rs->pos = malloc((n + 1) * sizeof(*rs->pos));
	rs->via = malloc(n * sizeof(*rs->via));
	rs->slot_count = calloc(n, sizeof(*rs->slot_count));
	rs->slot_next = malloc(n * sizeof(*rs->slot_next));
	if (!rs->pos || !rs->via || !rs->slot_count || !rs->slot_next)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		rs->via[i][0] = rs->via[i][1] = NO_TRAMP;
	int r = layout(rs);
	for (bool changed = r == 0; changed;)
		r = fix_reach(rs, &changed);
	return r == 0 ? prune(rs) : r;
}

static void resolver_release(struct resolver *rs)
{
	free(rs->pos);
	free(rs->via);
	free(rs->slot_count);
	free(rs->slot_next);
	free(rs->tramp_at);
	free(rs->tramps);
}

/* Where field @b of instruction @i sends control: its offset. */
static uint32_t field_offset(const struct resolver *rs, size_t i, unsigned b)
{
	const struct lprog *lp = rs->lp;
	lprog_label l = lp->insns[i].target[b];
	if (is_fixed(lp, l))
		return lp->labels[l].offset;
	uint32_t t = lp->insns[i].kind == LP_JCOND ? rs->via[i][b] : NO_TRAMP;
	uint32_t to = t != NO_TRAMP ? rs->tramps[t].pos : label_pos(rs, l);
	return to - rs->pos[i] - 1; /* wraps for a backward ja, as the flag allows */
}

static struct scg_insn encode(const struct resolver *rs, size_t i)
{
	const struct lp_insn *insn = &rs->lp->insns[i];
	struct scg_insn out = { insn->code, insn->jt, insn->jf, insn->k };
	if (insn->kind == LP_JA) {
		out.k = field_offset(rs, i, 0);
	} else if (insn->kind == LP_JCOND) {
		out.jt = (uint8_t)field_offset(rs, i, 0);
		out.jf = (uint8_t)field_offset(rs, i, 1);
	}
	return out;
}

/* A trampoline: a copy of a RET target (one instruction fewer to run), else a JA. */
static struct scg_insn encode_tramp(const struct resolver *rs, const struct tramp *tr)
{
	const struct lprog *lp = rs->lp;
	uint32_t at = lp->labels[tr->target].at;
	const struct lp_insn *target = at < lp->len ? &lp->insns[at] : NULL;
	if (target && !(lp->flags & LPROG_JA_TRAMPOLINES) && target->kind == LP_STMT &&
	    BPF_CLASS(target->code) == BPF_RET)
		return (struct scg_insn){ target->code, 0, 0, target->k };
	return (struct scg_insn){ BPF_JMP | BPF_JA, 0, 0, label_pos(rs, tr->target) - tr->pos - 1 };
}

static int emit(const struct resolver *rs, struct scg_prog *out, long **tags)
{
	size_t n = rs->total ? rs->total : 1; /* malloc(0) may be NULL: not a failure */
	struct scg_insn *insns = malloc(n * sizeof(*insns));
	long *t = tags ? malloc(n * sizeof(*t)) : NULL;
	if (!insns || (tags && !t)) {
		free(insns);
		free(t);
		return -ENOMEM;
	}
	const struct lprog *lp = rs->lp;
	for (size_t i = 0; i < lp->len; i++) {
		insns[rs->pos[i]] = encode(rs, i);
		if (t)
			t[rs->pos[i]] = lp->insns[i].tag;
	}
	for (size_t j = 0; j < rs->ntramps; j++) {
		const struct tramp *tr = &rs->tramps[j];
		insns[tr->pos] = encode_tramp(rs, tr);
		if (t)
			t[tr->pos] = tr->tag;
	}
	out->insns = insns;
	out->len = rs->total;
	if (tags)
		*tags = t;
	return 0;
}

int lprog_resolve(struct lprog *lp, struct scg_prog *out, long **tags,
		  struct lprog_report *report)
{
	struct lprog_report local;
	struct lprog_report *rep = report ? report : &local;
	*rep = (struct lprog_report){ .fault = LPROG_OK };
	*out = (struct scg_prog){ 0 };
	if (tags)
		*tags = NULL;
	if (lp->err)
		return lp->err;
	rep->fault = check_labels(lp, rep);
	if (rep->fault != LPROG_OK)
		return -EINVAL;
	*rep = (struct lprog_report){ .fault = LPROG_OK };
	struct resolver far = { .lp = lp, .place = PLACE_FAR };
	struct resolver near = { .lp = lp, .place = PLACE_NEAR };
	struct resolver *best = &far;
	int r = place_trampolines(&far);
	if (r != -ENOMEM && far.ntramps > 0) { /* without trampolines both place alike */
		int r_near = place_trampolines(&near);
		if (r_near == -ENOMEM || near.total < far.total) {
			best = &near;
			r = r_near;
		}
	}
	rep->len = best->total;
	rep->trampolines = best->ntramps;
	if (r == 0 && best->total > SCG_BPF_MAXINSNS)
		r = -E2BIG;
	if (r == -E2BIG)
		rep->fault = LPROG_TOO_LONG;
	else if (r == 0)
		r = emit(best, out, tags);
	resolver_release(&far);
	resolver_release(&near);
	return r;
}
