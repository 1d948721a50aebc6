/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program started on a signal: the child waits on a pipe before its exec,
 * so a tracer (an eBPF program, a ptrace attach) sees every call the
 * program makes, and none of the launcher's.  The exec's failure comes
 * back through a close-on-exec pipe: end of file means the exec happened.
 * The signal to go is a socket, not a pipe: sent with MSG_NOSIGNAL, it
 * cannot raise SIGPIPE in the caller when the child is already gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <syscage/runtime.h>

extern char **environ;

/* The child's exit status when it is let go without its exec. */
#define HELD_ABANDONED 125

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static __attribute__((noreturn)) void held_child(const char *path, char *const argv[],
						 char *const envp[], unsigned flags, int go,
						 int err)
{
	char c;
	if (flags & SCG_HELD_STDOUT_TO_STDERR)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	/* Nothing but the wait and the exec: every call after the wait is the program's. */
	if (read(go, &c, 1) != 1)
		_exit(HELD_ABANDONED);
	execve(path, argv, envp ? envp : environ);
	int e = errno;
	ssize_t w = write(err, &e, sizeof(e));
	(void)w;
	_exit(e == ENOENT ? 127 : 126);
}

SCG_API int scg_spawn_held(const char *path, char *const argv[], char *const envp[],
			   unsigned flags, struct scg_held *out)
{
	if (!out)
		return -EINVAL;
	*out = (struct scg_held){ .pid = -1, .go_fd = -1, .err_fd = -1 };
	if (!path || !argv || !argv[0] || (flags & ~SCG_HELD_STDOUT_TO_STDERR))
		return -EINVAL;
	int go[2], err[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		int r = -errno;
		close(go[0]);
		close(go[1]);
		return r;
	}
	fflush(NULL); /* buffered output must not be written twice */
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		held_child(path, argv, envp, flags, go[0], err[1]);
	}
	int r = pid < 0 ? -errno : 0;
	close(go[0]);
	close(err[1]);
	if (r < 0) {
		close(go[1]);
		close(err[0]);
		return r;
	}
	*out = (struct scg_held){ .pid = pid, .go_fd = go[1], .err_fd = err[0] };
	return 0;
}

SCG_API int scg_held_release(struct scg_held *held)
{
	if (!held || held->go_fd < 0)
		return -EINVAL;
	ssize_t w;
	do
		w = send(held->go_fd, "", 1, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	int r = w == 1 ? 0 : -EPIPE; /* EPIPE: the child is gone already */
	close_fd(&held->go_fd);
	int e = 0;
	ssize_t n;
	do
		n = read(held->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close_fd(&held->err_fd);
	if (r == 0 && n == (ssize_t)sizeof(e))
		r = e > 0 ? -e : -EIO;
	return r;
}

SCG_API void scg_held_abandon(struct scg_held *held)
{
	if (!held)
		return;
	close_fd(&held->go_fd);
	close_fd(&held->err_fd);
}
