/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage compile: a policy file, an OCI/Docker JSON profile or a built-in
 * profile, compiled into a seccomp filter (raw, C or assembler), or
 * converted to OCI JSON or policy text.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/oci.h>

#include "common/cli.h"
#include "k8s.h"

#define MAX_ARCHES 32

/* Long options without a short form. */
enum {
	OPT_WORKLOAD = 256,
	OPT_NO_WORKLOAD,
	OPT_SHOW_PROFILE,
	OPT_STATS,
	OPT_JSON,
	OPT_NO_RUNTIME_CALLS,
	OPT_PHASE
};

enum format {
	FORMAT_RAW,
	FORMAT_C,
	FORMAT_ASM,
	FORMAT_OCI,
	FORMAT_POLICY,
	FORMAT_SYSTEMD,
	FORMAT_K8S,
	FORMAT_MINIJAIL,
	FORMAT_KAFEL,
};

struct options {
	const struct scg_arch *arches[MAX_ARCHES];
	size_t narches;
	enum format format;
	unsigned optimize;
	const char *output;
	const char *workload; /* learn --counts file */
	bool no_workload;
	bool list_profiles;
	const char *show_profile; /* built-in profile whose source to print */
	bool stats, json;	  /* --stats: the layout against the optimum */
	bool no_runtime_calls;	  /* oci, k8s: the policy as it is (scg_oci_add_runtime_calls()) */
	const char *phase;	  /* --phase: one phase of a policy with phases */
};

static void usage(FILE *out)
{
	fputs("usage: syscage compile [--arch ARCH,...] [--format FORMAT] [-O0|-O1] [-o OUT]\n"
	      "                       [--workload FILE] [OCI OPTIONS] POLICY\n"
	      "       syscage compile --list-profiles\n"
	      "       syscage compile --show-profile NAME\n"
	      "\n"
	      "Compiles a policy into a seccomp filter.  POLICY is a policy file ('-' reads\n"
	      "policy text from standard input), an OCI or Docker JSON profile (*.json), or\n"
	      "the name of a built-in profile.\n"
	      "\n"
	      "  -a, --arch ARCH,...   target exactly these ABIs (default: the policy's own,\n"
	      "                        else the native ABI and its companions)\n"
	      "  -f, --format FORMAT   raw (default): struct sock_filter records, for\n"
	      "                        bubblewrap --seccomp, 'syscage run' or seccomp(2);\n"
	      "                        c: a C array; asm: annotated assembler;\n"
	      "                        oci: OCI linux.seccomp JSON; policy: policy text;\n"
	      "                        systemd: SystemCallFilter= and related unit\n"
	      "                        settings (docs/import.md); k8s: a Security\n"
	      "                        Profiles Operator SeccompProfile object, YAML,\n"
	      "                        named after POLICY (docs/oci.md); minijail, kafel:\n"
	      "                        a minijail or kafel seccomp policy (docs/import.md)\n"
	      "  --no-runtime-calls    oci, k8s: leave out the calls an OCI runtime makes\n"
	      "                        under the filter before the program starts (the\n"
	      "                        exec, runc's last steps), which the export otherwise\n"
	      "                        allows where the policy leaves them to its default\n"
	      "  -O0, -O1              optimisation (default -O1); -O0 is one plain rule\n"
	      "                        chain per ABI\n"
	      "  --workload FILE       lay the filter out for the calls counted in FILE\n"
	      "                        ('syscage learn --counts FILE'); default: the\n"
	      "                        @frequency files of a minijail policy, else the\n"
	      "                        built-in profile of common programs\n"
	      "  --no-workload         lay it out for no workload (every syscall alike)\n"
	      "  --stats               print how the filter is laid out for the workload:\n"
	      "                        its length, the instructions executed per call the\n"
	      "                        kernel cannot cache (weighted by the workload, on\n"
	      "                        the first target ABI; the built-in one with\n"
	      "                        --no-workload), their mean over every uncached\n"
	      "                        syscall number, the longest path, and each with\n"
	      "                        the best decision tree over syscall numbers; the\n"
	      "                        filter is written only with -o (docs/compiler.md)\n"
	      "  --json                --stats as JSON\n"
	      "  --phase NAME          of a policy with phases (docs/phases.md), the filter\n"
	      "                        of phase NAME, with the trigger of the phase after it\n"
	      "                        as SECCOMP_RET_TRACE; without it, asm and c show\n"
	      "                        every phase's filter, one after the other\n"
	      "  -o, --output FILE     write there (atomically) instead of standard output;\n"
	      "                        raw output is never written to a terminal\n"
	      "  -l, --list-profiles   list the built-in profiles\n"
	      "  --show-profile NAME   print built-in profile NAME's source with the line\n"
	      "                        numbers reports name its rules by (<NAME>:LINE)\n"
	      "  -h, --help            print this help\n"
	      "\n",
	      out);
	fputs(cli_oci_usage, out);
	fputs("\n"
	      "Exit status: 0 on success, 2 on bad usage, a bad policy, or a filter the\n"
	      "kernel would refuse (over 4096 instructions).\n",
	      out);
}

