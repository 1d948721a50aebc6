/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Warnings about programs the kernel accepts but that are probably wrong.
 *
 * The path-sensitive ones (no arch check, x32 not handled, unreachable code)
 * come from one forward pass over the program: every jump goes forward, so
 * visiting instructions in index order sees all of an instruction's
 * predecessors before it.  Each instruction gets the union of what may be
 * true on the paths that reach it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/verify.h>

#include "bpf/opcodes.h"
#include "bpf/verify_internal.h"
#include "util/strbuf.h"

#define AUDIT_ARCH_X86_64_VALUE 0xc000003eU

/* What a register or scratch slot may hold. */
enum { TAG_NR = 1, TAG_ARCH = 2 };

struct flow_state {
	bool reached;
	bool arch_unchecked; /* some path here has not loaded seccomp_data.arch */
	bool x32_open;	     /* some path here passed arch == X86_64 without a bit-30 test since */
	bool x32_compared;   /* ... and left a `jeq` on an x86_64 number on its false branch */
	size_t x32_jeq;      /* the first such `jeq` */
	uint8_t a, x;
	uint8_t mem[SCG_BPF_MEMWORDS];
};

/* Where a warning applies: the first few indices and how many in all. */
#define OCC_KEEP 4
struct occurrences {
	size_t count;
	size_t at[OCC_KEEP];
};

/* A finished warning, held back so the list can be sorted by instruction. */
struct pending {
	size_t insn;
	size_t seq; /* keeps warnings at one instruction in a fixed order */
	const char *rule;
	char *hint;
	char *message;
};

/* One warning per kind at most: the eight kinds below. */
#define MAX_PENDING 8

struct warn_ctx {
	const struct scg_prog *prog;
	struct flow_state *states;
	struct occurrences no_arch, x32, ret_a, div_x, shift_x, kill_thread, unknown;
	bool x32_numbers_seen; /* an x86_64 path compares nr with x32 numbers */
	struct pending pending[MAX_PENDING];
	size_t n_pending;
};

static void note(struct occurrences *o, size_t pc)
{
	if (o->count < OCC_KEEP)
		o->at[o->count] = pc;
	o->count++;
}

/* note(), unless @pc is already among the instructions kept. */
static void note_once(struct occurrences *o, size_t pc)
{
	for (size_t i = 0; i < o->count && i < OCC_KEEP; i++)
		if (o->at[i] == pc)
			return;
	note(o, pc);
}

static void merge_into(struct flow_state *dst, const struct flow_state *src)
{
	if (!dst->reached) {
		*dst = *src;
		return;
	}
	dst->arch_unchecked |= src->arch_unchecked;
	dst->x32_open |= src->x32_open;
	if (src->x32_compared && (!dst->x32_compared || src->x32_jeq < dst->x32_jeq))
		dst->x32_jeq = src->x32_jeq;
	dst->x32_compared |= src->x32_compared;
	dst->a |= src->a;
	dst->x |= src->x;
	for (size_t i = 0; i < SCG_BPF_MEMWORDS; i++)
		dst->mem[i] |= src->mem[i];
}

static bool is_cond_jump(uint16_t code)
{
	return BPF_CLASS(code) == BPF_JMP && BPF_OP(code) != BPF_JA;
}

/* A comparison whose outcome depends on the syscall number. */
static bool tests_nr(const struct scg_insn *insn, const struct flow_state *s)
{
	if (!is_cond_jump(insn->code))
		return false;
	uint8_t operands = BPF_SRC(insn->code) == BPF_X ? (uint8_t)(s->a | s->x) : s->a;
	return operands & TAG_NR;
}

/* jge #0x40000000, jgt #0x3fffffff or jset with bit 30: separates x32 calls. */
static bool tests_x32_bit(const struct scg_insn *insn, const struct flow_state *s)
{
	if (BPF_SRC(insn->code) != BPF_K || !(s->a & TAG_NR))
		return false;
	switch (BPF_OP(insn->code)) {
	case BPF_JGE:
		return insn->k == SCG_X32_SYSCALL_BIT;
	case BPF_JGT:
		return insn->k == SCG_X32_SYSCALL_BIT - 1;
	case BPF_JSET:
		return (insn->k & SCG_X32_SYSCALL_BIT) != 0;
	default:
		return false;
	}
}

/* A comparison with an x32 number (bit 30 set, bit 31 clear): x32 calls are handled by name. */
static bool compares_x32_number(const struct scg_insn *insn, const struct flow_state *s)
{
	if (BPF_SRC(insn->code) != BPF_K || BPF_OP(insn->code) == BPF_JSET || !(s->a & TAG_NR))
		return false;
	return (insn->k & (SCG_X32_SYSCALL_BIT | 0x80000000U)) == SCG_X32_SYSCALL_BIT;
}

