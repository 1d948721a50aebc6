/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fuse section of syscage bench: what a service under systemd-style
 * hardening pays per syscall the cache cannot skip, with its 8 filters
 * stacked as systemd installs them and fused into one (scg_fuse()).
 *
 * Rows, on two calls:
 *  - getppid, every filter made uncacheable (bench_uncacheable(): a load of
 *    the instruction pointer first), as on a kernel before 5.11 or for a
 *    call the filters check: no filter; one filter (the SystemCallFilter=
 *    allow list, the longest of the 8, installed last as systemd does); the
 *    stack of 8; the fused filter.
 *  - personality(0xffffffff) (a query of the persona), which
 *    LockPersonality= checks, so neither the stack nor the fused filter can
 *    be cached: no filter; the allow list alone (made uncacheable); the
 *    stack; the fused filter.
 * The notes divide the filters' own time (the row minus its no-filter row)
 * of the stack and of the fused filter by that of the one filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if SYSCAGE_WITH_ANALYSIS
#include <syscage/analysis.h>
#endif

#include "fuse.h"

#define PERSONALITY_QUERY 0xffffffffULL
#define FUSE_ROW_PREFIX_NONE "no filter"

#if SYSCAGE_WITH_ANALYSIS

/* A row timing @call under @n programs (copied; NULL: no filter); its index or -errno. */
static int add_row(const struct bench_plan_opts *o, struct bench_results *res, const char *label,
		   const char *call_name, const struct bench_call *call, const struct scg_prog *progs,
		   size_t n, int baseline)
{
	struct bench_row row = { .section = BENCH_FUSE, .call = *call, .baseline = baseline,
				 .compile_us = -1, .compiler = -1, .hidden = !res->only[BENCH_FUSE] };
	snprintf(row.label, sizeof(row.label), "%s", label);
	snprintf(row.call_name, sizeof(row.call_name), "%s", call_name);
	if (n) {
		row.progs = calloc(n, sizeof(*row.progs));
		if (!row.progs)
			return -ENOMEM;
		row.nprogs = n;
		for (size_t i = 0; i < n; i++) {
			if (scg_prog_copy(&row.progs[i], &progs[i]) < 0) {
				while (i--)
					scg_prog_release(&row.progs[i]);
				free(row.progs);
				return -ENOMEM;
			}
			row.insns += progs[i].len;
		}
		row.cached = bench_cached(o->arch, row.progs, n, call->nr);
		row.executed = bench_executed(o->arch, row.progs, n, call);
	}
	int i = bench_results_add(res, &row);
	if (i < 0) {
		for (size_t k = 0; k < row.nprogs; k++)
			scg_prog_release(&row.progs[k]);
		free(row.progs);
	}
	return i;
}

static int compile_hardening(const struct bench_hardening *h, struct scg_prog *out)
{
	struct scg_policy *policy = NULL;
	SCG_OPTS(scg_policy_source_options, so, .filename = h->name);
	int r = scg_policy_parse(h->text, strlen(h->text), &so, &policy, NULL);
	if (r == 0)
		r = scg_compile(policy, NULL, out, NULL);
	scg_policy_free(policy);
	return r;
}

struct fuse_set {
	struct scg_prog stack[16], stack_nc[16];
	size_t n;
	struct scg_prog one_nc, fused, fused_nc;
};

static void fuse_set_release(struct fuse_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		scg_prog_release(&s->stack[i]);
		scg_prog_release(&s->stack_nc[i]);
	}
	scg_prog_release(&s->one_nc);
	scg_prog_release(&s->fused);
	scg_prog_release(&s->fused_nc);
}

/* Compiles the 8 policies, fuses them (proven), and makes the uncacheable copies. */
static int fuse_set_build(const struct scg_arch *arch, struct bench_results *res,
			  struct fuse_set *s)
{
	int r = 0;
	for (; s->n < bench_nhardening && s->n < 16 && r == 0; s->n++) {
		r = compile_hardening(&bench_hardening[s->n], &s->stack[s->n]);
		if (r == 0)
			r = bench_uncacheable(arch, &s->stack[s->n], &s->stack_nc[s->n]);
	}
	if (r < 0)
		return r;
	struct scg_diag *diag = scg_diag_new();
	struct scg_fuse_result fr;
	r = diag ? scg_fuse(s->stack, s->n, NULL, &fr, diag) : -ENOMEM;
	scg_diag_free(diag);
	if (r < 0) {
		bench_note(res, "fuse: the hardening stack could not be fused: %s", strerror(-r));
		return r;
	}
	s->fused = fr.prog;
	fr.prog = (struct scg_prog){ 0 };
	scg_fuse_result_release(&fr);
	r = bench_uncacheable(arch, &s->fused, &s->fused_nc);
	if (r == 0)
		r = bench_uncacheable(arch, &s->stack[s->n - 1], &s->one_nc);
	return r;
}

