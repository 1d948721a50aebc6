/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests: the policy model, its builder and the reference evaluator. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define AUDIT_AARCH64 0xc00000b7U

static struct scg_seccomp_data call(uint32_t arch, uint32_t nr, uint64_t a0, uint64_t a1)
{
	struct scg_seccomp_data d = { .nr = nr, .arch = arch };
	d.args[0] = a0;
	d.args[1] = a1;
	return d;
}

static uint32_t verdict_of(const struct scg_policy *p, struct scg_seccomp_data d,
			   enum scg_verdict_source *source)
{
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	if (source)
		*source = v.source;
	return v.action;
}

static int add(struct scg_policy *p, uint32_t action, const char *name, struct scg_expr *cond)
{
	struct scg_rule_spec spec = { .action = action, .syscall = name, .cond = cond,
				      .loc = { "t.policy", 1, 1, -1 } };
	return scg_policy_add_rule(p, &spec);
}

static struct scg_policy *x86_policy(void)
{
	struct scg_policy *p = scg_policy_new();
	assert_non_null(p);
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86")), 0);
	scg_policy_set_default(p, SCG_RET_ERRNO | 1);
	return p;
}

static void test_first_match_and_fallbacks(void **state)
{
	(void)state;
	struct scg_policy *p = x86_policy();
	/* openat(AT_FDCWD-ish arg0 == 5) -> ERRNO(2); any other openat -> ALLOW */
	assert_int_equal(add(p, SCG_RET_ERRNO | 2, "openat",
			     scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 5)), 0);
	assert_int_equal(add(p, SCG_RET_ALLOW, "openat", NULL), 0);
	assert_int_equal(add(p, SCG_RET_KILL_PROCESS, "openat", NULL), 0); /* never reached */

	enum scg_verdict_source src;
	assert_true(verdict_of(p, call(AUDIT_X86_64, 257, 5, 0), &src) == (SCG_RET_ERRNO | 2));
	assert_int_equal(src, SCG_VERDICT_RULE);
	assert_true(verdict_of(p, call(AUDIT_X86_64, 257, 6, 0), NULL) == SCG_RET_ALLOW);
	/* a 64-bit compare: the high half matters */
	assert_true(verdict_of(p, call(AUDIT_X86_64, 257, 0x100000005ULL, 0), NULL) == SCG_RET_ALLOW);
	/* i386 openat is 295 */
	assert_true(verdict_of(p, call(AUDIT_I386, 295, 5, 0), NULL) == (SCG_RET_ERRNO | 2));
	/* a known syscall without rules gets the default */
	assert_true(verdict_of(p, call(AUDIT_X86_64, 39, 0, 0), &src) == (SCG_RET_ERRNO | 1));
	assert_int_equal(src, SCG_VERDICT_DEFAULT);
	/* foreign ABIs, and x32 when x32 is not a target, get the badarch verdict */
	assert_true(verdict_of(p, call(AUDIT_AARCH64, 56, 0, 0), &src) == SCG_RET_KILL_PROCESS);
	assert_int_equal(src, SCG_VERDICT_BADARCH);
	assert_true(verdict_of(p, call(AUDIT_X86_64, 0x40000000U | 257, 0, 0), &src) ==
		    SCG_RET_KILL_PROCESS);
	assert_int_equal(src, SCG_VERDICT_BADARCH);
	/* nr == -1 stays x86_64 */
	assert_true(verdict_of(p, call(AUDIT_X86_64, 0xffffffffU, 0, 0), &src) == (SCG_RET_ERRNO | 1));
	assert_int_equal(src, SCG_VERDICT_DEFAULT);
	scg_policy_free(p);
}

static void test_unknown_numbers(void **state)
{
	(void)state;
	struct scg_policy *p = x86_policy();
	scg_policy_set_unknown(p, SCG_RET_ERRNO | 38);
	enum scg_verdict_source src;
	/* above the table, in a gap of the table, and -1 are unknown */
	assert_true(verdict_of(p, call(AUDIT_X86_64, 5000, 0, 0), &src) == (SCG_RET_ERRNO | 38));
	assert_int_equal(src, SCG_VERDICT_UNKNOWN);
	assert_true(verdict_of(p, call(AUDIT_X86_64, 400, 0, 0), &src) == (SCG_RET_ERRNO | 38));
	assert_true(verdict_of(p, call(AUDIT_X86_64, 0xffffffffU, 0, 0), &src) == (SCG_RET_ERRNO | 38));
	/* known numbers still get the default */
	assert_true(verdict_of(p, call(AUDIT_X86_64, 0, 0, 0), &src) == (SCG_RET_ERRNO | 1));
	uint32_t u;
	assert_true(scg_policy_unknown(p, &u));
	scg_policy_clear_unknown(p);
	assert_false(scg_policy_unknown(p, NULL));
	assert_true(verdict_of(p, call(AUDIT_X86_64, 5000, 0, 0), NULL) == (SCG_RET_ERRNO | 1));
	scg_policy_free(p);
}

