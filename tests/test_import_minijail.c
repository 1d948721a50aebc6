/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The minijail importer and exporter (lib/import/minijail*.c): policies
 * written the way minijail0(5) describes them, their verdicts through the
 * reference evaluator, @include and @frequency beside the file, locations
 * and diagnostics, detection, and policies written back and read again.
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

#define import(text, file, p, diag) test_import(scg_minijail_import, text, file, p, diag)
#define import_ok(text) test_import_ok(scg_minijail_import, text, "test.policy")
#define verdict test_verdict

/* The first error's text ("file:line:col: error: ..."), for the diagnostics checks. */
static void first_error(const char *text, char *buf, size_t size, char *hint, size_t hsize)
{
	test_first_error(scg_minijail_import, text, "bad.policy", buf, size, hint, hsize);
}

/* A malformed policy and the first error it must get: where, and what it says. */
struct bad_policy {
	const char *text, *where, *message;
};

static void expect_errors(const struct bad_policy *bad, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char msg[256], hint[256];
		first_error(bad[i].text, msg, sizeof(msg), hint, sizeof(hint));
		if (strncmp(msg, bad[i].where, strlen(bad[i].where)) || !strstr(msg, bad[i].message))
			fail_msg("'%s': got '%s', wanted %s ... %s", bad[i].text, msg, bad[i].where,
				 bad[i].message);
	}
}

/* A policy in the manner of minijail0(5): "1" allows, the rest kills the process. */
static void allow_lines_and_default(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("# a small reader\n"
					 "read: 1\n"
					 "write: allow\n"
					 "exit_group: 1\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	/* minijail checks one ABI; other ABIs are killed too */
	struct scg_seccomp_data d = {.nr = 3, .arch = AUDIT_I386};
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* Atoms of every operator, || between && groups, '; return' for the calls refused. */
static void argument_filters(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok(
	    "openat: arg2 in O_RDONLY|O_CLOEXEC|O_DIRECTORY; return EACCES\n"
	    "fcntl: arg1 == F_GETFL || arg1 == F_SETFD && arg2 & FD_CLOEXEC\n"
	    "mmap: arg2 in ~PROT_EXEC || arg2 in ~PROT_WRITE\n"
	    "lseek: arg2 <= 2 && arg0 > 2 && arg0 >= 3 && arg0 < 100 && arg1 != 7\n"
	    "ioctl: arg1 == TCGETS; return ENOTTY\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0x40), ERRNO(13)); /* O_CREAT */
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000 | 1), ERRNO(13)); /* O_WRONLY */
	assert_int_equal(verdict(p, "fcntl", 3, 3, 0), SCG_RET_ALLOW);		  /* F_GETFL */
	assert_int_equal(verdict(p, "fcntl", 3, 2, 1), SCG_RET_ALLOW);		  /* F_SETFD */
	assert_int_equal(verdict(p, "fcntl", 3, 2, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "mmap", 0, 4096, 3), SCG_RET_ALLOW); /* RW */
	assert_int_equal(verdict(p, "mmap", 0, 4096, 5), SCG_RET_ALLOW); /* RX */
	assert_int_equal(verdict(p, "mmap", 0, 4096, 7), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "lseek", 5, 0, 1), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "lseek", 5, 7, 1), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "lseek", 2, 0, 1), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "lseek", 5, 0, 3), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "ioctl", 1, 0x5401, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "ioctl", 1, 0x5402, 0), ERRNO(25));
	/* the comparison is over the whole register */
	assert_int_equal(verdict(p, "ioctl", 1, 1ULL << 32 | 0x5401, 0), ERRNO(25));
	scg_policy_free(p);
}

/* Whole-line actions: return, kill, trap, trace, log, user-notify; a bare return is the default. */
static void actions(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("ptrace: return EPERM\n"
					 "mount: kill\n"
					 "umount2: kill-thread\n"
					 "reboot: trap\n"
					 "kexec_load: trace\n"
					 "uname: log\n"
					 "setns: user-notify\n"
					 "unshare: return\n"
					 "sethostname: arg1 < 8; kill-thread\n"
					 "0: 1\n");
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "mount", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "umount2", 0, 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "reboot", 0, 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "kexec_load", 0, 0, 0), SCG_RET_TRACE);
	assert_int_equal(verdict(p, "uname", 0, 0, 0), SCG_RET_LOG);
	assert_int_equal(verdict(p, "setns", 0, 0, 0), SCG_RET_USER_NOTIF);
	assert_int_equal(verdict(p, "unshare", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "sethostname", 0, 4, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "sethostname", 0, 9, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW); /* "0:" is read's number */
	scg_policy_free(p);
}

