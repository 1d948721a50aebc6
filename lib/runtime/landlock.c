/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launched program's Landlock domain: what seccomp cannot see.
 *
 * A filter judges a call by its number and argument values; it cannot tell
 * which process a /proc/PID/mem path names, nor whose group a SIGIO goes
 * to.  Landlock can, without privileges (it needs no_new_privs, which the
 * child sets anyway): a process in a domain cannot ptrace, nor open the
 * /proc/PID/mem of, a process outside it (ABI 1, Linux 5.13), and from ABI
 * 6 (Linux 6.12) a scoped domain cannot signal, nor connect to the
 * abstract unix sockets of, processes outside it.  The supervisor and the
 * watchdog stay outside; they may trace, read and signal the program, as
 * a process outside a domain may with one inside.
 *
 * A domain must handle some right.  From ABI 6 the scopes are enough, and
 * the domain handles no file right at all: every file access and every
 * mount stays as it was.  Before that it handles one file right and grants
 * it beneath "/": REFER (ABI 2), without which every domain refuses to move
 * a file to another directory, or, with ABI 1, MAKE_BLOCK.  Such a domain
 * also refuses mount, umount and pivot_root (the kernel's rule for any
 * domain that restricts the file system), and with ABI 1 a rename or link
 * into another directory fails with EXDEV (mv then copies).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/kernel_abi.h"
#include "runtime/launch_internal.h"

int landlock_abi_probe(void)
{
	long v =
	    syscall(SCG_NR_landlock_create_ruleset, NULL, 0UL, SCG_LANDLOCK_CREATE_RULESET_VERSION);
	/* ENOSYS: not built; EOPNOTSUPP: disabled at boot */
	return v > 0 ? (int)v : 0;
}

uint64_t landlock_scopes(int abi)
{
	return abi >= 6 ? SCG_LANDLOCK_SCOPE_SIGNAL | SCG_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0;
}

/* The file right a domain of @abi handles and grants beneath "/" (0: none needed). */
static uint64_t fs_right(int abi)
{
	if (abi >= 6)
		return 0;
	return abi >= 2 ? SCG_LANDLOCK_ACCESS_FS_REFER : SCG_LANDLOCK_ACCESS_FS_MAKE_BLOCK;
}

int landlock_enter(int abi)
{
	struct ll_ruleset_attr attr = {.handled_access_fs = fs_right(abi),
				       .scoped = landlock_scopes(abi)};
	/* Kernels before ABI 6 take only the fields they know. */
	size_t size = abi >= 6 ? sizeof(attr) : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
	int ruleset = (int)syscall(SCG_NR_landlock_create_ruleset, &attr, size, 0U);
	if (ruleset < 0)
		return -errno;
	int r = 0;
	if (attr.handled_access_fs) {
		struct ll_path_beneath_attr beneath = {
		    .allowed_access = attr.handled_access_fs,
		    .parent_fd = open("/", O_PATH | O_CLOEXEC),
		};
		if (beneath.parent_fd < 0 ||
		    syscall(SCG_NR_landlock_add_rule, ruleset, SCG_LANDLOCK_RULE_PATH_BENEATH,
			    &beneath, 0U) < 0)
			r = -errno;
		if (beneath.parent_fd >= 0)
			close(beneath.parent_fd);
	}
	if (r == 0 && syscall(SCG_NR_landlock_restrict_self, ruleset, 0U) < 0)
		r = -errno;
	close(ruleset);
	return r;
}
