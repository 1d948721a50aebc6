/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/inspect: /proc status parsing, and against the running kernel:
 * status and filters of a live process that installed two filters (and a
 * thread with a third), thread by thread; a scan of every process that
 * skips those gone; what an unprivileged reader is told; the holder of a
 * user-notification listener; and capturing the filter a program is about to
 * install (tests/helpers/install_filter) without letting the install happen.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "inspect/internal.h"
#include "support/features.h"
#include "support/live.h"

#define TIMEOUT_MS 20000U

/* --- status parsing ----------------------------------------------------- */

static const char typical[] = "Name:\tsleep\n"
			      "Umask:\t0022\n"
			      "State:\tS (sleeping)\n"
			      "Tgid:\t4242\n"
			      "Pid:\t4242\n"
			      "PPid:\t1\n"
			      "TracerPid:\t0\n"
			      "NoNewPrivs:\t1\n"
			      "Seccomp:\t2\n"
			      "Seccomp_filters:\t3\n"
			      "Speculation_Store_Bypass:\tthread vulnerable\n";

static void test_parse_typical(void **state)
{
	(void)state;
	struct scg_task_seccomp t;
	assert_int_equal(scg_status_parse(typical, strlen(typical), &t, NULL), 0);
	assert_int_equal(t.tid, 4242);
	assert_int_equal(t.mode, SCG_SECCOMP_FILTER);
	assert_int_equal(t.filters, 3);
	assert_int_equal(t.no_new_privs, 1);
}

static void test_parse_missing_fields(void **state)
{
	(void)state;
	/* an old kernel: no Seccomp_filters (< 5.9), no NoNewPrivs (< 4.10) */
	static const char old[] = "Name:\tx\nPid:\t7\nSeccomp:\t1";
	struct scg_task_seccomp t;
	assert_int_equal(scg_status_parse(old, strlen(old), &t, NULL), 0);
	assert_int_equal(t.mode, SCG_SECCOMP_STRICT);
	assert_int_equal(t.filters, -1);
	assert_int_equal(t.no_new_privs, -1);
	assert_int_equal(scg_status_parse("", 0, &t, NULL), 0);
	assert_int_equal(t.mode, SCG_SECCOMP_UNKNOWN);
	assert_int_equal(t.tid, -1);
}

static void test_parse_odd_lines(void **state)
{
	(void)state;
	/* keys only count at the start of a line; PPid and TracerPid are not Pid */
	static const char odd[] = "Name:\tSeccomp:\t2\n"
				  "PPid:\t99\n"
				  "TracerPid:\t98\n"
				  "Pid:  \t12 \r\n"
				  "Seccomp_filtersX:\t9\n"
				  " Seccomp:\t2\n"
				  "Seccomp:\t0\n"
				  "Seccomp_filters:\t0\n"
				  "NoNewPrivs:\t0";
	struct scg_task_seccomp t;
	assert_int_equal(scg_status_parse(odd, strlen(odd), &t, NULL), 0);
	assert_int_equal(t.tid, 12);
	assert_int_equal(t.mode, SCG_SECCOMP_NONE);
	assert_int_equal(t.filters, 0);
	assert_int_equal(t.no_new_privs, 0);
	/* the length is respected: a cut-off text ends where it is cut */
	assert_int_equal(scg_status_parse(typical, strlen(typical) - 60, &t, NULL), 0);
	assert_int_equal(t.no_new_privs, 1);
	assert_int_equal(t.filters, -1);
}

static void expect_bad(const char *text, unsigned line)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_task_seccomp t;
	assert_int_equal(scg_status_parse(text, strlen(text), &t, diag), -EINVAL);
	assert_int_equal(scg_diag_count(diag), 1);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	assert_int_equal(e->loc.line, line);
	assert_string_equal(e->code, "bad-status-field");
	scg_diag_free(diag);
}

static void test_parse_bad_values(void **state)
{
	(void)state;
	expect_bad("Seccomp:\t3\n", 1); /* no such mode */
	expect_bad("Name:\tx\nSeccomp:\tfilter\n", 2);
	expect_bad("Seccomp:\t-1\n", 1);
	expect_bad("Seccomp:\t\n", 1);
	expect_bad("Pid:\t1\nNoNewPrivs:\t2\n", 2);
	expect_bad("Seccomp_filters:\t99999999999999999999999\n", 1);
}

