/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `syscage run`: the pieces shared by cmd_run.c and run_*.c. */
#ifndef SCG_CLI_RUN_H
#define SCG_CLI_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"

/* What the child tells the parent over the socket pair before exec. */
enum run_msg_kind {
	RUN_MSG_LISTENER = 1, /* carries the listener fd (SCM_RIGHTS) */
	RUN_MSG_SETUP_FAILED, /* err: why the filter could not be set up */
	RUN_MSG_EXEC_FAILED,  /* err: execve's errno */
};

struct run_msg {
	int kind;
	int err;
};

struct run_config {
	const char *policy_name;
	const struct scg_policy *policy; /* as loaded: the verdicts reported */
	const char *log_path;
	bool report;      /* supervise denials (false: --no-report) */
	bool quiet;       /* no per-denial lines on stderr */
	char *const *argv; /* the program and its arguments */
	const char *path;  /* resolved executable */
	/* Set by commands other than run: serves one notification from the
	 * listener instead of judging it by @policy; returns 0 or -errno. */
	int (*serve)(int listener, void *ctx);
	void *serve_ctx;
	/* Keep serving after the program ends, until no task uses the filter
	 * any more (or a signal arrives): its descendants are still supervised. */
	bool drain;
	/* Install @policy's verdicts unchanged even with a listener (report):
	 * only its own USER_NOTIF verdicts reach the supervisor (inject). */
	bool verdicts_as_is;
};

/*
 * Starts the program under @cfg's policy and supervises it until it ends
 * (see cmd_run.c).  Returns the exit status: the program's, 128 + signal,
 * or 125/126/127 when it could not be started.
 */
int run_launch(const struct run_config *cfg);
/* Finds @cmd on $PATH like execvp would: a new string, or NULL with errno when it cannot. */
char *run_resolve_command(const char *cmd);

/*
 * The child between fork and exec: sets up, installs the filter, passes the
 * listener over @sock and execs.  Never returns.
 */
_Noreturn void run_child(const struct run_config *cfg, pid_t parent, int sock,
			 const sigset_t *orig_mask);

/*
 * Builds the policy the child installs: a rule letting execve/execveat (and
 * the sendmsg/exit_group the child itself needs) through when argument 5
 * equals @cookie, then @policy with every verdict that reports rewritten to
 * USER_NOTIF when @report.  *@out is new.
 */
int run_build_policy(const struct scg_policy *policy, uint64_t cookie, bool report,
		     struct scg_policy **out);
/* True when verdict @action is supervised (reported) rather than installed as is. */
bool run_action_reported(uint32_t action);

/*
 * A process that kills the program (SIGKILL) when the supervisor dies, even
 * after the program changed credentials, which clears its parent-death
 * signal (see run_watchdog.c).
 */
struct run_watchdog {
	pid_t pid; /* -1: none */
	int fd;    /* the supervisor's end of the pipe */
};
/* Starts one for @program (the supervisor's child); 0 or -errno (*@out then says none). */
int run_watchdog_start(pid_t program, struct run_watchdog *out);
/* Ends it once the program has ended, without waiting for it.  No-op when none was started. */
void run_watchdog_stop(struct run_watchdog *dog);

/* --- answering notifications (run_notify.c) ------------------------------ */

/*
 * Fills @resp to answer @n with verdict @action as the kernel would have:
 * the errno, CONTINUE for ALLOW and LOG, ENOSYS for USER_NOTIF and TRACE.
 * Kill verdicts (and TRAP, and actions the kernel does not know) kill the
 * caller's whole process with SIGKILL before the answer; the return value
 * is then that process's id, else 0.
 */
pid_t run_answer_verdict(int listener, const struct scg_notif *n, uint32_t action,
			 struct scg_notif_resp *resp);

/* --- reporting denials --------------------------------------------------- */

struct run_report;
struct run_report *run_report_new(const struct scg_policy *policy, const char *log_path,
				  bool quiet);
void run_report_free(struct run_report *rep);
/* Prints the counts per syscall and verdict, if there were denials. */
void run_report_summary(const struct run_report *rep);

struct run_denial {
	pid_t pid;
	char call[768];     /* decoded like strace: openat(AT_FDCWD, "/x", O_RDONLY) */
	const char *name;   /* syscall name, or NULL */
	uint32_t nr;
	uint32_t action;    /* the policy's verdict */
	char where[320];    /* "policy.txt:7" or "default verdict" */
	/* @call shows memory read from the program after it made the call (a
	 * string, written data), which it may have changed in between. */
	bool read_after_call;
};

/* Describes notification @notif as the policy decides it (reads strings via the listener). */
void run_describe(const struct run_report *rep, int listener, const struct scg_notif *notif,
		  const struct scg_verdict *verdict, struct run_denial *out);
/* Prints and logs @d, and counts it. */
void run_report_denial(struct run_report *rep, const struct run_denial *d);

#endif
