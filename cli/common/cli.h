/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syscage command: one file per subcommand (cmd_*.c), each a thin front
 * end over libsyscage.  Everything that talks to the terminal lives here.
 */
#ifndef SCG_CLI_H
#define SCG_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <syscage/syscage.h>

/* 0 when the build left out the semantic engine (diff, explain, decompile, lint). */
#ifndef SYSCAGE_WITH_ANALYSIS
#define SYSCAGE_WITH_ANALYSIS 1
#endif

/* Exit statuses shared by every subcommand. */
enum {
	CLI_EXIT_OK = 0,
	CLI_EXIT_NEGATIVE = 1, /* the answer is "no": verify refused, diff differs, ... */
	CLI_EXIT_USAGE = 2,    /* bad usage, bad input, or an I/O error */
};

/* Subcommands: argv[0] is the subcommand's name.  Return an exit status. */
int cmd_asm(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_emu(int argc, char **argv);
int cmd_syscalls(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_decompile(int argc, char **argv);
int cmd_fuse(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_bench(int argc, char **argv);

/* Prints the NUL-terminated @s as a JSON string: scg_json_write_string(). */
void cli_json_string(FILE *out, const char *s);

/*
 * "syscage: <message>" on stderr.  Control characters in the message are
 * escaped (\x01), since messages echo names users gave: commands, files,
 * rules, profiles.
 */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints every diagnostic in @diag to stderr, control characters escaped. */
void cli_print_diag(const struct scg_diag *diag);
/* Prints one diagnostic as cli_print_diag() does. */
void cli_print_diag_entry(const struct scg_diag_entry *e);
/* @e's hint in the command's words (its flags) where the library says what to change by
 * hint_id; else @e's own hint (NULL: none). */
const char *cli_hint(const struct scg_diag_entry *e);
/*
 * @s with control characters written as \xNN: bytes below 0x20, DEL, and
 * the C1 controls of UTF-8 (0xc2 0x80..0x9f), which terminals run.  Other
 * bytes, backslashes included, as they are.
 */
void cli_fputs_escaped(const char *s, FILE *out);
/* vfprintf() of @fmt, then the result as cli_fputs_escaped() writes it. */
void cli_vfprintf_escaped(FILE *out, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/*
 * Reads a whole file ("-" or NULL: stdin) into a NUL-terminated buffer the
 * caller frees.  On failure prints an error naming @path and returns -errno.
 */
int cli_read_file(const char *path, char **data, size_t *len);

/*
 * Writes @len bytes to @path atomically (a temporary file in the same
 * directory, renamed over @path only when complete), or to stdout when @path
 * is NULL or "-".  @binary output is refused when stdout is a terminal.
 * On failure prints an error, leaves nothing behind and returns -errno.
 */
int cli_write_output(const char *path, const void *data, size_t len, bool binary);

/*
 * A JSON-lines log (--log FILE) for records written whole: @path opened for
 * writing, created 0600 (a file there already is truncated and keeps its
 * mode), close-on-exec, with a buffer that holds a record, so that a
 * record followed by fflush() is one write(2).  NULL after printing an error.
 */
FILE *cli_log_open(const char *path);
/*
 * --log-fd N: @text must name a descriptor open for writing; -1 after
 * printing an error naming @option, else the descriptor.
 */
int cli_log_fd_parse(const char *option, const char *text);
/*
 * The log on descriptor @fd (from cli_log_fd_parse()), made close-on-exec
 * (unless it is 0, 1 or 2) so that a program started later never holds it;
 * the stream owns @fd.  NULL after printing an error.
 */
FILE *cli_log_fdopen(int fd);

/* Resolves --arch; NULL (after printing an error with a hint) if unknown.  NULL @name: native. */
const struct scg_arch *cli_arch(const char *name);

/*
 * Parses a syscall given as a name for @arch or a number (C syntax).
 * Prints an error with a "did you mean" hint on failure.
 */
int cli_parse_syscall(const struct scg_arch *arch, const char *text, uint32_t *nr);

/*
 * Parses a 64-bit argument value: a C-style number (negative = two's
 * complement), an AUDIT_ARCH_* name, or a value as the policy language
 * writes it (scg_constant_eval(): AF_INET, AT_FDCWD, EPERM, O_WRONLY|O_CREAT).
 * Prints an error, with the language's "did you mean" hint, on failure.
 */
int cli_parse_value(const struct scg_arch *arch, const char *text, uint64_t *value);
/*
 * An AUDIT_ARCH_* name or scg_constant_eval() of @text, for callers that
 * report errors their own way: on failure, the first error's message and
 * hint ("" when none) in @msg and @hint.  0 or -errno.
 */
int cli_constant_eval(const struct scg_arch *arch, const char *text, uint64_t *value,
		      char *msg, size_t msg_size, char *hint, size_t hint_size);

/*
 * Loads a filter named on the command line: a file in any input format
 * (cli_load_input()), a policy or built-in profile compiled with the
 * default options.  Diagnostics are printed; returns 0 or -errno.
 */
int cli_load_filter(const char *path, const struct scg_arch *arch, struct scg_prog *prog);

/*
 * Loads what a command-line name holds: a file in any input format
 * (scg_input_load(), "-": stdin), told by its content or --input-format,
 * or else a built-in profile.  @arch: assembler's ABI (NULL: native);
 * @narches ABIs at @arches, when there are any, become a policy's exact
 * targets.  Diagnostics are printed; 0 or -errno, *@out to release.
 */
struct scg_input;
int cli_load_input(const char *name_or_path, const struct scg_arch *arch,
		   const struct scg_arch *const *arches, size_t narches, struct scg_input *out);
/* The format of the last input cli_load_input() read (SCG_INPUT_AUTO: none). */
enum scg_input_format cli_last_input_format(void);

/*
 * Which of the parser's warnings cli_load_policy() prints.  That a syscall
 * is absent on one of the target ABIs ([absent-syscall]) is the same news on
 * every load of the policy: compile prints it; run, emu and the commands
 * that only use a policy leave it out unless -v asks for it.  Lint's report
 * carries the warnings of the policy language itself, so the loader prints only
 * their errors.  main() sets it for each command; commands with -v raise it.
 */
enum cli_policy_warnings {
	CLI_POLICY_WARN_QUIET_ABI, /* every warning but [absent-syscall] (the default) */
	CLI_POLICY_WARN_ALL,
	CLI_POLICY_WARN_LINT, /* the policy language: errors only; other inputs: all */
};
void cli_set_policy_warnings(enum cli_policy_warnings which);

/*
 * Loads a policy named on the command line: what cli_load_input() reads,
 * a compiled filter decompiled into the policy it carries out.  @narches ABIs at @arches, when there are any, become its exact
 * targets.  Diagnostics are printed; returns 0 or -errno, *@out is new.
 */
int cli_load_policy(const char *name_or_path, const struct scg_arch *const *arches,
		    size_t narches, struct scg_policy **out);
/*
 * A policy file with phases (docs/phases.md): 1 and *@out (free with
 * scg_phases_free()) when @path is a file with `phase` lines, 0 and NULL
 * when it is anything else (cli_load_policy() reads it), or -errno with its
 * diagnostics printed.
 */
int cli_load_phases(const char *path, const struct scg_arch *const *arches, size_t narches,
		    struct scg_phases **out);
/* The index of phase @name, or -ENOENT with the phases listed on stderr. */
int cli_phase_index(const struct scg_phases *phases, const char *name);
/*
 * The counts of the @frequency files the last minijail policy loaded names
 * (NULL and *@n = 0 when it named none, or the policy was no minijail one):
 * the workload `compile` lays its filter out for when no --workload is given.
 */
const struct scg_import_count *cli_policy_counts(size_t *n);
/*
 * Reads a frequency profile written by `syscage learn --counts` as compiler
 * weights (calls per name, over every ABI).  Errors are printed; returns 0
 * or -errno.  Free with cli_workload_free().
 */
int cli_load_workload(const char *path, struct scg_syscall_weight **out, size_t *n);
void cli_workload_free(struct scg_syscall_weight *w, size_t n);

/*
 * A subcommand as its option parsing sees it.  @short_options is getopt's
 * string: an optional '+' (stop at the first operand), then ':' (so that a
 * missing argument can be told from an unknown option), then the letters,
 * 'h' among them; @long_options ends with a zeroed entry and maps "help" to
 * 'h'.  @on_option gets every other option getopt_long() recognises, as its
 * value @c and its argument @arg (NULL when it takes none); it returns 0, or
 * a negative number after reporting the problem.
 */
struct option;
struct cli_command {
	const char *name;
	const char *short_options;
	const struct option *long_options;
	void (*usage)(FILE *out);
	int (*on_option)(int c, const char *arg, void *ctx);
};

/* cli_parse_options() after -h or --help: argv[0] is never an operand, so 0 is free. */
enum { CLI_OPTIONS_HELP = 0 };

/*
 * Runs getopt_long() over @argc/@argv (argv[0] is the subcommand), handing
 * each option to @cmd->on_option with @ctx.  -h/--help prints the usage to
 * stdout and returns CLI_OPTIONS_HELP; an unknown option or a missing
 * argument is reported as "CMD: unknown option '-x' ('syscage CMD --help')"
 * and returns -1, as does a failed on_option.  Otherwise returns the index
 * of the first operand (argc when there is none); getopt's optind agrees.
 */
int cli_parse_options(const struct cli_command *cmd, int argc, char **argv, void *ctx);

/*
 * Accepts @count operands when it lies in [@min, @max] (@max < 0: no upper
 * limit).  Otherwise reports "CMD: <fmt...> ('syscage CMD --help')" and
 * returns -1.
 */
int cli_check_operands(const struct cli_command *cmd, int count, int min, int max,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * scg_features_probe_launch(), less the features the environment variable
 * SYSCAGE_DISABLE_FEATURES names (comma-separated: tsync, log, spec-allow,
 * new-listener, tsync-esrch, wait-killable-recv, user-notif, ia32-emulation
 * or i386-emulation, x32, ptrace-get-filter; cli/common/features.h lists them): the
 * commands' view of the kernel, so that the paths for other kernels can be
 * tested.  No child process is started: run, learn and inject call it on
 * every start.
 */
int cli_features_probe(struct scg_features *f);
/* The same with the machine's probes too (scg_features_probe()): for status. */
int cli_features_probe_machine(struct scg_features *f);

/*
 * How cli_load_policy() imports *.json profiles: the container's
 * capabilities, the kernel and host Docker would select for, runc's ENOSYS
 * stub, 32-bit comparisons of int arguments.  Starts as
 * scg_oci_options_init() leaves it; commands with the OCI options (below)
 * change it before loading.
 */
struct scg_oci_options;
struct scg_oci_options *cli_oci_import_options(void);
/* Sets the capabilities from a comma-separated list ("CAP_NET_ADMIN,SYS_PTRACE", "ALL"). */
int cli_oci_set_caps(const char *list);
/*
 * The OCI import options, shared by the commands that take them (compile,
 * lint): their getopt values, entries for a long option table (the file
 * using it includes <getopt.h>), their help text, and cli_oci_option(),
 * which applies option @c: 0, negative after an error was printed, or 1
 * when @c is not one of them.
 */
enum {
	CLI_OPT_OCI_CAPS = 0x4000,
	CLI_OPT_OCI_KERNEL,
	CLI_OPT_OCI_HOST_ARCH,
	CLI_OPT_OCI_NO_STUB,
	CLI_OPT_OCI_INT_ARGS_32,
};
#define CLI_OCI_LONG_OPTIONS                                                      \
	{ "caps", required_argument, NULL, CLI_OPT_OCI_CAPS },                   \
	{ "kernel", required_argument, NULL, CLI_OPT_OCI_KERNEL },               \
	{ "host-arch", required_argument, NULL, CLI_OPT_OCI_HOST_ARCH },         \
	{ "no-enosys-stub", no_argument, NULL, CLI_OPT_OCI_NO_STUB },            \
	{ "int-args-32", no_argument, NULL, CLI_OPT_OCI_INT_ARGS_32 }
extern const char cli_oci_usage[];
int cli_oci_option(int c, const char *arg);
/*
 * --input-format: the format every input file is read in
 * (scg_input_format_parse()), instead of the one its content shows.  Prints an error that
 * lists the formats for an unknown name; 0 or -EINVAL.  cli_parse_options() takes the
 * option for the commands cli_takes_input_format() names and prints
 * cli_input_format_usage after their --help.
 */
int cli_set_input_format(const char *name);
bool cli_takes_input_format(const char *command);
extern const char cli_input_format_usage[];

#endif
