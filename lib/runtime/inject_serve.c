/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inject's supervisor: decides each notified call (scg_inject_server_*()).
 *
 * Each (syscall, ABI) belongs to one rule at most, the last that names it,
 * as under strace (scg_inject_rules_resolve()).  Like strace, a rule's
 * when= counts per syscall and per thread (strace counts per tracee, and
 * every thread is a tracee); a call counts for a rule when it is in the
 * rule's set and meets its if= condition, path tests included.  A call no
 * rule takes gets the base policy's verdict.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <syscage/launch.h>

#include "runtime/inject_paths.h"
#include "util/grow.h"
#include "util/hashmap.h"
#include "util/opts.h"

enum { CALL_TEXT = 512 };

/* One counter: how many calls of syscall @nr thread @tid made that rule @rule saw. */
struct counter {
	uint32_t tid, rule, nr, arch;
	uint64_t count;
};

struct scg_inject_server {
	struct scg_inject_rule *const *rules;
	size_t nrules;
	const struct scg_policy *base;
	struct scg_inject_server_opts o;
	struct counter *counters;
	size_t cap, used;
	struct hashmap index; /* counter_hash() -> counter */
	char ***resolved;    /* per rule: its paths resolved (inject_paths.c) */
	bool signal_first;   /* the kernel holds signals once a call is received */
	pid_t pending_tgid;  /* a signal to send after answering (older kernels) */
	pid_t pending_tid;
	int pending_sig;
};

SCG_API void scg_inject_server_free(struct scg_inject_server *srv)
{
	if (!srv)
		return;
	for (size_t i = 0; srv->resolved && i < srv->nrules; i++)
		inject_free_paths(srv->resolved[i], srv->rules[i]->npaths);
	free(srv->resolved);
	free(srv->counters);
	hashmap_release(&srv->index);
	free(srv);
}

SCG_API int scg_inject_server_new(struct scg_inject_rule *const *rules, size_t nrules,
				  const struct scg_policy *base,
				  const struct scg_inject_server_opts *opts,
				  struct scg_inject_server **out)
{
	if (!out || !base || (nrules && !rules))
		return -EINVAL;
	*out = NULL;
	struct scg_inject_server *srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	if (opts_load(&srv->o, sizeof(srv->o), opts, OPTS_END(struct scg_inject_server_opts, ctx)) <
	    0) {
		free(srv);
		return -EINVAL;
	}
	srv->rules = rules;
	srv->nrules = nrules;
	srv->base = base;
	srv->resolved = calloc(nrules ? nrules : 1, sizeof(*srv->resolved));
	bool failed = !srv->resolved;
	for (size_t i = 0; i < nrules && !failed; i++)
		failed = rules[i]->npaths && !(srv->resolved[i] = inject_resolve_paths(rules[i]));
	if (failed) {
		scg_inject_server_free(srv);
		return -ENOMEM;
	}
	/* With WAIT_KILLABLE_RECV (5.19), which the launcher asks for whenever it can, a
	 * signal sent before the answer waits until the call returns. */
	struct scg_features f;
	const struct scg_features *features = srv->o.features;
	if (!features && scg_features_probe_seccomp(&f) == 0)
		features = &f;
	srv->signal_first = features && (features->flags & SCG_FILTER_FLAG_WAIT_KILLABLE_RECV);
	*out = srv;
	return 0;
}

static uint64_t counter_hash(const struct counter *k)
{
	return hash_combine(hash_combine(hash_u64((uint64_t)k->tid << 32 | k->rule), k->nr), k->arch);
}

/* Counts one more call for @rule; returns its number (from 1), or 0 when out of memory. */
static uint64_t count_call(struct scg_inject_server *srv, size_t rule, const struct scg_notif *n)
{
	struct counter key = { n->pid, (uint32_t)rule, n->data.nr, n->data.arch, 0 };
	uint64_t hash = counter_hash(&key), i;
	for (size_t pos = HASHMAP_START; hashmap_next(&srv->index, hash, &pos, &i);) {
		struct counter *c = &srv->counters[i];
		if (c->tid == key.tid && c->rule == key.rule && c->nr == key.nr && c->arch == key.arch)
			return ++c->count;
	}
	if (GROW_ARRAY(&srv->counters, &srv->cap, srv->used + 1, 256) ||
	    hashmap_add(&srv->index, hash, srv->used) < 0)
		return 0;
	key.count = 1;
	srv->counters[srv->used++] = key;
	return 1;
}

static void send_signal(int listener, const struct scg_notif *n, pid_t tgid, int sig)
{
	/* The caller still waits for our answer, so its thread id cannot have been reused
	 * if the notification is still valid after we looked the thread group up. */
	if (scg_notif_id_valid(listener, n->id) == 0)
		syscall(SYS_tgkill, tgid, (pid_t)n->pid, sig);
}

