/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator against the running kernel: random programs, stacks of them
 * and syscalls, each case run for real in a freshly filtered thread
 * (tests/support/live.h) and compared with what scg_emu_stack() predicts.
 *
 * Two kinds of cases keep the machine safe:
 *  - harmless calls (getppid, getuid, getgid; x86_64, i386 through int $0x80,
 *    and an x32-tagged number) under programs with every kind of return
 *    value, RET A included: when the filters let the call run, its result is
 *    known in advance;
 *  - any syscall number and arguments under programs whose every return is
 *    KILL, TRAP or ERRNO (no RET A, no ALLOW), so no syscall ever runs.
 * The native uretprobe/uprobe numbers are the kernel's exception to every
 * filter; they are checked on their own, against their unfiltered result.
 *
 * The seed is fixed; SYSCAGE_SEED=N replays another run.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "bpf/emu_internal.h"
#include "bpf/opcodes.h"
#include "support/features.h"
#include "support/live.h"
#include "support/progen.h"
#include "support/scale.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define DEFAULT_SEED 0x5ec0e7a1ULL
#define MAX_FAILURES 5
#define MAX_STACK 3

/* How many cases each generator runs (over 10,000 in all). */
#define HARMLESS_CASES 4500
#define SAFE_CASES 4500
#define TARGETED_CASES 2400

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define NR_SECCOMP_X86_64 317U
#define NR_URETPROBE 335U
#define NR_UPROBE 336U

/* --- what the cases have covered ------------------------------------------ */

/* Every opcode seccomp accepts. */
static const uint16_t seccomp_codes[] = {
	BPF_LD | BPF_W | BPF_ABS,    BPF_LD | BPF_W | BPF_LEN,    BPF_LDX | BPF_W | BPF_LEN,
	BPF_LD | BPF_IMM,            BPF_LDX | BPF_IMM,           BPF_LD | BPF_MEM,
	BPF_LDX | BPF_MEM,           BPF_ST,                      BPF_STX,
	BPF_MISC | BPF_TAX,          BPF_MISC | BPF_TXA,          BPF_ALU | BPF_ADD | BPF_K,
	BPF_ALU | BPF_ADD | BPF_X,   BPF_ALU | BPF_SUB | BPF_K,   BPF_ALU | BPF_SUB | BPF_X,
	BPF_ALU | BPF_MUL | BPF_K,   BPF_ALU | BPF_MUL | BPF_X,   BPF_ALU | BPF_DIV | BPF_K,
	BPF_ALU | BPF_DIV | BPF_X,   BPF_ALU | BPF_OR | BPF_K,    BPF_ALU | BPF_OR | BPF_X,
	BPF_ALU | BPF_AND | BPF_K,   BPF_ALU | BPF_AND | BPF_X,   BPF_ALU | BPF_LSH | BPF_K,
	BPF_ALU | BPF_LSH | BPF_X,   BPF_ALU | BPF_RSH | BPF_K,   BPF_ALU | BPF_RSH | BPF_X,
	BPF_ALU | BPF_XOR | BPF_K,   BPF_ALU | BPF_XOR | BPF_X,   BPF_ALU | BPF_NEG,
	BPF_JMP | BPF_JA,            BPF_JMP | BPF_JEQ | BPF_K,   BPF_JMP | BPF_JEQ | BPF_X,
	BPF_JMP | BPF_JGT | BPF_K,   BPF_JMP | BPF_JGT | BPF_X,   BPF_JMP | BPF_JGE | BPF_K,
	BPF_JMP | BPF_JGE | BPF_X,   BPF_JMP | BPF_JSET | BPF_K,  BPF_JMP | BPF_JSET | BPF_X,
	BPF_RET | BPF_K,             BPF_RET | BPF_A,
};

struct coverage {
	bool code_run[0x100];
	uint16_t words_loaded;   /* seccomp_data words read by ld [k] */
	bool div_by_zero;        /* DIV X with X == 0 ended a program */
	bool big_shift;          /* LSH/RSH by X >= 32 */
	bool high_half_differs;  /* an argument's high word was loaded while nonzero */
	unsigned outcomes[LIVE_HARNESS_ERROR + 1];
	unsigned actions[SCG_ACTION_UNKNOWN + 1];
	unsigned unknown_wins;
	unsigned stacks[MAX_STACK + 1];
	unsigned mixed_stacks;   /* stacks whose filters returned different actions */
	unsigned int80, x32;
	const uint32_t *words;   /* data of the case being traced */
};

