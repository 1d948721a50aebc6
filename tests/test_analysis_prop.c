/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A property test of everything that claims a proof: random filters over
 * every opcode seccomp accepts (division and shifts by X, X known to be 0,
 * negation, scratch memory, RET A), checked against the emulator on random
 * and boundary inputs:
 *
 *  - the partition: every region's example, and every sampled input, gets
 *    from the emulator the value its region carries (one region each);
 *  - decompile: the policy, written as text, parsed and compiled, decides
 *    every sampled input as the filter does, and diff proves it;
 *  - diff: a mutant the proof calls equivalent decides every sample alike,
 *    and every difference it lists is one under the emulator;
 *  - fuse, decompiled and chained, over stacks of 2 to 4 filters: the fused
 *    filter returns the stack's value (the kernel's precedence, so a newer
 *    filter's division by zero never hides an older KILL_PROCESS);
 *  - assembler round trips for every ABI: the disassembly (its header names
 *    the ABI) reads back to the same instructions whatever --arch says.
 *
 * An answer the engine declines (too big, not expressible, out of time) is
 * never wrong; a wrong one fails the test after the case is shrunk to a
 * minimal program, printed as assembler with the input and both values.
 *
 * Counts: a quarter by default, all with SYSCAGE_TEST_DEPTH=nightly;
 * SYSCAGE_PROP_CASES=N and SYSCAGE_PROP_SEED=S override.
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

#include <syscage/analysis.h>
#ifdef SCG_TEST_HAVE_OCI
#include <json-c/json.h>
#include <syscage/oci.h>
#endif
#include <syscage/syscage.h>

#include "bpf/opcodes.h"
#include "support/live.h"
#include "support/progen.h"
#include "support/scale.h"

#define MAX_LEN 48
#define SAMPLES 48
#define BUDGET_MS 3000

static const uint32_t audits[] = { 0xc000003eU, 0x40000003U, 0xc00000b7U, 0x80000016U,
				   0x80000015U, 0xc0000015U, 0x40000028U, 0x0U };

/* --- the generator ------------------------------------------------------------------- */

struct gen {
	struct progen_rng *rng;
	struct scg_insn *in;
	size_t len, cap;
	uint16_t slots; /* scratch words stored before the first jump */
	bool jumped;
};

static void emit(struct gen *g, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (g->len < g->cap)
		g->in[g->len++] = (struct scg_insn){ code, jt, jf, k };
}

static uint32_t pick(struct gen *g, uint32_t n)
{
	return progen_below(g->rng, n);
}

/* A value a test or an immediate compares with: boundaries, ABIs, shift counts, 0. */
static uint32_t constant(struct gen *g)
{
	switch (pick(g, 6)) {
	case 0:
		return audits[pick(g, sizeof(audits) / sizeof(audits[0]))];
	case 1:
		return pick(g, 40); /* small, shift counts of 32 and more among them */
	case 2:
		return 0;
	default:
		return progen_interesting32(g->rng);
	}
}

/* A jump forward from the current end to somewhere among the next @room instructions. */
static uint8_t forward(struct gen *g, size_t room)
{
	return (uint8_t)(pick(g, 3) == 0 ? 0 : pick(g, (uint32_t)room + 1));
}

