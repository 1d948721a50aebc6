/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The runtime library: feature detection, installing with flags (and the
 * fallbacks, simulated), strict mode and the notification loop, live in
 * forked children.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "runtime/internal.h"
#include "support/features.h"
#include "support/live.h"

#define LIVE_OR_SKIP()                                                                             \
	do {                                                                                       \
		int live_ = live_require();                                                        \
		assert_true(live_ >= 0);                                                           \
		if (!live_)                                                                        \
			skip();                                                                    \
	} while (0)

/* --- a tiny filter: syscall @nr gets @ret, everything else ALLOW ----------- */

static struct scg_insn insns[8];

static struct scg_prog one_rule(uint32_t nr, uint32_t ret)
{
	const struct scg_insn prog[] = {
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 }, /* arch */
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 3, scg_arch_audit(scg_arch_native()) },
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 }, /* nr */
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, nr },
		{ BPF_RET | BPF_K, 0, 0, ret },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW },
	};
	memcpy(insns, prog, sizeof(prog));
	return (struct scg_prog){ .insns = insns, .len = sizeof(prog) / sizeof(prog[0]) };
}

/* Runs @fn in a forked child (bounded by alarm) and returns its wait status. */
static int in_child(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(20);
		_exit(fn(arg));
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	return status;
}

/* --- simulated kernels ----------------------------------------------------- */

static struct {
	long seccomp_ret;
	int seccomp_errno;
	unsigned last_op, last_flags;
	int prctl_calls;
	unsigned long prctl_mode;
	unsigned reject_flags_from; /* flag probes: bits >= this one are EINVAL */
} sim;

static long sim_seccomp(unsigned op, unsigned flags, void *args)
{
	(void)args;
	sim.last_op = op;
	sim.last_flags = flags;
	if (op == SCG_SECCOMP_SET_MODE_FILTER && !args && sim.reject_flags_from) {
		errno = flags >= sim.reject_flags_from ? EINVAL : EFAULT;
		return -1;
	}
	if (sim.seccomp_ret < 0)
		errno = sim.seccomp_errno;
	return sim.seccomp_ret;
}

static long sim_prctl(unsigned long mode, void *args)
{
	(void)args;
	sim.prctl_calls++;
	sim.prctl_mode = mode;
	return 0;
}

static const struct runtime_ops sim_ops = { sim_seccomp, sim_prctl };

static void test_install_falls_back_to_prctl(void **state)
{
	(void)state;
	struct scg_prog prog = one_rule(0, SCG_RET_ALLOW);
	memset(&sim, 0, sizeof(sim));
	sim.seccomp_ret = -1;
	sim.seccomp_errno = ENOSYS;
	assert_int_equal(filter_install_ops(&sim_ops, &prog, 0, NULL), 0);
	assert_int_equal(sim.prctl_calls, 1);
	assert_int_equal(sim.prctl_mode, SCG_MODE_FILTER);
	/* flags need seccomp(2): no silent downgrade */
	sim.prctl_calls = 0;
	assert_int_equal(filter_install_ops(&sim_ops, &prog, SCG_FILTER_FLAG_LOG, NULL),
			 -ENOSYS);
	assert_int_equal(sim.prctl_calls, 0);
	/* strict mode too */
	assert_int_equal(strict_enter_ops(&sim_ops), 0);
	assert_int_equal(sim.prctl_mode, SCG_MODE_STRICT);
}

static void test_install_tsync_tid_is_failure(void **state)
{
	(void)state;
	struct scg_prog prog = one_rule(0, SCG_RET_ALLOW);
	memset(&sim, 0, sizeof(sim));
	sim.seccomp_ret = 4321;
	struct scg_install_result res;
	assert_int_equal(filter_install_ops(&sim_ops, &prog, SCG_FILTER_FLAG_TSYNC, &res),
			 -ESRCH);
	assert_int_equal(res.tsync_tid, 4321);
	assert_int_equal(res.listener, -1);
	/* with NEW_LISTENER (and TSYNC_ESRCH) a positive value is the listener */
	unsigned flags = SCG_FILTER_FLAG_TSYNC | SCG_FILTER_FLAG_TSYNC_ESRCH |
			 SCG_FILTER_FLAG_NEW_LISTENER;
	assert_int_equal(filter_install_ops(&sim_ops, &prog, flags, &res), 0);
	assert_int_equal(res.listener, 4321);
	assert_int_equal(sim.last_flags, flags);
}

