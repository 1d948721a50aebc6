/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syscage: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

#if !SYSCAGE_WITH_ANALYSIS
/* Built without the semantic engine (meson -Danalysis=disabled): the commands say so. */
static int cmd_without_analysis(int argc, char **argv)
{
	(void)argc;
	cli_error("%s: this syscage was built without the analysis engine "
		  "(meson setup -Danalysis=enabled)", argv[0]);
	return CLI_EXIT_USAGE;
}
#define cmd_diff cmd_without_analysis
#define cmd_explain cmd_without_analysis
#define cmd_decompile cmd_without_analysis
#define cmd_lint cmd_without_analysis
#define cmd_fuse cmd_without_analysis
#endif

static const struct command commands[] = {
	{ "asm", cmd_asm, "assemble seccomp BPF (bpf_asm syntax plus seccomp names)" },
	{ "disasm", cmd_disasm, "disassemble a filter: annotated asm, table, C or Graphviz" },
	{ "verify", cmd_verify, "decide, like the kernel, whether filters will load" },
	{ "emu", cmd_emu, "run filters on a syscall exactly as the kernel does" },
	{ "syscalls", cmd_syscalls, "resolve syscall names and numbers for any ABI" },
	{ "compile", cmd_compile, "compile a policy, OCI profile or built-in profile into a filter" },
	{ "run", cmd_run, "run a program under a policy and report what it denies" },
	{ "status", cmd_status, "seccomp mode, filter count and NO_NEW_PRIVS of running processes" },
	{ "dump", cmd_dump, "print the filters of a process, or catch the one a program installs" },
	{ "diff", cmd_diff, "prove two filters or policies equivalent, or list where they differ" },
	{ "explain", cmd_explain, "why a filter or policy gives its verdict for one syscall" },
	{ "decompile", cmd_decompile, "turn filters back into an equivalent, readable policy" },
	{ "fuse", cmd_fuse, "one filter equivalent to a stack of filters, proven equal" },
	{ "lint", cmd_lint, "find the mistakes that weaken a filter or policy, with fixes" },
	{ "learn", cmd_learn, "run a program and write a policy allowing the syscalls it made" },
	{ "inject", cmd_inject, "run a program with faults injected into chosen syscalls" },
	{ "bench", cmd_bench, "measure what seccomp filters cost here, against libseccomp too" },
};

/* Which warnings the policies a command loads show (cli.h): compile authors them. */
static enum cli_policy_warnings policy_warnings_of(const char *command)
{
	if (!strcmp(command, "compile"))
		return CLI_POLICY_WARN_ALL;
	if (!strcmp(command, "lint"))
		return CLI_POLICY_WARN_LINT;
	return CLI_POLICY_WARN_QUIET_ABI;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: syscage <command> [options] [args]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'syscage <command> --help' describes a command; 'man syscage' has the details.\n");
}

/*
 * stderr is unbuffered, so stdio wrote every piece of a line (every byte
 * of an escaped one) with a write(2) of its own: a program sharing the
 * descriptor under `run` could land its output inside a report line, and
 * 100,000 warnings took millions of calls.  Line-buffered, each line
 * (under 64 KiB) is one write.
 */
static char stderr_buffer[1 << 16];

int main(int argc, char **argv)
{
	setvbuf(stderr, stderr_buffer, _IOLBF, sizeof(stderr_buffer));
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("syscage %s\n", SYSCAGE_VERSION);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name)) {
			cli_set_policy_warnings(policy_warnings_of(name));
			return commands[i].run(argc - 1, argv + 1);
		}

	const char *names[sizeof(commands) / sizeof(commands[0])];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	const char *near = scg_suggest(name, names, sizeof(names) / sizeof(names[0]));
	if (near) {
		cli_error("unknown command '%s'; did you mean '%s'? ('syscage --help' lists them)",
			  name, near);
		return CLI_EXIT_USAGE;
	}
	cli_error("unknown command '%s'", name);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
