/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syscage bench results as aligned tables on the terminal, and as JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common/cli.h"

static const char *const section_about[BENCH_NSECTIONS] = {
	[BENCH_BASELINE] = "a cheap syscall with no filter, under the classic 6-instruction "
			   "deny-open filter, and under the policy",
	[BENCH_CACHE] = "the kernel's action cache (Linux 5.11+) skips filters that always allow "
			"a syscall; the same filters made uncacheable",
	[BENCH_STACK] = "copies of deny-open stacked: each runs on every call unless the cache "
			"skips them all",
	[BENCH_LENGTH] = "one uncacheable filter of N instructions, every one executed",
	[BENCH_COMPARE] = "the same policy compiled by syscage and by libseccomp",
	[BENCH_FUSE] = "8 filters like systemd's hardening directives, stacked and fused "
		       "into one (syscage fuse), each against the same call with no filter",
};

static size_t label_width(const struct bench_results *res, enum bench_section s)
{
	size_t w = 6;
	for (size_t i = 0; i < res->nrows; i++)
		if (res->rows[i].section == s && !res->rows[i].hidden && strlen(res->rows[i].label) > w)
			w = strlen(res->rows[i].label);
	return w;
}

static size_t call_width(const struct bench_results *res, enum bench_section s)
{
	size_t w = 4;
	for (size_t i = 0; i < res->nrows; i++) {
		char call[96];
		bench_call_text(&res->rows[i], call, sizeof(call));
		if (res->rows[i].section == s && !res->rows[i].hidden && strlen(call) > w)
			w = strlen(call);
	}
	return w;
}

/* After a row's figures: the wall clock where it had no CPU time, and repetitions left out. */
static void print_remarks(const struct bench_timing *t)
{
	unsigned left = t->other_clock + t->below_floor;
	if (t->cpu_clock && !left)
		return;
	printf("  (");
	if (!t->cpu_clock)
		printf("wall clock%s", left ? "; " : "");
	if (left)
		printf("%u of %u repetitions left out", left, t->used + left);
	if (t->below_floor)
		printf(", %u faster than no filter", t->below_floor);
	printf(")");
}

static void print_row(const struct bench_results *res, size_t i, int w, int cw, bool compare)
{
	const struct bench_row *r = &res->rows[i];
	const struct bench_timing *t = &r->t;
	char call[96];
	bench_call_text(r, call, sizeof(call));
	printf("  %-*s  %-*s", w, r->label, cw, call);
	printf(" %6zu %6s %8zu", r->insns, r->nprogs ? (r->cached ? "yes" : "no") : "-", r->executed);
	if (!t->ok) {
		printf("  %s\n", t->error);
		return;
	}
	char iqr[32];
	snprintf(iqr, sizeof(iqr), "%.1f-%.1f%s", t->q1_ns, t->q3_ns, bench_noisy(t) ? "*" : "");
	printf(" %9.1f %15s %9.1f %9.1f", t->median_ns, iqr, t->min_ns, t->max_ns);
	double pct;
	enum bench_order order =
		r->baseline >= 0 ? bench_compare(t, &res->rows[r->baseline].t) : BENCH_UNKNOWN;
	if (order == BENCH_WITHIN_NOISE)
		printf(" %10s", "noise");
	else if (bench_overhead(res, i, &pct))
		printf(" %+9.1f%%", pct);
	else
		printf(" %10s", "-");
	if (compare && r->compile_us >= 0)
		printf(" %10.1f", r->compile_us);
	else if (compare)
		printf(" %10s", "");
	print_remarks(t);
	printf("\n");
}

static void print_section(const struct bench_results *res, enum bench_section s)
{
	bool compare = s == BENCH_COMPARE;
	int w = (int)label_width(res, s), cw = (int)call_width(res, s);
	printf("\n%s: %s\n", bench_section_name(s), section_about[s]);
	printf("  %-*s  %-*s", w, "filter", cw, "call");
	printf(" %6s %6s %8s %9s %15s %9s %9s %10s", "insns", "cached", "executed", "ns/call",
	       "middle half", "min", "max", "overhead");
	if (compare)
		printf(" %10s", "compile us");
	printf("\n");
	for (size_t i = 0; i < res->nrows; i++)
		if (res->rows[i].section == s && !res->rows[i].hidden)
			print_row(res, i, w, cw, compare);
}

