/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_fuse(): one filter for a stack.
 *
 *  - the kernel's precedence, written out here independently of the
 *    emulator: every pair of actions (and data), older and newer, and the
 *    three-ERRNO tie of kernel-semantics.md D2 (11, 13, 12 -> 12);
 *  - random stacks of random policies, decompiled and chained: scg_fuse()
 *    proves each itself, and the emulator is asked again on sampled inputs;
 *  - stacks the policy language cannot describe are chained;
 *  - USER_NOTIF filters are counted;
 *  - live: the stack installed in one child, the fused filter in another,
 *    the same calls with various arguments in each, the same outcome.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/analysis.h>
#include <syscage/syscage.h>

#include "support/diag_print.h"
#include "support/live.h"
#include "support/polgen.h"
#include "support/progen.h"

#define AUDIT_X86_64 0xc000003eU
#define NR_GETPID 39U

/* A filter for x86_64 returning @k for getpid and ALLOW for the rest. */
static struct scg_prog getpid_filter(uint32_t k)
{
	char text[256];
	snprintf(text, sizeof(text),
		 "ld [arch]\njeq #0x%x, ok\nret KILL_PROCESS\nok: ld [nr]\njeq #%u, hit\n"
		 "ret ALLOW\nhit: ret #0x%x\n",
		 AUDIT_X86_64, NR_GETPID, k);
	struct scg_prog p = { 0 };
	SCG_OPTS(scg_asm_options, ao, .arch = scg_arch_lookup("x86_64"));
	assert_int_equal(scg_asm(text, strlen(text), &ao, &p, NULL), 0);
	return p;
}

/* The kernel's rule, spelled out: smallest (s32)(ret & 0xffff0000) wins, newest on a tie. */
static uint32_t expected_winner(const uint32_t *rets, size_t n)
{
	uint32_t best = rets[n - 1];
	for (size_t i = n - 1; i-- > 0;)
		if ((int32_t)(rets[i] & 0xffff0000U) < (int32_t)(best & 0xffff0000U))
			best = rets[i];
	return best;
}

static uint32_t run_one(const struct scg_prog *p, uint32_t arch, uint32_t nr, const uint64_t *args)
{
	struct scg_seccomp_data d = { .nr = nr, .arch = arch };
	if (args)
		memcpy(d.args, args, sizeof(d.args));
	uint32_t ret = 0;
	assert_int_equal(scg_emu_run(p, &d, &ret, NULL, NULL, NULL), 0);
	return ret;
}

