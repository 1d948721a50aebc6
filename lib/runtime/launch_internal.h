/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher's pieces (<syscage/launch.h>), one job per file:
 *
 *   launch.c          scg_launch(): signals, the fork, waiting for the exec, the
 *                     supervision loop, the result
 *   launch_child.c    the child between fork and exec
 *   launch_filter.c   the installed filter: exec cookie, reported verdicts, prebuilt
 *                     profiles, the guard attached
 *   launch_guard.c    the guard: what keeps the program away from the launcher
 *   launch_watchdog.c the watchdog: kills the program when the supervisor dies, then
 *                     answers the filter
 *   launch_tree.c     the program's process tree: a cgroup or the subreaper, killed whole
 *   landlock.c        the program's Landlock domain
 *   launch_serve.c    serving notifications per mode (report, record, serve)
 *   verdict.c         a policy's verdict as the answer to a notification
 *   fd_passing.c      descriptors over a Unix socket
 */
#ifndef SCG_LIB_RUNTIME_LAUNCH_INTERNAL_H
#define SCG_LIB_RUNTIME_LAUNCH_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <syscage/launch.h>

/* What the installed filter makes of the policy's verdicts. */
enum install_how {
	INSTALL_AS_IS,    /* the kernel carries every verdict out */
	INSTALL_REPORT,   /* the reported ones (launch_action_reported()) become USER_NOTIF */
	INSTALL_COMPLAIN, /* every denying verdict becomes USER_NOTIF (answered CONTINUE),
			   * but ERRNO(ENOSYS), which becomes LOG */
	INSTALL_LOG,      /* every denying verdict becomes LOG: the kernel runs and logs it */
};

/* One launch: the options as loaded, and what is derived from them. */
struct launch {
	struct scg_launch_options o;
	char *const *argv;
	const char *path;                 /* the executable */
	const struct scg_policy *policy;  /* as given, or owned_policy */
	struct scg_policy *lazy;          /* o.profile, parsed at the first verdict needed */
	struct scg_policy *owned_policy;  /* RECORD: USER_NOTIF for every call */
	struct scg_policy *owned_fallback; /* RECORD: KILL_PROCESS for every call */
	bool supervised;                  /* the filter has a listener */
	enum install_how how;             /* what becomes of the policy's verdicts */
	unsigned listener_flags;          /* NEW_LISTENER (+ WAIT_KILLABLE_RECV) */
	int landlock_abi;                 /* the program's domain: its ABI; 0: none */
	bool try_cgroup;                  /* features say a cgroup of its own can be made */
	struct tree *tree;                /* the program's process tree */
	uint64_t phase_cookie;            /* o.phases: the transition's cookie (launch_phases.c) */
};

/* The policy deciding the calls: the given one, or the profile parsed now (NULL: no memory). */
const struct scg_policy *launch_policy(struct launch *l);
/* The policy whose verdicts the watchdog gives. */
const struct scg_policy *launch_fallback(struct launch *l);
/* Whether a filter the program installs of its own gets EPERM (own_filters, under the
 * report): the supervisor's answer, and the watchdog's once it answers alone. */
bool launch_refuses_own_filters(const struct launch *l);
/* scg_policy_eval() on @policy; with NULL, the refusal ERRNO(ENOMEM). */
void launch_policy_eval(const struct scg_policy *policy, const struct scg_seccomp_data *data,
			struct scg_verdict *v);

/* --- the installed filter (launch_filter.c) -------------------------------- */

/* True when verdict @action is supervised (reported) rather than installed as is. */
bool launch_action_reported(uint32_t action);
/*
 * The policy the child installs: a rule letting execve/execveat (and the
 * sendmsg/exit_group the child itself needs) through when argument 5
 * equals @cookie, then @policy with its verdicts rewritten as @how says.
 * *@out is new.  -EXDEV: @policy does not cover the native ABI.
 */
int launch_build_policy(const struct scg_policy *policy, uint64_t cookie, uint64_t phase_cookie,
			enum install_how how, struct scg_policy **out);
/*
 * The filter launch_build_policy() and scg_compile() would make for
 * built-in @profile, from its prebuilt program.  0 with *@out new, or
 * -ENOENT when none is built in for this ABI.
 */
int launch_prebuilt_filter(const char *profile, uint64_t cookie, enum install_how how,
			   struct scg_prog *out);

