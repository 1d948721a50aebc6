/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Equivalence of two filter stacks: walk stack A's partition, and inside
 * each of its regions walk stack B's.  The leaves are the common
 * refinement; every leaf where the actions differ is a difference.
 */
#include <errno.h>
#include <stdlib.h>

#include <syscage/arch.h>

#include "analysis/symexec.h"
#include "util/opts.h"

#define X86_64_AUDIT 0xc000003eU
/* x86_64 uretprobe and uprobe: the kernel runs no filter for them. */
#define NR_URETPROBE 335U
#define NR_UPROBE 336U

bool scg_verdict_same(uint32_t a, uint32_t b, bool ignore_errno)
{
	enum scg_action aa = scg_action_of(a), ab = scg_action_of(b);
	if (aa == SCG_ACTION_UNKNOWN)
		aa = SCG_ACTION_KILL_PROCESS;
	if (ab == SCG_ACTION_UNKNOWN)
		ab = SCG_ACTION_KILL_PROCESS;
	if (aa != ab)
		return false;
	switch (aa) {
	case SCG_ACTION_ERRNO: {
		if (ignore_errno)
			return true;
		uint32_t da = a & SCG_RET_DATA, db = b & SCG_RET_DATA;
		da = da > SCG_MAX_ERRNO ? SCG_MAX_ERRNO : da;
		db = db > SCG_MAX_ERRNO ? SCG_MAX_ERRNO : db;
		return da == db;
	}
	case SCG_ACTION_TRAP:
	case SCG_ACTION_TRACE:
		return (a & SCG_RET_DATA) == (b & SCG_RET_DATA);
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_USER_NOTIF:
	case SCG_ACTION_LOG:
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_UNKNOWN:
		break;
	}
	return true;
}

struct diff_walk {
	struct analysis_run *run;
	const struct scg_prog *b;
	size_t nb;
	const struct scg_diff_options *opts;
	scg_diff_fn fn;
	void *ctx;
	struct scg_diag *diag;
	uint32_t ret_a;
	int count;
};

static int on_b_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)rets;
	struct diff_walk *d = ctx;
	if (scg_verdict_same(d->ret_a, winner, d->opts->ignore_errno))
		return 0;
	if (d->count == INT32_MAX)
		return -E2BIG;
	d->count++;
	return d->fn ? d->fn(d->ctx, region, d->ret_a, winner) : 0;
}

static int on_a_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)rets;
	struct diff_walk *d = ctx;
	d->ret_a = winner;
	return analysis_walk(d->run, d->b, d->nb, region, on_b_region, d, d->diag);
}

/*
 * The parts of the input space to compare, at most three: other ABIs, and
 * x86_64 without the unfiltered uretprobe/uprobe numbers (split in two
 * when only x86_64 proper is wanted: bit 30 clear, and nr == -1).
 */
static int build_parts(const struct scg_arch *arch, struct scg_region **parts, size_t *nparts)
{
	uint32_t audit = arch ? scg_arch_audit(arch) : 0;
	bool x86_64 = arch && audit == X86_64_AUDIT;
	*nparts = 0;
	if (!x86_64) {
		struct scg_region *r = scg_region_new();
		if (!r)
			return -ENOMEM;
		parts[(*nparts)++] = r;
		int e = scg_region_exclude_range(r, SCG_WORD_ARCH, X86_64_AUDIT, X86_64_AUDIT);
		if (e == 0 && arch)
			e = scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit);
		if (e < 0 || arch)
			return e;
	}
	for (int piece = 0; piece < 2; piece++) {
		struct scg_region *r = scg_region_new();
		if (!r)
			return -ENOMEM;
		parts[(*nparts)++] = r;
		struct wset *nr = &r->w[SCG_WORD_NR];
		int e = wset_intersect(&r->w[SCG_WORD_ARCH], X86_64_AUDIT, X86_64_AUDIT);
		if (e == 0)
			e = wset_remove(nr, NR_URETPROBE, NR_UPROBE);
		if (e == 0 && x86_64 && scg_arch_nr_flags(arch)) {
			e = wset_fix_bits(nr, SCG_X32_SYSCALL_BIT, SCG_X32_SYSCALL_BIT);
			if (e == 0)
				e = wset_remove(nr, UINT32_MAX, UINT32_MAX);
			return e; /* x32: one part */
		}
		if (e == 0 && x86_64)
			e = piece == 0 ? wset_fix_bits(nr, SCG_X32_SYSCALL_BIT, 0)
				       : wset_intersect(nr, UINT32_MAX, UINT32_MAX);
		if (e < 0 || !x86_64)
			return e; /* every ABI: one x86_64 part */
	}
	return 0;
}

int scg_analysis_diff(const struct scg_prog *a, size_t na, const struct scg_prog *b, size_t nb,
		      const struct scg_diff_options *opts, scg_diff_fn fn, void *ctx,
		      struct scg_diag *diag)
{
	struct scg_diff_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_diff_options, limits)) < 0)
		return -EINVAL;
	struct analysis_run run;
	struct diff_walk d = { &run, b, nb, &o, fn, ctx, diag, 0, 0 };
	int r = analysis_check(a, na, diag);
	if (r == 0)
		r = analysis_check(b, nb, diag);
	if (r < 0)
		return r;
	r = run_init(&run, d.opts->limits);
	if (r < 0)
		return r;
	struct scg_region *parts[3] = { NULL, NULL, NULL };
	size_t nparts = 0;
	r = build_parts(d.opts->arch, parts, &nparts);
	for (size_t i = 0; i < nparts; i++) {
		if (r == 0 && !scg_region_empty(parts[i]))
			r = analysis_walk(&run, a, na, parts[i], on_a_region, &d, diag);
		else if (r != 0 && r == run.stop && !scg_region_empty(parts[i]))
			run_undecided(&run, parts[i]); /* not started */
		scg_region_free(parts[i]);
	}
	run_finish(&run, d.opts->limits);
	return r < 0 ? r : d.count;
}
