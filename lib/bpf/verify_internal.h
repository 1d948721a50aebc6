/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the verifier's files share: the kernel's accept/reject decision in a
 * form that allocates nothing (verify.c), the warnings (verify_warn.c) and
 * the translated length (ebpf_len.c).
 */
#ifndef SCG_LIB_BPF_VERIFY_INTERNAL_H
#define SCG_LIB_BPF_VERIFY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/verify.h>

/* Why the kernel refuses a program: filled by verify_decide(). */
struct refusal {
	int kernel_errno;  /* EINVAL */
	long insn;	   /* offending instruction, -1 for the length rule */
	const char *rule;  /* stable rule id */
	const char *hint;  /* NULL or one line */
	char message[192]; /* one line, without the "insn N:" prefix */
};

/*
 * Runs the kernel's checks in the kernel's order (length, bpf_check_classic,
 * check_load_and_stores, seccomp_check_filter).  Returns true when the
 * program loads; otherwise fills @why (which may be NULL) and returns false.
 */
bool verify_decide(const struct scg_prog *prog, struct refusal *why);

/*
 * Appends the warnings for an accepted @prog to @diag (SCG_SEV_WARNING).
 * @arch (NULL: native) shapes the hints.  Returns 0 or -ENOMEM.
 */
int verify_warn(const struct scg_prog *prog, const struct scg_arch *arch,
		    struct scg_diag *diag);

/* Translated length of one instruction (the 3-instruction prologue not included). */
size_t insn_ebpf_len(const struct scg_insn *insn);

/* Lower-case mnemonic of a code the kernel knows ("jeq", "ld", "div"...), or NULL. */
const char *verify_mnemonic(uint16_t code);

#endif
