/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The compiler against the reference evaluator: for hand-written and
 * thousands of random policies, the compiled program (optimised and not)
 * must give scg_policy_eval()'s verdict for every syscall number that
 * matters on every ABI and for argument values at and around every
 * constant; the two compilations must agree exactly; the kernel must accept
 * both; and every argument-independent ALLOW must be in the kernel's action
 * cache.  (The labelled-program resolver has its own tests: test_lprog.c.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/emu_internal.h"
#include "bpf/opcodes.h"
#include "support/live.h"
#include "support/polgen.h"
#include "support/progen.h"
#include "support/scale.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_VALUES 96
#define ERRNO_(e) (SCG_RET_ERRNO | (e))

/* Counters, printed at the end of the random test (tests must not assert on them). */
static size_t probes_run, cache_checks;

/* --- compiling and checking one policy ------------------------------------ */

struct compiled {
	struct scg_prog prog[2]; /* optimize 0 and 1 */
};

static void dump_policy(const struct scg_policy *p)
{
	fprintf(stderr, "policy: default %#x badarch %#x", scg_policy_default(p), scg_policy_badarch(p));
	uint32_t unk;
	if (scg_policy_unknown(p, &unk))
		fprintf(stderr, " unknown %#x", unk);
	fprintf(stderr, "\n  arches:");
	for (size_t i = 0; i < scg_policy_arch_count(p); i++)
		fprintf(stderr, " %s", scg_arch_name(scg_policy_arch_at(p, i)));
	fprintf(stderr, "\n");
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		fprintf(stderr, "  rule %zu: %s/%#x..%#x mask %#x action %#x cond %s\n", i,
			r.syscall ? r.syscall : "#", r.number, r.number_last, r.arch_mask, r.action,
			r.cond ? "yes" : "no");
	}
}

/* The -O1 options of compile_both(), when a test sets them (weights). */
static const struct scg_compile_options *o1_options;

static void compile_both(const struct scg_policy *p, struct compiled *c)
{
	for (unsigned o = 0; o < 2; o++) {
		struct scg_diag *diag = scg_diag_new();
		struct scg_compile_options opts = { .optimize = o };
		if (o == 1 && o1_options)
			opts = *o1_options;
		int r = scg_compile(p, &opts, &c->prog[o], diag);
		if (r != 0) {
			dump_policy(p);
			for (size_t i = 0; i < scg_diag_count(diag); i++)
				fprintf(stderr, "%s\n", scg_diag_get(diag, i)->message);
		}
		assert_int_equal(r, 0);
		scg_diag_free(diag);
		assert_true(c->prog[o].len >= 1 && c->prog[o].len <= SCG_BPF_MAXINSNS);
		struct scg_verify_result res;
		assert_int_equal(scg_verify(&c->prog[o], NULL, &res, NULL), 0);
		if (!res.accepted)
			fprintf(stderr, "O%u refused at insn %ld: %s\n", o, res.error_insn, res.rule);
		assert_true(res.accepted);
	}
}

static void release_both(struct compiled *c)
{
	scg_prog_release(&c->prog[0]);
	scg_prog_release(&c->prog[1]);
}

static void print_prog(const struct scg_prog *prog)
{
	char *text = NULL;
	if (scg_disasm(prog, NULL, SCG_DISASM_ASM, &text) == 0)
		fprintf(stderr, "%s", text);
	free(text);
}

/* Runs both programs on @d and compares with the evaluator. */
static void probe(const struct scg_policy *p, const struct compiled *c,
		  const struct scg_seccomp_data *d)
{
	struct scg_verdict v;
	scg_policy_eval(p, d, &v);
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(d, words);
	uint32_t ret[2];
	for (unsigned o = 0; o < 2; o++)
		ret[o] = emu_exec(&c->prog[o], words, 0, NULL, NULL, NULL);
	probes_run++;
	for (unsigned o = 0; o < 2; o++) {
		if (polgen_same_effect(v.action, ret[o]) && ret[0] == ret[1])
			continue;
		dump_policy(p);
		fprintf(stderr, "arch %#x nr %#x args %#llx %#llx %#llx: eval %#x (source %d rule %zu), "
				"O0 %#x, O1 %#x\n",
			d->arch, d->nr, (unsigned long long)d->args[0], (unsigned long long)d->args[1],
			(unsigned long long)d->args[2], v.action, v.source, v.rule, ret[0], ret[1]);
		print_prog(&c->prog[o]);
		fail();
	}
}

/* Argument vectors worth trying: all zero, then random picks from each argument's values. */
struct arg_space {
	uint64_t values[6][MAX_VALUES];
	size_t n[6];
};

static void arg_space_init(const struct scg_policy *p, struct arg_space *s)
{
	for (unsigned a = 0; a < 6; a++)
		s->n[a] = polgen_arg_values(p, a, s->values[a], MAX_VALUES);
}

