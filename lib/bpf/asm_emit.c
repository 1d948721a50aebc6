/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From nodes to a program, through the labelled-program builder
 * (bpf/lprog.h) that the policy compiler uses as well.  Each node becomes
 * one instruction tagged with its index, so lprog's reports lead back to
 * the source; lprog places the trampolines.
 *
 * The assembler writes whatever it is given, as bpf_asm does, so it asks
 * lprog to allow what the kernel would refuse but can still be encoded (no
 * final `ret`, a label at the very end, a backward `ja`), and for `ja`
 * trampolines only, so every instruction written stays in the output, in
 * order.  Numeric targets (`+N`, `.insn`) are written as given.
 */
#include <errno.h>

#include "bpf/asm_internal.h"

struct lprog *asm_lprog_new(void)
{
	struct lprog *lp = lprog_new();
	if (lp)
		lprog_set_flags(lp, LPROG_JA_TRAMPOLINES | LPROG_ALLOW_FALLS_OFF |
					    LPROG_ALLOW_LABEL_AT_END | LPROG_ALLOW_BACKWARD_JA);
	return lp;
}

/* The lprog target of a jump field whose number (for +N) is @raw. */
static lprog_label field_target(struct asm_ctx *ctx, const struct asm_target *t, uint32_t raw,
				lprog_label next)
{
	if (t->kind == ASM_TARGET_LABEL)
		return ctx->labels[t->index].id;
	if (t->kind == ASM_TARGET_NEXT)
		return next;
	return lprog_offset(ctx->lp, raw);
}

void asm_emit_node(struct asm_ctx *ctx, size_t index)
{
	const struct asm_node *node = &ctx->nodes[index];
	const struct scg_insn *insn = &node->insn;
	struct lprog *lp = ctx->lp;
	lprog_set_tag(lp, (long)index);
	if (node->ja.kind == ASM_TARGET_LABEL) {
		lprog_ja(lp, ctx->labels[node->ja.index].id);
		return;
	}
	/* no label: the fields already hold the numbers (an omitted branch is +0) */
	if (node->jt.kind != ASM_TARGET_LABEL && node->jf.kind != ASM_TARGET_LABEL) {
		lprog_raw(lp, *insn);
		return;
	}
	/* an omitted branch goes to the next instruction, past any trampoline in between */
	bool omitted = node->jt.kind == ASM_TARGET_NEXT || node->jf.kind == ASM_TARGET_NEXT;
	lprog_label next = omitted ? lprog_label_new(lp) : 0;
	lprog_jcond(lp, insn->code, insn->k, field_target(ctx, &node->jt, insn->jt, next),
		    field_target(ctx, &node->jf, insn->jf, next));
	if (omitted)
		lprog_bind(lp, next);
}

/* lprog_check() callback: a label problem of one jump field, reported at its target. */
static void report_fault(const struct lprog_report *fault, void *arg)
{
	struct asm_ctx *ctx = arg;
	const struct asm_node *node = &ctx->nodes[fault->tag];
	const struct asm_target *t = node->ja.kind == ASM_TARGET_LABEL ? &node->ja
				     : fault->branch			? &node->jf
									: &node->jt;
	/* an omitted branch of the last instruction leaves the program, like a label at the end */
	if (t->kind == ASM_TARGET_LABEL)
		asm_label_report(ctx, t, fault);
}

int asm_resolve(struct asm_ctx *ctx, struct scg_prog *out)
{
	int r = lprog_error(ctx->lp);
	if (r < 0)
		return r;
	asm_labels_check_end(ctx);
	lprog_check(ctx->lp, report_fault, ctx);
	if (ctx->errors || ctx->nomem)
		return ctx->nomem ? -ENOMEM : -EINVAL;
	struct lprog_report rep;
	r = lprog_resolve(ctx->lp, out, NULL, &rep);
	if (r == -E2BIG) {
		asm_error(ctx, 0, 0, "asm-too-long", "split the filter, or bring far jump targets closer",
			  "%zu instructions after adding %zu JA trampolines for conditional jumps farther than %u; the kernel accepts at most %u",
			  rep.len, rep.trampolines, SCG_BPF_JUMP_REACH, SCG_BPF_MAXINSNS);
		return -EINVAL;
	}
	return r;
}