static void test_mode_names(void **state)
{
	(void)state;
	assert_string_equal(scg_seccomp_mode_name(SCG_SECCOMP_NONE), "none");
	assert_string_equal(scg_seccomp_mode_name(SCG_SECCOMP_STRICT), "strict");
	assert_string_equal(scg_seccomp_mode_name(SCG_SECCOMP_FILTER), "filter");
	assert_string_equal(scg_seccomp_mode_name(SCG_SECCOMP_UNKNOWN), "unknown");
}

/* A pid that certainly does not exist: a reaped child's, checked again. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(kill(pid, 0), -1);
	return pid;
}

static void test_missing_process(void **state)
{
	(void)state;
	pid_t pid = dead_pid();
	struct scg_diag *diag = scg_diag_new();
	struct scg_proc_seccomp st;
	assert_int_equal(scg_proc_seccomp_read(pid, &st, diag), -ESRCH);
	assert_true(scg_diag_count(diag) >= 1);
	struct scg_prog *progs;
	size_t n;
	assert_int_equal(scg_inspect_filters(pid, 1000, &progs, &n, diag), -ESRCH);
	scg_diag_free(diag);
}

static void test_read_self(void **state)
{
	(void)state;
	struct scg_proc_seccomp st;
	assert_int_equal(scg_proc_seccomp_read(getpid(), &st, NULL), 0);
	assert_int_equal(st.pid, getpid());
	assert_int_equal(st.process.tid, getpid());
	assert_string_equal(st.name, "test_inspect");
	/* the environment may have put this process under a filter */
	long mode = prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L);
	assert_int_equal(st.process.mode, mode == 2 ? SCG_SECCOMP_FILTER : SCG_SECCOMP_NONE);
	assert_true(st.nthreads >= 1);
	assert_int_equal(st.threads[0].tid, getpid());
	scg_proc_seccomp_release(&st);
	scg_proc_seccomp_release(NULL);
}

/* --- a live process with filters ------------------------------------- */

/* ld nr; jeq @nr -> ret ERRNO(@err); ret ALLOW */
static struct scg_prog deny_one(uint32_t nr, uint32_t err)
{
	struct scg_prog p = { calloc(4, sizeof(struct scg_insn)), 4 };
	assert_non_null(p.insns);
	p.insns[0] = (struct scg_insn){ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 };
	p.insns[1] = (struct scg_insn){ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, nr };
	p.insns[2] = (struct scg_insn){ BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | err };
	p.insns[3] = (struct scg_insn){ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW };
	return p;
}

struct fprog {
	unsigned short len;
	const struct scg_insn *filter;
};

static int install(const struct scg_prog *p)
{
	struct fprog fp = { (unsigned short)p->len, p->insns };
	return (int)syscall(SYS_seccomp, 1L, 0L, &fp);
}

static struct scg_prog first_filter, second_filter, thread_filter;
static int ready_pipe[2], go_pipe[2];

static void *thread_main(void *arg)
{
	(void)arg;
	char c = install(&thread_filter) == 0 ? 'T' : 't';
	if (write(ready_pipe[1], &c, 1) != 1)
		return NULL;
	for (;;)
		pause();
}

/*
 * The child: two filters in the main thread, a third in a second thread
 * only, then waits for a byte; exits 42 when its filters still hold.
 */
static _Noreturn void filtered_child(void)
{
	char c = 'F';
	alarm(TIMEOUT_MS / 1000); /* never outlive a failed test */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0 || install(&first_filter) < 0 ||
	    install(&second_filter) < 0)
		c = 'f';
	pthread_t th;
	if (write(ready_pipe[1], &c, 1) != 1 || pthread_create(&th, NULL, thread_main, NULL))
		_exit(1);
	if (read(go_pipe[0], &c, 1) != 1)
		_exit(2);
	errno = 0;
	bool held = syscall(SYS_getppid) == -1 && errno == 7 && syscall(SYS_getpid) == -1 &&
		    errno == 3;
	_exit(held ? 42 : 3);
}

