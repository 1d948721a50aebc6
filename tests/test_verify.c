/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verifier without the kernel: every refusal rule (the exact index and
 * rule id, refused and accepted variants), the order in which the kernel's
 * checks run, translated lengths and stack capacities, warnings, and the
 * action-cache analysis.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

#include "bpf/opcodes.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))
#define S(code, k)                                                                                 \
	{                                                                                          \
		(uint16_t)(code), 0, 0, (uint32_t)(k)                                              \
	}
#define J(code, k, jt, jf)                                                                         \
	{                                                                                          \
		(uint16_t)(code), (jt), (jf), (uint32_t)(k)                                        \
	}
#define LDW(k)	S(BPF_LD | BPF_W | BPF_ABS, k)
#define RETK(k) S(BPF_RET | BPF_K, k)
#define RETA	S(BPF_RET | BPF_A, 0)

#define X86_64	  0xc000003eU
#define I386	  0x40000003U
#define ALLOW	  SCG_RET_ALLOW
#define KILL	  SCG_RET_KILL_PROCESS
#define EPERM_RET (SCG_RET_ERRNO | 1)

static struct scg_prog as_prog(const struct scg_insn *insns, size_t len)
{
	return (struct scg_prog){(struct scg_insn *)insns, len};
}

static const struct scg_diag_entry *first_at(const struct scg_diag *diag, enum scg_severity sev)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (scg_diag_get(diag, i)->severity == sev)
			return scg_diag_get(diag, i);
	return NULL;
}

static void check_refused(const struct scg_insn *insns, size_t len, long index, const char *rule)
{
	struct scg_prog prog = as_prog(insns, len);
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result res;
	assert_non_null(diag);
	assert_int_equal(scg_verify(&prog, NULL, &res, diag), 0);
	assert_false(res.accepted);
	assert_int_equal(res.kernel_errno, EINVAL);
	assert_string_equal(res.rule, rule);
	assert_int_equal(res.error_insn, index);
	assert_int_equal(res.ebpf_len, 0);
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 1);
	const struct scg_diag_entry *e = first_at(diag, SCG_SEV_ERROR);
	assert_string_equal(e->code, rule);
	assert_int_equal(e->loc.insn, index);
	assert_true(strlen(e->message) > 10);
	assert_int_equal(scg_stack_capacity(&prog), 0);
	scg_diag_free(diag);
}

/* Accepted, with no warning of any kind unless @warnings_ok. */
static void check_accepted(const struct scg_insn *insns, size_t len, bool warnings_ok)
{
	struct scg_prog prog = as_prog(insns, len);
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result res;
	assert_int_equal(scg_verify(&prog, NULL, &res, diag), 0);
	if (!res.accepted)
		fail_msg("refused: %s at %ld: %s", res.rule, res.error_insn,
			 first_at(diag, SCG_SEV_ERROR)->message);
	assert_null(res.rule);
	assert_int_equal(res.error_insn, -1);
	assert_int_equal(res.ebpf_len, scg_prog_ebpf_len(&prog));
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 0);
	if (!warnings_ok && scg_diag_count(diag))
		fail_msg("unexpected warning: %s", scg_diag_get(diag, 0)->message);
	scg_diag_free(diag);
}

#define REFUSED(a, idx, rule) check_refused(a, LEN(a), idx, rule)
#define ACCEPTED(a)	      check_accepted(a, LEN(a), true)
#define CLEAN(a)	      check_accepted(a, LEN(a), false)

/* --- one test per rule -------------------------------------------------- */

static void test_length(void **state)
{
	(void)state;
	struct scg_insn one[] = {RETK(ALLOW)};
	check_refused(one, 0, -1, "length");
	struct scg_insn *big = calloc(SCG_BPF_MAXINSNS + 1, sizeof(*big));
	assert_non_null(big);
	for (size_t i = 0; i <= SCG_BPF_MAXINSNS; i++)
		big[i] = (struct scg_insn)RETK(ALLOW);
	check_refused(big, SCG_BPF_MAXINSNS + 1, -1, "length");
	check_accepted(big, SCG_BPF_MAXINSNS, true); /* unreachable warnings only */
	free(big);
	CLEAN(one);
}

static void test_opcode_unknown(void **state)
{
	(void)state;
	struct scg_insn high[] = {LDW(0), S(0x8006, 0), RETK(ALLOW)};
	REFUSED(high, 1, "opcode-unknown");
	struct scg_insn ret_x[] = {S(BPF_RET | BPF_X, 0)};
	REFUSED(ret_x, 0, "opcode-unknown");
	struct scg_insn past_table[] = {S(0xb2, 0), RETK(ALLOW)};
	REFUSED(past_table, 0, "opcode-unknown");
	struct scg_insn ldx_abs[] = {S(BPF_LDX | BPF_W | BPF_ABS, 0), RETK(ALLOW)};
	REFUSED(ldx_abs, 0, "opcode-unknown");
	struct scg_insn neg_x[] = {S(BPF_ALU | BPF_NEG | BPF_X, 0), RETK(ALLOW)};
	REFUSED(neg_x, 0, "opcode-unknown");
	struct scg_insn jmp_0x50[] = {J(BPF_JMP | 0x50, 0, 0, 0), RETK(ALLOW)};
	REFUSED(jmp_0x50, 0, "opcode-unknown");
	/* the highest classic code is known to bpf_check_classic, refused by seccomp */
	struct scg_insn msh[] = {S(BPF_LDX | BPF_B | BPF_MSH, 0), RETK(ALLOW)};
	REFUSED(msh, 0, "seccomp-opcode");
}

