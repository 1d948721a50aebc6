/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compiled policies against the running kernel: random policies for the
 * native ABI and its companions (x86_64, x86 through int $0x80, x32-tagged
 * numbers) are compiled, loaded into a forked child, and every call the
 * child makes must end the way scg_policy_eval() says.  Calls that the
 * policy lets run are only ever harmless ones (getppid, getuid, ... and
 * numbers no syscall has); everything else is made only when the verdict
 * stops it (ERRNO, TRAP, KILL, TRACE and USER_NOTIF without a tracer or
 * listener).
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

#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "support/features.h"
#include "support/live.h"
#include "support/polgen.h"
#include "support/progen.h"
#include "support/scale.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define X32 0x40000000U

struct call_kind {
	uint32_t nr;
	bool int80;
	bool harmless;  /* may run: its result is the same in any child */
	int64_t result; /* what it returns when it runs (measured once) */
};

/* Calls a child makes.  Harmless ones may be allowed; the others only when stopped. */
static struct call_kind calls[] = {
	{ 110, false, true, 0 },	    /* getppid */
	{ 102, false, true, 0 },	    /* getuid */
	{ 104, false, true, 0 },	    /* getgid */
	{ 107, false, true, 0 },	    /* geteuid */
	{ 108, false, true, 0 },	    /* getegid */
	{ 1000, false, true, 0 },	    /* no such syscall */
	{ 0x3fffffff, false, true, 0 },
	{ 0xffffffff, false, true, 0 }, /* -1: still x86_64 */
	{ 0x80000000, false, true, 0 },
	{ X32 | 110, false, true, 0 },  /* x32 getppid */
	{ X32 | 102, false, true, 0 },
	{ X32 | 1000, false, true, 0 },
	{ 64, true, true, 0 },		    /* i386 getppid */
	{ 199, true, true, 0 },	    /* i386 getuid32 */
	{ 200, true, true, 0 },	    /* i386 getgid32 */
	{ 2000, true, true, 0 },	    /* no such i386 syscall */
	{ 0xffffffff, true, true, 0 },
	{ 0, false, false, 0 },	    /* read */
	{ 1, false, false, 0 },	    /* write */
	{ 39, false, false, 0 },	    /* getpid: harmless, but its value differs per child */
	{ 62, false, false, 0 },	    /* kill */
	{ 257, false, false, 0 },	    /* openat */
	{ 16, false, false, 0 },	    /* ioctl */
	{ 20, true, false, 0 },	    /* i386 getpid */
	{ 5, true, false, 0 },		    /* i386 open */
	{ 102, true, false, 0 },	    /* i386 socketcall */
	{ X32 | 39, false, false, 0 },  /* x32 getpid */
	{ X32 | 0, false, false, 0 },
};

/* Syscall names rules use: those of the calls above, on every ABI. */
static const char *const rule_names[] = {
	"getppid", "getuid", "getgid", "geteuid", "getegid", "getuid32", "getgid32", "read",
	"write", "getpid", "kill", "openat", "ioctl", "open", "socketcall",
};

static const uint32_t actions[] = {
	SCG_RET_ALLOW, SCG_RET_ALLOW, SCG_RET_ERRNO | 1, SCG_RET_ERRNO | 0, SCG_RET_ERRNO | 4095,
	SCG_RET_ERRNO | 0xffff, SCG_RET_ERRNO | 38, SCG_RET_TRAP | 7, SCG_RET_TRAP,
	SCG_RET_KILL_PROCESS, SCG_RET_KILL_THREAD, SCG_RET_LOG, SCG_RET_TRACE | 3,
	SCG_RET_USER_NOTIF, 0x10000000 /* unknown action */, SCG_RET_ALLOW | 0x1234,
};

/* Cases left out for a missing feature, per test: printed as one skip line each. */
static size_t int80_skipped, notif_skipped;

/* The calls this kernel can make: int $0x80 needs 32-bit emulation. */
static bool kernel_can_make(const struct call_kind *ck)
{
	return !ck->int80 || feature_have("i386-emulation");
}

static void report_skips(const char *test)
{
	if (int80_skipped)
		feature_skip("i386-emulation", "%zu int $0x80 cases of %s", int80_skipped, test);
	if (notif_skipped)
		feature_skip("user-notif", "%zu USER_NOTIF verdicts of %s", notif_skipped, test);
	int80_skipped = notif_skipped = 0;
}

