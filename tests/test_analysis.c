/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The analysis engine: word sets, the partition of random policies' filters
 * checked point by point against the reference evaluator and the emulator,
 * equivalence proofs (-O0 against -O1), and differences of mutated filters
 * confirmed by the emulator; merging where paths meet, bounded by the
 * engine's work counters, and budgets that stop a walk with the undecided
 * inputs reported.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/analysis.h>
#include <syscage/syscage.h>

#include "analysis/smt.h"
#include "analysis/wordset.h"
#include "bpf/opcodes.h"
#include "support/diag_print.h"
#include "support/polgen.h"
#include "support/progen.h"

#define I(c, t, f, kk) ((struct scg_insn){ (uint16_t)(c), (uint8_t)(t), (uint8_t)(f), (uint32_t)(kk) })

/* --- word sets ---------------------------------------------------------- */

static void test_min_fixed(void **state)
{
	(void)state;
	uint32_t x;
	assert_true(wset_min_fixed(0, UINT32_MAX, 0, 0, &x));
	assert_int_equal(x, 0);
	assert_true(wset_min_fixed(5, UINT32_MAX, 0x1, 0, &x));
	assert_int_equal(x, 6);
	assert_true(wset_min_fixed(0x13, UINT32_MAX, 0x10, 0, &x));
	assert_int_equal(x, 0x20);
	assert_false(wset_min_fixed(0x13, 0x1f, 0x10, 0, &x));
	assert_true(wset_min_fixed(0, UINT32_MAX, 0xf0, 0x30, &x));
	assert_int_equal(x, 0x30);
	assert_false(wset_min_fixed(0xfffffff0, UINT32_MAX, 0x80000000, 0, &x));
	/* brute force against the definition on small values */
	for (uint32_t known = 0; known < 16; known++)
		for (uint32_t val = 0; val < 16; val++)
			for (uint32_t lo = 0; lo < 20; lo++) {
				uint32_t want = 0;
				bool any = false;
				for (uint32_t v = lo; v < 64 && !any; v++)
					if ((v & known) == (val & known))
						want = v, any = true;
				bool got = wset_min_fixed(lo, 63, known, val, &x);
				assert_int_equal(got, any);
				if (any)
					assert_int_equal(x, want);
			}
}

static void test_wset_ops(void **state)
{
	(void)state;
	struct wset ws;
	uint32_t x;
	assert_int_equal(wset_init_full(&ws), 0);
	assert_true(wset_is_full(&ws));
	assert_int_equal(wset_remove(&ws, 0, 9), 0);
	assert_int_equal(wset_exclude(&ws, 0x3, 0x2), 0);
	assert_int_equal(wset_fix_bits(&ws, 0x10, 0), 0);
	assert_int_equal(wset_next(&ws, 0, &x), 1);
	assert_int_equal(x, 11); /* 10 matches (x & 3) == 2 */
	assert_false(wset_contains(&ws, 10));
	assert_true(wset_contains(&ws, 12));
	assert_false(wset_contains(&ws, 0x1c));
	assert_int_equal(wset_intersect(&ws, 0, 12), 0);
	assert_int_equal(wset_exclude(&ws, 0xf, 11), 0);
	assert_int_equal(wset_exclude(&ws, 0xf, 12), 0);
	assert_int_equal(wset_next(&ws, 0, &x), 0);
	wset_release(&ws);
	/* many excluded patterns on one value: still exact */
	assert_int_equal(wset_init_full(&ws), 0);
	for (uint32_t b = 0; b < 8; b++)
		assert_int_equal(wset_exclude(&ws, 1U << b | 1U << (b + 1), 0), 0);
	assert_int_equal(wset_intersect(&ws, 0, 0x1ff), 0);
	for (uint32_t v = 0; v < 0x200; v++) {
		bool ok = true;
		for (uint32_t b = 0; b < 8; b++)
			ok &= (v & (1U << b | 1U << (b + 1))) != 0;
		assert_int_equal(wset_contains(&ws, v), ok);
	}
	assert_int_equal(wset_next(&ws, 0, &x), 1);
	assert_int_equal(x, 0xaa);
	wset_release(&ws);
}

/* Runs of members, against membership value by value, on random small sets. */
static void test_wset_run_end(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	for (int round = 0; round < 400; round++) {
		struct wset ws;
		assert_int_equal(wset_init_full(&ws), 0);
		seed = seed * 1103515245U + 12345U;
		uint32_t lo = (seed >> 8) & 0x3f, hi = lo + ((seed >> 16) & 0xff);
		assert_int_equal(wset_intersect(&ws, lo, hi), 0);
		if (round % 3 == 0)
			assert_int_equal(wset_remove(&ws, lo + 5, lo + 9), 0);
		seed = seed * 1103515245U + 12345U;
		if (round % 2)
			assert_int_equal(wset_fix_bits(&ws, (seed >> 4) & 0x30, (seed >> 12) & 0x30), 0);
		for (int e = 0; e < round % 4; e++) {
			seed = seed * 1103515245U + 12345U;
			assert_int_equal(wset_exclude(&ws, (seed >> 3) & 0xcc, (seed >> 11) & 0xcc), 0);
		}
		for (uint32_t x = 0; x < 0x200; x++) {
			if (!wset_contains(&ws, x))
				continue;
			uint32_t end = wset_run_end(&ws, x);
			assert_true(end >= x);
			for (uint32_t v = x; v <= end; v++)
				assert_true(wset_contains(&ws, v));
			/* and it is the whole run (these sets have no adjacent intervals) */
			assert_false(wset_contains(&ws, end + 1));
		}
		wset_release(&ws);
	}
	/* long runs cost nothing: bit 30 fixed, x86_64's numbers */
	struct wset ws;
	assert_int_equal(wset_init_full(&ws), 0);
	assert_int_equal(wset_fix_bits(&ws, 0x40000000, 0), 0);
	assert_int_equal(wset_run_end(&ws, 0), 0x3fffffff);
	assert_int_equal(wset_run_end(&ws, 0x80000000), 0xbfffffff);
	assert_int_equal(wset_remove(&ws, 100, 100), 0);
	assert_int_equal(wset_run_end(&ws, 0), 99);
	assert_int_equal(wset_run_end(&ws, 101), 0x3fffffff);
	wset_release(&ws);
}

