/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage lint: known weaknesses of a filter or policy, each with a short
 * explanation and a fix.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/analyze.h"
#include "lint_fix.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage lint [options] POLICY|FILTER\n"
		"\n"
		"Reports what weakens the sandbox: no arch check, ABI bypasses (x32, i386\n"
		"through int 0x80), socketcall/ipc and io_uring around restricted calls,\n"
		"syscalls that commonly break sandboxes, KILL_THREAD, TRACE, unknown\n"
		"syscalls denied without ENOSYS, unreachable instructions, 64-bit tests of\n"
		"int arguments (an error where the upper half lets a denied call through),\n"
		"and the policy language's own warnings (shadowed rules, 64-bit tests of\n"
		"negative values).\n"
		"Of a policy with phases (docs/phases.md), it proves that each phase gives\n"
		"no call more than the phase before it.\n"
		"Findings point at the rule (file:line) or the instruction index.\n"
		"\n"
		"  -a, --arch ARCH       compile policies for this ABI alone\n"
		"      --severity LEVEL  exit 1 when a finding is at or above LEVEL:\n"
		"                        info, warning (default) or error\n"
		"      --json            print the findings as JSON (--format json)\n"
		"      --format FORMAT   text (default), json, or sarif: SARIF 2.1.0 for\n"
		"                        code scanning (docs/analysis.md)\n");
	fputs(cli_timeout_usage, out);
	fprintf(out, "  -h, --help            this text\n"
		     "\n");
	fputs(cli_oci_usage, out);
	fputs("\n"
	      "Exit status: 0 nothing at or above the severity, 1 something, 2 bad input,\n"
	      "3 the time budget ran out (the findings printed stand; an analysis-budget\n"
	      "error names the checks not done).\n",
	      out);
}

enum { OPT_SEVERITY = 256, OPT_JSON, OPT_TIMEOUT, OPT_FORMAT };

enum lint_format { LINT_TEXT, LINT_JSON, LINT_SARIF };

static const char *level_name(enum scg_severity s)
{
	return s == SCG_SEV_ERROR ? "error" : s == SCG_SEV_WARNING ? "warning" : "info";
}

static int parse_level(const char *text, enum scg_severity *out)
{
	if (!strcmp(text, "info") || !strcmp(text, "note"))
		*out = SCG_SEV_NOTE;
	else if (!strcmp(text, "warning"))
		*out = SCG_SEV_WARNING;
	else if (!strcmp(text, "error"))
		*out = SCG_SEV_ERROR;
	else
		return -EINVAL;
	return 0;
}

/* 0, or -1 when the JSON could not be written (reported). */
static int print_json(const struct scg_diag *diag)
{
	struct scg_json *w = cli_json_begin(stdout);
	if (!w)
		return -1;
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_key(w, "findings");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_string(w, "severity", level_name(e->severity));
		scg_json_member_string(w, "code", e->code ? e->code : "");
		if (e->loc.file && e->loc.line) {
			scg_json_member_string(w, "file", e->loc.file);
			scg_json_member_uint(w, "line", e->loc.line);
		} else if (e->loc.insn >= 0) {
			scg_json_member_int(w, "insn", e->loc.insn);
		}
		scg_json_member_string(w, "message", e->message);
		scg_json_member_string(w, "fix", cli_hint(e) ? cli_hint(e) : "");
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
	return cli_json_finish(w, stdout);
}

static void print_text(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		/* file names and the words of messages as given: control characters escaped */
		if (e->loc.file && e->loc.line) {
			cli_fputs_escaped(e->loc.file, stdout);
			printf(":%u: ", e->loc.line);
		} else if (e->loc.insn >= 0) {
			if (e->loc.file) { /* compiled from it: the instruction is the filter's */
				cli_fputs_escaped(e->loc.file, stdout);
				printf(": compiled, ");
			}
			printf("insn %ld: ", e->loc.insn);
		}
		printf("%s: ", level_name(e->severity));
		cli_fputs_escaped(e->message, stdout);
		printf(" [%s]\n", e->code ? e->code : "");
		if (e->hint) {
			fputs("  fix: ", stdout);
			cli_fputs_escaped(cli_hint(e), stdout);
			putchar('\n');
		}
	}
	if (!scg_diag_count(diag))
		printf("no findings\n");
}