/* One instruction, not the last (which is a return). */
static void one(struct gen *g, const struct progen_opts *po)
{
	size_t room = g->cap - g->len - 2;
	if (room > 255)
		room = 255;
	switch (pick(g, 20)) {
	case 0: case 1: case 2: case 3:
		emit(g, BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 * pick(g, 16));
		break;
	case 4:
		emit(g, (uint16_t)(pick(g, 2) ? BPF_LD | BPF_IMM : BPF_LDX | BPF_IMM), 0, 0,
		     constant(g));
		break;
	case 5:
		emit(g, (uint16_t)(BPF_MISC | (pick(g, 2) ? BPF_TAX : BPF_TXA)), 0, 0, 0);
		break;
	case 6: case 7: {
		/* division, and shifts by X: X may be 0, 32 or more, or a loaded word */
		static const uint16_t by_x[] = { BPF_DIV, BPF_DIV, BPF_LSH, BPF_RSH, BPF_MUL,
						 BPF_ADD, BPF_SUB, BPF_AND, BPF_OR, BPF_XOR };
		emit(g, (uint16_t)(BPF_ALU | by_x[pick(g, 10)] | BPF_X), 0, 0, 0);
		break;
	}
	case 8: case 9: {
		static const uint16_t by_k[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR,
						 BPF_AND, BPF_LSH, BPF_RSH, BPF_XOR };
		uint16_t op = by_k[pick(g, 9)];
		uint32_t k = constant(g);
		if (op == BPF_LSH || op == BPF_RSH)
			k &= 31;
		if (op == BPF_DIV && k == 0)
			k = 1 + pick(g, 5);
		emit(g, (uint16_t)(BPF_ALU | op | BPF_K), 0, 0, k);
		break;
	}
	case 10:
		emit(g, BPF_ALU | BPF_NEG, 0, 0, 0);
		break;
	case 11: {
		uint32_t s = pick(g, 4);
		/* a store after a jump does not make a later load legal (the kernel's rule) */
		emit(g, (uint16_t)(pick(g, 2) ? BPF_ST : BPF_STX), 0, 0, s);
		if (!g->jumped)
			g->slots |= (uint16_t)(1U << s);
		break;
	}
	case 12:
		if (g->slots) {
			uint32_t s;
			do
				s = pick(g, 4);
			while (!(g->slots & (1U << s)));
			emit(g, (uint16_t)((pick(g, 2) ? BPF_LD : BPF_LDX) | BPF_MEM), 0, 0, s);
		} else {
			emit(g, (uint16_t)((pick(g, 2) ? BPF_LD : BPF_LDX) | BPF_W | BPF_LEN), 0, 0, 0);
		}
		break;
	case 13: case 14: case 15: case 16: case 17: {
		static const uint16_t ops[] = { BPF_JEQ, BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };
		uint16_t src = pick(g, 5) == 0 ? BPF_X : BPF_K;
		g->jumped = true;
		emit(g, (uint16_t)(BPF_JMP | ops[pick(g, 5)] | src), forward(g, room), forward(g, room),
		     constant(g));
		break;
	}
	case 18:
		g->jumped = true;
		emit(g, BPF_JMP | BPF_JA, 0, 0, forward(g, room));
		break;
	default:
		if (po->allow_ret_a && pick(g, 4) == 0)
			emit(g, BPF_RET | BPF_A, 0, 0, 0);
		else
			emit(g, BPF_RET | BPF_K, 0, 0, progen_ret(g->rng, false));
		break;
	}
}

/*
 * A filter-like program: often an ABI check first (so the decompiler and
 * fuse's decompiled way get a chance), then loads, arithmetic and tests;
 * divisions by an X that may be 0 are frequent.
 */
static int gen_program(struct progen_rng *rng, struct scg_prog *out)
{
	struct progen_opts po = { .max_len = 40, .allow_ret_a = true, .allow_div_x = true };
	if (progen_below(rng, 5) == 0) {
		for (;;) {
			int r = progen_valid(rng, &po, out);
			if (r < 0)
				return r;
			struct scg_verify_result res;
			if (scg_verify(out, NULL, &res, NULL) == 0 && res.accepted)
				return 0;
			scg_prog_release(out);
		}
	}
	for (;;) {
		size_t cap = 4 + progen_below(rng, MAX_LEN - 4);
		struct gen g = { rng, calloc(cap, sizeof(struct scg_insn)), 0, cap, 0, false };
		if (!g.in)
			return -ENOMEM;
		if (progen_below(rng, 3) != 0) {
			emit(&g, BPF_LD | BPF_W | BPF_ABS, 0, 0, 4);
			emit(&g, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, audits[progen_below(rng, 4)]);
			emit(&g, BPF_RET | BPF_K, 0, 0, progen_ret(rng, false));
			emit(&g, BPF_LD | BPF_W | BPF_ABS, 0, 0, 0);
		}
		while (g.len + 1 < g.cap)
			one(&g, &po);
		emit(&g, BPF_RET | BPF_K, 0, 0, progen_ret(rng, false));
		struct scg_prog p = { g.in, g.len };
		struct scg_verify_result res;
		if (scg_verify(&p, NULL, &res, NULL) == 0 && res.accepted) {
			*out = p;
			return 0;
		}
		free(g.in);
	}
}

/* --- inputs ------------------------------------------------------------------------------ */

/* The words of @d as the filter reads them (the ABI's byte order). */
static void data_of(const uint32_t *w, struct scg_seccomp_data *d)
{
	bool be = !(w[SCG_WORD_ARCH] & SCG_AUDIT_ARCH_LE);
	memset(d, 0, sizeof(*d));
	d->nr = w[0];
	d->arch = w[1];
	uint64_t v[7];
	for (int i = 0; i < 7; i++) {
		uint32_t first = w[2 + 2 * i], second = w[3 + 2 * i];
		v[i] = be ? (uint64_t)first << 32 | second : (uint64_t)second << 32 | first;
	}
	d->instruction_pointer = v[0];
	memcpy(d->args, v + 1, sizeof(d->args));
}

