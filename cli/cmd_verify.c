/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage verify: would the kernel load these filters?  Each file on its
 * own (with the rule and instruction the kernel would refuse, and warnings
 * about accepted but suspicious code), then, with several files, the stack
 * installed in that order against the kernel's per-path limit; optionally
 * the syscalls the kernel will cache as always allowed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"

struct options {
	const char *arch_name;
	bool json;
	bool cache;
};

struct file_result {
	const char *path;
	struct scg_prog prog;
	struct scg_verify_result res;
	struct scg_diag *diag;
	size_t capacity;
};

struct stack_result {
	bool checked; /* only when every file is accepted on its own */
	struct scg_verify_result res;
	struct scg_diag *diag;
	size_t failing;	    /* the filter that goes over the limit, when refused */
	size_t more_copies; /* of the last filter, when accepted */
};

/* The syscalls every filter of the stack always allows, for one ABI. */
struct cache_table {
	const struct scg_arch *arch;
	uint32_t max_nr;
	bool *allowed; /* max_nr + 1 entries */
	size_t count;
};

#define MAX_CACHE_TABLES	2
#define AUDIT_ARCH_X86_64_VALUE 0xc000003eU
#define NR_URETPROBE_X86_64	335U

struct run {
	const struct scg_arch *arch;
	struct file_result *files;
	size_t n_files;
	bool all_accepted;
	struct stack_result stack;
	struct cache_table cache[MAX_CACHE_TABLES];
	size_t n_cache;
};

static void usage(FILE *out)
{
	fputs("usage: syscage verify [--arch ARCH] [--json] [--cache] FILE...\n"
	      "\n"
	      "Decides, with the kernel's own rules, whether each filter would load, and\n"
	      "names the instruction and rule when it would not.  Several files are also\n"
	      "checked as a stack installed in that order (the kernel's per-path limit of\n"
	      "32768 translated instructions).  Warnings point at accepted code that is\n"
	      "probably wrong: no arch check, x32 not handled, ret a, div or shift by x,\n"
	      "KILL_THREAD, unknown actions, unreachable instructions.\n"
	      "FILE is raw struct sock_filter records, or assembler when it ends in .s or\n"
	      ".asm; '-' reads raw records from standard input.\n"
	      "\n"
	      "  -a, --arch ARCH   the ABI the filters are for (default: native); shapes\n"
	      "                    warnings and the cache report\n"
	      "  -c, --cache       list the syscalls the kernel will cache as always\n"
	      "                    allowed, for the ABI and its compat ABI\n"
	      "  -j, --json        print one JSON object (always includes the cache)\n"
	      "  -h, --help        print this help\n"
	      "\n"
	      "Exit status: 0 when the kernel would accept everything, 1 when it would\n"
	      "refuse something, 2 on bad usage or unreadable input.\n",
	      out);
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct options *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case 'c':
		o->cache = true;
		break;
	case 'j':
		o->json = true;
		break;
	}
	return 0;
}

/* Returns as cli_parse_options() does; cmd_verify() wants one FILE or more. */
static int parse_options(int argc, char **argv, struct options *o)
{
	/* clang-format off */
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "cache", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* clang-format on */
	static const struct cli_command cmd = { "verify", ":a:cjh", longopts, usage, on_option };
	return cli_parse_options(&cmd, argc, argv, o);
}

/* --- deciding -------------------------------------------------------------- */

static int verify_files(struct run *run)
{
	run->all_accepted = true;
	for (size_t i = 0; i < run->n_files; i++) {
		struct file_result *f = &run->files[i];
		f->diag = scg_diag_new();
		if (!f->diag)
			return -ENOMEM;
		int r = scg_verify(&f->prog, run->arch, &f->res, f->diag);
		if (r < 0) {
			cli_error("cannot verify '%s': %s", f->path, strerror(-r));
			return r;
		}
		f->capacity = scg_stack_capacity(&f->prog);
		run->all_accepted &= f->res.accepted;
	}
	return 0;
}

