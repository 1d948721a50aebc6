/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libseccomp-compatible library (compat/) loading real filters:
 * seccomp_load() with rules and attributes, user notification through the
 * seccomp_notify_*() calls, seccomp_reset() after a load, and stacked loads.
 * A filter cannot be removed, so every case runs in a forked child, and every
 * check is on what the kernel then does to the child's system calls.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* SCMP_A0(op, datum) leaves datum_b to its zero default, as libseccomp's macros do. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <seccomp.h>

#include "support/features.h"
#include "support/live.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#ifndef SECCOMP_USER_NOTIF_FLAG_CONTINUE
#define SECCOMP_USER_NOTIF_FLAG_CONTINUE (1UL << 0)
#endif
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a SIGSYS sent by SECCOMP_RET_TRAP */
#endif

/* --- running a case in a child ---------------------------------------------- */

/*
 * Not a timing assertion: a child stuck on a bug (a notification nobody
 * answers, a thread that never reports) dies by SIGALRM instead of hanging
 * the suite, and the parent reports that signal.
 */
#define CHILD_DEADLINE_S 20
#define CHILD_FAILED	 99

/* What a failing child says, in memory shared with the parent. */
struct child_report {
	char message[512];
};

static struct child_report *report;

static void __attribute__((noreturn, format(printf, 2, 3)))
child_failf(int line, const char *fmt, ...)
{
	int saved_errno = errno;
	int used = snprintf(report->message, sizeof(report->message), "line %d: ", line);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(report->message + used, sizeof(report->message) - (size_t)used, fmt, ap);
	va_end(ap);
	size_t len = strlen(report->message);
	snprintf(report->message + len, sizeof(report->message) - len, " [errno %d]", saved_errno);
	_exit(CHILD_FAILED);
}

/* cmocka's assertions would longjmp into the parent's copy of the runner, so the
 * children check with these instead. */
#define CHILD_CHECK(cond)                                                                          \
	do {                                                                                       \
		if (!(cond))                                                                       \
			child_failf(__LINE__, "%s", #cond);                                        \
	} while (0)

#define CHILD_EQ(actual, expected)                                                                 \
	child_eq(__LINE__, #actual, (long long)(actual), (long long)(expected))

static void child_eq(int line, const char *what, long long actual, long long expected)
{
	if (actual != expected)
		child_failf(line, "%s is %lld (%#llx), expected %lld (%#llx)", what, actual,
			    (unsigned long long)actual, expected, (unsigned long long)expected);
}

/* A raw syscall's result as the kernel returned it: the value, or -errno. */
static long sys_result(long r)
{
	return r == -1 ? -errno : r;
}

/* Filters the child had before its case began: the environment's, if any (a container's). */
static long inherited_count;
static long status_filters(pid_t tid);

static void child_prepare(void)
{
	/* A filter may end the child by a signal: cmocka's crash handlers, inherited
	 * through fork(), would otherwise resume the suite inside the child. */
	static const int crash_signals[] = {SIGSEGV, SIGSYS, SIGILL, SIGBUS, SIGFPE, SIGABRT};
	for (size_t i = 0; i < N(crash_signals); i++)
		signal(crash_signals[i], SIG_DFL);
	/* SIGSYS dumps core by default, into the working directory here. */
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	alarm(CHILD_DEADLINE_S);
	inherited_count = status_filters(gettid());
	/* As a libseccomp user should after fork(): forget the process-wide state. */
	seccomp_reset(NULL, 0);
}

/* Forks a child that prepares itself, runs @body and exits 0; returns its pid. */
static pid_t fork_child(void (*body)(void))
{
	memset(report, 0, sizeof(*report));
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		child_prepare();
		body();
		_exit(0);
	}
	return pid;
}

static int wait_child(pid_t pid)
{
	int status;
	pid_t waited;
	while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	assert_int_equal(waited, pid);
	return status;
}

/* Runs @body in a forked child and returns its wait status. */
static int run_in_child(void (*body)(void))
{
	return wait_child(fork_child(body));
}

static void describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with %d: %s", WEXITSTATUS(status), report->message);
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)%s%s", WTERMSIG(status),
			 strsignal(WTERMSIG(status)), report->message[0] ? ": " : "",
			 report->message);
	else
		snprintf(buf, size, "wait status %#x", (unsigned)status);
}

static void expect_clean_exit(int status)
{
	char what[640];
	describe_status(status, what, sizeof(what));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("child %s", what);
}

static void expect_child_exits_cleanly(void (*body)(void))
{
	expect_clean_exit(run_in_child(body));
}

static void expect_child_killed_by(void (*body)(void), int signo)
{
	int status = run_in_child(body);
	char what[640];
	describe_status(status, what, sizeof(what));
	if (!WIFSIGNALED(status) || WTERMSIG(status) != signo)
		fail_msg("child should die by signal %d, but %s", signo, what);
}

static void require_live(void)
{
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
}

/* --- helpers the children share ---------------------------------------------- */

static scmp_filter_ctx new_allow_ctx(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	CHILD_CHECK(ctx != NULL);
	return ctx;
}

