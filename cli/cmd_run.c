/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage run: start a program under a policy, and tell the user about
 * every syscall the policy denies.
 *
 * Denying verdicts are installed as USER_NOTIF; this process holds the
 * listener, looks the call up in the policy (which rule decided), reports
 * it, and answers with the policy's errno or kills the caller.  Allowed
 * calls never leave the kernel.  See docs/run.md.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd_passing.h"
#include "run.h"

/* Signals passed on to the program when someone sends them to syscage. */
static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
					 SIGUSR2, SIGWINCH, SIGALRM, SIGCONT };

enum { EXIT_SETUP = 125, EXIT_NOEXEC = 126, EXIT_NOTFOUND = 127 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage run [-p POLICY] [--log FILE] [--no-report] [-w] [-q] [-v] -- CMD [ARG...]\n"
		"  -p, --policy POLICY  policy file, OCI profile (*.json) or built-in profile\n"
		"                       (default: the built-in profile 'default')\n"
		"      --log FILE       write every denial to FILE as a JSON line\n"
		"      --no-report      install the policy's verdicts as they are, no supervisor\n"
		"  -w, --wait           when the program exits, go on supervising its descendants\n"
		"                       (daemons) until none is left\n"
		"  -q, --quiet          no denial lines or summary on stderr\n"
		"  -v, --verbose        also the policy's warnings about syscalls a target ABI\n"
		"                       lacks ('syscage compile' always shows them)\n");
}

char *run_resolve_command(const char *cmd)
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

struct supervisor {
	const struct run_config *cfg;
	struct run_report *rep;
	struct run_watchdog dog;
	struct run_serve serve; /* for cfg->serve */
	pid_t child;
	bool killed_child; /* a KILL verdict ended the program */
	char killed_call[64];
	/* Other processes (descendants) a KILL verdict ended: how many, the first. */
	unsigned long killed_others;
	pid_t killed_other_pid;
	char killed_other_call[64];
};

static int decide(int listener, const struct scg_notif *n, struct scg_notif_resp *resp, void *ctx)
{
	struct supervisor *sv = ctx;
	/* The verdict comes from the call's number and argument values, which the
	 * kernel took as the call was made; memory the report reads later (paths)
	 * never enters it. */
	struct scg_verdict v;
	run_policy_eval(run_policy(sv->cfg), &n->data, &v);
	enum scg_action a = scg_action_of(v.action);
	struct run_denial d = { .name = NULL };
	if (a != SCG_ACTION_ALLOW && a != SCG_ACTION_LOG) {
		run_describe(sv->rep, listener, n, &v, &d);
		run_report_denial(sv->rep, &d);
	}
	pid_t killed = run_answer_verdict(listener, n, v.action, resp);
	if (killed > 0 && killed == sv->child) {
		sv->killed_child = true;
		snprintf(sv->killed_call, sizeof(sv->killed_call), "%s", d.name ? d.name : "?");
	} else if (killed > 0 && sv->killed_others++ == 0) {
		sv->killed_other_pid = killed;
		snprintf(sv->killed_other_call, sizeof(sv->killed_other_call), "%s",
			 d.name ? d.name : "?");
	}
	return 0;
}

/*
 * Blocks every signal but those that stop (SIGKILL and SIGSTOP cannot be
 * blocked): a signal the program sends its whole process group, which
 * syscage shares, must not end the supervisor (the guard refuses SIGKILL,
 * see run_guard.c).  The ones passed on, and SIGCHLD, are read from a
 * signalfd; the others stay pending.  The stop signals keep their default,
 * so Ctrl-Z stops syscage with the program.
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

/* Receives one message, and the listener fd if it carries one. */
static ssize_t recv_msg(int sock, struct run_msg *m, int *fd)
{
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	union fd_control control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	return fd_receive(sock, &msg, &control, fd);
}

/* Waits until the program runs: 0, or the exit status for a failed start. */
static int await_exec(const struct run_config *cfg, int sock, int *listener)
{
	struct run_msg m;
	ssize_t n = recv_msg(sock, &m, listener);
	if (n == (ssize_t)sizeof(m) && m.kind == RUN_MSG_LISTENER && *listener >= 0)
		n = recv_msg(sock, &m, listener);
	if (n == 0)
		return cfg->report && *listener < 0 ? EXIT_SETUP : 0; /* exec closed the socket */
	if (n != (ssize_t)sizeof(m))
		return EXIT_SETUP;
	if (m.kind == RUN_MSG_EXEC_FAILED) {
		cli_error("cannot run '%s': %s", cfg->path, strerror(m.err));
		return m.err == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
	}
	if (m.err)
		cli_error("cannot start '%s': %s", cfg->argv[0], strerror(m.err));
	return EXIT_SETUP;
}

static bool child_exited(struct supervisor *sv, int *status)
{
	pid_t r;
	do
		r = waitpid(sv->child, status, WNOHANG);
	while (r < 0 && errno == EINTR);
	return r == sv->child;
}

