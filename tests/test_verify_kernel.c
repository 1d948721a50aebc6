/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verifier against the running kernel: more than 10,000 programs (valid
 * ones, mutations of valid ones, random bytes, and programs aimed at each
 * refusal rule), each loaded by the kernel in a forked child.  The
 * verifier's accept/refuse decision and errno must match on every one.
 *
 * The seed is fixed; SYSCAGE_SEED=<n> replays another run.
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
#include "support/live.h"
#include "support/progen.h"
#include "support/scale.h"

#define DEFAULT_SEED 0x5ec0a9e5eedULL
#define MAX_REPORTED 5

#define N_VALID		    3000
#define N_MUTATED	    4000
#define N_GARBAGE	    1500
#define N_TARGETED_PER_RULE 150

static uint64_t seed;
static size_t programs_run;
static size_t disagreements;

/* Rules the targeted programs must make the verifier report (kernel agreeing). */
static const char *const refusal_rules[] = {
    "length",
    "opcode-unknown",
    "div-by-zero",
    "shift-too-far",
    "scratch-out-of-range",
    "ja-out-of-range",
    "jump-out-of-range",
    "ancillary-unknown",
    "last-not-ret",
    "scratch-read-before-write",
    "seccomp-opcode",
    "seccomp-load-offset",
    "seccomp-ancillary",
};
#define N_RULES (sizeof(refusal_rules) / sizeof(refusal_rules[0]))
static size_t rule_hits[N_RULES];

/* Every code seccomp lets through, and whether an accepted program used it. */
static const uint16_t seccomp_codes[] = {
    BPF_LD | BPF_W | BPF_ABS,
    BPF_LD | BPF_W | BPF_LEN,
    BPF_LDX | BPF_W | BPF_LEN,
    BPF_RET | BPF_K,
    BPF_RET | BPF_A,
    BPF_ALU | BPF_ADD | BPF_K,
    BPF_ALU | BPF_ADD | BPF_X,
    BPF_ALU | BPF_SUB | BPF_K,
    BPF_ALU | BPF_SUB | BPF_X,
    BPF_ALU | BPF_MUL | BPF_K,
    BPF_ALU | BPF_MUL | BPF_X,
    BPF_ALU | BPF_DIV | BPF_K,
    BPF_ALU | BPF_DIV | BPF_X,
    BPF_ALU | BPF_AND | BPF_K,
    BPF_ALU | BPF_AND | BPF_X,
    BPF_ALU | BPF_OR | BPF_K,
    BPF_ALU | BPF_OR | BPF_X,
    BPF_ALU | BPF_XOR | BPF_K,
    BPF_ALU | BPF_XOR | BPF_X,
    BPF_ALU | BPF_LSH | BPF_K,
    BPF_ALU | BPF_LSH | BPF_X,
    BPF_ALU | BPF_RSH | BPF_K,
    BPF_ALU | BPF_RSH | BPF_X,
    BPF_ALU | BPF_NEG,
    BPF_LD | BPF_IMM,
    BPF_LDX | BPF_IMM,
    BPF_MISC | BPF_TAX,
    BPF_MISC | BPF_TXA,
    BPF_LD | BPF_MEM,
    BPF_LDX | BPF_MEM,
    BPF_ST,
    BPF_STX,
    BPF_JMP | BPF_JA,
    BPF_JMP | BPF_JEQ | BPF_K,
    BPF_JMP | BPF_JEQ | BPF_X,
    BPF_JMP | BPF_JGE | BPF_K,
    BPF_JMP | BPF_JGE | BPF_X,
    BPF_JMP | BPF_JGT | BPF_K,
    BPF_JMP | BPF_JGT | BPF_X,
    BPF_JMP | BPF_JSET | BPF_K,
    BPF_JMP | BPF_JSET | BPF_X,
};
#define N_CODES (sizeof(seccomp_codes) / sizeof(seccomp_codes[0]))
static bool code_seen[N_CODES];

