/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage's libseccomp-compatible interface (libseccomp 2.6 API).
 *
 * Names, values, types and structure layouts are libseccomp's, so programs
 * written for libseccomp build against this header unchanged and binaries
 * built against libseccomp run with syscage's libseccomp.so.2.  The filters
 * behind it come from syscage's policy model and compiler; docs/libseccomp.md
 * lists every intentional difference.
 *
 * Every function returning int returns 0 (or a documented non-negative
 * value) on success and a negative errno on failure.
 */
#ifndef _SECCOMP_H
#define _SECCOMP_H

#include <elf.h>
#include <inttypes.h>
#include <stddef.h>
#include <asm/unistd.h>
#include <linux/audit.h>
#include <linux/types.h>
#include <linux/seccomp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- version -------------------------------------------------------------- */

/* The libseccomp API version this library implements. */
#define SCMP_VER_MAJOR 2
#define SCMP_VER_MINOR 6
#define SCMP_VER_MICRO 0

struct scmp_version {
	unsigned int major;
	unsigned int minor;
	unsigned int micro;
};

/* --- types ---------------------------------------------------------------- */

/* A filter under construction (opaque). */
typedef void *scmp_filter_ctx;

enum scmp_filter_attr {
	_SCMP_FLTATR_MIN = 0,
	SCMP_FLTATR_ACT_DEFAULT = 1,  /* default action (read-only) */
	SCMP_FLTATR_ACT_BADARCH = 2,  /* action for calls from an ABI the filter lacks */
	SCMP_FLTATR_CTL_NNP = 3,      /* set NO_NEW_PRIVS before loading (default 1) */
	SCMP_FLTATR_CTL_TSYNC = 4,    /* load on every thread */
	SCMP_FLTATR_API_TSKIP = 5,    /* accept rules for syscall -1 */
	SCMP_FLTATR_CTL_LOG = 6,      /* kernel logs every action but ALLOW */
	SCMP_FLTATR_CTL_SSB = 7,      /* no speculative-store-bypass mitigation */
	SCMP_FLTATR_CTL_OPTIMIZE = 8, /* 1: priority and complexity, 2: binary tree */
	SCMP_FLTATR_API_SYSRAWRC = 9, /* report the kernel's errno instead of -ECANCELED */
	SCMP_FLTATR_CTL_WAITKILL = 10, /* notifications: only fatal signals once received */
	_SCMP_FLTATR_MAX,
};

enum scmp_compare {
	_SCMP_CMP_MIN = 0,
	SCMP_CMP_NE = 1,
	SCMP_CMP_LT = 2,
	SCMP_CMP_LE = 3,
	SCMP_CMP_EQ = 4,
	SCMP_CMP_GE = 5,
	SCMP_CMP_GT = 6,
	SCMP_CMP_MASKED_EQ = 7, /* (arg & datum_a) == datum_b */
	_SCMP_CMP_MAX,
};

typedef uint64_t scmp_datum_t;

/* One argument comparison; all comparisons of a rule must hold. */
struct scmp_arg_cmp {
	unsigned int arg; /* 0..5 */
	enum scmp_compare op;
	scmp_datum_t datum_a;
	scmp_datum_t datum_b;
};

/* --- architecture tokens -------------------------------------------------- */

#define SCMP_ARCH_NATIVE 0

/* The building blocks, for kernel headers too old to have them. */
#ifndef __AUDIT_ARCH_64BIT
#define __AUDIT_ARCH_64BIT 0x80000000
#endif
#ifndef __AUDIT_ARCH_LE
#define __AUDIT_ARCH_LE 0x40000000
#endif
#ifndef __AUDIT_ARCH_CONVENTION_MIPS64_N32
#define __AUDIT_ARCH_CONVENTION_MIPS64_N32 0x20000000
#endif
#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif
#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef AUDIT_ARCH_AARCH64
#define AUDIT_ARCH_AARCH64 (EM_AARCH64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif
#ifndef AUDIT_ARCH_MIPS64N32
#define AUDIT_ARCH_MIPS64N32 (EM_MIPS | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_CONVENTION_MIPS64_N32)
#endif
#ifndef AUDIT_ARCH_MIPSEL64N32
#define AUDIT_ARCH_MIPSEL64N32                                                                    \
	(EM_MIPS | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE | __AUDIT_ARCH_CONVENTION_MIPS64_N32)
