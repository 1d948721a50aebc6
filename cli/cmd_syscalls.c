/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage syscalls: syscall names <-> numbers for any ABI, the ABI list, and
 * whole tables.  Every argument is resolved even after one fails, so a
 * script gets all the answers and a non-zero status.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/analyze.h"

/* More than there are ABIs, so repeating every --arch still fits. */
#define MAX_ARCHES 64

struct options {
	const struct scg_arch *arches[MAX_ARCHES];
	size_t n_arches;
	bool all_arches;
	bool list;
	bool list_arches;
	bool groups;
	bool json;
};

static void usage(FILE *out)
{
	fputs("usage: syscage syscalls [--arch ARCH]... [--json] NAME|NUMBER...\n"
	      "       syscage syscalls --all-arches [--json] NAME|NUMBER...\n"
	      "       syscage syscalls --list [--arch ARCH]... [--json]\n"
	      "       syscage syscalls --arches [--json]\n"
	      "       syscage syscalls --groups [--json] [GROUP]...\n"
	      "\n"
	      "Resolves syscall names and numbers; every argument prints \"NAME NUMBER\".\n"
	      "With several ABIs each line starts with the ABI, and '-' marks a syscall\n"
	      "the ABI does not have.  Numbers are what the kernel puts in seccomp_data.nr\n"
	      "(x32 numbers carry bit 30, MIPS numbers their ABI base).\n"
	      "\n"
	      "  -a, --arch ARCH    resolve on ARCH (default: the native ABI); repeatable\n"
	      "  -A, --all-arches   resolve on every ABI\n"
	      "  -l, --list         print whole tables, \"NUMBER NAME\" by increasing number\n"
	      "      --arches       list the ABIs: AUDIT_ARCH value, word size, byte order,\n"
	      "                     aliases; the native one is marked\n"
	      "      --groups       list the syscall groups of the policy language\n"
	      "                     (@basic-io, ...), or the members of each GROUP\n"
	      "                     (under a heading @GROUP: when there are several)\n"
	      "  -j, --json         print JSON instead of text\n"
	      "  -h, --help         print this help\n"
	      "\n"
	      "Numbers are decimal, 0x hex or 0 octal; put -- before a negative one.\n"
	      "Exit status: 0 when everything resolved, 2 when an argument did not or on\n"
	      "bad usage.\n",
	      out);
}

/* --- option parsing ------------------------------------------------------ */

enum { OPT_ARCHES = 256, OPT_GROUPS };

static int add_arch(struct options *o, const char *name)
{
	const struct scg_arch *arch = cli_arch(name);
	if (!arch)
		return -EINVAL;
	for (size_t i = 0; i < o->n_arches; i++)
		if (o->arches[i] == arch)
			return 0;
	if (o->n_arches == MAX_ARCHES) {
		cli_error("too many --arch options");
		return -E2BIG;
	}
	o->arches[o->n_arches++] = arch;
	return 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct options *o = ctx;
	switch (c) {
	case 'a':
		return add_arch(o, arg);
	case 'A':
		o->all_arches = true;
		break;
	case 'l':
		o->list = true;
		break;
	case OPT_ARCHES:
		o->list_arches = true;
		break;
	case OPT_GROUPS:
		o->groups = true;
		break;
	case 'j':
		o->json = true;
		break;
	}
	return 0;
}

/* Returns as cli_parse_options() does; check_modes() judges the operands. */
static int parse_options(int argc, char **argv, struct options *o)
{
	/* clang-format off */
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "all-arches", no_argument, NULL, 'A' },
		{ "list", no_argument, NULL, 'l' },
		{ "arches", no_argument, NULL, OPT_ARCHES },
		{ "groups", no_argument, NULL, OPT_GROUPS },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* clang-format on */
	static const struct cli_command cmd = { "syscalls", ":a:Aljh", longopts, usage, on_option };
	return cli_parse_options(&cmd, argc, argv, o);
}