static void fuse_ok(const struct scg_prog *progs, size_t n, bool chain,
		    struct scg_fuse_result *res)
{
	struct scg_diag *diag = scg_diag_new();
	SCG_OPTS(scg_fuse_options, fo, .force_chain = chain);
	int r = scg_fuse(progs, n, &fo, res, diag);
	if (r != 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	assert_true(res->prog.len > 0);
	if (chain)
		assert_true(res->chained);
	scg_diag_free(diag);
}

static const uint32_t actions[] = {
	SCG_RET_KILL_PROCESS,	  SCG_RET_KILL_THREAD,	    SCG_RET_TRAP | 3,	  SCG_RET_TRAP | 5,
	SCG_RET_ERRNO | 11,	  SCG_RET_ERRNO | 12,	    SCG_RET_ERRNO | 5000, SCG_RET_USER_NOTIF,
	SCG_RET_TRACE | 7,	  SCG_RET_TRACE | 8,	    SCG_RET_LOG,	  SCG_RET_ALLOW,
	0x10000000U /* unknown: ranks between ERRNO and USER_NOTIF, then kills */,
};
#define NACTIONS (sizeof(actions) / sizeof(actions[0]))

/* Every ordered pair of actions, both ways of fusing. */
static void test_precedence_pairs(void **state)
{
	(void)state;
	for (int chain = 0; chain < 2; chain++)
		for (size_t a = 0; a < NACTIONS; a++)
			for (size_t b = 0; b < NACTIONS; b++) {
				struct scg_prog st[2] = { getpid_filter(actions[a]),
							  getpid_filter(actions[b]) };
				struct scg_fuse_result res;
				fuse_ok(st, 2, chain, &res);
				uint32_t rets[2] = { actions[a], actions[b] };
				uint32_t want = expected_winner(rets, 2);
				uint32_t got = run_one(&res.prog, AUDIT_X86_64, NR_GETPID, NULL);
				if (!scg_verdict_same(want, got, false))
					fail_msg("older 0x%08x, newer 0x%08x (%s): want 0x%08x, got 0x%08x",
						 actions[a], actions[b], chain ? "chained" : "decompiled",
						 want, got);
				assert_int_equal(run_one(&res.prog, AUDIT_X86_64, 0, NULL), SCG_RET_ALLOW);
				scg_fuse_result_release(&res);
				scg_prog_release(&st[0]);
				scg_prog_release(&st[1]);
			}
}

/* kernel-semantics.md D2: ERRNO 11, 13, 12 installed in that order -> errno 12. */
static void test_errno_tie_newest_wins(void **state)
{
	(void)state;
	for (int chain = 0; chain < 2; chain++) {
		struct scg_prog st[3] = { getpid_filter(SCG_RET_ERRNO | 11),
					  getpid_filter(SCG_RET_ERRNO | 13),
					  getpid_filter(SCG_RET_ERRNO | 12) };
		struct scg_fuse_result res;
		fuse_ok(st, 3, chain, &res);
		assert_int_equal(run_one(&res.prog, AUDIT_X86_64, NR_GETPID, NULL),
				 SCG_RET_ERRNO | 12);
		scg_fuse_result_release(&res);
		for (int i = 0; i < 3; i++)
			scg_prog_release(&st[i]);
	}
}

/* A filter that tests no ABI cannot be a policy: it is chained, and still proven. */
static void test_no_arch_check_is_chained(void **state)
{
	(void)state;
	static const char older[] = "ld [nr]\njeq #39, deny\nret ALLOW\ndeny: ret ERRNO(2)\n";
	static const char newer[] = "ld [nr]\njeq #39, deny\nret ALLOW\ndeny: ret ERRNO(1)\n";
	struct scg_prog st[2] = { { 0 }, { 0 } };
	SCG_OPTS(scg_asm_options, ao, .arch = scg_arch_lookup("x86_64"));
	assert_int_equal(scg_asm(older, strlen(older), &ao, &st[0], NULL), 0);
	assert_int_equal(scg_asm(newer, strlen(newer), &ao, &st[1], NULL), 0);
	struct scg_fuse_result res;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_fuse(st, 2, NULL, &res, diag), 0);
	assert_true(res.chained);
	assert_null(res.policy);
	/* the note says why */
	assert_true(test_diag_has(diag, "fuse-chained"));
	/* the newest wins the ERRNO tie, on every ABI alike */
	assert_int_equal(run_one(&res.prog, AUDIT_X86_64, 39, NULL), SCG_RET_ERRNO | 1);
	assert_int_equal(run_one(&res.prog, 0x40000003U, 39, NULL), SCG_RET_ERRNO | 1);
	assert_int_equal(run_one(&res.prog, 0x40000003U, 40, NULL), SCG_RET_ALLOW);
	scg_fuse_result_release(&res);
	scg_diag_free(diag);
	scg_prog_release(&st[0]);
	scg_prog_release(&st[1]);
}

static void test_notify_counted(void **state)
{
	(void)state;
	struct scg_prog st[3] = { getpid_filter(SCG_RET_USER_NOTIF), getpid_filter(SCG_RET_ALLOW),
				  getpid_filter(SCG_RET_USER_NOTIF) };
	struct scg_fuse_result res;
	fuse_ok(st, 3, false, &res);
	/* both return USER_NOTIF for getpid, the newest one's listener gets it */
	assert_int_equal(res.notify_filters, 1);
	scg_fuse_result_release(&res);
	scg_prog_release(&st[2]);
	st[2] = getpid_filter(SCG_RET_ERRNO | 1);
	fuse_ok(st, 3, false, &res);
	assert_int_equal(res.notify_filters, 0);
	scg_fuse_result_release(&res);
	for (int i = 0; i < 3; i++)
		scg_prog_release(&st[i]);
}

