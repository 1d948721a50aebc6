/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading a policy named on the command line: a file in the policy
 * language, an OCI/Docker JSON profile (*.json), or the name of a built-in
 * profile.  A name counts as a file when it looks like one (a '/' or a
 * .policy/.json suffix) or a file of that name exists; anything else must
 * be a built-in profile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/oci.h>

#include "cli.h"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static bool looks_like_file(const char *name)
{
	return !strcmp(name, "-") || strchr(name, '/') || has_suffix(name, ".policy") ||
	       has_suffix(name, ".json") || access(name, F_OK) == 0;
}

bool cli_is_policy_ref(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return false;
	if (has_suffix(path, ".policy") || has_suffix(path, ".json"))
		return true;
	return !strchr(path, '/') && access(path, F_OK) != 0 && scg_profile_source(path) != NULL;
}

/* Makes @arches (when given) the policy's exact targets. */
static int set_targets(struct scg_policy *p, const struct scg_arch *const *arches, size_t n)
{
	if (n == 0)
		return 0;
	while (scg_policy_arch_count(p))
		scg_policy_remove_arch(p, scg_policy_arch_at(p, 0));
	for (size_t i = 0; i < n; i++) {
		int r = scg_policy_add_arch(p, arches[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

#define MAX_CAPS 64

static struct oci_import {
	bool ready;
	struct scg_oci_options opts;
	const char *caps[MAX_CAPS];
	char *caps_text; /* the list the caps point into, kept until exit */
} oci_import;

struct scg_oci_options *cli_oci_import_options(void)
{
	if (!oci_import.ready) {
		scg_oci_options_init(&oci_import.opts);
		oci_import.ready = true;
	}
	return &oci_import.opts;
}

static void free_caps_text(void)
{
	free(oci_import.caps_text);
}

int cli_oci_set_caps(const char *list)
{
	struct scg_oci_options *opts = cli_oci_import_options();
	char *copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	if (!oci_import.caps_text)
		atexit(free_caps_text);
	free(oci_import.caps_text);
	oci_import.caps_text = copy;
	size_t n = 0;
	for (char *save = NULL, *cap = strtok_r(copy, ", ", &save); cap;
	     cap = strtok_r(NULL, ", ", &save)) {
		if (n == MAX_CAPS) {
			cli_error("--caps: more than %d capabilities", MAX_CAPS);
			return -E2BIG;
		}
		oci_import.caps[n++] = cap;
	}
	/* An empty list is a container without capabilities, not Docker's default set. */
	opts->caps = oci_import.caps;
	opts->ncaps = n;
	return 0;
}

const char cli_oci_usage[] =
	"OCI options (for *.json profiles: what Docker and runc would select):\n"
	"  --caps CAP,...        the container's capabilities (default: Docker's\n"
	"                        default set; ALL for every one; '' for none)\n"
	"  --kernel VERSION      the host kernel for minKernel, e.g. 5.10 (default:\n"
	"                        the running one)\n"
	"  --host-arch ARCH      the host architecture for archMap (amd64, arm64, ...;\n"
	"                        default: native)\n"
	"  --no-enosys-stub      leave out runc's ENOSYS answer for syscalls newer\n"
	"                        than the profile\n"
	"  --int-args-32         compare int arguments (socket's domain, ...) over\n"
	"                        their low 32 bits, as the kernel reads them, not\n"
	"                        over the whole register as libseccomp does; closes\n"
	"                        holes such as socket(AF_VSOCK | 1<<32, ...) under\n"
	"                        Docker's profile, so verdicts differ from runc's\n";

int cli_oci_option(int c, const char *arg)
{
	struct scg_oci_options *opts = cli_oci_import_options();
	switch (c) {
	case CLI_OPT_OCI_CAPS: {
		int r = cli_oci_set_caps(arg);
		if (r == -ENOMEM)
			cli_error("--caps: %s", strerror(-r));
		return r;
	}
	case CLI_OPT_OCI_KERNEL:
		opts->kernel = arg;
		return 0;
	case CLI_OPT_OCI_HOST_ARCH:
		opts->host_arch = arg;
		return 0;
	case CLI_OPT_OCI_NO_STUB:
		opts->runc_enosys = false;
		return 0;
	case CLI_OPT_OCI_INT_ARGS_32:
		opts->int_args_32 = true;
		return 0;
	default:
		return 1;
	}
}

static int load_json(const char *path, struct scg_policy **out, struct scg_diag *diag)
{
	char *data;
	size_t len;
	int r = cli_read_file(path, &data, &len);
	if (r < 0)
		return r;
	struct scg_oci_options opts = *cli_oci_import_options();
	opts.filename = path;
	r = scg_oci_import(data, len, &opts, out, diag);
	free(data);
	return r;
}

static void unknown_profile(const char *name)
{
	const char *hint = scg_profile_suggest(name);
	if (hint)
		cli_error("'%s' is neither a file nor a built-in profile; did you mean '%s'?", name,
			  hint);
	else
		cli_error("'%s' is neither a file nor a built-in profile ('syscage compile "
			  "--list-profiles' lists them)",
			  name);
}

static enum cli_policy_warnings policy_warnings = CLI_POLICY_WARN_QUIET_ABI;

void cli_set_policy_warnings(enum cli_policy_warnings which)
{
	policy_warnings = which;
}

static bool shown(const struct scg_diag_entry *e, const char *name_or_path)
{
	if (e->severity != SCG_SEV_WARNING)
		return true;
	switch (policy_warnings) {
	case CLI_POLICY_WARN_ALL:
		return true;
	case CLI_POLICY_WARN_QUIET_ABI:
		return !e->code || strcmp(e->code, "absent-syscall");
	case CLI_POLICY_WARN_LINT:
		return !has_suffix(name_or_path, ".policy");
	}
	return true;
}

int cli_load_policy(const char *name_or_path, const struct scg_arch *const *arches,
		    size_t narches, struct scg_policy **out)
{
	*out = NULL;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	struct scg_policy_source_options opts = { .filename = name_or_path,
						  .arches = narches ? arches : NULL,
						  .narches = narches };
	int r;
	if (has_suffix(name_or_path, ".json")) {
		r = load_json(name_or_path, out, diag);
		if (r == 0)
			r = set_targets(*out, arches, narches);
	} else if (looks_like_file(name_or_path)) {
		if (!strcmp(name_or_path, "-")) {
			char *text;
			size_t len;
			opts.filename = "<stdin>";
			r = cli_read_file("-", &text, &len);
			if (r == 0) {
				r = scg_policy_parse(text, len, &opts, out, diag);
				free(text);
			}
		} else {
			r = scg_policy_parse_file(name_or_path, &opts, out, diag);
		}
	} else if (scg_profile_source(name_or_path)) {
		r = scg_profile_load(name_or_path, &opts, out, diag);
	} else {
		unknown_profile(name_or_path);
		r = -ENOENT;
	}
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (shown(scg_diag_get(diag, i), name_or_path))
			cli_print_diag_entry(scg_diag_get(diag, i));
	if (r == -ENOMEM)
		cli_error("cannot load policy '%s': %s", name_or_path, strerror(-r));
	if (r < 0) {
		scg_policy_free(*out);
		*out = NULL;
	}
	scg_diag_free(diag);
	return r;
}
