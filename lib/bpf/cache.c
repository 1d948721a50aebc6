/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's action cache (seccomp_is_const_allow): at attach time the
 * kernel runs each filter once per syscall number with only nr and arch
 * known, and marks the number "always allowed" when the run reaches
 * RET ALLOW using nothing but the handful of instructions it can evaluate
 * without the arguments.  Marked syscalls then skip the filters entirely.
 */
#include <syscage/verify.h>

#include "bpf/opcodes.h"

#define AUDIT_ARCH_X86_64_VALUE 0xc000003eU
#define NR_URETPROBE_X86_64	335U
#define NR_UPROBE_X86_64	336U

/* x86_64 native uretprobe and uprobe are allowed before any filter runs. */
static bool is_uprobe_exception(uint32_t audit_arch, uint32_t nr)
{
	return audit_arch == AUDIT_ARCH_X86_64_VALUE &&
	       (nr == NR_URETPROBE_X86_64 || nr == NR_UPROBE_X86_64);
}

static bool cond_jump_taken(const struct scg_insn *insn, uint32_t a)
{
	switch (BPF_OP(insn->code)) {
	case BPF_JEQ:
		return a == insn->k;
	case BPF_JGE:
		return a >= insn->k;
	case BPF_JGT:
		return a > insn->k;
	default: /* BPF_JSET */
		return (a & insn->k) != 0;
	}
}

bool scg_cache_const_allow(const struct scg_prog *prog, uint32_t audit_arch, uint32_t nr)
{
	if (is_uprobe_exception(audit_arch, nr))
		return true;
	if (!prog || !prog->insns)
		return false;
	uint32_t a = 0;
	/* 64-bit position: a wild ja on an unverified program cannot wrap around. */
	for (uint64_t pc = 0; pc < prog->len; pc++) {
		const struct scg_insn *insn = &prog->insns[pc];
		switch (insn->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (insn->k == SCG_DATA_NR)
				a = nr;
			else if (insn->k == SCG_DATA_ARCH)
				a = audit_arch;
			else
				return false; /* depends on the arguments or the ip */
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= insn->k;
			break;
		case BPF_JMP | BPF_JA:
			pc += insn->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += cond_jump_taken(insn, a) ? insn->jt : insn->jf;
			break;
		case BPF_RET | BPF_K:
			return insn->k ==
			       SCG_RET_ALLOW; /* exactly: ALLOW with data is not cached */
		default:
			return false; /* anything else is beyond the cache emulator */
		}
	}
	return false;
}
