/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the machine around seccomp can do: the compat ABIs and reading
 * filters back.  Each answer comes from a child process, because the
 * failure mode of a missing ABI is a signal (int $0x80 without 32-bit
 * emulation), and because a filter inherited from the environment may kill
 * whoever makes an unusual call.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <syscage/arch.h>

#include "bpf/opcodes.h"
#include "runtime/internal.h"

#define NR_GETPID_X86_64 39L
#define NR_GETPID_I386 20L

/* Waits for @pid only, through EINTR; returns its wait status or -1. */
static int wait_for(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static void exit_on_signal(int sig)
{
	(void)sig;
	_exit(1);
}

/*
 * A probe child: a fault or a trap ends it with status 1 rather than a
 * crash (no core file, no "segfault" line in the kernel log), and
 * handlers inherited from the caller never run in it.
 */
static void child_prepare(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGSYS };
	struct sigaction sa = { .sa_handler = exit_on_signal };
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigaction(faults[i], &sa, NULL);
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
}

/* Runs @body (which returns true for "present") in a child; true when it exited 0. */
static bool child_says_yes(bool (*body)(void))
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		child_prepare();
		_exit(body() ? 0 : 1);
	}
	int status;
	if (wait_for(pid, &status) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#ifdef __x86_64__
static bool getpid_int80(void)
{
	long ret;
	/* The kernel zeroes r8-r11 on the way back from int $0x80. */
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "0"(NR_GETPID_I386)
			 : "r8", "r9", "r10", "r11", "memory", "cc");
	return ret == syscall(SYS_getpid);
}

static bool getpid_x32(void)
{
	return syscall((long)SCG_X32_SYSCALL_BIT | NR_GETPID_X86_64) == syscall(SYS_getpid);
}
#endif

/* --- PTRACE_SECCOMP_GET_FILTER ------------------------------------------- */

enum tracee_exit { TRACEE_NO_PTRACE = 2, TRACEE_NO_FILTER = 3 };

static void tracee(void)
{
	/* One instruction: SECCOMP_RET_ALLOW. */
	struct scg_insn allow = { BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW };
	struct {
		unsigned short len;
		const struct scg_insn *filter;
	} fprog = { 1, &allow };
	if (ptrace(PTRACE_TRACEME, 0L, 0L, 0L) != 0)
		_exit(TRACEE_NO_PTRACE);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
	    prctl(SCG_PR_SET_SECCOMP, SCG_MODE_FILTER, &fprog, 0L, 0L) != 0)
		_exit(TRACEE_NO_FILTER);
	kill(getpid(), SIGSTOP); /* the tracer asks while the child is stopped */
	_exit(0);
}

/* 0 when the filter of a stopped tracee can be read, else the errno saying why not. */
static int probe_get_filter(void)
{
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		child_prepare();
		tracee();
	}
	int status, err;
	if (wait_for(pid, &status) < 0)
		return errno;
	if (WIFSTOPPED(status)) {
		/* With a NULL buffer the kernel answers with the filter's length. */
		long r = ptrace((enum __ptrace_request)SCG_PTRACE_SECCOMP_GET_FILTER, pid, 0L, NULL);
		err = r > 0 ? 0 : r == 0 ? EPROTO : errno;
		kill(pid, SIGKILL);
		wait_for(pid, &status);
		return err;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == TRACEE_NO_PTRACE)
		return EPERM;
	return WIFEXITED(status) && WEXITSTATUS(status) == TRACEE_NO_FILTER ? ENOSYS : EPROTO;
}

void features_probe_machine(struct scg_features *out)
{
#ifdef __x86_64__
	out->ia32_emulation = child_says_yes(getpid_int80);
	out->x32 = child_says_yes(getpid_x32);
#else
	out->ia32_emulation = false;
	out->x32 = false;
#endif
	out->ptrace_get_filter_error = probe_get_filter();
	out->ptrace_get_filter = out->ptrace_get_filter_error == 0;
}
