/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage inject: run a program with faults injected into chosen syscalls,
 * in strace's --inject syntax.  Start-up, signal forwarding and the exit
 * status are the launcher's (scg_launch() in its SERVE mode), as for
 * `syscage run`; see docs/inject.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"
#include "run.h"

enum { EXIT_SETUP = 125, EXIT_NOEXEC = 126, EXIT_NOTFOUND = 127 };

struct rule_arg {
	const char *text;
	bool fault; /* -e fault=: error defaults to ENOSYS */
};

struct inject_opts {
	struct rule_arg *rules;
	size_t nrules;
	const char *policy_name; /* NULL: allow everything else */
	const char *log_path;
	bool quiet;
	bool count_all; /* --count: the supervisor answers every rule's calls */
	const char **paths; /* -P: every rule takes only calls naming one of these */
	size_t npaths;
	char **argv; /* the program */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage inject RULE... [options] -- CMD [ARG...]\n"
		"  RULE                 SET:error=ERRNO | SET:retval=N, then optionally\n"
		"                       :signal=SIG :when=EXPR :if=CONDITION\n"
		"                       :delay_enter=US :delay_exit=US (exit: with error=/retval=)\n"
		"                       SET: names (name@64, @32, @x32), @groups, %%classes\n"
		"                       (%%file, %%desc, %%net, %%process, ...), all, /regex, !SET\n"
		"                       the last rule naming a syscall is the one applied to it\n"
		"                       e.g. 'openat:error=ENOENT:when=3'\n"
		"  -e inject=RULE, --inject=RULE   the same, spelled as for strace\n"
		"  -e fault=RULE, --fault=RULE     error defaults to ENOSYS\n"
		"  -p, --policy POLICY  inject on top of a sandbox policy (default: allow all)\n"
		"      --log FILE       write every supervised injection to FILE as a JSON line\n"
		"  -P, --trace-path FILE\n"
		"                       every rule takes only calls that name FILE (strace's -P;\n"
		"                       repeat for several); per rule: :if=path == \"FILE\"\n"
		"      --count          supervise every rule, so that every fault is counted\n"
		"                       (without it, the kernel answers error rules with no when=\n"
		"                       or signal= alone, and their faults are not counted)\n"
		"  -q, --quiet          no summary on stderr\n");
}

