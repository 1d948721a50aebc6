/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator: runs seccomp filters exactly as the kernel does, one filter
 * or a stack, and reports the action the kernel would take.
 */
#ifndef SYSCAGE_EMU_H
#define SYSCAGE_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/bpf.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * struct seccomp_data, as values.  The emulator lays it out in the byte
 * order of the ABI named by @arch (bit 30 of AUDIT_ARCH_* = little endian),
 * so a big-endian filter sees its argument words where its kernel puts them.
 */
struct scg_seccomp_data {
	uint32_t nr; /* the kernel's int nr, as its 32-bit pattern */
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t args[6];
};

/* One executed instruction, for tracing. */
struct scg_emu_step {
	size_t filter;      /* index in the stack passed to scg_emu_stack() */
	size_t pc;
	struct scg_insn insn;
	uint32_t a, x;      /* registers after the instruction */
};

typedef void (*scg_emu_trace_fn)(void *ctx, const struct scg_emu_step *step);

/*
 * Runs one filter.  @prog must be accepted by the kernel (scg_verify());
 * otherwise -EINVAL.  Sets *@ret to the filter's return value and, if
 * @executed is not NULL, the number of instructions executed.
 */
SCG_API int scg_emu_run(const struct scg_prog *prog, const struct scg_seccomp_data *data,
			uint32_t *ret, size_t *executed, scg_emu_trace_fn trace, void *ctx);

struct scg_emu_result {
	uint32_t ret;          /* winning raw return value, as the filter returned it */
	enum scg_action action; /* what the kernel does; SCG_ACTION_KILL_PROCESS for unknown values */
	uint16_t data;         /* ERRNO (capped at 4095), TRAP or TRACE data; 0 otherwise */
	size_t winner;         /* index of the filter whose value won */
	bool unknown_action;   /* the winning value was not a known action (kills the process) */
	bool never_filtered;   /* the kernel lets this syscall through without running filters */
	size_t executed_total; /* instructions executed over all filters */
};

/*
 * Runs a stack of @n filters installed in order progs[0] (oldest) ...
 * progs[n-1] (newest) and combines them with the kernel's precedence: all
 * filters run, newest first; the smallest (s32)(ret & 0xffff0000) wins and
 * on a tie the newest filter's full value is kept.  @executed, when not NULL,
 * receives per-filter instruction counts (@n entries).  Syscalls the kernel
 * never filters (x86_64 uretprobe and uprobe) report ALLOW with
 * @never_filtered set.  Returns 0 or -EINVAL.
 */
SCG_API int scg_emu_stack(const struct scg_prog *progs, size_t n,
			  const struct scg_seccomp_data *data, struct scg_emu_result *res,
			  size_t *executed, scg_emu_trace_fn trace, void *ctx);

/*
 * scg_emu_stack() without checking the programs first, for callers that run
 * the same stack on many inputs and have had each program accepted by
 * scg_verify() once.  Any program is safe to run (every load is bounds
 * checked and jumps only go forward), but the answer is the kernel's only
 * for programs the kernel would load.  @rets, when not NULL, receives each
 * filter's own return value (@n entries, indexed like @progs).  Returns 0,
 * or -EINVAL for an empty stack.
 */
SCG_API int scg_emu_stack_unchecked(const struct scg_prog *progs, size_t n,
				    const struct scg_seccomp_data *data,
				    struct scg_emu_result *res, size_t *executed, uint32_t *rets,
				    scg_emu_trace_fn trace, void *ctx);

/* Canonical form of the effective action: "ERRNO(4095)", "KILL_PROCESS", ... */
SCG_API int scg_emu_result_format(const struct scg_emu_result *res, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_EMU_H */
