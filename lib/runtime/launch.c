/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_launch(): start a program under a policy and supervise it until it
 * ends (<syscage/launch.h>).
 *
 * The order matters.  The caller becomes non-dumpable first, and the
 * watchdog is started before the program, which must know its pid (the
 * guard) and never run without it.  The filter is built and compiled here,
 * with the exec cookie, before the fork: the child only installs it, and
 * this copy is wiped as soon as the child has its own.  The program then
 * runs; this process serves the listener and the signals it forwards until
 * the program ends (with wait_descendants, until no task uses the filter).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <syscage/lang.h>

#include "runtime/launch_internal.h"
#include "util/opts.h"

/* Signals passed on to the program when someone sends them to the launcher. */
static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
					 SIGUSR2, SIGWINCH, SIGALRM, SIGCONT };

char *scg_launch_resolve(const char *cmd)
{
	if (strchr(cmd, '/'))
		return strdup(cmd);
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int err = ENOENT;
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		size_t dirlen = (size_t)(end - p);
		char *full = malloc(dirlen + strlen(cmd) + 3);
		if (!full)
			return NULL;
		sprintf(full, "%.*s/%s", (int)dirlen, dirlen ? p : ".", cmd);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(full, X_OK) == 0)
				return full;
			err = EACCES;
		}
		free(full);
		if (!*end)
			break;
		p = end;
	}
	errno = err;
	return NULL;
}

int scg_launch_exit_status(const struct scg_launch_result *r)
{
	switch (r->end) {
	case SCG_LAUNCH_NOT_STARTED:
		if (r->stage == SCG_LAUNCH_STAGE_EXEC)
			return r->error == ENOENT ? 127 : 126;
		return 125;
	case SCG_LAUNCH_SUPERVISION_FAILED:
		return 125;
	case SCG_LAUNCH_SIGNALED:
		if (r->killed_by_verdict && r->status == SIGKILL)
			return 128 + SIGSYS;
		return 128 + r->status;
	case SCG_LAUNCH_EXITED:
		if (r->status == 0 && r->killed_others)
			return 128 + SIGSYS;
		return r->status;
	}
	return 125;
}

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

/*
 * Blocks every signal but those that stop (SIGKILL and SIGSTOP cannot be
 * blocked): a signal the program sends its whole process group, which the
 * launcher shares, must not end the supervisor (the guard refuses SIGKILL).
 * The ones passed on, and SIGCHLD, are read from a signalfd; the others
 * stay pending.  The stop signals keep their default, so Ctrl-Z stops the
 * launcher with the program.
 */
static int setup_signals(sigset_t *orig, int *sfd)
{
	sigset_t set, blocked;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(&set, forwarded_signals[i]);
	sigfillset(&blocked);
	sigdelset(&blocked, SIGTSTP);
	sigdelset(&blocked, SIGTTIN);
	sigdelset(&blocked, SIGTTOU);
	if (sigprocmask(SIG_BLOCK, &blocked, orig) < 0)
		return -errno;
	*sfd = signalfd(-1, &set, SFD_CLOEXEC);
	return *sfd < 0 ? -errno : 0;
}

/*
 * Drops the passed-on signals still pending once the program has ended: they
 * were the program's (a Ctrl-C reaches the whole foreground group at the
 * moment the program exits), and restoring the caller's mask would deliver
 * them to the caller, whose default for SIGINT is to die.  SIGCHLD stays:
 * it may be about a child of the caller's own.
 */
static void drop_passed_on(void)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++)
		sigaddset(&set, forwarded_signals[i]);
	int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return;
	struct signalfd_siginfo si;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		;
	close(fd);
}

/* Receives one message from the child, and the listener fd if it carries one. */
static ssize_t recv_msg(int sock, struct launch_msg *m, int *fd)
{
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	return fd_receive(sock, &msg, &control, fd);
}

/* Waits until the program runs: 0, or -errno with the stage in @res. */
static int await_exec(const struct launch *l, int sock, int *listener,
		      struct scg_launch_result *res)
{
	struct launch_msg m;
	ssize_t n;
	bool listening = false;
	for (;;) {
		n = recv_msg(sock, &m, listener);
		if (n != (ssize_t)sizeof(m))
			break;
		if (m.kind == LAUNCH_MSG_PROGRAM && m.err > 0)
			res->pid = (pid_t)m.err; /* unshare_pid: not the child, its grandchild */
		else if (m.kind == LAUNCH_MSG_LISTENER && *listener >= 0 && !listening)
			listening = true;
		else
			break;
	}
	if (n == 0 && !(l->supervised && *listener < 0))
		return 0; /* exec closed the socket */
	res->stage = SCG_LAUNCH_STAGE_CHILD;
	res->error = 0;
	if (n == (ssize_t)sizeof(m) && m.kind == LAUNCH_MSG_FAILED) {
		res->stage = (enum scg_launch_stage)m.stage;
		res->error = m.err;
	}
	return res->error ? -res->error : -ECHILD;
}

