/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The importers against the tools themselves: each unit in
 * tests/data/systemd/ was started by systemd 252 (Debian 12), each profile
 * in tests/data/firejail/ by firejail 0.9.72, and the filters they
 * installed were read back with `syscage dump --format raw -o NAME.filters
 * PID`.  The import, compiled, must be equivalent to that whole stack over
 * every possible input (a proof by the analysis engine, not a sample).  And policies written back
 * as systemd settings (scg_systemd_export()) import again to the same filter.
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

#include <syscage/analysis.h>
#include <syscage/syscage.h>

#include "support/importer.h"

#define MAX_FILTERS 64

static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 16);
	assert_non_null(buf);
	*len = fread(buf, 1, (1 << 16) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* The tool's stack for @name in tests/data/@dir, oldest filter first; returns how many. */
static size_t read_stack(const char *dir, const char *name, struct scg_prog *stack)
{
	size_t n = 0;
	for (; n < MAX_FILTERS; n++) {
		char path[256];
		snprintf(path, sizeof(path), "tests/data/%s/%s.filters/filter-%zu.bpf", dir, name,
			 n);
		FILE *f = fopen(path, "rb");
		if (!f)
			break;
		fclose(f);
		assert_int_equal(scg_prog_read_file(path, &stack[n], NULL), 0);
	}
	assert_true(n > 0);
	return n;
}

static int report(void *ctx, const struct scg_region *region, uint32_t a, uint32_t b)
{
	(void)region;
	print_error("%s: systemd gives 0x%08x, the import 0x%08x\n", (const char *)ctx, a, b);
	return 0;
}

typedef int (*import_fn)(const char *text, size_t len, const struct scg_import_options *opts,
			 struct scg_policy **out, struct scg_diag *diag);

static void check_import(const char *dir, const char *name, const char *suffix, import_fn import)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/data/%s/%s%s", dir, name, suffix);
	size_t len;
	char *text = read_text(path, &len);
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = path;
	struct scg_policy *p = NULL;
	struct scg_diag *diag = scg_diag_new();
	int r = import(text, len, &o, &p, diag);
	for (size_t i = 0; r < 0 && i < scg_diag_count(diag); i++)
		print_error("%s\n", scg_diag_get(diag, i)->message);
	assert_int_equal(r, 0);
	struct scg_prog ours;
	assert_int_equal(scg_compile(p, NULL, &ours, diag), 0);
	struct scg_prog stack[MAX_FILTERS];
	size_t n = read_stack(dir, name, stack);
	/* the kernel runs the newest filter first; the engine takes them oldest first too */
	r = scg_analysis_diff(stack, n, &ours, 1, NULL, report, (void *)name, diag);
	if (r < 0 && scg_diag_count(diag))
		print_error("%s\n", scg_diag_get(diag, 0)->message);
	assert_int_equal(r, 0);
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&stack[i]);
	scg_prog_release(&ours);
	scg_policy_free(p);
	scg_diag_free(diag);
	free(text);
}

/* An allow list with removals, ErrorNumber, native ABI only, families, namespaces, W^X. */
static void allow_list(void **state)
{
	(void)state;
	check_import("systemd", "allow-list", ".service", scg_systemd_import);
}

/* Every protection directive, a deny list with :errno and :kill, a log list, all ABIs. */
static void hardening(void **state)
{
	(void)state;
	check_import("systemd", "hardening", ".service", scg_systemd_import);
}

/* Lines adding to and taking from an allow list; SystemCallArchitectures=x86. */
static void merged(void **state)
{
	(void)state;
	check_import("systemd", "merged", ".service", scg_systemd_import);
}

/* Family lists over two lines, an allow list with EACCES, a log list in deny mode. */
static void families(void **state)
{
	(void)state;
	check_import("systemd", "families", ".service", scg_systemd_import);
}

/* firejail's default lists: its prebuilt x86_64 and i386 filters. */
static void firejail_default(void **state)
{
	(void)state;
	check_import("firejail", "default", ".profile", scg_firejail_import);
}

/* A drop list with a group, the W^X filters, kill as the error action. */
static void firejail_drop(void **state)
{
	(void)state;
	check_import("firejail", "drop", ".profile", scg_firejail_import);
}

/* seccomp.block-secondary and the W^X filters, as firejail loaded them. */
static void firejail_secondary(void **state)
{
	(void)state;
	check_import("firejail", "secondary", ".profile", scg_firejail_import);
}

