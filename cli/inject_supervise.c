/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage inject`, the supervisor's front: the library's inject server
 * (scg_inject_server_*(), lib/runtime/inject_serve.c) decides each
 * notified call; this file counts its faults for the summary and writes
 * them to --log.  Calls the base policy kills or traps never reach the
 * server (scg_inject_policy_build()).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"
#include "run.h"

enum { MAX_PIDS_LISTED = 16, MAX_NAMES = 64, MAX_CALLS_SHOWN = 3, CALL_TEXT = 512 };

struct rule_stats {
	uint64_t injected;
	struct {
		const char *name;
		uint64_t count;
	} per_syscall[MAX_NAMES];
	size_t nnames;
	pid_t pids[MAX_PIDS_LISTED];
	size_t npids;
	bool more_pids;
	char calls[MAX_CALLS_SHOWN][CALL_TEXT]; /* the first injected calls, decoded */
};

struct inject_state {
	struct scg_inject_rule *const *rules;
	size_t nrules;
	bool count_all;
	FILE *log;
	struct rule_stats *stats;
	struct scg_inject_server *server;
};

static void on_injected(const struct scg_inject_fault *fault, void *ctx);

struct inject_state *inject_state_new(struct scg_inject_rule *const *rules, size_t nrules,
				      const struct scg_policy *base, bool count_all, FILE *log)
{
	struct inject_state *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->rules = rules;
	st->nrules = nrules;
	st->count_all = count_all;
	st->log = log;
	st->stats = calloc(nrules ? nrules : 1, sizeof(*st->stats));
	struct scg_features f;
	SCG_OPTS(scg_inject_server_opts, opts, .on_injected = on_injected, .ctx = st);
	if (cli_features_probe(&f) == 0)
		opts.features = &f;
	if (!st->stats || scg_inject_server_new(rules, nrules, base, &opts, &st->server) < 0) {
		inject_state_free(st);
		return NULL;
	}
	return st;
}

void inject_state_free(struct inject_state *st)
{
	if (!st)
		return;
	scg_inject_server_free(st->server);
	free(st->stats);
	free(st);
}

static void record(struct inject_state *st, size_t rule, const char *name, pid_t tgid,
		   const char *call)
{
	struct rule_stats *s = &st->stats[rule];
	if (s->injected < MAX_CALLS_SHOWN)
		snprintf(s->calls[s->injected], CALL_TEXT, "%s", call);
	s->injected++;
	size_t i = 0;
	while (i < s->nnames && strcmp(s->per_syscall[i].name, name) != 0)
		i++;
	if (i == s->nnames && s->nnames < MAX_NAMES)
		s->per_syscall[s->nnames++].name = name;
	if (i < s->nnames)
		s->per_syscall[i].count++;
	for (size_t k = 0; k < s->npids; k++)
		if (s->pids[k] == tgid)
			return;
	if (s->npids < MAX_PIDS_LISTED)
		s->pids[s->npids++] = tgid;
	else
		s->more_pids = true;
}

/* One JSON line of --log for @f; its optional members are what the rule does. */
static void log_fault(struct scg_json *w, const struct scg_inject_rule *r,
		      const struct scg_inject_fault *f, const char *name)
{
	scg_json_object(w, SCG_JSON_COMPACT);
	scg_json_member_uint(w, "rule", f->rule + 1);
	scg_json_member_int(w, "pid", f->tgid);
	scg_json_member_uint(w, "tid", f->notif->pid);
	scg_json_member_string(w, "syscall", name);
	scg_json_member_string(w, "decoded", f->call);
	if (f->count) { /* which call of this syscall in this thread; known for counted rules */
		scg_json_member_uint(w, "call", f->count);
	}
	if (r->has_error) {
		const char *e = scg_errno_name(NULL, r->error);
		scg_json_member_string(w, "error", e ? e : "?");
	}
	if (r->has_retval) {
		scg_json_member_int(w, "retval", r->retval);
	}
	if (r->signal) {
		const char *abbrev = sigabbrev_np(r->signal);
		char sig[32];
		snprintf(sig, sizeof(sig), "SIG%s", abbrev ? abbrev : "?");
		scg_json_member_string(w, "signal", sig);
	}
	scg_json_end(w);
}

static void log_injection(struct inject_state *st, const struct scg_inject_fault *f,
			  const char *name)
{
	if (!st->log)
		return;
	struct scg_json *w = scg_json_new(st->log);
	if (!w)
		return; /* out of memory: the log misses a line, the summary still counts it */
	log_fault(w, st->rules[f->rule], f, name);
	if (scg_json_free(w) == 0)
		putc('\n', st->log);
	fflush(st->log);
}

/* The server's event: one fault, counted for the summary and written to --log. */
static void on_injected(const struct scg_inject_fault *fault, void *ctx)
{
	struct inject_state *st = ctx;
	char buf[32];
	const char *name = fault->name;
	if (!name)
		snprintf(buf, sizeof(buf), "syscall %u", fault->notif->data.nr);
	record(st, fault->rule, name ? name : "other", fault->tgid, fault->call);
	log_injection(st, fault, name ? name : buf);
}

int inject_decide(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
		  void *front)
{
	struct inject_state *st = ((struct run_front *)front)->data;
	return scg_inject_server_decide(st->server, listener, n, resp);
}

void inject_answered(const struct scg_notif *n, const struct scg_notif_resp *resp, int r,
		     void *front)
{
	struct inject_state *st = ((struct run_front *)front)->data;
	(void)n;
	(void)resp;
	(void)r;
	scg_inject_server_answered(st->server);
}

/* False for a rule whose every syscall a later rule took over (scg_inject_rules_resolve()). */
static bool has_syscalls(const struct scg_inject_rule *r)
{
	for (size_t i = 0; i < r->nsyscalls; i++)
		if (r->abi_masks[i])
			return true;
	return false;
}

/* What a rule does to a call: a fault (error= or retval=), else a signal, else only a delay. */
enum rule_kind { KIND_FAULT, KIND_SIGNAL, KIND_DELAY };

static enum rule_kind kind_of(const struct scg_inject_rule *r)
{
	if (r->has_error || r->has_retval)
		return KIND_FAULT;
	return r->signal ? KIND_SIGNAL : KIND_DELAY;
}

static const char *kind_noun(enum rule_kind k, uint64_t n)
{
	static const char *const nouns[][2] = { { "fault", "faults" },
						{ "signal", "signals" },
						{ "delay", "delays" } };
	return nouns[k][n != 1];
}

static void print_rule_summary(const struct inject_state *st, size_t i)
{
	const struct scg_inject_rule *r = st->rules[i];
	const struct rule_stats *s = &st->stats[i];
	fprintf(stderr, "  rule %zu  ", i + 1);
	cli_fputs_escaped(r->text, stderr); /* as the user wrote it */
	if (!has_syscalls(r)) {
		fprintf(stderr, ": replaced by later rules for all its syscalls\n");
		return;
	}
	if (scg_inject_rule_in_filter(r, st->count_all)) {
		fprintf(stderr, ": in the filter; the kernel answers, uncounted\n");
		return;
	}
	fprintf(stderr, ": %llu %s", (unsigned long long)s->injected,
		kind_noun(kind_of(r), s->injected));
	for (size_t k = 0; k < s->nnames; k++)
		fprintf(stderr, "%s%s %llu", k ? ", " : " (", s->per_syscall[k].name,
			(unsigned long long)s->per_syscall[k].count);
	if (s->nnames)
		fprintf(stderr, ")");
	for (size_t k = 0; k < s->npids; k++)
		fprintf(stderr, "%s%d", k ? ", " : s->npids > 1 ? " in pids " : " in pid ", s->pids[k]);
	fprintf(stderr, "%s\n", s->more_pids ? ", ..." : "");
	for (size_t k = 0; k < MAX_CALLS_SHOWN && k < s->injected; k++) {
		fprintf(stderr, "    ");
		cli_fputs_escaped(s->calls[k], stderr);
		fprintf(stderr, "\n");
	}
	if (s->injected > MAX_CALLS_SHOWN)
		fprintf(stderr, "    ... %llu more (--log FILE lists each)\n",
			(unsigned long long)(s->injected - MAX_CALLS_SHOWN));
}

void inject_summary(const struct inject_state *st)
{
	uint64_t total[3] = { 0 };
	size_t in_filter = 0;
	for (size_t i = 0; i < st->nrules; i++) {
		total[kind_of(st->rules[i])] += st->stats[i].injected;
		in_filter += scg_inject_rule_in_filter(st->rules[i], st->count_all) &&
			     has_syscalls(st->rules[i]);
	}
	/* faults always, delays and signals when there were any: a delay is no fault */
	fprintf(stderr, "syscage: inject: %llu %s", (unsigned long long)total[KIND_FAULT],
		kind_noun(KIND_FAULT, total[KIND_FAULT]));
	for (enum rule_kind k = KIND_SIGNAL; k <= KIND_DELAY; k++)
		if (total[k])
			fprintf(stderr, "%s%llu %s", k == KIND_DELAY || !total[KIND_DELAY] ? " and " : ", ",
				(unsigned long long)total[k], kind_noun(k, total[k]));
	fprintf(stderr, " injected by the supervisor");
	if (in_filter) /* SECCOMP_RET_ERRNO leaves no trace a supervisor could count */
		fprintf(stderr, "; the kernel injects the faults of %zu rule%s in the filter, "
			"uncounted (--count counts them)", in_filter, in_filter == 1 ? "" : "s");
	fprintf(stderr, "\n");
	for (size_t i = 0; i < st->nrules; i++)
		print_rule_summary(st, i);
}