/* An unconditional rule; failures name the caller's line. */
#define add_rule0(ctx, action, nr) add_rule0_at(__LINE__, ctx, action, nr)

static void add_rule0_at(int line, scmp_filter_ctx ctx, uint32_t action, int nr)
{
	int rc = seccomp_rule_add(ctx, action, nr, 0);
	if (rc != 0)
		child_failf(line, "seccomp_rule_add(%#x, %d) = %d", action, nr, rc);
}

/* Loads and releases @ctx: the kernel keeps the filter, the context is no longer needed. */
#define load_and_release(ctx) load_and_release_at(__LINE__, ctx)

static void load_and_release_at(int line, scmp_filter_ctx ctx)
{
	int rc = seccomp_load(ctx);
	if (rc != 0)
		child_failf(line, "seccomp_load() = %d", rc);
	seccomp_release(ctx);
}

/* "Seccomp_filters:" of /proc/self/task/@tid/status: how many filters the thread has. */
static long status_filters(pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	CHILD_CHECK(f != NULL);
	char line[256];
	long count = -1;
	while (count < 0 && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Seccomp_filters: %ld", &count) != 1)
			count = -1;
	fclose(f);
	CHILD_CHECK(count >= 0);
	return count;
}

/* How many filters the case has given thread @tid, beyond those inherited. */
static long filter_count(pid_t tid)
{
	return status_filters(tid) - inherited_count;
}

static bool read_full(int fd, void *buf, size_t len)
{
	return read(fd, buf, len) == (ssize_t)len;
}

static void write_full(int fd, const void *buf, size_t len)
{
	CHILD_CHECK(write(fd, buf, len) == (ssize_t)len);
}

/*
 * A second thread that makes the syscalls it is asked for and reports their
 * results, through pipes so neither side sleeps or polls.
 */
struct worker {
	pthread_t thread;
	pid_t tid;
	int request[2]; /* syscall numbers to the worker; -1 ends it */
	int reply[2];	/* results back: the value or -errno */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	long nr, result = gettid();
	write_full(w->reply[1], &result, sizeof(result));
	while (read_full(w->request[0], &nr, sizeof(nr)) && nr >= 0) {
		result = sys_result(syscall(nr));
		write_full(w->reply[1], &result, sizeof(result));
	}
	return NULL;
}

static void worker_start(struct worker *w)
{
	CHILD_CHECK(pipe2(w->request, O_CLOEXEC) == 0 && pipe2(w->reply, O_CLOEXEC) == 0);
	CHILD_EQ(pthread_create(&w->thread, NULL, worker_main, w), 0);
	long tid;
	CHILD_CHECK(read_full(w->reply[0], &tid, sizeof(tid)));
	w->tid = (pid_t)tid;
}

static void worker_send(struct worker *w, long nr)
{
	write_full(w->request[1], &nr, sizeof(nr));
}

static long worker_call(struct worker *w, long nr)
{
	worker_send(w, nr);
	long result;
	CHILD_CHECK(read_full(w->reply[0], &result, sizeof(result)));
	return result;
}

static void worker_stop(struct worker *w)
{
	worker_send(w, -1);
	CHILD_EQ(pthread_join(w->thread, NULL), 0);
}

/* --- 1. rules ------------------------------------------------------------------ */

static void child_errno_rule(void)
{
	pid_t pid = getpid();
	/* The path opens before the filter, so only the filter can make it fail after. */
	int fd = openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHILD_CHECK(fd >= 0);
	close(fd);
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat));
	load_and_release(ctx);
	CHILD_EQ(sys_result(openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)), -EACCES);
	CHILD_EQ(sys_result(syscall(SYS_getpid)), pid);
}

static void test_errno_rule(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_errno_rule);
}

/* Both data have a high word that decides: a filter comparing only the low
 * words would answer the probes below differently. */
#define EQ_DATUM     0x100000007ULL
#define MASK	     0xf0000000000000ffULL
#define MASKED_DATUM 0x1000000000000042ULL

static void child_argument_rules(void)
{
	long ppid = getppid();
	scmp_filter_ctx ctx = new_allow_ctx();
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(getppid), 1,
				  SCMP_A0(SCMP_CMP_EQ, EQ_DATUM)),
		 0);
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EDOM), SCMP_SYS(getppid), 1,
				  SCMP_A0(SCMP_CMP_MASKED_EQ, MASK, MASKED_DATUM)),
		 0);
	load_and_release(ctx);
	static const struct {
		uint64_t a0;
		int err; /* 0: the call runs */
	} probes[] = {
	    {EQ_DATUM, EPERM},
	    {EQ_DATUM & 0xffffffffU, 0},
	    {EQ_DATUM + (1ULL << 32), 0},
	    {MASKED_DATUM, EDOM},
	    {0x1abc000012345642ULL, EDOM}, /* bits outside the mask do not matter */
	    {MASKED_DATUM & 0xffffffffU, 0},
	    {MASKED_DATUM + 1, 0},
	};
	for (size_t i = 0; i < N(probes); i++) {
		long got = sys_result(syscall(SYS_getppid, probes[i].a0));
		long want = probes[i].err ? -probes[i].err : ppid;
		if (got != want)
			child_failf(__LINE__, "getppid(%#llx) gave %ld, expected %ld",
				    (unsigned long long)probes[i].a0, got, want);
	}
}