/* --- partitions checked against the emulator and the policy evaluator ----- */

struct check_ctx {
	const struct scg_prog *prog;
	const struct scg_policy *policy;
	bool effect_only;
	size_t regions;
	uint32_t verdicts_seen;
};

static int check_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
			uint32_t winner)
{
	struct check_ctx *c = ctx;
	assert_int_equal(rets[0], winner);
	struct scg_seccomp_data d;
	assert_int_equal(scg_region_example(region, &d), 0);
	uint32_t words[SCG_DATA_WORDS];
	assert_int_equal(scg_region_example_words(region, words), 0);
	assert_true(scg_region_contains(region, words));
	uint32_t ret;
	assert_int_equal(scg_emu_run(c->prog, &d, &ret, NULL, NULL, NULL), 0);
	assert_int_equal(ret, winner);
	if (c->policy) {
		struct scg_verdict v;
		scg_policy_eval(c->policy, &d, &v);
		/* a mutant is only claimed equal in effect: unknown actions all kill */
		if (c->effect_only)
			assert_true(scg_verdict_same(v.action, winner, false));
		else
			assert_true(polgen_same_effect(v.action, winner));
	}
	c->regions++;
	c->verdicts_seen |= 1U << (scg_action_of(winner) & 15);
	return 0;
}

static void random_policy(struct progen_rng *rng, struct scg_policy **policy,
			  struct scg_prog *o0, struct scg_prog *o1)
{
	struct polgen_opts po = { .max_rules = 12, .max_depth = 2 };
	for (;;) {
		*policy = polgen_policy(rng, &po);
		assert_non_null(*policy);
		struct scg_compile_options c0 = { .optimize = 0 }, c1 = { .optimize = 1 };
		if (scg_compile(*policy, &c0, o0, NULL) == 0) {
			if (scg_compile(*policy, &c1, o1, NULL) == 0)
				return;
			scg_prog_release(o0);
		}
		scg_policy_free(*policy);
	}
}

static void test_policy_partition(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0001);
	size_t total = 0;
	for (int iter = 0; iter < 60; iter++) {
		struct scg_policy *policy;
		struct scg_prog o0, o1;
		random_policy(&rng, &policy, &o0, &o1);
		struct check_ctx c = { .prog = &o1, .policy = policy };
		assert_int_equal(scg_analysis_regions(&o1, 1, NULL, check_region, &c, NULL), 0);
		assert_true(c.regions > 0);
		total += c.regions;
		/* the unoptimised reference compilation is provably the same filter */
		assert_int_equal(scg_analysis_diff(&o0, 1, &o1, 1, NULL, NULL, NULL, NULL), 0);
		scg_prog_release(&o0);
		scg_prog_release(&o1);
		scg_policy_free(policy);
	}
	assert_true(total > 200);
}

/* --- differences -------------------------------------------------------- */

struct confirm_ctx {
	const struct scg_prog *a, *b;
	bool ignore_errno;
	int seen;
};

static int confirm(void *ctx, const struct scg_region *region, uint32_t ret_a, uint32_t ret_b)
{
	struct confirm_ctx *c = ctx;
	struct scg_seccomp_data d;
	assert_int_equal(scg_region_example(region, &d), 0);
	struct scg_emu_result ra, rb;
	assert_int_equal(scg_emu_stack(c->a, 1, &d, &ra, NULL, NULL, NULL), 0);
	assert_int_equal(scg_emu_stack(c->b, 1, &d, &rb, NULL, NULL, NULL), 0);
	assert_true(scg_verdict_same(ra.ret, ret_a, false));
	assert_true(scg_verdict_same(rb.ret, ret_b, false));
	assert_false(scg_verdict_same(ra.ret, rb.ret, c->ignore_errno));
	c->seen++;
	return 0;
}

/* Changes one jump target or one constant of a compiled filter, keeping it loadable. */
static bool mutate(struct progen_rng *rng, struct scg_prog *p)
{
	for (int tries = 0; tries < 50; tries++) {
		size_t i = progen_below(rng, (uint32_t)p->len);
		struct scg_insn saved = p->insns[i];
		struct scg_insn *in = &p->insns[i];
		bool cond = BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) != BPF_JA;
		if (cond && progen_below(rng, 2)) {
			if (progen_below(rng, 2))
				in->jt = (uint8_t)(in->jt + 1);
			else
				in->jf = (uint8_t)(in->jf + 1);
		} else if (cond || BPF_CLASS(in->code) == BPF_RET) {
			in->k ^= 1U << progen_below(rng, 32);
		} else {
			continue;
		}
		struct scg_verify_result res;
		if (scg_verify(p, NULL, &res, NULL) == 0 && res.accepted)
			return true;
		*in = saved;
	}
	return false;
}

static void test_mutations_confirmed(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0002);
	int with_diff = 0, without = 0;
	for (int iter = 0; iter < 80; iter++) {
		struct scg_policy *policy;
		struct scg_prog o0, o1, m;
		random_policy(&rng, &policy, &o0, &o1);
		assert_int_equal(scg_prog_copy(&m, &o1), 0);
		if (mutate(&rng, &m)) {
			struct confirm_ctx c = { .a = &o1, .b = &m };
			int n = scg_analysis_diff(&o1, 1, &m, 1, NULL, confirm, &c, NULL);
			assert_true(n >= 0);
			assert_int_equal(n, c.seen);
			if (n > 0) {
				with_diff++;
			} else {
				/* no difference claimed: every region of the mutant agrees with the original */
				struct check_ctx cc = { .prog = &m, .policy = policy, .effect_only = true };
				assert_int_equal(scg_analysis_regions(&m, 1, NULL, check_region, &cc, NULL), 0);
				without++;
			}
		}
		scg_prog_release(&m);
		scg_prog_release(&o0);
		scg_prog_release(&o1);
		scg_policy_free(policy);
	}
	assert_true(with_diff > 20);
	(void)without;
}

