/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Serving notifications for run, learn and inject: received into memory the
 * watchdog shares, answered with a policy's verdict as the kernel would
 * have given it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run.h"

int run_notif_handle(int listener, const struct run_serve *s, scg_notif_decide_fn decide,
		     void *ctx)
{
	struct scg_notif *slot = s->slot;
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
	run_guard_refuses(s->guard, slot, &resp);
	r = scg_notif_respond(listener, &resp);
	if (r < 0 && r != -ENOENT)
		return r;
	return verdict > 0 ? 1 : 0;
}

pid_t run_tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	if (f)
		fclose(f);
	return tgid;
}

/* SIGKILL to the caller's process: a pidfd pins it, ID_VALID proves it is still the caller. */
static pid_t kill_caller(int listener, const struct scg_notif *n)
{
	pid_t tgid = run_tgid_of((pid_t)n->pid);
	int pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	pid_t killed = 0;
	if (scg_notif_id_valid(listener, n->id) == 0) {
		if (pidfd >= 0)
			syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		else
			kill(tgid, SIGKILL);
		killed = tgid;
	}
	if (pidfd >= 0)
		close(pidfd);
	return killed;
}

pid_t run_answer_verdict(int listener, const struct scg_notif *n, uint32_t action,
			 struct scg_notif_resp *resp)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_ERRNO: {
		uint32_t e = action & SCG_RET_DATA;
		resp->error = -(int32_t)(e > SCG_MAX_ERRNO ? SCG_MAX_ERRNO : e);
		return 0;
	}
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_LOG:
		/* Never installed as USER_NOTIF, so only an older filter of the
		 * program's own can send it here: let it run, nothing was denied. */
		resp->flags = SCG_NOTIF_FLAG_CONTINUE;
		return 0;
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_TRACE:
		resp->error = -ENOSYS; /* what the kernel answers when nobody listens */
		return 0;
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_TRAP:
	case SCG_ACTION_UNKNOWN:
		/* The call must not run and its caller must not live on, as a
		 * catchable signal would let it: SIGKILL, before the answer. */
		resp->error = -ENOSYS; /* unseen: the caller is dead */
		return kill_caller(listener, n);
	}
	resp->error = -ENOSYS;
	return 0;
}