/* The stack in file order; on refusal, finds the first filter over the limit. */
static int verify_stack(struct run *run)
{
	struct stack_result *s = &run->stack;
	struct scg_prog *progs = calloc(run->n_files, sizeof(*progs));
	s->diag = scg_diag_new();
	if (!progs || !s->diag) {
		free(progs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < run->n_files; i++)
		progs[i] = run->files[i].prog;
	int r = scg_verify_stack(progs, run->n_files, run->arch, &s->res, s->diag);
	s->checked = r == 0;
	if (r == 0 && s->res.accepted) {
		size_t last = scg_prog_ebpf_len(&progs[run->n_files - 1]);
		s->more_copies =
		    (SCG_MAX_INSNS_PER_PATH - s->res.ebpf_len) / (last + SCG_PATH_PENALTY);
	}
	for (size_t k = 1; r == 0 && !s->res.accepted && k <= run->n_files; k++) {
		struct scg_verify_result prefix;
		r = scg_verify_stack(progs, k, run->arch, &prefix, NULL);
		if (r == 0 && !prefix.accepted) {
			s->failing = k - 1;
			break;
		}
	}
	free(progs);
	return r;
}

/* The ABIs the kernel keeps a cache for: the native one and its compat ABI. */
static size_t cache_arches(const struct scg_arch *arch, const struct scg_arch **out)
{
	const struct scg_arch *native = scg_arch_from_audit(scg_arch_audit(arch), 0);
	out[0] = native ? native : arch;
	const struct scg_arch *companions[8];
	size_t n = scg_arch_companions(out[0], companions, 8);
	for (size_t i = 0; i < n && i < 8; i++) {
		uint32_t audit = scg_arch_audit(companions[i]);
		if (audit != scg_arch_audit(out[0]) && scg_arch_bits(companions[i]) == 32 &&
		    !(audit & SCG_AUDIT_ARCH_MIPS64_N32) && !scg_arch_nr_flags(companions[i])) {
			out[1] = companions[i];
			return 2;
		}
	}
	return 1;
}

static int compute_cache(struct run *run)
{
	const struct scg_arch *arches[MAX_CACHE_TABLES];
	run->n_cache = cache_arches(run->arch, arches);
	for (size_t a = 0; a < run->n_cache; a++) {
		struct cache_table *t = &run->cache[a];
		t->arch = arches[a];
		t->max_nr = scg_syscall_max(t->arch);
		t->allowed = calloc((size_t)t->max_nr + 1, sizeof(*t->allowed));
		if (!t->allowed)
			return -ENOMEM;
		uint32_t audit = scg_arch_audit(t->arch);
		for (uint32_t nr = 0; nr <= t->max_nr; nr++) {
			bool all = true;
			for (size_t i = 0; i < run->n_files && all; i++)
				all = scg_cache_const_allow(&run->files[i].prog, audit, nr);
			t->allowed[nr] = all;
			t->count += all;
		}
	}
	return 0;
}

/* --- text output ------------------------------------------------------------- */

static void print_entry(const char *prefix, const struct scg_diag_entry *e)
{
	fputs(prefix, stdout);
	if (e->loc.insn >= 0)
		printf("insn %ld: ", e->loc.insn);
	printf("%s: %s", scg_severity_name(e->severity), e->message);
	if (e->code)
		printf(" [%s]", e->code);
	putchar('\n');
	if (e->hint)
		printf("  hint: %s\n", cli_hint(e));
}

static void print_diag(const char *path, const struct scg_diag *diag)
{
	char prefix[1024];
	snprintf(prefix, sizeof(prefix), "%s: ", path);
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		print_entry(prefix, scg_diag_get(diag, i));
}

static void print_file(const struct file_result *f)
{
	if (f->res.accepted)
		printf("%s: accepted (%zu instruction%s, %zu translated; %zu filter%s of this size "
		       "fit%s in one stack)\n",
		       f->path, f->prog.len, f->prog.len == 1 ? "" : "s", f->res.ebpf_len,
		       f->capacity, f->capacity == 1 ? "" : "s", f->capacity == 1 ? "s" : "");
	print_diag(f->path, f->diag);
}

static void print_stack(const struct run *run)
{
	const struct stack_result *s = &run->stack;
	if (!s->checked)
		return;
	if (s->res.accepted) {
		printf("stack of %zu filters: accepted (path length %zu of %u translated "
		       "instructions; %zu more cop%s of %s would fit)\n",
		       run->n_files, s->res.ebpf_len, SCG_MAX_INSNS_PER_PATH, s->more_copies,
		       s->more_copies == 1 ? "y" : "ies", run->files[run->n_files - 1].path);
		return;
	}
	char prefix[1024];
	snprintf(prefix, sizeof(prefix), "stack of %zu filters: %s: ", run->n_files,
		 run->files[s->failing].path);
	for (size_t i = 0; i < scg_diag_count(s->diag); i++)
		print_entry(prefix, scg_diag_get(s->diag, i));
}

/* "0-3 (read..close)" or "39 (getpid)" */
static void print_range(const struct scg_arch *arch, uint32_t from, uint32_t to)
{
	const char *a = scg_syscall_name(arch, from), *b = scg_syscall_name(arch, to);
	if (from == to)
		printf("%u%s%s%s", from, a ? " (" : "", a ? a : "", a ? ")" : "");
	else if (a && b)
		printf("%u-%u (%s..%s)", from, to, a, b);
	else
		printf("%u-%u", from, to);
}

static void print_cache_table(const struct cache_table *t)
{
	uint32_t audit = scg_arch_audit(t->arch);
	const char *audit_name = scg_audit_arch_name(audit);
	printf("cache: %s (%s): %zu of %u syscall numbers always allowed", scg_arch_name(t->arch),
	       audit_name ? audit_name : "?", t->count, t->max_nr + 1);
	const char *sep = ": ";
	for (uint32_t nr = 0; nr <= t->max_nr; nr++) {
		if (!t->allowed[nr])
			continue;
		uint32_t end = nr;
		while (end < t->max_nr && t->allowed[end + 1])
			end++;
		fputs(sep, stdout);
		print_range(t->arch, nr, end);
		sep = ", ";
		nr = end;
	}
	putchar('\n');
	if (audit == AUDIT_ARCH_X86_64_VALUE && t->max_nr > NR_URETPROBE_X86_64)
		printf("  note: the kernel lets uretprobe (335) and uprobe (336) through on "
		       "x86_64 whatever the filters return; x32 calls are never cached\n");
}

static void print_text(const struct run *run)
{
	for (size_t i = 0; i < run->n_files; i++)
		print_file(&run->files[i]);
	if (run->n_files > 1)
		print_stack(run);
	for (size_t a = 0; a < run->n_cache; a++)
		print_cache_table(&run->cache[a]);
}

/* --- JSON output -------------------------------------------------------------- */

/* One diagnostic as an object; @errno_name (or NULL) adds the kernel's errno. */
static void json_entry(struct scg_json *w, const struct scg_diag_entry *e, const char *errno_name)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "insn");
	if (e->loc.insn >= 0)
		scg_json_int(w, e->loc.insn);
	else
		scg_json_null(w);
	scg_json_member_string(w, "rule", e->code);
	scg_json_member_string(w, "message", e->message);
	scg_json_member_string(w, "hint", cli_hint(e));
	if (errno_name) {
		scg_json_member_string(w, "errno", errno_name);
	}
	scg_json_end(w);
}

