/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libsyscage-ebpf: learning through the raw_syscalls:sys_enter tracepoint.
 *
 * A BPF program counts the calls of the traced processes per ABI and number
 * (or, with @args, sends each call with its arguments) and fills the same
 * struct scg_learn as the notification learner (<syscage/learn.h>).  Needs
 * root (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN), a kernel with BTF, and
 * libbpf (libbpf.so.1), which the library loads with dlopen() on first use:
 * neither this library nor its callers link it.  x86_64 only.
 */
#ifndef SYSCAGE_EBPF_H
#define SYSCAGE_EBPF_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/learn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to record, and how to tell the caller. */
struct scg_ebpf_learn_opts {
	/* A command to start (argv[0] looked up in PATH) and record from its execve
	 * on, until it ends; else NULL. */
	char *const *argv;
	/* Without @argv: this process and its descendants, until it ends; else 0. */
	pid_t pid;
	/* Without @argv and @pid: every task of this cgroup v2 directory or below. */
	const char *cgroup;
	/* Each call with its arguments through a ring buffer, not only counted. */
	bool args;
	/* The command's standard output goes to standard error. */
	bool stdout_to_stderr;
	/*
	 * Set by the caller's signal handler to a signal number: ends the
	 * recording (without @argv), or is sent to the command (then set back to
	 * 0).  May be NULL.
	 */
	volatile sig_atomic_t *stop;
	/*
	 * Optional.  SCG_SEV_ERROR: why the recording failed, one line without a
	 * trailing newline; SCG_SEV_NOTE: libbpf's own messages, as libbpf words
	 * them (newline included), only when the environment sets
	 * SYSCAGE_LIBBPF_DEBUG.
	 */
	void (*log)(void *ctx, enum scg_severity severity, const char *message);
	/* Optional: called once the program is attached and recording. */
	void (*recording)(void *ctx);
	void *ctx;
};

/* What the recording saw beside the calls. */
struct scg_ebpf_learn_result {
	int status;          /* the command's exit status (128 + signal), 0 without one */
	int command_error;   /* the errno of looking up argv[0] when it failed, else 0 */
	unsigned long long lost;       /* calls (or new processes) lost to a full map or ring */
	unsigned long long foreign;    /* calls of an ABI syscage does not know */
	unsigned long long unrecorded; /* calls @rec had no memory for */
};

/*
 * Records into @rec as @opts says.  Returns 0 once the recording ran (@res
 * filled), or a negative errno before or while it did, reported through
 * opts->log: -ENOENT or another errno with res->command_error set when
 * argv[0] was not found; -ENOSYS when libbpf.so.1 cannot be loaded;
 * -ENOTSUP in a build without eBPF; -EPERM without the privileges.  Not
 * thread-safe: libbpf's message hook is global.
 */
SCG_API int scg_ebpf_learn(const struct scg_ebpf_learn_opts *opts, struct scg_learn *rec,
			   struct scg_ebpf_learn_result *res);

#ifdef __cplusplus
}
#endif

#endif
