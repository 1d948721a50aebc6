/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_compile_stats(): how well a compiled filter is laid out for a
 * workload, against the best any decision tree over the syscall numbers
 * can do (optimum.c).
 *
 * Only calls the kernel cannot cache run the filter (Linux 5.11+), so the
 * figure is the workload-weighted mean of instructions executed per such
 * call, measured on the program itself with the emulator (arguments 0).
 * Each path splits in three: what comes before the number is loaded (the
 * ABI check), the number dispatch (the `ld [nr]` and every jump up to the
 * first other instruction: the hot chain, the tree, trampolines), and the
 * decision (argument tests, the `ret`).  The optimum keeps the first and
 * the last as measured, which no tree over numbers changes, and replaces
 * the dispatch by one load and the depth of the number's leaf in the best
 * tree for the same ranges and weights.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/arch.h>
#include <syscage/compile.h>
#include <syscage/emu.h>
#include <syscage/verify.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "util/opts.h"
#include "util/grow.h"

struct path_split {
	int phase;       /* 0 before `ld [nr]`, 1 in the dispatch, 2 after */
	size_t dispatch; /* instructions of the dispatch */
};

static void on_step(void *ctx, const struct scg_emu_step *step)
{
	struct path_split *p = ctx;
	uint16_t code = step->insn.code;
	bool ld_nr = code == (BPF_LD | BPF_W | BPF_ABS) && step->insn.k == SCG_DATA_NR;
	if (p->phase == 0 && ld_nr)
		p->phase = 1;
	else if (p->phase == 1 && BPF_CLASS(code) != BPF_JMP)
		p->phase = 2;
	if (p->phase == 1)
		p->dispatch++;
}

/* The uncached known syscalls the workload calls, and the ranges with their weights. */
struct stats_run {
	const struct scg_prog *prog;
	const struct scg_arch *arch;
	uint32_t audit;
	struct weights w;
	struct opt_range *ranges;
	size_t nranges, cap;
	double sum_exec, sum_dispatch; /* weighted */
	uint64_t calls;
	size_t syscalls;
};

static int push(struct stats_run *s, struct opt_range r)
{
	if (GROW_ARRAY(&s->ranges, &s->cap, s->nranges + 1, 256))
		return -ENOMEM;
	s->ranges[s->nranges++] = r;
	return 0;
}

/* Weight of @nr on the ABI: its calls when the kernel cannot cache it, else 0. */
static uint64_t uncached_weight(struct stats_run *s, uint32_t nr)
{
	const struct scg_arch *arch = scg_arch_from_audit(s->audit, nr);
	if (arch != s->arch)
		return 0;
	uint64_t count = weights_of(&s->w, scg_syscall_name(arch, nr));
	if (count == 0 || scg_cache_const_allow(s->prog, s->audit, nr))
		return 0;
	return count;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Measures the program on each weighted number and splits the layout's ranges around them. */
static int measure(struct stats_run *s, const struct nr_range *lr, size_t n)
{
	size_t nsys = scg_syscall_count(s->arch), k = 0;
	uint32_t *nrs = malloc((nsys ? nsys : 1) * sizeof(*nrs));
	uint64_t *wts = malloc((nsys ? nsys : 1) * sizeof(*wts));
	int r = nrs && wts ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < nsys; i++) {
		uint32_t nr;
		if (scg_syscall_at(s->arch, i, NULL, &nr) == 0 && uncached_weight(s, nr))
			nrs[k++] = nr;
	}
	if (r == 0)
		qsort(nrs, k, sizeof(*nrs), cmp_u32);
	for (size_t i = 0; r == 0 && i < k; i++) {
		uint64_t wt = wts[i] = uncached_weight(s, nrs[i]);
		struct scg_seccomp_data d = { .nr = nrs[i], .arch = s->audit };
		struct path_split p = { 0 };
		uint32_t ret;
		size_t executed = 0;
		r = scg_emu_run(s->prog, &d, &ret, &executed, on_step, &p);
		s->sum_exec += (double)wt * (double)executed;
		s->sum_dispatch += (double)wt * (double)p.dispatch;
		s->calls += wt;
		s->syscalls++;
	}
	size_t next = 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		uint64_t at = lr[i].first;
		for (; r == 0 && next < k && nrs[next] <= lr[i].last; next++) {
			if (nrs[next] > at)
				r = push(s, (struct opt_range){ (uint32_t)at, nrs[next] - 1, lr[i].node, 0 });
			if (r == 0)
				r = push(s, (struct opt_range){ nrs[next], nrs[next], lr[i].node, wts[next] });
			at = (uint64_t)nrs[next] + 1;
		}
		if (r == 0 && at <= lr[i].last)
			r = push(s, (struct opt_range){ (uint32_t)at, lr[i].last, lr[i].node, 0 });
	}
	free(nrs);
	free(wts);
	return r;
}

