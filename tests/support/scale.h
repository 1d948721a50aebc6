/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Iteration counts for the slow randomized tests.  The default run keeps a
 * quarter of each sweep; SYSCAGE_TEST_DEPTH=nightly (meson test --setup
 * nightly) runs the full counts.  SYSCAGE_TEST_SCALE=N divides further by N
 * (./bootstrap check sets 4 for the sanitizer build's tests: every case forks
 * a child, and a sanitized fork and exec cost several times more), so a
 * sanitizer run covers the same kinds of cases, only fewer of each.
 */
#ifndef SCG_TESTS_SCALE_H
#define SCG_TESTS_SCALE_H

#include <stddef.h>

/* @n divided as above, at least 1 (for @n >= 1). */
size_t test_scaled(size_t n);

/* For an exhaustive sweep that samples by position: 1 in a nightly run (every case), else
 * @quick times SYSCAGE_TEST_SCALE.  Sampling case i when (i + k) % stride == 0, with k
 * moving along an outer loop, still reaches every inner case somewhere. */
size_t test_stride(size_t quick);

#endif
