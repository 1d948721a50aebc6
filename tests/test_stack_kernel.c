/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-path limit against the running kernel: for several filter shapes,
 * the number of copies the verifier says one task can stack is exactly the
 * number the kernel installs before it answers ENOMEM.
 *
 * Every filter runs on the harness's own seccomp() calls.  Filters that
 * allow everything let those calls through by themselves; the others are
 * wrapped by live_wrap_for_stacking(), and predictions are made for the
 * wrapped program, which is what the kernel sees.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "support/features.h"
#include "support/live.h"
#include "support/progen.h"

#define RETK(k) ((struct scg_insn){BPF_RET | BPF_K, 0, 0, (k)})
#define LDW(k)	((struct scg_insn){BPF_LD | BPF_W | BPF_ABS, 0, 0, (k)})

static struct scg_prog new_prog(size_t len)
{
	struct scg_prog prog = {calloc(len, sizeof(struct scg_insn)), len};
	assert_non_null(prog.insns);
	return prog;
}

static struct scg_prog rets(size_t n, uint32_t action)
{
	struct scg_prog prog = new_prog(n);
	for (size_t i = 0; i < n; i++)
		prog.insns[i] = RETK(action);
	return prog;
}

static struct scg_prog loads_then_ret(size_t loads, uint32_t action)
{
	struct scg_prog prog = new_prog(loads + 1);
	for (size_t i = 0; i < loads; i++)
		prog.insns[i] = LDW(0);
	prog.insns[loads] = RETK(action);
	return prog;
}

/* kernel-semantics.md C1: JEQ (negative k, jt = jf = 1) over a load, twice the ret. */
static struct scg_prog jeq_shape(uint32_t action)
{
	struct scg_prog prog = new_prog(1001);
	for (size_t i = 0; i < 998; i += 2) {
		prog.insns[i] =
		    (struct scg_insn){BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0x80000000U + (uint32_t)i};
		prog.insns[i + 1] = LDW(0);
	}
	prog.insns[998] = (struct scg_insn){BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0xfffffff0U};
	prog.insns[999] = RETK(action);
	prog.insns[1000] = RETK(SCG_RET_ERRNO | 1);
	return prog;
}

/* DIV X (5 translated instructions) and RET A (1). */
static struct scg_prog div_x_shape(void)
{
	struct scg_prog prog = new_prog(303);
	prog.insns[0] = LDW(SCG_DATA_ARGS);
	prog.insns[1] = (struct scg_insn){BPF_MISC | BPF_TAX, 0, 0, 0};
	for (size_t i = 2; i < 302; i++)
		prog.insns[i] = (struct scg_insn){BPF_ALU | BPF_DIV | BPF_X, 0, 0, 0};
	prog.insns[302] = (struct scg_insn){BPF_RET | BPF_A, 0, 0, 0};
	return prog;
}

/*
 * Loads copies of @prog until the kernel refuses one, and checks the count
 * against scg_stack_capacity() and scg_verify_stack().
 */
static void check_capacity(const struct scg_prog *prog, const char *what)
{
	struct scg_verify_result res;
	assert_int_equal(scg_verify(prog, NULL, &res, NULL), 0);
	assert_true(res.accepted);
	size_t predicted = scg_stack_capacity(prog);
	assert_true(predicted > 0);

	struct scg_prog *copies = calloc(predicted + 2, sizeof(*copies));
	assert_non_null(copies);
	for (size_t i = 0; i < predicted + 2; i++)
		copies[i] = *prog; /* shared instructions: live_load only reads them */
	assert_int_equal(scg_verify_stack(copies, predicted, NULL, &res, NULL), 0);
	assert_true(res.accepted);
	assert_int_equal(scg_verify_stack(copies, predicted + 1, NULL, &res, NULL), 0);
	assert_false(res.accepted);
	assert_int_equal(res.kernel_errno, ENOMEM);

	int err;
	size_t loaded = live_load(copies, predicted + 2, 0, &err);
	fprintf(stderr, "%-34s %4zu insns, %5zu translated: predicted %zu, kernel %zu (errno %d)\n",
		what, prog->len, scg_prog_ebpf_len(prog), predicted, loaded, err);
	assert_int_equal(loaded, predicted);
	assert_int_equal(err, ENOMEM);
	free(copies);
}

/* The same, for a program that does not let the harness's seccomp() through. */
static void check_wrapped(struct scg_prog *prog, const char *what)
{
	struct scg_prog wrapped;
	assert_int_equal(live_wrap_for_stacking(prog, &wrapped), 0);
	check_capacity(&wrapped, what);
	scg_prog_release(&wrapped);
	scg_prog_release(prog);
}

/*
 * The limit is per path: a filter this process inherited from its
 * environment (a container's) takes an unknown share of it, which nothing
 * can read back from inside that filter.
 */