static void test_div_by_zero(void **state)
{
	(void)state;
	struct scg_insn div0[] = {LDW(0), S(BPF_ALU | BPF_DIV | BPF_K, 0), RETA};
	REFUSED(div0, 1, "div-by-zero");
	/* mod #0 fails in bpf_check_classic, before seccomp refuses mod */
	struct scg_insn mod0[] = {S(BPF_ALU | BPF_MOD | BPF_K, 0), RETK(ALLOW)};
	REFUSED(mod0, 0, "div-by-zero");
	struct scg_insn div1[] = {LDW(0), S(BPF_ALU | BPF_DIV | BPF_K, 1), RETK(ALLOW)};
	CLEAN(div1);
}

static void test_shift_too_far(void **state)
{
	(void)state;
	struct scg_insn lsh32[] = {S(BPF_ALU | BPF_LSH | BPF_K, 32), RETK(ALLOW)};
	REFUSED(lsh32, 0, "shift-too-far");
	struct scg_insn rsh_big[] = {LDW(0), S(BPF_ALU | BPF_RSH | BPF_K, 0xffffffff), RETK(ALLOW)};
	REFUSED(rsh_big, 1, "shift-too-far");
	struct scg_insn lsh31[] = {S(BPF_ALU | BPF_LSH | BPF_K, 31),
				   S(BPF_ALU | BPF_RSH | BPF_K, 31), RETK(ALLOW)};
	CLEAN(lsh31);
}

static void test_scratch_out_of_range(void **state)
{
	(void)state;
	struct scg_insn st16[] = {S(BPF_ST, 16), RETK(ALLOW)};
	REFUSED(st16, 0, "scratch-out-of-range");
	struct scg_insn stx[] = {S(BPF_ST, 0), S(BPF_STX, 0x10000), RETK(ALLOW)};
	REFUSED(stx, 1, "scratch-out-of-range");
	/* out of range beats "read before write": the classic loop runs first */
	struct scg_insn ld[] = {S(BPF_LD | BPF_MEM, 3), S(BPF_LDX | BPF_MEM, 16), RETK(ALLOW)};
	REFUSED(ld, 1, "scratch-out-of-range");
	struct scg_insn ok[] = {S(BPF_ST, 15), S(BPF_LDX | BPF_MEM, 15), RETK(ALLOW)};
	CLEAN(ok);
}

static void test_ja_out_of_range(void **state)
{
	(void)state;
	struct scg_insn past[] = {S(BPF_JMP | BPF_JA, 2), RETK(ALLOW), RETK(KILL)};
	REFUSED(past, 0, "ja-out-of-range");
	struct scg_insn wrap[] = {S(BPF_JMP | BPF_JA, 0xffffffff), RETK(ALLOW)};
	REFUSED(wrap, 0, "ja-out-of-range");
	/* a ja at the end: the loop refuses it before the "last must be ret" rule */
	struct scg_insn last[] = {RETK(ALLOW), S(BPF_JMP | BPF_JA, 0)};
	REFUSED(last, 1, "ja-out-of-range");
	struct scg_insn edge[] = {S(BPF_JMP | BPF_JA, 1), RETK(KILL), RETK(ALLOW)};
	ACCEPTED(edge);
}

static void test_jump_out_of_range(void **state)
{
	(void)state;
	struct scg_insn jt[] = {LDW(4), J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 2, 0), RETK(ALLOW),
				RETK(KILL)};
	REFUSED(jt, 1, "jump-out-of-range");
	struct scg_insn jf[] = {LDW(4), J(BPF_JMP | BPF_JSET | BPF_X, 0, 0, 2), RETK(ALLOW),
				RETK(KILL)};
	REFUSED(jf, 1, "jump-out-of-range");
	struct scg_insn at_end[] = {RETK(ALLOW), J(BPF_JMP | BPF_JGT | BPF_K, 1, 0, 0)};
	REFUSED(at_end, 1, "jump-out-of-range");
	struct scg_insn edge[] = {LDW(4), J(BPF_JMP | BPF_JGE | BPF_K, 7, 1, 0), RETK(ALLOW),
				  RETK(KILL)};
	ACCEPTED(edge);
}

static void test_jump_message(void **state)
{
	(void)state;
	struct scg_insn prog_insns[16];
	for (size_t i = 0; i < 16; i++)
		prog_insns[i] = (struct scg_insn)LDW(0);
	prog_insns[7] = (struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_K, 1, 12, 0);
	prog_insns[15] = (struct scg_insn)RETK(ALLOW);
	struct scg_prog prog = as_prog(prog_insns, 16);
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result res;
	assert_int_equal(scg_verify(&prog, NULL, &res, diag), 0);
	assert_int_equal(res.error_insn, 7);
	const struct scg_diag_entry *e = first_at(diag, SCG_SEV_ERROR);
	assert_string_equal(e->message, "jeq jumps 12 ahead (true branch) to index 20, past the "
					"last instruction (index 15)");
	char text[512];
	scg_diag_format(e, text, sizeof(text));
	assert_true(strncmp(text, "insn 7: error: jeq jumps 12 ahead", 33) == 0);
	scg_diag_free(diag);
}