/* A sample: words at boundaries of the programs' constants, of the ABIs, or at random. */
static void sample(struct progen_rng *rng, const struct scg_prog *progs, size_t n, uint32_t *w)
{
	for (unsigned i = 0; i < SCG_DATA_WORDS; i++) {
		switch (progen_below(rng, 5)) {
		case 0: {
			const struct scg_prog *p = &progs[progen_below(rng, (uint32_t)n)];
			uint32_t k = p->insns[progen_below(rng, (uint32_t)p->len)].k;
			w[i] = k + progen_below(rng, 3) - 1;
			break;
		}
		case 1:
			w[i] = 0;
			break;
		default:
			w[i] = progen_interesting32(rng);
			break;
		}
	}
	if (progen_below(rng, 4))
		w[SCG_WORD_ARCH] = audits[progen_below(rng, sizeof(audits) / sizeof(audits[0]))];
	if (progen_below(rng, 3) == 0)
		w[SCG_WORD_NR] = progen_below(rng, 450);
}

/* The kernel never filters these: the proofs leave them out. */
static bool exempt(const uint32_t *w)
{
	return w[SCG_WORD_ARCH] == 0xc000003eU && (w[SCG_WORD_NR] == 335 || w[SCG_WORD_NR] == 336);
}

static uint32_t run_stack(const struct scg_prog *progs, size_t n, const uint32_t *w)
{
	struct scg_seccomp_data d;
	data_of(w, &d);
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack_unchecked(progs, n, &d, &res, NULL, NULL, NULL, NULL), 0);
	return res.ret;
}

/* --- the properties ----------------------------------------------------------------------- */

enum failure {
	OK,
	F_REGION_EXAMPLE,  /* a region's example gets another value from the emulator */
	F_REGION_SAMPLE,   /* a sampled input is in no region, or one with another value */
	F_DECOMPILE,       /* the decompiled policy decides a sample differently */
	F_DECOMPILE_PROOF, /* ... and diff calls them equivalent */
	F_DIFF_PROOF,      /* diff calls a mutant equivalent that the emulator tells apart */
	F_DIFF_LISTED,     /* a listed difference is none under the emulator */
	F_FUSE,            /* the fused filter differs from the stack on a sample */
	F_FUSE_UNPROVEN,   /* fuse's own proof failed (-EPROTO) */
	F_ASM,             /* the disassembly for an ABI reads back differently */
	F_FUSE_KERNEL,     /* the kernel tells the stack and the fused filter apart */
	F_OCI,             /* the decompiled policy through the OCI export and import differs */
};

static const char *const failure_names[] = {
	"ok", "region example", "region sample", "decompile", "decompile proven wrongly",
	"diff proven wrongly", "diff listed no difference", "fuse", "fuse proof failed", "asm",
	"fuse in the kernel", "OCI round trip",
};

struct verdict_case {
	uint32_t words[SCG_DATA_WORDS];
	uint32_t want, got;
	char what[320];
};

struct regions {
	struct scg_region **r;
	uint32_t *winner;
	size_t n, cap;
	const struct scg_prog *progs;
	size_t nprogs;
	struct verdict_case *bad;
	bool failed;
};

static int keep_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)rets;
	struct regions *rs = ctx;
	uint32_t w[SCG_DATA_WORDS];
	if (scg_region_example_words(region, w) == 0 && !rs->failed) {
		uint32_t got = run_stack(rs->progs, rs->nprogs, w);
		if (got != winner) {
			rs->failed = true;
			memcpy(rs->bad->words, w, sizeof(w));
			rs->bad->want = winner;
			rs->bad->got = got;
			snprintf(rs->bad->what, sizeof(rs->bad->what), "region's example");
		}
	}
	if (rs->n < 4096) {
		if (rs->n == rs->cap) {
			size_t cap = rs->cap ? 2 * rs->cap : 64;
			rs->r = realloc(rs->r, cap * sizeof(*rs->r));
			rs->winner = realloc(rs->winner, cap * sizeof(*rs->winner));
			assert_non_null(rs->r);
			assert_non_null(rs->winner);
			rs->cap = cap;
		}
		rs->r[rs->n] = scg_region_clone(region);
		assert_non_null(rs->r[rs->n]);
		rs->winner[rs->n++] = winner;
	}
	return 0;
}

static void regions_free(struct regions *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		scg_region_free(rs->r[i]);
	free(rs->r);
	free(rs->winner);
}

struct stats {
	size_t programs, stacks, partitioned, declined, decompiled, fused, chained, mutants, asm_trips;
	size_t kernel_calls, oci_trips;
};

/* 1 when the kernel can be asked (a loud SKIP once otherwise), asked once. */
static int live_state = 2;

static int live_ok(void)
{
	if (live_state == 2)
		live_state = live_require();
	assert_true(live_state >= 0);
	return live_state;
}

#define NR_SCHED_YIELD 24U /* x86_64: no arguments read, returns 0 */

/*
 * The stack loaded as a stack (threads tell KILL_THREAD from KILL_PROCESS),
 * the fused filter alone, and the emulator's expectation: one outcome for
 * sched_yield with random arguments.  False with *@bad filled otherwise.
 */
