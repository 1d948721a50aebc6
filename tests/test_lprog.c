/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The labelled-program resolver (lib/bpf/lprog.h) on its own: random
 * programs of far jumps resolve into programs the verifier accepts and the
 * emulator runs as the labels say; trampolines are shared; what the flags
 * allow is encoded and the rest refused; numbered offsets are written as
 * given; lprog_check() reports every label problem.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/lprog.h"
#include "bpf/opcodes.h"
#include "support/progen.h"
#include "support/scale.h"

#define LD_NR (BPF_LD | BPF_W | BPF_ABS)
#define JEQ_K (BPF_JMP | BPF_JEQ | BPF_K)

/* --- random programs of blocks ------------------------------------------- */

enum block_kind { BLOCK_COND, BLOCK_JA, BLOCK_RET };

struct block {
	enum block_kind kind;
	uint8_t op;
	uint32_t k;
	size_t to[2];
	size_t fillers; /* `ld [nr]` instructions before the jump */
};

/* What the labelled program returns for @nr, by walking the blocks. */
static uint32_t walk_blocks(const struct block *b, uint32_t nr)
{
	size_t i = 0;
	for (;;) {
		switch (b[i].kind) {
		case BLOCK_RET:
			return b[i].k;
		case BLOCK_JA:
			i = b[i].to[0];
			break;
		case BLOCK_COND: {
			bool taken = b[i].op == BPF_JEQ ? nr == b[i].k : b[i].op == BPF_JGT ? nr > b[i].k
							 : (nr & b[i].k) != 0;
			i = b[i].to[taken ? 0 : 1];
			break;
		}
		}
	}
}

static size_t far_target(struct progen_rng *rng, size_t i, size_t n)
{
	size_t span = n - i - 1;
	return i + 1 + (progen_below(rng, 3) ? progen_below(rng, (uint32_t)span) : span - 1);
}

/* Random blocks; @dense: no fillers, so far jumps crowd together. */
static void random_blocks(struct progen_rng *rng, struct block *b, size_t n, bool dense)
{
	static const uint8_t ops[] = { BPF_JEQ, BPF_JGT, BPF_JSET };
	for (size_t i = 0; i < n; i++) {
		uint32_t kind = i == n - 1 ? 9 : progen_below(rng, 10);
		bool filled = !dense && progen_below(rng, 4) == 0;
		b[i] = (struct block){ .fillers = filled ? progen_below(rng, 40) : 0 };
		if (kind < 6) {
			b[i].kind = BLOCK_COND;
			b[i].op = ops[progen_below(rng, 3)];
			b[i].k = progen_below(rng, 64);
			b[i].to[0] = far_target(rng, i, n);
			b[i].to[1] = far_target(rng, i, n);
		} else if (kind < 7) {
			b[i].kind = BLOCK_JA;
			b[i].to[0] = far_target(rng, i, n);
		} else {
			b[i].kind = BLOCK_RET;
			b[i].k = SCG_RET_ERRNO | (uint32_t)i;
		}
	}
}

static int build_blocks(const struct block *b, size_t n, unsigned flags, struct scg_prog *out,
			struct lprog_report *rep)
{
	struct lprog *lp = lprog_new();
	assert_non_null(lp);
	lprog_set_flags(lp, flags);
	lprog_label *labels = malloc(n * sizeof(*labels));
	assert_non_null(labels);
	for (size_t i = 0; i < n; i++)
		labels[i] = lprog_label_new(lp);
	lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR);
	for (size_t i = 0; i < n; i++) {
		lprog_bind(lp, labels[i]);
		for (size_t f = 0; f < b[i].fillers; f++)
			lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR);
		if (b[i].kind == BLOCK_RET)
			lprog_stmt(lp, BPF_RET | BPF_K, b[i].k);
		else if (b[i].kind == BLOCK_JA)
			lprog_ja(lp, labels[b[i].to[0]]);
		else
			lprog_jcond(lp, (uint16_t)(BPF_JMP | b[i].op | BPF_K), b[i].k,
				    labels[b[i].to[0]], labels[b[i].to[1]]);
	}
	int r = lprog_resolve(lp, out, NULL, rep);
	free(labels);
	lprog_free(lp);
	return r;
}