static int parse_arches(const char *list, struct options *o)
{
	char *copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	int r = 0;
	for (char *save = NULL, *name = strtok_r(copy, ",", &save); name && r == 0;
	     name = strtok_r(NULL, ",", &save)) {
		const struct scg_arch *arch = cli_arch(name);
		if (!arch)
			r = -EINVAL;
		else if (o->narches == MAX_ARCHES)
			r = -E2BIG;
		else
			o->arches[o->narches++] = arch;
	}
	free(copy);
	if (r == 0 && o->narches == 0) {
		cli_error("--arch needs at least one ABI");
		r = -EINVAL;
	}
	return r;
}

static int parse_format(const char *name, enum format *format)
{
	static const char *const names[] = {"raw",     "c",   "asm",	  "oci",  "policy",
					    "systemd", "k8s", "minijail", "kafel"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*format = (enum format)i;
			return 0;
		}
	cli_error("unknown format '%s' (raw, c, asm, oci, policy, systemd, k8s, minijail or kafel)",
		  name);
	return -EINVAL;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct options *o = ctx;
	switch (c) {
	case 'a':
		return parse_arches(arg, o);
	case 'f':
		return parse_format(arg, &o->format);
	case 'o':
		o->output = arg;
		break;
	case 'O':
		if (strcmp(arg, "0") && strcmp(arg, "1")) {
			cli_error("unknown optimisation level '-O%s' (-O0 or -O1)", arg);
			return -EINVAL;
		}
		o->optimize = arg[0] == '1';
		break;
	case 'l':
		o->list_profiles = true;
		break;
	case OPT_WORKLOAD:
		o->workload = arg;
		break;
	case OPT_NO_WORKLOAD:
		o->no_workload = true;
		break;
	case OPT_SHOW_PROFILE:
		o->show_profile = arg;
		break;
	case OPT_STATS:
		o->stats = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_NO_RUNTIME_CALLS:
		o->no_runtime_calls = true;
		break;
	case OPT_PHASE:
		o->phase = arg;
		break;
	default:
		return cli_oci_option(c, arg) < 0 ? -EINVAL : 0;
	}
	return 0;
}

/* Returns as cli_parse_options() does; cmd_compile() wants one POLICY. */
static int parse_options(int argc, char **argv, struct options *o)
{
	/* clang-format off */
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "list-profiles", no_argument, NULL, 'l' },
		{ "show-profile", required_argument, NULL, OPT_SHOW_PROFILE },
		CLI_OCI_LONG_OPTIONS,
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "no-workload", no_argument, NULL, OPT_NO_WORKLOAD },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "no-runtime-calls", no_argument, NULL, OPT_NO_RUNTIME_CALLS },
		{ "phase", required_argument, NULL, OPT_PHASE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* clang-format on */
	static const struct cli_command cmd = {"compile", ":a:f:o:O:lh", longopts, usage,
					       on_option};
	return cli_parse_options(&cmd, argc, argv, o);
}

