/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests: the emulator's instruction semantics and the kernel's stack rules. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/emu_internal.h"
#include "bpf/opcodes.h"
#include "support/progen.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define PROG(arr) ((struct scg_prog){ (struct scg_insn *)(arr), N(arr) })
#define STMT(code, k) ((struct scg_insn){ (uint16_t)(code), 0, 0, (uint32_t)(k) })
#define JUMP(code, k, jt, jf) ((struct scg_insn){ (uint16_t)(code), (jt), (jf), (uint32_t)(k) })

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define AUDIT_S390X 0x80000016U

static struct scg_seccomp_data x86_data(uint32_t nr)
{
	struct scg_seccomp_data d = { 0 };
	d.nr = nr;
	d.arch = AUDIT_X86_64;
	return d;
}

/* Runs @prog (which must be accepted) and returns its value. */
static uint32_t run(struct scg_prog prog, const struct scg_seccomp_data *d, size_t *executed)
{
	uint32_t ret = 0xdeadbeef;
	assert_int_equal(scg_emu_run(&prog, d, &ret, executed, NULL, NULL), 0);
	return ret;
}

static uint32_t run_plain(struct scg_prog prog)
{
	struct scg_seccomp_data d = x86_data(39);
	return run(prog, &d, NULL);
}

struct alu_case {
	uint16_t op;
	uint32_t a, operand, want;
};

static const struct alu_case alu_cases[] = {
	{ BPF_ADD, 0xffffffffU, 2, 1 },
	{ BPF_ADD, 40, 2, 42 },
	{ BPF_SUB, 0, 1, 0xffffffffU },
	{ BPF_SUB, 50, 8, 42 },
	{ BPF_MUL, 0x10000, 0x10000, 0 },
	{ BPF_MUL, 0x12345, 0x1000, 0x12345000 },
	{ BPF_MUL, 0xffffffffU, 0xffffffffU, 1 },
	{ BPF_DIV, 7, 2, 3 },
	{ BPF_DIV, 0xffffffffU, 2, 0x7fffffff }, /* unsigned */
	{ BPF_DIV, 5, 0xffffffffU, 0 },
	{ BPF_OR, 0xf0f0, 0x0f0f, 0xffff },
	{ BPF_AND, 0xff00ff00U, 0x0ff00ff0U, 0x0f000f00 },
	{ BPF_XOR, 0xffffffffU, 0x0000ffff, 0xffff0000U },
	{ BPF_LSH, 1, 31, 0x80000000U },
	{ BPF_LSH, 0x80000001U, 1, 2 },
	{ BPF_RSH, 0x80000000U, 31, 1 }, /* logical, not arithmetic */
	{ BPF_RSH, 0xffffffffU, 4, 0x0fffffff },
	{ BPF_LSH, 0x1234, 0, 0x1234 },
};

static void test_alu(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(alu_cases); i++) {
		const struct alu_case *c = &alu_cases[i];
		struct scg_insn with_k[] = {
			STMT(BPF_LD | BPF_IMM, c->a),
			STMT(BPF_ALU | c->op | BPF_K, c->operand),
			STMT(BPF_RET | BPF_A, 0),
		};
		struct scg_insn with_x[] = {
			STMT(BPF_LD | BPF_IMM, c->a),
			STMT(BPF_LDX | BPF_IMM, c->operand),
			STMT(BPF_ALU | c->op | BPF_X, 0),
			STMT(BPF_RET | BPF_A, 0),
		};
		assert_int_equal(run_plain(PROG(with_x)), c->want);
		if (c->op == BPF_DIV && c->operand == 0)
			continue;
		assert_int_equal(run_plain(PROG(with_k)), c->want);
	}
	struct scg_insn neg[] = {
		STMT(BPF_LD | BPF_IMM, 1),
		STMT(BPF_ALU | BPF_NEG, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(neg)), 0xffffffffU);
	neg[0].k = 0x80000000U;
	assert_int_equal(run_plain(PROG(neg)), 0x80000000U);
	neg[0].k = 0;
	assert_int_equal(run_plain(PROG(neg)), 0);
}

