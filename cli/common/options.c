/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The option loop every subcommand shares: getopt_long() with syscage's own
 * messages for --help, a missing argument and an unknown option, so that a
 * command only says what its options mean.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/*
 * What getopt_long() (run with opterr = 0 and a leading ':' in its option
 * string) found wrong: @c is ':' for a missing argument, anything else for an
 * unknown option.
 */
static void report_option_error(const char *cmd, int c, char *const *argv)
{
	const char *arg = argv[optind - 1];
	char name[3] = { '-', (char)optopt, 0 };
	/* Long options are named as typed; a short one from a cluster like -xq by its letter. */
	const char *shown = !strncmp(arg, "--", 2) || optopt <= 0 || optopt >= 128 ? arg : name;
	if (c == ':')
		cli_error("%s: option '%s' needs an argument ('syscage %s --help')", cmd, shown,
			  cmd);
	else
		cli_error("%s: unknown option '%s' ('syscage %s --help')", cmd, shown, cmd);
}

/* getopt's value for --input-format, which this loop handles for the commands that load policies */
enum { OPT_INPUT_FORMAT = 0x7f00 };
#define MAX_LONG_OPTIONS 64

/* @cmd's long options, plus --input-format where the command takes it, in @buf. */
static const struct option *long_options_of(const struct cli_command *cmd, struct option *buf)
{
	if (!cli_takes_input_format(cmd->name))
		return cmd->long_options;
	size_t n = 0;
	while (cmd->long_options[n].name && n + 2 < MAX_LONG_OPTIONS) {
		buf[n] = cmd->long_options[n];
		n++;
	}
	buf[n++] = (struct option){ "input-format", required_argument, NULL, OPT_INPUT_FORMAT };
	buf[n] = (struct option){ 0 };
	return buf;
}

int cli_parse_options(const struct cli_command *cmd, int argc, char **argv, void *ctx)
{
	int c;
	struct option buf[MAX_LONG_OPTIONS];
	const struct option *longopts = long_options_of(cmd, buf);
	optind = 1;
	opterr = 0; /* report in syscage's own words */
	while ((c = getopt_long(argc, argv, cmd->short_options, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd->usage(stdout);
			if (longopts != cmd->long_options)
				fputs(cli_input_format_usage, stdout);
			return CLI_OPTIONS_HELP;
		case OPT_INPUT_FORMAT:
			if (cli_set_input_format(optarg) < 0)
				return -1;
			break;
		case ':':
		case '?':
			report_option_error(cmd->name, c, argv);
			return -1;
		default:
			if (cmd->on_option(c, optarg, ctx) < 0)
				return -1;
			break;
		}
	}
	return optind;
}

int cli_check_operands(const struct cli_command *cmd, int count, int min, int max,
		       const char *fmt, ...)
{
	if (count >= min && (max < 0 || count <= max))
		return 0;
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	cli_error("%s: %s ('syscage %s --help')", cmd->name, what, cmd->name);
	return -1;
}
