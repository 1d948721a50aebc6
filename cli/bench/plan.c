/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What each section measures.  Every row is planned with its programs
 * before anything is timed, so progress can say "12 of 40" and a program
 * that cannot be built is reported before the long part starts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Docker's argument-checked case: personality(0xffffffff) only queries the persona. */
#define PERSONALITY_QUERY 0xffffffffULL

static const size_t stack_full[] = { 1, 2, 4, 8, 16, 32, 64 };
static const size_t stack_quick[] = { 1, 4, 16 };
static const size_t length_full[] = { 10, 32, 128, 512, 1024, 2048, 4096 };
static const size_t length_quick[] = { 10, 256, 4096 };

struct planner {
	const struct bench_plan_opts *o;
	struct bench_results *res;
	int none;   /* the no-filter row of the --syscall call */
};

/* @n copies of @prog, owned by the caller. */
static struct scg_prog *copies(const struct scg_prog *prog, size_t n)
{
	struct scg_prog *progs = calloc(n ? n : 1, sizeof(*progs));
	for (size_t i = 0; progs && i < n; i++)
		if (scg_prog_copy(&progs[i], prog) < 0) {
			while (i--)
				scg_prog_release(&progs[i]);
			free(progs);
			return NULL;
		}
	return progs;
}

/*
 * Adds a row timing @call under @n copies of @prog (NULL: no filter).
 * Returns its index or -errno.
 */
static int add(struct planner *pl, enum bench_section s, const char *label, const struct scg_prog *prog,
	       size_t n, const char *call_name, const struct bench_call *call, int baseline)
{
	struct bench_row row = { .section = s, .call = *call, .baseline = baseline,
				 .compile_us = -1, .compiler = -1 };
	snprintf(row.label, sizeof(row.label), "%s", label);
	snprintf(row.call_name, sizeof(row.call_name), "%s", call_name);
	if (prog && n) {
		row.progs = copies(prog, n);
		if (!row.progs)
			return -ENOMEM;
		row.nprogs = n;
		row.insns = prog->len * n;
		row.cached = bench_cached(pl->o->arch, row.progs, n, call->nr);
		row.executed = bench_executed(pl->o->arch, row.progs, n, call);
	}
	row.hidden = !pl->res->only[s];
	int i = bench_results_add(pl->res, &row);
	if (i < 0) {
		for (size_t k = 0; k < row.nprogs; k++)
			scg_prog_release(&row.progs[k]);
		free(row.progs);
	}
	return i;
}

static int add_main(struct planner *pl, enum bench_section s, const char *label,
		    const struct scg_prog *prog, size_t n)
{
	return add(pl, s, label, prog, n, pl->o->call_name, &pl->o->call, pl->none);
}

static int compile_policy(const struct scg_policy *policy, struct scg_prog *out)
{
	return scg_compile(policy, NULL, out, NULL);
}

/* baseline and cache: the classic filter and the policy, as the kernel takes them and uncacheable. */
static int plan_filters(struct planner *pl, enum bench_section s)
{
	const struct scg_arch *arch = pl->o->arch;
	struct scg_prog open6 = { 0 }, open_nc = { 0 }, pol = { 0 }, pol_nc = { 0 };
	char label[80];
	int r = bench_deny_open(arch, &open6);
	if (r == 0)
		r = bench_uncacheable(arch, &open6, &open_nc);
	if (r == 0)
		r = compile_policy(pl->o->policy, &pol);
	if (r < 0)
		goto out;
	r = add_main(pl, s, s == BENCH_CACHE ? "deny-open, cacheable" : "deny-open (classic 6 insns)",
		     &open6, 1);
	if (r >= 0 && s == BENCH_CACHE)
		r = add_main(pl, s, "deny-open, uncacheable", &open_nc, 1);
	snprintf(label, sizeof(label), "policy %s", pl->res->policy_name);
	if (r >= 0)
		r = add_main(pl, s, label, &pol, 1);
	if (r >= 0 && s == BENCH_CACHE) {
		if (bench_uncacheable(arch, &pol, &pol_nc) == 0) {
			snprintf(label, sizeof(label), "policy %s, uncacheable", pl->res->policy_name);
			r = add_main(pl, s, label, &pol_nc, 1);
		} else {
			bench_note(pl->res, "the policy is too long for an uncacheable copy");
		}
	}
out:
	scg_prog_release(&open6);
	scg_prog_release(&open_nc);
	scg_prog_release(&pol);
	scg_prog_release(&pol_nc);
	return r < 0 ? r : 0;
}

