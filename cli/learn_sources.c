/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn --from-log and --ebpf: the same recording and the same
 * policy text as the notification learner (cmd_learn.c), from the kernel's
 * seccomp audit records or from the raw_syscalls tracepoint.
 * docs/learn.md, "Learning from the audit log" and "Learning with eBPF".
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/auditlog.h>
#include <syscage/oci.h>

#include "common/cli.h"
#include "learn_sources.h"

enum { EXIT_SETUP = 125 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage learn --from-log FILE|- [--exe PATH] [--comm NAME] [-o FILE]\n"
		"                     [--format policy|oci] [--merge FILE] [--counts FILE]\n"
		"                     [--deny kill|eperm]\n"
		"       syscage learn --ebpf [--cgroup PATH | --pid PID | -- CMD [ARG...]]\n"
		"                     [--args[=fd]] [-o FILE] [--format policy|oci]\n"
		"                     [--merge FILE] [--counts FILE] [--deny kill|eperm]\n"
		"  -L, --from-log FILE read the kernel's seccomp audit records (type=1326 or\n"
		"                      SECCOMP) from FILE (-: stdin): audit.log, ausearch,\n"
		"                      /dev/kmsg, dmesg or journalctl -k output\n"
		"      --exe PATH      only records of the program PATH (exe=)\n"
		"      --comm NAME     only records of processes named NAME (comm=)\n"
		"      --ebpf          record through the raw_syscalls:sys_enter tracepoint\n"
		"                      (root, a kernel with BTF, a build with eBPF); CMD is\n"
		"                      recorded from its exec on, with its descendants\n"
		"      --cgroup PATH   with --ebpf: every process of the cgroup v2 PATH (and\n"
		"                      below), until SIGINT or SIGTERM\n"
		"      --pid PID       with --ebpf: PID and its descendants, until PID ends\n"
		"  -a, --args[=fd]     with --ebpf: also record flag-like argument values\n"
		"  -o, --output FILE   write the policy to FILE (default: stdout)\n"
		"  -f, --format F      policy (policy language, default) or oci (OCI JSON)\n"
		"  -m, --merge FILE    start from the policy in FILE (written by learn), widen it\n"
		"      --counts FILE   write the calls per syscall as JSON to FILE\n"
		"      --deny V        verdict for calls not seen: kill (default) or eperm\n");
}

struct source_opts {
	const char *log, *exe, *comm, *output, *merge, *counts, *cgroup;
	long pid;
	bool ebpf, oci, args, args_fd, eperm;
};

enum {
	OPT_EXE = 0x100,
	OPT_COMM,
	OPT_EBPF,
	OPT_CGROUP,
	OPT_PID,
	OPT_COUNTS,
	OPT_DENY,
};

static const struct option longopts[] = {
	{ "from-log", required_argument, NULL, 'L' }, { "exe", required_argument, NULL, OPT_EXE },
	{ "comm", required_argument, NULL, OPT_COMM }, { "ebpf", no_argument, NULL, OPT_EBPF },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "pid", required_argument, NULL, OPT_PID },  { "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },   { "args", optional_argument, NULL, 'a' },
	{ "merge", required_argument, NULL, 'm' },    { "counts", required_argument, NULL, OPT_COUNTS },
	{ "deny", required_argument, NULL, OPT_DENY }, { "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

bool learn_source_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--ebpf") || !strcmp(a, "-L") || !strncmp(a, "-L", 2) ||
		    !strncmp(a, "--from-log", 10))
			return true;
	}
	return false;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct source_opts *o = ctx;
	switch (c) {
	case 'L': o->log = arg; break;
	case OPT_EXE: o->exe = arg; break;
	case OPT_COMM: o->comm = arg; break;
	case OPT_EBPF: o->ebpf = true; break;
	case OPT_CGROUP: o->cgroup = arg; break;
	case OPT_PID: {
		char *end;
		errno = 0;
		long v = strtol(arg, &end, 10);
		if (errno || *end || v <= 0) {
			cli_error("learn: --pid takes a process id, not '%s'", arg);
			return -1;
		}
		o->pid = v;
		break;
	}
	case 'o': o->output = arg; break;
	case 'm': o->merge = arg; break;
	case OPT_COUNTS: o->counts = arg; break;
	case 'a':
		if (arg && strcmp(arg, "fd")) {
			cli_error("learn: --args takes nothing or =fd, not '%s'", arg);
			return -1;
		}
		o->args = true;
		o->args_fd = arg != NULL;
		break;
	case 'f':
		if (strcmp(arg, "policy") && strcmp(arg, "oci")) {
			cli_error("learn: unknown format '%s' (policy or oci)", arg);
			return -1;
		}
		o->oci = !strcmp(arg, "oci");
		break;
	case OPT_DENY:
		if (strcmp(arg, "kill") && strcmp(arg, "eperm")) {
			cli_error("learn: --deny takes kill or eperm, not '%s'", arg);
			return -1;
		}
		o->eperm = !strcmp(arg, "eperm");
		break;
	}
	return 0;
}