static void on_signal(struct supervisor *sv, const struct signalfd_siginfo *si)
{
	if (si->ssi_signo == SIGCHLD)
		return;
	/* Signals from the terminal reach the whole foreground group, the program
	 * included, unless it has left our group (setsid, setpgid): then only
	 * we got it, and it is passed on like any other. */
	if (si->ssi_code == SI_KERNEL && getpgid(sv->child) == getpgrp())
		return;
	kill(sv->child, (int)si->ssi_signo);
}

static int serve_one(struct supervisor *sv, int listener)
{
	return sv->cfg->serve ? sv->cfg->serve(listener, &sv->serve, sv->cfg->serve_ctx)
			      : run_notif_handle(listener, &sv->serve, decide, sv);
}

/*
 * The program has exited: answers the denied calls its descendants made
 * before that and that still wait, as the policy says and reported, rather
 * than leave them to the ENOSYS that closing the listener gives.
 */
static void serve_pending(struct supervisor *sv, int listener)
{
	struct pollfd pfd = { .fd = listener, .events = POLLIN };
	/* Bounded: a descendant denied in a loop must not keep syscage here. */
	for (int i = 0; i < 4096 && listener >= 0; i++)
		if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLIN) || serve_one(sv, listener) < 0)
			break;
}

/* Serves notifications and signals until the program ends; its wait status in *@status. */
static int supervise(struct supervisor *sv, int sfd, int *listenerp, int *status)
{
	int listener = *listenerp;
	bool listening = listener >= 0, exited = false;
	for (;;) {
		if (!exited && child_exited(sv, status)) {
			if (!sv->cfg->drain) {
				serve_pending(sv, listening ? listener : -1);
				return 0;
			}
			exited = true;
		}
		if (exited && !listening)
			return 0;
		struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN },
					 { .fd = listener, .events = POLLIN } };
		if (poll(pfd, listening ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (listening && (pfd[1].revents & POLLIN)) {
			int r = serve_one(sv, listener);
			if (r < 0 && r != -EINTR) {
				/* Give up supervising rather than spin: the watchdog answers
				 * from now on, with the policy's verdicts. */
				cli_error("cannot handle a denied call (%s); denied calls now get "
					  "the policy's verdicts, unreported",
					  strerror(-r));
				if (run_watchdog_take_over(&sv->dog) < 0)
					return r; /* the program is killed */
				close(listener);
				*listenerp = listener = -1;
				listening = false;
			}
		} else if (listening && (pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL))) {
			listening = false; /* no task uses the filter any more */
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				/* Once the program is gone, a signal ends the wait for its descendants. */
				if (exited && si.ssi_signo != SIGCHLD)
					return 0;
				on_signal(sv, &si);
			}
		}
	}
}

/*
 * With --wait the run covers the program's descendants too, daemons that
 * outlive it included: when the program itself exited 0 but a KILL verdict
 * ended one of them, the run failed all the same.  Says so; returns the
 * status to exit with.
 */
static int with_descendants(const struct supervisor *sv, int code)
{
	if (!sv->cfg->drain || !sv->killed_others)
		return code;
	cli_error("%lu descendant process%s killed: the policy's KILL verdict for %s in pid %d%s",
		  sv->killed_others, sv->killed_others == 1 ? "" : "es", sv->killed_other_call,
		  (int)sv->killed_other_pid, sv->killed_others == 1 ? "" : " (the first)");
	if (code != 0)
		return code;
	cli_error("exit status %d = 128 + SIGSYS, although the program exited 0", 128 + SIGSYS);
	return 128 + SIGSYS;
}

static int exit_status(const struct supervisor *sv, int status)
{
	if (WIFEXITED(status))
		return with_descendants(sv, WEXITSTATUS(status));
	if (!WIFSIGNALED(status))
		return EXIT_SETUP;
	int sig = WTERMSIG(status);
	if (sv->killed_child && sig == SIGKILL) {
		cli_error("program killed: the policy's KILL verdict for %s (exit status %d = "
			  "128 + SIGSYS)",
			  sv->killed_call, 128 + SIGSYS);
		return 128 + SIGSYS;
	}
	/* A reader that went away ends a pipeline's writer this way; shells say nothing. */
	if (sig == SIGPIPE)
		return 128 + sig;
	const char *abbrev = sigabbrev_np(sig);
	if (sig == SIGSYS)
		cli_error("program killed by SIGSYS (a seccomp KILL verdict or a bad system call)");
	else
		cli_error("program killed by signal %d (SIG%s)", sig, abbrev ? abbrev : "?");
	return 128 + sig;
}

