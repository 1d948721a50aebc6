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

int cli_parse_options(const struct cli_command *cmd, int argc, char **argv, void *ctx)
{
	int c;
	optind = 1;
	opterr = 0; /* report in syscage's own words */
	while ((c = getopt_long(argc, argv, cmd->short_options, cmd->long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			cmd->usage(stdout);
			return CLI_OPTIONS_HELP;
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