static void pick_args(struct progen_rng *rng, const struct arg_space *s, uint64_t args[6])
{
	for (unsigned a = 0; a < 6; a++)
		args[a] = s->values[a][progen_below(rng, (uint32_t)s->n[a])];
}

/* Numbers around which @arch's decisions change. */
static size_t interesting_nrs(const struct scg_policy *p, const struct scg_arch *arch,
			      struct progen_rng *rng, uint32_t *out, size_t max)
{
	static const uint32_t fixed[] = { 0, 1, 0x3fffffff, 0x40000000, 0x40000001, 0x7fffffff,
					  0x80000000, 0xbfffffff, 0xc0000000, 0xfffffffe,
					  0xffffffff, 4000, 5000, 6000 };
	size_t n = 0;
	for (size_t i = 0; i < N(fixed) && n < max; i++)
		out[n++] = fixed[i];
	uint32_t flags = scg_arch_nr_flags(arch), top = scg_syscall_max(arch);
	for (uint32_t d = 0; d < 3 && n < max; d++)
		out[n++] = top + d;
	out[n++] = flags;
	for (size_t i = 0; i < scg_policy_rule_count(p) && n + 3 < max; i++) {
		uint32_t nr, last;
		if (scg_policy_rule_range(p, i, arch, &nr, &last) == 0) {
			out[n++] = nr - 1;
			out[n++] = nr;
			out[n++] = nr + 1;
			if (last != nr && n + 3 < max) {
				out[n++] = last - 1;
				out[n++] = last;
				out[n++] = last + 1;
			}
		}
	}
	size_t count = scg_syscall_count(arch);
	for (size_t i = 0; i < 12 && n < max; i++)
		scg_syscall_at(arch, progen_below(rng, (uint32_t)count), NULL, &out[n++]);
	return n;
}

static void check_cache(const struct scg_policy *p, const struct compiled *c,
			const struct scg_arch *arch, uint32_t nr)
{
	uint32_t audit = scg_arch_audit(arch);
	if (scg_arch_from_audit(audit, nr) != arch)
		return;
	/* Argument-independent: the first rule that applies (if any) has no condition. */
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		uint32_t first, last;
		if (scg_policy_rule_range(p, i, arch, &first, &last) < 0 || nr < first || nr > last)
			continue;
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		if (r.cond)
			return;
		break;
	}
	struct scg_seccomp_data d = { .nr = nr, .arch = audit };
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	if (scg_action_of(v.action) != SCG_ACTION_ALLOW)
		return;
	for (unsigned o = 0; o < 2; o++) {
		if (!scg_cache_const_allow(&c->prog[o], audit, nr)) {
			dump_policy(p);
			fprintf(stderr, "O%u: %s nr %#x allowed regardless of arguments but not cached\n",
				o, scg_arch_name(arch), nr);
			print_prog(&c->prog[o]);
			fail();
		}
	}
	cache_checks++;
}

static const char *const foreign_names[] = { "x86", "aarch64", "x86_64", "s390x", "mipsel" };

/* Everything one policy must satisfy; @per_nr argument vectors per number. */
static void check_policy(const struct scg_policy *p, struct progen_rng *rng, size_t per_nr)
{
	struct compiled c;
	compile_both(p, &c);
	struct arg_space *space = malloc(sizeof(*space));
	assert_non_null(space);
	arg_space_init(p, space);
	uint32_t nrs[512];
	for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
		const struct scg_arch *arch = scg_policy_arch_at(p, t);
		size_t n = interesting_nrs(p, arch, rng, nrs, N(nrs));
		for (size_t i = 0; i < n; i++) {
			struct scg_seccomp_data d = { .nr = nrs[i], .arch = scg_arch_audit(arch) };
			probe(p, &c, &d);
			for (size_t k = 0; k < per_nr; k++) {
				pick_args(rng, space, d.args);
				probe(p, &c, &d);
			}
			check_cache(p, &c, arch, nrs[i]);
		}
	}
	/* Foreign ABIs and an AUDIT_ARCH value nobody uses. */
	for (size_t i = 0; i < N(foreign_names); i++) {
		struct scg_seccomp_data d = { .nr = progen_below(rng, 500),
					      .arch = scg_arch_audit(scg_arch_lookup(foreign_names[i])) };
		probe(p, &c, &d);
	}
	struct scg_seccomp_data odd = { .nr = 1, .arch = 0x12345678 };
	probe(p, &c, &odd);
	free(space);
	release_both(&c);
}

/* --- hand-written policies ------------------------------------------------- */