static void cover_step(void *ctx, const struct scg_emu_step *step)
{
	struct coverage *cov = ctx;
	uint16_t code = step->insn.code;
	cov->code_run[code & 0xff] = true;
	if (code == (BPF_LD | BPF_W | BPF_ABS)) {
		unsigned w = (step->insn.k >> 2) & 15;
		cov->words_loaded |= (uint16_t)(1U << w);
		/* little-endian ABIs here: odd words from 3 up are high halves */
		if (w >= 5 && (w & 1) && cov->words[w] != 0)
			cov->high_half_differs = true;
	}
	if (code == (BPF_ALU | BPF_DIV | BPF_X) && step->x == 0)
		cov->div_by_zero = true;
	if ((code == (BPF_ALU | BPF_LSH | BPF_X) || code == (BPF_ALU | BPF_RSH | BPF_X)) && step->x >= 32)
		cov->big_shift = true;
}

/* --- the run's state --------------------------------------------------------- */

struct harmless_call {
	const char *name;
	uint32_t nr;
	bool int80;
	int64_t ran; /* its unfiltered result, measured at start */
};

static struct harmless_call harmless[] = {
	{ "x86_64 getppid", 110, false, 0 },
	{ "x86_64 getuid", 102, false, 0 },
	{ "x86_64 getgid", 104, false, 0 },
	{ "i386 getppid", 64, true, 0 },
	{ "i386 getuid32", 199, true, 0 },
	{ "i386 getgid32", 200, true, 0 },
	{ "x32-tagged getppid", SCG_X32_SYSCALL_BIT | 110, false, 0 },
};

struct run_state {
	uint64_t seed;
	struct progen_rng rng;
	unsigned failures;
	struct coverage cov;
	/* cases generated but not run for a missing feature: this test's, and all */
	unsigned int80_skipped, notif_skipped, skipped_total;
};

static uint64_t chosen_seed(void)
{
	const char *s = getenv("SYSCAGE_SEED");
	if (s && *s) {
		char *end;
		unsigned long long v = strtoull(s, &end, 0);
		if (*end == '\0')
			return v;
		fprintf(stderr, "ignoring SYSCAGE_SEED='%s': not a number\n", s);
	}
	return DEFAULT_SEED;
}

static struct scg_seccomp_data data_for(const struct live_call *call)
{
	struct scg_seccomp_data d = { 0 };
	d.nr = call->nr;
	d.arch = call->int80 ? AUDIT_I386 : AUDIT_X86_64;
	d.instruction_pointer = live_ip(call->int80);
	/* Measured on this kernel: int $0x80 from a 64-bit process hands the
	 * full 64-bit registers to the filter; nothing is truncated. */
	memcpy(d.args, call->args, sizeof(d.args));
	return d;
}

static void print_prog(const struct scg_prog *p, size_t index)
{
	fprintf(stderr, "  filter %zu (%zu insns):", index, p->len);
	for (size_t i = 0; i < p->len; i++) {
		const struct scg_insn *in = &p->insns[i];
		fprintf(stderr, "%s{0x%02x,%u,%u,0x%08x}", i % 4 ? " " : "\n    ", in->code, in->jt,
			in->jf, in->k);
	}
	fputc('\n', stderr);
}

