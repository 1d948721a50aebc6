/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the seccomp audit-record reader (lib/learn/auditlog.c) on
 * written samples of every form the records are found in: audit.log (raw
 * and enriched), ausearch -i, /dev/kmsg, dmesg (-T), journalctl -k; string
 * fields quoted and hex-encoded; the ABIs; filtering; the counts of other
 * and lost lines; malformed records at their line and column; and learning
 * from the records.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/diag_print.h"

#define REC "auid=4294967295 uid=0 gid=0 ses=4294967295 pid=4242 comm=\"prog\" " \
	    "exe=\"/usr/bin/prog\" sig=0 arch=c000003e syscall=39 compat=0 ip=0x7f0000001000 " \
	    "code=0x7ffc0000"

static struct scg_audit_log *parse_ok(const char *text, const char *exe, const char *comm)
{
	struct scg_audit_log_options o = { .filename = "t.log", .exe = exe, .comm = comm };
	struct scg_diag *diag = scg_diag_new();
	struct scg_audit_log *log = NULL;
	int r = scg_audit_log_parse(text, strlen(text), &o, &log, diag);
	if (r != 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	assert_int_equal(scg_diag_count(diag), 0);
	scg_diag_free(diag);
	return log;
}

/* The one record @text holds. */
static void one_record(const char *text, const char *abi, uint32_t nr)
{
	struct scg_audit_log *log = parse_ok(text, NULL, NULL);
	assert_int_equal(scg_audit_log_count(log), 1);
	const struct scg_audit_seccomp *r = scg_audit_log_at(log, 0);
	assert_non_null(r->arch);
	assert_string_equal(scg_arch_name(r->arch), abi);
	assert_int_equal(r->nr, nr);
	scg_audit_log_free(log);
}

static void test_every_form(void **state)
{
	(void)state;
	one_record("type=SECCOMP msg=audit(1796461154.992:471): " REC "\n", "x86_64", 39);
	/* auditd's enriched format: its own fields after 0x1d */
	one_record("type=SECCOMP msg=audit(1796461154.992:471): " REC
		   "\x1d" "ARCH=x86_64 SYSCALL=getpid arch=40000003\n", "x86_64", 39);
	one_record("type=1326 audit(1796461154.992:471): " REC, "x86_64", 39);
	one_record("6,471,3142136907,-;audit: type=1326 audit(1796461154.992:471): " REC "\n",
		   "x86_64", 39);
	one_record("[ 3142.136907] audit: type=1326 audit(1796461154.992:471): " REC "\r\n",
		   "x86_64", 39);
	one_record("[Sat Dec  5 08:59:09 2026] audit: type=1326 audit(1796461154.992:471): " REC,
		   "x86_64", 39);
	one_record("Dec 05 08:59:09 host kernel: audit: type=1326 audit(1796461154.992:471): " REC,
		   "x86_64", 39);
	one_record("2026-12-05T08:59:09+0000 host kernel: audit: type=1326 audit(1.2:3): " REC,
		   "x86_64", 39);
	/* ausearch -i: the values interpreted */
	one_record("type=SECCOMP msg=audit(12/05/2026 08:59:09.992:471) : auid=unset uid=root "
		   "pid=4242 comm=prog exe=/usr/bin/prog sig=0 arch=x86_64 syscall=uname "
		   "compat=0 ip=0x7f0000001000 code=log",
		   "x86_64", 63);
	one_record("type=SECCOMP msg=audit(12/05/2026 08:59:09.992:471) : arch=i386 syscall=getpid",
		   "x86", 20);
}

static void test_abis(void **state)
{
	(void)state;
	one_record("type=1326 audit(1.2:3): arch=40000003 syscall=20 compat=1", "x86", 20);
	one_record("type=1326 audit(1.2:3): arch=c000003e syscall=1073741863", "x32", 0x40000027);
	one_record("type=1326 audit(1.2:3): arch=c00000b7 syscall=172", "aarch64", 172);
	/* the kernel prints the number as a long: -1 (a tracer's skip) is x86_64's */
	one_record("type=1326 audit(1.2:3): arch=c000003e syscall=-1", "x86_64", UINT32_MAX);
	struct scg_audit_log *log = parse_ok("type=1326 audit(1.2:3): arch=1234 syscall=1\n", NULL,
					     NULL);
	struct scg_audit_log_stats st;
	scg_audit_log_stats(log, &st);
	assert_int_equal(scg_audit_log_count(log), 1);
	assert_null(scg_audit_log_at(log, 0)->arch);
	assert_int_equal(st.foreign, 1);
	scg_audit_log_free(log);
}

static void test_fields(void **state)
{
	(void)state;
	/* comm with a space is hex-encoded by the kernel; exe absent */
	struct scg_audit_log *log = parse_ok(
		"type=1326 audit(1.2:3): pid=17 comm=6D792070726F67 arch=c000003e syscall=1 "
		"code=0x80000000\n",
		NULL, NULL);
	const struct scg_audit_seccomp *r = scg_audit_log_at(log, 0);
	assert_string_equal(r->comm, "my prog");
	assert_string_equal(r->exe, "");
	assert_int_equal(r->pid, 17);
	assert_true(r->has_code);
	assert_int_equal(r->code, 0x80000000U);
	assert_int_equal(r->line, 1);
	scg_audit_log_free(log);
	/* ausearch -i names the action: no code */
	log = parse_ok("type=SECCOMP msg=audit(1.2:3) : arch=x86_64 syscall=read code=kill\n", NULL,
		       NULL);
	r = scg_audit_log_at(log, 0);
	assert_false(r->has_code);
	assert_int_equal(r->pid, -1);
	scg_audit_log_free(log);
}

static const char mixed[] =
	"Linux version 6.1\n"
	"type=SYSCALL msg=audit(1.2:3): arch=c000003e syscall=59 success=yes\n"
	"type=1326 audit(1.2:4): pid=1 comm=\"prog\" exe=\"/usr/bin/prog\" arch=c000003e syscall=39\n"
	"type=1326 audit(1.2:5): pid=2 comm=\"other\" exe=\"/usr/bin/other\" arch=c000003e syscall=63\n"
	"type=1326 audit(1.2:6): pid=3 comm=\"a-very-long-nam\" exe=\"/opt/x\" arch=c000003e syscall=0\n"
	"kauditd_printk_skb: 12 callbacks suppressed\n"
	"audit: audit_lost=5 audit_rate_limit=0 audit_backlog_limit=64\n"
	"typo: xtype=1326 arch=zzz\n";

static void test_filters_and_counts(void **state)
{
	(void)state;
	struct scg_audit_log *log = parse_ok(mixed, NULL, NULL);
	struct scg_audit_log_stats st;
	scg_audit_log_stats(log, &st);
	assert_int_equal(st.lines, 8);
	assert_int_equal(st.records, 3);
	assert_int_equal(st.kept, 3);
	assert_int_equal(st.skipped, 5);
	assert_int_equal(st.suppressed, 12);
	assert_int_equal(st.lost_lines, 1);
	assert_int_equal(scg_audit_log_at(log, 1)->line, 4);
	scg_audit_log_free(log);

	log = parse_ok(mixed, "/usr/bin/other", NULL);
	assert_int_equal(scg_audit_log_count(log), 1);
	assert_int_equal(scg_audit_log_at(log, 0)->nr, 63);
	scg_audit_log_stats(log, &st);
	assert_int_equal(st.records, 3);
	assert_int_equal(st.kept, 1);
	scg_audit_log_free(log);

	log = parse_ok(mixed, NULL, "prog");
	assert_int_equal(scg_audit_log_count(log), 1);
	assert_int_equal(scg_audit_log_at(log, 0)->nr, 39);
	scg_audit_log_free(log);
	/* the kernel keeps 15 bytes of a name */
	log = parse_ok(mixed, NULL, "a-very-long-name-indeed");
	assert_int_equal(scg_audit_log_count(log), 1);
	assert_int_equal(scg_audit_log_at(log, 0)->nr, 0);
	scg_audit_log_free(log);
	log = parse_ok(mixed, "/usr/bin/prog", "other");
	assert_int_equal(scg_audit_log_count(log), 0);
	scg_audit_log_free(log);
}

/* @text is refused, with its first error at @line:@column saying @what. */
static void refused(const char *text, unsigned line, unsigned column, const char *what)
{
	struct scg_audit_log_options o = { .filename = "bad.log" };
	struct scg_diag *diag = scg_diag_new();
	struct scg_audit_log *log = NULL;
	assert_int_equal(scg_audit_log_parse(text, strlen(text), &o, &log, diag), -EINVAL);
	assert_null(log);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	assert_non_null(e);
	assert_int_equal(e->severity, SCG_SEV_ERROR);
	assert_string_equal(e->loc.file, "bad.log");
	assert_int_equal(e->loc.line, line);
	assert_int_equal(e->loc.column, column);
	assert_string_equal(e->code, "audit-record");
	if (!strstr(e->message, what))
		fail_msg("'%s' does not say '%s'", e->message, what);
	scg_diag_free(diag);
}

static void test_malformed(void **state)
{
	(void)state;
	refused("ok line\ntype=1326 audit(1.2:3): syscall=39\n", 2, 1, "without arch=");
	refused("audit: type=1326 audit(1.2:3): arch=c000003e\n", 1, 8, "without syscall=");
	refused("type=1326 audit(1.2:3): arch=nosuch syscall=1", 1, 30, "arch=nosuch");
	refused("type=1326 audit(1.2:3): arch=c000003e syscall=12x", 1, 47, "syscall=12x");
	refused("type=1326 audit(1.2:3): arch=c000003e syscall=99999999999", 1, 47, "syscall=");
	refused("type=1326 audit(1.2:3): arch=x86_64 syscall=opne", 1, 45, "syscall=opne");
	refused("type=1326 audit(1.2:3): comm=\"x arch=c000003e syscall=1", 1, 30, "closing quote");
	/* after blank lines, CRLF ends and tabs: one byte, one column */
	refused("\n\r\n\n  \t\n\ttype=1326\t audit(1.2:3):\t\tarch=c000003e  \t syscall=opne\r\n", 5,
		53, "syscall=opne");
	refused("x\r\n\t\r\n \t;type=1326 a: \t comm=\"x arch=1\r\n", 3, 24, "closing quote");
	refused("\n\n\t \taudit:type=1326\t\tarch=c000003e\n", 3, 10, "without syscall=");
	/* every malformed line is reported */
	struct scg_diag *diag = scg_diag_new();
	struct scg_audit_log *log = NULL;
	const char *two = "type=1326 a: arch=1\nfine\ntype=SECCOMP msg=audit(1.2:3): x=1\n";
	assert_int_equal(scg_audit_log_parse(two, strlen(two), NULL, &log, diag), -EINVAL);
	assert_int_equal(scg_diag_count(diag), 2);
	assert_int_equal(scg_diag_get(diag, 1)->loc.line, 3);
	scg_diag_free(diag);
	/* a line that does not claim to be a seccomp record is never an error */
	log = parse_ok("xtype=1326 arch=zz\ntype=13260 arch=zz\ntype=1326x\n", NULL, NULL);
	assert_int_equal(scg_audit_log_count(log), 0);
	scg_audit_log_free(log);
	/* NUL bytes and no final newline */
	static const char nul[] = "a\0b\ntype=1326 audit(1.2:3): arch=c000003e syscall=2";
	assert_int_equal(scg_audit_log_parse(nul, sizeof(nul) - 1, NULL, &log, NULL), 0);
	assert_int_equal(scg_audit_log_count(log), 1);
	scg_audit_log_free(log);
}

static void test_learn(void **state)
{
	(void)state;
	struct scg_audit_log *log = parse_ok(
		"type=1326 audit(1.2:3): arch=c000003e syscall=39\n"
		"type=1326 audit(1.2:3): arch=c000003e syscall=39\n"
		"type=1326 audit(1.2:3): arch=40000003 syscall=20\n"
		"type=1326 audit(1.2:3): arch=1234 syscall=20\n",
		NULL, NULL);
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_int_equal(scg_learn_add_audit_log(l, log), 0);
	assert_int_equal(scg_learn_count(l), 2);
	assert_int_equal(scg_learn_total(l), 3);
	struct scg_learn_entry e;
	assert_int_equal(scg_learn_entry_at(l, 0, &e), 0);
	assert_string_equal(e.name, "getpid");
	assert_int_equal(e.calls, 2);
	assert_int_equal(e.listed, 0); /* no argument values: any */
	char *text = NULL;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow getpid on x86_64 "));
	assert_non_null(strstr(text, "allow getpid on x86 "));
	free(text);
	scg_learn_free(l);
	scg_audit_log_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_form),
		cmocka_unit_test(test_abis),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_filters_and_counts),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_learn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
