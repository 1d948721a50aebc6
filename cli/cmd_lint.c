/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage lint: known weaknesses of a filter or policy, each with a short
 * explanation and a fix.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage lint [options] POLICY|FILTER\n"
		"\n"
		"Reports what weakens the sandbox: no arch check, ABI bypasses (x32, i386\n"
		"through int 0x80), socketcall/ipc and io_uring around restricted calls,\n"
		"syscalls that commonly break sandboxes, KILL_THREAD, TRACE, unknown\n"
		"syscalls denied without ENOSYS, unreachable instructions, 64-bit tests of\n"
		"int arguments (an error where the upper half lets a denied call through),\n"
		"and the policy language's own warnings (shadowed rules, 64-bit tests of\n"
		"negative values).\n"
		"Findings point at the rule (file:line) or the instruction index.\n"
		"\n"
		"  -a, --arch ARCH       compile policies for this ABI alone\n"
		"      --severity LEVEL  exit 1 when a finding is at or above LEVEL:\n"
		"                        info, warning (default) or error\n"
		"      --json            print the findings as JSON\n");
	fputs(cli_timeout_usage, out);
	fprintf(out, "  -h, --help            this text\n"
		     "\n");
	fputs(cli_oci_usage, out);
	fputs("\n"
	      "Exit status: 0 nothing at or above the severity, 1 something, 2 bad input,\n"
	      "3 the time budget ran out (the findings printed stand; an analysis-budget\n"
	      "error names the checks not done).\n",
	      out);
}

enum { OPT_SEVERITY = 256, OPT_JSON, OPT_TIMEOUT };

static const char *level_name(enum scg_severity s)
{
	return s == SCG_SEV_ERROR ? "error" : s == SCG_SEV_WARNING ? "warning" : "info";
}

static int parse_level(const char *text, enum scg_severity *out)
{
	if (!strcmp(text, "info") || !strcmp(text, "note"))
		*out = SCG_SEV_NOTE;
	else if (!strcmp(text, "warning"))
		*out = SCG_SEV_WARNING;
	else if (!strcmp(text, "error"))
		*out = SCG_SEV_ERROR;
	else
		return -EINVAL;
	return 0;
}

static void print_json(const struct scg_diag *diag)
{
	printf("{\n  \"findings\": [");
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		printf("%s\n    {\"severity\": \"%s\", \"code\": ", i ? "," : "", level_name(e->severity));
		cli_json_string(stdout, e->code ? e->code : "");
		if (e->loc.file && e->loc.line) {
			printf(", \"file\": ");
			cli_json_string(stdout, e->loc.file);
			printf(", \"line\": %u", e->loc.line);
		} else if (e->loc.insn >= 0) {
			printf(", \"insn\": %ld", e->loc.insn);
		}
		printf(", \"message\": ");
		cli_json_string(stdout, e->message);
		printf(", \"fix\": ");
		cli_json_string(stdout, e->hint ? e->hint : "");
		printf("}");
	}
	printf("%s]\n}\n", scg_diag_count(diag) ? "\n  " : "");
}

static void print_text(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		/* file names and the words of messages as given: control characters escaped */
		if (e->loc.file && e->loc.line) {
			cli_fputs_escaped(e->loc.file, stdout);
			printf(":%u: ", e->loc.line);
		} else if (e->loc.insn >= 0) {
			printf("insn %ld: ", e->loc.insn);
		}
		printf("%s: ", level_name(e->severity));
		cli_fputs_escaped(e->message, stdout);
		printf(" [%s]\n", e->code ? e->code : "");
		if (e->hint) {
			fputs("  fix: ", stdout);
			cli_fputs_escaped(e->hint, stdout);
			putchar('\n');
		}
	}
	if (!scg_diag_count(diag))
		printf("no findings\n");
}

/* A policy file's own warnings (shadowed rules, ...), parsed again to collect them. */
static void policy_warnings(const char *path, const struct scg_arch *arch, struct scg_diag *diag)
{
	size_t len = strlen(path);
	if (len < 7 || strcmp(path + len - 7, ".policy"))
		return;
	const struct scg_arch *const targets[1] = { arch };
	struct scg_policy_source_options so = { .arches = arch ? targets : NULL, .narches = arch ? 1 : 0 };
	struct scg_policy *p = NULL;
	struct scg_diag *own = scg_diag_new();
	if (own && scg_policy_parse_file(path, &so, &p, own) == 0) {
		for (size_t i = 0; i < scg_diag_count(own); i++) {
			const struct scg_diag_entry *e = scg_diag_get(own, i);
			scg_diag_add(diag, e->severity, e->loc, e->code, e->hint, "%s", e->message);
		}
	}
	scg_policy_free(p);
	scg_diag_free(own);
}

struct lint_opts {
	const char *arch_name;
	enum scg_severity level;
	bool json;
	uint64_t timeout_ms;
};

static int on_option(int c, const char *arg, void *ctx)
{
	struct lint_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case OPT_SEVERITY:
		if (parse_level(arg, &o->level) < 0) {
			cli_error("lint: --severity is info, warning or error, not '%s'", arg);
			return -EINVAL;
		}
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_TIMEOUT:
		return cli_parse_timeout("lint", arg, &o->timeout_ms);
	default:
		return cli_oci_option(c, arg) < 0 ? -EINVAL : 0;
	}
	return 0;
}

int cmd_lint(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "severity", required_argument, NULL, OPT_SEVERITY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		CLI_OCI_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "lint", ":a:h", longopts, usage, on_option };
	struct lint_opts o = { .level = SCG_SEV_WARNING, .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int first = cli_parse_options(&cmd, argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (cli_check_operands(&cmd, argc - first, 1, 1, "give one policy or filter") < 0)
		return CLI_EXIT_USAGE;
	const char *path = argv[first];
	const struct scg_arch *arch = NULL;
	if (o.arch_name && !(arch = cli_arch(o.arch_name)))
		return CLI_EXIT_USAGE;
	struct scg_prog prog = { 0 };
	struct scg_policy *policy = NULL;
	if (cli_analysis_load(path, arch, &prog, &policy) < 0)
		return CLI_EXIT_USAGE;
	struct scg_diag *diag = scg_diag_new();
	int r = diag ? 0 : -ENOMEM;
	if (r == 0) {
		policy_warnings(path, arch, diag);
		struct scg_analysis_options ao = cli_analysis_options(o.timeout_ms);
		r = scg_lint_opts(&prog, policy, &ao, diag);
	}
	/* out of time: what was found stands, and the analysis-budget finding says what was not done */
	bool budget = r == -ETIMEDOUT || r == -ECANCELED;
	if (r < 0 && !budget) {
		cli_print_diag(diag);
		cli_error("lint: %s", strerror(-r));
	} else if (o.json) {
		print_json(diag);
	} else {
		print_text(diag);
	}
	if (budget)
		cli_budget_error("lint", o.timeout_ms, r, "every check was done");
	int status = budget   ? CLI_EXIT_BUDGET
		     : r < 0 ? CLI_EXIT_USAGE
		     : scg_diag_count_at_least(diag, o.level) ? CLI_EXIT_NEGATIVE : CLI_EXIT_OK;
	scg_diag_free(diag);
	scg_policy_free(policy);
	scg_prog_release(&prog);
	return status;
}