static void test_install_rejects_bad_arguments(void **state)
{
	(void)state;
	struct scg_prog prog = one_rule(0, SCG_RET_ALLOW);
	struct scg_prog empty = { 0 };
	struct scg_install_result res;
	assert_int_equal(scg_filter_install(&empty, 0, &res), -EINVAL);
	assert_int_equal(scg_filter_install(&prog, 1U << 6, &res), -EINVAL);
	assert_int_equal(scg_filter_install(&prog, SCG_FILTER_FLAG_NEW_LISTENER, NULL), -EINVAL);
}

static void test_probe_simulated(void **state)
{
	(void)state;
	struct scg_features f;
	memset(&sim, 0, sizeof(sim));
	sim.seccomp_ret = -1;
	sim.seccomp_errno = ENOSYS;
	assert_int_equal(features_probe_ops(&sim_ops, &f), 0);
	assert_false(f.seccomp_syscall);
	assert_int_equal(f.flags, 0);
	/* a 5.0-like kernel: flags up to NEW_LISTENER */
	memset(&sim, 0, sizeof(sim));
	sim.reject_flags_from = SCG_FILTER_FLAG_TSYNC_ESRCH;
	assert_int_equal(features_probe_ops(&sim_ops, &f), 0);
	assert_true(f.seccomp_syscall);
	assert_int_equal(f.flags, 0xfU);
}

/* --- the running kernel ------------------------------------------------------ */

static void test_probe_live(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	struct scg_features f;
	assert_int_equal(scg_features_probe(&f), 0);
	assert_true(f.seccomp_syscall);
	assert_true(f.filter_mode);
	assert_true(f.actions & (1U << SCG_ACTION_ALLOW));
	assert_true(f.actions & (1U << SCG_ACTION_ERRNO));
	assert_true(f.actions & (1U << SCG_ACTION_KILL_PROCESS));
	assert_false(f.actions & (1U << SCG_ACTION_UNKNOWN));
	assert_true(f.flags & SCG_FILTER_FLAG_TSYNC);
	assert_int_equal(f.flags & ~SCG_FILTER_FLAGS_ALL, 0);
	if (f.actions & (1U << SCG_ACTION_USER_NOTIF)) {
		assert_true(f.flags & SCG_FILTER_FLAG_NEW_LISTENER);
		assert_true(f.notif_size >= sizeof(struct scg_notif));
		assert_true(f.notif_resp_size >= sizeof(struct scg_notif_resp));
		assert_int_equal(f.data_size, 64);
	}
	assert_int_equal(f.ptrace_get_filter, f.ptrace_get_filter_error == 0);
	/* a filtered process is never allowed to read filters */
	if (prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L) != 0)
		assert_int_equal(f.ptrace_get_filter_error, EACCES);
#ifdef __x86_64__
	/* without x32 the x32 getpid fails with ENOSYS, and the caller lives on */
	errno = 0;
	long r = syscall((long)SCG_X32_SYSCALL_BIT | SYS_getpid);
	assert_int_equal(f.x32, r == getpid());
	if (!f.x32)
		assert_int_equal(errno, ENOSYS);
#else
	assert_false(f.ia32_emulation);
	assert_false(f.x32);
#endif
}

/* The probe's 32-bit answer is the one a child of the caller gets. */
static int child_int80_getpid(void *arg)
{
	(void)arg;
#ifdef __x86_64__
	signal(SIGSEGV, SIG_DFL);
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "0"(20L) : "r8", "r9", "r10", "r11", "memory");
	return ret == getpid() ? 0 : 1;