static bool same_in_kernel(struct progen_rng *rng, const struct scg_prog *progs, size_t n,
			   const struct scg_prog *fused, struct verdict_case *bad, struct stats *st)
{
	struct scg_prog wrapped[4];
	for (size_t i = 0; i < n; i++)
		assert_int_equal(live_wrap_for_stacking(&progs[i], &wrapped[i]), 0);
	struct live_call call = { .nr = NR_SCHED_YIELD };
	for (int i = 0; i < 6; i++)
		call.args[i] = progen_interesting64(rng);
	struct live_outcome a, b, want;
	assert_int_equal(live_run(wrapped, n, &call, &a), 0);
	assert_int_equal(live_run(fused, 1, &call, &b), 0);
	struct scg_seccomp_data d = { .nr = call.nr, .arch = 0xc000003eU,
				      .instruction_pointer = live_ip(false) };
	memcpy(d.args, call.args, sizeof(d.args));
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack_unchecked(progs, n, &d, &res, NULL, NULL, NULL, NULL), 0);
	live_expect(&res, 0, &want);
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&wrapped[i]);
	st->kernel_calls++;
	if (live_outcome_equal(&a, &b) && live_outcome_equal(&a, &want))
		return true;
	char sa[96], sb[96], sw[96];
	live_outcome_format(&a, sa, sizeof(sa));
	live_outcome_format(&b, sb, sizeof(sb));
	live_outcome_format(&want, sw, sizeof(sw));
	memset(bad, 0, sizeof(*bad));
	snprintf(bad->what, sizeof(bad->what), "stack %s, fused %s, emulator %s", sa, sb, sw);
	return false;
}

/* The partition of the stack against the emulator: examples and samples. */
static enum failure check_partition(const struct scg_prog *progs, size_t n, uint64_t seed,
				    struct verdict_case *bad, struct stats *st)
{
	struct regions rs = { .progs = progs, .nprogs = n, .bad = bad };
	SCG_OPTS(scg_analysis_options, ao, .timeout_ms = BUDGET_MS);
	int r = scg_analysis_regions_opts(progs, n, NULL, &ao, keep_region, &rs, NULL);
	enum failure f = OK;
	if (rs.failed) {
		f = F_REGION_EXAMPLE;
	} else if (r != 0) {
		st->declined++; /* too big, out of time: nothing claimed */
	} else if (rs.n < 4096) {
		st->partitioned++;
		struct progen_rng rng;
		progen_seed(&rng, seed);
		for (int s = 0; s < SAMPLES && f == OK; s++) {
			uint32_t w[SCG_DATA_WORDS];
			sample(&rng, progs, n, w);
			size_t in = 0, at = 0;
			for (size_t i = 0; i < rs.n; i++)
				if (scg_region_contains(rs.r[i], w)) {
					in++;
					at = i;
				}
			uint32_t got = run_stack(progs, n, w);
			if (in != 1 || rs.winner[at] != got) {
				memcpy(bad->words, w, sizeof(w));
				bad->want = in == 1 ? rs.winner[at] : 0;
				bad->got = got;
				snprintf(bad->what, sizeof(bad->what), "sample in %zu regions", in);
				f = F_REGION_SAMPLE;
			}
		}
	}
	regions_free(&rs);
	return f;
}

/* Compares @a and @b (single filters) on samples; false with *@bad filled on a difference. */
static bool same_on_samples(const struct scg_prog *a, size_t na, const struct scg_prog *b,
			    uint64_t seed, bool exact, struct verdict_case *bad)
{
	struct progen_rng rng;
	progen_seed(&rng, seed);
	for (int s = 0; s < SAMPLES; s++) {
		uint32_t w[SCG_DATA_WORDS];
		sample(&rng, a, na, w);
		if (exempt(w))
			continue;
		uint32_t va = run_stack(a, na, w), vb = run_stack(b, 1, w);
		if (exact ? va != vb : !scg_verdict_same(va, vb, false)) {
			memcpy(bad->words, w, sizeof(w));
			bad->want = va;
			bad->got = vb;
			snprintf(bad->what, sizeof(bad->what), "sample");
			return false;
		}
	}
	return true;
}

#ifdef SCG_TEST_HAVE_OCI
/* Whether the export's @json has an entry naming @name. */
static bool oci_names(json_object *root, const char *name)
{
	json_object *calls = json_object_object_get(root, "syscalls");
	for (size_t i = 0; i < json_object_array_length(calls); i++) {
		json_object *names = json_object_object_get(json_object_array_get_idx(calls, i), "names");
		for (size_t k = 0; k < json_object_array_length(names); k++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(names, k)), name))
				return true;
	}
	return false;
}

/*
 * Where runc decides as the policy: a call of one of its ABIs to a syscall
 * an entry names.  Elsewhere the export's warnings say what OCI cannot
 * (runc's ENOSYS stub, its bad-architecture action, the machine's own ABI).
 */
