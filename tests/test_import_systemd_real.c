/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The systemd importer against systemd itself: each unit in
 * tests/data/systemd/ was started by systemd 252 (Debian 12) and the filters
 * it installed were read back with `syscage dump --format raw -o
 * NAME.filters PID`.  The import of the unit, compiled, must be equivalent
 * to that whole stack over every possible input (a proof by the analysis
 * engine, not a sample).
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

/* systemd's stack for @name, oldest filter first; returns how many. */
static size_t read_stack(const char *name, struct scg_prog *stack)
{
	size_t n = 0;
	for (; n < MAX_FILTERS; n++) {
		char path[256];
		snprintf(path, sizeof(path), "tests/data/systemd/%s.filters/filter-%zu.bpf", name,
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

static void check_unit(const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "tests/data/systemd/%s.service", name);
	size_t len;
	char *text = read_text(path, &len);
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = path;
	struct scg_policy *p = NULL;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_systemd_import(text, len, &o, &p, diag), 0);
	struct scg_prog ours;
	assert_int_equal(scg_compile(p, NULL, &ours, diag), 0);
	struct scg_prog stack[MAX_FILTERS];
	size_t n = read_stack(name, stack);
	/* systemd stacks apply the newest filter first; the engine takes them oldest first too */
	int r = scg_analysis_diff(stack, n, &ours, 1, NULL, report, (void *)name, diag);
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
	check_unit("allow-list");
}

/* Every protection directive, a deny list with :errno and :kill, a log list, all ABIs. */
static void hardening(void **state)
{
	(void)state;
	check_unit("hardening");
}

/* Lines adding to and taking from an allow list; SystemCallArchitectures=x86. */
static void merged(void **state)
{
	(void)state;
	check_unit("merged");
}

/* Family lists over two lines, an allow list with EACCES, a log list in deny mode. */
static void families(void **state)
{
	(void)state;
	check_unit("families");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(allow_list),
	    cmocka_unit_test(hardening),
	    cmocka_unit_test(merged),
	    cmocka_unit_test(families),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
