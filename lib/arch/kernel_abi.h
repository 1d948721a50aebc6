/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel interfaces the library calls (seccomp, prctl, ptrace; futex
 * operations for learn), defined once here with the kernel's values, so
 * that the build never depends on the host's headers (older distributions
 * lack PTRACE_SECCOMP_GET_FILTER, the newer seccomp operations, ptrace's
 * syscall info and FUTEX_LOCK_PI2).  The values are
 * kernel ABI and never change.  Filter return values, flags and
 * struct seccomp_data are in the public headers (SCG_RET_*,
 * SCG_FILTER_FLAG_*, SCG_DATA_*); the notification ioctls stay in notify.c,
 * their only user, because their numbers encode the size of the runtime's
 * public notification structs.
 */
#ifndef SCG_LIB_ARCH_KERNEL_ABI_H
#define SCG_LIB_ARCH_KERNEL_ABI_H

#include <stdint.h>

/* seccomp(2) operations */
#define SCG_SECCOMP_SET_MODE_STRICT  0U
#define SCG_SECCOMP_SET_MODE_FILTER  1U
#define SCG_SECCOMP_GET_ACTION_AVAIL 2U
#define SCG_SECCOMP_GET_NOTIF_SIZES  3U

/* prctl(2) options and the seccomp modes PR_GET_SECCOMP reports and PR_SET_SECCOMP takes */
#define SCG_PR_GET_SECCOMP 21
#define SCG_PR_SET_SECCOMP 22
#define SCG_MODE_STRICT	   1UL
#define SCG_MODE_FILTER	   2UL

/* ptrace(2) requests, events and options */
#define SCG_PTRACE_SEIZE		0x4206
#define SCG_PTRACE_INTERRUPT		0x4207
#define SCG_PTRACE_SECCOMP_GET_FILTER	0x420c
#define SCG_PTRACE_GET_SYSCALL_INFO	0x420e
#define SCG_PTRACE_EVENT_FORK		1
#define SCG_PTRACE_EVENT_VFORK		2
#define SCG_PTRACE_EVENT_CLONE		3
#define SCG_PTRACE_EVENT_EXEC		4
#define SCG_PTRACE_EVENT_SECCOMP	7
#define SCG_PTRACE_EVENT_STOP		128
#define SCG_PTRACE_O_TRACEFORK		0x02
#define SCG_PTRACE_O_TRACEVFORK		0x04
#define SCG_PTRACE_O_TRACECLONE		0x08
#define SCG_PTRACE_O_TRACEEXEC		0x10
#define SCG_PTRACE_O_TRACESECCOMP	0x80
#define SCG_PTRACE_O_EXITKILL		0x100000
#define SCG_PTRACE_SYSCALL_INFO_SECCOMP 3

/* futex(2) operations and flags (learn's operation families) */
#define SCG_FUTEX_WAIT		  0U
#define SCG_FUTEX_WAKE		  1U
#define SCG_FUTEX_REQUEUE	  3U
#define SCG_FUTEX_CMP_REQUEUE	  4U
#define SCG_FUTEX_WAKE_OP	  5U
#define SCG_FUTEX_LOCK_PI	  6U
#define SCG_FUTEX_UNLOCK_PI	  7U
#define SCG_FUTEX_TRYLOCK_PI	  8U
#define SCG_FUTEX_WAIT_BITSET	  9U
#define SCG_FUTEX_WAKE_BITSET	  10U
#define SCG_FUTEX_WAIT_REQUEUE_PI 11U
#define SCG_FUTEX_CMP_REQUEUE_PI  12U
#define SCG_FUTEX_LOCK_PI2	  13U /* Linux 5.14 */
#define SCG_FUTEX_PRIVATE_FLAG	  128U
#define SCG_FUTEX_CLOCK_REALTIME  256U

/* struct ptrace_syscall_info, as far as a seccomp stop fills it. */
struct syscall_info {
	uint8_t op;
	uint8_t pad[3];
	uint32_t arch;
	uint64_t instruction_pointer;
	uint64_t stack_pointer;
	uint64_t nr;
	uint64_t args[6];
	uint32_t ret_data;
	uint32_t pad2;
};


/*
 * Landlock (Linux 5.13): the syscalls (one number on every architecture
 * but alpha, which the project does not target), landlock_create_ruleset's
 * flags, and the parts of its structs the launcher uses.  Debian 12's
 * headers predate the scoped field (ABI 6, Linux 6.12).
 */
#define SCG_NR_landlock_create_ruleset		 444
#define SCG_NR_landlock_add_rule		 445
#define SCG_NR_landlock_restrict_self		 446
#define SCG_LANDLOCK_CREATE_RULESET_VERSION	 (1U << 0)
#define SCG_LANDLOCK_RULE_PATH_BENEATH		 1
#define SCG_LANDLOCK_ACCESS_FS_MAKE_BLOCK	 (1ULL << 11)
#define SCG_LANDLOCK_ACCESS_FS_REFER		 (1ULL << 13) /* ABI 2 */
#define SCG_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SCG_LANDLOCK_SCOPE_SIGNAL		 (1ULL << 1) /* ABI 6 */

/* struct landlock_ruleset_attr as of ABI 6; older kernels take it whole while
 * the fields they do not know are 0. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;             /* ABI 6 */
};

/* struct landlock_path_beneath_attr (packed in the kernel's header) */
struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#endif
