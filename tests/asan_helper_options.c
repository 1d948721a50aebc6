/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Linked into every tests/helpers program only in a sanitizer build
 * (tests/helpers/meson.build, when b_sanitize is set).  The
 * helpers are the programs the tests run traced (syscage dump, inject) or
 * filtered (run, learn), and LeakSanitizer's exit-time scan needs ptrace
 * and clone of its own: under a tracer it fails the exit status the tests
 * check, and under a filter it can wait forever for threads it cannot stop.
 * Leaks in test programs are not what the sanitizer run is for; everything
 * else (ASan, UBSan) stays on.
 */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