int bench_plan_fuse(const struct bench_plan_opts *o, struct bench_results *res)
{
	if (strcmp(scg_arch_name(o->arch), "x86_64")) {
		bench_note(res, "fuse: the hardening policies are written for x86_64; skipped on %s",
			  scg_arch_name(o->arch));
		return 0;
	}
	struct fuse_set s = { 0 };
	int r = fuse_set_build(o->arch, res, &s);
	if (r < 0) {
		fuse_set_release(&s);
		return r == -ENOMEM ? r : 0;
	}
	char one[48];
	snprintf(one, sizeof(one), "1 filter (%.30s)", bench_hardening[s.n - 1].name + 2);
	struct bench_call getppid = { 0 }, pers = { .args = { PERSONALITY_QUERY } };
	if (scg_syscall_lookup(o->arch, "getppid", &getppid.nr) < 0 ||
	    scg_syscall_lookup(o->arch, "personality", &pers.nr) < 0) {
		fuse_set_release(&s);
		return 0;
	}
	char label[80];
	int none = add_row(o, res, FUSE_ROW_PREFIX_NONE, "getppid", &getppid, NULL, 0, -1);
	snprintf(label, sizeof(label), "%s, uncacheable", one);
	if (none >= 0)
		r = add_row(o, res, label, "getppid", &getppid, &s.one_nc, 1, none);
	snprintf(label, sizeof(label), "%zu filters (stack), uncacheable", s.n);
	if (none >= 0 && r >= 0)
		r = add_row(o, res, label, "getppid", &getppid, s.stack_nc, s.n, none);
	if (none >= 0 && r >= 0)
		r = add_row(o, res, "fused, uncacheable", "getppid", &getppid, &s.fused_nc, 1, none);
	int pnone = none >= 0 && r >= 0
			    ? add_row(o, res, FUSE_ROW_PREFIX_NONE, "personality", &pers, NULL, 0, -1)
			    : -1;
	snprintf(label, sizeof(label), "%s, uncacheable", one);
	if (pnone >= 0)
		r = add_row(o, res, label, "personality", &pers, &s.one_nc, 1, pnone);
	snprintf(label, sizeof(label), "%zu filters (stack)", s.n);
	if (pnone >= 0 && r >= 0)
		r = add_row(o, res, label, "personality", &pers, s.stack, s.n, pnone);
	if (pnone >= 0 && r >= 0)
		r = add_row(o, res, "fused", "personality", &pers, &s.fused, 1, pnone);
	fuse_set_release(&s);
	if (none < 0)
		return none;
	return pnone < 0 ? pnone : r < 0 ? r : 0;
}

/* The rows of the section for @call, in the order planned: none, one, stack, fused. */
static bool rows_of(const struct bench_results *res, const char *call, size_t idx[4])
{
	size_t k = 0;
	for (size_t i = 0; i < res->nrows && k < 4; i++)
		if (res->rows[i].section == BENCH_FUSE && !strcmp(res->rows[i].call_name, call))
			idx[k++] = i;
	return k == 4;
}

void bench_fuse_notes(struct bench_results *res)
{
	static const char *const calls[] = { "getppid", "personality" };
	for (size_t c = 0; c < 2; c++) {
		size_t idx[4];
		double one, stack, fused;
		if (!rows_of(res, calls[c], idx) || !bench_filter_ns(res, idx[1], &one) ||
		    !bench_filter_ns(res, idx[2], &stack) || !bench_filter_ns(res, idx[3], &fused))
			continue;
		if (bench_compare(&res->rows[idx[1]].t, &res->rows[idx[0]].t) == BENCH_WITHIN_NOISE ||
		    one <= 0) {
			bench_note(res, "fuse, %s: one filter's own time is within the noise; no ratios",
				  calls[c]);
			continue;
		}
		enum bench_order fo = bench_compare(&res->rows[idx[3]].t, &res->rows[idx[1]].t);
		bench_note(res,
			  "fuse, %s: the filters' own time per call: one filter %.1f ns, the stack "
			  "%.1f ns (%.2fx), fused %.1f ns (%.2fx%s)",
			  calls[c], one, stack, stack / one, fused, fused / one,
			  fo == BENCH_WITHIN_NOISE ? ", within the noise of one filter" : "");
	}
}

#else /* !SYSCAGE_WITH_ANALYSIS */

int bench_plan_fuse(const struct bench_plan_opts *o, struct bench_results *res)
{
	(void)o;
	bench_note(res, "fuse: this syscage was built without the analysis engine; skipped");
	return 0;
}

void bench_fuse_notes(struct bench_results *res)
{
	(void)res;
}

#endif
