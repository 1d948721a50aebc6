/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hostile inputs through the library's front ends: each is refused with an
 * error diagnostic (and no output object), never a crash, a stack overflow
 * or an unbounded message.  tests/cli/adversarial.sh covers the CLI side
 * (exit statuses, files left behind).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

/* "default kill\n" PREFIX, then @n copies of @rep, then SUFFIX: a new string (caller frees). */
static char *repeat(const char *prefix, const char *rep, size_t n, const char *suffix)
{
	size_t lp = strlen(prefix), lr = strlen(rep), ls = strlen(suffix);
	char *s = malloc(lp + lr * n + ls + 1);
	assert_non_null(s);
	memcpy(s, prefix, lp);
	for (size_t i = 0; i < n; i++)
		memcpy(s + lp + i * lr, rep, lr);
	memcpy(s + lp + lr * n, suffix, ls + 1);
	return s;
}

/* Parses @text; expects a refusal whose first error's code is @code and whose messages are short. */
static void expect_policy_refused(const char *text, const char *code)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, diag), -EINVAL);
	assert_null(p);
	assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) >= 1);
	/* Errors come in text order, so the one expected may follow another on the same line
	 * (a name holding a bad byte is also an unknown syscall): it must be among them. */
	const struct scg_diag_entry *found = NULL;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (!found && e->severity == SCG_SEV_ERROR && e->code && !strcmp(e->code, code))
			found = e;
		assert_true(strlen(e->message) < 1024); /* no 100 kB token quoted back */
	}
	if (!found)
		fail_msg("no error with code %s", code);
	scg_diag_free(diag);
}

static void test_deep_nesting(void **state)
{
	(void)state;
	char *s = repeat("default kill\nallow read if ", "(", 100000, "arg0 == 1");
	expect_policy_refused(s, "nesting");
	free(s);
	s = repeat("default kill\nallow read if ", "!", 100000, "arg0 == 1");
	expect_policy_refused(s, "nesting");
	free(s);
}

static void test_long_tokens(void **state)
{
	(void)state;
	char *s = repeat("default kill\nallow ", "a", 100000, "\n");
	expect_policy_refused(s, "too-long");
	free(s);
	s = repeat("default kill\nallow read if arg0 == ", "9", 100000, "\n");
	expect_policy_refused(s, "too-long");
	free(s);
	/* 256 characters are still a name (unknown, but not too long). */
	s = repeat("default kill\nallow ", "a", 256, "\n");
	expect_policy_refused(s, "unknown-syscall");
	free(s);
}

static void test_number_limits(void **state)
{
	(void)state;
	struct scg_policy *p = NULL;
	const char *max = "default kill\narch x86_64\nallow read if arg0 == 18446744073709551615\n";
	assert_int_equal(scg_policy_parse(max, strlen(max), NULL, &p, NULL), 0);
	struct scg_seccomp_data d = { .arch = scg_arch_audit(scg_arch_lookup("x86_64")) };
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup("x86_64"), "read", &d.nr), 0);
	struct scg_verdict v;
	d.args[0] = UINT64_MAX;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_ALLOW);
	d.args[0] = UINT64_MAX - 1;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	expect_policy_refused("default kill\nallow read if arg0 == 18446744073709551616\n", "syntax");
	expect_policy_refused("default kill\nallow read if arg0 == 0x\n", "syntax");
}

static void test_bad_bytes(void **state)
{
	(void)state;
	expect_policy_refused("default kill\nallow re\xff" "ad\n", "utf8");
	static const char nul[] = "default kill\n\0allow read\n";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(nul, sizeof(nul) - 1, NULL, &p, diag), -EINVAL);
	assert_null(p);
	scg_diag_free(diag);
}

static void test_raw_sizes(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 7, 9, 4097 * 8, 65536 * 8 };
	uint8_t *buf = calloc(65536, 8);
	assert_non_null(buf);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct scg_diag *diag = scg_diag_new();
		struct scg_prog prog;
		assert_int_equal(scg_prog_from_raw(buf, sizes[i], "odd.bpf", &prog, diag), -EINVAL);
		assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 1);
		scg_diag_free(diag);
	}
	free(buf);
}

static void test_asm_limits(void **state)
{
	(void)state;
	static const char *const bad[] = { "ret #0x\n", "ret #4294967296\n", "ret #-2147483649\n",
					   "r\xe9t #0\n", "ret #18446744073709551616\n" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct scg_diag *diag = scg_diag_new();
		struct scg_prog prog;
		assert_true(scg_asm(bad[i], strlen(bad[i]), NULL, &prog, diag) < 0);
		assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) >= 1);
		scg_diag_free(diag);
	}
	char *many = repeat("", "ld [0]\n", 4096, "ret #0\n");
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog prog;
	assert_true(scg_asm(many, strlen(many), NULL, &prog, diag) < 0);
	assert_true(scg_diag_count_at_least(diag, SCG_SEV_ERROR) >= 1);
	scg_diag_free(diag);
	free(many);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deep_nesting), cmocka_unit_test(test_long_tokens),
		cmocka_unit_test(test_number_limits), cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_raw_sizes),     cmocka_unit_test(test_asm_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
