/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_ebpf_learn() in a build without eBPF (meson option ebpf): -ENOTSUP,
 * so callers need no conditionals and word the rebuild themselves.
 */
#include <errno.h>
#include <string.h>

#include <syscage/ebpf.h>

int scg_ebpf_learn(const struct scg_ebpf_learn_opts *opts, struct scg_learn *rec,
		   struct scg_ebpf_learn_result *res)
{
	(void)opts;
	(void)rec;
	if (res)
		memset(res, 0, sizeof(*res));
	return -ENOTSUP;
}
