/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Assembler and disassembler for seccomp classic BPF.
 *
 * The syntax is the kernel's bpf_asm (tools/bpf) plus seccomp names; it is
 * documented in docs/asm.md.
 */
#ifndef SYSCAGE_ASM_H
#define SYSCAGE_ASM_H

#include <stddef.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scg_asm_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* Target ABI: resolves syscall names and the .lo/.hi argument words.  NULL: native. */
	const struct scg_arch *arch;
	/* Name used in diagnostics ("<stdin>" when NULL). */
	const char *filename;
	/*
	 * A text whose first line is a comment ending in "names for ABI", as
	 * scg_disasm() writes it ("; 36 instructions, names for s390x"), is
	 * read with that ABI's names.  false: @arch, when set, must be that ABI
	 * (another one is an error); true: @arch only names the words of a
	 * text without such a header, and the header wins.
	 */
	bool arch_is_default;
};

/*
 * Assembles @len bytes of @text.  Conditional jumps to labels farther than
 * 255 instructions get JA trampolines.  On success returns 0 and *@out is a
 * new program (caller releases).  On error returns -EINVAL (or -ENOMEM),
 * leaves *@out zeroed, and @diag holds file:line:column errors with hints.
 */
SCG_API int scg_asm(const char *text, size_t len, const struct scg_asm_options *opts,
		    struct scg_prog *out, struct scg_diag *diag);

enum scg_disasm_format {
	SCG_DISASM_ASM,   /* annotated assembler that reassembles to identical bytes */
	SCG_DISASM_TABLE, /* index, code, jt, jf, k and a pseudo-C line */
	SCG_DISASM_DOT,   /* control-flow graph for Graphviz */
	SCG_DISASM_C,     /* a ready-to-compile struct sock_filter array */
};

/*
 * Renders @prog (valid or not) in @format for @arch (NULL: native).  On
 * success *@text is a NUL-terminated malloc()ed string the caller frees.
 * Returns 0, -EINVAL or -ENOMEM.
 */
SCG_API int scg_disasm(const struct scg_prog *prog, const struct scg_arch *arch,
		       enum scg_disasm_format format, char **text);

/*
 * Renders one instruction, @insn at index @pc of a program of @prog_len
 * instructions, as the disassembler writes it: jump targets inside the
 * program as labels "L<index>", others as "+N"; argument words and return
 * values named for @arch (NULL: numbers only).  On success *@text is a
 * malloc()ed string the caller frees.  Returns 0, -EINVAL or -ENOMEM.
 */
SCG_API int scg_insn_text(const struct scg_insn *insn, size_t pc, size_t prog_len,
			  const struct scg_arch *arch, char **text);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_ASM_H */
