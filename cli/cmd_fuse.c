/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage fuse: one filter equivalent to a stack of filters (given as
 * files, or the stack a running process holds), proven equal to the stack
 * before it is written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/compile.h>
#include <syscage/inspect.h>

#include "common/analyze.h"

#define MAX_FILTERS 64

enum { OPT_PID = 256, OPT_TIMEOUT, OPT_WORKLOAD, OPT_NO_WORKLOAD, OPT_CHAIN, OPT_JSON };

enum fuse_format { FUSE_RAW, FUSE_ASM, FUSE_C, FUSE_POLICY };

struct fuse_opts {
	const char *files[MAX_FILTERS];
	size_t nfiles;
	long pid; /* 0: none */
	const char *output, *workload, *arch_name;
	bool no_workload, chain, json;
	enum fuse_format format;
	uint64_t timeout_ms;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage fuse -f FILTER [-f FILTER ...] [options] [-o OUT]\n"
		"       syscage fuse --pid PID [options] [-o OUT]\n"
		"\n"
		"Writes ONE filter that gives every syscall the verdict the whole stack gives\n"
		"it: the filters named with -f, installed in the order given (the last one\n"
		"is the newest, which the kernel runs first), or the filters process PID\n"
		"holds.  The strictest action wins (KILL_PROCESS, KILL_THREAD, TRAP, ERRNO,\n"
		"USER_NOTIF, TRACE, LOG, ALLOW), and among equal actions the value of the\n"
		"newest filter (its errno, trap or trace data).  The stack is decompiled\n"
		"into one policy and compiled, so the result costs about one filter; what\n"
		"a policy cannot say (no ABI check, instruction pointer tests, computed\n"
		"values) is chained instead (filters one after the other in one program).\n"
		"The result is proven equal to the stack (as 'syscage diff' proves) before\n"
		"anything is written; OUT is written atomically.\n"
		"\n"
		"  -f, --filter FILTER  a filter: raw sock_filter records, assembler (*.s,\n"
		"                       *.asm), a policy, OCI/Docker JSON or systemd unit,\n"
		"                       or a built-in profile name (compiled first)\n"
		"  -a, --arch ABI       the names of an assembler file without an ABI header\n"
		"                       (default: the machine's); a header wins\n"
		"      --pid PID        the stack process (or thread) PID holds\n"
		"                       (PTRACE_SECCOMP_GET_FILTER; needs CAP_SYS_ADMIN)\n"
		"  -o, --output OUT     write the fused filter there (default: stdout)\n"
		"  -F, --format FORMAT  raw (default), asm, c, or policy (the decompiled\n"
		"                       policy the filter was compiled from)\n"
		"      --workload FILE  lay the filter out for the calls counted in FILE\n"
		"                       ('syscage learn --counts'); default: the built-in one\n"
		"      --no-workload    lay it out for no workload\n"
		"      --chain          chain the filters' code even when they decompile\n"
		"      --json           print what was done as JSON on stdout (needs -o)\n");
	fputs(cli_timeout_usage, out);
	fprintf(out,
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 written, 2 bad usage or input (nothing written), 3 the time\n"
		"budget ran out before the proof was complete (nothing written).\n");
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct fuse_opts *o = ctx;
	char *end;
	switch (c) {
	case 'f':
		if (o->nfiles == MAX_FILTERS) {
			cli_error("fuse: at most %d filters", MAX_FILTERS);
			return -1;
		}
		o->files[o->nfiles++] = arg;
		break;
	case OPT_PID:
		errno = 0;
		o->pid = strtol(arg, &end, 10);
		if (errno || *end || o->pid <= 0 || o->pid > 0x7fffffffL) {
			cli_error("fuse: --pid wants a process id, not '%s'", arg);
			return -1;
		}
		break;
	case 'o':
		o->output = arg;
		break;
	case 'a':
		o->arch_name = arg;
		break;
	case 'F':
		if (!strcmp(arg, "raw"))
			o->format = FUSE_RAW;
		else if (!strcmp(arg, "asm"))
			o->format = FUSE_ASM;
		else if (!strcmp(arg, "c"))
			o->format = FUSE_C;
		else if (!strcmp(arg, "policy"))
			o->format = FUSE_POLICY;
		else {
			cli_error("fuse: unknown format '%s' (raw, asm, c, policy)", arg);
			return -1;
		}
		break;
	case OPT_WORKLOAD:
		o->workload = arg;
		break;
	case OPT_NO_WORKLOAD:
		o->no_workload = true;
		break;
	case OPT_CHAIN:
		o->chain = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_TIMEOUT:
		return cli_parse_timeout("fuse", arg, &o->timeout_ms);
	}
	return 0;
}

