/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/live.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf/opcodes.h"
#include "arch/kernel_abi.h"

#define NR_SECCOMP_X86_64 317
#define SIGSYS_TRAP_CODE 1 /* SYS_SECCOMP */
#define LIVE_TIMEOUT_NS (3LL * 1000 * 1000 * 1000)

struct sock_fprog_raw {
	unsigned short len;
	const struct scg_insn *filter;
};

/*
 * Raw system call entry points with every argument register set from @args,
 * so the filter sees exactly the values the test chose.  The labels after
 * the trapping instructions give the instruction pointer the kernel reports.
 */
long live_syscall64(uint64_t nr, const uint64_t *args);
long live_syscall32(uint64_t nr, const uint64_t *args);
extern const char live_syscall64_ret[];
extern const char live_syscall32_ret[];

__asm__(".text\n"
	".globl live_syscall64\n"
	".type live_syscall64,@function\n"
	"live_syscall64:\n"
	"  mov %rdi, %rax\n"
	"  mov %rsi, %r11\n"
	"  mov 0(%r11), %rdi\n"
	"  mov 8(%r11), %rsi\n"
	"  mov 16(%r11), %rdx\n"
	"  mov 24(%r11), %r10\n"
	"  mov 32(%r11), %r8\n"
	"  mov 40(%r11), %r9\n"
	"  syscall\n"
	".globl live_syscall64_ret\n"
	"live_syscall64_ret:\n"
	"  ret\n"
	".globl live_syscall32\n"
	".type live_syscall32,@function\n"
	"live_syscall32:\n"
	"  push %rbx\n"
	"  push %rbp\n"
	"  mov %rdi, %rax\n"
	"  mov %rsi, %r11\n"
	"  mov 0(%r11), %rbx\n"
	"  mov 8(%r11), %rcx\n"
	"  mov 16(%r11), %rdx\n"
	"  mov 24(%r11), %rsi\n"
	"  mov 32(%r11), %rdi\n"
	"  mov 40(%r11), %rbp\n"
	"  int $0x80\n"
	".globl live_syscall32_ret\n"
	"live_syscall32_ret:\n"
	"  pop %rbp\n"
	"  pop %rbx\n"
	"  ret\n");

uint64_t live_ip(bool int80)
{
	return (uint64_t)(uintptr_t)(int80 ? live_syscall32_ret : live_syscall64_ret);
}

/* What the child reports, in memory shared with the parent. */
enum shared_state { ST_NONE, ST_RETURNED, ST_TRAPPED, ST_LOAD_FAILED, ST_THREAD_GONE, ST_SETUP_FAILED };

struct live_shared {
	volatile int state;
	volatile size_t loaded;
	volatile int load_errno;
	volatile int64_t retval;
	volatile int trap_errno;
	volatile int trap_syscall;
	volatile uint32_t trap_arch;
};

static struct live_shared *shared_page(void)
{
	static struct live_shared *page;
	if (!page) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		page = p;
	}
	memset((void *)page, 0, sizeof(*page));
	return page;
}

/*
 * Once filtered, a thread may not be allowed any syscall, and nothing it calls
 * may be declared noreturn: under AddressSanitizer every call to a noreturn
 * function (_exit, abort, a noreturn helper) first calls sigaltstack(); when a
 * filter denies that, the sanitizer's CHECK fails and it spins in its own exit
 * path, which exit_group() denied too.  So these two are plain functions, and
 * the volatile flag keeps the compiler from deducing that they never return.
 */
static volatile int never;

/* Spins without syscalls. */
static void spin_forever(void)
{
	while (!never)
		__asm__ volatile("pause");
}

/* Ends the child whatever its filters allow: exit_group, exit, else SIGILL (default action). */
static void __attribute__((noinline)) child_exit(int status)
{
	syscall(SYS_exit_group, status);
	syscall(SYS_exit, status);
	while (!never)
		__asm__ volatile("ud2");
}

