/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher (<syscage/launch.h>) driven as a library, without the
 * command: a program allowed, denied with an errno, killed by a KILL
 * verdict under each mode that answers, the denial event with its decoded
 * call, the recorded calls, the results, the program's tree ended with it
 * (its daemon gone, the caller's own child untouched), and a hostile program that kills
 * the supervisor side and must not run on unsupervised.
 *
 * The programs run are this binary itself (see child_main()) and
 * tests/helpers/supervisor_attack.  Each launch runs in a forked child of
 * the test, so that a launcher that failed to protect itself cannot take
 * the test runner with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/features.h"
#include "support/live.h"

static char self[PATH_MAX];
static char helper[PATH_MAX];

/* --- the program: this binary with a first argument "child" --------------- */

/* Installs a filter answering unshare with E2BIG (an install that fails is let be), then
 * makes the call: its errno. */
static int own_filter_then_unshare(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E2BIG),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0L, &prog);
	long r = syscall(SYS_unshare, 0L);
	return r < 0 ? errno : 0;
}

/* child unshare: exits with unshare(0)'s errno (0 when it ran).  child exit N: exits N.
 * child own-filter: the same under a filter of its own that gives unshare E2BIG. */
static int child_main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[2], "unshare")) {
		long r = syscall(SYS_unshare, 0L);
		return r < 0 ? errno : 0;
	}
	if (argc >= 3 && !strcmp(argv[2], "own-filter")) /* unshare(0)'s errno under a filter of its own */
		return own_filter_then_unshare();
	if (argc >= 4 && !strcmp(argv[2], "exit"))
		return atoi(argv[3]);
	if (argc >= 4 && !strcmp(argv[2], "daemon")) { /* a daemon that writes its pid to argv[3] */
		pid_t mid = fork();
		if (mid == 0) {
			if (fork() == 0) {
				/* written whole, then renamed: the program (which waits for the
				 * name) must not end the tree while the pid is half written */
				char tmp[4200];
				snprintf(tmp, sizeof(tmp), "%s.tmp", argv[3]);
				FILE *f = fopen(tmp, "w");
				if (f) {
					fprintf(f, "%d\n", (int)getpid());
					fclose(f);
					rename(tmp, argv[3]);
				}
				for (;;)
					pause();
			}
			_exit(0);
		}
		waitpid(mid, NULL, 0);
		for (int i = 0; i < 6000 && access(argv[3], F_OK) != 0; i++)
			usleep(10000);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[2], "unshare3")) { /* bit i: call i+1 failed with EIO */
		int bits = 0;
		for (int i = 0; i < 3; i++)
			if (syscall(SYS_unshare, 0L) < 0 && errno == EIO)
				bits |= 1 << i;
		return bits;
	}
	return 99;
}

/* --- the test side ------------------------------------------------------- */

static struct scg_policy *policy_text(const char *text)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, diag), 0);
	scg_diag_free(diag);
	return p;
}

/* What a launch in a child tells the test. */
struct report {
	int r;
	struct scg_launch_result res;
	unsigned denials;
	char denied_name[32];
	char denied_call[128];
	uint32_t denied_action;
	int denied_source;
	unsigned long calls;
	bool saw_unshare;
	unsigned ready, exits, gave_up; /* on_ready, on_exit and on_gave_up calls */
	int ready_dumpable;		/* PR_GET_DUMPABLE in on_ready: the supervisor's */
	int dumpable_after;		/* PR_GET_DUMPABLE once scg_launch() returned */
	int gave_up_error;
	struct scg_launch_result exit_result; /* what on_exit saw */
	unsigned own_filters, own_refused;    /* on_own_filter calls, and refused ones */
	char own_filter_call[32];
	unsigned started;                     /* on_started calls */
	struct scg_launch_layers layers;      /* what it saw (cgroup not kept) */
	bool callers_child_alive;             /* the caller's own child, after the launch */
};

static void on_started(const struct scg_launch_layers *layers, void *ctx)
{
	struct report *rep = ctx;
	rep->started++;
	rep->layers = *layers;
	rep->layers.cgroup = NULL;
}

static void on_ready(void *ctx)
{
	struct report *rep = ctx;
	rep->ready++;
	rep->ready_dumpable = prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L);
}