static bool oci_decides(const struct scg_policy *pol, json_object *root, const uint32_t *w)
{
	const struct scg_arch *arch = scg_arch_from_audit(w[SCG_WORD_ARCH], w[SCG_WORD_NR]);
	bool listed = false;
	for (size_t t = 0; arch && t < scg_policy_arch_count(pol); t++)
		listed |= scg_policy_arch_at(pol, t) == arch;
	const char *name = listed ? scg_syscall_name(arch, w[SCG_WORD_NR]) : NULL;
	return name && oci_names(root, name);
}

/* @w made a call of one of @pol's ABIs to a syscall an entry names, when one can be. */
static void aim_at_entry(struct progen_rng *rng, const struct scg_policy *pol, json_object *root,
			 uint32_t *w)
{
	json_object *calls = json_object_object_get(root, "syscalls");
	size_t ncalls = json_object_array_length(calls), narches = scg_policy_arch_count(pol);
	if (!ncalls || !narches)
		return;
	json_object *names = json_object_object_get(
		json_object_array_get_idx(calls, progen_below(rng, (uint32_t)ncalls)), "names");
	size_t nnames = json_object_array_length(names);
	const struct scg_arch *arch = scg_policy_arch_at(pol, progen_below(rng, (uint32_t)narches));
	uint32_t nr;
	if (nnames && scg_syscall_lookup(arch, json_object_get_string(json_object_array_get_idx(
						       names, progen_below(rng, (uint32_t)nnames))),
					 &nr) == 0) {
		w[SCG_WORD_ARCH] = scg_arch_audit(arch);
		w[SCG_WORD_NR] = nr;
	}
}

/*
 * @pol (decided as the stack) through the OCI export and the import,
 * compiled: the same verdicts wherever OCI can say what the policy says.
 * A policy the export refuses, or warns about as a whole (multiplexers,
 * big-endian ABIs this machine cannot load), is no failure: the export
 * says why.
 */
static enum failure check_oci(const struct scg_prog *progs, size_t n, const struct scg_policy *pol,
			      uint64_t seed, struct verdict_case *bad, struct stats *st)
{
	char *json = NULL;
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	bool usable = scg_oci_export(pol, &json, diag) == 0;
	for (size_t i = 0; usable && i < scg_diag_count(diag); i++) {
		const char *code = scg_diag_get(diag, i)->code;
		usable = strcmp(code, "oci-mux") != 0 && strcmp(code, "oci-byte-order") != 0;
	}
	scg_diag_free(diag);
	struct scg_policy *back = NULL;
	struct scg_prog prog = { 0 };
	enum failure f = OK;
	if (usable && (scg_oci_import(json, strlen(json), NULL, &back, NULL) != 0 ||
		       scg_compile(back, NULL, &prog, NULL) != 0)) {
		memset(bad, 0, sizeof(*bad));
		snprintf(bad->what, sizeof(bad->what), "the export's JSON does not compile");
		f = F_OCI;
	}
	json_object *root = usable && f == OK ? json_tokener_parse(json) : NULL;
	struct progen_rng rng;
	progen_seed(&rng, seed);
	size_t compared = 0;
	for (int s = 0; root && s < SAMPLES && f == OK; s++) {
		uint32_t w[SCG_DATA_WORDS];
		sample(&rng, progs, n, w);
		aim_at_entry(&rng, pol, root, w);
		if (exempt(w) || !oci_decides(pol, root, w))
			continue;
		compared++;
		uint32_t want = run_stack(progs, n, w), got = run_stack(&prog, 1, w);
		if (!scg_verdict_same(want, got, false)) {
			*bad = (struct verdict_case){ .want = want, .got = got };
			memcpy(bad->words, w, sizeof(w));
			snprintf(bad->what, sizeof(bad->what), "sample through OCI");
			f = F_OCI;
		}
	}
	st->oci_trips += f == OK && compared > 0;
	json_object_put(root);
	scg_prog_release(&prog);
	scg_policy_free(back);
	free(json);
	return f;
}
#endif

/* decompile, through the text, then compile: the same verdicts, and diff agrees. */
static enum failure check_decompile(const struct scg_prog *progs, size_t n, uint64_t seed,
				    struct verdict_case *bad, struct stats *st)
{
	struct scg_policy *pol = NULL;
	SCG_OPTS(scg_analysis_options, ao, .timeout_ms = BUDGET_MS);
	if (scg_decompile_opts(progs, n, &ao, &pol, NULL) != 0)
		return OK;
	char *text = NULL;
	struct scg_policy *parsed = NULL;
	struct scg_prog back = { 0 };
	enum failure f = OK;
	assert_int_equal(scg_policy_to_text(pol, &text), 0);
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &parsed, NULL), 0);
	if (scg_compile(parsed, NULL, &back, NULL) == 0) {
		st->decompiled++;
		if (!same_on_samples(progs, n, &back, seed, false, bad)) {
			SCG_OPTS(scg_diff_options, dopts, .limits = &ao);
			int d = scg_analysis_diff(progs, n, &back, 1, &dopts, NULL, NULL, NULL);
			f = d == 0 ? F_DECOMPILE_PROOF : F_DECOMPILE;
		}
#ifdef SCG_TEST_HAVE_OCI
		if (f == OK)
			f = check_oci(progs, n, parsed, seed, bad, st);
#endif
	}
	scg_prog_release(&back);
	scg_policy_free(parsed);
	scg_policy_free(pol);
	free(text);
	return f;
}

