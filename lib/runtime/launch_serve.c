/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Serving the filter's notifications, per launch mode: REPORT (the policy's
 * verdict, the denial reported), RECORD (every call let run and reported
 * once it ran) and SERVE (the caller decides).  Every notification is
 * received into memory the watchdog shares, and every answer that lets a
 * call run passes the guard first.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <syscage/decode.h>

#include "runtime/launch_internal.h"

int serve_handle(struct supervisor *sv, int listener, scg_notif_decide_fn decide, void *ctx)
{
	struct scg_notif *slot = sv->slot;
	int r = scg_notif_receive(listener, slot);
	if (r == -ENOENT)
		return 0; /* the target was killed before we got to it */
	if (r < 0)
		return r;
	struct scg_notif_resp resp = { .id = slot->id };
	int verdict = decide(listener, slot, &resp, ctx);
	if (verdict < 0)
		return verdict;
	resp.id = slot->id;
	guard_refuses(sv->guard, slot, &resp);
	r = scg_notif_respond(listener, &resp);
	if (sv->l->o.mode == SCG_LAUNCH_SERVE && sv->l->o.on_answered)
		sv->l->o.on_answered(slot, &resp, r, sv->l->o.ctx);
	if (r < 0 && r != -ENOENT)
		return r;
	return verdict > 0 ? 1 : 0;
}

/* --- the program's memory for the decoder, through the listener ----------- */

struct notif_memory {
	int listener;
	const struct scg_notif *notif;
	int mem_fd; /* -1: not opened yet; -2: unavailable */
};

static int notif_mem_fd(struct notif_memory *m)
{
	if (m->mem_fd == -1) {
		int fd = scg_notif_mem_open(m->listener, m->notif);
		m->mem_fd = fd < 0 ? -2 : fd;
	}
	return m->mem_fd;
}

static ssize_t notif_mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct notif_memory *m = ctx;
	int fd = notif_mem_fd(m);
	return fd < 0 ? -EBADF : scg_notif_read(m->listener, m->notif, fd, addr, buf, len);
}

static ssize_t notif_mem_read_string(void *ctx, uint64_t addr, char *buf, size_t size)
{
	struct notif_memory *m = ctx;
	int fd = notif_mem_fd(m);
	return fd < 0 ? -EBADF : scg_notif_read_string(m->listener, m->notif, fd, addr, buf, size);
}

bool scg_notif_format_call(int listener, const struct scg_notif *notif, char *buf, size_t size)
{
	const struct scg_arch *arch = scg_arch_from_audit(notif->data.arch, notif->data.nr);
	struct notif_memory m = { .listener = listener, .notif = notif, .mem_fd = -1 };
	const struct scg_call_memory mem = { notif_mem_read, notif_mem_read_string, &m };
	unsigned flags = 0;
	scg_call_format(arch, notif->data.nr, notif->data.args, &mem, buf, size, &flags);
	if (m.mem_fd >= 0)
		close(m.mem_fd);
	return flags & SCG_CALL_READ_MEMORY;
}

/* --- REPORT ------------------------------------------------------------------ */

/* Notes in the result that a KILL verdict ended process @killed, for syscall @name. */
static void note_kill(struct supervisor *sv, pid_t killed, const char *name)
{
	struct scg_launch_result *res = sv->res;
	if (killed <= 0)
		return;
	if (killed == res->pid) {
		res->killed_by_verdict = true;
		snprintf(res->killed_call, sizeof(res->killed_call), "%s", name ? name : "?");
	} else if (sv->l->o.wait_descendants && res->killed_others++ == 0) {
		res->killed_other_pid = killed;
		snprintf(res->killed_other_call, sizeof(res->killed_other_call), "%s",
			 name ? name : "?");
	}
}

/*
 * A filter of the program's own, which the policy lets it install: told,
 * then let in or refused with EPERM as the options say.  The filter itself
 * is not judged: the program could change it between a look and the
 * kernel's copy.
 */
static void answer_own_filter(struct supervisor *sv, const struct scg_notif *n,
			      struct scg_notif_resp *resp)
{
	const struct scg_launch_options *o = &sv->l->o;
	/* A NULL program (how libseccomp and syscage probe for a flag: EFAULT)
	 * is told too: root can map page 0, and then it is a filter. */
	bool refuse = launch_refuses_own_filters(sv->l);
	if (o->on_own_filter)
		o->on_own_filter((pid_t)n->pid, &n->data, refuse, o->ctx);
	if (refuse)
		resp->error = -EPERM;
	else
		resp->flags = SCG_NOTIF_FLAG_CONTINUE;
}