static void test_argument_rules(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_argument_rules);
}

/* --- 2. attributes and actions ------------------------------------------------ */

/*
 * 1 when CAP_SYS_ADMIN is in the effective set (a filter then loads without
 * NO_NEW_PRIVS, and another task's filters can be read), 0 when not, -1 when
 * /proc does not say.
 */
static int cap_sys_admin(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (f == NULL)
		return -1;
	char line[256];
	unsigned long long caps = 0;
	bool found = false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	fclose(f);
	return found ? (int)((caps >> 21) & 1) : -1;
}

static int no_new_privs(void)
{
	return prctl(PR_GET_NO_NEW_PRIVS, 0UL, 0UL, 0UL, 0UL);
}

static void child_nnp_off(void)
{
	CHILD_EQ(no_new_privs(), 0);
	scmp_filter_ctx ctx = new_allow_ctx();
	uint32_t value = 1;
	CHILD_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0), 0);
	CHILD_EQ(seccomp_attr_get(ctx, SCMP_FLTATR_CTL_NNP, &value), 0);
	CHILD_EQ(value, 0);
	add_rule0(ctx, SCMP_ACT_ERRNO(EXDEV), SCMP_SYS(getppid));
	int privileged = cap_sys_admin();
	CHILD_CHECK(privileged >= 0);
	if (!privileged) {
		/* Without the bit and the capability the kernel refuses (EACCES), which
		 * libseccomp reports as -ECANCELED unless asked for raw codes. */
		CHILD_EQ(seccomp_load(ctx), -ECANCELED);
		CHILD_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_API_SYSRAWRC, 1), 0);
		CHILD_EQ(seccomp_load(ctx), -EACCES);
		CHILD_EQ(no_new_privs(), 0);
		return;
	}
	load_and_release(ctx);
	CHILD_EQ(no_new_privs(), 0); /* the library left the bit alone */
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -EXDEV);
	CHILD_EQ(filter_count(gettid()), 1);
	/* The default sets it. */
	ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(getuid));
	load_and_release(ctx);
	CHILD_EQ(no_new_privs(), 1);
	CHILD_EQ(sys_result(syscall(SYS_getuid)), -ENOTTY);
}

static void test_nnp_off(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_nnp_off);
}

static void child_tsync(void)
{
	struct worker w;
	worker_start(&w);
	uid_t uid = getuid();
	/* Without TSYNC the filter is the calling thread's alone. */
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_ERRNO(EXDEV), SCMP_SYS(getuid));
	load_and_release(ctx);
	CHILD_EQ(sys_result(syscall(SYS_getuid)), -EXDEV);
	CHILD_EQ(worker_call(&w, SYS_getuid), uid);
	CHILD_EQ(filter_count(w.tid), 0);
	/* With it every thread gets the caller's whole chain, the earlier filter too. */
	ctx = new_allow_ctx();
	CHILD_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1), 0);
	add_rule0(ctx, SCMP_ACT_ERRNO(E2BIG), SCMP_SYS(getppid));
	load_and_release(ctx);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -E2BIG);
	CHILD_EQ(worker_call(&w, SYS_getppid), -E2BIG);
	CHILD_EQ(worker_call(&w, SYS_getuid), -EXDEV);
	CHILD_EQ(worker_call(&w, SYS_getpgrp), getpgrp());
	CHILD_EQ(filter_count(w.tid), 2);
	worker_stop(&w);
}

static void test_tsync(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_tsync);
}

/*
 * SCMP_FLTATR_CTL_LOG and SCMP_ACT_LOG.  A logged call runs as if allowed, so
 * the process cannot see the difference; the flag, though, is stored with the
 * filter, and the parent reads it back with PTRACE_SECCOMP_GET_METADATA.
 */
struct log_pipes {
	int ready[2]; /* child -> parent: filters loaded and checked */
	int done[2];  /* parent -> child: inspection over */
};

static struct log_pipes log_pipes;

static void child_log(void)
{
	close(log_pipes.ready[0]);
	close(log_pipes.done[1]);
	long ppid = getppid();
	/* First a filter without the flag, so the metadata check has a contrast. */
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(getuid));
	load_and_release(ctx);
	ctx = new_allow_ctx();
	uint32_t value = 0;
	CHILD_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1), 0);
	CHILD_EQ(seccomp_attr_get(ctx, SCMP_FLTATR_CTL_LOG, &value), 0);
	CHILD_EQ(value, 1);
	add_rule0(ctx, SCMP_ACT_LOG, SCMP_SYS(getppid));
	load_and_release(ctx);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), ppid);
	CHILD_EQ(sys_result(syscall(SYS_getuid)), -ENOTTY);
	char byte = 1;
	write_full(log_pipes.ready[1], &byte, 1);
	CHILD_CHECK(read_full(log_pipes.done[0], &byte, 1));
}