/* Rejects combinations that have no meaning; @n_args counts the operands. */
static int check_modes(const struct options *o, int n_args)
{
	if (o->groups && (o->list || o->list_arches || o->all_arches || o->n_arches)) {
		cli_error("--groups takes no other option than --json");
		return -EINVAL;
	}
	if (o->groups)
		return 0;
	if (o->list_arches && (o->list || o->all_arches || o->n_arches || n_args)) {
		cli_error("--arches takes no other option or argument");
		return -EINVAL;
	}
	if (o->all_arches && o->n_arches) {
		cli_error("--all-arches and --arch exclude each other");
		return -EINVAL;
	}
	if (o->list && n_args) {
		cli_error("--list prints whole tables; it takes no NAME or NUMBER");
		return -EINVAL;
	}
	if (!o->list && !o->list_arches && !n_args) {
		cli_error("nothing to resolve: give syscall names or numbers, --list or --arches");
		return -EINVAL;
	}
	return 0;
}

/* Fills in the ABIs to work on: every one, those given, or the native one. */
static int select_arches(struct options *o)
{
	if (o->all_arches) {
		for (size_t i = 0; i < scg_arch_count() && i < MAX_ARCHES; i++)
			o->arches[o->n_arches++] = scg_arch_at(i);
	}
	if (o->n_arches)
		return 0;
	const struct scg_arch *native = scg_arch_native();
	if (!native) {
		cli_error("this build has no native ABI; choose one with --arch");
		return -EINVAL;
	}
	o->arches[o->n_arches++] = native;
	return 0;
}

/* --- JSON ---------------------------------------------------------------- */

/* Opens the document's array on a new writer (@w NULL: no JSON); false after reporting. */
static bool json_start(bool json, struct scg_json **w)
{
	*w = NULL;
	if (!json)
		return true;
	if (!(*w = cli_json_begin(stdout)))
		return false;
	scg_json_array(*w, SCG_JSON_LINES);
	return true;
}

/* Closes the document's array; 0, or -1 reported. */
static int json_finish(struct scg_json *w)
{
	if (w)
		scg_json_end(w);
	return cli_json_finish(w, stdout);
}

/* --- resolving ----------------------------------------------------------- */

struct resolution {
	const char *name; /* the syscall's name; NULL when there is none */
	uint32_t nr;
	bool has_nr; /* false when the ABI has no number for the name */
	/* 0, -ENOSYS (a syscall, not on this ABI), -ENOENT (no such syscall),
	 * -ESRCH (no syscall has this number here), -EINVAL (not a number) */
	int error;
};

static bool looks_numeric(const char *text)
{
	return isdigit((unsigned char)text[0]) ||
	       (text[0] == '-' && isdigit((unsigned char)text[1]));
}

/* C syntax (decimal, 0x, leading 0); a negative number is its 32-bit two's complement. */
static bool parse_number(const char *text, uint32_t *nr)
{
	bool negative = text[0] == '-';
	const char *digits = text + negative;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(digits, &end, 0);
	if (errno || end == digits || *end)
		return false;
	if (v > (negative ? 0x80000000ULL : 0xffffffffULL))
		return false;
	*nr = negative ? (uint32_t)(0U - (uint32_t)v) : (uint32_t)v;
	return true;
}

static struct resolution resolve(const struct scg_arch *arch, const char *query)
{
	struct resolution r = {0};
	if (looks_numeric(query)) {
		r.has_nr = parse_number(query, &r.nr);
		if (!r.has_nr)
			r.error = -EINVAL;
		else if (!(r.name = scg_syscall_name(arch, r.nr)))
			r.error = -ESRCH;
		return r;
	}
	r.error = scg_syscall_lookup(arch, query, &r.nr);
	r.has_nr = r.error == 0;
	if (r.error != -ENOENT)
		r.name = query;
	return r;
}