static void test_ancillary(void **state)
{
	(void)state;
	/* not an ancillary the kernel knows: bpf_check_classic refuses it */
	struct scg_insn unknown[] = {S(BPF_LD | BPF_B | BPF_ABS, 0xfffff040), RETK(ALLOW)};
	REFUSED(unknown, 0, "ancillary-unknown");
	struct scg_insn odd[] = {LDW(0), LDW(0xfffff001), RETK(ALLOW)};
	REFUSED(odd, 1, "ancillary-unknown");
	/* known ancillaries pass the classic check; seccomp refuses them later */
	struct scg_insn proto[] = {LDW(SCG_SKF_AD_OFF), RETA};
	REFUSED(proto, 0, "seccomp-ancillary");
	struct scg_insn tpid[] = {S(BPF_LD | BPF_H | BPF_ABS, SCG_SKF_AD_OFF + 60), RETA};
	REFUSED(tpid, 0, "seccomp-ancillary");
	/* ... so a later classic failure is reported instead */
	struct scg_insn later[] = {LDW(SCG_SKF_AD_OFF + 4), S(BPF_ALU | BPF_DIV | BPF_K, 0), RETA};
	REFUSED(later, 1, "div-by-zero");
}

static void test_last_not_ret(void **state)
{
	(void)state;
	struct scg_insn ld[] = {RETK(ALLOW), LDW(0)};
	REFUSED(ld, 1, "last-not-ret");
	/* checked before the scratch rule and before seccomp's whitelist */
	struct scg_insn order[] = {S(BPF_ALU | BPF_MOD | BPF_K, 3), S(BPF_LD | BPF_MEM, 0),
				   RETK(ALLOW), S(BPF_MISC | BPF_TAX, 0)};
	REFUSED(order, 3, "last-not-ret");
	struct scg_insn reta[] = {LDW(0), RETA};
	ACCEPTED(reta);
}

static void test_scratch_read_before_write(void **state)
{
	(void)state;
	struct scg_insn never[] = {LDW(0), S(BPF_LDX | BPF_MEM, 5), RETK(ALLOW)};
	REFUSED(never, 1, "scratch-read-before-write");
	/* one branch stores: the join point is not proven */
	struct scg_insn one_branch[] = {
	    LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1), S(BPF_ST, 2), S(BPF_LD | BPF_MEM, 2),
	    RETA,
	};
	REFUSED(one_branch, 3, "scratch-read-before-write");
	struct scg_insn straight[] = {LDW(0), S(BPF_ST, 2), S(BPF_LDX | BPF_MEM, 2), RETK(ALLOW)};
	CLEAN(straight);
	/* a store before the first jump is valid on both branches */
	struct scg_insn both[] = {
	    LDW(0),	 S(BPF_ST, 9),		 J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),
	    RETK(ALLOW), S(BPF_LD | BPF_MEM, 9), RETA,
	};
	ACCEPTED(both);
}

/* kernel-semantics.md C2: safe on every real path, refused by the linear walk */
static void test_scratch_linear_example(void **state)
{
	(void)state;
	struct scg_insn refused[] = {
	    LDW(0),	  J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 2), /* true: 2, false: 4 */
	    S(BPF_ST, 0), S(BPF_JMP | BPF_JA, 1),		 /* over the ret, to the load */
	    RETK(ALLOW),  S(BPF_LD | BPF_MEM, 0), /* reached only from 3, after the store */
	    RETA,
	};
	REFUSED(refused, 5, "scratch-read-before-write");
	/* the same without the ret between: accepted */
	struct scg_insn accepted[] = {
	    LDW(0),	  J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 3),
	    S(BPF_ST, 0), S(BPF_LD | BPF_MEM, 0),
	    RETA,	  RETK(ALLOW),
	};
	ACCEPTED(accepted);
}

static void test_seccomp_opcode(void **state)
{
	(void)state;
	struct scg_insn mod[] = {LDW(0), S(BPF_ALU | BPF_MOD | BPF_K, 7), RETA};
	REFUSED(mod, 1, "seccomp-opcode");
	struct scg_insn modx[] = {S(BPF_ALU | BPF_MOD | BPF_X, 0), RETA};
	REFUSED(modx, 0, "seccomp-opcode");
	struct scg_insn ldh[] = {S(BPF_LD | BPF_H | BPF_ABS, 0), RETA};
	REFUSED(ldh, 0, "seccomp-opcode");
	struct scg_insn ldb[] = {LDW(0), S(BPF_LD | BPF_B | BPF_ABS, 4), RETA};
	REFUSED(ldb, 1, "seccomp-opcode");
	struct scg_insn ind[] = {S(BPF_LD | BPF_W | BPF_IND, 0), RETA};
	REFUSED(ind, 0, "seccomp-opcode");
	struct scg_insn indb[] = {S(BPF_LD | BPF_B | BPF_IND, 0), RETA};
	REFUSED(indb, 0, "seccomp-opcode");
	/* every classic check runs before the seccomp whitelist */
	struct scg_insn order[] = {S(BPF_ALU | BPF_MOD | BPF_K, 7), LDW(0), S(BPF_LD | BPF_MEM, 1),
				   RETA};
	REFUSED(order, 2, "scratch-read-before-write");
}