/*
 * struct seccomp_metadata of <linux/ptrace.h>.  The kernel counts @filter_off
 * from the oldest filter (get_nth_filter() walks back from the newest by
 * count - off), although ptrace(2) says index 0 is the most recent.
 */
struct filter_metadata {
	uint64_t filter_off; /* 0: the oldest filter */
	uint64_t flags;	     /* SECCOMP_FILTER_FLAG_* it was loaded with */
};

/* The load flags of @pid's @n filters after the @skip oldest, oldest first; 0 or -errno. */
static int read_filter_flags(pid_t pid, size_t skip, uint64_t *flags, size_t n)
{
	if (ptrace(PTRACE_SEIZE, pid, 0L, 0L) != 0)
		return -errno;
	int rc = 0, status;
	if (ptrace(PTRACE_INTERRUPT, pid, 0L, 0L) != 0 || waitpid(pid, &status, __WALL) != pid)
		rc = -errno;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct filter_metadata md = {.filter_off = skip + i};
		if (ptrace(PTRACE_SECCOMP_GET_METADATA, pid, sizeof(md), &md) != (long)sizeof(md))
			rc = -errno;
		flags[i] = md.flags;
	}
	ptrace(PTRACE_DETACH, pid, 0L, 0L);
	return rc;
}

/* This process's filters, which its children inherit (the environment's). */
static long inherited_filters(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	assert_non_null(f);
	char line[256];
	long count = -1;
	while (count < 0 && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Seccomp_filters: %ld", &count) != 1)
			count = -1;
	fclose(f);
	return count > 0 ? count : 0;
}

static void test_log(void **state)
{
	(void)state;
	require_live();
	/* PTRACE_SECCOMP_GET_METADATA asks what PTRACE_SECCOMP_GET_FILTER does */
	bool readable = feature_require("ptrace-get-filter", "reading the LOG flag back in %s",
					__func__);
	assert_int_equal(pipe2(log_pipes.ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(log_pipes.done, O_CLOEXEC), 0);
	pid_t pid = fork_child(child_log);
	close(log_pipes.ready[1]);
	close(log_pipes.done[0]);
	char byte = 0;
	/* No byte: the child failed before it got there, and says why when waited for. */
	bool ready = read_full(log_pipes.ready[0], &byte, 1);
	uint64_t flags[2] = {0, 0};
	int inspected = -EPERM;
	if (ready && readable)
		inspected = read_filter_flags(pid, (size_t)inherited_filters(), flags, N(flags));
	if (ready)
		assert_int_equal(write(log_pipes.done[1], &byte, 1), 1);
	close(log_pipes.ready[0]);
	close(log_pipes.done[1]);
	expect_clean_exit(wait_child(pid));
	if (!readable)
		return;
	if (inspected < 0)
		fail_msg("PTRACE_SECCOMP_GET_METADATA: %s", strerror(-inspected));
	assert_false(flags[0] & SECCOMP_FILTER_FLAG_LOG);
	assert_true(flags[1] & SECCOMP_FILTER_FLAG_LOG);
}

/* Set by a thread whose getppid() returned. */
static volatile int call_survived;

static void *call_getppid(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
	call_survived = 1;
	return NULL;
}

/*
 * A second thread, created after the load so it inherits the filter, makes a
 * call the filter kills; the main thread only joins it.  A killed thread
 * still clears its tid, so the join ends either way.
 */
static void kill_from_second_thread(uint32_t action)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, action, SCMP_SYS(getppid));
	load_and_release(ctx);
	pthread_t thread;
	CHILD_EQ(pthread_create(&thread, NULL, call_getppid, NULL), 0);
	CHILD_EQ(pthread_join(thread, NULL), 0);
	CHILD_EQ(call_survived, 0);
}

static void child_kill_process(void)
{
	kill_from_second_thread(SCMP_ACT_KILL_PROCESS);
	child_failf(__LINE__, "KILL_PROCESS killed only the thread that made the call");
}

static void child_kill_thread(void)
{
	kill_from_second_thread(SCMP_ACT_KILL_THREAD);
	/* The process lives on: this thread's own calls still work. */
	CHILD_EQ(sys_result(syscall(SYS_getpid)), getpid());
}

static void test_kill_process(void **state)
{
	(void)state;
	require_live();
	expect_child_killed_by(child_kill_process, SIGSYS);
	/* The contrast that makes the check above mean something. */
	expect_child_exits_cleanly(child_kill_thread);
}

/* What the SIGSYS handler saw. */
static volatile sig_atomic_t traps;
static volatile int trap_code, trap_syscall, trap_errno;
static volatile unsigned trap_arch;

static void on_sigsys(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)uctx;
	traps++;
	trap_code = info->si_code;
	trap_syscall = info->si_syscall;
	trap_errno = info->si_errno;
	trap_arch = info->si_arch;
}

static void catch_sigsys(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	CHILD_EQ(sigaction(SIGSYS, &sa, NULL), 0);
}

