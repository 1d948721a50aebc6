/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage bench: what seccomp filters cost on this machine, measured the
 * classic way (a tight loop of a cheap syscall in a filtered child), with
 * the kernel's action cache, stacking, filter length and libseccomp's
 * output side by side.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/fuse.h"
#include "common/cli.h"

struct options {
	const char *syscall;
	const char *policy;
	const char *plot;
	unsigned reps;
	bool quick, json, progress;
	bool only[BENCH_NSECTIONS];
	bool only_given;
};

/*
 * Calls that, made in a loop with zero arguments, would end, block, trace or
 * multiply the measuring child, or change the system (as root: unload the
 * kexec kernel, stop accounting, clear the host name).
 */
static const char *const unsafe_calls[] = {
	"exit",	       "exit_group", "fork",	      "vfork",	      "clone",	       "clone3",
	"execve",      "execveat",   "pause",	      "rt_sigreturn", "sigreturn",     "rt_sigsuspend",
	"sigsuspend",  "vhangup",    "reboot",	      "seccomp",      "ptrace",	       "kexec_load",
	"kexec_file_load", "acct",   "sethostname", "setdomainname",
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage bench [options]\n\n"
		"Times a loop of a cheap syscall in a child pinned to one CPU: with no filter, under\n"
		"filters the kernel's cache skips and ones it cannot, stacked, long, and compiled by\n"
		"syscage and by libseccomp (when libseccomp.so.2 is installed).  Figures are CPU\n"
		"time per call; a row that could only be timed by the wall clock says so.\n\n"
		"  -s, --syscall NAME   the syscall timed (default getppid; called with zero arguments)\n"
		"  -p, --policy POLICY  policy, OCI profile or built-in profile (default: default)\n"
		"  -r, --reps N         timed repetitions per measurement (default 11, --quick 5)\n"
		"  -q, --quick          short repetitions and fewer sizes: a run of seconds\n"
		"      --only SECTION   run one section (repeatable or comma-separated): baseline,\n"
		"                       cache, stack, length, compare, fuse\n"
		"  -j, --json           print JSON instead of tables\n"
		"      --plot FILE.svg  also write an SVG chart of the results\n"
		"      --progress       show progress on stderr even when it is not a terminal\n"
		"  -h, --help           this text\n\n"
		"Exit status: 0, 1 when a measurement could not be made, 2 on bad usage.\n");
}

static int parse_only(const char *list, struct options *o)
{
	char *copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	int r = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok && r == 0; tok = strtok_r(NULL, ",", &save)) {
		int s = bench_section_lookup(tok);
		if (s < 0) {
			cli_error("bench: unknown section '%s' (baseline, cache, stack, length, compare or fuse)", tok);
			r = -EINVAL;
		} else {
			o->only[s] = true;
		}
	}
	free(copy);
	o->only_given = true;
	return r;
}

static int parse_reps(const char *text, unsigned *reps)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || *end || end == text || text[0] == '-' || v < 1 || v > BENCH_MAX_REPS) {
		cli_error("bench: --reps wants a number from 1 to %d, not '%s'", BENCH_MAX_REPS, text);
		return -EINVAL;
	}
	*reps = (unsigned)v;
	return 0;
}

enum { OPT_ONLY = 256, OPT_PLOT, OPT_PROGRESS };

static int on_option(int c, const char *arg, void *ctx)
{
	struct options *o = ctx;
	switch (c) {
	case 's': o->syscall = arg; break;
	case 'p': o->policy = arg; break;
	case 'r': return parse_reps(arg, &o->reps);
	case 'q': o->quick = true; break;
	case 'j': o->json = true; break;
	case OPT_ONLY: return parse_only(arg, o);
	case OPT_PLOT: o->plot = arg; break;
	case OPT_PROGRESS: o->progress = true; break;
	}
	return 0;
}