#else
	return 1;
#endif
}

static void test_probe_ia32_live(void **state)
{
	(void)state;
	struct scg_features f;
	assert_int_equal(scg_features_probe(&f), 0);
	int status = in_child(child_int80_getpid, NULL);
	bool works = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	assert_int_equal(f.ia32_emulation, works);
}

static int child_install_errno(void *arg)
{
	unsigned flags = *(unsigned *)arg;
	struct scg_prog prog = one_rule(SYS_getppid, SCG_RET_ERRNO | 77);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return 10;
	struct scg_install_result res;
	if (scg_filter_install(&prog, flags, &res) < 0)
		return 11;
	if ((flags & SCG_FILTER_FLAG_NEW_LISTENER) ? res.listener < 0 : res.listener != -1)
		return 13;
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != 77)
		return 12;
	return 0;
}

static void test_install_live_flags(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	struct scg_features f;
	assert_int_equal(scg_features_probe(&f), 0);
	const unsigned sets[] = { 0, SCG_FILTER_FLAG_TSYNC, SCG_FILTER_FLAG_LOG,
				  SCG_FILTER_FLAG_SPEC_ALLOW,
				  SCG_FILTER_FLAG_TSYNC | SCG_FILTER_FLAG_TSYNC_ESRCH,
				  SCG_FILTER_FLAG_NEW_LISTENER,
				  SCG_FILTER_FLAG_NEW_LISTENER | SCG_FILTER_FLAG_WAIT_KILLABLE_RECV,
				  SCG_FILTER_FLAG_TSYNC | SCG_FILTER_FLAG_TSYNC_ESRCH |
					  SCG_FILTER_FLAG_NEW_LISTENER };
	size_t tried = 0;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		unsigned flags = sets[i];
		if ((flags & f.flags) != flags)
			continue;
		int status = in_child(child_install_errno, &flags);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		tried++;
	}
	assert_true(tried >= 2); /* at least no flags and TSYNC */
}

/* A thread with a filter of its own blocks TSYNC; the kernel names it. */
static pthread_barrier_t barrier;
static volatile pid_t diverging_tid;

static void *diverge(void *arg)
{
	(void)arg;
	struct scg_prog prog = one_rule(SYS_getppid, SCG_RET_ALLOW);
	diverging_tid = (pid_t)syscall(SYS_gettid);
	if (scg_filter_install(&prog, 0, NULL) < 0)
		diverging_tid = -1;
	pthread_barrier_wait(&barrier);
	pthread_barrier_wait(&barrier); /* stay alive until the main thread has tried */
	return NULL;
}

static int child_tsync_blocked(void *arg)
{
	unsigned flags = *(unsigned *)arg;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return 10;
	pthread_t t;
	pthread_barrier_init(&barrier, NULL, 2);
	if (pthread_create(&t, NULL, diverge, NULL) != 0)
		return 11;
	pthread_barrier_wait(&barrier);
	if (diverging_tid <= 0)
		return 12;
	struct scg_prog prog = one_rule(SYS_getppid, SCG_RET_ERRNO | 1);
	struct scg_install_result res;
	int r = scg_filter_install(&prog, flags, &res);
	pthread_barrier_wait(&barrier);
	pthread_join(t, NULL);
	if (r != -ESRCH)
		return 13;
	/* without TSYNC_ESRCH the kernel reports the thread id */
	if (!(flags & SCG_FILTER_FLAG_TSYNC_ESRCH) && res.tsync_tid != diverging_tid)
		return 14;
	/* nothing was installed */
	if (syscall(SYS_getppid) < 0)
		return 15;
	return 0;
}

