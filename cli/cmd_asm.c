/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syscage asm: assembler text in, a seccomp filter (raw records or C) out. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage asm [--arch ARCH] [--format raw|c] [-o OUT] [FILE|-]\n"
		"\n"
		"Assembles a seccomp filter written in the kernel's bpf_asm syntax plus\n"
		"seccomp names (docs/asm.md): [nr], [arch], [arg0.hi], #openat, #EPERM,\n"
		"#AUDIT_ARCH_X86_64, ret ERRNO(EACCES), ...  Reads FILE or standard input.\n"
		"\n"
		"  -a, --arch ARCH      target ABI for syscall names and argument words\n"
		"                       (default: native, or the ABI a first line '; ...,\n"
		"                       names for ABI' names; another one is refused)\n"
		"  -f, --format FORMAT  raw: struct sock_filter records, native byte order\n"
		"                       (default; never written to a terminal)\n"
		"                       c: a C array for linux/filter.h\n"
		"  -o, --output OUT     write OUT atomically instead of standard output\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 assembled, 2 errors (reported as file:line:column).\n");
}

struct asm_cli_opts {
	const char *arch_name;
	const char *output;
	const char *input;
	bool c_format;
};

static int on_option(int c, const char *arg, void *ctx)
{
	struct asm_cli_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case 'f':
		if (strcmp(arg, "raw") && strcmp(arg, "c")) {
			cli_error("asm: unknown format '%s' (raw or c)", arg);
			return -1;
		}
		o->c_format = !strcmp(arg, "c");
		break;
	case 'o':
		o->output = arg;
		break;
	}
	return 0;
}

/* Options, then at most one FILE; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct asm_cli_opts *o)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },   { "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "asm", ":a:f:o:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	if (cli_check_operands(&cmd, argc - first, 0, 1, "one input file at most") < 0)
		return -1;
	o->input = first < argc ? argv[first] : "-";
	return first;
}

static int assemble(const struct asm_cli_opts *o, const struct scg_arch *arch,
		    struct scg_prog *prog)
{
	char *text;
	size_t len;
	if (cli_read_file(o->input, &text, &len) < 0)
		return -1;
	struct scg_diag *diag = scg_diag_new();
	if (!diag) {
		free(text);
		cli_error("asm: out of memory");
		return -1;
	}
	/* without --arch, a header naming the file's ABI decides; with it, they must agree */
	SCG_OPTS(scg_asm_options, opts, .arch = o->arch_name ? arch : NULL,
		 .filename = strcmp(o->input, "-") ? o->input : "<stdin>");
	int r = scg_asm(text, len, &opts, prog, diag);
	cli_print_diag(diag);
	if (r < 0 && scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
		cli_error("asm: %s", strerror(-r));
	scg_diag_free(diag);
	free(text);
	return r;
}

static int write_result(const struct asm_cli_opts *o, const struct scg_arch *arch,
			const struct scg_prog *prog)
{
	if (!o->c_format)
		return cli_write_output(o->output, prog->insns, prog->len * sizeof(*prog->insns),
					true);
	char *text;
	int r = scg_disasm(prog, arch, SCG_DISASM_C, &text);
	if (r < 0) {
		cli_error("asm: %s", strerror(-r));
		return r;
	}
	r = cli_write_output(o->output, text, strlen(text), false);
	free(text);
	return r;
}

int cmd_asm(int argc, char **argv)
{
	struct asm_cli_opts o = { 0 };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	struct scg_prog prog = { 0 };
	if (assemble(&o, arch, &prog) < 0)
		return CLI_EXIT_USAGE;
	r = write_result(&o, arch, &prog);
	scg_prog_release(&prog);
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