static void test_shift_by_x_is_masked(void **state)
{
	(void)state;
	struct scg_insn prog[] = {
		STMT(BPF_LD | BPF_IMM, 1),
		STMT(BPF_LDX | BPF_IMM, 33),
		STMT(BPF_ALU | BPF_LSH | BPF_X, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(prog)), 2);
	prog[1].k = 32;
	assert_int_equal(run_plain(PROG(prog)), 1);
	prog[0].k = 0x80000000U;
	prog[1].k = 0xffffffffU; /* & 31 = 31 */
	prog[2].code = BPF_ALU | BPF_RSH | BPF_X;
	assert_int_equal(run_plain(PROG(prog)), 1);
	prog[1].k = 64;
	assert_int_equal(run_plain(PROG(prog)), 0x80000000U);
}

static void test_div_by_zero_x_returns_kill_thread(void **state)
{
	(void)state;
	struct scg_insn prog[] = {
		STMT(BPF_LD | BPF_IMM, 100),
		STMT(BPF_LDX | BPF_IMM, 0),
		STMT(BPF_ALU | BPF_DIV | BPF_X, 0),
		STMT(BPF_RET | BPF_K, SCG_RET_ALLOW),
	};
	size_t executed = 0;
	struct scg_seccomp_data d = x86_data(39);
	assert_int_equal(run(PROG(prog), &d, &executed), SCG_RET_KILL_THREAD);
	assert_int_equal(executed, 3); /* the program ends at the division */

	struct scg_emu_result res;
	struct scg_prog p = PROG(prog);
	assert_int_equal(scg_emu_stack(&p, 1, &d, &res, NULL, NULL, NULL), 0);
	assert_int_equal(res.action, SCG_ACTION_KILL_THREAD);

	prog[1].k = 3;
	assert_int_equal(run(PROG(prog), &d, &executed), SCG_RET_ALLOW);
	assert_int_equal(executed, 4);
}

struct jump_case {
	uint16_t op;
	uint32_t a, operand;
	bool taken;
};

static const struct jump_case jump_cases[] = {
	{ BPF_JEQ, 5, 5, true },
	{ BPF_JEQ, 5, 6, false },
	{ BPF_JEQ, 0xffffffffU, 0xffffffffU, true },
	{ BPF_JGT, 6, 5, true },
	{ BPF_JGT, 5, 5, false },
	/* unsigned: a negative k is a large number */
	{ BPF_JGT, 1, 0xffffffffU, false },
	{ BPF_JGT, 0xffffffffU, 1, true },
	{ BPF_JGT, 0xffffffffU, 0x80000000U, true },
	{ BPF_JGT, 0x80000000U, 0x7fffffffU, true },
	{ BPF_JGE, 5, 5, true },
	{ BPF_JGE, 4, 5, false },
	{ BPF_JGE, 0, 0xfffffff0U, false },
	{ BPF_JGE, 0x80000000U, 0x80000000U, true },
	{ BPF_JSET, 0x10, 0x30, true },
	{ BPF_JSET, 0x10, 0x20, false },
	{ BPF_JSET, 0x80000000U, 0xffffffffU, true },
	{ BPF_JSET, 0, 0xffffffffU, false },
};

static void test_conditional_jumps(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(jump_cases); i++) {
		const struct jump_case *c = &jump_cases[i];
		struct scg_insn with_k[] = {
			STMT(BPF_LD | BPF_IMM, c->a),
			JUMP(BPF_JMP | c->op | BPF_K, c->operand, 1, 0),
			STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | 2),
			STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | 1),
		};
		struct scg_insn with_x[] = {
			STMT(BPF_LD | BPF_IMM, c->a),
			STMT(BPF_LDX | BPF_IMM, c->operand),
			JUMP(BPF_JMP | c->op | BPF_X, 0, 1, 0),
			STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | 2),
			STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | 1),
		};
		uint32_t want = SCG_RET_ERRNO | (c->taken ? 1 : 2);
		assert_int_equal(run_plain(PROG(with_k)), want);
		assert_int_equal(run_plain(PROG(with_x)), want);
	}
}