/* The options' combinations that make no sense; false after an error. */
static bool check_options(const struct source_opts *o, int operands)
{
	if (o->log && o->ebpf) {
		cli_error("learn: --from-log and --ebpf are two ways to learn: choose one");
		return false;
	}
	if (o->log) {
		if (o->args) {
			cli_error("learn: seccomp audit records carry no argument values: "
				  "--args cannot be used with --from-log");
			return false;
		}
		if (o->cgroup || o->pid || operands) {
			cli_error("learn: --from-log reads a log: it takes no --cgroup, --pid or program");
			return false;
		}
		return true;
	}
	if (o->exe || o->comm) {
		cli_error("learn: --exe and --comm pick records of a log: use them with --from-log");
		return false;
	}
	if ((o->cgroup != NULL) + (o->pid != 0) + (operands > 0) != 1) {
		cli_error("learn: --ebpf records one of --cgroup PATH, --pid PID or -- CMD");
		return false;
	}
	return true;
}

/* Reads the log and adds its records to @rec; an exit status (0: go on). */
static int learn_from_log(const struct source_opts *o, struct scg_learn *rec)
{
	char *text;
	size_t len;
	if (cli_read_file(o->log, &text, &len) < 0)
		return CLI_EXIT_USAGE;
	const char *name = strcmp(o->log, "-") ? o->log : "<stdin>";
	struct scg_audit_log_options lo = { .filename = name, .exe = o->exe, .comm = o->comm };
	struct scg_diag *diag = scg_diag_new();
	struct scg_audit_log *log = NULL;
	int r = diag ? scg_audit_log_parse(text, len, &lo, &log, diag) : -ENOMEM;
	free(text);
	if (diag)
		cli_print_diag(diag);
	scg_diag_free(diag);
	if (r == -EINVAL) {
		cli_error("%s: malformed seccomp records: nothing learned", name);
		return CLI_EXIT_USAGE;
	}
	if (r == 0)
		r = scg_learn_add_audit_log(rec, log);
	if (r < 0) {
		scg_audit_log_free(log);
		cli_error("cannot learn from '%s': %s", name, strerror(-r));
		return EXIT_SETUP;
	}
	struct scg_audit_log_stats st;
	scg_audit_log_stats(log, &st);
	scg_audit_log_free(log);
	if (st.suppressed || st.lost_lines)
		cli_error("warning: %s: the kernel did not log every record (%zu suppressed by "
			  "printk's rate limit, %zu lines of lost audit records): the policy may "
			  "be incomplete", name, st.suppressed, st.lost_lines);
	if (st.foreign)
		cli_error("warning: %s: %zu records came from an ABI syscage does not know", name,
			  st.foreign);
	if (st.kept == 0) {
		cli_error("%s: no seccomp records%s (%zu read, %zu other lines)", name,
			  o->exe || o->comm ? " of that program" : "", st.records, st.skipped);
		return CLI_EXIT_NEGATIVE;
	}
	return 0;
}

