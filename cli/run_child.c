/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run`, the child between fork and exec.
 *
 * Until the filter is installed the child may use libc freely.  After it,
 * every syscall goes through the program's policy, so the child only makes
 * raw syscalls carrying the exec cookie (see run_policy.c): sendmsg to hand
 * over the listener, execve, and exit_group if the exec fails.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd_passing.h"
#include "run.h"

extern char **environ;

static uint64_t make_cookie(void)
{
	for (;;) {
		uint64_t c = 0;
		if (getrandom(&c, sizeof(c), 0) != (ssize_t)sizeof(c))
			continue; /* interrupted: try again */
		/* Both words non-zero, so no 32-bit view of a register can match it. */
		if ((uint32_t)c != 0 && (uint32_t)(c >> 32) != 0)
			return c;
	}
}

/* sendmsg as a raw syscall with the cookie in argument 5. */
static long send_msg(int sock, const struct run_msg *m, int fd, uint64_t cookie)
{
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	fd_attach(&msg, &control, fd);
	return syscall(SYS_sendmsg, sock, &msg, MSG_NOSIGNAL, 0L, 0L, cookie);
}

static _Noreturn void fail_early(int sock, int err)
{
	struct run_msg m = { .kind = RUN_MSG_SETUP_FAILED, .err = err };
	(void)!send(sock, &m, sizeof(m), MSG_NOSIGNAL);
	_exit(125);
}

/* Builds and compiles the installed policy; prints diagnostics (the child may still print). */
static int compile_policy(const struct run_config *cfg, uint64_t cookie, bool report,
			  struct scg_prog *prog)
{
	struct scg_policy *p;
	const struct scg_policy *policy = run_policy(cfg);
	int r = policy ? run_build_policy(policy, cookie, report, &p) : -ENOMEM;
	if (r == -EXDEV) {
		cli_error("policy '%s' does not target the native ABI (%s)", cfg->policy_name,
			  scg_arch_name(scg_arch_native()));
		return r;
	}
	if (r < 0) {
		cli_error("cannot prepare policy '%s': %s", cfg->policy_name, strerror(-r));
		return r;
	}
	struct scg_diag *diag = scg_diag_new();
	r = diag ? scg_compile(p, NULL, prog, diag) : -ENOMEM;
	if (diag)
		cli_print_diag(diag);
	if (r < 0)
		cli_error("cannot compile policy '%s': %s", cfg->policy_name, strerror(-r));
	scg_diag_free(diag);
	scg_policy_free(p);
	return r;
}

/*
 * The installed filter: a built-in profile's prebuilt program when there is
 * one (run leaves built-in profiles unparsed), else the policy compiled;
 * with the guard for @guard (run_guard.c) when supervised.
 */
static int compile_filter(const struct run_config *cfg, const struct run_guard *guard,
			  uint64_t cookie, struct scg_prog *prog)
{
	bool report = cfg->report && !cfg->verdicts_as_is;
	int r = cfg->policy ? -ENOENT : run_prebuilt_filter(cfg->policy_name, cookie, report, prog);
	if (r == -ENOENT)
		r = compile_policy(cfg, cookie, report, prog);
	else if (r < 0)
		cli_error("cannot prepare policy '%s': %s", cfg->policy_name, strerror(-r));
	/* Unsupervised, every verdict is the kernel's: nothing to guard. */
	if (r == 0 && cfg->report && (r = run_guard_attach(guard, prog)) < 0) {
		cli_error("cannot add the guard to policy '%s': %s", cfg->policy_name,
			  r == -E2BIG ? "together they pass the kernel's 4096 instructions"
				      : strerror(-r));
		scg_prog_release(prog);
	}
	return r;
}

/* Death of the supervisor must take the program with it; see docs/run.md. */
static int bind_to_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L) < 0)
		return -errno;
	if (getppid() != parent)
		return -ESRCH; /* the supervisor died before the line above */
	return 0;
}

/*
 * NEW_LISTENER, and WAIT_KILLABLE_RECV where the kernel has it: once the
 * supervisor has received a denied call, a harmless signal to the caller
 * must not restart the call and report it twice.
 */
static unsigned listener_flags(void)
{
	struct scg_features f;
	unsigned flags = SCG_FILTER_FLAG_NEW_LISTENER;
	if (cli_features_probe(&f) == 0 && (f.flags & SCG_FILTER_FLAG_WAIT_KILLABLE_RECV))
		flags |= SCG_FILTER_FLAG_WAIT_KILLABLE_RECV;
	return flags;
}

static int install(const struct run_config *cfg, const struct run_guard *guard, uint64_t cookie,
		   int *listener)
{
	struct scg_prog prog = { 0 };
	int r = compile_filter(cfg, guard, cookie, &prog);
	if (r < 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0) {
		r = -errno;
		cli_error("cannot set no_new_privs: %s", strerror(-r));
	} else {
		/* This child is single-threaded (fork copies one thread): no TSYNC needed. */
		struct scg_install_result res;
		unsigned flags = cfg->report ? listener_flags() : 0;
		r = scg_filter_install(&prog, flags, &res);
		if (r == -EBUSY && !cfg->serve)
			cli_error("cannot install the filter: a supervised filter is already in place "
				  "(one listener per process); use --no-report");
		else if (r == -EBUSY) /* learn and inject: their supervisor is the whole point */
			cli_error("cannot install the filter: this process is already supervised "
				  "(one listener per process); run the command outside the other "
				  "syscage run, learn or inject");
		else if (r < 0)
			cli_error("cannot install the filter: %s", strerror(-r));
		*listener = res.listener;
	}
	/* The cookie is in these instructions.  Once the filter is in, free()
	 * could make a syscall (trimming the heap) the policy denies before the
	 * supervisor listens: wipe, and let exec reclaim the memory. */
	explicit_bzero(prog.insns, prog.len * sizeof(*prog.insns));
	if (r < 0)
		scg_prog_release(&prog);
	return r;
}

_Noreturn void run_child(const struct run_config *cfg, const struct run_guard *guard, int sock,
			 const sigset_t *orig_mask)
{
	int r = bind_to_parent(guard->supervisor);
	if (r < 0)
		_exit(125);
	if (sigprocmask(SIG_SETMASK, orig_mask, NULL) < 0)
		fail_early(sock, errno);
	uint64_t cookie = make_cookie();
	int listener = -1;
	r = install(cfg, guard, cookie, &listener);
	if (r < 0)
		fail_early(sock, 0); /* install() has said why */
	/* From here on: only raw syscalls carrying the cookie. */
	struct run_msg m = { .kind = RUN_MSG_LISTENER, .err = 0 };
	if (cfg->report && send_msg(sock, &m, listener, cookie) < 0) {
		m.kind = RUN_MSG_SETUP_FAILED;
		m.err = errno;
	} else {
		/* The listener is close-on-exec, and so is @sock: exec drops both. */
		syscall(SYS_execve, cfg->path, cfg->argv, environ, 0L, 0L, cookie);
		m.kind = RUN_MSG_EXEC_FAILED;
		m.err = errno;
	}
	send_msg(sock, &m, -1, cookie);
	syscall(SYS_exit_group, m.kind == RUN_MSG_EXEC_FAILED ? 127L : 125L, 0L, 0L, 0L, 0L, cookie);
	_exit(125); /* not reached */
}