/*
 * `jeq #k` on the number, k an x86_64 number (bits 30 and 31 clear): its
 * true branch is that one number, which no x32 call has, so x32 calls all
 * take the false branch.  Fine as long as they meet a bit-30 test there
 * before anything decides them (a hot chain in front of the x32 split).
 */
static bool exact_native_jeq(const struct scg_insn *insn, const struct flow_state *s)
{
	return insn->code == (BPF_JMP | BPF_JEQ | BPF_K) && (s->a & TAG_NR) &&
	       !(insn->k & (SCG_X32_SYSCALL_BIT | 0x80000000U));
}

/*
 * `jge #k` (or `jgt #k - 1`) on the number, k at most 0x40000000: every x32
 * call takes the true branch, the false branch has none.  A search tree
 * over the numbers is made of these; like an exact `jeq`, it is fine as
 * long as x32 calls meet a bit-30 test on the true side before anything
 * decides them (the tree's own bound at 0x40000000 when x32 numbers are a
 * range of their own).
 */
static bool below_x32_split(const struct scg_insn *insn, const struct flow_state *s)
{
	if (BPF_SRC(insn->code) != BPF_K || !(s->a & TAG_NR))
		return false;
	if (BPF_OP(insn->code) == BPF_JGE)
		return insn->k <= SCG_X32_SYSCALL_BIT;
	if (BPF_OP(insn->code) == BPF_JGT)
		return insn->k < SCG_X32_SYSCALL_BIT;
	return false;
}

/* Effect of a non-jump instruction on the tags. */
static void transfer(const struct scg_insn *insn, struct flow_state *s)
{
	uint16_t code = insn->code;
	switch (BPF_CLASS(code)) {
	case BPF_LD:
		if (BPF_MODE(code) == BPF_ABS) {
			s->a = insn->k == SCG_DATA_NR	  ? TAG_NR
			       : insn->k == SCG_DATA_ARCH ? TAG_ARCH
							  : 0;
			if (insn->k == SCG_DATA_ARCH)
				s->arch_unchecked = false;
		} else {
			s->a = BPF_MODE(code) == BPF_MEM ? s->mem[insn->k] : 0;
		}
		return;
	case BPF_LDX:
		s->x = BPF_MODE(code) == BPF_MEM ? s->mem[insn->k] : 0;
		return;
	case BPF_ST:
		s->mem[insn->k] = s->a;
		return;
	case BPF_STX:
		s->mem[insn->k] = s->x;
		return;
	case BPF_ALU:
		if (BPF_OP(code) != BPF_NEG && BPF_SRC(code) == BPF_X)
			s->a |= s->x; /* a value computed from the number stays "the number" */
		return;
	case BPF_MISC:
		if (BPF_MISCOP(code) == BPF_TAX)
			s->x = s->a;
		else
			s->a = s->x;
		return;
	default:
		return;
	}
}

/* Checks that look at one instruction alone. */
static void note_local(struct warn_ctx *ctx, size_t pc)
{
	const struct scg_insn *insn = &ctx->prog->insns[pc];
	switch (insn->code) {
	case BPF_RET | BPF_A:
		note(&ctx->ret_a, pc);
		break;
	case BPF_RET | BPF_K:
		if (scg_action_of(insn->k) == SCG_ACTION_KILL_THREAD)
			note(&ctx->kill_thread, pc);
		else if (scg_action_of(insn->k) == SCG_ACTION_UNKNOWN)
			note(&ctx->unknown, pc);
		break;
	case BPF_ALU | BPF_DIV | BPF_X:
		note(&ctx->div_x, pc);
		break;
	case BPF_ALU | BPF_LSH | BPF_X:
	case BPF_ALU | BPF_RSH | BPF_X:
		note(&ctx->shift_x, pc);
		break;
	default:
		break;
	}
}

static void flow_jump(struct warn_ctx *ctx, size_t pc, struct flow_state *s)
{
	const struct scg_insn *insn = &ctx->prog->insns[pc];
	if (BPF_OP(insn->code) == BPF_JA) {
		merge_into(&ctx->states[pc + 1 + insn->k], s);
		return;
	}
	bool exact = false, below = false;
	if (tests_x32_bit(insn, s)) {
		s->x32_open = false; /* both branches: x32 calls were routed here */
	} else if (tests_nr(insn, s)) {
		if (s->x32_open && compares_x32_number(insn, s))
			ctx->x32_numbers_seen = true;
		if (s->arch_unchecked)
			note(&ctx->no_arch, pc);
		exact = s->x32_open && exact_native_jeq(insn, s);
		below = s->x32_open && below_x32_split(insn, s);
		if (s->x32_open && !exact && !below)
			note(&ctx->x32, pc);
	}
	struct flow_state taken = *s;
	if (exact) {
		taken.x32_open = false; /* nr == k: no x32 call */
		if (!s->x32_compared) /* a return before a bit-30 test decides x32 calls */
			s->x32_jeq = pc;
		s->x32_compared = true;
	}
	if (below) {
		s->x32_open = false; /* nr < k: no x32 call */
		if (!taken.x32_compared)
			taken.x32_jeq = pc;
		taken.x32_compared = true;
	}
	if (insn->code == (BPF_JMP | BPF_JEQ | BPF_K) && insn->k == AUDIT_ARCH_X86_64_VALUE &&
	    (s->a & TAG_ARCH))
		taken.x32_open = true;
	merge_into(&ctx->states[pc + 1 + insn->jt], &taken);
	merge_into(&ctx->states[pc + 1 + insn->jf], s);
}