static void child_trap(void)
{
	catch_sigsys();
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_TRAP, SCMP_SYS(getppid));
	load_and_release(ctx);
	CHILD_EQ(traps, 0);
	syscall(SYS_getppid); /* its return value after a trap is unspecified */
	CHILD_EQ(traps, 1);
	CHILD_EQ(trap_code, SYS_SECCOMP);
	CHILD_EQ(trap_syscall, SYS_getppid);
	CHILD_EQ(trap_arch, seccomp_arch_native());
	CHILD_EQ(trap_errno, 0); /* SCMP_ACT_TRAP carries no data */
	CHILD_EQ(sys_result(syscall(SYS_getpid)), getpid());
	CHILD_EQ(traps, 1);
}

static void test_trap(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_trap);
}

/* --- 3. user notification ------------------------------------------------------ */

/*
 * The supervisor is a thread created before seccomp_load(), so the filter is
 * not its own.  It learns the listener through a pipe once the filter is
 * loaded, then runs @serve.
 */
struct supervisor {
	pthread_t thread;
	int listener_pipe[2];
	pid_t target; /* the thread whose calls it expects */
	int listener; /* once loaded */
	void (*serve)(int listener, const struct supervisor *sup);
};

static void *supervisor_main(void *arg)
{
	struct supervisor *sup = arg;
	int listener;
	CHILD_CHECK(read_full(sup->listener_pipe[0], &listener, sizeof(listener)));
	sup->serve(listener, sup);
	return NULL;
}

static void supervisor_start(struct supervisor *sup, void (*serve)(int, const struct supervisor *))
{
	sup->target = gettid();
	sup->serve = serve;
	CHILD_CHECK(pipe2(sup->listener_pipe, O_CLOEXEC) == 0);
	CHILD_EQ(pthread_create(&sup->thread, NULL, supervisor_main, sup), 0);
}

/* Loads a filter sending @syscalls to the listener and hands the listener over. */
static void load_notify_filter(struct supervisor *sup, const int *syscalls, size_t n)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	CHILD_EQ(seccomp_notify_fd(ctx), -EFAULT); /* no listener yet (libseccomp 2.5 answers so) */
	for (size_t i = 0; i < n; i++)
		add_rule0(ctx, SCMP_ACT_NOTIFY, syscalls[i]);
	CHILD_EQ(seccomp_load(ctx), 0);
	int listener = seccomp_notify_fd(ctx);
	CHILD_CHECK(listener >= 0);
	CHILD_CHECK(fcntl(listener, F_GETFD) >= 0);
	CHILD_EQ(seccomp_notify_fd(ctx), listener);
	seccomp_release(ctx);
	sup->listener = listener;
	write_full(sup->listener_pipe[1], &listener, sizeof(listener));
}

/* Receives the next notification and checks who made which call. */
static void receive_call(int listener, const struct supervisor *sup, struct seccomp_notif *req,
			 int nr)
{
	CHILD_EQ(seccomp_notify_receive(listener, req), 0);
	CHILD_EQ(req->data.nr, nr);
	CHILD_EQ(req->data.arch, seccomp_arch_native());
	CHILD_EQ(req->pid, sup->target);
	/* Pending until answered. */
	CHILD_EQ(seccomp_notify_id_valid(listener, req->id), 0);
}

static void respond(int listener, const struct seccomp_notif *req, struct seccomp_notif_resp *resp,
		    int32_t error, int64_t val, uint32_t flags)
{
	resp->id = req->id;
	resp->error = error;
	resp->val = val;
	resp->flags = flags;
	CHILD_EQ(seccomp_notify_respond(listener, resp), 0);
	CHILD_EQ(seccomp_notify_id_valid(listener, req->id), -ENOENT);
}

#define NOTIFY_DIRFD 12345
#define NOTIFY_MODE  0750
#define NOTIFY_A0    0x1122334455667788ULL
#define NOTIFY_VAL   4242
static const char notify_path[] = "compat-load-never-created";

static void serve_answers(int listener, const struct supervisor *sup)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	CHILD_EQ(seccomp_notify_alloc(&req, &resp), 0);
	receive_call(listener, sup, req, SYS_mkdirat);
	CHILD_EQ(req->data.args[0], NOTIFY_DIRFD);
	CHILD_EQ(req->data.args[1], (uintptr_t)notify_path);
	CHILD_EQ(req->data.args[2], NOTIFY_MODE);
	respond(listener, req, resp, -EPERM, 0, 0);
	receive_call(listener, sup, req, SYS_getppid);
	CHILD_EQ(req->data.args[0], NOTIFY_A0);
	respond(listener, req, resp, 0, NOTIFY_VAL, 0);
	seccomp_notify_free(req, resp);
}

static void child_notify_answers(void)
{
	struct supervisor sup;
	supervisor_start(&sup, serve_answers);
	load_notify_filter(&sup, (const int[]){SCMP_SYS(mkdirat), SCMP_SYS(getppid)}, 2);
	CHILD_EQ(sys_result(mkdirat(NOTIFY_DIRFD, notify_path, NOTIFY_MODE)), -EPERM);
	CHILD_EQ(sys_result(syscall(SYS_getppid, NOTIFY_A0)), NOTIFY_VAL);
	CHILD_EQ(pthread_join(sup.thread, NULL), 0);
}