/* Rules keep the line and column they were written at; '\' continues a line. */
static void locations(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("read: 1\n"
					 "\n"
					 "  write: \\\n"
					 "     arg0 == 1; return EBADF\n");
	assert_int_equal(scg_policy_rule_count(p), 3);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, 1, &r), 0);
	assert_string_equal(r.loc.file, "test.policy");
	assert_int_equal(r.loc.line, 3);
	assert_int_equal(r.loc.column, 3);
	assert_int_equal(r.cond->loc.line, 4);
	assert_int_equal(r.cond->loc.column, 6);
	assert_int_equal(scg_policy_rule_at(p, 2, &r), 0); /* the refusal: at its 'return' */
	assert_int_equal(r.loc.line, 4);
	assert_int_equal(r.loc.column, 17);
	assert_int_equal(r.action, ERRNO(9));
	scg_policy_free(p);
}

static void diagnostics(void **state)
{
	(void)state;
	char msg[256], hint[128];
	first_error("read: 1\nwrtie: 1\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:2:1: error: unknown syscall 'wrtie'"));
	assert_string_equal(hint, "did you mean 'write'?");
	first_error("read: arg7 == 1\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:10: error: no argument"));
	first_error("read: arg0 =~ 1\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:12: error: expected an operator"));
	first_error("read: arg0 == O_RDONLI\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:15: error:"));
	assert_non_null(strstr(hint, "O_RDONLY"));
	first_error("read: arg0 == 1; retrun EPERM\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:18: error: expected an action after ';'"));
	first_error("read 1\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:1: error: expected ':'"));
	first_error("@inclde foo\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "unknown directive '@inclde'"));
	first_error("@include /nonexistent/x.policy\n", msg, sizeof(msg), hint, sizeof(hint));
	assert_non_null(strstr(msg, "bad.policy:1:10: error: cannot read '/nonexistent/x.policy'"));
	/* a syscall listed twice: the first line decides, with a warning */
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(import("read: return EPERM\nread: 1\n", "t.policy", &p, diag), 0);
	assert_int_equal(scg_diag_count(diag), 1);
	assert_int_equal(scg_diag_get(diag, 0)->severity, SCG_SEV_WARNING);
	assert_int_equal(verdict(p, "read", 0, 0, 0), ERRNO(1));
	scg_policy_free(p);
	scg_diag_free(diag);
}

/* Places stay exact after blank lines, tabs, CRLF line ends and a continuation. */
static void locations_after_blanks(void **state)
{
	(void)state;
	static const struct bad_policy bad[] = {
		{"\r\n\tread:\t1\r\n\t\twrtie: 1\r\n", "bad.policy:3:3:", "unknown syscall 'wrtie'"},
		{"read:\targ0\t==\tO_RDONLI\r\n", "bad.policy:1:15:", "O_RDONLI"},
		{"\n  write: \\\n\t arg7 == 1\r\n", "bad.policy:3:6:", "no argument"},
		{"read: arg0 == 1;\t \tretrun EPERM\r\n", "bad.policy:1:20:", "expected an action"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

#define write_file test_write_file

/* @include and @frequency name files beside the including one. */
static void include_and_frequency(void **state)
{
	(void)state;
	char dir[] = "/tmp/syscage-minijail-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *common = write_file(dir, "common.policy", "read: 1\nwrite: 1\n");
	char *freq = write_file(dir, "app.frequency",
				"# counts\nread: 40\nwrite: 2\nread: 2\n"
				"mmap2[arch=arm]: 7\nread[arch=arm]: 100\n");
	char *main = write_file(dir, "app.policy", "");
	const char *text = "@include ./common.policy\n@frequency ./app.frequency\nclose: 1\n";
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = main;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_minijail_import(text, strlen(text), &o, &p, diag), 0);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 0, 0, 0), SCG_RET_ALLOW);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, 0, &r), 0);
	assert_string_equal(r.loc.file, common); /* the included file's own line */
	assert_int_equal(r.loc.line, 1);
	scg_policy_free(p);
	struct scg_import_count *counts;
	size_t n;
	assert_int_equal(scg_minijail_frequency(text, strlen(text), &o, &counts, &n, diag), 0);
	assert_int_equal(n, 2);
	assert_string_equal(counts[0].name, "read");
	assert_int_equal(counts[0].count, 42); /* lines tagged for other ABIs left out */
	assert_int_equal(counts[1].count, 2);
	scg_import_counts_free(counts, n);
	/* a bad count is an error at its place in the frequency file */
	FILE *f = fopen(freq, "w");
	fputs("read: many\n", f);
	fclose(f);
	assert_int_equal(scg_minijail_import(text, strlen(text), &o, &p, diag), -EINVAL);
	assert_null(p);
	char msg[256];
	scg_diag_format(scg_diag_get(diag, scg_diag_count(diag) - 1), msg, sizeof(msg));
	assert_non_null(strstr(msg, "app.frequency:1:7: error: bad count for 'read'"));
	scg_diag_free(diag);
	unlink(common);
	unlink(freq);
	unlink(main);
	rmdir(dir);
	free(common);
	free(freq);
	free(main);
}

