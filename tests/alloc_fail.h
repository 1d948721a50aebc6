/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Allocation failures on demand, for the tests linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/alloc_fail.c).
 * Allocations are counted, and one of them fails, only between
 * alloc_arm() and alloc_disarm(): a run arms them around the call under
 * test alone, so its own set-up and its rendering of the result neither
 * count nor fail.
 */
#ifndef SCG_TESTS_ALLOC_FAIL_H
#define SCG_TESTS_ALLOC_FAIL_H

#include <stddef.h>

#include <syscage/lang.h>
#include <syscage/policy.h>

/* What a run gave on success, as bytes compared with the undisturbed run's. */
struct outcome {
	char *bytes; /* malloc()ed, or NULL */
	size_t len;
};

/*
 * One run of the code under test on @input: returns what the call returned
 * and, when that is 0, fills *@out.  Everything it allocated is freed.
 */
typedef int (*run_fn)(const void *input, struct outcome *out);

void alloc_arm(void);
void alloc_disarm(void);

/* Takes the NUL-terminated @text (malloc()ed) as the outcome. */
void outcome_text(struct outcome *out, char *text);
/*
 * The outcome of a parse that returned @r: on success @policy as text (then
 * freed), else @policy must be NULL.  Returns @r.
 */
int outcome_policy(struct outcome *out, int r, struct scg_policy *policy);
/* Copies @len bytes at @bytes into the outcome. */
void outcome_bytes(struct outcome *out, const void *bytes, size_t len);

/*
 * Runs @run once undisturbed, which must return @expected, then once per
 * allocation it made with that one failing.  Each run must return -ENOMEM
 * or @expected, and when @expected is 0, give the undisturbed outcome.
 * Returns how many runs ended in -ENOMEM.
 */
long fail_each(run_fn run, const void *input, int expected);

#endif
