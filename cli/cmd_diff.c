/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage diff: proves two filters (or policies, compiled first) equivalent
 * over every possible input, or lists each region where they differ with an
 * example the emulator confirms.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/analyze.h"

struct diff_opts {
	const char *arch_name;
	bool ignore_errno, json;
	uint64_t timeout_ms;
	const char *paths[2];
};

struct diff_out {
	const struct diff_opts *o;
	int count;
	struct scg_json *w; /* --json: the document's writer */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage diff [options] A B\n"
		"\n"
		"Decides whether A and B give the same verdict for every possible syscall\n"
		"(a proof over all of seccomp_data, not sampling).  A and B are filters (raw\n"
		"sock_filter records, or assembler for *.s and *.asm) or policies (policy\n"
		"files, OCI/Docker JSON, built-in profile names), which are compiled first.\n"
		"Each differing region is listed with its ABI, syscall, argument conditions,\n"
		"both verdicts, and an example as 'syscage emu' command lines.\n"
		"\n"
		"  -a, --arch ARCH     compare only calls of this ABI (policies are compiled\n"
		"                      for it alone; the names of an assembler file without\n"
		"                      an ABI header)\n"
		"      --ignore-errno  every ERRNO(n) counts as the same verdict\n"
		"      --json          print the result as JSON\n");
	fputs(cli_timeout_usage, out);
	fprintf(out,
		"  -h, --help          this text\n"
		"\n"
		"Exit status: 0 equivalent, 1 different, 2 bad usage or input, 3 the time\n"
		"budget ran out: the differences listed stand, the inputs not compared are\n"
		"listed as undecided, and equivalence is not decided.\n");
}

enum { OPT_IGNORE_ERRNO = 256, OPT_JSON, OPT_TIMEOUT };

static int on_option(int c, const char *arg, void *ctx)
{
	struct diff_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case OPT_IGNORE_ERRNO:
		o->ignore_errno = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_TIMEOUT:
		return cli_parse_timeout("diff", arg, &o->timeout_ms);
	}
	return 0;
}

/* Options, then exactly A and B; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct diff_opts *o)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "ignore-errno", no_argument, NULL, OPT_IGNORE_ERRNO },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "diff", ":a:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	if (cli_check_operands(&cmd, argc - first, 2, 2, "give exactly two inputs, A and B") < 0)
		return -1;
	o->paths[0] = argv[first];
	o->paths[1] = argv[first + 1];
	return first;
}

/* "syscage emu -a x86_64 -f PATH openat 0x0 ..." for an example, or "" when emu cannot name the ABI. */
static void emu_command(const char *path, const struct scg_region *region,
			const struct scg_seccomp_data *d, char *buf, size_t size)
{
	const struct scg_arch *arch = cli_region_arch(region);
	if (!arch) {
		buf[0] = '\0';
		return;
	}
	const char *name = scg_syscall_name(arch, d->nr);
	char nr[32];
	if (name)
		snprintf(nr, sizeof(nr), "%s", name);
	else
		snprintf(nr, sizeof(nr), "%d", (int)d->nr);
	char ip[48] = "";
	if (d->instruction_pointer)
		snprintf(ip, sizeof(ip), " --ip 0x%llx", (unsigned long long)d->instruction_pointer);
	int n = snprintf(buf, size, "syscage emu -a %s%s -f %s %s", scg_arch_name(arch), ip, path, nr);
	for (int i = 0; i < 6 && n > 0 && (size_t)n < size; i++)
		n += snprintf(buf + n, size - (size_t)n, " 0x%llx", (unsigned long long)d->args[i]);
}

static void print_text(const struct diff_out *out, const struct scg_region *region,
		       const char *abi, const char *sc, const char *args, const char *va,
		       const char *vb, const struct scg_seccomp_data *d, const uint32_t rets[2])
{
	printf("%s %s%s%s: %s in A, %s in B\n", abi, sc, args[0] ? " if " : "", args, va, vb);
	char cmd[512];
	for (int side = 0; side < 2; side++) {
		emu_command(out->o->paths[side], region, d, cmd, sizeof(cmd));
		char said[64]; /* the first line emu prints */
		cli_verdict_format(rets[side], false, said, sizeof(said));
		if (cmd[0])
			printf("  %s   # %s\n", cmd, said);
	}
	if (!cli_region_arch(region))
		printf("  example: arch 0x%08x nr %d\n", (unsigned)d->arch, (int)d->nr);
}

static void print_json(struct diff_out *out, const char *abi, const char *sc, const char *args,
		       const char *va, const char *vb, const struct scg_seccomp_data *d)
{
	struct scg_json *w = out->w;
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "abi", abi);
	scg_json_member_string(w, "syscall", sc);
	scg_json_member_string(w, "args", args);
	scg_json_member_string(w, "a", va);
	scg_json_member_string(w, "b", vb);
	scg_json_key(w, "example");
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_uint(w, "nr", d->nr);
	scg_json_member_uint(w, "arch", d->arch);
	scg_json_member_uint(w, "instruction_pointer", d->instruction_pointer);
	scg_json_key(w, "args");
	scg_json_array(w, SCG_JSON_INLINE);
	for (int i = 0; i < 6; i++)
		scg_json_uint(w, d->args[i]);
	scg_json_end(w);
	scg_json_end(w);
	scg_json_end(w);
}

