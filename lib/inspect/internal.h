/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by lib/inspect: ptrace constants we define ourselves and a bounded wait. */
#ifndef SCG_LIB_INSPECT_INTERNAL_H
#define SCG_LIB_INSPECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Kernel ABI values, defined here so old headers do not matter. */
#define SCG_PTRACE_SEIZE 0x4206
#define SCG_PTRACE_INTERRUPT 0x4207
#define SCG_PTRACE_SECCOMP_GET_FILTER 0x420c
#define SCG_PTRACE_GET_SYSCALL_INFO 0x420e
#define SCG_PTRACE_EVENT_FORK 1
#define SCG_PTRACE_EVENT_VFORK 2
#define SCG_PTRACE_EVENT_CLONE 3
#define SCG_PTRACE_EVENT_EXEC 4
#define SCG_PTRACE_EVENT_SECCOMP 7
#define SCG_PTRACE_EVENT_STOP 128
#define SCG_PTRACE_O_TRACEFORK 0x02
#define SCG_PTRACE_O_TRACEVFORK 0x04
#define SCG_PTRACE_O_TRACECLONE 0x08
#define SCG_PTRACE_O_TRACEEXEC 0x10
#define SCG_PTRACE_O_TRACESECCOMP 0x80
#define SCG_PTRACE_O_EXITKILL 0x100000
#define SCG_PTRACE_SYSCALL_INFO_SECCOMP 3

/* struct ptrace_syscall_info, as far as a seccomp stop fills it. */
struct scg_syscall_info {
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
 * waitpid(@pid, @status, __WALL) that gives up at @deadline_ms (a
 * CLOCK_MONOTONIC time from inspect_now_ms()).  Returns the pid,
 * -ETIMEDOUT, or -errno.
 */
pid_t inspect_wait(pid_t pid, int *status, uint64_t deadline_ms);
uint64_t inspect_now_ms(void);

struct scg_proc_scan;
/*
 * scg_proc_seccomp_scan() over the @n processes @pids instead of /proc's
 * listing (the tests give it pids that are gone).  0 or -ENOMEM.
 */
int inspect_scan_pids(const pid_t *pids, size_t n, unsigned flags, struct scg_proc_scan *out);

/*
 * Reads the first line of /proc/@pid/status that starts with @key (with its
 * colon) into @value (the text after the blanks).  0, -ENOENT when there is
 * no such line, or -errno (ESRCH for a process that is gone).
 */
int inspect_status_field(pid_t pid, const char *key, char *value, size_t size);

#endif
