/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage status: seccomp mode, filter count and NO_NEW_PRIVS of running
 * processes, and what this machine's kernel offers seccomp.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/analyze.h"
#include "common/features.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage status [--json] [PID... | --all]\n"
		"\n"
		"Shows the seccomp mode (none, strict, filter), the number of filters and\n"
		"NO_NEW_PRIVS of each PID, as /proc/PID/status reports them, and every thread\n"
		"whose state differs from its process's.  Without PID: the process that ran\n"
		"syscage (its parent, usually your shell).  With --all: every process under\n"
		"seccomp (a thread in filter or strict mode).\n"
		"\n"
		"Then what the kernel offers, as syscage's probes find it: seccomp(2), the\n"
		"actions and filter flags it knows, user notification, 32-bit emulation\n"
		"(int $0x80), x32, PTRACE_SECCOMP_GET_FILTER, the layers 'syscage run' adds\n"
		"(Landlock ABI and scopes, how the program's process tree is ended), and the\n"
		"names of the missing features (those SYSCAGE_DISABLE_FEATURES names count as\n"
		"missing).\n"
		"\n"
		"  -a, --all    every process /proc lists that is under seccomp; processes that\n"
		"               exit during the scan are left out, those /proc will not show\n"
		"               (hidepid) are counted on stderr; neither is an error\n"
		"  -j, --json   one JSON object: \"processes\" (an object per PID with all its\n"
		"               threads) and \"kernel\"; with --all also \"skipped\"\n"
		"  -h, --help   this text\n"
		"\n"
		"Exit status: 0 done, 2 bad usage, or a PID that does not exist or cannot be read.\n");
}

/* A count or a flag, "-1" (not reported by this kernel) as null. */
static void json_count(struct scg_json *w, long v)
{
	if (v < 0)
		scg_json_null(w);
	else
		scg_json_int(w, v);
}

static void json_task(struct scg_json *w, const struct scg_task_seccomp *t)
{
	scg_json_member_string(w, "seccomp", scg_seccomp_mode_name(t->mode));
	scg_json_key(w, "filters");
	json_count(w, t->filters);
	scg_json_key(w, "no_new_privs");
	if (t->no_new_privs < 0)
		scg_json_null(w);
	else
		scg_json_bool(w, t->no_new_privs);
}

static void print_json(struct scg_json *w, const struct scg_proc_seccomp *st)
{
	scg_json_object(w, SCG_JSON_INLINE);
	scg_json_member_int(w, "pid", st->pid);
	scg_json_member_string(w, "name", st->name);
	json_task(w, &st->process);
	scg_json_key(w, "threads");
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < st->nthreads; i++) {
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_int(w, "tid", st->threads[i].tid);
		json_task(w, &st->threads[i]);
		scg_json_end(w);
	}
	scg_json_end(w);
	scg_json_end(w);
}

static void print_task_text(const struct scg_task_seccomp *t)
{
	printf("seccomp %s", scg_seccomp_mode_name(t->mode));
	if (t->filters >= 0)
		printf(", %ld filter%s", t->filters, t->filters == 1 ? "" : "s");
	if (t->no_new_privs >= 0)
		printf(", no_new_privs %d", t->no_new_privs);
	putchar('\n');
}

static bool same_state(const struct scg_task_seccomp *a, const struct scg_task_seccomp *b)
{
	return a->mode == b->mode && a->filters == b->filters && a->no_new_privs == b->no_new_privs;
}

static void print_text(const struct scg_proc_seccomp *st)
{
	printf("%d (%s): ", (int)st->pid, st->name);
	print_task_text(&st->process);
	for (size_t i = 0; i < st->nthreads; i++) {
		if (same_state(&st->threads[i], &st->process))
			continue;
		printf("  thread %d: ", (int)st->threads[i].tid);
		print_task_text(&st->threads[i]);
	}
}

/* --- the kernel ----------------------------------------------------------- */

static const char *const flag_names[] = {
	"tsync", "log", "spec-allow", "new-listener", "tsync-esrch", "wait-killable-recv",
};

#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

/* Why PTRACE_SECCOMP_GET_FILTER cannot be used, in words. */
static const char *get_filter_reason(int err)
{
	switch (err) {
	case EACCES:
		return "needs CAP_SYS_ADMIN and no seccomp filter of its own";
	case EIO:
		return "not in this kernel";
	case EPERM:
		return "ptrace refused";
	case ECANCELED:
		return "disabled by SYSCAGE_DISABLE_FEATURES";
	default:
		return strerror(err);
	}
}

/* Prints the names of @f's actions, then flags, each preceded by @sep after the first. */
static void print_actions(const struct scg_features *f, const char *sep, const char *quote)
{
	bool first = true;
	for (int a = SCG_ACTION_KILL_PROCESS; a <= SCG_ACTION_ALLOW; a++) {
		if (!(f->actions & (1U << a)))
			continue;
		printf("%s%s%s%s", first ? "" : sep, quote, scg_action_name((enum scg_action)a), quote);
		first = false;
	}
}