/* CLI_OPTIONS_HELP, -1 after a reported usage error, or a positive number (no operands) to run. */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "syscall", required_argument, NULL, 's' }, { "policy", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },    { "quick", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },          { "only", required_argument, NULL, OPT_ONLY },
		{ "plot", required_argument, NULL, OPT_PLOT }, { "progress", no_argument, NULL, OPT_PROGRESS },
		{ "help", no_argument, NULL, 'h' },          { NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "bench", ":s:p:r:qjh", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first > 0 && first < argc) {
		cli_error("bench: unexpected argument '%s'", argv[first]);
		return -1;
	}
	return first;
}

static int resolve_call(const struct scg_arch *arch, const char *name, struct bench_call *call)
{
	for (size_t i = 0; i < sizeof(unsafe_calls) / sizeof(unsafe_calls[0]); i++)
		if (!strcmp(name, unsafe_calls[i])) {
			cli_error("bench: '%s' cannot be timed in a loop (with zero arguments it would end, "
				  "block or alter the measuring process or the system); pick a cheap query "
				  "such as getppid or getuid",
				  name);
			return -EINVAL;
		}
	memset(call, 0, sizeof(*call));
	return cli_parse_syscall(arch, name, &call->nr);
}

static void show_progress(const struct options *o, unsigned round, unsigned rounds, size_t i,
			  const struct bench_results *res)
{
	bool tty = isatty(STDERR_FILENO);
	if (!tty && !o->progress)
		return;
	const struct bench_row *r = &res->rows[i];
	fprintf(stderr, "%ssyscage bench: round %u/%u [%zu/%zu] %s: %s (%s)%s", tty ? "\r\033[K" : "",
		round + 1, rounds, i + 1, res->nrows, bench_section_name(r->section), r->label,
		r->call_name, tty ? "" : "\n");
	fflush(stderr);
}

/*
 * One repetition of row @i into its samples.  A repetition that came back
 * in wall-clock time, on a machine where others got CPU time, is made
 * again (twice at most): the CPU time of that one could not be read right.
 */
static void measure_rep(struct bench_results *res, size_t i, bool *cpu_seen)
{
	struct bench_row *r = &res->rows[i];
	for (int attempt = 0; attempt < 3; attempt++) {
		double ns;
		if (bench_measure_rep(&res->params, r->progs, r->nprogs, &r->call, &r->t, &ns) < 0)
			return;
		*cpu_seen |= r->t.cpu_clock;
		if (r->t.cpu_clock || !*cpu_seen || attempt == 2) {
			r->t.sample_cpu[r->t.nsamples] = r->t.cpu_clock;
			r->t.samples[r->t.nsamples++] = ns;
			return;
		}
	}
}

/*
 * Makes every planned measurement in rounds: each round times one repetition
 * of every row, so slow drifts in machine load touch all rows alike, and
 * every other round goes through the rows backwards, so that no row always
 * runs right after the same one.  A row that fails once is not tried
 * again.  Then the no-filter rows are settled, and every other row against
 * its own when its filters let the call through.  Returns how many rows
 * failed.
 */
static size_t measure_all(const struct options *o, struct bench_results *res)
{
	unsigned rounds = res->params.reps;
	bool cpu_seen = false;
	for (unsigned round = 0; round < rounds; round++)
		for (size_t k = 0; k < res->nrows; k++) {
			size_t i = round % 2 ? res->nrows - 1 - k : k;
			if (res->rows[i].t.error[0])
				continue;
			show_progress(o, round, rounds, i, res);
			measure_rep(res, i, &cpu_seen);
		}
	if (isatty(STDERR_FILENO) && res->nrows) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr); /* a line of its own: stderr is line-buffered */
	}
	size_t failed = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < res->nrows; i++) {
			struct bench_row *r = &res->rows[i];
			if ((r->baseline < 0) != (pass == 0))
				continue;
			if (r->t.error[0]) {
				failed++;
				continue;
			}
			/* A filter that answers instead of the syscall may well be cheaper. */
			const struct bench_timing *bare =
				r->baseline >= 0 ? &res->rows[r->baseline].t : NULL;
			bench_settle(&r->t, bare && bare->result == r->t.result ? bare : NULL);
		}
	return failed;
}

