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

/* What run_launch() gives a serve callback along with the listener. */
struct run_serve {
	/* Receive into this, which the watchdog shares (run_notif_handle()). */
	struct scg_notif *slot;
	/* The guard (run_guard.c), for run_guard_refuses(): NULL when unsupervised. */
	const struct scg_policy *guard;
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
	 * listener instead of judging it by @policy (see struct run_serve);
	 * returns 0 or -errno. */
	int (*serve)(int listener, const struct run_serve *s, void *ctx);
	void *serve_ctx;
	/* The verdicts the watchdog gives once the supervisor is gone, unreported
	 * (NULL: @policy's); see run_watchdog.c. */
	const struct scg_policy *fallback;
	/* Keep serving after the program ends, until no task uses the filter
	 * any more (or a signal arrives): its descendants are still supervised. */
	bool drain;
	/* Install @policy's verdicts unchanged even with a listener (report):
	 * only its own USER_NOTIF verdicts reach the supervisor (inject). */
	bool verdicts_as_is;
	/* When set, told whether the program started under the filter (false:
	 * run_launch() failed before exec, e.g. the filter could not be installed). */
	bool *started;
};

/*
 * Starts the program under @cfg's policy and supervises it until it ends
 * (see cmd_run.c).  Returns the exit status: the program's, 128 + signal,
 * or 125/126/127 when it could not be started.
 */
int run_launch(const struct run_config *cfg);
/* Finds @cmd on $PATH like execvp would: a new string, or NULL with errno when it cannot. */
char *run_resolve_command(const char *cmd);

/* The processes of syscage that a supervised program must not reach (run_guard.c). */
struct run_guard {
	pid_t supervisor;
	pid_t watchdog;
	pid_t group; /* the supervisor's process group */
};

/*
 * The guard for @g as a policy: on every native ABI it refuses the calls
 * that would kill, stop, trace or limit @g's processes (EPERM; ENOSYS for
 * pidfd_send_signal) and gives every other call @allow.  *@out is new.
 * 0 or -errno.
 */
int run_guard_policy(const struct run_guard *g, uint32_t allow, struct scg_policy **out);
/*
 * Puts the guard for @g into compiled policy @prog: each of its returns that
 * lets a call run becomes a jump into a copy of the guard that gives the
 * call that return unless it refuses it.  0, or -E2BIG when the result would
 * pass the kernel's 4096 instructions (@prog is then unchanged), or -errno.
 */
int run_guard_attach(const struct run_guard *g, struct scg_prog *prog);
/*
 * When @resp lets @n run (CONTINUE) and @guard refuses it, makes @resp the
 * guard's refusal and returns true.  @guard NULL: false.
 */
bool run_guard_refuses(const struct scg_policy *guard, const struct scg_notif *n,
		       struct scg_notif_resp *resp);

/*
 * The child between fork and exec: sets up, installs the policy's filter
 * (with the guard for @guard when supervised), passes the listener over
 * @sock and execs.  Never returns.
 */
_Noreturn void run_child(const struct run_config *cfg, const struct run_guard *guard, int sock,
			 const sigset_t *orig_mask);

/*
 * Builds the policy the child installs: a rule letting execve/execveat (and
 * the sendmsg/exit_group the child itself needs) through when argument 5
 * equals @cookie, then @policy with every verdict that reports rewritten to
 * USER_NOTIF when @report.  *@out is new.
 */
int run_build_policy(const struct scg_policy *policy, uint64_t cookie, bool report,
		     struct scg_policy **out);
/*
 * The filter run_build_policy() and scg_compile() would make for built-in
 * @profile, from its prebuilt program: the same verdicts, without a parse
 * or a compile.  Returns 0 with *@out new, or -ENOENT when no program is
 * built in for this ABI (build the policy then).
 */
int run_prebuilt_filter(const char *profile, uint64_t cookie, bool report, struct scg_prog *out);
/*
 * The policy @cfg runs under: @cfg->policy, or built-in profile
 * @cfg->policy_name parsed at the first call (run leaves a profile unparsed
 * until a verdict is needed, which most programs never need).  NULL only
 * when that parse fails.
 */