/* The stack the process holds, oldest first, into @progs; 0 or an exit status. */
static int load_pid(pid_t pid, struct scg_prog *progs, size_t *n)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_process_filters pf;
	int r = diag ? scg_inspect_process_filters(pid, 10000U, &pf, diag) : -ENOMEM;
	cli_print_diag(diag);
	/* the inspection's own error says why, with a hint: no second line in other words */
	bool told = scg_diag_count_at_least(diag, SCG_SEV_ERROR) > 0;
	scg_diag_free(diag);
	if (r < 0) {
		if (!told)
			cli_error("fuse: cannot read the filters of %d: %s", (int)pid, strerror(-r));
		return CLI_EXIT_USAGE;
	}
	int status = 0;
	if (pf.ngroups == 0) {
		cli_error("fuse: %d has no seccomp filter", (int)pid);
		status = CLI_EXIT_USAGE;
	} else if (pf.ngroups > 1) {
		cli_error("fuse: the threads of %d hold %zu different stacks; name one thread "
			  "with --pid TID (syscage dump %d lists them)",
			  (int)pid, pf.ngroups, (int)pid);
		status = CLI_EXIT_USAGE;
	} else if (pf.groups[0].nprogs > MAX_FILTERS) {
		cli_error("fuse: %d holds %zu filters; at most %d are fused", (int)pid,
			  pf.groups[0].nprogs, MAX_FILTERS);
		status = CLI_EXIT_USAGE;
	} else {
		*n = pf.groups[0].nprogs;
		for (size_t i = 0; i < *n && !status; i++)
			if (scg_prog_copy(&progs[i], &pf.groups[0].progs[i]) < 0)
				status = CLI_EXIT_USAGE;
	}
	scg_process_filters_release(&pf);
	return status;
}

/* The fused filter in the chosen format. */
static int render(const struct fuse_opts *o, const struct scg_fuse_result *res, char **data,
		  size_t *len, bool *binary)
{
	*binary = false;
	if (o->format == FUSE_RAW) {
		size_t bytes = res->prog.len * sizeof(*res->prog.insns);
		*data = malloc(bytes ? bytes : 1);
		if (!*data)
			return -ENOMEM;
		memcpy(*data, res->prog.insns, bytes);
		*len = bytes;
		*binary = true;
		return 0;
	}
	int r;
	if (o->format == FUSE_POLICY) {
		if (!res->policy) {
			cli_error("fuse: the filters were chained, not decompiled: there is no "
				  "policy to write (--format raw, asm or c)");
			return -EINVAL;
		}
		r = scg_policy_to_text(res->policy, data);
	} else {
		r = scg_disasm(&res->prog, NULL, o->format == FUSE_C ? SCG_DISASM_C : SCG_DISASM_ASM,
			       data);
	}
	if (r == 0)
		*len = strlen(*data);
	return r;
}

/* --json: one line; 0, or -EIO reported. */
static int report_json(const struct scg_prog *progs, size_t n, const struct scg_fuse_result *res)
{
	struct scg_json *w = cli_json_begin(stdout);
	if (!w)
		return -EIO;
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_uint(w, "filters", n);
	scg_json_key(w, "stack_instructions");
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < n; i++)
		scg_json_uint(w, progs[i].len);
	scg_json_end(w);
	scg_json_member_uint(w, "instructions", res->prog.len);
	scg_json_member_string(w, "method", res->chained ? "chained" : "decompiled");
	scg_json_member_bool(w, "proven_equal", true);
	scg_json_member_uint(w, "notify_filters", res->notify_filters);
	scg_json_end(w);
	return cli_json_finish(w, stdout) < 0 ? -EIO : 0;
}

