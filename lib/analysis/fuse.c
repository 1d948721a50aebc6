/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fusion: one filter that means what a stack of filters means.
 *
 * The kernel runs every filter of a stack on every call it does not cache
 * and keeps the strictest action (the smallest (s32)(ret & 0xffff0000); on a
 * tie the newest filter's value, data included).  A stack of eight small
 * filters therefore costs eight filters' worth of instructions per call.
 *
 * The fused filter is built one of two ways, then proven equal to the stack
 * with scg_analysis_diff() before it is handed out:
 *
 *  1. Decompiled (the usual way): scg_decompile() turns the stack into one
 *     policy, whose every (ABI, syscall, argument region) carries the stack's
 *     combined verdict, and scg_compile() lays that policy out as one search
 *     tree.  The result costs about what one filter costs.
 *  2. Chained, when the policy language cannot say what the stack does
 *     (a filter without an ABI check, tests of the instruction pointer,
 *     computed values): the filters' code one after the other, newest first,
 *     each `ret` (and each `div x`'s exit on a zero X) replaced by a
 *     combination with the best value so far, kept in scratch words no
 *     filter uses.  As slow as the stack (slower by
 *     the combining), but one filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/analysis.h>
#include <syscage/asm.h>
#include <syscage/compile.h>
#include <syscage/policy.h>

#include "analysis/symexec.h"
#include "util/strbuf.h"
#include "bpf/opcodes.h"
#include "util/opts.h"

/* --- the chained construction ---------------------------------------------- */

/* The kernel's rank of a return value as an unsigned number: smaller wins. */
static uint32_t rank_of(uint32_t ret)
{
	return (ret & SCG_RET_ACTION_FULL) ^ 0x80000000U;
}

/* Bit i set when some filter reads or writes scratch word i. */
static uint32_t scratch_used(const struct scg_prog *progs, size_t n)
{
	uint32_t used = 0;
	for (size_t f = 0; f < n; f++)
		for (size_t i = 0; i < progs[f].len; i++) {
			uint16_t c = progs[f].insns[i].code;
			uint32_t k = progs[f].insns[i].k;
			bool mem = BPF_CLASS(c) == BPF_ST || BPF_CLASS(c) == BPF_STX ||
				   ((BPF_CLASS(c) == BPF_LD || BPF_CLASS(c) == BPF_LDX) &&
				    BPF_MODE(c) == BPF_MEM);
			if (mem && k < SCG_BPF_MEMWORDS)
				used |= 1U << k;
		}
	return used;
}

/*
 * The chain is written as assembler text (labels, no offsets) and
 * assembled with scg_asm(), which resolves the jumps and adds trampolines
 * where a branch reaches too far.  Labels: F<f>_<i> for instruction i of
 * filter f, N<f> for the start of the filter after f, T<f>_<i> and K<f>_<i>
 * for the take and keep branches of a return.
 */
struct chain {
	struct strbuf sb;
	uint32_t key, val, tmp; /* scratch words: best rank, best value, a `ret a`'s value */
	size_t f;               /* the filter being copied */
	bool first, last;       /* it runs first / last */
};

/* Makes @k the best value, then on to the next filter. */
static void chain_take_const(struct chain *c, uint32_t k)
{
	if (c->last) {
		strbuf_appendf(&c->sb, "\tret #0x%x\n", k);
		return;
	}
	strbuf_appendf(&c->sb, "\tld #0x%x\n\tst M[%u]\n\tld #0x%x\n\tst M[%u]\n\tja N%zu\n", k,
			   c->val, rank_of(k), c->key, c->f);
}

/* The best value so far is kept: on to the next filter, or return it. */
static void chain_keep(struct chain *c)
{
	if (c->last)
		strbuf_appendf(&c->sb, "\tld M[%u]\n\tret a\n", c->val);
	else
		strbuf_appendf(&c->sb, "\tja N%zu\n", c->f);
}

/* `ret #k` at instruction @i of the filter being copied. */
static void chain_ret_const(struct chain *c, size_t i, uint32_t k)
{
	/* Nothing ranks below KILL_PROCESS, and among equals the filter run first wins: a
	 * KILL_PROCESS a newer filter computed keeps its value, data included. */
	if ((k & SCG_RET_ACTION_FULL) == SCG_RET_KILL_PROCESS) {
		if (!c->first)
			strbuf_appendf(&c->sb, "\tld M[%u]\n\tjeq #0x%x, K%zu_%zu, T%zu_%zu\nT%zu_%zu:\n",
				       c->key, rank_of(k), c->f, i, c->f, i, c->f, i);
		strbuf_appendf(&c->sb, "\tret #0x%x\n", k);
		if (!c->first)
			strbuf_appendf(&c->sb, "K%zu_%zu:\n\tld M[%u]\n\tret a\n", c->f, i, c->val);
		return;
	}
	if (c->first) {
		chain_take_const(c, k);
		return;
	}
	/* The new value wins when the best so far ranks strictly above it. */
	strbuf_appendf(&c->sb, "\tld M[%u]\n\tjgt #0x%x, T%zu_%zu, K%zu_%zu\nT%zu_%zu:\n", c->key,
			   rank_of(k), c->f, i, c->f, i, c->f, i);
	chain_take_const(c, k);
	strbuf_appendf(&c->sb, "K%zu_%zu:\n", c->f, i);
	chain_keep(c);
}

/* `ret a`: the same with the value and its rank computed at run time. */
static void chain_ret_a(struct chain *c, size_t i)
{
	strbuf_appendf(&c->sb, "\tst M[%u]\n\tand #0x%x\n\txor #0x80000000\n\ttax\n", c->tmp,
			   SCG_RET_ACTION_FULL);
	if (!c->first)
		strbuf_appendf(&c->sb, "\tld M[%u]\n\tjgt x, T%zu_%zu, K%zu_%zu\nT%zu_%zu:\n",
				   c->key, c->f, i, c->f, i, c->f, i);
	strbuf_appendf(&c->sb, "\tld M[%u]\n", c->tmp);
	if (c->last)
		strbuf_append(&c->sb, "\tret a\n");
	else
		strbuf_appendf(&c->sb, "\tst M[%u]\n\ttxa\n\tst M[%u]\n\tja N%zu\n", c->val,
				   c->key, c->f);
	if (!c->first) {
		strbuf_appendf(&c->sb, "K%zu_%zu:\n", c->f, i);
		chain_keep(c);
	}
}

/*
 * `div x` at instruction @i: with X == 0 the kernel ends this filter with 0
 * (KILL_THREAD), and only this one: the filters after it still run and a
 * stronger verdict of theirs (KILL_PROCESS) wins.  So a zero X is one more
 * `ret #0` to combine, never the end of the chain.  A is kept in the word
 * of `ret a`'s value while X is tested.
 */
static void chain_div_x(struct chain *c, size_t i)
{
	strbuf_appendf(&c->sb, "\tst M[%u]\n\ttxa\n\tjeq #0, Z%zu_%zu, D%zu_%zu\nZ%zu_%zu:\n",
		       c->tmp, c->f, i, c->f, i, c->f, i);
	chain_ret_const(c, i, SCG_RET_KILL_THREAD);
	strbuf_appendf(&c->sb, "D%zu_%zu:\n\tld M[%u]\n\tdiv x\n", c->f, i, c->tmp);
}

static const char *const jump_names[] = { "ja", "jeq", "jgt", "jge", "jset" };

/* Copies one filter with its returns replaced; its jumps keep their targets through labels. */
static int chain_copy(struct chain *c, const struct scg_prog *p)
{
	if (!c->first) /* each filter starts with A and X zero, as the kernel runs it */
		strbuf_append(&c->sb, "\tld #0\n\ttax\n");
	for (size_t i = 0; i < p->len; i++) {
		const struct scg_insn *in = &p->insns[i];
		strbuf_appendf(&c->sb, "F%zu_%zu:\n", c->f, i);
		if (BPF_CLASS(in->code) == BPF_RET) {
			if (BPF_RVAL(in->code) == BPF_A)
				chain_ret_a(c, i);
			else
				chain_ret_const(c, i, in->k);
		} else if (in->code == (BPF_ALU | BPF_DIV | BPF_X)) {
			chain_div_x(c, i);
		} else if (BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) == BPF_JA) {
			strbuf_appendf(&c->sb, "\tja F%zu_%zu\n", c->f, i + 1 + in->k);
		} else if (BPF_CLASS(in->code) == BPF_JMP) {
			const char *op = jump_names[BPF_OP(in->code) >> 4];
			char operand[16];
			if (BPF_SRC(in->code) == BPF_X)
				snprintf(operand, sizeof(operand), "x");
			else
				snprintf(operand, sizeof(operand), "#0x%x", in->k);
			strbuf_appendf(&c->sb, "\t%s %s, F%zu_%zu, F%zu_%zu\n", op, operand, c->f,
					   i + 1 + in->jt, c->f, i + 1 + in->jf);
		} else {
			char *text = NULL;
			int r = scg_insn_text(in, i, p->len, NULL, &text);
			if (r < 0)
				return r;
			strbuf_appendf(&c->sb, "\t%s\n", text);
			free(text);
		}
	}
	return 0;
}

static int fuse_chain(const struct scg_prog *progs, size_t n, struct scg_prog *out,
		      struct scg_diag *diag)
{
	uint32_t used = scratch_used(progs, n), free_words[3];
	size_t nfree = 0;
	for (uint32_t i = SCG_BPF_MEMWORDS; i-- > 0 && nfree < 3;)
		if (!(used & (1U << i)))
			free_words[nfree++] = i;
	if (nfree < 3) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "fuse-scratch",
			     "chaining keeps the best value in 3 scratch words no filter uses",
			     "cannot chain the filters: %u of the 16 scratch words are in use",
			     (unsigned)__builtin_popcount(used));
		return -ENOTSUP;
	}
	struct chain c = { .key = free_words[0], .val = free_words[1], .tmp = free_words[2] };
	int r = 0;
	/*
	 * The kernel checks scratch reads in instruction order, and a `ret` does
	 * not end what it knows: the next filter's first instruction, which a
	 * filter's last `ret` precedes, would look reached with the words unset.
	 * So they are set first, to ALLOW, which any verdict replaces.
	 */
	if (n > 1) /* then A is 0 again: the first filter starts as the kernel starts it */
		strbuf_appendf(&c.sb, "\tld #0x%x\n\tst M[%u]\n\tld #0x%x\n\tst M[%u]\n\tld #0\n",
				   SCG_RET_ALLOW, c.val, rank_of(SCG_RET_ALLOW), c.key);
	for (size_t f = n; f-- > 0 && r == 0;) {
		c.f = f;
		c.first = f == n - 1;
		c.last = f == 0;
		r = chain_copy(&c, &progs[f]);
		if (!c.last)
			strbuf_appendf(&c.sb, "N%zu:\n", f);
	}
	char *text = NULL;
	int fin = strbuf_finish(&c.sb, &text);
	if (r == 0)
		r = fin;
	if (r == 0) {
		SCG_OPTS(scg_asm_options, aopts, .filename = "<fused stack>");
		struct scg_diag *adiag = scg_diag_new();
		r = adiag ? scg_asm(text, strlen(text), &aopts, out, adiag) : -ENOMEM;
		if (r < 0 && adiag && scg_diag_count(adiag)) {
			const struct scg_diag_entry *e = scg_diag_get(adiag, 0);
			scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "fuse-chain", e->hint,
				     "the filters cannot be chained into one: %s", e->message);
		}
		scg_diag_free(adiag);
	}
	free(text);
	return r;
}