static bool child_exited(pid_t child, int *status)
{
	pid_t r;
	do
		r = waitpid(child, status, WNOHANG);
	while (r < 0 && errno == EINTR);
	return r == child;
}

static void on_signal(pid_t child, const struct signalfd_siginfo *si)
{
	if (si->ssi_signo == SIGCHLD)
		return;
	/* Signals from the terminal reach the whole foreground group, the program
	 * included, unless it has left our group (setsid, setpgid): then only
	 * we got it, and it is passed on like any other. */
	if (si->ssi_code == SI_KERNEL && getpgid(child) == getpgrp())
		return;
	kill(child, (int)si->ssi_signo);
}

/*
 * The program has exited: answers the calls its descendants made before
 * that and that still wait, as the mode says, rather than leave them to
 * the ENOSYS that closing the listener gives.
 */
static void serve_pending(struct supervisor *sv, int listener)
{
	struct pollfd pfd = { .fd = listener, .events = POLLIN };
	/* Bounded: a descendant denied in a loop must not keep the launcher here. */
	for (int i = 0; i < 4096 && listener >= 0; i++)
		if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLIN) || serve_one(sv, listener) < 0)
			break;
}

/* Whether the program's wait @status is a KILL verdict's doing (the supervisor's or the kernel's). */
static bool ended_by_verdict(const struct scg_launch_result *res, int status)
{
	return WIFSIGNALED(status) && ((res->killed_by_verdict && WTERMSIG(status) == SIGKILL) ||
				       WTERMSIG(status) == SIGSYS);
}

struct loop {
	struct supervisor sv;
	struct phase_trace *trace; /* o.phases */
	pid_t waited; /* the launcher's child: the program, or (unshare_pid) its relay */
	struct watchdog *dog;
	int sfd;
	int listener;
	bool drain;
};