static pid_t start_filtered_child(void)
{
	first_filter = deny_one(SYS_getpid, 3);
	second_filter = deny_one(SYS_getppid, 7);
	thread_filter = deny_one(SYS_getuid, 9);
	assert_int_equal(pipe(ready_pipe), 0);
	assert_int_equal(pipe(go_pipe), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		filtered_child();
	close(ready_pipe[1]);
	close(go_pipe[0]);
	char got[2];
	assert_int_equal(read(ready_pipe[0], got, 1), 1); /* the threads write one byte each */
	assert_int_equal(read(ready_pipe[0], got + 1, 1), 1);
	close(ready_pipe[0]);
	assert_memory_equal(got, "FT", 2);
	return pid;
}

static int finish_child(pid_t pid)
{
	char c = 'g';
	assert_int_equal(write(go_pipe[1], &c, 1), 1);
	close(go_pipe[1]);
	int status = 0;
	pid_t r = inspect_wait(pid, &status, inspect_now_ms() + TIMEOUT_MS);
	if (r != pid)
		kill(pid, SIGKILL), waitpid(pid, &status, 0);
	assert_int_equal(r, pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void assert_same_prog(const struct scg_prog *got, const struct scg_prog *want)
{
	assert_int_equal(got->len, want->len);
	assert_memory_equal(got->insns, want->insns, want->len * sizeof(struct scg_insn));
}

/* Filters this process inherited from its environment (a container's): the child has them too. */
static long inherited_filters(void)
{
	struct scg_proc_seccomp st;
	assert_int_equal(scg_proc_seccomp_read(getpid(), &st, NULL), 0);
	long n = st.process.filters > 0 ? st.process.filters : 0;
	scg_proc_seccomp_release(&st);
	return n;
}

static void check_status(pid_t pid, long base)
{
	struct scg_proc_seccomp st;
	assert_int_equal(scg_proc_seccomp_read(pid, &st, NULL), 0);
	assert_int_equal(st.process.mode, SCG_SECCOMP_FILTER);
	assert_int_equal(st.process.filters, base + 2);
	assert_int_equal(st.process.no_new_privs, 1);
	assert_int_equal(st.nthreads, 2);
	assert_int_equal(st.threads[0].tid, pid);
	assert_int_equal(st.threads[0].filters, base + 2);
	assert_int_equal(st.threads[1].mode, SCG_SECCOMP_FILTER);
	assert_int_equal(st.threads[1].filters, base + 3); /* inherited two, added one */
	scg_proc_seccomp_release(&st);
}

/* @pid's filters: the child's two after the @base it inherited. */
static void check_dump(pid_t pid, size_t base)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog *progs = NULL;
	size_t n = 0;
	int r = scg_inspect_filters(pid, TIMEOUT_MS, &progs, &n, diag);
	assert_int_equal(r, 0);
	assert_int_equal(n, base + 2);
	/* the kernel numbers them oldest first */
	assert_same_prog(&progs[n - 2], &first_filter);
	assert_same_prog(&progs[n - 1], &second_filter);
	scg_progs_free(progs, n);
	/* a second dump sees the same, so the first left the process as it was */
	assert_int_equal(scg_inspect_filters(pid, TIMEOUT_MS, &progs, &n, diag), 0);
	assert_int_equal(n, base + 2);
	scg_progs_free(progs, n);
	scg_diag_free(diag);
}

static void test_live_status_and_dump(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	long base = inherited_filters();
	pid_t pid = start_filtered_child();
	check_status(pid, base);
	if (feature_require("ptrace-get-filter", "reading the filters back in %s", __func__))
		check_dump(pid, (size_t)base);
	assert_int_equal(finish_child(pid), 42);
	scg_prog_release(&first_filter);
	scg_prog_release(&second_filter);
	scg_prog_release(&thread_filter);
}

/* Thread by thread: the leader's two filters and the thread's three are two groups. */
static void check_thread_groups(pid_t pid, long base)
{
	struct scg_proc_seccomp st;
	assert_int_equal(scg_proc_seccomp_read(pid, &st, NULL), 0);
	assert_int_equal(st.nthreads, 2);
	pid_t tid = st.threads[1].tid;
	scg_proc_seccomp_release(&st);
	struct scg_process_filters pf;
	assert_int_equal(scg_inspect_process_filters(pid, TIMEOUT_MS, &pf, NULL), 0);
	assert_int_equal(pf.pid, pid);
	assert_int_equal(pf.nthreads, 2);
	assert_int_equal(pf.ngroups, 2);
	assert_int_equal(pf.groups[0].ntids, 1);
	assert_int_equal(pf.groups[0].tids[0], pid);
	assert_int_equal(pf.groups[0].nprogs, base + 2);
	assert_int_equal(pf.groups[1].tids[0], tid);
	assert_int_equal(pf.groups[1].nprogs, base + 3);
	assert_same_prog(&pf.groups[1].progs[base + 2], &thread_filter);
	scg_process_filters_release(&pf);
	scg_process_filters_release(NULL);
	/* a thread named by its own id: that thread alone */
	assert_int_equal(scg_inspect_process_filters(tid, TIMEOUT_MS, &pf, NULL), 0);
	assert_int_equal(pf.pid, pid);
	assert_int_equal(pf.nthreads, 1);
	assert_int_equal(pf.ngroups, 1);
	assert_int_equal(pf.groups[0].tids[0], tid);
	assert_int_equal(pf.groups[0].nprogs, base + 3);
	scg_process_filters_release(&pf);
}

static void test_thread_filters(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live || !feature_require("ptrace-get-filter", "%s", __func__))
		skip();
	long base = inherited_filters();
	pid_t pid = start_filtered_child();
	check_thread_groups(pid, base);
	assert_int_equal(finish_child(pid), 42);
	scg_prog_release(&first_filter);
	scg_prog_release(&second_filter);
	scg_prog_release(&thread_filter);
}

/* A child under one filter of its own, waiting to be killed. */
static pid_t start_paused_filtered(void)
{
	struct scg_prog p = deny_one(SYS_getppid, 7);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(TIMEOUT_MS / 1000);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0 || install(&p) < 0)
			_exit(1);
		for (;;)
			pause();
	}
	scg_prog_release(&p);
	/* wait until the filter is there: /proc says so */
	for (unsigned i = 0; i < 10000; i++) {
		struct scg_proc_seccomp st;
		int r = scg_proc_seccomp_read(pid, &st, NULL);
		bool filtered = r == 0 && st.process.mode == SCG_SECCOMP_FILTER;
		if (r == 0)
			scg_proc_seccomp_release(&st);
		if (filtered)
			return pid;
		usleep(1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("the child did not install its filter");
	return -1;
}

static bool scanned(const struct scg_proc_scan *scan, pid_t pid)
{
	for (size_t i = 0; i < scan->n; i++)
		if (scan->procs[i].pid == pid)
			return true;
	return false;
}

static void test_scan(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	pid_t filtered = start_paused_filtered();
	bool self_filtered = prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L) != 0;
	/* a pid listed and gone before it is read: left out, counted, no error */
	pid_t pids[] = { getpid(), dead_pid(), filtered };
	struct scg_proc_scan scan;
	assert_int_equal(inspect_scan_pids(pids, 3, 0, &scan), 0);
	assert_int_equal(scan.vanished, 1);
	assert_int_equal(scan.unreadable, 0);
	assert_true(scanned(&scan, filtered));
	assert_int_equal(scanned(&scan, getpid()), self_filtered);
	scg_proc_scan_release(&scan);
	assert_int_equal(inspect_scan_pids(pids, 3, SCG_SCAN_EVERY_PROCESS, &scan), 0);
	assert_int_equal(scan.n, 2);
	assert_int_equal(scan.procs[0].pid, getpid());
	scg_proc_scan_release(&scan);
	/* the whole of /proc */
	assert_int_equal(scg_proc_seccomp_scan(0, &scan, NULL), 0);
	assert_true(scanned(&scan, filtered));
	for (size_t i = 1; i < scan.n; i++)
		assert_true(scan.procs[i - 1].pid < scan.procs[i].pid);
	scg_proc_scan_release(&scan);
	scg_proc_scan_release(NULL);
	kill(filtered, SIGKILL);
	waitpid(filtered, NULL, 0);
}