static struct scg_policy *policy_on(const char *const *arches, uint32_t def)
{
	struct scg_policy *p = scg_policy_new();
	assert_non_null(p);
	for (size_t i = 0; arches[i]; i++)
		assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup(arches[i])), 0);
	scg_policy_set_default(p, def);
	scg_policy_set_badarch(p, SCG_RET_KILL_PROCESS);
	return p;
}

static void add_rule(struct scg_policy *p, const char *name, uint32_t action, struct scg_expr *cond)
{
	struct scg_rule_spec spec = { .action = action, .syscall = name, .cond = cond,
				      .loc = SCG_LOC_NONE };
	assert_int_equal(scg_policy_add_rule(p, &spec), 0);
}

static void add_number_rule(struct scg_policy *p, uint32_t nr, uint32_t action,
			    struct scg_expr *cond)
{
	struct scg_rule_spec spec = { .action = action, .has_number = true, .number = nr,
				      .cond = cond, .loc = SCG_LOC_NONE };
	assert_int_equal(scg_policy_add_rule(p, &spec), 0);
}

/* Runs the optimised program of @p on one call. */
static uint32_t run_one(const struct scg_policy *p, const char *arch, uint32_t nr, uint64_t arg0)
{
	struct scg_prog prog;
	assert_int_equal(scg_compile(p, NULL, &prog, NULL), 0);
	struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(scg_arch_lookup(arch)) };
	d.args[0] = arg0;
	uint32_t ret = 0;
	assert_int_equal(scg_emu_run(&prog, &d, &ret, NULL, NULL, NULL), 0);
	scg_prog_release(&prog);
	return ret;
}

static const uint64_t boundaries[] = {
	0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x100000000ULL, 0x100000001ULL,
	0x1ffffffffULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xfffffffffffffffeULL,
	0xffffffffffffffffULL, 0x123456789abcdef0ULL, 0xffffffff00000000ULL,
};

/* Every operator, width and a few masks at every boundary value, on an LE and a BE ABI. */
static void test_comparison_boundaries(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "s390x", NULL };
	static const uint64_t masks[] = { ~0ULL, 0xffffffff00000000ULL, 0xffffffffULL,
					  0xf0f0f0f0f0f0f0f0ULL, 0x8000000000000001ULL };
	struct progen_rng rng;
	progen_seed(&rng, 1);
	for (unsigned op = SCG_CMP_EQ; op <= SCG_CMP_GE; op++)
		for (unsigned width = 32; width <= 64; width += 32)
			for (size_t m = 0; m < N(masks); m++)
				for (size_t b = 0; b < N(boundaries); b++) {
					struct scg_policy *p = policy_on(arches, ERRNO_(1));
					add_rule(p, "getpid", SCG_RET_ALLOW,
						 scg_expr_cmp(0, width, (enum scg_cmp_op)op, masks[m],
							      boundaries[b]));
					add_rule(p, "getpid", ERRNO_(2),
						 scg_expr_cmp(1, 64, SCG_CMP_LT, ~0ULL, boundaries[b]));
					check_policy(p, &rng, 64);
					scg_policy_free(p);
				}
}

