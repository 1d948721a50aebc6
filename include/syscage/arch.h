/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ABIs and their syscall tables.
 *
 * One descriptor per kernel ABI as seccomp sees it: the AUDIT_ARCH_* value
 * the kernel writes into seccomp_data.arch, word size, byte order (which
 * decides where the low and high 32-bit words of each argument sit), and
 * the syscall name <-> number table.  Numbers are exactly what the kernel
 * puts in seccomp_data.nr: x32 numbers carry bit 30, MIPS numbers carry
 * their ABI base (4000, 5000, 6000).
 *
 * Descriptors are static and never freed.
 */
#ifndef SYSCAGE_ARCH_H
#define SYSCAGE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* AUDIT_ARCH_* building blocks (linux/audit.h), defined here so the build
 * never depends on the host's kernel headers. */
#define SCG_AUDIT_ARCH_64BIT 0x80000000U
#define SCG_AUDIT_ARCH_LE 0x40000000U
#define SCG_AUDIT_ARCH_MIPS64_N32 0x20000000U

/* Bit 30 of seccomp_data.nr marks an x32 syscall (arch is still X86_64). */
#define SCG_X32_SYSCALL_BIT 0x40000000U

/* Offsets of struct seccomp_data fields. */
#define SCG_DATA_NR 0U
#define SCG_DATA_ARCH 4U
#define SCG_DATA_IP 8U
#define SCG_DATA_ARGS 16U
#define SCG_DATA_SIZE 64U

struct scg_arch; /* opaque, static */

/* Canonical name ("x86_64", "x86", "x32", "aarch64", "mipsel64n32", ...). */
SCG_API const char *scg_arch_name(const struct scg_arch *arch);
/* Its AUDIT_ARCH_* value, as seccomp_data.arch carries it; 0 for NULL. */
SCG_API uint32_t scg_arch_audit(const struct scg_arch *arch);
SCG_API unsigned scg_arch_bits(const struct scg_arch *arch); /* 32 or 64 */
/* Whether the ABI is big-endian (high word first in seccomp_data's 64-bit fields); NULL: false. */
SCG_API bool scg_arch_big_endian(const struct scg_arch *arch);
/* Bits that every syscall number of this ABI carries (SCG_X32_SYSCALL_BIT for x32, else 0). */
SCG_API uint32_t scg_arch_nr_flags(const struct scg_arch *arch);

/*
 * Offset in struct seccomp_data of the low (@high false) or high (@high true)
 * 32-bit word of argument @arg (0..5), in the ABI's own byte order.
 * Returns -EINVAL for @arg > 5.
 */
SCG_API int scg_arch_arg_offset(const struct scg_arch *arch, unsigned arg, bool high);
/* Same for the instruction pointer. */
SCG_API unsigned scg_arch_ip_offset(const struct scg_arch *arch, bool high);

/* All known ABIs, in a stable order. */
SCG_API size_t scg_arch_count(void);
SCG_API const struct scg_arch *scg_arch_at(size_t index);

/*
 * Each ABI's bit in a rule's arch_mask (struct scg_rule_spec).  The values
 * are fixed, like an enum in a file format: a new ABI takes an unused bit,
 * and neither the order of scg_arch_at() nor a new ABI ever moves one.
 */
#define SCG_ARCH_BIT_X86_64 (1U << 0)
#define SCG_ARCH_BIT_X86 (1U << 1)
#define SCG_ARCH_BIT_X32 (1U << 2)
#define SCG_ARCH_BIT_AARCH64 (1U << 3)
#define SCG_ARCH_BIT_ARM (1U << 4)
#define SCG_ARCH_BIT_RISCV64 (1U << 5)
#define SCG_ARCH_BIT_LOONGARCH64 (1U << 6)
#define SCG_ARCH_BIT_MIPS (1U << 7)
#define SCG_ARCH_BIT_MIPSEL (1U << 8)
#define SCG_ARCH_BIT_MIPS64 (1U << 9)
#define SCG_ARCH_BIT_MIPSEL64 (1U << 10)
#define SCG_ARCH_BIT_MIPS64N32 (1U << 11)
#define SCG_ARCH_BIT_MIPSEL64N32 (1U << 12)
#define SCG_ARCH_BIT_PPC (1U << 13)
#define SCG_ARCH_BIT_PPC64 (1U << 14)
#define SCG_ARCH_BIT_PPC64LE (1U << 15)
#define SCG_ARCH_BIT_S390 (1U << 16)
#define SCG_ARCH_BIT_S390X (1U << 17)
#define SCG_ARCH_BIT_PARISC (1U << 18)
#define SCG_ARCH_BIT_PARISC64 (1U << 19)
#define SCG_ARCH_BIT_M68K (1U << 20)
#define SCG_ARCH_BIT_SH (1U << 21)
#define SCG_ARCH_BIT_SHEB (1U << 22)

/* @arch's SCG_ARCH_BIT_* value; 0 for NULL. */
SCG_API uint32_t scg_arch_mask_bit(const struct scg_arch *arch);
/* The ABI whose SCG_ARCH_BIT_* value is @bit (exactly one bit set), or NULL. */
SCG_API const struct scg_arch *scg_arch_from_mask_bit(uint32_t bit);

/* Other names scg_arch_lookup() accepts for @arch: a NULL-terminated static list. */
SCG_API const char *const *scg_arch_aliases(const struct scg_arch *arch);

