/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The injection rule parser (lib/inject): every syntax form, every error
 * with its column and hint, and when-expressions against strace's meaning.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "inject/rule.h"

static const struct scg_arch *x86_64(void)
{
	const struct scg_arch *a = scg_arch_lookup("x86_64");
	assert_non_null(a);
	return a;
}

/* Parses @text for x86_64 alone, so names and numbers do not depend on the host. */
static struct scg_inject_rule *parse_ok(const char *text)
{
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1 };
	struct scg_diag *diag = scg_diag_new();
	struct scg_inject_rule *rule = NULL;
	int r = scg_inject_rule_parse(text, &opts, &rule, diag);
	if (r != 0 && scg_diag_count(diag))
		print_error("%s: %s\n", text, scg_diag_get(diag, 0)->message);
	assert_int_equal(r, 0);
	assert_non_null(rule);
	assert_string_equal(rule->text, text);
	scg_diag_free(diag);
	return rule;
}

/* True when @rule's set holds @name. */
static bool has(const struct scg_inject_rule *rule, const char *name)
{
	for (size_t i = 0; i < rule->nsyscalls; i++)
		if (!strcmp(rule->syscalls[i], name))
			return true;
	return false;
}

/* Whether @rule takes syscall @name with @args on x86_64 (its set and condition). */
static bool takes(const struct scg_inject_rule *rule, const char *name, const uint64_t args[6])
{
	struct scg_seccomp_data d = { .arch = scg_arch_audit(x86_64()) };
	assert_int_equal(scg_syscall_lookup(x86_64(), name, &d.nr), 0);
	for (int i = 0; args && i < 6; i++)
		d.args[i] = args[i];
	struct scg_verdict v;
	scg_policy_eval(rule->match, &d, &v);
	return v.source == SCG_VERDICT_RULE;
}

static void error_rule(void **state)
{
	(void)state;
	struct scg_inject_rule *r = parse_ok("openat:error=ENOENT");
	assert_int_equal(r->nsyscalls, 1);
	assert_string_equal(r->syscalls[0], "openat");
	assert_true(r->has_error);
	assert_int_equal(r->error, ENOENT);
	assert_false(r->has_retval);
	assert_int_equal(r->signal, 0);
	assert_false(r->has_when);
	assert_true(scg_inject_rule_is_static(r));
	assert_true(takes(r, "openat", NULL));
	assert_false(takes(r, "open", NULL));
	scg_inject_rule_free(r);
	r = parse_ok("getpid:error=13");
	assert_int_equal(r->error, 13);
	scg_inject_rule_free(r);
	r = parse_ok("getpid:error=4095");
	assert_int_equal(r->error, 4095);
	scg_inject_rule_free(r);
}

static void retval_rule(void **state)
{
	(void)state;
	struct scg_inject_rule *r = parse_ok("getppid:retval=42");
	assert_true(r->has_retval);
	assert_int_equal(r->retval, 42);
	assert_false(r->has_error);
	assert_false(scg_inject_rule_is_static(r)); /* the kernel cannot return a value */
	scg_inject_rule_free(r);
	r = parse_ok("getppid:retval=-1");
	assert_int_equal(r->retval, -1);
	scg_inject_rule_free(r);
	r = parse_ok("getppid:retval=0x10");
	assert_int_equal(r->retval, 16);
	scg_inject_rule_free(r);
}

static void signal_rule(void **state)
{
	(void)state;
	static const char *const forms[] = { "getpid:signal=SIGUSR1", "getpid:signal=USR1",
					     "getpid:signal=usr1", "getpid:signal=10" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct scg_inject_rule *r = parse_ok(forms[i]);
		assert_int_equal(r->signal, SIGUSR1);
		assert_false(r->has_error);
		assert_false(scg_inject_rule_is_static(r));
		scg_inject_rule_free(r);
	}
	struct scg_inject_rule *r = parse_ok("getpid:error=EIO:signal=SIGSEGV");
	assert_int_equal(r->signal, SIGSEGV);
	assert_int_equal(r->error, EIO);
	assert_false(scg_inject_rule_is_static(r));
	scg_inject_rule_free(r);
}

