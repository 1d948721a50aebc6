/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage explain: why a filter or policy gives the verdict it gives for one
 * syscall: the deciding rule (policies), the instruction path, and which
 * argument tests mattered, with the values that keep the same path.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/analyze.h"

struct explain_opts {
	const char *arch_name;
	const char *ip_text;
	const char *input;
	char **positional; /* SYSCALL [ARG0 .. ARG5] */
	int n_positional;
	uint64_t timeout_ms;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage explain [options] POLICY|FILTER SYSCALL [ARG0 ... ARG5]\n"
		"\n"
		"Shows the verdict for one syscall and why: for a policy (policy file, OCI\n"
		"JSON, built-in profile) the rule that decided (file:line); for every input\n"
		"the path through the filter (instruction indexes and disassembly), the\n"
		"argument tests on that path, and for each tested argument word the values\n"
		"that keep the same path, hence the same verdict.\n"
		"\n"
		"  -a, --arch ARCH    the caller's ABI (default: native)\n"
		"      --ip N         seccomp_data.instruction_pointer (default 0)\n");
	fputs(cli_timeout_usage, out);
	fprintf(out,
		"  -h, --help         this text\n"
		"\n"
		"Exit status: 0 done, 2 bad usage or input, 3 the time budget ran out before\n"
		"the values that keep the path were decided (the verdict and the path, from\n"
		"the emulator, are printed all the same).\n");
}

enum { OPT_IP = 256, OPT_TIMEOUT };

static int on_option(int c, const char *arg, void *ctx)
{
	struct explain_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case OPT_IP:
		o->ip_text = arg;
		break;
	case OPT_TIMEOUT:
		return cli_parse_timeout("explain", arg, &o->timeout_ms);
	}
	return 0;
}

/* Options, then the input, SYSCALL and its arguments; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct explain_opts *o)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "ip", required_argument, NULL, OPT_IP },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* '+': stop at the first operand, so negative arguments are not options */
	static const struct cli_command cmd = { "explain", "+:a:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	int n = argc - first;
	if (n < 2 || n > 8) {
		cli_error("explain: give a policy or filter, a syscall and up to six arguments");
		return -1;
	}
	o->input = argv[first];
	o->positional = argv + first + 1;
	o->n_positional = n - 1;
	return first;
}

static int build_data(const struct explain_opts *o, const struct scg_arch *arch,
		      struct scg_seccomp_data *d)
{
	memset(d, 0, sizeof(*d));
	d->arch = scg_arch_audit(arch);
	if (cli_parse_syscall(arch, o->positional[0], &d->nr) < 0)
		return -EINVAL;
	for (int i = 1; i < o->n_positional; i++)
		if (cli_parse_value(arch, o->positional[i], &d->args[i - 1]) < 0)
			return -EINVAL;
	if (o->ip_text && cli_parse_value(arch, o->ip_text, &d->instruction_pointer) < 0)
		return -EINVAL;
	return 0;
}

static void print_rule(const struct scg_policy *policy, const struct scg_seccomp_data *d)
{
	struct scg_verdict v;
	scg_policy_eval(policy, d, &v);
	char action[64];
	scg_ret_format(v.action, action, sizeof(action));
	printf("policy verdict: %s\n", action);
	struct scg_rule rule;
	switch (v.source) {
	case SCG_VERDICT_RULE:
		if (scg_policy_rule_at(policy, v.rule, &rule) == 0 && rule.loc.file && rule.loc.line)
			printf("  decided by the rule at %s:%u\n", rule.loc.file, rule.loc.line);
		else
			printf("  decided by rule %zu\n", v.rule + 1);
		break;
	case SCG_VERDICT_DEFAULT:
		printf("  no rule matched: the 'default' verdict\n");
		break;
	case SCG_VERDICT_UNKNOWN:
		printf("  a number the ABI's table does not know: the 'unknown' verdict\n");
		break;
	case SCG_VERDICT_BADARCH:
		printf("  the ABI is not a target of the policy: the 'badarch' verdict\n");
		break;
	}
}

struct pc_list {
	size_t *pcs;
	size_t n, cap;
};

static void note_pc(void *ctx, const struct scg_emu_step *step)
{
	struct pc_list *l = ctx;
	if (l->n < l->cap)
		l->pcs[l->n++] = step->pc;
}

/* The instructions the emulator runs for @d, into @pcs (up to @max); their count in *@n. */
static int path_of(const struct scg_prog *prog, const struct scg_seccomp_data *d, size_t *pcs,
		   size_t max, size_t *n)
{
	struct pc_list l = { pcs, 0, max };
	uint32_t ret;
	int r = scg_emu_run(prog, d, &ret, NULL, note_pc, &l);
	*n = l.n;
	return r;
}