/* The row of @group compiled by @compiler timing @call_name, or -1. */
static int find_compare(const struct bench_results *res, const char *group, int compiler,
			const char *call_name)
{
	for (size_t i = 0; i < res->nrows; i++) {
		const struct bench_row *r = &res->rows[i];
		if (r->section == BENCH_COMPARE && r->compiler == compiler && !strcmp(r->group, group) &&
		    !strcmp(r->call_name, call_name))
			return (int)i;
	}
	return -1;
}

/* True when row @i's call returned something else than with no filter: the filter decided it. */
static bool answered(const struct bench_results *res, int i)
{
	const struct bench_row *r = &res->rows[i];
	return r->baseline >= 0 && r->t.result != res->rows[r->baseline].t.result;
}

/* True when row @i measured apart from its no-filter baseline, beyond the noise. */
static bool distinct_from_baseline(const struct bench_results *res, int i)
{
	const struct bench_row *r = &res->rows[i];
	return r->baseline >= 0 &&
	       bench_compare(&r->t, &res->rows[r->baseline].t) != BENCH_WITHIN_NOISE;
}

/*
 * "per call 0.92x, filter's own time 0.61x", or why a ratio would say
 * nothing: the two rows differ by less than their spread, both filters are
 * cached, a filter answers instead of the syscall, or a filter's own time
 * is within the noise of its baseline.
 */
static void format_time_ratio(const struct bench_results *res, int ours, int theirs, char *buf,
			      size_t size)
{
	double a, b;
	if (ours < 0 || theirs < 0 || !bench_filter_ns(res, (size_t)ours, &a) ||
	    !bench_filter_ns(res, (size_t)theirs, &b)) {
		snprintf(buf, size, "not measured");
		return;
	}
	const struct bench_timing *x = &res->rows[ours].t, *y = &res->rows[theirs].t;
	if (x->cpu_clock != y->cpu_clock) {
		snprintf(buf, size, "not comparable (one row in wall-clock time)");
		return;
	}
	bool noise = bench_compare(x, y) == BENCH_WITHIN_NOISE;
	char per_call[48];
	if (noise)
		snprintf(per_call, sizeof(per_call), "per call within the noise");
	else
		snprintf(per_call, sizeof(per_call), "per call %.2fx", x->median_ns / y->median_ns);
	if (res->rows[ours].cached && res->rows[theirs].cached)
		snprintf(buf, size, "%s (both cached: neither filter runs)", per_call);
	else if (answered(res, ours) || answered(res, theirs))
		snprintf(buf, size, "%s (a filter answers instead of the syscall)", per_call);
	else if (b < 1 || a < 0 || !distinct_from_baseline(res, ours) ||
		 !distinct_from_baseline(res, theirs))
		snprintf(buf, size, "%s (a filter's own time is within the noise)", per_call);
	else if (noise)
		snprintf(buf, size, "%s (the rows differ by less than their spread)", per_call);
	else
		snprintf(buf, size, "%s, filter's own time %.2fx", per_call, a / b);
}

/* One line per (policy, libseccomp level): syscage's numbers divided by libseccomp's. */
static void print_ratios(const struct bench_results *res)
{
	for (size_t i = 0; i < res->nrows; i++) {
		const struct bench_row *ours = &res->rows[i];
		if (ours->section != BENCH_COMPARE || ours->compiler != 0 ||
		    strcmp(ours->call_name, res->syscall_name))
			continue;
		for (int level = 1; level <= 2; level++) {
			int theirs = find_compare(res, ours->group, level, ours->call_name);
			if (theirs < 0)
				continue;
			const struct bench_row *t = &res->rows[theirs];
			char call_ratio[96], arg_ratio[96];
			format_time_ratio(res, (int)i, theirs, call_ratio, sizeof(call_ratio));
			printf("  syscage / libseccomp -O%d on %s: length %.2fx (%zu / %zu), compile time %.2fx; %s: %s",
			       level, ours->group, (double)ours->insns / (double)t->insns, ours->insns, t->insns,
			       t->compile_us > 0 ? ours->compile_us / t->compile_us : 0, ours->call_name, call_ratio);
			int a = find_compare(res, ours->group, 0, "personality");
			int b = find_compare(res, ours->group, level, "personality");
			if (a >= 0 && b >= 0) {
				format_time_ratio(res, a, b, arg_ratio, sizeof(arg_ratio));
				printf("; personality(0xffffffff): %s", arg_ratio);
			}
			printf("\n");
		}
	}
}