static void when_option(void **state)
{
	(void)state;
	struct scg_inject_rule *r = parse_ok("openat:error=ENOENT:when=3");
	assert_true(r->has_when);
	assert_int_equal(r->when.first, 3);
	assert_int_equal(r->when.last, 3);
	assert_false(scg_inject_rule_is_static(r)); /* counted: the supervisor decides */
	scg_inject_rule_free(r);
	/* as in strace, the last when= counts */
	r = parse_ok("openat:when=2:error=ENOENT:when=5+");
	assert_int_equal(r->when.first, 5);
	assert_int_equal(r->when.last, UINT32_MAX);
	scg_inject_rule_free(r);
}

/* Which of the calls 1..12 @expr takes, as a string of '1' and '.'. */
static void when_pattern(const char *expr, const char *want)
{
	struct scg_inject_when w;
	size_t bad;
	assert_int_equal(inject_when_parse(expr, strlen(expr), &w, &bad), 0);
	char got[13] = { 0 };
	for (int i = 0; i < 12; i++)
		got[i] = scg_inject_when_takes(&w, (uint64_t)i + 1) ? '1' : '.';
	if (strcmp(got, want) != 0)
		print_error("when=%s: got %s, want %s\n", expr, got, want);
	assert_string_equal(got, want);
}

