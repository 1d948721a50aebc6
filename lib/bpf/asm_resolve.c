/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Jump resolution.  Labels become node indexes; then conditional jumps
 * whose target lies more than 255 instructions ahead are redirected to a
 * JA trampoline (an existing one within reach, or a new one placed right
 * after the jump).  Every insertion moves later code, which can push other
 * jumps out of reach, so layout repeats until nothing changes.  It ends:
 * each pass with a change either only retargets (positions stay put, so
 * the next pass finds nothing) or adds trampolines, which are bounded by
 * the 4096-instruction limit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"
#include "util/suggest.h"

#define UNDEFINED ((size_t)-1)

/* --- binding labels ------------------------------------------------------ */

/* The defined label closest to @want, for a "did you mean" hint. */
static const struct asm_label *closest_label(const struct asm_ctx *ctx, const struct asm_label *want)
{
	char word[65], candidate[65];
	if (want->len >= sizeof(word))
		return NULL;
	memcpy(word, want->name, want->len);
	word[want->len] = '\0';
	size_t cap = want->len / 3 ? want->len / 3 : 1;
	const struct asm_label *best = NULL;
	size_t best_distance = cap + 1;
	for (size_t i = 0; i < ctx->n_labels; i++) {
		const struct asm_label *l = &ctx->labels[i];
		if (l->node == UNDEFINED || l->len >= sizeof(candidate))
			continue;
		memcpy(candidate, l->name, l->len);
		candidate[l->len] = '\0';
		size_t d = scg_edit_distance(word, candidate, cap);
		if (d < best_distance) {
			best = l;
			best_distance = d;
		}
	}
	return best;
}

static void report_undefined(struct asm_ctx *ctx, const struct asm_target *t,
			     const struct asm_label *label)
{
	const struct asm_label *best = closest_label(ctx, label);
	char hint[112];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%.*s'?", (int)(best->len > 64 ? 64 : best->len),
			 best->name);
	else
		snprintf(hint, sizeof(hint), "define it with '%.*s:' before an instruction",
			 (int)(label->len > 64 ? 64 : label->len), label->name);
	asm_error(ctx, t->line, t->column, "asm-undefined-label", hint, "undefined label '%.*s'",
		  (int)(label->len > 64 ? 64 : label->len), label->name);
}

static void bind_target(struct asm_ctx *ctx, size_t from, struct asm_target *t, bool conditional)
{
	if (t->kind == ASM_TARGET_NEXT) {
		t->kind = ASM_TARGET_NODE;
		t->index = from + 1 == ctx->n_nodes ? ASM_NODE_END : from + 1;
		return;
	}
	if (t->kind != ASM_TARGET_LABEL)
		return;
	const struct asm_label *label = &ctx->labels[t->index];
	if (label->node == UNDEFINED) {
		report_undefined(ctx, t, label);
		return;
	}
	int name_len = (int)(label->len > 64 ? 64 : label->len);
	if (label->node <= from && conditional) {
		asm_error(ctx, t->line, t->column, "asm-backward-jump",
			  "classic BPF jumps only forward", "jump to '%.*s' goes backwards", name_len,
			  label->name);
		return;
	}
	if (label->node <= from)
		asm_warning(ctx, t->line, t->column, "asm-backward-jump",
			    "the kernel refuses it; classic BPF jumps only forward",
			    "ja to '%.*s' goes backwards: k wraps around", name_len, label->name);
	t->kind = ASM_TARGET_NODE;
	t->index = label->node == ctx->n_nodes ? ASM_NODE_END : label->node;
}

static void bind_labels(struct asm_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_labels; i++) {
		const struct asm_label *l = &ctx->labels[i];
		if (l->node == ctx->n_nodes)
			asm_warning(ctx, l->line, l->column, "asm-label-at-end",
				    "jumps to it leave the program, which the kernel refuses",
				    "label '%.*s' is not followed by an instruction",
				    (int)(l->len > 64 ? 64 : l->len), l->name);
	}
	for (size_t i = 0; i < ctx->n_nodes && !ctx->stopped; i++) {
		bind_target(ctx, i, &ctx->nodes[i].jt, true);
		bind_target(ctx, i, &ctx->nodes[i].jf, true);
		bind_target(ctx, i, &ctx->nodes[i].ja, false);
	}
}