/* The first error of @diag as an object (or null), then its warnings as an array. */
static void json_error_and_warnings(struct scg_json *w, const struct scg_diag *diag,
				    int kernel_errno)
{
	scg_json_key(w, "error");
	size_t errors = 0;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity == SCG_SEV_ERROR && errors++ == 0)
			json_entry(w, e, kernel_errno == ENOMEM ? "ENOMEM" : "EINVAL");
	}
	if (!errors)
		scg_json_null(w);
	scg_json_key(w, "warnings");
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity == SCG_SEV_WARNING)
			json_entry(w, e, NULL);
	}
	scg_json_end(w);
}

static void json_file(struct scg_json *w, const struct file_result *f)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "file", f->path);
	scg_json_member_bool(w, "accepted", f->res.accepted);
	scg_json_member_uint(w, "instructions", f->prog.len);
	scg_json_key(w, "ebpf_len");
	if (f->res.accepted)
		scg_json_uint(w, f->res.ebpf_len);
	else
		scg_json_null(w);
	scg_json_member_uint(w, "capacity", f->capacity);
	json_error_and_warnings(w, f->diag, f->res.kernel_errno);
	scg_json_end(w);
}

static void json_stack(struct scg_json *w, const struct run *run)
{
	const struct stack_result *s = &run->stack;
	if (!s->checked) {
		scg_json_null(w);
		return;
	}
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_uint(w, "filters", run->n_files);
	scg_json_member_bool(w, "accepted", s->res.accepted);
	scg_json_member_uint(w, "limit", SCG_MAX_INSNS_PER_PATH);
	scg_json_key(w, "path_len");
	if (s->res.accepted)
		scg_json_uint(w, s->res.ebpf_len);
	else
		scg_json_null(w);
	scg_json_key(w, "more_copies_of_last");
	if (s->res.accepted)
		scg_json_uint(w, s->more_copies);
	else
		scg_json_null(w);
	scg_json_member_string(w, "failing_file", s->res.accepted ? NULL : run->files[s->failing].path);
	json_error_and_warnings(w, s->diag, s->res.kernel_errno);
	scg_json_end(w);
}