static void print_flags(const struct scg_features *f, const char *sep, const char *quote)
{
	bool first = true;
	for (size_t i = 0; i < NFLAGS; i++) {
		if (!(f->flags & (1U << i)))
			continue;
		printf("%s%s%s%s", first ? "" : sep, quote, flag_names[i], quote);
		first = false;
	}
}

static void print_kernel_text(const struct scg_features *f)
{
	printf("kernel:\n  seccomp(2): %s, filters: %s\n", f->seccomp_syscall ? "yes" : "no",
	       f->filter_mode ? "yes" : "no");
	printf("  actions: ");
	print_actions(f, " ", "");
	printf("\n  filter flags: ");
	print_flags(f, " ", "");
	if (f->actions & (1U << SCG_ACTION_USER_NOTIF))
		printf("\n  user notification: yes (sizes: notif %u, resp %u, data %u)\n",
		       f->notif_size, f->notif_resp_size, f->data_size);
	else
		printf("\n  user notification: no\n");
	printf("  32-bit emulation (int $0x80): %s\n", f->ia32_emulation ? "on" : "off");
	printf("  x32: %s\n", f->x32 ? "on" : "off");
	if (f->ptrace_get_filter)
		printf("  PTRACE_SECCOMP_GET_FILTER: yes\n");
	else
		printf("  PTRACE_SECCOMP_GET_FILTER: no (%s)\n",
		       get_filter_reason(f->ptrace_get_filter_error));
	if (f->landlock_abi >= 6)
		printf("  Landlock: ABI %d (a program under run cannot trace, open /proc/PID/mem of,\n"
		       "    signal or reach the abstract unix sockets of processes outside its domain)\n",
		       f->landlock_abi);
	else if (f->landlock_abi > 0)
		printf("  Landlock: ABI %d (a program under run cannot trace or open /proc/PID/mem of\n"
		       "    processes outside its domain; no scopes before ABI 6, Linux 6.12)\n",
		       f->landlock_abi);
	else
		printf("  Landlock: no\n");
	printf("  process tree: %s\n",
	       f->cgroup_kill ? "a cgroup of its own (cgroup.kill), and the supervisor as subreaper"
			      : "the supervisor as subreaper (no cgroup v2 with cgroup.kill that "
				"syscage may write)");
	printf("  missing:");
	bool any = false;
	for (size_t i = 0; i < cli_feature_count(); i++) {
		if (cli_feature_present(f, i))
			continue;
		printf(" %s", cli_feature_name(i));
		any = true;
	}
	printf("%s\n", any ? "" : " nothing");
}

static void json_actions(struct scg_json *w, const struct scg_features *f)
{
	scg_json_array(w, SCG_JSON_INLINE);
	for (int a = SCG_ACTION_KILL_PROCESS; a <= SCG_ACTION_ALLOW; a++)
		if (f->actions & (1U << a))
			scg_json_string(w, scg_action_name((enum scg_action)a));
	scg_json_end(w);
}

static void json_flags(struct scg_json *w, const struct scg_features *f)
{
	scg_json_array(w, SCG_JSON_INLINE);
	for (size_t i = 0; i < NFLAGS; i++)
		if (f->flags & (1U << i))
			scg_json_string(w, flag_names[i]);
	scg_json_end(w);
}

static void print_kernel_json(struct scg_json *w, const struct scg_features *f)
{
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_member_bool(w, "seccomp_syscall", f->seccomp_syscall);
	scg_json_member_bool(w, "filter_mode", f->filter_mode);
	scg_json_key(w, "actions");
	json_actions(w, f);
	scg_json_key(w, "filter_flags");
	json_flags(w, f);
	scg_json_key(w, "notif_sizes");
	if (f->notif_size) {
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_uint(w, "notif", f->notif_size);
		scg_json_member_uint(w, "resp", f->notif_resp_size);
		scg_json_member_uint(w, "data", f->data_size);
		scg_json_end(w);
	} else {
		scg_json_null(w);
	}
	scg_json_member_int(w, "landlock_abi", f->landlock_abi);
	scg_json_member_string(w, "process_tree", f->cgroup_kill ? "cgroup" : "subreaper");
	scg_json_key(w, "ptrace_get_filter_error");
	scg_json_string(w, f->ptrace_get_filter ? NULL
						: get_filter_reason(f->ptrace_get_filter_error));
	/* One feature a line, so that a shell can grep for '"NAME": true'. */
	scg_json_key(w, "features");
	scg_json_object(w, SCG_JSON_LINES);
	for (size_t i = 0; i < cli_feature_count(); i++) {
		scg_json_key(w, cli_feature_name(i));
		scg_json_bool(w, cli_feature_present(f, i));
	}
	scg_json_end(w);
	scg_json_end(w);
}