/* --- layout with trampolines --------------------------------------------- */

struct layout {
	size_t *order; /* node indexes in program order */
	size_t len;
	size_t *pos; /* position of each node index */
	size_t added; /* trampolines so far */
};

static size_t position(const struct layout *lay, size_t node)
{
	return node == ASM_NODE_END ? lay->len : lay->pos[node];
}

/* Where a branch really goes: through a trampoline to its target. */
static size_t final_target(const struct asm_ctx *ctx, size_t node)
{
	if (node != ASM_NODE_END && ctx->nodes[node].trampoline)
		return ctx->nodes[node].ja.index;
	return node;
}

/*
 * A pass walks the program backwards, so the trampolines of later jumps
 * exist (pending) when earlier jumps look for one to share: a run of far
 * jumps to one target ends up sharing a single trampoline.  Pending
 * trampolines go in after the pass; each adds at most one instruction
 * between a jump and any trampoline it picks, so a trampoline counts as
 * within reach only if it still is after all of them are placed.
 */
struct pending {
	size_t node;  /* the new trampoline */
	size_t after; /* position of the jump it follows */
};

static bool reachable(size_t p, size_t q, size_t n_pending)
{
	return q - p - 1 + n_pending <= SCG_BPF_JUMP_REACH;
}

/* An existing or pending trampoline to @target within reach of @p, or SIZE_MAX. */
static size_t shared_trampoline(const struct asm_ctx *ctx, const struct layout *lay, size_t p,
				size_t target, const struct pending *pend, size_t n_pend)
{
	/* pending ones were made in backward order: the last is the nearest */
	for (size_t i = n_pend; i-- > 0 && reachable(p, pend[i].after + 1, n_pend);)
		if (ctx->nodes[pend[i].node].ja.index == target)
			return pend[i].node;
	for (size_t q = p + 1; q < lay->len && reachable(p, q, n_pend); q++) {
		const struct asm_node *n = &ctx->nodes[lay->order[q]];
		if (n->trampoline && n->ja.index == target)
			return lay->order[q];
	}
	return SIZE_MAX;
}

