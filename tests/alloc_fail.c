// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The counters behind tests/alloc_fail.h.  --wrap redirects every call to
 * malloc, calloc and realloc made from the objects linked into the test
 * (the test, its support code and the static libraries under test) to the
 * functions below; calls libc makes for itself (strdup, fopen) and those of
 * shared libraries are not redirected.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_fail.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static bool armed;
static long calls;	     /* allocations seen armed since the run began */
static long fail_at = -1;    /* the call number that fails, or -1 */

static bool should_fail(void)
{
	return armed && ++calls == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *ptr, size_t size)
{
	return should_fail() ? NULL : __real_realloc(ptr, size);
}

void alloc_arm(void)
{
	armed = true;
}

void alloc_disarm(void)
{
	armed = false;
}

void outcome_text(struct outcome *out, char *text)
{
	assert_non_null(text);
	out->bytes = text;
	out->len = strlen(text);
}

void outcome_bytes(struct outcome *out, const void *bytes, size_t len)
{
	out->bytes = malloc(len ? len : 1);
	assert_non_null(out->bytes);
	if (len)
		memcpy(out->bytes, bytes, len);
	out->len = len;
}

long fail_each(run_fn run, const void *input, int expected)
{
	struct outcome reference = {0};
	calls = 0;
	fail_at = -1;
	assert_int_equal(run(input, &reference), expected);
	assert_false(armed);
	long total = calls, nomem = 0;
	assert_true(total > 0);
	for (long k = 1; k <= total; k++) {
		struct outcome got = {0};
		calls = 0;
		fail_at = k;
		int r = run(input, &got);
		fail_at = -1;
		if (r != expected && r != -ENOMEM)
			fail_msg("allocation %ld of %ld failing gave %d, not %d or -ENOMEM", k,
				 total, r, expected);
		if (r == 0 && (got.len != reference.len ||
			       memcmp(got.bytes, reference.bytes, got.len)))
			fail_msg("allocation %ld of %ld failing gave another result:\n%.*s", k,
				 total, (int)got.len, got.bytes);
		free(got.bytes);
		nomem += r == -ENOMEM;
	}
	free(reference.bytes);
	return nomem;
}

int outcome_policy(struct outcome *out, int r, struct scg_policy *policy)
{
	if (r == 0) {
		char *text;
		assert_int_equal(scg_policy_to_text(policy, &text), 0);
		outcome_text(out, text);
	} else {
		assert_null(policy);
	}
	scg_policy_free(policy);
	return r;
}
