/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run`: a watchdog that kills the program when the supervisor
 * dies, however it dies.
 *
 * The child asks for SIGKILL on its parent's death (PR_SET_PDEATHSIG), but
 * the kernel clears that request whenever the process changes credentials:
 * a program started as root that drops to another user (servers do, so
 * does `setpriv`) would outlive a killed supervisor and run on under a
 * filter nobody answers, where denied calls fail with ENOSYS and KILL
 * verdicts no longer kill.  The watchdog is a second child of the
 * supervisor that never changes credentials: it holds a pidfd of the
 * program and the read end of a pipe whose only write end the supervisor
 * holds.  When the supervisor dies the pipe reports end-of-file and the
 * watchdog kills the program.  When the supervisor ends normally the
 * program is already gone, and the pidfd makes the signal harmless.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

static void close_between(unsigned first, unsigned last)
{
	if (first > last)
		return;
	if (syscall(SYS_close_range, first, last, 0U) == 0)
		return;
	/* Before Linux 5.9: one by one, up to the descriptor limit. */
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = first; fd <= (long)last && fd < (max > 0 ? max : 1024); fd++)
		close((int)fd);
}

/* Closes every descriptor but @a and @b: the watchdog must not keep the
 * listener, the socket or the log open, nor stdout and stderr, or a reader
 * waiting for their end-of-file would wait for the watchdog too. */
static void close_others(int a, int b)
{
	const unsigned keep[2] = { (unsigned)(a < b ? a : b), (unsigned)(a < b ? b : a) };
	unsigned first = 0;
	for (int i = 0; i < 2; i++) {
		if (keep[i] > first)
			close_between(first, keep[i] - 1);
		first = keep[i] + 1;
	}
	close_between(first, ~0U);
}

static _Noreturn void watch(int rd, int pidfd)
{
	close_others(rd, pidfd);
	prctl(PR_SET_NAME, "syscage-watch", 0L, 0L, 0L); /* tells it apart in ps */
	/* Signals for the supervisor are none of the watchdog's business. */
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	char c;
	ssize_t n;
	do
		n = read(rd, &c, 1);
	while (n < 0 && errno == EINTR);
	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	_exit(0);
}

int run_watchdog_start(pid_t program, struct run_watchdog *out)
{
	out->pid = -1;
	out->fd = -1;
	int pidfd = (int)syscall(SYS_pidfd_open, program, 0);
	if (pidfd < 0)
		return -errno; /* before Linux 5.3: the parent-death signal alone */
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		int e = errno;
		close(pidfd);
		return -e;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		watch(p[0], pidfd);
	}
	int e = errno;
	close(p[0]);
	close(pidfd);
	if (pid < 0) {
		close(p[1]);
		return -e;
	}
	out->pid = pid;
	out->fd = p[1];
	return 0;
}

void run_watchdog_stop(struct run_watchdog *dog)
{
	if (dog->pid <= 0)
		return;
	close(dog->fd); /* end-of-file: the watchdog signals the (gone) program and exits */
	/* Reaped if it is already done; otherwise not waited for, since on a busy
	 * machine waiting for it to be scheduled would add to every run's time:
	 * it ends on its own, and whoever inherits it reaps it. */
	waitpid(dog->pid, NULL, WNOHANG);
	dog->pid = -1;
	dog->fd = -1;
}