static void when_expressions(void **state)
{
	(void)state;
	when_pattern("3", "..1.........");
	when_pattern("1", "1...........");
	when_pattern("2..5", ".1111.......");
	when_pattern("2+", ".11111111111");
	when_pattern("2+3", ".1..1..1..1.");
	when_pattern("2..8+3", ".1..1..1....");
	when_pattern("2..5+", ".1111.......");
	when_pattern("4..4", "...1........");
	when_pattern("1+1", "111111111111");
	struct scg_inject_when w;
	assert_int_equal(inject_when_parse("65535", 5, &w, &(size_t){ 0 }), 0);
	assert_true(scg_inject_when_takes(&w, 65535));
	assert_false(scg_inject_when_takes(&w, 65536));
	static const struct {
		const char *text;
		size_t bad_at;
	} bad[] = {
		{ "", 0 },      { "0", 0 },       { "x", 0 },     { "3..2", 3 },   { "2..", 3 },
		{ "2+0", 2 },   { "65536", 0 },   { "1..65535", 3 }, { "2+x", 2 }, { "2-3", 1 },
		{ "1.2", 1 },   { "-1", 0 },      { "2+3+", 3 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t at = 99;
		int r = inject_when_parse(bad[i].text, strlen(bad[i].text), &w, &at);
		if (r != -EINVAL || at != bad[i].bad_at)
			print_error("when=%s: r %d at %zu\n", bad[i].text, r, at);
		assert_int_equal(r, -EINVAL);
		assert_int_equal(at, bad[i].bad_at);
	}
}

static void sets(void **state)
{
	(void)state;
	struct scg_inject_rule *r = parse_ok("openat,close,openat:error=EIO");
	assert_int_equal(r->nsyscalls, 2); /* sorted, without duplicates */
	assert_string_equal(r->syscalls[0], "close");
	assert_string_equal(r->syscalls[1], "openat");
	scg_inject_rule_free(r);

	r = parse_ok("@sync:error=EROFS");
	assert_true(has(r, "fsync") && has(r, "syncfs") && has(r, "sync"));
	assert_false(has(r, "sync_file_range2")); /* not an x86_64 syscall */
	assert_true(takes(r, "fdatasync", NULL));
	assert_false(takes(r, "read", NULL));
	scg_inject_rule_free(r);

	r = parse_ok("all:signal=SIGUSR1");
	assert_int_equal(r->nsyscalls, scg_syscall_count(x86_64()));
	scg_inject_rule_free(r);

	r = parse_ok("!read,write:error=EPERM");
	assert_int_equal(r->nsyscalls, scg_syscall_count(x86_64()) - 2);
	assert_false(has(r, "read") || has(r, "write"));
	assert_true(has(r, "openat"));
	assert_false(takes(r, "read", NULL));
	assert_true(takes(r, "close", NULL));
	scg_inject_rule_free(r);

	r = parse_ok("/^get.*pid$:retval=1");
	assert_int_equal(r->nsyscalls, 2); /* POSIX ERE over the names, as strace matches them */
	assert_true(has(r, "getpid") && has(r, "getppid"));
	scg_inject_rule_free(r);

	r = parse_ok("%statfs:error=EIO");
	assert_true(has(r, "statfs") && !has(r, "fstatfs"));
	scg_inject_rule_free(r);
	r = parse_ok("%fstatfs:error=EIO");
	assert_true(has(r, "fstatfs") && !has(r, "statfs"));
	scg_inject_rule_free(r);
	r = parse_ok("%%statfs:error=EIO");
	assert_true(has(r, "fstatfs") && has(r, "statfs") && has(r, "ustat"));
	scg_inject_rule_free(r);

	/* '?': a name no ABI knows is skipped quietly */
	r = parse_ok("?no_such_call,getpid:error=EIO");
	assert_int_equal(r->nsyscalls, 1);
	scg_inject_rule_free(r);
	r = parse_ok("?no_such_call:error=EIO");
	assert_int_equal(r->nsyscalls, 0);
	assert_int_equal(scg_policy_rule_count(r->match), 0);
	scg_inject_rule_free(r);
}

static void conditions(void **state)
{
	(void)state;
	uint64_t creat[6] = { (uint64_t)-100, 0, 0100 /* O_CREAT */, 0, 0, 0 };
	uint64_t plain[6] = { (uint64_t)-100, 0, 0, 0, 0, 0 };
	struct scg_inject_rule *r = parse_ok("openat:error=EACCES:if=(flags & O_CREAT) != 0");
	assert_true(r->has_cond);
	assert_true(scg_inject_rule_is_static(r)); /* a condition the filter can check */
	assert_true(takes(r, "openat", creat));
	assert_false(takes(r, "openat", plain));
	scg_inject_rule_free(r);
	/* strace users' shorthand: a mask alone is a test */
	r = parse_ok("openat:error=EACCES:if=flags & O_CREAT");
	assert_true(takes(r, "openat", creat));
	assert_false(takes(r, "openat", plain));
	scg_inject_rule_free(r);
	r = parse_ok("openat,open:error=EACCES:if=(flags & O_CREAT) == 0");
	assert_int_equal(r->nsyscalls, 2);
	assert_false(takes(r, "openat", creat));
	assert_true(takes(r, "openat", plain));
	scg_inject_rule_free(r);
	r = parse_ok("close:retval=0:if=fd == 3 || fd == 4:when=2");
	uint64_t fd3[6] = { 3 }, fd5[6] = { 5 };
	assert_true(takes(r, "close", fd3));
	assert_false(takes(r, "close", fd5));
	scg_inject_rule_free(r);
}

static void fault_option(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1, .fault = true };
	struct scg_inject_rule *r;
	assert_int_equal(scg_inject_rule_parse("getpid:when=2", &opts, &r, NULL), 0);
	assert_int_equal(r->error, ENOSYS);
	scg_inject_rule_free(r);
	assert_int_equal(scg_inject_rule_parse("getpid:error=EIO", &opts, &r, NULL), 0);
	assert_int_equal(r->error, EIO);
	scg_inject_rule_free(r);
	/* without -e fault=, a rule must say what to inject */
	opts.fault = false;
	assert_int_equal(scg_inject_rule_parse("getpid:when=2", &opts, &r, NULL), -EINVAL);
	assert_null(r);
}

