// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every parser under allocation failure: the test binary is linked with
 * --wrap=malloc,calloc,realloc, so the library's own calls go through the
 * counters below.  Each input is parsed once to count its allocations, then
 * once per allocation with that one failing.  Each run must give the
 * undisturbed result or -ENOMEM, never a different verdict on the input
 * (an "unknown constant" because a scratch list could not be allocated),
 * and, under the sanitizer build, leak nothing.  Allocations libc makes for
 * itself (strdup, fopen) are not counted: they are covered only when they
 * succeed.
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

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static long calls;	     /* allocations seen since the run began */
static long fail_at = -1;    /* the call number that fails, or -1 */

static bool should_fail(void)
{
	return ++calls == fail_at;
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

typedef int (*parse_fn)(const char *text, size_t len, struct scg_policy **out,
			struct scg_diag *diag);

/* One parse with allocation @failing failing (-1: none); *@text gets the policy as text. */
static int run_once(parse_fn parse, const char *input, long failing, char **text)
{
	calls = 0;
	fail_at = failing;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	int r = diag ? parse(input, strlen(input), &policy, diag) : -ENOMEM;
	fail_at = -1;
	*text = NULL;
	if (r == 0) {
		assert_non_null(policy);
		assert_int_equal(scg_policy_to_text(policy, text), 0);
	} else {
		assert_null(policy);
	}
	scg_policy_free(policy);
	scg_diag_free(diag);
	return r;
}

/*
 * Fails each allocation of one parse in turn; returns how many ran out of
 * memory.  A parse that still succeeds must give the same policy: a
 * condition lost to a failed allocation would allow more than the input.
 */
static long fail_each(parse_fn parse, const char *input, int expected)
{
	char *reference;
	assert_int_equal(run_once(parse, input, -1, &reference), expected);
	long total = calls;
	assert_true(total > 0);
	long nomem = 0;
	for (long k = 1; k <= total; k++) {
		char *text;
		int r = run_once(parse, input, k, &text);
		if (r != expected && r != -ENOMEM)
			fail_msg("allocation %ld of %ld failing gave %d, not %d or -ENOMEM", k,
				 total, r, expected);
		if (r == 0 && (!reference || strcmp(text, reference)))
			fail_msg("allocation %ld of %ld failing gave another policy:\n%s", k,
				 total, text);
		free(text);
		nomem += r == -ENOMEM;
	}
	free(reference);
	return nomem;
}

static int parse_policy(const char *text, size_t len, struct scg_policy **out,
			struct scg_diag *diag)
{
	return scg_policy_parse(text, len, NULL, out, diag);
}

#define IMPORTER(name)                                                                      \
	static int parse_##name(const char *text, size_t len, struct scg_policy **out,      \
				struct scg_diag *diag)                                      \
	{                                                                                   \
		struct scg_import_options opts;                                             \
		scg_import_options_init(&opts);                                             \
		return scg_##name##_import(text, len, &opts, out, diag);                    \
	}
IMPORTER(kafel)
IMPORTER(minijail)
IMPORTER(systemd)
IMPORTER(firejail)

static void test_policy_language(void **state)
{
	(void)state;
	const char *good = "arch x86_64\n"
			   "default kill\n"
			   "allow read, write, close\n"
			   "allow openat if (flags & O_CREAT) == 0\n"
			   "errno(EACCES) socket if domain in {AF_INET, AF_INET6}\n"
			   "allow @signal\n";
	assert_true(fail_each(parse_policy, good, 0) > 0);
	assert_true(fail_each(parse_policy, "arch x86_64\nallow opneat\n", -EINVAL) > 0);
}

static void test_kafel(void **state)
{
	(void)state;
	const char *good = "#define MYFLAGS 0x42\n"
			   "POLICY p {\n"
			   "  ALLOW { read, write, close },\n"
			   "  ERRNO(1) { openat(dirfd, path, flags) { (flags & O_CREAT) == 0 } },\n"
			   "  ALLOW { mmap(addr, len, prot) { (prot & PROT_EXEC) == 0 && len != MYFLAGS } },\n"
			   "  ALLOW { close(fd) { !(fd == 3) } }\n"
			   "}\n"
			   "USE p DEFAULT KILL\n";
	assert_true(fail_each(parse_kafel, good, 0) > 0);
	assert_true(fail_each(parse_kafel, "POLICY p { ALLOW { read(fd) { fd == NO_SUCH } } }\n"
					   "USE p DEFAULT KILL\n",
			      -EINVAL) > 0);
}

