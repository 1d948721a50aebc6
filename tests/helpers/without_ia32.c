/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs a command as if the kernel had no 32-bit emulation (ia32_emulation=off):
 * installs a filter that kills the process at any syscall made through the
 * i386 ABI and allows everything else, then executes the command.
 *
 *   without_ia32 CMD [ARG...]
 *
 * As root the filter goes in without NO_NEW_PRIVS, so setuid programs and
 * tests that need privileges behave as on such a machine; otherwise
 * NO_NEW_PRIVS is set first, as the kernel demands.  The command inherits the
 * filter, like a test suite run inside a container that has one.  Exit status
 * 2 for bad usage, 3 when the filter could not be installed, 127 when the
 * command could not be executed.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int install(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	/* Without CAP_SYS_ADMIN the kernel refuses a filter unless NO_NEW_PRIVS is set. */
	if (geteuid() != 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: without_ia32 CMD [ARG...]\n");
		return 2;
	}
	if (install() != 0) {
		fprintf(stderr, "without_ia32: cannot install the filter: %s\n", strerror(errno));
		return 3;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "without_ia32: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