/* The processes a supervised program must not reach (launch_guard.c). */
struct launch_guard {
	pid_t supervisor;
	pid_t watchdog;
	pid_t group; /* the supervisor's process group */
	/* The program's Landlock ABI (0: none): from 1 it cannot trace the
	 * launcher's processes, from 6 it cannot signal them either. */
	int landlock_abi;
	/* A filter the program installs of its own goes to the supervisor first
	 * (REPORT: it would outrank the reported verdicts; launch_guard.c). */
	bool watch_own_filters;
	/* Non-zero: the transition's seccomp() call carries it in argument 3
	 * and is let through (launch_phases.c). */
	uint64_t phase_cookie;
};

/*
 * The whole filter for @l: built, compiled, with the guard for @g when
 * supervised.  On failure *@stage says which step failed.
 */
int launch_filter(struct launch *l, const struct launch_guard *g, uint64_t cookie,
		  struct scg_prog *out, enum scg_launch_stage *stage);

/*
 * The guard for @g as a policy: on every native ABI it refuses the calls
 * that would kill, stop, trace or limit @g's processes (EPERM; ENOSYS for
 * pidfd_send_signal) and gives every other call @allow.  *@out is new.
 */
int guard_policy(const struct launch_guard *g, uint32_t allow, struct scg_policy **out);
/*
 * Puts the guard for @g into compiled @prog: each return that lets a call
 * run jumps into a copy of the guard giving that return unless it refuses
 * the call.  -E2BIG past 4096 instructions (@prog unchanged).
 */
int guard_attach(const struct launch_guard *g, struct scg_prog *prog);
/* Whether @guard sends @n to the supervisor: a filter the program installs (watch_own_filters). */
bool guard_watches(const struct scg_policy *guard, const struct scg_notif *n);
/* When @resp lets @n run and @guard refuses it, makes @resp the refusal; true then. */
bool guard_refuses(const struct scg_policy *guard, const struct scg_notif *n,
		   struct scg_notif_resp *resp);

/* --- the child (launch_child.c) -------------------------------------------- */

/* What the child tells the launcher over the socket pair before exec. */
enum launch_msg_kind {
	LAUNCH_MSG_LISTENER = 1, /* carries the listener fd (SCM_RIGHTS) */
	LAUNCH_MSG_FAILED,       /* stage, err: why the program could not start */
	LAUNCH_MSG_PROGRAM,      /* err: the program's pid, when it is not the child (unshare_pid) */
};

struct launch_msg {
	int kind;
	int err;   /* a positive errno */
	int stage; /* enum scg_launch_stage */
};

/*
 * Between fork and exec: binds itself to @supervisor's life, installs
 * @filter, passes the listener over @sock and execs with @cookie.  Never
 * returns.
 */
_Noreturn void launch_child(const struct launch *l, struct scg_prog *filter, uint64_t cookie,
			    pid_t supervisor, int sock, const sigset_t *orig_mask);

/* --- Landlock (landlock.c) ------------------------------------------------- */

/* The Landlock ABI of this kernel; 0 without Landlock. */
int landlock_abi_probe(void);
/* The scopes (SCG_LAUNCH_SCOPE_*) a domain of @abi gets. */
uint64_t landlock_scopes(int abi);
/* Puts the calling thread (no_new_privs set) into a domain of @abi that loses
 * no file access; 0 or -errno. */
int landlock_enter(int abi);

/* --- the process tree (launch_tree.c) -------------------------------------- */

struct tree {
	enum scg_launch_tree how;
	char *cgroup;       /* CGROUP: its directory, made for this launch */
	int procs_fd;       /* its cgroup.procs, which the child joins */
	int kill_fd;        /* its cgroup.kill */
	int parent_fd;      /* the directory it is made in (O_PATH) */
	int subreaper_was;  /* PR_GET_CHILD_SUBREAPER before; -1: not changed */
	pid_t watchdog;     /* never killed nor reaped here */
	pid_t *callers;     /* the caller's children before the launch: left alone */
	size_t ncallers;
};

void tree_init(struct tree *t);
/* Whether a cgroup with cgroup.kill can be made beneath this process's. */
bool tree_cgroup_possible(void);
/* Makes the caller the subreaper and, with @try_cgroup, a cgroup; 0 or -errno. */
int tree_setup(struct tree *t, bool try_cgroup);
/* In the child before exec: joins the cgroup, if any. */
void tree_child_join(const struct tree *t);
/* After exec: when @program did not join the cgroup, the subreaper alone. */
void tree_confirm(struct tree *t, pid_t program);
/* Reaps the tree's processes that have exited (re-parented to us), not @program. */
void tree_reap(struct tree *t, pid_t program);
/* Kills every process of the tree (but @program, reaped by the caller) and reaps them. */
void tree_kill(struct tree *t, pid_t program);
/* The name of a launch's cgroup, made by supervisor %d. */
#define TREE_CGROUP_NAME "syscage-%d"
/* Removes the cgroup @supervisor made in @parent_fd once it is empty (waiting
 * for its killed processes to be reaped, boundedly): the watchdog's, after
 * a supervisor that died.  0 or -errno. */
