/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Asking the running kernel what seccomp supports, without installing anything. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>

#include "runtime/internal.h"
#include "runtime/launch_internal.h"


/* struct seccomp_notif_sizes */
struct kernel_notif_sizes {
	uint16_t seccomp_notif;
	uint16_t seccomp_notif_resp;
	uint16_t seccomp_data;
};

static const struct {
	enum scg_action action;
	uint32_t ret;
} probe_actions[] = {
	{ SCG_ACTION_KILL_PROCESS, SCG_RET_KILL_PROCESS }, { SCG_ACTION_KILL_THREAD, SCG_RET_KILL_THREAD },
	{ SCG_ACTION_TRAP, SCG_RET_TRAP },                 { SCG_ACTION_ERRNO, SCG_RET_ERRNO },
	{ SCG_ACTION_USER_NOTIF, SCG_RET_USER_NOTIF },     { SCG_ACTION_TRACE, SCG_RET_TRACE },
	{ SCG_ACTION_LOG, SCG_RET_LOG },                   { SCG_ACTION_ALLOW, SCG_RET_ALLOW },
};

/* Flags that the kernel only accepts together with others. */
static unsigned flag_probe_set(unsigned flag)
{
	if (flag == SCG_FILTER_FLAG_WAIT_KILLABLE_RECV)
		return flag | SCG_FILTER_FLAG_NEW_LISTENER;
	return flag;
}

static int probe_flags(const struct runtime_ops *ops, uint32_t *out)
{
	*out = 0;
	for (unsigned bit = 0; bit < 6; bit++) {
		unsigned flag = 1U << bit;
		/* A NULL program: a known flag set gets as far as copying it (EFAULT). */
		long r = ops->seccomp(SCG_SECCOMP_SET_MODE_FILTER, flag_probe_set(flag), NULL);
		if (r >= 0)
			return -EPROTO; /* cannot happen: nothing to install */
		if (errno == EFAULT)
			*out |= flag;
		else if (errno != EINVAL)
			return -errno;
	}
	return 0;
}

static int probe_actions_avail(const struct runtime_ops *ops, uint32_t *out)
{
	*out = 0;
	for (size_t i = 0; i < sizeof(probe_actions) / sizeof(probe_actions[0]); i++) {
		uint32_t ret = probe_actions[i].ret;
		long r = ops->seccomp(SCG_SECCOMP_GET_ACTION_AVAIL, 0, &ret);
		if (r == 0)
			*out |= 1U << probe_actions[i].action;
		else if (errno != EOPNOTSUPP)
			return -errno;
	}
	return 0;
}

int features_probe_ops(const struct runtime_ops *ops, struct scg_features *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t allow = SCG_RET_ALLOW;
	long r = ops->seccomp(SCG_SECCOMP_GET_ACTION_AVAIL, 0, &allow);
	if (r < 0 && errno == ENOSYS) {
		/* No seccomp(2): filters may still exist behind prctl (3.5 .. 3.16). */
		out->filter_mode = prctl(SCG_PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
		if (out->filter_mode)
			out->actions = (1U << SCG_ACTION_KILL_THREAD) | (1U << SCG_ACTION_TRAP) |
				       (1U << SCG_ACTION_ERRNO) | (1U << SCG_ACTION_TRACE) |
				       (1U << SCG_ACTION_ALLOW);
		return 0;
	}
	out->seccomp_syscall = true;
	out->filter_mode = true;
	if (r < 0 && errno == EINVAL) {
		/* 3.17 .. 4.13: seccomp(2) without GET_ACTION_AVAIL. */
		out->actions = (1U << SCG_ACTION_KILL_THREAD) | (1U << SCG_ACTION_TRAP) |
			       (1U << SCG_ACTION_ERRNO) | (1U << SCG_ACTION_TRACE) |
			       (1U << SCG_ACTION_ALLOW);
	} else {
		int e = probe_actions_avail(ops, &out->actions);
		if (e < 0)
			return e;
	}
	int e = probe_flags(ops, &out->flags);
	if (e < 0)
		return e;
	struct kernel_notif_sizes sizes;
	if (ops->seccomp(SCG_SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0) {
		out->notif_size = sizes.seccomp_notif;
		out->notif_resp_size = sizes.seccomp_notif_resp;
		out->data_size = sizes.seccomp_data;
	}
	return 0;
}

/* What a launcher confines a program with besides seccomp: no child needed. */
static void probe_confinement(struct scg_features *out)
{
	out->landlock_abi = landlock_abi_probe();
	out->cgroup_kill = tree_cgroup_possible();
}

int scg_features_probe_seccomp(struct scg_features *out)
{
	return features_probe_ops(&runtime_kernel_ops, out);
}

int scg_features_probe_launch(struct scg_features *out)
{
	int r = features_probe_ops(&runtime_kernel_ops, out);
	if (r == 0)
		probe_confinement(out);
	return r;
}

int scg_features_probe(struct scg_features *out)
{
	int r = features_probe_ops(&runtime_kernel_ops, out);
	if (r == 0) {
		probe_confinement(out);
		features_probe_machine(out);
	}
	return r;
}
