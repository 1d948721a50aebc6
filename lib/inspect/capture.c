/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Catching the filter a program is about to install, without letting it
 * take effect: the program runs traced under a small filter of ours that
 * makes seccomp() and prctl() ptrace stops; at the first real install the
 * fprog is read from its memory and every process is killed before the
 * syscall can run (a SIGKILL during a seccomp stop skips the syscall).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <syscage/arch.h>
#include <syscage/inspect.h>
#include <syscage/runtime.h>

#include "bpf/opcodes.h"
#include "inspect/internal.h"
#include "util/grow.h"

#define MAX_TRACE_NRS 16

/* --- the launcher's filter ------------------------------------------- */

static size_t add_nr(uint32_t *nrs, size_t n, uint32_t nr)
{
	for (size_t i = 0; i < n; i++)
		if (nrs[i] == nr)
			return n;
	if (n < MAX_TRACE_NRS)
		nrs[n++] = nr;
	return n;
}

static size_t add_abi(uint32_t *nrs, size_t n, const struct scg_arch *arch)
{
	uint32_t nr;
	if (scg_syscall_lookup(arch, "seccomp", &nr) == 0)
		n = add_nr(nrs, n, nr | scg_arch_nr_flags(arch));
	if (scg_syscall_lookup(arch, "prctl", &nr) == 0)
		n = add_nr(nrs, n, nr | scg_arch_nr_flags(arch));
	return n;
}

/*
 * TRACE for the numbers of seccomp and prctl on every ABI this machine can
 * enter the kernel with, ALLOW for everything else.  The numbers are not
 * paired with their ABI: a stop for some other ABI's syscall of the same
 * number costs a round trip, and the tracer checks (arch, nr) itself.
 */
static void build_trace_filter(struct scg_insn *insns, unsigned short *len)
{
	uint32_t nrs[MAX_TRACE_NRS];
	size_t n = 0;
	n = add_nr(nrs, n, (uint32_t)SYS_seccomp);
	n = add_nr(nrs, n, (uint32_t)SYS_prctl);
	const struct scg_arch *native = scg_arch_native();
	if (native) {
		const struct scg_arch *comp[8];
		size_t nc = scg_arch_companions(native, comp, 8);
		n = add_abi(nrs, n, native);
		for (size_t i = 0; i < nc && i < 8; i++)
			n = add_abi(nrs, n, comp[i]);
	}
	size_t k = 0;
	insns[k++] = (struct scg_insn){ BPF_LD | BPF_W | BPF_ABS, 0, 0, 0 }; /* A = nr */
	for (size_t i = 0; i < n; i++) /* equal: jump over the rest and ret ALLOW */
		insns[k++] = (struct scg_insn){ BPF_JMP | BPF_JEQ | BPF_K, (uint8_t)(n - i), 0,
						nrs[i] };
	insns[k++] = (struct scg_insn){ BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW };
	insns[k++] = (struct scg_insn){ BPF_RET | BPF_K, 0, 0, SCG_RET_TRACE };
	*len = (unsigned short)k;
}

/* --- the traced child -------------------------------------------------- */

enum { STAGE_SETUP = 1, STAGE_FILTER = 2, STAGE_EXEC = 3 };

static _Noreturn void child_fail(int fd, int stage)
{
	int msg[2] = { stage, errno };
	ssize_t w = write(fd, msg, sizeof(msg));
	(void)w;
	_exit(127);
}

static _Noreturn void child_run(char *const argv[], int errfd, const struct scg_prog *prog)
{
	/* If the tracer dies, so does the program: it must never run untraced. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		child_fail(errfd, STAGE_SETUP);
	raise(SIGSTOP);
	int r = scg_filter_install(prog, 0, NULL);
	/* without CAP_SYS_ADMIN the kernel wants NO_NEW_PRIVS first */
	if (r == -EACCES && prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL) == 0)
		r = scg_filter_install(prog, 0, NULL);
	if (r < 0) {
		errno = -r;
		child_fail(errfd, STAGE_FILTER);
	}
	execvp(argv[0], argv);
	child_fail(errfd, STAGE_EXEC);
}

/* --- the tracer ------------------------------------------------------- */

struct tracee {
	pid_t pid;
	bool started; /* its initial SIGSTOP has been seen */
};

struct tracer {
	struct tracee *list;
	size_t n, cap;
	pid_t first;
	int first_status;
	uint64_t deadline;
	long own_mode; /* PR_GET_SECCOMP of the caller: what the program is told */
	struct scg_diag *diag;
};

