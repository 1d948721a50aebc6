/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What this machine lacks, for live tests: feature_have() answers from
 * scg_features_probe() (asked once), never from a failure of the test
 * itself, so a skip cannot hide a bug on a kernel that has the feature.
 * feature_skip() prints the line the test summary counts, on stdout:
 *
 *   SKIP: <feature>: <what is skipped>
 *
 * A test that needs the feature as a whole prints it and calls cmocka's
 * skip(); a test that needs it for some cases prints one line per group of
 * cases it leaves out and runs the rest.
 *
 * Names: i386-emulation (int $0x80 in a 64-bit process), x32, user-notif,
 * the filter flags as SYSCAGE_DISABLE_FEATURES spells them (tsync, log,
 * spec-allow, new-listener, tsync-esrch, wait-killable-recv),
 * ptrace-get-filter (PTRACE_SECCOMP_GET_FILTER and _GET_METADATA work for
 * this process), landlock and landlock-scope (Landlock, ABI 6), cgroup-kill
 * (a cgroup with cgroup.kill can be made beneath this process's), and no-inherited-filter (this process runs under no seccomp
 * filter, so filter counts, indexes and budgets are the test's own).  An
 * unknown name aborts the test, so a typo cannot turn checks into skips.
 */
#ifndef SCG_TESTS_FEATURES_H
#define SCG_TESTS_FEATURES_H

#include <stdbool.h>

bool feature_have(const char *name);

/* Prints "SKIP: @name: <@fmt...>" on stdout and flushes it. */
void feature_skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * feature_have(@name); when absent, also prints the skip line.  For a test
 * that needs the feature as a whole:
 *   if (!feature_require("user-notif", "%s", __func__)) skip();
 */
bool feature_require(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