static void report_mismatch(const struct run_state *st, const char *kind, size_t index,
			    const struct scg_prog *progs, size_t n, const struct scg_seccomp_data *d,
			    const struct scg_emu_result *res, const struct live_outcome *want,
			    const struct live_outcome *got)
{
	char w[128], g[128], action[40];
	live_outcome_format(want, w, sizeof(w));
	live_outcome_format(got, g, sizeof(g));
	scg_emu_result_format(res, action, sizeof(action));
	fprintf(stderr, "MISMATCH seed=0x%llx %s case %zu: emulator %s (ret 0x%08x, winner %zu)"
			" expects %s, kernel did %s\n",
		(unsigned long long)st->seed, kind, index, action, res->ret, res->winner, w, g);
	fprintf(stderr, "  data: nr=0x%08x arch=0x%08x ip=0x%llx args=", d->nr, d->arch,
		(unsigned long long)d->instruction_pointer);
	for (int i = 0; i < 6; i++)
		fprintf(stderr, "%s0x%llx", i ? "," : "", (unsigned long long)d->args[i]);
	fputc('\n', stderr);
	for (size_t i = 0; i < n; i++)
		print_prog(&progs[i], i);
}

/*
 * Whether this kernel can run the case: int $0x80 needs 32-bit emulation,
 * and a kernel without user notification kills for USER_NOTIF.  Cases it
 * cannot run are counted, and generated all the same, so that a seed
 * stands for the same cases on every kernel.
 */
static bool kernel_can_run(struct run_state *st, const struct scg_prog *progs, size_t n,
			   const struct live_call *call, const struct scg_seccomp_data *d)
{
	if (call->int80 && !feature_have("i386-emulation")) {
		st->int80_skipped++;
		return false;
	}
	struct scg_emu_result res;
	if (!feature_have("user-notif") &&
	    scg_emu_stack(progs, n, d, &res, NULL, NULL, NULL) == 0 &&
	    res.action == SCG_ACTION_USER_NOTIF && !res.unknown_action) {
		st->notif_skipped++;
		return false;
	}
	return true;
}

/* Prints this test's skip lines and starts the counts again. */
static void report_skips(struct run_state *st, const char *test)
{
	if (st->int80_skipped)
		feature_skip("i386-emulation", "%u int $0x80 cases of %s", st->int80_skipped, test);
	if (st->notif_skipped)
		feature_skip("user-notif", "%u USER_NOTIF cases of %s", st->notif_skipped, test);
	st->skipped_total += st->int80_skipped + st->notif_skipped;
	st->int80_skipped = st->notif_skipped = 0;
}

/* Emulates and runs one case; counts coverage; reports a mismatch.  True when they agree. */
static bool check_case(struct run_state *st, const char *kind, size_t index,
		       const struct scg_prog *progs, size_t n, const struct live_call *call,
		       int64_t ran)
{
	struct scg_seccomp_data d = data_for(call);
	if (!kernel_can_run(st, progs, n, call, &d))
		return true;
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(&d, words);
	st->cov.words = words;
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack(progs, n, &d, &res, NULL, cover_step, &st->cov), 0);

	struct live_outcome want, got;
	live_expect(&res, ran, &want);
	assert_int_equal(live_run(progs, n, call, &got), 0);

	struct coverage *cov = &st->cov;
	cov->outcomes[got.kind]++;
	cov->actions[res.unknown_action ? SCG_ACTION_UNKNOWN : res.action]++;
	cov->unknown_wins += res.unknown_action;
	cov->stacks[n]++;
	cov->int80 += call->int80;
	cov->x32 += !call->int80 && (call->nr & 0xc0000000U) == SCG_X32_SYSCALL_BIT;
	if (n > 1) {
		uint32_t rets[MAX_STACK];
		struct scg_emu_result again;
		assert_int_equal(scg_emu_stack_unchecked(progs, n, &d, &again, NULL, rets, NULL, NULL), 0);
		for (size_t i = 1; i < n; i++)
			if (scg_action_of(rets[i]) != scg_action_of(rets[0])) {
				cov->mixed_stacks++;
				break;
			}
	}
	if (live_outcome_equal(&want, &got))
		return true;
	report_mismatch(st, kind, index, progs, n, &d, &res, &want, &got);
	st->failures++;
	return false;
}

/* --- generating cases -------------------------------------------------------- */

static void random_args(struct progen_rng *rng, uint64_t *args)
{
	for (int i = 0; i < 6; i++) {
		switch (progen_below(rng, 4)) {
		case 0:
			args[i] = progen_next(rng);
			break;
		case 1:
			args[i] = progen_below(rng, 5);
			break;
		default:
			args[i] = progen_interesting64(rng);
			break;
		}
	}
}