static int setup(void **state)
{
	(void)state;
	int live = live_require();
	if (live <= 0)
		return 0;
	struct scg_insn allow = { BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW };
	struct scg_prog prog = { &allow, 1 };
	for (size_t i = 0; i < N(calls); i++) {
		if (!calls[i].harmless || !kernel_can_make(&calls[i]))
			continue;
		struct live_call call = { .nr = calls[i].nr, .int80 = calls[i].int80 };
		struct live_outcome out;
		if (live_run(&prog, 1, &call, &out) != 0 || out.kind != LIVE_RETURNED)
			return -1;
		calls[i].result = out.retval;
	}
	return 0;
}

/* What the evaluator's verdict means for a process, in the emulator's terms. */
static void expected_outcome(uint32_t action, int64_t ran, struct live_outcome *out)
{
	struct scg_emu_result res = { .ret = action, .action = scg_action_of(action) };
	if (res.action == SCG_ACTION_ERRNO)
		res.data = (action & SCG_RET_DATA) > SCG_MAX_ERRNO ? SCG_MAX_ERRNO
								 : (uint16_t)(action & SCG_RET_DATA);
	else if (scg_action_has_data(res.action))
		res.data = (uint16_t)(action & SCG_RET_DATA);
	res.unknown_action = res.action == SCG_ACTION_UNKNOWN;
	live_expect(&res, ran, out);
}

static bool lets_run(uint32_t action)
{
	enum scg_action a = scg_action_of(action);
	return a == SCG_ACTION_ALLOW || a == SCG_ACTION_LOG;
}

static size_t cases_run;

/* Makes @call under @prog and compares with the verdict; false when the call is not safe to make. */
static bool run_case(const struct scg_policy *p, const struct scg_prog *prog,
		     const struct call_kind *ck, const uint64_t args[6])
{
	struct scg_seccomp_data d = {
		.nr = ck->nr,
		.arch = ck->int80 ? scg_arch_audit(scg_arch_lookup("x86")) : scg_arch_audit(scg_arch_lookup("x86_64")),
		.instruction_pointer = live_ip(ck->int80),
	};
	/* int $0x80 from a 64-bit process: the filter sees the full 64-bit registers */
	memcpy(d.args, args, sizeof(d.args));
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	if (lets_run(v.action) && !ck->harmless)
		return false;
	if (!kernel_can_make(ck)) {
		int80_skipped++;
		return false;
	}
	/* A kernel without user notification kills for the action it does not know. */
	if (scg_action_of(v.action) == SCG_ACTION_USER_NOTIF && !feature_have("user-notif")) {
		notif_skipped++;
		return false;
	}
	struct live_call call = { .nr = ck->nr, .int80 = ck->int80 };
	memcpy(call.args, d.args, sizeof(call.args));
	struct live_outcome got, want;
	assert_int_equal(live_run(prog, 1, &call, &got), 0);
	expected_outcome(v.action, ck->result, &want);
	if (!live_outcome_equal(&got, &want)) {
		char a[128], b[128];
		live_outcome_format(&got, a, sizeof(a));
		live_outcome_format(&want, b, sizeof(b));
		fprintf(stderr, "nr %#x%s args %#llx %#llx: kernel %s, verdict %#x means %s\n", ck->nr,
			ck->int80 ? " (int 0x80)" : "", (unsigned long long)d.args[0],
			(unsigned long long)d.args[1], a, v.action, b);
		fail();
	}
	cases_run++;
	return true;
}

static void pick_targets(struct progen_rng *rng, const struct scg_arch **list)
{
	static const char *const names[] = { "x86_64", "x86", "x32" };
	size_t n = 0;
	uint32_t order = progen_below(rng, 6), set = 1 + progen_below(rng, 7);
	for (size_t i = 0; i < 3; i++) {
		size_t k = (i + order) % 3;
		if (set & (1U << k))
			list[n++] = scg_arch_lookup(names[k]);
	}
	list[n] = NULL;
}

static void test_random_policies_live(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	struct progen_rng rng;
	progen_seed(&rng, 0x11fe);
	cases_run = 0;
	size_t policies = 0;
	size_t want = test_scaled(3000);
	while (cases_run < want) {
		const struct scg_arch *targets[4];
		pick_targets(&rng, targets);
		struct polgen_opts opts = { .max_rules = 10, .max_depth = 2, .arches = targets,
					    .actions = actions, .nactions = N(actions),
					    .syscalls = rule_names, .nsyscalls = N(rule_names) };
		struct scg_policy *p = polgen_policy(&rng, &opts);
		assert_non_null(p);
		struct scg_prog prog;
		struct scg_compile_options copts = { .optimize = policies % 4 ? 1 : 0 };
		assert_int_equal(scg_compile(p, &copts, &prog, NULL), 0);
		uint64_t values[6][48];
		size_t nvalues[6];
		for (unsigned a = 0; a < 6; a++)
			nvalues[a] = polgen_arg_values(p, a, values[a], 48);
		for (size_t k = 0; k < 12; k++) {
			const struct call_kind *ck = &calls[progen_below(&rng, N(calls))];
			uint64_t args[6];
			for (unsigned a = 0; a < 6; a++)
				args[a] = values[a][progen_below(&rng, (uint32_t)nvalues[a])];
			run_case(p, &prog, ck, args);
		}
		scg_prog_release(&prog);
		scg_policy_free(p);
		policies++;
	}
	fprintf(stderr, "%zu kernel cases over %zu policies\n", cases_run, policies);
	report_skips(__func__);
}

