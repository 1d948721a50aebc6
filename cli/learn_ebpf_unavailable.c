/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn --ebpf in a build without eBPF (meson option ebpf): the
 * recording through the raw_syscalls:sys_enter tracepoint is learn_ebpf.c.
 * docs/learn.md, "Learning with eBPF".
 */
#include "common/cli.h"
#include "learn_sources.h"

int learn_ebpf(const struct learn_ebpf_request *req, struct scg_learn *rec)
{
	(void)req;
	(void)rec;
	cli_error("learn --ebpf: this syscage was built without eBPF (the build needs x86_64, "
		  "libbpf's headers (libbpf-dev), bpftool and clang: meson setup -Debpf=enabled)");
	return 125;
}
