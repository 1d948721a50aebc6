/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher's watchdog: it kills the program
 * when the supervisor dies, however it dies, and then keeps answering the
 * filter for whatever still uses it.
 *
 * The child asks for SIGKILL on its parent's death (PR_SET_PDEATHSIG), but
 * the kernel clears that request whenever the process changes credentials,
 * and a program may clear it itself.  The watchdog is a second child of the
 * supervisor, started before the program, that never changes credentials:
 * the supervisor hands it a pidfd of the program and a copy of the
 * listener over a socket pair whose other end only the supervisor holds.
 * When the supervisor dies the socket reports end-of-file and the watchdog
 * kills the program.  When the supervisor ends normally the program is
 * already gone, and the pidfd makes the signal harmless.
 *
 * Either way the program's descendants may still use the filter.  Were the
 * listener closed, the kernel would fail their calls meant for the
 * supervisor with ENOSYS and KILL verdicts would no longer kill; the
 * watchdog's copy keeps it open, and the watchdog answers each call with
 * the fallback policy's verdict (the policy's own by default), unreported,
 * until no task uses the filter; a filter of the program's own is refused
 * there as the supervisor would (own_filters), and otherwise let in.  A call
 * the supervisor had received but not yet answered when it died is in the
 * shared slot, and answered the same way.
 * Only the watchdog's own death closes the listener; the guard filter
 * (launch_guard.c) keeps the program from killing either process.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/launch_internal.h"

/* What the supervisor tells the watchdog. */
enum dog_msg {
	DOG_PROGRAM = 1, /* carries a pidfd of the program */
	DOG_LISTENER,    /* carries the listener */
	DOG_TAKE_OVER,   /* answer from now on: the supervisor gave up */
	DOG_TREE,        /* carries the program's cgroup.kill */
	DOG_CGROUP_DIR,  /* carries the directory its cgroup is in */
};

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

/* Closes every descriptor but @keep: the watchdog must not keep the socket
 * to the child, or the log open, nor stdout and stderr, or a reader waiting
 * for their end-of-file would wait for the watchdog too. */
static void close_others(int keep)
{
	if (keep > 0)
		close_between(0, (unsigned)keep - 1);
	close_between((unsigned)keep + 1, ~0U);
}

static int send_msg(int sock, enum dog_msg kind, int fd)
{
	int m = kind;
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	fd_attach(&msg, &control, fd);
	ssize_t n;
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(m) ? 0 : n < 0 ? -errno : -EIO;
}

/* One message and the descriptor it carries (or -1); 0 at end-of-file or on error. */
static int recv_msg(int sock, int *fd)
{
	int m = 0;
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	*fd = -1;
	ssize_t n = fd_receive(sock, &msg, &control, fd);
	return n == (ssize_t)sizeof(m) ? m : 0;
}

struct dog {
	struct launch *l;
	const struct scg_notif *slot;
	const struct scg_policy *guard; /* NULL: none could be built, so nothing runs */
	int sock, pidfd, listener;
	int tree_kill; /* the program's cgroup.kill, or -1 */
	int cgroup_dir; /* the directory the program's cgroup is in, or -1 */
	pid_t supervisor;
	bool serving;
};

/* A filter of the program's own that the launch refuses (own_filters):
 * refused by the watchdog too, or a descendant outliving the supervisor
 * could install one that outranks a KILL verdict. */
static bool refuses_own_filter(const struct dog *d, const struct scg_notif *n)
{
	return launch_refuses_own_filters(d->l) && guard_watches(d->guard, n);
}

/* The fallback's verdict for @n, as the kernel would have carried it out. */
static void answer(const struct dog *d, const struct scg_notif *n)
{
	struct scg_verdict v;
	launch_policy_eval(launch_fallback(d->l), &n->data, &v);
	struct scg_notif_resp resp = { .id = n->id };
	scg_notif_answer_verdict(d->listener, n, v.action, &resp);
	if (!d->guard && (resp.flags & SCG_NOTIF_FLAG_CONTINUE))
		resp = (struct scg_notif_resp){ .id = n->id, .error = -ENOMEM };
	if ((resp.flags & SCG_NOTIF_FLAG_CONTINUE) && refuses_own_filter(d, n))
		resp = (struct scg_notif_resp){ .id = n->id, .error = -EPERM };
	guard_refuses(d->guard, n, &resp);
	scg_notif_respond(d->listener, &resp);
}

/* Starts answering: first the call the supervisor received and left unanswered, if any. */
static void take_over(struct dog *d)
{
	d->serving = true;
	if (d->listener < 0)
		return;
	struct scg_notif n = *d->slot;
	if (scg_notif_id_valid(d->listener, n.id) == 0)
		answer(d, &n);
}