static struct tracee *find_tracee(struct tracer *t, pid_t pid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->list[i].pid == pid)
			return &t->list[i];
	return NULL;
}

static struct tracee *add_tracee(struct tracer *t, pid_t pid)
{
	struct tracee *e = find_tracee(t, pid);
	if (e)
		return e;
	if (GROW_ARRAY(&t->list, &t->cap, t->n + 1, 8))
		return NULL;
	t->list[t->n] = (struct tracee){ pid, false };
	return &t->list[t->n++];
}

static void drop_tracee(struct tracer *t, pid_t pid)
{
	struct tracee *e = find_tracee(t, pid);
	if (e)
		*e = t->list[--t->n];
}

/* Waits for any tracee, without reaping children of the caller we do not own. */
static pid_t wait_any(struct tracer *t, int *status)
{
	for (unsigned spins = 0;; spins++) {
		for (size_t i = 0; i < t->n; i++) {
			pid_t r = waitpid(t->list[i].pid, status, __WALL | WNOHANG);
			if (r > 0)
				return r;
			if (r < 0 && errno == ECHILD) /* reaped with its thread group */
				t->list[i--] = t->list[--t->n];
		}
		if (t->n == 0)
			return -ECHILD;
		if (inspect_now_ms() >= t->deadline)
			return -ETIMEDOUT;
		struct timespec nap = { 0, spins < 200 ? 50000L : 1000000L };
		nanosleep(&nap, NULL);
	}
}

/*
 * SIGKILLs every tracee and reaps them (bounded).  Any order: a thread-group
 * leader is only reported once its other threads are gone.
 */
static void kill_all(struct tracer *t)
{
	for (size_t i = 0; i < t->n; i++)
		kill(t->list[i].pid, SIGKILL);
	t->deadline = inspect_now_ms() + 5000;
	while (t->n > 0) {
		int status;
		pid_t pid = wait_any(t, &status);
		if (pid < 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			drop_tracee(t, pid);
	}
	t->n = 0;
}

/* Reads @len bytes at @addr in @pid: process_vm_readv, else /proc/PID/mem. */
static int read_tracee(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0 || errno == EFAULT)
		return -EFAULT;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, (off_t)addr);
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err == -EIO || (n >= 0 && n != (ssize_t)len))
		return -EFAULT;
	return err;
}

/*
 * Reads the struct sock_fprog at @addr and the instructions it points to.
 * The layout follows the ABI of the call: {u16 len; pointer} with a 4- or
 * 8-byte pointer.  -EFAULT or -EINVAL mean the kernel would refuse too.
 */