static void release_all(struct scg_prog *progs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&progs[i]);
}

/*
 * Moves the @n programs of @raw into @progs; for a stack, each is wrapped so
 * the harness can install the next one, and the emulator runs the same
 * wrapped programs.
 */
static void build_stack(struct scg_prog *progs, size_t n, struct scg_prog *raw)
{
	for (size_t i = 0; i < n; i++) {
		if (n == 1) {
			progs[i] = raw[i];
			raw[i] = (struct scg_prog){ 0 };
			continue;
		}
		assert_int_equal(live_wrap_for_stacking(&raw[i], &progs[i]), 0);
		scg_prog_release(&raw[i]);
	}
}

static size_t stack_size(struct progen_rng *rng)
{
	uint32_t r = progen_below(rng, 10);
	return r < 5 ? 1 : r < 8 ? 2 : 3;
}

static int live_or_skip(void)
{
	int live = live_require();
	assert_true(live >= 0);
	return live;
}

/* Harmless calls under programs with every kind of return value. */
static void test_harmless_calls(void **state)
{
	struct run_state *st = *state;
	if (!live_or_skip())
		skip();
	struct progen_opts opts = { .max_len = 48, .allow_ret_a = true, .allow_div_x = true };
	for (size_t i = 0; i < test_scaled(HARMLESS_CASES) && st->failures < MAX_FAILURES; i++) {
		const struct harmless_call *h = &harmless[progen_below(&st->rng, N(harmless))];
		struct live_call call = { .nr = h->nr, .int80 = h->int80 };
		random_args(&st->rng, call.args);
		size_t n = stack_size(&st->rng);
		struct scg_prog raw[MAX_STACK], progs[MAX_STACK];
		for (size_t f = 0; f < n; f++)
			assert_int_equal(progen_valid(&st->rng, &opts, &raw[f]), 0);
		build_stack(progs, n, raw);
		check_case(st, "harmless", i, progs, n, &call, h->ran);
		release_all(progs, n);
	}
	report_skips(st, __func__);
	assert_int_equal(st->failures, 0);
}

/* Any syscall: never the exempt ones, never the harness's own install call. */
static void random_call(struct progen_rng *rng, struct live_call *call)
{
	memset(call, 0, sizeof(*call));
	call->int80 = progen_below(rng, 3) == 0;
	switch (progen_below(rng, 4)) {
	case 0:
		call->nr = progen_interesting32(rng);
		break;
	case 1:
		call->nr = SCG_X32_SYSCALL_BIT | progen_below(rng, 600);
		break;
	default:
		call->nr = progen_below(rng, 480);
		break;
	}
	random_args(rng, call->args);
	if (!call->int80 && (call->nr == NR_URETPROBE || call->nr == NR_UPROBE))
		call->nr += 2;
	if (!call->int80 && call->nr == NR_SECCOMP_X86_64 && (uint32_t)call->args[5] == LIVE_STACK_COOKIE)
		call->args[5] ^= 1;
}

/* Any syscall number and arguments; no filter ever lets one run. */
static void test_any_syscall_safe_returns(void **state)
{
	struct run_state *st = *state;
	if (!live_or_skip())
		skip();
	struct progen_opts opts = { .max_len = 48, .allow_div_x = true, .only_safe_returns = true };
	for (size_t i = 0; i < test_scaled(SAFE_CASES) && st->failures < MAX_FAILURES; i++) {
		struct live_call call;
		random_call(&st->rng, &call);
		size_t n = stack_size(&st->rng);
		struct scg_prog raw[MAX_STACK], progs[MAX_STACK];
		for (size_t f = 0; f < n; f++)
			assert_int_equal(progen_valid(&st->rng, &opts, &raw[f]), 0);
		build_stack(progs, n, raw);
		check_case(st, "any-syscall", i, progs, n, &call, 0 /* never runs */);
		release_all(progs, n);
	}
	report_skips(st, __func__);
	assert_int_equal(st->failures, 0);
}

/* --- programs aimed at the data ------------------------------------------------ */

struct builder {
	struct scg_insn insns[128];
	size_t len;
	size_t exits[16]; /* positions of jumps whose jt goes to a return */
	size_t n_exits;
};

