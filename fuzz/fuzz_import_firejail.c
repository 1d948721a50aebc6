/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as firejail options (a profile or a command
 * line).  The importer must either fail with an error diagnostic and no
 * policy, or return a policy
 * with no error diagnostic, whose rules all point at a line of the input
 * (or of a file it includes: those are read from the disk, regular files
 * only, a megabyte at most), and that compiles (or is refused as too big).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned count_lines(const uint8_t *data, size_t size)
{
	unsigned n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check_policy(const struct scg_policy *p, unsigned lines)
{
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule rule;
		if (scg_policy_rule_at(p, i, &rule) < 0)
			abort();
		if (rule.loc.file && !strcmp(rule.loc.file, "fuzz.profile") && rule.loc.line > lines)
			abort();
	}
	struct scg_prog prog;
	int rc = scg_compile(p, NULL, &prog, NULL);
	if (rc == 0)
		scg_prog_release(&prog);
	else if (rc != -E2BIG)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* profiles are small; a long one only repeats what a short one covers */
	if (size > 4096)
		return 0;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	struct scg_import_options opts;
	scg_import_options_init(&opts);
	opts.filename = "fuzz.profile";
	struct scg_policy *p = NULL;
	int rc = scg_firejail_import((const char *)data, size, &opts, &p, diag);
	if (rc == 0) {
		if (!p || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		check_policy(p, count_lines(data, size));
		scg_policy_free(p);
	} else if (rc == -EINVAL) {
		if (p || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			abort();
	} else if (rc != -ENOMEM || p) {
		abort();
	}
	scg_diag_free(diag);
	return 0;
}
