/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage emu: runs filters on one syscall (or a batch of them) exactly as
 * the kernel does and prints the action the kernel takes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/analyze.h"
#include "emu_batch.h"

#define MAX_FILTERS 64

struct emu_opts {
	const char *arch_name;
	const char *ip_text;
	const char *batch;
	bool trace, json;
	const char *files[MAX_FILTERS];
	size_t n_files;
	char **positional; /* SYSCALL [ARG0 .. ARG5] */
	int n_positional;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage emu [options] -f FILTER [-f FILTER ...] SYSCALL [ARG0 ... ARG5]\n"
		"       syscage emu [options] -f FILTER [-f FILTER ...] --batch FILE\n"
		"\n"
		"Runs the filters on a syscall as the kernel does and prints the action it\n"
		"takes: ALLOW, LOG, KILL_PROCESS, KILL_THREAD, TRAP(n), ERRNO(n), TRACE(n) or\n"
		"USER_NOTIF.  Several -f make a stack installed in the order given (the last\n"
		"is the newest).  Options come before SYSCALL.\n"
		"\n"
		"  -f, --filter FILE  a filter: assembler for *.s and *.asm, raw sock_filter\n"
		"                     records otherwise (- reads raw records from stdin)\n"
		"  -a, --arch ARCH    the caller's ABI (default: native): seccomp_data.arch,\n"
		"                     syscall names, argument byte order (an assembler\n"
		"                     filter's ABI header names its own words)\n"
		"      --ip N         seccomp_data.instruction_pointer (default 0)\n"
		"      --trace        print every executed instruction with A and X after it\n"
		"      --json         print the result as JSON\n"
		"      --batch FILE   one case per line: ARCH SYSCALL [ARG0 .. ARG5] [IP];\n"
		"                     prints one action per case (- reads stdin)\n"
		"  -v, --verbose      also a policy's warnings about syscalls a target ABI\n"
		"                     lacks ('syscage compile' always shows them)\n"
		"  -h, --help         this text\n"
		"\n"
		"SYSCALL is a name or a number; arguments are numbers (0x hex, negative =\n"
		"two's complement), AUDIT_ARCH_* names, or values as policies write them:\n"
		"constants and errno names (AF_INET, AT_FDCWD, EPERM), combined with | and ~\n"
		"('O_WRONLY|O_CREAT').  Exit status: 0 done, 2 bad usage or input\n"
		"(including a filter the kernel would refuse).\n");
}

enum { OPT_IP = 256, OPT_TRACE, OPT_JSON, OPT_BATCH };

static int on_option(int c, const char *arg, void *ctx)
{
	struct emu_opts *o = ctx;
	switch (c) {
	case 'f':
		if (o->n_files == MAX_FILTERS) {
			cli_error("at most %d filters", MAX_FILTERS);
			return -1;
		}
		o->files[o->n_files++] = arg;
		break;
	case 'a':
		o->arch_name = arg;
		break;
	case OPT_IP:
		o->ip_text = arg;
		break;
	case OPT_TRACE:
		o->trace = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_BATCH:
		o->batch = arg;
		break;
	case 'v':
		cli_set_policy_warnings(CLI_POLICY_WARN_ALL);
		break;
	}
	return 0;
}

/* Options, then SYSCALL [ARG...] into @o->positional; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct emu_opts *o)
{
	static const struct option longopts[] = {
		{ "filter", required_argument, NULL, 'f' }, { "arch", required_argument, NULL, 'a' },
		{ "ip", required_argument, NULL, OPT_IP },  { "trace", no_argument, NULL, OPT_TRACE },
		{ "json", no_argument, NULL, OPT_JSON },    { "batch", required_argument, NULL, OPT_BATCH },
		{ "verbose", no_argument, NULL, 'v' },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* '+': stop at SYSCALL, so negative arguments such as -1 are not options */
	static const struct cli_command cmd = { "emu", "+:f:a:vh", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first > 0) {
		o->positional = argv + first;
		o->n_positional = argc - first;
	}
	return first;
}

