/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage dump: the filters a running process has installed, or the filter
 * a program is about to install, caught and never allowed to take effect.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "analyze.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage dump [--format asm|table|raw|policy] [--arch ARCH] [-o DIR] PID\n"
		"       syscage dump [--format ...] [-o DIR] [--timeout SEC] -- CMD [ARG...]\n"
		"\n"
		"With PID: copies the filters installed in that process (ptrace; needs\n"
		"CAP_SYS_ADMIN), which is stopped only for the copy.  Filters are numbered as\n"
		"the kernel numbers them: filter 0 is the oldest (installed first), the last\n"
		"one the newest.\n"
		"With -- CMD: runs CMD traced and stops it at its first attempt to install a\n"
		"filter, in any process or thread it creates; the filter is read from its\n"
		"memory and the program is killed before the install can happen.\n"
		"\n"
		"  -f, --format FORMAT  asm: annotated assembler (default); table: index, code,\n"
		"                       jt, jf, k and pseudo-C; raw: struct sock_filter records;\n"
		"                       policy: an equivalent policy (syscage decompile), or\n"
		"                       the annotated assembler when no policy can say it or\n"
		"                       the decompiler's time budget runs out\n"
		"  -a, --arch ARCH      ABI for names in comments (default: native, or the ABI\n"
		"                       of the captured install)\n"
		"  -o, --output DIR     write DIR/filter-N.bpf (raw), .s (asm), .policy or .txt\n"
		"                       (table), each atomically; DIR is created if missing\n"
		"  -t, --timeout SEC    give up after SEC seconds (default 10 for PID, 60 for CMD);\n"
		"                       --format policy: the decompiler's budget (default 10)\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 filters printed; 1 the process has no filter, or CMD ended\n"
		"without installing one (or asked for strict mode); 2 bad usage or an error;\n"
		"3 the decompiler's time ran out (the assembler is printed instead).\n");
}

enum dump_format { DUMP_ASM, DUMP_TABLE, DUMP_RAW, DUMP_POLICY };

/* --format policy: the decompiler's time, shared by every filter of the dump. */
struct policy_budget {
	uint64_t ms, used_ms;
	bool ran_out;
};

struct dump_opts {
	enum dump_format format;
	const char *arch_name;
	const char *dir;
	unsigned timeout_ms;
	pid_t pid;        /* 0 in CMD mode */
	char **cmd;       /* NULL in PID mode */
	struct policy_budget *budget;
};

static int parse_format(const char *name, enum dump_format *format)
{
	static const char *const names[] = { "asm", "table", "raw", "policy" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*format = (enum dump_format)i;
			return 0;
		}
	}
	cli_error("dump: unknown format '%s' (asm, table, raw or policy)", name);
	return -1;
}

static int parse_timeout(const char *text, unsigned *ms)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v == 0 || v > 86400) {
		cli_error("dump: --timeout wants whole seconds (1..86400), not '%s'", text);
		return -1;
	}
	*ms = (unsigned)v * 1000U;
	return 0;
}

/* The operands from @first on: one PID, or "--" then a command. */
static int parse_target(const struct cli_command *cmd, int argc, char **argv, int first,
			struct dump_opts *o)
{
	if (first > 1 && !strcmp(argv[first - 1], "--") && first < argc) {
		o->cmd = argv + first;
		return 0;
	}
	if (cli_check_operands(cmd, argc - first, 1, 1, "give one PID, or -- and a command") < 0)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(argv[first], &end, 10);
	if (errno || end == argv[first] || *end || v <= 0 || v > 0x3fffffffL) {
		cli_error("dump: '%s' is not a process id (to run a command: dump -- %s)",
			  argv[first], argv[first]);
		return -1;
	}
	o->pid = (pid_t)v;
	return 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct dump_opts *o = ctx;
	switch (c) {
	case 'f':
		return parse_format(arg, &o->format);
	case 'a':
		o->arch_name = arg;
		break;
	case 'o':
		o->dir = arg;
		break;
	case 't':
		return parse_timeout(arg, &o->timeout_ms);
	}
	return 0;
}

