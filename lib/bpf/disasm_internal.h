/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the disassembler's output formats (disasm*.c): what is known
 * about A and the ABI before each instruction, and the comments derived
 * from it.
 */
#ifndef SCG_LIB_BPF_DISASM_INTERNAL_H
#define SCG_LIB_BPF_DISASM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/asm.h>
#include <syscage/bpf.h>

#include "bpf/asm_internal.h"
#include "util/strbuf.h"

/* What the accumulator is known to hold. */
enum disasm_a {
	DISASM_A_UNKNOWN,
	DISASM_A_NR,   /* seccomp_data.nr */
	DISASM_A_ARCH, /* seccomp_data.arch */
};

/* Facts that hold on every path reaching an instruction. */
struct disasm_state {
	bool reached;
	enum disasm_a a;
	bool abi_known; /* an arch test on every path says which ABI this is */
	uint32_t audit; /* ... and its AUDIT_ARCH value */
};

struct disasm_info {
	const struct scg_prog *prog;
	const struct scg_arch *arch; /* as given, or native; may be NULL */
	struct disasm_state *in;     /* one per instruction */
	bool *referenced;            /* instruction is a jump target */
};

/* Runs the forward analysis.  0 or -ENOMEM.  Release with disasm_info_release(). */
int disasm_analyze(const struct scg_prog *prog, const struct scg_arch *arch,
		   struct disasm_info *info);
void disasm_info_release(struct disasm_info *info);

/* Options for rendering instruction @pc as assembler text. */
struct asm_text_opts disasm_text_opts(const struct disasm_info *info, size_t pc);

/* Appends the comment for instruction @pc (nothing if there is none to make). */
void disasm_annotate(const struct disasm_info *info, size_t pc, struct strbuf *sb);

/* Jump targets of instruction @pc: its successors, as in the kernel. */
struct disasm_succ {
	uint64_t target[2]; /* may lie past the end */
	unsigned n;         /* 0 (ret), 1 (ja, fall-through) or 2 (conditional) */
	bool conditional;   /* target[0] is the true branch, target[1] the false one */
};
void disasm_successors(const struct scg_prog *prog, size_t pc, struct disasm_succ *out);

/* The output formats. */
int disasm_format_asm(const struct disasm_info *info, struct strbuf *sb);
int disasm_format_table(const struct disasm_info *info, struct strbuf *sb);
int disasm_format_dot(const struct disasm_info *info, struct strbuf *sb);
int disasm_format_c(const struct disasm_info *info, struct strbuf *sb);

/* Pseudo-C for one instruction ("A = arch", "if (A == 0x3e) goto 3; else goto 5"). */
void disasm_pseudo_c(const struct disasm_info *info, size_t pc, struct strbuf *sb);

#endif /* SCG_LIB_BPF_DISASM_INTERNAL_H */