/* Installs one filter through the raw stub, tagging the call with the cookie. */
static long install_filter(const struct scg_prog *prog, unsigned flags)
{
	struct sock_fprog_raw fprog = { (unsigned short)prog->len, prog->insns };
	uint64_t args[6] = { SCG_SECCOMP_SET_MODE_FILTER, flags, (uint64_t)(uintptr_t)&fprog, 0, 0,
			     LIVE_STACK_COOKIE };
	return live_syscall64(NR_SECCOMP_X86_64, args);
}

static bool install_all(struct live_shared *sh, const struct scg_prog *progs, size_t n,
			unsigned flags)
{
	for (size_t i = 0; i < n; i++) {
		long r = install_filter(&progs[i], flags);
		if (r != 0) {
			sh->load_errno = r < 0 ? (int)-r : EINVAL;
			return false;
		}
		sh->loaded = i + 1;
	}
	return true;
}

/*
 * A filter may turn the child's exit into a crash (ERRNO/ENOSYS on
 * exit_group ends in SIGSEGV, TRAP in SIGSYS).  A test framework's crash
 * handlers, inherited through fork(), would then resume the test suite
 * inside the child, which shares the result page with the parent.
 */
static void restore_default_crash_signals(void)
{
	static const int crash_signals[] = { SIGSEGV, SIGSYS, SIGILL, SIGBUS, SIGFPE, SIGABRT };
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		signal(crash_signals[i], SIG_DFL);
}

size_t live_load(const struct scg_prog *progs, size_t n, unsigned flags, int *err)
{
	struct live_shared *sh = shared_page();
	*err = 0;
	if (!sh) {
		*err = errno;
		return 0;
	}
	pid_t pid = fork();
	if (pid < 0) {
		*err = errno;
		return 0;
	}
	if (pid == 0) {
		restore_default_crash_signals();
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
			child_exit(3);
		install_all(sh, progs, n, flags);
		child_exit(0); /* may itself be filtered; the parent reads shared memory */
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*err = sh->loaded == n ? 0 : sh->load_errno;
	return sh->loaded;
}

/* --- running one call under filters ------------------------------------ */

struct run_ctx {
	struct live_shared *sh;
	const struct scg_prog *progs;
	size_t n;
	const struct live_call *call;
};

static struct live_shared *trap_target;

static void on_sigsys(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)uctx;
	if (info->si_code == SIGSYS_TRAP_CODE) {
		trap_target->trap_errno = info->si_errno;
		trap_target->trap_syscall = info->si_syscall;
		trap_target->trap_arch = info->si_arch;
		trap_target->state = ST_TRAPPED;
	}
	spin_forever(); /* returning would need rt_sigreturn, which the filter may deny */
}

static void *filtered_thread(void *arg)
{
	struct run_ctx *ctx = arg;
	if (!install_all(ctx->sh, ctx->progs, ctx->n, 0)) {
		ctx->sh->state = ST_LOAD_FAILED;
		spin_forever();
		return NULL; /* not reached */
	}
	long r = ctx->call->int80 ? live_syscall32(ctx->call->nr, ctx->call->args)
				  : live_syscall64(ctx->call->nr, ctx->call->args);
	ctx->sh->retval = ctx->call->int80 ? (int64_t)(int32_t)r : (int64_t)r;
	ctx->sh->state = ST_RETURNED;
	spin_forever();
	return NULL; /* not reached */
}

/*
 * The CPU time this child has had, its threads together: what the deadline
 * below counts, not the clock on the wall.  On a loaded machine (a test run
 * at a low priority beside a busy one) a child can wait seconds for a CPU,
 * and a wall-clock deadline then reads that wait as a filter that never
 * answered.  The main thread spins while it waits, so a call that really
 * blocks still reaches the deadline.
 */
static int64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * Once done, the filtered thread spins (it may not make syscalls).  Sharing a
 * CPU with the child's main thread, it would hold that CPU for a whole time
 * slice before the main thread notices the result (~4 ms a call); so the
 * main thread stays on its current CPU and the filtered thread gets the
 * others, when there are others.
 */