/* "x86_64, x86, x32" -- the ABIs that have @name, into @buf. */
static void arches_having(const char *name, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *arch = scg_arch_at(i);
		uint32_t nr;
		if (scg_syscall_lookup(arch, name, &nr) != 0)
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
				 scg_arch_name(arch));
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

static void report_not_here(const char *query, const char *where)
{
	char have[512];
	arches_having(query, have, sizeof(have));
	if (have[0])
		cli_error("'%s' is a syscall, but not on %s; it exists on %s", query, where, have);
	else
		cli_error("'%s' is a syscall, but only on ABIs syscage does not describe", query);
}

/* No ABI knows @query; the hint comes from the first selected one. */
static void report_unknown(const struct options *o, const char *query)
{
	const char *hint = scg_syscall_suggest(o->arches[0], query);
	char where[64] = "";
	if (o->n_arches == 1)
		snprintf(where, sizeof(where), " on %s", scg_arch_name(o->arches[0]));
	if (hint)
		cli_error("unknown syscall '%s'%s; did you mean '%s'?", query, where, hint);
	else
		cli_error("unknown syscall '%s'%s", query, where);
}

/*
 * Explains why @query resolved on none of the selected ABIs; @r is its
 * resolution on the first one, @where names the selection.
 */
static void report_failure(const struct options *o, const char *query, struct resolution r,
			   const char *where)
{
	switch (r.error) {
	case -ENOSYS:
		report_not_here(query, where);
		break;
	case -ENOENT:
		report_unknown(o, query);
		break;
	case -ESRCH:
		cli_error("no syscall has number %s on %s", query, where);
		break;
	default:
		cli_error("'%s' is not a syscall name or number", query);
		break;
	}
}

/* "NAME NUMBER", '-' for the half this ABI lacks. */
static void print_text(const struct options *o, const struct scg_arch *arch, struct resolution r)
{
	if (o->n_arches > 1)
		printf("%-12s ", scg_arch_name(arch));
	printf("%s ", r.name ? r.name : "-");
	if (r.has_nr)
		printf("%u\n", (unsigned)r.nr);
	else
		printf("-\n");
}

static const char *error_text(int error)
{
	switch (error) {
	case 0:
		return NULL;
	case -ENOSYS:
		return "not a syscall of this ABI";
	case -ENOENT:
		return "unknown syscall";
	case -ESRCH:
		return "no syscall has this number";
	default:
		return "not a syscall name or number";
	}
}

static void print_json(struct scg_json *w, const struct scg_arch *arch, const char *query,
		       struct resolution r)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "query", query);
	scg_json_member_string(w, "arch", scg_arch_name(arch));
	scg_json_member_string(w, "name", r.name);
	scg_json_key(w, "nr");
	if (r.has_nr)
		scg_json_uint(w, r.nr);
	else
		scg_json_null(w);
	if (r.error) {
		scg_json_member_string(w, "error", error_text(r.error));
	}
	scg_json_end(w);
}

/*
 * Prints @query on every selected ABI.  Returns false when it resolved on
 * none of them; an ABI that lacks a syscall others have is not a failure
 * when several were asked for.
 */
static bool resolve_query(const struct options *o, const char *query, struct scg_json *w)
{
	struct resolution on_first = {0};
	bool any = false;
	for (size_t i = 0; i < o->n_arches; i++) {
		struct resolution r = resolve(o->arches[i], query);
		if (i == 0)
			on_first = r;
		any |= r.error == 0;
		/* in text, only a known syscall or number earns a line */
		bool known = r.error == 0 || r.error == -ENOSYS || r.error == -ESRCH;
		if (o->json)
			print_json(w, o->arches[i], query, r);
		else if (r.error == 0 || (o->n_arches > 1 && known))
			print_text(o, o->arches[i], r);
	}
	if (!any) {
		const char *where =
		    o->n_arches > 1 ? "any selected ABI" : scg_arch_name(o->arches[0]);
		report_failure(o, query, on_first, where);
	}
	return any;
}