static void test_empty_and_invalid(void **state)
{
	(void)state;
	struct scg_fuse_result res;
	assert_int_equal(scg_fuse(NULL, 0, NULL, &res, NULL), -EINVAL);
	struct scg_insn bad = { 0x06 /* ret */ | 0x08 /* bad rval bits */, 0, 0, 0 };
	struct scg_prog p = { &bad, 1 };
	assert_true(scg_fuse(&p, 1, NULL, &res, NULL) < 0);
	assert_int_equal(res.prog.len, 0);
}

/* Random stacks of random policies: fused both ways, each proven by scg_fuse(), then sampled. */
static void test_random_stacks(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0xf05e);
	const char *depth = getenv("SYSCAGE_TEST_DEPTH");
	size_t rounds = depth && !strcmp(depth, "nightly") ? 400 : 60;
	size_t chained = 0;
	for (size_t round = 0; round < rounds; round++) {
		size_t n = 2 + progen_below(&rng, 3);
		struct scg_prog st[4] = { 0 };
		struct scg_policy *pols[4] = { 0 };
		struct polgen_opts po = { .max_rules = 10, .max_depth = 2 };
		for (size_t i = 0; i < n; i++) {
			for (;;) {
				pols[i] = polgen_policy(&rng, &po);
				assert_non_null(pols[i]);
				if (scg_compile(pols[i], NULL, &st[i], NULL) == 0)
					break;
				scg_policy_free(pols[i]);
			}
		}
		for (int chain = 0; chain < 2; chain++) {
			struct scg_fuse_result res;
			struct scg_diag *diag = scg_diag_new();
			SCG_OPTS(scg_fuse_options, fo, .force_chain = chain);
			int r = scg_fuse(st, n, &fo, &res, diag);
			if (r == -E2BIG && chain) { /* chained stacks of big filters may not fit */
				scg_diag_free(diag);
				continue;
			}
			if (r != 0)
				test_print_diag(diag);
			assert_int_equal(r, 0);
			chained += res.chained;
			/* sample: each policy's ABIs, syscalls near the rules, interesting arguments */
			for (size_t k = 0; k < 200; k++) {
				const struct scg_policy *pol = pols[progen_below(&rng, (uint32_t)n)];
				size_t na = scg_policy_arch_count(pol);
				const struct scg_arch *arch = scg_policy_arch_at(pol, progen_below(&rng, (uint32_t)na));
				struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
				size_t nrules = scg_policy_rule_count(pol);
				uint32_t nr = progen_below(&rng, 500);
				if (nrules && progen_below(&rng, 4)) {
					uint32_t first, last;
					if (scg_policy_rule_range(pol, progen_below(&rng, (uint32_t)nrules), arch,
								  &first, &last) == 0)
						nr = first + (last > first ? progen_below(&rng, 2) : 0);
				}
				d.nr = nr;
				for (unsigned a = 0; a < 6; a++) {
					uint64_t vals[64];
					size_t nv = polgen_arg_values(pol, a, vals, 64);
					d.args[a] = nv ? vals[progen_below(&rng, (uint32_t)nv)]
						       : progen_interesting64(&rng);
				}
				struct scg_emu_result want;
				assert_int_equal(scg_emu_stack(st, n, &d, &want, NULL, NULL, NULL), 0);
				if (want.never_filtered)
					continue;
				uint32_t got = 0;
				assert_int_equal(scg_emu_run(&res.prog, &d, &got, NULL, NULL, NULL), 0);
				if (!scg_verdict_same(want.ret, got, false))
					fail_msg("round %zu (%s): arch 0x%x nr %u: stack 0x%08x, fused 0x%08x",
						 round, chain ? "chained" : "decompiled", d.arch, d.nr,
						 want.ret, got);
			}
			scg_fuse_result_release(&res);
			scg_diag_free(diag);
		}
		for (size_t i = 0; i < n; i++) {
			scg_prog_release(&st[i]);
			scg_policy_free(pols[i]);
		}
	}
	assert_true(chained >= rounds / 2);
}