static void emit(struct builder *b, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	b->insns[b->len++] = (struct scg_insn){ code, jt, jf, k };
}

/* A constant near @v, so that comparisons go both ways. */
static uint32_t near(struct progen_rng *rng, uint32_t v)
{
	switch (progen_below(rng, 5)) {
	case 0:
		return v + 1;
	case 1:
		return v - 1;
	case 2:
		return progen_interesting32(rng);
	default:
		return v;
	}
}

static const uint16_t cond_ops[] = { BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET };

/* One test on the data: a load, maybe some arithmetic, a conditional exit. */
static void emit_block(struct builder *b, struct progen_rng *rng, const uint32_t *words)
{
	unsigned w = progen_below(rng, 4) ? 2 + progen_below(rng, 14) : progen_below(rng, 2);
	uint32_t a = words[w];
	emit(b, BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 * w);
	uint16_t op = cond_ops[progen_below(rng, N(cond_ops))];
	switch (progen_below(rng, 6)) {
	case 0: { /* compare two words through X */
		unsigned w2 = 2 + progen_below(rng, 14);
		emit(b, BPF_MISC | BPF_TAX, 0, 0, 0);
		emit(b, BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 * w2);
		b->exits[b->n_exits++] = b->len;
		emit(b, (uint16_t)(BPF_JMP | op | BPF_X), 0, 0, 0);
		return;
	}
	case 1: { /* through scratch memory */
		uint32_t slot = progen_below(rng, SCG_BPF_MEMWORDS);
		emit(b, BPF_ST, 0, 0, slot);
		emit(b, BPF_LDX | BPF_IMM, 0, 0, near(rng, a));
		emit(b, BPF_LD | BPF_MEM, 0, 0, slot);
		b->exits[b->n_exits++] = b->len;
		emit(b, (uint16_t)(BPF_JMP | op | BPF_X), 0, 0, 0);
		return;
	}
	case 2: { /* masked */
		uint32_t mask = progen_interesting32(rng);
		emit(b, BPF_ALU | BPF_AND | BPF_K, 0, 0, mask);
		a &= mask;
		break;
	}
	case 3: { /* shifted */
		uint32_t sh = progen_below(rng, 32);
		emit(b, BPF_ALU | BPF_RSH | BPF_K, 0, 0, sh);
		a >>= sh;
		break;
	}
	default:
		break;
	}
	b->exits[b->n_exits++] = b->len;
	emit(b, (uint16_t)(BPF_JMP | op | BPF_K), 0, 0, near(rng, a));
}

/* A program whose tests use the values the call will present. */
static void gen_targeted(struct progen_rng *rng, const uint32_t *words, bool safe,
			 struct scg_prog *out)
{
	struct builder b = { .len = 0 };
	size_t blocks = 1 + progen_below(rng, 6);
	for (size_t i = 0; i < blocks; i++)
		emit_block(&b, rng, words);
	if (!safe && progen_below(rng, 4) == 0) {
		emit(&b, BPF_LD | BPF_W | BPF_ABS, 0, 0, 4 * progen_below(rng, 16));
		emit(&b, BPF_RET | BPF_A, 0, 0, 0); /* fall-through returns a data word */
	} else {
		emit(&b, BPF_RET | BPF_K, 0, 0, progen_ret(rng, safe));
	}
	/* each conditional exit jumps to a return of its own, placed at the end */
	for (size_t e = 0; e < b.n_exits; e++) {
		size_t at = b.exits[e];
		b.insns[at].jt = (uint8_t)(b.len - at - 1);
		emit(&b, BPF_RET | BPF_K, 0, 0, progen_ret(rng, safe));
	}
	out->insns = malloc(b.len * sizeof(*out->insns));
	assert_non_null(out->insns);
	memcpy(out->insns, b.insns, b.len * sizeof(*out->insns));
	out->len = b.len;
}