static int write_outputs(const struct options *o, const struct bench_results *res)
{
	if (o->json) {
		char *json = bench_report_json(res);
		if (!json || cli_write_output(NULL, json, strlen(json), false) < 0) {
			if (!json)
				cli_error("bench: out of memory");
			free(json);
			return -EIO;
		}
		free(json);
	} else {
		bench_report_text(res);
		fflush(stdout);
	}
	if (!o->plot)
		return 0;
	char *svg = bench_report_svg(res);
	int r = svg ? cli_write_output(o->plot, svg, strlen(svg), false) : -ENOMEM;
	if (!svg)
		cli_error("bench: out of memory");
	free(svg);
	return r;
}

struct loaded {
	struct scg_policy *policy, *docker;
	struct bench_scmp *scmp;
};

static int load_inputs(const struct options *o, struct bench_results *res, struct loaded *in)
{
	if (cli_load_policy(o->policy, NULL, 0, &in->policy) < 0)
		return -EINVAL;
	if (!res->only[BENCH_COMPARE])
		return 0;
	if (strcmp(o->policy, "docker-default") && cli_load_policy("docker-default", NULL, 0, &in->docker) < 0)
		return -EINVAL;
	in->scmp = bench_scmp_open();
	res->scmp_found = in->scmp != NULL;
	res->scmp_status = in->scmp ? bench_scmp_version(in->scmp) : "libseccomp not found, skipped";
	return 0;
}

static void settle_options(struct options *o, struct bench_results *res)
{
	for (int s = 0; s < BENCH_NSECTIONS; s++)
		res->only[s] = o->only_given ? o->only[s] : true;
	res->params.reps = o->reps ? o->reps : o->quick ? 5 : 11;
	res->params.rep_ms = o->quick ? 2 : 20;
	res->params.cpu = bench_pick_cpu();
	res->syscall_name = o->syscall;
	res->policy_name = o->policy;
	res->scmp_status = "not used (compare not run)";
	bench_system_read(&res->sys);
}

int cmd_bench(int argc, char **argv)
{
	struct options o = { .syscall = "getppid", .policy = "default" };
	int parsed = parse_options(argc, argv, &o);
	if (parsed == CLI_OPTIONS_HELP)
		return CLI_EXIT_OK;
	if (parsed < 0) {
		fprintf(stderr, "'syscage bench --help' lists the options\n");
		return CLI_EXIT_USAGE;
	}
	const struct scg_arch *arch = scg_arch_native();
	struct bench_results res = { 0 };
	struct bench_plan_opts plan = { .arch = arch, .call_name = o.syscall, .quick = o.quick };
	if (resolve_call(arch, o.syscall, &plan.call) < 0)
		return CLI_EXIT_USAGE;
	settle_options(&o, &res);
	struct loaded in = { 0 };
	int code = CLI_EXIT_USAGE;
	if (load_inputs(&o, &res, &in) < 0)
		goto out;
	plan.policy = in.policy;
	plan.docker = in.docker;
	plan.scmp = in.scmp;
	plan.compile_runs = o.quick ? 3 : 21;
	int r = bench_plan(&plan, &res);
	if (r >= 0 && res.only[BENCH_FUSE])
		r = bench_plan_fuse(&plan, &res);
	if (r < 0) {
		cli_error("bench: cannot prepare the filters: %s", strerror(-r));
		goto out;
	}
	size_t failed = measure_all(&o, &res);
	bench_fuse_notes(&res);
	if (write_outputs(&o, &res) < 0)
		goto out;
	code = failed ? CLI_EXIT_NEGATIVE : CLI_EXIT_OK;
	if (failed)
		cli_error("bench: %zu measurement%s could not be made (see the table)", failed,
			  failed == 1 ? "" : "s");
out:
	bench_results_free(&res);
	scg_policy_free(in.policy);
	scg_policy_free(in.docker);
	bench_scmp_close(in.scmp);
	return code;
}