static void hexdump(const struct scg_prog *prog)
{
	size_t shown = prog->len < 48 ? prog->len : 48;
	for (size_t i = 0; i < shown; i++) {
		const struct scg_insn *in = &prog->insns[i];
		fprintf(stderr, "    %4zu: { 0x%04x, %3u, %3u, 0x%08x }\n", i, in->code, in->jt,
			in->jf, in->k);
	}
	if (shown < prog->len)
		fprintf(stderr, "    ... %zu more instructions\n", prog->len - shown);
}

static void record_coverage(const struct scg_prog *prog, const struct scg_verify_result *res)
{
	if (!res->accepted) {
		for (size_t r = 0; r < N_RULES; r++)
			rule_hits[r] += !strcmp(res->rule, refusal_rules[r]);
		return;
	}
	for (size_t i = 0; i < prog->len; i++)
		for (size_t c = 0; c < N_CODES; c++)
			if (prog->insns[i].code == seccomp_codes[c])
				code_seen[c] = true;
}

/* Loads @prog in the kernel and compares with the verifier.  @origin names the generator. */
static void compare(const struct scg_prog *prog, const char *origin)
{
	struct scg_verify_result res;
	assert_int_equal(scg_verify(prog, NULL, &res, NULL), 0);
	int err;
	size_t loaded = live_load(prog, 1, 0, &err);
	programs_run++;
	bool kernel_accepts = loaded == 1;
	bool agree = kernel_accepts == res.accepted && (kernel_accepts || err == res.kernel_errno);
	if (agree) {
		record_coverage(prog, &res);
		return;
	}
	if (++disagreements <= MAX_REPORTED) {
		fprintf(stderr,
			"DISAGREEMENT (%s program #%zu, seed %#llx): kernel %s (errno %d), "
			"verifier %s (rule %s at insn %ld, errno %d)\n",
			origin, programs_run, (unsigned long long)seed,
			kernel_accepts ? "accepts" : "refuses", err,
			res.accepted ? "accepts" : "refuses", res.rule ? res.rule : "-",
			res.error_insn, res.kernel_errno);
		hexdump(prog);
	}
}

static void stop_if_failing(void)
{
	if (disagreements)
		fail_msg("%zu disagreements with the kernel (first %d printed above)",
			 disagreements, MAX_REPORTED);
}

static struct progen_opts random_opts(struct progen_rng *rng)
{
	static const size_t lengths[] = {4, 16, 64, 300, 4096};
	return (struct progen_opts){
	    .max_len = lengths[progen_below(rng, sizeof(lengths) / sizeof(lengths[0]))],
	    .allow_ret_a = progen_below(rng, 2),
	    .allow_div_x = progen_below(rng, 2),
	    .only_safe_returns = progen_below(rng, 4) == 0,
	};
}

static int setup(void **state)
{
	(void)state;
	const char *env = getenv("SYSCAGE_SEED");
	seed = env && *env ? strtoull(env, NULL, 0) : DEFAULT_SEED;
	fprintf(stderr, "seed %#llx (set SYSCAGE_SEED to replay another)\n",
		(unsigned long long)seed);
	/* children killed by SIGSYS must not write core files */
	struct rlimit no_core = {0, 0};
	setrlimit(RLIMIT_CORE, &no_core);
	return 0;
}

static bool live_ok(void)
{
	int live = live_require();
	assert_true(live >= 0);
	return live == 1;
}

static void test_valid_programs(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	struct progen_rng rng;
	progen_seed(&rng, seed);
	for (size_t i = 0; i < test_scaled(N_VALID) && disagreements < MAX_REPORTED; i++) {
		struct progen_opts opts = random_opts(&rng);
		struct scg_prog prog;
		assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
		compare(&prog, "valid");
		scg_prog_release(&prog);
	}
	stop_if_failing();
}