/* Every error: the column in the rule, words of the message and of the hint. */
static const struct {
	const char *rule;
	unsigned column;
	const char *message;
	const char *hint; /* NULL: no hint */
} bad_rules[] = {
	{ "openat:error=ENOENTT", 14, "unknown errno 'ENOENTT'", "did you mean ENOENT?" },
	{ "openat:error=", 14, "unknown errno ''", NULL },
	{ "openat:error=0", 14, "errno 0 out of range", "1 to 4095" },
	{ "openat:error=4096", 14, "errno 4096 out of range", "1 to 4095" },
	{ "opnat:error=EIO", 1, "unknown syscall 'opnat'", "did you mean openat?" },
	{ "getpid,opnat:error=EIO", 8, "unknown syscall 'opnat'", "did you mean openat?" },
	{ "?getpid,,x:error=EIO", 9, "empty syscall name", NULL },
	{ ":error=EIO", 1, "no syscall set", "openat:error=ENOENT" },
	{ "!:error=EIO", 1, "no syscall set", NULL },
	{ "@sinc:error=EIO", 1, "unknown group '@sinc'", "did you mean @sync?" },
	{ "%fiel:error=EIO", 1, "unknown syscall class '%fiel'", "did you mean %file?" },
	{ "%bogus:error=EIO", 1, "unknown syscall class '%bogus'", NULL },
	{ "/get(:error=EIO", 1, "bad regular expression", NULL },
	{ "/^zzz:error=EIO", 1, "no syscall matches '/^zzz'", NULL },
	{ "/get.++:error=EIO", 7, "a repetition of a repetition", "'a+', not 'a++'" },
	{ "/get(pid)*{2}:error=EIO", 11, "a repetition of a repetition", NULL },
	{ "/^[+*]zz:error=EIO", 1, "no syscall matches", NULL }, /* in brackets: characters */
	{ "read@x3:error=EIO", 6, "unknown personality '@x3'", "@64, @32 and @x32" },
	{ "read@32:error=EIO", 6, "no target ABI has the personality '@32'", NULL },
	{ "openat", 7, "the rule injects nothing", "error=ERRNO" },
	{ "openat:when=2", 14, "the rule injects nothing", NULL },
	{ "openat:eror=EIO", 8, "unknown option 'eror'", "did you mean error=?" },
	{ "openat:error", 8, "unknown option 'error'", NULL },
	{ "openat:poke_enter=@arg1=0", 8, "'poke_enter=' is not possible with seccomp, because",
	  "delay_enter=" },
	{ "openat:poke_exit=@arg1=0:error=EIO", 8, "'poke_exit=' is not possible", NULL },
	{ "openat:delay_exit=10", 8, "delay_exit= on a call that runs is not possible with seccomp",
	  "error= or retval=" },
	{ "openat:error=EIO:delay_enter=1x", 30, "bad delay '1x'", "microseconds" },
	{ "openat:error=EIO:delay_exit=", 29, "bad delay ''", NULL },
	{ "openat:syscall=getpid:error=EIO", 8, "strace's 'syscall='", NULL },
	{ "openat:error=EIO:retval=1", 18, "only one error= or retval=", "exclude each other" },
	{ "openat:retval=1:error=EIO", 17, "only one error= or retval=", NULL },
	{ "openat:retval=x1", 15, "bad return value 'x1'", NULL },
	{ "openat:signal=SIGUSR9", 15, "unknown signal 'SIGUSR9'", "did you mean SIGUSR1?" },
	{ "openat:signal=0", 15, "signal 0 out of range", NULL },
	{ "openat:signal=9999", 15, "signal 9999 out of range", NULL },
	{ "openat:signal=USR1:signal=USR2", 20, "only one signal=", NULL },
	{ "openat:error=EIO:when=2..1", 26, "bad when-expression '2..1'", "2+3" },
	{ "openat:error=EIO:when=0", 23, "bad when-expression '0'", NULL },
	{ "openat:error=EIO:when=", 23, "bad when-expression ''", NULL },
	{ "openat:error=EIO:if=", 21, "empty condition", NULL },
	{ "openat:error=EIO:if=x:if=y", 23, "only one if=", NULL },
	{ "openat:error=EIO:if=flgs == 0", 21, "'openat' has no parameter 'flgs'", "flags" },
	{ "openat:error=EIO:if=flags == O_BOGUS", 30, "unknown constant 'O_BOGUS'", NULL },
	{ "openat:error=EIO:if=flags &", 28, "expected a number", NULL },
	{ "openat:error=EIO:if=path = \"x\"", 26, "bad path test", "path == \"FILE\"" },
	{ "openat:error=EIO:if=flags == 0 # x", 32, "one line, without '#'", NULL },
	{ "openat:error=EIO:if=flags == 0\narg1 == 2", 31, "one line", NULL },
	{ "openat:error=EIO:if=path == x", 29, "bad path test", NULL },
	/* after tabs and other blanks: one byte, one column */
	{ "openat:error=EIO:if=\t flags == 0 &&\t\tpath\t==\t x", 47, "bad path test", NULL },
	{ "openat:error=EIO:if=path \t\v== \f\"\"", 32, "bad path test", NULL },
	{ "openat:error=EIO:if=path == \"a\" \t x", 29, "bad path test", NULL },
	{ "openat:error=EIO:if=\tflags\t==\tO_BOGUS", 31, "unknown constant 'O_BOGUS'", NULL },
	{ "openat:error=EIO:if=flags == 0\r\n", 31, "one line", NULL },
	{ "openat:error=EIO:\tdelay_enter=1", 18, "unknown option", NULL },
	{ "getpid,\t,x:error=EIO", 8, "unknown syscall", NULL },
	/* a rule is one line: a '\n' in it is one more column */
	{ "/getpid|\nx,opnat:error=EIO", 12, "unknown syscall 'opnat'", NULL },
	{ "openat:error=EIO:if=flags == 0 || path == \"x\"", 43, "bad path test", "&&" },
	{ "openat:error=EIO:if=path == \"x\" && flgs == 0", 36, "has no parameter 'flgs'", NULL },
};

