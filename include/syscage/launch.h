/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher: start a program under a policy and supervise it until it
 * ends.  What `syscage run`, `learn` and `inject` are built on.
 *
 * scg_launch() forks the program, installs the policy's filter in it
 * between fork and exec, and serves the filter's user notifications in the
 * calling process, reporting what happens through the callbacks of struct
 * scg_launch_options.  The launcher's own protections are always on, and
 * are done here once for every caller:
 *
 *   - the calling process is made non-dumpable for the launch, so that the
 *     program (same user) cannot read its memory, take the listener or
 *     write its /proc files (the previous setting is restored on return);
 *   - the program starts through an exec cookie: a random value in the sixth
 *     argument register that only the launcher's own execve carries, so the
 *     policy may deny execve and the program still starts (docs/run.md);
 *   - where the kernel has Landlock (and unless no_landlock), the program
 *     runs in a Landlock domain that loses no file access but cannot trace
 *     or open the /proc/PID/mem of processes outside it (the caller's
 *     shell, say), nor, from Landlock ABI 6, signal them or reach their
 *     abstract unix sockets; the supervisor and the watchdog stay outside;
 *   - a supervised filter carries a guard that refuses, on every native ABI,
 *     the calls that would limit the supervisor or the watchdog (prlimit),
 *     and those that would kill, stop or trace them where the domain does
 *     not (signals by pid or to their group, pidfds, ptrace,
 *     process_vm_*, F_SETSIG SIGKILL; pidfd_send_signal then fails with
 *     ENOSYS);
 *   - the program gets SIGKILL as its parent-death signal, and a watchdog
 *     (a second child, started first, in a process group of its own) kills
 *     it, and its cgroup, when the supervisor dies however it dies, even
 *     after a credential change cleared that signal, and then answers the
 *     filter's notifications with the fallback policy's verdicts,
 *     unreported, for whatever still uses it;
 *   - the program's tree ends with it (unless keep_children): its own
 *     cgroup v2, ended by cgroup.kill, where one can be made beneath the
 *     caller's, and the caller as the tree's subreaper, which reaps the
 *     descendants that re-parent to it and kills what is left;
 *   - the program stays in the caller's process group (job control);
 *     signals sent to the caller that a terminal or a user sends a whole
 *     program (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
 *     SIGWINCH, SIGALRM, SIGCONT) are passed on to it.
 *
 * While it runs, scg_launch() blocks every signal of the calling thread but
 * SIGTSTP, SIGTTIN and SIGTTOU (they are read from a signalfd) and ignores
 * SIGPIPE; both are restored on return.  It waits only for its own
 * children and the program's descendants that re-parented to it (the
 * subreaper setting is restored on return), never for a child the caller
 * had before.  Call it from a single-threaded process (the library itself
 * starts no threads): the program and the watchdog are forked from the
 * caller.  Nothing is printed: every message is the caller's.
 *
 * User notification is not a security boundary (<syscage/runtime.h>): a
 * verdict never depends on memory read from the program; the decoded call
 * of a denial may (read_after_call).
 */
#ifndef SYSCAGE_LAUNCH_H
#define SYSCAGE_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/inject.h>
#include <syscage/lang.h>
#include <syscage/policy.h>
#include <syscage/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the policy's verdicts reach the kernel and the supervisor. */
enum scg_launch_mode {
	/*
	 * Every verdict that denies (an errno other than ENOSYS, KILL_PROCESS,
	 * USER_NOTIF, actions the kernel does not know) is installed as
	 * USER_NOTIF: the supervisor reports it (on_denial) and carries it out
	 * as the kernel would have (scg_notif_answer_verdict()).  Allowed calls
	 * never leave the kernel.  `syscage run`.
	 */
	SCG_LAUNCH_REPORT = 0,
	/* The verdicts installed as they are, no supervisor: `run --no-report`. */
	SCG_LAUNCH_UNSUPERVISED,
	/*
	 * The verdicts installed as they are; the policy's own USER_NOTIF
	 * verdicts are answered by on_notif (guarded: an answer that lets a
	 * call run is refused when the guard refuses it), then on_answered.
	 * `syscage inject`.
	 */
	SCG_LAUNCH_SERVE,
	/*
	 * The policy is ignored (pass NULL): every call of every thread and
	 * descendant goes to the supervisor, which lets it run (guarded) and
	 * reports it through on_call once the kernel took the answer, so a call
	 * interrupted before it ran and restarted is reported once.  The
	 * fallback (default: KILL_PROCESS for everything) ends each process at
	 * its next call once the supervisor is gone.  Implies
	 * wait_descendants.  `syscage learn`.
	 */
	SCG_LAUNCH_RECORD,
};

