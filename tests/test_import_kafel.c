/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kafel importer and exporter (lib/import/kafel*.c): policies written
 * the way kafel's documentation describes its language, their verdicts
 * through the reference evaluator (first matching rule first), the
 * top-level policy kafel compiles, #define and #include, argument names and
 * widths, locations and diagnostics, detection, and policies written back
 * and read again.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/importer.h"

#define AUDIT_X86_64 TEST_AUDIT_X86_64
#define AUDIT_I386 TEST_AUDIT_I386
#define ERRNO(e) (SCG_RET_ERRNO | (e))

#define import(text, file, p, diag) test_import(scg_kafel_import, text, file, p, diag)
#define import_ok(text) test_import_ok(scg_kafel_import, text, "test.kafel")
#define verdict_nr test_verdict_nr
#define verdict test_verdict

static void first_error(const char *text, char *buf, size_t size, char *hint, size_t hsize)
{
	/* kafel stops at the first error */
	assert_int_equal(test_first_error(scg_kafel_import, text, "bad.kafel", buf, size, hint, hsize),
			 1);
}

/* Policies built from others with USE; the top-level statements are what kafel compiles. */
static void policies_and_use(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("/* the basics */\n"
					 "POLICY io {\n"
					 "  ALLOW { read, write, close }\n"
					 "}\n"
					 "POLICY app {\n"
					 "  USE io,\n"
					 "  ERRNO(1) { ptrace, mount },\n"
					 "  KILL_PROCESS { reboot }\n"
					 "}\n"
					 "POLICY unused { ALLOW { ptrace } }\n"
					 "USE app DEFAULT KILL\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "reboot", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_THREAD);
	/* kafel checks one ABI and kills the thread for others; x32 calls get the default */
	assert_int_equal(verdict_nr(p, 3, AUDIT_I386, 0, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
	/* statements at the top level, DEFAULT on its own, no DEFAULT: KILL */
	p = import_ok("ALLOW { read }\nDEFAULT ERRNO(38)\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0), ERRNO(38));
	assert_int_equal(verdict_nr(p, 0x40000000U | 2, AUDIT_X86_64, 0, 0, 0), ERRNO(38));
	scg_policy_free(p);
	p = import_ok("ALLOW { read }\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
}

/* The first rule that matches decides, across blocks. */
static void first_match(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("POLICY p {\n"
					 "  ERRNO(13) { openat(dirfd, path, flags) { flags & 0x3 != 0 } },\n"
					 "  ALLOW { openat, write { fd == 1, fd == 2 } },\n"
					 "  LOG { write },\n"
					 "  TRAP(7) { uname }, TRACE(3) { sync }, USER_NOTIF { setns },\n"
					 "  KILL_THREAD { umount2 }, DENY { mount }\n"
					 "}\nUSE p DEFAULT ALLOW\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 1), ERRNO(13));
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 3, 0, 0), SCG_RET_LOG);
	assert_int_equal(verdict(p, "uname", 0, 0, 0), SCG_RET_TRAP | 7);
	assert_int_equal(verdict(p, "sync", 0, 0, 0), SCG_RET_TRACE | 3);
	assert_int_equal(verdict(p, "setns", 0, 0, 0), SCG_RET_USER_NOTIF);
	assert_int_equal(verdict(p, "umount2", 0, 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "mount", 0, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
}

/* Expressions: every operator, '!', parentheses, masks, '|' of flags, comma as '||'. */
static void expressions(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok(
	    "#define PROT_X 0x4\n"
	    "ALLOW {\n"
	    "  mmap { (prot & PROT_X) == 0 && !(flags & 0x20 == 0) },\n"
	    "  openat(d, name, f) { f == O_RDONLY|O_CLOEXEC, (f & 3) == 0 && d < 100 },\n"
	    "  lseek(fd, off, whence) { fd >= 3 && fd <= 9 && whence > 0 && 10 > off && off != 5 },\n"
	    "  read(fd) { 1 == 1 }, close(fd) { 1 == 2 }\n"
	    "}\nDEFAULT ERRNO(1)\n");
	assert_int_equal(verdict(p, "mmap", 0, 0, 3), ERRNO(1)); /* flags arg3 = 0 */
	struct scg_seccomp_data d = {.nr = 9, .arch = AUDIT_X86_64, .args = {0, 4096, 3, 0x22}};
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_ALLOW);
	d.args[2] = 7;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, ERRNO(1));
	assert_int_equal(verdict(p, "openat", 200, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 200, 0, 0x80001), ERRNO(1));
	assert_int_equal(verdict(p, "openat", 5, 0, 0x40), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "lseek", 3, 4, 1), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "lseek", 3, 5, 1), ERRNO(1));
	assert_int_equal(verdict(p, "lseek", 10, 4, 1), ERRNO(1));
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 0, 0, 0), ERRNO(1));
	scg_policy_free(p);
}

/*
 * '|' on an argument, with kafel's precedence ('&' binds tighter): == and !=
 * become masked comparisons, an ordering of such a value and '|' of two
 * arguments are refused with the rule and the place.
 */