/* Says when the numbers cannot carry conclusions: noisy rows, and cached rows slower than uncached ones. */
static void print_noise_notes(const struct bench_results *res)
{
	size_t noisy = 0, shown = 0, backwards = 0;
	for (size_t i = 0; i < res->nrows; i++) {
		if (res->rows[i].hidden || !res->rows[i].t.ok)
			continue;
		shown++;
		noisy += bench_noisy(&res->rows[i].t);
		int twin = bench_uncached_twin(res, i);
		backwards += twin >= 0 &&
			     bench_compare(&res->rows[i].t, &res->rows[twin].t) == BENCH_SLOWER;
	}
	if (noisy)
		printf("\nwarning: %zu of %zu rows are noisy (*): their middle half spans more than "
		       "%.0f%% of the median, so differences smaller than that say nothing; rerun "
		       "on a quieter machine or with more --reps\n",
		       noisy, shown, BENCH_NOISY_IQR_PCT);
	if (backwards)
		printf("%swarning: %zu cacheable filter%s measured slower than %s uncacheable copy, "
		       "which runs more instructions: the machine's noise, not the filters; do not "
		       "read these numbers\n",
		       noisy ? "" : "\n", backwards, backwards == 1 ? "" : "s",
		       backwards == 1 ? "its" : "their");
}

void bench_report_text(const struct bench_results *res)
{
	const struct bench_params *p = &res->params;
	printf("syscage bench: %s on %s, kernel %s; %u repetitions of ~%.0f ms each, pinned to CPU %d\n",
	       res->syscall_name, res->sys.machine, res->sys.kernel, p->reps, p->rep_ms, p->cpu);
	printf("BPF JIT: %s; JIT hardening: %s\n", bench_jit_text(res->sys.jit_enable),
	       bench_harden_text(res->sys.jit_harden));
	printf("libseccomp: %s\n", res->scmp_status);
	printf("(ns/call: the median CPU time per call over the repetitions, or wall-clock time on "
	       "the rows that say so; a repetition faster than the same call with no filter is left "
	       "out where the filters let the call through; middle half: the first to the third quartile, * when it spans more than "
	       "%.0f%% of the median; overhead: the median over the no-filter median, or 'noise' "
	       "unless the medians differ by more than both middle halves together and by %.0f%%)\n",
	       BENCH_NOISY_IQR_PCT, BENCH_MIN_DIFF_PCT);
	for (int s = 0; s < BENCH_NSECTIONS; s++) {
		if (!res->only[s])
			continue;
		print_section(res, (enum bench_section)s);
		if (s == BENCH_COMPARE)
			print_ratios(res);
	}
	print_noise_notes(res);
	if (res->nnotes)
		printf("\n");
	for (size_t i = 0; i < res->nnotes; i++)
		printf("note: %s\n", res->notes[i]);
}

/* --- JSON ----------------------------------------------------------------- */

static void json_key_int_or_null(struct scg_json *w, const char *key, int v)
{
	scg_json_key(w, key);
	if (v < 0)
		scg_json_null(w);
	else
		scg_json_int(w, v);
}

static void json_key_ms(struct scg_json *w, const char *key, double v)
{
	scg_json_key(w, key);
	scg_json_valuef(w, "%.3f", v);
}

static void json_timing(struct scg_json *w, const struct bench_row *r)
{
	json_key_ms(w, "ns_per_call", r->t.median_ns);
	json_key_ms(w, "q1_ns", r->t.q1_ns);
	json_key_ms(w, "q3_ns", r->t.q3_ns);
	json_key_ms(w, "mad_pct", r->t.mad_pct);
	json_key_ms(w, "min_ns", r->t.min_ns);
	json_key_ms(w, "max_ns", r->t.max_ns);
	scg_json_member_bool(w, "noisy", bench_noisy(&r->t));
	scg_json_member_uint(w, "calls_per_rep", r->t.calls);
	scg_json_member_int(w, "result", r->t.result);
}