static void list_profiles(void)
{
	for (size_t i = 0; i < scg_profile_count(); i++)
		printf("%-20s %s\n", scg_profile_name(i), scg_profile_summary(i));
}

/*
 * The source of built-in profile @name, each line numbered as diagnostics
 * and `syscage run` reports number it (<default>:18).
 */
static int show_profile(const char *name)
{
	const char *text = scg_profile_source(name);
	if (!text) {
		cli_error("unknown profile '%s'; the built-in profiles are:", name);
		for (size_t i = 0; i < scg_profile_count(); i++)
			fprintf(stderr, "  %s\n", scg_profile_name(i));
		return -ENOENT;
	}
	unsigned line = 1;
	for (const char *p = text; *p; line++) {
		size_t len = strcspn(p, "\n");
		printf("%4u  %.*s\n", line, (int)len, p);
		p += len + (p[len] == '\n');
	}
	return 0;
}

static void json_key_ratio(struct scg_json *w, const char *key, double v)
{
	scg_json_key(w, key);
	scg_json_valuef(w, "%.4f", v);
}

/* --stats --json: one line; 0, or -EIO reported. */
/* "NAME": [a, b, c] */
static void json_key_triple(struct scg_json *w, const char *name, const size_t v[3])
{
	scg_json_key(w, name);
	scg_json_array(w, SCG_JSON_INLINE);
	for (int i = 0; i < 3; i++)
		scg_json_uint(w, v[i]);
	scg_json_end(w);
}

static int stats_json(const struct scg_compile_stats *st, const struct scg_arch *arch,
		      double ratio, double uniform_ratio)
{
	struct scg_json *w = cli_json_begin(stdout);
	if (!w)
		return -ENOMEM;
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "abi", scg_arch_name(arch));
	scg_json_member_uint(w, "length", st->length);
	scg_json_member_uint(w, "uncached_syscalls", st->uncached_syscalls);
	scg_json_member_uint(w, "uncached_calls", st->uncached_calls);
	json_key_ratio(w, "weighted_uncached", st->weighted_uncached);
	json_key_ratio(w, "optimal_weighted_uncached", st->optimal_weighted_uncached);
	json_key_ratio(w, "ratio", ratio);
	json_key_ratio(w, "weighted_dispatch", st->weighted_dispatch);
	json_key_ratio(w, "optimal_weighted_dispatch", st->optimal_weighted_dispatch);
	scg_json_member_uint(w, "ranges", st->ranges);
	scg_json_member_uint(w, "uniform_syscalls", st->uniform_syscalls);
	json_key_ratio(w, "uniform_uncached", st->uniform_uncached);
	json_key_ratio(w, "optimal_uniform_uncached", st->optimal_uniform_uncached);
	json_key_ratio(w, "uniform_ratio", uniform_ratio);
	json_key_ratio(w, "uniform_dispatch", st->uniform_dispatch);
	json_key_ratio(w, "optimal_uniform_dispatch", st->optimal_uniform_dispatch);
	scg_json_member_uint(w, "max_path", st->max_path);
	scg_json_member_uint(w, "max_dispatch", st->max_dispatch);
	scg_json_member_uint(w, "optimal_max_dispatch", st->optimal_max_dispatch);
	json_key_triple(w, "jeq_points", st->jeq_points);
	json_key_triple(w, "jeq_candidates", st->jeq_candidates);
	scg_json_end(w);
	return cli_json_finish(w, stdout) < 0 ? -EIO : 0;
}

