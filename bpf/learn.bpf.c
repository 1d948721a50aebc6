/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn --ebpf, the part that runs in the kernel: every syscall of a
 * traced process, seen at the raw_syscalls:sys_enter tracepoint (after
 * seccomp, so a call a filter refuses is not seen here either).
 *
 * The processes traced are either those of the `targets` hash (keyed by
 * thread group id; children join at sched:sched_process_fork) or those in
 * the cgroup v2 (and its descendants) held in `cgroup`.  Without argument
 * values each call is counted in place, per ABI and number in the per-CPU
 * `slots` (numbers past LEARN_EBPF_SLOTS in the hash `counts`);
 * with them, each call is sent through the `events` ring buffer.  Calls
 * that found no room (a full ring buffer or counts map) are counted in
 * `lost`.  The ABI is told as seccomp tells it (arch/x86 syscall_get_arch):
 * a compat task (TS_COMPAT, int $0x80 from any process) is i386, with the
 * i386 number and the argument registers bx, cx, dx, si, di, bp; x32 calls
 * are x86_64 with bit 30 of nr.
 *
 * Built with clang -target bpf against the few kernel structures it reads,
 * declared here with CO-RE relocations: no vmlinux.h from the build machine.
 * lib/ebpf/learn.c (libsyscage-ebpf) loads it.  docs/learn.md, "Learning with eBPF".
 */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "ebpf/maps.h"

/* The uapi constants used (linux/bpf.h). */
enum {
	MAP_HASH = 1,
	MAP_ARRAY = 2,
	MAP_PERCPU_ARRAY = 6,
	MAP_CGROUP_ARRAY = 8,
	MAP_RINGBUF = 27,
	UPDATE_NOEXIST = 1,
	RB_NO_WAKEUP = 1,
	RB_FORCE_WAKEUP = 2,
	RB_AVAIL_DATA = 0,
	NO_PREALLOC = 1,
};

#define AUDIT_ARCH_X86_64 0xc000003eU
#define AUDIT_ARCH_I386 0x40000003U
#define TS_COMPAT 0x0002U /* arch/x86/include/asm/thread_info.h */
#define X32_BIT 0x40000000U
#define NR_EXECVE 59      /* x86_64 */
#define NR_EXECVEAT 322

struct bpf_raw_tracepoint_args {
	__u64 args[0];
};

/* Only the fields read; their offsets come from the running kernel's BTF. */
struct pt_regs {
	unsigned long bx, cx, dx, si, di, bp, r8, r9, r10;
} __attribute__((preserve_access_index));

struct thread_info {
	__u32 status;
} __attribute__((preserve_access_index));

struct task_struct {
	struct thread_info thread_info;
	int tgid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, MAP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct learn_ebpf_config);
} config SEC(".maps");

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, LEARN_EBPF_MAX_TARGETS);
	__uint(map_flags, NO_PREALLOC); /* grows at forks only: no 64k entries up front */
	__type(key, __u32);
	__type(value, __u8);
} targets SEC(".maps");