/* --- the stack's USER_NOTIF verdicts ----------------------------------------- */

struct notify_scan {
	size_t n;
	bool *notifies; /* per filter: its USER_NOTIF decides some input */
};

static int on_stack_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
			   uint32_t winner)
{
	(void)region;
	struct notify_scan *s = ctx;
	if (scg_action_of(winner) != SCG_ACTION_USER_NOTIF)
		return 0;
	/* The kernel runs the newest filter first, and among equal actions the first wins. */
	for (size_t i = s->n; i-- > 0;)
		if (scg_action_of(rets[i]) == SCG_ACTION_USER_NOTIF) {
			s->notifies[i] = true;
			break;
		}
	return 0;
}

/* --- the proof ------------------------------------------------------------------ */

struct proof {
	struct scg_diag *diag;
	int reported;
};

static int on_difference(void *ctx, const struct scg_region *region, uint32_t stack,
			 uint32_t fused)
{
	struct proof *p = ctx;
	if (p->reported++ > 0)
		return 0;
	struct scg_seccomp_data d;
	char a[64], b[64];
	scg_ret_format(stack, a, sizeof(a));
	scg_ret_format(fused, b, sizeof(b));
	if (scg_region_example(region, &d) < 0)
		memset(&d, 0, sizeof(d));
	scg_diag_add(p->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "fuse-not-equal",
		     "nothing was written; please report this as a bug",
		     "the fused filter differs from the stack: arch 0x%08x nr %u args 0x%llx "
		     "0x%llx 0x%llx ... gets %s from the stack, %s from the fused filter",
		     (unsigned)d.arch, (unsigned)d.nr, (unsigned long long)d.args[0],
		     (unsigned long long)d.args[1], (unsigned long long)d.args[2], a, b);
	return 0;
}