static void test_tsync_failure_live(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	struct scg_features f;
	assert_int_equal(scg_features_probe(&f), 0);
	unsigned flags = SCG_FILTER_FLAG_TSYNC;
	int status = in_child(child_tsync_blocked, &flags);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	if (f.flags & SCG_FILTER_FLAG_TSYNC_ESRCH) {
		flags |= SCG_FILTER_FLAG_TSYNC_ESRCH;
		status = in_child(child_tsync_blocked, &flags);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

static int child_strict(void *arg)
{
	int fd = *(int *)arg;
	if (scg_strict_enter() < 0)
		return 10;
	syscall(SYS_write, fd, "in", 2);
	syscall(SYS_getppid); /* not allowed in strict mode: SIGKILL */
	syscall(SYS_write, fd, "XX", 2);
	return 0;
}

static void test_strict_mode(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	/* the kernel refuses strict mode to a process that has filters */
	if (!feature_require("no-inherited-filter", "%s", __func__))
		skip();
	int p[2];
	assert_int_equal(pipe(p), 0);
	int status = in_child(child_strict, &p[1]);
	close(p[1]);
	char buf[8] = { 0 };
	assert_int_equal(read(p[0], buf, sizeof(buf)), 2);
	close(p[0]);
	assert_string_equal(buf, "in");
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
}

/* --- user notification, end to end ------------------------------------------- */

#define NOTIF_PATH "/syscage-test/no/such/dir"

static struct scg_prog notify_chdir_getppid(void)
{
	const struct scg_insn prog[] = {
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 4, scg_arch_audit(scg_arch_native()) },
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 },
		{ BPF_JMP | BPF_JEQ | BPF_K, 1, 0, SYS_chdir },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, SYS_getppid },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_USER_NOTIF },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW },
	};
	memcpy(insns, prog, sizeof(prog));
	return (struct scg_prog){ .insns = insns, .len = sizeof(prog) / sizeof(prog[0]) };
}

static int send_fd(int sock, int fd)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	memset(&control, 0, sizeof(control));
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static int child_notified(void *arg)
{
	int sock = *(int *)arg;
	struct scg_prog prog = notify_chdir_getppid();
	struct scg_install_result res;
	long parent = (long)getppid();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return 10;
	if (scg_filter_install(&prog, SCG_FILTER_FLAG_NEW_LISTENER, &res) < 0 || res.listener < 0)
		return 11;
	if (send_fd(sock, res.listener) < 0)
		return 12;
	close(res.listener);
	errno = 0;
	if (syscall(SYS_chdir, NOTIF_PATH) != -1 || errno != ENOTDIR)
		return 13; /* the supervisor read the path and answered ENOTDIR */
	if (syscall(SYS_getppid) != parent)
		return 14; /* CONTINUE: the real call ran */
	if (syscall(SYS_chdir, "/") != 42)
		return 15; /* a made-up return value */
	return 0;
}

struct notif_ctx {
	int calls;
	char path[64];
	bool id_valid_while_pending;
	pid_t child;
};

static int decide_test(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
		       void *arg)
{
	struct notif_ctx *ctx = arg;
	ctx->calls++;
	ctx->id_valid_while_pending = scg_notif_id_valid(listener, n->id) == 0;
	if ((pid_t)n->pid != ctx->child)
		return -EPROTO;
	if (n->data.nr == SYS_getppid) {
		resp->flags = SCG_NOTIF_FLAG_CONTINUE;
		return 0;
	}
	int mem = scg_notif_mem_open(listener, n);
	if (mem < 0)
		return mem;
	char buf[64];
	ssize_t len = scg_notif_read_string(listener, n, mem, n->data.args[0], buf, sizeof(buf));
	char head[5];
	ssize_t raw = scg_notif_read(listener, n, mem, n->data.args[0], head, sizeof(head));
	close(mem);
	if (len < 0)
		return (int)len;
	if (raw != (ssize_t)sizeof(head) || memcmp(head, buf, sizeof(head)))
		return -EPROTO;
	if (!strcmp(buf, NOTIF_PATH)) {
		memcpy(ctx->path, buf, sizeof(buf));
		resp->error = -ENOTDIR;
	} else {
		resp->val = 42;
	}
	return 0;
}