static void test_ignore_errno_and_arch(void **state)
{
	(void)state;
	/* A: x86_64 -> read ERRNO(1), else allow; B: ERRNO(2) for read */
	struct scg_insn ia[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 4),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 3, 0xc000003e),
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 1),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_insn ib[6];
	memcpy(ib, ia, sizeof(ia));
	ib[4].k = SCG_RET_ERRNO | 2;
	struct scg_prog a = { ia, 6 }, b = { ib, 6 };
	struct confirm_ctx c = { .a = &a, .b = &b };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, NULL, confirm, &c, NULL), 1);
	struct scg_diff_options o = { .ignore_errno = true };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, &o, NULL, NULL, NULL), 0);
	struct scg_diff_options x86 = { .arch = scg_arch_lookup("x86") };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, &x86, NULL, NULL, NULL), 0);
	struct scg_diff_options x32 = { .arch = scg_arch_lookup("x32") };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, &x32, NULL, NULL, NULL), 0);
	struct scg_diff_options x64 = { .arch = scg_arch_lookup("x86_64") };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, &x64, NULL, NULL, NULL), 1);
}

/* Stacks: the combined verdict of every region is the emulator's. */
static int check_stack_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
			      uint32_t winner)
{
	const struct scg_prog *progs = ctx;
	(void)rets;
	struct scg_seccomp_data d;
	assert_int_equal(scg_region_example(region, &d), 0);
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack(progs, 2, &d, &res, NULL, NULL, NULL), 0);
	if (!res.never_filtered)
		assert_int_equal(res.ret, winner);
	return 0;
}

static void test_stack(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0003);
	for (int iter = 0; iter < 20; iter++) {
		struct scg_policy *p1, *p2;
		struct scg_prog s[2], t0, t1;
		random_policy(&rng, &p1, &t0, &s[0]);
		scg_prog_release(&t0);
		random_policy(&rng, &p2, &t1, &s[1]);
		scg_prog_release(&t1);
		assert_int_equal(scg_analysis_regions(s, 2, NULL, check_stack_region, s, NULL), 0);
		/* a stack of the same filter twice is that filter */
		struct scg_prog twice[2] = { s[0], s[0] };
		assert_int_equal(scg_analysis_diff(twice, 2, &s[0], 1, NULL, NULL, NULL, NULL), 0);
		scg_prog_release(&s[0]);
		scg_prog_release(&s[1]);
		scg_policy_free(p1);
		scg_policy_free(p2);
	}
}

/* Random programs with every opcode (arithmetic, X, scratch memory): partitioned exactly. */
static void test_random_programs(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0004);
	struct progen_opts po = { .max_len = 30, .allow_ret_a = true, .allow_div_x = true };
	int exact = 0;
	for (int iter = 0; iter < 150; iter++) {
		struct scg_prog p;
		assert_int_equal(progen_valid(&rng, &po, &p), 0);
		struct check_ctx c = { .prog = &p };
		struct scg_diag *diag = scg_diag_new();
		int r = scg_analysis_regions(&p, 1, NULL, check_region, &c, diag);
		if (r != 0 && r != -E2BIG) {
			char buf[256];
			scg_diag_format(scg_diag_get(diag, 0), buf, sizeof(buf));
			print_message("%d: %s\n", r, buf);
		}
		scg_diag_free(diag);
		/* -E2BIG: RET A of a computed value with too many values to list */
		assert_true(r == 0 || r == -E2BIG);
		if (r == 0)
			exact++;
		scg_prog_release(&p);
	}
	print_message("random programs: %d of 150 partitioned exactly\n", exact);
	assert_true(exact > 100);
}

static void test_path(void **state)
{
	(void)state;
	struct scg_insn ia[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 16),
		I(BPF_JMP | BPF_JGT | BPF_K, 0, 1, 100),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 1),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_prog p = { ia, 4 };
	struct scg_seccomp_data d = { .nr = 0, .arch = 0xc000003e, .args = { 50 } };
	size_t pcs[8];
	struct scg_region *r;
	assert_int_equal(scg_analysis_path(&p, &d, pcs, 8, &r, NULL), 3);
	assert_int_equal(pcs[2], 3);
	uint32_t v;
	assert_int_equal(scg_region_word_next(r, 4, 0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(scg_region_word_next(r, 4, 101, &v), -ENOENT);
	char *text;
	assert_int_equal(scg_region_args_text(r, scg_arch_lookup("x86_64"), &text), 0);
	assert_string_equal(text, "arg0.lo <= 0x64");
	free(text);
	scg_region_free(r);
}

/* Computed values go to the solver: arithmetic, two words compared, DIV by a word, RET A. */
static void test_general(void **state)
{
	(void)state;
	/* (nr + 1) * 2 == 80, i.e. nr == 39 or nr == 0x80000027 (wrap-around) */
	struct scg_insn arith[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
		I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 1),
		I(BPF_ALU | BPF_MUL | BPF_K, 0, 0, 2),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 80),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 1),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_insn plain[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
		I(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 39),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0x80000027),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 1),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_prog a = { arith, 6 }, b = { plain, 5 };
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, NULL, NULL, NULL, NULL), 0);
	plain[2].k = 0x80000028; /* the wrap-around case forgotten: found and confirmed */
	struct confirm_ctx c = { .a = &a, .b = &b };
	/* two numbers, each once for x86_64 and once for the other arches (compared apart) */
	assert_int_equal(scg_analysis_diff(&a, 1, &b, 1, NULL, confirm, &c, NULL), 4);

	/* arg0 > arg1 (two words), then RET A of arg0 / arg1 with arg1 possibly 0 */
	struct scg_insn words[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 24),
		I(BPF_ALU | BPF_AND | BPF_K, 0, 0, 3),
		I(BPF_MISC | BPF_TAX, 0, 0, 0),
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 16),
		I(BPF_JMP | BPF_JGT | BPF_X, 0, 3, 0),
		I(BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0),
		I(BPF_ALU | BPF_OR | BPF_K, 0, 0, SCG_RET_ERRNO),
		I(BPF_RET | BPF_A, 0, 0, 0),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_prog w = { words, 9 };
	struct check_ctx cc = { .prog = &w };
	words[3].k = 16;
	/* every region's example gives the emulator's value; values of arg0 >> 2 are many: too big */
	int r = scg_analysis_regions(&w, 1, NULL, check_region, &cc, NULL);
	assert_int_equal(r, -E2BIG);
	words[3].k = 16;
	words[6] = I(BPF_ALU | BPF_AND | BPF_K, 0, 0, 1); /* A = (arg0 / x) & 1: two values */
	words[7] = I(BPF_ALU | BPF_OR | BPF_K, 0, 0, SCG_RET_ERRNO);
	struct scg_insn tail = I(BPF_RET | BPF_A, 0, 0, 0);
	struct scg_insn both[11];
	memcpy(both, words, sizeof(words));
	both[8] = tail;
	both[9] = I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW);
	both[4].jf = 4;
	struct scg_prog w2 = { both, 10 };
	memset(&cc, 0, sizeof(cc));
	cc.prog = &w2;
	assert_int_equal(scg_analysis_regions(&w2, 1, NULL, check_region, &cc, NULL), 0);
	/* arg1 & 3 == 0 (KILL_THREAD by division), ERRNO(0), ERRNO(1), ALLOW */
	assert_int_equal(cc.regions, 4);
}

