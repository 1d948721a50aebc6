/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading a filter or a policy named on the command line: a file in any
 * input format (scg_input_load(): told by its content, or the one
 * --input-format names), or the name of a built-in profile.  A name counts
 * as a file when it looks like one (a '/' or a known suffix) or a file of
 * that name exists; anything else must be a built-in profile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/import.h>
#include <syscage/load.h>
#include <syscage/oci.h>

#include "cli.h"

/* The @frequency counts of the last minijail policy loaded (cli_policy_counts()). */
static struct scg_import_count *policy_counts;
static size_t policy_ncounts;

static void free_policy_counts(void)
{
	scg_import_counts_free(policy_counts, policy_ncounts);
	policy_counts = NULL;
	policy_ncounts = 0;
}

const struct scg_import_count *cli_policy_counts(size_t *n)
{
	*n = policy_ncounts;
	return policy_counts;
}

static int read_counts(const char *name, const char *text, size_t len, struct scg_diag *diag)
{
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = name;
	static bool registered;
	if (!registered)
		atexit(free_policy_counts);
	registered = true;
	free_policy_counts();
	return scg_minijail_frequency(text, len, &o, &policy_counts, &policy_ncounts, diag);
}

/* OCI JSON and Kubernetes YAML, which libsyscage-oci reads with the OCI options. */
static int import_side(enum scg_input_format format, const char *text, size_t len,
		       const char *filename, void *ctx, struct scg_policy **out,
		       struct scg_diag *diag)
{
	struct scg_oci_options o = *(const struct scg_oci_options *)ctx;
	o.filename = filename;
	if (format == SCG_INPUT_K8S)
		return scg_k8s_import(text, len, &o, out, diag);
	return scg_oci_import(text, len, &o, out, diag);
}

static enum scg_input_format chosen_format = SCG_INPUT_AUTO;

int cli_set_input_format(const char *name)
{
	enum scg_input_format f;
	if (scg_input_format_parse(name, &f) == 0) {
		chosen_format = f;
		return 0;
	}
	char list[200] = "";
	for (int i = 1; i <= SCG_INPUT_FORMATS; i++) {
		strncat(list, i > 1 ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, scg_input_format_name((enum scg_input_format)i),
			sizeof(list) - strlen(list) - 1);
	}
	cli_error("--input-format: unknown format '%s' (the formats: %s)", name, list);
	return -EINVAL;
}

bool cli_takes_input_format(const char *command)
{
	static const char *const commands[] = { "compile", "run",    "diff",   "lint",
						"explain", "decompile", "emu", "fuse",
						"disasm",  "verify", "inject", NULL };
	for (const char *const *c = commands; *c; c++)
		if (!strcmp(*c, command))
			return true;
	return false;
}

const char cli_input_format_usage[] =
	"\n"
	"Inputs: a FILE (\"-\": stdin) holds a filter or a policy in any format,\n"
	"told by its content, not its name; a name that is no file is a built-in\n"
	"profile.\n"
	"  --input-format FORMAT  read every FILE as FORMAT: raw (a compiled filter),\n"
	"                         asm (assembler), policy (the policy language), oci\n"
	"                         (OCI/Docker/Podman JSON), k8s (a Kubernetes\n"
	"                         SeccompProfile in YAML), systemd (a unit, a\n"
	"                         drop-in or `systemctl show` output), minijail,\n"
	"                         kafel or firejail; default: told by the content,\n"
	"                         the name settling a tie\n";