static void test_notify_answers(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_notify_answers);
}

static void serve_continue(int listener, const struct supervisor *sup)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	CHILD_EQ(seccomp_notify_alloc(&req, &resp), 0);
	receive_call(listener, sup, req, SYS_getppid);
	respond(listener, req, resp, 0, 0, SECCOMP_USER_NOTIF_FLAG_CONTINUE);
	seccomp_notify_free(req, resp);
}

static void child_notify_continue(void)
{
	long ppid = getppid();
	CHILD_CHECK(ppid > 0); /* so a plain answer of 0 cannot pass for the real call */
	struct supervisor sup;
	supervisor_start(&sup, serve_continue);
	load_notify_filter(&sup, (const int[]){SCMP_SYS(getppid)}, 1);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), ppid);
	CHILD_EQ(pthread_join(sup.thread, NULL), 0);
	/* The global reset closes the listener (seccomp_reset(3)); a filter whose
	 * listener is gone answers its NOTIFY calls with ENOSYS. */
	scmp_filter_ctx ctx = new_allow_ctx();
	CHILD_EQ(seccomp_reset(NULL, 0), 0);
	CHILD_EQ(seccomp_notify_fd(ctx), -EFAULT);
	CHILD_EQ(sys_result(fcntl(sup.listener, F_GETFD)), -EBADF);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -ENOSYS);
	seccomp_release(ctx);
}

static void test_notify_continue(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_notify_continue);
}

#define ADDFD_TEXT     "injected by the supervisor"
#define ADDFD_FIXED_FD 200

/* Injects a memfd holding ADDFD_TEXT into the target; returns the target's number for it. */
static int inject_memfd(int listener, const struct seccomp_notif *req, uint32_t flags,
			uint32_t newfd)
{
	int memfd = memfd_create("compat-load", MFD_CLOEXEC);
	CHILD_CHECK(memfd >= 0);
	write_full(memfd, ADDFD_TEXT, sizeof(ADDFD_TEXT));
	struct seccomp_notif_addfd addfd = {
	    .id = req->id,
	    .flags = flags,
	    .srcfd = (uint32_t)memfd,
	    .newfd = newfd,
	    .newfd_flags = O_CLOEXEC,
	};
	int fd = seccomp_notify_addfd(listener, &addfd);
	CHILD_CHECK(fd >= 0);
	close(memfd);
	return fd;
}

static void serve_addfd(int listener, const struct supervisor *sup)
{
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	CHILD_EQ(seccomp_notify_alloc(&req, &resp), 0);
	/* Add the fd, then answer with its number. */
	receive_call(listener, sup, req, SYS_openat);
	int fd = inject_memfd(listener, req, 0, 0);
	CHILD_EQ(seccomp_notify_id_valid(listener, req->id), 0);
	respond(listener, req, resp, 0, fd, 0);
	/* Add it and answer in one step (SEND). */
	receive_call(listener, sup, req, SYS_openat);
	inject_memfd(listener, req, SECCOMP_ADDFD_FLAG_SEND, 0);
	CHILD_EQ(seccomp_notify_id_valid(listener, req->id), -ENOENT);
	/* At a number of the supervisor's choosing (SETFD). */
	receive_call(listener, sup, req, SYS_openat);
	CHILD_EQ(inject_memfd(listener, req, SECCOMP_ADDFD_FLAG_SETFD | SECCOMP_ADDFD_FLAG_SEND,
			      ADDFD_FIXED_FD),
		 ADDFD_FIXED_FD);
	seccomp_notify_free(req, resp);
}

/* @fd is one of the supervisor's memfds: its contents and close-on-exec flag. */
static void check_injected(int fd)
{
	char text[sizeof(ADDFD_TEXT)] = "";
	CHILD_CHECK(fd >= 0);
	CHILD_EQ(pread(fd, text, sizeof(text), 0), sizeof(text));
	CHILD_CHECK(memcmp(text, ADDFD_TEXT, sizeof(text)) == 0);
	CHILD_CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

static void child_notify_addfd(void)
{
	struct supervisor sup;
	supervisor_start(&sup, serve_addfd);
	load_notify_filter(&sup, (const int[]){SCMP_SYS(openat)}, 1);
	/* No such path: only an injected fd can make these succeed. */
	check_injected((int)sys_result(openat(AT_FDCWD, notify_path, O_RDONLY | O_CLOEXEC)));
	check_injected((int)sys_result(openat(AT_FDCWD, notify_path, O_RDONLY | O_CLOEXEC)));
	long fixed = sys_result(openat(AT_FDCWD, notify_path, O_RDONLY | O_CLOEXEC));
	CHILD_EQ(fixed, ADDFD_FIXED_FD);
	check_injected((int)fixed);
	CHILD_EQ(pthread_join(sup.thread, NULL), 0);
}

static void test_notify_addfd(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_notify_addfd);
}

