/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher's child between fork and exec.
 *
 * The filter arrives compiled (launch_filter.c); the child binds itself to
 * the supervisor's life, joins the program's cgroup (launch_tree.c), enters
 * its Landlock domain (landlock.c), installs the filter and execs.  Once the filter is in,
 * every syscall goes through the program's policy, so the child only makes
 * raw syscalls carrying the exec cookie: sendmsg to hand over the listener,
 * execve, and exit_group if the exec fails.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/launch_internal.h"

extern char **environ;

/* sendmsg as a raw syscall with the cookie in argument 5. */
static long send_msg(int sock, const struct launch_msg *m, int fd, uint64_t cookie)
{
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	fd_attach(&msg, &control, fd);
	return syscall(SYS_sendmsg, sock, &msg, MSG_NOSIGNAL, 0L, 0L, cookie);
}

/* Before the filter is in: says why, and ends. */
static _Noreturn void fail_early(int sock, enum scg_launch_stage stage, int err)
{
	struct launch_msg m = { .kind = LAUNCH_MSG_FAILED, .err = err, .stage = (int)stage };
	(void)!send(sock, &m, sizeof(m), MSG_NOSIGNAL);
	_exit(125);
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

_Noreturn void launch_child(const struct launch *l, struct scg_prog *filter, uint64_t cookie,
			    pid_t supervisor, int sock, const sigset_t *orig_mask)
{
	if (bind_to_parent(supervisor) < 0)
		_exit(125);
	if (sigprocmask(SIG_SETMASK, orig_mask, NULL) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_CHILD, errno);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_NO_NEW_PRIVS, errno);
	/* Before anything the program runs: its tree, then its Landlock domain,
	 * which the supervisor and the watchdog stay outside of. */
	tree_child_join(l->tree);
	int e = l->landlock_abi > 0 ? landlock_enter(l->landlock_abi) : 0;
	if (e < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_LANDLOCK, -e);
	/* This child is single-threaded (fork copies one thread): no TSYNC needed. */
	struct scg_install_result res = { .listener = -1 };
	int r = scg_filter_install(filter, l->supervised ? l->listener_flags : 0, &res);
	/* The cookie is in these instructions.  Once the filter is in, free()
	 * could make a syscall (trimming the heap) the policy denies before the
	 * supervisor listens: wipe, and let exec reclaim the memory. */
	explicit_bzero(filter->insns, filter->len * sizeof(*filter->insns));
	if (r < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_INSTALL, -r);
	/* From here on: only raw syscalls carrying the cookie. */
	struct launch_msg m = { .kind = LAUNCH_MSG_LISTENER };
	char *const *envp = l->o.envp ? l->o.envp : environ;
	if (l->supervised && send_msg(sock, &m, res.listener, cookie) < 0) {
		m = (struct launch_msg){ LAUNCH_MSG_FAILED, errno, SCG_LAUNCH_STAGE_CHILD };
	} else {
		/* The listener is close-on-exec, and so is @sock: exec drops both. */
		syscall(SYS_execve, l->path, l->argv, envp, 0L, 0L, cookie);
		m = (struct launch_msg){ LAUNCH_MSG_FAILED, errno, SCG_LAUNCH_STAGE_EXEC };
	}
	send_msg(sock, &m, -1, cookie);
	syscall(SYS_exit_group, m.stage == SCG_LAUNCH_STAGE_EXEC ? 127L : 125L, 0L, 0L, 0L, 0L,
		cookie);
	_exit(125); /* not reached */
}
