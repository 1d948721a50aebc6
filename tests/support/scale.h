/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Iteration counts for the slow randomized tests.  SYSCAGE_TEST_SCALE=N
 * divides them by N (make check-asan sets it: every case forks a child,
 * and a sanitized fork and exec cost several times more), so a sanitizer
 * run covers the same kinds of cases, only fewer of each.  Unset, 0 or 1:
 * the full counts.
 */
#ifndef SCG_TESTS_SCALE_H
#define SCG_TESTS_SCALE_H

#include <stddef.h>

/* @n divided by SYSCAGE_TEST_SCALE, at least 1 (for @n >= 1). */
size_t test_scaled(size_t n);

#endif
