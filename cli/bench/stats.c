/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the repetitions of a measurement say, and what they cannot: the
 * median, the quartiles and extremes, which repetitions a row's figures
 * can rest on, and whether two measurements differ by more than their
 * spread.  Plain arithmetic on samples, no clock, so
 * tests feed it made-up samples (tests/test_bench_stats.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The @p quantile (0..1) of @n sorted values, interpolated between neighbours. */
static double quantile(const double *sorted, size_t n, double p)
{
	if (!n)
		return 0;
	double pos = p * (double)(n - 1);
	size_t lo = (size_t)pos;
	if (lo + 1 >= n)
		return sorted[n - 1];
	double frac = pos - (double)lo;
	return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

double bench_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return quantile(v, n, 0.5);
}

void bench_summarize(double *samples, unsigned n, struct bench_timing *out)
{
	double dev[BENCH_MAX_REPS];
	double med = bench_median(samples, n); /* sorts */
	for (unsigned k = 0; k < n; k++)
		dev[k] = samples[k] > med ? samples[k] - med : med - samples[k];
	out->median_ns = med;
	out->min_ns = n ? samples[0] : 0;
	out->max_ns = n ? samples[n - 1] : 0;
	out->q1_ns = quantile(samples, n, 0.25);
	out->q3_ns = quantile(samples, n, 0.75);
	out->mad_pct = med > 0 ? 100 * bench_median(dev, n) / med : 0;
	out->ok = n > 0;
}

bool bench_noisy(const struct bench_timing *t)
{
	return t->ok && t->median_ns > 0 &&
	       (t->q3_ns - t->q1_ns) > BENCH_NOISY_IQR_PCT / 100.0 * t->median_ns;
}

void bench_settle(struct bench_timing *t, const struct bench_timing *bare)
{
	unsigned ncpu = 0;
	for (unsigned k = 0; k < t->nsamples; k++)
		ncpu += t->sample_cpu[k];
	bool cpu = ncpu > 0 && 2 * ncpu >= t->nsamples;
	bool floored = bare && bare->ok && (bare->cpu_clock || !cpu);
	double least = floored ? bare->min_ns : 0;
	double kept[BENCH_MAX_REPS];
	unsigned n = 0, same_clock = 0;
	for (unsigned k = 0; k < t->nsamples; k++) {
		if (t->sample_cpu[k] != cpu)
			continue;
		same_clock++;
		if (t->samples[k] >= least)
			kept[n++] = t->samples[k];
	}
	t->cpu_clock = cpu;
	t->other_clock = t->nsamples - same_clock;
	t->below_floor = same_clock - n;
	t->used = n;
	t->untrusted = same_clock && 2 * t->below_floor > same_clock;
	if (t->untrusted) {
		t->ok = false;
		snprintf(t->error, sizeof(t->error),
			 "untrusted: %u of %u repetitions ran faster than the no-filter row's "
			 "fastest (%.1f ns)", t->below_floor, same_clock, least);
		return;
	}
	bench_summarize(kept, n, t);
}

/*
 * Two measurements differ when their medians are further apart than the
 * widths of their middle halves (first to third quartile) added up, and
 * than BENCH_MIN_DIFF_PCT of the smaller median.  Both middle halves then
 * lie apart with room to spare, so the verdict does not hang on where one
 * repetition happened to fall: a burst of load that lifts most repetitions
 * of one row also spreads its middle half, and a rerun on an idle machine,
 * whose spreads are narrow, says the same for differences that are real.
 * Two rows timed by different clocks are not compared.
 */
enum bench_order bench_compare(const struct bench_timing *a, const struct bench_timing *b)
{
	if (!a->ok || !b->ok || a->cpu_clock != b->cpu_clock)
		return BENCH_UNKNOWN;
	double spread = (a->q3_ns - a->q1_ns) + (b->q3_ns - b->q1_ns);
	double low = a->median_ns < b->median_ns ? a->median_ns : b->median_ns;
	double least = BENCH_MIN_DIFF_PCT / 100.0 * low;
	double diff = a->median_ns - b->median_ns;
	if (diff > spread && diff > least)
		return BENCH_SLOWER;
	if (-diff > spread && -diff > least)
		return BENCH_FASTER;
	return BENCH_WITHIN_NOISE;
}