static int plan_stack(struct planner *pl)
{
	const size_t *counts = pl->o->quick ? stack_quick : stack_full;
	size_t ncounts = pl->o->quick ? sizeof(stack_quick) / sizeof(stack_quick[0])
				      : sizeof(stack_full) / sizeof(stack_full[0]);
	struct scg_prog open6 = { 0 }, open_nc = { 0 };
	int r = bench_deny_open(pl->o->arch, &open6);
	if (r == 0)
		r = bench_uncacheable(pl->o->arch, &open6, &open_nc);
	for (size_t i = 0; r >= 0 && i < ncounts; i++) {
		char label[80];
		snprintf(label, sizeof(label), "%zu x deny-open, cacheable", counts[i]);
		r = add_main(pl, BENCH_STACK, label, &open6, counts[i]);
		snprintf(label, sizeof(label), "%zu x deny-open, uncacheable", counts[i]);
		if (r >= 0)
			r = add_main(pl, BENCH_STACK, label, &open_nc, counts[i]);
	}
	scg_prog_release(&open6);
	scg_prog_release(&open_nc);
	return r < 0 ? r : 0;
}

static int plan_length(struct planner *pl)
{
	const size_t *lens = pl->o->quick ? length_quick : length_full;
	size_t nlens = pl->o->quick ? sizeof(length_quick) / sizeof(length_quick[0])
				    : sizeof(length_full) / sizeof(length_full[0]);
	int r = 0;
	for (size_t i = 0; r >= 0 && i < nlens; i++) {
		struct scg_prog prog = { 0 };
		char label[80];
		r = bench_long_filter(pl->o->arch, lens[i], &prog);
		snprintf(label, sizeof(label), "%zu insns, uncacheable", lens[i]);
		if (r == 0)
			r = add_main(pl, BENCH_LENGTH, label, &prog, 1);
		scg_prog_release(&prog);
	}
	return r < 0 ? r : 0;
}

static int plan_compare(struct planner *pl);

int bench_plan(const struct bench_plan_opts *opts, struct bench_results *res)
{
	struct planner pl = { .o = opts, .res = res, .none = -1 };
	struct bench_call call = opts->call;
	/* The reference every overhead is measured against; printed with baseline. */
	pl.none = add(&pl, BENCH_BASELINE, "no filter", NULL, 0, opts->call_name, &call, -1);
	int r = pl.none;
	if (r >= 0 && res->only[BENCH_BASELINE])
		r = plan_filters(&pl, BENCH_BASELINE);
	if (r >= 0 && res->only[BENCH_CACHE])
		r = plan_filters(&pl, BENCH_CACHE);
	if (r >= 0 && res->only[BENCH_STACK])
		r = plan_stack(&pl);
	if (r >= 0 && res->only[BENCH_LENGTH])
		r = plan_length(&pl);
	if (r >= 0 && res->only[BENCH_COMPARE])
		r = plan_compare(&pl);
	return r < 0 ? r : 0;
}

/* --- compare: syscage against libseccomp ------------------------------- */

