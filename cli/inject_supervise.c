/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage inject`, the supervisor side: decides each notified call.
 *
 * Each (syscall, ABI) belongs to one rule at most, the last that names it,
 * as under strace (scg_inject_rules_resolve()).  Like strace, a rule's
 * when= counts per syscall and per thread (strace counts per tracee, and
 * every thread is a tracee); a call counts for a rule when it is in the
 * rule's set and meets its if= condition.
 * A call no rule takes gets the base policy's verdict; calls the base
 * policy kills or traps never come here (inject_policy.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"
#include "run.h"

/* One counter: how many calls of syscall @nr thread @tid made that rule @rule saw. */
struct counter {
	uint32_t tid, rule, nr, arch;
	uint64_t count; /* 0: free slot */
};

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
	const struct scg_policy *base;
	bool count_all;
	FILE *log;
	struct counter *counters;
	size_t cap, used;
	struct rule_stats *stats;
	char ***resolved;     /* per rule: its paths resolved (inject_paths.c) */
	bool signal_first;   /* the kernel holds signals once a call is received */
	pid_t pending_tgid;  /* a signal to send after answering (older kernels) */
	pid_t pending_tid;
	int pending_sig;
};

struct inject_state *inject_state_new(struct scg_inject_rule *const *rules, size_t nrules,
				      const struct scg_policy *base, bool count_all, FILE *log)
{
	struct inject_state *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->rules = rules;
	st->nrules = nrules;
	st->base = base;
	st->count_all = count_all;
	st->log = log;
	st->stats = calloc(nrules ? nrules : 1, sizeof(*st->stats));
	st->resolved = calloc(nrules ? nrules : 1, sizeof(*st->resolved));
	bool failed = !st->stats || !st->resolved;
	for (size_t i = 0; i < nrules && !failed; i++)
		failed = rules[i]->npaths && !(st->resolved[i] = inject_resolve_paths(rules[i]));
	if (failed) {
		inject_state_free(st);
		return NULL;
	}
	/* WAIT_KILLABLE_RECV (5.19) is what the launcher asks for whenever it can: with it,
	 * a signal sent before the answer waits until the call returns. */
	struct scg_features f;
	st->signal_first = cli_features_probe(&f) == 0 &&
			   (f.flags & SCG_FILTER_FLAG_WAIT_KILLABLE_RECV);
	return st;
}

void inject_state_free(struct inject_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; st->resolved && i < st->nrules; i++)
		inject_free_paths(st->resolved[i], st->rules[i]->npaths);
	free(st->resolved);
	free(st->counters);
	free(st->stats);
	free(st);
}

static size_t slot_of(const struct counter *k, size_t cap)
{
	uint64_t h = ((uint64_t)k->tid * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)k->rule << 40) ^
		     ((uint64_t)k->nr << 20) ^ k->arch;
	h ^= h >> 29;
	return (size_t)(h * 0xbf58476d1ce4e5b9ULL) & (cap - 1);
}

static struct counter *find_counter(struct counter *table, size_t cap, const struct counter *k)
{
	for (size_t i = slot_of(k, cap);; i = (i + 1) & (cap - 1)) {
		struct counter *c = &table[i];
		if (!c->count || (c->tid == k->tid && c->rule == k->rule && c->nr == k->nr &&
				  c->arch == k->arch))
			return c;
	}
}

static int grow(struct inject_state *st)
{
	size_t cap = st->cap ? st->cap * 2 : 256;
	struct counter *table = calloc(cap, sizeof(*table));
	if (!table)
		return -ENOMEM;
	for (size_t i = 0; i < st->cap; i++)
		if (st->counters[i].count)
			*find_counter(table, cap, &st->counters[i]) = st->counters[i];
	free(st->counters);
	st->counters = table;
	st->cap = cap;
	return 0;
}

/* Counts one more call for @rule; returns its number (from 1), or 0 when out of memory. */
static uint64_t count_call(struct inject_state *st, size_t rule, const struct scg_notif *n)
{
	if (st->used * 2 >= st->cap && grow(st) < 0)
		return 0;
	struct counter key = { n->pid, (uint32_t)rule, n->data.nr, n->data.arch, 0 };
	struct counter *c = find_counter(st->counters, st->cap, &key);
	if (!c->count) {
		*c = key;
		st->used++;
	}
	return ++c->count;
}

static const char *syscall_name(const struct scg_notif *n, char *buf, size_t size)
{
	const struct scg_arch *arch = scg_arch_from_audit(n->data.arch, n->data.nr);
	const char *name = arch ? scg_syscall_name(arch, n->data.nr) : NULL;
	if (name)
		return name;
	snprintf(buf, size, "syscall %u", n->data.nr);
	return buf;
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

static void log_injection(struct inject_state *st, size_t rule, const struct scg_notif *n,
			  const char *name, pid_t tgid, uint64_t count, const char *call)
{
	if (!st->log)
		return;
	const struct scg_inject_rule *r = st->rules[rule];
	fprintf(st->log, "{\"rule\":%zu,\"pid\":%d,\"tid\":%u,\"syscall\":\"%s\",\"decoded\":", rule + 1,
		tgid, n->pid, name);
	cli_json_string(st->log, call);
	if (count) /* which call of this syscall in this thread; known for counted rules */
		fprintf(st->log, ",\"call\":%llu", (unsigned long long)count);
	if (r->has_error) {
		const char *e = scg_errno_name(NULL, r->error);
		fprintf(st->log, ",\"error\":\"%s\"", e ? e : "?");
	}
	if (r->has_retval)
		fprintf(st->log, ",\"retval\":%lld", (long long)r->retval);
	if (r->signal) {
		const char *abbrev = sigabbrev_np(r->signal);
		fprintf(st->log, ",\"signal\":\"SIG%s\"", abbrev ? abbrev : "?");
	}
	fprintf(st->log, "}\n");
	fflush(st->log);
}

static void send_signal(int listener, const struct scg_notif *n, pid_t tgid, int sig)
{
	/* The caller still waits for our answer, so its thread id cannot have been reused
	 * if the notification is still valid after we looked the thread group up. */
	if (scg_notif_id_valid(listener, n->id) == 0)
		syscall(SYS_tgkill, tgid, (pid_t)n->pid, sig);
}

/*
 * The base policy's verdict for a call no rule took.  Its kill and trap
 * verdicts do not come here: inject_build_policy() leaves them to the
 * kernel, ahead of every rule.  Should one come all the same,
 * scg_notif_answer_verdict() kills the caller before the answer, as
 * under run.
 */
static void answer_base(struct inject_state *st, int listener, const struct scg_notif *n,
			struct scg_notif_resp *resp)
{
	struct scg_verdict v;
	scg_policy_eval(st->base, &n->data, &v);
	scg_notif_answer_verdict(listener, n, v.action, resp);
}

/* Applies rule @i to the call: the answer, the signal, the bookkeeping. */
static void inject(struct inject_state *st, size_t i, int listener, const struct scg_notif *n,
		   struct scg_notif_resp *resp, uint64_t count)
{
	const struct scg_inject_rule *r = st->rules[i];
	char buf[32];
	const char *name = syscall_name(n, buf, sizeof(buf));
	pid_t tgid = scg_notif_tgid(n);
	/* Decoded before the answer, while the caller still waits: strings read then are
	 * what the call would have seen, unless another thread changes them meanwhile. */
	char call[CALL_TEXT];
	scg_notif_format_call(listener, n, call, sizeof(call));
	record(st, i, name == buf ? "other" : name, tgid, call);
	log_injection(st, i, n, name, tgid, count, call);
	/* Both delays come before the answer: seccomp gives no moment after a call
	 * that runs, and a call answered with error= or retval= never runs, so
	 * for it the answer is its exit (inject_rule.c refuses the other case). */
	uint64_t delay_us = (uint64_t)r->delay_enter_us + r->delay_exit_us;
	if (delay_us) {
		struct timespec ts = { (time_t)(delay_us / 1000000), (long)(delay_us % 1000000) * 1000 };
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	if (r->has_error)
		resp->error = -(int32_t)r->error;
	else if (r->has_retval)
		resp->val = r->retval;
	else
		resp->flags = SCG_NOTIF_FLAG_CONTINUE; /* signal or delay only: the call runs */
	if (r->signal && st->signal_first) {
		send_signal(listener, n, tgid, r->signal);
	} else if (r->signal) {
		st->pending_tgid = tgid;
		st->pending_tid = (pid_t)n->pid;
		st->pending_sig = r->signal;
	}
}

/* The rule whose set has the call (one at most: scg_inject_rules_resolve()) and whose if= holds. */
static int rule_of(const struct inject_state *st, int listener, const struct scg_notif *n)
{
	for (size_t i = 0; i < st->nrules; i++) {
		const struct scg_inject_rule *r = st->rules[i];
		struct scg_verdict v;
		scg_policy_eval(r->match, &n->data, &v);
		if (v.source != SCG_VERDICT_RULE)
			continue;
		if (r->npaths && !inject_call_names_path(listener, n, r, st->resolved[i]))
			continue;
		return (int)i;
	}
	return -1;
}

/* A call counts for its rule's when= once it meets the rule's if=, path tests included. */
int inject_decide(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
		  void *front)
{
	struct inject_state *st = ((struct run_front *)front)->data;
	st->pending_sig = 0;
	int i = rule_of(st, listener, n);
	const struct scg_inject_rule *r = i >= 0 ? st->rules[i] : NULL;
	uint64_t count = r && r->has_when ? count_call(st, (size_t)i, n) : 0;
	if (r && (!r->has_when || scg_inject_when_takes(&r->when, count)))
		inject(st, (size_t)i, listener, n, resp, count);
	else
		answer_base(st, listener, n, resp);
	return 0;
}

void inject_answered(const struct scg_notif *n, const struct scg_notif_resp *resp, int r,
		     void *front)
{
	struct inject_state *st = ((struct run_front *)front)->data;
	(void)n;
	(void)resp;
	(void)r;
	if (st->pending_sig) /* older kernels: after the answer, or the call would restart */
		syscall(SYS_tgkill, st->pending_tgid, st->pending_tid, st->pending_sig);
	st->pending_sig = 0;
}

/* False for a rule whose every syscall a later rule took over (scg_inject_rules_resolve()). */
static bool has_syscalls(const struct scg_inject_rule *r)
{
	for (size_t i = 0; i < r->nsyscalls; i++)
		if (r->abi_masks[i])
			return true;
	return false;
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
	if (inject_in_filter(r, st->count_all)) {
		fprintf(stderr, ": in the filter; the kernel answers, uncounted\n");
		return;
	}
	fprintf(stderr, ": %llu", (unsigned long long)s->injected);
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
	uint64_t total = 0;
	size_t in_filter = 0;
	for (size_t i = 0; i < st->nrules; i++) {
		total += st->stats[i].injected;
		in_filter += inject_in_filter(st->rules[i], st->count_all) &&
			     has_syscalls(st->rules[i]);
	}
	fprintf(stderr, "syscage: inject: %llu fault%s injected by the supervisor",
		(unsigned long long)total, total == 1 ? "" : "s");
	if (in_filter) /* SECCOMP_RET_ERRNO leaves no trace a supervisor could count */
		fprintf(stderr, "; the kernel injects the faults of %zu rule%s in the filter, "
			"uncounted (--count counts them)", in_filter, in_filter == 1 ? "" : "s");
	fprintf(stderr, "\n");
	for (size_t i = 0; i < st->nrules; i++)
		print_rule_summary(st, i);
}