/* The first layout of struct scg_compile_stats ends with optimal_weighted_dispatch. */
#define STATS_FIRST OPTS_END(struct scg_compile_stats, ranges)

int scg_compile_stats(const struct scg_policy *policy, const struct scg_compile_options *opts,
		      const struct scg_prog *prog, const struct scg_arch *arch,
		      struct scg_compile_stats *out)
{
	if (!policy || !out || scg_policy_arch_count(policy) == 0)
		return -EINVAL;
	size_t caller_sz = out->sz ? out->sz : STATS_FIRST;
	if (caller_sz < sizeof(out->sz))
		return -EINVAL;
	struct scg_compile_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_compile_options, unweighted)) < 0)
		return -EINVAL;
	if (!opts)
		o.optimize = 1;
	if (!arch)
		arch = scg_policy_arch_at(policy, 0);
	struct scg_prog own = { 0 };
	int r = 0;
	if (!prog) {
		r = scg_compile(policy, &o, &own, NULL);
		if (r < 0)
			return r;
		prog = &own;
	}
	struct scg_compile_stats st = { .sz = sizeof(st), .length = prog->len };
	struct stats_run s = { .prog = prog, .arch = arch, .audit = scg_arch_audit(arch) };
	struct dag g;
	struct cond_ctx c;
	memset(&c, 0, sizeof(c));
	struct nr_range *lr = NULL;
	size_t nlr = 0;
	r = weights_init(&s.w, &o);
	if (r == 0)
		r = dag_init(&g);
	if (r == 0) {
		r = cond_init(&c, &g);
		if (r == 0)
			r = layout_audit_ranges(policy, &s.w, s.audit, &g, &c, &lr, &nlr);
		if (r == 0)
			r = measure(&s, lr, nlr);
		cond_release(&c);
		dag_release(&g);
	}
	uint64_t best = 0;
	if (r == 0)
		r = opt_tree_cost(s.ranges, s.nranges, &best);
	if (r == 0) {
		st.uncached_syscalls = s.syscalls;
		st.uncached_calls = s.calls;
		st.ranges = s.nranges;
		if (s.calls) {
			double calls = (double)s.calls;
			st.weighted_uncached = s.sum_exec / calls;
			st.weighted_dispatch = s.sum_dispatch / calls;
			/* one `ld [nr]` plus the tests on the way down the best tree */
			st.optimal_weighted_dispatch = 1.0 + (double)best / calls;
			st.optimal_weighted_uncached =
				st.weighted_uncached - st.weighted_dispatch + st.optimal_weighted_dispatch;
		}
		memcpy((char *)out + sizeof(out->sz), (char *)&st + sizeof(st.sz),
		       (caller_sz < sizeof(st) ? caller_sz : sizeof(st)) - sizeof(st.sz));
	}
	free(lr);
	free(s.ranges);
	weights_release(&s.w);
	scg_prog_release(&own);
	return r;
}
