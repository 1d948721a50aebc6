/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the repetitions of a measurement say, and what they cannot: the
 * median, the quartiles and extremes, and whether two measurements differ
 * by more than their spread.  Plain arithmetic on samples, no clock, so
 * tests feed it made-up samples (tests/bench_noise.c).
 */
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

/*
 * Two measurements differ when their middle halves (first to third
 * quartile) do not overlap, and the difference of their medians is larger
 * than the wider of the two middle halves.  Otherwise the difference is no
 * bigger than what the machine's noise moves one measurement by, and the
 * data cannot say which is faster: a burst of load that hit most
 * repetitions of one row can lift its whole middle half above another's,
 * but it also spreads that half wide.
 */
enum bench_order bench_compare(const struct bench_timing *a, const struct bench_timing *b)
{
	if (!a->ok || !b->ok)
		return BENCH_UNKNOWN;
	double spread_a = a->q3_ns - a->q1_ns, spread_b = b->q3_ns - b->q1_ns;
	double spread = spread_a > spread_b ? spread_a : spread_b;
	double diff = a->median_ns - b->median_ns;
	if (a->q1_ns > b->q3_ns && diff > spread)
		return BENCH_SLOWER;
	if (a->q3_ns < b->q1_ns && -diff > spread)
		return BENCH_FASTER;
	return BENCH_WITHIN_NOISE;
}
