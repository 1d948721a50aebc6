/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syscage disasm: a filter in, annotated assembler, a table, Graphviz or C out. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage disasm [--arch ARCH] [--format asm|table|dot|c] [-o OUT] [FILE|-]\n"
		"\n"
		"Disassembles a seccomp filter: raw struct sock_filter records (as written by\n"
		"'syscage asm', seccomp_export_bpf() or minijail), or assembler text when FILE\n"
		"ends in .s or .asm.  Reads standard input without FILE or with '-'.\n"
		"\n"
		"  -a, --arch ARCH      ABI for syscall, errno and field names (default: native);\n"
		"                       an arch test in the filter overrides it for comments\n"
		"  -f, --format FORMAT  asm: annotated assembler that 'syscage asm' turns back\n"
		"                            into the same bytes (default)\n"
		"                       table: index, code, jt, jf, k and pseudo-C\n"
		"                       dot: control-flow graph for Graphviz (dot -Tsvg)\n"
		"                       c: a struct sock_filter array for linux/filter.h\n"
		"  -o, --output OUT     write OUT atomically instead of standard output\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 done, 2 bad usage or unreadable input.\n");
}

struct disasm_cli_opts {
	const char *arch_name;
	const char *output;
	const char *input;
	enum scg_disasm_format format;
};

static int parse_format(const char *name, enum scg_disasm_format *format)
{
	static const struct {
		const char *name;
		enum scg_disasm_format format;
	} formats[] = {
		{ "asm", SCG_DISASM_ASM },
		{ "table", SCG_DISASM_TABLE },
		{ "dot", SCG_DISASM_DOT },
		{ "c", SCG_DISASM_C },
	};
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(name, formats[i].name)) {
			*format = formats[i].format;
			return 0;
		}
	}
	cli_error("disasm: unknown format '%s' (asm, table, dot or c)", name);
	return -1;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct disasm_cli_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case 'f':
		return parse_format(arg, &o->format);
	case 'o':
		o->output = arg;
		break;
	}
	return 0;
}

/* Options, then an optional FILE (stdin without); returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct disasm_cli_opts *o)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },   { "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "disasm", ":a:f:o:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	if (cli_check_operands(&cmd, argc - first, 0, 1, "one input file at most") < 0)
		return -1;
	o->input = first < argc ? argv[first] : "-";
	return first;
}

int cmd_disasm(int argc, char **argv)
{
	struct disasm_cli_opts o = { .format = SCG_DISASM_ASM };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	struct scg_prog prog = { 0 };
	if (cli_load_filter(o.input, arch, &prog) < 0)
		return CLI_EXIT_USAGE;
	char *text;
	r = scg_disasm(&prog, arch, o.format, &text);
	scg_prog_release(&prog);
	if (r < 0) {
		cli_error("disasm: %s", strerror(-r));
		return CLI_EXIT_USAGE;
	}
	r = cli_write_output(o.output, text, strlen(text), false);
	free(text);
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
