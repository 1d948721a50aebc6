/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Labelled programs and their resolution into offsets (see lprog.h).
 *
 * Resolution works on "slots": a trampoline is placed right after some
 * instruction that never falls through (a jump or a return), so inserting it
 * changes no path; all other instructions only move.  Every insertion
 * lengthens some forward jumps and never shortens one, so the loop that
 * re-checks reach after each insertion converges: either every branch fits
 * or the program grows past the kernel's limit and is refused.
 */
#include "bpf/lprog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/opcodes.h"

#define UNBOUND UINT32_MAX
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

struct lprog {
	struct lp_insn *insns;
	size_t len, cap;
	uint32_t *label_at; /* label -> index of the instruction it names, or UNBOUND */
	size_t nlabels, labels_cap;
	long tag;
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
	free(lp->label_at);
	free(lp);
}

static void set_error(struct lprog *lp, int err)
{
	if (!lp->err)
		lp->err = err;
}

lprog_label lprog_label_new(struct lprog *lp)
{
	if (lp->nlabels == lp->labels_cap) {
		size_t cap = lp->labels_cap ? lp->labels_cap * 2 : 64;
		uint32_t *at = realloc(lp->label_at, cap * sizeof(*at));
		if (!at) {
			set_error(lp, -ENOMEM);
			return 0;
		}
		lp->label_at = at;
		lp->labels_cap = cap;
	}
	lp->label_at[lp->nlabels] = UNBOUND;
	return (lprog_label)lp->nlabels++;
}

void lprog_bind(struct lprog *lp, lprog_label label)
{
	if (label >= lp->nlabels) {
		set_error(lp, -EINVAL);
		return;
	}
	if (lp->label_at[label] != UNBOUND)
		set_error(lp, -EINVAL);
	else
		lp->label_at[label] = (uint32_t)lp->len;
}

bool lprog_is_bound(const struct lprog *lp, lprog_label label)
{
	return label < lp->nlabels && lp->label_at[label] != UNBOUND;
}

void lprog_set_tag(struct lprog *lp, long tag)
{
	lp->tag = tag;
}