static void test_seccomp_load_offset(void **state)
{
	(void)state;
	struct scg_insn unaligned[] = {LDW(2), RETA};
	REFUSED(unaligned, 0, "seccomp-load-offset");
	struct scg_insn past[] = {LDW(0), LDW(64), RETA};
	REFUSED(past, 1, "seccomp-load-offset");
	struct scg_insn net_off[] = {LDW(0xfff00000), RETA};
	REFUSED(net_off, 0, "seccomp-load-offset");
	struct scg_insn last_word[] = {LDW(60), S(BPF_LD | BPF_W | BPF_LEN, 0),
				       S(BPF_LDX | BPF_W | BPF_LEN, 0), RETK(ALLOW)};
	CLEAN(last_word);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	struct scg_verify_result res;
	struct scg_prog broken = {NULL, 3};
	assert_int_equal(scg_verify(NULL, NULL, &res, NULL), -EINVAL);
	assert_int_equal(scg_verify(&broken, NULL, &res, NULL), -EINVAL);
	assert_int_equal(scg_verify_stack(NULL, 1, NULL, &res, NULL), -EINVAL);
	struct scg_insn ok[] = {RETK(ALLOW)};
	struct scg_prog prog = as_prog(ok, 1);
	assert_int_equal(scg_verify_stack(&prog, 0, NULL, &res, NULL), -EINVAL);
	/* a NULL diagnostics list is allowed */
	assert_int_equal(scg_verify(&prog, NULL, &res, NULL), 0);
	assert_true(res.accepted);
}

/* --- translated lengths and capacities --------------------------------- */

static void fill(struct scg_insn *insns, size_t from, size_t to, struct scg_insn insn)
{
	for (size_t i = from; i < to; i++)
		insns[i] = insn;
}

/* The shapes of kernel-semantics.md C1, with the kernel's observed numbers. */
static void test_ebpf_len_table(void **state)
{
	(void)state;
	struct scg_insn *insns = calloc(SCG_BPF_MAXINSNS, sizeof(*insns));
	assert_non_null(insns);
	struct scg_prog prog = {insns, 1};

	fill(insns, 0, 1, (struct scg_insn)RETK(ALLOW));
	assert_int_equal(scg_prog_ebpf_len(&prog), 5);
	assert_int_equal(scg_stack_capacity(&prog), 3641);

	prog.len = 2;
	fill(insns, 0, 2, (struct scg_insn)RETK(ALLOW));
	assert_int_equal(scg_prog_ebpf_len(&prog), 7);
	assert_int_equal(scg_stack_capacity(&prog), 2979);

	prog.len = 4096;
	fill(insns, 0, 4096, (struct scg_insn)RETK(ALLOW));
	assert_int_equal(scg_prog_ebpf_len(&prog), 8195);
	assert_int_equal(scg_stack_capacity(&prog), 3);

	fill(insns, 0, 4095, (struct scg_insn)LDW(0));
	assert_int_equal(scg_prog_ebpf_len(&prog), 4100);
	assert_int_equal(scg_stack_capacity(&prog), 7);

	prog.len = 1001;
	for (size_t i = 0; i < 998; i += 2) {
		insns[i] = (struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_K, 0x80000000U, 1, 1);
		insns[i + 1] = (struct scg_insn)LDW(0);
	}
	insns[998] = (struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffU, 1, 1);
	insns[999] = (struct scg_insn)RETK(ALLOW);
	insns[1000] = (struct scg_insn)RETK(KILL);
	struct scg_verify_result res;
	assert_int_equal(scg_verify(&prog, NULL, &res, NULL), 0);
	assert_true(res.accepted);
	assert_int_equal(scg_prog_ebpf_len(&prog), 2006);
	assert_int_equal(res.ebpf_len, 2006);
	assert_int_equal(scg_stack_capacity(&prog), 16);
	free(insns);
}

static size_t one_len(struct scg_insn insn)
{
	struct scg_prog prog = {&insn, 1};
	return scg_prog_ebpf_len(&prog) - 3; /* without the prologue */
}