/* @prog loads and returns for every nr what walking the blocks gives. */
static void check_blocks(const struct scg_prog *prog, const struct block *b)
{
	struct scg_verify_result res;
	assert_int_equal(scg_verify(prog, NULL, &res, NULL), 0);
	assert_true(res.accepted);
	for (uint32_t nr = 0; nr < 70; nr++) {
		struct scg_seccomp_data d = { .nr = nr, .arch = 0xc000003e };
		uint32_t ret;
		assert_int_equal(scg_emu_run(prog, &d, &ret, NULL, NULL, NULL), 0);
		assert_int_equal(ret, walk_blocks(b, nr));
	}
}

/*
 * One random program of @n blocks (drawn after @n, from @rng): resolved with
 * @flags and, when that works, checked.  Returns what lprog_resolve() did.
 */
static int random_round(struct progen_rng *rng, size_t n, bool dense, unsigned flags,
			struct lprog_report *rep)
{
	struct block *b = malloc(n * sizeof(*b));
	assert_non_null(b);
	random_blocks(rng, b, n, dense);
	struct scg_prog prog;
	int r = build_blocks(b, n, flags, &prog, rep);
	if (r == 0) {
		assert_int_equal(prog.len, rep->len);
		check_blocks(&prog, b);
		scg_prog_release(&prog);
	}
	free(b);
	return r;
}

static void test_lprog_random(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 8);
	size_t with_trampolines = 0;
	for (size_t round = 0; round < test_scaled(300); round++) {
		size_t n = 2 + progen_below(&rng, 700);
		struct lprog_report rep;
		int r = random_round(&rng, n, false, 0, &rep);
		if (r == -E2BIG) {
			assert_int_equal(rep.fault, LPROG_TOO_LONG);
			assert_true(rep.len > SCG_BPF_MAXINSNS);
			continue;
		}
		assert_int_equal(r, 0);
		with_trampolines += rep.trampolines > 0;
	}
	assert_true(with_trampolines > test_scaled(50));
}

/* A branch to a far RET gets a copy of the RET, not a JA. */
static void test_lprog_ret_copy(void **state)
{
	(void)state;
	struct lprog *lp = lprog_new();
	lprog_label far = lprog_label_new(lp), near = lprog_label_new(lp);
	lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR);
	lprog_jcond(lp, BPF_JMP | BPF_JEQ | BPF_K, 5, far, near);
	lprog_bind(lp, near);
	for (int i = 0; i < 300; i++)
		lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, SCG_DATA_NR);
	lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ALLOW);
	lprog_bind(lp, far);
	lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ERRNO | 5);
	struct scg_prog prog;
	struct lprog_report rep;
	long *tags;
	assert_int_equal(lprog_resolve(lp, &prog, &tags, &rep), 0);
	assert_int_equal(rep.trampolines, 1);
	assert_int_equal(prog.len, 305);
	for (size_t i = 0; i < prog.len; i++)
		assert_int_not_equal(prog.insns[i].code, BPF_JMP | BPF_JA);
	struct scg_seccomp_data d = { .nr = 5, .arch = 0xc000003e };
	uint32_t ret;
	size_t executed;
	assert_int_equal(scg_emu_run(&prog, &d, &ret, &executed, NULL, NULL), 0);
	assert_int_equal(ret, SCG_RET_ERRNO | 5);
	assert_int_equal(executed, 3);
	free(tags);
	scg_prog_release(&prog);
	lprog_free(lp);
}

static void test_lprog_errors(void **state)
{
	(void)state;
	struct scg_prog prog;
	struct lprog_report rep;
	/* unbound label */
	struct lprog *lp = lprog_new();
	lprog_label l = lprog_label_new(lp);
	lprog_ja(lp, l);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_UNBOUND_LABEL);
	assert_int_equal(rep.label, l);
	lprog_free(lp);
	/* backward jump */
	lp = lprog_new();
	l = lprog_label_new(lp);
	lprog_bind(lp, l);
	lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, 0);
	lprog_ja(lp, l);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_BACKWARD_JUMP);
	lprog_free(lp);
	/* label after the last instruction */
	lp = lprog_new();
	l = lprog_label_new(lp);
	lprog_ja(lp, l);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	lprog_bind(lp, l);
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_LABEL_AT_END);
	lprog_free(lp);
	/* falls off the end; empty; bound twice */
	lp = lprog_new();
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_EMPTY);
	lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, 0);
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_FALLS_OFF);
	l = lprog_label_new(lp);
	lprog_bind(lp, l);
	lprog_bind(lp, l);
	assert_int_equal(lprog_error(lp), -EINVAL);
	lprog_free(lp);
	/* raw instructions pass through untouched */
	lp = lprog_new();
	lprog_raw(lp, (struct scg_insn){ BPF_LD | BPF_W | BPF_ABS, 3, 4, 0 });
	lprog_raw(lp, (struct scg_insn){ BPF_RET | BPF_K, 0, 0, 7 });
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), 0);
	assert_int_equal(prog.len, 2);
	assert_int_equal(prog.insns[0].jt, 3);
	assert_int_equal(prog.insns[0].jf, 4);
	assert_int_equal(prog.insns[1].k, 7);
	scg_prog_release(&prog);
	lprog_free(lp);
	/* too long */
	lp = lprog_new();
	for (int i = 0; i < 4096; i++)
		lprog_stmt(lp, BPF_LD | BPF_W | BPF_ABS, 0);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -E2BIG);
	assert_int_equal(rep.fault, LPROG_TOO_LONG);
	assert_int_equal(rep.len, 4097);
	assert_null(prog.insns);
	lprog_free(lp);
	lprog_free(NULL);
}