static int read_fprog(pid_t pid, uint64_t addr, unsigned bits, struct scg_prog *out)
{
	unsigned char hdr[16];
	uint16_t len;
	uint64_t filter;
	if (!addr)
		return -EFAULT;
	int r = read_tracee(pid, addr, hdr, bits == 64 ? 16 : 8);
	if (r < 0)
		return r;
	memcpy(&len, hdr, sizeof(len));
	if (bits == 64) {
		memcpy(&filter, hdr + 8, sizeof(filter));
	} else {
		uint32_t f32;
		memcpy(&f32, hdr + 4, sizeof(f32));
		filter = f32;
	}
	if (len == 0 || len > SCG_BPF_MAXINSNS)
		return -EINVAL;
	struct scg_insn *insns = malloc(len * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	r = read_tracee(pid, filter, insns, len * sizeof(*insns));
	if (r < 0) {
		free(insns);
		return r;
	}
	out->insns = insns;
	out->len = len;
	return 0;
}

static bool is_syscall(const struct scg_arch *arch, const char *name, uint64_t nr)
{
	uint32_t want;
	if (scg_syscall_lookup(arch, name, &want) < 0)
		return false;
	return (want | scg_arch_nr_flags(arch)) == (uint32_t)nr;
}

/*
 * Makes the syscall @pid is stopped in return @value without running: at a
 * seccomp stop a syscall number of -1 skips the call, and the return
 * register keeps what the tracer wrote (seccomp(2), SECCOMP_RET_TRACE).
 * -ENOTSUP where this file does not know the registers: the call then runs.
 */
static int answer_syscall(pid_t pid, long value)
{
#if defined(__x86_64__)
	/* the same registers for x86_64, x32 and int $0x80 calls */
	if (ptrace(PTRACE_POKEUSER, pid, (void *)offsetof(struct user, regs.orig_rax),
		   (void *)-1L) < 0 ||
	    ptrace(PTRACE_POKEUSER, pid, (void *)offsetof(struct user, regs.rax), (void *)value) < 0)
		return -errno;
	return 0;
#else
	(void)pid;
	(void)value;
	return -ENOTSUP;
#endif
}

/*
 * Decides what a seccomp stop is: 1 with @out filled (a filter or strict
 * mode, so the program is to be killed), 0 to let the call run, -errno.
 * prctl(PR_GET_SECCOMP) is answered with @own_mode, the mode the program
 * would be in without the tracing filter (the tracer's, which it inherits).
 */
static int examine_stop(pid_t pid, long own_mode, struct scg_capture *out)
{
	struct syscall_info info;
	memset(&info, 0, sizeof(info));
	if (ptrace((enum __ptrace_request)SCG_PTRACE_GET_SYSCALL_INFO, pid,
		   (void *)sizeof(info), &info) < 0)
		return errno == ESRCH ? 0 : -errno; /* killed meanwhile: its exit follows */
	if (info.op != SCG_PTRACE_SYSCALL_INFO_SECCOMP)
		return 0;
	const struct scg_arch *arch = scg_arch_from_audit(info.arch, (uint32_t)info.nr);
	if (!arch)
		return 0;
	uint64_t mode, addr;
	if (is_syscall(arch, "prctl", info.nr) && (uint32_t)info.args[0] == SCG_PR_GET_SECCOMP) {
		int r = answer_syscall(pid, own_mode);
		return r == -ESRCH || r == -ENOTSUP ? 0 : r;
	}
	if (is_syscall(arch, "seccomp", info.nr)) {
		out->call = SCG_CAPTURE_SECCOMP;
		out->flags = (unsigned long)info.args[1];
		/* the prctl() mode numbering: 1 strict, 2 filter, 0 for other operations */
		mode = info.args[0] == SCG_SECCOMP_SET_MODE_FILTER ? SCG_MODE_FILTER
		     : info.args[0] == SCG_SECCOMP_SET_MODE_STRICT ? SCG_MODE_STRICT : 0;
	} else if (is_syscall(arch, "prctl", info.nr) && (uint32_t)info.args[0] == SCG_PR_SET_SECCOMP) {
		out->call = SCG_CAPTURE_PRCTL;
		out->flags = 0;
		mode = (uint32_t)info.args[1];
	} else {
		return 0;
	}
	addr = info.args[2];
	if (scg_arch_bits(arch) == 32)
		addr = (uint32_t)addr;
	out->pid = pid;
	out->audit_arch = info.arch;
	out->nr = (uint32_t)info.nr;
	/* seccomp(SECCOMP_SET_MODE_STRICT) with flags or arguments fails with
	 * EINVAL: libseccomp makes that call to learn that seccomp() exists. */
	if (mode == 1 && out->call == SCG_CAPTURE_SECCOMP && (info.args[1] || addr))
		return 0;
	if (mode == 1) {
		out->outcome = SCG_CAPTURE_STRICT;
		return 1;
	}
	if (mode != 2)
		return 0;
	int r = read_fprog(pid, addr, scg_arch_bits(arch), &out->prog);
	if (r == -EFAULT || r == -EINVAL)
		return 0; /* the kernel refuses this call by itself: nothing gets installed */
	if (r < 0)
		return r;
	out->outcome = SCG_CAPTURE_FILTER;
	return 1;
}

static void note_exit(struct tracer *t, pid_t pid, int status)
{
	if (pid == t->first)
		t->first_status = status;
	drop_tracee(t, pid);
}

/* Resumes @pid after a ptrace event; a new process or thread joins the list. */
static int handle_event(struct tracer *t, pid_t pid, int event)
{
	if (event == SCG_PTRACE_EVENT_FORK || event == SCG_PTRACE_EVENT_VFORK ||
	    event == SCG_PTRACE_EVENT_CLONE) {
		unsigned long child = 0;
		if (ptrace(PTRACE_GETEVENTMSG, pid, NULL, &child) == 0 && child &&
		    !add_tracee(t, (pid_t)child))
			return -ENOMEM;
	}
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	return 0;
}

/* A signal-delivery stop: a new tracee's first SIGSTOP is swallowed, the rest delivered. */
static int handle_signal(struct tracer *t, pid_t pid, int sig)
{
	struct tracee *e = find_tracee(t, pid);
	if (!e && !(e = add_tracee(t, pid)))
		return -ENOMEM;
	if (!e->started && sig == SIGSTOP) {
		e->started = true;
		sig = 0;
	}
	e->started = true;
	ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	return 0;
}

/* One wait result.  1: done (captured), 0: keep going, -errno. */
static int step(struct tracer *t, pid_t pid, int status, struct scg_capture *out)
{
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		note_exit(t, pid, status);
		return 0;
	}
	if (!WIFSTOPPED(status))
		return 0;
	int event = status >> 16;
	if (event == SCG_PTRACE_EVENT_SECCOMP) {
		int r = examine_stop(pid, t->own_mode, out);
		if (r != 0)
			return r;
		ptrace(PTRACE_CONT, pid, NULL, NULL);
		return 0;
	}
	if (event != 0)
		return handle_event(t, pid, event);
	return handle_signal(t, pid, WSTOPSIG(status));
}