static int run_resolve(const struct options *o, int argc, char **argv)
{
	bool ok = true;
	struct scg_json *w = NULL;
	if (!json_start(o->json, &w))
		return CLI_EXIT_USAGE;
	for (int i = 0; i < argc; i++)
		ok &= resolve_query(o, argv[i], w);
	if (json_finish(w) < 0)
		return CLI_EXIT_USAGE;
	return ok ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* --- --list -------------------------------------------------------------- */

static void list_text(const struct options *o, const struct scg_arch *arch)
{
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(arch, i, &name, &nr);
		if (o->n_arches > 1)
			printf("%-12s ", scg_arch_name(arch));
		printf("%u %s\n", (unsigned)nr, name);
	}
}

static void list_json(struct scg_json *w, const struct scg_arch *arch)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "arch", scg_arch_name(arch));
	scg_json_key(w, "syscalls");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(arch, i, &name, &nr);
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_string(w, "name", name);
		scg_json_member_uint(w, "nr", nr);
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
}

static int run_list(const struct options *o)
{
	struct scg_json *w = NULL;
	if (!json_start(o->json, &w))
		return CLI_EXIT_USAGE;
	for (size_t i = 0; i < o->n_arches; i++) {
		if (o->json)
			list_json(w, o->arches[i]);
		else
			list_text(o, o->arches[i]);
	}
	if (json_finish(w) < 0)
		return CLI_EXIT_USAGE;
	return CLI_EXIT_OK;
}

/* --- --arches ------------------------------------------------------------ */

static void arch_text(const struct scg_arch *arch, bool native)
{
	const char *audit_name = scg_audit_arch_name(scg_arch_audit(arch));
	printf("%-12s 0x%08x  %-23s %4u  %-6s  ", scg_arch_name(arch),
	       (unsigned)scg_arch_audit(arch), audit_name ? audit_name : "-", scg_arch_bits(arch),
	       scg_arch_big_endian(arch) ? "big" : "little");
	const char *const *alias = scg_arch_aliases(arch);
	if (!*alias)
		fputs("-", stdout);
	for (; *alias; alias++)
		printf("%s%s", *alias, alias[1] ? ", " : "");
	printf("%s\n", native ? "  (native)" : "");
}

static void json_names(struct scg_json *w, const char *const *names)
{
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; names[i]; i++)
		scg_json_string(w, names[i]);
	scg_json_end(w);
}

static void json_companions(struct scg_json *w, const struct scg_arch *arch)
{
	const struct scg_arch *comp[MAX_ARCHES];
	size_t n = scg_arch_companions(arch, comp, MAX_ARCHES);
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < n && i < MAX_ARCHES; i++)
		scg_json_string(w, scg_arch_name(comp[i]));
	scg_json_end(w);
}

static void arch_json(struct scg_json *w, const struct scg_arch *arch, bool native)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "name", scg_arch_name(arch));
	scg_json_member_uint(w, "audit_arch", scg_arch_audit(arch));
	scg_json_member_string(w, "audit_arch_name", scg_audit_arch_name(scg_arch_audit(arch)));
	scg_json_member_uint(w, "bits", scg_arch_bits(arch));
	scg_json_member_string(w, "endian", scg_arch_big_endian(arch) ? "big" : "little");
	scg_json_member_uint(w, "nr_flags", scg_arch_nr_flags(arch));
	scg_json_key(w, "aliases");
	json_names(w, scg_arch_aliases(arch));
	scg_json_key(w, "companions");
	json_companions(w, arch);
	scg_json_member_uint(w, "syscalls", scg_syscall_count(arch));
	scg_json_member_bool(w, "native", native);
	scg_json_end(w);
}