/* Programs aimed at the call's own data: arguments, both halves, ip, nr, arch. */
static void test_targeted_programs(void **state)
{
	struct run_state *st = *state;
	if (!live_or_skip())
		skip();
	for (size_t i = 0; i < test_scaled(TARGETED_CASES) && st->failures < MAX_FAILURES; i++) {
		bool safe = progen_below(&st->rng, 2);
		struct live_call call;
		int64_t ran = 0;
		if (safe) {
			random_call(&st->rng, &call);
		} else {
			const struct harmless_call *h = &harmless[progen_below(&st->rng, N(harmless))];
			call = (struct live_call){ .nr = h->nr, .int80 = h->int80 };
			random_args(&st->rng, call.args);
			ran = h->ran;
		}
		struct scg_seccomp_data d = data_for(&call);
		uint32_t words[SCG_EMU_WORDS];
		emu_layout(&d, words);
		size_t n = stack_size(&st->rng);
		struct scg_prog raw[MAX_STACK], progs[MAX_STACK];
		for (size_t f = 0; f < n; f++)
			gen_targeted(&st->rng, words, safe, &raw[f]);
		build_stack(progs, n, raw);
		check_case(st, safe ? "targeted-any" : "targeted-harmless", i, progs, n, &call, ran);
		release_all(progs, n);
	}
	report_skips(st, __func__);
	assert_int_equal(st->failures, 0);
}

/* uretprobe and uprobe run whatever the filters say; their neighbours do not. */
static void test_never_filtered(void **state)
{
	struct run_state *st = *state;
	if (!live_or_skip())
		skip();
	if (!feature_require("uretprobe", "no call this kernel has is exempt from filters"))
		skip();
	static const uint32_t rets[] = { SCG_RET_KILL_PROCESS, SCG_RET_KILL_THREAD, SCG_RET_TRAP | 5,
					 SCG_RET_ERRNO | 13, SCG_RET_USER_NOTIF, 0x10000000U };
	static const uint32_t nrs[] = { NR_URETPROBE, NR_UPROBE };
	unsigned checked = 0;
	/* uretprobe called from anywhere but its trampoline raises SIGILL; the
	 * child must die of it, not run cmocka's crash handler */
	struct sigaction dfl = { .sa_handler = SIG_DFL }, saved;
	assert_int_equal(sigaction(SIGILL, &dfl, &saved), 0);
	for (size_t i = 0; i < N(nrs); i++) {
		struct live_call call = { .nr = nrs[i] };
		struct live_outcome unfiltered;
		assert_int_equal(live_run(NULL, 0, &call, &unfiltered), 0);
		if (unfiltered.kind == LIVE_RETURNED && unfiltered.retval == -ENOSYS) {
			fprintf(stderr, "NOTE: this kernel has no syscall %u; its exception is not checked\n",
				nrs[i]);
			continue;
		}
		for (size_t r = 0; r < N(rets); r++) {
			struct scg_insn insn = { BPF_RET | BPF_K, 0, 0, rets[r] };
			struct scg_prog prog = { &insn, 1 };
			struct scg_seccomp_data d = data_for(&call);
			struct scg_emu_result res;
			assert_int_equal(scg_emu_stack(&prog, 1, &d, &res, NULL, NULL, NULL), 0);
			assert_true(res.never_filtered);
			assert_int_equal(res.action, SCG_ACTION_ALLOW);
			struct live_outcome got;
			assert_int_equal(live_run(&prog, 1, &call, &got), 0);
			if (!live_outcome_equal(&got, &unfiltered)) {
				struct live_outcome want = unfiltered;
				report_mismatch(st, "never-filtered", r, &prog, 1, &d, &res, &want, &got);
				st->failures++;
			}
			/* the same number as x32 or through int $0x80 is filtered (and none of
			 * these values lets a call run) */
			struct live_call other[2] = { { .nr = nrs[i] | SCG_X32_SYSCALL_BIT },
						      { .nr = nrs[i], .int80 = true } };
			for (size_t o = 0; o < 2; o++)
				check_case(st, "filtered-neighbour", r, &prog, 1, &other[o], 0);
			checked++;
		}
	}
	sigaction(SIGILL, &saved, NULL);
	report_skips(st, __func__);
	assert_int_equal(st->failures, 0);
	assert_true(checked > 0);
}