static bool live_ok(const char *test)
{
	int live = live_require();
	assert_true(live >= 0);
	return live == 1 && feature_require("no-inherited-filter", "%s", test);
}

/* The rows of the table in kernel-semantics.md C1, with ALLOW so no wrapping is needed. */
static void test_documented_shapes(void **state)
{
	(void)state;
	if (!live_ok(__func__))
		skip();
	struct scg_prog prog = rets(1, SCG_RET_ALLOW);
	assert_int_equal(scg_stack_capacity(&prog), 3641);
	check_capacity(&prog, "1 x ret");
	scg_prog_release(&prog);

	prog = rets(2, SCG_RET_ALLOW);
	assert_int_equal(scg_stack_capacity(&prog), 2979);
	check_capacity(&prog, "2 x ret");
	scg_prog_release(&prog);

	prog = rets(SCG_BPF_MAXINSNS, SCG_RET_ALLOW);
	assert_int_equal(scg_stack_capacity(&prog), 3);
	check_capacity(&prog, "4096 x ret");
	scg_prog_release(&prog);

	prog = loads_then_ret(SCG_BPF_MAXINSNS - 1, SCG_RET_ALLOW);
	assert_int_equal(scg_stack_capacity(&prog), 7);
	check_capacity(&prog, "4095 x ld + ret");
	scg_prog_release(&prog);

	prog = jeq_shape(SCG_RET_ALLOW);
	prog.insns[1000] = RETK(SCG_RET_ALLOW);
	assert_int_equal(scg_stack_capacity(&prog), 16);
	check_capacity(&prog, "500 jeq + 499 ld + 2 ret");
	scg_prog_release(&prog);
}

/* Shapes whose actions are not ALLOW, wrapped. */
static void test_wrapped_shapes(void **state)
{
	(void)state;
	if (!live_ok(__func__))
		skip();
	struct scg_prog prog = rets(1, SCG_RET_KILL_PROCESS);
	check_wrapped(&prog, "guard + 1 x ret kill");
	prog = rets(2, SCG_RET_ERRNO | 1);
	check_wrapped(&prog, "guard + 2 x ret errno");
	prog = rets(SCG_BPF_MAXINSNS - LIVE_GUARD_LEN, SCG_RET_TRAP);
	check_wrapped(&prog, "guard + 4088 x ret trap");
	prog = loads_then_ret(SCG_BPF_MAXINSNS - LIVE_GUARD_LEN - 1, SCG_RET_KILL_PROCESS);
	check_wrapped(&prog, "guard + 4087 x ld + ret");
	prog = jeq_shape(SCG_RET_KILL_PROCESS);
	check_wrapped(&prog, "guard + jeq shape");
	prog = div_x_shape();
	check_wrapped(&prog, "guard + 300 div x + ret a");
}

/* Different filters stacked: the first one the kernel refuses is the predicted one. */
static void test_mixed_stack(void **state)
{
	(void)state;
	if (!live_ok(__func__))
		skip();
	struct progen_rng rng;
	progen_seed(&rng, 0x57ac);
	enum { MAX_FILTERS = 1000 };
	struct scg_prog filters[MAX_FILTERS];
	for (size_t round = 0; round < 4; round++) {
		size_t n = 0;
		size_t total = 0;
		/* random valid programs until the stack is certainly over the limit */
		while (n < MAX_FILTERS && total <= SCG_MAX_INSNS_PER_PATH + SCG_PATH_PENALTY) {
			struct progen_opts opts = {.max_len = SCG_BPF_MAXINSNS - LIVE_GUARD_LEN,
						   .allow_ret_a = true,
						   .allow_div_x = true};
			struct scg_prog prog;
			assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
			assert_int_equal(live_wrap_for_stacking(&prog, &filters[n]), 0);
			scg_prog_release(&prog);
			total += scg_prog_ebpf_len(&filters[n]) + SCG_PATH_PENALTY;
			n++;
		}
		size_t predicted = 0;
		struct scg_verify_result res;
		while (predicted < n) {
			assert_int_equal(scg_verify_stack(filters, predicted + 1, NULL, &res, NULL),
					 0);
			if (!res.accepted)
				break;
			predicted++;
		}
		int err;
		size_t loaded = live_load(filters, n, 0, &err);
		fprintf(stderr,
			"mixed stack of %zu: predicted %zu load, kernel loaded %zu (errno %d)\n", n,
			predicted, loaded, err);
		assert_true(predicted < n);
		assert_int_equal(loaded, predicted);
		assert_int_equal(err, ENOMEM);
		for (size_t i = 0; i < n; i++)
			scg_prog_release(&filters[i]);
	}
}

static int setup(void **state)
{
	(void)state;
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_documented_shapes),
	    cmocka_unit_test(test_wrapped_shapes),
	    cmocka_unit_test(test_mixed_stack),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
