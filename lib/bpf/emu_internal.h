/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emulator internals shared by emu.c and emu_stack.c.  Not exported from
 * libsyscage.so.
 *
 * The public entry points check every program before running it.  Callers
 * that run the same programs many times (syscage emu --batch) check them
 * once and then use scg_emu_stack_unchecked() (include/syscage/emu.h).
 */
#ifndef SCG_LIB_BPF_EMU_INTERNAL_H
#define SCG_LIB_BPF_EMU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/emu.h>

/* struct seccomp_data as the sixteen 32-bit words a filter can load. */
#define SCG_EMU_WORDS 16U

/*
 * Lays @data out as a filter of its ABI sees it: word i is what
 * "ld [4*i]" loads.  The byte order comes from data->arch (bit 30 set =
 * little endian: low word of each u64 first; clear = big endian: high word
 * first), never from the host.
 */
void emu_layout(const struct scg_seccomp_data *data, uint32_t words[SCG_EMU_WORDS]);

/*
 * 0 when the kernel would load @prog, -EINVAL otherwise.  This is the only
 * check the emulator needs; after it the unchecked runners give the
 * kernel's answer.
 */
int emu_check(const struct scg_prog *prog);

/*
 * Runs one filter on laid-out data and returns its value.  @filter is only
 * passed on to @trace.  @executed (optional) receives the number of
 * instructions run.  Any @prog is safe to run (no out-of-bounds access, no
 * endless loop), but the result is the kernel's only for programs that
 * emu_check() accepts.
 */
uint32_t emu_exec(const struct scg_prog *prog, const uint32_t words[SCG_EMU_WORDS],
		      size_t filter, size_t *executed, scg_emu_trace_fn trace, void *ctx);

#endif