/*
 * In a child that gave up root: the diagnostic for @pid contains @want
 * (the privilege it lacks).  Exits 0 when it does.
 */
static _Noreturn void expect_refusal(pid_t pid, int want_err, const char *want)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog *progs = NULL;
	size_t n = 0;
	int r = scg_inspect_filters(pid, TIMEOUT_MS, &progs, &n, diag);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	bool ok = r == -want_err && e && (strstr(e->message, want) ||
					   (e->hint && strstr(e->hint, want)));
	if (!ok)
		fprintf(stderr, "got %d: %s\n", r, e ? e->message : "no diagnostic");
	_exit(ok ? 0 : 1);
}

static void run_unprivileged(pid_t target, bool own_child)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(TIMEOUT_MS / 1000);
		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0 || prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L) < 0)
			_exit(2);
		if (!own_child)
			expect_refusal(target, EPERM, "CAP_SYS_PTRACE");
		pid_t mine = fork(); /* same user: attaching works, reading filters does not */
		if (mine == 0) {
			pause();
			_exit(0);
		}
		int r = 1;
		pid_t waiter = fork();
		if (waiter == 0)
			expect_refusal(mine, EACCES, "CAP_SYS_ADMIN");
		waitpid(waiter, &r, 0);
		kill(mine, SIGKILL);
		_exit(WIFEXITED(r) ? WEXITSTATUS(r) : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_unprivileged_messages(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live || geteuid() != 0 || !feature_require("ptrace-get-filter", "%s", __func__))
		skip(); /* giving up root needs root */
	pid_t filtered = start_paused_filtered();
	run_unprivileged(filtered, false); /* another user's process: CAP_SYS_PTRACE */
	run_unprivileged(filtered, true);  /* its own process: CAP_SYS_ADMIN */
	kill(filtered, SIGKILL);
	waitpid(filtered, NULL, 0);
}