static int check_usage(const struct emu_opts *o)
{
	if (o->n_files == 0) {
		cli_error("emu: no filter; give one with -f FILE ('syscage emu --help')");
		return -1;
	}
	if (o->batch) {
		if (o->n_positional) {
			cli_error("emu: --batch reads its cases from a file; remove '%s'", o->positional[0]);
			return -1;
		}
		for (size_t i = 0; i < o->n_files; i++)
			if (!strcmp(o->batch, "-") && !strcmp(o->files[i], "-")) {
				cli_error("emu: the filter and the --batch cases cannot both come from stdin");
				return -1;
			}
		if (o->trace || o->json) {
			cli_error("emu: --trace and --json describe one case; they do not go with --batch");
			return -1;
		}
		return 0;
	}
	if (o->n_positional == 0) {
		cli_error("emu: which syscall? ('syscage emu -f FILTER SYSCALL [ARGS]')");
		return -1;
	}
	if (o->n_positional > 7) {
		cli_error("emu: a syscall has at most 6 arguments, got %d", o->n_positional - 1);
		return -1;
	}
	return 0;
}

/* Prints the refusals (errors only: warnings are 'syscage verify's business). */
static void print_refusal(const struct scg_diag *diag)
{
	for (size_t j = 0; j < scg_diag_count(diag); j++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, j);
		struct scg_diag_entry bare = *e;
		bare.hint = NULL; /* on a line of its own, not escaped into this one */
		char line[512];
		if (e->severity != SCG_SEV_ERROR || scg_diag_format(&bare, line, sizeof(line)) < 0)
			continue;
		fputs("  ", stderr);
		cli_fputs_escaped(line, stderr); /* the file's name, as given */
		if (e->hint) {
			fputs("\n    hint: ", stderr);
			cli_fputs_escaped(cli_hint(e), stderr);
		}
		fputc('\n', stderr);
	}
}

/*
 * Decides whether the kernel would load @progs[0..@n) one by one (@n == 1:
 * @what names the filter) or as a stack.  0, or -1 after reporting.
 */
static int check_loadable(const struct scg_prog *progs, size_t n, const struct scg_arch *arch,
			  const char *what)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_verify_result vr;
	int r = !diag ? -ENOMEM
		: n == 1 ? scg_verify(progs, arch, &vr, diag)
			 : scg_verify_stack(progs, n, arch, &vr, diag);
	if (r == 0 && vr.accepted) {
		scg_diag_free(diag);
		return 0;
	}
	if (r < 0) {
		cli_error("cannot check %s: %s", what, strerror(-r));
	} else {
		cli_error("%s: the kernel would refuse this %s:", what, n == 1 ? "filter" : "stack");
		print_refusal(diag);
	}
	scg_diag_free(diag);
	return -1;
}

/* Loads every filter and makes sure the kernel would install them all.  0 or -1 (reported). */
static int load_filters(const struct emu_opts *o, const struct scg_arch *arch,
			struct scg_prog *progs)
{
	for (size_t i = 0; i < o->n_files; i++) {
		if (cli_load_filter(o->files[i], arch, &progs[i]) < 0)
			return -1;
		if (check_loadable(&progs[i], 1, arch, o->files[i]) < 0)
			return -1;
	}
	/* each loads alone; together they must also fit the kernel's per-path limit */
	if (o->n_files > 1 && check_loadable(progs, o->n_files, arch, "the filters") < 0)
		return -1;
	return 0;
}

/* --- one case ------------------------------------------------------------ */

struct step_log {
	struct scg_emu_step *steps;
	size_t n, cap;
	bool nomem;
};

static void record_step(void *ctx, const struct scg_emu_step *step)
{
	struct step_log *log = ctx;
	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 64;
		struct scg_emu_step *bigger = reallocarray(log->steps, cap, sizeof(*bigger));
		if (!bigger) {
			log->nomem = true;
			return;
		}
		log->steps = bigger;
		log->cap = cap;
	}
	log->steps[log->n++] = *step;
}

static int parse_case(const struct emu_opts *o, const struct scg_arch *arch,
		      struct scg_seccomp_data *data)
{
	memset(data, 0, sizeof(*data));
	data->arch = scg_arch_audit(arch);
	if (cli_parse_syscall(arch, o->positional[0], &data->nr) < 0)
		return -1;
	/* x32 numbers carry bit 30: the table's already do, a bare number gets it here */
	data->nr |= scg_arch_nr_flags(arch);
	for (int i = 1; i < o->n_positional; i++)
		if (cli_parse_value(arch, o->positional[i], &data->args[i - 1]) < 0)
			return -1;
	if (o->ip_text && cli_parse_value(arch, o->ip_text, &data->instruction_pointer) < 0)
		return -1;
	return 0;
}

struct run_result {
	struct scg_emu_result res;
	size_t executed[MAX_FILTERS];
	uint32_t rets[MAX_FILTERS];
	struct step_log log;
};