static void test_ja_and_far_jumps(void **state)
{
	(void)state;
	enum { LEN = 600 };
	struct scg_insn *insns = calloc(LEN, sizeof(*insns));
	assert_non_null(insns);
	for (size_t i = 0; i < LEN; i++)
		insns[i] = STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | (uint32_t)i);
	insns[0] = STMT(BPF_JMP | BPF_JA, 500);                 /* to 501 */
	insns[501] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 96, 0); /* A == 0: to 598 */
	insns[LEN - 1] = STMT(BPF_RET | BPF_K, SCG_RET_ALLOW);
	struct scg_prog p = { insns, LEN };
	size_t executed;
	struct scg_seccomp_data d = x86_data(0);
	assert_int_equal(run(p, &d, &executed), SCG_RET_ERRNO | 598);
	assert_int_equal(executed, 3);
	insns[501].jt = 97;
	assert_int_equal(run(p, &d, &executed), SCG_RET_ALLOW);
	free(insns);
}

static void test_len_and_registers(void **state)
{
	(void)state;
	struct scg_insn len_a[] = { STMT(BPF_LD | BPF_W | BPF_LEN, 0), STMT(BPF_RET | BPF_A, 0) };
	assert_int_equal(run_plain(PROG(len_a)), 64);
	struct scg_insn len_x[] = {
		STMT(BPF_LDX | BPF_W | BPF_LEN, 0),
		STMT(BPF_MISC | BPF_TXA, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(len_x)), 64);
	/* A and X start at 0 */
	struct scg_insn start[] = {
		STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		STMT(BPF_ALU | BPF_OR | BPF_K, 0x7),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(start)), 7);
	struct scg_insn tax[] = {
		STMT(BPF_LD | BPF_IMM, 0x1234),
		STMT(BPF_MISC | BPF_TAX, 0),
		STMT(BPF_LD | BPF_IMM, 1),
		STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(tax)), 0x1235);
}

static void test_scratch_memory(void **state)
{
	(void)state;
	/* Store 16 distinct values through A and X, then sum them back. */
	struct scg_insn insns[3 * 16 + 2 * 16 + 2];
	size_t n = 0;
	for (uint32_t i = 0; i < 16; i++) {
		if (i % 2) {
			insns[n++] = STMT(BPF_LDX | BPF_IMM, 1U << i);
			insns[n++] = STMT(BPF_STX, i);
		} else {
			insns[n++] = STMT(BPF_LD | BPF_IMM, 1U << i);
			insns[n++] = STMT(BPF_ST, i);
		}
	}
	insns[n++] = STMT(BPF_LD | BPF_IMM, 0);
	for (uint32_t i = 0; i < 16; i++) {
		insns[n++] = STMT(BPF_LDX | BPF_MEM, i);
		insns[n++] = STMT(BPF_ALU | BPF_ADD | BPF_X, 0);
	}
	insns[n++] = STMT(BPF_RET | BPF_A, 0);
	struct scg_prog p = { insns, n };
	assert_int_equal(run_plain(p), 0xffff);

	struct scg_insn via_a[] = {
		STMT(BPF_LD | BPF_IMM, 77),
		STMT(BPF_ST, 15),
		STMT(BPF_LD | BPF_IMM, 0),
		STMT(BPF_LD | BPF_MEM, 15),
		STMT(BPF_RET | BPF_A, 0),
	};
	assert_int_equal(run_plain(PROG(via_a)), 77);
}

static uint32_t load_word(const struct scg_seccomp_data *d, uint32_t offset)
{
	struct scg_insn prog[] = { STMT(BPF_LD | BPF_W | BPF_ABS, offset), STMT(BPF_RET | BPF_A, 0) };
	return run(PROG(prog), d, NULL);
}

