/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulator's stack: every filter of a task's chain run on the same
 * data, newest first, and the results combined the way the kernel's
 * seccomp_run_filters() and __seccomp_filter() do.
 */
#include <errno.h>
#include <stdio.h>

#include <syscage/arch.h>
#include <syscage/emu.h>

#include "bpf/emu_internal.h"

/* x86_64 syscalls the kernel lets through without running any filter. */
#define X86_64_AUDIT_ARCH 0xc000003eU
#define X86_64_NR_URETPROBE 335U
#define X86_64_NR_UPROBE 336U

/* The kernel's ranking key: the action half as a signed number, smaller is stronger. */
static inline int32_t rank(uint32_t ret)
{
	return (int32_t)(ret & SCG_RET_ACTION_FULL);
}

/*
 * uretprobe and uprobe are entered from kernel-made trampolines and must work
 * under any filter, so only the native x86_64 ABI's numbers (no x32 bit, not
 * the i386 numbers) are exempt.
 */
static bool never_filtered(const struct scg_seccomp_data *data)
{
	return data->arch == X86_64_AUDIT_ARCH &&
	       (data->nr == X86_64_NR_URETPROBE || data->nr == X86_64_NR_UPROBE);
}

/* Fills the action fields of @res from the winning value @ret. */
static void classify(uint32_t ret, struct scg_emu_result *res)
{
	res->ret = ret;
	res->action = scg_action_of(ret);
	res->unknown_action = res->action == SCG_ACTION_UNKNOWN;
	res->data = 0;
	switch (res->action) {
	case SCG_ACTION_UNKNOWN:
		/* unknown values are ranked by value, then kill the whole process */
		res->action = SCG_ACTION_KILL_PROCESS;
		break;
	case SCG_ACTION_ERRNO:
		res->data = (uint16_t)(ret & SCG_RET_DATA);
		if (res->data > SCG_MAX_ERRNO)
			res->data = SCG_MAX_ERRNO;
		break;
	case SCG_ACTION_TRAP:
	case SCG_ACTION_TRACE:
		res->data = (uint16_t)(ret & SCG_RET_DATA);
		break;
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_LOG:
	case SCG_ACTION_ALLOW:
		break;
	}
}

int scg_emu_stack_unchecked(const struct scg_prog *progs, size_t n,
			    const struct scg_seccomp_data *data, struct scg_emu_result *res,
			    size_t *executed, uint32_t *rets, scg_emu_trace_fn trace, void *ctx)
{
	if (!progs || n == 0 || !data || !res)
		return -EINVAL;
	uint32_t words[SCG_EMU_WORDS];
	emu_layout(data, words);

	uint32_t best = 0;
	size_t winner = n - 1, total = 0;
	for (size_t i = n; i-- > 0;) {
		size_t count;
		uint32_t ret = emu_exec(&progs[i], words, i, &count, trace, ctx);
		total += count;
		if (executed)
			executed[i] = count;
		if (rets)
			rets[i] = ret;
		/* strict '<': on a tie the newer filter, evaluated first, keeps its value */
		if (i == n - 1 || rank(ret) < rank(best)) {
			best = ret;
			winner = i;
		}
	}
	classify(best, res);
	res->winner = winner;
	res->executed_total = total;
	res->never_filtered = never_filtered(data);
	if (res->never_filtered) {
		res->action = SCG_ACTION_ALLOW;
		res->data = 0;
		res->unknown_action = false;
	}
	return 0;
}

int scg_emu_stack(const struct scg_prog *progs, size_t n, const struct scg_seccomp_data *data,
		  struct scg_emu_result *res, size_t *executed, scg_emu_trace_fn trace, void *ctx)
{
	if (!progs || n == 0 || !data || !res)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int r = emu_check(&progs[i]);
		if (r < 0)
			return r;
	}
	return scg_emu_stack_unchecked(progs, n, data, res, executed, NULL, trace, ctx);
}

int scg_emu_result_format(const struct scg_emu_result *res, char *buf, size_t size)
{
	if (!res)
		return -EINVAL;
	const char *name = scg_action_name(res->action);
	if (scg_action_has_data(res->action))
		return snprintf(buf, size, "%s(%u)", name, (unsigned)res->data);
	return snprintf(buf, size, "%s", name);
}
