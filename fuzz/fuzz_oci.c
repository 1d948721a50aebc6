/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as an OCI / Docker seccomp profile.  The
 * importer must either fail with an error diagnostic and no policy, or give
 * a policy; a policy must then export either to JSON that imports again, or
 * to a refusal with an error diagnostic.  Nothing may crash, leak or hang.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/oci.h>
#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool has_error(const struct scg_diag *diag)
{
	return scg_diag_count_at_least(diag, SCG_SEV_ERROR) > 0;
}

static void check_export(const struct scg_policy *policy, const struct scg_oci_options *opts)
{
	struct scg_diag *diag = scg_diag_new();
	char *json = NULL;
	int r = scg_oci_export(policy, &json, diag);
	if (r == -EINVAL && !has_error(diag))
		abort(); /* a refusal must say why */
	if (r == 0) {
		struct scg_policy *back = NULL;
		scg_diag_clear(diag);
		/* what the exporter writes, the importer must read */
		if (scg_oci_import(json, strlen(json), opts, &back, diag) < 0)
			abort();
		scg_policy_free(back);
	}
	free(json);
	scg_diag_free(diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const caps[] = { "CAP_SYS_ADMIN" };
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	/* the first byte, when there is one, varies the options */
	unsigned pick = size ? data[0] : 0;
	opts.host_arch = (pick & 1) ? "arm64" : "amd64";
	opts.kernel = (pick & 2) ? "4.4" : "6.1";
	opts.runc_enosys = !(pick & 4);
	if (pick & 8) {
		opts.caps = caps;
		opts.ncaps = 1;
	}
	opts.filename = "fuzz.json";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	if (!diag)
		return 0;
	int r = scg_oci_import((const char *)data, size, &opts, &policy, diag);
	if (r == -EINVAL && (policy || !has_error(diag)))
		abort();
	if (r == 0) {
		if (!policy)
			abort();
		check_export(policy, &opts);
	}
	scg_policy_free(policy);
	scg_diag_free(diag);
	return 0;
}