struct listed {
	const struct scg_prog *a, *b;
	struct verdict_case *bad;
	bool failed;
};

static int on_listed(void *ctx, const struct scg_region *region, uint32_t ra, uint32_t rb)
{
	struct listed *l = ctx;
	uint32_t w[SCG_DATA_WORDS];
	if (l->failed || scg_region_example_words(region, w) < 0)
		return 0;
	uint32_t va = run_stack(l->a, 1, w), vb = run_stack(l->b, 1, w);
	if (scg_verdict_same(va, vb, false) || va != ra || vb != rb) {
		l->failed = true;
		memcpy(l->bad->words, w, sizeof(w));
		l->bad->want = va;
		l->bad->got = vb;
		snprintf(l->bad->what, sizeof(l->bad->what), "listed 0x%08x / 0x%08x", ra, rb);
	}
	return 0;
}

/* diff against a mutant (one return or one constant changed). */
static enum failure check_diff(struct progen_rng *rng, const struct scg_prog *p, uint64_t seed,
			       struct verdict_case *bad, struct stats *st)
{
	struct scg_insn *in = malloc(p->len * sizeof(*in));
	assert_non_null(in);
	memcpy(in, p->insns, p->len * sizeof(*in));
	struct scg_prog m = { in, p->len };
	size_t i = progen_below(rng, (uint32_t)p->len);
	if (BPF_CLASS(in[i].code) == BPF_RET && BPF_RVAL(in[i].code) == BPF_K)
		in[i].k = progen_ret(rng, false);
	else if (BPF_CLASS(in[i].code) == BPF_JMP && BPF_OP(in[i].code) != BPF_JA)
		in[i].k += progen_below(rng, 3) - 1;
	struct scg_verify_result res;
	enum failure f = OK;
	if (scg_verify(&m, NULL, &res, NULL) == 0 && res.accepted) {
		st->mutants++;
		struct listed l = { p, &m, bad, false };
		SCG_OPTS(scg_analysis_options, ao, .timeout_ms = BUDGET_MS);
		SCG_OPTS(scg_diff_options, dopts, .limits = &ao);
		int d = scg_analysis_diff(p, 1, &m, 1, &dopts, on_listed, &l, NULL);
		if (l.failed)
			f = F_DIFF_LISTED;
		else if (d == 0 && !same_on_samples(p, 1, &m, seed, false, bad))
			f = F_DIFF_PROOF;
	}
	free(in);
	return f;
}

/* fuse, decompiled and chained: the fused filter returns the stack's value. */
static enum failure check_fuse(const struct scg_prog *progs, size_t n, uint64_t seed,
			       struct verdict_case *bad, struct stats *st)
{
	for (int chain = 0; chain < 2; chain++) {
		SCG_OPTS(scg_analysis_options, ao, .timeout_ms = BUDGET_MS);
		SCG_OPTS(scg_fuse_options, fo, .force_chain = chain, .limits = &ao);
		struct scg_fuse_result res;
		int r = scg_fuse(progs, n, &fo, &res, NULL);
		if (r == -EPROTO) {
			memset(bad, 0, sizeof(*bad));
			snprintf(bad->what, sizeof(bad->what), "%s: fuse's own proof failed",
				 chain ? "chained" : "decompiled");
			return F_FUSE_UNPROVEN;
		}
		if (r != 0)
			continue;
		if (res.chained)
			st->chained++;
		else
			st->fused++;
		/* a decompiled result keeps the effect; a chained one the very value */
		bool ok = same_on_samples(progs, n, &res.prog, seed + (uint64_t)chain, res.chained,
					  bad);
		/* and a sample in the kernel itself */
		struct progen_rng krng;
		progen_seed(&krng, seed ^ 0x6b65726eULL);
		bool kernel = !ok || progen_below(&krng, 3) != 0 || live_ok() != 1 ||
			      same_in_kernel(&krng, progs, n, &res.prog, bad, st);
		scg_fuse_result_release(&res);
		if (!ok)
			return F_FUSE;
		if (!kernel)
			return F_FUSE_KERNEL;
	}
	return OK;
}

