/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The BPF object of learn --ebpf as bytes in the command: the skeleton
 * bpftool generates from bpf/learn.bpf.c embeds it.  cli/learn_ebpf.c opens
 * it with libbpf.
 */
#include "learn.skel.h"
#include "learn_ebpf_maps.h"

const void *learn_ebpf_object(size_t *size)
{
	return learn_bpf__elf_bytes(size);
}