/* Forks, starts the program under the filter, supervises it.  Returns the exit status. */
int run_launch(const struct run_config *cfg)
{
	sigset_t orig;
	int sfd = -1, sock[2];
	if (setup_signals(&orig, &sfd) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) < 0) {
		cli_error("cannot set up: %s", strerror(errno));
		return EXIT_SETUP;
	}
	struct supervisor sv = { .cfg = cfg };
	sv.rep = run_report_new(cfg, cfg->log_path, cfg->quiet);
	if (!sv.rep)
		return EXIT_SETUP;
	/* Keep the program (same user) from reading our memory, taking the
	 * listener, or writing our /proc files; the watchdog inherits this. */
	prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
	fflush(NULL);
	/* Before the program, which must know its pid (the guard) and never run without it. */
	int r = run_watchdog_start(cfg, &sv.dog);
	if (r < 0) {
		cli_error("cannot start the watchdog: %s", strerror(-r));
		run_report_free(sv.rep);
		return EXIT_SETUP;
	}
	struct run_guard guard = { .supervisor = getpid(), .watchdog = sv.dog.pid,
				   .group = getpgrp() };
	struct scg_policy *guard_policy = NULL;
	if (cfg->report && (r = run_guard_policy(&guard, SCG_RET_ALLOW, &guard_policy)) < 0) {
		cli_error("cannot set up: %s", strerror(-r));
		run_watchdog_stop(&sv.dog);
		run_report_free(sv.rep);
		return EXIT_SETUP;
	}
	sv.serve = (struct run_serve){ .slot = sv.dog.slot, .guard = guard_policy };
	sv.child = fork();
	if (sv.child < 0) {
		cli_error("cannot fork: %s", strerror(errno));
		scg_policy_free(guard_policy);
		run_watchdog_stop(&sv.dog);
		run_report_free(sv.rep);
		return EXIT_SETUP;
	}
	if (sv.child == 0) {
		close(sock[0]);
		close(sfd);
		close(sv.dog.fd);
		run_child(cfg, &guard, sock[1], &orig);
	}
	close(sock[1]);
	/* A report to a closed pipe must not kill the supervisor (and, with it, the
	 * program); the child kept the disposition it inherited. */
	signal(SIGPIPE, SIG_IGN);
	run_watchdog_give_program(&sv.dog, sv.child); /* without it, the parent-death signal alone */
	int listener = -1, status = 0;
	int code = await_exec(cfg, sock[0], &listener);
	close(sock[0]);
	if (code == 0 && listener >= 0 && (r = run_watchdog_give_listener(&sv.dog, listener)) < 0) {
		cli_error("cannot hand the listener to the watchdog: %s", strerror(-r));
		code = EXIT_SETUP;
	}
	if (cfg->started)
		*cfg->started = code == 0;
	if (code == 0 && supervise(&sv, sfd, &listener, &status) < 0)
		code = EXIT_SETUP;
	if (code != 0) {
		kill(sv.child, SIGKILL);
		while (waitpid(sv.child, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		code = exit_status(&sv, status);
	}
	/* The watchdog answers what is still pending (descendants), and later calls. */
	run_watchdog_stop(&sv.dog);
	if (listener >= 0)
		close(listener);
	run_report_summary(sv.rep);
	run_report_free(sv.rep);
	scg_policy_free(guard_policy);
	close(sfd);
	return code;
}

/* -v: the policy's warnings are wanted, so it is parsed at the start. */
static bool verbose;

/*
 * A built-in profile (no file of that name here) is left unparsed: its
 * filter is built in (run_prebuilt_filter()) and its rules matter only to
 * report a denial (run_policy()).  Parsing it costs more than the rest of
 * the start-up.
 */
static bool parse_later(const char *name)
{
	return !verbose && scg_profile_source(name) && access(name, F_OK) != 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct run_config *cfg = ctx;
	switch (c) {
	case 'p': cfg->policy_name = arg; break;
	case 'l': cfg->log_path = arg; break;
	case 'n': cfg->report = false; break;
	case 'q': cfg->quiet = true; break;
	case 'w': cfg->drain = true; break;
	case 'v': cli_set_policy_warnings(CLI_POLICY_WARN_ALL); verbose = true; break;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' }, { "log", required_argument, NULL, 'l' },
		{ "no-report", no_argument, NULL, 'n' },    { "quiet", no_argument, NULL, 'q' },
		{ "wait", no_argument, NULL, 'w' },         { "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "run", "+:p:qvwh", longopts, usage, on_option };
	struct run_config cfg = { .policy_name = "default", .report = true };
	int first = cli_parse_options(&cmd, argc, argv, &cfg);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (first >= argc) {
		cli_error("run: no program given");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	cfg.argv = argv + first;
	char *path = run_resolve_command(argv[first]);
	if (!path) {
		int e = errno;
		cli_error("%s: %s", argv[first], e == ENOENT ? "command not found" : strerror(e));
		return e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
	}
	cfg.path = path;
	struct scg_policy *policy = NULL;
	if (!parse_later(cfg.policy_name) && cli_load_policy(cfg.policy_name, NULL, 0, &policy) < 0) {
		free(path);
		return CLI_EXIT_USAGE;
	}
	cfg.policy = policy;
	struct scg_features features;
	if (cfg.report && cli_features_probe(&features) == 0 && features.filter_mode &&
	    !(features.actions & (1U << SCG_ACTION_USER_NOTIF))) {
		cli_error("warning: this kernel has no SECCOMP_RET_USER_NOTIF (Linux 5.0); "
			  "running without reports, as with --no-report");
		cfg.report = false;
	}
	int code = run_launch(&cfg);
	scg_policy_free(policy);
	free(path);
	return code;
}
