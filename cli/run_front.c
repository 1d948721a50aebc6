/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The launcher's results and events in words, for run, learn and inject:
 * the messages `syscage run` has always given.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/features.h"
#include "run.h"

const struct scg_features *run_front_features(struct scg_features *buf)
{
	return cli_features_probe(buf) == 0 ? buf : NULL;
}

void run_front_ready(void *front)
{
	const struct run_front *f = front;
	if (f->diag)
		cli_print_diag(f->diag);
}

void run_front_gave_up(int error, void *front)
{
	(void)front;
	cli_error("cannot handle a denied call (%s); denied calls now get the policy's verdicts, "
		  "unreported",
		  strerror(error));
}

void run_front_phase(pid_t pid, const char *name, int error, void *front)
{
	const struct run_front *f = front;
	if (error)
		cli_error("process %d could not enter phase '%s' (%s): the program is killed",
			  (int)pid, name ? name : "?",
			  error == EBUSY ? "a thread of it could not be moved under the filter"
					 : strerror(error));
	else if (f->verbose)
		cli_error("process %d entered phase '%s'", (int)pid, name);
}

void run_front_layers(const struct scg_launch_layers *layers, void *front)
{
	(void)front;
	char landlock[128] = "none";
	if (layers->landlock_abi > 0)
		snprintf(landlock, sizeof(landlock), "ABI %d, %s", layers->landlock_abi,
			 layers->landlock_scoped ? "scoped: signals, abstract unix sockets"
						 : "no scopes (ptrace and /proc/PID/mem only)");
	const char *tree = "kept (--keep-children)";
	if (layers->tree == SCG_LAUNCH_TREE_CGROUP)
		tree = "cgroup, killed whole";
	else if (layers->tree == SCG_LAUNCH_TREE_SUBREAPER)
		tree = "subreaper, killed whole";
	cli_error("layers: seccomp filter (%s); Landlock: %s; process tree: %s%s%s%s",
		  layers->supervised ? "supervised" : "no supervisor", landlock, tree,
		  layers->cgroup ? " " : "", layers->cgroup ? layers->cgroup : "",
		  layers->pid_namespace ? "; pid namespace of its own" : "");
}

void run_front_events(struct run_front *f, struct scg_launch_options *o)
{
	o->diag = f->diag;
	o->on_ready = run_front_ready;
	o->on_gave_up = run_front_gave_up;
	o->wait_descendants = f->wait;
	if (f->verbose)
		o->on_started = run_front_layers;
	o->ctx = f;
}