/* --- live: the kernel runs the stack and the fused filter ----------------------- */

static const char *const live_policies[] = {
	"arch x86_64\ndefault allow\nerrno(EPERM) mount, umount2\nkill reboot\n"
	"errno(EACCES) openat if (flags & O_CREAT) != 0\nerrno(EPERM) personality\n",

	"arch x86_64\ndefault allow\nerrno(EIO) mount\ntrap(3) reboot\ntrap(4) uname\n"
	"errno(ENOENT) openat if (flags & O_TRUNC) != 0\n"
	"allow socket if domain == AF_UNIX\nerrno(EAFNOSUPPORT) socket\n",

	"arch x86_64\ndefault allow\nlog getppid\nerrno(ENOTDIR) openat if (flags & O_DIRECTORY) != 0\n"
	"errno(EINVAL) personality if persona != 0xffffffff\ntrace(7) mkdirat\nnotify chdir\n"
	"errno(ESRCH) kill if pid == 0\n",

	"arch x86_64\ndefault allow\nerrno(EXDEV) umount2\nerrno(EPERM) socket if domain == AF_INET6\n"
	"kill-thread close if fd == 1000\nerrno(E2BIG) uname\nerrno(ELOOP) openat if dirfd == 7\n",
};
#define NLIVE (sizeof(live_policies) / sizeof(live_policies[0]))

struct call_case {
	const char *name;
	uint64_t args[6];
};

/* Harmless however they are decided: bad pointers, bad descriptors, bad magic. */
static const struct call_case live_calls[] = {
	{ "getuid", { 0 } },
	{ "getppid", { 0 } },
	{ "uname", { 0 } },
	{ "close", { 1000 } },
	{ "close", { 1001 } },
	{ "openat", { 7, 0, 0 } },
	{ "openat", { 7, 0, 0x40 /* O_CREAT */ } },
	{ "openat", { 5, 0, 0x200 /* O_TRUNC */ } },
	{ "openat", { 5, 0, 0x240 } },
	{ "openat", { 5, 0, 0x10000 /* O_DIRECTORY */ } },
	{ "openat", { 5, 0, 0x10240 } },
	{ "socket", { 1 /* AF_UNIX */, 0xdead, 0 } },
	{ "socket", { 2 /* AF_INET */, 0xdead, 0 } },
	{ "socket", { 10 /* AF_INET6 */, 0xdead, 0 } },
	{ "mount", { 0 } },
	{ "umount2", { 0 } },
	{ "reboot", { 0 } },
	{ "personality", { 0xffffffff } },
	{ "personality", { 0x12345678 } },
	{ "mkdirat", { (uint64_t)-1, 0 } },
	{ "chdir", { 0 } },
	{ "kill", { 0, 0 } },
	{ "kill", { 0x7ffffff0, 0 } },
};
#define NCALLS (sizeof(live_calls) / sizeof(live_calls[0]))

static struct scg_prog compile_text(const char *text)
{
	struct scg_policy *pol = NULL;
	struct scg_diag *diag = scg_diag_new();
	int r = scg_policy_parse(text, strlen(text), NULL, &pol, diag);
	if (r)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	struct scg_prog p = { 0 };
	assert_int_equal(scg_compile(pol, NULL, &p, diag), 0);
	scg_policy_free(pol);
	scg_diag_free(diag);
	return p;
}

