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

/* Every process under seccomp, as one pass over /proc found them. */
struct scg_proc_scan {
	struct scg_proc_seccomp *procs; /* ascending pid */
	size_t n;
	size_t vanished;   /* listed in /proc, gone before their files could be read */
	size_t unreadable; /* /proc refused their files (hidepid=1) */
};

/* scg_proc_seccomp_scan() flags */
#define SCG_SCAN_EVERY_PROCESS 1U /* keep processes without seccomp too */

/*
 * Reads every process /proc lists, as scg_proc_seccomp_read() does, and
 * keeps those with a thread in filter or strict mode (every one with
 * SCG_SCAN_EVERY_PROCESS).  A process that exits during the scan is counted
 * in @out->vanished and left out, one whose files /proc refuses in
 * @out->unreadable; neither is an error.  Returns 0, -ENOMEM, or -errno
 * when /proc itself cannot be listed (with a diagnostic).  Release with
 * scg_proc_scan_release().
 */
SCG_API int scg_proc_seccomp_scan(unsigned flags, struct scg_proc_scan *out,
				  struct scg_diag *diag);
/* Frees every process of @scan and zeroes it.  NULL is a no-op. */
SCG_API void scg_proc_scan_release(struct scg_proc_scan *scan);

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

/* Threads of one process that hold the same filters. */
struct scg_thread_filters {
	pid_t *tids;             /* ascending */
	size_t ntids;
	struct scg_prog *progs;  /* oldest first, as scg_inspect_filters() numbers them */
	size_t nprogs;
};

/* The filters of a process, thread by thread. */
struct scg_process_filters {
	pid_t pid;                          /* the thread-group leader */
	size_t nthreads;                    /* threads read, filtered or not */
	struct scg_thread_filters *groups;  /* the first holds the lowest tid */
	size_t ngroups;                     /* 0: no thread has a filter */
};

/*
 * Copies the filters of every thread of the process @pid that
 * /proc/PID/task shows in filter mode (scg_inspect_filters() on each),
 * grouping threads whose filters are the same.  Seccomp state is per
 * thread: a thread that installs a filter without TSYNC holds more than
 * its siblings, and the leader may hold none while another thread does.
 * When @pid is a thread id other than its leader's, only that thread is
 * read.  Threads that exit meanwhile are left out.  Returns 0 (ngroups 0
 * when no thread has a filter) or what scg_proc_seccomp_read() and
 * scg_inspect_filters() return.  Release with scg_process_filters_release().
 */
SCG_API int scg_inspect_process_filters(pid_t pid, unsigned timeout_ms,
					struct scg_process_filters *out, struct scg_diag *diag);
/* Frees every group and zeroes @pf.  NULL is a no-op. */
SCG_API void scg_process_filters_release(struct scg_process_filters *pf);

/* A process that holds a seccomp user-notification listener. */
struct scg_notify_holder {
	pid_t pid;
	char name[64];  /* "Name:" of its /proc/PID/status */
	char **argv;    /* its command line, NULL-terminated; NULL when unreadable */
	char cwd[4096]; /* its working directory, "" when unreadable */
};

/*
 * A filter that returns SECCOMP_RET_USER_NOTIF hands those calls to
 * whoever holds the listener the install returned.  The kernel does not
 * say who that is; this looks at the ancestors of @pid, nearest first, for
 * one with an open "seccomp notify" descriptor (how a supervisor that
 * started the program holds it).  Returns 0 with *@out filled, -ENOENT when
 * no ancestor has one (or /proc refuses to show their descriptors: that
 * needs ptrace rights over them), -ESRCH, -ENOMEM.  Release @out->argv
 * with scg_notify_holder_release().
 */
SCG_API int scg_inspect_notify_holder(pid_t pid, struct scg_notify_holder *out);
/* Frees @h->argv.  NULL is a no-op. */
SCG_API void scg_notify_holder_release(struct scg_notify_holder *h);

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
 * The program does not see that filter: prctl(PR_GET_SECCOMP), which the
 * filter hands to the tracer too, is answered with the mode the caller of
 * this function is in (what the program would get without the tracing), so
 * programs that install a sandbox only when not yet filtered still do.
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