static void keep_threads_apart(pthread_attr_t *attr)
{
	cpu_set_t all, mine, others;
	int me = sched_getcpu();
	if (me < 0 || sched_getaffinity(0, sizeof(all), &all) != 0)
		return;
	CPU_ZERO(&mine);
	CPU_SET(me, &mine);
	CPU_XOR(&others, &all, &mine);
	if (!CPU_ISSET(me, &all) || CPU_COUNT(&others) == 0)
		return;
	if (pthread_attr_setaffinity_np(attr, sizeof(others), &others) == 0)
		sched_setaffinity(0, sizeof(mine), &mine);
}

static void __attribute__((noreturn)) child_run(struct run_ctx *ctx)
{
	struct live_shared *sh = ctx->sh;
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	trap_target = sh;
	pthread_t thread;
	pthread_attr_t attr;
	if (pthread_attr_init(&attr) != 0) {
		sh->state = ST_SETUP_FAILED;
		child_exit(3);
	}
	keep_threads_apart(&attr);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || sigaction(SIGSYS, &sa, NULL) != 0 ||
	    pthread_create(&thread, &attr, filtered_thread, ctx) != 0) {
		sh->state = ST_SETUP_FAILED;
		child_exit(3);
	}
	int64_t deadline = cpu_ns() + LIVE_TIMEOUT_NS;
	while (sh->state == ST_NONE && cpu_ns() < deadline) {
		if (pthread_tryjoin_np(thread, NULL) == 0) {
			if (sh->state == ST_NONE)
				sh->state = ST_THREAD_GONE;
			break;
		}
		sched_yield();
	}
	child_exit(0);
	abort(); /* not reached */
}

static void outcome_from_child(const struct live_shared *sh, int status, struct live_outcome *out)
{
	memset(out, 0, sizeof(*out));
	switch (sh->state) {
	case ST_TRAPPED:
		out->kind = LIVE_TRAPPED;
		out->trap_errno = sh->trap_errno;
		out->trap_syscall = sh->trap_syscall;
		out->trap_arch = sh->trap_arch;
		return;
	case ST_RETURNED:
		out->kind = LIVE_RETURNED;
		out->retval = sh->retval;
		return;
	case ST_LOAD_FAILED:
		out->kind = LIVE_LOAD_FAILED;
		out->load_errno = sh->load_errno;
		return;
	case ST_THREAD_GONE:
		out->kind = LIVE_THREAD_KILLED;
		return;
	case ST_SETUP_FAILED:
		out->kind = LIVE_HARNESS_ERROR;
		return;
	default:
		break;
	}
	if (WIFSIGNALED(status)) {
		out->kind = LIVE_PROCESS_KILLED;
		out->signo = WTERMSIG(status);
	} else {
		out->kind = LIVE_TIMEOUT;
	}
}

int live_run(const struct scg_prog *progs, size_t n, const struct live_call *call,
	     struct live_outcome *out)
{
	struct live_shared *sh = shared_page();
	if (!sh)
		return -errno;
	struct run_ctx ctx = { sh, progs, n, call };
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child_run(&ctx);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	outcome_from_child(sh, status, out);
	return 0;
}

bool live_seccomp_available(void)
{
	struct scg_insn allow = { BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW };
	struct scg_prog prog = { &allow, 1 };
	int err;
	return live_load(&prog, 1, 0, &err) == 1;
}

int live_require(void)
{
	if (live_seccomp_available())
		return 1;
	const char *ci = getenv("CI");
	const char *must = getenv("SYSCAGE_LIVE");
	bool required = (ci && *ci) || (must && !strcmp(must, "1"));
	if (required) {
		fprintf(stderr, "FAIL: this kernel refused a trivial seccomp filter; live tests "
				"are required here (CI or SYSCAGE_LIVE=1)\n");
		return -1;
	}
	/* the line the test summary counts, naming what is missing */
	fflush(stderr);
	printf("SKIP: seccomp: live tests (this kernel refused a trivial filter; "
	       "SYSCAGE_LIVE=1 makes this fatal)\n");
	fflush(stdout);
	return 0;
}

