/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The statistics of `syscage bench` (cli/bench/stats.c) on made-up
 * samples: quartiles, the noisy mark, when two rows may be said to differ,
 * and how a row's repetitions become its figures (one clock, none faster
 * than the no-filter row).  No clock is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"

static bool near(double a, double b)
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
	t.cpu_clock = true;
	return t;
}

/* A row's raw repetitions, @cpu[k] saying which clock timed each, settled against @bare. */
static struct bench_timing settled(const double *samples, const bool *cpu, unsigned count,
				   const struct bench_timing *bare)
{
	struct bench_timing t;
	memset(&t, 0, sizeof(t));
	memcpy(t.samples, samples, count * sizeof(*samples));
	for (unsigned k = 0; k < count; k++)
		t.sample_cpu[k] = cpu ? cpu[k] : true;
	t.nsamples = count;
	bench_settle(&t, bare);
	return t;
}

static void test_quartiles(void **state)
{
	(void)state;
	/* 1..9 in a shuffled order: median 5, quartiles 3 and 7, extremes 1 and 9. */
	static const double nine[] = { 7, 1, 9, 3, 5, 2, 8, 4, 6 };
	struct bench_timing t = timing(nine, 9);
	assert_true(t.ok && near(t.median_ns, 5) && near(t.q1_ns, 3) && near(t.q3_ns, 7));
	assert_true(near(t.min_ns, 1) && near(t.max_ns, 9));
	/* an even count interpolates between neighbours */
	static const double four[] = { 10, 40, 20, 30 };
	t = timing(four, 4);
	assert_true(near(t.median_ns, 25) && near(t.q1_ns, 17.5) && near(t.q3_ns, 32.5));
	/* one sample is its own median and quartiles; none: not measured */
	t = timing(four, 1);
	assert_true(t.ok && near(t.median_ns, 10) && near(t.q1_ns, 10) && near(t.q3_ns, 10));
	t = timing(four, 0);
	assert_false(t.ok);
}

/* A quiet row: the middle half within 2% of the median. */
static const double quiet[] = { 100, 101, 99, 100, 102, 98, 100 };

static void test_noisy(void **state)
{
	(void)state;
	/* a cacheable filter that happened to share the CPU */
	static const double burst[] = { 105, 480, 110, 290, 600, 102, 350 };
	struct bench_timing q = timing(quiet, 7), b = timing(burst, 7);
	assert_false(bench_noisy(&q));
	assert_true(bench_noisy(&b));
	/* above a quiet row, but by less than its own spread: no conclusion */
	assert_true(b.q1_ns > q.q3_ns);
	assert_int_equal(bench_compare(&b, &q), BENCH_WITHIN_NOISE);
	/* the same burst farther away than the spreads: slower */
	static const double far_burst[] = { 905, 1280, 910, 1090, 1400, 902, 1150 };
	struct bench_timing fb = timing(far_burst, 7);
	assert_true(bench_noisy(&fb));
	assert_int_equal(bench_compare(&fb, &q), BENCH_SLOWER);
}

static void test_compare(void **state)
{
	(void)state;
	struct bench_timing q = timing(quiet, 7);
	/* every repetition of one above every repetition of the other */
	static const double slow[] = { 130, 131, 129, 130, 132, 128, 130 };
	struct bench_timing s = timing(slow, 7);
	assert_int_equal(bench_compare(&s, &q), BENCH_SLOWER);
	assert_int_equal(bench_compare(&q, &s), BENCH_FASTER);
	/* medians 3% apart with 5% spread */
	static const double close_a[] = { 95, 100, 105, 98, 102, 96, 104 };
	static const double close_b[] = { 98, 103, 108, 101, 105, 99, 107 };
	struct bench_timing ca = timing(close_a, 7), cb = timing(close_b, 7);
	assert_true(ca.median_ns < cb.median_ns);
	assert_int_equal(bench_compare(&ca, &cb), BENCH_WITHIN_NOISE);
	/* middle halves 2..4 and 5..7 lie apart, but the medians (3, 6) are
	 * closer than both widths together (4): not told apart */
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 4, 5, 6, 7, 8 };
	struct bench_timing l = timing(lo, 5), h = timing(hi, 5);
	assert_true(near(l.q3_ns, 4) && near(h.q1_ns, 5));
	assert_int_equal(bench_compare(&l, &h), BENCH_WITHIN_NOISE);
	/* medians 3 and 8, widths 2 and 2: apart */
	static const double higher[] = { 6, 7, 8, 9, 10 };
	struct bench_timing hh = timing(higher, 5);
	assert_int_equal(bench_compare(&l, &hh), BENCH_FASTER);
	/* no spread at all, medians 0.5% apart: below the resolution */
	static const double flat_a[] = { 200, 200, 200 }, flat_b[] = { 201, 201, 201 };
	struct bench_timing fa = timing(flat_a, 3), fb = timing(flat_b, 3);
	assert_int_equal(bench_compare(&fb, &fa), BENCH_WITHIN_NOISE);
	static const double flat_c[] = { 203, 203, 203 };
	struct bench_timing fc = timing(flat_c, 3);
	assert_int_equal(bench_compare(&fc, &fa), BENCH_SLOWER);
	/* unmeasured, or timed by another clock: unknown */
	struct bench_timing none;
	memset(&none, 0, sizeof(none));
	assert_int_equal(bench_compare(&none, &q), BENCH_UNKNOWN);
	assert_false(bench_noisy(&none));
	struct bench_timing wall = s;
	wall.cpu_clock = false;
	assert_int_equal(bench_compare(&wall, &q), BENCH_UNKNOWN);
}

