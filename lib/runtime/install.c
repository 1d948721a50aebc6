/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Installing filters and entering strict mode: seccomp(2) with every flag,
 * prctl(PR_SET_SECCOMP) where the syscall does not exist.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/internal.h"

/* struct sock_fprog: the kernel reads exactly this layout. */
struct kernel_fprog {
	unsigned short len;
	const struct scg_insn *filter;
};

static long kernel_seccomp(unsigned op, unsigned flags, void *args)
{
#ifdef SYS_seccomp
	return syscall(SYS_seccomp, op, flags, args);
#else
	(void)op, (void)flags, (void)args;
	errno = ENOSYS;
	return -1;
#endif
}

static long kernel_prctl_seccomp(unsigned long mode, void *args)
{
	return prctl(SCG_PR_SET_SECCOMP, mode, args, 0UL, 0UL);
}

const struct runtime_ops runtime_kernel_ops = {
	.seccomp = kernel_seccomp,
	.prctl_seccomp = kernel_prctl_seccomp,
};

int filter_install_ops(const struct runtime_ops *ops, const struct scg_prog *prog,
			   unsigned flags, struct scg_install_result *res)
{
	if (res) {
		res->listener = -1;
		res->tsync_tid = 0;
	}
	if (!prog || prog->len == 0 || prog->len > 4096 || (flags & ~SCG_FILTER_FLAGS_ALL))
		return -EINVAL;
	if ((flags & SCG_FILTER_FLAG_NEW_LISTENER) && !res)
		return -EINVAL;
	struct kernel_fprog fprog = { .len = (unsigned short)prog->len, .filter = prog->insns };
	long r = ops->seccomp(SCG_SECCOMP_SET_MODE_FILTER, flags, &fprog);
	if (r < 0 && errno == ENOSYS) {
		/* Kernels before 3.17 have filters but not the syscall; flags need the syscall. */
		if (flags)
			return -ENOSYS;
		r = ops->prctl_seccomp(SCG_MODE_FILTER, &fprog);
	}
	if (r < 0)
		return -errno;
	if (r > 0 && (flags & SCG_FILTER_FLAG_TSYNC) && !(flags & SCG_FILTER_FLAG_NEW_LISTENER)) {
		/* TSYNC reports the thread that could not be synchronised as a positive id:
		 * nothing was installed. */
		if (res)
			res->tsync_tid = (pid_t)r;
		return -ESRCH;
	}
	if (flags & SCG_FILTER_FLAG_NEW_LISTENER)
		res->listener = (int)r;
	return 0;
}

int scg_filter_install(const struct scg_prog *prog, unsigned flags, struct scg_install_result *res)
{
	return filter_install_ops(&runtime_kernel_ops, prog, flags, res);
}

int strict_enter_ops(const struct runtime_ops *ops)
{
	long r = ops->seccomp(SCG_SECCOMP_SET_MODE_STRICT, 0, NULL);
	if (r < 0 && errno == ENOSYS)
		r = ops->prctl_seccomp(SCG_MODE_STRICT, NULL);
	return r < 0 ? -errno : 0;
}

int scg_strict_enter(void)
{
	return strict_enter_ops(&runtime_kernel_ops);
}
