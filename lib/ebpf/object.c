/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The BPF object of the eBPF learner as bytes in libsyscage-ebpf: the
 * skeleton bpftool generates from bpf/learn.bpf.c embeds it; learn.c opens
 * it with libbpf.  Only the skeleton's bytes are used, none of its calls
 * into libbpf, which is loaded with dlopen() (libbpf_api.h).
 */
#include "ebpf/maps.h"
#include <learn.skel.h> /* written by the build (bpf/meson.build), so not quoted */

const void *learn_ebpf_object(size_t *size)
{
	return learn_bpf__elf_bytes(size);
}