/* Serves notifications and signals until the program ends; its wait status in *@status. */
static int supervise(struct loop *lp, int *status)
{
	struct supervisor *sv = &lp->sv;
	pid_t child = sv->res->pid, waited = lp->waited;
	bool listening = lp->listener >= 0, exited = false;
	for (;;) {
		/* Traced (phases): every stop is served here, descendants' too. */
		int ended_status = 0;
		int traced = lp->trace ? phase_trace_poll(lp->trace, &ended_status) : 0;
		if (traced < 0)
			return traced; /* a transition failed: the program is killed */
		if (traced > 0)
			*status = ended_status;
		if (!exited && (lp->trace ? traced > 0 : child_exited(waited, status))) {
			if (!lp->drain) {
				serve_pending(sv, listening ? lp->listener : -1);
				return 0;
			}
			exited = true;
			/* A program a verdict ended takes its tree along, waited for or not. */
			if (ended_by_verdict(sv->res, *status))
				tree_kill(sv->l->tree, waited);
		}
		if (exited && !listening)
			return 0;
		struct pollfd pfd[2] = { { .fd = lp->sfd, .events = POLLIN },
					 { .fd = lp->listener, .events = POLLIN } };
		if (poll(pfd, listening ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (listening && (pfd[1].revents & POLLIN)) {
			int r = serve_one(sv, lp->listener);
			if (r < 0 && r != -EINTR) {
				/* Give up supervising rather than spin: the watchdog answers
				 * from now on, with the fallback's verdicts. */
				if (sv->l->o.on_gave_up)
					sv->l->o.on_gave_up(-r, sv->l->o.ctx);
				if (watchdog_take_over(lp->dog) < 0)
					return r; /* the program is killed */
				close(lp->listener);
				lp->listener = -1;
				listening = false;
			}
		} else if (listening && (pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL))) {
			listening = false; /* no task uses the filter any more */
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(lp->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				/* Once the program is gone, a signal ends the wait for its descendants. */
				if (exited && si.ssi_signo != SIGCHLD)
					return 0;
				/* Descendants that re-parented to us: reaped, so that their
				 * filter is released and the listener can tell none is left. */
				if (si.ssi_signo == SIGCHLD && !lp->trace)
					tree_reap(sv->l->tree, waited);
				on_signal(child, &si);
			}
		}
	}
}

/* A policy with the same verdict @action for every call of every native ABI. */
static int uniform_policy(uint32_t action, struct scg_policy **out)
{
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = scg_policy_add_native_arches(p);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	scg_policy_set_default(p, action);
	scg_policy_set_badarch(p, action);
	*out = p;
	return 0;
}

/* Loads the options into @l; 0 or -errno. */
static int prepare(struct launch *l, char *const argv[], const struct scg_policy *policy,
		   const struct scg_launch_options *opts)
{
	int r = opts_load(&l->o, sizeof(l->o), opts, sizeof(l->o));
	if (r < 0)
		return r;
	if (!argv || !argv[0] || (unsigned)l->o.mode > SCG_LAUNCH_RECORD ||
	    (unsigned)l->o.own_filters > SCG_OWN_FILTERS_REFUSE ||
	    (l->o.mode == SCG_LAUNCH_SERVE && !l->o.on_notif))
		return -EINVAL;
	l->argv = argv;
	l->policy = policy;
	if (l->o.phases) {
		if (policy || l->o.unshare_pid || l->o.mode == SCG_LAUNCH_SERVE ||
		    l->o.mode == SCG_LAUNCH_RECORD || !scg_phases_count(l->o.phases))
			return -EINVAL;
		/* the start phase, with the next phase's trigger sent to the tracer */
		r = scg_phases_filter_policy(l->o.phases, 0, &l->owned_policy);
		if (r < 0)
			return r;
		l->policy = l->owned_policy;
		l->phase_cookie = make_cookie();
	}
	if (l->o.mode == SCG_LAUNCH_RECORD) {
		l->o.wait_descendants = true;
		r = uniform_policy(SCG_RET_USER_NOTIF, &l->owned_policy);
		if (r == 0 && !l->o.fallback)
			r = uniform_policy(SCG_RET_KILL_PROCESS, &l->owned_fallback);
		if (r < 0)
			return r;
		l->policy = l->owned_policy;
	}
	if (!l->policy && !l->o.profile)
		l->o.profile = "default";
	if (!l->policy && !scg_profile_source(l->o.profile))
		return -ENOENT;
	l->supervised = l->o.mode != SCG_LAUNCH_UNSUPERVISED;
	bool complain = l->o.complain && (l->o.mode == SCG_LAUNCH_REPORT ||
					  l->o.mode == SCG_LAUNCH_UNSUPERVISED);
	l->how = l->o.mode == SCG_LAUNCH_REPORT ? (complain ? INSTALL_COMPLAIN : INSTALL_REPORT)
		 : complain ? INSTALL_LOG : INSTALL_AS_IS;
	/* Complaining, the watchdog too lets everything run. */
	if (complain && !l->o.fallback && (r = uniform_policy(SCG_RET_ALLOW, &l->owned_fallback)) < 0)
		return r;
	struct scg_features f;
	const struct scg_features *features = l->o.features;
	if (!features && scg_features_probe_launch(&f) == 0)
		features = &f;
	/* WAIT_KILLABLE_RECV: once the supervisor has received a call, a
	 * harmless signal to the caller must not restart it and report it twice. */
	l->listener_flags = SCG_FILTER_FLAG_NEW_LISTENER;
	if (features && (features->flags & SCG_FILTER_FLAG_WAIT_KILLABLE_RECV))
		l->listener_flags |= SCG_FILTER_FLAG_WAIT_KILLABLE_RECV;
	l->landlock_abi = !l->o.no_landlock && features ? features->landlock_abi : 0;
	l->try_cgroup = !l->o.keep_children && features && features->cgroup_kill;
	return 0;
}

static void release(struct launch *l, char *resolved)
{
	scg_policy_free(l->lazy);
	scg_policy_free(l->owned_policy);
	scg_policy_free(l->owned_fallback);
	free(resolved);
}

/* Marks @res as not started at @stage for error @err (negative); returns @err. */
static int not_started(struct scg_launch_result *res, enum scg_launch_stage stage, int err)
{
	res->end = SCG_LAUNCH_NOT_STARTED;
	res->stage = stage;
	res->error = -err;
	return err;
}

/* Forks the program under @filter; the program's pid, or -errno. */
static pid_t start_program(struct loop *lp, struct scg_prog *filter, uint64_t cookie,
			   const sigset_t *orig, int sock[2])
{
	pid_t child = fork();
	if (child == 0) {
		close(sock[0]);
		close(lp->sfd);
		close(lp->dog->fd);
		launch_child(lp->sv.l, filter, cookie, getppid(), sock[1], orig);
	}
	int e = errno;
	/* This copy of the cookie is no longer needed: the child has its own. */
	explicit_bzero(filter->insns, filter->len * sizeof(*filter->insns));
	explicit_bzero(&cookie, sizeof(cookie));
	scg_prog_release(filter);
	close(sock[1]);
	/* A report to a closed pipe must not kill the supervisor (and, with it,
	 * the program); the child kept the disposition it inherited. */
	if (child > 0)
		signal(SIGPIPE, SIG_IGN);
	return child < 0 ? -e : child;
}

/* The program runs: its tree is settled, and the caller told what confines it. */
static void started(struct launch *l, pid_t child)
{
	tree_confirm(l->tree, child);
	if (!l->o.on_started)
		return;
	struct scg_launch_layers layers = { .supervised = l->supervised,
					    .landlock_abi = l->landlock_abi,
					    .landlock_scoped = landlock_scopes(l->landlock_abi),
					    .tree = l->tree->how, .cgroup = l->tree->cgroup,
					    .pid_namespace = l->o.unshare_pid };
	l->o.on_started(&layers, l->o.ctx);
}

/* Runs the launch once the watchdog is up; fills @res. */
static int launch_with_dog(struct loop *lp, const sigset_t *orig)
{
	struct launch *l = lp->sv.l;
	struct scg_launch_result *res = lp->sv.res;
	struct launch_guard guard = { .supervisor = getpid(), .watchdog = lp->dog->pid,
				      .group = getpgrp(), .landlock_abi = l->landlock_abi,
				      .pid_namespace = l->o.unshare_pid,
				      .phase_cookie = l->phase_cookie,
				      .watch_own_filters = l->how == INSTALL_REPORT ||
							   l->how == INSTALL_COMPLAIN };
	struct scg_policy *guard_pol = NULL;
	int r = l->supervised ? guard_policy(&guard, SCG_RET_ALLOW, &guard_pol) : 0;
	if (r < 0)
		return not_started(res, SCG_LAUNCH_STAGE_SETUP, r);
	lp->sv.guard = guard_pol;
	if (l->o.phases && (r = phase_trace_new(l, l->phase_cookie, &lp->trace)) < 0) {
		scg_policy_free(guard_pol);
		return not_started(res, r == -EOPNOTSUPP ? SCG_LAUNCH_STAGE_POLICY
							 : SCG_LAUNCH_STAGE_COMPILE, r);
	}
	uint64_t cookie = make_cookie();
	struct scg_prog filter;
	enum scg_launch_stage stage;
	r = launch_filter(l, &guard, cookie, &filter, &stage);
	int sock[2] = { -1, -1 };
	if (r == 0 && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) < 0) {
		r = -errno;
		stage = SCG_LAUNCH_STAGE_SETUP;
		explicit_bzero(filter.insns, filter.len * sizeof(*filter.insns));
		scg_prog_release(&filter);
	}
	if (r < 0) {
		scg_policy_free(guard_pol);
		return not_started(res, stage, r);
	}
	if (l->o.on_ready)
		l->o.on_ready(l->o.ctx);
	pid_t child = start_program(lp, &filter, cookie, orig, sock);
	explicit_bzero(&cookie, sizeof(cookie));
	if (child < 0) {
		close(sock[0]);
		scg_policy_free(guard_pol);
		return not_started(res, SCG_LAUNCH_STAGE_FORK, child);
	}
	res->pid = child;
	lp->waited = child;
	/* Without it, the parent-death signal alone. */
	watchdog_give_program(lp->dog, child);
	int status = 0;
	r = await_exec(l, sock[0], &lp->listener, res);
	close(sock[0]);
	if (r == 0 && lp->listener >= 0 && (r = watchdog_give_listener(lp->dog, lp->listener)) < 0)
		not_started(res, SCG_LAUNCH_STAGE_LISTENER, r);
	if (r == 0 && lp->trace && (r = phase_trace_start(lp->trace, child)) < 0)
		not_started(res, SCG_LAUNCH_STAGE_SETUP, r);
	if (r == 0)
		started(l, child);
	if (r < 0) {
		res->end = SCG_LAUNCH_NOT_STARTED;
	} else if ((r = supervise(lp, &status)) < 0) {
		res->end = SCG_LAUNCH_SUPERVISION_FAILED;
		res->error = -r;
	} else if (WIFEXITED(status)) {
		res->end = SCG_LAUNCH_EXITED;
		res->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->end = SCG_LAUNCH_SIGNALED;
		res->status = WTERMSIG(status);
	} else {
		res->end = SCG_LAUNCH_SUPERVISION_FAILED;
		res->error = ECHILD;
		r = -ECHILD;
	}
	if (r < 0) {
		kill(child, SIGKILL);
		if (lp->trace)
			phase_trace_kill(lp->trace);
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
	}
	/* The program's descendants end with it (unless keep_children). */
	tree_kill(l->tree, child);
	scg_policy_free(guard_pol);
	/* A program that ran is a launch that worked, however it ended. */
	return res->end == SCG_LAUNCH_NOT_STARTED ? r : 0;
}