/* --- output -------------------------------------------------------------- */

/* Copies @len bytes of @line, with the padding before a "; comment" cut to two spaces. */
static void squeeze_comment(char *buf, size_t size, const char *line, size_t len)
{
	const char *semi = memchr(line, ';', len);
	size_t code = semi ? (size_t)(semi - line) : len;
	while (code && line[code - 1] == ' ')
		code--;
	if (semi)
		snprintf(buf, size, "%.*s  %.*s", (int)code, line, (int)(len - (size_t)(semi - line)), semi);
	else
		snprintf(buf, size, "%.*s", (int)code, line);
}

/* The instruction line of a one-instruction disassembly: trimmed, labels and comments lines skipped. */
static bool first_insn_line(const char *text, char *buf, size_t size)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		while (len && (*line == ' ' || *line == '\t')) {
			line++;
			len--;
		}
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
			len--;
		bool label = len && line[len - 1] == ':';
		if (len && !label && line[0] != ';' && line[0] != '#' && line[0] != '/') {
			squeeze_comment(buf, size, line, len);
			return true;
		}
		line = end ? end + 1 : NULL;
	}
	return false;
}

/* @insn as the disassembler writes it; jump targets stay relative (+N). */
static void insn_text(const struct scg_insn *insn, const struct scg_arch *arch, char *buf,
		      size_t size)
{
	struct scg_prog one = { (struct scg_insn *)insn, 1 };
	char *text = NULL;
	bool ok = scg_disasm(&one, arch, SCG_DISASM_ASM, &text) == 0 &&
		  first_insn_line(text, buf, size);
	free(text);
	if (!ok)
		snprintf(buf, size, ".insn %#x, %u, %u, %#x", insn->code, insn->jt, insn->jf, insn->k);
}

static void print_trace(const struct emu_opts *o, const struct scg_arch *arch,
			const struct scg_seccomp_data *data, const struct run_result *run,
			const struct scg_prog *progs)
{
	const struct step_log *log = &run->log;
	size_t i = 0;
	char call[512];
	scg_call_format(arch, data->nr, data->args, NULL, call, sizeof(call), NULL);
	printf("call %s\n", call);
	while (i < log->n) {
		size_t f = log->steps[i].filter;
		printf("filter %zu of %zu (%s)%s:\n", f + 1, o->n_files, o->files[f],
		       f + 1 == o->n_files ? ", the newest, runs first" : "");
		for (; i < log->n && log->steps[i].filter == f; i++) {
			const struct scg_emu_step *st = &log->steps[i];
			char text[160];
			insn_text(&progs[f].insns[st->pc], arch, text, sizeof(text));
			printf("  %4zu  %-36s A=0x%08x X=0x%08x\n", st->pc, text, st->a, st->x);
		}
		char ret[40];
		scg_ret_format(run->rets[f], ret, sizeof(ret));
		printf("  returns 0x%08x %s after %zu instruction%s\n", run->rets[f], ret,
		       run->executed[f], run->executed[f] == 1 ? "" : "s");
	}
	if (!run->res.never_filtered)
		printf("decided by filter %zu (%s)\n", run->res.winner + 1, o->files[run->res.winner]);
}

static int finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output: %s", strerror(errno));
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static int print_text(const struct emu_opts *o, const struct scg_arch *arch,
		      const struct scg_seccomp_data *data, const struct run_result *run,
		      const struct scg_prog *progs)
{
	const struct scg_emu_result *res = &run->res;
	char action[40];
	scg_emu_result_format(res, action, sizeof(action));
	printf("%s\n", action);
	if (res->unknown_action)
		printf("unknown action 0x%08x (the kernel kills the process)\n", res->ret);
	if (res->never_filtered) {
		const char *name = scg_syscall_name(arch, data->nr);
		char filters[40];
		scg_ret_format(res->ret, filters, sizeof(filters));
		printf("note: the kernel never filters %s (%u) on x86_64; the filters alone would give %s\n",
		       name ? name : "this syscall", data->nr, filters);
	}
	if (o->trace)
		print_trace(o, arch, data, run, progs);
	return finish_output();
}

static void json_hex32(struct scg_json *w, const char *key, uint32_t v)
{
	scg_json_key(w, key);
	scg_json_valuef(w, "\"0x%08x\"", v);
}

