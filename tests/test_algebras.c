// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Three encodings of argument comparisons, held against the reference
 * evaluator scg_expr_eval() (lib/policy/expr.c) on random conditions and
 * random argument values (docs/algebras.md maps them to each other):
 *
 *  - the compiler's formulas over masked 32-bit word tests (lib/compile/cond.c),
 *    evaluated here directly on the words a filter loads;
 *  - the OCI export's cubes and boxes (lib/oci/set.c);
 *  - the analysis engine's per-word value sets (lib/analysis/wordset.c), as
 *    the regions its symbolic execution cuts from the compiled filter.
 *
 * Conditions: ==, !=, <, <=, >, >=, masked ==, on 32- and 64-bit
 * parameters, alone and combined with && and ||; values drawn near the
 * boundaries each comparison has (the constant, one off it, the other half
 * of the 64-bit word changed), where the bugs of word splitting live.
 *
 * Then the operations the OCI export and merge build on (region minus
 * region, overlap of two conditions, value sets as intervals and back),
 * against the reference on every vector of a small domain, and the drop-in's
 * sets of the values one of libseccomp's comparisons accepts
 * (lib/libseccomp/cmp_set.c), against every value of registers up to 7 bits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include <syscage/syscage.h>
#include <syscage/analysis.h>

#include "bpf/emu_internal.h"
#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "libseccomp/cmp_set.h"
#include "oci/set.h"
#include "support/progen.h"
#include "support/scale.h"

#define VALUES_PER_CONDITION 64

/* --- random conditions and values ---------------------------------------- */

static uint64_t near(struct progen_rng *rng, uint64_t k)
{
	switch (progen_below(rng, 7)) {
	case 0:
		return k;
	case 1:
		return k + 1;
	case 2:
		return k - 1;
	case 3: /* the same low word under another high word */
		return (progen_next(rng) << 32) | (k & 0xffffffffU);
	case 4: /* the same high word over another low word */
		return (k & ~0xffffffffULL) | progen_next(rng) >> 32;
	case 5:
		return k ^ (1ULL << progen_below(rng, 64));
	default:
		return progen_interesting64(rng);
	}
}

static struct scg_expr *random_cmp(struct progen_rng *rng, uint64_t *anchor)
{
	unsigned width = progen_below(rng, 2) ? 64 : 32;
	enum scg_cmp_op op = (enum scg_cmp_op)progen_below(rng, 6);
	uint64_t mask = ~0ULL;
	if (op == SCG_CMP_EQ && progen_below(rng, 2)) /* masked == */
		mask = progen_below(rng, 2) ? progen_interesting64(rng) : progen_next(rng);
	uint64_t value = progen_below(rng, 2) ? progen_interesting64(rng) : progen_next(rng);
	if (mask != ~0ULL && progen_below(rng, 4))
		value &= mask; /* mostly satisfiable masks */
	*anchor = value;
	return scg_expr_cmp(progen_below(rng, 2), width, op, mask, value);
}

static struct scg_expr *random_condition(struct progen_rng *rng, uint64_t anchors[2])
{
	struct scg_expr *e = random_cmp(rng, &anchors[0]);
	anchors[1] = anchors[0];
	switch (progen_below(rng, 4)) {
	case 0:
		return scg_expr_and(e, random_cmp(rng, &anchors[1]));
	case 1:
		return scg_expr_or(e, random_cmp(rng, &anchors[1]));
	case 2:
		return scg_expr_not(e);
	default:
		return e;
	}
}

static void random_args(struct progen_rng *rng, const uint64_t anchors[2], uint64_t args[6])
{
	for (unsigned i = 0; i < 6; i++)
		args[i] = near(rng, anchors[progen_below(rng, 2)]);
}

/* --- the compiler's formulas (cond.c) ------------------------------------ */