/* Every kind of call against one fixed policy that exercises each verdict source. */
static void test_fixed_policy_live(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	struct scg_policy *p = scg_policy_new();
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86")), 0);
	scg_policy_set_default(p, SCG_RET_ERRNO | 1);
	scg_policy_set_unknown(p, SCG_RET_ERRNO | 38);
	scg_policy_set_badarch(p, SCG_RET_TRAP | 9); /* x32 is not a target here */
	const char *allowed[] = { "getppid", "getuid", "getuid32" };
	for (size_t i = 0; i < N(allowed); i++) {
		struct scg_rule_spec spec = { .action = SCG_RET_ALLOW, .syscall = allowed[i],
					      .loc = SCG_LOC_NONE };
		/*
		 * getuid and getuid32 only while arg0 < 2^32 + 5 (64-bit, both halves).
		 * int $0x80 hands the filter zero-extended 32-bit registers, so the
		 * high half of an i386 argument is always 0 whatever the 64-bit
		 * register held.
		 */
		if (i >= 1)
			spec.cond = scg_expr_cmp(0, 64, SCG_CMP_LT, ~0ULL, 0x100000005ULL);
		assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	}
	for (unsigned o = 0; o < 2; o++) {
		struct scg_prog prog;
		struct scg_compile_options copts = { .optimize = o };
		assert_int_equal(scg_compile(p, &copts, &prog, NULL), 0);
		static const uint64_t arg0s[] = { 0, 0xffffffff, 0x100000004ULL, 0x100000005ULL,
						  0x1ffffffffULL, ~0ULL };
		for (size_t i = 0; i < N(calls); i++)
			for (size_t a = 0; a < N(arg0s); a++) {
				uint64_t args[6] = { arg0s[a] };
				run_case(p, &prog, &calls[i], args);
			}
		scg_prog_release(&prog);
	}
	scg_policy_free(p);
	report_skips(__func__);
}

/*
 * socket(2) reads its family as an int, the low half of the register.  The
 * built-in `default` must deny the families it denies whatever the upper
 * half holds: docker-default's 64-bit `arg0 > 0x28` let
 * socket(AF_VSOCK | 1 << 32, ...) make an AF_VSOCK socket.
 */
static void test_default_profile_socket_family_live(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_profile_load("default", NULL, &p, NULL), 0);
	struct scg_prog prog;
	assert_int_equal(scg_compile(p, NULL, &prog, NULL), 0);
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_native(), "socket", &nr), 0);
	static const uint64_t uppers[] = { 0, 1ULL << 32, 0xffffffff00000000ULL, 0x8000000000000000ULL };
	static const struct {
		uint64_t family, type;
		bool allowed;
	} cases[] = {
		{ 40, 1, false }, /* AF_VSOCK, SOCK_STREAM */
		{ 38, 5, false }, /* AF_ALG, SOCK_SEQPACKET */
		{ 1, 1, true },	  /* AF_UNIX, SOCK_STREAM */
	};
	for (size_t c = 0; c < N(cases); c++)
		for (size_t u = 0; u < N(uppers); u++) {
			struct live_call call = { .nr = nr,
						  .args = { cases[c].family | uppers[u], cases[c].type } };
			struct live_outcome out;
			assert_int_equal(live_run(&prog, 1, &call, &out), 0);
			bool denied = out.kind == LIVE_RETURNED && out.retval == -EPERM;
			bool made = out.kind == LIVE_RETURNED && out.retval >= 0;
			if (cases[c].allowed ? !made : !denied) {
				char text[128];
				live_outcome_format(&out, text, sizeof(text));
				fprintf(stderr, "socket(%#llx, %llu, 0) under default: %s, wanted %s\n",
					(unsigned long long)call.args[0],
					(unsigned long long)call.args[1], text,
					cases[c].allowed ? "a socket" : "EPERM");
				fail();
			}
		}
	scg_prog_release(&prog);
	scg_policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_profile_socket_family_live),
		cmocka_unit_test(test_fixed_policy_live),
		cmocka_unit_test(test_random_policies_live),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