static int run_arches(const struct options *o)
{
	const struct scg_arch *native = scg_arch_native();
	size_t n = scg_arch_count();
	struct scg_json *w = NULL;
	if (!json_start(o->json, &w))
		return CLI_EXIT_USAGE;
	if (!o->json)
		printf("%-12s %-10s  %-23s %4s  %-6s  %s\n", "ABI", "AUDIT_ARCH", "CONSTANT",
		       "BITS", "ENDIAN", "ALIASES");
	for (size_t i = 0; i < n; i++) {
		const struct scg_arch *arch = scg_arch_at(i);
		if (o->json)
			arch_json(w, arch, arch == native);
		else
			arch_text(arch, arch == native);
	}
	if (json_finish(w) < 0)
		return CLI_EXIT_USAGE;
	return CLI_EXIT_OK;
}

/* --- --groups ------------------------------------------------------------ */

static int group_index(const char *name)
{
	if (name[0] == '@')
		name++;
	for (size_t i = 0; i < scg_group_count(); i++)
		if (!strcmp(scg_group_name(i), name))
			return (int)i;
	return -1;
}

static void unknown_group(const char *name)
{
	const char *hint = scg_group_suggest(name);
	if (hint)
		cli_error("unknown group '%s'; did you mean '@%s'?", name, hint);
	else
		cli_error("unknown group '%s'; 'syscage syscalls --groups' lists them", name);
}

static void group_json(struct scg_json *w, size_t i, bool members)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "name", scg_group_name(i));
	scg_json_member_string(w, "summary", scg_group_summary(i));
	if (members) {
		scg_json_key(w, "members");
		json_names(w, scg_group_members(i));
	}
	scg_json_end(w);
}

/*
 * Without names: every group and its summary; with names: their members,
 * under a heading "@NAME:" per group when there are several.
 */
static int run_groups(const struct options *o, int argc, char **argv)
{
	int status = CLI_EXIT_OK;
	unsigned headed = 0;
	size_t n = argc ? (size_t)argc : scg_group_count();
	struct scg_json *w = NULL;
	if (!json_start(o->json, &w))
		return CLI_EXIT_USAGE;
	for (size_t k = 0; k < n; k++) {
		int i = argc ? group_index(argv[k]) : (int)k;
		if (i < 0) {
			unknown_group(argv[k]);
			status = CLI_EXIT_USAGE;
			continue;
		}
		if (o->json) {
			group_json(w, (size_t)i, argc > 0);
		} else if (!argc) {
			printf("@%-16s %s\n", scg_group_name((size_t)i), scg_group_summary((size_t)i));
		} else {
			/* several groups: each under its own heading, as ls does with directories */
			if (argc > 1)
				printf("%s@%s:\n", headed++ ? "\n" : "", scg_group_name((size_t)i));
			for (const char *const *m = scg_group_members((size_t)i); *m; m++)
				printf("%s\n", *m);
		}
	}
	if (json_finish(w) < 0)
		return CLI_EXIT_USAGE;
	return status;
}

/* --- entry point --------------------------------------------------------- */

/* A full disk or a closed pipe must not look like success. */
static int finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cli_error("cannot write to standard output: %s", strerror(errno));
		return CLI_EXIT_USAGE;
	}
	return status;
}

int cmd_syscalls(int argc, char **argv)
{
	struct options o = {0};
	int first = parse_options(argc, argv, &o);
	if (first < 0)
		return CLI_EXIT_USAGE;
	if (first == CLI_OPTIONS_HELP)
		return finish_output(CLI_EXIT_OK);
	int n_args = argc - first;
	if (check_modes(&o, n_args) < 0 ||
	    (!o.list_arches && !o.groups && select_arches(&o) < 0)) {
		fputs("Try 'syscage syscalls --help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	int status;
	if (o.groups)
		status = run_groups(&o, n_args, argv + first);
	else if (o.list_arches)
		status = run_arches(&o);
	else if (o.list)
		status = run_list(&o);
	else
		status = run_resolve(&o, n_args, argv + first);
	return finish_output(status);
}
