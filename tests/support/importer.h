/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the importers' unit tests (test_import_*.c) share: importing a text
 * under a file name, verdicts of x86_64 calls through the reference
 * evaluator, the first error's text, files written for includes, verdicts
 * compared call by call after a round trip, and the exporters' refusals.
 * These assert with cmocka: call them from a cmocka test only.
 */
#ifndef SCG_TESTS_IMPORTER_H
#define SCG_TESTS_IMPORTER_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

#define TEST_AUDIT_X86_64 0xc000003eU
#define TEST_AUDIT_I386 0x40000003U

/* scg_systemd_import(), scg_minijail_import(), ... */
typedef int (*test_import_fn)(const char *text, size_t len, const struct scg_import_options *opts,
			      struct scg_policy **policy, struct scg_diag *diag);
/* scg_systemd_export(), scg_minijail_export(), ... */
typedef int (*test_export_fn)(const struct scg_policy *policy, char **text,
			      struct scg_diag *diag);

/* @import of the NUL-terminated @text, named @file in locations and diagnostics. */
int test_import(test_import_fn import, const char *text, const char *file,
		struct scg_policy **policy, struct scg_diag *diag);

/* The policy @import makes of @text (named @file); fails the test, printing why, otherwise. */
struct scg_policy *test_import_ok(test_import_fn import, const char *text, const char *file);

/* The action for call @nr of the ABI @audit with the first three arguments. */
uint32_t test_verdict_nr(const struct scg_policy *p, uint32_t nr, uint32_t audit, uint64_t a0,
			 uint64_t a1, uint64_t a2);

/* The action for x86_64's @name with the first three arguments (the rest 0). */
uint32_t test_verdict(const struct scg_policy *p, const char *name, uint64_t a0, uint64_t a1,
		      uint64_t a2);

/*
 * Asserts that @import refuses @text (named @file) with -EINVAL and no
 * policy; the first error as "file:line:col: error: ..." in @buf, its hint
 * ("" without one) in @hint.  Returns how many diagnostics there were.
 */
size_t test_first_error(test_import_fn import, const char *text, const char *file, char *buf,
			size_t size, char *hint, size_t hsize);

/* Writes @text to @dir/@name; returns the path (caller frees). */
char *test_write_file(const char *dir, const char *name, const char *text);

/*
 * Fails the test, naming the call, where @a and @b give an x86_64 call
 * different actions: every syscall, the arguments (x, y, y, x) for x and y
 * among @vals.
 */
void test_same_verdicts(const struct scg_policy *a, const struct scg_policy *b,
			const uint64_t *vals, size_t nvals);

/*
 * Parses @policy (the policy language) and asserts that @export refuses it
 * with -EINVAL, no text, and a diagnostic whose message contains @message
 * (at line @line of the policy, unless @line is 0).
 */
void test_export_refused(test_export_fn export, const char *policy, const char *message,
			 unsigned line);

#endif