#endif
#ifndef AUDIT_ARCH_RISCV64
#define AUDIT_ARCH_RISCV64 (EM_RISCV | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif
#ifndef AUDIT_ARCH_LOONGARCH64
#define AUDIT_ARCH_LOONGARCH64 (EM_LOONGARCH | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif
#ifndef AUDIT_ARCH_M68K
#define AUDIT_ARCH_M68K (EM_68K)
#endif
#ifndef AUDIT_ARCH_SH
#define AUDIT_ARCH_SH (EM_SH)
#endif
#ifndef AUDIT_ARCH_SHEL
#define AUDIT_ARCH_SHEL (EM_SH | __AUDIT_ARCH_LE)
#endif

#define SCMP_ARCH_X86 AUDIT_ARCH_I386
#define SCMP_ARCH_X86_64 AUDIT_ARCH_X86_64
/* Not the kernel's value: x32 calls report AUDIT_ARCH_X86_64, so x32 needs a token of its own. */
#define SCMP_ARCH_X32 (EM_X86_64 | __AUDIT_ARCH_LE)
#define SCMP_ARCH_ARM AUDIT_ARCH_ARM
#define SCMP_ARCH_AARCH64 AUDIT_ARCH_AARCH64
#define SCMP_ARCH_LOONGARCH64 AUDIT_ARCH_LOONGARCH64
#define SCMP_ARCH_M68K AUDIT_ARCH_M68K
#define SCMP_ARCH_MIPS AUDIT_ARCH_MIPS
#define SCMP_ARCH_MIPS64 AUDIT_ARCH_MIPS64
#define SCMP_ARCH_MIPS64N32 AUDIT_ARCH_MIPS64N32
#define SCMP_ARCH_MIPSEL AUDIT_ARCH_MIPSEL
#define SCMP_ARCH_MIPSEL64 AUDIT_ARCH_MIPSEL64
#define SCMP_ARCH_MIPSEL64N32 AUDIT_ARCH_MIPSEL64N32
#define SCMP_ARCH_PPC AUDIT_ARCH_PPC
#define SCMP_ARCH_PPC64 AUDIT_ARCH_PPC64
#ifndef AUDIT_ARCH_PPC64LE
#define AUDIT_ARCH_PPC64LE (EM_PPC64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif
#define SCMP_ARCH_PPC64LE AUDIT_ARCH_PPC64LE
#define SCMP_ARCH_S390 AUDIT_ARCH_S390
#define SCMP_ARCH_S390X AUDIT_ARCH_S390X
#define SCMP_ARCH_PARISC AUDIT_ARCH_PARISC
#define SCMP_ARCH_PARISC64 AUDIT_ARCH_PARISC64
#define SCMP_ARCH_RISCV64 AUDIT_ARCH_RISCV64
#define SCMP_ARCH_SHEB AUDIT_ARCH_SH
#define SCMP_ARCH_SH AUDIT_ARCH_SHEL

/* --- rules ---------------------------------------------------------------- */

/* A syscall by name: the build ABI's number, or a pseudo number (see seccomp-syscalls.h). */
#define SCMP_SYS(x) (__SNR_##x)

/* Argument counting for the 32-bit comparison macros below (internal). */
#define _SCMP_VA_NUM_ARGS(...) _SCMP_VA_NUM_ARGS_IMPL(__VA_ARGS__, 2, 1)
#define _SCMP_VA_NUM_ARGS_IMPL(_1, _2, N, ...) N
#define _SCMP_MACRO_DISPATCHER(func, ...)                                                          \
	_SCMP_MACRO_DISPATCHER_IMPL1(func, _SCMP_VA_NUM_ARGS(__VA_ARGS__))
#define _SCMP_MACRO_DISPATCHER_IMPL1(func, nargs) _SCMP_MACRO_DISPATCHER_IMPL2(func, nargs)
#define _SCMP_MACRO_DISPATCHER_IMPL2(func, nargs) func##nargs
/* The 32-bit forms cut each datum to 32 bits first, so a negative int does not sign-extend. */
#define _SCMP_CMP32_1(x, y, z) SCMP_CMP64(x, y, (uint32_t)(z))
#define _SCMP_CMP32_2(x, y, z, q) SCMP_CMP64(x, y, (uint32_t)(z), (uint32_t)(q))

/* SCMP_CMP(arg, op, datum_a[, datum_b]) */
#define SCMP_CMP64(...) ((struct scmp_arg_cmp){ __VA_ARGS__ })
#define SCMP_CMP SCMP_CMP64
#define SCMP_CMP32(x, y, ...) _SCMP_MACRO_DISPATCHER(_SCMP_CMP32_, __VA_ARGS__)(x, y, __VA_ARGS__)

