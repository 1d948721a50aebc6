/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run`: telling the user about denied syscalls, decoded the way
 * strace shows them, on stderr, in a JSON-lines log, and as a summary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/decode.h>

#include "run.h"

struct run_count {
	char name[64];
	uint32_t action;
	unsigned long count;
};

/* A denial as the report shows it. */
struct run_denial {
	pid_t pid;
	const char *call;   /* decoded like strace: openat(AT_FDCWD, "/x", O_RDONLY) */
	const char *name;   /* syscall name, or NULL */
	uint32_t nr;
	uint32_t action;    /* the policy's verdict */
	char where[320];    /* "rule policy.txt:7" or "the default verdict" */
	bool read_after_call;
};

struct run_report {
	FILE *log;
	bool quiet;
	bool complain; /* the calls were not denied, only told */
	bool marker_explained; /* the note on READ_AFTER_MARKER has been printed */
	/* The last line printed, and how many identical ones came after it
	 * unprinted: a loop of one denied call gives one line and a count. */
	char last[1280];
	unsigned long repeats;
	bool profile_explained; /* how to see a built-in profile's rules has been said */
	struct run_count *counts;
	size_t ncounts;
	unsigned long own_filters[2]; /* filters the program asked to install: let in, refused */
	bool own_filter_explained;
};

struct run_report *run_report_new(FILE *log, bool quiet, bool complain)
{
	struct run_report *rep = calloc(1, sizeof(*rep));
	if (!rep) {
		if (log)
			fclose(log);
		return NULL;
	}
	rep->quiet = quiet;
	rep->complain = complain;
	rep->log = log;
	return rep;
}

/* Says how many lines like the last one were left out, if any. */
static void flush_repeats(struct run_report *rep)
{
	if (rep->repeats)
		cli_error("... %lu more like this", rep->repeats);
	rep->repeats = 0;
}

void run_report_free(struct run_report *rep)
{
	if (!rep)
		return;
	flush_repeats(rep);
	if (rep->log)
		fclose(rep->log);
	free(rep->counts);
	free(rep);
}

/* "ERRNO(EACCES)", "KILL_PROCESS", ... */
static void format_action(uint32_t action, const struct scg_arch *arch, char *buf, size_t size)
{
	if (scg_action_of(action) == SCG_ACTION_ERRNO) {
		const char *e = scg_errno_name(arch, action & SCG_RET_DATA);
		if (e) {
			snprintf(buf, size, "ERRNO(%s)", e);
			return;
		}
	}
	scg_ret_format(action, buf, size);
}

static void describe_where(const struct scg_policy *policy, const struct scg_verdict *v,
			   char *buf, size_t size)
{
	struct scg_rule rule;
	switch (v->source) {
	case SCG_VERDICT_RULE:
		if (scg_policy_rule_at(policy, v->rule, &rule) == 0 && rule.loc.file)
			snprintf(buf, size, "rule %s:%u", rule.loc.file, rule.loc.line);
		else
			snprintf(buf, size, "rule %zu", v->rule + 1);
		return;
	case SCG_VERDICT_DEFAULT:
		snprintf(buf, size, "the default verdict");
		return;
	case SCG_VERDICT_UNKNOWN:
		snprintf(buf, size, "the verdict for unknown syscalls");
		return;
	case SCG_VERDICT_BADARCH:
		snprintf(buf, size, "the verdict for other ABIs");
		return;
	}
}

/* One JSON line of the log: a compact object written by @fill, then flushed. */
static void log_line(FILE *f, void (*fill)(struct scg_json *w, const void *arg), const void *arg)
{
	struct scg_json *w = scg_json_new(f);
	if (!w)
		return; /* out of memory: the log misses a line, the report still counts it */
	scg_json_object(w, SCG_JSON_COMPACT);
	fill(w, arg);
	scg_json_end(w);
	if (scg_json_free(w) == 0)
		putc('\n', f);
	fflush(f);
}

struct denial_line {
	const struct run_denial *d;
	const char *action;
	bool complain;
};

static void fill_denial(struct scg_json *w, const void *arg)
{
	const struct denial_line *l = arg;
	const struct run_denial *d = l->d;
	scg_json_member_int(w, "pid", d->pid);
	scg_json_member_string(w, "syscall", d->name ? d->name : "");
	scg_json_member_uint(w, "nr", d->nr);
	scg_json_member_string(w, "call", d->call);
	scg_json_member_bool(w, "read_after_call", d->read_after_call);
	scg_json_member_string(w, "verdict", l->action);
	scg_json_member_string(w, "by", d->where);
	if (l->complain) { /* the verdict was not carried out: the call ran */
		scg_json_member_bool(w, "complain", true);
	}
}

static void log_denial(FILE *f, const struct run_denial *d, const char *action, bool complain)
{
	log_line(f, fill_denial, &(struct denial_line){ d, action, complain });
}

static void count(struct run_report *rep, const struct run_denial *d)
{
	char name[64];
	snprintf(name, sizeof(name), "%s", d->name ? d->name : "?");
	for (size_t i = 0; i < rep->ncounts; i++) {
		if (rep->counts[i].action == d->action && !strcmp(rep->counts[i].name, name)) {
			rep->counts[i].count++;
			return;
		}
	}
	struct run_count *c = reallocarray(rep->counts, rep->ncounts + 1, sizeof(*c));
	if (!c)
		return; /* the summary misses one line; the denial itself was reported */
	rep->counts = c;
	c = &rep->counts[rep->ncounts++];
	memcpy(c->name, name, sizeof(name));
	c->action = d->action;
	c->count = 1;
}

/*
 * Ends a report line whose call shows memory read from the program: the
 * kernel hands the supervisor pointers, and the program may rewrite what
 * they point to between the call and the read (docs/run.md).
 */
#define READ_AFTER_MARKER " [*]"

/*
 * Rules of built-in profiles are named <NAME>:LINE; the first time one
 * appears, say where to read it.
 */
static void explain_profile(struct run_report *rep, const char *where)
{
	const char *name = strncmp(where, "rule <", 6) ? NULL : where + 6;
	const char *end = name ? strchr(name, '>') : NULL;
	if (!end || rep->profile_explained)
		return;
	char profile[64];
	snprintf(profile, sizeof(profile), "%.*s", (int)(end - name), name);
	if (!scg_profile_source(profile))
		return;
	cli_error("'syscage compile --show-profile %s' shows the rules of <%s> with their line "
		  "numbers",
		  profile, profile);
	rep->profile_explained = true;
}

/* Prints @line on stderr unless it repeats the line before it (then counts it); true if printed. */
static bool print_line(struct run_report *rep, const char *line)
{
	if (!strcmp(line, rep->last)) {
		rep->repeats++;
		return false;
	}
	flush_repeats(rep);
	snprintf(rep->last, sizeof(rep->last), "%s", line);
	cli_error("%s", line);
	return true;
}

/* Prints @d on stderr unless it repeats the line before it. */
static void print_denial(struct run_report *rep, const struct run_denial *d, const char *action)
{
	char line[sizeof(rep->last)];
	snprintf(line, sizeof(line), "%s %s from pid %d: %s by %s%s",
		 rep->complain ? "would deny" : "denied", d->call, (int)d->pid, action, d->where,
		 d->read_after_call ? READ_AFTER_MARKER : "");
	if (!print_line(rep, line))
		return;
	if (d->read_after_call && !rep->marker_explained) {
		cli_error("[*] strings and data in a report are read from the program's memory "
			  "after the call; it may have changed them since (verdicts never depend "
			  "on them)");
		rep->marker_explained = true;
	}
	explain_profile(rep, d->where);
}

void run_report_denial(const struct scg_launch_denial *denial, void *front)
{
	struct run_report *rep = ((struct run_front *)front)->report;
	struct run_denial dd = { .pid = denial->tid, .call = denial->call, .name = denial->name,
				 .nr = denial->data->nr, .action = denial->action,
				 .read_after_call = denial->read_after_call };
	describe_where(denial->policy, denial->verdict, dd.where, sizeof(dd.where));
	const struct run_denial *d = &dd;
	char action[64];
	format_action(d->action, scg_arch_native(), action, sizeof(action));
	if (!rep->quiet)
		print_denial(rep, d, action);
	if (rep->log)
		log_denial(rep->log, d, action, rep->complain);
	count(rep, d);
}

struct own_filter_line {
	pid_t tid;
	const char *name;
	uint32_t nr;
	bool refused;
};

static void fill_own_filter(struct scg_json *w, const void *arg)
{
	const struct own_filter_line *l = arg;
	scg_json_member_int(w, "pid", l->tid);
	scg_json_member_string(w, "syscall", l->name);
	scg_json_member_uint(w, "nr", l->nr);
	scg_json_member_string(w, "own_filter", l->refused ? "refused" : "allowed");
}

static void log_own_filter(FILE *f, pid_t tid, const char *name, uint32_t nr, bool refused)
{
	log_line(f, fill_own_filter, &(struct own_filter_line){ tid, name, nr, refused });
}

void run_report_own_filter(pid_t tid, const struct scg_seccomp_data *data, bool refused,
			   void *front)
{
	struct run_report *rep = ((struct run_front *)front)->report;
	const struct scg_arch *arch = scg_arch_from_audit(data->arch, data->nr);
	const char *name = arch ? scg_syscall_name(arch, data->nr) : NULL;
	name = name ? name : "?";
	rep->own_filters[refused]++;
	if (rep->log)
		log_own_filter(rep->log, tid, name, data->nr, refused);
	if (rep->quiet)
		return;
	char line[sizeof(rep->last)];
	snprintf(line, sizeof(line), "pid %d asks to install a seccomp filter of its own (%s): %s",
		 (int)tid, name, refused ? "refused with EPERM (--own-filters=refuse)" : "let in");
	if (print_line(rep, line) && !refused && !rep->own_filter_explained) {
		cli_error("from now on that filter's ERRNO, TRAP and KILL verdicts outrank the policy's "
			  "reported ones in that process and its children: a call the policy kills "
			  "may get that filter's answer instead, unreported (it still never runs); "
			  "--own-filters=refuse or --no-report keep the kill");
		rep->own_filter_explained = true;
	}
}

void run_report_summary(struct run_report *rep)
{
	flush_repeats(rep);
	if (!rep->quiet && (rep->own_filters[0] || rep->own_filters[1]))
		fprintf(stderr, "syscage: seccomp filters the program asked to install: %lu let in, "
				"%lu refused\n", rep->own_filters[0], rep->own_filters[1]);
	if (rep->ncounts == 0 || rep->quiet)
		return;
	fprintf(stderr, rep->complain ? "syscage: syscalls the policy would deny (run unchanged):\n"
				      : "syscage: denied syscalls:\n");
	for (size_t i = 0; i < rep->ncounts; i++) {
		char action[64];
		format_action(rep->counts[i].action, scg_arch_native(), action, sizeof(action));
		fprintf(stderr, "  %8lu  %-20s %s\n", rep->counts[i].count, rep->counts[i].name, action);
	}
}