static void test_x32_and_minus_one(void **state)
{
	(void)state;
	static const char *const only64[] = { "x86_64", NULL };
	static const char *const only_x32[] = { "x32", NULL };
	static const char *const both[] = { "x32", "x86", "x86_64", NULL };
	struct scg_policy *p = policy_on(only64, SCG_RET_ALLOW);
	scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
	add_rule(p, "getpid", ERRNO_(7), NULL);
	/* x32 close (0x40000003) must not be mistaken for anything x86_64 allows. */
	assert_int_equal(run_one(p, "x86_64", 0x40000003, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(run_one(p, "x86_64", 0xc0000000, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(run_one(p, "x86_64", 0xffffffff, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86_64", 39, 0), ERRNO_(7));
	assert_int_equal(run_one(p, "x86_64", 0x80000000, 0), SCG_RET_ALLOW);
	struct progen_rng rng;
	progen_seed(&rng, 2);
	check_policy(p, &rng, 1);
	scg_policy_free(p);

	p = policy_on(only_x32, ERRNO_(1));
	scg_policy_set_badarch(p, SCG_RET_TRAP);
	add_rule(p, "getpid", SCG_RET_ALLOW, NULL);
	assert_int_equal(run_one(p, "x86_64", 0x40000000 | 39, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86_64", 39, 0), SCG_RET_TRAP);
	assert_int_equal(run_one(p, "x86_64", 0xffffffff, 0), SCG_RET_TRAP);
	check_policy(p, &rng, 1);
	scg_policy_free(p);

	p = policy_on(both, ERRNO_(1));
	scg_policy_set_unknown(p, ERRNO_(38));
	add_rule(p, "getpid", SCG_RET_ALLOW, NULL);
	add_number_rule(p, 0xffffffff, ERRNO_(9), NULL);
	assert_int_equal(run_one(p, "x86_64", 0xffffffff, 0), ERRNO_(9));
	assert_int_equal(run_one(p, "x86_64", 0x40000000 | 39, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86", 20, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86", 2000, 0), ERRNO_(38));
	check_policy(p, &rng, 1);
	scg_policy_free(p);
}

/* Unknown numbers: gaps in the table, just above its maximum, far above. */
static void test_unknown_numbers(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "mips", NULL };
	struct scg_policy *p = policy_on(arches, SCG_RET_ALLOW);
	scg_policy_set_unknown(p, ERRNO_(38));
	add_rule(p, "openat", ERRNO_(13), NULL);
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	uint32_t top = scg_syscall_max(x64);
	assert_int_equal(run_one(p, "x86_64", top, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86_64", top + 1, 0), ERRNO_(38));
	assert_int_equal(run_one(p, "x86_64", 0x3fffffff, 0), ERRNO_(38));
	/* mips o32 numbers start at 4000: 0..3999 are unknown there. */
	assert_int_equal(run_one(p, "mips", 5, 0), ERRNO_(38));
	assert_int_equal(run_one(p, "mips", 4020, 0), SCG_RET_ALLOW);
	struct progen_rng rng;
	progen_seed(&rng, 3);
	check_policy(p, &rng, 1);
	/* Every gap of the x86_64 table. */
	struct compiled c;
	compile_both(p, &c);
	for (uint32_t nr = 0; nr <= top + 2; nr++) {
		struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(x64) };
		probe(p, &c, &d);
	}
	release_both(&c);
	scg_policy_free(p);
}

/* Argument words at the target ABI's offsets, whatever the host. */
static void test_big_endian_offsets(void **state)
{
	(void)state;
	static const char *const arches[] = { "s390x", "ppc64", "mips", "x86_64", NULL };
	struct scg_policy *p = policy_on(arches, ERRNO_(1));
	add_rule(p, "read", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 0x1122334455667788ULL));
	add_rule(p, "write", SCG_RET_ALLOW, scg_expr_cmp(0, 32, SCG_CMP_EQ, ~0ULL, 0x55667788));
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup("s390x"), "read", &nr), 0);
	assert_int_equal(run_one(p, "s390x", nr, 0x1122334455667788ULL), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "s390x", nr, 0x5566778811223344ULL), ERRNO_(1));
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup("mips"), "write", &nr), 0);
	assert_int_equal(run_one(p, "mips", nr, 0xdeadbeef55667788ULL), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "mips", nr, 0x5566778800000000ULL), ERRNO_(1));
	struct progen_rng rng;
	progen_seed(&rng, 4);
	check_policy(p, &rng, 64);
	scg_policy_free(p);
}

/* Far jumps: hundreds of rules with conditions, in both compilations. */
static void test_far_jumps(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "x86", NULL };
	struct scg_policy *p = policy_on(arches, ERRNO_(1));
	for (uint32_t i = 0; i < 150; i++)
		add_number_rule(p, i, i % 3 ? ERRNO_(i) : SCG_RET_ALLOW,
				scg_expr_cmp(i % 6, 64, (enum scg_cmp_op)(i % 6), ~0ULL, i * 0x100000001ULL));
	struct progen_rng rng;
	progen_seed(&rng, 5);
	check_policy(p, &rng, 8);
	scg_policy_free(p);
}

/* Too big for the kernel: -E2BIG with a diagnostic that says why. */
static void test_too_big(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "x86", "x32", NULL };
	struct scg_policy *p = policy_on(arches, ERRNO_(1));
	for (uint32_t i = 0; i < 400; i++) {
		struct scg_expr *e = NULL;
		for (uint32_t k = 0; k < 4; k++) {
			struct scg_expr *c = scg_expr_cmp(k, 64, SCG_CMP_EQ, ~0ULL, i * 7 + k);
			e = e ? scg_expr_or(e, c) : c;
		}
		add_number_rule(p, i, SCG_RET_ALLOW, e);
	}
	for (unsigned o = 0; o < 2; o++) {
		struct scg_diag *diag = scg_diag_new();
		struct scg_prog prog = { 0 };
		struct scg_compile_options opts = { .optimize = o };
		assert_int_equal(scg_compile(p, &opts, &prog, diag), -E2BIG);
		assert_null(prog.insns);
		assert_int_equal(scg_diag_count(diag), 1);
		const struct scg_diag_entry *e = scg_diag_get(diag, 0);
		assert_string_equal(e->code, "filter-too-long");
		assert_non_null(strstr(e->message, "4096"));
		assert_non_null(strstr(e->message, "most condition code: syscall 0 (1 rule, 4 comparisons"));
		assert_non_null(strstr(e->message, "x86_64"));
		assert_non_null(strstr(e->message, "x32: "));
		assert_non_null(strstr(e->message, "x86: "));
		scg_diag_free(diag);
	}
	scg_policy_free(p);
}

