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
#include "support/scale.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static bool armed;
static long calls;	     /* allocations seen armed since the run began */
static long fail_at = -1;    /* the call number that fails, or -1 */

/* The reference run records where each allocation came from, calls and sites in step. */
static bool recording;
static const void **sites;
static size_t sites_cap;

static void record_site(const void *site)
{
	if (!recording)
		return;
	if ((size_t)calls > sites_cap) {
		size_t cap = sites_cap ? 2 * sites_cap : 256;
		const void **grown = __real_realloc(sites, (cap + 1) * sizeof(*sites));
		assert_non_null(grown);
		sites = grown;
		sites_cap = cap;
	}
	sites[calls] = site;
}

static bool should_fail(const void *site)
{
	if (!armed)
		return false;
	++calls;
	record_site(site);
	return calls == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return should_fail(__builtin_return_address(0)) ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return should_fail(__builtin_return_address(0)) ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *ptr, size_t size)
{
	return should_fail(__builtin_return_address(0)) ? NULL : __real_realloc(ptr, size);
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

/* Whether allocation @k of the @total in the reference run is the first or last from its site. */
static bool end_of_site_run(long k, long total)
{
	bool first = true, last = true;
	for (long j = 1; j < k && first; j++)
		first = sites[j] != sites[k];
	for (long j = k + 1; j <= total && last; j++)
		last = sites[j] != sites[k];
	return first || last;
}

/*
 * Which allocations to fail: every one in a nightly run.  By default the first and the
 * last from each call site (a loop's first and last pass leave different things to undo)
 * and every test_stride()th, counted from an offset that moves with the total.
 */
static bool worth_failing(long k, long total, long stride)
{
	if (stride <= 1)
		return true;
	return k % stride == (total % stride) || end_of_site_run(k, total);
}

long fail_each(run_fn run, const void *input, int expected)
{
	struct outcome reference = {0};
	calls = 0;
	fail_at = -1;
	recording = true;
	assert_int_equal(run(input, &reference), expected);
	recording = false;
	assert_false(armed);
	long total = calls, nomem = 0;
	assert_true(total > 0);
	long stride = (long)test_stride(4);
	for (long k = 1; k <= total; k++) {
		if (!worth_failing(k, total, stride))
			continue;
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