static void test_minijail(void **state)
{
	(void)state;
	const char *good = "read: 1\n"
			   "write: arg0 == 1 || arg0 == 2\n"
			   "openat: arg2 & O_CREAT\n"
			   "socket: arg0 == AF_INET; return EACCES\n"
			   "close: 1\n";
	assert_true(fail_each(parse_minijail, good, 0) > 0);
	assert_true(fail_each(parse_minijail, "read: arg0 == NO_SUCH_CONSTANT\n", -EINVAL) > 0);
}

static void test_systemd(void **state)
{
	(void)state;
	const char *good = "[Service]\n"
			   "SystemCallFilter=@system-service\n"
			   "SystemCallFilter=~@mount\n"
			   "SystemCallErrorNumber=EPERM\n"
			   "RestrictAddressFamilies=AF_UNIX AF_INET\n";
	assert_true(fail_each(parse_systemd, good, 0) > 0);
	/* a deny list: a family lost to a failed allocation would be allowed */
	const char *deny = "[Service]\n"
			   "SystemCallFilter=~@mount @clock\n"
			   "SystemCallArchitectures=native\n"
			   "RestrictAddressFamilies=~AF_PACKET AF_NETLINK\n"
			   "RestrictNamespaces=~user net\n"
			   "MemoryDenyWriteExecute=yes\n"
			   "LockPersonality=yes\n";
	assert_true(fail_each(parse_systemd, deny, 0) > 0);
	assert_true(fail_each(parse_systemd, "[Service]\nSystemCallFilter=~@clok\n  not a setting\n",
			      -EINVAL) > 0);
}

static void test_firejail(void **state)
{
	(void)state;
	assert_true(fail_each(parse_firejail, "seccomp.drop mount,umount2,@clock\n", 0) > 0);
	assert_true(fail_each(parse_firejail, "seccomp.drop mount\nseccomp-error-action bogus\n", -EINVAL) > 0);
}

/*
 * The compiler with each allocation failing: -ENOMEM or the very same
 * program, never a filter that decides differently.
 */
static void test_compile(void **state)
{
	(void)state;
	const char *text = "arch x86_64, x32, i386\n"
			   "default errno(EPERM)\n"
			   "allow read, write, close, exit_group, futex, mmap, munmap\n"
			   "allow openat if (flags & O_CREAT) == 0\n"
			   "allow socket if domain in {AF_UNIX, AF_INET} && type == SOCK_STREAM\n"
			   "kill ptrace\n"
			   "allow @signal\n";
	struct scg_policy *policy = NULL;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &policy, diag), 0);
	struct scg_prog reference = {0};
	calls = 0;
	assert_int_equal(scg_compile(policy, NULL, &reference, diag), 0);
	long total = calls, nomem = 0;
	for (long k = 1; k <= total; k++) {
		struct scg_prog prog = {0};
		struct scg_diag *d = scg_diag_new();
		assert_non_null(d);
		calls = 0;
		fail_at = k;
		int r = scg_compile(policy, NULL, &prog, d);
		fail_at = -1;
		if (r == 0 && (prog.len != reference.len ||
			       memcmp(prog.insns, reference.insns, prog.len * sizeof(*prog.insns))))
			fail_msg("allocation %ld of %ld failing gave another program", k, total);
		if (r != 0 && r != -ENOMEM)
			fail_msg("allocation %ld of %ld failing gave %d", k, total, r);
		nomem += r == -ENOMEM;
		scg_prog_release(&prog);
		scg_diag_free(d);
	}
	assert_true(nomem > 0);
	scg_prog_release(&reference);
	scg_policy_free(policy);
	scg_diag_free(diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_language),
		cmocka_unit_test(test_kafel),
		cmocka_unit_test(test_minijail),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_firejail),
		cmocka_unit_test(test_compile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
