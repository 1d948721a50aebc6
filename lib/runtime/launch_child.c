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
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* --- unshare_pid: the child, the namespace's init, the program ------------ */

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : n < 0 ? -e : -EIO;
}

/* Maps the caller's own uid and gid, and nothing else, into a new user namespace. */
static int map_ids(uid_t uid, gid_t gid)
{
	char line[64];
	int r = write_text("/proc/self/setgroups", "deny");
	if (r == -ENOENT)
		r = 0; /* before Linux 3.19 */
	snprintf(line, sizeof(line), "%u %u 1", (unsigned)uid, (unsigned)uid);
	if (r == 0)
		r = write_text("/proc/self/uid_map", line);
	snprintf(line, sizeof(line), "%u %u 1", (unsigned)gid, (unsigned)gid);
	if (r == 0)
		r = write_text("/proc/self/gid_map", line);
	return r;
}

/*
 * The namespace's init (pid 1): /proc of its own, then the program as its
 * child, whose wait status it writes to @status_fd once it ends, after
 * reaping whatever else re-parented to it.  Returns in the program only.
 */
static void run_init(int sock, int status_fd)
{
	prctl(PR_SET_NAME, "syscage-init", 0L, 0L, 0L); /* tells it apart in ps */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0L, 0L, 0L) < 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_PID_NAMESPACE, errno);
	pid_t program = fork();
	if (program < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_FORK, errno);
	if (program == 0) {
		close(status_fd);
		return;
	}
	close(sock);
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	int status = 0;
	for (;;) {
		pid_t w = wait(&status);
		if (w == program || (w < 0 && errno == ECHILD))
			break;
	}
	(void)!write(status_fd, &status, sizeof(status));
	_exit(0);
}

/* The program's pid as this process (outside the namespace) sees it: init's child. */
static pid_t program_of(pid_t init)
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)init, (int)init);
	for (int i = 0; i < 100000; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1; /* init is gone */
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = '\0';
			return (pid_t)atoi(buf);
		}
		usleep(100);
	}
	return -1;
}

/* The child outside: tells the launcher the program's pid, then ends as the program did. */
static _Noreturn void relay(pid_t init, int sock, int status_fd)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL); /* the launcher passes signals on to the program */
	struct launch_msg m = { .kind = LAUNCH_MSG_PROGRAM, .err = (int)program_of(init) };
	if (m.err > 0)
		(void)!send(sock, &m, sizeof(m), MSG_NOSIGNAL);
	close(sock);
	int status;
	ssize_t n;
	do
		n = read(status_fd, &status, sizeof(status));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(status))
		status = SIGKILL; /* init was killed: so was the namespace */
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
	signal(sig, SIG_DFL);
	prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L); /* no core file of ours */
	kill(getpid(), sig);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	_exit(128 + sig);
}

/*
 * unshare_pid: a pid namespace (and a user namespace mapping only our ids,
 * unless root), whose init this child forks; returns in the program, which
 * init forks in turn.
 */
static void enter_pid_namespace(int sock)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int flags = CLONE_NEWPID | (uid != 0 ? CLONE_NEWUSER : 0);
	int pipefd[2];
	if (unshare(flags) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_PID_NAMESPACE, errno);
	int r = 0;
	if (flags & CLONE_NEWUSER) {
		/* The maps are /proc files of this process: writable by its user only
		 * while it is dumpable, which it is for these three writes alone. */
		prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
		r = map_ids(uid, gid);
		prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
	}
	if (r < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_PID_NAMESPACE, -r);
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_CHILD, errno);
	pid_t init = fork();
	if (init < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_FORK, errno);
	if (init == 0) {
		close(pipefd[0]);
		run_init(sock, pipefd[1]);
		return;
	}
	close(pipefd[1]);
	relay(init, sock, pipefd[0]);
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
	/* Phases: the supervisor traces the program from its exec's stop on
	 * (launch_phases.c); asked before the guard, which refuses ptrace. */
	if (l->o.phases && ptrace(PTRACE_TRACEME, 0L, 0L, 0L) < 0)
		fail_early(sock, SCG_LAUNCH_STAGE_CHILD, errno);
	/* Before anything the program runs: its tree, then its Landlock domain,
	 * which the supervisor and the watchdog stay outside of. */
	tree_child_join(l->tree);
	if (l->o.unshare_pid)
		enter_pid_namespace(sock);
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