/* --- 4. reset and stacking ------------------------------------------------------ */

static void child_reset_after_load(void)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(getppid));
	CHILD_EQ(seccomp_attr_set(ctx, SCMP_FLTATR_CTL_LOG, 1), 0);
	CHILD_EQ(seccomp_load(ctx), 0);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -EPERM);
	/* Reset empties the context; the loaded filter stays in the kernel. */
	CHILD_EQ(seccomp_reset(ctx, SCMP_ACT_ALLOW), 0);
	uint32_t log = 1;
	CHILD_EQ(seccomp_attr_get(ctx, SCMP_FLTATR_CTL_LOG, &log), 0);
	CHILD_EQ(log, 0);
	/* Had the old getppid rule survived the reset, it would decide getppid here too
	 * (the first unconditional rule for a syscall stays), and the kernel would
	 * answer EPERM twice. */
	add_rule0(ctx, SCMP_ACT_ERRNO(ENOENT), SCMP_SYS(getppid));
	add_rule0(ctx, SCMP_ACT_ERRNO(ENXIO), SCMP_SYS(getgid));
	load_and_release(ctx);
	CHILD_EQ(filter_count(gettid()), 2);
	CHILD_EQ(sys_result(syscall(SYS_getgid)), -ENXIO);
	/* Both filters answer ERRNO: the newer one's errno is the one returned. */
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -ENOENT);
}

static void test_reset_after_load(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_reset_after_load);
}

/*
 * Two contexts loaded one after the other.  The kernel runs every filter and
 * keeps the strictest action (the lowest value); between two of the same
 * action, the newer filter's data.
 */
static void child_stack_two_contexts(void)
{
	catch_sigsys();
	scmp_filter_ctx older = new_allow_ctx(), newer = new_allow_ctx();
	add_rule0(older, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(getppid));
	add_rule0(older, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(getuid));
	add_rule0(older, SCMP_ACT_ERRNO(EIO), SCMP_SYS(getegid));
	add_rule0(newer, SCMP_ACT_ERRNO(ENOENT), SCMP_SYS(getppid));
	add_rule0(newer, SCMP_ACT_LOG, SCMP_SYS(getuid));
	add_rule0(newer, SCMP_ACT_TRAP, SCMP_SYS(getegid));
	add_rule0(newer, SCMP_ACT_ERRNO(ENXIO), SCMP_SYS(getgid));
	load_and_release(older);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -EPERM);
	load_and_release(newer);
	CHILD_EQ(filter_count(gettid()), 2);
	CHILD_EQ(sys_result(syscall(SYS_getppid)), -ENOENT); /* ERRNO both: the newer's data */
	CHILD_EQ(sys_result(syscall(SYS_getuid)), -EACCES);  /* ERRNO beats LOG */
	CHILD_EQ(sys_result(syscall(SYS_getgid)), -ENXIO);   /* ERRNO beats ALLOW */
	CHILD_EQ(traps, 0);
	syscall(SYS_getegid); /* TRAP beats ERRNO */
	CHILD_EQ(traps, 1);
	CHILD_EQ(trap_syscall, SYS_getegid);
	CHILD_EQ(sys_result(syscall(SYS_getpid)), getpid());
}

static void test_stack_two_contexts(void **state)
{
	(void)state;
	require_live();
	expect_child_exits_cleanly(child_stack_two_contexts);
}

/*
 * Two conditional rules of different actions for one syscall, neither
 * holding the other: libseccomp kills at openat(.., O_WRONLY | O_CREAT),
 * and so must the drop-in, whatever the order of adding (the stricter
 * action decides where both match).
 */
static char overlap_path[64];

static void child_overlap_kill_first(void)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(openat), 1,
				  SCMP_A2(SCMP_CMP_MASKED_EQ, O_WRONLY, O_WRONLY)),
		 0);
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_LOG, SCMP_SYS(openat), 1, SCMP_A1(SCMP_CMP_NE, 0)),
		 0);
	load_and_release(ctx);
	int fd = openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* LOG */
	CHILD_CHECK(fd >= 0);
	close(fd);
	openat(AT_FDCWD, overlap_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	child_failf(__LINE__, "openat(O_WRONLY | O_CREAT) ran");
}

static void child_overlap_log_first(void)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_LOG, SCMP_SYS(openat), 1, SCMP_A1(SCMP_CMP_NE, 0)),
		 0);
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(openat), 1,
				  SCMP_A2(SCMP_CMP_MASKED_EQ, O_WRONLY, O_WRONLY)),
		 0);
	load_and_release(ctx);
	openat(AT_FDCWD, overlap_path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	child_failf(__LINE__, "openat(O_WRONLY | O_CREAT) ran");
}