/* A call the policy denied, as on_denial sees it (everything borrowed for the call). */
struct scg_launch_denial {
	pid_t tid;                            /* the calling thread (listener's pid namespace) */
	const struct scg_seccomp_data *data;  /* the call as the kernel gave it */
	const char *name;                     /* the syscall's name in its ABI, or NULL */
	uint32_t action;                      /* the policy's verdict, carried out after this */
	const struct scg_verdict *verdict;    /* which part of @policy decided */
	const struct scg_policy *policy;      /* the policy that decided (see profile) */
	/* Decoded like strace (scg_call_format()): openat(AT_FDCWD, "/x", O_RDONLY). */
	const char *call;
	/* @call shows memory read from the program after the call (a string,
	 * written data), which it may have changed in between. */
	bool read_after_call;
};

/* Where a launch that never started the program failed (scg_launch_result.stage). */
enum scg_launch_stage {
	SCG_LAUNCH_STAGE_NONE = 0,
	SCG_LAUNCH_STAGE_SETUP,         /* signals, sockets, memory in the caller */
	SCG_LAUNCH_STAGE_POLICY,        /* preparing the policy; EXDEV: not for the native ABI */
	SCG_LAUNCH_STAGE_COMPILE,       /* compiling it (diagnostics in options.diag) */
	SCG_LAUNCH_STAGE_GUARD,         /* adding the guard; E2BIG: past 4096 instructions */
	SCG_LAUNCH_STAGE_WATCHDOG,      /* starting the watchdog */
	SCG_LAUNCH_STAGE_FORK,          /* forking the program */
	SCG_LAUNCH_STAGE_NO_NEW_PRIVS,  /* the child's PR_SET_NO_NEW_PRIVS */
	SCG_LAUNCH_STAGE_INSTALL,       /* the child's install; EBUSY: already supervised */
	SCG_LAUNCH_STAGE_CHILD,         /* the child before exec (error 0: it died unexplained) */
	SCG_LAUNCH_STAGE_LISTENER,      /* handing the listener to the watchdog */
	SCG_LAUNCH_STAGE_EXEC,          /* execve (error: its errno) */
	SCG_LAUNCH_STAGE_LANDLOCK,      /* the child's Landlock domain */
	SCG_LAUNCH_STAGE_PID_NAMESPACE, /* unshare_pid: the namespaces, or /proc in them */
};

/* What becomes of the program's descendants when the launch ends. */
enum scg_launch_tree {
	SCG_LAUNCH_TREE_KEPT = 0,  /* keep_children: they live on */
	SCG_LAUNCH_TREE_CGROUP,    /* a cgroup v2 of the program's own, ended by cgroup.kill */
	SCG_LAUNCH_TREE_SUBREAPER, /* the supervisor is their subreaper and kills them */
};

/* Landlock scopes of the program's domain (the kernel's LANDLOCK_SCOPE_* values). */
#define SCG_LAUNCH_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCG_LAUNCH_SCOPE_SIGNAL		      (1ULL << 1)

/* The layers that confine the program besides the policy, as on_started sees them. */
struct scg_launch_layers {
	bool supervised;      /* a supervisor answers the filter (not --no-report) */
	int landlock_abi;     /* the ABI of the program's Landlock domain; 0: none */
	uint64_t landlock_scoped; /* SCG_LAUNCH_SCOPE_* of that domain */
	enum scg_launch_tree tree;
	const char *cgroup;   /* TREE_CGROUP: the cgroup's directory (borrowed) */
	bool pid_namespace;   /* unshare_pid: the program is in a pid namespace of its own */
};

/* How a launch ended. */
enum scg_launch_end {
	SCG_LAUNCH_NOT_STARTED = 0,     /* the program never ran: stage and error say why */
	SCG_LAUNCH_EXITED,              /* status: its exit status */
	SCG_LAUNCH_SIGNALED,            /* status: the signal that ended it */
	SCG_LAUNCH_SUPERVISION_FAILED,  /* the supervisor failed (error); the program was killed */
};