/* The launcher stops itself once; the options take effect from then on. */
static int start_tracing(struct tracer *t)
{
	int status;
	pid_t r = inspect_wait(t->first, &status, t->deadline);
	if (r < 0)
		return (int)r;
	if (!WIFSTOPPED(status)) {
		note_exit(t, t->first, status);
		return 0;
	}
	long opts = SCG_PTRACE_O_TRACESECCOMP | SCG_PTRACE_O_TRACEFORK | SCG_PTRACE_O_TRACEVFORK |
		    SCG_PTRACE_O_TRACECLONE | SCG_PTRACE_O_TRACEEXEC | SCG_PTRACE_O_EXITKILL;
	if (ptrace(PTRACE_SETOPTIONS, t->first, NULL, (void *)opts) < 0)
		return -errno;
	t->list[0].started = true;
	ptrace(PTRACE_CONT, t->first, NULL, NULL);
	return 0;
}

static int trace_loop(struct tracer *t, struct scg_capture *out)
{
	int r = start_tracing(t);
	while (r == 0 && t->n > 0) {
		int status;
		pid_t pid = wait_any(t, &status);
		if (pid == -ECHILD)
			break;
		if (pid < 0)
			return (int)pid;
		r = step(t, pid, status, out);
	}
	return r;
}

/* What the launcher wrote before exiting 127, if anything: -errno with a diagnostic. */
static int launch_error(int fd, const char *argv0, struct scg_diag *diag)
{
	int msg[2];
	ssize_t n = read(fd, msg, sizeof(msg));
	if (n != (ssize_t)sizeof(msg))
		return 0;
	static const char what[][34] = {"", "cannot start tracing",
					"cannot install the tracing filter", "cannot run"};
	int stage = msg[0] >= STAGE_SETUP && msg[0] <= STAGE_EXEC ? msg[0] : STAGE_EXEC;
	scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "capture-launch", NULL, "%s '%s': %s",
		     what[stage], argv0, strerror(msg[1]));
	return msg[1] ? -msg[1] : -EIO;
}

static int finish(struct tracer *t, int r, int errfd, char *const argv[], struct scg_capture *out)
{
	kill_all(t);
	if (r == 0 && out->outcome == SCG_CAPTURE_EXITED) {
		int lr = launch_error(errfd, argv[0], t->diag);
		if (lr < 0)
			r = lr;
		out->exit_status = t->first_status;
	}
	if (r == -ETIMEDOUT)
		scg_diag_add(t->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "capture-timeout", NULL,
			     "'%s' neither installed a filter nor exited in time; killed it", argv[0]);
	else if (r < 0 && r != -ENOENT && r != -EACCES && scg_diag_count(t->diag) == 0)
		scg_diag_add(t->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "capture", NULL,
			     "tracing '%s': %s", argv[0], strerror(-r));
	if (r < 0)
		scg_prog_release(&out->prog);
	return r;
}

int scg_inspect_capture(char *const argv[], unsigned timeout_ms, struct scg_capture *out,
			struct scg_diag *diag)
{
	if (!argv || !argv[0] || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->outcome = SCG_CAPTURE_EXITED;
	struct scg_insn insns[MAX_TRACE_NRS + 3];
	unsigned short len;
	build_trace_filter(insns, &len);
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	long own_mode = prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L);
	struct tracer t = { .deadline = inspect_now_ms() + timeout_ms,
			    .own_mode = own_mode > 0 ? own_mode : 0,
			    .diag = diag };
	pid_t pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		struct scg_prog trace = { insns, len };
		child_run(argv, pipefd[1], &trace);
	}
	close(pipefd[1]);
	if (pid < 0) {
		int err = -errno;
		close(pipefd[0]);
		return err;
	}
	t.first = pid;
	int r = add_tracee(&t, pid) ? trace_loop(&t, out) : -ENOMEM;
	if (r > 0)
		r = 0;
	r = finish(&t, r, pipefd[0], argv, out);
	close(pipefd[0]);
	free(t.list);
	return r;
}