static void test_ebpf_len_rules(void **state)
{
	(void)state;
	assert_int_equal(one_len((struct scg_insn)RETK(0)), 2);
	assert_int_equal(one_len((struct scg_insn)RETA), 1);
	assert_int_equal(one_len((struct scg_insn)S(BPF_ALU | BPF_DIV | BPF_X, 0)), 5);
	assert_int_equal(one_len((struct scg_insn)S(BPF_ALU | BPF_DIV | BPF_K, 0x80000000U)), 1);
	assert_int_equal(one_len((struct scg_insn)S(BPF_ALU | BPF_LSH | BPF_X, 0)), 1);
	assert_int_equal(one_len((struct scg_insn)S(BPF_JMP | BPF_JA, 0x80000000U)), 1);
	assert_int_equal(one_len((struct scg_insn)S(BPF_ST, 0)), 1);
	assert_int_equal(one_len((struct scg_insn)S(BPF_LD | BPF_W | BPF_LEN, 0)), 1);
	/* conditional jumps: jf == 0 -> 1 */
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JSET | BPF_K, 1, 3, 0)), 1);
	/* jt == 0: inverted for JEQ/JGT/JGE, not for JSET */
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 3)), 1);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JGT | BPF_X, 1, 0, 3)), 1);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JGE | BPF_K, 1, 0, 3)), 1);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JSET | BPF_K, 1, 0, 3)), 2);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_X, 1, 2, 3)), 2);
	/* negative K: one more; X forms never */
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003eU, 0, 3)),
			 2);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JSET | BPF_K, 0x80000000U, 1, 1)),
			 3);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JGE | BPF_K, 0x7fffffffU, 1, 0)),
			 1);
	assert_int_equal(one_len((struct scg_insn)J(BPF_JMP | BPF_JGE | BPF_X, 0xffffffffU, 1, 2)),
			 2);
}

static void test_stack(void **state)
{
	(void)state;
	struct scg_insn ret[] = {RETK(ALLOW)};
	struct scg_prog *progs = calloc(3642, sizeof(*progs));
	assert_non_null(progs);
	for (size_t i = 0; i < 3642; i++)
		progs[i] = as_prog(ret, 1);
	struct scg_verify_result res;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_verify_stack(progs, 3641, NULL, &res, diag), 0);
	assert_true(res.accepted);
	assert_int_equal(res.ebpf_len, 3641 * 5 + 3640 * 4);
	assert_int_equal(scg_diag_count(diag), 0);

	assert_int_equal(scg_verify_stack(progs, 3642, NULL, &res, diag), 0);
	assert_false(res.accepted);
	assert_int_equal(res.kernel_errno, ENOMEM);
	assert_string_equal(res.rule, "path-limit");
	assert_int_equal(res.error_insn, -1);
	const struct scg_diag_entry *e = first_at(diag, SCG_SEV_ERROR);
	assert_non_null(strstr(e->message, "filter 3642 of 3642"));

	/* a refused member is reported with its own rule and index */
	struct scg_insn bad[] = {LDW(0), LDW(3), RETA};
	progs[1] = as_prog(bad, LEN(bad));
	scg_diag_clear(diag);
	assert_int_equal(scg_verify_stack(progs, 3, NULL, &res, diag), 0);
	assert_false(res.accepted);
	assert_int_equal(res.kernel_errno, EINVAL);
	assert_string_equal(res.rule, "seccomp-load-offset");
	assert_int_equal(res.error_insn, 1);
	e = first_at(diag, SCG_SEV_ERROR);
	assert_non_null(strstr(e->message, "filter 2 of 3"));
	scg_diag_free(diag);
	free(progs);
}

/* --- warnings ------------------------------------------------------------ */

/* Verifies @prog (must be accepted) and returns the warning with @rule, or NULL. */
static const struct scg_diag_entry *warning(struct scg_diag *diag, const struct scg_insn *insns,
					    size_t len, const char *rule)
{
	struct scg_prog prog = as_prog(insns, len);
	struct scg_verify_result res;
	scg_diag_clear(diag);
	assert_int_equal(scg_verify(&prog, scg_arch_lookup("x86_64"), &res, diag), 0);
	assert_true(res.accepted);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		assert_int_equal(e->severity, SCG_SEV_WARNING);
		if (!strcmp(e->code, rule))
			return e;
	}
	return NULL;
}

#define WARNING(a, rule) warning(diag, a, LEN(a), rule)

static void test_warn_good_filter(void **state)
{
	(void)state;
	/* what a careful compiler emits: arch, x32 (letting -1 through), a rule list */
	struct scg_insn good[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JGE | BPF_K, SCG_X32_SYSCALL_BIT, 0, 2),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffU, 1, 0),
	    RETK(KILL),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 59, 0, 1),
	    RETK(EPERM_RET),
	    RETK(ALLOW),
	};
	CLEAN(good);
}