static bool looks_like_file(const char *name)
{
	return scg_input_name_is_file(name) || access(name, F_OK) == 0;
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

/* A file in whichever input format it is written. */
static int load_file(const char *path, const struct scg_load_options *opts,
		     struct scg_input *out, struct scg_diag *diag)
{
	/* a missing file is reported as the policy parser always did (never opened: a FIFO would block) */
	if (strcmp(path, "-") && access(path, R_OK) < 0) {
		int e = errno;
		cli_error("cannot read '%s': %s", path, strerror(e));
		return -e;
	}
	char *text;
	size_t len;
	int r = cli_read_file(path, &text, &len);
	if (r < 0)
		return r;
	r = scg_input_load(text, len, opts, out, diag);
	if (r == 0 && out->format == SCG_INPUT_MINIJAIL)
		r = read_counts(opts->filename, text, len, diag);
	if (r < 0)
		scg_input_release(out);
	free(text);
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

static bool shown(const struct scg_diag_entry *e, enum scg_input_format format)
{
	if (e->severity != SCG_SEV_WARNING)
		return true;
	switch (policy_warnings) {
	case CLI_POLICY_WARN_ALL:
		return true;
	case CLI_POLICY_WARN_QUIET_ABI:
		return !e->code || strcmp(e->code, "absent-syscall");
	case CLI_POLICY_WARN_LINT:
		return format != SCG_INPUT_POLICY;
	}
	return true;
}

static enum scg_input_format last_format;

enum scg_input_format cli_last_input_format(void)
{
	return last_format;
}

int cli_load_input(const char *name_or_path, const struct scg_arch *arch,
		   const struct scg_arch *const *arches, size_t narches, struct scg_input *out)
{
	*out = (struct scg_input){ 0 };
	last_format = SCG_INPUT_AUTO;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	SCG_OPTS(scg_load_options, lo, .format = chosen_format, .filename = name_or_path,
		 .arch = arch, .arches = narches ? arches : NULL, .narches = narches,
		 .import = import_side, .import_ctx = cli_oci_import_options());
	int r;
	if (looks_like_file(name_or_path)) {
		if (!strcmp(name_or_path, "-"))
			lo.filename = "<stdin>";
		r = load_file(name_or_path, &lo, out, diag);
	} else if (scg_profile_source(name_or_path)) {
		struct scg_policy_source_options po = { .filename = name_or_path,
							.arches = lo.arches,
							.narches = narches };
		out->format = SCG_INPUT_POLICY;
		r = scg_profile_load(name_or_path, &po, &out->policy, diag);
	} else {
		unknown_profile(name_or_path);
		r = -ENOENT;
	}
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (shown(scg_diag_get(diag, i), out->format))
			cli_print_diag_entry(scg_diag_get(diag, i));
	if (r == -ENOMEM)
		cli_error("cannot load '%s': %s", name_or_path, strerror(-r));
	if (r < 0)
		scg_input_release(out);
	else
		last_format = out->format;
	scg_diag_free(diag);
	return r;
}

#if SYSCAGE_WITH_ANALYSIS
#include "analyze.h"

/* The policy a compiled filter carries out, decompiled (exact: scg_decompile()). */
static int filter_policy(const char *name, const struct scg_prog *prog, struct scg_policy **out)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	SCG_OPTS(scg_analysis_options, ao, .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000);
	int r = scg_decompile_opts(prog, 1, &ao, out, diag);
	cli_print_diag(diag);
	if (r < 0 && !scg_diag_count_at_least(diag, SCG_SEV_ERROR))
		cli_error("%s: cannot read the filter as a policy: %s", name, strerror(-r));
	scg_diag_free(diag);
	return r;
}
#else
static int filter_policy(const char *name, const struct scg_prog *prog, struct scg_policy **out)
{
	(void)prog;
	*out = NULL;
	cli_error("%s: a compiled filter is used as a policy through the analysis engine, which "
		  "this syscage was built without (meson setup -Danalysis=enabled)", name);
	return -ENOTSUP;
}
#endif

int cli_load_policy(const char *name_or_path, const struct scg_arch *const *arches,
		    size_t narches, struct scg_policy **out)
{
	*out = NULL;
	struct scg_input in;
	int r = cli_load_input(name_or_path, NULL, arches, narches, &in);
	if (r < 0)
		return r;
	if (in.policy) {
		*out = in.policy;
		in.policy = NULL;
	} else {
		r = filter_policy(name_or_path, &in.prog, out);
		if (r == 0 && narches) {
			/* the filter's ABIs are what it decides; only the named ones stay targets */
			for (size_t i = scg_policy_arch_count(*out); i-- > 0;) {
				const struct scg_arch *a = scg_policy_arch_at(*out, i);
				bool keep = false;
				for (size_t j = 0; j < narches; j++)
					keep |= arches[j] == a;
				if (!keep)
					scg_policy_remove_arch(*out, a);
			}
		}
	}
	scg_input_release(&in);
	return r;
}