/* The disassembly for each ABI, with its header, reads back to the same program. */
static enum failure check_asm(const struct scg_prog *p, struct verdict_case *bad,
			      struct stats *st)
{
	const struct scg_arch *other = scg_arch_lookup("x86");
	for (size_t a = 0; a < scg_arch_count(); a++) {
		const struct scg_arch *arch = scg_arch_at(a);
		char *text = NULL;
		assert_int_equal(scg_disasm(p, arch, SCG_DISASM_ASM, &text), 0);
		for (int how = 0; how < 2; how++) {
			SCG_OPTS(scg_asm_options, ao, .arch = how ? other : NULL,
				 .arch_is_default = how == 1);
			struct scg_prog back = { 0 };
			int r = scg_asm(text, strlen(text), &ao, &back, NULL);
			bool same = r == 0 && back.len == p->len &&
				    !memcmp(back.insns, p->insns, p->len * sizeof(*p->insns));
			scg_prog_release(&back);
			if (!same) {
				memset(bad, 0, sizeof(*bad));
				snprintf(bad->what, sizeof(bad->what), "names for %s, read %s",
					 scg_arch_name(arch), how ? "with x86 as default" : "alone");
				free(text);
				return F_ASM;
			}
		}
		free(text);
		st->asm_trips++;
	}
	return OK;
}

/* Every property of one stack (a single filter is a stack of one). */
static enum failure check_all(struct progen_rng *rng, const struct scg_prog *progs, size_t n,
			      struct verdict_case *bad, struct stats *st)
{
	uint64_t seed = progen_next(rng);
	enum failure f = check_partition(progs, n, seed, bad, st);
	if (f == OK)
		f = check_decompile(progs, n, seed, bad, st);
	if (f == OK && n == 1)
		f = check_diff(rng, &progs[0], seed, bad, st);
	if (f == OK && n > 1)
		f = check_fuse(progs, n, seed, bad, st);
	if (f == OK && n == 1 && progen_below(rng, 8) == 0)
		f = check_asm(&progs[0], bad, st);
	return f;
}

/* --- shrinking and printing -------------------------------------------------------- */

/* @p without instruction @i, jumps over it shortened; false when that is no program. */
static bool without(const struct scg_prog *p, size_t i, struct scg_prog *out)
{
	if (p->len < 2 || i + 1 >= p->len)
		return false;
	struct scg_insn *in = malloc((p->len - 1) * sizeof(*in));
	assert_non_null(in);
	for (size_t j = 0, o = 0; j < p->len; j++) {
		if (j == i)
			continue;
		struct scg_insn x = p->insns[j];
		if (j < i && BPF_CLASS(x.code) == BPF_JMP) {
			if (BPF_OP(x.code) == BPF_JA) {
				if (j + 1 + x.k > i)
					x.k--;
			} else {
				if (j + 1 + x.jt > i)
					x.jt--;
				if (j + 1 + x.jf > i)
					x.jf--;
			}
		}
		in[o++] = x;
	}
	*out = (struct scg_prog){ in, p->len - 1 };
	struct scg_verify_result res;
	if (scg_verify(out, NULL, &res, NULL) == 0 && res.accepted)
		return true;
	free(in);
	return false;
}

/* The same check again, from a fixed seed, on a candidate: does it still fail so? */
static bool still_fails(struct scg_prog *progs, size_t n, uint64_t seed, enum failure kind,
			struct verdict_case *bad)
{
	struct progen_rng rng;
	progen_seed(&rng, seed);
	struct stats st = { 0 };
	if (kind == F_ASM) /* not drawn by chance again: asked directly */
		return n == 1 && check_asm(&progs[0], bad, &st) == kind;
	return check_all(&rng, progs, n, bad, &st) == kind;
}

/*
 * Drops filters of the stack, then deletes instructions, while the failure
 * stays; the programs become the smallest found.  Returns the filters left.
 */
static size_t shrink(struct scg_prog *progs, size_t n, uint64_t seed, enum failure kind,
		     struct verdict_case *bad)
{
	for (size_t f = 0; n > 1 && f < n;) {
		struct scg_prog gone = progs[f];
		memmove(&progs[f], &progs[f + 1], (n - f - 1) * sizeof(*progs));
		struct verdict_case b;
		if (still_fails(progs, n - 1, seed, kind, &b)) {
			free(gone.insns);
			*bad = b;
			n--;
		} else {
			memmove(&progs[f + 1], &progs[f], (n - f - 1) * sizeof(*progs));
			progs[f++] = gone;
		}
	}
	bool progress = true;
	while (progress) {
		progress = false;
		for (size_t f = 0; f < n; f++)
			for (size_t i = 0; i < progs[f].len; i++) {
				struct scg_prog cand, old = progs[f];
				if (!without(&old, i, &cand))
					continue;
				progs[f] = cand;
				struct verdict_case b;
				if (still_fails(progs, n, seed, kind, &b)) {
					free(old.insns);
					*bad = b;
					progress = true;
					i--;
				} else {
					free(cand.insns);
					progs[f] = old;
				}
			}
	}
	return n;
}