static void *reap(void *arg)
{
	struct notif_ctx *ctx = arg;
	static int status;
	while (waitpid(ctx->child, &status, 0) < 0 && errno == EINTR)
		;
	return &status;
}

static void test_notify_end_to_end(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	if (!feature_require("user-notif", "%s", __func__))
		skip();
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	alarm(30); /* a bug must not hang the suite */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		_exit(child_notified(&sv[1]));
	}
	close(sv[1]);
	int listener = recv_fd(sv[0]);
	close(sv[0]);
	assert_true(listener >= 0);
	struct notif_ctx ctx = { .child = pid };
	/* Reaping the child drops the filter's last user: the loop then ends (POLLHUP). */
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, reap, &ctx), 0);
	assert_int_equal(scg_notif_loop(listener, decide_test, &ctx), 0);
	void *ret;
	pthread_join(t, &ret);
	alarm(0);
	int status = *(int *)ret;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(ctx.calls, 3);
	assert_true(ctx.id_valid_while_pending);
	assert_string_equal(ctx.path, NOTIF_PATH);
	/* answered notifications are no longer valid */
	assert_int_equal(scg_notif_id_valid(listener, 12345), -ENOENT);
	close(listener);
}

/* Closing the listener answers pending notifications with ENOSYS. */
static int child_orphaned(void *arg)
{
	(void)arg;
	struct scg_prog prog = notify_chdir_getppid();
	struct scg_install_result res;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0)
		return 10;
	if (scg_filter_install(&prog, SCG_FILTER_FLAG_NEW_LISTENER, &res) < 0)
		return 11;
	close(res.listener);
	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != ENOSYS)
		return 12;
	return 0;
}

static void test_notify_without_listener(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	if (!feature_require("user-notif", "%s", __func__))
		skip();
	int status = in_child(child_orphaned, NULL);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * scg_measure_syscall(): the loop runs in a child under the filters, whose
 * verdict the result shows; a kill and a filter that does not load are
 * errors that say so, and the caller is untouched.
 */
static void test_measure_syscall(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	struct scg_measure_call call = { .nr = SYS_getppid };
	SCG_OPTS(scg_measure_opts, opts, .cpu = -1, .calls = 2000);
	struct scg_measure_result res;
	assert_int_equal(scg_measure_syscall(NULL, 0, &call, &opts, &res), 0);
	assert_int_equal(res.calls, 2000);
	assert_int_equal(res.result, getpid()); /* the child's parent: this process */
	assert_true(res.ns_per_call > 0);

	struct scg_prog errno5 = one_rule(SYS_getppid, SCG_RET_ERRNO | 5);
	assert_int_equal(scg_measure_syscall(&errno5, 1, &call, &opts, &res), 0);
	assert_int_equal(res.result, -5);
	assert_int_equal(getppid() > 0, 1); /* nothing was installed here */

	struct scg_prog kill = one_rule(SYS_getppid, SCG_RET_KILL_PROCESS);
	assert_true(scg_measure_syscall(&kill, 1, &call, &opts, &res) < 0);
	assert_non_null(strstr(res.error, "SIGSYS"));

	struct scg_insn bad_insn = { BPF_JMP | BPF_JA, 0, 0, 7 }; /* jumps past the end */
	struct scg_prog bad[2] = { one_rule(SYS_getppid, SCG_RET_ALLOW),
				   { .insns = &bad_insn, .len = 1 } };
	assert_true(scg_measure_syscall(bad, 2, &call, &opts, &res) < 0);
	assert_int_equal(res.failed_filter, 1);
	assert_non_null(strstr(res.error, "filter 2 did not load"));

	/* calibrated: a loop of about rep_ms */
	SCG_OPTS(scg_measure_opts, calibrated, .cpu = -1, .rep_ms = 2);
	assert_int_equal(scg_measure_syscall(NULL, 0, &call, &calibrated, &res), 0);
	assert_true(res.calls >= 1000);
	/* a struct that says it is larger, with bytes set past ours */
	struct { struct scg_measure_opts o; uint64_t extra; } big = { .o = opts, .extra = 1 };
	big.o.sz = sizeof(big);
	assert_int_equal(scg_measure_syscall(NULL, 0, &call, &big.o, &res), -EINVAL);
	assert_int_equal(scg_measure_syscall(NULL, 0, NULL, &opts, &res), -EINVAL);
}

/*
 * A loop far shorter than a scheduler tick: a running task's CPU time is
 * brought up to date only at ticks, so one read while the child runs can be
 * a tick behind (no time at all for the loop, or a tick's worth too much).
 */
static void test_measure_short_loop(void **state)
{
	(void)state;
	LIVE_OR_SKIP();
	struct scg_measure_call call = { .nr = SYS_getppid };
	SCG_OPTS(scg_measure_opts, opts, .cpu = -1, .calls = 2000);
	/* Short loops, where a tick-old CPU time once came out as a few ns or zero: each
	 * measurement succeeds with a positive figure.  How many get CPU time rather than
	 * the wall clock depends on the machine (an emulated one gets none), so it is not
	 * asserted: tests/cli/bench.sh checks the figures against the call with no filter. */
	for (int i = 0; i < 10; i++) {
		struct scg_measure_result res;
		assert_int_equal(scg_measure_syscall(NULL, 0, &call, &opts, &res), 0);
		assert_true(res.ns_per_call > 0);
		assert_int_equal(res.calls, 2000);
	}
}

static int wait_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		assert_int_equal(errno, EINTR);
	return status;
}