/* The always-allowed numbers of @t as [first, last] ranges. */
static void json_ranges(struct scg_json *w, const struct cache_table *t)
{
	scg_json_array(w, SCG_JSON_INLINE);
	for (uint32_t nr = 0; nr <= t->max_nr; nr++) {
		if (!t->allowed[nr])
			continue;
		uint32_t end = nr;
		while (end < t->max_nr && t->allowed[end + 1])
			end++;
		scg_json_array(w, SCG_JSON_INLINE);
		scg_json_uint(w, nr);
		scg_json_uint(w, end);
		scg_json_end(w);
		nr = end;
	}
	scg_json_end(w);
}

static void json_cache(struct scg_json *w, const struct run *run)
{
	if (!run->n_cache) {
		scg_json_null(w);
		return;
	}
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t a = 0; a < run->n_cache; a++) {
		const struct cache_table *t = &run->cache[a];
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_string(w, "arch", scg_arch_name(t->arch));
		scg_json_key(w, "audit_arch");
		scg_json_valuef(w, "\"%#x\"", scg_arch_audit(t->arch));
		scg_json_member_uint(w, "max_nr", t->max_nr);
		scg_json_member_uint(w, "count", t->count);
		scg_json_key(w, "ranges");
		json_ranges(w, t);
		scg_json_end(w);
	}
	scg_json_end(w);
}

/* 0, or -1 when the JSON could not be written (reported). */
static int print_json(const struct run *run)
{
	struct scg_json *w = cli_json_begin(stdout);
	if (!w)
		return -1;
	bool accepted = run->all_accepted && (!run->stack.checked || run->stack.res.accepted);
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_member_bool(w, "accepted", accepted);
	scg_json_member_string(w, "arch", scg_arch_name(run->arch));
	scg_json_key(w, "files");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < run->n_files; i++)
		json_file(w, &run->files[i]);
	scg_json_end(w);
	scg_json_key(w, "stack");
	json_stack(w, run);
	scg_json_key(w, "cache");
	json_cache(w, run);
	scg_json_end(w);
	return cli_json_finish(w, stdout);
}

/* --- the command ---------------------------------------------------------------- */

static void run_release(struct run *run)
{
	for (size_t i = 0; i < run->n_files; i++) {
		scg_prog_release(&run->files[i].prog);
		scg_diag_free(run->files[i].diag);
	}
	free(run->files);
	scg_diag_free(run->stack.diag);
	for (size_t a = 0; a < run->n_cache; a++)
		free(run->cache[a].allowed);
}

/* Loads every file (each reports its own problems); -errno if any failed. */
static int load_files(struct run *run, char **paths)
{
	int result = 0;
	for (size_t i = 0; i < run->n_files; i++) {
		struct file_result *f = &run->files[i];
		f->path = strcmp(paths[i], "-") ? paths[i] : "<stdin>";
		int r = cli_load_filter(paths[i], run->arch, &f->prog);
		if (r < 0 && result == 0)
			result = r;
	}
	return result;
}

static int decide(struct run *run, bool want_cache)
{
	int r = verify_files(run);
	if (r == 0 && run->all_accepted)
		r = verify_stack(run);
	bool loads = run->all_accepted && run->stack.checked && run->stack.res.accepted;
	if (r == 0 && want_cache && loads)
		r = compute_cache(run);
	if (r < 0)
		cli_error("verification failed: %s", strerror(-r));
	return r;
}

int cmd_verify(int argc, char **argv)
{
	struct options o = {0};
	int first = parse_options(argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (first >= argc) {
		cli_error("no filter to verify: give one or more FILEs ('syscage verify --help')");
		return CLI_EXIT_USAGE;
	}
	struct run run = {.n_files = (size_t)(argc - first)};
	run.arch = cli_arch(o.arch_name);
	if (!run.arch)
		return CLI_EXIT_USAGE;
	run.files = calloc(run.n_files, sizeof(*run.files));
	if (!run.files) {
		cli_error("out of memory");
		return CLI_EXIT_USAGE;
	}
	int status = CLI_EXIT_USAGE;
	if (load_files(&run, argv + first) == 0 && decide(&run, o.cache || o.json) == 0) {
		int printed = 0;
		if (o.json)
			printed = print_json(&run);
		else
			print_text(&run);
		bool loads = run.all_accepted && run.stack.res.accepted;
		status = printed < 0 ? CLI_EXIT_USAGE : loads ? CLI_EXIT_OK : CLI_EXIT_NEGATIVE;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output");
		status = CLI_EXIT_USAGE;
	}
	run_release(&run);
	return status;
}