static void or_on_arguments(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("ALLOW {\n"
					 "  openat(d, name, f) { (f | O_CLOEXEC) == O_RDONLY|O_CLOEXEC },\n"
					 "  write { fd & 1 | 2 == 3 },\n"
					 "  close { (fd | 4) != 6 },\n"
					 "  dup { (oldfd | 1) == 2 }\n"
					 "}\nDEFAULT ERRNO(1)\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80001), ERRNO(1));
	/* (fd & 1) | 2, not fd & 3: every odd descriptor */
	assert_int_equal(verdict(p, "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 5, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "close", 3, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 2, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "close", 6, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "dup", 2, 0, 0), ERRNO(1)); /* bit 0 is always set */
	assert_int_equal(verdict(p, "dup", 3, 0, 0), ERRNO(1));
	scg_policy_free(p);
	char msg[512], hint[256];
	first_error("ALLOW {\n  lseek(fd, off, whence) { (off | 1) < 5 }\n}\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:2:28: error: the rule for 'lseek' orders an argument "
				    "with bits '|'-ed in"));
	first_error("ALLOW {\n  write(a, b, c) { a | b == 0 }\n}\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:2:22: error: the rule for 'write' joins an argument "
				    "with another"));
}

/* Masks chain as kafel's grammar lets them, in parentheses or not; '&' of two arguments is
 * refused naming the rule. */
static void chained_masks(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("ALLOW {\n"
					 "  write { fd & 3 & 1 == 1 },\n"
					 "  close { (fd & 7) & 2 != 0 && (fd == 2 || fd == 3) },\n"
					 "  dup { (oldfd == 1) && oldfd != 2 }\n"
					 "}\nDEFAULT ERRNO(1)\n");
	assert_int_equal(verdict(p, "write", 5, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "close", 2, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 6, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "dup", 1, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	char msg[256], hint[256];
	first_error("ALLOW {\n  write(a, b, c) { a & b == 0 }\n}\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:2:22: error: the rule for 'write' masks an argument "
				    "with another"));
}

/* int parameters are read over their low 32 bits, longs and pointers over 64, as kafel does. */
static void argument_widths(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("ALLOW { write { fd == 1 }, lseek { offset == 1 } }\n"
					 "DEFAULT KILL_PROCESS\n");
	assert_int_equal(verdict(p, "write", 1ULL << 32 | 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "lseek", 0, 1ULL << 32 | 1, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* Custom syscalls: #define'd numbers and SYSCALL[n]. */
static void custom_syscalls(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("#define mysyscall 0x1ff\n"
					 "ALLOW { mysyscall, SYSCALL[0x1fe], SYSCALL[0] }\n");
	assert_int_equal(verdict_nr(p, 0x1ff, AUDIT_X86_64, 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict_nr(p, 0x1fe, AUDIT_X86_64, 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
}

static void locations(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("POLICY a {\n  ALLOW {\n    read,\n      write { fd == 1 }\n"
					 "  }\n}\nUSE a DEFAULT KILL\n");
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, 1, &r), 0);
	assert_string_equal(r.syscall, "write");
	assert_string_equal(r.loc.file, "test.kafel");
	assert_int_equal(r.loc.line, 4);
	assert_int_equal(r.loc.column, 7);
	assert_int_equal(r.cond->loc.column, 15);
	scg_policy_free(p);
}

static void diagnostics(void **state)
{
	(void)state;
	char msg[256], hint[256];
	first_error("ALLOW { read, wrtie }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:15: error: undefined syscall 'wrtie'"));
	assert_string_equal(hint, "did you mean 'write'?");
	first_error("ALLOW { write { fdd == 1 } }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:17: error: undefined identifier 'fdd'"));
	assert_string_equal(hint, "did you mean 'fd'?");
	first_error("POLICY a { ALLOW { read } }\nUSE b DEFAULT KILL\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:2:5: error: undefined policy 'b'"));
	first_error("ALLOW { read }\nDEFAULT KILL\nDEFAULT ALLOW\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:3:1: error: second default action"));
	first_error("ERRNO(70000) { read }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "ERRNO value out of range"));
	first_error("ALLOW { write(a, a) { a == 1 } }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:18: error: redefinition of argument 'a'"));
	/* kafel compares two arguments through scratch memory; a condition here cannot */
	first_error("ALLOW { write(a, b) { a == b } }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:23: error: the rule for 'write' compares two "
				    "arguments, which the import cannot express"));
	first_error("POLICY p {\n  ALLOW {\n    read,\n    lseek(fd, off, whence) {\n"
		    "      fd == 1 || off < whence\n    }\n  }\n}\nUSE p\n",
		    msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:5:18: error: the rule for 'lseek' compares two"));
	assert_non_null(strstr(hint, "compare an argument with a constant"));
	first_error("ALLOW { write(a) { a & 3 } }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "expected a comparison operator"));
	first_error("/* open\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:1: error: unterminated comment"));
	first_error("#include \"/nonexistent.policy\"\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:10: error: cannot include '/nonexistent.policy'"));
	first_error("ALLOW { read ON x86_64 }\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:1:14: error: an architecture guard (ON ...) is not "
				    "kafel syntax"));
	assert_non_null(strstr(hint, "kafel_set_target_arch()"));
	/* a constant defined again: the same value is fine, as in kafel; another is an error */
	struct scg_policy *p = import_ok("#define X 1\n#define X 1\nALLOW { write { fd == X } }\n");
	assert_int_equal(verdict(p, "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
	first_error("#define X 1\n#define X 2\nALLOW { read }\n", msg, sizeof(msg), hint,
		    sizeof(hint));
	assert_non_null(strstr(msg, "bad.kafel:2:9: error: redefinition of constant 'X' with a "
				    "different value (was 1, is 2)"));
}

#define write_file test_write_file

/* #include "a" "b"; files are read beside the including file, their rules keep their lines. */
static void includes(void **state)
{
	(void)state;
	char dir[] = "/tmp/syscage-kafel-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *a = write_file(dir, "a.policy", "#define ONE 1\nPOLICY io { ALLOW { read } }\n");
	char *b = write_file(dir, "b.policy", "POLICY out { ALLOW { write { fd == ONE } } }\n");
	char *top = write_file(dir, "top.kafel", "");
	const char *text = "#include \"a.policy\" \"b.policy\"; USE io, USE out\n";
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = top;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_kafel_import(text, strlen(text), &o, &p, diag), 0);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_KILL_THREAD);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, 1, &r), 0);
	assert_string_equal(r.loc.file, b);
	assert_int_equal(r.loc.line, 1);
	scg_policy_free(p);
	scg_diag_free(diag);
	unlink(a);
	unlink(b);
	unlink(top);
	rmdir(dir);
	free(a);
	free(b);
	free(top);
}