static void test_no_target(void **state)
{
	(void)state;
	struct scg_policy *p = scg_policy_new();
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	assert_int_equal(scg_compile(p, NULL, &prog, diag), -EINVAL);
	assert_int_equal(scg_diag_count(diag), 1);
	assert_string_equal(scg_diag_get(diag, 0)->code, "no-target-arch");
	assert_int_equal(scg_compile(NULL, NULL, &prog, diag), -EINVAL);
	scg_diag_free(diag);
	scg_policy_free(p);
}

/* Random policies: the main differential test. */
/* Random counts (a third of them 0) for the syscalls @p names. */
static size_t random_weights(const struct scg_policy *p, struct progen_rng *rng,
			     struct scg_syscall_weight *w, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < scg_policy_rule_count(p) && n < max; i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		if (r.syscall)
			w[n++] = (struct scg_syscall_weight){ r.syscall,
							      progen_below(rng, 3) ? progen_below(rng, 1000) : 0 };
	}
	return n;
}

static void test_random_policies(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5ca9e);
	struct polgen_opts opts = { .max_rules = 14, .max_depth = 3 };
	probes_run = cache_checks = 0;
	for (size_t i = 0; i < test_scaled(2500); i++) {
		struct scg_policy *p = polgen_policy(&rng, &opts);
		assert_non_null(p);
		/* Every other policy laid out for a random workload over its own syscalls. */
		struct scg_syscall_weight w[64];
		struct scg_compile_options weighted = { .optimize = 1, .weights = w };
		if (i % 2)
			weighted.nweights = random_weights(p, &rng, w, N(w));
		o1_options = i % 2 ? &weighted : NULL;
		check_policy(p, &rng, 6);
		o1_options = NULL;
		scg_policy_free(p);
	}
	fprintf(stderr, "random policies: %zu probes, %zu cache checks\n", probes_run, cache_checks);
}

/* Bigger random policies: long programs, far jumps and trampolines in both compilations. */
static void test_large_random_policies(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x1a26e);
	struct polgen_opts opts = { .max_rules = 120, .max_depth = 2 };
	size_t checked = 0, too_big = 0, long_ones = 0;
	while (checked < 60) {
		struct scg_policy *p = polgen_policy(&rng, &opts);
		assert_non_null(p);
		struct scg_prog prog;
		struct scg_compile_options o0 = { .optimize = 0 };
		int r = scg_compile(p, &o0, &prog, NULL);
		if (r == -E2BIG) {
			too_big++;
			scg_policy_free(p);
			continue;
		}
		assert_int_equal(r, 0);
		long_ones += prog.len > 600;
		scg_prog_release(&prog);
		check_policy(p, &rng, 4);
		scg_policy_free(p);
		checked++;
	}
	assert_true(too_big < checked);
	assert_true(long_ones >= 10);
}

/* Many rules on one syscall, deep conditions on few arguments: the decision splitter's worst case. */
static void test_dense_conditions(void **state)
{
	(void)state;
	static const char *const x64[] = { "x86_64", NULL };
	static const char *const names[] = { "ioctl", "fcntl" };
	struct progen_rng rng;
	progen_seed(&rng, 6);
	const struct scg_arch *list[] = { scg_arch_lookup(x64[0]), NULL };
	struct polgen_opts opts = { .max_rules = 40, .max_depth = 4, .arches = list };
	opts.syscalls = names;
	opts.nsyscalls = N(names);
	for (size_t i = 0; i < 150; i++) {
		struct scg_policy *p = polgen_policy(&rng, &opts);
		assert_non_null(p);
		check_policy(p, &rng, 40);
		scg_policy_free(p);
	}
}