/* ld nr; jeq getppid -> USER_NOTIF; ALLOW */
static struct scg_prog notify_getppid(void)
{
	struct scg_prog p = deny_one(SYS_getppid, 0);
	p.insns[2].k = SCG_RET_USER_NOTIF;
	return p;
}

static void test_notify_holder(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live || !feature_require("user-notif", "%s", __func__))
		skip();
	int ready[2];
	assert_int_equal(pipe(ready), 0);
	pid_t holder = fork();
	assert_true(holder >= 0);
	if (holder == 0) { /* holds a listener, and starts the program it would supervise */
		alarm(TIMEOUT_MS / 1000);
		struct scg_prog p = notify_getppid();
		struct fprog fp = { (unsigned short)p.len, p.insns };
		if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0 ||
		    syscall(SYS_seccomp, 1L, 8L /* NEW_LISTENER */, &fp) < 0)
			_exit(1);
		pid_t program = fork();
		if (program == 0) {
			for (;;)
				pause();
		}
		if (write(ready[1], &program, sizeof(program)) != (ssize_t)sizeof(program))
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	pid_t program = 0;
	assert_int_equal(read(ready[0], &program, sizeof(program)), (ssize_t)sizeof(program));
	close(ready[0]);
	struct scg_notify_holder h;
	int r = scg_inspect_notify_holder(program, &h);
	kill(program, SIGKILL);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	assert_int_equal(r, 0);
	assert_int_equal(h.pid, holder);
	assert_string_equal(h.name, "test_inspect");
	assert_non_null(h.argv);
	assert_non_null(strstr(h.argv[0], "test_inspect"));
	assert_null(h.argv[1]);
	scg_notify_holder_release(&h);
	scg_notify_holder_release(NULL);
	assert_int_equal(scg_inspect_notify_holder(dead_pid(), &h), -ESRCH);
}

static void test_dump_unfiltered(void **state)
{
	(void)state;
	if (!feature_require("ptrace-get-filter", "%s", __func__))
		skip();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	struct scg_prog *progs = NULL;
	size_t n = 99;
	int r = scg_inspect_filters(pid, TIMEOUT_MS, &progs, &n, NULL);
	assert_int_equal(kill(pid, 0), 0); /* still alive after the detach */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(r, 0);
	assert_int_equal(n, 0);
	assert_null(progs);
}

/* --- capturing at the install ------------------------------------------ */