static void on_exit_event(const struct scg_launch_result *result, void *ctx)
{
	struct report *rep = ctx;
	rep->exits++;
	rep->exit_result = *result;
}

static void on_gave_up(int error, void *ctx)
{
	struct report *rep = ctx;
	if (rep->gave_up++ == 0)
		rep->gave_up_error = error;
}

static void on_denial(const struct scg_launch_denial *d, void *ctx)
{
	struct report *rep = ctx;
	if (rep->denials++ == 0) {
		snprintf(rep->denied_name, sizeof(rep->denied_name), "%s", d->name ? d->name : "");
		snprintf(rep->denied_call, sizeof(rep->denied_call), "%s", d->call);
		rep->denied_action = d->action;
		rep->denied_source = (int)d->verdict->source;
	}
}

static void on_own_filter(pid_t tid, const struct scg_seccomp_data *data, bool refused, void *ctx)
{
	struct report *rep = ctx;
	const struct scg_arch *arch = scg_arch_from_audit(data->arch, data->nr);
	const char *name = arch ? scg_syscall_name(arch, data->nr) : NULL;
	(void)tid;
	rep->own_filters++;
	rep->own_refused += refused;
	snprintf(rep->own_filter_call, sizeof(rep->own_filter_call), "%s", name ? name : "?");
}

static void on_call(pid_t tid, const struct scg_seccomp_data *data, void *ctx)
{
	struct report *rep = ctx;
	uint32_t nr;
	(void)tid;
	rep->calls++;
	if (scg_syscall_lookup(scg_arch_native(), "unshare", &nr) == 0 && data->nr == nr &&
	    data->arch == scg_arch_audit(scg_arch_native()))
		rep->saw_unshare = true;
}

/* SERVE: every notified call gets KILL_PROCESS through the one answer function. */
static int kill_everything(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
			   void *ctx)
{
	(void)ctx;
	scg_notif_answer_verdict(listener, n, SCG_RET_KILL_PROCESS, resp);
	return 0;
}

/* SERVE: a supervisor that cannot go on; it hands over at the first notification. */
static int fail_to_serve(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
			 void *ctx)
{
	(void)listener;
	(void)n;
	(void)resp;
	(void)ctx;
	return -EIO;
}

/* Launches @argv under @policy_src (NULL: the policy is ignored) in @mode, in a fresh child. */
static bool complain;
static enum scg_own_filters own_filters;
static scg_notif_decide_fn serve_with = kill_everything;
static const char *fallback_src; /* the watchdog's verdicts (NULL: the policy's) */
static bool keep_children;
static bool callers_child; /* the caller has a child of its own during the launch */

/* Each test starts from the defaults above: a failed one leaves its settings behind. */
static int default_settings(void **state)
{
	(void)state;
	complain = false;
	own_filters = SCG_OWN_FILTERS_ALLOW;
	serve_with = kill_everything;
	fallback_src = NULL;
	keep_children = false;
	callers_child = false;
	return 0;
}

static void launch_in_child(const char *policy_src, enum scg_launch_mode mode, const char *const argv[],
			    struct report *out)
{
	static struct report *shm;
	if (!shm) {
		shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);
		assert_true(shm != MAP_FAILED);
	}
	memset(shm, 0, sizeof(*shm));
	struct scg_policy *policy = policy_src ? policy_text(policy_src) : NULL;
	struct scg_policy *fallback = fallback_src ? policy_text(fallback_src) : NULL;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(60);
		prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
		pid_t mine = callers_child ? fork() : -1;
		if (mine == 0) {
			for (;;)
				pause();
		}
		SCG_OPTS(scg_launch_options, o, .on_started = on_started,
			 .keep_children = keep_children, .mode = mode, .ctx = shm, .on_denial = on_denial,
			 .on_call = on_call, .on_notif = serve_with, .complain = complain,
			 .on_ready = on_ready, .on_exit = on_exit_event, .on_gave_up = on_gave_up,
			 .fallback = fallback, .own_filters = own_filters,
			 .on_own_filter = on_own_filter);
		shm->r = scg_launch((char *const *)argv, policy, &o, &shm->res);
		shm->dumpable_after = prctl(PR_GET_DUMPABLE, 0L, 0L, 0L, 0L);
		if (mine > 0) {
			shm->callers_child_alive = waitpid(mine, NULL, WNOHANG) == 0;
			kill(mine, SIGKILL);
			waitpid(mine, NULL, 0);
		}
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	scg_policy_free(policy);
	scg_policy_free(fallback);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	*out = *shm;
}