/* Options, then a PID or -- CMD; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct dump_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "arch", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' }, { "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "dump", "+:f:a:o:t:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	return parse_target(&cmd, argc, argv, first, o) < 0 ? -1 : first;
}

static const char *extension(enum dump_format format)
{
	switch (format) {
	case DUMP_RAW:
		return "bpf";
	case DUMP_TABLE:
		return "txt";
	case DUMP_POLICY:
		return "policy";
	case DUMP_ASM:
		break;
	}
	return "s";
}

static uint64_t clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}

/*
 * The policy equivalent to @prog (syscage decompile), or NULL when the
 * language cannot say it or @budget runs out (then *@out_of_time).
 */
static char *render_policy(const struct scg_prog *prog, struct policy_budget *budget,
			   bool *out_of_time)
{
	*out_of_time = false;
	struct scg_policy *policy = NULL;
	char *text = NULL;
	struct scg_diag *diag = scg_diag_new();
#if SYSCAGE_WITH_ANALYSIS
	uint64_t start = clock_ms();
	struct scg_analysis_options ao = { .size = sizeof(ao) };
	if (budget->ms) /* what the earlier filters left of it, 1 ms at least */
		ao.timeout_ms = budget->used_ms < budget->ms ? budget->ms - budget->used_ms : 1;
	int r = diag ? scg_decompile_opts(prog, 1, &ao, &policy, diag) : -ENOMEM;
	budget->used_ms += clock_ms() - start;
	if (r == -ETIMEDOUT)
		budget->ran_out = *out_of_time = true;
	if (r == 0 && scg_policy_to_text(policy, &text) < 0)
		text = NULL;
#else
	(void)prog; /* no decompiler in this build: the caller falls back to assembler */
	(void)budget;
#endif
	scg_policy_free(policy);
	scg_diag_free(diag);
	return text;
}

/* The text of one filter in a text format; NULL after an error message. */
static char *render(const struct scg_prog *prog, const struct scg_arch *arch,
		    const struct dump_opts *o)
{
	enum dump_format f = o->format;
	char *text;
	bool out_of_time = false;
	if (f == DUMP_POLICY && (text = render_policy(prog, o->budget, &out_of_time)))
		return text;
	int r = scg_disasm(prog, arch, f == DUMP_TABLE ? SCG_DISASM_TABLE : SCG_DISASM_ASM, &text);
	if (r < 0) {
		cli_error("dump: cannot render a filter: %s", strerror(-r));
		return NULL;
	}
	if (f != DUMP_POLICY)
		return text;
	static const char cannot[] = "; this filter tests what the policy language cannot say\n"
				     "; (see 'syscage decompile'); its annotated assembler instead:\n";
	static const char no_time[] = "; the decompiler's time budget ran out before the policy\n"
				      "; was complete (--timeout SEC); the annotated assembler:\n";
	const char *note = out_of_time ? no_time : cannot;
	size_t nl = strlen(note);
	char *both = malloc(nl + strlen(text) + 1);
	if (both) {
		memcpy(both, note, nl);
		strcpy(both + nl, text);
	}
	free(text);
	if (!both)
		cli_error("dump: out of memory");
	return both;
}

static const char *age(size_t i, size_t n)
{
	if (n == 1)
		return "the only one";
	return i == 0 ? "oldest, installed first" : i + 1 == n ? "newest, installed last"
						      : "installed in between";
}

