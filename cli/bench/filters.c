/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The programs syscage bench measures, and what the kernel will do with them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Classic BPF opcodes: kernel ABI since the first seccomp filters, in every kernel's headers. */
#include <linux/filter.h>

#include "bench.h"

/* Offsets in struct seccomp_data. */
#define OFF_NR 0U
#define OFF_ARCH 4U

static struct scg_insn stmt(uint16_t code, uint32_t k)
{
	return (struct scg_insn){ .code = code, .k = k };
}

static struct scg_insn jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
	return (struct scg_insn){ .code = code, .jt = jt, .jf = jf, .k = k };
}

static int prog_alloc(struct scg_prog *out, size_t len)
{
	out->insns = calloc(len, sizeof(*out->insns));
	out->len = out->insns ? len : 0;
	return out->insns ? 0 : -ENOMEM;
}

int bench_deny_open(const struct scg_arch *arch, struct scg_prog *out)
{
	uint32_t open_nr;
	if (scg_syscall_lookup(arch, "open", &open_nr) < 0 &&
	    scg_syscall_lookup(arch, "openat", &open_nr) < 0)
		return -ENOSYS;
	if (prog_alloc(out, 6) < 0)
		return -ENOMEM;
	uint16_t ld = BPF_LD | BPF_W | BPF_ABS, jeq = BPF_JMP | BPF_JEQ | BPF_K;
	out->insns[0] = stmt(ld, OFF_ARCH);
	out->insns[1] = jump(jeq, scg_arch_audit(arch), 0, 2); /* other ABIs: ERRNO */
	out->insns[2] = stmt(ld, OFF_NR);
	out->insns[3] = jump(jeq, open_nr, 0, 1);
	out->insns[4] = stmt(BPF_RET | BPF_K, SCG_RET_ERRNO | EPERM);
	out->insns[5] = stmt(BPF_RET | BPF_K, SCG_RET_ALLOW);
	return 0;
}

/* True when @insn sets A without reading it, so what A held before does not matter. */
static bool overwrites_a(const struct scg_insn *insn)
{
	return BPF_CLASS(insn->code) == BPF_LD || BPF_CLASS(insn->code) == BPF_RET;
}

int bench_uncacheable(const struct scg_arch *arch, const struct scg_prog *prog,
		      struct scg_prog *out)
{
	/* The kernel's cache analysis stops at any load but nr and arch.  When the
	 * program's first instruction reads A, A is put back to its initial 0. */
	size_t extra = prog->len && overwrites_a(&prog->insns[0]) ? 1 : 2;
	if (prog->len + extra > SCG_BPF_MAXINSNS)
		return -E2BIG;
	if (prog_alloc(out, prog->len + extra) < 0)
		return -ENOMEM;
	out->insns[0] = stmt(BPF_LD | BPF_W | BPF_ABS, scg_arch_ip_offset(arch, false));
	if (extra == 2)
		out->insns[1] = stmt(BPF_LD | BPF_IMM, 0);
	/* Jumps are relative, so the shifted program keeps its meaning. */
	memcpy(out->insns + extra, prog->insns, prog->len * sizeof(*prog->insns));
	return 0;
}

int bench_long_filter(const struct scg_arch *arch, size_t len, struct scg_prog *out)
{
	if (len < 4 || len > SCG_BPF_MAXINSNS)
		return -EINVAL;
	if (prog_alloc(out, len) < 0)
		return -ENOMEM;
	out->insns[0] = stmt(BPF_LD | BPF_W | BPF_ABS, scg_arch_ip_offset(arch, false));
	out->insns[1] = stmt(BPF_LD | BPF_W | BPF_ABS, OFF_NR);
	/* A linear rule chain, each test false: jt points past the next test, so
	 * nothing can fold the comparisons away. */
	for (size_t i = 2; i + 1 < len; i++) {
		uint8_t jt = i + 2 < len ? 1 : 0;
		out->insns[i] = jump(BPF_JMP | BPF_JEQ | BPF_K, 0x7fff0000U + (uint32_t)i, jt, 0);
	}
	out->insns[len - 1] = stmt(BPF_RET | BPF_K, SCG_RET_ALLOW);
	return 0;
}

bool bench_cached(const struct scg_arch *arch, const struct scg_prog *progs, size_t n,
		  uint32_t nr)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!scg_cache_const_allow(&progs[i], scg_arch_audit(arch), nr))
			return false;
	return true;
}

size_t bench_executed(const struct scg_arch *arch, const struct scg_prog *progs, size_t n,
		      const struct bench_call *call)
{
	if (!n)
		return 0;
	struct scg_seccomp_data d = { .nr = call->nr, .arch = scg_arch_audit(arch) };
	memcpy(d.args, call->args, sizeof(d.args));
	struct scg_emu_result res;
	if (scg_emu_stack(progs, n, &d, &res, NULL, NULL, NULL) < 0)
		return 0;
	return res.executed_total;
}
