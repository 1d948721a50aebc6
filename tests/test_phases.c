/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies with phases (<syscage/lang.h>, docs/phases.md): the parse, its
 * diagnostics, the filter policy of each phase, and scg_phase_enter() in
 * forked children with two threads.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/features.h"

static const char policy_text[] = "# the start phase\n"
				  "default allow\n"
				  "phase serving after getppid if arg0 == 0\n"
				  "errno(EPERM) getuid, execve\n"
				  "phase quiet after phase_enter(\"quiet\")\n"
				  "errno(EPERM) getuid, execve, getgid\n";

static struct scg_phases *parse(const char *text, struct scg_diag *diag)
{
	SCG_OPTS(scg_policy_source_options, o, .filename = "t.policy");
	struct scg_phases *p = NULL;
	int r = scg_phases_parse(text, strlen(text), &o, &p, diag);
	return r == 0 ? p : NULL;
}

static void test_parse(void **state)
{
	(void)state;
	struct scg_diag *diag = scg_diag_new();
	struct scg_phases *p = parse(policy_text, diag);
	assert_non_null(p);
	assert_int_equal(scg_diag_count(diag), 0);
	assert_true(scg_phases_detect(policy_text, strlen(policy_text)));
	assert_false(scg_phases_detect("allow read\n  phase x\n", 21));
	assert_int_equal(scg_phases_count(p), 3);
	assert_string_equal(scg_phases_name(p, 0), "start");
	assert_string_equal(scg_phases_name(p, 2), "quiet");
	assert_int_equal(scg_phases_find(p, "serving"), 1);
	assert_int_equal(scg_phases_find(p, "nope"), -ENOENT);
	const struct scg_policy *rules;
	struct scg_loc loc;
	assert_int_equal(scg_phases_trigger(p, 0, NULL, NULL), SCG_PHASE_TRIGGER_NONE);
	assert_int_equal(scg_phases_trigger(p, 1, &rules, &loc), SCG_PHASE_TRIGGER_SYSCALL);
	assert_int_equal(loc.line, 3);
	assert_int_equal(scg_policy_rule_count(rules), 1);
	assert_int_equal(scg_phases_trigger(p, 2, &rules, NULL), SCG_PHASE_TRIGGER_CALL);
	assert_null(rules);
	/* the start's filter: the trigger first, as TRACE(1), on the native ABI alone */
	struct scg_policy *f;
	assert_int_equal(scg_phases_filter_policy(p, 0, &f), 0);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(f, 0, &r), 0);
	assert_int_equal(r.action, SCG_RET_TRACE | 1);
	assert_string_equal(r.syscall, "getppid");
	assert_non_null(r.cond);
	assert_int_equal(r.arch_mask, scg_arch_mask_bit(scg_arch_native()));
	scg_policy_free(f);
	/* serving's settings are the start's (default allow) */
	assert_int_equal(scg_policy_default(scg_phases_policy(p, 1)), SCG_RET_ALLOW);
	/* quiet is entered by a call: no TRACE in serving's filter */
	assert_int_equal(scg_phases_filter_policy(p, 1, &f), 0);
	assert_int_equal(scg_policy_rule_count(f), scg_policy_rule_count(scg_phases_policy(p, 1)));
	scg_policy_free(f);
	scg_phases_free(p);
	scg_phases_free(NULL);
	scg_diag_free(diag);
}

/* The first diagnostic of @text, which must fail, as "L:C: message". */
static void expect_error(const char *text, const char *want)
{
	struct scg_diag *diag = scg_diag_new();
	assert_null(parse(text, diag));
	assert_true(scg_diag_count(diag) > 0);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	char got[256];
	snprintf(got, sizeof(got), "%u:%u: %s", e->loc.line, e->loc.column, e->message);
	assert_string_equal(got, want);
	scg_diag_free(diag);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("default errno(EPERM)\nallow getppid\nphase s after getppid\nallow execve\n",
		     "4:7: phase 's' gives 'execve' ALLOW, more than phase 'start' does");
	expect_error("allow read\nphase s after\n", "2:14: expected what ends the phase before");
	expect_error("allow read\nphase 9 after read\nallow read\n", "2:7: expected a phase name");
	expect_error("allow read\nphase s afte read\n", "2:9: expected 'after'");
	expect_error("allow read\nphase s after read if arg9 == 1\n", "2:23: arg9 does not exist");
	expect_error("allow read\nphase s after phase_enter(\"t\")\n",
		     "2:27: phase_enter names the phase it enters: phase_enter(\"s\")");
	expect_error("allow read\nphase s after read\nphase s after read\n",
		     "3:7: a phase called 's' comes before");
	/* a later default looser than the one before: at the setting */
	expect_error("default errno(EPERM)\nphase s after read\ndefault allow\n",
		     "3:9: phase 's' gives 'read' ALLOW, more than phase 'start' does");
}