/*
 * DIV by an X known to be 0 ends the filter with 0 (KILL_THREAD) whatever A
 * is: X never written, X loaded with 0, X copied from a zero A.
 */
static void test_div_by_zero_constant(void **state)
{
	(void)state;
	struct scg_insn expect[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 4),
		I(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0xc000003e),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_PROCESS),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_THREAD),
	};
	struct scg_prog e = { expect, 4 };
	/* the divisor's set-up before `ld [nr]; div x; ret trap(0)` */
	static const struct scg_insn setup[3][2] = {
		{ I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0) },
		{ I(BPF_LDX | BPF_IMM, 0, 0, 0), I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0) },
		{ I(BPF_LD | BPF_IMM, 0, 0, 0), I(BPF_MISC | BPF_TAX, 0, 0, 0) },
	};
	for (size_t v = 0; v < 3; v++) {
		struct scg_insn insns[] = {
			I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 4),
			I(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0xc000003e),
			I(BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_PROCESS),
			setup[v][0],
			setup[v][1],
			I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
			I(BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0),
			I(BPF_RET | BPF_K, 0, 0, SCG_RET_TRAP),
		};
		struct scg_prog p = { insns, 8 };
		struct check_ctx c = { .prog = &p };
		assert_int_equal(scg_analysis_regions(&p, 1, NULL, check_region, &c, NULL), 0);
		assert_int_equal(c.regions, 2);
		assert_int_equal(c.verdicts_seen & (1U << (scg_action_of(SCG_RET_TRAP) & 15)), 0);
		assert_int_equal(scg_analysis_diff(&p, 1, &e, 1, NULL, NULL, NULL, NULL), 0);
		/* and through a policy: decompiled, compiled, proven equal */
		struct scg_policy *back = NULL;
		assert_int_equal(scg_decompile(&p, 1, &back, NULL), 0);
		struct scg_prog again;
		assert_int_equal(scg_compile(back, NULL, &again, NULL), 0);
		assert_int_equal(scg_analysis_diff(&p, 1, &again, 1, NULL, NULL, NULL, NULL), 0);
		scg_prog_release(&again);
		scg_policy_free(back);
	}
}

/* Decompiling a compiled random policy and compiling the result gives the same filter. */
static void test_decompile_roundtrip(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0005);
	int proven = 0, refused = 0;
	for (int iter = 0; iter < 40; iter++) {
		struct scg_policy *policy, *back = NULL;
		struct scg_prog o0, o1, again;
		random_policy(&rng, &policy, &o0, &o1);
		int r = scg_decompile(&o1, 1, &back, NULL);
		assert_true(r == 0 || r == -ENOTSUP);
		if (r == 0) {
			/* through the text form, as `syscage decompile` writes it */
			char *text;
			/* a filter with one verdict for every ABI still names one */
			assert_true(scg_policy_arch_count(back) > 0);
			assert_int_equal(scg_policy_to_text(back, &text), 0);
			struct scg_policy *parsed;
			assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &parsed, NULL), 0);
			assert_int_equal(scg_compile(parsed, NULL, &again, NULL), 0);
			int n = scg_analysis_diff(&o1, 1, &again, 1, NULL, NULL, NULL, NULL);
			if (n != 0)
				print_message("not equivalent (%d):\n%s\n", n, text);
			assert_int_equal(n, 0);
			proven++;
			free(text);
			scg_prog_release(&again);
			scg_policy_free(parsed);
			scg_policy_free(back);
		} else {
			refused++;
		}
		scg_prog_release(&o0);
		scg_prog_release(&o1);
		scg_policy_free(policy);
	}
	print_message("decompile: %d proven round trips, %d refused\n", proven, refused);
	assert_true(proven >= 30);
}

