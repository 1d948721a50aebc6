/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn from other sources than its own notification supervisor:
 * the kernel's seccomp audit records (--from-log, learn_sources.c) and the
 * raw_syscalls tracepoint through eBPF (--ebpf, learn_ebpf.c).
 */
#ifndef SCG_CLI_LEARN_SOURCES_H
#define SCG_CLI_LEARN_SOURCES_H

#include <stdbool.h>

#include <syscage/learn.h>

/* Whether learn's options (before "--") ask for --from-log or --ebpf. */
bool learn_source_wanted(int argc, char **argv);

/* syscage learn --from-log FILE ... or --ebpf ...: an exit status. */
int cmd_learn_source(int argc, char **argv);

/* Widens @rec with the policy in @path, written by learn (--merge); errors printed. */
int learn_merge_file(struct scg_learn *rec, const char *path);

/* The learned policy @text (@len bytes) as OCI JSON in *@json (caller frees); errors printed. */
int learn_policy_to_oci(const char *text, size_t len, char **json);

/* What learn_ebpf.c needs of the options. */
struct learn_ebpf_request {
	const char *cgroup; /* --cgroup PATH, or NULL */
	long pid;           /* --pid PID, or 0 */
	char **argv;        /* -- CMD ARG..., or NULL */
	bool args, args_fd;
	bool divert_stdout; /* the policy goes to stdout: CMD's stdout goes to stderr */
};

/*
 * Records through the raw_syscalls:sys_enter tracepoint into @rec until the
 * command ends (or, for --cgroup and --pid, until SIGINT or SIGTERM).
 * Errors are printed.  Returns the command's exit status (0 without one),
 * 127 or 126 when the command was not found or cannot be run, or 125 when
 * recording could not start.
 */
int learn_ebpf(const struct learn_ebpf_request *req, struct scg_learn *rec);

#endif