/* An allow list: one RET per distinct value, no argument loads, short paths. */
static void test_allow_list_shape(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "x86", "x32", NULL };
	struct scg_policy *p = policy_on(arches, ERRNO_(1));
	scg_policy_set_unknown(p, ERRNO_(38));
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < scg_syscall_count(x64); i += 1 + i % 3) {
		const char *name;
		scg_syscall_at(x64, i, &name, NULL);
		add_rule(p, name, SCG_RET_ALLOW, NULL);
	}
	struct scg_prog prog;
	/* The tree alone: no workload puts syscalls in front of it. */
	struct scg_compile_options plain_tree = { .optimize = 1, .unweighted = true };
	assert_int_equal(scg_compile(p, &plain_tree, &prog, NULL), 0);
	size_t rets = 0, loads = 0;
	for (size_t i = 0; i < prog.len; i++) {
		if (BPF_CLASS(prog.insns[i].code) == BPF_RET)
			rets++;
		if (BPF_CLASS(prog.insns[i].code) == BPF_LD)
			loads++;
	}
	/*
	 * ALLOW, ERRNO(1), ERRNO(38), KILL_PROCESS, plus copies standing in for
	 * jumps beyond 255: at most one per value and 255-instruction window.
	 */
	assert_true(rets >= 4 && rets <= 4 + 4 * (prog.len / 256 + 1));
	/* ld [arch], then ld [nr] once per AUDIT_ARCH value. */
	assert_int_equal(loads, 3);
	size_t worst = 0;
	for (size_t t = 0; t < 3; t++) {
		const struct scg_arch *arch = scg_arch_lookup(arches[t]);
		for (size_t i = 0; i < scg_syscall_count(arch); i++) {
			struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
			scg_syscall_at(arch, i, NULL, &d.nr);
			uint32_t ret;
			size_t executed;
			assert_int_equal(scg_emu_run(&prog, &d, &ret, &executed, NULL, NULL), 0);
			worst = executed > worst ? executed : worst;
		}
	}
	/* 2 arch, 1 nr load, 1 x32 split, a tree over ~330 ranges, 1 ret. */
	assert_true(worst <= 16);
	scg_prog_release(&prog);
	struct progen_rng rng;
	progen_seed(&rng, 7);
	check_policy(p, &rng, 0);
	scg_policy_free(p);
}

/* Executed instructions for @name on x86_64 with @args[0]. */
static size_t path_length(const struct scg_prog *prog, const char *name, uint64_t arg0)
{
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	struct scg_seccomp_data d = { .arch = scg_arch_audit(x64), .args = { arg0 } };
	assert_int_equal(scg_syscall_lookup(x64, name, &d.nr), 0);
	uint32_t ret;
	size_t executed;
	assert_int_equal(scg_emu_run(prog, &d, &ret, &executed, NULL, NULL), 0);
	return executed;
}

/*
 * A frequent syscall the kernel cannot cache (an argument check, an ENOSYS)
 * is tested right after the number is loaded; frequent ALLOWs are not
 * (the kernel skips the filter for them), and a workload changes no verdict.
 */
static void test_hot_syscalls_first(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "x86", "x32", NULL };
	struct scg_policy *p = policy_on(arches, ERRNO_(1));
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < scg_syscall_count(x64); i += 2) {
		const char *name;
		scg_syscall_at(x64, i, &name, NULL);
		if (strcmp(name, "clone") && strcmp(name, "clone3") && strcmp(name, "socket") &&
		    strcmp(name, "personality"))
			add_rule(p, name, SCG_RET_ALLOW, NULL);
	}
	add_rule(p, "read", SCG_RET_ALLOW, NULL);
	add_rule(p, "clone", SCG_RET_ALLOW,
		 scg_expr_cmp(0, 64, SCG_CMP_EQ, 0x10000000, 0));
	add_rule(p, "clone3", ERRNO_(38), NULL);
	add_rule(p, "socket", ERRNO_(97), scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 40));
	add_rule(p, "socket", SCG_RET_ALLOW, NULL);
	/* an argument check the workload never made */
	add_rule(p, "personality", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 8));
	static const struct scg_syscall_weight w[] = {
		{ "read", 1000000 }, { "clone", 5000 }, { "clone3", 3000 }, { "socket", 100 },
	};
	struct scg_compile_options hot = { .optimize = 1, .weights = w, .nweights = N(w) };
	struct scg_compile_options none = { .optimize = 1, .unweighted = true };
	struct scg_prog a, b;
	assert_int_equal(scg_compile(p, &hot, &a, NULL), 0);
	assert_int_equal(scg_compile(p, &none, &b, NULL), 0);
	/* ld arch, jeq, ld nr, the x32 split, jeq clone, then clone's own test and its return. */
	assert_true(path_length(&a, "clone", 0) <= 8);
	assert_true(path_length(&a, "clone3", 0) <= 7);
	assert_true(path_length(&a, "clone", 0) < path_length(&b, "clone", 0));
	assert_true(path_length(&a, "clone3", 0) < path_length(&b, "clone3", 0));
	/* An argument check the workload never made weighs as any other uncached number
	 * (layout.c's uniform prior): the chain in front costs it at most its length. */
	assert_true(path_length(&a, "personality", 8) <= path_length(&b, "personality", 8) + 3);
		/* read is ALLOW: frequent, but cached by the kernel, so not worth a test of its own. */
	assert_true(path_length(&a, "read", 0) > 5);
	scg_prog_release(&a);
	scg_prog_release(&b);
	/* Same verdicts everywhere, and the cache still skips every plain ALLOW. */
	struct progen_rng rng;
	progen_seed(&rng, 11);
	o1_options = &hot;
	check_policy(p, &rng, 4);
	o1_options = NULL;
	scg_policy_free(p);
}

/* --- number ranges ---------------------------------------------------------- */