static void errors(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1 };
	for (size_t i = 0; i < sizeof(bad_rules) / sizeof(bad_rules[0]); i++) {
		struct scg_diag *diag = scg_diag_new();
		struct scg_inject_rule *r = (struct scg_inject_rule *)&opts; /* must become NULL */
		int rc = scg_inject_rule_parse(bad_rules[i].rule, &opts, &r, diag);
		const struct scg_diag_entry *e = scg_diag_count(diag) ? scg_diag_get(diag, 0) : NULL;
		bool good = rc == -EINVAL && !r && e && e->severity == SCG_SEV_ERROR &&
			    e->loc.column == bad_rules[i].column &&
			    strstr(e->message, bad_rules[i].message) &&
			    (!bad_rules[i].hint || (e->hint && strstr(e->hint, bad_rules[i].hint)));
		if (!good)
			print_error("%s: rc %d, column %u, '%s' (%s)\n", bad_rules[i].rule, rc,
				    e ? e->loc.column : 0, e ? e->message : "-",
				    e && e->hint ? e->hint : "no hint");
		assert_true(good);
		scg_diag_free(diag);
	}
}

/* strace keeps one rule per syscall: a later rule for it replaces an earlier one. */
static void last_rule_wins(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1 };
	struct scg_inject_rule *r[3];
	assert_int_equal(scg_inject_rule_parse("getppid,getpid:retval=42:when=2", &opts, &r[0], NULL), 0);
	assert_int_equal(scg_inject_rule_parse("getppid:retval=7", &opts, &r[1], NULL), 0);
	assert_int_equal(scg_inject_rule_parse("gettid:error=EIO", &opts, &r[2], NULL), 0);
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_inject_rules_resolve(r, 3, diag), 0);
	assert_int_equal(scg_diag_count(diag), 1); /* rule 1 lost getppid; the others nothing */
	const struct scg_diag_entry *e = scg_diag_get(diag, 0);
	assert_int_equal(e->severity, SCG_SEV_WARNING);
	assert_int_equal(e->loc.line, 1);
	assert_non_null(strstr(e->message, "for getppid"));
	struct scg_seccomp_data d = { .arch = scg_arch_audit(x86_64()) };
	struct scg_verdict v;
	assert_int_equal(scg_syscall_lookup(x86_64(), "getppid", &d.nr), 0);
	scg_policy_eval(r[0]->match, &d, &v);
	assert_int_not_equal(v.source, SCG_VERDICT_RULE); /* no longer rule 1's */
	scg_policy_eval(r[1]->match, &d, &v);
	assert_int_equal(v.source, SCG_VERDICT_RULE);
	assert_int_equal(scg_syscall_lookup(x86_64(), "getpid", &d.nr), 0);
	scg_policy_eval(r[0]->match, &d, &v);
	assert_int_equal(v.source, SCG_VERDICT_RULE); /* getpid stays rule 1's */
	scg_diag_free(diag);
	for (size_t i = 0; i < 3; i++)
		scg_inject_rule_free(r[i]);
}

