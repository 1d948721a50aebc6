/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The runtime: putting filters into the running kernel and supervising them.
 *
 * Installing (with every seccomp(2) flag), strict mode, asking the kernel
 * what it supports, and the user-notification side: receiving a trapped
 * syscall, reading the target's memory safely, and answering.
 *
 * The kernel ABI constants are defined here, so the build never depends on
 * the host's kernel headers being new enough.  Every function returns 0 (or
 * a documented non-negative value) or a negative errno; nothing prints.
 *
 * User notification is not a security boundary: pointer arguments can
 * change between the supervisor's read and the kernel's use, so a supervisor
 * may report and refuse, but must never allow (CONTINUE) on the strength of
 * memory it read.
 */
#ifndef SYSCAGE_RUNTIME_H
#define SYSCAGE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <syscage/bpf.h>
#include <syscage/emu.h>
#include <syscage/export.h>

struct scg_phases; /* <syscage/lang.h> */

#ifdef __cplusplus
extern "C" {
#endif

/* --- seccomp(2) filter flags (kernel values) ------------------------------ */

#define SCG_FILTER_FLAG_TSYNC (1U << 0)              /* 3.17: all threads */
#define SCG_FILTER_FLAG_LOG (1U << 1)                /* 4.14: log non-ALLOW actions */
#define SCG_FILTER_FLAG_SPEC_ALLOW (1U << 2)         /* 4.17: no speculation mitigation */
#define SCG_FILTER_FLAG_NEW_LISTENER (1U << 3)       /* 5.0: return a notification fd */
#define SCG_FILTER_FLAG_TSYNC_ESRCH (1U << 4)        /* 5.7: TSYNC failure is -ESRCH */
#define SCG_FILTER_FLAG_WAIT_KILLABLE_RECV (1U << 5) /* 5.19: only fatal signals once received */
#define SCG_FILTER_FLAGS_ALL 0x3fU

/* --- what the running kernel supports ------------------------------------- */

struct scg_features {
	bool seccomp_syscall;   /* seccomp(2) exists (else only prctl(PR_SET_SECCOMP)) */
	bool filter_mode;       /* filters can be installed at all */
	uint32_t actions;       /* bit (1 << enum scg_action) per action the kernel knows */
	uint32_t flags;         /* SCG_FILTER_FLAG_* the kernel knows */
	uint16_t notif_size;    /* SECCOMP_GET_NOTIF_SIZES; all 0 when unsupported */
	uint16_t notif_resp_size;
	uint16_t data_size;
	/*
	 * The machine around seccomp, which kernels are built or booted without.
	 * ia32_emulation: int $0x80 (the i386 ABI) runs in a 64-bit process
	 * (off with CONFIG_IA32_EMULATION=n or ia32_emulation=off: it then dies
	 * by SIGSEGV).  x32: syscall numbers with SCG_X32_SYSCALL_BIT run
	 * (CONFIG_X86_X32_ABI; without it they fail with ENOSYS once the
	 * filters have seen them).  Both are false on builds for other
	 * architectures.
	 */
	bool ia32_emulation;
	bool x32;
	/*
	 * PTRACE_SECCOMP_GET_FILTER copies another task's filters for this
	 * process.  When not, ptrace_get_filter_error says why: EACCES (this
	 * process lacks CAP_SYS_ADMIN or runs under seccomp itself), EIO (not
	 * in this kernel: CONFIG_CHECKPOINT_RESTORE), EPERM (ptrace is
	 * refused), or another errno.  0 when it works.
	 */
	bool ptrace_get_filter;
	int ptrace_get_filter_error;
	/*
	 * Landlock: the ABI version the kernel reports (0: not built, or not
	 * enabled at boot).  ABI 1 (Linux 5.13) keeps a process in a domain from
	 * tracing processes outside it; ABI 6 (6.12) adds scopes: signals and
	 * abstract unix sockets.
	 */
	int landlock_abi;
	/* This process's cgroup (v2) is writable and a cgroup made in it gets a
	 * cgroup.kill (Linux 5.14): a launched program's tree can be ended whole. */
	bool cgroup_kill;
};

/*
 * Asks the kernel: actions through SECCOMP_GET_ACTION_AVAIL, flags through
 * the NULL-program probe (EFAULT means the flag is known, EINVAL that it is
 * not), notification sizes through SECCOMP_GET_NOTIF_SIZES; nothing is
 * installed in the caller.  The machine fields are answered by short-lived
 * children, each reaped before the return (about a millisecond in all): one
 * makes getpid through int $0x80 (a child killed by any signal means no
 * 32-bit emulation), one through the x32 number, and one installs a filter
 * that allows everything and stops so that its filter can be asked for.
 * The calls are only waited for by their pid, so the caller's other
 * children are left alone.  Returns 0 (also when seccomp is absent:
 * everything is then false/0) or a negative errno for an unexpected answer.
 * Not for a process that may already run under a filter: the children meet
 * that filter (a NOTIFY on getpid or clone would wait for a supervisor that
 * is the caller itself); scg_features_probe_seccomp() is.
 */
SCG_API int scg_features_probe(struct scg_features *out);
/*
 * The seccomp part of scg_features_probe() alone: no child process, the
 * machine fields (ia32_emulation, x32, ptrace_get_filter) left false.  For
 * callers that only choose filter flags and actions, and for callers that
 * may be filtered already (the libseccomp drop-in): it makes only
 * seccomp(2) calls (prctl(PR_GET_SECCOMP) where seccomp(2) is missing).
 */
SCG_API int scg_features_probe_seccomp(struct scg_features *out);
/*
 * scg_features_probe_seccomp() and what a launcher needs besides
 * (landlock_abi, cgroup_kill): no child process either, but it reads
 * /proc/self and the cgroup file system, so it is for callers not yet
 * filtered, such as a launcher on every start.
 */
SCG_API int scg_features_probe_launch(struct scg_features *out);

/* --- installing ----------------------------------------------------------- */

struct scg_install_result {
	int listener;    /* with NEW_LISTENER: the close-on-exec notification fd; else -1 */
	pid_t tsync_tid; /* with TSYNC, on -ESRCH: the thread that blocked it (0 if unknown) */
};

/*
 * Installs @prog on the calling thread (or every thread with TSYNC) with
 * @flags (SCG_FILTER_FLAG_*).  The caller must have set NO_NEW_PRIVS or
 * hold CAP_SYS_ADMIN (else -EACCES).  When seccomp(2) is missing (-ENOSYS)
 * and @flags is 0, falls back to prctl(PR_SET_SECCOMP); with flags, -ENOSYS
 * stands.  A TSYNC failure reported as a positive thread id is returned as
 * -ESRCH with the id in @res->tsync_tid.  @res may be NULL when no listener
 * is requested.
 */
SCG_API int scg_filter_install(const struct scg_prog *prog, unsigned flags,
			       struct scg_install_result *res);

/*
 * For a program that moves itself through a policy with phases
 * (<syscage/lang.h>, docs/phases.md): compiles what phase @name allows and
 * installs it on every thread of the process (TSYNC), on top of the
 * filters already installed, so a phase only takes calls away.  Enter
 * "start" first, then each later phase when the program is ready for it
 * (a phase written `after phase_enter` is meant for this call; the
 * syscall triggers of other phases are for `syscage run` and are not
 * installed here).  The caller must have set PR_SET_NO_NEW_PRIVS or hold
 * CAP_SYS_ADMIN.  Returns 0, -ENOENT for no such phase, -ESRCH (tid in
 * none: scg_filter_install()'s TSYNC failure) when a thread could not be
 * moved, or what compiling and installing return.
 */
SCG_API int scg_phase_enter(const struct scg_phases *phases, const char *name);

/*
 * Enters strict mode (read, write, _exit and sigreturn only; anything else
 * kills).  Falls back to prctl() without seccomp(2).  Returns only on failure
 * (a negative errno) or 0 on success.
 */
SCG_API int scg_strict_enter(void);

/* --- user notification ---------------------------------------------------- */

/* struct seccomp_notif, 80 bytes. */
struct scg_notif {
	uint64_t id;
	uint32_t pid; /* thread id of the target, in the listener's pid namespace */
	uint32_t flags;
	struct scg_seccomp_data data;
};

#define SCG_NOTIF_FLAG_CONTINUE (1U << 0) /* 5.5: run the syscall (error and val must be 0) */

/* struct seccomp_notif_resp, 24 bytes. */
struct scg_notif_resp {
	uint64_t id;
	int64_t val;   /* the syscall's return value when error == 0 */
	int32_t error; /* a negative errno, or 0 */
	uint32_t flags;
};

/*
 * Waits for and receives one notification.  -ENOENT: the target vanished
 * before it could be received (try again); -EINTR on a signal.
 */
SCG_API int scg_notif_receive(int listener, struct scg_notif *out);
/* Answers; -ENOENT when the target no longer waits (killed, or interrupted). */
SCG_API int scg_notif_respond(int listener, const struct scg_notif_resp *resp);
/* 0 when notification @id still waits for an answer, else -ENOENT. */
SCG_API int scg_notif_id_valid(int listener, uint64_t id);

/*
 * Opens the target's /proc/PID/mem for reading, then checks that @notif is
 * still pending, so the fd cannot belong to a recycled PID.  Returns the fd
 * (close-on-exec; the caller closes it) or a negative errno.
 */
SCG_API int scg_notif_mem_open(int listener, const struct scg_notif *notif);

/*
 * Reads up to @len bytes at @addr from the target through @mem_fd (from
 * scg_notif_mem_open()), stopping early at a page the program itself could
 * not read (unmapped, PROT_NONE: where the kernel's copy for the call would
 * fault), then re-checks that @notif is still pending.  Returns the number
 * of bytes read (> 0) or a negative errno (-EFAULT: nothing readable).  The
 * same caveat as below.
 */
SCG_API ssize_t scg_notif_read(int listener, const struct scg_notif *notif, int mem_fd,
			       uint64_t addr, void *buf, size_t len);

/*
 * Reads a NUL-terminated string at @addr from the target through @mem_fd
 * (from scg_notif_mem_open()) into @buf (@size > 0), then re-checks that
 * @notif is still pending.  Returns the string's length, -ENAMETOOLONG when
 * it was cut to @size - 1 bytes (still terminated), or a negative errno
 * (-EFAULT also when the string runs into a page the program cannot read
 * before its NUL, as the call itself would fail).
 * The target may change the memory afterwards: use the text to report,
 * never to allow.
 */
SCG_API ssize_t scg_notif_read_string(int listener, const struct scg_notif *notif, int mem_fd,
				      uint64_t addr, char *buf, size_t size);

/*
 * The decision of a notification loop: fill @resp (id preset, the rest
 * zero: an answer of 0).  Return 0 to answer, 1 to answer and stop the loop,
 * or a negative errno to stop without answering.
 */
typedef int (*scg_notif_decide_fn)(int listener, const struct scg_notif *notif,
				   struct scg_notif_resp *resp, void *ctx);

/*
 * Receives one notification, asks @decide and answers.  Returns 1 when
 * @decide asked to stop, 0 when a notification was handled or vanished, or a
 * negative errno (-EINTR on a signal).
 */
SCG_API int scg_notif_handle_one(int listener, scg_notif_decide_fn decide, void *ctx);

/*
 * Serves notifications until no task uses the filter any more (the
 * listener reports POLLHUP), @decide asks to stop, or an error.  Returns 0
 * or a negative errno.  Signals (EINTR) are retried.
 */
SCG_API int scg_notif_loop(int listener, scg_notif_decide_fn decide, void *ctx);

/* --- what filters cost (measure.c) -------------------------------------- */

/* A syscall to time: its number on the native ABI and its six arguments. */
struct scg_measure_call {
	uint32_t nr;
	uint64_t args[6];
};

struct scg_measure_opts {
	size_t sz;      /* sizeof(struct scg_measure_opts); SCG_OPTS fills it in */
	int cpu;        /* the CPU the timed process is pinned to; -1: not pinned */
	uint64_t calls; /* calls in the timed loop; 0: as many as take about rep_ms */
	double rep_ms;  /* with calls 0: the loop's target length (0: 20 ms) */
};

struct scg_measure_result {
	double ns_per_call; /* CPU time per call, or wall time when !cpu_clock */
	bool cpu_clock;     /* CPU time, time spent waiting for a CPU excluded; false: wall time */
	uint64_t calls;     /* calls timed */
	long result;        /* what the last call returned (-errno on failure) */
	size_t failed_filter; /* with -errno from installing: the filter that did not load */
	char error[120];    /* on failure: why nothing was measured */
};

/*
 * Times a loop of @call in a fresh child process (filters cannot be
 * removed, so every measurement needs one) that sets no_new_privs, installs
 * @nfilters filters (oldest first), warms up and then makes no syscall but
 * the one timed: a filter that denies write() or kills at exit cannot lose
 * the result, which comes back through shared memory.  The time is the
 * child's CPU time, read by the caller from the child's CPU-time clock with
 * the child stopped (SIGSTOP) right before and right after the loop, so
 * time the child spent waiting for a CPU another task had does not count.
 * When the CPU time cannot be read, or cannot be right (none at all, or
 * more than the loop's wall-clock time), the result is the loop's wall
 * clock time and @out->cpu_clock is false.  A child still busy
 * after 60 s (a filter that blocks the call) is ended.  Nothing is printed.
 * Returns 0, or -errno with @out->error saying why: a filter that did not
 * load (@out->failed_filter), a filter that killed the child, fork failing.
 */
SCG_API int scg_measure_syscall(const struct scg_prog *filters, size_t nfilters,
				const struct scg_measure_call *call,
				const struct scg_measure_opts *opts,
				struct scg_measure_result *out);

/* --- a program started on a signal (spawn.c) ------------------------------ */

/* A child forked and waiting to exec its program (scg_spawn_held()). */
struct scg_held {
	pid_t pid;
	int go_fd;  /* written to let it exec; -1 once released or abandoned */
	int err_fd; /* the exec's errno comes back here; EOF: the exec happened */
};

/* scg_spawn_held() flags: the program's standard output goes to its standard error. */
#define SCG_HELD_STDOUT_TO_STDERR 1U

/*
 * Forks a child that waits, making no syscall but the wait, until
 * scg_held_release(), then execs @path with @argv and @envp (NULL: the
 * caller's environ).  Made for tracers that must be attached before the
 * program's first call: attach to @out->pid, then release.  Nothing is
 * printed.  Returns 0, or -errno when the child could not be made.
 */
SCG_API int scg_spawn_held(const char *path, char *const argv[], char *const envp[],
			   unsigned flags, struct scg_held *out);

/*
 * Lets the child exec and waits until the exec happened or failed.
 * Returns 0, or -errno of the failed exec (the child then exits with 127
 * for ENOENT, 126 otherwise, as a shell does).
 */
SCG_API int scg_held_release(struct scg_held *held);

/* Lets the child go without its exec: it exits with status 125.  The caller still reaps it. */
SCG_API void scg_held_abandon(struct scg_held *held);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_RUNTIME_H */