static void run_flow(struct warn_ctx *ctx)
{
	ctx->states[0] = (struct flow_state){.reached = true, .arch_unchecked = true};
	for (size_t pc = 0; pc < ctx->prog->len; pc++) {
		struct flow_state s = ctx->states[pc];
		if (!s.reached)
			continue; /* reported as unreachable, and nothing else */
		note_local(ctx, pc);
		uint16_t code = ctx->prog->insns[pc].code;
		if (BPF_CLASS(code) == BPF_RET) {
			/* x32 calls reach a verdict after passing x86_64 numbers by */
			if (s.x32_open && s.x32_compared)
				note_once(&ctx->x32, s.x32_jeq);
			continue;
		}
		if (BPF_CLASS(code) == BPF_JMP) {
			flow_jump(ctx, pc, &s);
			continue;
		}
		transfer(&ctx->prog->insns[pc], &s);
		merge_into(&ctx->states[pc + 1], &s);
	}
}

/* ", also at insns 9, 12 and 3 more" for a warning seen more than once. */
static void append_others(struct strbuf *sb, const struct occurrences *o)
{
	if (o->count < 2)
		return;
	size_t shown = o->count < OCC_KEEP ? o->count : OCC_KEEP;
	strbuf_append(sb, " (also at insn");
	strbuf_append(sb, o->count > 2 ? "s " : " ");
	for (size_t i = 1; i < shown; i++)
		strbuf_appendf(sb, "%s%zu", i == 1 ? "" : ", ", o->at[i]);
	if (o->count > shown)
		strbuf_appendf(sb, " and %zu more", o->count - shown);
	strbuf_append(sb, ")");
}

/* Queues a warning; takes ownership of @message.  0 or -ENOMEM. */
static int queue(struct warn_ctx *ctx, size_t insn, const char *rule, const char *hint,
		 char *message)
{
	char *hint_copy = hint ? strdup(hint) : NULL;
	if (!message || (hint && !hint_copy) || ctx->n_pending == MAX_PENDING) {
		free(message);
		free(hint_copy);
		return -ENOMEM;
	}
	/* Owned by ctx->pending from here on; flush() frees them. */
	ctx->pending[ctx->n_pending] =
	    (struct pending){insn, ctx->n_pending, rule, hint_copy, message};
	ctx->n_pending++; // NOLINT(clang-analyzer-unix.Malloc)
	return 0;
}

static int emit(struct warn_ctx *ctx, const struct occurrences *o, const char *rule,
		const char *hint, const char *what)
{
	if (o->count == 0)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	strbuf_append(&sb, what);
	append_others(&sb, o);
	char *message;
	if (strbuf_finish(&sb, &message) < 0)
		return -ENOMEM;
	return queue(ctx, o->at[0], rule, hint, message);
}

static int by_position(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->insn != y->insn)
		return x->insn < y->insn ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Adds the queued warnings to @diag in instruction order and frees them. */
static int flush(struct warn_ctx *ctx, struct scg_diag *diag, int r)
{
	qsort(ctx->pending, ctx->n_pending, sizeof(ctx->pending[0]), by_position);
	for (size_t i = 0; i < ctx->n_pending; i++) {
		const struct pending *p = &ctx->pending[i];
		if (r == 0)
			r = scg_diag_add(diag, SCG_SEV_WARNING, SCG_LOC_INSN(p->insn), p->rule,
					 p->hint, "%s", p->message);
		free(p->hint);
		free(p->message);
	}
	ctx->n_pending = 0;
	return r;
}

