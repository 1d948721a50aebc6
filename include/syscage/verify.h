/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verifier: the kernel's load-time decision for a seccomp filter,
 * reproduced exactly (bpf_check_classic, check_load_and_stores,
 * seccomp_check_filter, the per-path limit of a filter stack), with the
 * reason and the instruction index the kernel never gives; plus warnings
 * about programs the kernel accepts but that are probably wrong, and the
 * kernel's action-cache analysis (which syscalls a filter always allows).
 */
#ifndef SYSCAGE_VERIFY_H
#define SYSCAGE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's limit on the sum of translated lengths along one filter chain. */
#define SCG_MAX_INSNS_PER_PATH 32768U
/* Penalty the kernel adds per already-installed filter. */
#define SCG_PATH_PENALTY 4U

struct scg_verify_result {
	bool accepted;     /* the kernel would load this program */
	int kernel_errno;  /* EINVAL (or ENOMEM for a stack over the path limit) when refused */
	long error_insn;   /* index of the offending instruction, -1 if none applies */
	const char *rule;  /* stable id of the rule that refused it, NULL when accepted */
	size_t ebpf_len;   /* translated length the kernel counts (0 when refused) */
};

/*
 * Decides whether the kernel accepts @prog as one seccomp filter.  The
 * refusal (if any) is an SCG_SEV_ERROR diagnostic with the instruction index;
 * warnings (no arch check, x32 not handled, RET A, DIV/shift by X,
 * unreachable code, KILL_THREAD, unknown actions) are SCG_SEV_WARNING and do
 * not change the decision.  @arch (NULL: native) only shapes warnings.
 * Returns 0 when a decision was made (see @res), -errno on internal failure.
 */
SCG_API int scg_verify(const struct scg_prog *prog, const struct scg_arch *arch,
		       struct scg_verify_result *res, struct scg_diag *diag);

/*
 * Decides whether @n programs, installed in order progs[0], progs[1], ...
 * on a task with no filter, all load: each must be accepted on its own and
 * the kernel's per-path limit (translated lengths plus 4 per older filter,
 * at most 32768) must hold at every step.  res->error_insn is -1 and the
 * diagnostic names the filter index for a path-limit refusal.
 */
SCG_API int scg_verify_stack(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
			     struct scg_verify_result *res, struct scg_diag *diag);

/*
 * Length of @prog after the kernel's translation to eBPF (what it counts
 * against the per-path limit).  Only meaningful for accepted programs.
 */
SCG_API size_t scg_prog_ebpf_len(const struct scg_prog *prog);

/* How many copies of @prog the kernel lets one task stack (0 if it refuses @prog). */
SCG_API size_t scg_stack_capacity(const struct scg_prog *prog);

/*
 * The kernel's action-cache test (seccomp_is_const_allow): true when @prog,
 * run with only nr and arch known, always returns exactly ALLOW for
 * (@audit_arch, @nr) using nothing but the instructions the cache emulator
 * understands.  Precondition: the kernel accepts @prog.
 */
SCG_API bool scg_cache_const_allow(const struct scg_prog *prog, uint32_t audit_arch, uint32_t nr);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_VERIFY_H */
