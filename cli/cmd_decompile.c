/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage decompile: a readable policy equivalent to a filter (or a stack
 * of filters), in the policy language.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/analyze.h"

#define MAX_FILTERS 64

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage decompile [options] FILTER [FILTER ...]\n"
		"\n"
		"Writes a policy that means exactly what the filters mean: its targets are\n"
		"the ABIs the filters accept, each syscall gets its verdict (argument\n"
		"conditions rebuilt from the filter's tests), the commonest verdict is the\n"
		"default.  Several filters are a stack installed in the order given.\n"
		"Compiling the result gives a filter 'syscage diff' proves equivalent.\n"
		"\n"
		"  -a, --arch ARCH    ABI for reading assembler input without an ABI header\n"
		"                     (default: native)\n"
		"  -o, --output FILE  write the policy to FILE (default: stdout)\n");
	fputs(cli_timeout_usage, out);
	fprintf(out,
		"  -h, --help         this text\n"
		"\n"
		"Exit status: 0 done, 2 bad usage or input, or a filter the policy\n"
		"language cannot express (it tests the instruction pointer, ...), 3 the time\n"
		"budget ran out (no policy is written; the error names what was not decided).\n");
}

/* Writes the policy for @progs within @ms milliseconds (0: no limit); returns an exit status. */
static int decompile_to(const struct scg_prog *progs, size_t n, const char *output, uint64_t ms)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	struct scg_analysis_options ao = cli_analysis_options(ms);
	int r = diag ? scg_decompile_opts(progs, n, &ao, &policy, diag) : -ENOMEM;
	char *text = NULL;
	if (r == 0)
		r = scg_policy_to_text(policy, &text);
	cli_print_diag(diag);
	bool budget = r == -ETIMEDOUT || r == -ECANCELED;
	if (budget)
		cli_budget_error("decompile", ms, r, "the policy was complete");
	else if (r < 0 && (!diag || !scg_diag_count(diag)))
		cli_error("decompile: %s", cli_analysis_strerror(r));
	if (r == 0) {
		static const char header[] = "# decompiled by syscage\n";
		size_t hl = strlen(header), tl = strlen(text);
		char *all = malloc(hl + tl + 1);
		if (!all) {
			r = -ENOMEM;
		} else {
			memcpy(all, header, hl);
			memcpy(all + hl, text, tl + 1);
			r = cli_write_output(output, all, hl + tl, false);
			free(all);
		}
	}
	free(text);
	scg_policy_free(policy);
	scg_diag_free(diag);
	return budget ? CLI_EXIT_BUDGET : r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

enum { OPT_TIMEOUT = 256 };

struct decompile_opts {
	const char *arch_name, *output;
	uint64_t timeout_ms;
};

static int on_option(int c, const char *arg, void *ctx)
{
	struct decompile_opts *o = ctx;
	if (c == 'a')
		o->arch_name = arg;
	else if (c == 'o')
		o->output = arg;
	else if (c == OPT_TIMEOUT)
		return cli_parse_timeout("decompile", arg, &o->timeout_ms);
	return 0;
}

int cmd_decompile(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "decompile", ":a:o:h", longopts, usage, on_option };
	struct decompile_opts o = { .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int first = cli_parse_options(&cmd, argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (cli_check_operands(&cmd, argc - first, 1, MAX_FILTERS, "give 1 to %d filters",
			       MAX_FILTERS) < 0)
		return CLI_EXIT_USAGE;
	size_t n = (size_t)(argc - first);
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	struct scg_prog progs[MAX_FILTERS];
	memset(progs, 0, sizeof(progs));
	int status = CLI_EXIT_OK;
	for (size_t i = 0; i < n && status == CLI_EXIT_OK; i++)
		if (cli_analysis_load(argv[first + (int)i], arch, &progs[i], NULL) < 0)
			status = CLI_EXIT_USAGE;
	if (status == CLI_EXIT_OK)
		status = decompile_to(progs, n, o.output, o.timeout_ms);
	for (size_t i = 0; i < n; i++)
		scg_prog_release(&progs[i]);
	return status;
}