static bool atom_holds(const struct atom *at, const uint32_t *words)
{
	uint32_t w = words[at->word / 4] & at->mask;
	switch (at->op) {
	case BPF_JEQ:
		return w == at->k;
	case BPF_JGT:
		return w > at->k;
	case BPF_JGE:
		return w >= at->k;
	default:
		fail_msg("atom with op %#x", at->op);
		return false;
	}
}

static bool formula_holds(const struct cond_ctx *c, uint32_t fi, const uint32_t *words)
{
	const struct fnode *n = &c->f[fi];
	switch ((enum fkind)n->kind) {
	case F_FALSE:
		return false;
	case F_TRUE:
		return true;
	case F_ATOM:
		return atom_holds(&c->atoms[n->a], words);
	case F_NOT:
		return !formula_holds(c, n->a, words);
	case F_AND:
		return formula_holds(c, n->a, words) && formula_holds(c, n->b, words);
	case F_OR:
		return formula_holds(c, n->a, words) || formula_holds(c, n->b, words);
	}
	return false;
}

/* --- the OCI export's boxes (set.c) -------------------------------------- */

static bool region_holds(const struct oci_region *r, const uint64_t args[6])
{
	for (size_t b = 0; b < r->n; b++) {
		bool in = true;
		for (unsigned i = 0; i < 6 && in; i++)
			in =
			    !r->boxes[b].args[i] || oci_vset_contains(r->boxes[b].args[i], args[i]);
		if (in)
			return true;
	}
	return false;
}

/* --- the analysis engine's regions (wordset.c) --------------------------- */

struct partition {
	struct scg_region *regions[4096];
	uint32_t winners[4096];
	size_t n;
};

static int keep_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)rets;
	struct partition *p = ctx;
	if (p->n == sizeof(p->regions) / sizeof(p->regions[0]))
		return -E2BIG;
	p->regions[p->n] = scg_region_clone(region);
	if (!p->regions[p->n])
		return -ENOMEM;
	p->winners[p->n++] = winner;
	return 0;
}

/* The filter for "allow getpid if @cond" on @arch (ERRNO(1) otherwise), cut into regions. */
static void partition_of(const struct scg_arch *arch, const struct scg_expr *cond,
			 struct partition *p, uint32_t *nr)
{
	assert_int_equal(scg_syscall_lookup(arch, "getpid", nr), 0);
	struct scg_policy *policy = scg_policy_new();
	assert_non_null(policy);
	assert_int_equal(scg_policy_add_arch(policy, arch), 0);
	scg_policy_set_default(policy, SCG_RET_ERRNO | 1);
	struct scg_rule_spec rule = {.action = SCG_RET_ALLOW,
				     .syscall = "getpid",
				     .cond = scg_expr_clone(cond),
				     .loc = SCG_LOC_NONE};
	assert_non_null(rule.cond);
	assert_int_equal(scg_policy_add_rule(policy, &rule), 0);
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	assert_int_equal(scg_compile(policy, NULL, &prog, diag), 0);

	struct scg_region *within = scg_region_new();
	assert_non_null(within);
	assert_int_equal(scg_region_restrict_range(within, SCG_WORD_NR, *nr, *nr), 0);
	uint32_t audit = scg_arch_audit(arch);
	assert_int_equal(scg_region_restrict_range(within, SCG_WORD_ARCH, audit, audit), 0);
	p->n = 0;
	assert_int_equal(scg_analysis_regions(&prog, 1, within, keep_region, p, diag), 0);
	scg_region_free(within);
	scg_prog_release(&prog);
	scg_diag_free(diag);
	scg_policy_free(policy);
}

static bool partition_allows(const struct partition *p, const uint32_t *words)
{
	size_t found = 0;
	bool allows = false;
	for (size_t i = 0; i < p->n; i++) {
		if (scg_region_contains(p->regions[i], words)) {
			found++;
			allows = p->winners[i] == SCG_RET_ALLOW;
		}
	}
	assert_int_equal(found, 1); /* the regions are a partition */
	return allows;
}