/* scg_spawn_held(): the child waits until released, then execs; a failed
 * exec comes back as its errno and a shell's status; abandoned, it exits 125. */
static void test_spawn_held(void **state)
{
	(void)state;
	char a0[] = "sh", a1[] = "-c", a2[] = "exit 7", m0[] = "no-such-program";
	char *const sh_argv[] = { a0, a1, a2, NULL };
	struct scg_held h;
	assert_int_equal(scg_spawn_held("/bin/sh", sh_argv, NULL, 0, &h), 0);
	assert_true(h.pid > 0);
	/* held: still this test's image, not sh */
	char path[64], comm[32] = { 0 };
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)h.pid);
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	assert_true(strcmp(comm, "sh\n") != 0);
	assert_int_equal(scg_held_release(&h), 0);
	assert_int_equal(scg_held_release(&h), -EINVAL); /* once */
	int status = wait_child(h.pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);

	char *const missing[] = { m0, NULL };
	assert_int_equal(scg_spawn_held("/nonexistent/no-such-program", missing, NULL, 0, &h), 0);
	assert_int_equal(scg_held_release(&h), -ENOENT);
	status = wait_child(h.pid);
	assert_int_equal(WEXITSTATUS(status), 127);

	assert_int_equal(scg_spawn_held("/bin/sh", sh_argv, NULL, 0, &h), 0);
	scg_held_abandon(&h);
	status = wait_child(h.pid);
	assert_int_equal(WEXITSTATUS(status), 125);

	assert_int_equal(scg_spawn_held("/bin/sh", sh_argv, NULL, 0x80, &h), -EINVAL);
	assert_int_equal(scg_spawn_held(NULL, sh_argv, NULL, 0, &h), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_install_falls_back_to_prctl),
		cmocka_unit_test(test_measure_syscall),
		cmocka_unit_test(test_measure_short_loop),
		cmocka_unit_test(test_spawn_held),
		cmocka_unit_test(test_install_tsync_tid_is_failure),
		cmocka_unit_test(test_install_rejects_bad_arguments),
		cmocka_unit_test(test_probe_simulated),
		cmocka_unit_test(test_probe_live),
		cmocka_unit_test(test_probe_ia32_live),
		cmocka_unit_test(test_install_live_flags),
		cmocka_unit_test(test_tsync_failure_live),
		cmocka_unit_test(test_strict_mode),
		cmocka_unit_test(test_notify_end_to_end),
		cmocka_unit_test(test_notify_without_listener),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