struct scg_launch_result {
	enum scg_launch_end end;
	int status;                   /* exit status or signal, per @end */
	int error;                    /* a positive errno, for NOT_STARTED and SUPERVISION_FAILED */
	enum scg_launch_stage stage;  /* NOT_STARTED: where */
	pid_t pid;                    /* the program's, once forked; else 0 */
	/* The program itself was ended by a KILL verdict the supervisor carried
	 * out (it then shows as SIGNALED by SIGKILL), for syscall @killed_call. */
	bool killed_by_verdict;
	char killed_call[64];
	/* With wait_descendants: other processes (descendants) a KILL verdict
	 * ended: how many, the first. */
	unsigned long killed_others;
	pid_t killed_other_pid;
	char killed_other_call[64];
};

/*
 * REPORT: what a seccomp filter the program installs of its own meets.  The
 * kernel ranks that filter's ERRNO, TRAP, KILL and USER_NOTIF above the
 * USER_NOTIF that carries the policy's reported verdicts, so once it is in,
 * a call the policy kills can get that filter's answer instead, unreported
 * (the call still never runs).  Such installs come to the supervisor first.
 */
enum scg_own_filters {
	SCG_OWN_FILTERS_ALLOW = 0, /* installed, and told (on_own_filter) */
	SCG_OWN_FILTERS_REFUSE,    /* seccomp()/prctl() fail with EPERM, told */
};

struct scg_launch_options {
	size_t sz; /* sizeof(struct scg_launch_options); SCG_OPTS fills it in */
	enum scg_launch_mode mode;
	/*
	 * With a NULL policy: the built-in profile of this name (scg_profile_source()).
	 * Its prebuilt filter is installed where one exists for the native ABI,
	 * and its rules are parsed only when a verdict is needed (most programs
	 * never need one).
	 */
	const char *profile;
	/*
	 * The verdicts the watchdog gives, unreported, to calls still waiting
	 * or made once the supervisor is gone (NULL: the policy's; RECORD:
	 * KILL_PROCESS for every call).
	 */
	const struct scg_policy *fallback;
	/* The executable (NULL: argv[0] found as scg_launch_resolve() finds it). */
	const char *path;
	/* The program's environment (NULL: the caller's environ). */
	char *const *envp;
	/*
	 * Nothing is denied: the program runs as without the policy, and each
	 * call the policy would deny is only told.  REPORT: every denying
	 * verdict goes to the supervisor, which reports it (on_denial, with
	 * the verdict it would have given) and answers CONTINUE; ERRNO(ENOSYS),
	 * which run leaves unreported, becomes SECCOMP_RET_LOG.  UNSUPERVISED:
	 * every denying verdict becomes SECCOMP_RET_LOG, which the kernel lets
	 * run and logs (an audit record, type=1326, where the log action is
	 * enabled); nothing comes back to the caller.  The guard still refuses
	 * what it refuses.  The fallback defaults to allowing every call.
	 * Ignored by SERVE and RECORD.
	 */
	bool complain;
	/* Keep serving after the program ends, until no task uses the filter
	 * any more or a forwarded signal arrives: its descendants (daemons)
	 * stay supervised, and a KILL verdict among them counts in the result. */
	bool wait_descendants;
	/* The kernel's features to go by (NULL: scg_features_probe_seccomp()):
	 * WAIT_KILLABLE_RECV is asked for where it is present. */
	const struct scg_features *features;
	/* Diagnostics of compiling the policy (may be NULL); caller-owned. */
	struct scg_diag *diag;
	/* REPORT: a filter the program installs of its own (see the enum). */
	enum scg_own_filters own_filters;