static void partition_release(struct partition *p)
{
	for (size_t i = 0; i < p->n; i++)
		scg_region_free(p->regions[i]);
	p->n = 0;
}

/* --- the sweep ------------------------------------------------------------ */

static char *describe(const struct scg_expr *e)
{
	static char buf[512];
	if (e->kind == SCG_EXPR_CMP)
		snprintf(buf, sizeof(buf), "arg%u/%u op %d mask %#llx value %#llx", e->arg,
			 e->width, (int)e->op, (unsigned long long)e->mask,
			 (unsigned long long)e->value);
	else
		snprintf(buf, sizeof(buf), "compound (kind %d) over arg%u", (int)e->kind,
			 e->left->kind == SCG_EXPR_CMP ? e->left->arg : 9);
	return buf;
}

static void test_three_algebras_agree(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5ca1ab1e);
	static struct partition part;
	size_t conditions = test_scaled(4000);
	size_t checked = 0, held = 0;
	/* a little-endian and a big-endian ABI: where each half of an argument sits */
	const struct scg_arch *arches[] = { scg_arch_lookup("x86_64"), scg_arch_lookup("s390x") };
	assert_non_null(arches[0]);
	assert_non_null(arches[1]);
	for (size_t n = 0; n < conditions; n++) {
		const struct scg_arch *arch = arches[n % 2];
		uint64_t anchors[2];
		struct scg_expr *cond = random_condition(&rng, anchors);
		assert_non_null(cond);

		struct cond_ctx c;
		assert_int_equal(cond_init(&c, NULL), 0);
		uint32_t formula = cond_formula(&c, cond, scg_arch_big_endian(arch));
		assert_int_equal(c.err, 0);

		struct oci_region oci = {0};
		size_t budget = OCI_SET_BUDGET;
		assert_int_equal(oci_region_from_expr(&oci, cond, &budget), 0);

		uint32_t nr;
		partition_of(arch, cond, &part, &nr);

		for (size_t v = 0; v < VALUES_PER_CONDITION; v++) {
			struct scg_seccomp_data data = { .nr = nr, .arch = scg_arch_audit(arch) };
			random_args(&rng, anchors, data.args);
			uint32_t words[SCG_EMU_WORDS];
			emu_layout(&data, words);
			bool want = scg_expr_eval(cond, data.args);
			if (formula_holds(&c, formula, words) != want)
				fail_msg("cond.c on %s: %s, args %#llx %#llx: reference %d",
					 scg_arch_name(arch), describe(cond), (unsigned long long)data.args[0],
					 (unsigned long long)data.args[1], want);
			if (region_holds(&oci, data.args) != want)
				fail_msg("oci/set.c: %s, args %#llx %#llx: reference %d",
					 describe(cond), (unsigned long long)data.args[0],
					 (unsigned long long)data.args[1], want);
			if (partition_allows(&part, words) != want)
				fail_msg("analysis on %s: %s, args %#llx %#llx: reference %d",
					 scg_arch_name(arch), describe(cond), (unsigned long long)data.args[0],
					 (unsigned long long)data.args[1], want);
			checked++;
			held += want;
		}
		partition_release(&part);
		oci_region_release(&oci);
		cond_release(&c);
		scg_expr_free(cond);
	}
	/* the values reach both sides of the conditions, or the sweep proves little */
	assert_true(held > checked / 10 && held < checked - checked / 10);
	printf("# %zu conditions, %zu argument vectors (%zu inside)\n", conditions, checked, held);
}

/* --- the OCI export's set operations on a small domain (set.c) ---------------- */

/*
 * A comparison that reads only the low 4 bits of argument 0 or 1 (a masked
 * comparison, any operator), so that every argument vector that matters is
 * one of 16 x 16; the high bits are drawn at random and must not matter.
 */
