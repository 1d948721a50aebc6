/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A policy's verdict as the answer to a notification, given as the kernel
 * would have given it: one function for every supervisor (run, learn,
 * inject, the watchdog), so that a kill verdict kills under each of them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/launch_internal.h"

pid_t tgid_of(pid_t tid)
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

pid_t scg_notif_tgid(const struct scg_notif *notif)
{
	return tgid_of((pid_t)notif->pid);
}

/* SIGKILL to the caller's process: a pidfd pins it, ID_VALID proves it is still the caller. */
static pid_t kill_caller(int listener, const struct scg_notif *n)
{
	pid_t tgid = tgid_of((pid_t)n->pid);
	int pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	pid_t killed = -ENOENT;
	if (scg_notif_id_valid(listener, n->id) == 0) {
		long r = pidfd >= 0 ? syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0)
				    : kill(tgid, SIGKILL);
		/* Without pidfds (before 5.3) the pid is still the caller's: it waits for us. */
		if (r < 0 && pidfd >= 0 && errno == ENOSYS)
			r = kill(tgid, SIGKILL);
		killed = r == 0 ? tgid : -errno;
	}
	if (pidfd >= 0)
		close(pidfd);
	return killed;
}

pid_t scg_notif_answer_verdict(int listener, const struct scg_notif *n, uint32_t action,
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