static void live_compare(const struct scg_prog *st, size_t n, const struct scg_prog *fused,
			 const char *what)
{
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	struct scg_prog wrapped[NLIVE];
	for (size_t i = 0; i < n; i++)
		assert_int_equal(live_wrap_for_stacking(&st[i], &wrapped[i]), 0);
	for (size_t c = 0; c < NCALLS; c++) {
		struct live_call call = { 0 };
		assert_int_equal(scg_syscall_lookup(x86_64, live_calls[c].name, &call.nr), 0);
		memcpy(call.args, live_calls[c].args, sizeof(call.args));
		struct live_outcome a, b;
		assert_int_equal(live_run(wrapped, n, &call, &a), 0);
		assert_int_equal(live_run(fused, 1, &call, &b), 0);
		char sa[96], sb[96];
		live_outcome_format(&a, sa, sizeof(sa));
		live_outcome_format(&b, sb, sizeof(sb));
		if (!live_outcome_equal(&a, &b))
			fail_msg("%s: %s(0x%llx, 0x%llx, 0x%llx): stack %s, fused %s", what,
				 live_calls[c].name, (unsigned long long)call.args[0],
				 (unsigned long long)call.args[1], (unsigned long long)call.args[2],
				 sa, sb);
	}
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&wrapped[i]);
}

static void test_live_stack_vs_fused(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	struct scg_prog st[NLIVE];
	for (size_t i = 0; i < NLIVE; i++)
		st[i] = compile_text(live_policies[i]);
	/* every prefix of the stack, and the stack in reverse order */
	for (size_t n = 1; n <= NLIVE; n++)
		for (int chain = 0; chain < 2; chain++) {
			struct scg_fuse_result res;
			fuse_ok(st, n, chain, &res);
			char what[64];
			snprintf(what, sizeof(what), "%zu filters, %s", n,
				 chain ? "chained" : "decompiled");
			live_compare(st, n, &res.prog, what);
			scg_fuse_result_release(&res);
		}
	struct scg_prog rev[NLIVE];
	for (size_t i = 0; i < NLIVE; i++)
		rev[i] = st[NLIVE - 1 - i];
	struct scg_fuse_result res;
	fuse_ok(rev, NLIVE, false, &res);
	live_compare(rev, NLIVE, &res.prog, "reversed");
	scg_fuse_result_release(&res);
	for (size_t i = 0; i < NLIVE; i++)
		scg_prog_release(&st[i]);
}

/* The ERRNO tie against the kernel itself: 11, 13, 12 -> 12, stack and fused alike. */
static void test_live_errno_tie(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	struct scg_prog st[3] = { getpid_filter(SCG_RET_ERRNO | 11),
				  getpid_filter(SCG_RET_ERRNO | 13),
				  getpid_filter(SCG_RET_ERRNO | 12) };
	struct scg_fuse_result res;
	fuse_ok(st, 3, false, &res);
	struct scg_prog wrapped[3];
	for (int i = 0; i < 3; i++)
		assert_int_equal(live_wrap_for_stacking(&st[i], &wrapped[i]), 0);
	struct live_call call = { .nr = NR_GETPID };
	struct live_outcome a, b;
	assert_int_equal(live_run(wrapped, 3, &call, &a), 0);
	assert_int_equal(live_run(&res.prog, 1, &call, &b), 0);
	assert_int_equal(a.kind, LIVE_RETURNED);
	assert_int_equal(a.retval, -12);
	assert_true(live_outcome_equal(&a, &b));
	scg_fuse_result_release(&res);
	for (int i = 0; i < 3; i++) {
		scg_prog_release(&st[i]);
		scg_prog_release(&wrapped[i]);
	}
}

static struct scg_prog asm_x86_64(const char *text)
{
	struct scg_prog p = { 0 };
	SCG_OPTS(scg_asm_options, ao, .arch = scg_arch_lookup("x86_64"));
	assert_int_equal(scg_asm(text, strlen(text), &ao, &p, NULL), 0);
	return p;
}

/*
 * Two KILL_PROCESS values tie, and the newer filter's wins with its data, as
 * in the kernel, also where the newer one computed its value and the older
 * one returns a constant, which nothing can outrank.
 */