static void test_data_layout(void **state)
{
	(void)state;
	struct scg_seccomp_data d = { 0 };
	d.nr = 0xffffffffU;
	d.arch = AUDIT_X86_64;
	d.instruction_pointer = 0x00007f0011223344ULL;
	for (unsigned i = 0; i < 6; i++)
		d.args[i] = 0x1122334455667788ULL + i * 0x0101010101010101ULL;

	/* little endian: the low word first */
	assert_int_equal(load_word(&d, 0), 0xffffffffU);
	assert_int_equal(load_word(&d, 4), AUDIT_X86_64);
	assert_int_equal(load_word(&d, 8), 0x11223344);
	assert_int_equal(load_word(&d, 12), 0x00007f00);
	assert_int_equal(load_word(&d, 16), 0x55667788);
	assert_int_equal(load_word(&d, 20), 0x11223344);
	assert_int_equal(load_word(&d, 56), 0x5a6b7c8d);
	assert_int_equal(load_word(&d, 60), 0x16273849);

	/* big endian (s390x): the high word first, whatever the host is */
	d.arch = AUDIT_S390X;
	assert_int_equal(load_word(&d, 4), AUDIT_S390X);
	assert_int_equal(load_word(&d, 8), 0x00007f00);
	assert_int_equal(load_word(&d, 12), 0x11223344);
	assert_int_equal(load_word(&d, 16), 0x11223344);
	assert_int_equal(load_word(&d, 20), 0x55667788);
	assert_int_equal(load_word(&d, 56), 0x16273849);
	assert_int_equal(load_word(&d, 60), 0x5a6b7c8d);

	/* i386 is little endian: full 64-bit values keep their high word at +4 */
	d.arch = AUDIT_I386;
	assert_int_equal(load_word(&d, 16), 0x55667788);
	assert_int_equal(load_word(&d, 20), 0x11223344);
}

/* Runs a stack of one-instruction filters returning @rets (oldest first). */
static struct scg_emu_result stack_of(const uint32_t *rets, size_t n, uint32_t nr, uint32_t arch)
{
	struct scg_insn insns[8];
	struct scg_prog progs[8];
	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++) {
		insns[i] = STMT(BPF_RET | BPF_K, rets[i]);
		progs[i] = (struct scg_prog){ &insns[i], 1 };
	}
	struct scg_seccomp_data d = x86_data(nr);
	d.arch = arch;
	struct scg_emu_result res;
	memset(&res, 0xa5, sizeof(res));
	assert_int_equal(scg_emu_stack(progs, n, &d, &res, NULL, NULL, NULL), 0);
	return res;
}

static struct scg_emu_result stack_x86(const uint32_t *rets, size_t n)
{
	return stack_of(rets, n, 39, AUDIT_X86_64);
}

static void test_precedence(void **state)
{
	(void)state;
	static const struct {
		uint32_t ret;
		enum scg_action action;
	} order[] = {
		{ SCG_RET_KILL_PROCESS, SCG_ACTION_KILL_PROCESS },
		{ SCG_RET_KILL_THREAD, SCG_ACTION_KILL_THREAD },
		{ SCG_RET_TRAP | 3, SCG_ACTION_TRAP },
		{ SCG_RET_ERRNO | 1, SCG_ACTION_ERRNO },
		{ SCG_RET_USER_NOTIF, SCG_ACTION_USER_NOTIF },
		{ SCG_RET_TRACE | 7, SCG_ACTION_TRACE },
		{ SCG_RET_LOG, SCG_ACTION_LOG },
		{ SCG_RET_ALLOW, SCG_ACTION_ALLOW },
	};
	for (size_t i = 0; i < N(order); i++) {
		for (size_t j = 0; j < N(order); j++) {
			uint32_t rets[2] = { order[i].ret, order[j].ret };
			struct scg_emu_result res = stack_x86(rets, 2);
			size_t strong = i < j ? i : j;
			assert_int_equal(res.action, order[strong].action);
			assert_int_equal(res.ret, order[strong].ret);
			/* ties go to the newer filter, index 1 */
			assert_int_equal(res.winner, i < j ? 0 : 1);
			assert_false(res.unknown_action);
			assert_false(res.never_filtered);
		}
	}
}