/* What each finding code checks, for SARIF's rule table (docs/analysis.md). */
static const char *const rule_text[][2] = {
	{ "no-arch-check", "The filter never tests the architecture" },
	{ "abi-bypass", "A denied syscall is allowed through a companion ABI" },
	{ "multiplexer-bypass", "socketcall or ipc allowed while a call it multiplexes is restricted" },
	{ "io-uring-bypass", "io_uring allowed while file or network calls are restricted" },
	{ "risky-syscall", "A syscall that commonly breaks sandboxes is allowed" },
	{ "int-compared-64", "An int argument is compared over 64 bits" },
	{ "kill-thread", "KILL_THREAD leaves the other threads running" },
	{ "unreachable", "Instructions no input reaches" },
	{ "trace-without-tracer", "TRACE fails calls with ENOSYS when no tracer is attached" },
	{ "unknown-not-enosys", "Syscalls newer than the filter do not get ENOSYS" },
	{ "analysis-budget", "The time budget ran out before every check was done" },
	{ "never-matches", "A rule never matches because an earlier one decides" },
	{ "absent-syscall", "A syscall is absent on a target ABI" },
	{ "sign-extension", "A 64-bit test of a negative value" },
	{ "never-true", "A condition is never true" },
	{ "value-range", "A value is out of the argument's range" },
	{ "repeated-setting", "A setting is given more than once" },
	{ "no-target", "A rule applies to no target ABI" },
};

static const char *rule_description(const char *code, const char *message)
{
	for (size_t i = 0; i < sizeof(rule_text) / sizeof(rule_text[0]); i++)
		if (!strcmp(rule_text[i][0], code))
			return rule_text[i][1];
	return message;
}

/* A path as a relative URI reference: unreserved characters and '/' kept, the rest %XX. */
static void json_uri(struct scg_json *w, const char *path)
{
	char *uri = malloc(strlen(path) * 3 + 1), *q = uri;
	if (!uri) {
		scg_json_string(w, path);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			*q++ = (char)*p;
		else
			q += snprintf(q, 4, "%%%02X", *p);
	}
	*q = '\0';
	scg_json_string(w, uri);
	free(uri);
}

/* Where a SARIF result is: the file (policy text or raw filter), and a region in it. */
static void sarif_location(struct scg_json *w, const struct scg_diag_entry *e, const char *input)
{
	bool in_text = e->loc.file && e->loc.line;
	scg_json_array(w, SCG_JSON_INLINE);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "physicalLocation");
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "artifactLocation");
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_key(w, "uri");
	json_uri(w, in_text ? e->loc.file : input);
	scg_json_end(w);
	if (in_text) {
		scg_json_key(w, "region");
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_uint(w, "startLine", e->loc.line);
		if (e->loc.column) {
			scg_json_member_uint(w, "startColumn", e->loc.column);
		}
		scg_json_end(w);
	} else if (e->loc.insn >= 0 && cli_last_input_format() == SCG_INPUT_RAW) {
		/* a raw filter's bytes: 8 per instruction; in any other input they are
		 * no place, and the result names the file alone */
		scg_json_key(w, "region");
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_int(w, "byteOffset", e->loc.insn * 8);
		scg_json_member_int(w, "byteLength", 8);
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
	scg_json_end(w);
}

/* {"text": @text} */
static void sarif_text(struct scg_json *w, const char *key, const char *text)
{
	scg_json_key(w, key);
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_string(w, "text", text);
	scg_json_end(w);
}

/* The index of @code in @codes[@n], or @n. */
static size_t code_index(const char **codes, size_t n, const char *code)
{
	size_t k = 0;
	while (k < n && strcmp(codes[k], code))
		k++;
	return k;
}

/* tool.driver: the command, and a rule per finding code (collected into @codes). */
static void sarif_driver(struct scg_json *w, const struct scg_diag *diag, const char **codes,
			 size_t *ncodes)
{
	scg_json_key(w, "tool");
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_key(w, "driver");
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_member_string(w, "name", "syscage");
	scg_json_member_string(w, "version", SYSCAGE_VERSION);
	scg_json_key(w, "rules");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		const char *code = e->code ? e->code : "syscage";
		if (code_index(codes, *ncodes, code) < *ncodes)
			continue;
		codes[(*ncodes)++] = code;
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_string(w, "id", code);
		sarif_text(w, "shortDescription", rule_description(code, e->message));
		sarif_text(w, "help", cli_hint(e) ? cli_hint(e) : rule_description(code, e->message));
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
	scg_json_end(w);
}

