/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run`, `learn` and `inject`: the front end of the launcher
 * (<syscage/launch.h>), which says in words what the launcher reports.
 */
#ifndef SCG_CLI_RUN_H
#define SCG_CLI_RUN_H

#include <stdbool.h>

#include "common/cli.h"

/* How the launcher's events and results are put into words for one command. */
struct run_front {
	const char *policy_name; /* as the user named it ("learn", "inject rules" for those) */
	const char *command;     /* argv[0] as given */
	/* The command supervises by nature (learn, inject): a second supervisor is
	 * not refused with "use --no-report". */
	bool supervisor_only;
	bool wait;               /* --wait: descendants count */
	bool verbose;            /* -v: say which layers confine the program */
	struct scg_diag *diag;   /* the launch's compile diagnostics, printed when ready */
	struct run_report *report; /* run: the denials' report (run_report_denial()) */
	void *data;                /* the command's own state, for its own events */
};

/* Sets @o's diag, wait_descendants, on_ready, on_gave_up and (verbose) on_started for
 * @f, and its ctx to @f. */
void run_front_events(struct run_front *f, struct scg_launch_options *o);
/* options.on_started: "syscage: layers: ..." on stderr (run -v). */
void run_front_layers(const struct scg_launch_layers *layers, void *front);
/* options.on_ready: prints the compile diagnostics. */
void run_front_ready(void *front);
/* options.on_gave_up: says supervision stopped. */
void run_front_gave_up(int error, void *front);
/* options.on_phase: a failed transition always, an entered phase with -v. */
void run_front_phase(pid_t pid, const char *name, int error, void *front);
/*
 * Says why @res's program did not start, or how it ended when that needs
 * saying (a kill, a signal), and returns the exit status
 * (scg_launch_exit_status()).  @r is scg_launch()'s return.
 */
int run_front_result(const struct run_front *f, int r, const struct scg_launch_result *res);
/* The features the launcher goes by: SYSCAGE_DISABLE_FEATURES applied (features.c).
 * NULL when they cannot be probed. */
const struct scg_features *run_front_features(struct scg_features *buf);

/* --- reporting denials (run_report.c) ------------------------------------ */

struct run_report;
/* A report on stderr (unless @quiet) and in @log (JSON lines; may be NULL, taken over even
 * on failure); with @complain, of calls the policy would have denied (run --complain). */
struct run_report *run_report_new(FILE *log, bool quiet, bool complain);
void run_report_free(struct run_report *rep);
/* Says how many repeats of the last line went unprinted, then prints the
 * counts per syscall and verdict, if there were denials. */
void run_report_summary(struct run_report *rep);
/* options.on_denial with a struct run_front as context: prints, logs and counts
 * in its report. */
void run_report_denial(const struct scg_launch_denial *d, void *front);
/* options.on_own_filter with a struct run_front as context: says that the program
 * installs a seccomp filter of its own (or was refused one), logs and counts it. */
void run_report_own_filter(pid_t tid, const struct scg_seccomp_data *data, bool refused,
			   void *front);

#endif
