/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a minijail policy.  The importer must either
 * fail with an error diagnostic and no policy, or return a policy with no
 * error diagnostic that compiles (or is refused as too big); the exporter
 * must then write it back or refuse it with an error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_policy(const struct scg_policy *p)
{
	struct scg_prog prog;
	int rc = scg_compile(p, NULL, &prog, NULL);
	if (rc == 0)
		scg_prog_release(&prog);
	else if (rc != -E2BIG)
		abort();
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return;
	char *text = NULL;
	rc = scg_minijail_export(p, &text, diag);
	if ((rc == 0) != (text != NULL) ||
	    (rc == -EINVAL && scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0))
		abort();
	free(text);
	scg_diag_free(diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* policies are small; a long one only repeats what a short one covers */
	if (size > 4096)
		return 0;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	struct scg_import_options opts;
	scg_import_options_init(&opts);
	opts.filename = "fuzz.policy";
	struct scg_policy *p = NULL;
	int rc = scg_minijail_import((const char *)data, size, &opts, &p, diag);
	if (rc == 0) {
		if (!p || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		check_policy(p);
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