/*
 * examples/deny-open.s as a policy.  Its `jlt #0x40000000, native; jne #-1,
 * kill` kills the x86_64 numbers with bit 31 set and bit 30 clear, which no
 * table knows and only a range can name; x32 numbers are a foreign ABI.
 */
static const char deny_open_policy[] = "arch x86_64\n"
				       "badarch kill\n"
				       "default allow\n"
				       "kill 0x80000000..0xbfffffff\n"
				       "errno(EACCES) open, openat\n";

static const uint32_t deny_open_probes[] = {
	0, 1, 2, 257, 258, 0x3fffffff, 0x40000000, 0x40000002, 0x7fffffff, 0x80000000,
	0x80000002, 0x9abcdef0, 0xbfffffff, 0xc0000000, 0xfffffffe, 0xffffffff,
};

static char *read_source_file(const char *name)
{
	const char *dir = getenv("SYSCAGE_SRCDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s (run from the source tree or set SYSCAGE_SRCDIR)", path);
	char *buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	size_t len = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	assert_true(len > 0);
	return buf;
}

/* The filter examples/deny-open.s assembles to. */
static void assemble_deny_open(struct scg_prog *prog)
{
	char *text = read_source_file("examples/deny-open.s");
	SCG_OPTS(scg_asm_options, opts, .arch = scg_arch_lookup("x86_64"),
		 .filename = "examples/deny-open.s");
	assert_int_equal(scg_asm(text, strlen(text), &opts, prog, NULL), 0);
	free(text);
}

static struct scg_policy *parse_policy_text(const char *text)
{
	struct scg_policy *p = NULL;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, diag), 0);
	assert_int_equal(scg_diag_count(diag), 0);
	scg_diag_free(diag);
	return p;
}

/* The policy compiles (both ways) to the hand-written filter's verdicts, on x86_64 and x86. */
static void test_range_deny_open(void **state)
{
	(void)state;
	struct scg_policy *p = parse_policy_text(deny_open_policy);
	struct scg_prog classic;
	struct compiled c;
	assemble_deny_open(&classic);
	compile_both(p, &c);
	const uint32_t audits[] = { scg_arch_audit(scg_arch_lookup("x86_64")),
				    scg_arch_audit(scg_arch_lookup("x86")) };
	size_t killed = 0;
	for (size_t a = 0; a < N(audits); a++) {
		for (size_t i = 0; i < N(deny_open_probes); i++) {
			struct scg_seccomp_data d = { .nr = deny_open_probes[i],
						      .arch = audits[a] };
			uint32_t want, got;
			assert_int_equal(scg_emu_run(&classic, &d, &want, NULL, NULL, NULL), 0);
			for (unsigned o = 0; o < 2; o++) {
				assert_int_equal(
					scg_emu_run(&c.prog[o], &d, &got, NULL, NULL, NULL), 0);
				if (got != want)
					fail_msg("O%u arch %#x nr %#x: %#x, deny-open.s %#x", o,
						 d.arch, d.nr, got, want);
			}
			probe(p, &c, &d);
			killed += want == SCG_RET_KILL_PROCESS;
		}
	}
	/* The range is what kills 0x80000000 and 0xbfffffff: without it they would be allowed. */
	struct scg_seccomp_data top = { .nr = 0xbfffffff, .arch = audits[0] };
	struct scg_verdict v;
	scg_policy_eval(p, &top, &v);
	assert_int_equal(v.source, SCG_VERDICT_RULE);
	assert_int_equal(v.rule, 0);
	/* on x86_64: the 4 numbers of the range and 5 of x32; every number on x86 */
	assert_int_equal(killed, 4 + 5 + N(deny_open_probes));
	scg_prog_release(&classic);
	release_both(&c);
	scg_policy_free(p);
}

/* The same, in the kernel: a few numbers through both filters in forked children. */
static void test_range_deny_open_live(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	static const struct {
		uint32_t nr;
		enum live_kind kind;
		int64_t retval;
	} calls[] = {
		{ 2, LIVE_RETURNED, -EACCES },	      /* open: never runs */
		{ 0x3fffffff, LIVE_RETURNED, -ENOSYS }, /* allowed, no such syscall */
		{ 0xffffffff, LIVE_RETURNED, -ENOSYS }, /* -1 stays x86_64: allowed */
		{ 0x80000000, LIVE_PROCESS_KILLED, 0 },
		{ 0xbfffffff, LIVE_PROCESS_KILLED, 0 },
		{ 0xc0000000, LIVE_PROCESS_KILLED, 0 }, /* x32: a foreign ABI */
	};
	struct scg_policy *p = parse_policy_text(deny_open_policy);
	struct scg_prog progs[2];
	assemble_deny_open(&progs[0]);
	assert_int_equal(scg_compile(p, NULL, &progs[1], NULL), 0);
	for (size_t i = 0; i < N(calls); i++) {
		struct live_call call = { .nr = calls[i].nr };
		for (unsigned k = 0; k < 2; k++) {
			struct live_outcome got;
			assert_int_equal(live_run(&progs[k], 1, &call, &got), 0);
			char buf[128];
			live_outcome_format(&got, buf, sizeof(buf));
			if (got.kind != calls[i].kind ||
			    (got.kind == LIVE_RETURNED && got.retval != calls[i].retval) ||
			    (got.kind == LIVE_PROCESS_KILLED && got.signo != SIGSYS))
				fail_msg("%s nr %#x: %s", k ? "policy" : "deny-open.s", call.nr,
					 buf);
		}
	}
	scg_prog_release(&progs[0]);
	scg_prog_release(&progs[1]);
	scg_policy_free(p);
}