static void not_started(const struct run_front *f, const struct scg_launch_result *res)
{
	const char *err = strerror(res->error);
	switch (res->stage) {
	case SCG_LAUNCH_STAGE_EXEC:
		cli_error("cannot run '%s': %s", f->command, err);
		return;
	case SCG_LAUNCH_STAGE_POLICY:
		if (res->error == EXDEV)
			cli_error("policy '%s' does not target the native ABI (%s)", f->policy_name,
				  scg_arch_name(scg_arch_native()));
		else
			cli_error("cannot prepare policy '%s': %s", f->policy_name, err);
		return;
	case SCG_LAUNCH_STAGE_COMPILE:
		if (f->diag) /* not printed yet: the launcher stopped before on_ready */
			cli_print_diag(f->diag);
		cli_error("cannot compile policy '%s': %s", f->policy_name, err);
		return;
	case SCG_LAUNCH_STAGE_GUARD:
		cli_error("cannot add the guard to policy '%s': %s", f->policy_name,
			  res->error == E2BIG ? "together they pass the kernel's 4096 instructions"
					      : err);
		return;
	case SCG_LAUNCH_STAGE_WATCHDOG:
		cli_error("cannot start the watchdog: %s", err);
		return;
	case SCG_LAUNCH_STAGE_FORK:
		cli_error("cannot fork: %s", err);
		return;
	case SCG_LAUNCH_STAGE_NO_NEW_PRIVS:
		cli_error("cannot set no_new_privs: %s", err);
		return;
	case SCG_LAUNCH_STAGE_INSTALL:
		if (res->error == EBUSY && !f->supervisor_only)
			cli_error("cannot install the filter: a supervised filter is already in place "
				  "(one listener per process); use --no-report");
		else if (res->error == EBUSY) /* learn and inject: their supervisor is the point */
			cli_error("cannot install the filter: this process is already supervised "
				  "(one listener per process); run the command outside the other "
				  "syscage run, learn or inject");
		else
			cli_error("cannot install the filter: %s", err);
		return;
	case SCG_LAUNCH_STAGE_LANDLOCK:
		cli_error("cannot enter the Landlock domain: %s (--no-landlock runs without it)", err);
		return;
	case SCG_LAUNCH_STAGE_PID_NAMESPACE:
		cli_error("cannot give the program a pid namespace: %s%s", err,
			  res->error == EPERM || res->error == EACCES || res->error == ENOSPC
				  ? " (unprivileged user namespaces may be disabled here)"
				  : "");
		return;
	case SCG_LAUNCH_STAGE_LISTENER:
		cli_error("cannot hand the listener to the watchdog: %s", err);
		return;
	case SCG_LAUNCH_STAGE_CHILD:
		if (res->error)
			cli_error("cannot start '%s': %s", f->command, err);
		return; /* it died before it could say why */
	case SCG_LAUNCH_STAGE_SETUP:
	case SCG_LAUNCH_STAGE_NONE:
		break;
	}
	cli_error("cannot set up: %s", err);
}

/* With --wait a KILL verdict in a descendant fails the run, and says so. */
static void descendants(const struct scg_launch_result *res)
{
	if (!res->killed_others)
		return;
	cli_error("%lu descendant process%s killed: the policy's KILL verdict for %s in pid %d%s",
		  res->killed_others, res->killed_others == 1 ? "" : "es", res->killed_other_call,
		  (int)res->killed_other_pid, res->killed_others == 1 ? "" : " (the first)");
	if (res->end == SCG_LAUNCH_EXITED && res->status == 0)
		cli_error("exit status %d = 128 + SIGSYS, although the program exited 0",
			  128 + SIGSYS);
}

int run_front_result(const struct run_front *f, int r, const struct scg_launch_result *res)
{
	/* What is still said (the summary, learn's policy) must not end syscage at a
	 * closed pipe; the program, which inherits dispositions, has been started. */
	signal(SIGPIPE, SIG_IGN);
	if (r == -EINVAL && res->end == SCG_LAUNCH_NOT_STARTED && res->stage == SCG_LAUNCH_STAGE_NONE)
		cli_error("cannot set up: %s", strerror(EINVAL));
	switch (res->end) {
	case SCG_LAUNCH_NOT_STARTED:
		if (res->stage != SCG_LAUNCH_STAGE_NONE)
			not_started(f, res);
		break;
	case SCG_LAUNCH_SUPERVISION_FAILED:
		break;
	case SCG_LAUNCH_EXITED:
		descendants(res);
		break;
	case SCG_LAUNCH_SIGNALED: {
		int sig = res->status;
		if (res->killed_by_verdict && sig == SIGKILL) {
			cli_error("program killed: the policy's KILL verdict for %s (exit status %d = "
				  "128 + SIGSYS)",
				  res->killed_call, 128 + SIGSYS);
			break;
		}
		/* A reader that went away ends a pipeline's writer this way; shells say nothing. */
		if (sig == SIGPIPE)
			break;
		const char *abbrev = sigabbrev_np(sig);
		if (sig == SIGSYS)
			cli_error("program killed by SIGSYS (a seccomp KILL verdict or a bad system "
				  "call)");
		else
			cli_error("program killed by signal %d (SIG%s)", sig, abbrev ? abbrev : "?");
		break;
	}
	}
	return scg_launch_exit_status(res);
}