static bool lets_run(enum scg_action a)
{
	return a == SCG_ACTION_ALLOW || a == SCG_ACTION_LOG;
}

static int decide_report(int listener, const struct scg_notif *n, struct scg_notif_resp *resp,
			 void *ctx)
{
	struct supervisor *sv = ctx;
	struct launch *l = sv->l;
	/* The verdict comes from the call's number and argument values, which the
	 * kernel took as the call was made; memory the report reads later (paths)
	 * never enters it. */
	const struct scg_policy *policy = launch_policy(l);
	struct scg_verdict v;
	launch_policy_eval(policy, &n->data, &v);
	enum scg_action a = scg_action_of(v.action);
	const struct scg_arch *arch = scg_arch_from_audit(n->data.arch, n->data.nr);
	const char *name = arch ? scg_syscall_name(arch, n->data.nr) : NULL;
	if (lets_run(a) && guard_watches(sv->guard, n)) {
		answer_own_filter(sv, n, resp);
		return 0;
	}
	/* A process that made a call its policy kills dies, also when another
	 * thread's execve ends the waiting thread while the report is written:
	 * its process is pinned now, before the report. */
	struct verdict_pin pin;
	bool pinned = l->how != INSTALL_COMPLAIN && verdict_kills(v.action) &&
		      verdict_pin(listener, n, &pin) == 0;
	if (!lets_run(a) && l->o.on_denial) {
		char call[768];
		struct scg_launch_denial d = {
			.tid = (pid_t)n->pid, .data = &n->data, .name = name, .action = v.action,
			.verdict = &v, .policy = policy, .call = call,
		};
		d.read_after_call = scg_notif_format_call(listener, n, call, sizeof(call));
		l->o.on_denial(&d, l->o.ctx);
	}
	if (l->how == INSTALL_COMPLAIN) {
		resp->flags = SCG_NOTIF_FLAG_CONTINUE; /* told, not carried out */
	} else if (pinned) {
		resp->error = -ENOSYS; /* unseen: the caller is dead */
		note_kill(sv, verdict_kill_pinned(&pin), name);
	} else {
		note_kill(sv, scg_notif_answer_verdict(listener, n, v.action, resp), name);
	}
	return 0;
}

/* --- RECORD ------------------------------------------------------------------ */

/*
 * Answers one notification CONTINUE, or with the guard's errno for a call
 * the guard refuses, and reports it once the kernel took the answer:
 * refused or not, the program made the call.
 */
static int record_one(struct supervisor *sv, int listener)
{
	struct scg_notif *slot = sv->slot;
	int r = scg_notif_receive(listener, slot);
	if (r == -ENOENT)
		return 0; /* the caller went away first; a restarted call comes again */
	if (r < 0)
		return r;
	struct scg_notif_resp resp = { .id = slot->id, .flags = SCG_NOTIF_FLAG_CONTINUE };
	guard_refuses(sv->guard, slot, &resp);
	r = scg_notif_respond(listener, &resp);
	if (r == -ENOENT)
		return 0; /* interrupted before it ran: not a call (yet) */
	if (r < 0)
		return r;
	if (sv->l->o.on_call)
		sv->l->o.on_call((pid_t)slot->pid, &slot->data, sv->l->o.ctx);
	return 0;
}

/*
 * The notifications waiting now, a bounded batch at a time: a busy program
 * keeps the queue full, and checking it alone is cheaper than the
 * launcher's full round (child status, signals, listener) after each call.
 */
static int record(struct supervisor *sv, int listener)
{
	struct pollfd pfd = { .fd = listener, .events = POLLIN };
	for (int batch = 0; batch < 256; batch++) {
		int r = record_one(sv, listener);
		if (r < 0)
			return r;
		if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLIN))
			break;
	}
	return 0;
}

int serve_one(struct supervisor *sv, int listener)
{
	const struct scg_launch_options *o = &sv->l->o;
	switch (o->mode) {
	case SCG_LAUNCH_RECORD:
		return record(sv, listener);
	case SCG_LAUNCH_SERVE: {
		int r = serve_handle(sv, listener, o->on_notif, o->ctx);
		return r < 0 && r != -EINTR ? r : 0;
	}
	case SCG_LAUNCH_REPORT:
	case SCG_LAUNCH_UNSUPERVISED:
		break;
	}
	return serve_handle(sv, listener, decide_report, sv);
}
