/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn --ebpf: the recording through the raw_syscalls:sys_enter
 * tracepoint.  docs/learn.md, "Learning with eBPF".
 */
#include "cli.h"
#include "learn_sources.h"

int learn_ebpf(const struct learn_ebpf_request *req, struct scg_learn *rec)
{
	(void)req;
	(void)rec;
	cli_error("learn --ebpf: this syscage was built without eBPF (the build needs libbpf's "
		  "headers, libbpf-dev, and clang's BPF target: meson setup -Debpf=enabled)");
	return 125;
}
