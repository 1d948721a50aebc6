/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Classic BPF as seccomp uses it: instructions, programs, raw filter files
 * and seccomp return values (actions).
 */
#ifndef SYSCAGE_BPF_H
#define SYSCAGE_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/diag.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same layout as the kernel's struct sock_filter (8 bytes, native order). */
struct scg_insn {
	uint16_t code;
	uint8_t jt;
	uint8_t jf;
	uint32_t k;
};

/* Kernel limits. */
#define SCG_BPF_MAXINSNS 4096U
#define SCG_BPF_MEMWORDS 16U
#define SCG_BPF_JUMP_REACH 255U

/*
 * A program: @len instructions at @insns, owned by whoever holds the struct.
 * Release with scg_prog_release(); a zeroed struct is an empty program.
 */
struct scg_prog {
	struct scg_insn *insns;
	size_t len;
};

/* Frees @prog->insns and zeroes @prog.  NULL is a no-op. */
SCG_API void scg_prog_release(struct scg_prog *prog);
/* Deep copy into @out (overwritten, not released).  0 or -ENOMEM. */
SCG_API int scg_prog_copy(struct scg_prog *out, const struct scg_prog *src);

/*
 * Parses @size bytes of struct sock_filter records in native byte order
 * (bubblewrap --seccomp, minijail, seccomp_export_bpf()).  Sizes that are
 * 0, not a multiple of 8, or above 4096 instructions are refused with -EINVAL
 * and a diagnostic naming @name.  On success *@out is a new program (caller
 * releases).
 */
SCG_API int scg_prog_from_raw(const void *data, size_t size, const char *name,
			      struct scg_prog *out, struct scg_diag *diag);
/* Reads a raw filter file ("-" is stdin).  I/O errors are -errno with a diagnostic. */
SCG_API int scg_prog_read_file(const char *path, struct scg_prog *out, struct scg_diag *diag);

/* --- opcode fields (values of linux/filter.h) ------------------------- */

#define SCG_BPF_CLASS(code) ((code)&0x07)
#define SCG_BPF_SIZE(code) ((code)&0x18)
#define SCG_BPF_MODE(code) ((code)&0xe0)
#define SCG_BPF_OP(code) ((code)&0xf0)
#define SCG_BPF_SRC(code) ((code)&0x08)
#define SCG_BPF_RVAL(code) ((code)&0x18)
#define SCG_BPF_MISCOP(code) ((code)&0xf8)

/* --- seccomp return values -------------------------------------------- */

#define SCG_RET_KILL_PROCESS 0x80000000U
#define SCG_RET_KILL_THREAD 0x00000000U
#define SCG_RET_TRAP 0x00030000U
#define SCG_RET_ERRNO 0x00050000U
#define SCG_RET_USER_NOTIF 0x7fc00000U
#define SCG_RET_TRACE 0x7ff00000U
#define SCG_RET_LOG 0x7ffc0000U
#define SCG_RET_ALLOW 0x7fff0000U
#define SCG_RET_ACTION_FULL 0xffff0000U
#define SCG_RET_DATA 0x0000ffffU
#define SCG_MAX_ERRNO 4095U

enum scg_action {
	SCG_ACTION_KILL_PROCESS,
	SCG_ACTION_KILL_THREAD,
	SCG_ACTION_TRAP,
	SCG_ACTION_ERRNO,
	SCG_ACTION_USER_NOTIF,
	SCG_ACTION_TRACE,
	SCG_ACTION_LOG,
	SCG_ACTION_ALLOW,
	SCG_ACTION_UNKNOWN, /* an action value the kernel does not know: kills the process */
};

/* Classifies a return value by its action half (data bits ignored). */
SCG_API enum scg_action scg_action_of(uint32_t ret);
/* "ALLOW", "KILL_PROCESS", ..., "UNKNOWN". */
SCG_API const char *scg_action_name(enum scg_action action);
/* True for the data-carrying actions ERRNO, TRAP and TRACE. */
SCG_API bool scg_action_has_data(enum scg_action action);

/*
 * Canonical text of a return value: "ALLOW", "LOG", "KILL_PROCESS",
 * "KILL_THREAD", "TRAP(n)", "ERRNO(n)", "TRACE(n)", "USER_NOTIF", or
 * "UNKNOWN(0x12345678)".  Data of actions that carry none is not shown.
 * snprintf() contract.
 */
SCG_API int scg_ret_format(uint32_t ret, char *buf, size_t size);

/*
 * Parses an action as written in assembler and CLI options: "ALLOW",
 * "KILL_PROCESS", "KILL" (= KILL_THREAD, the kernel's historical name),
 * "KILL_THREAD", "TRAP(3)", "ERRNO(EPERM)", "ERRNO(1)", "TRACE(1)", "LOG",
 * "USER_NOTIF"; case-insensitive; errno names resolved for @arch (NULL:
 * generic numbering).  Returns 0 or -EINVAL.
 */
struct scg_arch;
SCG_API int scg_ret_parse(const char *text, const struct scg_arch *arch, uint32_t *ret);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_BPF_H */