#define NEED_NOTIF()                                                                               \
	do {                                                                                       \
		int live_ = live_require();                                                        \
		assert_true(live_ >= 0);                                                           \
		if (!live_)                                                                        \
			skip();                                                                    \
		if (!feature_require("user-notif", "%s", __func__))                                \
			skip();                                                                    \
	} while (0)

static void test_allow(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "exit", "7", NULL };
	struct report rep;
	launch_in_child("default allow\n", SCG_LAUNCH_REPORT, argv, &rep);
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, 7);
	assert_int_equal(scg_launch_exit_status(&rep.res), 7);
	assert_int_equal(rep.denials, 0);
	assert_true(rep.res.pid > 0);
	/* the events around the launch: ready once, before the fork, while the
	 * supervisor is not dumpable; exit once, with the result; dumpable again */
	assert_int_equal(rep.ready, 1);
	assert_int_equal(rep.ready_dumpable, 0);
	assert_int_equal(rep.exits, 1);
	assert_int_equal(rep.exit_result.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.exit_result.status, 7);
	assert_int_equal(rep.exit_result.pid, rep.res.pid);
	assert_int_equal(rep.dumpable_after, 1);
	assert_int_equal(rep.gave_up, 0);
}

/*
 * A SERVE supervisor that fails hands over: on_gave_up once with its error,
 * and the watchdog answers that call and the later ones with the fallback's
 * verdicts, so the program still gets EIO three times; no call runs.
 */
static void test_gave_up(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare3", NULL };
	struct report rep;
	serve_with = fail_to_serve;
	fallback_src = "default allow\nerrno(EIO) unshare\n";
	launch_in_child("default allow\nnotify unshare\n", SCG_LAUNCH_SERVE, argv, &rep);
	serve_with = kill_everything;
	fallback_src = NULL;
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.gave_up, 1);
	assert_int_equal(rep.gave_up_error, EIO);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, 7);
	assert_int_equal(rep.exits, 1);
	assert_int_equal(rep.dumpable_after, 1);
}

/* A launch that cannot start still ends with on_exit, saying where it stopped. */
static void test_exit_event_not_started(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { "/nonexistent/program", NULL };
	struct report rep;
	launch_in_child("default allow\n", SCG_LAUNCH_REPORT, argv, &rep);
	assert_true(rep.r < 0);
	assert_int_equal(rep.exits, 1);
	assert_int_equal(rep.exit_result.end, SCG_LAUNCH_NOT_STARTED);
	assert_int_equal(rep.exit_result.end, rep.res.end);
	assert_int_equal(rep.exit_result.stage, rep.res.stage);
	assert_int_equal(rep.dumpable_after, 1);
}

static void test_deny_errno(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	launch_in_child("default allow\nerrno(EACCES) unshare\n", SCG_LAUNCH_REPORT, argv, &rep);
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, EACCES);
	/* the denial event, with the call decoded as strace shows it */
	assert_int_equal(rep.denials, 1);
	assert_string_equal(rep.denied_name, "unshare");
	assert_string_equal(rep.denied_call, "unshare(0)");
	assert_int_equal(rep.denied_action, SCG_RET_ERRNO | EACCES);
	assert_int_equal(rep.denied_source, SCG_VERDICT_RULE);
}

static void test_unsupervised(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	launch_in_child("default allow\nerrno(EPERM) unshare\n", SCG_LAUNCH_UNSUPERVISED, argv, &rep);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, EPERM);
	assert_int_equal(rep.denials, 0); /* the kernel answered alone */
}

static void test_kill_verdict(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	launch_in_child("default allow\nkill-process unshare\n", SCG_LAUNCH_REPORT, argv, &rep);
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_SIGNALED);
	assert_int_equal(rep.res.status, SIGKILL); /* never a catchable SIGSYS */
	assert_true(rep.res.killed_by_verdict);
	assert_string_equal(rep.res.killed_call, "unshare");
	assert_int_equal(scg_launch_exit_status(&rep.res), 128 + SIGSYS);
	assert_int_equal(rep.denials, 1);
	assert_int_equal(rep.denied_action, SCG_RET_KILL_PROCESS);
}