static int on_difference(void *ctx, const struct scg_region *region, uint32_t ret_a,
			 uint32_t ret_b)
{
	struct diff_out *out = ctx;
	out->count++;
	struct scg_seccomp_data d;
	int r = scg_region_example(region, &d);
	if (r < 0)
		return r;
	char abi[64], sc[256], va[64], vb[64];
	cli_region_abi(region, abi, sizeof(abi));
	cli_region_syscall(region, sc, sizeof(sc));
	/* as emu says them: the commands printed beside them must agree */
	cli_verdict_format(ret_a, true, va, sizeof(va));
	cli_verdict_format(ret_b, true, vb, sizeof(vb));
	const struct scg_arch *arch = cli_region_arch(region);
	char *args = NULL;
	r = scg_region_args_text(region, arch ? arch : scg_arch_lookup("x86_64"), &args);
	if (r < 0)
		return r;
	if (out->o->json)
		print_json(out, abi, sc, args, va, vb, &d);
	else
		print_text(out, region, abi, sc, args, va, vb, &d, (const uint32_t[2]){ ret_a, ret_b });
	free(args);
	return 0;
}

/* The end of the answer: whether the inputs are equivalent. */
static void json_equivalent(struct scg_json *w, bool equivalent)
{
	scg_json_end(w);
	scg_json_member_bool(w, "equivalent", equivalent);
	scg_json_end(w);
}

/* The end of the answer when the budget ran out: what was found, and what was not compared. */
static void print_unfinished(const struct diff_out *out, const struct cli_undecided *u)
{
	size_t n = cli_undecided_count(u);
	if (out->w) {
		scg_json_end(out->w);
		scg_json_key(out->w, "equivalent");
		scg_json_null(out->w);
		scg_json_key(out->w, "undecided");
		cli_undecided_json(u, out->w);
		scg_json_end(out->w);
		return;
	}
	cli_undecided_print(u, stdout, "undecided: ");
	printf("not decided: %zu region%s of inputs not compared; %d differing region%s found "
	       "before that\n",
	       n, n == 1 ? "" : "s", out->count, out->count == 1 ? "" : "s");
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	const struct scg_arch *arch = NULL;
	if (o.arch_name && !(arch = cli_arch(o.arch_name)))
		return CLI_EXIT_USAGE;
	struct scg_prog a = { 0 }, b = { 0 };
	if (cli_analysis_load(o.paths[0], arch, &a, NULL) < 0 ||
	    cli_analysis_load(o.paths[1], arch, &b, NULL) < 0) {
		scg_prog_release(&a);
		return CLI_EXIT_USAGE;
	}
	struct scg_diag *diag = scg_diag_new();
	struct cli_undecided *undecided = cli_undecided_new();
	struct diff_out out = { &o, 0, NULL };
	struct scg_analysis_options ao = cli_analysis_options(o.timeout_ms);
	ao.undecided = cli_undecided_add;
	ao.undecided_ctx = undecided;
	struct scg_diff_options dopts = { .ignore_errno = o.ignore_errno, .arch = arch,
					  .limits = &ao };
	if (o.json) {
		if (!(out.w = cli_json_begin(stdout))) {
			scg_prog_release(&a);
			scg_prog_release(&b);
			return CLI_EXIT_USAGE;
		}
		scg_json_object(out.w, SCG_JSON_LINES);
		scg_json_key(out.w, "differences");
		scg_json_array(out.w, SCG_JSON_LINES);
	}
	r = diag && undecided ? scg_analysis_diff(&a, 1, &b, 1, &dopts, on_difference, &out, diag)
			      : -ENOMEM;
	bool budget = r == -ETIMEDOUT || r == -ECANCELED;
	if (budget)
		print_unfinished(&out, undecided);
	else if (o.json && r >= 0)
		json_equivalent(out.w, r == 0);
	else if (r == 0)
		printf("equivalent\n");
	else if (r > 0)
		printf("%d differing region%s\n", r, r == 1 ? "" : "s");
	cli_print_diag(diag);
	if (budget)
		cli_budget_error("diff", o.timeout_ms, r, "every input was compared");
	else if (r < 0 && (!diag || scg_diag_count(diag) == 0))
		cli_error("diff: %s", cli_analysis_strerror(r));
	if (out.w) {
		/* a failed comparison leaves the document short, as the error says */
		if (r < 0 && !budget)
			scg_json_free(out.w);
		else if (cli_json_finish(out.w, stdout) < 0)
			r = -EIO;
	}
	cli_undecided_free(undecided);
	scg_diag_free(diag);
	scg_prog_release(&a);
	scg_prog_release(&b);
	return budget ? CLI_EXIT_BUDGET : r < 0 ? CLI_EXIT_USAGE : r > 0 ? CLI_EXIT_NEGATIVE : CLI_EXIT_OK;
}