void live_expect(const struct scg_emu_result *res, int64_t ran_retval, struct live_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = LIVE_RETURNED;
	if (res->never_filtered) {
		out->retval = ran_retval;
		return;
	}
	switch (res->action) {
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_LOG:
		out->retval = ran_retval;
		return;
	case SCG_ACTION_ERRNO:
		out->retval = -(int64_t)res->data;
		return;
	case SCG_ACTION_TRACE:
	case SCG_ACTION_USER_NOTIF:
		out->retval = -ENOSYS; /* no tracer, no listener */
		return;
	case SCG_ACTION_TRAP:
		out->kind = LIVE_TRAPPED;
		out->trap_errno = res->data;
		return;
	case SCG_ACTION_KILL_THREAD:
		out->kind = LIVE_THREAD_KILLED;
		return;
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_UNKNOWN:
		out->kind = LIVE_PROCESS_KILLED;
		out->signo = SIGSYS;
		return;
	}
}

bool live_outcome_equal(const struct live_outcome *a, const struct live_outcome *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LIVE_RETURNED:
		return a->retval == b->retval;
	case LIVE_TRAPPED:
		return a->trap_errno == b->trap_errno;
	case LIVE_PROCESS_KILLED:
		return a->signo == b->signo;
	case LIVE_LOAD_FAILED:
		return a->load_errno == b->load_errno;
	case LIVE_THREAD_KILLED:
	case LIVE_TIMEOUT:
	case LIVE_HARNESS_ERROR:
		return true;
	}
	return false;
}

void live_outcome_format(const struct live_outcome *o, char *buf, size_t size)
{
	switch (o->kind) {
	case LIVE_RETURNED:
		snprintf(buf, size, "RETURNED(%lld)", (long long)o->retval);
		return;
	case LIVE_TRAPPED:
		snprintf(buf, size, "TRAPPED(errno=%d, syscall=%d, arch=%#x)", o->trap_errno,
			 o->trap_syscall, o->trap_arch);
		return;
	case LIVE_THREAD_KILLED:
		snprintf(buf, size, "THREAD_KILLED");
		return;
	case LIVE_PROCESS_KILLED:
		snprintf(buf, size, "PROCESS_KILLED(signal %d)", o->signo);
		return;
	case LIVE_LOAD_FAILED:
		snprintf(buf, size, "LOAD_FAILED(errno %d)", o->load_errno);
		return;
	case LIVE_TIMEOUT:
		snprintf(buf, size, "TIMEOUT");
		return;
	case LIVE_HARNESS_ERROR:
		snprintf(buf, size, "HARNESS_ERROR");
		return;
	}
}

int live_wrap_for_stacking(const struct scg_prog *prog, struct scg_prog *out)
{
	if (prog->len + LIVE_GUARD_LEN > SCG_BPF_MAXINSNS)
		return -E2BIG;
	const struct scg_insn guard[LIVE_GUARD_LEN] = {
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, SCG_DATA_ARCH },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0xc000003eU },
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, SCG_DATA_NR },
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 3, NR_SECCOMP_X86_64 },
		{ BPF_LD | BPF_W | BPF_ABS, 0, 0, SCG_DATA_ARGS + 8 * 5 }, /* arg5, low word (LE) */
		{ BPF_JMP | BPF_JEQ | BPF_K, 0, 1, LIVE_STACK_COOKIE },
		{ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW },
		{ BPF_LD | BPF_IMM, 0, 0, 0 }, /* the program expects A == 0 */
	};
	struct scg_insn *insns = malloc((prog->len + LIVE_GUARD_LEN) * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	memcpy(insns, guard, sizeof(guard));
	memcpy(insns + LIVE_GUARD_LEN, prog->insns, prog->len * sizeof(*insns));
	out->insns = insns;
	out->len = prog->len + LIVE_GUARD_LEN;
	return 0;
}
