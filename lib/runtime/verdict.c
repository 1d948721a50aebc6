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

/* The thread group of @tid, or -1 when /proc no longer shows the thread. */
static pid_t tgid_read(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	if (f)
		fclose(f);
	return tgid;
}

pid_t tgid_of(pid_t tid)
{
	pid_t tgid = tgid_read(tid);
	return tgid > 0 ? tgid : tid;
}

pid_t scg_notif_tgid(const struct scg_notif *notif)
{
	return tgid_of((pid_t)notif->pid);
}

int verdict_pin(int listener, const struct scg_notif *n, struct verdict_pin *pin)
{
	pid_t tid = (pid_t)n->pid, tgid = tgid_of(tid);
	int pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	int e = errno;
	/* Opened first, then proven: while the call waits, or while /proc shows
	 * the thread in that group, the pid has not been reused, so the pidfd
	 * is the caller's process.  Without pidfds (before 5.3) the pid is
	 * still the caller's while its call waits for us. */
	bool caller = scg_notif_id_valid(listener, n->id) == 0;
	if (!caller && pidfd >= 0)
		caller = tgid_read(tid) == tgid;
	if (!caller || (pidfd < 0 && e != ENOSYS)) {
		if (pidfd >= 0)
			close(pidfd);
		return -ENOENT;
	}
	*pin = (struct verdict_pin){.pidfd = pidfd, .tgid = tgid};
	return 0;
}

pid_t verdict_kill_pinned(struct verdict_pin *pin)
{
	long r = pin->pidfd >= 0 ? syscall(SYS_pidfd_send_signal, pin->pidfd, SIGKILL, NULL, 0)
				 : kill(pin->tgid, SIGKILL);
	if (r < 0 && pin->pidfd >= 0 && errno == ENOSYS)
		r = kill(pin->tgid, SIGKILL);
	pid_t killed = r == 0 ? pin->tgid : -errno;
	if (pin->pidfd >= 0)
		close(pin->pidfd);
	pin->pidfd = -1;
	return killed;
}

/*
 * SIGKILL to the caller's process, pinned by a pidfd.  Also when the
 * waiting thread is gone by now but its process lives on (another thread's
 * execve ended it): the process made a call its policy kills.
 */
static pid_t kill_caller(int listener, const struct scg_notif *n)
{
	struct verdict_pin pin;
	int r = verdict_pin(listener, n, &pin);
	return r < 0 ? r : verdict_kill_pinned(&pin);
}

bool verdict_kills(uint32_t action)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_TRAP:
	case SCG_ACTION_UNKNOWN:
		return true;
	case SCG_ACTION_ERRNO:
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_LOG:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_TRACE:
		return false;
	}
	return true;
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