/* Hand-written filters: masks, masked ranges, high words, scratch memory, big endian. */
static const struct {
	const char *arch;
	const char *text;
} hand_written[] = {
	{ "x86_64",
	  "ld [arch]\njne #AUDIT_ARCH_X86_64, kill\nld [nr]\nst M[3]\njset #0x40000000, kill\n"
	  "ld M[3]\njeq #openat, open\njeq #mmap, mmap\njgt #400, enosys\njeq #getpid, allow, deny\n"
	  "open: ld [arg2.lo]\nand #3\njeq #0, allow, deny\n"
	  "mmap: ld [arg2.lo]\njset #4, deny\nld [arg1.hi]\njeq #0, allow, deny\n"
	  "allow: ret ALLOW\nenosys: ret ERRNO(ENOSYS)\ndeny: ret ERRNO(EPERM)\nkill: ret KILL_PROCESS\n" },
	{ "x86_64",
	  "ld [arch]\njne #AUDIT_ARCH_X86_64, kill\nld [nr]\njset #0x40000000, kill\n"
	  "jeq #ioctl, ioctl\njeq #write, allow\nret ERRNO(EPERM)\n"
	  "ioctl: ld [arg1.lo]\nand #0xff00\njge #0x5400, hi, deny\n"
	  "hi: jgt #0x54ff, deny, allow\n"
	  "allow: ret ALLOW\ndeny: ret ERRNO(EACCES)\nkill: ret KILL_PROCESS\n" },
	{ "s390x",
	  "ld [arch]\njne #AUDIT_ARCH_S390X, kill\nld [nr]\njeq #read, rd\njeq #close, allow\n"
	  "ret TRAP(7)\nrd: ld [arg0.hi]\njne #0, deny\nld [arg0.lo]\njlt #3, allow, deny\n"
	  "allow: ret ALLOW\ndeny: ret ERRNO(9)\nkill: ret KILL_THREAD\n" },
};

static void test_decompile_hand_written(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hand_written) / sizeof(hand_written[0]); i++) {
		struct scg_asm_options ao = { .arch = scg_arch_lookup(hand_written[i].arch) };
		struct scg_prog p, again;
		assert_int_equal(scg_asm(hand_written[i].text, strlen(hand_written[i].text), &ao, &p, NULL),
				 0);
		struct scg_policy *back, *parsed;
		assert_int_equal(scg_decompile(&p, 1, &back, NULL), 0);
		char *text;
		assert_int_equal(scg_policy_to_text(back, &text), 0);
		assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &parsed, NULL), 0);
		assert_int_equal(scg_compile(parsed, NULL, &again, NULL), 0);
		int n = scg_analysis_diff(&p, 1, &again, 1, NULL, NULL, NULL, NULL);
		if (n != 0)
			print_message("hand-written %zu: %d differences\n%s\n", i, n, text);
		assert_int_equal(n, 0);
		free(text);
		scg_policy_free(back);
		scg_policy_free(parsed);
		scg_prog_release(&p);
		scg_prog_release(&again);
	}
}

/* scg_expr_simplify() leaves out repeated operands of a chain, under NOT too, and nothing else. */
static void test_simplify(void **state)
{
	(void)state;
	struct scg_expr *m = scg_expr_cmp(0, 32, SCG_CMP_NE, 4, 0);
	struct scg_expr *eq = scg_expr_cmp(1, 32, SCG_CMP_EQ, ~0ULL, 5);
	/* (m && eq) && ((m || m) && (eq || m)) reads m && eq && (eq || m) */
	struct scg_expr *e = scg_expr_and(scg_expr_and(scg_expr_clone(m), scg_expr_clone(eq)),
					  scg_expr_and(scg_expr_or(scg_expr_clone(m), scg_expr_clone(m)),
						       scg_expr_or(scg_expr_clone(eq), scg_expr_clone(m))));
	struct scg_expr *want = scg_expr_and(scg_expr_and(scg_expr_clone(m), scg_expr_clone(eq)),
					     scg_expr_or(scg_expr_clone(eq), scg_expr_clone(m)));
	struct scg_expr *got = scg_expr_simplify(e);
	assert_non_null(got);
	assert_true(scg_expr_equal(got, want));
	struct scg_expr *neg = scg_expr_not(scg_expr_or(scg_expr_clone(eq), scg_expr_clone(eq)));
	struct scg_expr *neg_got = scg_expr_simplify(neg);
	struct scg_expr *neg_want = scg_expr_not(scg_expr_clone(eq));
	assert_true(scg_expr_equal(neg_got, neg_want));
	assert_null(scg_expr_simplify(NULL));
	assert_int_equal(errno, EINVAL);

	struct scg_policy *p = scg_policy_new(), *out = NULL;
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
	scg_policy_set_default(p, SCG_RET_ERRNO | 1);
	struct scg_rule_spec spec = { .action = SCG_RET_ALLOW, .syscall = "read", .cond = e };
	assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	assert_int_equal(scg_policy_simplify(p, &out), 0);
	struct scg_rule rule;
	assert_int_equal(scg_policy_rule_at(out, 0, &rule), 0);
	assert_true(scg_expr_equal(rule.cond, want));
	assert_int_equal(scg_policy_default(out), SCG_RET_ERRNO | 1);
	assert_int_equal(scg_policy_arch_count(out), 1);
	scg_policy_free(out);
	scg_policy_free(p);
	scg_expr_free(m);
	scg_expr_free(eq);
	scg_expr_free(got);
	scg_expr_free(want);
	scg_expr_free(neg);
	scg_expr_free(neg_got);
	scg_expr_free(neg_want);
}

static void test_lint(void **state)
{
	(void)state;
	struct scg_insn noarch[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 0),
		I(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 101),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_THREAD),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
	};
	struct scg_prog p = { noarch, 4 };
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_lint(&p, NULL, diag), 0);
	assert_true(test_diag_has(diag, "no-arch-check"));
	assert_true(test_diag_has(diag, "kill-thread"));
	assert_true(test_diag_has(diag, "risky-syscall"));
	assert_false(test_diag_has(diag, "unreachable"));
	scg_diag_free(diag);

	struct scg_policy *policy;
	const char *text = "arch x86_64\ndefault kill-process\nunknown errno(ENOSYS)\nallow read\n";
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &policy, NULL), 0);
	struct scg_prog tight;
	assert_int_equal(scg_compile(policy, NULL, &tight, NULL), 0);
	diag = scg_diag_new();
	assert_int_equal(scg_lint(&tight, policy, diag), 0);
	assert_int_equal(scg_diag_count(diag), 0);
	scg_diag_free(diag);
	scg_prog_release(&tight);
	scg_policy_free(policy);
}

