/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What bpf/learn.bpf.c and its loader, lib/ebpf/learn.c, share: the layout
 * of its maps' keys and values.  Fixed-size types only; both sides are
 * little-endian x86_64.
 */
#ifndef SCG_LIB_EBPF_MAPS_H
#define SCG_LIB_EBPF_MAPS_H

#ifndef __bpf__
#include <stddef.h>

#include <linux/types.h>

/* The BPF object (ELF) built from bpf/learn.bpf.c, embedded by object.c; @size set. */
const void *learn_ebpf_object(size_t *size);
#endif

enum {
	LEARN_EBPF_PIDS = 1,   /* the thread groups in `targets`, and their children */
	LEARN_EBPF_CGROUP = 2, /* the tasks in the cgroup in `cgroup`, or below it */
	LEARN_EBPF_MAX_TARGETS = 65536,
	LEARN_EBPF_MAX_COUNTS = 8192,
};

/* `targets`: thread group id -> one of these. */
enum {
	LEARN_EBPF_TRACED = 1,
	LEARN_EBPF_AT_EXEC = 2, /* traced from the first call after its next execve */
};

/* `config`, key 0: what to trace. */
struct learn_ebpf_config {
	__u32 mode;
	__u32 self_tgid;    /* the loader: never traced */
	__u32 with_args;    /* send each call through `events` rather than count it */
	__u32 pad;
	__u64 wakeup_bytes; /* wake the reader when this much is waiting */
};

/* `slots`: calls per ABI and number, at abi * LEARN_EBPF_SLOTS + nr (without x32's bit). */
enum {
	LEARN_EBPF_ABI_X86_64 = 0,
	LEARN_EBPF_ABI_I386 = 1,
	LEARN_EBPF_ABI_X32 = 2,
	LEARN_EBPF_ABIS = 3,
	LEARN_EBPF_SLOTS = 1024,
};

/* `counts`: calls per (AUDIT_ARCH, nr) of the numbers past LEARN_EBPF_SLOTS. */
struct learn_ebpf_key {
	__u32 arch, nr;
};

/* One call in `events`. */
struct learn_ebpf_event {
	__u32 arch, nr;
	__u64 args[6];
};

#endif