static struct scg_expr *small_cmp(struct progen_rng *rng)
{
	uint64_t mask = progen_below(rng, 3) ? 0xf : progen_below(rng, 16);
	uint64_t value = progen_below(rng, 5) ? progen_below(rng, 16) & mask : progen_below(rng, 32);
	return scg_expr_cmp(progen_below(rng, 2), progen_below(rng, 2) ? 64 : 32,
			    (enum scg_cmp_op)progen_below(rng, 6), mask, value);
}

static struct scg_expr *small_condition(struct progen_rng *rng, unsigned depth)
{
	if (depth == 0 || progen_below(rng, 3) == 0)
		return small_cmp(rng);
	switch (progen_below(rng, 3)) {
	case 0:
		return scg_expr_and(small_condition(rng, depth - 1), small_condition(rng, depth - 1));
	case 1:
		return scg_expr_or(small_condition(rng, depth - 1), small_condition(rng, depth - 1));
	default:
		return scg_expr_not(small_condition(rng, depth - 1));
	}
}

/* How many of @r's boxes hold @args: at most one, as the boxes are disjoint. */
static size_t boxes_holding(const struct oci_region *r, const uint64_t args[6])
{
	size_t n = 0;
	for (size_t b = 0; b < r->n; b++) {
		struct oci_region one = { &r->boxes[b], 1, 1 };
		n += region_holds(&one, args);
	}
	return n;
}

static void test_oci_set_operations(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x0c15e75);
	size_t pairs = test_scaled(2000), overlaps = 0;
	for (size_t n = 0; n < pairs; n++) {
		struct scg_expr *a = small_condition(&rng, 3), *b = small_condition(&rng, 3);
		assert_non_null(a);
		assert_non_null(b);
		struct oci_region ra = { 0 }, rb = { 0 }, diff = { 0 };
		size_t budget = OCI_SET_BUDGET;
		assert_int_equal(oci_region_from_expr(&ra, a, &budget), 0);
		assert_int_equal(oci_region_from_expr(&rb, b, &budget), 0);
		assert_int_equal(oci_region_from_expr(&diff, a, &budget), 0);
		assert_int_equal(oci_region_subtract(&diff, &rb, &budget), 0);
		bool overlap, want_overlap = false;
		assert_int_equal(oci_expr_overlap(a, b, &overlap, &budget), 0);
		for (uint64_t x = 0; x < 256; x++) {
			uint64_t args[6] = { (progen_next(&rng) << 4) | (x & 0xf),
					     (progen_next(&rng) << 4) | x >> 4 };
			bool in_a = scg_expr_eval(a, args), in_b = scg_expr_eval(b, args);
			want_overlap |= in_a && in_b;
			if (boxes_holding(&ra, args) != in_a || boxes_holding(&diff, args) != (in_a && !in_b))
				fail_msg("oci/set.c: %s minus %s, args %#llx %#llx: reference %d, %d",
					 describe(a), describe(b), (unsigned long long)args[0],
					 (unsigned long long)args[1], in_a, in_b);
		}
		if (overlap != want_overlap)
			fail_msg("oci_expr_overlap(%s, %s) = %d, reference %d", describe(a), describe(b),
				 overlap, want_overlap);
		overlaps += overlap;
		oci_region_release(&ra);
		oci_region_release(&rb);
		oci_region_release(&diff);
		scg_expr_free(a);
		scg_expr_free(b);
	}
	assert_true(overlaps > pairs / 10 && overlaps < pairs - pairs / 10);

	/* intervals: [lo, hi] in aligned blocks and back, and a comparison's set read as intervals */
	for (size_t n = 0; n < pairs; n++) {
		unsigned width = n % 2 ? 32 : 64;
		uint64_t top = width == 32 ? UINT32_MAX : UINT64_MAX;
		uint64_t lo = progen_next(&rng) & top, hi = progen_next(&rng) & top;
		if (progen_below(&rng, 2))
			hi = lo + progen_below(&rng, 300) > top ? top : lo + progen_below(&rng, 300);
		if (lo > hi) {
			uint64_t t = lo;
			lo = hi;
			hi = t;
		}
		struct oci_vset set = { 0 };
		assert_int_equal(oci_vset_add_interval(&set, width, lo, hi), 0);
		uint64_t probes[] = { lo, lo - 1, lo + 1, hi, hi - 1, hi + 1, 0, top,
				      lo + (hi - lo) / 2, progen_next(&rng) & top };
		for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
			uint64_t x = probes[k] & top;
			if (oci_vset_contains(&set, x) != (x >= lo && x <= hi))
				fail_msg("oci_vset_add_interval(%u bits, %#llx, %#llx) at %#llx", width,
					 (unsigned long long)lo, (unsigned long long)hi,
					 (unsigned long long)x);
		}
		struct oci_interval *iv = NULL;
		size_t niv = 0;
		assert_int_equal(oci_vset_intervals(&set, width, &iv, &niv), 0);
		assert_int_equal(niv, 1);
		assert_true(iv[0].lo == lo && iv[0].hi == hi);
		free(iv);
		oci_vset_release(&set);

		/* a comparison of the whole value: its set as sorted, disjoint intervals */
		enum scg_cmp_op op = (enum scg_cmp_op)progen_below(&rng, 6);
		assert_int_equal(oci_vset_cmp(&set, op, top, lo), 0);
		assert_int_equal(oci_vset_intervals(&set, width, &iv, &niv), 0);
		for (size_t k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
			uint64_t x = probes[k] & top;
			bool in = false;
			for (size_t j = 0; j < niv; j++) {
				in |= x >= iv[j].lo && x <= iv[j].hi;
				if (j > 0)
					assert_true(iv[j - 1].hi < iv[j].lo);
			}
			struct scg_expr *e = scg_expr_cmp(0, width, op, top, lo);
			uint64_t args[6] = { x };
			if (in != scg_expr_eval(e, args) || in != oci_vset_contains(&set, x))
				fail_msg("oci_vset_intervals of op %d %#llx (%u bits) at %#llx", op,
					 (unsigned long long)lo, width, (unsigned long long)x);
			scg_expr_free(e);
		}
		free(iv);
		oci_vset_release(&set);
	}
	printf("# %zu pairs of conditions (%zu overlapping), %zu intervals\n", pairs, overlaps, pairs);
}