static bool has_name(const struct scg_inject_rule *r, const char *name)
{
	for (size_t i = 0; i < r->nsyscalls; i++)
		if (!strcmp(r->syscalls[i], name))
			return true;
	return false;
}

/* Path tests come out of the condition; the rest keeps its meaning (and columns, above). */
static void path_tests(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1 };
	static const struct {
		const char *rule;
		size_t npaths;
		const char *first;
		bool cond; /* something besides the paths */
	} cases[] = {
		{ "openat:error=EIO:if=path == \"notes.txt\"", 1, "notes.txt", false },
		{ "openat:error=EIO:if=flags == 0 && path == \"/a b\"", 1, "/a b", true },
		{ "openat:error=EIO:if=path==\"x\" && path == \"y\" && (flags & O_CREAT) != 0", 2, "x", true },
		{ "openat:error=EIO:if=path == \"x\" && flags == 0 && path == \"y\"", 2, "x", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scg_inject_rule *r;
		struct scg_diag *diag = scg_diag_new();
		int rc = scg_inject_rule_parse(cases[i].rule, &opts, &r, diag);
		if (rc)
			print_error("%s: %s\n", cases[i].rule,
				    scg_diag_count(diag) ? scg_diag_get(diag, 0)->message : "?");
		assert_int_equal(rc, 0);
		assert_int_equal(r->npaths, cases[i].npaths);
		assert_string_equal(r->paths[0], cases[i].first);
		assert_int_equal(r->cond != NULL, cases[i].cond);
		assert_false(scg_inject_rule_is_static(r)); /* the filter cannot read the path */
		scg_inject_rule_free(r);
		scg_diag_free(diag);
	}
	/* -P's way: a path added to a parsed rule */
	struct scg_inject_rule *r;
	assert_int_equal(scg_inject_rule_parse("openat:error=EIO", &opts, &r, NULL), 0);
	assert_true(scg_inject_rule_is_static(r));
	assert_int_equal(scg_inject_rule_add_path(r, "notes.txt"), 0);
	assert_false(scg_inject_rule_is_static(r));
	scg_inject_rule_free(r);
	/* which arguments hold names and descriptors */
	unsigned fds;
	assert_int_equal(scg_inject_path_args(x86_64(), "openat", &fds), 1U << 1);
	assert_int_equal(fds, 1U << 0);
	assert_int_equal(scg_inject_path_args(x86_64(), "renameat2", &fds), (1U << 1) | (1U << 3));
	assert_int_equal(fds, (1U << 0) | (1U << 2));
	assert_int_equal(scg_inject_path_args(x86_64(), "read", &fds), 0);
	assert_int_equal(fds, 1U << 0);
	assert_int_equal(scg_inject_path_args(x86_64(), "execve", &fds), 1U << 0); /* not argv */
	assert_int_equal(scg_inject_path_args(x86_64(), "getppid", &fds), 0);
	assert_int_equal(fds, 0);
}