	/* --- events; each may be NULL, each gets @ctx ------------------------ */
	void *ctx;
	/* The filter is built and diagnostics are in @diag; the program is
	 * about to be forked. */
	void (*on_ready)(void *ctx);
	/* REPORT: a denied call, before its verdict is carried out. */
	void (*on_denial)(const struct scg_launch_denial *denial, void *ctx);
	/* REPORT: thread @tid asks to install a seccomp filter of its own (@data:
	 * the seccomp() or prctl() call); @refused: it got EPERM (own_filters).
	 * Also for a NULL program, how libseccomp probes for a flag: root can map
	 * page 0, where the kernel would find a filter. */
	void (*on_own_filter)(pid_t tid, const struct scg_seccomp_data *data, bool refused,
			      void *ctx);
	/* RECORD: a call the program made (the kernel took the answer). */
	void (*on_call)(pid_t tid, const struct scg_seccomp_data *data, void *ctx);
	/* SERVE: decides one notification (required in that mode); see
	 * scg_notif_decide_fn.  A negative return ends supervision. */
	scg_notif_decide_fn on_notif;
	/* SERVE: after the answer to @notif was given; @respond_result is
	 * scg_notif_respond()'s (-ENOENT: the caller no longer waited). */
	void (*on_answered)(const struct scg_notif *notif, const struct scg_notif_resp *resp,
			    int respond_result, void *ctx);
	/* The supervisor could not serve a notification (-@error) and handed
	 * the listener to the watchdog, which answers with the fallback's
	 * verdicts, unreported, from now on; the program runs on. */
	void (*on_gave_up)(int error, void *ctx);
	/* The launch is over; @result is what scg_launch() returns in *out. */
	void (*on_exit)(const struct scg_launch_result *result, void *ctx);

	/* --- added later ------------------------------------------------------- */
	/*
	 * Leave the program's descendants alone when the launch ends: by
	 * default every process of its tree (also those that re-parented) is
	 * killed when the program is killed by a verdict, and when the launch
	 * returns (after wait_descendants' wait); see enum scg_launch_tree.
	 */
	bool keep_children;
	/*
	 * No Landlock domain for the program.  By default, where the kernel has
	 * Landlock (its ABI in features->landlock_abi), the program runs in a
	 * domain that loses no file access but cannot trace, open the
	 * /proc/PID/mem of, and from ABI 6 signal or reach the abstract unix
	 * sockets of processes outside it; the guard then leaves those to it.
	 */
	bool no_landlock;
	/* The program runs (its exec succeeded); @layers say what confines it. */
	void (*on_started)(const struct scg_launch_layers *layers, void *ctx);
	/*
	 * The program in a pid namespace of its own (with a user namespace
	 * mapping only the caller's ids when the caller is not root), /proc
	 * mounted anew in a mount namespace of its own: it sees only its own
	 * tree, and the kernel kills that whole tree when the namespace's init
	 * (a small process of the launcher's, the program's parent) ends, which
	 * it does when the program ends.  The launcher's child stays outside
	 * and exits as the program did; result.pid is the program's pid as the
	 * caller sees it.  Its descendants end with it whatever wait_descendants
	 * and keep_children say: the namespace ends with its init.
	 */
	bool unshare_pid;
	/*
	 * A policy with phases (borrowed; <syscage/lang.h>, docs/phases.md),
	 * in place of the policy (pass NULL for it): the program starts under
	 * its start phase, and each process enters the next phase at its first
	 * call of that phase's trigger, before that call runs, with every
	 * thread of it (the supervisor traces the program and injects the
	 * filter; x86_64 only, -EOPNOTSUPP elsewhere).  A transition that fails
	 * ends the program and its tree (SUPERVISION_FAILED).  Not with
	 * unshare_pid, SERVE or RECORD (-EINVAL).  Later phases' verdicts are
	 * the kernel's, unreported.
	 */
	const struct scg_phases *phases;
	/* o.phases: process @pid entered phase @name (@error 0), or failed to
	 * (@error a positive errno; EBUSY: a thread could not be moved). */
	void (*on_phase)(pid_t pid, const char *name, int error, void *ctx);
};

/*
 * Runs @argv (argv[0] the command, NULL-terminated) under @policy
 * (borrowed; NULL: options.profile) as options.mode says, and supervises it
 * until it ends (with wait_descendants: until its descendants end too).
 * Returns 0 when the program ran, with how it ended in *@out; or a
 * negative errno when it could not be started (*@out then says where:
 * end NOT_STARTED, stage, error), or -EINVAL for bad options.  @opts may be
 * NULL (REPORT under the built-in profile "default").
 */
SCG_API int scg_launch(char *const argv[], const struct scg_policy *policy,
		       const struct scg_launch_options *opts, struct scg_launch_result *out);

/*
 * The exit status a shell would give for @r: the program's status, 128 +
 * the signal, 128 + SIGSYS when a KILL verdict ended it or (with
 * wait_descendants) one of its descendants, 127 when the executable was not
 * found, 126 when it could not be executed, 125 for every other failure to
 * start or to supervise.
 */