/* "x86 and x32" for the ABIs that share a process with @arch. */
static void companion_names(const struct scg_arch *arch, char *buf, size_t size)
{
	const struct scg_arch *others[8];
	size_t n = arch ? scg_arch_companions(arch, others, 8) : 0;
	if (n > 8)
		n = 8;
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? " and " : ", ";
		int w = snprintf(buf + used, size - used, "%s%s", sep, scg_arch_name(others[i]));
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static int emit_arch_warnings(struct warn_ctx *ctx, const struct scg_arch *arch)
{
	char names[96], hint[256];
	companion_names(arch ? arch : scg_arch_native(), names, sizeof(names));
	if (names[0])
		snprintf(hint, sizeof(hint),
			 "%s processes can also make %s system calls, whose numbers mean other "
			 "syscalls: load the arch (ld [4]) and compare it first",
			 scg_arch_name(arch ? arch : scg_arch_native()), names);
	else
		snprintf(hint, sizeof(hint),
			 "load the arch (ld [4]) and compare it before testing syscall numbers");
	int r = emit(ctx, &ctx->no_arch, "no-arch-check", hint,
		     "the syscall number is tested on a path that never loaded the arch");
	if (r < 0 || ctx->x32_numbers_seen)
		return r; /* x32 numbers listed explicitly (as libseccomp does): handled */
	return emit(ctx, &ctx->x32, "x32-not-handled",
		    "test 'jge #0x40000000' first: otherwise a deny list can be bypassed with "
		    "x32 numbers (nr | 0x40000000)",
		    "after arch == X86_64, syscall numbers are compared without excluding x32 "
		    "calls, which report the same arch");
}

static int emit_local_warnings(struct warn_ctx *ctx)
{
	char what[160];
	int r = emit(ctx, &ctx->ret_a, "ret-a", NULL,
		     "ret a: the action is whatever A holds; a value that is no known action "
		     "kills the process");
	if (r == 0)
		r = emit(ctx, &ctx->div_x, "div-by-x", NULL,
			 "div x: the filter returns KILL_THREAD (0) when X is 0");
	if (r == 0)
		r = emit(ctx, &ctx->shift_x, "shift-by-x", NULL,
			 "shift by x: the count is masked to 5 bits (X & 31)");
	if (r == 0)
		r = emit(ctx, &ctx->kill_thread, "kill-thread", "use KILL_PROCESS (0x80000000)",
			 "returns KILL_THREAD: only the calling thread dies and the rest of the "
			 "process runs on in an inconsistent state");
	if (r == 0 && ctx->unknown.count) {
		uint32_t k = ctx->prog->insns[ctx->unknown.at[0]].k;
		snprintf(what, sizeof(what),
			 "ret #%#x is not a known action: the kernel kills the process when it "
			 "wins",
			 k);
		r = emit(ctx, &ctx->unknown, "unknown-action", NULL, what);
	}
	return r;
}

/* One warning listing the unreachable ranges ("5-7, 12"). */
static int emit_unreachable(struct warn_ctx *ctx)
{
	enum { MAX_RANGES_SHOWN = 8 };
	struct strbuf sb = STRBUF_INIT;
	size_t len = ctx->prog->len, ranges = 0, total = 0;
	long first = -1;
	for (size_t pc = 0; pc < len;) {
		if (ctx->states[pc].reached) {
			pc++;
			continue;
		}
		size_t end = pc;
		while (end + 1 < len && !ctx->states[end + 1].reached)
			end++;
		if (first < 0)
			first = (long)pc;
		if (ranges < MAX_RANGES_SHOWN) {
			strbuf_append(&sb, ranges ? ", " : "");
			if (end > pc)
				strbuf_appendf(&sb, "%zu-%zu", pc, end);
			else
				strbuf_appendf(&sb, "%zu", pc);
		}
		ranges++;
		total += end - pc + 1;
		pc = end + 1;
	}
	if (ranges > MAX_RANGES_SHOWN)
		strbuf_appendf(&sb, " and %zu more ranges", ranges - MAX_RANGES_SHOWN);
	char *list;
	int r = strbuf_finish(&sb, &list);
	if (r < 0 || first < 0) {
		free(list);
		return r;
	}
	char *message;
	r = asprintf(&message, "%zu unreachable instruction%s: %s", total, total == 1 ? "" : "s",
		     list);
	free(list);
	if (r < 0)
		return -ENOMEM;
	return queue(ctx, (size_t)first, "unreachable",
		     "no path from the start reaches them; remove them or fix the jumps", message);
}

int verify_warn(const struct scg_prog *prog, const struct scg_arch *arch, struct scg_diag *diag)
{
	if (!diag)
		return 0;
	struct warn_ctx ctx = {.prog = prog};
	ctx.states = calloc(prog->len, sizeof(*ctx.states));
	if (!ctx.states)
		return -ENOMEM;
	run_flow(&ctx);
	int r = emit_arch_warnings(&ctx, arch);
	if (r == 0)
		r = emit_local_warnings(&ctx);
	if (r == 0)
		r = emit_unreachable(&ctx);
	r = flush(&ctx, diag, r);
	free(ctx.states);
	return r;
}