/* --stats: the layout for the workload against the best tree over the numbers. */
static int print_stats(const struct scg_policy *policy, const struct scg_compile_options *copts,
		       const struct scg_prog *prog, bool json)
{
	SCG_OPTS(scg_compile_stats, st);
	const struct scg_arch *arch = scg_policy_arch_at(policy, 0);
	int r = scg_compile_stats(policy, copts, prog, arch, &st);
	if (r < 0) {
		if (r == -E2BIG) /* the one limit the search has left (lib/compile/internal.h) */
			cli_error("compile: --stats: the filter's number dispatch has more ranges "
				  "than the search for the best tree takes (2048), so there is no "
				  "comparison");
		else
			cli_error("compile: --stats: %s", strerror(-r));
		return r;
	}
	double ratio = st.optimal_weighted_uncached > 0
			   ? st.weighted_uncached / st.optimal_weighted_uncached
			   : 1.0;
	double uratio = st.optimal_uniform_uncached > 0
			    ? st.uniform_uncached / st.optimal_uniform_uncached
			    : 1.0;
	if (json)
		return stats_json(&st, arch, ratio, uratio);
	printf("length: %zu instructions\n"
	       "uncached calls (%s): %zu syscalls, %llu calls in the workload\n"
	       "weighted_uncached: %.3f instructions per uncached call (%.3f finding the number)\n"
	       "optimal_weighted_uncached: %.3f (%.3f finding the number, with the best tree)\n"
	       "ratio: %.3f\n",
	       st.length, scg_arch_name(arch), st.uncached_syscalls,
	       (unsigned long long)st.uncached_calls, st.weighted_uncached, st.weighted_dispatch,
	       st.optimal_weighted_uncached, st.optimal_weighted_dispatch, ratio);
	printf("uncached syscall numbers (%s): %zu, each counted once\n"
	       "uniform_uncached: %.3f instructions per number (%.3f finding the number)\n"
	       "optimal_uniform_uncached: %.3f (%.3f finding the number, with the best tree)\n"
	       "uniform_ratio: %.3f\n"
	       "max_path: %zu instructions (%zu finding the number; the best tree: %zu)\n",
	       scg_arch_name(arch), st.uniform_syscalls, st.uniform_uncached, st.uniform_dispatch,
	       st.optimal_uniform_uncached, st.optimal_uniform_dispatch, uratio, st.max_path,
	       st.max_dispatch, st.optimal_max_dispatch);
	static const char *const figure[] = {"weighted", "uniform", "max"};
	for (int f = 0; f < 3; f++)
		if (st.jeq_points[f] < st.jeq_candidates[f])
			printf(
			    "note: the %s optimum is over trees whose jeq tests take only the %zu "
			    "most weighted of %zu numbers (the exact search over all is out of "
			    "reach)\n",
			    figure[f], st.jeq_points[f], st.jeq_candidates[f]);
	return 0;
}

/* A minijail policy's @frequency counts as the workload, or none (*@out NULL). */
static int weights_from_policy(struct scg_syscall_weight **out, size_t *n)
{
	size_t count;
	const struct scg_import_count *c = cli_policy_counts(&count);
	*out = NULL;
	*n = 0;
	if (!count)
		return 0;
	struct scg_syscall_weight *w = calloc(count, sizeof(*w));
	for (size_t i = 0; w && i < count; i++) {
		char *name = strdup(c[i].name);
		if (!name) {
			cli_workload_free(w, i);
			return -ENOMEM;
		}
		w[i] = (struct scg_syscall_weight){name, c[i].count};
	}
	if (!w)
		return -ENOMEM;
	*out = w;
	*n = count;
	return 0;
}

