/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Asking the running kernel: load filters and make syscalls in forked
 * children, and report what happened.  The test process itself is never
 * filtered.
 *
 * Live tests never skip silently: when seccomp is unusable, live_require()
 * fails the test (in CI, or when SYSCAGE_LIVE=1) or prints a loud SKIP.
 */
#ifndef SCG_TESTS_LIVE_H
#define SCG_TESTS_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

/* True when this kernel accepts a trivial filter in a child. */
bool live_seccomp_available(void);
/*
 * 1: live tests can run.  0: they cannot and may be skipped (a loud SKIP
 * line is printed; call cmocka's skip()).  -1: they cannot but must run here
 * (CI is set, or SYSCAGE_LIVE=1): the caller fails the test.
 * Use: int live = live_require(); assert_true(live >= 0); if (!live) skip();
 */
int live_require(void);

/*
 * Loads @n programs in order in a fresh child (NO_NEW_PRIVS set, plain
 * seccomp(SECCOMP_SET_MODE_FILTER) with @flags).  Returns how many loaded;
 * *@err is the errno of the first refusal (0 if all loaded).  Each install
 * is itself a syscall seen by the filters already installed; see
 * live_wrap_for_stacking().
 */
size_t live_load(const struct scg_prog *progs, size_t n, unsigned flags, int *err);

/* Instruction pointer a filter sees for calls made by live_run(). */
uint64_t live_ip(bool int80);

enum live_kind {
	LIVE_RETURNED,       /* the syscall returned @retval (possibly -errno) */
	LIVE_TRAPPED,        /* SIGSYS from SECCOMP_RET_TRAP: trap_* fields set */
	LIVE_THREAD_KILLED,  /* the calling thread died, the process lived on */
	LIVE_PROCESS_KILLED, /* the whole process died by signal @signo */
	LIVE_LOAD_FAILED,    /* a filter did not load: @load_errno */
	LIVE_TIMEOUT,        /* nothing happened in 3 s of the child's CPU time (a bug somewhere) */
	LIVE_HARNESS_ERROR,  /* the child could not set up */
};

struct live_outcome {
	enum live_kind kind;
	int64_t retval;
	int signo;
	int load_errno;
	int trap_errno;    /* si_errno: the TRAP data */
	int trap_syscall;  /* si_syscall */
	uint32_t trap_arch;
};

struct live_call {
	uint32_t nr;
	uint64_t args[6];
	bool int80; /* enter through int $0x80 (i386 ABI) instead of syscall */
};

/*
 * Installs @n filters (oldest first) in a fresh thread of a fresh child, then
 * makes @call from that thread, and reports the outcome.  The thread is the
 * only filtered one, so KILL_THREAD and KILL_PROCESS are told apart.
 * Returns 0, or -errno if the harness itself failed.
 */
int live_run(const struct scg_prog *progs, size_t n, const struct live_call *call,
	     struct live_outcome *out);

/*
 * What the process observes for an emulated result: the expected outcome of
 * live_run() with no tracer and no listener.  @ran_retval is what the call
 * returns when it actually runs (known to the caller for harmless calls).
 */
void live_expect(const struct scg_emu_result *res, int64_t ran_retval, struct live_outcome *out);
bool live_outcome_equal(const struct live_outcome *a, const struct live_outcome *b);
/* "RETURNED(-1)", "TRAPPED(errno=3)", ... for failure messages. */
void live_outcome_format(const struct live_outcome *o, char *buf, size_t size);

/*
 * For stacks: a copy of @prog preceded by a guard that returns ALLOW for the
 * harness's own seccomp() call (x86_64 nr 317 with arg5 = LIVE_STACK_COOKIE),
 * then resets A and runs @prog unchanged.  The guard never matches the calls
 * tests make, so the wrapped program decides exactly as @prog does for them.
 * @prog must be at most 4096 - LIVE_GUARD_LEN instructions.
 */
#define LIVE_STACK_COOKIE 0x5ec0c0deU
#define LIVE_GUARD_LEN 8U
int live_wrap_for_stacking(const struct scg_prog *prog, struct scg_prog *out);

#endif
