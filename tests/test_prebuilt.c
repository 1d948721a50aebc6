/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The built-in profiles compiled ahead (lib/compile/prebuilt_profiles.c)
 * are what the compiler makes of them now: a profile or compiler change
 * without `ninja -C build prebuilt` fails here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "compile/prebuilt.h"

static void compile_fresh(const char *profile, const struct scg_arch *const *arches, size_t n,
			  struct scg_prog *prog)
{
	struct scg_policy_source_options opts = { .arches = n ? arches : NULL, .narches = n };
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	assert_non_null(diag);
	assert_int_equal(scg_profile_load(profile, &opts, &policy, diag), 0);
	assert_int_equal(scg_compile(policy, NULL, prog, diag), 0);
	scg_policy_free(policy);
	scg_diag_free(diag);
}

static void expect_same(const struct scg_prog *fresh, const struct scg_prog *built, const char *what)
{
	if (fresh->len != built->len ||
	    memcmp(fresh->insns, built->insns, fresh->len * sizeof(*fresh->insns)))
		fail_msg("%s: the prebuilt filter (%zu instructions) is not what the compiler makes "
			 "now (%zu): run `ninja -C build prebuilt`",
			 what, built->len, fresh->len);
}

/* Every profile on every ABI it was built for: equal to a fresh compile. */
static void test_equal_to_fresh_compile(void **state)
{
	(void)state;
	for (size_t i = 0; i < prebuilt_filter_count; i++) {
		const struct prebuilt_filter *f = &prebuilt_filters[i];
		const struct scg_arch *arches[9] = { scg_arch_lookup(f->native) };
		assert_non_null(arches[0]);
		size_t n = 1 + scg_arch_companions(arches[0], arches + 1, 8);
		struct scg_prog fresh, built;
		compile_fresh(f->profile, arches, n, &fresh);
		assert_int_equal(scg_profile_prebuilt(f->profile, arches[0], &built), 0);
		char what[96];
		snprintf(what, sizeof(what), "%s on %s", f->profile, f->native);
		expect_same(&fresh, &built, what);
		scg_prog_release(&fresh);
		scg_prog_release(&built);
	}
}

/* Every profile is built in for the ABIs of the list, so none falls back silently. */
static void test_every_profile(void **state)
{
	(void)state;
	for (size_t p = 0; p < scg_profile_count(); p++) {
		struct scg_prog prog;
		assert_int_equal(scg_profile_prebuilt(scg_profile_name(p), scg_arch_lookup("x86_64"),
						      &prog),
				 0);
		assert_true(prog.len > 0);
		scg_prog_release(&prog);
	}
	struct scg_prog none;
	assert_int_equal(scg_profile_prebuilt("no-such-profile", scg_arch_native(), &none), -ENOENT);
	assert_int_equal(scg_profile_prebuilt("default", scg_arch_lookup("mips"), &none), -ENOENT);
	assert_null(none.insns);
}

/*
 * Here, a profile loaded as `syscage run` loads it (no options) is the
 * prebuilt one; on an ABI without one, run compiles (nothing to compare).
 */
static void test_native_load(void **state)
{
	(void)state;
	struct scg_prog built;
	int r = scg_profile_prebuilt("default", scg_arch_native(), &built);
	if (r == -ENOENT)
		return;
	assert_int_equal(r, 0);
	struct scg_prog fresh;
	compile_fresh("default", NULL, 0, &fresh);
	expect_same(&fresh, &built, "default as loaded here");
	scg_prog_release(&fresh);
	scg_prog_release(&built);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_to_fresh_compile),
		cmocka_unit_test(test_every_profile),
		cmocka_unit_test(test_native_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