/* The default list with a list of its own, restrict-namespaces, EACCES. */
static void firejail_namespaces(void **state)
{
	(void)state;
	check_import("firejail", "namespaces", ".profile", scg_firejail_import);
}

/* seccomp.32.drop, for which firejail 0.9.72 installs its i386 default list. */
static void firejail_drop32(void **state)
{
	(void)state;
	check_import("firejail", "drop32", ".profile", scg_firejail_import);
}

/* seccomp.32 with a list that firejail 0.9.72 leaves out. */
static void firejail_seccomp32(void **state)
{
	(void)state;
	check_import("firejail", "seccomp32", ".profile", scg_firejail_import);
}

/* Compiles @a and @b and proves them equal. */
static void assert_same_filter(const struct scg_policy *a, const struct scg_policy *b,
			       const char *what)
{
	struct scg_prog pa, pb;
	assert_int_equal(scg_compile(a, NULL, &pa, NULL), 0);
	assert_int_equal(scg_compile(b, NULL, &pb, NULL), 0);
	assert_int_equal(scg_analysis_diff(&pa, 1, &pb, 1, NULL, report, (void *)what, NULL), 0);
	scg_prog_release(&pa);
	scg_prog_release(&pb);
}

#define import_text(text) test_import_ok(scg_systemd_import, text, "exported.service")

/* @p as systemd settings, imported again: the same filter. */
static void round_trip(const struct scg_policy *p, const char *what)
{
	char *text = NULL;
	struct scg_diag *diag = scg_diag_new();
	int r = scg_systemd_export(p, &text, diag);
	for (size_t i = 0; r < 0 && i < scg_diag_count(diag); i++)
		print_error("%s\n", scg_diag_get(diag, i)->message);
	assert_int_equal(r, 0);
	struct scg_policy *back = import_text(text);
	assert_same_filter(p, back, what);
	scg_policy_free(back);
	scg_diag_free(diag);
	free(text);
}

/* A deny list with errnos and a kill, written in the policy language. */
static void round_trip_deny_list(void **state)
{
	(void)state;
	static const char text[] = "arch x86_64, x86, x32\ndefault allow\nbadarch allow\n"
				   "errno(EACCES) ptrace\nkill mount\nerrno(EPERM) @clock\n";
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, NULL), 0);
	round_trip(p, "deny list");
	scg_policy_free(p);
}

/* An imported unit with an allow list over two ABIs and lines that add and take away. */
static void round_trip_allow_list(void **state)
{
	(void)state;
	size_t len;
	char *text = read_text("tests/data/systemd/merged.service", &len);
	struct scg_policy *p = import_text(text);
	round_trip(p, "merged.service");
	scg_policy_free(p);
	free(text);
}

/* Whether importing the profile @text fails with an error at @line, @col that says @part. */
static bool firejail_error_at(const char *text, unsigned line, unsigned col, const char *part)
{
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = "bad.profile";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_firejail_import(text, strlen(text), &o, &p, diag), -EINVAL);
	assert_null(p);
	bool found = false;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		found |= e->severity == SCG_SEV_ERROR && e->loc.line == line &&
			 e->loc.column == col && strstr(e->message, part);
	}
	scg_diag_free(diag);
	return found;
}

/* The column of a profile's word after blank lines, a comment, tabs and a CRLF line end. */
static void firejail_locations(void **state)
{
	(void)state;
	assert_true(firejail_error_at("\n\t# a comment\n  seccomp\n\tprotocol\t unix,ipx\r\n", 4,
				      17, "'ipx' is not a protocol"));
	assert_true(firejail_error_at("\r\n\n\tseccomp.drop\t\tptrace,@clok\r\n", 3, 23,
				      "unknown group '@clok'"));
	assert_true(firejail_error_at("--seccomp.drop=read\t bogus", 1, 22, "'bogus' is no option"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(allow_list),
	    cmocka_unit_test(hardening),
	    cmocka_unit_test(merged),
	    cmocka_unit_test(families),
	    cmocka_unit_test(firejail_default),
	    cmocka_unit_test(firejail_drop),
	    cmocka_unit_test(firejail_secondary),
	    cmocka_unit_test(firejail_namespaces),
	    cmocka_unit_test(firejail_seccomp32),
	    cmocka_unit_test(firejail_drop32),
	    cmocka_unit_test(firejail_locations),
	    cmocka_unit_test(round_trip_deny_list),
	    cmocka_unit_test(round_trip_allow_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