static char helper[PATH_MAX];
/* mkdtemp() fills it in; capture paths below it stay short */
static char workdir[] = "/tmp/syscage-inspect-XXXXXX";
static char filter_path[PATH_MAX], marker_path[PATH_MAX];

/* A filter with every kind of instruction the helper might mangle if it were read wrong. */
static struct scg_prog known_filter(void)
{
	static const struct scg_insn insns[] = {
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0xc000003eU },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_PROCESS },
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 },
		{ BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000U },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 38 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 39 },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_TRAP | 0x1234 },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW },
	};
	struct scg_prog p = { 0 };
	struct scg_prog src = { (struct scg_insn *)insns, sizeof(insns) / sizeof(insns[0]) };
	assert_int_equal(scg_prog_copy(&p, &src), 0);
	return p;
}

static int setup_capture(void **state)
{
	(void)state;
	char self[PATH_MAX - 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(helper, sizeof(helper), "%s/helpers/install_filter", self);
	if (access(helper, X_OK) < 0) {
		fprintf(stderr, "missing %s (ninja builds it with the tests)\n", helper);
		return -1;
	}
	if (!mkdtemp(workdir))
		return -1;
	snprintf(filter_path, sizeof(filter_path), "%s/filter.bpf", workdir);
	snprintf(marker_path, sizeof(marker_path), "%s/installed", workdir);
	struct scg_prog p = known_filter();
	FILE *f = fopen(filter_path, "wb");
	size_t w = f ? fwrite(p.insns, sizeof(struct scg_insn), p.len, f) : 0;
	scg_prog_release(&p);
	return f && fclose(f) == 0 && w == 9 ? 0 : -1;
}

static int teardown_capture(void **state)
{
	(void)state;
	unlink(marker_path);
	unlink(filter_path);
	rmdir(workdir);
	return 0;
}

static void capture_mode(const char *mode, enum scg_capture_call call)
{
	unlink(marker_path);
	char *argv[] = { helper, (char *)mode, filter_path, marker_path, NULL };
	struct scg_diag *diag = scg_diag_new();
	struct scg_capture c;
	int r = scg_inspect_capture(argv, TIMEOUT_MS, &c, diag);
	if (r < 0 && scg_diag_count(diag))
		fprintf(stderr, "%s: %s\n", mode, scg_diag_get(diag, 0)->message);
	scg_diag_free(diag);
	assert_int_equal(r, 0);
	assert_int_equal(c.outcome, SCG_CAPTURE_FILTER);
	assert_int_equal(c.call, call);
	/* AUDIT_ARCH_I386 for the int $0x80 install, the native ABI otherwise */
	uint32_t want_arch = strcmp(mode, "int80") ? scg_arch_audit(scg_arch_native()) : 0x40000003U;
	assert_int_equal(c.audit_arch, want_arch);
	struct scg_prog want = known_filter();
	assert_same_prog(&c.prog, &want);
	scg_prog_release(&want);
	scg_prog_release(&c.prog);
	/* the install never happened, so the program never got past it */
	assert_int_equal(access(marker_path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

/* Runs the helper untraced: proves it does install and write the marker. */
static void run_untraced(const char *mode, int want_status, bool want_marker)
{
	unlink(marker_path);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(helper, helper, mode, filter_path, marker_path, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	pid_t r = inspect_wait(pid, &status, inspect_now_ms() + TIMEOUT_MS);
	if (r != pid)
		kill(pid, SIGKILL), waitpid(pid, &status, 0);
	assert_int_equal(r, pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), want_status);
	assert_int_equal(access(marker_path, F_OK) == 0, want_marker);
	unlink(marker_path);
}

static void test_capture_control(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	run_untraced("seccomp", 0, true);
	run_untraced("fork", 0, true);
	run_untraced("none", 3, false);
}

static void test_capture_seccomp(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	capture_mode("seccomp", SCG_CAPTURE_SECCOMP);
	capture_mode("prctl", SCG_CAPTURE_PRCTL);
	/* libseccomp's probes (strict mode with a flag, a NULL program) install
	 * nothing and are let through */
	capture_mode("probe", SCG_CAPTURE_SECCOMP);
}

/*
 * The tracing filter is hidden: a program that installs its sandbox only
 * when prctl(PR_GET_SECCOMP) says 0, as man-db does, is still caught.
 */
static void test_capture_hides_tracing(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	if (prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L) != 0) {
		/* filtered already: the program is told so, and installs nothing */
		char *argv[] = { helper, (char *)"unfiltered-only", filter_path, marker_path, NULL };
		struct scg_capture c;
		assert_int_equal(scg_inspect_capture(argv, TIMEOUT_MS, &c, NULL), 0);
		assert_int_equal(c.outcome, SCG_CAPTURE_EXITED);
		assert_int_equal(WEXITSTATUS(c.exit_status), 5);
		return;
	}
	run_untraced("unfiltered-only", 0, true);
#ifdef __x86_64__
	capture_mode("unfiltered-only", SCG_CAPTURE_SECCOMP);
#endif
}

static void test_capture_fork_and_thread(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	capture_mode("fork", SCG_CAPTURE_SECCOMP);
	capture_mode("thread", SCG_CAPTURE_SECCOMP);
}

#ifdef __x86_64__
/* An i386-ABI install from a 64-bit process: the 8-byte compat struct sock_fprog. */
static void test_capture_compat(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live || !feature_require("i386-emulation", "%s", __func__))
		skip();
	run_untraced("int80", 0, true);
	capture_mode("int80", SCG_CAPTURE_SECCOMP);
}
#endif

static void test_capture_no_filter(void **state)
{
	(void)state;
	char *argv[] = { helper, (char *)"none", filter_path, marker_path, NULL };
	struct scg_capture c;
	assert_int_equal(scg_inspect_capture(argv, TIMEOUT_MS, &c, NULL), 0);
	assert_int_equal(c.outcome, SCG_CAPTURE_EXITED);
	assert_true(WIFEXITED(c.exit_status));
	assert_int_equal(WEXITSTATUS(c.exit_status), 3);
	assert_int_equal(c.prog.len, 0);
}

static void test_capture_bad_command(void **state)
{
	(void)state;
	char missing[PATH_MAX + 16];
	snprintf(missing, sizeof(missing), "%s/no-such-program", workdir);
	char *argv[] = { missing, NULL };
	struct scg_diag *diag = scg_diag_new();
	struct scg_capture c;
	assert_int_equal(scg_inspect_capture(argv, TIMEOUT_MS, &c, diag), -ENOENT);
	assert_int_equal(scg_diag_count(diag), 1);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "no-such-program"));
	scg_diag_free(diag);
	char *empty[] = { NULL };
	assert_int_equal(scg_inspect_capture(empty, TIMEOUT_MS, &c, NULL), -EINVAL);
}