static void test_tie_keeps_newest_data(void **state)
{
	(void)state;
	uint32_t rets[] = { SCG_RET_ERRNO | 11, SCG_RET_ERRNO | 13, SCG_RET_ERRNO | 12 };
	struct scg_emu_result res = stack_x86(rets, 3);
	assert_int_equal(res.action, SCG_ACTION_ERRNO);
	assert_int_equal(res.data, 12);
	assert_int_equal(res.winner, 2);
	uint32_t traps[] = { SCG_RET_TRAP | 1, SCG_RET_TRAP | 2 };
	res = stack_x86(traps, 2);
	assert_int_equal(res.data, 2);
}

static void test_unknown_actions(void **state)
{
	(void)state;
	uint32_t older_errno[] = { SCG_RET_ERRNO | 9, 0x10000000U };
	struct scg_emu_result res = stack_x86(older_errno, 2);
	assert_int_equal(res.action, SCG_ACTION_ERRNO);
	assert_int_equal(res.data, 9);
	assert_int_equal(res.winner, 0);
	assert_false(res.unknown_action);

	uint32_t lone[] = { 0x10000000U };
	res = stack_x86(lone, 1);
	assert_int_equal(res.action, SCG_ACTION_KILL_PROCESS);
	assert_true(res.unknown_action);
	assert_int_equal(res.ret, 0x10000000U);
	assert_int_equal(res.data, 0);

	/* 0x7ffe0000 is not ALLOW: it outranks ALLOW, then kills; LOG outranks it */
	uint32_t almost_allow[] = { SCG_RET_ALLOW, 0x7ffe0000U, SCG_RET_ALLOW | 1 };
	res = stack_x86(almost_allow, 3);
	assert_int_equal(res.action, SCG_ACTION_KILL_PROCESS);
	assert_true(res.unknown_action);
	assert_int_equal(res.winner, 1);
	uint32_t with_log[] = { SCG_RET_LOG, 0x7ffe0000U };
	res = stack_x86(with_log, 2);
	assert_int_equal(res.action, SCG_ACTION_LOG);
	assert_false(res.unknown_action);

	/* a negative unknown value outranks KILL_THREAD but not KILL_PROCESS */
	uint32_t negative[] = { 0x80010000U, SCG_RET_KILL_THREAD };
	res = stack_x86(negative, 2);
	assert_true(res.unknown_action);
	assert_int_equal(res.winner, 0);
	uint32_t with_kill[] = { 0x80010000U, SCG_RET_KILL_PROCESS | 5 };
	res = stack_x86(with_kill, 2);
	assert_false(res.unknown_action);
	assert_int_equal(res.action, SCG_ACTION_KILL_PROCESS);
	assert_int_equal(res.ret, SCG_RET_KILL_PROCESS | 5);

	/* between TRAP and ERRNO */
	uint32_t between[] = { SCG_RET_ERRNO | 1, 0x00040000U };
	res = stack_x86(between, 2);
	assert_true(res.unknown_action);
	uint32_t below[] = { SCG_RET_TRAP | 1, 0x00040000U };
	res = stack_x86(below, 2);
	assert_int_equal(res.action, SCG_ACTION_TRAP);
}