#define SCMP_A0_64(...) SCMP_CMP64(0, __VA_ARGS__)
#define SCMP_A0 SCMP_A0_64
#define SCMP_A0_32(x, ...) SCMP_CMP32(0, x, __VA_ARGS__)
#define SCMP_A1_64(...) SCMP_CMP64(1, __VA_ARGS__)
#define SCMP_A1 SCMP_A1_64
#define SCMP_A1_32(x, ...) SCMP_CMP32(1, x, __VA_ARGS__)
#define SCMP_A2_64(...) SCMP_CMP64(2, __VA_ARGS__)
#define SCMP_A2 SCMP_A2_64
#define SCMP_A2_32(x, ...) SCMP_CMP32(2, x, __VA_ARGS__)
#define SCMP_A3_64(...) SCMP_CMP64(3, __VA_ARGS__)
#define SCMP_A3 SCMP_A3_64
#define SCMP_A3_32(x, ...) SCMP_CMP32(3, x, __VA_ARGS__)
#define SCMP_A4_64(...) SCMP_CMP64(4, __VA_ARGS__)
#define SCMP_A4 SCMP_A4_64
#define SCMP_A4_32(x, ...) SCMP_CMP32(4, x, __VA_ARGS__)
#define SCMP_A5_64(...) SCMP_CMP64(5, __VA_ARGS__)
#define SCMP_A5 SCMP_A5_64
#define SCMP_A5_32(x, ...) SCMP_CMP32(5, x, __VA_ARGS__)

/* --- actions (seccomp return values) --------------------------------------- */

#define SCMP_ACT_KILL_PROCESS 0x80000000U
#define SCMP_ACT_KILL_THREAD 0x00000000U
#define SCMP_ACT_KILL SCMP_ACT_KILL_THREAD
#define SCMP_ACT_TRAP 0x00030000U
#define SCMP_ACT_NOTIFY 0x7fc00000U
#define SCMP_ACT_ERRNO(x) (0x00050000U | ((x)&0x0000ffffU))
#define SCMP_ACT_TRACE(x) (0x7ff00000U | ((x)&0x0000ffffU))
#define SCMP_ACT_LOG 0x7ffc0000U
#define SCMP_ACT_ALLOW 0x7fff0000U

/* Kernel headers older than 5.0 lack user notification. */
#ifndef SECCOMP_RET_USER_NOTIF
#define SECCOMP_RET_USER_NOTIF 0x7fc00000U

struct seccomp_notif {
	__u64 id;
	__u32 pid;
	__u32 flags;
	struct seccomp_data data;
};

struct seccomp_notif_resp {
	__u64 id;
	__s64 val;
	__s32 error;
	__u32 flags;
};
#endif

/* Kernel headers older than 5.9 lack SECCOMP_IOCTL_NOTIF_ADDFD. */
#ifndef SECCOMP_ADDFD_FLAG_SETFD
#define SECCOMP_ADDFD_FLAG_SETFD (1UL << 0)
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)

struct seccomp_notif_addfd {
	__u64 id;
	__u32 flags;
	__u32 srcfd;
	__u32 newfd;
	__u32 newfd_flags;
};
#endif

/* --- functions ------------------------------------------------------------ */

/* The libseccomp version implemented (static storage). */
const struct scmp_version *seccomp_version(void);

/*
 * API level: 1 base; 2 TSYNC; 3 LOG and KILL_PROCESS; 4 SSB; 5 NOTIFY;
 * 6 TSYNC together with NOTIFY; 7 WAITKILL.  seccomp_api_get() reports what
 * the running kernel supports unless seccomp_api_set() chose a level.
 */
unsigned int seccomp_api_get(void);
int seccomp_api_set(unsigned int level);

/* A new filter with @def_action for every call no rule decides; NULL on failure. */
scmp_filter_ctx seccomp_init(uint32_t def_action);
/* Empties @ctx as seccomp_init() would; with @ctx NULL, resets the process-wide
 * state (forgets the API level, closes the notification fd), e.g. in a forked child. */
int seccomp_reset(scmp_filter_ctx ctx, uint32_t def_action);
void seccomp_release(scmp_filter_ctx ctx);
/* Moves @ctx_src's ABIs and rules into @ctx_dst and releases @ctx_src. */
int seccomp_merge(scmp_filter_ctx ctx_dst, scmp_filter_ctx ctx_src);