/* strace's classes, per ABI: a member counts where the ABI's table has it. */
static void classes(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64(), scg_arch_lookup("x86") };
	struct scg_inject_options opts = { .arches = arches, .narches = 2 };
	static const struct {
		const char *rule, *in, *out;
	} cases[] = {
		{ "%file:error=EIO", "openat", "getpid" },	{ "%file:error=EIO", "execve", "read" },
		{ "%desc:error=EIO", "read", "getpid" },	{ "%desc:error=EIO", "openat", "socket" },
		{ "%process:error=EIO", "clone3", "getpid" },	{ "%network:error=EIO", "connect", "read" },
		{ "%net:error=EIO", "socketcall", "pipe" },	{ "%signal:error=EIO", "rt_sigaction", "read" },
		{ "%ipc:error=EIO", "semop", "socket" },	{ "%memory:error=EIO", "mmap2", "read" },
		{ "%creds:error=EIO", "setresuid32", "getpid" }, { "%clock:error=EIO", "clock_settime", "nanosleep" },
		{ "%pure:error=EIO", "getppid", "getpgid" },	{ "%stat:error=EIO", "stat64", "lstat" },
		{ "%lstat:error=EIO", "lstat", "stat" },	{ "%fstat:error=EIO", "newfstatat", "stat" },
		{ "%%stat:error=EIO", "statx", "statfs" },	{ "%statfs:error=EIO", "statfs64", "fstatfs" },
		{ "%fstatfs:error=EIO", "fstatfs", "statfs" },	{ "%%statfs:error=EIO", "ustat", "stat" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scg_inject_rule *r;
		assert_int_equal(scg_inject_rule_parse(cases[i].rule, &opts, &r, NULL), 0);
		if (!has_name(r, cases[i].in) || has_name(r, cases[i].out))
			print_error("%s: %s in? %d, %s in? %d\n", cases[i].rule, cases[i].in,
				    has_name(r, cases[i].in), cases[i].out, has_name(r, cases[i].out));
		assert_true(has_name(r, cases[i].in));
		assert_false(has_name(r, cases[i].out));
		scg_inject_rule_free(r);
	}
	/* stat64 is x86's alone: the rule covers it there, not on x86_64 */
	struct scg_inject_rule *r;
	assert_int_equal(scg_inject_rule_parse("%stat:error=EIO", &opts, &r, NULL), 0);
	for (size_t i = 0; i < r->nsyscalls; i++)
		if (!strcmp(r->syscalls[i], "stat64"))
			assert_int_equal(r->abi_masks[i], 2);
		else if (!strcmp(r->syscalls[i], "stat"))
			assert_int_equal(r->abi_masks[i], 3);
	scg_inject_rule_free(r);
	/* with a personality: x86_64's members only */
	assert_int_equal(scg_inject_rule_parse("%stat@64:error=EIO", &opts, &r, NULL), 0);
	assert_false(has_name(r, "stat64"));
	assert_true(has_name(r, "stat"));
	scg_inject_rule_free(r);
}

/* name@64, name@32: the rule covers only that personality's ABIs. */
static void personalities(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64(), scg_arch_lookup("x86"), scg_arch_lookup("x32") };
	struct scg_inject_options opts = { .arches = arches, .narches = 3 };
	static const struct {
		const char *rule;
		uint32_t mask;
	} cases[] = {
		{ "getppid:error=EIO", 7 },    { "getppid@64:error=EIO", 1 },
		{ "getppid@32:error=EIO", 2 }, { "getppid@x32:error=EIO", 4 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scg_inject_rule *r;
		assert_int_equal(scg_inject_rule_parse(cases[i].rule, &opts, &r, NULL), 0);
		assert_int_equal(r->nsyscalls, 1);
		if (r->abi_masks[0] != cases[i].mask)
			print_error("%s: mask %u\n", cases[i].rule, r->abi_masks[0]);
		assert_int_equal(r->abi_masks[0], cases[i].mask);
		for (size_t a = 0; a < 3; a++) { /* the match agrees, per ABI */
			struct scg_seccomp_data d = { .arch = scg_arch_audit(arches[a]) };
			assert_int_equal(scg_syscall_lookup(arches[a], "getppid", &d.nr), 0);
			struct scg_verdict v;
			scg_policy_eval(r->match, &d, &v);
			assert_int_equal(v.source == SCG_VERDICT_RULE, (cases[i].mask >> a) & 1);
		}
		scg_inject_rule_free(r);
	}
}

/* delay_enter=/delay_exit=: microseconds, or with a unit; never in the filter alone. */
static void delays(void **state)
{
	(void)state;
	const struct scg_arch *arches[] = { x86_64() };
	struct scg_inject_options opts = { .arches = arches, .narches = 1 };
	struct scg_inject_rule *r;
	assert_int_equal(scg_inject_rule_parse("getppid:delay_enter=1500", &opts, &r, NULL), 0);
	assert_true(r->has_delay_enter);
	assert_int_equal(r->delay_enter_us, 1500);
	assert_false(scg_inject_rule_is_static(r));
	scg_inject_rule_free(r);
	assert_int_equal(scg_inject_rule_parse("getppid:error=EIO:delay_exit=2ms:delay_enter=1s",
					       &opts, &r, NULL), 0);
	assert_int_equal(r->delay_exit_us, 2000);
	assert_int_equal(r->delay_enter_us, 1000000);
	assert_false(scg_inject_rule_is_static(r)); /* the supervisor waits */
	scg_inject_rule_free(r);
	assert_int_equal(scg_inject_rule_parse("getppid:retval=0:delay_exit=3000ns", &opts, &r, NULL), 0);
	assert_int_equal(r->delay_exit_us, 3);
	scg_inject_rule_free(r);
}