/* --- libseccomp's comparison sets (lib/libseccomp/cmp_set.c) ---------------- */

/*
 * Whether @c accepts @x on a register @w wide: the comparison the drop-in
 * gives the compiler (compat/generate.c: rule_condition()), that is
 * scg_expr_cmp(arg, width, op, masked ? a : all, masked ? b & a : a), read
 * on any width: mask and value cut to @w, then (x & mask) op value.
 */
static bool cmp_accepts(const struct libseccomp_cmp *c, uint64_t x, uint64_t w)
{
	bool masked = c->op == LIBSECCOMP_MASKED_EQ;
	uint64_t m = (masked ? c->a : UINT64_MAX) & w, v = (masked ? c->b & c->a : c->a) & w;
	x &= m;
	switch (c->op) {
	case LIBSECCOMP_NE:
		return x != v;
	case LIBSECCOMP_LT:
		return x < v;
	case LIBSECCOMP_LE:
		return x <= v;
	case LIBSECCOMP_EQ:
	case LIBSECCOMP_MASKED_EQ:
		return x == v;
	case LIBSECCOMP_GE:
		return x >= v;
	case LIBSECCOMP_GT:
		return x > v;
	}
	return true; /* no operator libseccomp has */
}

static enum scg_cmp_op model_op(enum libseccomp_op op)
{
	static const enum scg_cmp_op ops[] = {
		[LIBSECCOMP_NE] = SCG_CMP_NE, [LIBSECCOMP_LT] = SCG_CMP_LT,
		[LIBSECCOMP_LE] = SCG_CMP_LE, [LIBSECCOMP_EQ] = SCG_CMP_EQ,
		[LIBSECCOMP_GE] = SCG_CMP_GE, [LIBSECCOMP_GT] = SCG_CMP_GT,
		[LIBSECCOMP_MASKED_EQ] = SCG_CMP_EQ,
	};
	return ops[op];
}