SCG_API int scg_launch_exit_status(const struct scg_launch_result *r);

/*
 * Finds @cmd on $PATH as execvp() would (a name with a '/' is taken as
 * it is).  Returns a new string (free() it), or NULL with errno ENOENT or
 * EACCES (found, but not executable), or ENOMEM.
 */
SCG_API char *scg_launch_resolve(const char *cmd);

/*
 * Fills @resp (its id set) to answer @notif with verdict @action as the
 * kernel would have: the errno for ERRNO, CONTINUE for ALLOW and LOG (only
 * an older filter of the program's own can send those), ENOSYS for
 * USER_NOTIF and TRACE (what the kernel gives when nobody listens).  A kill
 * verdict (KILL_PROCESS, KILL_THREAD, TRAP, an action the kernel does not
 * know) never lets the caller see an answer: its whole process gets SIGKILL
 * (through a pidfd, after checking the notification is still the caller's)
 * before the answer is sent; a thread cannot be killed alone, and a SIGSYS
 * could be caught.  Returns the process id killed (> 0), 0 when nothing was
 * killed, or a negative errno when a kill verdict's SIGKILL could not be
 * sent (-ENOENT: the caller was already gone).
 */
SCG_API pid_t scg_notif_answer_verdict(int listener, const struct scg_notif *notif,
				       uint32_t action, struct scg_notif_resp *resp);

/*
 * Writes @notif's call as strace shows it (scg_call_format()) into @buf,
 * reading strings and buffers from the caller through @listener
 * (scg_notif_mem_open(), re-validated).  True when the text shows such
 * memory, which the caller may have changed since it made the call.
 */
SCG_API bool scg_notif_format_call(int listener, const struct scg_notif *notif, char *buf,
				   size_t size);

/* The process (thread group) of @notif's calling thread, from /proc (the thread's id when
 * it cannot be read). */
SCG_API pid_t scg_notif_tgid(const struct scg_notif *notif);

/* --- inject's supervisor, for SCG_LAUNCH_SERVE (inject_serve.c) ---------- */

/* A fault injected, as on_injected sees it (everything borrowed for the call). */
struct scg_inject_fault {
	size_t rule;                   /* index of the rule in the rules given */
	const struct scg_notif *notif; /* the call */
	pid_t tgid;                    /* its process */
	const char *name;              /* its syscall's name in its ABI, or NULL */
	uint64_t count;                /* which call of the syscall in its thread the rule's
					  when= counted; 0 for a rule without when= */
	const char *call;              /* decoded (scg_notif_format_call()), strings read while
					  the call waited */
};

struct scg_inject_server_opts {
	size_t sz; /* sizeof(struct scg_inject_server_opts); SCG_OPTS fills it in */
	/* The kernel's features to go by (NULL: scg_features_probe_seccomp()):
	 * with WAIT_KILLABLE_RECV a rule's signal is sent before the answer. */
	const struct scg_features *features;
	/* Each fault, before its delays and its answer. */
	void (*on_injected)(const struct scg_inject_fault *fault, void *ctx);
	void *ctx;
};

struct scg_inject_server;

/*
 * A supervisor that answers notified calls with @rules (borrowed, resolved
 * by scg_inject_rules_resolve(): one rule at most per syscall and ABI)
 * and every other call with @base's verdict (borrowed).  A rule's when=
 * counts per thread and syscall the calls in its set that meet its if=
 * and path tests; a call it takes gets its error=, retval=, delays and
 * signal.  Returns 0 with *@out, or -EINVAL or -ENOMEM.
 */
SCG_API int scg_inject_server_new(struct scg_inject_rule *const *rules, size_t nrules,
				  const struct scg_policy *base,
				  const struct scg_inject_server_opts *opts,
				  struct scg_inject_server **out);
/* NULL is a no-op; the rules and @base stay the caller's. */
SCG_API void scg_inject_server_free(struct scg_inject_server *srv);

/* Decides notification @notif into @resp: for the launcher's on_notif. */
SCG_API int scg_inject_server_decide(struct scg_inject_server *srv, int listener,
				     const struct scg_notif *notif, struct scg_notif_resp *resp);

/* For the launcher's on_answered: on kernels without WAIT_KILLABLE_RECV a
 * rule's signal follows the answer, or the call would restart. */
SCG_API void scg_inject_server_answered(struct scg_inject_server *srv);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_LAUNCH_H */
