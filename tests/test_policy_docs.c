/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * docs/policy.md checked against the library: every ```policy block parses
 * (without any diagnostic) and compiles; blocks marked "error" must fail;
 * blocks marked "file=NAME" are written to a scratch directory first, so
 * others can include them.  The page must also list every group, and
 * profiles/README.md every built-in profile.  Run from the top of the source
 * tree (meson test does).
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

#include "support/diag_print.h"

#define DOC "docs/policy.md"

struct block {
	char info[64]; /* what follows "```policy" */
	char *text;
	unsigned line; /* of the opening fence */
};

static struct block blocks[128];
static size_t nblocks;
static char *doc;
static char tmpdir[64];

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *s = malloc(cap);
	size_t n;
	while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *grown = realloc(s, cap *= 2);
			if (!grown)
				free(s);
			s = grown;
		}
	}
	fclose(f);
	if (s)
		s[len] = '\0';
	return s;
}

/* Splits the page into lines and collects the policy blocks (fences may be indented). */
static void collect_blocks(void)
{
	char *save = NULL, *copy = strdup(doc);
	assert_non_null(copy);
	struct block *cur = NULL;
	size_t indent = 0, cap = 0, len = 0;
	unsigned lineno = 0;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++; /* strtok_r skips empty lines: the count is approximate */
		size_t lead = strspn(line, " ");
		if (!cur && !strncmp(line + lead, "```policy", 9)) {
			assert_true(nblocks < sizeof(blocks) / sizeof(blocks[0]));
			cur = &blocks[nblocks++];
			snprintf(cur->info, sizeof(cur->info), "%s", line + lead + 9);
			cur->line = lineno;
			indent = lead;
			cap = 4096;
			len = 0;
			cur->text = calloc(1, cap);
			continue;
		}
		if (!cur)
			continue;
		if (!strncmp(line + lead, "```", 3)) {
			cur = NULL;
			continue;
		}
		const char *body = strlen(line) >= indent ? line + indent : "";
		size_t need = len + strlen(body) + 2;
		if (need > cap)
			cur->text = realloc(cur->text, cap = need * 2);
		assert_non_null(cur->text);
		len += (size_t)sprintf(cur->text + len, "%s\n", body);
	}
	assert_null(cur); /* every block is closed */
	free(copy);
}

static int setup(void **state)
{
	(void)state;
	doc = read_all(DOC);
	if (!doc) {
		fprintf(stderr, "cannot read %s (run from the top of the source tree)\n", DOC);
		return -1;
	}
	strcpy(tmpdir, "/tmp/scg-docs-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	for (size_t i = 0; i < nblocks; i++)
		free(blocks[i].text);
	free(doc);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_named_blocks(void)
{
	for (size_t i = 0; i < nblocks; i++) {
		const char *name = strstr(blocks[i].info, "file=");
		if (!name)
			continue;
		char path[256];
		snprintf(path, sizeof(path), "%s/%s", tmpdir, name + 5);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(blocks[i].text, f);
		fclose(f);
	}
}

static void check_block(const struct block *b, size_t index)
{
	char name[256];
	snprintf(name, sizeof(name), "%s/block%zu.policy", tmpdir, index);
	struct scg_policy_source_options opts = {.filename = name};
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	int r = scg_policy_parse(b->text, strlen(b->text), &opts, &p, diag);
	if (strstr(b->info, "error")) {
		if (r != -EINVAL || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			fail_msg("block near line %u should not parse:\n%s", b->line, b->text);
		scg_diag_free(diag);
		return;
	}
	bool warnings_ok = strstr(b->info, "warning") != NULL;
	if (r != 0 || (!warnings_ok && scg_diag_count(diag))) {
		test_print_diag(diag);
		fail_msg("block near line %u:\n%s", b->line, b->text);
	}
	struct scg_prog prog;
	r = scg_compile(p, NULL, &prog, diag);
	if (r != 0) {
		test_print_diag(diag);
		fail_msg("block near line %u does not compile (%d):\n%s", b->line, r, b->text);
	}
	scg_prog_release(&prog);
	scg_policy_free(p);
	scg_diag_free(diag);
}

static void test_examples(void **state)
{
	(void)state;
	collect_blocks();
	if (nblocks < 12)
		fail_msg("only %zu policy blocks found in %s", nblocks, DOC);
	write_named_blocks();
	for (size_t i = 0; i < nblocks; i++)
		check_block(&blocks[i], i);
}

static void test_lists_every_group(void **state)
{
	(void)state;
	for (size_t i = 0; i < scg_group_count(); i++) {
		char needle[64];
		snprintf(needle, sizeof(needle), "| `@%s` | %s |", scg_group_name(i),
			 scg_group_summary(i));
		if (!strstr(doc, needle))
			fail_msg("%s lacks the row: %s", DOC, needle);
	}
}

static void test_lists_every_profile(void **state)
{
	(void)state;
	char *readme = read_all("profiles/README.md");
	assert_non_null(readme);
	for (size_t i = 0; i < scg_profile_count(); i++) {
		char needle[64];
		snprintf(needle, sizeof(needle), "| `%s` |", scg_profile_name(i));
		if (!strstr(readme, needle))
			fail_msg("profiles/README.md does not list the profile %s",
				 scg_profile_name(i));
	}
	free(readme);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_examples),
	    cmocka_unit_test(test_lists_every_group),
	    cmocka_unit_test(test_lists_every_profile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
