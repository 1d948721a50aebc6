/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The systemd unit importer (lib/import): each directive's verdicts as
 * systemd.exec(5) describes them, the precedence of systemd's stack of
 * filters, file:line:column of rules and diagnostics, and the group table
 * against `systemd-analyze syscall-filter` of the installed systemd.
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

#include "import/systemd.h"
#include "support/features.h"
#include "support/importer.h"

#define AUDIT_X86_64 TEST_AUDIT_X86_64
#define AUDIT_I386   TEST_AUDIT_I386

#define import_ok(text) test_import_ok(scg_systemd_import, text, "test.service")

/* The verdict for an x86_64 call of @name with @args (missing ones 0). */
static uint32_t verdict_on(const struct scg_policy *p, const char *abi, uint32_t audit,
			   const char *name, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup(abi), name, &nr), 0);
	return test_verdict_nr(p, nr, audit, a0, a1, a2);
}

static uint32_t verdict(const struct scg_policy *p, const char *name, uint64_t a0, uint64_t a1,
			uint64_t a2)
{
	return verdict_on(p, "x86_64", AUDIT_X86_64, name, a0, a1, a2);
}

#define ERRNO(e) (SCG_RET_ERRNO | (e))

/* An allow list kills everything else, and always lets @default through. */
static void allow_list_kills_the_rest(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\nSystemCallFilter=read write\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "exit_group", 0, 0, 0), SCG_RET_ALLOW); /* @default */
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	/* without SystemCallArchitectures= the other ABIs get the same filter */
	assert_int_equal(verdict_on(p, "x86", AUDIT_I386, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict_on(p, "x86", AUDIT_I386, "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* '~' lists deny; ':errno' per entry beats SystemCallErrorNumber=; ':kill' kills. */
static void deny_list_with_errnos(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\n"
					 "SystemCallFilter=~@clock ptrace:EACCES mount:kill\n"
					 "SystemCallErrorNumber=EPERM\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "settimeofday", 0, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), ERRNO(13));
	assert_int_equal(verdict(p, "mount", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* Later lines add to the first line's mode or take away from it; the empty one resets. */
static void lines_merge_in_order(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\n"
					 "SystemCallFilter=@file-system\n"
					 "SystemCallFilter=~openat\n"
					 "SystemCallFilter=getpid\n");
	assert_int_equal(verdict(p, "mkdir", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	p = import_ok("[Service]\nSystemCallFilter=read\nSystemCallFilter=\n"
		      "SystemCallFilter=~write\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* SystemCallArchitectures=native: other ABIs die with libseccomp's KILL (the thread). */
static void native_only(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\nSystemCallArchitectures=native\n");
	assert_int_equal(verdict(p, "openat", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict_on(p, "x86", AUDIT_I386, "read", 0, 0, 0), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
}

static void address_families(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\nRestrictAddressFamilies=AF_UNIX AF_INET\n");
	assert_int_equal(verdict(p, "socket", 1, 1, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "socket", 10, 1, 0), ERRNO(97));
	/* libseccomp compares the whole register on x86_64, so the upper half counts */
	assert_int_equal(verdict(p, "socket", 1ULL << 32 | 1, 1, 0), ERRNO(97));
	/* systemd installs nothing on i386, where socket() also goes through socketcall() */
	assert_int_equal(verdict_on(p, "x86", AUDIT_I386, "socket", 10, 1, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	p = import_ok("[Service]\nRestrictAddressFamilies=~AF_PACKET\n");
	assert_int_equal(verdict(p, "socket", 17, 3, 0), ERRNO(97));
	assert_int_equal(verdict(p, "socket", 10, 1, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
}

static void namespaces(void **state)
{
	(void)state;
	/* the example of systemd.exec(5): cgroup ipc, then ~cgroup net, leaves ipc */
	struct scg_policy *p = import_ok("[Service]\nRestrictNamespaces=cgroup ipc\n"
					 "RestrictNamespaces=~cgroup net\n");
	assert_int_equal(verdict(p, "unshare", 0x08000000, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "unshare", 0x02000000, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "clone", 0x40000000, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "setns", 3, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "setns", 3, 0x08000000, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "clone3", 0, 0, 0), ERRNO(38));
	scg_policy_free(p);
}

static void memory_and_others(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\nMemoryDenyWriteExecute=yes\n"
					 "RestrictRealtime=true\nRestrictSUIDSGID=on\n"
					 "LockPersonality=1\nProtectHostname=yes\n");
	assert_int_equal(verdict(p, "mmap", 0, 0, 3), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "mmap", 0, 0, 6), ERRNO(1));
	assert_int_equal(verdict(p, "mprotect", 0, 0, 4), ERRNO(1));
	assert_int_equal(verdict(p, "sched_setscheduler", 0, 3, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "sched_setscheduler", 0, 1, 0), ERRNO(1));
	assert_int_equal(verdict(p, "sched_setscheduler", 0, 6, 0), ERRNO(1));
	assert_int_equal(verdict(p, "chmod", 0, 04755, 0), ERRNO(1));
	assert_int_equal(verdict(p, "chmod", 0, 0755, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "open", 0, 0100, 02644), ERRNO(1)); /* O_CREAT, setgid */
	assert_int_equal(verdict(p, "open", 0, 0, 02644), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "personality", 8, 0, 0), ERRNO(1));
	assert_int_equal(verdict(p, "personality", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "sethostname", 0, 0, 0), ERRNO(1));
	/* i386 maps with mmap2; its old mmap is refused outright */
	assert_int_equal(verdict_on(p, "x86", AUDIT_I386, "mmap", 0, 0, 0), ERRNO(1));
	scg_policy_free(p);
}

/*
 * The stack: ProtectClock='s EPERM and an allow list's kill meet on clock
 * calls; the strictest wins, and among errnos the filter installed last
 * (SystemCallFilter=).
 */
static void strictest_wins(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Service]\nProtectClock=yes\nSystemCallFilter=read\n");
	assert_int_equal(verdict(p, "clock_settime", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	p = import_ok("[Service]\nProtectClock=yes\nSystemCallFilter=~settimeofday:EACCES\n");
	assert_int_equal(verdict(p, "settimeofday", 0, 0, 0), ERRNO(13));
	assert_int_equal(verdict(p, "clock_settime", 0, 0, 0), ERRNO(1));
	scg_policy_free(p);
	p = import_ok("[Service]\nSystemCallLog=read\nSystemCallFilter=~write\n");
	assert_int_equal(verdict(p, "read", 0, 0, 0), SCG_RET_LOG);
	assert_int_equal(verdict(p, "write", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* Every rule names the line and column of the word that made it. */
static void rules_keep_their_line(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("[Unit]\nDescription=x\n\n[Service]\n"
					 "SystemCallFilter=~ptrace \\\n    mount\n");
	struct scg_rule rule;
	bool saw_ptrace = false, saw_mount = false;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		assert_int_equal(scg_policy_rule_at(p, i, &rule), 0);
		assert_string_equal(rule.loc.file, "test.service");
		if (rule.syscall && !strcmp(rule.syscall, "ptrace")) {
			saw_ptrace = true;
			assert_int_equal(rule.loc.line, 5);
			assert_int_equal(rule.loc.column, 19);
		}
		if (rule.syscall && !strcmp(rule.syscall, "mount")) {
			saw_mount = true;
			assert_int_equal(rule.loc.line, 6);
			assert_int_equal(rule.loc.column, 5);
		}
	}
	assert_true(saw_ptrace && saw_mount);
	scg_policy_free(p);
}

/* Tabs, blank lines, CRLF line ends and a continuation leave the columns exact. */
static void locations_after_tabs_and_crlf(void **state)
{
	(void)state;
	struct scg_policy *p = import_ok("\r\n[Service]\r\n\r\n"
					 "\tSystemCallFilter=\t~ptrace \\\r\n\t  mount\r\n");
	struct scg_rule rule;
	bool saw_ptrace = false, saw_mount = false;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		assert_int_equal(scg_policy_rule_at(p, i, &rule), 0);
		if (rule.syscall && !strcmp(rule.syscall, "ptrace")) {
			saw_ptrace = true;
			assert_int_equal(rule.loc.line, 4);
			assert_int_equal(rule.loc.column, 21);
		}
		if (rule.syscall && !strcmp(rule.syscall, "mount")) {
			saw_mount = true;
			assert_int_equal(rule.loc.line, 5);
			assert_int_equal(rule.loc.column, 4);
		}
	}
	assert_true(saw_ptrace && saw_mount);
	scg_policy_free(p);
}

static void expect_diag(const char *text, int result, enum scg_severity sev, unsigned line,
			unsigned col, const char *message_part, const char *hint_part)
{
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = "bad.service";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_systemd_import(text, strlen(text), &o, &p, diag), result);
	assert_true(result == 0 ? p != NULL : p == NULL);
	bool found = false;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity == sev && e->loc.line == line && e->loc.column == col &&
		    strstr(e->message, message_part) &&
		    (!hint_part || (e->hint && strstr(e->hint, hint_part))))
			found = true;
	}
	if (!found)
		for (size_t i = 0; i < scg_diag_count(diag); i++) {
			char buf[512];
			scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
			print_error("%s\n", buf);
		}
	assert_true(found);
	scg_policy_free(p);
	scg_diag_free(diag);
}

/* What systemd ignores is a warning with a hint; what is no unit file is an error. */
static void diagnostics(void **state)
{
	(void)state;
	expect_diag("[Service]\nSystemCallFilter=~ptrce\n", 0, SCG_SEV_WARNING, 2, 19,
		    "unknown system call 'ptrce'", "ptrace");
	expect_diag("[Service]\nSystemCallFilter=~@clok\n", 0, SCG_SEV_WARNING, 2, 19,
		    "unknown system call group", "@clock");
	expect_diag("[Service]\nSystemCallFilter=read:EPERM\n", 0, SCG_SEV_WARNING, 2, 18,
		    "is allowed", NULL);
	expect_diag("[Service]\nSystemCallFliter=~read\n", 0, SCG_SEV_WARNING, 2, 1,
		    "unknown setting", "SystemCallFilter");
	expect_diag("[Service]\n  this is not a setting\n", -EINVAL, SCG_SEV_ERROR, 2, 3,
		    "neither an assignment", "Key=value");
	expect_diag("[Service\nSystemCallFilter=read\n", -EINVAL, SCG_SEV_ERROR, 1, 1,
		    "without ']'", NULL);
	expect_diag("[Service]\nRestrictAddressFamilies=AF_UNIX AF_BOGUS\n", 0, SCG_SEV_WARNING, 2,
		    33, "unknown address family", NULL);
}

/* `systemctl show` output: no sections, numbers where units have names. */
static void systemctl_show_output(void **state)
{
	(void)state;
	struct scg_policy *p =
	    import_ok("Id=x.service\nSystemCallErrorNumber=2147483646\n"
		      "SystemCallFilter=~ptrace\nRestrictNamespaces=1073741824\n");
	assert_int_equal(verdict(p, "ptrace", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "unshare", 0x40000000, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "unshare", 0x20000000, 0, 0), ERRNO(1));
	scg_policy_free(p);
}

static void detection(void **state)
{
	(void)state;
	static const char unit[] = "[Service]\nExecStart=/bin/true\n";
	static const char show[] = "SystemCallFilter=read\n";
	static const char policy[] = "allow read\n";
	assert_true(scg_systemd_detect(unit, strlen(unit)));
	assert_true(scg_systemd_detect(show, strlen(show)));
	assert_false(scg_systemd_detect(policy, strlen(policy)));
}

/* The group table is the installed systemd's, member for member. */
static void groups_match_systemd_analyze(void **state)
{
	(void)state;
	if (!feature_require("systemd-analyze", "%s", __func__))
		skip();
	FILE *f = popen("systemd-analyze syscall-filter --no-pager 2>/dev/null", "r");
	assert_non_null(f);
	char line[256];
	const struct sd_group *g = NULL;
	size_t member = 0, groups = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '@') {
			if (g)
				assert_null(sd_group_member(g, member));
			g = sd_group_find(line + 1);
			if (!g)
				print_error("group %s is missing\n", line);
			assert_non_null(g);
			member = 0;
			groups++;
			continue;
		}
		char *w = line + strspn(line, " ");
		if (line[0] != ' ' || !*w || *w == '#' || !g)
			continue;
		const char *mine = sd_group_member(g, member);
		if (!mine || strcmp(mine, w))
			print_error("@%s: systemd lists '%s' at %zu\n", sd_group_name(g), w,
				    member);
		assert_non_null(mine);
		assert_string_equal(mine, w);
		member++;
	}
	if (g)
		assert_null(sd_group_member(g, member));
	pclose(f);
	assert_int_equal(groups, sd_group_count);
}

/* What SystemCallFilter= cannot say is refused, naming the rule. */
static void export_refusals(void **state)
{
	(void)state;
	static const struct {
		const char *policy, *message;
		unsigned line;
	} cases[] = {
	    {"arch x86_64, x86, x32\ndefault allow\nbadarch allow\n"
	     "errno(EPERM) socket if domain == AF_PACKET\n",
	     "condition on arguments", 4},
	    {"arch x86_64, x86, x32\ndefault allow\nbadarch allow\ntrap ptrace\n",
	     "action systemd cannot give", 0},
	    {"arch x86_64, x86, x32\ndefault allow\nbadarch kill\nkill ptrace\n",
	     "other ABIs through", 0},
	    {"arch x86_64, x86, x32\ndefault kill\nbadarch allow\nallow read\n",
	     "does not allow 'arch_prctl'", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_export_refused(scg_systemd_export, cases[i].policy, cases[i].message,
				    cases[i].line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(allow_list_kills_the_rest),
	    cmocka_unit_test(deny_list_with_errnos),
	    cmocka_unit_test(lines_merge_in_order),
	    cmocka_unit_test(native_only),
	    cmocka_unit_test(address_families),
	    cmocka_unit_test(namespaces),
	    cmocka_unit_test(memory_and_others),
	    cmocka_unit_test(strictest_wins),
	    cmocka_unit_test(rules_keep_their_line),
	    cmocka_unit_test(diagnostics),
	    cmocka_unit_test(systemctl_show_output),
	    cmocka_unit_test(locations_after_tabs_and_crlf),
	    cmocka_unit_test(detection),
	    cmocka_unit_test(groups_match_systemd_analyze),
	    cmocka_unit_test(export_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