static void print_path(const struct scg_prog *prog, const struct scg_arch *arch,
		       const size_t *pcs, size_t n)
{
	printf("path through the filter (%zu instructions):\n", n);
	for (size_t i = 0; i < n; i++) {
		char *text = NULL;
		if (scg_insn_text(&prog->insns[pcs[i]], pcs[i], prog->len, arch, &text) == 0) {
			printf("  %4zu  %s\n", pcs[i], text);
			free(text);
		}
	}
}

/* The interval of word @w's set that holds @value: the values that keep the path. */
static void print_word_range(const struct scg_region *region, unsigned w, uint32_t value,
			     const char *name)
{
	char *text = NULL;
	if (scg_region_word_text(region, w, name, &text) < 0)
		return;
	printf("  %s\n", text);
	free(text);
	struct scg_word_set set;
	scg_region_word(region, w, &set);
	for (size_t i = 0; i < set.nintervals; i++) {
		if (value < set.intervals[i].lo || value > set.intervals[i].hi)
			continue;
		printf("    %s = 0x%x; the same path for 0x%x..0x%x%s\n", name, (unsigned)value,
		       (unsigned)set.intervals[i].lo, (unsigned)set.intervals[i].hi,
		       set.known || set.nexcluded ? " (with the bit tests above)" : "");
	}
}

static void print_tests(const struct scg_region *region, const struct scg_arch *arch,
			const struct scg_seccomp_data *d)
{
	bool any = false;
	for (unsigned arg = 0; arg < 6; arg++) {
		for (int high = 0; high < 2; high++) {
			unsigned w = (unsigned)scg_arch_arg_offset(arch, arg, high) / 4;
			if (scg_region_word_free(region, w))
				continue;
			if (!any)
				printf("argument tests that mattered:\n");
			any = true;
			char name[16];
			snprintf(name, sizeof(name), "arg%u.%s", arg, high ? "hi" : "lo");
			uint32_t value = (uint32_t)(high ? d->args[arg] >> 32 : d->args[arg]);
			print_word_range(region, w, value, name);
		}
	}
	if (!any)
		printf("no argument was tested: the verdict holds for every argument value\n");
	if (!scg_region_word_free(region, scg_arch_ip_offset(arch, false) / 4) ||
	    !scg_region_word_free(region, scg_arch_ip_offset(arch, true) / 4))
		printf("the instruction pointer was tested too\n");
}

static int explain(const struct explain_opts *o, const struct scg_arch *arch)
{
	struct scg_seccomp_data d;
	if (build_data(o, arch, &d) < 0)
		return CLI_EXIT_USAGE;
	struct scg_prog prog = { 0 };
	struct scg_policy *policy = NULL;
	/* the call's ABI names an assembler file's words unless its header names them */
	if (cli_analysis_load_words(o->input, arch, &prog, &policy) < 0)
		return CLI_EXIT_USAGE;
	if (policy)
		print_rule(policy, &d);
	struct scg_diag *diag = scg_diag_new();
	size_t *pcs = calloc(prog.len, sizeof(*pcs));
	struct scg_region *region = NULL;
	struct scg_analysis_options ao = cli_analysis_options(o->timeout_ms);
	int n = diag && pcs ? scg_analysis_path_opts(&prog, &d, &ao, pcs, prog.len, &region, diag)
			    : -ENOMEM;
	int err = n;
	bool budget = err == -ETIMEDOUT || err == -ECANCELED;
	uint32_t ret;
	size_t steps = 0;
	/* out of time: the emulator still gives the verdict and the path, exactly */
	if (budget)
		n = path_of(&prog, &d, pcs, prog.len, &steps) < 0 ? n : (int)steps;
	if ((n >= 0 || budget) && scg_emu_run(&prog, &d, &ret, NULL, NULL, NULL) == 0) {
		char action[64];
		scg_ret_format(ret, action, sizeof(action));
		printf("filter verdict: %s\n", action);
		if (n >= 0)
			print_path(&prog, arch, pcs, (size_t)n);
		if (budget)
			printf("argument tests that mattered: not decided (the time budget ran out)\n");
		else
			print_tests(region, arch, &d);
	}
	cli_print_diag(diag);
	if (budget)
		cli_budget_error("explain", o->timeout_ms, err,
				 "the values that keep this path were decided");
	else if (n < 0 && (!diag || !scg_diag_count(diag)))
		cli_error("explain: %s", cli_analysis_strerror(n));
	scg_region_free(region);
	scg_diag_free(diag);
	free(pcs);
	scg_policy_free(policy);
	scg_prog_release(&prog);
	return budget ? CLI_EXIT_BUDGET : n < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	return explain(&o, arch);
}