static void test_mutated_programs(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	struct progen_rng rng;
	progen_seed(&rng, seed + 1);
	for (size_t i = 0; i < test_scaled(N_MUTATED) && disagreements < MAX_REPORTED; i++) {
		struct progen_opts opts = random_opts(&rng);
		opts.max_len = opts.max_len > 300 ? 300 : opts.max_len;
		struct scg_prog prog;
		assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
		uint32_t n = 1 + progen_below(&rng, 3);
		for (uint32_t m = 0; m < n; m++)
			assert_int_equal(progen_mutate(&rng, &prog), 0);
		compare(&prog, "mutated");
		scg_prog_release(&prog);
	}
	stop_if_failing();
}

static void test_garbage(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	struct progen_rng rng;
	progen_seed(&rng, seed + 2);
	for (size_t i = 0; i < test_scaled(N_GARBAGE) && disagreements < MAX_REPORTED; i++) {
		size_t len =
		    progen_below(&rng, 8) ? 1 + progen_below(&rng, 6) : 1 + progen_below(&rng, 200);
		struct scg_prog prog;
		assert_int_equal(progen_garbage(&rng, len, &prog), 0);
		/* random bytes with a plausible low byte now and then */
		for (size_t j = 0; j < prog.len; j++)
			if (progen_below(&rng, 2))
				prog.insns[j].code &= 0xff;
		compare(&prog, "garbage");
		scg_prog_release(&prog);
	}
	stop_if_failing();
}

/* --- programs aimed at one rule each ------------------------------------- */

/*
 * Each generator puts a value just past a limit or just inside it, so an
 * off-by-one in either direction shows up as a disagreement.
 */
#define PICK(rng, array) ((array)[progen_below(rng, sizeof(array) / sizeof((array)[0]))])

static uint32_t near(struct progen_rng *rng, const uint32_t *values, size_t n)
{
	if (progen_below(rng, 4) == 0)
		return progen_interesting32(rng);
	return values[progen_below(rng, (uint32_t)n)];
}

static void inject_opcode(struct progen_rng *rng, struct scg_insn *in)
{
	static const uint16_t gaps[] = {BPF_RET | BPF_X,
					BPF_LDX | BPF_W | BPF_ABS,
					BPF_ALU | BPF_NEG | BPF_X,
					BPF_JMP | 0x50,
					0x08,
					0x27,
					0xb0,
					0xb1,
					0xb2,
					0xff,
					0x100,
					0x8006};
	if (progen_below(rng, 2))
		in->code = PICK(rng, gaps);
	else
		in->code = (uint16_t)(0xb0 + progen_below(rng, 0x10000 - 0xb0));
}

static void inject_alu_k(struct progen_rng *rng, struct scg_insn *in, bool shift)
{
	static const uint32_t shift_ks[] = {30, 31, 32, 33, 63, 64, 0x80000000U, 0xffffffffU};
	static const uint32_t div_ks[] = {0, 0, 1, 0xffffffffU};
	static const uint16_t shift_ops[] = {BPF_LSH, BPF_RSH};
	static const uint16_t div_ops[] = {BPF_DIV, BPF_MOD};
	in->code =
	    (uint16_t)(BPF_ALU | BPF_K | (shift ? PICK(rng, shift_ops) : PICK(rng, div_ops)));
	in->k = shift ? near(rng, shift_ks, 8) : near(rng, div_ks, 4);
	in->jt = in->jf = 0;
}

static void inject_scratch(struct progen_rng *rng, struct scg_insn *in)
{
	static const uint16_t codes[] = {BPF_ST, BPF_STX, BPF_LD | BPF_MEM, BPF_LDX | BPF_MEM};
	static const uint32_t ks[] = {14, 15, 16, 17, 32, 0x10000, 0xffffffffU};
	*in = (struct scg_insn){PICK(rng, codes), 0, 0, near(rng, ks, 7)};
}