static int prove(const struct scg_prog *progs, size_t n, const struct scg_prog *fused,
		 const struct scg_analysis_options *limits, struct scg_diag *diag)
{
	SCG_OPTS(scg_diff_options, dopts, .limits = limits);
	struct proof p = { diag, 0 };
	int r = scg_analysis_diff(progs, n, fused, 1, &dopts, on_difference, &p, diag);
	return r > 0 ? -EPROTO : r;
}

/* --- the entry point ---------------------------------------------------------- */

int scg_fuse(const struct scg_prog *progs, size_t n, const struct scg_fuse_options *opts,
	     struct scg_fuse_result *out, struct scg_diag *diag)
{
	struct scg_fuse_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_fuse_options, force_chain)) < 0 ||
	    !out || (n && !progs))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (n == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "fuse-empty", NULL,
			     "no filter to fuse");
		return -EINVAL;
	}
	int checked = analysis_check(progs, n, diag);
	if (checked < 0)
		return checked;
	struct scg_fuse_result res = { 0 };
	int r = 0;
	if (!o.force_chain) {
		struct scg_diag *why = scg_diag_new();
		if (!why)
			return -ENOMEM;
		r = scg_decompile_opts(progs, n, o.limits, &res.policy, why);
		if (r == 0)
			r = scg_compile(res.policy, o.compile, &res.prog, diag);
		if (r == -ENOTSUP) {
			/* What the policy language cannot say: keep why as a note, then chain. */
			for (size_t i = 0; i < scg_diag_count(why); i++) {
				const struct scg_diag_entry *e = scg_diag_get(why, i);
				scg_diag_add(diag, SCG_SEV_NOTE, e->loc, "fuse-chained", e->hint,
					     "not decompiled, chained instead: %s", e->message);
			}
			res.chained = true;
		} else if (r < 0) {
			for (size_t i = 0; i < scg_diag_count(why); i++) {
				const struct scg_diag_entry *e = scg_diag_get(why, i);
				scg_diag_add(diag, e->severity, e->loc, e->code, e->hint, "%s",
					     e->message);
			}
		}
		scg_diag_free(why);
		if (r < 0 && !res.chained) {
			scg_policy_free(res.policy);
			return r;
		}
	} else {
		res.chained = true;
	}
	if (res.chained) {
		scg_policy_free(res.policy);
		res.policy = NULL;
		r = fuse_chain(progs, n, &res.prog, diag);
	}
	if (r == 0)
		r = prove(progs, n, &res.prog, o.limits, diag);
	if (r == 0) {
		struct notify_scan s = { n, calloc(n, sizeof(bool)) };
		r = s.notifies ? scg_analysis_regions_opts(progs, n, NULL, o.limits,
							   on_stack_region, &s, diag)
			       : -ENOMEM;
		for (size_t i = 0; r == 0 && i < n; i++)
			res.notify_filters += s.notifies[i];
		free(s.notifies);
	}
	if (r < 0) {
		scg_fuse_result_release(&res);
		return r;
	}
	*out = res;
	return 0;
}

void scg_fuse_result_release(struct scg_fuse_result *res)
{
	if (!res)
		return;
	scg_prog_release(&res->prog);
	scg_policy_free(res->policy);
	memset(res, 0, sizeof(*res));
}