/*
 * The verdict of two runs of the same pair on an idle machine: each run's
 * repetitions scatter by about 1%, the rows differ by 4% in one pair and
 * not at all in the other; every pairing of runs says the same.
 */
static void test_verdict_stable(void **state)
{
	(void)state;
	static const double base_runs[2][7] = { { 240, 241, 239, 242, 240, 238, 241 },
						{ 241, 239, 240, 243, 239, 240, 242 } };
	static const double plus4_runs[2][7] = { { 250, 249, 251, 252, 248, 250, 251 },
						 { 249, 251, 250, 248, 252, 250, 249 } };
	static const double same_runs[2][7] = { { 241, 240, 239, 243, 240, 238, 242 },
						{ 239, 241, 240, 242, 238, 241, 240 } };
	for (int a = 0; a < 2; a++) {
		struct bench_timing base = timing(base_runs[a], 7);
		for (int b = 0; b < 2; b++) {
			struct bench_timing plus4 = timing(plus4_runs[b], 7);
			struct bench_timing same = timing(same_runs[b], 7);
			assert_int_equal(bench_compare(&plus4, &base), BENCH_SLOWER);
			assert_int_equal(bench_compare(&same, &base), BENCH_WITHIN_NOISE);
		}
	}
}

static void test_settle_clock(void **state)
{
	(void)state;
	static const double s[] = { 300, 310, 900, 305, 295 };
	static const bool mostly_cpu[] = { true, true, false, true, true };
	struct bench_timing t = settled(s, mostly_cpu, 5, NULL);
	assert_true(t.ok && t.cpu_clock);
	assert_int_equal(t.used, 4);
	assert_int_equal(t.other_clock, 1);
	assert_true(near(t.max_ns, 310)); /* the wall-clock 900 is not in the figures */
	static const bool mostly_wall[] = { false, false, true, false, true };
	t = settled(s, mostly_wall, 5, NULL);
	assert_true(t.ok && !t.cpu_clock);
	assert_int_equal(t.used, 3);
	assert_int_equal(t.other_clock, 2);
	static const bool tie[] = { true, false };
	t = settled(s, tie, 2, NULL);
	assert_true(t.cpu_clock);
	assert_int_equal(t.used, 1);
}

static void test_settle_floor(void **state)
{
	(void)state;
	static const double bare_s[] = { 240, 238, 250, 241, 239 };
	struct bench_timing bare = settled(bare_s, NULL, 5, NULL);
	assert_true(bare.ok && near(bare.min_ns, 238));
	/* one repetition below the no-filter row's fastest: left out */
	static const double one_low[] = { 320, 9, 318, 325, 322 };
	struct bench_timing t = settled(one_low, NULL, 5, &bare);
	assert_true(t.ok && !t.untrusted);
	assert_int_equal(t.below_floor, 1);
	assert_int_equal(t.used, 4);
	assert_true(t.min_ns >= bare.min_ns);
	/* most below: no figures, and the row says why */
	static const double most_low[] = { 320, 9, 4, 230, 322 };
	t = settled(most_low, NULL, 5, &bare);
	assert_false(t.ok);
	assert_true(t.untrusted);
	assert_int_equal(t.below_floor, 3);
	assert_non_null(strstr(t.error, "untrusted: 3 of 5 repetitions ran faster than the no-filter row"));
	/* a CPU-time row is not held to a wall-clock no-filter row */
	static const bool wall[] = { false, false, false, false, false };
	struct bench_timing wall_bare = settled(bare_s, wall, 5, NULL);
	static const double cpu_low[] = { 200, 201, 199, 202, 200 };
	t = settled(cpu_low, NULL, 5, &wall_bare);
	assert_true(t.ok && t.cpu_clock);
	assert_int_equal(t.below_floor, 0);
	/* a wall-clock row is held to a CPU-time one */
	static const double wall_s[] = { 300, 100, 305, 310, 302 };
	t = settled(wall_s, wall, 5, &bare);
	assert_true(t.ok && !t.cpu_clock);
	assert_int_equal(t.below_floor, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quartiles),     cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_compare),       cmocka_unit_test(test_verdict_stable),
		cmocka_unit_test(test_settle_clock),  cmocka_unit_test(test_settle_floor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