static char *origin_of(const struct source_opts *o, char **argv)
{
	char *s = NULL;
	int r;
	if (o->log)
		r = asprintf(&s, "the seccomp audit records in %s%s%s%s%s",
			     strcmp(o->log, "-") ? o->log : "standard input", o->exe ? " of " : "",
			     o->exe ? o->exe : "", o->comm ? " named " : "", o->comm ? o->comm : "");
	else if (o->cgroup)
		r = asprintf(&s, "eBPF, cgroup %s", o->cgroup);
	else if (o->pid)
		r = asprintf(&s, "eBPF, process %ld and its descendants", o->pid);
	else if (argv && argv[0])
		r = asprintf(&s, "eBPF, %s%s", argv[0], argv[1] ? " ..." : "");
	else
		r = -1;
	if (r < 0)
		return NULL;
	if (o->merge) {
		char *m = NULL;
		r = asprintf(&m, "%s (merged into %s)", s, o->merge);
		free(s);
		s = r < 0 ? NULL : m;
	}
	return s;
}

/* Writes the policy (and the counts); an exit status. */
static int write_results(const struct source_opts *o, struct scg_learn *rec, char **argv)
{
	char *origin = origin_of(o, argv);
	struct scg_learn_text_options to = { .origin = origin, .deny_with_eperm = o->eperm };
	char *text = NULL, *json = NULL, *oci = NULL;
	int r = o->counts ? scg_learn_counts_json(rec, &json) : 0;
	if (r == 0)
		r = scg_learn_to_text(rec, &to, &text);
	free(origin);
	if (r == 0 && o->oci)
		r = learn_policy_to_oci(text, strlen(text), &oci);
	if (r < 0) {
		cli_error("cannot write the learned policy: %s", strerror(-r));
		free(text);
		free(json);
		return EXIT_SETUP;
	}
	const char *data = o->oci ? oci : text;
	r = data ? cli_write_output(o->output, data, strlen(data), false) : -ENOMEM;
	if (r == 0 && json)
		r = cli_write_output(o->counts, json, strlen(json), false);
	free(text);
	free(oci);
	free(json);
	return r < 0 ? CLI_EXIT_USAGE : 0;
}

int cmd_learn_source(int argc, char **argv)
{
	static const struct cli_command cmd = { "learn", "+:L:o:f:am:h", longopts, usage,
						on_option };
	struct source_opts o = { 0 };
	int first = cli_parse_options(&cmd, argc, argv, &o);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (!check_options(&o, argc - first))
		return CLI_EXIT_USAGE;
	struct scg_learn *rec = scg_learn_new((o.args ? SCG_LEARN_ARGS : 0) |
					      (o.args_fd ? SCG_LEARN_ARGS_FD : 0));
	if (!rec) {
		cli_error("cannot set up: %s", strerror(ENOMEM));
		return EXIT_SETUP;
	}
	if (o.merge && learn_merge_file(rec, o.merge) < 0) {
		scg_learn_free(rec);
		return CLI_EXIT_USAGE;
	}
	int code;
	if (o.log) {
		code = learn_from_log(&o, rec);
	} else {
		struct learn_ebpf_request req = { .cgroup = o.cgroup, .pid = o.pid,
						  .argv = first < argc ? argv + first : NULL,
						  .args = o.args, .args_fd = o.args_fd,
						  .divert_stdout = !o.output || !strcmp(o.output, "-") ||
								   (o.counts && !strcmp(o.counts, "-")) };
		uint64_t before = scg_learn_total(rec);
		code = learn_ebpf(&req, rec);
		/* Recording never started, or the command never ran (126, 127):
		 * nothing to write. */
		if (code == EXIT_SETUP || (code > EXIT_SETUP && scg_learn_total(rec) == before)) {
			scg_learn_free(rec);
			return code;
		}
	}
	if (code == 0 || !o.log) {
		int w = write_results(&o, rec, first < argc ? argv + first : NULL);
		if (w)
			code = w;
	}
	scg_learn_free(rec);
	return code;
}