/* A NUL byte in a trigger is a byte of the line like another (it was read past the copy). */
static void test_nul_in_trigger(void **state)
{
	(void)state;
	static const char text[] = "allow read\nphase q after phase_\0\0\0\0enter(\"q\")\nallow read\n";
	SCG_OPTS(scg_policy_source_options, o, .filename = "t.policy");
	struct scg_diag *diag = scg_diag_new();
	struct scg_phases *p = NULL;
	assert_int_equal(scg_phases_parse(text, sizeof(text) - 1, &o, &p, diag), -EINVAL);
	assert_null(p);
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	assert_non_null(e);
	assert_int_equal(e->loc.line, 2);
	assert_int_equal(e->loc.column, 15);
	assert_string_equal(e->message, "unknown syscall 'phase_'");
	scg_diag_free(diag);
}

/* Columns after blank lines, comments and tabs: one byte, one column. */
static void test_error_columns(void **state)
{
	(void)state;
	expect_error("\n\n# c\nallow read\n\n\t\nphase \t s\t  after\t\tphase_enter ( \"s\" )  x\n",
		     "7:41: expected end of line after phase_enter");
	expect_error("allow read\n\n  \nphase\t\ts after  phase_enter(\t\"s\" ]\n",
		     "4:34: expected ')'");
	expect_error("allow read\n\t\n\nphase s\tafter\t \tphase_enter(  \"t\")\n",
		     "4:31: phase_enter names the phase it enters: phase_enter(\"s\")");
	expect_error("allow read\n\n\nphase\t \tx after\n", "4:16: expected what ends the phase before");
}

/* --- scg_phase_enter() in a child ------------------------------------------------ */

static int pipe_a[2], pipe_b[2];

static long raw_getuid(void)
{
	long r = syscall(SYS_getuid);
	return r < 0 ? -errno : r;
}

static void *second_thread(void *arg)
{
	char c;
	if (arg) { /* a filter of this thread's own: TSYNC cannot move it */
		struct scg_insn allow = {0x06, 0, 0, SCG_RET_ALLOW};
		struct scg_prog prog = {&allow, 1};
		if (scg_filter_install(&prog, 0, NULL) < 0)
			_exit(20);
	}
	if (write(pipe_b[1], "r", 1) != 1 || read(pipe_a[0], &c, 1) != 1)
		_exit(21);
	long r = raw_getuid();
	if (write(pipe_b[1], r == -EPERM ? "y" : "n", 1) != 1)
		_exit(22);
	return NULL;
}

/* The child: 0 when both threads are denied getuid after entering serving. */
static int child(bool diverge)
{
	struct scg_phases *p = parse(policy_text, NULL);
	pthread_t t;
	char c;
	if (!p || prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0 || pipe(pipe_a) < 0 ||
	    pipe(pipe_b) < 0 || scg_phase_enter(p, "start") < 0 ||
	    pthread_create(&t, NULL, second_thread, diverge ? (void *)1 : NULL) != 0 ||
	    read(pipe_b[0], &c, 1) != 1)
		return 10;
	if (raw_getuid() < 0)
		return 11;
	int r = scg_phase_enter(p, "serving");
	if (diverge)
		return r == -ESRCH && raw_getuid() >= 0 ? 0 : 12;
	if (r < 0 || raw_getuid() != -EPERM)
		return 13;
	if (write(pipe_a[1], "g", 1) != 1 || read(pipe_b[0], &c, 1) != 1 || c != 'y')
		return 14;
	pthread_join(t, NULL);
	if (scg_phase_enter(p, "none") != -ENOENT || scg_phase_enter(p, "quiet") < 0 ||
	    syscall(SYS_getgid) != -1 || errno != EPERM)
		return 15;
	scg_phases_free(p);
	return 0;
}

static int run_child(bool diverge)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(child(diverge));
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_enter(void **state)
{
	(void)state;
	if (!feature_require("tsync", "%s", __func__))
		skip();
	assert_int_equal(run_child(false), 0);
}

static void test_enter_fails(void **state)
{
	(void)state;
	if (!feature_require("tsync", "%s", __func__))
		skip();
	assert_int_equal(run_child(true), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_error_columns),
	    cmocka_unit_test(test_nul_in_trigger),
	    cmocka_unit_test(test_enter),
	    cmocka_unit_test(test_enter_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