static void test_warn_arch(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	const struct scg_diag_entry *e;
	struct scg_insn none[] = {LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 59, 0, 1), RETK(KILL),
				  RETK(ALLOW)};
	e = WARNING(none, "no-arch-check");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 1);
	assert_non_null(e->hint);
	assert_non_null(strstr(e->hint, "x86"));

	/* the arch loaded after the number was tested does not count */
	struct scg_insn late[] = {LDW(0),     J(BPF_JMP | BPF_JEQ | BPF_K, 59, 2, 0),
				  LDW(4),     J(BPF_JEQ | BPF_JMP | BPF_K, X86_64, 1, 0),
				  RETK(KILL), RETK(ALLOW)};
	e = WARNING(late, "no-arch-check");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 1);

	/* the arch checked on one branch only: the other branch tests nr unchecked */
	struct scg_insn one_side[] = {
	    LDW(16),	J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2),
	    LDW(4),	J(BPF_JMP | BPF_JEQ | BPF_K, I386, 0, 3),
	    LDW(0),	J(BPF_JMP | BPF_JEQ | BPF_K, 20, 0, 1),
	    RETK(KILL), RETK(ALLOW),
	};
	e = WARNING(one_side, "no-arch-check");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 5);

	/* through X and scratch memory, the number is still the number */
	struct scg_insn via_mem[] = {LDW(0),
				     S(BPF_ST, 3),
				     S(BPF_LD | BPF_IMM, 59),
				     S(BPF_LDX | BPF_MEM, 3),
				     J(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1),
				     RETK(KILL),
				     RETK(ALLOW)};
	e = WARNING(via_mem, "no-arch-check");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);

	/* arch first on every path: no warning, even with branches in between */
	struct scg_insn first[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, I386, 2, 0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 3, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 20, 2, 3),
	    LDW(0),
	    J(BPF_JMP | BPF_JSET | BPF_K, SCG_X32_SYSCALL_BIT, 0, 0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 39, 0, 1),
	    RETK(EPERM_RET),
	    RETK(ALLOW),
	};
	assert_null(WARNING(first, "no-arch-check"));
	assert_null(WARNING(first, "x32-not-handled"));

	/* no syscall test at all: nothing to warn about */
	struct scg_insn only_ret[] = {RETK(ALLOW)};
	assert_null(WARNING(only_ret, "no-arch-check"));
	scg_diag_free(diag);
}

static void test_warn_x32(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_insn open_x32[] = {
	    LDW(4),	 J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0), RETK(KILL),
	    LDW(0),	 J(BPF_JMP | BPF_JEQ | BPF_K, 101, 0, 1),    RETK(KILL),
	    RETK(ALLOW),
	};
	const struct scg_diag_entry *e = WARNING(open_x32, "x32-not-handled");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);
	assert_null(WARNING(open_x32, "no-arch-check"));

	/* a `jeq` on an x86_64 number before the bit-30 test (the compiler's hot chain): x32
	 * calls all take its false branch and meet the test before any verdict */
	struct scg_insn hot_first[] = {
	    LDW(4), J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0), RETK(KILL),
	    LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 16, 0, 1), RETK(KILL),
	    J(BPF_JMP | BPF_JGE | BPF_K, SCG_X32_SYSCALL_BIT, 1, 0), RETK(ALLOW), RETK(KILL),
	};
	assert_null(WARNING(hot_first, "x32-not-handled"));
	/* the same `jeq` with a verdict on its false branch: x32 calls get it unchecked */
	struct scg_insn hot_only[] = {
	    LDW(4), J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0), RETK(KILL),
	    LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 16, 0, 1), RETK(KILL), RETK(ALLOW),
	};
	e = WARNING(hot_only, "x32-not-handled");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);

	/* i386 only: x32 cannot reach the comparisons */
	struct scg_insn i386[] = {
	    LDW(4),	 J(BPF_JMP | BPF_JEQ | BPF_K, I386, 1, 0), RETK(KILL),
	    LDW(0),	 J(BPF_JMP | BPF_JEQ | BPF_K, 101, 0, 1),  RETK(KILL),
	    RETK(ALLOW),
	};
	assert_null(WARNING(i386, "x32-not-handled"));

	/* jgt #0x3fffffff also separates x32 numbers */
	struct scg_insn jgt[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JGT | BPF_K, SCG_X32_SYSCALL_BIT - 1, 2, 0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 101, 0, 1),
	    RETK(KILL),
	    RETK(ALLOW),
	};
	assert_null(WARNING(jgt, "x32-not-handled"));

	/* x32 numbers compared by name, as libseccomp does for x86_64 + x32 */
	struct scg_insn by_name[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 101, 1, 0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, SCG_X32_SYSCALL_BIT | 521, 0, 1),
	    RETK(EPERM_RET),
	    RETK(ALLOW),
	};
	assert_null(WARNING(by_name, "x32-not-handled"));
	/* -1 has bit 30 set but is no x32 number */
	struct scg_insn minus_one[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffU, 1, 0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 101, 0, 1),
	    RETK(EPERM_RET),
	    RETK(ALLOW),
	};
	e = WARNING(minus_one, "x32-not-handled");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);

	/* the bit tested on one branch only leaves the other open */
	struct scg_insn half[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(16),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2),
	    LDW(0),
	    J(BPF_JMP | BPF_JSET | BPF_K, SCG_X32_SYSCALL_BIT, 3, 0),
	    LDW(0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 101, 0, 1),
	    RETK(KILL),
	    RETK(ALLOW),
	};
	e = WARNING(half, "x32-not-handled");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 8);

	/* a search tree whose splits lie below 0x40000000: x32 calls all go right, to
	 * the tree's own bound at 0x40000000 (x32 numbers a range of their own) */
	struct scg_insn tree[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JGE | BPF_K, 200, 1, 0),
	    RETK(ALLOW),
	    J(BPF_JMP | BPF_JGE | BPF_K, 300, 1, 0),
	    RETK(EPERM_RET),
	    J(BPF_JMP | BPF_JGE | BPF_K, SCG_X32_SYSCALL_BIT, 1, 0),
	    RETK(ALLOW),
	    RETK(KILL),
	};
	assert_null(WARNING(tree, "x32-not-handled"));
	/* the same splits with a verdict for the numbers above them: x32 calls get it */
	struct scg_insn above[] = {
	    LDW(4),
	    J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 1, 0),
	    RETK(KILL),
	    LDW(0),
	    J(BPF_JMP | BPF_JGE | BPF_K, 500, 0, 1),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 257, 1, 0),
	    RETK(ALLOW),
	    RETK(EPERM_RET),
	};
	e = WARNING(above, "x32-not-handled");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);
	scg_diag_free(diag);
}