/* minijail0(5)'s forms one by one: the documented ones import, each malformed one is an error
 * at its file:line:col. */
static void documented_forms(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("read: 1\n"
					 "write: arg0 in 0x3\n"
					 "close: return 1\n"
					 "dup: return EBADF\n"
					 "lseek: arg0 != 1 && arg1 == 2 || arg2 == 3\n"
					 "openat: arg2 == O_RDONLY|O_CLOEXEC\n"
					 "fcntl: arg1 == -1\n"
					 "umask: kill-process\n"
					 "mount: kill\n"
					 "umount2: kill-thread\n"
					 "sync: trap\n"
					 "syncfs: trace\n"
					 "uname: log\n"
					 "setns: user-notify\n");
	assert_int_equal(verdict(p, "write", 3, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 4, 0, 0), SCG_RET_KILL_PROCESS); /* a bit outside 0x3 */
	assert_int_equal(verdict(p, "close", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "dup", 0, 0, 0), ERRNO(9));
	assert_int_equal(verdict(p, "lseek", 0, 2, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "lseek", 1, 2, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "lseek", 1, 0, 3), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "fcntl", 0, UINT64_MAX, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "umask", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "umount2", 0, 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "sync", 0, 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "syncfs", 0, 0, 0), SCG_RET_TRACE);
	assert_int_equal(verdict(p, "uname", 0, 0, 0), SCG_RET_LOG);
	assert_int_equal(verdict(p, "setns", 0, 0, 0), SCG_RET_USER_NOTIF);
	scg_policy_free(p);

	static const struct bad_policy bad[] = {
	    {"read: 1\nwrite: arg0 ==\n", "bad.policy:2:15:", "expected a value"},
	    {"read: arg0 == 1 ||\n", "bad.policy:1:19:", "expected an argument"},
	    {"read: arg0 == 1 && && arg1 == 2\n", "bad.policy:1:20:", "expected an argument"},
	    {"read: arg0 in\n", "bad.policy:1:12:", "expected an operator"},
	    {"read: arg0 == O_RDONLY|\n", "bad.policy:1:15:", "expected a number or a constant"},
	    {"read: arg0 == 1 | | 2\n", "bad.policy:1:15:", "expected a number or a constant"},
	    {"read: arg0 == 1 trailing\n", "bad.policy:1:15:", "expected the end of the value"},
	    {"read: arg0 == 0x1ffffffffffffffff\n", "bad.policy:1:15:", "number out of range"},
	    {"read: (arg0 == 1)\n", "bad.policy:1:7:", "expected an argument"},
	    {"read: !arg0\n", "bad.policy:1:7:", "expected an argument"},
	    {"read: 2\n", "bad.policy:1:7:", "expected an argument"},
	    {"read: arg0 == 1;\n", "bad.policy:1:17:", "expected an action after ';'"},
	    {"read: return EPREM\n", "bad.policy:1:14:", "unknown constant 'EPREM'"},
	    {"read: return 70000\n", "bad.policy:1:14:", "errno value 70000 is out of range"},
	    {": 1\n", "bad.policy:1:1:", "expected a syscall name"},
	    {"read:\n", "bad.policy:1:5:", "no filter after 'read:'"},
	    {"@include\n", "bad.policy:1:9:", "expected a path"},
	    {"@frequency\n", "bad.policy:1:11:", "expected a path"},
	    /* headers and directives minijail does not have are refused, not ignored */
	    {"@denylisted\nread: return EPERM\n", "bad.policy:1:1:", "unknown directive '@denylisted'"},
	    {"@allowlist\nread: 1\n", "bad.policy:1:1:", "unknown directive '@allowlist'"},
	    {"@defaults kill\nread: 1\n", "bad.policy:1:1:", "unknown directive '@defaults'"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* "@default ACTION" of minijail's Python compiler: the calls no line names, those an argument
 * filter leaves and a bare return get it, wherever it stands; the last one decides. */
static void default_directive(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("read: 1\n"
					 "write: arg0 == 1\n"
					 "close: arg0 == 3; return EBADF\n"
					 "dup: return\n"
					 "@default kill-thread\n"
					 "{fstat, lstat}: arg1 == 0\n"
					 "@default trap\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "close", 4, 0, 0), ERRNO(9));
	assert_int_equal(verdict(p, "dup", 0, 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "lstat", 0, 1, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "getpid", 0, 0, 0), SCG_RET_TRAP);
	assert_int_equal(scg_policy_default(p), SCG_RET_TRAP);
	/* other ABIs stay killed; each rule keeps its line */
	assert_int_equal(scg_policy_badarch(p), SCG_RET_KILL_PROCESS);
	struct scg_rule r;
	scg_policy_rule_at(p, 1, &r);
	assert_string_equal(r.syscall, "write");
	assert_int_equal(r.loc.line, 2);
	assert_non_null(r.cond);
	assert_int_equal(r.cond->loc.column, 8);
	scg_policy_free(p);
	p = import_ok("@default user-notify\nread: 1\n");
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_USER_NOTIF);
	scg_policy_free(p);
	p = import_ok("@default kill\nread: arg0 == 1\n");
	assert_int_equal(verdict(p, "read", 2, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);

	static const struct bad_policy bad[] = {
	    {"@default log\nread: 1\n", "bad.policy:1:10:", "'log' is no default"},
	    {"@default allow\n", "bad.policy:1:10:", "'allow' is no default"},
	    {"@default return EPERM\n", "bad.policy:1:10:", "'return' is no default"},
	    {"@default\n", "bad.policy:1:9:", "expected an action after @default"},
	    {"@default kill-thread now\n", "bad.policy:1:22:", "unexpected text after the action"},
	    {"@default kil\n", "bad.policy:1:10:", "unknown default action 'kil'"},
	    {"@denylist\n@default trap\nread: return 1\n", "bad.policy:2:1:",
	     "@default in a @denylist policy"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
	/* a list after an earlier error is still checked: both errors reported */
	struct scg_diag *diag = scg_diag_new();
	p = NULL;
	assert_int_equal(import("read: foo\nwrite: {arg0 == 1, bar}\n", "two.policy", &p, diag),
			 -EINVAL);
	assert_int_equal(scg_diag_count(diag), 2);
	char msg[256];
	scg_diag_format(scg_diag_get(diag, 1), msg, sizeof(msg));
	assert_non_null(strstr(msg, "two.policy:2:20: error:"));
	scg_diag_free(diag);
}

/* "name[arch=...]" tags of minijail's Python compiler: a line or a set's name for other ABIs
 * is left out, its name unchecked, its filter still checked; other keys are read and left. */
static void arch_tags(void **state)
{
	(void)state;
	const char *abi = scg_arch_name(scg_arch_native());
	char text[512];
	snprintf(text, sizeof(text),
		 "mmap2[arch=arm, i386]: 1\n"
		 "read [ arch = %s ; owner=me ] : 1\n"
		 "write[arch=arm,%s]: arg0 == 1\n"
		 "{openat, open[arch=arm], fstat64[arch=i386]}: return EPERM\n"
		 "{fstatat64[arch=arm], lstat64[arch=arm]}: 1\n"
		 "close[owner=me]: 1\n"
		 "dup[arch=%s]: 1\n",
		 abi, abi, scg_arch_aliases(scg_arch_native())[0] ? scg_arch_aliases(scg_arch_native())[0] : abi);
	struct scg_policy *p = import_ok(text);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "openat", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "open", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "close", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "dup", 0, 0, 0), SCG_RET_ALLOW); /* an alias names it too */
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		assert_true(strcmp(r.syscall, "open") && strcmp(r.syscall, "mmap2") &&
			    strcmp(r.syscall, "lstat64"));
	}
	scg_policy_free(p);

	static const struct bad_policy bad[] = {
	    {"read[arch=x86_64: 1\n", "bad.policy:1:5:", "unclosed '['"},
	    {"read[arch]: 1\n", "bad.policy:1:10:", "expected '=' after the key"},
	    {"read[=x86_64]: 1\n", "bad.policy:1:6:", "expected a key"},
	    {"read[arch=]: 1\n", "bad.policy:1:11:", "expected a value"},
	    {"read[arch=arm,]: 1\n", "bad.policy:1:15:", "expected a value"},
	    {"read[arch=arm; arch=i386]: 1\n", "bad.policy:1:16:", "key given twice"},
	    {"read[arch=arm] x: 1\n", "bad.policy:1:16:", "expected ':' after the tag"},
	    {"read[arch=arm i386]: 1\n", "bad.policy:1:15:", "expected ',', ';' or ']'"},
	    {"[arch=arm]: 1\n", "bad.policy:1:1:", "expected a syscall name"},
	    {"{read[arch=arm write}: 1\n", "bad.policy:1:16:", "expected ',', ';' or ']'"},
	    /* a line for other ABIs: its name is theirs, its filter still has to be one */
	    {"mmap2[arch=arm]: arg0 ==\n", "bad.policy:1:25:", "expected a value"},
	    {"{mmap2[arch=arm], fstat64[arch=arm]}: arg9 == 1\n", "bad.policy:1:42:",
	     "no argument 'arg9'"},
	    {"wrte[arch=x86_64, i386, arm, aarch64]: 1\n", "bad.policy:1:1:", "unknown syscall 'wrte'"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* "{filter, filter}" lists of minijail's Python compiler: each filter's action for the calls it
 * matches, in order, then the default; as there, "; ACTION" inside them is what a match gets. */
static void filter_lists(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("read: {arg0 == 0, arg0 == 1; return EPERM, trap}\n"
					 "write: { arg0 == 1; return EBADF , arg0 == 2 }\n"
					 "{close, dup}: {arg0 == 3 && arg1 == 0; kill-thread, allow}\n"
					 "fstat: {arg0 == 1, return}\n"
					 "@default user-notify\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "read", 1, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "read", 2, 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "write", 1, 0, 0), ERRNO(9));
	assert_int_equal(verdict(p, "write", 2, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 3, 0, 0), SCG_RET_USER_NOTIF); /* the default */
	assert_int_equal(verdict(p, "close", 3, 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "dup", 3, 1, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "fstat", 2, 0, 0), SCG_RET_USER_NOTIF);
	/* each filter keeps its column, so reports name it */
	struct scg_rule r;
	scg_policy_rule_at(p, 1, &r);
	assert_int_equal(r.action, ERRNO(1));
	assert_int_equal(r.loc.line, 1);
	assert_int_equal(r.loc.column, 19);
	scg_policy_free(p);
	/* in a @denylist policy the calls no filter matches are allowed */
	p = import_ok("@denylist\nopenat: {arg2 & O_CREAT; return EACCES, arg2 & O_TRUNC; return EPERM}\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0x40), ERRNO(13));
	assert_int_equal(verdict(p, "openat", 0, 0, 0x200), ERRNO(1));
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);

	static const struct bad_policy bad[] = {
	    {"read: {}\n", "bad.policy:1:8:", "expected a filter"},
	    {"read: {allow,}\n", "bad.policy:1:14:", "expected a filter"},
	    {"read: {arg0 == 1,, allow}\n", "bad.policy:1:18:", "expected a filter"},
	    {"read: {allow, arg0 == 1}\n", "bad.policy:1:15:", "never reached"},
	    {"read: {arg0 == 1\n", "bad.policy:1:7:", "unclosed '{'"},
	    {"read: {arg0 == 1} x\n", "bad.policy:1:19:", "text after the list's '}'"},
	    {"read: {arg0 == 1, {allow}}\n", "bad.policy:1:19:", "lists do not nest"},
	    {"read: {arg0 == 1;}\n", "bad.policy:1:18:", "expected an action after ';'"},
	    {"read: {arg0 == 1; allwo}\n", "bad.policy:1:19:", "expected an action after ';'"},
	    {"read: {arg9 == 1}\n", "bad.policy:1:11:", "no argument 'arg9'"},
	    {"read: {arg12345 == 1}\n", "bad.policy:1:11:", "no argument 'arg12345'"},
	    {"@denylist\nread: {arg0 == 1; kill}\n", "bad.policy:2:19:",
	     "takes 'return ERRNO' only"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* "{a, b}: filter" is one line per name: verdicts, locations, the first line of a name decides. */
static void syscall_sets(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(import("{read, write,openat}: 1\n"
				"{ close ,\\\n"
				"  dup }:arg0 == 3; return EBADF\n"
				"{kill}: return EPERM\n"
				"{ptrace}: kill-thread\n"
				"{write, fstat}: return EACCES\n",
				"t.policy", &p, diag),
			 0);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_ALLOW); /* its first line decides */
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 3, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 4, 0, 0), ERRNO(9));
	assert_int_equal(verdict(p, "dup", 3, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "dup", 4, 0, 0), ERRNO(9));
	assert_int_equal(verdict(p, "kill", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "fstat", 0, 0, 0), ERRNO(13));
	assert_int_equal(verdict(p, "mmap", 0, 0, 0), SCG_RET_KILL_PROCESS);
	/* write, second time: a warning at its name in the set */
	assert_int_equal(scg_diag_count(diag), 1);
	char msg[256];
	scg_diag_format(scg_diag_get(diag, 0), msg, sizeof(msg));
	assert_non_null(strstr(msg, "t.policy:6:2: warning:"));
	assert_non_null(strstr(msg, "'write' has a line already"));
	/* each rule keeps its name's place: dup on the continued line, column 3 */
	bool seen = false;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		if (r.syscall && !strcmp(r.syscall, "dup") && r.cond) {
			assert_int_equal(r.loc.line, 3);
			assert_int_equal(r.loc.column, 3);
			assert_int_equal(r.cond->loc.line, 3);
			assert_int_equal(r.cond->loc.column, 9);
			seen = true;
		}
	}
	assert_true(seen);
	scg_policy_free(p);
	scg_diag_free(diag);

	static const struct {
		const char *text, *where, *message, *hint;
	} bad[] = {
	    {"{read, wrtie}: 1\n", "bad.policy:1:8:", "unknown syscall 'wrtie'", "did you mean 'write'?"},
	    {"read: 1\n{ }: 1\n", "bad.policy:2:3:", "empty syscall set", NULL},
	    {"{read, write,}: 1\n", "bad.policy:1:14:", "expected a syscall name after ','", NULL},
	    {"{read,,write}: 1\n", "bad.policy:1:7:", "expected a syscall name", NULL},
	    {"{read, {write}}: 1\n", "bad.policy:1:8:", "sets do not nest", NULL},
	    {"{read write}: 1\n", "bad.policy:1:7:", "expected ',' or '}'", NULL},
	    {"{read, write: 1\n", "bad.policy:1:1:", "unclosed '{'", NULL},
	    {"{read, write} 1\n", "bad.policy:1:15:", "expected ':' after the set", NULL},
	    {"{read, 1}: 1\n", "bad.policy:1:8:", "syscall number 1 in a set", NULL},
	    {"{read, file@io}: 1\n", "bad.policy:1:8:", "syscall group 'file@io' is not read", NULL},
	    {"{read}:\n", "bad.policy:1:7:", "no filter after 'read:'", NULL},
	    {"{read, write}: arg9 == 1\n", "bad.policy:1:19:", "no argument", NULL},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char hint[256];
		first_error(bad[i].text, msg, sizeof(msg), hint, sizeof(hint));
		if (strncmp(msg, bad[i].where, strlen(bad[i].where)) || !strstr(msg, bad[i].message) ||
		    (bad[i].hint && strcmp(hint, bad[i].hint)))
			fail_msg("'%s': got '%s' (%s), wanted %s ... %s", bad[i].text, msg, hint,
				 bad[i].where, bad[i].message);
	}
	/* blanks before '}' name nothing: two rules, as two lines give */
	p = import_ok("{ read , write }: 1\n");
	assert_int_equal(scg_policy_rule_count(p), 2);
	scg_policy_free(p);
	/* a bad filter is one error, not one per name */
	diag = scg_diag_new();
	assert_int_equal(import("{read, write, close}: arg9 == 1\n", "t.policy", &p, diag), -EINVAL);
	assert_int_equal(scg_diag_count(diag), 1);
	scg_diag_free(diag);
}

/* @denylist (minijail's compiler): lines give errnos, the calls no line names are allowed. */
static void denylist(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("# a denylist\n"
					 "ptrace: return EPERM\n"
					 "@denylist\n"
					 "{mount, umount2}: return ENOSYS\n"
					 "openat: arg2 & O_CREAT || arg2 & O_WRONLY; return EACCES\n"
					 "ptrace: return EBUSY\n");
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), ERRNO(1)); /* before @denylist: the same */
	assert_int_equal(verdict(p, "mount", 0, 0, 0), ERRNO(38));
	assert_int_equal(verdict(p, "umount2", 0, 0, 0), ERRNO(38));
	assert_int_equal(verdict(p, "openat", 0, 0, 0x40), ERRNO(13));
	assert_int_equal(verdict(p, "openat", 0, 0, 1), ERRNO(13));
	assert_int_equal(verdict(p, "openat", 0, 0, 0x80000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	struct scg_seccomp_data d = {.nr = 3, .arch = AUDIT_I386}; /* other ABIs: still killed */
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_KILL_PROCESS);
	/* the errno rule of openat's filter sits at its 'return' */
	struct scg_rule r;
	bool seen = false;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		scg_policy_rule_at(p, i, &r);
		if (r.syscall && !strcmp(r.syscall, "openat") && r.cond) {
			assert_int_equal(r.action, ERRNO(13));
			assert_int_equal(r.loc.line, 5);
			assert_int_equal(r.loc.column, 44);
			seen = true;
		}
	}
	assert_true(seen);
	scg_policy_free(p);

	static const struct bad_policy bad[] = {
	    {"@denylist\nread: 1\n", "bad.policy:2:7:", "takes 'return ERRNO' only, not '1'"},
	    {"@denylist\nread: allow\n", "bad.policy:2:7:", "not 'allow'"},
	    {"@denylist\nread: kill\n", "bad.policy:2:7:", "not 'kill'"},
	    {"read: trap\n@denylist\n", "bad.policy:1:7:", "not 'trap'"},
	    {"@denylist\nread: return\n", "bad.policy:2:13:", "expected an errno after 'return'"},
	    {"@denylist\nread: arg0 == 1\n", "bad.policy:2:16:", "expected '; return ERRNO'"},
	    {"@denylist\nread: arg0 == 1; log\n", "bad.policy:2:18:", "not 'log'"},
	    {"@denylist\n{read, write}: trace\n", "bad.policy:2:16:", "not 'trace'"},
	    {"@denylist now\nread: return 1\n", "bad.policy:1:11:", "unexpected text after @denylist"},
	    {"@denylist\nread: return EPREM\n", "bad.policy:2:14:", "unknown constant 'EPREM'"},
	};
	expect_errors(bad, sizeof(bad) / sizeof(bad[0]));
}

/* Every file of a @denylist policy carries the line, or none does. */
static void denylist_includes(void **state)
{
	(void)state;
	char dir[] = "/tmp/syscage-minijail-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *deny = write_file(dir, "deny.policy", "@denylist\nptrace: return EPERM\n");
	char *allow = write_file(dir, "allow.policy", "read: 1\n");
	char *main = write_file(dir, "app.policy", "");
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = main;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	const char *both = "@denylist\n@include ./deny.policy\nmount: return ENOSYS\n";
	assert_int_equal(scg_minijail_import(both, strlen(both), &o, &p, diag), 0);
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "mount", 0, 0, 0), ERRNO(38));
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	char msg[512];
	/* a denylist including a file without the line: an error at the @include's path */
	const char *mixed = "@denylist\n@include ./allow.policy\n";
	assert_int_equal(scg_minijail_import(mixed, strlen(mixed), &o, &p, diag), -EINVAL);
	scg_diag_format(scg_diag_get(diag, scg_diag_count(diag) - 1), msg, sizeof(msg));
	assert_non_null(strstr(msg, "app.policy:2:10: error:"));
	assert_non_null(strstr(msg, "has no @denylist line"));
	/* a policy without it including a denylist: an error at the included @denylist */
	const char *other = "read: 1\n@include ./deny.policy\n";
	assert_int_equal(scg_minijail_import(other, strlen(other), &o, &p, diag), -EINVAL);
	scg_diag_format(scg_diag_get(diag, scg_diag_count(diag) - 1), msg, sizeof(msg));
	assert_non_null(strstr(msg, "deny.policy:1:1: error: @denylist in a file included"));
	scg_diag_free(diag);
	unlink(deny);
	unlink(allow);
	unlink(main);
	rmdir(dir);
	free(deny);
	free(allow);
	free(main);
}

static void detection(void **state)
{
	(void)state;
	const char *yes[] = {"read: 1\n", "# x\nopenat: arg2 == 0\n", "@include ./x.policy\n",
			     "ptrace: return EPERM\n", "mount: kill\n", "{read, write}: 1\n",
			     "# x\n@denylist\nptrace: return EPERM\n", "@default trap\n",
			     "mmap2[arch=arm]: 1\n", "{open[arch=arm], openat}: return EPERM\n"};
	const char *no[] = {"allow read\n", "[Service]\nSystemCallFilter=read\n",
			    "POLICY a { ALLOW { read } }\n", "seccomp.drop ptrace\n", "{\"a\": 1}\n",
			    "default trap\n", "read[arch=arm: 1\n"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(scg_minijail_detect(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(scg_minijail_detect(no[i], strlen(no[i])));
}

/* Every call's verdict is the same after export and import (sampled over interesting args). */
static void same_verdicts(const struct scg_policy *a, const struct scg_policy *b)
{
	static const uint64_t vals[] = {0, 1, 2, 3, 4, 5, 7, 9, 0x80000, 0x5401, 1ULL << 32};
	test_same_verdicts(a, b, vals, sizeof(vals) / sizeof(vals[0]));
}

static void round_trip(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok(
	    "read: 1\n"
	    "openat: arg2 in O_RDONLY|O_CLOEXEC; return EACCES\n"
	    "fcntl: arg1 == 1 || arg1 == 2 && arg2 & 1\n"
	    "ioctl: arg1 == TCGETS; return ENOTTY\n"
	    "ptrace: return EPERM\nmount: kill\nuname: log\n"
	    "lseek: arg2 <= 2 && arg0 > 2\n");
	char *text;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_minijail_export(p, &text, diag), 0);
	struct scg_policy *q = import_ok(text);
	same_verdicts(p, q);
	free(text);
	scg_policy_free(q);
	scg_policy_free(p);
	/* a policy in syscage's language: rules with a refusal before an allow, a negation */
	struct scg_policy *src = NULL;
	const char *lang = "arch x86_64\ndefault kill-process\nbadarch kill-process\n"
			   "errno(EPERM) write if arg0 == 2\nallow write\n"
			   "allow close if !(arg0 < 3)\nerrno(EBADF) close\n";
	assert_int_equal(scg_policy_parse(lang, strlen(lang), NULL, &src, diag), 0);
	assert_int_equal(scg_minijail_export(src, &text, diag), 0);
	q = import_ok(text);
	same_verdicts(src, q);
	free(text);
	scg_policy_free(q);
	scg_policy_free(src);
	/* a default that allows: written as a @denylist policy, each line when its errno is given */
	lang = "arch x86_64\ndefault allow\nbadarch kill-process\n"
	       "errno(EPERM) ptrace\nallow write if arg0 == 1\nerrno(EBADF) write\n"
	       "errno(EACCES) openat if (arg2 & O_CREAT) != 0 || !(arg1 < 3)\nallow read\n";
	assert_int_equal(scg_policy_parse(lang, strlen(lang), NULL, &src, diag), 0);
	assert_int_equal(scg_minijail_export(src, &text, diag), 0);
	assert_non_null(strstr(text, "\n@denylist\n"));
	assert_non_null(strstr(text, "\nptrace: return 1\n"));
	assert_non_null(strstr(text, "\nwrite: arg0 != 1; return 9\n"));
	assert_null(strstr(text, "read:")); /* allowed, as the default */
	q = import_ok(text);
	same_verdicts(src, q);
	free(text);
	scg_policy_free(q);
	scg_policy_free(src);
	/* a rule that only allows an unnamed number needs no line */
	lang = "arch x86_64\ndefault allow\nbadarch kill-process\nallow 1000\nerrno(EPERM) ptrace\n";
	assert_int_equal(scg_policy_parse(lang, strlen(lang), NULL, &src, diag), 0);
	assert_int_equal(scg_minijail_export(src, &text, diag), 0);
	assert_null(strstr(text, "1000"));
	q = import_ok(text);
	same_verdicts(src, q);
	assert_int_equal(scg_policy_default(q), SCG_RET_ALLOW);
	free(text);
	scg_policy_free(q);
	scg_policy_free(src);
	scg_diag_free(diag);
}

static void export_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *policy, *message;
	} cases[] = {
	    {"arch x86_64\ndefault trap\nbadarch kill-process\n",
	     "minijail kills the process for every call no line allows"},
	    /* a default that allows: a @denylist policy, whose lines return errnos */
	    {"arch x86_64\ndefault allow\nbadarch kill-process\nkill-process ptrace\n",
	     "'ptrace' gets a verdict other than an errno or allow"},
	    {"arch x86_64\ndefault allow\nbadarch kill-process\nerrno(EPERM) 400\n",
	     "a rule on number 400, which has no name"},
	    {"arch x86_64\ndefault allow\nbadarch kill-process\nerrno(EPERM) 400 if arg0 == 1\n"
	     "allow 400\n",
	     "a rule on number 400, which has no name"},
	    {"arch x86_64, x86\ndefault kill-process\n", "minijail filters one ABI"},
	    {"arch x86_64\ndefault kill-process\nbadarch kill-process\n"
	     "errno(EPERM) read if arg0 == 1\nerrno(EACCES) read\n",
	     "'read' gets two verdicts besides allow"},
	    {"arch x86_64\ndefault kill-process\nbadarch kill-process\n"
	     "allow read if (arg0 & 0xf0) == 0x30\n",
	     "a condition on 'read' has a test minijail cannot write"},
	    {"arch x86_64\ndefault kill-process\nbadarch kill-process\ntrap(5) read\n",
	     "'read' gets an action minijail cannot write"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_export_refused(scg_minijail_export, cases[i].policy, cases[i].message, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(allow_lines_and_default),
	    cmocka_unit_test(argument_filters),
	    cmocka_unit_test(actions),
	    cmocka_unit_test(locations),
	    cmocka_unit_test(diagnostics),
	    cmocka_unit_test(locations_after_blanks),
	    cmocka_unit_test(include_and_frequency),
	    cmocka_unit_test(documented_forms),
	    cmocka_unit_test(syscall_sets),
	    cmocka_unit_test(default_directive),
	    cmocka_unit_test(arch_tags),
	    cmocka_unit_test(filter_lists),
	    cmocka_unit_test(denylist),
	    cmocka_unit_test(denylist_includes),
	    cmocka_unit_test(detection),
	    cmocka_unit_test(round_trip),
	    cmocka_unit_test(export_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