static void test_capture_timeout(void **state)
{
	(void)state;
	char *argv[] = { (char *)"sleep", (char *)"30", NULL };
	struct scg_diag *diag = scg_diag_new();
	struct scg_capture c;
	assert_int_equal(scg_inspect_capture(argv, 300, &c, diag), -ETIMEDOUT);
	assert_int_equal(scg_diag_count(diag), 1);
	assert_string_equal(scg_diag_get(diag, 0)->code, "capture-timeout");
	scg_diag_free(diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_typical),
		cmocka_unit_test(test_parse_missing_fields),
		cmocka_unit_test(test_parse_odd_lines),
		cmocka_unit_test(test_parse_bad_values),
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_missing_process),
		cmocka_unit_test(test_read_self),
		cmocka_unit_test(test_live_status_and_dump),
		cmocka_unit_test(test_thread_filters),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_unprivileged_messages),
		cmocka_unit_test(test_notify_holder),
		cmocka_unit_test(test_dump_unfiltered),
		cmocka_unit_test(test_capture_control),
		cmocka_unit_test(test_capture_seccomp),
		cmocka_unit_test(test_capture_hides_tracing),
		cmocka_unit_test(test_capture_fork_and_thread),
#ifdef __x86_64__
		cmocka_unit_test(test_capture_compat),
#endif
		cmocka_unit_test(test_capture_no_filter),
		cmocka_unit_test(test_capture_bad_command),
		cmocka_unit_test(test_capture_timeout),
	};
	/* the group setup finds the helper program and writes the filter it installs */
	return cmocka_run_group_tests(tests, setup_capture, teardown_capture);
}