/* Appends a trampoline node (not yet placed) jumping to @target; SIZE_MAX on ENOMEM. */
static size_t new_trampoline(struct asm_ctx *ctx, unsigned line, unsigned column, size_t target)
{
	if (ctx->n_nodes == ctx->cap_nodes) {
		size_t cap = ctx->cap_nodes ? ctx->cap_nodes * 2 : 64;
		struct asm_node *nodes = realloc(ctx->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return SIZE_MAX;
		ctx->nodes = nodes;
		ctx->cap_nodes = cap;
	}
	struct asm_node *t = &ctx->nodes[ctx->n_nodes];
	*t = (struct asm_node){ .insn = { BPF_JMP | BPF_JA, 0, 0, 0 },
				.ja = { ASM_TARGET_NODE, target, line, column },
				.line = line,
				.column = column,
				.trampoline = true };
	return ctx->n_nodes++;
}

/*
 * Brings one branch of the jump at position @p within reach, sharing a
 * trampoline if one is near, else adding one to @pend.  @branch is the
 * caller's copy (adding a node may move ctx->nodes).  Returns 1 if
 * something changed, 0 if not, -ENOMEM.
 */
static int fix_branch(struct asm_ctx *ctx, const struct layout *lay, size_t p,
		      struct asm_target *branch, struct pending *pend, size_t *n_pend)
{
	if (branch->kind != ASM_TARGET_NODE || reachable(p, position(lay, branch->index), 0))
		return 0;
	size_t target = final_target(ctx, branch->index);
	size_t shared = shared_trampoline(ctx, lay, p, target, pend, *n_pend);
	if (shared != SIZE_MAX) {
		branch->index = shared;
		return 1;
	}
	const struct asm_node *jump = &ctx->nodes[lay->order[p]];
	size_t t = new_trampoline(ctx, jump->line, jump->column, target);
	if (t == SIZE_MAX)
		return -ENOMEM;
	pend[(*n_pend)++] = (struct pending){ t, p };
	branch->index = t;
	return 1;
}

static int compute_positions(struct asm_ctx *ctx, struct layout *lay)
{
	size_t *pos = realloc(lay->pos, ctx->n_nodes * sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	lay->pos = pos;
	for (size_t p = 0; p < lay->len; p++)
		pos[lay->order[p]] = p;
	return 0;
}

/* Places the pending trampolines right after their jumps. */
static int insert_pending(struct layout *lay, const struct pending *pend, size_t n_pend)
{
	size_t *order = malloc((lay->len + n_pend) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	size_t len = 0, next = n_pend; /* pend[] is in decreasing order of position */
	for (size_t p = 0; p < lay->len; p++) {
		order[len++] = lay->order[p];
		while (next > 0 && pend[next - 1].after == p)
			order[len++] = pend[--next].node;
	}
	free(lay->order);
	lay->order = order;
	lay->len = len;
	lay->added += n_pend;
	return 0;
}

/* One backward pass over all conditional jumps.  1 if anything changed, 0, or -errno. */
static int layout_pass(struct asm_ctx *ctx, struct layout *lay)
{
	int r = compute_positions(ctx, lay);
	if (r < 0)
		return r;
	struct pending *pend = malloc((2 * lay->len + 1) * sizeof(*pend));
	if (!pend)
		return -ENOMEM;
	size_t n_pend = 0;
	bool changed = false;
	for (size_t p = lay->len; p-- > 0 && r >= 0;) {
		size_t node = lay->order[p];
		struct asm_target jt = ctx->nodes[node].jt, jf = ctx->nodes[node].jf;
		r = fix_branch(ctx, lay, p, &jt, pend, &n_pend);
		if (r >= 0) {
			changed |= r > 0;
			r = fix_branch(ctx, lay, p, &jf, pend, &n_pend);
			changed |= r > 0;
		}
		ctx->nodes[node].jt = jt;
		ctx->nodes[node].jf = jf;
	}
	if (r >= 0 && n_pend)
		r = insert_pending(lay, pend, n_pend);
	free(pend);
	return r < 0 ? r : changed;
}

static int layout(struct asm_ctx *ctx, struct layout *lay)
{
	lay->len = ctx->n_nodes;
	lay->order = malloc((lay->len + 1) * sizeof(*lay->order));
	if (!lay->order)
		return -ENOMEM;
	for (size_t i = 0; i < lay->len; i++)
		lay->order[i] = i;
	for (;;) {
		int r = layout_pass(ctx, lay);
		if (r < 0)
			return r;
		if (lay->len > SCG_BPF_MAXINSNS) {
			asm_error(ctx, 0, 0, "asm-too-long",
				  "split the filter, or bring far jump targets closer",
				  "%zu instructions after adding %zu JA trampolines for conditional jumps farther than %u; the kernel accepts at most %u",
				  lay->len, lay->added, SCG_BPF_JUMP_REACH, SCG_BPF_MAXINSNS);
			return -EINVAL;
		}
		if (r == 0)
			return compute_positions(ctx, lay);
	}
}

/* --- encoding ------------------------------------------------------------- */

static int encode(const struct asm_ctx *ctx, const struct layout *lay, struct scg_prog *out)
{
	struct scg_insn *insns = calloc(lay->len ? lay->len : 1, sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	for (size_t p = 0; p < lay->len; p++) {
		const struct asm_node *n = &ctx->nodes[lay->order[p]];
		insns[p] = n->insn;
		if (n->jt.kind == ASM_TARGET_NODE)
			insns[p].jt = (uint8_t)(position(lay, n->jt.index) - p - 1);
		if (n->jf.kind == ASM_TARGET_NODE)
			insns[p].jf = (uint8_t)(position(lay, n->jf.index) - p - 1);
		if (n->ja.kind == ASM_TARGET_NODE) /* wraps for a backward ja, as bpf_asm does */
			insns[p].k = (uint32_t)(position(lay, n->ja.index) - p - 1);
	}
	out->insns = insns;
	out->len = lay->len;
	return 0;
}

int asm_resolve(struct asm_ctx *ctx, struct scg_prog *out)
{
	bind_labels(ctx);
	if (ctx->errors || ctx->nomem)
		return ctx->nomem ? -ENOMEM : -EINVAL;
	struct layout lay = { 0 };
	int r = layout(ctx, &lay);
	if (r == 0)
		r = encode(ctx, &lay, out);
	free(lay.order);
	free(lay.pos);
	return r;
}