uint32_t seccomp_arch_resolve_name(const char *arch_name);
uint32_t seccomp_arch_native(void);
/* 0 when present, -EEXIST when absent. */
int seccomp_arch_exist(const scmp_filter_ctx ctx, uint32_t arch_token);
int seccomp_arch_add(scmp_filter_ctx ctx, uint32_t arch_token);
int seccomp_arch_remove(scmp_filter_ctx ctx, uint32_t arch_token);

/* Compiles (unless precomputed) and installs the filter on the calling thread. */
int seccomp_load(const scmp_filter_ctx ctx);
/* Compiles now, so that seccomp_load() allocates nothing. */
int seccomp_precompute(const scmp_filter_ctx ctx);

int seccomp_attr_get(const scmp_filter_ctx ctx, enum scmp_filter_attr attr, uint32_t *value);
int seccomp_attr_set(scmp_filter_ctx ctx, enum scmp_filter_attr attr, uint32_t value);

/* Name of @num on the ABI (caller frees), or NULL. */
char *seccomp_syscall_resolve_num_arch(uint32_t arch_token, int num);
/* Number of @name on the ABI: native, pseudo (negative), or __NR_SCMP_ERROR. */
int seccomp_syscall_resolve_name_arch(uint32_t arch_token, const char *name);
/* Same, but a multiplexed call resolves to its multiplexer (x86 socket -> socketcall). */
int seccomp_syscall_resolve_name_rewrite(uint32_t arch_token, const char *name);
int seccomp_syscall_resolve_name(const char *name);
/* A hint: higher priorities are tested earlier in the filter. */
int seccomp_syscall_priority(scmp_filter_ctx ctx, int syscall, uint8_t priority);

/* Adds a rule on every ABI of @ctx; @arg_cnt struct scmp_arg_cmp follow. */
int seccomp_rule_add(scmp_filter_ctx ctx, uint32_t action, int syscall, unsigned int arg_cnt, ...);
int seccomp_rule_add_array(scmp_filter_ctx ctx, uint32_t action, int syscall,
			   unsigned int arg_cnt, const struct scmp_arg_cmp *arg_array);
/* As given, without per-ABI rewriting; refused where that is impossible. */
int seccomp_rule_add_exact(scmp_filter_ctx ctx, uint32_t action, int syscall,
			   unsigned int arg_cnt, ...);
int seccomp_rule_add_exact_array(scmp_filter_ctx ctx, uint32_t action, int syscall,
				 unsigned int arg_cnt, const struct scmp_arg_cmp *arg_array);

/* User notification (SCMP_ACT_NOTIFY). */
int seccomp_notify_alloc(struct seccomp_notif **req, struct seccomp_notif_resp **resp);
void seccomp_notify_free(struct seccomp_notif *req, struct seccomp_notif_resp *resp);
int seccomp_notify_receive(int fd, struct seccomp_notif *req);
int seccomp_notify_respond(int fd, struct seccomp_notif_resp *resp);
int seccomp_notify_id_valid(int fd, uint64_t id);
/* Installs a file descriptor in the target; returns its number there. */
int seccomp_notify_addfd(int fd, struct seccomp_notif_addfd *addfd);
/* The listener of the last filter loaded with a NOTIFY rule, or -EFAULT. */
int seccomp_notify_fd(const scmp_filter_ctx ctx);

/* Writes a readable form of the filter to @fd. */
int seccomp_export_pfc(const scmp_filter_ctx ctx, int fd);
/* Writes the BPF program (struct sock_filter records, native order) to @fd. */
int seccomp_export_bpf(const scmp_filter_ctx ctx, int fd);
/* Copies the program into @buf (*@len bytes; set to the size needed), or only
 * reports the size when @buf is NULL.  -ERANGE when @buf is too small. */
int seccomp_export_bpf_mem(const scmp_filter_ctx ctx, void *buf, size_t *len);

/* Rule changes made after start are kept by commit and undone by reject; nestable. */
int seccomp_transaction_start(const scmp_filter_ctx ctx);
void seccomp_transaction_reject(const scmp_filter_ctx ctx);
int seccomp_transaction_commit(const scmp_filter_ctx ctx);

/* --- pseudo syscall numbers ------------------------------------------------ */

/* -1..-99 are reserved. */
#define __NR_SCMP_ERROR -1
#define __NR_SCMP_UNDEF -2

#include <seccomp-syscalls.h>

#ifdef __cplusplus
}
#endif

#endif /* _SECCOMP_H */