static void test_arch_mask_and_numbers(void **state)
{
	(void)state;
	struct scg_policy *p = x86_policy();
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x32")), 0);
	struct scg_rule_spec only_x32 = { .action = SCG_RET_ALLOW, .syscall = "read",
					  .arch_mask = SCG_ARCH_BIT_X32 };
	assert_int_equal(scg_policy_add_rule(p, &only_x32), 0);
	struct scg_rule_spec raw = { .action = SCG_RET_TRAP | 7, .has_number = true, .number = 999 };
	assert_int_equal(scg_policy_add_rule(p, &raw), 0);

	assert_true(verdict_of(p, call(AUDIT_X86_64, 0x40000000U, 0, 0), NULL) == SCG_RET_ALLOW);
	assert_true(verdict_of(p, call(AUDIT_X86_64, 0, 0, 0), NULL) == (SCG_RET_ERRNO | 1));
	assert_true(verdict_of(p, call(AUDIT_I386, 999, 0, 0), NULL) == (SCG_RET_TRAP | 7));

	uint32_t nr;
	assert_int_equal(scg_policy_rule_nr(p, 0, scg_arch_lookup("x86_64"), &nr), -ENOSYS);
	assert_int_equal(scg_policy_rule_nr(p, 0, scg_arch_lookup("x32"), &nr), 0);
	assert_true(nr == 0x40000000U);
	scg_policy_free(p);
}

static void test_builder_contract(void **state)
{
	(void)state;
	struct scg_policy *p = x86_policy();
	/* an invalid rule changes nothing and frees its condition */
	struct scg_rule_spec bad = { .action = SCG_RET_ALLOW, .syscall = NULL,
				     .cond = scg_expr_cmp(1, 64, SCG_CMP_EQ, ~0ULL, 1) };
	assert_int_equal(scg_policy_add_rule(p, &bad), -EINVAL);
	assert_null(bad.cond);
	assert_int_equal(scg_policy_rule_count(p), 0);
	assert_null(scg_expr_cmp(6, 64, SCG_CMP_EQ, 0, 0));
	assert_null(scg_expr_cmp(0, 16, SCG_CMP_EQ, 0, 0));

	/* width 32 ignores the high half; masks apply first */
	struct scg_expr *e = scg_expr_and(scg_expr_cmp(0, 32, SCG_CMP_EQ, ~0ULL, 0xffffff9cULL),
					  scg_expr_not(scg_expr_cmp(1, 64, SCG_CMP_NE, 4, 0)));
	assert_non_null(e);
	uint64_t args[6] = { 0xffffffffffffff9cULL, 0 };
	assert_true(scg_expr_eval(e, args)); /* low word matches, (arg1 & 4) != 0 is false */
	args[0] = 0x00000000ffffff9cULL;        /* zero-extended: the same low word */
	assert_true(scg_expr_eval(e, args));
	args[1] = 4;
	assert_false(scg_expr_eval(e, args));
	args[1] = 0;

	assert_int_equal(add(p, SCG_RET_ALLOW, "openat", e), 0);
	struct scg_policy *copy = scg_policy_clone(p);
	assert_non_null(copy);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(copy, 0, &r), 0);
	assert_string_equal(r.syscall, "openat");
	assert_string_equal(r.loc.file, "t.policy");
	assert_true(r.cond != e);
	assert_true(scg_expr_eval(r.cond, args));
	args[0] = 0xffffff9dULL;
	assert_false(scg_expr_eval(r.cond, args));
	assert_int_equal(scg_policy_arch_count(copy), 2);
	assert_int_equal(scg_policy_rule_at(copy, 1, &r), -EINVAL);
	scg_policy_free(copy);

	assert_int_equal(scg_policy_remove_arch(p, scg_arch_lookup("x86")), 0);
	assert_int_equal(scg_policy_remove_arch(p, scg_arch_lookup("x86")), -ENOENT);
	assert_int_equal(scg_policy_arch_count(p), 1);
	scg_policy_free(p);
	scg_policy_free(NULL);
}

static void test_native_arches(void **state)
{
	(void)state;
	struct scg_policy *p = scg_policy_new();
	assert_int_equal(scg_policy_add_native_arches(p), 0);
	assert_true(scg_policy_arch_at(p, 0) == scg_arch_native());
	if (scg_arch_native() == scg_arch_lookup("x86_64")) {
		assert_int_equal(scg_policy_arch_count(p), 3);
	}
	assert_int_equal(scg_policy_add_native_arches(p), 0); /* idempotent */
	assert_null(scg_policy_arch_at(p, 99));
	scg_policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_match_and_fallbacks),
		cmocka_unit_test(test_unknown_numbers),
		cmocka_unit_test(test_arch_mask_and_numbers),
		cmocka_unit_test(test_builder_contract),
		cmocka_unit_test(test_native_arches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