static void inject_jump(struct progen_rng *rng, struct scg_prog *prog, size_t pc, bool ja)
{
	struct scg_insn *in = &prog->insns[pc];
	uint32_t room = (uint32_t)(prog->len - pc - 1);	 /* offsets below this stay inside */
	uint32_t edge = room - 1 + progen_below(rng, 3); /* room - 1, room or room + 1 */
	if (ja) {
		*in = (struct scg_insn){BPF_JMP | BPF_JA, 0, 0,
					progen_below(rng, 5) ? edge : 0xffffffffU};
		return;
	}
	static const uint16_t ops[] = {BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET};
	in->code = (uint16_t)(BPF_JMP | PICK(rng, ops) | (progen_below(rng, 2) ? BPF_X : BPF_K));
	uint8_t off = (uint8_t)(edge > 255 ? 255 - progen_below(rng, 2) : edge);
	if (progen_below(rng, 2))
		in->jt = off;
	else
		in->jf = off;
}

static void inject_ancillary(struct progen_rng *rng, struct scg_insn *in, bool known)
{
	static const uint16_t sizes[] = {BPF_W, BPF_H, BPF_B};
	static const uint32_t unknown_ks[] = {0xfffff040U, 0xfffff044U, 0xfffff001U, 0xfffff03fU,
					      0xfffff002U, 0xfffffffcU, 0xffffffffU};
	uint32_t k = known ? SCG_SKF_AD_OFF + 4 * progen_below(rng, 16) : PICK(rng, unknown_ks);
	*in = (struct scg_insn){(uint16_t)(BPF_LD | BPF_ABS | PICK(rng, sizes)), 0, 0, k};
}

static void inject_seccomp(struct progen_rng *rng, struct scg_insn *in, bool offset)
{
	static const uint16_t refused[] = {
	    BPF_ALU | BPF_MOD | BPF_K, BPF_ALU | BPF_MOD | BPF_X, BPF_LD | BPF_H | BPF_ABS,
	    BPF_LD | BPF_B | BPF_ABS,  BPF_LD | BPF_W | BPF_IND,  BPF_LD | BPF_H | BPF_IND,
	    BPF_LD | BPF_B | BPF_IND,  BPF_LDX | BPF_B | BPF_MSH,
	};
	static const uint32_t ks[] = {0,  1,  2,  3,  4,  58, 59, 60,	       61,
				      62, 63, 64, 65, 66, 67, 68, 0xfff00000U, 0xffffeffcU};
	if (offset) {
		*in = (struct scg_insn){BPF_LD | BPF_W | BPF_ABS, 0, 0, near(rng, ks, 18)};
		return;
	}
	in->code = PICK(rng, refused);
	in->k = in->k ? in->k : 1 + progen_below(rng, 63);
}

/* Rewrites one instruction of @prog so that it breaks rule @rule, or only just does not. */
static void inject(struct progen_rng *rng, struct scg_prog *prog, size_t rule)
{
	size_t pc = progen_below(rng, (uint32_t)prog->len);
	struct scg_insn *in = &prog->insns[pc];
	const char *name = refusal_rules[rule];
	if (!strcmp(name, "opcode-unknown"))
		inject_opcode(rng, in);
	else if (!strcmp(name, "div-by-zero") || !strcmp(name, "shift-too-far"))
		inject_alu_k(rng, in, !strcmp(name, "shift-too-far"));
	else if (!strcmp(name, "scratch-out-of-range"))
		inject_scratch(rng, in);
	else if (!strcmp(name, "ja-out-of-range") || !strcmp(name, "jump-out-of-range"))
		inject_jump(rng, prog, pc, !strcmp(name, "ja-out-of-range"));
	else if (!strcmp(name, "ancillary-unknown") || !strcmp(name, "seccomp-ancillary"))
		inject_ancillary(rng, in, !strcmp(name, "seccomp-ancillary"));
	else if (!strcmp(name, "seccomp-opcode") || !strcmp(name, "seccomp-load-offset"))
		inject_seccomp(rng, in, !strcmp(name, "seccomp-load-offset"));
	else if (!strcmp(name, "scratch-read-before-write"))
		*in = (struct scg_insn){
		    (uint16_t)(progen_below(rng, 2) ? BPF_LD | BPF_MEM : BPF_LDX | BPF_MEM), 0, 0,
		    progen_below(rng, SCG_BPF_MEMWORDS)};
	else if (!strcmp(name, "last-not-ret")) {
		struct scg_insn *last = &prog->insns[prog->len - 1];
		*last = *in;
		if (BPF_CLASS(last->code) == BPF_RET)
			*last = (struct scg_insn){BPF_MISC | BPF_TAX, 0, 0, 0};
	}
}