static void test_data_bits(void **state)
{
	(void)state;
	static const struct {
		uint32_t ret;
		enum scg_action action;
		uint16_t data;
		const char *text;
	} cases[] = {
		{ SCG_RET_ERRNO | 0xffff, SCG_ACTION_ERRNO, 4095, "ERRNO(4095)" },
		{ SCG_RET_ERRNO | 4096, SCG_ACTION_ERRNO, 4095, "ERRNO(4095)" },
		{ SCG_RET_ERRNO | 4095, SCG_ACTION_ERRNO, 4095, "ERRNO(4095)" },
		{ SCG_RET_ERRNO | 0, SCG_ACTION_ERRNO, 0, "ERRNO(0)" },
		{ SCG_RET_TRAP | 0xffff, SCG_ACTION_TRAP, 0xffff, "TRAP(65535)" },
		{ SCG_RET_TRACE | 300, SCG_ACTION_TRACE, 300, "TRACE(300)" },
		{ SCG_RET_ALLOW | 0x1234, SCG_ACTION_ALLOW, 0, "ALLOW" },
		{ SCG_RET_LOG | 9, SCG_ACTION_LOG, 0, "LOG" },
		{ SCG_RET_USER_NOTIF | 9, SCG_ACTION_USER_NOTIF, 0, "USER_NOTIF" },
		{ SCG_RET_KILL_THREAD | 5, SCG_ACTION_KILL_THREAD, 0, "KILL_THREAD" },
		{ SCG_RET_KILL_PROCESS | 5, SCG_ACTION_KILL_PROCESS, 0, "KILL_PROCESS" },
		{ 0x12345678U, SCG_ACTION_KILL_PROCESS, 0, "KILL_PROCESS" },
	};
	for (size_t i = 0; i < N(cases); i++) {
		struct scg_emu_result res = stack_x86(&cases[i].ret, 1);
		assert_int_equal(res.action, cases[i].action);
		assert_int_equal(res.data, cases[i].data);
		assert_int_equal(res.ret, cases[i].ret);
		char buf[32];
		int n = scg_emu_result_format(&res, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
		assert_int_equal(n, (int)strlen(cases[i].text));
	}
	/* snprintf contract */
	struct scg_emu_result res = stack_x86(&cases[0].ret, 1);
	char small[4];
	assert_int_equal(scg_emu_result_format(&res, small, sizeof(small)), 11);
	assert_string_equal(small, "ERR");
	assert_int_equal(scg_emu_result_format(&res, NULL, 0), 11);
}

static void test_uprobe_exception(void **state)
{
	(void)state;
	uint32_t kill[] = { SCG_RET_KILL_PROCESS, SCG_RET_ERRNO | 1 };
	for (uint32_t nr = 335; nr <= 336; nr++) {
		struct scg_emu_result res = stack_of(kill, 2, nr, AUDIT_X86_64);
		assert_int_equal(res.action, SCG_ACTION_ALLOW);
		assert_true(res.never_filtered);
		assert_int_equal(res.executed_total, 2); /* the filters still ran */
		char buf[32];
		scg_emu_result_format(&res, buf, sizeof(buf));
		assert_string_equal(buf, "ALLOW");

		/* not for x32-tagged numbers, i386 or other ABIs */
		res = stack_of(kill, 2, nr | SCG_X32_SYSCALL_BIT, AUDIT_X86_64);
		assert_int_equal(res.action, SCG_ACTION_KILL_PROCESS);
		assert_false(res.never_filtered);
		res = stack_of(kill, 2, nr, AUDIT_I386);
		assert_int_equal(res.action, SCG_ACTION_KILL_PROCESS);
		assert_false(res.never_filtered);
		res = stack_of(kill, 2, nr, 0xc00000b7U /* aarch64 */);
		assert_false(res.never_filtered);
	}
	struct scg_emu_result res = stack_of(kill, 2, 334, AUDIT_X86_64);
	assert_false(res.never_filtered);
	uint32_t unknown[] = { 0x10000000U };
	res = stack_of(unknown, 1, 335, AUDIT_X86_64);
	assert_int_equal(res.action, SCG_ACTION_ALLOW);
	assert_false(res.unknown_action);
}

static void test_instruction_counts(void **state)
{
	(void)state;
	struct scg_insn a[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR),
		JUMP(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 1),
		STMT(BPF_RET | BPF_K, SCG_RET_ERRNO | 1),
		STMT(BPF_RET | BPF_K, SCG_RET_ALLOW),
	};
	struct scg_insn b[] = {
		STMT(BPF_JMP | BPF_JA, 3),
		STMT(BPF_RET | BPF_K, 0),
		STMT(BPF_RET | BPF_K, 0),
		STMT(BPF_RET | BPF_K, 0),
		STMT(BPF_RET | BPF_K, SCG_RET_LOG),
	};
	struct scg_prog progs[] = { PROG(a), PROG(b) };
	struct scg_seccomp_data d = x86_data(39);
	struct scg_emu_result res;
	size_t executed[2] = { 0, 0 };
	assert_int_equal(scg_emu_stack(progs, 2, &d, &res, executed, NULL, NULL), 0);
	assert_int_equal(executed[0], 3);
	assert_int_equal(executed[1], 2);
	assert_int_equal(res.executed_total, 5);
	assert_int_equal(res.action, SCG_ACTION_ERRNO);
	assert_int_equal(res.winner, 0);
	d.nr = 40;
	assert_int_equal(scg_emu_stack(progs, 2, &d, &res, executed, NULL, NULL), 0);
	assert_int_equal(executed[0], 3);
	assert_int_equal(res.action, SCG_ACTION_LOG);
	assert_int_equal(res.winner, 1);

	uint32_t rets[2];
	assert_int_equal(scg_emu_stack_unchecked(progs, 2, &d, &res, NULL, rets, NULL, NULL), 0);
	assert_int_equal(rets[0], SCG_RET_ALLOW);
	assert_int_equal(rets[1], SCG_RET_LOG);
}

