/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The OCI entry points of a build without json-c (meson -Doci=disabled):
 * each one says that the part was left out, so callers need no conditionals.
 */
#include <errno.h>
#include <string.h>

#include <syscage/oci.h>

static const char without_oci[] = "this syscage was built without OCI/Docker JSON support";
static const char rebuild_hint[] = "install libjson-c-dev and run meson setup with -Doci=enabled";

void scg_oci_options_init(struct scg_oci_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->runc_enosys = true;
}

int scg_oci_import(const char *json, size_t len, const struct scg_oci_options *opts,
		   struct scg_policy **out, struct scg_diag *diag)
{
	(void)json;
	(void)len;
	*out = NULL;
	scg_diag_add(diag, SCG_SEV_ERROR,
		     (struct scg_loc){ .file = opts ? opts->filename : NULL, .insn = -1 },
		     "oci-unavailable", rebuild_hint, "%s", without_oci);
	return -ENOTSUP;
}

int scg_k8s_import(const char *yaml, size_t len, const struct scg_oci_options *opts,
		   struct scg_policy **out, struct scg_diag *diag)
{
	return scg_oci_import(yaml, len, opts, out, diag);
}

int scg_oci_export(const struct scg_policy *policy, char **json, struct scg_diag *diag)
{
	(void)policy;
	*json = NULL;
	scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){ .insn = -1 }, "oci-unavailable",
		     rebuild_hint, "%s", without_oci);
	return -ENOTSUP;
}