static void make_length_program(struct progen_rng *rng, struct scg_prog *prog)
{
	size_t len = progen_below(rng, 2) ? 0 : SCG_BPF_MAXINSNS + 1 + progen_below(rng, 3);
	prog->insns = calloc(len + 1, sizeof(struct scg_insn));
	assert_non_null(prog->insns);
	prog->len = len;
	for (size_t i = 0; i < len; i++)
		prog->insns[i] = (struct scg_insn){BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW};
}

static void test_targeted(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	struct progen_rng rng;
	progen_seed(&rng, seed + 3);
	for (size_t rule = 0; rule < N_RULES; rule++) {
		size_t count = !strcmp(refusal_rules[rule], "length") ? 8 : test_scaled(N_TARGETED_PER_RULE);
		for (size_t i = 0; i < count && disagreements < MAX_REPORTED; i++) {
			struct scg_prog prog;
			if (!strcmp(refusal_rules[rule], "length")) {
				make_length_program(&rng, &prog);
			} else {
				struct progen_opts opts = random_opts(&rng);
				opts.max_len = 2 + progen_below(&rng, 40);
				assert_int_equal(progen_valid(&rng, &opts, &prog), 0);
				inject(&rng, &prog, rule);
			}
			compare(&prog, refusal_rules[rule]);
			scg_prog_release(&prog);
		}
	}
	stop_if_failing();
}

/* Every code of the low 9 bits (the kernel's table and just past it), twice. */
static void test_every_code(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	static const uint32_t ks[] = {0, 4};
	for (uint32_t code = 0; code < 0x200 && disagreements < MAX_REPORTED; code++) {
		for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			struct scg_insn insns[] = {
			    {BPF_ST, 0, 0, ks[i]},
			    {(uint16_t)code, 0, 0, ks[i]},
			    {BPF_RET | BPF_K, 0, 0, SCG_RET_ALLOW},
			};
			struct scg_prog prog = {insns, 3};
			compare(&prog, "every-code");
		}
	}
	stop_if_failing();
}

static void test_coverage(void **state)
{
	(void)state;
	if (!live_ok())
		skip();
	fprintf(stderr, "%zu programs compared with the kernel\n", programs_run);
	assert_true(programs_run >= test_scaled(10000));
	bool missing = false;
	for (size_t r = 0; r < N_RULES; r++) {
		if (!rule_hits[r]) {
			fprintf(stderr, "rule %s was never exercised\n", refusal_rules[r]);
			missing = true;
		}
	}
	for (size_t c = 0; c < N_CODES; c++) {
		if (!code_seen[c]) {
			fprintf(stderr, "code %#04x never appeared in an accepted program\n",
				seccomp_codes[c]);
			missing = true;
		}
	}
	assert_false(missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid_programs), cmocka_unit_test(test_mutated_programs),
	    cmocka_unit_test(test_garbage),	   cmocka_unit_test(test_targeted),
	    cmocka_unit_test(test_every_code),	   cmocka_unit_test(test_coverage),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
