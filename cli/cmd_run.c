/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage run: start a program under a policy, and tell the user about
 * every syscall the policy denies.
 *
 * The launcher (scg_launch(), lib/runtime/launch*.c) installs denying
 * verdicts as USER_NOTIF, holds the listener, looks each call up in the
 * policy, and answers with the policy's errno or kills the caller; this
 * file turns its events into the report (run_report.c).  Allowed calls
 * never leave the kernel.  See docs/run.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run.h"

enum { EXIT_SETUP = 125, EXIT_NOEXEC = 126, EXIT_NOTFOUND = 127 };

struct run_opts {
	const char *policy_name;
	const char *log_path;
	int log_fd; /* --log-fd; -1: none */
	bool report; /* false: --no-report */
	bool complain; /* --complain: nothing denied, only told */
	bool quiet;
	bool wait;
	bool keep_children; /* --keep-children */
	bool no_landlock;   /* --no-landlock */
	bool unshare_pid;   /* --unshare-pid */
	enum scg_own_filters own_filters; /* --own-filters */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage run [-p POLICY] [--log FILE | --log-fd N] [--no-report]\n"
		"                   [--complain] [--own-filters=allow|refuse] [--keep-children]\n"
		"                   [--no-landlock] [--unshare-pid] [-w] [-q] [-v]\n"
		"                   -- CMD [ARG...]\n"
		"  -p, --policy POLICY  policy file, OCI profile (*.json) or built-in profile\n"
		"                       (default: the built-in profile 'default'); a policy\n"
		"                       with phases is followed into each (docs/phases.md)\n"
		"      --log FILE       write every denial to FILE as a JSON line (created 0600)\n"
		"      --log-fd N       the same on descriptor N, opened for writing by whoever\n"
		"                       started syscage; the program never gets it.  The stderr\n"
		"                       report is shared with the program: this one is not\n"
		"      --no-report      install the policy's verdicts as they are, no supervisor\n"
		"      --complain       deny nothing: report (and --log) each call the policy\n"
		"                       would deny, and let it run; with --no-report, or without\n"
		"                       user notification, the kernel logs them (SECCOMP_RET_LOG)\n"
		"      --own-filters=allow|refuse\n"
		"                       a seccomp filter the program installs of its own can\n"
		"                       outrank the reported verdicts, a KILL among them: let it\n"
		"                       in and say so (allow, the default), or make it fail with\n"
		"                       EPERM (refuse)\n"
		"  -w, --wait           when the program exits, go on supervising its descendants\n"
		"                       (daemons) until none is left\n"
		"      --keep-children  leave the program's descendants running when it ends\n"
		"                       (default: its whole tree is killed when a KILL verdict\n"
		"                       ends it, and when syscage exits)\n"
		"      --no-landlock    no Landlock domain for the program (default, where the\n"
		"                       kernel has Landlock: it cannot trace, open /proc/PID/mem\n"
		"                       of, signal or reach the abstract unix sockets of\n"
		"                       processes outside it)\n"
		"      --unshare-pid    run the program in a pid namespace of its own, /proc\n"
		"                       mounted anew: it sees only its own tree, which the\n"
		"                       kernel ends with it (a user namespace too, unless root)\n"
		"  -q, --quiet          no denial lines or summary on stderr\n"
		"  -v, --verbose        say which layers confine the program (seccomp, Landlock,\n"
		"                       process tree), and show the policy's warnings about\n"
		"                       syscalls a target ABI lacks ('syscage compile' always\n"
		"                       shows them)\n");
}

/* -v: the policy's warnings are wanted, so it is parsed at the start. */
static bool verbose;

/*
 * A built-in profile (no file of that name here) is left unparsed: its
 * filter is built in (the launcher installs the prebuilt program) and its
 * rules matter only to report a denial.  Parsing it costs more than the rest of
 * the start-up.
 */
static bool parse_later(const char *name)
{
	return !verbose && scg_profile_source(name) && access(name, F_OK) != 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct run_opts *cfg = ctx;
	switch (c) {
	case 'p': cfg->policy_name = arg; break;
	case 'l': cfg->log_path = arg; break;
	case 'L':
		if ((cfg->log_fd = cli_log_fd_parse("run: --log-fd", arg)) < 0)
			return -1;
		break;
	case 'n': cfg->report = false; break;
	case 'C': cfg->complain = true; break;
	case 'O':
		if (!strcmp(arg, "allow") || !strcmp(arg, "refuse")) {
			cfg->own_filters = arg[0] == 'r' ? SCG_OWN_FILTERS_REFUSE : SCG_OWN_FILTERS_ALLOW;
			break;
		}
		cli_error("run: --own-filters takes allow or refuse, not '%s'", arg);
		return -1;
	case 'q': cfg->quiet = true; break;
	case 'w': cfg->wait = true; break;
	case 'K': cfg->keep_children = true; break;
	case 'N': cfg->no_landlock = true; break;
	case 'P': cfg->unshare_pid = true; break;
	case 'v': cli_set_policy_warnings(CLI_POLICY_WARN_ALL); verbose = true; break;
	}
	return 0;
}