struct trace_log {
	size_t n;
	struct scg_emu_step steps[16];
};

static void record_step(void *ctx, const struct scg_emu_step *step)
{
	struct trace_log *log = ctx;
	if (log->n < N(log->steps))
		log->steps[log->n] = *step;
	log->n++;
}

static void test_trace(void **state)
{
	(void)state;
	struct scg_insn older[] = { STMT(BPF_RET | BPF_K, SCG_RET_ALLOW) };
	struct scg_insn newer[] = {
		STMT(BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR),
		STMT(BPF_MISC | BPF_TAX, 0),
		JUMP(BPF_JMP | BPF_JGT | BPF_K, 100, 1, 0),
		STMT(BPF_RET | BPF_K, SCG_RET_ALLOW),
		STMT(BPF_RET | BPF_A, 0),
	};
	struct scg_prog progs[] = { PROG(older), PROG(newer) };
	struct scg_seccomp_data d = x86_data(200);
	struct trace_log log = { 0 };
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack(progs, 2, &d, &res, NULL, record_step, &log), 0);
	assert_int_equal(log.n, 5);
	/* newest first */
	static const size_t want_filter[] = { 1, 1, 1, 1, 0 };
	static const size_t want_pc[] = { 0, 1, 2, 4, 0 };
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(log.steps[i].filter, want_filter[i]);
		assert_int_equal(log.steps[i].pc, want_pc[i]);
	}
	assert_int_equal(log.steps[0].a, 200);
	assert_int_equal(log.steps[0].x, 0);
	assert_int_equal(log.steps[1].x, 200);
	assert_int_equal(log.steps[3].insn.code, BPF_RET | BPF_A);
	assert_int_equal(res.action, SCG_ACTION_KILL_THREAD); /* RET A = 200 = KILL_THREAD|200 */

	log.n = 0;
	uint32_t ret;
	struct scg_prog p = PROG(newer);
	assert_int_equal(scg_emu_run(&p, &d, &ret, NULL, record_step, &log), 0);
	assert_int_equal(log.n, 4);
	assert_int_equal(ret, 200);
}

