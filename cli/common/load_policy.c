/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading a policy named on the command line: a file in one of the input
 * formats (the policy language, OCI/Docker JSON, systemd unit settings,
 * firejail options, minijail and kafel policies),
 * or the name of a built-in profile.  A name counts as a file when it looks
 * like one (a '/' or a known suffix) or a file of that name exists;
 * anything else must be a built-in profile.  A file's format is the one
 * --input-format names, or else the one its content shows (the suffix
 * settles a tie); one table lists the formats.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/import.h>
#include <syscage/oci.h>

#include "cli.h"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static int set_targets(struct scg_policy *p, const struct scg_arch *const *arches, size_t n);

/* --- input formats ---------------------------------------------------------- */

typedef bool (*detect_fn)(const char *text, size_t len);
typedef int (*import_fn)(const char *path, const char *text, size_t len,
			 const struct scg_policy_source_options *opts, struct scg_policy **out,
			 struct scg_diag *diag);

/* The first character that is not white space, or 0. */
static char first_char(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			return text[i];
	return 0;
}

/* The first word of each line that is not a comment, compared with the language's statements. */
static bool detect_policy(const char *text, size_t len)
{
	static const char *const words[] = { "allow",  "kill",	 "kill-process", "kill-thread",
					     "errno",  "trap",	 "trace",	 "log",
					     "notify", "action", "default",	 "unknown",
					     "badarch", "arch",	 "include",	 "use",
					     NULL };
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		size_t n = 0;
		while (p + n < e && (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z')))
			n++;
		for (const char *const *w = words; *w && n; w++)
			if (strlen(*w) == n && !strncmp(p, *w, n) &&
			    (p + n == e || strchr(" \t(", p[n])))
				return true;
		p = e < end ? e + 1 : end;
	}
	return false;
}

static bool detect_oci(const char *text, size_t len)
{
	return first_char(text, len) == '{';
}

static int import_policy(const char *path, const char *text, size_t len,
			 const struct scg_policy_source_options *opts, struct scg_policy **out,
			 struct scg_diag *diag)
{
	/* files are parsed from their path, so that includes resolve beside them */
	if (strcmp(path, "-"))
		return scg_policy_parse_file(path, opts, out, diag);
	return scg_policy_parse(text, len, opts, out, diag);
}

static int import_oci(const char *path, const char *text, size_t len,
		      const struct scg_policy_source_options *opts, struct scg_policy **out,
		      struct scg_diag *diag)
{
	(void)path;
	struct scg_oci_options o = *cli_oci_import_options();
	o.filename = opts->filename;
	int r = scg_oci_import(text, len, &o, out, diag);
	if (r == 0)
		r = set_targets(*out, opts->arches, opts->narches);
	return r;
}

/* The library importers share one signature: text in, policy out, rules located in @filename. */
typedef int (*importer_fn)(const char *text, size_t len, const struct scg_import_options *o,
			   struct scg_policy **out, struct scg_diag *diag);

static int run_importer(importer_fn import, const char *text, size_t len,
			const struct scg_policy_source_options *opts, struct scg_policy **out,
			struct scg_diag *diag)
{
	struct scg_import_options o;
	scg_import_options_init(&o);
	o.filename = opts->filename;
	int r = import(text, len, &o, out, diag);
	if (r == 0)
		r = set_targets(*out, opts->arches, opts->narches);
	return r;
}

static int import_systemd(const char *path, const char *text, size_t len,
			  const struct scg_policy_source_options *opts, struct scg_policy **out,
			  struct scg_diag *diag)
{
	(void)path;
	return run_importer(scg_systemd_import, text, len, opts, out, diag);
}

static int import_firejail(const char *path, const char *text, size_t len,
			   const struct scg_policy_source_options *opts, struct scg_policy **out,
			   struct scg_diag *diag)
{
	(void)path;
	return run_importer(scg_firejail_import, text, len, opts, out, diag);
}

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

static int import_minijail(const char *path, const char *text, size_t len,
			   const struct scg_policy_source_options *opts, struct scg_policy **out,
			   struct scg_diag *diag)
{
	(void)path;
	int r = run_importer(scg_minijail_import, text, len, opts, out, diag);
	if (r == 0) {
		struct scg_import_options o;
		scg_import_options_init(&o);
		o.filename = opts->filename;
		static bool registered;
		if (!registered)
			atexit(free_policy_counts);
		registered = true;
		free_policy_counts();
		r = scg_minijail_frequency(text, len, &o, &policy_counts, &policy_ncounts, diag);
	}
	return r;
}

static int import_kafel(const char *path, const char *text, size_t len,
			const struct scg_policy_source_options *opts, struct scg_policy **out,
			struct scg_diag *diag)
{
	(void)path;
	return run_importer(scg_kafel_import, text, len, opts, out, diag);
}

/* systemd units and drop-ins go by these names; policies and profiles by theirs. */
static const char *const systemd_suffixes[] = { ".service", ".socket", ".mount", ".swap", ".conf",
						NULL };
static const char *const policy_suffixes[] = { ".policy", NULL };
static const char *const oci_suffixes[] = { ".json", NULL };
static const char *const firejail_suffixes[] = { ".profile", ".inc", ".local", NULL };
static const char *const minijail_suffixes[] = { "-seccomp.policy", ".minijail", NULL };
static const char *const kafel_suffixes[] = { ".kafel", NULL };

/* The formats --input-format names; a new one is a row here. */
static const struct input_format {
	const char *name;
	detect_fn detect;
	import_fn import;
	const char *const *suffixes;
} formats[] = {
	{ "policy", detect_policy, import_policy, policy_suffixes },
	{ "oci", detect_oci, import_oci, oci_suffixes },
	{ "systemd", scg_systemd_detect, import_systemd, systemd_suffixes },
	{ "firejail", scg_firejail_detect, import_firejail, firejail_suffixes },
	{ "minijail", scg_minijail_detect, import_minijail, minijail_suffixes },
	{ "kafel", scg_kafel_detect, import_kafel, kafel_suffixes },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct input_format *chosen_format;

int cli_set_input_format(const char *name)
{
	char list[160] = "";
	for (size_t i = 0; i < NFORMATS; i++) {
		if (!strcmp(formats[i].name, name)) {
			chosen_format = &formats[i];
			return 0;
		}
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, formats[i].name, sizeof(list) - strlen(list) - 1);
	}
	cli_error("--input-format: unknown format '%s' (the formats: %s)", name, list);
	return -EINVAL;
}

bool cli_takes_input_format(const char *command)
{
	static const char *const commands[] = { "compile", "run", "diff", "lint", "explain",
						"decompile", "emu", NULL };
	for (const char *const *c = commands; *c; c++)
		if (!strcmp(*c, command))
			return true;
	return false;
}

const char cli_input_format_usage[] =
	"\n"
	"Input format of policy files:\n"
	"  --input-format FORMAT  read policy files as FORMAT: policy (the policy\n"
	"                         language), oci (OCI/Docker JSON), systemd (a unit,\n"
	"                         a drop-in or `systemctl show` output), firejail\n"
	"                         (a profile or command-line options), minijail (a\n"
	"                         seccomp policy of minijail0(5)) or kafel; default:\n"
	"                         told by the content, the name settling a tie\n";

static bool has_any_suffix(const char *path, const char *const *suffixes)
{
	for (; *suffixes; suffixes++)
		if (has_suffix(path, *suffixes))
			return true;
	return false;
}

/* The format of @text: the chosen one, the only one its content fits, or the one its name says. */
static const struct input_format *format_of(const char *path, const char *text, size_t len)
{
	if (chosen_format)
		return chosen_format;
	const struct input_format *fits[NFORMATS], *named = NULL;
	size_t n = 0;
	for (size_t i = 0; i < NFORMATS; i++) {
		if (formats[i].detect(text, len))
			fits[n++] = &formats[i];
		if (has_any_suffix(path, formats[i].suffixes))
			named = &formats[i];
	}
	if (n == 1)
		return fits[0];
	for (size_t i = 0; i < n && named; i++)
		if (fits[i] == named)
			return named;
	if (n == 0) /* nothing recognisable: the format the name says, or the policy language */
		return named ? named : &formats[0];
	char list[128] = "";
	for (size_t i = 0; i < n; i++) {
		strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, fits[i]->name, sizeof(list) - strlen(list) - 1);
	}
	cli_error("%s: the content fits several input formats (%s); say which with "
		  "--input-format",
		  path, list);
	return NULL;
}

static bool has_policy_suffix(const char *path)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (has_any_suffix(path, formats[i].suffixes))
			return true;
	return false;
}

static bool looks_like_file(const char *name)
{
	return !strcmp(name, "-") || strchr(name, '/') || has_policy_suffix(name) ||
	       access(name, F_OK) == 0;
}

bool cli_is_policy_ref(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return false;
	if (has_policy_suffix(path))
		return true;
	/* with a format named, every file but assembler and raw *.bpf is a policy */
	if (chosen_format && !cli_is_asm_path(path) && !has_suffix(path, ".bpf"))
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

/* A policy file in whichever input format it is written. */
static int load_file(const char *path, const struct scg_policy_source_options *opts,
		     struct scg_policy **out, struct scg_diag *diag)
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
	const struct input_format *f = format_of(path, text, len);
	r = f ? f->import(path, text, len, opts, out, diag) : -EINVAL;
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
	if (looks_like_file(name_or_path)) {
		if (!strcmp(name_or_path, "-"))
			opts.filename = "<stdin>";
		r = load_file(name_or_path, &opts, out, diag);
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