/* A comparison on a register of @bits bits: constants near its edges and beyond it. */
static struct libseccomp_cmp random_seccomp_cmp(struct progen_rng *rng, unsigned bits)
{
	uint64_t w = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
	uint64_t pick[] = { 0, 1, w, w - 1, w + 1, (w >> 1) + 1, progen_next(rng) };
	struct libseccomp_cmp c = { .arg = 0 };
	c.op = (enum libseccomp_op)progen_below(rng, 9); /* 0 and 8: no operator */
	c.a = progen_below(rng, 2) ? pick[progen_below(rng, 7)] : progen_next(rng) & (2 * w + 1);
	c.b = progen_below(rng, 2) ? pick[progen_below(rng, 7)] : progen_next(rng) & (2 * w + 1);
	return c;
}

static void test_libseccomp_cmp_sets(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5eccf00d);
	size_t pairs = test_scaled(20000), subsets = 0, empties = 0;
	/* every value of registers up to 7 bits wide: the algebra is the same for any width */
	for (size_t n = 0; n < pairs; n++) {
		unsigned bits = 1 + (unsigned)(n % 7);
		uint64_t w = (1ULL << bits) - 1;
		struct libseccomp_cmp x = random_seccomp_cmp(&rng, bits);
		struct libseccomp_cmp y = random_seccomp_cmp(&rng, bits);
		bool subset = true, empty = true;
		for (uint64_t v = 0; v <= w; v++) {
			empty &= !cmp_accepts(&x, v, w);
			subset &= !cmp_accepts(&x, v, w) || cmp_accepts(&y, v, w);
		}
		if (libseccomp_cmp_empty(&x, w) != empty || libseccomp_cmp_subset(&x, &y, w) != subset)
			fail_msg("cmp_set.c, %u bits: op %d a %#llx b %#llx within op %d a %#llx b %#llx: "
				 "reference empty %d subset %d", bits, x.op, (unsigned long long)x.a,
				 (unsigned long long)x.b, y.op, (unsigned long long)y.a,
				 (unsigned long long)y.b, empty, subset);
		subsets += subset;
		empties += empty;
	}
	assert_true(subsets > pairs / 10 && subsets < pairs - pairs / 10);
	assert_true(empties > 0);
	/* the reading above is the reference evaluator's on the ABIs' widths */
	for (size_t n = 0; n < pairs; n++) {
		unsigned bits = n % 2 ? 32 : 64;
		uint64_t w = bits == 64 ? UINT64_MAX : UINT32_MAX;
		struct libseccomp_cmp c = random_seccomp_cmp(&rng, bits);
		if (c.op < LIBSECCOMP_NE || c.op > LIBSECCOMP_MASKED_EQ)
			continue;
		bool masked = c.op == LIBSECCOMP_MASKED_EQ;
		struct scg_expr *e = scg_expr_cmp(0, bits, model_op(c.op), masked ? c.a : UINT64_MAX,
						  masked ? c.b & c.a : c.a);
		assert_non_null(e);
		uint64_t args[6] = { near(&rng, c.a) };
		assert_int_equal(scg_expr_eval(e, args), cmp_accepts(&c, args[0], w));
		scg_expr_free(e);
	}
	printf("# %zu pairs of comparisons (%zu subsets, %zu empty)\n", pairs, subsets, empties);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_three_algebras_agree),
	    cmocka_unit_test(test_oci_set_operations),
	    cmocka_unit_test(test_libseccomp_cmp_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