static int add_rule(struct inject_opts *o, const char *text, bool fault)
{
	struct rule_arg *v = reallocarray(o->rules, o->nrules + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	o->rules = v;
	o->rules[o->nrules++] = (struct rule_arg){ text, fault };
	return 0;
}

/* -e inject=RULE / -e fault=RULE, strace's spelling. */
static int add_expression(struct inject_opts *o, const char *e)
{
	if (!strncmp(e, "inject=", 7))
		return add_rule(o, e + 7, false);
	if (!strncmp(e, "fault=", 6))
		return add_rule(o, e + 6, true);
	cli_error("inject: -e takes inject=RULE or fault=RULE, not '%s'", e);
	return -EINVAL;
}

static int add_path(struct inject_opts *o, const char *path)
{
	if (!*path) {
		cli_error("inject: -P wants a file name");
		return -EINVAL;
	}
	const char **v = reallocarray(o->paths, o->npaths + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	o->paths = v;
	o->paths[o->npaths++] = path;
	return 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct inject_opts *o = ctx;
	switch (c) {
	case 'e': return add_expression(o, arg);
	case 'i': return add_rule(o, arg, false);
	case 'f': return add_rule(o, arg, true);
	case 'p': o->policy_name = arg; break;
	case 'l': o->log_path = arg; break;
	case 'q': o->quiet = true; break;
	case 'c': o->count_all = true; break;
	case 'P': return add_path(o, arg);
	}
	return 0;
}

/* Options before "--", then rules, then the program after "--".  0 or an exit status. */
static int parse_args(int argc, char **argv, struct inject_opts *o)
{
	static const struct option longopts[] = {
		{ "inject", required_argument, NULL, 'i' }, { "fault", required_argument, NULL, 'f' },
		{ "policy", required_argument, NULL, 'p' }, { "log", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
		{ "count", no_argument, NULL, 'c' },        { "trace-path", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "inject", ":e:p:P:qh", longopts, usage, on_option };
	int dashes = 1;
	while (dashes < argc && strcmp(argv[dashes], "--") != 0)
		dashes++;
	/* Only what comes before "--" is ours: the program's own options are not. */
	int first = cli_parse_options(&cmd, dashes, argv, o);
	if (first == CLI_OPTIONS_HELP)
		return -1;
	if (first < 0)
		return CLI_EXIT_USAGE;
	for (int i = first; i < dashes; i++)
		if (add_rule(o, argv[i], false) < 0)
			return CLI_EXIT_USAGE;
	if (dashes >= argc - 1) {
		cli_error("inject: no program given (put it after '--')");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (o->nrules == 0) {
		cli_error("inject: no rule given, e.g. 'openat:error=ENOENT'");
		return CLI_EXIT_USAGE;
	}
	o->argv = argv + dashes + 1;
	return 0;
}

/* "syscage: inject: rule 1, column 14: unknown errno 'ENOENTT' (did you mean ENOENT?)";
 * warnings say "warning: " before "rule". */
static void print_rule_diag(size_t index, const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity < SCG_SEV_WARNING)
			continue;
		const char *kind = e->severity == SCG_SEV_WARNING ? "warning: " : "";
		if (e->hint)
			cli_error("inject: %srule %zu, column %u: %s (%s)", kind, index + 1,
				  e->loc.column, e->message, cli_hint(e));
		else
			cli_error("inject: %srule %zu, column %u: %s", kind, index + 1, e->loc.column,
				  e->message);
	}
}

/* Each syscall to the last rule naming it, as strace does; says which rules lost which. */
static int resolve_rules(struct scg_inject_rule *const *rules, size_t n)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	int r = scg_inject_rules_resolve(rules, n, diag);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		cli_error("inject: warning: rule %u: %s (%s)", e->loc.line, e->message,
			  cli_hint(e) ? cli_hint(e) : "");
	}
	scg_diag_free(diag);
	return r;
}

/* Parses every rule (reporting all bad ones) for the ABIs of @base. */
static int parse_rules(const struct inject_opts *o, const struct scg_policy *base,
		       struct scg_inject_rule **rules)
{
	const struct scg_arch *arches[8];
	size_t narches = scg_policy_arch_count(base);
	if (narches > sizeof(arches) / sizeof(arches[0]))
		narches = sizeof(arches) / sizeof(arches[0]);
	for (size_t i = 0; i < narches; i++)
		arches[i] = scg_policy_arch_at(base, i);
	int result = 0;
	for (size_t i = 0; i < o->nrules; i++) {
		struct scg_diag *diag = scg_diag_new();
		if (!diag)
			return -ENOMEM;
		struct scg_inject_options opts = { .arches = arches, .narches = narches,
						   .fault = o->rules[i].fault };
		int r = scg_inject_rule_parse(o->rules[i].text, &opts, &rules[i], diag);
		for (size_t k = 0; r == 0 && k < o->npaths; k++)
			r = scg_inject_rule_add_path(rules[i], o->paths[k]);
		print_rule_diag(i, diag);
		bool explained = scg_diag_count(diag) > 0;
		scg_diag_free(diag);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			if (!explained)
				cli_error("inject: rule %zu: %s", i + 1, strerror(-r));
			result = -EINVAL;
		}
	}
	return result < 0 ? result : resolve_rules(rules, o->nrules);
}

/* The policy under the rules: -p's, or one allowing everything on the native ABIs. */
static int load_base(const struct inject_opts *o, struct scg_policy **out)
{
	if (o->policy_name)
		return cli_load_policy(o->policy_name, NULL, 0, out);
	struct scg_policy *p = scg_policy_new();
	if (!p || scg_policy_add_native_arches(p) < 0) {
		scg_policy_free(p);
		return -ENOMEM;
	}
	scg_policy_set_default(p, SCG_RET_ALLOW);
	scg_policy_set_badarch(p, SCG_RET_ALLOW);
	*out = p;
	return 0;
}