struct {
	__uint(type, MAP_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup SEC(".maps");

/* Calls per ABI and number below LEARN_EBPF_SLOTS, per CPU: no lock, no atomic. */
struct {
	__uint(type, MAP_PERCPU_ARRAY);
	__uint(max_entries, LEARN_EBPF_ABIS * LEARN_EBPF_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} slots SEC(".maps");

/* The other numbers (none a kernel knows; a program may still call them). */
struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, LEARN_EBPF_MAX_COUNTS);
	__type(key, struct learn_ebpf_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, MAP_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct {
	__uint(type, MAP_RINGBUF);
	__uint(max_entries, 4096 * 1024); /* the loader sets the size */
} events SEC(".maps");

static void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);
	if (n)
		*n += 1;
}

/*
 * Whether the calling task is traced.  A process entered as
 * LEARN_EBPF_AT_EXEC (the command, waiting to be let go) is traced from
 * the first call after its execve on, as the notification learner sees it.
 */
static int traced(const struct learn_ebpf_config *c, __u32 tgid, __u64 id)
{
	if (tgid == c->self_tgid)
		return 0;
	if (c->mode == LEARN_EBPF_CGROUP)
		return bpf_current_task_under_cgroup(&cgroup, 0) == 1;
	__u8 *state = bpf_map_lookup_elem(&targets, &tgid);
	if (!state)
		return 0;
	if (*state != LEARN_EBPF_AT_EXEC)
		return 1;
	if (id == NR_EXECVE || id == NR_EXECVEAT)
		*state = LEARN_EBPF_TRACED;
	return 0;
}

static int is_compat(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	if (!bpf_core_field_exists(task->thread_info.status))
		return 0;
	return (task->thread_info.status & TS_COMPAT) != 0;
}

static void count(const struct learn_ebpf_key *key)
{
	__u32 abi = key->arch == AUDIT_ARCH_I386 ? LEARN_EBPF_ABI_I386
		    : key->nr & X32_BIT		 ? LEARN_EBPF_ABI_X32
						 : LEARN_EBPF_ABI_X86_64;
	__u32 nr = key->nr & ~X32_BIT;
	if (nr < LEARN_EBPF_SLOTS) {
		__u32 slot = abi * LEARN_EBPF_SLOTS + nr;
		__u64 *n = bpf_map_lookup_elem(&slots, &slot);
		if (n) {
			*n += 1;
			return;
		}
	}
	__u64 *n = bpf_map_lookup_elem(&counts, key);
	if (n) {
		__sync_fetch_and_add(n, 1);
		return;
	}
	__u64 one = 1;
	if (bpf_map_update_elem(&counts, key, &one, UPDATE_NOEXIST) == 0)
		return;
	n = bpf_map_lookup_elem(&counts, key); /* another CPU added it first */
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		count_lost();
}

SEC("raw_tp/sys_enter")
int learn_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct learn_ebpf_config *c = bpf_map_lookup_elem(&config, &zero);
	if (!c || !traced(c, (__u32)(bpf_get_current_pid_tgid() >> 32), ctx->args[1]))
		return 0;
	int compat = is_compat();
	struct learn_ebpf_key key = {
		.arch = compat ? AUDIT_ARCH_I386 : AUDIT_ARCH_X86_64,
		.nr = (__u32)ctx->args[1],
	};
	if (!c->with_args) {
		count(&key);
		return 0;
	}
	struct learn_ebpf_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count_lost();
		return 0;
	}
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	e->arch = key.arch;
	e->nr = key.nr;
	if (compat) {
		e->args[0] = BPF_CORE_READ(regs, bx);
		e->args[1] = BPF_CORE_READ(regs, cx);
		e->args[2] = BPF_CORE_READ(regs, dx);
		e->args[3] = BPF_CORE_READ(regs, si);
		e->args[4] = BPF_CORE_READ(regs, di);
		e->args[5] = BPF_CORE_READ(regs, bp);
	} else {
		e->args[0] = BPF_CORE_READ(regs, di);
		e->args[1] = BPF_CORE_READ(regs, si);
		e->args[2] = BPF_CORE_READ(regs, dx);
		e->args[3] = BPF_CORE_READ(regs, r10);
		e->args[4] = BPF_CORE_READ(regs, r8);
		e->args[5] = BPF_CORE_READ(regs, r9);
	}
	/* Wake the reader only once a good part of the buffer is filled: it
	 * also reads on a timer, and a wakeup per call would cost more than
	 * the call. */
	__u64 avail = bpf_ringbuf_query(&events, RB_AVAIL_DATA);
	bpf_ringbuf_submit(e, avail >= c->wakeup_bytes ? RB_FORCE_WAKEUP : RB_NO_WAKEUP);
	return 0;
}

/* A child of a traced process is traced from its first instruction on. */
SEC("raw_tp/sched_process_fork")
int learn_fork(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct learn_ebpf_config *c = bpf_map_lookup_elem(&config, &zero);
	if (!c || c->mode != LEARN_EBPF_PIDS)
		return 0;
	struct task_struct *parent = (struct task_struct *)ctx->args[0];
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	__u32 ptgid = (__u32)BPF_CORE_READ(parent, tgid);
	if (!bpf_map_lookup_elem(&targets, &ptgid))
		return 0;
	__u32 tgid = (__u32)BPF_CORE_READ(child, tgid);
	__u8 state = LEARN_EBPF_TRACED;
	if (bpf_map_update_elem(&targets, &tgid, &state, 0) != 0)
		count_lost(); /* the child's calls will be missing */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