static void print_case(const struct scg_prog *progs, size_t n, enum failure kind, uint64_t seed,
		       const struct verdict_case *bad)
{
	print_message("counterexample (%s), seed 0x%016llx, %zu filter%s, oldest first:\n",
		      failure_names[kind], (unsigned long long)seed, n, n == 1 ? "" : "s");
	for (size_t f = 0; f < n; f++) {
		char *text = NULL;
		if (scg_disasm(&progs[f], scg_arch_lookup("x86_64"), SCG_DISASM_ASM, &text) == 0)
			print_message("--- filter %zu\n%s", f, text);
		free(text);
	}
	if (kind == F_ASM || kind == F_FUSE_UNPROVEN || kind == F_FUSE_KERNEL) {
		print_message("%s\n", bad->what);
		return;
	}
	struct scg_seccomp_data d;
	data_of(bad->words, &d);
	print_message("%s: arch 0x%08x nr %u ip 0x%llx args 0x%llx 0x%llx 0x%llx 0x%llx 0x%llx "
		      "0x%llx: expected 0x%08x, got 0x%08x\n",
		      bad->what, (unsigned)d.arch, (unsigned)d.nr,
		      (unsigned long long)d.instruction_pointer, (unsigned long long)d.args[0],
		      (unsigned long long)d.args[1], (unsigned long long)d.args[2],
		      (unsigned long long)d.args[3], (unsigned long long)d.args[4],
		      (unsigned long long)d.args[5], bad->want, bad->got);
}

/* --- the test ------------------------------------------------------------------------------ */

static size_t cases(size_t full)
{
	const char *s = getenv("SYSCAGE_PROP_CASES");
	return s ? strtoul(s, NULL, 10) : test_scaled(full);
}

static void test_properties(void **state)
{
	(void)state;
	const char *seed_env = getenv("SYSCAGE_PROP_SEED");
	uint64_t base = seed_env ? strtoull(seed_env, NULL, 0) : 0x5eed0025;
	size_t total = cases(800);
	struct stats st = { 0 };
	struct scg_prog pool[4] = { 0 };
	size_t npool = 0;
	for (size_t c = 0; c < total; c++) {
		struct progen_rng rng;
		uint64_t seed = base * 0x100000001b3ULL + c;
		progen_seed(&rng, seed);
		/* one new filter, then a stack of it under 1 to 3 older ones */
		struct scg_prog p;
		assert_int_equal(gen_program(&rng, &p), 0);
		size_t n = 1;
		struct scg_prog progs[4] = { p };
		if (npool && progen_below(&rng, 2)) {
			n = 1 + 1 + progen_below(&rng, (uint32_t)npool);
			if (n > 4)
				n = 4;
			for (size_t i = 0; i + 1 < n; i++)
				progs[i] = pool[progen_below(&rng, (uint32_t)npool)];
			progs[n - 1] = p;
		}
		uint64_t check_seed = progen_next(&rng);
		progen_seed(&rng, check_seed);
		struct verdict_case bad;
		enum failure f = check_all(&rng, progs, n, &bad, &st);
		st.programs++;
		st.stacks += n > 1;
		if (f != OK) {
			struct scg_prog mine[4];
			for (size_t i = 0; i < n; i++) {
				mine[i].len = progs[i].len;
				mine[i].insns = malloc(progs[i].len * sizeof(struct scg_insn));
				assert_non_null(mine[i].insns);
				memcpy(mine[i].insns, progs[i].insns, progs[i].len * sizeof(struct scg_insn));
			}
			n = shrink(mine, n, check_seed, f, &bad);
			print_case(mine, n, f, check_seed, &bad);
			for (size_t i = 0; i < n; i++)
				free(mine[i].insns);
			fail_msg("case %zu of %zu: %s", c, total, failure_names[f]);
		}
		/* keep the program for later stacks */
		size_t slot = npool < 4 ? npool++ : progen_below(&rng, 4);
		if (pool[slot].insns)
			scg_prog_release(&pool[slot]);
		pool[slot] = p;
	}
	for (size_t i = 0; i < npool; i++)
		scg_prog_release(&pool[i]);
	print_message("properties: %zu programs (%zu as stacks of 2-4): %zu partitioned, %zu "
		      "declined, %zu decompiled, %zu fused by policy, %zu chained, %zu mutants "
		      "diffed, %zu ABI round trips, %zu OCI round trips, %zu calls in the kernel\n",
		      st.programs, st.stacks, st.partitioned, st.declined, st.decompiled, st.fused,
		      st.chained, st.mutants, st.asm_trips, st.oci_trips, st.kernel_calls);
	if (st.programs < 100)
		return;
	/* every kind of check ran */
	assert_true(st.partitioned > st.programs / 4);
	assert_true(st.decompiled > 0 && st.chained > 0 && st.mutants > 0 && st.asm_trips > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_properties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