static void push(struct lprog *lp, struct lp_insn insn)
{
	if (lp->err)
		return;
	if (lp->len == lp->cap) {
		size_t cap = lp->cap ? lp->cap * 2 : 256;
		struct lp_insn *insns = realloc(lp->insns, cap * sizeof(*insns));
		if (!insns) {
			set_error(lp, -ENOMEM);
			return;
		}
		lp->insns = insns;
		lp->cap = cap;
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

/* --- resolution ------------------------------------------------------- */

struct tramp {
	uint32_t slot; /* placed after this instruction (and earlier trampolines of the slot) */
	lprog_label target;
	uint32_t pos;
	bool used;
};

struct resolver {
	struct lprog *lp;
	uint32_t *pos;       /* per instruction */
	uint32_t (*via)[2];  /* per instruction and branch: trampoline index or NO_TRAMP */
	uint32_t *slot_count; /* trampolines per slot */
	uint32_t *slot_next;  /* scratch for layout() */
	struct tramp *tramps;
	size_t ntramps, tramps_cap;
	size_t total;        /* instructions + trampolines */
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
	return rs->pos[rs->lp->label_at[label]];
}

/* Recomputes every position; trampolines follow their slot in creation order. */
static void layout(struct resolver *rs)
{
	size_t n = rs->lp->len;
	uint32_t p = 0;
	for (size_t i = 0; i < n; i++) {
		rs->pos[i] = p++;
		rs->slot_next[i] = p;
		p += rs->slot_count[i];
	}
	for (size_t t = 0; t < rs->ntramps; t++)
		rs->tramps[t].pos = rs->slot_next[rs->tramps[t].slot]++;
	rs->total = p;
}

static bool in_reach(uint32_t from, uint32_t to)
{
	return to > from && to - from - 1 <= SCG_BPF_JUMP_REACH;
}

/* An existing trampoline to @target that @from can reach: the farthest one, to share it most. */
static uint32_t find_tramp(const struct resolver *rs, uint32_t from, lprog_label target)
{
	uint32_t best = NO_TRAMP;
	for (size_t t = 0; t < rs->ntramps; t++) {
		const struct tramp *tr = &rs->tramps[t];
		if (tr->target == target && in_reach(from, tr->pos) &&
		    (best == NO_TRAMP || tr->pos > rs->tramps[best].pos))
			best = (uint32_t)t;
	}
	return best;
}

/*
 * Places a new trampoline to @target for the branch of instruction @i: in
 * the last slot still in reach, so that later branches can share it.
 */
static int add_tramp(struct resolver *rs, size_t i, lprog_label target, uint32_t *index)
{
	const struct lprog *lp = rs->lp;
	size_t best = i; /* the jump itself never falls through: always a valid slot */
	for (size_t s = i + 1; s < lp->len; s++) {
		uint32_t at = rs->pos[s] + 1 + rs->slot_count[s];
		if (!in_reach(rs->pos[i], at) || at >= label_pos(rs, target))
			break;
		if (never_falls_through(&lp->insns[s]))
			best = s;
	}
	if (rs->ntramps == rs->tramps_cap) {
		size_t cap = rs->tramps_cap ? rs->tramps_cap * 2 : 32;
		struct tramp *tramps = realloc(rs->tramps, cap * sizeof(*tramps));
		if (!tramps)
			return -ENOMEM;
		rs->tramps = tramps;
		rs->tramps_cap = cap;
	}
	rs->tramps[rs->ntramps] = (struct tramp){ .slot = (uint32_t)best, .target = target };
	*index = (uint32_t)rs->ntramps++;
	rs->slot_count[best]++;
	layout(rs);
	return 0;
}

/* One pass over every branch; *@changed tells whether a trampoline was added. */
static int fix_reach(struct resolver *rs, bool *changed)
{
	const struct lprog *lp = rs->lp;
	*changed = false;
	for (size_t i = 0; i < lp->len; i++) {
		if (lp->insns[i].kind != LP_JCOND)
			continue;
		for (int b = 0; b < 2; b++) {
			lprog_label target = lp->insns[i].target[b];
			uint32_t t = rs->via[i][b];
			if (t != NO_TRAMP && in_reach(rs->pos[i], rs->tramps[t].pos))
				continue;
			if (in_reach(rs->pos[i], label_pos(rs, target))) {
				rs->via[i][b] = NO_TRAMP;
				continue;
			}
			t = find_tramp(rs, rs->pos[i], target);
			if (t == NO_TRAMP) {
				int r = add_tramp(rs, i, target, &t);
				if (r < 0)
					return r;
				*changed = true;
			}
			rs->via[i][b] = t;
		}
		if (rs->total > WORK_LIMIT)
			return -E2BIG;
	}
	return 0;
}

/* Drops trampolines no branch uses any more (only shortens jumps). */
static void prune(struct resolver *rs)
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
		return; /* keeping unused trampolines is still correct */
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
	memset(rs->slot_count, 0, lp->len * sizeof(*rs->slot_count));
	for (size_t t = 0; t < rs->ntramps; t++)
		rs->slot_count[rs->tramps[t].slot]++;
	layout(rs);
}

/* Checks labels before any layout work. */
static enum lprog_fault check_labels(const struct lprog *lp, struct lprog_report *rep)
{
	if (lp->len == 0)
		return LPROG_EMPTY;
	for (size_t i = 0; i < lp->len; i++) {
		const struct lp_insn *insn = &lp->insns[i];
		int n = insn->kind == LP_JCOND ? 2 : insn->kind == LP_JA ? 1 : 0;
		for (int b = 0; b < n; b++) {
			lprog_label l = insn->target[b];
			rep->label = l;
			rep->tag = insn->tag;
			if (l >= lp->nlabels || lp->label_at[l] == UNBOUND)
				return LPROG_UNBOUND_LABEL;
			if (lp->label_at[l] <= i)
				return LPROG_BACKWARD_JUMP;
			if (lp->label_at[l] >= lp->len)
				return LPROG_LABEL_AT_END;
		}
	}
	rep->tag = lp->insns[lp->len - 1].tag;
	if (BPF_CLASS(lp->insns[lp->len - 1].code) != BPF_RET)
		return LPROG_FALLS_OFF; /* the kernel wants a ret last */
	return LPROG_OK;
}

static struct scg_insn encode(const struct resolver *rs, size_t i)
{
	const struct lp_insn *insn = &rs->lp->insns[i];
	struct scg_insn out = { insn->code, insn->jt, insn->jf, insn->k };
	if (insn->kind == LP_JA) {
		out.k = label_pos(rs, insn->target[0]) - rs->pos[i] - 1;
	} else if (insn->kind == LP_JCOND) {
		uint8_t off[2];
		for (int b = 0; b < 2; b++) {
			uint32_t t = rs->via[i][b];
			uint32_t to = t != NO_TRAMP ? rs->tramps[t].pos : label_pos(rs, insn->target[b]);
			off[b] = (uint8_t)(to - rs->pos[i] - 1);
		}
		out.jt = off[0];
		out.jf = off[1];
	}
	return out;
}

/* A trampoline: a copy of a RET target (one instruction fewer to run), else a JA. */
static struct scg_insn encode_tramp(const struct resolver *rs, const struct tramp *tr)
{
	const struct lp_insn *target = &rs->lp->insns[rs->lp->label_at[tr->target]];
	if (target->kind == LP_STMT && BPF_CLASS(target->code) == BPF_RET)
		return (struct scg_insn){ target->code, 0, 0, target->k };
	return (struct scg_insn){ BPF_JMP | BPF_JA, 0, 0, label_pos(rs, tr->target) - tr->pos - 1 };
}

static int emit(const struct resolver *rs, struct scg_prog *out, long **tags)
{
	struct scg_insn *insns = malloc(rs->total * sizeof(*insns));
	long *t = tags ? malloc(rs->total * sizeof(*t)) : NULL;
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
			t[tr->pos] = lp->insns[tr->slot].tag;
	}
	out->insns = insns;
	out->len = rs->total;
	if (tags)
		*tags = t;
	return 0;
}