static void test_overlapping_actions(void **state)
{
	(void)state;
	require_live();
	char dir[] = "/tmp/compat-overlap-XXXXXX";
	assert_non_null(mkdtemp(dir));
	snprintf(overlap_path, sizeof(overlap_path), "%s/created", dir);
	expect_child_killed_by(child_overlap_kill_first, SIGSYS);
	assert_int_equal(access(overlap_path, F_OK), -1);
	expect_child_killed_by(child_overlap_log_first, SIGSYS);
	assert_int_equal(access(overlap_path, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Library calls after a filter is loaded make no call of their own beyond
 * the one they need: the filter below sends one syscall to a listener nobody
 * reads, so a probe child, a getpid() or a wait inside the library would
 * block for ever (until CHILD_DEADLINE_S ends the child by SIGALRM).
 */
static const struct {
	const char *name;
	int nr;
} held_calls[] = {
	{ "getpid", SCMP_SYS(getpid) }, { "gettid", SCMP_SYS(gettid) },
	{ "clone", SCMP_SYS(clone) },	{ "clone3", SCMP_SYS(clone3) },
	{ "fork", SCMP_SYS(fork) },	{ "vfork", SCMP_SYS(vfork) },
	{ "wait4", SCMP_SYS(wait4) },	{ "waitid", SCMP_SYS(waitid) },
	{ "ptrace", SCMP_SYS(ptrace) }, { "kill", SCMP_SYS(kill) },
	{ "tgkill", SCMP_SYS(tgkill) }, { "rt_sigaction", SCMP_SYS(rt_sigaction) },
	{ "prctl", SCMP_SYS(prctl) },
};
static int held_nr;

/* libseccomp's own example: NOTIFY on one call, load, then allocate the buffers. */
static void child_notify_alloc_after_load(void)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_NOTIFY, held_nr);
	CHILD_EQ(seccomp_load(ctx), 0);
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	CHILD_EQ(seccomp_notify_alloc(&req, &resp), 0);
	CHILD_CHECK(req != NULL && resp != NULL);
	seccomp_notify_free(req, resp);
	CHILD_CHECK(seccomp_notify_fd(ctx) >= 0);
	CHILD_CHECK(seccomp_api_get() >= 5);
	seccomp_release(ctx);
}

/*
 * The API level asked for the first time under such a filter: the filter is
 * installed by hand with its listener, and the global reset makes the
 * library forget the level it knew.
 */
static void child_api_level_under_filter(void)
{
	scmp_filter_ctx ctx = new_allow_ctx();
	add_rule0(ctx, SCMP_ACT_NOTIFY, held_nr);
	static unsigned char bpf[65536];
	size_t len = sizeof(bpf);
	CHILD_EQ(seccomp_export_bpf_mem(ctx, bpf, &len), 0);
	seccomp_release(ctx);
	struct {
		unsigned short len;
		void *filter;
	} fprog = { (unsigned short)(len / 8), bpf };
	CHILD_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L), 0);
	long listener = syscall(SYS_seccomp, 1 /* SET_MODE_FILTER */, 1UL << 3 /* NEW_LISTENER */,
				&fprog);
	CHILD_CHECK(listener >= 0);
	CHILD_EQ(seccomp_reset(NULL, 0), 0);
	CHILD_CHECK(seccomp_api_get() >= 5);
	ctx = seccomp_init(SCMP_ACT_ALLOW);
	CHILD_CHECK(ctx != NULL);
	CHILD_EQ(seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(getppid), 0), 0);
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	CHILD_EQ(seccomp_notify_alloc(&req, &resp), 0);
	seccomp_notify_free(req, resp);
	seccomp_release(ctx);
	close((int)listener);
}

static void test_no_calls_of_its_own(void **state)
{
	(void)state;
	require_live();
	for (size_t i = 0; i < N(held_calls); i++) {
		held_nr = held_calls[i].nr;
		if (held_nr < 0)
			continue; /* not a syscall of this ABI */
		int status = run_in_child(child_notify_alloc_after_load);
		char what[640];
		describe_status(status, what, sizeof(what));
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("NOTIFY on %s, seccomp_notify_alloc() after the load: child %s",
				 held_calls[i].name, what);
		status = run_in_child(child_api_level_under_filter);
		describe_status(status, what, sizeof(what));
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("NOTIFY on %s, seccomp_api_get() under the filter: child %s",
				 held_calls[i].name, what);
	}
}

/* --- main ----------------------------------------------------------------------- */

static int group_setup(void **state)
{
	(void)state;
	void *page = mmap(NULL, sizeof(struct child_report), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	report = page;
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	munmap(report, sizeof(*report));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_errno_rule),
	    cmocka_unit_test(test_argument_rules),
	    cmocka_unit_test(test_nnp_off),
	    cmocka_unit_test(test_tsync),
	    cmocka_unit_test(test_log),
	    cmocka_unit_test(test_kill_process),
	    cmocka_unit_test(test_trap),
	    cmocka_unit_test(test_notify_answers),
	    cmocka_unit_test(test_notify_continue),
	    cmocka_unit_test(test_notify_addfd),
	    cmocka_unit_test(test_reset_after_load),
	    cmocka_unit_test(test_stack_two_contexts),
	    cmocka_unit_test(test_no_calls_of_its_own),
	    cmocka_unit_test(test_overlapping_actions),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