/* By canonical name or alias ("i386", "amd64", "arm64", ...); case-insensitive.  NULL if unknown. */
SCG_API const struct scg_arch *scg_arch_lookup(const char *name);
/* The closest known name to a misspelled one, for "did you mean" hints, or NULL. */
SCG_API const char *scg_arch_suggest(const char *name);
/* The ABI this library was built for; NULL when built for a target none of them describes. */
SCG_API const struct scg_arch *scg_arch_native(void);

/*
 * The ABI a (seccomp_data.arch, seccomp_data.nr) pair belongs to: X86_64
 * with bit 30 set in @nr is x32.  NULL for an unknown AUDIT_ARCH value.
 */
SCG_API const struct scg_arch *scg_arch_from_audit(uint32_t audit_arch, uint32_t nr);

/*
 * ABIs a process of this ABI can also enter the kernel with (x86_64: x86 and
 * x32; aarch64: arm; ...), not counting @arch itself.  Writes up to @max
 * pointers to @out and returns how many exist.
 */
SCG_API size_t scg_arch_companions(const struct scg_arch *arch, const struct scg_arch **out,
				   size_t max);

/* --- Syscall tables --------------------------------------------------- */

/*
 * Resolves @name on @arch.  Returns 0 and sets *@nr; -ENOSYS when the name is
 * a syscall of some ABI but not of this one; -ENOENT when no ABI knows it.
 */
SCG_API int scg_syscall_lookup(const struct scg_arch *arch, const char *name, uint32_t *nr);
/* Name of @nr on @arch, or NULL. */
SCG_API const char *scg_syscall_name(const struct scg_arch *arch, uint32_t nr);
/* Closest syscall name on @arch to a misspelled @name (edit distance), or NULL. */
SCG_API const char *scg_syscall_suggest(const struct scg_arch *arch, const char *name);
/* Entries of @arch's table in increasing number order. */
SCG_API size_t scg_syscall_count(const struct scg_arch *arch);
SCG_API int scg_syscall_at(const struct scg_arch *arch, size_t index, const char **name,
			   uint32_t *nr);
/* Highest syscall number of @arch's table (the kernel's "newest known" mark). */
SCG_API uint32_t scg_syscall_max(const struct scg_arch *arch);

/* --- Syscall parameters (from the man pages' SYNOPSIS) ---------------- */

/* How much of its register a parameter's type fills. */
enum scg_param_kind {
	SCG_PARAM_32,	   /* int-like: the kernel reads the low 32 bits */
	SCG_PARAM_LONG,	   /* pointer, long, size_t: as wide as the ABI's registers */
	SCG_PARAM_64,	   /* a 64-bit integer: two registers on 32-bit ABIs */
	SCG_PARAM_UNKNOWN, /* a type the table does not classify */
};

struct scg_syscall_param {
	const char *name; /* "" when the name would clash with argN */
	const char *type; /* the C type as the man page spells it */
	enum scg_param_kind kind;
};

/* Read-only entries of a table owned by the library; fields may be added at the end. */
struct scg_syscall_params {
	const char *syscall;
	/* ABIs where the names do not apply, comma-separated; "32bit" means
	 * every ABI without 64-bit registers (see scg_syscall_params_apply()). */
	const char *unsupported;
	unsigned char count;
	struct scg_syscall_param params[6];
};

/* The parameter list of @syscall (by name, the same on every ABI), or NULL. */
SCG_API const struct scg_syscall_params *scg_syscall_params(const char *syscall);
/*
 * True when @params's names and positions hold on @arch: the ABI is not in
 * its unsupported list, and no 64-bit parameter takes two registers before
 * argument @index (pass 5 to ask about the whole list).
 */
SCG_API bool scg_syscall_params_apply(const struct scg_syscall_params *params,
				      const struct scg_arch *arch, unsigned index);
/*
 * How many bits of argument @index (0..5) of @syscall the policy language
 * compares when the argument is named (docs/policy.md, "Parameter names"):
 * 32 for int-like parameters (int, unsigned int, pid_t, ...) on every ABI,
 * the register width for pointers and longs, 64 for 64-bit integers.  This
 * is the part of the register the kernel reads.  0 when the table cannot
 * tell: an unknown syscall or argument, a type it does not classify, or an
 * ABI where the names do not apply (a 64-bit parameter before it takes two
 * registers on 32-bit ABIs, clone on s390).
 */
SCG_API unsigned scg_syscall_arg_width(const struct scg_arch *arch, const char *syscall,
				       unsigned index);

/* --- errno names (numbers differ on MIPS and PA-RISC) ----------------- */

/* "EPERM" -> 1.  Returns 0 or -ENOENT.  @arch NULL means the generic numbering. */
SCG_API int scg_errno_lookup(const struct scg_arch *arch, const char *name, uint32_t *value);
/* 1 -> "EPERM", or NULL. */
SCG_API const char *scg_errno_name(const struct scg_arch *arch, uint32_t value);
/* Closest errno name to a misspelled @name in any numbering (edit distance), or NULL. */
SCG_API const char *scg_errno_suggest(const char *name);

/* AUDIT_ARCH_* names: "AUDIT_ARCH_X86_64" <-> 0xc000003e. */
SCG_API int scg_audit_arch_lookup(const char *name, uint32_t *value);
SCG_API const char *scg_audit_arch_name(uint32_t value);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_ARCH_H */