static int parse_pid(const char *text, pid_t *pid)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || *end || v <= 0 || v > 0x3fffffffL) {
		cli_error("status: '%s' is not a process id", text);
		return -1;
	}
	*pid = (pid_t)v;
	return 0;
}

struct status_opts {
	bool json, all;
};

static int on_option(int c, const char *arg, void *ctx)
{
	(void)arg;
	struct status_opts *o = ctx;
	if (c == 'j')
		o->json = true;
	else if (c == 'a')
		o->all = true;
	return 0;
}

/* Returns as cli_parse_options() does: the index of the first PID, if any. */
static int parse_options(int argc, char **argv, struct status_opts *o)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "status", "+:ajh", longopts, usage, on_option };
	return cli_parse_options(&cmd, argc, argv, o);
}

/* "syscage: status: MESSAGE" for each diagnostic of the library, hints beneath. */
static void print_errors(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		cli_error("status: %s", e->message);
		if (e->hint)
			cli_error("status: hint: %s", cli_hint(e));
	}
}

/* @w: the JSON writer, or NULL for text. */
static void show(const struct scg_proc_seccomp *st, struct scg_json *w)
{
	if (w)
		print_json(w, st);
	else
		print_text(st);
}

static int show_one(pid_t pid, struct scg_json *w)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_proc_seccomp st;
	int r = scg_proc_seccomp_read(pid, &st, diag);
	if (r < 0) {
		print_errors(diag);
		if (scg_diag_count(diag) == 0)
			cli_error("status: process %d: %s", (int)pid, strerror(-r));
		scg_diag_free(diag);
		return -1;
	}
	scg_diag_free(diag);
	show(&st, w);
	scg_proc_seccomp_release(&st);
	return 0;
}

/* --all: every process under seccomp, then (in JSON) what was skipped.  Returns an exit status. */
static int show_all(struct scg_json *w)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_proc_scan scan;
	int r = scg_proc_seccomp_scan(0, &scan, diag);
	print_errors(diag);
	scg_diag_free(diag);
	if (r < 0) {
		if (r == -ENOMEM)
			cli_error("status: out of memory");
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < scan.n; i++)
		show(&scan.procs[i], w);
	if (!w && scan.n == 0)
		printf("no process is under seccomp\n");
	if (w) {
		scg_json_end(w);
		scg_json_key(w, "skipped");
		scg_json_object(w, SCG_JSON_INLINE);
		scg_json_member_uint(w, "vanished", scan.vanished);
		scg_json_member_uint(w, "unreadable", scan.unreadable);
		scg_json_end(w);
	}
	if (scan.unreadable)
		cli_error("status: %zu process%s could not be read: /proc hides other users' "
			  "processes (hidepid); seeing them needs CAP_SYS_PTRACE",
			  scan.unreadable, scan.unreadable == 1 ? "" : "es");
	scg_proc_scan_release(&scan);
	return CLI_EXIT_OK;
}

/* The PIDs from argv[@first] on, or the parent.  Returns an exit status. */
static int show_pids(int argc, char **argv, int first_pid, struct scg_json *w)
{
	int status = CLI_EXIT_OK;
	if (first_pid == argc && show_one(getppid(), w) < 0)
		status = CLI_EXIT_USAGE;
	for (int i = first_pid; i < argc; i++) {
		pid_t pid = 0; /* parse_pid() succeeded for every argument before */
		parse_pid(argv[i], &pid);
		if (show_one(pid, w) < 0)
			status = CLI_EXIT_USAGE;
	}
	if (w)
		scg_json_end(w);
	return status;
}

int cmd_status(int argc, char **argv)
{
	struct status_opts o = { 0 };
	int pids = parse_options(argc, argv, &o);
	if (pids <= 0)
		return pids == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (o.all && pids < argc) {
		cli_error("status: --all or PIDs, not both ('syscage status --help')");
		return CLI_EXIT_USAGE;
	}
	for (int i = pids; i < argc; i++) {
		pid_t pid;
		if (parse_pid(argv[i], &pid) < 0)
			return CLI_EXIT_USAGE;
	}
	struct scg_json *w = NULL;
	if (o.json) {
		if (!(w = cli_json_begin(stdout)))
			return CLI_EXIT_USAGE;
		scg_json_object(w, SCG_JSON_LINES);
		scg_json_key(w, "processes");
		scg_json_array(w, SCG_JSON_LINES);
	}
	int status = o.all ? show_all(w) : show_pids(argc, argv, pids, w);
	struct scg_features f;
	if (cli_features_probe_machine(&f) < 0)
		memset(&f, 0, sizeof(f)); /* an unexpected answer: nothing is known to work */
	if (w) {
		scg_json_key(w, "kernel");
		print_kernel_json(w, &f);
		scg_json_end(w);
		if (cli_json_finish(w, stdout) < 0)
			status = CLI_EXIT_USAGE;
	} else {
		print_kernel_text(&f);
	}
	if (fflush(stdout) != 0)
		status = CLI_EXIT_USAGE;
	return status;
}