/* Which clock the row's figures are, and which repetitions are in them. */
static void json_reps(struct scg_json *w, const struct bench_row *r)
{
	scg_json_member_string(w, "clock", r->t.cpu_clock ? "cpu" : "wall");
	scg_json_member_uint(w, "reps_used", r->t.used);
	scg_json_member_uint(w, "reps_other_clock", r->t.other_clock);
	scg_json_member_uint(w, "reps_below_no_filter", r->t.below_floor);
}

static void json_row(struct scg_json *w, const struct bench_results *res, size_t i)
{
	const struct bench_row *r = &res->rows[i];
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "label", r->label);
	scg_json_member_string(w, "call", r->call_name);
	char call[96];
	bench_call_text(r, call, sizeof(call));
	scg_json_member_string(w, "call_text", call);
	scg_json_member_uint(w, "filters", r->nprogs);
	scg_json_member_uint(w, "instructions", r->insns);
	scg_json_member_bool(w, "cached", r->cached);
	scg_json_member_uint(w, "executed", r->executed);
	scg_json_member_bool(w, "ok", r->t.ok);
	if (r->t.ok || r->t.untrusted)
		json_reps(w, r);
	if (r->t.ok)
		json_timing(w, r);
	else
		scg_json_member_string(w, "error", r->t.error);
	scg_json_member_bool(w, "untrusted", r->t.untrusted);
	double pct;
	if (bench_overhead(res, i, &pct)) {
		json_key_ms(w, "overhead_pct", pct);
		scg_json_member_bool(w, "overhead_within_noise",
			      bench_compare(&r->t, &res->rows[r->baseline].t) == BENCH_WITHIN_NOISE);
	}
	if (r->section == BENCH_COMPARE && r->compiler >= 0) {
		scg_json_member_string(w, "policy", r->group);
		scg_json_key(w, "compiler");
		scg_json_string(w, r->compiler == 0   ? "syscage"
				   : r->compiler == 1 ? "libseccomp-O1"
						      : "libseccomp-O2");
		json_key_ms(w, "compile_us", r->compile_us);
	}
	scg_json_end(w);
}

static void json_header(struct scg_json *w, const struct bench_results *res)
{
	scg_json_member_string(w, "version", SYSCAGE_VERSION);
	scg_json_member_string(w, "syscall", res->syscall_name);
	scg_json_member_string(w, "policy", res->policy_name);
	scg_json_member_string(w, "kernel", res->sys.kernel);
	scg_json_member_string(w, "machine", res->sys.machine);
	scg_json_member_int(w, "cpu", res->params.cpu);
	scg_json_member_uint(w, "reps", res->params.reps);
	json_key_ms(w, "rep_ms", res->params.rep_ms);
	scg_json_member_string(w, "clock", bench_clock_name(res));
	scg_json_key(w, "jit");
	scg_json_object(w, SCG_JSON_INLINE);
	json_key_int_or_null(w, "enable", res->sys.jit_enable);
	json_key_int_or_null(w, "harden", res->sys.jit_harden);
	scg_json_end(w);
	scg_json_member_string(w, "libseccomp", res->scmp_found ? res->scmp_status : NULL);
	scg_json_key(w, "notes");
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < res->nnotes; i++)
		scg_json_string(w, res->notes[i]);
	scg_json_end(w);
}

char *bench_report_json(const struct bench_results *res)
{
	char *out = NULL;
	size_t len;
	FILE *sb = open_memstream(&out, &len);
	if (!sb)
		return NULL;
	struct scg_json *w = scg_json_new(sb);
	if (!w) {
		cli_memstream_finish(sb, &out);
		free(out);
		return NULL;
	}
	scg_json_object(w, SCG_JSON_LINES);
	json_header(w, res);
	scg_json_key(w, "sections");
	scg_json_object(w, SCG_JSON_LINES);
	for (int s = 0; s < BENCH_NSECTIONS; s++) {
		if (!res->only[s])
			continue;
		scg_json_key(w, bench_section_name((enum bench_section)s));
		scg_json_array(w, SCG_JSON_LINES);
		for (size_t i = 0; i < res->nrows; i++)
			if ((int)res->rows[i].section == s && !res->rows[i].hidden)
				json_row(w, res, i);
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
	bool whole = scg_json_free(w) == 0;
	fputc('\n', sb);
	if (cli_memstream_finish(sb, &out) < 0 || !whole) {
		free(out);
		return NULL;
	}
	return out;
}