/* The runs above covered what they are meant to cover. */
static void test_coverage(void **state)
{
	struct run_state *st = *state;
	if (!live_or_skip())
		skip();
	const struct coverage *c = &st->cov;
	for (size_t i = 0; i < N(seccomp_codes); i++) {
		if (!c->code_run[seccomp_codes[i]])
			fprintf(stderr, "opcode 0x%02x never executed\n", seccomp_codes[i]);
		assert_true(c->code_run[seccomp_codes[i]]);
	}
	assert_int_equal(c->words_loaded, 0xffff); /* nr, arch, both ip words, every arg word */
	assert_true(c->div_by_zero);
	assert_true(c->big_shift);
	assert_true(c->high_half_differs);
	static const enum live_kind kinds[] = { LIVE_RETURNED, LIVE_TRAPPED, LIVE_THREAD_KILLED,
						LIVE_PROCESS_KILLED };
	for (size_t i = 0; i < N(kinds); i++)
		assert_true(c->outcomes[kinds[i]] > 0);
	for (int a = 0; a <= SCG_ACTION_UNKNOWN; a++) {
		if (c->actions[a] == 0)
			fprintf(stderr, "action %s never decided a case\n", scg_action_name((enum scg_action)a));
		assert_true(c->actions[a] > 0);
	}
	assert_true(c->stacks[1] > 0 && c->stacks[2] > 0 && c->stacks[3] > 0);
	assert_true(c->mixed_stacks > test_scaled(100));
	assert_true(c->int80 > test_scaled(100) || !feature_have("i386-emulation"));
	assert_true(c->x32 > test_scaled(100));
	unsigned total = 0;
	for (size_t n = 1; n <= MAX_STACK; n++)
		total += c->stacks[n];
	fprintf(stderr, "seed 0x%llx: %u cases against the kernel (%u x 1, %u x 2, %u x 3 filters)\n",
		(unsigned long long)st->seed, total, c->stacks[1], c->stacks[2], c->stacks[3]);
	/* the cases a missing feature left out were generated, and counted as skipped */
	assert_true(total + st->skipped_total >= test_scaled(10000));
}

/* Measures what each harmless call returns when it runs (int $0x80 where it can). */
static void measure_harmless(void)
{
	bool int80 = feature_have("i386-emulation");
	if (!int80)
		feature_skip("i386-emulation", "measuring the int $0x80 harmless calls");
	for (size_t i = 0; i < N(harmless); i++) {
		if (harmless[i].int80 && !int80)
			continue;
		struct live_call call = { .nr = harmless[i].nr, .int80 = harmless[i].int80 };
		struct live_outcome first, second;
		assert_int_equal(live_run(NULL, 0, &call, &first), 0);
		assert_int_equal(live_run(NULL, 0, &call, &second), 0);
		assert_int_equal(first.kind, LIVE_RETURNED);
		assert_true(live_outcome_equal(&first, &second)); /* deterministic */
		harmless[i].ran = first.retval;
	}
	/* the child's parent is this process */
	assert_int_equal(harmless[0].ran, getpid());
	if (int80)
		assert_int_equal(harmless[3].ran, getpid());
	/* with x32 on, the x32-tagged getppid runs (and every harmless case checks that a
	 * filter letting it through lets it run); with x32 off it fails with ENOSYS */
	if (feature_require("x32", "an x32 getppid that runs"))
		assert_int_equal(harmless[6].ran, getpid());
	else
		assert_int_equal(harmless[6].ran, -ENOSYS);
}

static int setup(void **state)
{
	static struct run_state st;
	/* SIGSYS and SIGILL kills would otherwise leave core files behind */
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
	st.seed = chosen_seed();
	progen_seed(&st.rng, st.seed);
	fprintf(stderr, "seed 0x%llx (set SYSCAGE_SEED to replay another)\n",
		(unsigned long long)st.seed);
	*state = &st;
	return 0;
}

static void test_measure(void **state)
{
	(void)state;
	if (!live_or_skip())
		skip();
	measure_harmless();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_harmless_calls),
		cmocka_unit_test(test_any_syscall_safe_returns),
		cmocka_unit_test(test_targeted_programs),
		cmocka_unit_test(test_never_filtered),
		cmocka_unit_test(test_coverage),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