static void json_trace(struct scg_json *w, const struct scg_arch *arch,
		       const struct run_result *run, const struct scg_prog *progs, size_t f)
{
	scg_json_key(w, "trace");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < run->log.n; i++) {
		const struct scg_emu_step *st = &run->log.steps[i];
		if (st->filter != f)
			continue;
		char text[160];
		insn_text(&progs[f].insns[st->pc], arch, text, sizeof(text));
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_uint(w, "pc", st->pc);
		scg_json_member_string(w, "insn", text);
		json_hex32(w, "a", st->a);
		json_hex32(w, "x", st->x);
		scg_json_end(w);
	}
	scg_json_end(w);
}

static void json_filter(struct scg_json *w, const struct emu_opts *o, const struct scg_arch *arch,
			const struct run_result *run, const struct scg_prog *progs, size_t f)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "file", o->files[f]);
	json_hex32(w, "ret", run->rets[f]);
	scg_json_member_uint(w, "executed", run->executed[f]);
	if (o->trace)
		json_trace(w, arch, run, progs, f);
	scg_json_end(w);
}

/* The outcome: the action and what decided it. */
static void json_outcome(struct scg_json *w, const struct scg_emu_result *res)
{
	char action[40];
	scg_emu_result_format(res, action, sizeof(action));
	scg_json_member_string(w, "action", action);
	scg_json_member_uint(w, "data", res->data);
	json_hex32(w, "ret", res->ret);
	scg_json_member_uint(w, "winner", res->winner);
	scg_json_member_bool(w, "unknown_action", res->unknown_action);
	scg_json_member_bool(w, "never_filtered", res->never_filtered);
}

static int print_json(const struct emu_opts *o, const struct scg_arch *arch,
		      const struct scg_seccomp_data *data, const struct run_result *run,
		      const struct scg_prog *progs)
{
	struct scg_json *w = cli_json_begin(stdout);
	if (!w)
		return CLI_EXIT_USAGE;
	scg_json_object(w, SCG_JSON_LINES);
	json_outcome(w, &run->res);
	scg_json_member_string(w, "arch", scg_arch_name(arch));
	scg_json_member_uint(w, "nr", data->nr);
	scg_json_member_string(w, "syscall", scg_syscall_name(arch, data->nr));
	scg_json_key(w, "args");
	scg_json_array(w, SCG_JSON_INLINE);
	for (int i = 0; i < 6; i++)
		scg_json_valuef(w, "\"0x%llx\"", (unsigned long long)data->args[i]);
	scg_json_end(w);
	char call[512];
	scg_call_format(arch, data->nr, data->args, NULL, call, sizeof(call), NULL);
	scg_json_member_string(w, "call", call);
	scg_json_key(w, "ip");
	scg_json_valuef(w, "\"0x%llx\"", (unsigned long long)data->instruction_pointer);
	scg_json_member_uint(w, "executed", run->res.executed_total);
	scg_json_key(w, "filters");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t f = 0; f < o->n_files; f++)
		json_filter(w, o, arch, run, progs, f);
	scg_json_end(w);
	scg_json_end(w);
	if (cli_json_finish(w, stdout) < 0)
		return CLI_EXIT_USAGE;
	return finish_output();
}

int cmd_emu(int argc, char **argv)
{
	struct emu_opts o = { 0 };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (check_usage(&o) < 0)
		return CLI_EXIT_USAGE;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;

	struct scg_prog progs[MAX_FILTERS] = { { 0 } };
	int status = CLI_EXIT_USAGE;
	uint64_t ip = 0;
	if (load_filters(&o, arch, progs) < 0)
		goto out;
	if (o.batch) {
		if (o.ip_text && cli_parse_value(arch, o.ip_text, &ip) < 0)
			goto out;
		status = cli_emu_batch(o.batch, progs, o.n_files, ip);
		goto out;
	}
	struct scg_seccomp_data data;
	if (parse_case(&o, arch, &data) < 0)
		goto out;
	struct run_result run = { 0 };
	r = scg_emu_stack_unchecked(progs, o.n_files, &data, &run.res, run.executed, run.rets,
				    o.trace ? record_step : NULL, &run.log);
	if (r < 0 || run.log.nomem) {
		cli_error("emu: %s", strerror(r < 0 ? -r : ENOMEM));
	} else {
		status = o.json ? print_json(&o, arch, &data, &run, progs)
				: print_text(&o, arch, &data, &run, progs);
	}
	free(run.log.steps);
out:
	for (size_t i = 0; i < o.n_files; i++)
		scg_prog_release(&progs[i]);
	return status;
}
