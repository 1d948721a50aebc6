/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by lib/inspect: a bounded wait, /proc reads (kernel ABI values: runtime/kernel_abi.h). */
#ifndef SCG_LIB_INSPECT_INTERNAL_H
#define SCG_LIB_INSPECT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch/kernel_abi.h"

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