/* Compiles @policy with compiler @which (0 syscage, 1 or 2 libseccomp) @runs times; median in *@us. */
static int timed_compile(const struct bench_plan_opts *o, const struct scg_policy *policy,
			 int which, struct scg_prog *out, double *us, size_t *skipped)
{
	double times[BENCH_MAX_REPS];
	unsigned runs = o->compile_runs ? o->compile_runs : 1;
	if (runs > BENCH_MAX_REPS)
		runs = BENCH_MAX_REPS;
	*skipped = 0;
	for (unsigned k = 0; k < runs; k++) {
		struct scg_prog prog = { 0 };
		double t0 = bench_now_us();
		int r = which == 0 ? compile_policy(policy, &prog)
				   : bench_scmp_compile(o->scmp, policy, (unsigned)which, &prog, skipped);
		times[k] = bench_now_us() - t0;
		if (r < 0)
			return r;
		scg_prog_release(out);
		*out = prog;
	}
	*us = bench_median(times, runs);
	return 0;
}

static const char *compiler_name(int which)
{
	return which == 0 ? "syscage" : which == 1 ? "libseccomp -O1" : "libseccomp -O2";
}

/* One compiler on one policy: its row for --syscall and, for Docker's profile, the argument-checked call. */
static int plan_compiler(struct planner *pl, const char *group, const struct scg_policy *policy,
			 int which, int arg_none)
{
	struct scg_prog prog = { 0 };
	double us = 0;
	size_t skipped = 0;
	char label[80];
	int r = timed_compile(pl->o, policy, which, &prog, &us, &skipped);
	if (r < 0) {
		bench_note(pl->res, "%s could not compile %s: %s", compiler_name(which), group, strerror(-r));
		return 0;
	}
	if (skipped)
		bench_note(pl->res, "%s: %zu rules of %s not given to libseccomp (raw numbers, NOT, masks, or the default under a condition)",
		     compiler_name(which), skipped, group);
	snprintf(label, sizeof(label), "%s: %s", group, compiler_name(which));
	int i = add_main(pl, BENCH_COMPARE, label, &prog, 1);
	if (i >= 0 && arg_none >= 0) {
		const struct bench_call *c = &pl->res->rows[arg_none].call;
		i = add(pl, BENCH_COMPARE, label, &prog, 1, "personality", c, arg_none);
	}
	if (i >= 0) {
		/* Also on the row(s) just added. */
		for (size_t k = pl->res->nrows; k-- > 0 && !strcmp(pl->res->rows[k].label, label);) {
			pl->res->rows[k].compile_us = us;
			pl->res->rows[k].compiler = which;
			snprintf(pl->res->rows[k].group, sizeof(pl->res->rows[k].group), "%s", group);
		}
	}
	scg_prog_release(&prog);
	return i < 0 ? i : 0;
}

static int plan_group(struct planner *pl, const char *group, const struct scg_policy *policy,
		      bool arg_checked)
{
	int arg_none = -1;
	if (arg_checked) {
		struct bench_call c = { .args = { PERSONALITY_QUERY } };
		if (scg_syscall_lookup(pl->o->arch, "personality", &c.nr) < 0)
			return 0;
		arg_none = add(pl, BENCH_COMPARE, "no filter", NULL, 0, "personality", &c, -1);
		if (arg_none < 0)
			return arg_none;
	}
	int levels = pl->o->scmp ? 2 : 0;
	for (int which = 0; which <= levels; which++) {
		int r = plan_compiler(pl, group, policy, which, arg_none);
		if (r < 0)
			return r;
	}
	return 0;
}

static int plan_compare(struct planner *pl)
{
	const char *name = pl->res->policy_name;
	bool docker_is_policy = !strcmp(name, "docker-default");
	if (!pl->o->scmp)
		bench_note(pl->res, "libseccomp not found, skipped");
	int r = plan_group(pl, name, pl->o->policy, docker_is_policy);
	if (r >= 0 && !docker_is_policy && pl->o->docker)
		r = plan_group(pl, "docker-default", pl->o->docker, true);
	return r;
}