/* The filter as bytes or text, ready to write. */
static int compile_to(const struct scg_policy *policy, const struct options *o, char **data,
		      size_t *len)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	struct scg_compile_options copts = {.optimize = o->optimize, .unweighted = o->no_workload};
	struct scg_syscall_weight *weights = NULL;
	if (o->workload && cli_load_workload(o->workload, &weights, &copts.nweights) < 0) {
		scg_diag_free(diag);
		return -EINVAL;
	}
	if (!o->workload && !o->no_workload && weights_from_policy(&weights, &copts.nweights) < 0) {
		scg_diag_free(diag);
		return -ENOMEM;
	}
	copts.weights = weights;
	struct scg_prog prog;
	int r = scg_compile(policy, &copts, &prog, diag);
	if (r == 0 && o->stats && print_stats(policy, &copts, &prog, o->json) < 0) {
		scg_prog_release(&prog);
		r = -EINVAL;
	}
	cli_workload_free(weights, copts.nweights);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r < 0) {
		if (r == -ENOMEM)
			cli_error("cannot compile: %s", strerror(-r));
		return r;
	}
	if (o->format == FORMAT_RAW) {
		*data = (char *)prog.insns;
		*len = prog.len * sizeof(*prog.insns);
		return 0;
	}
	r = scg_disasm(&prog, scg_policy_arch_at(policy, 0),
		       o->format == FORMAT_C ? SCG_DISASM_C : SCG_DISASM_ASM, data);
	scg_prog_release(&prog);
	if (r < 0)
		cli_error("cannot render the filter: %s", strerror(-r));
	else
		*len = strlen(*data);
	return r;
}

/* A Kubernetes object name (DNS-1123) from the policy's file name: lower case, '-' for the rest. */
static void k8s_name(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = 0;
	for (const char *p = base; *p && *p != '.' && n + 1 < size && n < 63; p++) {
		char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
		if (ok || (n && out[n - 1] != '-'))
			out[n++] = ok ? ch : '-';
	}
	while (n && out[n - 1] == '-')
		n--;
	out[n] = '\0';
	if (!n)
		snprintf(out, size, "syscage-profile");
}

/* The OCI export of @policy, with the runtime's start calls unless @as_is. */
static int oci_export(const struct scg_policy *policy, bool as_is, char **data,
		      struct scg_diag *diag)
{
	if (as_is)
		return scg_oci_export(policy, data, diag);
	struct scg_policy *ready = scg_policy_clone(policy);
	int r = ready ? scg_oci_add_runtime_calls(ready, diag) : -ENOMEM;
	if (r == 0)
		r = scg_oci_export(ready, data, diag);
	scg_policy_free(ready);
	return r;
}

/* OCI JSON, policy text, systemd settings or a SeccompProfile: the policy itself, not a filter. */
static int convert_to(const struct scg_policy *policy, const struct options *o, const char *path,
		      char **data, size_t *len)
{
	enum format format = o->format;
	bool oci = format == FORMAT_OCI || format == FORMAT_K8S, systemd = format == FORMAT_SYSTEMD;
	const char *what = oci			       ? "OCI JSON"
			   : systemd		       ? "systemd settings"
			   : format == FORMAT_MINIJAIL ? "a minijail policy"
			   : format == FORMAT_KAFEL    ? "a kafel policy"
						       : "policy text";
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	int r = oci			    ? oci_export(policy, o->no_runtime_calls, data, diag)
		: systemd		    ? scg_systemd_export(policy, data, diag)
		: format == FORMAT_MINIJAIL ? scg_minijail_export(policy, data, diag)
		: format == FORMAT_KAFEL    ? scg_kafel_export(policy, data, diag)
					    : scg_policy_to_text(policy, data);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r < 0 && r != -EINVAL)
		cli_error("cannot write the policy as %s: %s", what, strerror(-r));
	else if (r == -EINVAL && !oci)
		cli_error("this policy cannot be written as %s", what);
	if (r == 0 && format == FORMAT_K8S) {
		char name[64], *yaml = NULL;
		k8s_name(path, name, sizeof(name));
		r = cli_oci_to_k8s(*data, name, &yaml);
		free(*data);
		*data = yaml;
	}
	if (r == 0)
		*len = strlen(*data);
	return r;
}

/*
 * A policy with phases: the filter of --phase, or (asm, c) each phase's
 * filter in turn under a comment naming it.
 */
