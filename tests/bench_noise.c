/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The noise logic of `syscage bench` (cli/bench/stats.c) on made-up
 * samples: quartiles, the noisy mark, and when two rows may be said to
 * differ.  No clock is read.  tests/cli/bench.sh compiles and runs it; it
 * prints TAP.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

static int n;
static int failed;

static void check(int good, const char *name)
{
	n++;
	failed |= !good;
	printf("%s %d - %s\n", good ? "ok" : "not ok", n, name);
}

static int near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

/* Summarizes @count samples (copied: summarizing sorts them). */
static struct bench_timing timing(const double *samples, unsigned count)
{
	struct bench_timing t;
	memset(&t, 0, sizeof(t));
	double copy[BENCH_MAX_REPS];
	memcpy(copy, samples, count * sizeof(*copy));
	bench_summarize(copy, count, &t);
	return t;
}

int main(void)
{
	/* 1..9 in a shuffled order: median 5, quartiles 3 and 7, extremes 1 and 9. */
	static const double nine[] = { 7, 1, 9, 3, 5, 2, 8, 4, 6 };
	struct bench_timing t = timing(nine, 9);
	check(t.ok && near(t.median_ns, 5) && near(t.q1_ns, 3) && near(t.q3_ns, 7),
	      "median and quartiles of 1..9");
	check(near(t.min_ns, 1) && near(t.max_ns, 9), "extremes of 1..9");
	static const double four[] = { 10, 40, 20, 30 };
	t = timing(four, 4);
	check(near(t.median_ns, 25) && near(t.q1_ns, 17.5) && near(t.q3_ns, 32.5),
	      "an even count interpolates between neighbours");
	t = timing(four, 1);
	check(t.ok && near(t.median_ns, 10) && near(t.q1_ns, 10) && near(t.q3_ns, 10),
	      "one sample is its own median and quartiles");
	t = timing(four, 0);
	check(!t.ok, "no sample: not measured");

	/* A quiet row: the middle half within 2% of the median. */
	static const double quiet[] = { 100, 101, 99, 100, 102, 98, 100 };
	/* The noise: a cacheable filter that happened to share the CPU. */
	static const double burst[] = { 105, 480, 110, 290, 600, 102, 350 };
	struct bench_timing q = timing(quiet, 7), b = timing(burst, 7);
	check(!bench_noisy(&q), "a tight row is not noisy");
	check(bench_noisy(&b), "a row whose middle half spans most of its median is noisy");
	check(b.q1_ns > q.q3_ns && bench_compare(&b, &q) == BENCH_WITHIN_NOISE,
	      "a noisy row above a quiet one, by less than its own spread: no conclusion");
	/* The same burst, but the gap is wider than the spread: a real difference. */
	static const double far_burst[] = { 905, 1280, 910, 1090, 1400, 902, 1150 };
	struct bench_timing fb = timing(far_burst, 7);
	check(bench_noisy(&fb) && bench_compare(&fb, &q) == BENCH_SLOWER,
	      "noisy, but farther away than its spread: slower");

	/* Clearly apart: every repetition of one above every repetition of the other. */
	static const double slow[] = { 130, 131, 129, 130, 132, 128, 130 };
	struct bench_timing s = timing(slow, 7);
	check(bench_compare(&s, &q) == BENCH_SLOWER && bench_compare(&q, &s) == BENCH_FASTER,
	      "separate middle halves: slower and faster");

	/* Medians 3% apart with 5% spread: the difference is within the noise. */
	static const double close_a[] = { 95, 100, 105, 98, 102, 96, 104 };
	static const double close_b[] = { 98, 103, 108, 101, 105, 99, 107 };
	struct bench_timing ca = timing(close_a, 7), cb = timing(close_b, 7);
	check(ca.median_ns < cb.median_ns && bench_compare(&ca, &cb) == BENCH_WITHIN_NOISE,
	      "a median difference smaller than the spread is not a difference");

	/* The boundary: touching ranges overlap, a gap separates. */
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 4, 5, 6, 7, 8 }, far[] = { 5, 6, 7, 8, 9 };
	struct bench_timing l = timing(lo, 5), h = timing(hi, 5), f = timing(far, 5);
	check(near(l.q3_ns, 4) && near(h.q1_ns, 5) && bench_compare(&l, &h) == BENCH_FASTER,
	      "quartiles 2..4 and 5..7 are apart");
	check(near(f.q1_ns, 6) && bench_compare(&h, &f) == BENCH_WITHIN_NOISE,
	      "quartiles 5..7 and 6..8 overlap");

	struct bench_timing none;
	memset(&none, 0, sizeof(none));
	check(bench_compare(&none, &q) == BENCH_UNKNOWN && !bench_noisy(&none),
	      "an unmeasured row compares as unknown");

	printf("1..%d\n", n);
	return failed;
}