/* A message from the supervisor, or its end. */
static void on_message(struct dog *d)
{
	int fd;
	switch (recv_msg(d->sock, &fd)) {
	case DOG_PROGRAM:
		d->pidfd = fd;
		return;
	case DOG_LISTENER:
		d->listener = fd;
		return;
	case DOG_TREE:
		d->tree_kill = fd;
		return;
	case DOG_CGROUP_DIR:
		d->cgroup_dir = fd;
		return;
	case DOG_TAKE_OVER:
		if (fd >= 0)
			close(fd);
		take_over(d);
		return;
	default:
		break;
	}
	if (fd >= 0)
		close(fd);
	/* End-of-file: the supervisor is gone, or done. */
	if (d->pidfd >= 0)
		syscall(SYS_pidfd_send_signal, d->pidfd, SIGKILL, NULL, 0);
	/* The whole tree goes with it; after a normal end it is gone already. */
	if (d->tree_kill >= 0) {
		(void)!write(d->tree_kill, "1", 1);
		close(d->tree_kill);
		d->tree_kill = -1;
	}
	close(d->sock);
	d->sock = -1;
	if (!d->serving)
		take_over(d);
}

/* Done: the program's cgroup, left by a supervisor that died, goes too. */
static _Noreturn void finish(struct dog *d)
{
	if (d->cgroup_dir >= 0)
		tree_remove_cgroup(d->cgroup_dir, d->supervisor);
	_exit(0);
}

static _Noreturn void watch(struct launch *l, int sock, const struct scg_notif *slot)
{
	close_others(sock);
	prctl(PR_SET_NAME, "syscage-watch", 0L, 0L, 0L); /* tells it apart in ps */
	/* Signals for the supervisor are none of the watchdog's business. */
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	/* A group of its own: whatever reaches the supervisor's group (a SIGIO
	 * to it that the kernel lets through, say) cannot end both. */
	setpgid(0, 0);
	/* What the program must not reach: the supervisor (our parent), us, our group. */
	struct launch_guard g = { .supervisor = getppid(), .watchdog = getpid(),
				  .group = getpgid(getppid()), .landlock_abi = l->landlock_abi,
				  .watch_own_filters = l->how == INSTALL_REPORT };
	struct scg_policy *guard = NULL;
	guard_policy(&g, SCG_RET_ALLOW, &guard);
	struct dog d = { .l = l, .slot = slot, .guard = guard, .sock = sock, .pidfd = -1,
			 .listener = -1, .tree_kill = -1, .cgroup_dir = -1, .supervisor = g.supervisor };
	for (;;) {
		if (d.sock < 0 && (d.listener < 0 || !d.serving))
			finish(&d);
		struct pollfd pfd[2] = { { .fd = d.sock, .events = POLLIN },
					 { .fd = d.serving ? d.listener : -1, .events = POLLIN } };
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[0].revents)
			on_message(&d);
		if (pfd[1].revents & POLLIN) {
			struct scg_notif n;
			if (scg_notif_receive(d.listener, &n) == 0)
				answer(&d, &n);
		} else if (pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			finish(&d); /* no task uses the filter any more */
		}
	}
}

int watchdog_start(struct launch *l, struct watchdog *out)
{
	out->pid = -1;
	out->fd = -1;
	out->slot = NULL;
	struct scg_notif *slot = mmap(NULL, sizeof(*slot), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slot == MAP_FAILED)
		return -errno;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		int e = errno;
		munmap(slot, sizeof(*slot));
		return -e;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		watch(l, sv[1], slot);
	}
	int e = errno;
	close(sv[1]);
	/* Here too, so that its group is its own before the program starts. */
	if (pid > 0)
		setpgid(pid, pid);
	if (pid < 0) {
		close(sv[0]);
		munmap(slot, sizeof(*slot));
		return -e;
	}
	out->pid = pid;
	out->fd = sv[0];
	out->slot = slot;
	return 0;
}

int watchdog_give_program(struct watchdog *dog, pid_t program)
{
	int pidfd = (int)syscall(SYS_pidfd_open, program, 0);
	if (pidfd < 0)
		return -errno; /* before Linux 5.3: the parent-death signal alone */
	int r = send_msg(dog->fd, DOG_PROGRAM, pidfd);
	close(pidfd);
	return r;
}

int watchdog_give_listener(struct watchdog *dog, int listener)
{
	return send_msg(dog->fd, DOG_LISTENER, listener);
}

int watchdog_give_tree(struct watchdog *dog, int cgroup_kill, int parent_dir)
{
	int r = send_msg(dog->fd, DOG_TREE, cgroup_kill);
	return r == 0 && parent_dir >= 0 ? send_msg(dog->fd, DOG_CGROUP_DIR, parent_dir) : r;
}

int watchdog_take_over(struct watchdog *dog)
{
	return send_msg(dog->fd, DOG_TAKE_OVER, -1);
}

void watchdog_stop(struct watchdog *dog)
{
	if (dog->pid <= 0)
		return;
	close(dog->fd); /* end-of-file: the watchdog signals the (gone) program and takes over */
	/* Reaped if it is already done; otherwise not waited for: it ends on its
	 * own once no task uses the filter (at once when none is left), and
	 * whoever inherits it reaps it.  Waiting for it to be scheduled would
	 * add to every run's time on a busy machine. */
	waitpid(dog->pid, NULL, WNOHANG);
	munmap(dog->slot, sizeof(*dog->slot));
	dog->pid = -1;
	dog->fd = -1;
	dog->slot = NULL;
}