/*
 * Ranges over known syscalls and over 2^30 unknown numbers, overlapping
 * each other and number rules, with conditions: each number decided by the
 * first rule that covers it, in both compilations, and the ALLOWs cached.
 */
static void test_range_overlaps(void **state)
{
	(void)state;
	static const char *const arches[] = { "x86_64", "x32", "x86", NULL };
	struct scg_policy *p = policy_on(arches, SCG_RET_ALLOW);
	scg_policy_set_unknown(p, ERRNO_(38));
	struct scg_rule_spec specs[] = {
		{ .action = ERRNO_(5), .has_number = true, .number = 3, .number_last = 3 },
		{ .action = SCG_RET_TRAP, .has_number = true, .number = 0, .number_last = 9,
		  .cond = scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 1) },
		{ .action = ERRNO_(1), .has_number = true, .number = 2, .number_last = 6 },
		{ .action = SCG_RET_KILL_THREAD, .has_number = true, .number = 0x80000000,
		  .number_last = 0xbfffffff },
		{ .action = SCG_RET_LOG, .has_number = true, .number = 0x7ffffff0,
		  .number_last = 0xffffffff },
		{ .action = SCG_RET_ALLOW, .has_number = true, .number = 1000,
		  .number_last = 0x3fffffff, .cond = scg_expr_cmp(1, 32, SCG_CMP_LT, ~0ULL, 7) },
	};
	for (size_t i = 0; i < N(specs); i++)
		assert_int_equal(scg_policy_add_rule(p, &specs[i]), 0);
	add_rule(p, "read", ERRNO_(9), NULL); /* x86_64's 0: after the conditional 0..9 */
	assert_int_equal(run_one(p, "x86_64", 3, 0), ERRNO_(5));
	assert_int_equal(run_one(p, "x86_64", 3, 1), ERRNO_(5));
	assert_int_equal(run_one(p, "x86_64", 0, 1), SCG_RET_TRAP);
	assert_int_equal(run_one(p, "x86_64", 0, 0), ERRNO_(9));
	assert_int_equal(run_one(p, "x86_64", 6, 0), ERRNO_(1));
	assert_int_equal(run_one(p, "x86_64", 7, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86_64", 0x80000000, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(run_one(p, "x86_64", 0xbfffffff, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(run_one(p, "x86_64", 0xffffffff, 0), SCG_RET_LOG);
	assert_int_equal(run_one(p, "x86_64", 0xfffffffe, 0), SCG_RET_LOG); /* x32's */
	assert_int_equal(run_one(p, "x86_64", 0x7fffffef, 0), ERRNO_(38));
	assert_int_equal(run_one(p, "x86_64", 0x3fffffff, 0), SCG_RET_ALLOW);
	assert_int_equal(run_one(p, "x86", 0xc0000000, 0), SCG_RET_LOG);
	/* A range of 2^30 numbers costs a handful of instructions, not one per number. */
	struct scg_prog prog;
	assert_int_equal(scg_compile(p, NULL, &prog, NULL), 0);
	assert_true(prog.len < 200);
	scg_prog_release(&prog);
	struct progen_rng rng;
	progen_seed(&rng, 13);
	check_policy(p, &rng, 8);
	scg_policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_target),
		cmocka_unit_test(test_x32_and_minus_one),
		cmocka_unit_test(test_unknown_numbers),
		cmocka_unit_test(test_big_endian_offsets),
		cmocka_unit_test(test_comparison_boundaries),
		cmocka_unit_test(test_far_jumps),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_allow_list_shape),
		cmocka_unit_test(test_hot_syscalls_first),
		cmocka_unit_test(test_dense_conditions),
		cmocka_unit_test(test_random_policies),
		cmocka_unit_test(test_large_random_policies),
		cmocka_unit_test(test_range_deny_open),
		cmocka_unit_test(test_range_deny_open_live),
		cmocka_unit_test(test_range_overlaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