static void test_chain_kill_tie_keeps_newer_value(void **state)
{
	(void)state;
	struct scg_prog st[2] = {
		asm_x86_64("ret #0x80003053\n"),
		asm_x86_64("ld [nr]\njeq #getpid, kill\nret ALLOW\nkill: ld #0x80000016\nret a\n"),
	};
	struct scg_fuse_result res;
	fuse_ok(st, 2, true, &res);
	assert_int_equal(run_one(&res.prog, AUDIT_X86_64, NR_GETPID, NULL), 0x80000016U);
	assert_int_equal(run_one(&res.prog, AUDIT_X86_64, 0, NULL), 0x80003053U);
	scg_fuse_result_release(&res);
	for (int i = 0; i < 2; i++)
		scg_prog_release(&st[i]);
}

/* The newest filter starts with A == 0 in a chain too: it may test A before loading it. */
static void test_chain_starts_with_a_zero(void **state)
{
	(void)state;
	struct scg_prog st[2] = {
		asm_x86_64("ret LOG\n"),
		asm_x86_64("jeq #0, zero\nret ERRNO(1)\nzero: ret ALLOW\n"),
	};
	struct scg_fuse_result res;
	fuse_ok(st, 2, true, &res);
	assert_int_equal(run_one(&res.prog, AUDIT_X86_64, NR_GETPID, NULL), SCG_RET_LOG);
	scg_fuse_result_release(&res);
	for (int i = 0; i < 2; i++)
		scg_prog_release(&st[i]);
}

/*
 * A newer filter's exit by a zero divisor (KILL_THREAD) does not end the
 * stack: the older filter's KILL_PROCESS still wins, in the kernel and in
 * the fused filter, decompiled or chained.  The call is made from a second
 * thread, so the harness tells a dead thread from a dead process.
 */
static void test_live_div_zero_kill_process(void **state)
{
	(void)state;
	struct scg_prog st[2] = {
		getpid_filter(SCG_RET_KILL_PROCESS),
		asm_x86_64("ld [nr]\njeq #getpid, dz\nret ALLOW\ndz: div x\nret ALLOW\n"),
	};
	for (int chain = 0; chain < 2; chain++) {
		struct scg_fuse_result res;
		fuse_ok(st, 2, chain, &res);
		assert_int_equal(run_one(&res.prog, AUDIT_X86_64, NR_GETPID, NULL),
				 SCG_RET_KILL_PROCESS);
		assert_int_equal(run_one(&res.prog, AUDIT_X86_64, 0, NULL), SCG_RET_ALLOW);
		int live = live_require();
		assert_true(live >= 0);
		if (live) {
			struct scg_prog wrapped[2];
			for (int i = 0; i < 2; i++)
				assert_int_equal(live_wrap_for_stacking(&st[i], &wrapped[i]), 0);
			struct live_call call = { .nr = NR_GETPID };
			struct live_outcome a, b;
			assert_int_equal(live_run(wrapped, 2, &call, &a), 0);
			assert_int_equal(live_run(&res.prog, 1, &call, &b), 0);
			char sa[96], sb[96];
			live_outcome_format(&a, sa, sizeof(sa));
			live_outcome_format(&b, sb, sizeof(sb));
			if (a.kind != LIVE_PROCESS_KILLED || !live_outcome_equal(&a, &b))
				fail_msg("%s: stack %s, fused %s", chain ? "chained" : "decompiled",
					 sa, sb);
			for (int i = 0; i < 2; i++)
				scg_prog_release(&wrapped[i]);
		}
		scg_fuse_result_release(&res);
	}
	for (int i = 0; i < 2; i++)
		scg_prog_release(&st[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence_pairs),
		cmocka_unit_test(test_errno_tie_newest_wins),
		cmocka_unit_test(test_chain_kill_tie_keeps_newer_value),
		cmocka_unit_test(test_no_arch_check_is_chained),
		cmocka_unit_test(test_notify_counted),
		cmocka_unit_test(test_empty_and_invalid),
		cmocka_unit_test(test_random_stacks),
		cmocka_unit_test(test_live_stack_vs_fused),
		cmocka_unit_test(test_live_errno_tie),
		cmocka_unit_test(test_live_div_zero_kill_process),
		cmocka_unit_test(test_chain_starts_with_a_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