static bool needs_supervisor(struct scg_inject_rule *const *rules, size_t n, bool count_all)
{
	for (size_t i = 0; i < n; i++)
		if (!scg_inject_rule_in_filter(rules[i], count_all))
			return true;
	return false;
}

/* Starts the program under the rules and supervises it.  Returns the exit status. */
static int launch(const struct inject_opts *o, struct scg_inject_rule *const *rules,
		  const struct scg_policy *base, const char *path)
{
	struct scg_policy *installed;
	if (scg_inject_policy_build(rules, o->nrules, base, o->count_all, &installed) < 0) {
		cli_error("inject: out of memory");
		return EXIT_SETUP;
	}
	FILE *log = NULL;
	if (o->log_path && !(log = cli_log_open(o->log_path))) {
		scg_policy_free(installed);
		return CLI_EXIT_USAGE;
	}
	struct inject_state *st = inject_state_new(rules, o->nrules, base, o->count_all, log);
	int code = EXIT_SETUP;
	if (st) {
		struct scg_features buf;
		struct run_front front = { .policy_name = "inject rules", .command = o->argv[0],
					   .supervisor_only = true, .diag = scg_diag_new(),
					   .data = st };
		bool supervised = needs_supervisor(rules, o->nrules, o->count_all);
		SCG_OPTS(scg_launch_options, lo,
			 .mode = supervised ? SCG_LAUNCH_SERVE : SCG_LAUNCH_UNSUPERVISED,
			 .fallback = base, .path = path, .features = run_front_features(&buf),
			 .on_notif = inject_decide, .on_answered = inject_answered);
		run_front_events(&front, &lo);
		struct scg_launch_result res;
		int r = scg_launch(o->argv, installed, &lo, &res);
		code = run_front_result(&front, r, &res);
		/* no summary of a program that never ran */
		if (!o->quiet && res.end != SCG_LAUNCH_NOT_STARTED)
			inject_summary(st);
		scg_diag_free(front.diag);
	}
	inject_state_free(st);
	if (log)
		fclose(log);
	scg_policy_free(installed);
	return code;
}

static bool user_notif_missing(void)
{
	struct scg_features f;
	return cli_features_probe(&f) == 0 && f.filter_mode &&
	       !(f.actions & (1U << SCG_ACTION_USER_NOTIF));
}

static int inject_program(const struct inject_opts *o, struct scg_inject_rule **rules)
{
	struct scg_policy *base;
	if (load_base(o, &base) < 0)
		return CLI_EXIT_USAGE;
	int code = CLI_EXIT_USAGE;
	int r = parse_rules(o, base, rules);
	if (r == -ENOMEM)
		cli_error("inject: out of memory");
	if (r < 0)
		goto out;
	if (needs_supervisor(rules, o->nrules, o->count_all) && user_notif_missing()) {
		cli_error("inject: counted, retval and signal rules need SECCOMP_RET_USER_NOTIF "
			  "(Linux 5.0)");
		code = EXIT_SETUP;
		goto out;
	}
	char *path = scg_launch_resolve(o->argv[0]);
	if (!path) {
		int e = errno;
		cli_error("%s: %s", o->argv[0], e == ENOENT ? "command not found" : strerror(e));
		code = e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
		goto out;
	}
	code = launch(o, rules, base, path);
	free(path);
out:
	scg_policy_free(base);
	return code;
}

int cmd_inject(int argc, char **argv)
{
	struct inject_opts o = { 0 };
	int code = parse_args(argc, argv, &o);
	if (code < 0) {
		free(o.rules);
		return CLI_EXIT_OK; /* --help */
	}
	struct scg_inject_rule **rules = code ? NULL : calloc(o.nrules, sizeof(*rules));
	if (code == 0 && !rules) {
		cli_error("inject: out of memory");
		code = CLI_EXIT_USAGE;
	}
	if (code == 0)
		code = inject_program(&o, rules);
	for (size_t i = 0; rules && i < o.nrules; i++)
		scg_inject_rule_free(rules[i]);
	free(rules);
	free(o.rules);
	free(o.paths);
	return code;
}