static void native_default(void **state)
{
	(void)state;
	/* Without options: the native ABI and its companions, so native names resolve. */
	struct scg_inject_rule *r;
	assert_int_equal(scg_inject_rule_parse("getpid:error=EPERM", NULL, &r, NULL), 0);
	assert_true(scg_policy_arch_count(r->match) >= 1);
	assert_ptr_equal(scg_policy_arch_at(r->match, 0), scg_arch_native());
	scg_inject_rule_free(r);
	scg_inject_rule_free(NULL);
}

/* The verdict @p gives x86_64's @name with arg0 = @arg0. */
static uint32_t verdict_of(const struct scg_policy *p, const char *name, uint64_t arg0)
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(x86_64(), name, &nr), 0);
	struct scg_seccomp_data data = { .nr = nr, .arch = scg_arch_audit(x86_64()), .args = { arg0 } };
	struct scg_verdict v;
	scg_policy_eval(p, &data, &v);
	return v.action;
}

/* scg_inject_policy_build(): the rules' calls ahead of the base policy's verdicts, except
 * the kernel's own (kill, trap); errno rules in the filter unless every rule is counted. */
static void installed_policy(void **state)
{
	(void)state;
	const char *text = "arch x86_64\ndefault allow\nkill ptrace\ntrap mount\n"
			   "errno(EPERM) openat if arg0 == 1\n";
	struct scg_policy *base = NULL, *p = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &base, NULL), 0);
	struct scg_inject_rule *rules[] = {
		parse_ok("openat,ptrace:error=EACCES"), parse_ok("mount,getpid:retval=0"),
	};
	assert_true(scg_inject_rule_in_filter(rules[0], false));
	assert_false(scg_inject_rule_in_filter(rules[0], true));
	assert_false(scg_inject_rule_in_filter(rules[1], false));
	assert_int_equal(scg_inject_policy_build(rules, 2, base, false, &p), 0);
	assert_int_equal(verdict_of(p, "openat", 0), SCG_RET_ERRNO | EACCES);
	assert_int_equal(verdict_of(p, "openat", 1), SCG_RET_ERRNO | EACCES); /* over the base's errno */
	assert_int_equal(verdict_of(p, "ptrace", 0), SCG_RET_KILL_PROCESS); /* the kernel's first */
	assert_int_equal(verdict_of(p, "mount", 0), SCG_RET_TRAP);
	assert_int_equal(verdict_of(p, "getpid", 0), SCG_RET_USER_NOTIF);
	assert_int_equal(verdict_of(p, "read", 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	assert_int_equal(scg_inject_policy_build(rules, 2, base, true, &p), 0);
	assert_int_equal(verdict_of(p, "openat", 0), SCG_RET_USER_NOTIF);
	assert_int_equal(verdict_of(p, "ptrace", 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	assert_int_equal(scg_inject_policy_build(rules, 2, NULL, false, &p), -EINVAL);
	assert_null(p);
	scg_inject_rule_free(rules[0]);
	scg_inject_rule_free(rules[1]);
	scg_policy_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(error_rule),     cmocka_unit_test(retval_rule),
		cmocka_unit_test(signal_rule),    cmocka_unit_test(when_option),
		cmocka_unit_test(when_expressions), cmocka_unit_test(sets),
		cmocka_unit_test(conditions),     cmocka_unit_test(fault_option),
		cmocka_unit_test(errors),         cmocka_unit_test(native_default),
		cmocka_unit_test(last_rule_wins), cmocka_unit_test(personalities),
		cmocka_unit_test(delays),         cmocka_unit_test(classes),
		cmocka_unit_test(path_tests),     cmocka_unit_test(installed_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