/* --- joins, budgets and work counters ----------------------------------------- */

/* Word-set unions are exact, and refused where a word set could not say them. */
static void test_wset_union(void **state)
{
	(void)state;
	struct wset a, b, want;
	/* the two sides of each test, from a few bases: the union is the base again */
	for (int base = 0; base < 3; base++) {
		for (int test = 0; test < 5; test++) {
			assert_int_equal(wset_init_full(&want), 0);
			if (base == 1)
				assert_int_equal(wset_intersect(&want, 3, 200), 0);
			if (base == 2)
				assert_int_equal(wset_exclude(&want, 0x30, 0x10), 0);
			assert_int_equal(wset_copy(&a, &want), 0);
			assert_int_equal(wset_copy(&b, &want), 0);
			switch (test) {
			case 0: /* jset #0x4 */
				assert_int_equal(wset_fix_bits(&a, 0x4, 0x4), 0);
				assert_int_equal(wset_fix_bits(&b, 0x4, 0), 0);
				break;
			case 1: /* jset #0x6 */
				assert_int_equal(wset_exclude(&a, 0x6, 0), 0);
				assert_int_equal(wset_fix_bits(&b, 0x6, 0), 0);
				break;
			case 2: /* jeq #9 */
				assert_int_equal(wset_intersect(&a, 9, 9), 0);
				assert_int_equal(wset_remove(&b, 9, 9), 0);
				break;
			case 3: /* jgt #50 */
				assert_int_equal(wset_intersect(&a, 51, UINT32_MAX), 0);
				assert_int_equal(wset_intersect(&b, 0, 50), 0);
				break;
			default: /* and #0xc0; jeq #0x40 */
				assert_int_equal(wset_fix_bits(&a, 0xc0, 0x40), 0);
				assert_int_equal(wset_exclude(&b, 0xc0, 0x40), 0);
				break;
			}
			assert_int_equal(wset_union(&a, &b), 1);
			for (uint32_t v = 0; v < 512; v++)
				assert_int_equal(wset_contains(&a, v), wset_contains(&want, v));
			assert_true(wset_contains(&a, UINT32_MAX) == wset_contains(&want, UINT32_MAX));
			wset_release(&a);
			wset_release(&b);
			wset_release(&want);
		}
	}
	/* a different bit in each of two words' worth of constraints: no single word set says it */
	assert_int_equal(wset_init_full(&a), 0);
	assert_int_equal(wset_init_full(&b), 0);
	assert_int_equal(wset_fix_bits(&a, 0x3, 0x1), 0);
	assert_int_equal(wset_fix_bits(&b, 0x3, 0x2), 0);
	assert_int_equal(wset_union(&a, &b), 0);
	assert_true(wset_contains(&a, 1));
	assert_false(wset_contains(&a, 2));
	wset_release(&a);
	wset_release(&b);
}

/*
 * @forks JSET forks on bits of the six arguments after an arch check; the
 * not-taken side of each loads a register nothing reads (A, or X with @x),
 * so the two sides meet again in the same live state.  Returns the length.
 */
static size_t jset_chain(struct scg_insn *insns, unsigned forks, bool x)
{
	size_t n = 0;
	insns[n++] = I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 4);
	insns[n++] = I(BPF_JMP | BPF_JEQ | BPF_K, 0, (uint8_t)(3 * forks + 1), 0xc000003e);
	for (unsigned i = 0; i < forks; i++) {
		unsigned arg = i % 6;
		insns[n++] = I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 16 + 8 * arg);
		insns[n++] = I(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1U << (i + 3));
		insns[n++] = x ? I(BPF_LDX | BPF_W | BPF_IMM, 0, 0, i)
			       : I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 20 + 8 * arg);
	}
	insns[n++] = I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW);
	insns[n++] = I(BPF_RET | BPF_K, 0, 0, SCG_RET_KILL_PROCESS);
	return n;
}

/* 2^20 paths meet again after every fork: one state per instruction, two regions. */
static void test_join_merging(void **state)
{
	(void)state;
	struct scg_insn insns[80];
	for (int x = 0; x < 2; x++) {
		struct scg_prog p = { insns, jset_chain(insns, 20, x) };
		struct scg_analysis_stats st = { 0 };
		SCG_OPTS(scg_analysis_options, o, .stats = &st);
		struct check_ctx c = { .prog = &p };
		assert_int_equal(scg_analysis_regions_opts(&p, 1, NULL, &o, check_region, &c, NULL), 0);
		assert_int_equal(c.regions, 2);
		assert_int_equal(st.walks, 1);
		assert_true(st.merges >= 20);
		/* a path-by-path walk takes 2^21 states; merging, a few per fork */
		assert_true(st.states <= 4 * 20 + 8);

		/* so do lint's and decompile's hundreds of walks: linear each */
		memset(&st, 0, sizeof(st));
		struct scg_diag *diag = scg_diag_new();
		assert_int_equal(scg_lint_opts(&p, NULL, &o, diag), 0);
		scg_diag_free(diag);
		assert_true(st.walks > 100);
		assert_true(st.states <= st.walks * (4 * 20 + 8));
		memset(&st, 0, sizeof(st));
		struct scg_policy *back = NULL;
		assert_int_equal(scg_decompile_opts(&p, 1, &o, &back, NULL), 0);
		assert_true(st.states <= st.walks * (4 * 20 + 8));
		char *text;
		assert_int_equal(scg_policy_to_text(back, &text), 0);
		assert_non_null(strstr(text, "default allow"));
		free(text);
		scg_policy_free(back);
	}
}