static void test_warn_local(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	const struct scg_diag_entry *e;
	struct scg_insn reta[] = {LDW(4), RETA};
	e = WARNING(reta, "ret-a");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 1);

	struct scg_insn div[] = {LDW(16),
				 S(BPF_MISC | BPF_TAX, 0),
				 LDW(24),
				 S(BPF_ALU | BPF_DIV | BPF_X, 0),
				 S(BPF_ALU | BPF_LSH | BPF_X, 0),
				 S(BPF_ALU | BPF_RSH | BPF_X, 0),
				 RETK(ALLOW)};
	e = WARNING(div, "div-by-x");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 3);
	assert_non_null(strstr(e->message, "KILL_THREAD"));
	e = WARNING(div, "shift-by-x");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 4);
	assert_non_null(strstr(e->message, "also at insn 5"));
	assert_non_null(strstr(e->message, "5 bits"));

	struct scg_insn kill[] = {LDW(16), J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
				  RETK(SCG_RET_KILL_THREAD), RETK(ALLOW)};
	e = WARNING(kill, "kill-thread");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 2);
	assert_non_null(strstr(e->hint, "KILL_PROCESS"));

	struct scg_insn unknown[] = {LDW(16), J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
				     RETK(0x12345678), RETK(0x7ffe0000)};
	e = WARNING(unknown, "unknown-action");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 2);
	assert_non_null(strstr(e->message, "0x12345678"));
	assert_non_null(strstr(e->message, "also at insn 3"));
	/* data on actions that carry none is not "unknown" */
	struct scg_insn data[] = {RETK(ALLOW | 0x1234)};
	CLEAN(data);
	scg_diag_free(diag);
}

static void test_warn_unreachable(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_insn prog[] = {
	    LDW(16),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4),
	    RETK(ALLOW),
	    LDW(0),
	    LDW(4),
	    RETK(KILL),
	    S(BPF_JMP | BPF_JA, 1),
	    RETK(EPERM_RET),
	    RETK(ALLOW),
	};
	const struct scg_diag_entry *e = WARNING(prog, "unreachable");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 3);
	assert_non_null(strstr(e->message, "4 unreachable instructions: 3-5, 7"));
	struct scg_insn all_used[] = {LDW(16), J(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), RETK(ALLOW),
				      RETK(EPERM_RET)};
	assert_null(WARNING(all_used, "unreachable"));
	/* dead code is reported as unreachable only */
	struct scg_insn dead[] = {RETK(ALLOW), RETK(SCG_RET_KILL_THREAD), RETA};
	e = WARNING(dead, "unreachable");
	assert_non_null(e);
	assert_int_equal(e->loc.insn, 1);
	assert_non_null(strstr(e->message, "2 unreachable instructions: 1-2"));
	assert_int_equal(scg_diag_count(diag), 1);
	scg_diag_free(diag);
}

/* warnings do not change the decision, and refused programs get none */
static void test_warn_refused(void **state)
{
	(void)state;
	struct scg_insn bad[] = {LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1), RETA, LDW(3),
				 RETK(0)};
	struct scg_prog prog = as_prog(bad, LEN(bad));
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result res;
	assert_int_equal(scg_verify(&prog, NULL, &res, diag), 0);
	assert_false(res.accepted);
	assert_int_equal(scg_diag_count(diag), 1);
	scg_diag_free(diag);
}

/* warnings come out in instruction order, whatever their kind */
static void test_warn_order(void **state)
{
	(void)state;
	struct scg_insn insns[] = {
	    LDW(0),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 59, 0, 1),
	    RETK(SCG_RET_KILL_THREAD),
	    J(BPF_JMP | BPF_JEQ | BPF_K, 60, 0, 2),
	    S(BPF_ALU | BPF_DIV | BPF_X, 0),
	    RETA,
	    RETK(0x7ffe0000),
	    RETK(ALLOW),
	};
	struct scg_prog prog = as_prog(insns, LEN(insns));
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result res;
	assert_int_equal(scg_verify(&prog, NULL, &res, diag), 0);
	assert_true(res.accepted);
	static const char *const rules[] = {"no-arch-check", "kill-thread",    "div-by-x",
					    "ret-a",	     "unknown-action", "unreachable"};
	static const long at[] = {1, 2, 4, 5, 6, 7};
	assert_int_equal(scg_diag_count(diag), LEN(rules));
	for (size_t i = 0; i < LEN(rules); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		assert_string_equal(e->code, rules[i]);
		assert_int_equal(e->loc.insn, at[i]);
	}
	scg_diag_free(diag);
}