int scg_launch(char *const argv[], const struct scg_policy *policy,
	       const struct scg_launch_options *opts, struct scg_launch_result *out)
{
	struct scg_launch_result res = { .end = SCG_LAUNCH_NOT_STARTED };
	struct launch l = { 0 };
	struct tree tree;
	tree_init(&tree);
	l.tree = &tree;
	char *resolved = NULL;
	int r = prepare(&l, argv, policy, opts);
	if (r < 0) {
		release(&l, NULL);
		if (out)
			*out = res;
		return r == -EINVAL ? r : not_started(out ? out : &res, SCG_LAUNCH_STAGE_POLICY, r);
	}
	l.path = l.o.path;
	if (!l.path && !(l.path = resolved = scg_launch_resolve(argv[0]))) {
		r = not_started(&res, SCG_LAUNCH_STAGE_EXEC, -errno);
		goto out;
	}
	sigset_t orig;
	int sfd = -1;
	sigprocmask(SIG_BLOCK, NULL, &orig);
	if ((r = setup_signals(&orig, &sfd)) < 0) {
		sigprocmask(SIG_SETMASK, &orig, NULL);
		not_started(&res, SCG_LAUNCH_STAGE_SETUP, r);
		goto out;
	}
	/* Keep the program (same user) from reading our memory, taking the
	 * listener, or writing our /proc files; the watchdog inherits this. */
	int dumpable = prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L);
	prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
	/* Before the watchdog, so that the caller's children are told apart from ours. */
	if (!l.o.keep_children && (r = tree_setup(&tree, l.try_cgroup)) < 0)
		not_started(&res, SCG_LAUNCH_STAGE_SETUP, r);
	struct watchdog dog = { .pid = -1 };
	if (r == 0 && (r = watchdog_start(&l, &dog)) < 0)
		not_started(&res, SCG_LAUNCH_STAGE_WATCHDOG, r);
	tree.watchdog = dog.pid;
	if (r == 0 && tree.kill_fd >= 0)
		watchdog_give_tree(&dog, tree.kill_fd, tree.parent_fd); /* else: the program alone */
	if (r == 0) {
		struct sigaction old_pipe;
		sigaction(SIGPIPE, NULL, &old_pipe);
		struct loop lp = { .sv = { .l = &l, .slot = dog.slot, .res = &res }, .dog = &dog,
				   .sfd = sfd, .listener = -1, .drain = l.o.wait_descendants };
		r = launch_with_dog(&lp, &orig);
		phase_trace_free(lp.trace);
		/* The watchdog answers what is still pending (descendants), and later calls. */
		watchdog_stop(&dog);
		if (lp.listener >= 0)
			close(lp.listener);
		/* A SIGPIPE from a callback's write to a closed pipe is pending (blocked
		 * signals are kept even when ignored): setting SIG_IGN again drops it,
		 * before the caller's mask and disposition come back. */
		signal(SIGPIPE, SIG_IGN);
		drop_passed_on();
		sigprocmask(SIG_SETMASK, &orig, NULL);
		sigaction(SIGPIPE, &old_pipe, NULL);
	}
	tree_release(&tree);
	if (dumpable == 1)
		prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
	close(sfd);
	sigprocmask(SIG_SETMASK, &orig, NULL);
out:
	if (l.o.on_exit)
		l.o.on_exit(&res, l.o.ctx);
	release(&l, resolved);
	if (out)
		*out = res;
	return r;
}