int tree_remove_cgroup(int parent_fd, pid_t supervisor);
/* Removes the cgroup if it is empty, restores the subreaper setting. */
void tree_release(struct tree *t);

/* --- the watchdog (launch_watchdog.c) -------------------------------------- */

struct watchdog {
	pid_t pid;              /* -1: none */
	int fd;                 /* the supervisor's end of the socket pair */
	struct scg_notif *slot; /* shared with the watchdog: the notification being served */
};
/* Starts one for @l; 0 or -errno (*@out then says none). */
int watchdog_start(struct launch *l, struct watchdog *out);
/* Hands it a pidfd of @program; 0 or -errno. */
int watchdog_give_program(struct watchdog *dog, pid_t program);
/* Hands it (a copy of) @listener; 0 or -errno. */
int watchdog_give_listener(struct watchdog *dog, int listener);
/* Hands it the program's cgroup.kill, written when the supervisor is gone, and the
 * directory the cgroup is in, to remove it then; 0 or -errno. */
int watchdog_give_tree(struct watchdog *dog, int cgroup_kill, int parent_dir);
/* Lets it answer from now on while the supervisor lives on; 0 or -errno. */
int watchdog_take_over(struct watchdog *dog);
/* Tells it the supervisor is done, without waiting for it.  No-op when none. */
void watchdog_stop(struct watchdog *dog);

/* --- serving (launch_serve.c) ---------------------------------------------- */

struct supervisor {
	struct launch *l;
	struct scg_notif *slot;         /* shared with the watchdog */
	const struct scg_policy *guard; /* NULL when unsupervised */
	struct scg_launch_result *res;  /* kills are counted here */
};

/*
 * scg_notif_handle_one(), received into @sv->slot (which the watchdog
 * shares, so a call received just before the supervisor died is still
 * answered), and an answer that lets the call run passes the guard first.
 */
int serve_handle(struct supervisor *sv, int listener, scg_notif_decide_fn decide, void *ctx);
/* Serves what waits on @listener, as @sv's mode says; 0 or -errno. */
int serve_one(struct supervisor *sv, int listener);

/* The thread group of thread @tid, from /proc (@tid when /proc does not show it). */
pid_t tgid_of(pid_t tid);

/* A notified caller's process, pinned (verdict.c). */
struct verdict_pin {
	int pidfd;  /* -1 before Linux 5.3: then the pid, while the call waits */
	pid_t tgid;
};
/* Pins @n's caller's process while the call still waits (or its thread
 * still shows in that process): 0, or -ENOENT when it is gone. */
int verdict_pin(int listener, const struct scg_notif *n, struct verdict_pin *pin);
/* Whether scg_notif_answer_verdict() kills the caller for @action. */
bool verdict_kills(uint32_t action);
/* SIGKILL to the pinned process, and the pin released: the pid killed, or -errno. */
pid_t verdict_kill_pinned(struct verdict_pin *pin);

/* --- descriptors over a Unix socket (fd_passing.c) ------------------------- */

/* Room for one descriptor's control message, aligned as the kernel wants it. */
union fd_control {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

/* Makes @msg carry @fd in @control; @fd < 0 carries nothing. */
void fd_attach(struct msghdr *msg, union fd_control *control, int fd);
/* Receives into @msg, retrying on EINTR; a descriptor that came with it goes
 * to *@fd (left alone otherwise).  Returns recvmsg's result. */
ssize_t fd_receive(int sock, struct msghdr *msg, union fd_control *control, int *fd);

/* --- phases (launch_phases.c) ---------------------------------------------- */

struct phase_trace;
/* The filters of @l->o.phases' later phases, compiled with the transition
 * @cookie; -EOPNOTSUPP where the injection is not written for the ABI. */
int phase_trace_new(struct launch *l, uint64_t cookie, struct phase_trace **out);
void phase_trace_free(struct phase_trace *t);
/* The program (which asked to be traced) runs: 0 or -ENOMEM. */
int phase_trace_start(struct phase_trace *t, pid_t program);
/*
 * Handles every stop of the traced tasks: 1 with the program's wait
 * *@status when it ended, 0 when it runs on, or a negative errno when a
 * transition failed (the caller kills the program and its tree).
 */
int phase_trace_poll(struct phase_trace *t, int *status);
/* Kills every traced process and waits for each of their threads. */
void phase_trace_kill(struct phase_trace *t);

#endif