static int run_resolver(struct resolver *rs, struct scg_prog *out, long **tags,
			struct lprog_report *rep)
{
	size_t n = rs->lp->len;
	rs->pos = malloc(n * sizeof(*rs->pos));
	rs->via = malloc(n * sizeof(*rs->via));
	rs->slot_count = calloc(n, sizeof(*rs->slot_count));
	rs->slot_next = malloc(n * sizeof(*rs->slot_next));
	if (!rs->pos || !rs->via || !rs->slot_count || !rs->slot_next)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		rs->via[i][0] = rs->via[i][1] = NO_TRAMP;
	layout(rs);
	bool changed = true;
	while (changed) {
		int r = fix_reach(rs, &changed);
		if (r < 0) {
			rep->fault = r == -E2BIG ? LPROG_TOO_LONG : LPROG_OK;
			rep->len = rs->total;
			return r;
		}
	}
	prune(rs);
	rep->len = rs->total;
	rep->trampolines = rs->ntramps;
	if (rs->total > SCG_BPF_MAXINSNS) {
		rep->fault = LPROG_TOO_LONG;
		return -E2BIG;
	}
	return emit(rs, out, tags);
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
	rep->tag = 0;
	struct resolver rs = { .lp = lp };
	int r = run_resolver(&rs, out, tags, rep);
	free(rs.pos);
	free(rs.via);
	free(rs.slot_count);
	free(rs.slot_next);
	free(rs.tramps);
	return r;
}