static void detection(void **state)
{
	(void)state;
	const char *yes[] = {"POLICY a { ALLOW { read } }\n", "USE a DEFAULT KILL\n",
			     "#define X 1\n", "ALLOW {\n read\n}\n", "  ERRNO(1) { ptrace }\n"};
	const char *no[] = {"allow read\n", "read: 1\n", "[Service]\nSystemCallFilter=read\n",
			    "seccomp.drop ptrace\n", "{\"defaultAction\": 1}\n"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(scg_kafel_detect(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(scg_kafel_detect(no[i], strlen(no[i])));
}

static void same_verdicts(const struct scg_policy *a, const struct scg_policy *b)
{
	static const uint64_t vals[] = {0, 1, 2, 3, 4, 5, 0x40, 0x80000, 1ULL << 32 | 1};
	test_same_verdicts(a, b, vals, sizeof(vals) / sizeof(vals[0]));
}

static void round_trip(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok(
	    "POLICY p {\n"
	    "  ERRNO(13) { openat(d, path, flags) { (flags & 3) != 0 || !(d < 100) } },\n"
	    "  ALLOW { openat, write { fd == 1, fd == 2 }, lseek { offset > 4 } },\n"
	    "  LOG { write }, TRAP(7) { uname, SYSCALL[0x1ff] }\n"
	    "}\nUSE p DEFAULT ERRNO(1)\n");
	char *text;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_kafel_export(p, &text, diag), 0);
	struct scg_policy *q = import_ok(text);
	same_verdicts(p, q);
	free(text);
	scg_policy_free(q);
	scg_policy_free(p);
	scg_diag_free(diag);
}

static void export_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *policy, *message;
	} cases[] = {
	    {"arch x86_64\ndefault allow\nbadarch kill-process\n",
	     "kafel kills the thread for calls of other ABIs"},
	    {"arch x86_64\ndefault allow\nbadarch kill-thread\n",
	     "kafel gives x32 calls the default"},
	    {"arch x86_64, x86\ndefault kill-thread\nbadarch kill-thread\n",
	     "kafel filters one ABI"},
	    {"arch x86_64, x32\ndefault allow\nbadarch kill-thread\nerrno(EPERM) ptrace\n",
	     "a rule for ptrace applies to x32 calls"},
	    {"arch x86_64\ndefault kill-thread\nbadarch kill-thread\nallow write if arg0 == 1\n",
	     "a condition on 'write' compares an argument over a width kafel does not"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_export_refused(scg_kafel_export, cases[i].policy, cases[i].message, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(policies_and_use), cmocka_unit_test(first_match),
	    cmocka_unit_test(expressions),	cmocka_unit_test(chained_masks), cmocka_unit_test(or_on_arguments),
	    cmocka_unit_test(argument_widths),
	    cmocka_unit_test(custom_syscalls),	cmocka_unit_test(locations),
	    cmocka_unit_test(diagnostics),	cmocka_unit_test(includes),
	    cmocka_unit_test(detection),	cmocka_unit_test(round_trip),
	    cmocka_unit_test(export_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