/* Whether a process of pid @pid runs this binary's daemon (not a pid reused since). */
static bool daemon_alive(pid_t pid)
{
	char path[64], exe[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n < 0)
		return false;
	exe[n] = '\0';
	return !strcmp(exe, self);
}

static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = -1;
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = -1;
		fclose(f);
	}
	return (pid_t)pid;
}

/*
 * The program's tree ends with it: a daemon it left (re-parented) is gone
 * when scg_launch() returns, a child the caller had before is neither
 * killed nor reaped, and on_started says how; keep_children leaves the
 * daemon.
 */
static void test_tree(void **state)
{
	(void)state;
	NEED_NOTIF();
	char path[] = "/tmp/syscage-test-daemon-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	const char *argv[] = { self, "child", "daemon", path, NULL };
	struct report rep;
	callers_child = true;
	for (int keep = 0; keep < 2; keep++) {
		unlink(path);
		keep_children = keep;
		launch_in_child("default allow\n", SCG_LAUNCH_REPORT, argv, &rep);
		assert_int_equal(rep.r, 0);
		assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
		assert_true(rep.callers_child_alive);
		assert_int_equal(rep.started, 1);
		assert_true(rep.layers.supervised);
		pid_t daemon = read_pid(path);
		assert_true(daemon > 0);
		if (keep) {
			assert_int_equal(rep.layers.tree, SCG_LAUNCH_TREE_KEPT);
			assert_true(daemon_alive(daemon));
			kill(daemon, SIGKILL);
		} else {
			assert_true(rep.layers.tree == SCG_LAUNCH_TREE_CGROUP ||
				    rep.layers.tree == SCG_LAUNCH_TREE_SUBREAPER);
			assert_int_equal(rep.layers.tree == SCG_LAUNCH_TREE_CGROUP,
					 feature_have("cgroup-kill"));
			assert_false(daemon_alive(daemon));
		}
		assert_int_equal(rep.layers.landlock_abi > 0, feature_have("landlock"));
		assert_int_equal(rep.layers.landlock_scoped != 0, feature_have("landlock-scope"));
	}
	callers_child = false;
	keep_children = false;
	unlink(path);
}

/* complain: the KILL verdict is reported, not carried out; the call runs. */
static void test_complain(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	complain = true;
	launch_in_child("default allow\nkill-process unshare\n", SCG_LAUNCH_REPORT, argv, &rep);
	complain = false;
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, 0);
	assert_false(rep.res.killed_by_verdict);
	assert_int_equal(rep.denials, 1);
	assert_string_equal(rep.denied_call, "unshare(0)");
	assert_int_equal(rep.denied_action, SCG_RET_KILL_PROCESS);
}

/*
 * A filter of the program's own would outrank the reported KILL: its install
 * is told, and let in (the call gets that filter's E2BIG, and never runs) or
 * refused with EPERM (the KILL holds).
 */
static void test_own_filter(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "own-filter", NULL };
	const char *policy = "default allow\nkill-process unshare\n";
	struct report rep;
	launch_in_child(policy, SCG_LAUNCH_REPORT, argv, &rep);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, E2BIG);
	assert_int_equal(rep.own_filters, 1);
	assert_int_equal(rep.own_refused, 0);
	assert_string_equal(rep.own_filter_call, "seccomp");
	assert_int_equal(rep.denials, 0); /* its filter answered; nobody heard of unshare */

	own_filters = SCG_OWN_FILTERS_REFUSE;
	launch_in_child(policy, SCG_LAUNCH_REPORT, argv, &rep);
	own_filters = SCG_OWN_FILTERS_ALLOW;
	assert_int_equal(rep.res.end, SCG_LAUNCH_SIGNALED);
	assert_true(rep.res.killed_by_verdict);
	assert_int_equal(rep.own_filters, 1);
	assert_int_equal(rep.own_refused, 1);
	assert_int_equal(rep.denials, 1);

	/* Unsupervised, the kernel's KILL holds: nothing is told. */
	launch_in_child(policy, SCG_LAUNCH_UNSUPERVISED, argv, &rep);
	assert_int_equal(rep.res.end, SCG_LAUNCH_SIGNALED);
	assert_int_equal(rep.own_filters, 0);
}