/*
 * The base policy's verdict for a call no rule took.  A kill or trap of
 * the base policy is normally the kernel's, ahead of every rule; should
 * one come here all the same, scg_notif_answer_verdict() kills the caller
 * before the answer, as under run.
 */
static void answer_base(struct scg_inject_server *srv, int listener, const struct scg_notif *n,
			struct scg_notif_resp *resp)
{
	struct scg_verdict v;
	scg_policy_eval(srv->base, &n->data, &v);
	scg_notif_answer_verdict(listener, n, v.action, resp);
}

/* Tells on_injected: the call decoded before the answer, while the caller still waits. */
static void report(const struct scg_inject_server *srv, size_t rule, int listener,
		   const struct scg_notif *n, pid_t tgid, uint64_t count)
{
	if (!srv->o.on_injected)
		return;
	const struct scg_arch *arch = scg_arch_from_audit(n->data.arch, n->data.nr);
	char call[CALL_TEXT];
	scg_notif_format_call(listener, n, call, sizeof(call));
	struct scg_inject_fault fault = {
		.rule = rule,
		.notif = n,
		.tgid = tgid,
		.name = arch ? scg_syscall_name(arch, n->data.nr) : NULL,
		.count = count,
		.call = call,
	};
	srv->o.on_injected(&fault, srv->o.ctx);
}

/* Applies rule @i to the call: the report, the delays, the answer, the signal. */
static void inject(struct scg_inject_server *srv, size_t i, int listener,
		   const struct scg_notif *n, struct scg_notif_resp *resp, uint64_t count)
{
	const struct scg_inject_rule *r = srv->rules[i];
	pid_t tgid = scg_notif_tgid(n);
	report(srv, i, listener, n, tgid, count);
	/* Both delays come before the answer: seccomp gives no moment after a call
	 * that runs, and a call answered with error= or retval= never runs, so
	 * for it the answer is its exit (lib/inject/rule.c refuses the other case). */
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
	if (r->signal && srv->signal_first) {
		send_signal(listener, n, tgid, r->signal);
	} else if (r->signal) {
		srv->pending_tgid = tgid;
		srv->pending_tid = (pid_t)n->pid;
		srv->pending_sig = r->signal;
	}
}

/* The rule whose set has the call (one at most: scg_inject_rules_resolve()) and whose if= holds. */
static int rule_of(const struct scg_inject_server *srv, int listener, const struct scg_notif *n)
{
	for (size_t i = 0; i < srv->nrules; i++) {
		const struct scg_inject_rule *r = srv->rules[i];
		struct scg_verdict v;
		scg_policy_eval(r->match, &n->data, &v);
		if (v.source != SCG_VERDICT_RULE)
			continue;
		if (r->npaths && !inject_call_names_path(listener, n, r, srv->resolved[i]))
			continue;
		return (int)i;
	}
	return -1;
}

SCG_API int scg_inject_server_decide(struct scg_inject_server *srv, int listener,
				     const struct scg_notif *n, struct scg_notif_resp *resp)
{
	srv->pending_sig = 0;
	int i = rule_of(srv, listener, n);
	const struct scg_inject_rule *r = i >= 0 ? srv->rules[i] : NULL;
	uint64_t count = r && r->has_when ? count_call(srv, (size_t)i, n) : 0;
	if (r && (!r->has_when || scg_inject_when_takes(&r->when, count)))
		inject(srv, (size_t)i, listener, n, resp, count);
	else
		answer_base(srv, listener, n, resp);
	return 0;
}

/* Whether @sig is still pending for the thread (its own or its process's set): read from
 * the SigPnd and ShdPnd lines of its status.  False when it cannot be told. */
static bool signal_pending(pid_t tgid, pid_t tid, int sig)
{
	char path[64], line[128];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)tgid, (int)tid);
	FILE *f = fopen(path, "re");
	bool pending = false;
	while (f && !pending && fgets(line, sizeof(line), f)) {
		unsigned long long mask;
		if (sscanf(line, "SigPnd: %llx", &mask) == 1 || sscanf(line, "ShdPnd: %llx", &mask) == 1)
			pending = sig >= 1 && sig <= 64 && (mask >> (sig - 1) & 1);
	}
	if (f)
		fclose(f);
	return pending;
}

SCG_API void scg_inject_server_answered(struct scg_inject_server *srv)
{
	if (!srv->pending_sig) /* older kernels: after the answer, or the call would restart */
		return;
	/* Two standard signals of one number pending at once are one signal.  The previous
	 * injection's may not have reached the program yet (its call was interrupted by it
	 * and is on its way out): wait for it, a second at most, so that each is delivered. */
	for (int i = 0; i < 1000 && signal_pending(srv->pending_tgid, srv->pending_tid, srv->pending_sig);
	     i++) {
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	syscall(SYS_tgkill, srv->pending_tgid, srv->pending_tid, srv->pending_sig);
	srv->pending_sig = 0;
}