/* The solver is asked once about arg0 == arg1, not once per syscall of each walk. */
static void test_solver_questions(void **state)
{
	(void)state;
	struct scg_insn eq[] = {
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 16),
		I(BPF_MISC | BPF_TAX, 0, 0, 0),
		I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 24),
		I(BPF_JMP | BPF_JEQ | BPF_X, 0, 1, 0),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW),
		I(BPF_RET | BPF_K, 0, 0, SCG_RET_ERRNO | 1),
	};
	struct scg_prog p = { eq, 6 };
	struct scg_analysis_stats st = { 0 };
	SCG_OPTS(scg_analysis_options, o, .stats = &st);
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_lint_opts(&p, NULL, &o, diag), 0);
	scg_diag_free(diag);
	assert_true(st.walks > 100);
	assert_true(st.solver_calls <= 8);
}

/* @forks forks whose sides store different values in scratch words read at the end. */
static size_t scratch_chain(struct scg_insn *insns, unsigned forks)
{
	size_t n = 0;
	for (unsigned i = 0; i < forks; i++) {
		insns[n++] = I(BPF_LD | BPF_W | BPF_ABS, 0, 0, 16 + 8 * (i % 6));
		insns[n++] = I(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 1U << i);
		insns[n++] = I(BPF_LD | BPF_W | BPF_IMM, 0, 0, 0);
		insns[n++] = I(BPF_ST, 0, 0, i);
	}
	for (unsigned i = 0; i < forks; i++)
		insns[n++] = I(BPF_LD | BPF_W | BPF_MEM, 0, 0, i);
	insns[n++] = I(BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW);
	return n;
}

static int stop_at_third(void *ctx, const struct scg_region *region, const uint32_t *rets,
			 uint32_t winner)
{
	(void)region;
	(void)rets;
	(void)winner;
	return ++*(int *)ctx == 3 ? 1 : 0; /* 1, as a "go on" of the engine would read it */
}

/* A callback's nonzero value stops the walk at once, from deep in its forks too. */
static void test_callback_stops(void **state)
{
	(void)state;
	struct scg_insn insns[64];
	struct scg_prog p = { insns, scratch_chain(insns, 12) };
	int calls = 0;
	assert_int_equal(scg_analysis_regions(&p, 1, NULL, stop_at_third, &calls, NULL), 1);
	assert_int_equal(calls, 3);
	calls = 0;
	struct scg_insn chain[80];
	struct scg_prog c = { chain, jset_chain(chain, 20, true) };
	assert_int_equal(scg_analysis_diff(&c, 1, &p, 1, NULL, NULL, NULL, NULL) > 0, 1);
	assert_int_equal(scg_analysis_regions(&c, 1, NULL, stop_at_third, &calls, NULL), 0);
	assert_int_equal(calls, 2);
}

struct collect {
	struct scg_region *regions[8192];
	size_t n;
	unsigned polls, stop_after;
};

static bool cancel_after(void *ctx)
{
	struct collect *c = ctx;
	return c->polls++ >= c->stop_after;
}

static int keep_region(void *ctx, const struct scg_region *region)
{
	struct collect *c = ctx;
	assert_true(c->n < 8192);
	c->regions[c->n++] = scg_region_clone(region);
	return 0;
}

static int keep_decided(void *ctx, const struct scg_region *region, const uint32_t *rets,
			uint32_t winner)
{
	(void)rets;
	(void)winner;
	return keep_region(ctx, region);
}

/*
 * Stopped by its budget, a walk has reported regions it decided and
 * regions it did not: together they hold every input, each once.
 */
static void test_budget_undecided(void **state)
{
	(void)state;
	struct scg_insn insns[64];
	struct scg_prog p = { insns, scratch_chain(insns, 12) };
	struct progen_rng rng;
	progen_seed(&rng, 0x5eed0006);
	static const unsigned stops[] = { 0, 1, 5, 40, 300 };
	for (size_t k = 0; k < sizeof(stops) / sizeof(stops[0]); k++) {
		struct collect decided = { .n = 0 }, undecided = { .n = 0 };
		struct collect *polls = &decided;
		polls->stop_after = stops[k];
		SCG_OPTS(scg_analysis_options, o, .cancel = cancel_after,
						  .cancel_ctx = polls, .undecided = keep_region,
						  .undecided_ctx = &undecided);
		int r = scg_analysis_regions_opts(&p, 1, NULL, &o, keep_decided, &decided, NULL);
		assert_int_equal(r, -ECANCELED);
		assert_true(undecided.n > 0);
		for (int i = 0; i < 2000; i++) {
			uint32_t w[SCG_DATA_WORDS];
			for (unsigned j = 0; j < SCG_DATA_WORDS; j++)
				w[j] = (uint32_t)progen_next(&rng) & 0xfff;
			size_t in = 0;
			for (size_t j = 0; j < decided.n; j++)
				in += scg_region_contains(decided.regions[j], w);
			for (size_t j = 0; j < undecided.n; j++)
				in += scg_region_contains(undecided.regions[j], w);
			assert_int_equal(in, 1);
		}
		for (size_t j = 0; j < decided.n; j++)
			scg_region_free(decided.regions[j]);
		for (size_t j = 0; j < undecided.n; j++)
			scg_region_free(undecided.regions[j]);
	}
}

/* Out of budget, lint keeps its findings and decompile writes nothing; both say what is left. */
static void test_budget_commands(void **state)
{
	(void)state;
	struct scg_insn insns[80];
	struct scg_prog p = { insns, jset_chain(insns, 20, false) };
	for (unsigned stop = 0; stop < 400; stop += 37) {
		struct collect polls = { .stop_after = stop };
		SCG_OPTS(scg_analysis_options, o, .cancel = cancel_after,
						  .cancel_ctx = &polls);
		struct scg_diag *diag = scg_diag_new();
		int r = scg_lint_opts(&p, NULL, &o, diag);
		assert_true(r == 0 || r == -ECANCELED);
		assert_true((r == -ECANCELED) == test_diag_has(diag, "analysis-budget"));
		scg_diag_free(diag);

		polls.polls = 0;
		diag = scg_diag_new();
		struct scg_policy *back = NULL;
		r = scg_decompile_opts(&p, 1, &o, &back, diag);
		assert_true(r == 0 || r == -ECANCELED);
		assert_true((r == -ECANCELED) == test_diag_has(diag, "analysis-budget"));
		assert_true((r == 0) == (back != NULL));
		scg_policy_free(back);
		scg_diag_free(diag);

		polls.polls = 0;
		struct collect undecided = { .n = 0 };
		o.undecided = keep_region;
		o.undecided_ctx = &undecided;
		struct scg_diff_options d = { .limits = &o };
		r = scg_analysis_diff(&p, 1, &p, 1, &d, NULL, NULL, NULL);
		assert_true(r == 0 || r == -ECANCELED);
		assert_true((r == -ECANCELED) == (undecided.n > 0));
		for (size_t j = 0; j < undecided.n; j++)
			scg_region_free(undecided.regions[j]);
	}
}

