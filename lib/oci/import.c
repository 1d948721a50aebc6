/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* scg_oci_import(): text -> JSON tree -> profile -> Docker's selection -> policy. */
#include <errno.h>

#include "internal.h"
#include "util/opts.h"

void scg_oci_options_init(struct scg_oci_options *opts)
{
	*opts = (struct scg_oci_options){ .sz = sizeof(*opts), .runc_enosys = true };
}

int scg_oci_import(const char *json, size_t len, const struct scg_oci_options *opts,
		   struct scg_policy **out, struct scg_diag *diag)
{
	struct scg_oci_options known;
	if (!opts)
		scg_oci_options_init(&known);
	else if (opts_load(&known, sizeof(known), opts, OPTS_END(struct scg_oci_options, filename)))
		return -EINVAL;
	opts = &known;
	if (!json && len)
		return -EINVAL;
	const char *file = opts->filename ? opts->filename : "<oci>";
	struct oci_doc doc;
	struct oci_profile profile = { 0 };
	struct oci_resolved res = { 0 };
	struct scg_policy *policy = NULL;
	int r = oci_doc_parse(&doc, json ? json : "", len, file, diag);
	if (r == 0)
		r = oci_profile_read(&doc, &profile);
	if (r == 0)
		r = oci_resolve(&doc, &profile, opts, &res);
	if (r == 0)
		r = oci_build(&doc, &res, opts, &policy);
	if (r == 0 && doc.errors)
		r = -EINVAL;
	oci_resolved_release(&res);
	oci_profile_release(&profile);
	oci_doc_release(&doc);
	if (r < 0) {
		scg_policy_free(policy);
		return r;
	}
	*out = policy;
	return 0;
}