static int write_dir(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
		     const struct dump_opts *o)
{
	if (mkdir(o->dir, 0777) < 0 && errno != EEXIST) {
		cli_error("dump: cannot create %s: %s", o->dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/filter-%zu.%s", o->dir, i, extension(o->format));
		int r;
		if (o->format == DUMP_RAW) {
			r = cli_write_output(path, progs[i].insns, progs[i].len * sizeof(struct scg_insn),
					     true);
		} else {
			char *text = render(&progs[i], arch, o);
			if (!text)
				return -1;
			r = cli_write_output(path, text, strlen(text), false);
			free(text);
		}
		if (r < 0)
			return -1;
		printf("%s: filter %zu (%s), %zu instructions\n", path, i, age(i, n), progs[i].len);
	}
	return 0;
}

static int write_stdout(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
			const struct dump_opts *o)
{
	if (o->format == DUMP_RAW) {
		if (n != 1) {
			cli_error("dump: %zu filters do not fit one raw stream; use -o DIR", n);
			return -1;
		}
		return cli_write_output(NULL, progs[0].insns, progs[0].len * sizeof(struct scg_insn),
					true) < 0 ? -1 : 0;
	}
	if (n > 1)
		printf("; %zu filters, oldest first (the kernel's numbering); the kernel runs\n"
		       "; every one on each syscall, newest first, and the most restrictive\n"
		       "; result wins\n",
		       n);
	for (size_t i = 0; i < n; i++) {
		char *text = render(&progs[i], arch, o);
		if (!text)
			return -1;
		printf("%s; --- filter %zu (%s) ---\n%s", i ? "\n" : "", i, age(i, n), text);
		free(text);
	}
	return 0;
}

static int emit(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
		const struct dump_opts *o)
{
	int r = o->dir ? write_dir(progs, n, arch, o) : write_stdout(progs, n, arch, o);
	if (fflush(stdout) != 0)
		r = -1;
	if (r == 0 && o->budget->ran_out) {
		cli_error("dump: the decompiler's time budget of %llu s ran out; the assembler is "
			  "printed instead of a policy (--timeout SEC)",
			  (unsigned long long)o->budget->ms / 1000);
		return CLI_EXIT_BUDGET;
	}
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

static int dump_pid(const struct dump_opts *o, const struct scg_arch *arch)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_prog *progs;
	size_t n;
	int r = scg_inspect_filters(o->pid, o->timeout_ms ? o->timeout_ms : 10000U, &progs, &n, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r < 0)
		return CLI_EXIT_USAGE;
	if (n == 0) {
		cli_error("dump: process %d has no seccomp filter", (int)o->pid);
		return CLI_EXIT_NEGATIVE;
	}
	int status = emit(progs, n, arch, o);
	scg_progs_free(progs, n);
	return status;
}

static void describe_capture(const struct scg_capture *c)
{
	const struct scg_arch *arch = scg_arch_from_audit(c->audit_arch, c->nr);
	const char *abi = arch ? scg_arch_name(arch) : NULL;
	if (c->call == SCG_CAPTURE_SECCOMP)
		fprintf(stderr,
			"syscage: dump: process %d called seccomp(SECCOMP_SET_MODE_FILTER, 0x%lx, "
			"...) as %s",
			(int)c->pid, c->flags, abi ? abi : "an unknown ABI");
	else
		fprintf(stderr, "syscage: dump: process %d called prctl(PR_SET_SECCOMP, ...) as %s",
			(int)c->pid, abi ? abi : "an unknown ABI");
	fprintf(stderr, "; the program was killed before the install\n");
}

static int report_no_filter(const struct scg_capture *c, const char *cmd)
{
	if (c->outcome == SCG_CAPTURE_STRICT) {
		fprintf(stderr, "syscage: dump: process %d asked for strict mode; no filter to show, "
				"killed it\n", (int)c->pid);
	} else if (WIFEXITED(c->exit_status)) {
		cli_error("dump: '%s' exited with status %d without installing a filter", cmd,
			  WEXITSTATUS(c->exit_status));
	} else {
		cli_error("dump: '%s' died of signal %d without installing a filter", cmd,
			  WTERMSIG(c->exit_status));
	}
	return CLI_EXIT_NEGATIVE;
}

static int dump_cmd(const struct dump_opts *o, const struct scg_arch *arch)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_capture c;
	int r = scg_inspect_capture(o->cmd, o->timeout_ms ? o->timeout_ms : 60000U, &c, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r < 0)
		return CLI_EXIT_USAGE;
	if (c.outcome != SCG_CAPTURE_FILTER)
		return report_no_filter(&c, o->cmd[0]);
	describe_capture(&c);
	if (!o->arch_name) {
		const struct scg_arch *seen = scg_arch_from_audit(c.audit_arch, c.nr);
		if (seen)
			arch = seen;
	}
	int status = emit(&c.prog, 1, arch, o);
	scg_prog_release(&c.prog);
	return status;
}

int cmd_dump(int argc, char **argv)
{
	struct policy_budget budget = { 0 };
	struct dump_opts o = { .format = DUMP_ASM, .budget = &budget };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	budget.ms = o.timeout_ms ? o.timeout_ms : 10000U;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	return o.cmd ? dump_cmd(&o, arch) : dump_pid(&o, arch);
}