/* What was fused, on stderr, or with --json on stdout; 0, or -EIO reported. */
static int report(const struct fuse_opts *o, const struct scg_prog *progs, size_t n,
		   const struct scg_fuse_result *res)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += progs[i].len;
	if (o->json)
		return report_json(progs, n, res);
	fprintf(stderr,
		"syscage: fuse: %zu filter%s (%zu instructions) %s into one of %zu instructions, "
		"proven equal to the stack\n",
		n, n == 1 ? "" : "s", total, res->chained ? "chained" : "decompiled and compiled",
		res->prog.len);
	if (res->notify_filters)
		fprintf(stderr,
			"syscage: fuse: the filter returns USER_NOTIF: install it with "
			"SECCOMP_FILTER_FLAG_NEW_LISTENER and answer on that listener%s\n",
			res->notify_filters > 1
				? "; in the stack those calls went to the listeners of "
				  "several filters, now they all go to one"
				: "");
	return 0;
}

static int fuse(const struct fuse_opts *o, const struct scg_prog *progs, size_t n)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return CLI_EXIT_USAGE;
	SCG_OPTS(scg_compile_options, copts, .optimize = 1, .unweighted = o->no_workload);
	struct scg_syscall_weight *weights = NULL;
	if (o->workload && cli_load_workload(o->workload, &weights, &copts.nweights) < 0) {
		scg_diag_free(diag);
		return CLI_EXIT_USAGE;
	}
	copts.weights = weights;
	struct scg_analysis_options ao = cli_analysis_options(o->timeout_ms);
	SCG_OPTS(scg_fuse_options, fopts, .compile = &copts, .limits = &ao,
		 .force_chain = o->chain);
	struct scg_fuse_result res;
	int r = scg_fuse(progs, n, &fopts, &res, diag);
	cli_workload_free(weights, copts.nweights);
	cli_print_diag(diag);
	scg_diag_free(diag);
	bool budget = r == -ETIMEDOUT || r == -ECANCELED;
	if (budget) {
		cli_budget_error("fuse", o->timeout_ms, r, "the fused filter was proven equal");
		return CLI_EXIT_BUDGET;
	}
	if (r < 0) {
		cli_error("fuse: nothing written: %s", r == -EPROTO ? "the proof failed" : cli_analysis_strerror(r));
		return CLI_EXIT_USAGE;
	}
	char *data = NULL;
	size_t len = 0;
	bool binary;
	r = render(o, &res, &data, &len, &binary);
	if (r == 0)
		r = cli_write_output(o->output, data, len, binary);
	else if (r != -EINVAL)
		cli_error("fuse: %s", strerror(-r));
	if (r == 0)
		r = report(o, progs, n, &res);
	free(data);
	scg_fuse_result_release(&res);
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

int cmd_fuse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "filter", required_argument, NULL, 'f' },
		{ "arch", required_argument, NULL, 'a' },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "workload", required_argument, NULL, OPT_WORKLOAD },
		{ "no-workload", no_argument, NULL, OPT_NO_WORKLOAD },
		{ "chain", no_argument, NULL, OPT_CHAIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "fuse", ":f:a:o:F:h", longopts, usage, on_option };
	struct fuse_opts o = { .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int first = cli_parse_options(&cmd, argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (cli_check_operands(&cmd, argc - first, 0, 0,
			       "name the filters with -f FILTER (or give --pid PID)") < 0)
		return CLI_EXIT_USAGE;
	if ((o.nfiles == 0) == (o.pid == 0)) {
		cli_error("fuse: give the stack either as -f FILTER ... or as --pid PID "
			  "('syscage fuse --help')");
		return CLI_EXIT_USAGE;
	}
	if (o.json && (!o.output || !strcmp(o.output, "-"))) {
		cli_error("fuse: --json prints on stdout; write the filter with -o OUT");
		return CLI_EXIT_USAGE;
	}
	struct scg_prog progs[MAX_FILTERS];
	memset(progs, 0, sizeof(progs));
	size_t n = 0;
	int status = 0;
	if (o.pid) {
		status = load_pid((pid_t)o.pid, progs, &n);
	} else {
		const struct scg_arch *arch = cli_arch(o.arch_name);
		if (!arch)
			status = CLI_EXIT_USAGE;
		/* -a names an assembler file's words; a policy is compiled for all its ABIs */
		for (; n < o.nfiles && !status; n++)
			if (cli_analysis_load_words(o.files[n], arch, &progs[n], NULL) < 0)
				status = CLI_EXIT_USAGE;
	}
	if (!status)
		status = fuse(&o, progs, n);
	for (size_t i = 0; i < MAX_FILTERS; i++)
		scg_prog_release(&progs[i]);
	return status;
}