/* --- action cache ------------------------------------------------------- */

static bool cached(const struct scg_insn *insns, size_t len, uint32_t arch, uint32_t nr)
{
	struct scg_prog prog = as_prog(insns, len);
	return scg_cache_const_allow(&prog, arch, nr);
}

#define CACHED(a, arch, nr) cached(a, LEN(a), arch, nr)

static void test_cache(void **state)
{
	(void)state;
	struct scg_insn allow[] = {RETK(ALLOW)};
	assert_true(CACHED(allow, X86_64, 0));
	assert_true(CACHED(allow, I386, 400));
	struct scg_insn allow_data[] = {RETK(ALLOW | 1)};
	assert_false(CACHED(allow_data, X86_64, 0));
	struct scg_insn log[] = {RETK(SCG_RET_LOG)};
	assert_false(CACHED(log, X86_64, 0));

	struct scg_insn by_arch[] = {LDW(4), J(BPF_JMP | BPF_JEQ | BPF_K, X86_64, 0, 1),
				     RETK(ALLOW), RETK(KILL)};
	assert_true(CACHED(by_arch, X86_64, 1));
	assert_false(CACHED(by_arch, I386, 1));

	struct scg_insn by_nr[] = {
	    LDW(0),
	    S(BPF_ALU | BPF_AND | BPF_K, 0xff),
	    J(BPF_JMP | BPF_JGE | BPF_K, 200, 4, 0),
	    J(BPF_JMP | BPF_JGT | BPF_K, 100, 1, 0),
	    S(BPF_JMP | BPF_JA, 1),
	    J(BPF_JMP | BPF_JSET | BPF_K, 1, 1, 0),
	    RETK(ALLOW),
	    RETK(EPERM_RET),
	};
	assert_true(CACHED(by_nr, X86_64, 5));
	assert_true(CACHED(by_nr, X86_64, 0x105)); /* masked to 5 */
	assert_true(CACHED(by_nr, X86_64, 102));   /* > 100, even: ALLOW */
	assert_false(CACHED(by_nr, X86_64, 101));  /* > 100, odd */
	assert_false(CACHED(by_nr, X86_64, 200));

	/* anything else on the path makes it uncacheable; other paths are unaffected */
	struct scg_insn args[] = {LDW(0), J(BPF_JMP | BPF_JEQ | BPF_K, 9, 0, 2), LDW(16),
				  RETK(ALLOW), RETK(ALLOW)};
	assert_false(CACHED(args, X86_64, 9));
	assert_true(CACHED(args, X86_64, 10));
	struct scg_insn imm[] = {S(BPF_LD | BPF_IMM, 0), RETK(ALLOW)};
	assert_false(CACHED(imm, X86_64, 0));
	struct scg_insn jx[] = {LDW(0), J(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 0), RETK(ALLOW)};
	assert_false(CACHED(jx, X86_64, 0));
	struct scg_insn or [] = {LDW(0), S(BPF_ALU | BPF_OR | BPF_K, 0), RETK(ALLOW)};
	assert_false(CACHED(or, X86_64, 0));

	/* x86_64 uretprobe (335) and uprobe (336) are always allowed, natively only */
	struct scg_insn kill[] = {RETK(KILL)};
	assert_true(CACHED(kill, X86_64, 335));
	assert_true(CACHED(kill, X86_64, 336));
	assert_false(CACHED(kill, X86_64, 337));
	assert_false(CACHED(kill, I386, 335));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_length),
	    cmocka_unit_test(test_opcode_unknown),
	    cmocka_unit_test(test_div_by_zero),
	    cmocka_unit_test(test_shift_too_far),
	    cmocka_unit_test(test_scratch_out_of_range),
	    cmocka_unit_test(test_ja_out_of_range),
	    cmocka_unit_test(test_jump_out_of_range),
	    cmocka_unit_test(test_jump_message),
	    cmocka_unit_test(test_ancillary),
	    cmocka_unit_test(test_last_not_ret),
	    cmocka_unit_test(test_scratch_read_before_write),
	    cmocka_unit_test(test_scratch_linear_example),
	    cmocka_unit_test(test_seccomp_opcode),
	    cmocka_unit_test(test_seccomp_load_offset),
	    cmocka_unit_test(test_bad_arguments),
	    cmocka_unit_test(test_ebpf_len_table),
	    cmocka_unit_test(test_ebpf_len_rules),
	    cmocka_unit_test(test_stack),
	    cmocka_unit_test(test_warn_good_filter),
	    cmocka_unit_test(test_warn_arch),
	    cmocka_unit_test(test_warn_x32),
	    cmocka_unit_test(test_warn_local),
	    cmocka_unit_test(test_warn_unreachable),
	    cmocka_unit_test(test_warn_refused),
	    cmocka_unit_test(test_warn_order),
	    cmocka_unit_test(test_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