/*
 * Crowded far jumps with `ja` trampolines (the assembler's setting): every
 * round fits, though placing each trampoline as far ahead as it reaches
 * would push many of them past 4096 instructions.
 */
static void test_lprog_dense(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 9);
	for (size_t round = 0; round < test_scaled(12); round++) {
		size_t n = 1000 + progen_below(&rng, 400);
		struct lprog_report rep;
		assert_int_equal(random_round(&rng, n, true, LPROG_JA_TRAMPOLINES, &rep), 0);
		assert_int_equal(rep.len, n + 1 + rep.trampolines);
	}
}

/*
 * Each way of placing trampolines gives the shorter program on some inputs
 * and the resolver keeps the shorter; in these two programs a different one
 * wins (the lengths are the winner's).
 */
static void test_lprog_keeps_shorter(void **state)
{
	(void)state;
	static const struct {
		uint64_t seed;
		size_t len;
	} cases[] = { { 3, 592 }, { 40, 422 } };
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct progen_rng rng;
		progen_seed(&rng, cases[c].seed);
		size_t n = 2 + progen_below(&rng, 200);
		bool dense = progen_below(&rng, 2);
		struct lprog_report rep;
		assert_int_equal(random_round(&rng, n, dense, 0, &rep), 0);
		assert_true(rep.len <= cases[c].len);
	}
}

/* Where a branch with @offset from @pc lands, through `ja` trampolines. */
static size_t landing(const struct scg_prog *p, size_t pc, uint32_t offset)
{
	size_t at = pc + 1 + offset;
	while (at < p->len && p->insns[at].code == (BPF_JMP | BPF_JA))
		at = at + 1 + p->insns[at].k;
	return at;
}

/* A run of far jumps to one label shares one trampoline, in either trampoline style. */
static void test_lprog_shared(void **state)
{
	(void)state;
	for (int style = 0; style < 2; style++) {
		struct lprog *lp = lprog_new();
		lprog_set_flags(lp, style ? LPROG_JA_TRAMPOLINES : 0);
		lprog_label deny = lprog_label_new(lp);
		for (uint32_t i = 0; i < 100; i++) {
			lprog_label next = lprog_label_new(lp);
			lprog_jcond(lp, JEQ_K, i, deny, next);
			lprog_bind(lp, next);
		}
		lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ALLOW);
		for (int i = 0; i < 400; i++)
			lprog_stmt(lp, LD_NR, 0);
		lprog_bind(lp, deny);
		lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ERRNO | 1);
		struct scg_prog prog;
		struct lprog_report rep;
		assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), 0);
		assert_int_equal(rep.trampolines, 1);
		assert_int_equal(prog.len, 100 + 1 + 400 + 1 + 1);
		for (size_t i = 0; i < 100; i++) {
			size_t hit = landing(&prog, i, prog.insns[i].jt);
			assert_int_equal(prog.insns[hit].code, BPF_RET | BPF_K);
			assert_int_equal(prog.insns[hit].k, SCG_RET_ERRNO | 1);
		}
		scg_prog_release(&prog);
		lprog_free(lp);
	}
}