/* The same answer function under the caller's own decisions (inject's mode). */
static void test_kill_under_serve(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	launch_in_child("default allow\nnotify unshare\n", SCG_LAUNCH_SERVE, argv, &rep);
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_SIGNALED);
	assert_int_equal(rep.res.status, SIGKILL);
}

static void test_record(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { self, "child", "unshare", NULL };
	struct report rep;
	launch_in_child(NULL, SCG_LAUNCH_RECORD, argv, &rep);
	assert_int_equal(rep.r, 0);
	assert_int_equal(rep.res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(rep.res.status, 0); /* the call ran */
	assert_true(rep.calls > 10);
	assert_true(rep.saw_unshare);
}

static void test_not_found(void **state)
{
	(void)state;
	NEED_NOTIF();
	const char *argv[] = { "/nonexistent/syscage-test-program", NULL };
	struct report rep;
	launch_in_child("default allow\n", SCG_LAUNCH_REPORT, argv, &rep);
	assert_int_equal(rep.r, -ENOENT);
	assert_int_equal(rep.res.end, SCG_LAUNCH_NOT_STARTED);
	assert_int_equal(rep.res.stage, SCG_LAUNCH_STAGE_EXEC);
	assert_int_equal(rep.res.error, ENOENT);
	assert_int_equal(scg_launch_exit_status(&rep.res), 127);
}

static void test_bad_options(void **state)
{
	(void)state;
	const char *argv[] = { self, NULL };
	struct scg_launch_result res;
	/* SERVE without a decision */
	SCG_OPTS(scg_launch_options, o, .mode = SCG_LAUNCH_SERVE);
	assert_int_equal(scg_launch((char *const *)argv, NULL, &o, &res), -EINVAL);
	assert_int_equal(res.end, SCG_LAUNCH_NOT_STARTED);
	/* a profile that does not exist */
	SCG_OPTS(scg_launch_options, p, .profile = "no-such-profile");
	assert_int_equal(scg_launch((char *const *)argv, NULL, &p, &res), -ENOENT);
	assert_int_equal(res.stage, SCG_LAUNCH_STAGE_POLICY);
	/* an own_filters value the library does not know */
	SCG_OPTS(scg_launch_options, q, .own_filters = (enum scg_own_filters)7);
	assert_int_equal(scg_launch((char *const *)argv, NULL, &q, &res), -EINVAL);
}

/* Reads @path into @buf; "" when missing. */
static void read_text(const char *path, char *buf, size_t size)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	size_t n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * supervisor_attack (as tests/cli/run_programs.sh runs it under the
 * command): the program clears its parent-death signal, kills the watchdog
 * and the supervisor (here: the launching process), then calls unshare(0),
 * which the policy kills.  The guard refuses both kills, and the KILL
 * verdict still kills.
 */
static void hostile(const char *mode, enum scg_launch_mode launch_mode, const char *policy)
{
	char dir[] = "/tmp/test_launch.XXXXXX", result[64], text[2048];
	assert_non_null(mkdtemp(dir));
	snprintf(result, sizeof(result), "%s/result", dir);
	const char *argv[] = { helper, mode, result, NULL };
	struct report rep;
	launch_in_child(policy, launch_mode, argv, &rep);
	read_text(result, text, sizeof(text));
	unlink(result);
	rmdir(dir);
	if (!strstr(text, "kill syscage-watch EPERM\n") || !strstr(text, "kill syscage EPERM\n"))
		fail_msg("the kills were not refused: %s", text);
	if (strstr(text, "unshare"))
		fail_msg("the program ran past its KILL verdict: %s", text);
	assert_int_equal(rep.res.end, SCG_LAUNCH_SIGNALED);
	assert_int_equal(rep.res.status, SIGKILL);
}

static void test_hostile_report(void **state)
{
	(void)state;
	NEED_NOTIF();
	hostile("pdeathsig", SCG_LAUNCH_REPORT, "default allow\nkill-process unshare\n");
}

/* Under the caller's decisions: unshare goes to on_notif, which kills. */
static void test_hostile_serve(void **state)
{
	(void)state;
	NEED_NOTIF();
	hostile("pdeathsig", SCG_LAUNCH_SERVE, "default allow\nnotify unshare\n");
}

/* --- inject's server as the launcher's SERVE decisions -------------------- */

struct inject_report {
	int r;
	struct scg_launch_result res;
	unsigned faults;
	uint64_t count;
	char call[128];
};

static void on_injected(const struct scg_inject_fault *f, void *ctx)
{
	struct inject_report *rep = ctx;
	rep->faults++;
	rep->count = f->count;
	snprintf(rep->call, sizeof(rep->call), "%s", f->call);
}

static int serve_decide(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
			void *ctx)
{
	return scg_inject_server_decide(ctx, listener, n, resp);
}

static void serve_answered(const struct scg_notif *n, const struct scg_notif_resp *resp, int r,
			   void *ctx)
{
	(void)n;
	(void)resp;
	(void)r;
	scg_inject_server_answered(ctx);
}

/*
 * unshare:error=EIO:when=2 over `notify unshare`: of three calls only the
 * second fails, on_injected sees it decoded with its count, and the
 * other two get the base policy's verdict (allow).
 */
static void test_inject_server(void **state)
{
	(void)state;
	NEED_NOTIF();
	struct inject_report *shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(shm != MAP_FAILED);
	memset(shm, 0, sizeof(*shm));
	struct scg_policy *base = policy_text("default allow\nnotify unshare\n");
	struct scg_policy *allow = policy_text("default allow\n");
	struct scg_inject_rule *rule;
	assert_int_equal(scg_inject_rule_parse("unshare:error=EIO:when=2", NULL, &rule, NULL), 0);
	struct scg_inject_rule *rules[] = { rule };
	assert_int_equal(scg_inject_rules_resolve(rules, 1, NULL), 0);
	const char *argv[] = { self, "child", "unshare3", NULL };
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(60);
		struct scg_inject_server *srv;
		SCG_OPTS(scg_inject_server_opts, so, .on_injected = on_injected, .ctx = shm);
		if (scg_inject_server_new(rules, 1, allow, &so, &srv) < 0)
			_exit(1);
		SCG_OPTS(scg_launch_options, o, .mode = SCG_LAUNCH_SERVE, .ctx = srv,
			 .on_notif = serve_decide, .on_answered = serve_answered);
		shm->r = scg_launch((char *const *)argv, base, &o, &shm->res);
		scg_inject_server_free(srv);
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(shm->r, 0);
	assert_int_equal(shm->res.end, SCG_LAUNCH_EXITED);
	assert_int_equal(shm->res.status, 2); /* the second call only */
	assert_int_equal(shm->faults, 1);
	assert_int_equal(shm->count, 2);
	assert_non_null(strstr(shm->call, "unshare(0)"));
	/* bad arguments */
	struct scg_inject_server *srv;
	assert_int_equal(scg_inject_server_new(rules, 1, NULL, NULL, &srv), -EINVAL);
	scg_inject_rule_free(rule);
	scg_policy_free(base);
	scg_policy_free(allow);
	munmap(shm, sizeof(*shm));
}

static int setup(void **state)
{
	(void)state;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", self);
	*strrchr(dir, '/') = '\0';
	if (snprintf(helper, sizeof(helper), "%s/helpers/supervisor_attack", dir) >=
	    (int)sizeof(helper))
		return -1;
	if (access(helper, X_OK) < 0) {
		fprintf(stderr, "missing %s (ninja builds it with the tests)\n", helper);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "child"))
		return child_main(argc, argv);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_allow, default_settings),
		cmocka_unit_test_setup(test_deny_errno, default_settings),
		cmocka_unit_test_setup(test_unsupervised, default_settings),
		cmocka_unit_test_setup(test_kill_verdict, default_settings),
		cmocka_unit_test_setup(test_tree, default_settings),
		cmocka_unit_test_setup(test_complain, default_settings),
		cmocka_unit_test_setup(test_own_filter, default_settings),
		cmocka_unit_test_setup(test_kill_under_serve, default_settings),
		cmocka_unit_test_setup(test_record, default_settings),
		cmocka_unit_test_setup(test_not_found, default_settings),
		cmocka_unit_test_setup(test_bad_options, default_settings),
		cmocka_unit_test_setup(test_hostile_report, default_settings),
		cmocka_unit_test_setup(test_hostile_serve, default_settings),
		cmocka_unit_test_setup(test_inject_server, default_settings),
		cmocka_unit_test_setup(test_gave_up, default_settings),
		cmocka_unit_test_setup(test_exit_event_not_started, default_settings),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