/* --- the engine's own evaluation of terms, held against Z3's meaning -------------------- */

/* A random 32-bit term over the words, every operation the engine builds, of depth <= @depth. */
static Z3_ast random_term(struct smt *smt, struct progen_rng *rng, unsigned depth)
{
	Z3_context c = smt->ctx;
	unsigned pick = depth ? progen_below(rng, 12) : progen_below(rng, 2);
	if (pick == 0)
		return smt->words[progen_below(rng, 16)];
	if (pick == 1)
		return smt_const(smt, progen_interesting32(rng));
	Z3_ast x = random_term(smt, rng, depth - 1), y = random_term(smt, rng, depth - 1);
	switch (pick) {
	case 2: return Z3_mk_bvadd(c, x, y);
	case 3: return Z3_mk_bvsub(c, x, y);
	case 4: return Z3_mk_bvmul(c, x, y);
	case 5: return Z3_mk_bvudiv(c, x, y); /* a zero divisor included: SMT-LIB's all ones */
	case 6: return Z3_mk_bvand(c, x, y);
	case 7: return Z3_mk_bvor(c, x, y);
	case 8: return Z3_mk_bvxor(c, x, y);
	case 9: return Z3_mk_bvshl(c, x, y); /* counts of 32 and more included */
	case 10: return Z3_mk_bvlshr(c, x, y);
	default: return Z3_mk_bvneg(c, x);
	}
}

static Z3_ast random_cond(struct smt *smt, struct progen_rng *rng, unsigned depth)
{
	Z3_context c = smt->ctx;
	Z3_ast x = random_term(smt, rng, 3), y = random_term(smt, rng, 3);
	unsigned pick = depth ? progen_below(rng, 7) : progen_below(rng, 4);
	switch (pick) {
	case 0: return Z3_mk_eq(c, x, y);
	case 1: return Z3_mk_bvugt(c, x, y);
	case 2: return Z3_mk_bvuge(c, x, y);
	case 3: return Z3_mk_bvule(c, x, y);
	case 4: return Z3_mk_not(c, random_cond(smt, rng, depth - 1));
	default: {
		Z3_ast both[2] = { random_cond(smt, rng, depth - 1), random_cond(smt, rng, depth - 1) };
		return pick == 5 ? Z3_mk_and(c, 2, both) : Z3_mk_or(c, 2, both);
	}
	}
}

/* Whether Z3 finds @cond possible with every word at its value in @w. */
static bool z3_allows(struct smt *smt, Z3_ast cond, const uint32_t *w)
{
	Z3_context c = smt->ctx;
	Z3_solver s = Z3_mk_solver(c);
	Z3_solver_inc_ref(c, s);
	for (unsigned i = 0; i < 16; i++)
		Z3_solver_assert(c, s, Z3_mk_eq(c, smt->words[i], smt_const(smt, w[i])));
	Z3_solver_assert(c, s, cond);
	Z3_lbool r = Z3_solver_check(c, s);
	Z3_solver_dec_ref(c, s);
	assert_int_not_equal(r, Z3_L_UNDEF);
	return r == Z3_L_TRUE;
}

/*
 * smt_eval() and smt_holds() compute most terms themselves instead of asking
 * Z3: on random terms of every operation and boundary values, each answer is
 * the only one Z3 allows.
 */
static void test_evaluator_matches_z3(void **state)
{
	(void)state;
	struct smt *smt = smt_new();
	if (!smt)
		skip();
	struct progen_rng rng;
	progen_seed(&rng, 0x5eedf00dU);
	for (unsigned n = 0; n < 400; n++) {
		uint32_t w[16];
		for (unsigned i = 0; i < 16; i++)
			w[i] = progen_interesting32(&rng);
		Z3_ast t = random_term(smt, &rng, 4);
		uint32_t v = smt_eval(smt, t, w);
		assert_false(z3_allows(smt, Z3_mk_not(smt->ctx, Z3_mk_eq(smt->ctx, t, smt_const(smt, v))), w));
		Z3_ast cond = random_cond(smt, &rng, 2);
		bool holds = smt_holds(smt, cond, w);
		assert_false(z3_allows(smt, holds ? Z3_mk_not(smt->ctx, cond) : cond, w));
	}
	smt_unref(smt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_fixed),
		cmocka_unit_test(test_wset_ops),
		cmocka_unit_test(test_wset_run_end),
		cmocka_unit_test(test_policy_partition),
		cmocka_unit_test(test_mutations_confirmed),
		cmocka_unit_test(test_ignore_errno_and_arch),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_general),
		cmocka_unit_test(test_div_by_zero_constant),
		cmocka_unit_test(test_decompile_roundtrip),
		cmocka_unit_test(test_decompile_hand_written),
		cmocka_unit_test(test_simplify),
		cmocka_unit_test(test_lint),
		cmocka_unit_test(test_wset_union),
		cmocka_unit_test(test_join_merging),
		cmocka_unit_test(test_solver_questions),
		cmocka_unit_test(test_budget_undecided),
		cmocka_unit_test(test_evaluator_matches_z3),
		cmocka_unit_test(test_budget_commands),
		cmocka_unit_test(test_callback_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