const struct scg_policy *run_policy(const struct run_config *cfg);
/* scg_policy_eval() on @policy; with NULL, the refusal ERRNO(ENOMEM). */
void run_policy_eval(const struct scg_policy *policy, const struct scg_seccomp_data *data,
		     struct scg_verdict *v);
/* True when verdict @action is supervised (reported) rather than installed as is. */
bool run_action_reported(uint32_t action);

/*
 * A process that kills the program (SIGKILL) when the supervisor dies, even
 * after the program changed credentials, which clears its parent-death
 * signal, and that then answers the calls of whatever still uses the filter
 * with @cfg->fallback's verdicts, unreported (see run_watchdog.c).
 */
struct run_watchdog {
	pid_t pid;              /* -1: none */
	int fd;                 /* the supervisor's end of the socket pair */
	struct scg_notif *slot; /* shared with the watchdog: the notification being served */
};
/* Starts one; 0 or -errno (*@out then says none). */
int run_watchdog_start(const struct run_config *cfg, struct run_watchdog *out);
/* Hands it a pidfd of @program (the supervisor's child); 0 or -errno. */
int run_watchdog_give_program(struct run_watchdog *dog, pid_t program);
/* Hands it (a copy of) @listener; 0 or -errno. */
int run_watchdog_give_listener(struct run_watchdog *dog, int listener);
/* Lets it answer from now on while the supervisor lives on (it gave up); 0 or -errno. */
int run_watchdog_take_over(struct run_watchdog *dog);
/* Tells it the supervisor is done, without waiting for it.  No-op when none was started. */
void run_watchdog_stop(struct run_watchdog *dog);

/* --- answering notifications (run_notify.c) ------------------------------ */

/*
 * scg_notif_handle_one(), but the notification is received into @s->slot,
 * memory the watchdog shares, so that one the supervisor received just
 * before it died is still answered, and an answer that lets the call run
 * passes @s->guard first.  Returns what scg_notif_handle_one() does.
 */
int run_notif_handle(int listener, const struct run_serve *s, scg_notif_decide_fn decide,
		     void *ctx);

/*
 * Fills @resp to answer @n with verdict @action as the kernel would have:
 * the errno, CONTINUE for ALLOW and LOG, ENOSYS for USER_NOTIF and TRACE.
 * Kill verdicts (and TRAP, and actions the kernel does not know) kill the
 * caller's whole process with SIGKILL before the answer; the return value
 * is then that process's id, else 0.
 */
pid_t run_answer_verdict(int listener, const struct scg_notif *n, uint32_t action,
			 struct scg_notif_resp *resp);
/* The thread group of thread @tid, from /proc (a notification names only the thread). */
pid_t run_tgid_of(pid_t tid);

/* --- reporting denials --------------------------------------------------- */

struct run_report;
/* Reports on the verdicts of run_policy(@cfg), which must outlive the report. */
struct run_report *run_report_new(const struct run_config *cfg, const char *log_path,
				  bool quiet);
void run_report_free(struct run_report *rep);
/* Says how many repeats of the last line went unprinted, then prints the
 * counts per syscall and verdict, if there were denials. */
void run_report_summary(struct run_report *rep);

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

/*
 * Writes notification @notif's call as strace shows it into @buf, reading
 * strings and buffers from the program through @listener (re-validated).
 * True when the text shows such memory, which the program may have
 * changed since it made the call.
 */
bool run_format_call(int listener, const struct scg_notif *notif, char *buf, size_t size);
/* Describes notification @notif as the policy decides it (reads strings via the listener). */
void run_describe(const struct run_report *rep, int listener, const struct scg_notif *notif,
		  const struct scg_verdict *verdict, struct run_denial *out);
/* Prints and logs @d, and counts it. */
void run_report_denial(struct run_report *rep, const struct run_denial *d);

#endif