/* lprog_offset(): written as given, never checked, never given a trampoline. */
static void test_lprog_offsets(void **state)
{
	(void)state;
	struct lprog *lp = lprog_new();
	lprog_label far = lprog_label_new(lp), plus3 = lprog_offset(lp, 3);
	assert_true(lprog_is_bound(lp, plus3));
	lprog_jcond(lp, JEQ_K, 1, far, plus3);
	lprog_ja(lp, lprog_offset(lp, 0xfffffff0));
	lprog_jcond(lp, JEQ_K, 2, lprog_offset(lp, 255), lprog_offset(lp, 0));
	for (int i = 0; i < 300; i++)
		lprog_stmt(lp, LD_NR, 0);
	lprog_bind(lp, far);
	lprog_stmt(lp, BPF_RET | BPF_K, 7);
	struct scg_prog prog;
	struct lprog_report rep;
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), 0);
	assert_int_equal(rep.trampolines, 1);
	assert_int_equal(prog.len, 305);
	assert_int_equal(prog.insns[0].jf, 3);
	assert_int_equal(prog.insns[landing(&prog, 0, prog.insns[0].jt)].k, 7);
	size_t ja = prog.insns[1].code == (BPF_JMP | BPF_JA) && prog.insns[1].k == 0xfffffff0 ? 1 : 2;
	assert_int_equal(prog.insns[ja].k, 0xfffffff0);
	assert_int_equal(prog.insns[ja + 1].code, JEQ_K);
	assert_int_equal(prog.insns[ja + 1].jt, 255);
	assert_int_equal(prog.insns[ja + 1].jf, 0);
	scg_prog_release(&prog);
	/* binding one, or one too far for a conditional branch, is an error */
	assert_int_equal(lprog_error(lp), 0);
	lprog_bind(lp, plus3);
	assert_int_equal(lprog_error(lp), -EINVAL);
	lprog_free(lp);
	lp = lprog_new();
	lprog_jcond(lp, JEQ_K, 1, lprog_offset(lp, 256), lprog_offset(lp, 0));
	assert_int_equal(lprog_error(lp), -EINVAL);
	lprog_free(lp);
}

/* Resolves @lp expecting -EINVAL for @fault, then again with @flags expecting success. */
static void resolve_with_flag(struct lprog *lp, enum lprog_fault fault, unsigned flags,
			      struct scg_prog *prog)
{
	struct lprog_report rep;
	assert_int_equal(lprog_resolve(lp, prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, fault);
	lprog_set_flags(lp, flags);
	assert_int_equal(lprog_resolve(lp, prog, NULL, &rep), 0);
}

/* What the flags let through, encoded as the kernel would read it. */
static void test_lprog_flags(void **state)
{
	(void)state;
	struct scg_prog prog;
	/* no ret at the end */
	struct lprog *lp = lprog_new();
	lprog_stmt(lp, LD_NR, 0);
	resolve_with_flag(lp, LPROG_FALLS_OFF, LPROG_ALLOW_FALLS_OFF, &prog);
	assert_int_equal(prog.len, 1);
	scg_prog_release(&prog);
	lprog_free(lp);
	/* a label at the end: near and far (a trampoline to the end) */
	lp = lprog_new();
	lprog_label end = lprog_label_new(lp), next = lprog_label_new(lp);
	lprog_ja(lp, end);
	lprog_jcond(lp, JEQ_K, 1, end, next);
	lprog_bind(lp, next);
	for (int i = 0; i < 300; i++)
		lprog_stmt(lp, LD_NR, 0);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	lprog_bind(lp, end);
	resolve_with_flag(lp, LPROG_LABEL_AT_END, LPROG_ALLOW_LABEL_AT_END, &prog);
	assert_int_equal(prog.len, 304);
	assert_int_equal(landing(&prog, 0, prog.insns[0].k), prog.len);
	assert_int_equal(landing(&prog, 1, prog.insns[1].jt), prog.len);
	assert_int_equal(prog.insns[landing(&prog, 1, prog.insns[1].jf)].code, LD_NR);
	scg_prog_release(&prog);
	lprog_free(lp);
	/* a backward ja wraps around; a backward conditional jump stays refused */
	lp = lprog_new();
	lprog_label top = lprog_label_new(lp);
	lprog_bind(lp, top);
	lprog_stmt(lp, LD_NR, 0);
	lprog_ja(lp, top);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	resolve_with_flag(lp, LPROG_BACKWARD_JUMP, LPROG_ALLOW_BACKWARD_JA, &prog);
	assert_int_equal(prog.insns[1].k, 0xfffffffe);
	scg_prog_release(&prog);
	lprog_jcond(lp, JEQ_K, 1, top, top);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	struct lprog_report rep;
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	assert_int_equal(rep.fault, LPROG_BACKWARD_JUMP);
	lprog_free(lp);
}

/* With LPROG_JA_TRAMPOLINES, a branch to a far RET goes through a `ja`, not a copy. */
static void test_lprog_ja_trampolines(void **state)
{
	(void)state;
	struct lprog *lp = lprog_new();
	lprog_set_flags(lp, LPROG_JA_TRAMPOLINES);
	lprog_label far = lprog_label_new(lp), near = lprog_label_new(lp);
	lprog_stmt(lp, LD_NR, 0);
	lprog_jcond(lp, JEQ_K, 5, far, near);
	lprog_bind(lp, near);
	for (int i = 0; i < 300; i++)
		lprog_stmt(lp, LD_NR, 0);
	lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ALLOW);
	lprog_bind(lp, far);
	lprog_stmt(lp, BPF_RET | BPF_K, SCG_RET_ERRNO | 5);
	struct scg_prog prog;
	assert_int_equal(lprog_resolve(lp, &prog, NULL, NULL), 0);
	assert_int_equal(prog.len, 305);
	assert_int_equal(prog.insns[2].code, BPF_JMP | BPF_JA);
	assert_int_equal(landing(&prog, 1, prog.insns[1].jt), 304);
	scg_prog_release(&prog);
	lprog_free(lp);
}