/* Runs @argv under @policy (NULL: built-in profile @cfg->policy_name); the exit status. */
static int launch(const struct run_opts *cfg, char **argv, const char *path,
		  const struct scg_policy *policy, const struct scg_phases *phases,
		  const struct scg_features *features)
{
	/* opened here, by syscage as whoever ran it, close-on-exec: never the program's */
	FILE *log = cfg->log_path ? cli_log_open(cfg->log_path)
		    : cfg->log_fd >= 0 ? cli_log_fdopen(cfg->log_fd)
				       : NULL;
	if ((cfg->log_path || cfg->log_fd >= 0) && !log)
		return EXIT_SETUP;
	struct run_front front = { .policy_name = cfg->policy_name, .command = argv[0],
				   .wait = cfg->wait, .verbose = verbose, .diag = scg_diag_new(),
				   .report = run_report_new(log, cfg->quiet, cfg->complain) };
	if (!front.report || !front.diag) {
		cli_error("cannot set up: %s", strerror(ENOMEM));
		run_report_free(front.report);
		scg_diag_free(front.diag);
		return EXIT_SETUP;
	}
	SCG_OPTS(scg_launch_options, o,
		 .mode = cfg->report ? SCG_LAUNCH_REPORT : SCG_LAUNCH_UNSUPERVISED,
		 .profile = policy || phases ? NULL : cfg->policy_name, .path = path,
		 .features = features, .phases = phases, .on_phase = run_front_phase,
		 .complain = cfg->complain, .own_filters = cfg->own_filters,
		 .keep_children = cfg->keep_children, .no_landlock = cfg->no_landlock,
		 .unshare_pid = cfg->unshare_pid,
		 .on_denial = run_report_denial, .on_own_filter = run_report_own_filter);
	run_front_events(&front, &o);
	struct scg_launch_result res;
	int r = scg_launch(argv, policy, &o, &res);
	int code = run_front_result(&front, r, &res);
	run_report_summary(front.report);
	run_report_free(front.report);
	scg_diag_free(front.diag);
	return code;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' }, { "log", required_argument, NULL, 'l' },
		{ "log-fd", required_argument, NULL, 'L' },
		{ "no-report", no_argument, NULL, 'n' },    { "quiet", no_argument, NULL, 'q' },
		{ "wait", no_argument, NULL, 'w' },         { "verbose", no_argument, NULL, 'v' },
		{ "complain", no_argument, NULL, 'C' },     { "help", no_argument, NULL, 'h' },
		{ "own-filters", required_argument, NULL, 'O' },
		{ "keep-children", no_argument, NULL, 'K' }, { "no-landlock", no_argument, NULL, 'N' },
		{ "unshare-pid", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "run", "+:p:qvwh", longopts, usage, on_option };
	struct run_opts cfg = { .policy_name = "default", .log_fd = -1, .report = true };
	int first = cli_parse_options(&cmd, argc, argv, &cfg);
	if (first <= 0)
		return first == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (first >= argc) {
		cli_error("run: no program given");
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (cfg.log_path && cfg.log_fd >= 0) {
		cli_error("run: --log and --log-fd name one log: give one of them");
		return CLI_EXIT_USAGE;
	}
	if (cfg.own_filters == SCG_OWN_FILTERS_REFUSE && (!cfg.report || cfg.complain)) {
		cli_error("run: --own-filters=refuse goes with the report: under --no-report the "
			  "kernel's KILL holds whatever filter the program adds, and --complain "
			  "refuses nothing");
		return CLI_EXIT_USAGE;
	}
	char *path = scg_launch_resolve(argv[first]);
	if (!path) {
		int e = errno;
		cli_error("%s: %s", argv[first], e == ENOENT ? "command not found" : strerror(e));
		return e == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
	}
	struct scg_policy *policy = NULL;
	struct scg_phases *phases = NULL;
	int with_phases = cli_load_phases(cfg.policy_name, NULL, 0, &phases);
	if (with_phases < 0 || (with_phases == 0 && !parse_later(cfg.policy_name) &&
				cli_load_policy(cfg.policy_name, NULL, 0, &policy) < 0)) {
		free(path);
		return CLI_EXIT_USAGE;
	}
	if (phases && (cfg.unshare_pid || cfg.complain)) {
		cli_error("run: a policy with phases goes with neither --unshare-pid nor --complain");
		scg_phases_free(phases);
		free(path);
		return CLI_EXIT_USAGE;
	}
	struct scg_features buf;
	const struct scg_features *features = run_front_features(&buf);
	bool no_notif = features && features->filter_mode &&
			!(features->actions & (1U << SCG_ACTION_USER_NOTIF));
	if (cfg.complain && features && features->filter_mode && (no_notif || !cfg.report) &&
	    !(features->actions & (1U << SCG_ACTION_LOG))) {
		cli_error("run: --complain needs SECCOMP_RET_USER_NOTIF (Linux 5.0) or, without "
			  "reports, SECCOMP_RET_LOG (Linux 4.14)");
		scg_policy_free(policy);
		scg_phases_free(phases);
		free(path);
		return EXIT_SETUP;
	}
	if (cfg.report && no_notif && cfg.complain) {
		cli_error("warning: this kernel has no SECCOMP_RET_USER_NOTIF (Linux 5.0); the "
			  "kernel logs the calls the policy would deny (SECCOMP_RET_LOG, audit "
			  "type=1326) instead of syscage reporting them");
		cfg.report = false;
	} else if (cfg.report && no_notif) {
		cli_error("warning: this kernel has no SECCOMP_RET_USER_NOTIF (Linux 5.0); "
			  "running without reports, as with --no-report");
		cfg.report = false;
	}
	int code = launch(&cfg, argv + first, path, policy, phases, features);
	scg_policy_free(policy);
	scg_phases_free(phases);
	free(path);
	return code;
}