static int compile_phases(const struct scg_phases *phases, const struct options *o, bool text)
{
	if (text) {
		cli_error("compile: a policy with phases compiles into filters (raw, c, asm)");
		return -EINVAL;
	}
	int only = o->phase ? cli_phase_index(phases, o->phase) : -1;
	if (o->phase && only < 0)
		return only;
	if (only < 0 && (o->format == FORMAT_RAW || o->stats)) {
		cli_error("compile: the policy has %zu phases; --phase NAME picks the one to write "
			  "raw (or --format asm or c shows them all)",
			  scg_phases_count(phases));
		return -EINVAL;
	}
	struct joined {
		char *data;
		size_t len;
	} all = {NULL, 0};
	int r = 0;
	for (size_t i = 0; r == 0 && i < scg_phases_count(phases); i++) {
		if (only >= 0 && (size_t)only != i)
			continue;
		struct scg_policy *policy;
		r = scg_phases_filter_policy(phases, i, &policy);
		if (r < 0) {
			cli_error("compile: %s", strerror(-r));
			break;
		}
		char *data = NULL;
		size_t len = 0;
		r = compile_to(policy, o, &data, &len);
		scg_policy_free(policy);
		if (r < 0)
			break;
		if (only >= 0) {
			all.data = data;
			all.len = len;
			break;
		}
		bool c = o->format == FORMAT_C;
		const char *open = c ? "/* phase " : "; phase ", *close = c ? " */\n" : "\n";
		size_t head = strlen(open) + strlen(scg_phases_name(phases, i)) + strlen(close);
		char *grown = realloc(all.data, all.len + head + len + 2);
		if (!grown) {
			free(data);
			r = -ENOMEM;
			break;
		}
		all.data = grown;
		all.len += (size_t)sprintf(all.data + all.len, "%s%s%s", open,
					   scg_phases_name(phases, i), close);
		memcpy(all.data + all.len, data, len);
		all.len += len;
		free(data);
	}
	if (r == 0 && (!o->stats || o->output))
		r = cli_write_output(o->output, all.data, all.len, o->format == FORMAT_RAW);
	free(all.data);
	return r;
}

int cmd_compile(int argc, char **argv)
{
	struct options o = {.optimize = 1};
	int first = parse_options(argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.list_profiles) {
		list_profiles();
		return CLI_EXIT_OK;
	}
	if (o.show_profile)
		return show_profile(o.show_profile) < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	bool text = o.format == FORMAT_OCI || o.format == FORMAT_POLICY ||
		    o.format == FORMAT_SYSTEMD || o.format == FORMAT_K8S ||
		    o.format == FORMAT_MINIJAIL || o.format == FORMAT_KAFEL;
	if (o.stats && (text || o.optimize == 0)) {
		cli_error("compile: --stats is about the optimised filter (-O1, a filter format)");
		return CLI_EXIT_USAGE;
	}
	if (o.no_runtime_calls && o.format != FORMAT_OCI && o.format != FORMAT_K8S) {
		cli_error("compile: --no-runtime-calls goes with --format oci or k8s");
		return CLI_EXIT_USAGE;
	}
	if (o.json && !o.stats) {
		cli_error("compile: --json goes with --stats");
		return CLI_EXIT_USAGE;
	}
	if (first != argc - 1) {
		cli_error(first == argc ? "no policy given" : "one policy at a time");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct scg_phases *phases;
	int loaded = cli_load_phases(argv[first], o.arches, o.narches, &phases);
	if (loaded < 0)
		return CLI_EXIT_USAGE;
	if (loaded > 0) {
		int r = compile_phases(phases, &o, text);
		scg_phases_free(phases);
		return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	if (o.phase) {
		cli_error("compile: --phase goes with a policy with phases (docs/phases.md)");
		return CLI_EXIT_USAGE;
	}
	struct scg_policy *policy;
	if (cli_load_policy(argv[first], o.arches, o.narches, &policy) < 0)
		return CLI_EXIT_USAGE;
	char *data = NULL;
	size_t len = 0;
	int r = text ? convert_to(policy, &o, argv[first], &data, &len)
		     : compile_to(policy, &o, &data, &len);
	if (r == 0 && (!o.stats || o.output))
		r = cli_write_output(o.output, data, len, o.format == FORMAT_RAW);
	free(data);
	scg_policy_free(policy);
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