static void test_refuses_what_the_kernel_refuses(void **state)
{
	(void)state;
	static const struct scg_insn bad[][2] = {
		{ STMT(BPF_LD | BPF_IMM, 0), STMT(BPF_LD | BPF_IMM, 0) }, /* no RET last */
		{ JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0), STMT(BPF_RET | BPF_A, 0) },
		{ JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_JMP | BPF_JA, 1), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_JMP | BPF_JA, 0xffffffffU), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_ST, 16), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_LD | BPF_W | BPF_ABS, 2), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_LD | BPF_W | BPF_ABS, 64), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_LD | BPF_W | BPF_ABS, 0xfffff000U), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_LD | BPF_H | BPF_ABS, 0), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_ALU | BPF_MOD | BPF_K, 3), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_ALU | BPF_DIV | BPF_K, 0), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_ALU | BPF_LSH | BPF_K, 32), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_RET | BPF_X, 0), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(0x8006, 0), STMT(BPF_RET | BPF_A, 0) },
		{ STMT(BPF_LD | BPF_MEM, 0), STMT(BPF_RET | BPF_A, 0) }, /* load before store */
	};
	struct scg_seccomp_data d = x86_data(0);
	for (size_t i = 0; i < N(bad); i++) {
		struct scg_prog p = { (struct scg_insn *)bad[i], 2 };
		uint32_t ret = 0x5555;
		assert_int_equal(scg_emu_run(&p, &d, &ret, NULL, NULL, NULL), -EINVAL);
		assert_int_equal(ret, 0x5555);
		struct scg_emu_result res;
		assert_int_equal(scg_emu_stack(&p, 1, &d, &res, NULL, NULL, NULL), -EINVAL);
	}
	struct scg_prog empty = { NULL, 0 };
	uint32_t ret;
	assert_int_equal(scg_emu_run(&empty, &d, &ret, NULL, NULL, NULL), -EINVAL);
	struct scg_emu_result res;
	struct scg_insn ok[] = { STMT(BPF_RET | BPF_K, SCG_RET_ALLOW) };
	struct scg_prog p = PROG(ok);
	assert_int_equal(scg_emu_stack(&p, 0, &d, &res, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(scg_emu_run(&p, NULL, &ret, NULL, NULL, NULL), -EINVAL);
}

/* Whatever bytes it is given, the unchecked interpreter stays in bounds and stops. */
static void test_garbage_is_safe(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 42);
	struct scg_seccomp_data d = x86_data(1);
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(&d, words);
	for (int i = 0; i < 20000; i++) {
		struct scg_prog p;
		assert_int_equal(progen_garbage(&rng, 1 + progen_below(&rng, 64), &p), 0);
		/* make jumps and codes plausible often enough to walk far */
		for (size_t j = 0; j < p.len; j++)
			if (progen_below(&rng, 2))
				p.insns[j].code &= 0xff;
		size_t executed = 0;
		(void)emu_exec(&p, words, 0, &executed, NULL, NULL);
		assert_true(executed >= 1 && executed <= p.len);
		uint32_t ret;
		int r = scg_emu_run(&p, &d, &ret, NULL, NULL, NULL);
		assert_true(r == 0 || r == -EINVAL);
		scg_prog_release(&p);
	}
}

/* Programs the generator makes always load, and both entry points agree. */
static void test_generated_programs_agree(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 7);
	struct progen_opts opts = { .max_len = 200, .allow_ret_a = true, .allow_div_x = true };
	for (int i = 0; i < 5000; i++) {
		struct scg_prog p;
		assert_int_equal(progen_valid(&rng, &opts, &p), 0);
		struct scg_seccomp_data d = x86_data(progen_interesting32(&rng));
		d.arch = progen_below(&rng, 2) ? AUDIT_X86_64 : AUDIT_S390X;
		for (int a = 0; a < 6; a++)
			d.args[a] = progen_interesting64(&rng);
		uint32_t ret;
		size_t executed;
		assert_int_equal(scg_emu_run(&p, &d, &ret, &executed, NULL, NULL), 0);
		assert_true(executed >= 1 && executed <= p.len);
		struct scg_emu_result res;
		assert_int_equal(scg_emu_stack(&p, 1, &d, &res, NULL, NULL, NULL), 0);
		assert_int_equal(res.ret, ret);
		assert_int_equal(res.executed_total, executed);
		scg_prog_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu),
		cmocka_unit_test(test_shift_by_x_is_masked),
		cmocka_unit_test(test_div_by_zero_x_returns_kill_thread),
		cmocka_unit_test(test_conditional_jumps),
		cmocka_unit_test(test_ja_and_far_jumps),
		cmocka_unit_test(test_len_and_registers),
		cmocka_unit_test(test_scratch_memory),
		cmocka_unit_test(test_data_layout),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_tie_keeps_newest_data),
		cmocka_unit_test(test_unknown_actions),
		cmocka_unit_test(test_data_bits),
		cmocka_unit_test(test_uprobe_exception),
		cmocka_unit_test(test_instruction_counts),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_refuses_what_the_kernel_refuses),
		cmocka_unit_test(test_garbage_is_safe),
		cmocka_unit_test(test_generated_programs_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
