/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runtime internals: the kernel entry points, replaceable so tests can simulate old kernels. */
#ifndef SCG_RUNTIME_INTERNAL_H
#define SCG_RUNTIME_INTERNAL_H

#include <syscage/runtime.h>

#include "arch/kernel_abi.h"

/* The two ways into the kernel: each returns what the raw syscall does (-1 and errno on error). */
struct runtime_ops {
	long (*seccomp)(unsigned op, unsigned flags, void *args);
	long (*prctl_seccomp)(unsigned long mode, void *args);
};

/* The real kernel. */
extern const struct runtime_ops runtime_kernel_ops;

int filter_install_ops(const struct runtime_ops *ops, const struct scg_prog *prog,
			   unsigned flags, struct scg_install_result *res);
int strict_enter_ops(const struct runtime_ops *ops);
int features_probe_ops(const struct runtime_ops *ops, struct scg_features *out);
/* The fields about the machine (compat ABIs, reading filters back): children, never @ops. */
void features_probe_machine(struct scg_features *out);

#endif
