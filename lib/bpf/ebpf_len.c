/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a filter costs against the kernel's per-path limit.  The kernel
 * counts the program after translating it to eBPF (bpf_convert_filter), not
 * the classic instructions the user wrote, so the count follows the
 * translation rules instruction by instruction.
 */
#include <syscage/verify.h>

#include "bpf/opcodes.h"
#include "bpf/verify_internal.h"

/* Clear A, clear X, keep the context pointer. */
#define EBPF_PROLOGUE_LEN 3U

static size_t cond_jump_len(const struct scg_insn *insn)
{
	/* eBPF immediates are signed: a "negative" constant goes through a
	 * register first so the comparison stays unsigned. */
	size_t imm_move = BPF_SRC(insn->code) == BPF_K && (int32_t)insn->k < 0;
	if (insn->jf == 0)
		return imm_move + 1;
	/* With the true branch falling through, JEQ/JGT/JGE become their
	 * inverse (JNE/JLE/JLT); JSET has no inverse. */
	if (insn->jt == 0 && BPF_OP(insn->code) != BPF_JSET)
		return imm_move + 1;
	return imm_move + 2; /* the jump plus a ja for the false branch */
}

size_t insn_ebpf_len(const struct scg_insn *insn)
{
	switch (insn->code) {
	case BPF_RET | BPF_K:
		return 2; /* move the constant into the return register, exit */
	case BPF_ALU | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_MOD | BPF_X:
		return 5; /* zero-extend X, test it, return 0 when it is 0, divide */
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JEQ | BPF_X:
	case BPF_JMP | BPF_JGT | BPF_K:
	case BPF_JMP | BPF_JGT | BPF_X:
	case BPF_JMP | BPF_JGE | BPF_K:
	case BPF_JMP | BPF_JGE | BPF_X:
	case BPF_JMP | BPF_JSET | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_X:
		return cond_jump_len(insn);
	default:
		return 1;
	}
}

size_t scg_prog_ebpf_len(const struct scg_prog *prog)
{
	size_t len = EBPF_PROLOGUE_LEN;
	for (size_t i = 0; i < prog->len; i++)
		len += insn_ebpf_len(&prog->insns[i]);
	return len;
}

size_t scg_stack_capacity(const struct scg_prog *prog)
{
	if (!prog || (prog->len && !prog->insns) || !verify_decide(prog, NULL))
		return 0;
	/* n copies need n * len + (n - 1) * 4 <= limit. */
	size_t len = scg_prog_ebpf_len(prog);
	return (SCG_MAX_INSNS_PER_PATH + SCG_PATH_PENALTY) / (len + SCG_PATH_PENALTY);
}