/*
 * SARIF 2.1.0, one run: tool.driver with a rule per finding code (its
 * description, the fix as help), a result per finding with its level, the
 * policy's file, line and column, or the raw filter file and the
 * instruction's bytes (8 per instruction).  0, or -1 reported.
 */
static int print_sarif(const struct scg_diag *diag, const char *input)
{
	size_t n = scg_diag_count(diag), ncodes = 0;
	const char **codes = calloc(n ? n : 1, sizeof(*codes));
	if (!codes) {
		cli_error("out of memory");
		return -1;
	}
	struct scg_json *w = cli_json_begin(stdout);
	if (!w) {
		free(codes);
		return -1;
	}
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_member_string(w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	scg_json_member_string(w, "version", "2.1.0");
	scg_json_key(w, "runs");
	scg_json_array(w, SCG_JSON_LINES);
	scg_json_object(w, SCG_JSON_LINES);
	sarif_driver(w, diag, codes, &ncodes);
	scg_json_key(w, "results");
	scg_json_array(w, SCG_JSON_LINES);
	for (size_t i = 0; i < n; i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		const char *code = e->code ? e->code : "syscage";
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_string(w, "ruleId", code);
		scg_json_member_uint(w, "ruleIndex", code_index(codes, ncodes, code));
		scg_json_key(w, "level");
		scg_json_string(w, e->severity == SCG_SEV_ERROR	    ? "error"
				   : e->severity == SCG_SEV_WARNING ? "warning"
								    : "note");
		sarif_text(w, "message", e->message);
		scg_json_key(w, "locations");
		sarif_location(w, e, input);
		if (e->hint) {
			scg_json_key(w, "properties");
			scg_json_object(w, SCG_JSON_INLINE);
			scg_json_member_string(w, "fix", cli_hint(e));
			scg_json_end(w);
		}
		scg_json_end(w);
	}
	scg_json_end(w); /* results */
	scg_json_end(w); /* the run */
	scg_json_end(w); /* runs */
	scg_json_end(w);
	free(codes);
	return cli_json_finish(w, stdout);
}

/* A policy file's own warnings (shadowed rules, ...), parsed again to collect them. */
static void policy_warnings(const char *path, const struct scg_arch *arch, struct scg_diag *diag)
{
	if (cli_last_input_format() != SCG_INPUT_POLICY || !strcmp(path, "-") ||
	    (!strchr(path, '/') && access(path, F_OK) < 0))
		return;
	const struct scg_arch *const targets[1] = { arch };
	struct scg_policy_source_options so = { .arches = arch ? targets : NULL, .narches = arch ? 1 : 0 };
	struct scg_policy *p = NULL;
	struct scg_diag *own = scg_diag_new();
	if (own && scg_policy_parse_file(path, &so, &p, own) == 0) {
		for (size_t i = 0; i < scg_diag_count(own); i++) {
			const struct scg_diag_entry *e = scg_diag_get(own, i);
			scg_diag_add(diag, e->severity, e->loc, e->code, e->hint, "%s", e->message);
		}
	}
	scg_policy_free(p);
	scg_diag_free(own);
}

/*
 * The findings as the input's author reads them: fixes in the input's
 * language, and a finding the engine could only tie to an instruction of
 * the compiled filter named after the input it was compiled from.  NULL
 * (the findings as they are) when nothing changes or memory runs out.
 */
static struct scg_diag *in_input_terms(const struct scg_diag *diag, const char *path)
{
	enum scg_input_format format = cli_last_input_format();
	if (format == SCG_INPUT_RAW || format == SCG_INPUT_ASM || format == SCG_INPUT_AUTO)
		return NULL; /* a filter's instructions are its own */
	struct scg_diag *shown = scg_diag_new();
	for (size_t i = 0; shown && i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		char buf[320];
		const char *fix = lint_fix(format, e, buf, sizeof(buf));
		struct scg_loc loc = e->loc;
		if (!loc.file)
			loc.file = strcmp(path, "-") ? path : "<stdin>";
		if (scg_diag_add(shown, e->severity, loc, e->code, fix ? fix : e->hint, "%s",
				 e->message) < 0) {
			scg_diag_free(shown);
			return NULL;
		}
	}
	return shown;
}

struct lint_opts {
	const char *arch_name;
	enum scg_severity level;
	enum lint_format format;
	uint64_t timeout_ms;
};

static int on_option(int c, const char *arg, void *ctx)
{
	struct lint_opts *o = ctx;
	switch (c) {
	case 'a':
		o->arch_name = arg;
		break;
	case OPT_SEVERITY:
		if (parse_level(arg, &o->level) < 0) {
			cli_error("lint: --severity is info, warning or error, not '%s'", arg);
			return -EINVAL;
		}
		break;
	case OPT_JSON:
		o->format = LINT_JSON;
		break;
	case OPT_FORMAT:
		if (!strcmp(arg, "text") || !strcmp(arg, "json") || !strcmp(arg, "sarif")) {
			o->format = arg[0] == 't' ? LINT_TEXT : arg[0] == 'j' ? LINT_JSON : LINT_SARIF;
			break;
		}
		cli_error("lint: --format is text, json or sarif, not '%s'", arg);
		return -EINVAL;
	case OPT_TIMEOUT:
		return cli_parse_timeout("lint", arg, &o->timeout_ms);
	default:
		return cli_oci_option(c, arg) < 0 ? -EINVAL : 0;
	}
	return 0;
}

/* --- policies with phases: each phase takes calls away only ------------------ */

struct phase_pair {
	const struct scg_phases *phases;
	size_t later;
	const char *path;
	struct scg_diag *diag;
};

/* Kernel precedence: lower is stricter; an action the kernel does not know kills. */
static int strictness(uint32_t ret)
{
	enum scg_action a = scg_action_of(ret);
	return a == SCG_ACTION_UNKNOWN ? -1 : (int)a;
}

/* A region where the later phase (b) lets more through than the one before it (a). */
static int looser_region(void *ctx, const struct scg_region *region, uint32_t ret_a,
			 uint32_t ret_b)
{
	struct phase_pair *pp = ctx;
	if (strictness(ret_b) <= strictness(ret_a))
		return 0;
	struct scg_seccomp_data data;
	if (scg_region_example(region, &data) < 0)
		return 0;
	const struct scg_arch *arch = scg_arch_from_audit(data.arch, data.nr);
	const char *name = arch ? scg_syscall_name(arch, data.nr) : NULL;
	const struct scg_policy *later = scg_phases_policy(pp->phases, pp->later);
	struct scg_verdict v;
	scg_policy_eval(later, &data, &v);
	struct scg_rule rule;
	struct scg_loc loc = { 0 };
	if (v.source == SCG_VERDICT_RULE && scg_policy_rule_at(later, v.rule, &rule) == 0)
		loc = rule.loc;
	else if (v.source == SCG_VERDICT_DEFAULT)
		loc = scg_policy_setting_loc(later, SCG_SETTING_DEFAULT);
	if (!loc.line)
		scg_phases_trigger(pp->phases, pp->later, NULL, &loc);
	loc.file = pp->path;
	char *args = NULL, was[48], now[48];
	if (arch)
		scg_region_args_text(region, arch, &args);
	scg_ret_format(ret_a, was, sizeof(was));
	scg_ret_format(ret_b, now, sizeof(now));
	scg_diag_add(pp->diag, SCG_SEV_ERROR, loc, "phase-not-stricter",
		     "filters stack: the strictest verdict wins, so this rule changes nothing",
		     "phase '%s' gives %s%s%s %s where phase '%s' gives %s",
		     scg_phases_name(pp->phases, pp->later), name ? name : "a call",
		     args && *args ? " if " : "", args ? args : "", now,
		     scg_phases_name(pp->phases, pp->later - 1), was);
	free(args);
	return 0;
}

/* Each phase against the one before, over every input; 0 or -errno. */
static int lint_phases(const struct scg_phases *phases, const char *path, uint64_t timeout_ms,
		       struct scg_diag *diag)
{
	struct scg_prog progs[2] = { { 0 } };
	int r = scg_compile(scg_phases_policy(phases, 0), NULL, &progs[0], diag);
	for (size_t i = 1; r == 0 && i < scg_phases_count(phases); i++) {
		r = scg_compile(scg_phases_policy(phases, i), NULL, &progs[i % 2], diag);
		if (r < 0)
			break;
		struct scg_analysis_options ao = cli_analysis_options(timeout_ms);
		SCG_OPTS(scg_diff_options, d, .limits = &ao);
		struct phase_pair pp = { phases, i, path, diag };
		r = scg_analysis_diff(&progs[(i - 1) % 2], 1, &progs[i % 2], 1, &d, looser_region,
				      &pp, diag);
		if (r > 0)
			r = 0;
		scg_prog_release(&progs[(i - 1) % 2]);
	}
	scg_prog_release(&progs[0]);
	scg_prog_release(&progs[1]);
	return r;
}

int cmd_lint(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "severity", required_argument, NULL, OPT_SEVERITY },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		CLI_OCI_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "lint", ":a:h", longopts, usage, on_option };
	struct lint_opts o = { .level = SCG_SEV_WARNING, .timeout_ms = CLI_ANALYSIS_TIMEOUT_S * 1000 };
	int first = cli_parse_options(&cmd, argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (cli_check_operands(&cmd, argc - first, 1, 1, "give one policy or filter") < 0)
		return CLI_EXIT_USAGE;
	const char *path = argv[first];
	const struct scg_arch *arch = NULL;
	if (o.arch_name && !(arch = cli_arch(o.arch_name)))
		return CLI_EXIT_USAGE;
	struct scg_prog prog = { 0 };
	struct scg_policy *policy = NULL;
	struct scg_phases *phases = NULL;
	int with_phases = cli_load_phases(path, arch ? &arch : NULL, arch ? 1 : 0, &phases);
	if (with_phases < 0 || (!phases && cli_analysis_load(path, arch, &prog, &policy) < 0))
		return CLI_EXIT_USAGE;
	struct scg_diag *diag = scg_diag_new();
	int r = diag ? 0 : -ENOMEM;
	if (r == 0 && phases) {
		r = lint_phases(phases, path, o.timeout_ms, diag);
		scg_phases_free(phases);
	} else if (r == 0) {
		policy_warnings(path, arch, diag);
		struct scg_analysis_options ao = cli_analysis_options(o.timeout_ms);
		r = scg_lint_opts(&prog, policy, &ao, diag);
	}
	/* out of time: what was found stands, and the analysis-budget finding says what was not done */
	bool budget = r == -ETIMEDOUT || r == -ECANCELED;
	int printed = 0;
	if (r < 0 && !budget) {
		/* the input's findings name it: "insn 7" alone does not say where */
		for (size_t i = 0; i < scg_diag_count(diag); i++) {
			struct scg_diag_entry e = *scg_diag_get(diag, i);
			if (!e.loc.file)
				e.loc.file = path;
			cli_print_diag_entry(&e);
		}
		if (r == -EINVAL && scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			cli_error("lint: %s is no filter the kernel would load, so nothing was "
				  "checked", path);
		else
			cli_error("lint: %s: %s", path, cli_analysis_strerror(r));
	} else {
		struct scg_diag *shown = in_input_terms(diag, path);
		struct scg_diag *grouped = lint_group(shown ? shown : diag, cli_last_input_format());
		const struct scg_diag *out = grouped ? grouped : shown ? shown : diag;
		if (o.format == LINT_SARIF)
			printed = print_sarif(out, path);
		else if (o.format == LINT_JSON)
			printed = print_json(out);
		else
			print_text(out);
		scg_diag_free(grouped);
		scg_diag_free(shown);
	}
	if (budget)
		cli_budget_error("lint", o.timeout_ms, r, "every check was done");
	int status = budget   ? CLI_EXIT_BUDGET
		     : r < 0 || printed < 0 ? CLI_EXIT_USAGE
		     : scg_diag_count_at_least(diag, o.level) ? CLI_EXIT_NEGATIVE : CLI_EXIT_OK;
	scg_diag_free(diag);
	scg_policy_free(policy);
	scg_prog_release(&prog);
	return status;
}
