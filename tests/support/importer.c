/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/importer.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int test_import(test_import_fn import, const char *text, const char *file,
		struct scg_policy **policy, struct scg_diag *diag)
{
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = file;
	return import(text, strlen(text), &o, policy, diag);
}

struct scg_policy *test_import_ok(test_import_fn import, const char *text, const char *file)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *p = NULL;
	int r = test_import(import, text, file, &p, diag);
	for (size_t i = 0; r && i < scg_diag_count(diag); i++) {
		char buf[512];
		scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
		print_error("%s\n", buf);
	}
	assert_int_equal(r, 0);
	assert_non_null(p);
	scg_diag_free(diag);
	return p;
}

uint32_t test_verdict_nr(const struct scg_policy *p, uint32_t nr, uint32_t audit, uint64_t a0,
			 uint64_t a1, uint64_t a2)
{
	struct scg_seccomp_data d = {.nr = (int32_t)nr, .arch = audit, .args = {a0, a1, a2}};
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

uint32_t test_verdict(const struct scg_policy *p, const char *name, uint64_t a0, uint64_t a1,
		      uint64_t a2)
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup("x86_64"), name, &nr), 0);
	return test_verdict_nr(p, nr, TEST_AUDIT_X86_64, a0, a1, a2);
}

size_t test_first_error(test_import_fn import, const char *text, const char *file, char *buf,
			size_t size, char *hint, size_t hsize)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *p = NULL;
	assert_int_equal(test_import(import, text, file, &p, diag), -EINVAL);
	assert_null(p);
	bool found = false;
	for (size_t i = 0; !found && i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity != SCG_SEV_ERROR)
			continue;
		scg_diag_format(e, buf, size);
		snprintf(hint, hsize, "%s", e->hint ? e->hint : "");
		found = true;
	}
	assert_true(found);
	size_t n = scg_diag_count(diag);
	scg_diag_free(diag);
	return n;
}

char *test_write_file(const char *dir, const char *name, const char *text)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len);
	assert_non_null(path);
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

void test_same_verdicts(const struct scg_policy *a, const struct scg_policy *b,
			const uint64_t *vals, size_t nvals)
{
	const struct scg_arch *abi = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < scg_syscall_count(abi); i++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(abi, i, &name, &nr);
		for (size_t x = 0; x < nvals; x++)
			for (size_t y = 0; y < nvals; y++) {
				struct scg_seccomp_data d = {
				    .nr = (int32_t)nr,
				    .arch = TEST_AUDIT_X86_64,
				    .args = {vals[x], vals[y], vals[y], vals[x]}};
				struct scg_verdict va, vb;
				scg_policy_eval(a, &d, &va);
				scg_policy_eval(b, &d, &vb);
				if (va.action != vb.action)
					fail_msg("%s(%#llx, %#llx): %#x, then %#x", name,
						 (unsigned long long)vals[x],
						 (unsigned long long)vals[y], va.action, vb.action);
			}
	}
}

void test_export_refused(test_export_fn export, const char *policy, const char *message,
			 unsigned line)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(policy, strlen(policy), NULL, &p, diag), 0);
	char *text = NULL;
	assert_int_equal(export(p, &text, diag), -EINVAL);
	assert_null(text);
	bool found = false;
	for (size_t j = 0; j < scg_diag_count(diag); j++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, j);
		if (strstr(e->message, message) && (!line || e->loc.line == line))
			found = true;
	}
	if (!found) {
		for (size_t j = 0; j < scg_diag_count(diag); j++)
			print_error("%s\n", scg_diag_get(diag, j)->message);
		fail_msg("no '%s' (line %u) for:\n%s", message, line, policy);
	}
	scg_policy_free(p);
	scg_diag_free(diag);
}