struct seen {
	struct lprog_report faults[8];
	size_t n;
};

static void record_fault(const struct lprog_report *fault, void *arg)
{
	struct seen *seen = arg;
	assert_true(seen->n < 8);
	seen->faults[seen->n++] = *fault;
}

static void expect_fault(const struct lprog_report *f, enum lprog_fault fault, long tag,
			 unsigned branch, bool allowed)
{
	assert_int_equal(f->fault, fault);
	assert_int_equal(f->tag, tag);
	assert_int_equal(f->branch, branch);
	assert_int_equal(f->allowed, allowed);
}

/* lprog_check(): every label problem in program order, the allowed ones marked. */
static void test_lprog_check(void **state)
{
	(void)state;
	struct lprog *lp = lprog_new();
	lprog_set_flags(lp, LPROG_ALLOW_BACKWARD_JA);
	lprog_label top = lprog_label_new(lp), missing = lprog_label_new(lp);
	lprog_label end = lprog_label_new(lp);
	lprog_bind(lp, top);
	lprog_stmt(lp, LD_NR, 0);
	lprog_set_tag(lp, 1);
	lprog_jcond(lp, JEQ_K, 1, missing, end);
	lprog_set_tag(lp, 2);
	lprog_ja(lp, top);
	lprog_set_tag(lp, 3);
	lprog_jcond(lp, JEQ_K, 2, lprog_offset(lp, 0), top);
	lprog_stmt(lp, BPF_RET | BPF_K, 0);
	lprog_bind(lp, end);
	struct seen seen = { .n = 0 };
	assert_int_equal(lprog_check(lp, record_fault, &seen), 3);
	assert_int_equal(seen.n, 4);
	expect_fault(&seen.faults[0], LPROG_UNBOUND_LABEL, 1, 0, false);
	assert_int_equal(seen.faults[0].label, missing);
	expect_fault(&seen.faults[1], LPROG_LABEL_AT_END, 1, 1, false);
	expect_fault(&seen.faults[2], LPROG_BACKWARD_JUMP, 2, 0, true);
	expect_fault(&seen.faults[3], LPROG_BACKWARD_JUMP, 3, 1, false);
	assert_int_equal(lprog_check(lp, NULL, NULL), 3);
	/* lprog_resolve() names the first refused one */
	struct scg_prog prog;
	struct lprog_report rep;
	assert_int_equal(lprog_resolve(lp, &prog, NULL, &rep), -EINVAL);
	expect_fault(&rep, LPROG_UNBOUND_LABEL, 1, 0, false);
	lprog_free(lp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lprog_errors),
		cmocka_unit_test(test_lprog_ret_copy),
		cmocka_unit_test(test_lprog_random),
		cmocka_unit_test(test_lprog_dense),
		cmocka_unit_test(test_lprog_keeps_shorter),
		cmocka_unit_test(test_lprog_shared),
		cmocka_unit_test(test_lprog_offsets),
		cmocka_unit_test(test_lprog_flags),
		cmocka_unit_test(test_lprog_ja_trampolines),
		cmocka_unit_test(test_lprog_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
