/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Looking at seccomp in running processes: the mode, filter count and
 * NO_NEW_PRIVS of each thread (/proc), the filters a process has installed
 * (ptrace), and the filter an untrusted program is about to install, caught
 * at the install and never allowed to take effect.
 *
 * Everything here talks to the running kernel; nothing prints.
 */
#ifndef SYSCAGE_INSPECT_H
#define SYSCAGE_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Values of the "Seccomp:" field of /proc/PID/status. */
enum scg_seccomp_mode {
	SCG_SECCOMP_UNKNOWN = -1, /* the kernel does not report it (CONFIG_SECCOMP off) */
	SCG_SECCOMP_NONE = 0,
	SCG_SECCOMP_STRICT = 1,
	SCG_SECCOMP_FILTER = 2,
};

/* "none", "strict", "filter", or "unknown". */
SCG_API const char *scg_seccomp_mode_name(enum scg_seccomp_mode mode);

/*
 * Seccomp state of one task.  A field the kernel does not report is -1:
 * "Seccomp_filters:" appeared in Linux 5.9, "NoNewPrivs:" in 4.10.
 */
struct scg_task_seccomp {
	pid_t tid;
	enum scg_seccomp_mode mode;
	long filters;
	int no_new_privs;
};

/*
 * Parses the text of a /proc/PID/status (or task/TID/status) file: only the
 * "Pid:", "Seccomp:", "Seccomp_filters:" and "NoNewPrivs:" lines, matched at
 * the start of a line, so a task named "Seccomp: 2" cannot fool it.
 * Missing lines leave -1.  A present line with a value that is not a
 * number in range is -EINVAL with a diagnostic naming its line.
 */
SCG_API int scg_status_parse(const char *text, size_t len, struct scg_task_seccomp *out,
			     struct scg_diag *diag);

/* One process: its own (thread-group leader) state and every thread's. */
struct scg_proc_seccomp {
	pid_t pid;
	char name[64];                    /* "Name:" as the kernel escapes it */
	struct scg_task_seccomp process;  /* the leader's */
	struct scg_task_seccomp *threads; /* sorted by tid; the leader included */
	size_t nthreads;
};

/*
 * Reads /proc/@pid/status and every /proc/@pid/task/TID/status.  Threads
 * that exit while being read are left out.  Returns 0, -ESRCH when there is
 * no such process, -EACCES/-EPERM when /proc refuses, -ENOMEM; diagnostics
 * say which file.  Release *@out with scg_proc_seccomp_release().
 */
SCG_API int scg_proc_seccomp_read(pid_t pid, struct scg_proc_seccomp *out, struct scg_diag *diag);
/* Frees @st->threads and zeroes it.  NULL is a no-op. */
SCG_API void scg_proc_seccomp_release(struct scg_proc_seccomp *st);

/*
 * Copies the filters installed in task @pid in the kernel's own numbering
 * for PTRACE_SECCOMP_GET_FILTER: index 0 is the oldest (installed first),
 * the last index the newest, which the kernel runs first.  The task is attached with PTRACE_SEIZE,
 * stopped with PTRACE_INTERRUPT for the copy and detached again (a signal
 * that arrived meanwhile is delivered), waiting at most @timeout_ms for the
 * stop.  Needs CAP_SYS_ADMIN and a caller that is not itself filtered.
 * On success *@progs is a new array of *@n programs (0 when the task has
 * none); free with scg_progs_free().  Returns 0, -ESRCH, -EPERM, -EACCES,
 * -ETIMEDOUT, -EMEDIUMTYPE (a filter that is not classic BPF), -ENOMEM.
 */
SCG_API int scg_inspect_filters(pid_t pid, unsigned timeout_ms, struct scg_prog **progs,
				size_t *n, struct scg_diag *diag);
/* Releases @n programs and the array.  NULL is a no-op. */
SCG_API void scg_progs_free(struct scg_prog *progs, size_t n);

/* How a captured program asked for its filter. */
enum scg_capture_call {
	SCG_CAPTURE_SECCOMP, /* seccomp(SECCOMP_SET_MODE_FILTER, flags, prog) */
	SCG_CAPTURE_PRCTL,   /* prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog) */
};

enum scg_capture_outcome {
	SCG_CAPTURE_FILTER, /* a filter was captured and the program killed */
	SCG_CAPTURE_STRICT, /* the program asked for strict mode; killed, nothing to capture */
	SCG_CAPTURE_EXITED, /* every process of the program ended without installing a filter */
};

struct scg_capture {
	enum scg_capture_outcome outcome;
	struct scg_prog prog;          /* SCG_CAPTURE_FILTER: the filter's instructions */
	pid_t pid;                     /* the task that tried to install */
	enum scg_capture_call call;
	unsigned long flags;           /* seccomp() flags (0 for prctl) */
	uint32_t audit_arch;           /* AUDIT_ARCH_* of the installing syscall */
	uint32_t nr;                   /* its syscall number */
	int exit_status;               /* SCG_CAPTURE_EXITED: the first process's wait status */
};

/*
 * Runs @argv (argv[0] looked up in PATH) as a traced child and stops it at
 * its first attempt to install a seccomp filter, in any process or thread it
 * creates.  The child installs a small filter of its own before exec that
 * turns seccomp() and prctl(PR_SET_SECCOMP) into ptrace stops, so nothing
 * else is slowed down; CAP_SYS_ADMIN lets it do so without NO_NEW_PRIVS,
 * otherwise NO_NEW_PRIVS is set (setuid programs then run unprivileged).
 * At the stop the struct sock_fprog is read from the program's memory
 * (32-bit tracees included), every traced process is killed with SIGKILL
 * before the syscall can run, and the instructions land in @out.  Calls
 * that cannot install anything (a NULL or unreadable fprog, a length the
 * kernel refuses, seccomp() operations other than SET_MODE_FILTER) are let
 * through.  @timeout_ms bounds the whole run; on expiry everything is killed
 * and -ETIMEDOUT returned.  Returns 0 (see @out->outcome), -ENOENT/-EACCES
 * when argv[0] cannot be executed, or -errno; release @out->prog.
 */
SCG_API int scg_inspect_capture(char *const argv[], unsigned timeout_ms, struct scg_capture *out,
				struct scg_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_INSPECT_H */
