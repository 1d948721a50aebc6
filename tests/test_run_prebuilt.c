/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run` installs a built-in profile from its prebuilt program plus a
 * cookie prefix (launch_prebuilt_filter()) instead of compiling the policy that
 * launch_build_policy() makes.  Both must decide every call alike: checked on
 * the emulator for every syscall of the native ABIs and a foreign one, with
 * argument values that hit each profile's conditions and the cookie.
 *
 * The default run checks an eighth of the (syscall, value) pairs, moving with
 * the syscall so that every value in every argument is checked on some
 * syscall of every ABI; SYSCAGE_TEST_DEPTH=nightly checks them all.
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

#include "runtime/launch_internal.h"
#include "support/scale.h"

#define COOKIE UINT64_C(0x1234567890abcdef)

static void compiled_way(const char *profile, enum install_how how, struct scg_prog *prog)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL, *built = NULL;
	assert_int_equal(scg_profile_load(profile, NULL, &policy, diag), 0);
	assert_int_equal(launch_build_policy(policy, COOKIE, 0, how, &built), 0);
	assert_int_equal(scg_compile(built, NULL, prog, diag), 0);
	scg_policy_free(built);
	scg_policy_free(policy);
	scg_diag_free(diag);
}

static const uint64_t arg_values[] = {
	0, 1, 2, 8, 0x26, 0x27, 0x28, 0x29, 0x5412, 0x541c, 0x20000, 0x20008, 0xffffffff,
	UINT64_C(0x100000027), 0x10000000, 0x7e020000, 0x11, COOKIE, (uint32_t)COOKIE,
};

static void compare(const struct scg_prog *a, const struct scg_prog *b, const struct scg_arch *arch,
		    const char *profile)
{
	size_t nvals = sizeof(arg_values) / sizeof(arg_values[0]);
	size_t stride = test_stride(8);
	for (size_t s = 0; s < scg_syscall_count(arch); s++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(arch, s, &name, &nr);
		for (size_t v = s % stride; v < nvals * 3; v += stride) {
			struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(arch) };
			/* the value in each argument in turn, and the cookie in argument 5 */
			d.args[v % 6] = arg_values[v % nvals];
			if (v >= nvals * 2)
				d.args[5] = COOKIE;
			uint32_t ra, rb;
			assert_int_equal(scg_emu_run(a, &d, &ra, NULL, NULL, NULL), 0);
			assert_int_equal(scg_emu_run(b, &d, &rb, NULL, NULL, NULL), 0);
			if (ra != rb)
				fail_msg("%s: %s on %s with arg%zu = %#llx: prebuilt %#x, compiled %#x",
					 profile, name, scg_arch_name(arch), v % 6,
					 (unsigned long long)arg_values[v % nvals], ra, rb);
		}
	}
}

static void test_same_verdicts(void **state)
{
	(void)state;
	const struct scg_arch *native = scg_arch_native();
	const struct scg_arch *arches[9] = { native, scg_arch_lookup("mips") };
	size_t n = 2 + scg_arch_companions(native, arches + 2, 7);
	for (size_t p = 0; p < scg_profile_count(); p++) {
		const char *profile = scg_profile_name(p);
		/* as is, reported (run), complaining with a supervisor and through the log */
		for (int h = INSTALL_AS_IS; h <= INSTALL_LOG; h++) {
			enum install_how how = (enum install_how)h;
			struct scg_prog fast, slow;
			int r = launch_prebuilt_filter(profile, COOKIE, how, &fast);
			if (r == -ENOENT)
				return; /* nothing built in for this ABI: run compiles */
			assert_int_equal(r, 0);
			compiled_way(profile, how, &slow);
			for (size_t a = 0; a < n; a++)
				if (arches[a])
					compare(&fast, &slow, arches[a], profile);
			scg_prog_release(&fast);
			scg_prog_release(&slow);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_same_verdicts) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
