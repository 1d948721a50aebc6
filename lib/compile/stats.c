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

/* What one figure weighs each uncached number by, and what it sums. */
enum figure { FIG_WEIGHTED, FIG_UNIFORM, FIG_MAX, N_FIGURES };

struct stats_run {
	const struct scg_prog *prog;
	const struct scg_arch *arch;
	uint32_t audit;
	struct weights w;
	uint32_t *nrs;  /* every uncached known number of the ABI, sorted */
	uint64_t *calls; /* the workload's calls of each */
	size_t n;
	double sum_exec[2], sum_dispatch[2]; /* weighted, uniform */
	uint64_t total[2];                   /* calls, numbers */
	size_t weighted_syscalls, max_path, max_dispatch;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Runs the program on every uncached known number of the ABI. */
static int measure(struct stats_run *s)
{
	size_t nsys = scg_syscall_count(s->arch);
	s->nrs = malloc((nsys ? nsys : 1) * sizeof(*s->nrs));
	s->calls = malloc((nsys ? nsys : 1) * sizeof(*s->calls));
	if (!s->nrs || !s->calls)
		return -ENOMEM;
	for (size_t i = 0; i < nsys; i++) {
		uint32_t nr;
		if (scg_syscall_at(s->arch, i, NULL, &nr) == 0 &&
		    scg_arch_from_audit(s->audit, nr) == s->arch &&
		    !scg_cache_const_allow(s->prog, s->audit, nr))
			s->nrs[s->n++] = nr;
	}
	qsort(s->nrs, s->n, sizeof(*s->nrs), cmp_u32);
	for (size_t i = 0; i < s->n; i++) {
		uint64_t wt = s->calls[i] = weights_of(&s->w, scg_syscall_name(s->arch, s->nrs[i]));
		struct scg_seccomp_data d = { .nr = s->nrs[i], .arch = s->audit };
		struct path_split p = { 0 };
		uint32_t ret;
		size_t executed = 0;
		int r = scg_emu_run(s->prog, &d, &ret, &executed, on_step, &p);
		if (r < 0)
			return r;
		s->sum_exec[0] += (double)wt * (double)executed;
		s->sum_dispatch[0] += (double)wt * (double)p.dispatch;
		s->total[0] += wt;
		s->weighted_syscalls += wt > 0;
		s->sum_exec[1] += (double)executed;
		s->sum_dispatch[1] += (double)p.dispatch;
		s->total[1]++;
		if (executed > s->max_path)
			s->max_path = executed;
		if (p.dispatch > s->max_dispatch)
			s->max_dispatch = p.dispatch;
	}
	return 0;
}

static int push(struct opt_range **v, size_t *n, size_t *cap, struct opt_range r)
{
	if (GROW_ARRAY(v, cap, *n + 1, 256))
		return -ENOMEM;
	(*v)[(*n)++] = r;
	return 0;
}

/* The layout's ranges split around each number the figure weighs, with its weight. */
static int figure_ranges(const struct stats_run *s, enum figure f, const struct nr_range *lr,
			 size_t n, struct opt_range **out, size_t *nout)
{
	size_t cap = 0, next = 0;
	int r = 0;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		uint64_t at = lr[i].first;
		for (; r == 0 && next < s->n && s->nrs[next] <= lr[i].last; next++) {
			uint64_t wt = f == FIG_WEIGHTED ? s->calls[next] : 1;
			if (wt == 0)
				continue;
			if (s->nrs[next] > at)
				r = push(out, nout, &cap, (struct opt_range){ (uint32_t)at, s->nrs[next] - 1,
									      lr[i].node, 0, false });
			if (r == 0)
				r = push(out, nout, &cap, (struct opt_range){ s->nrs[next], s->nrs[next],
									      lr[i].node, wt, false });
			at = (uint64_t)s->nrs[next] + 1;
		}
		if (r == 0 && at <= lr[i].last)
			r = push(out, nout, &cap,
				 (struct opt_range){ (uint32_t)at, lr[i].last, lr[i].node, 0, false });
	}
	return r;
}

/*
 * The optimum of one figure: exact when the search over every number
 * `jeq` could test fits its memo, else the best over trees whose `jeq`
 * tests take only the most weighted numbers, as many as fit.
 */
static int figure_optimum(const struct opt_range *r, size_t n, bool minimax, uint64_t *best,
			  size_t *points, size_t *candidates)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += r[i].first == r[i].last && r[i].weight > 0;
	*candidates = c;
	/*
	 * Up to OPT_MAX_POINTS the exact search is tried first.  Past that, or
	 * when it outgrows its memo, it gets fewer: 6, 3, 1, then none.
	 */
	size_t p = c;
	int err = c <= OPT_MAX_POINTS ? opt_tree_cost(r, n, minimax, p, best) : -E2BIG;
	if (err != -E2BIG) {
		*points = p;
		return err;
	}
	p = c < 6 ? c : 6;
	for (;; p /= 2) {
		*points = p;
		err = opt_tree_cost(r, n, minimax, p, best);
		if (err != -E2BIG || p == 0)
			break;
	}
	return err;
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
	/* A layout for no workload is still measured on the built-in one. */
	struct scg_compile_options measured = o;
	measured.unweighted = false;
	r = weights_init(&s.w, &measured);
	if (r == 0)
		r = dag_init(&g);
	if (r == 0) {
		r = cond_init(&c, &g);
		if (r == 0)
			r = layout_audit_ranges(policy, &s.w, s.audit, &g, &c, &lr, &nlr);
		if (r == 0)
			r = measure(&s);
		cond_release(&c);
		dag_release(&g);
	}
	uint64_t best[N_FIGURES] = { 0 };
	for (int f = 0; r == 0 && f < N_FIGURES; f++) {
		struct opt_range *fr = NULL;
		size_t nfr = 0;
		r = figure_ranges(&s, (enum figure)f, lr, nlr, &fr, &nfr);
		if (r == 0)
			r = figure_optimum(fr, nfr, f == FIG_MAX, &best[f], &st.jeq_points[f],
					   &st.jeq_candidates[f]);
		if (f == FIG_WEIGHTED)
			st.ranges = nfr;
		free(fr);
	}
	if (r == 0) {
		st.uncached_syscalls = s.weighted_syscalls;
		st.uncached_calls = s.total[0];
		if (s.total[0]) {
			double calls = (double)s.total[0];
			st.weighted_uncached = s.sum_exec[0] / calls;
			st.weighted_dispatch = s.sum_dispatch[0] / calls;
			/* one `ld [nr]` plus the tests on the way down the best tree */
			st.optimal_weighted_dispatch = 1.0 + (double)best[FIG_WEIGHTED] / calls;
			st.optimal_weighted_uncached =
				st.weighted_uncached - st.weighted_dispatch + st.optimal_weighted_dispatch;
		}
		st.uniform_syscalls = s.n;
		if (s.n) {
			double n = (double)s.n;
			st.uniform_uncached = s.sum_exec[1] / n;
			st.uniform_dispatch = s.sum_dispatch[1] / n;
			st.optimal_uniform_dispatch = 1.0 + (double)best[FIG_UNIFORM] / n;
			st.optimal_uniform_uncached =
				st.uniform_uncached - st.uniform_dispatch + st.optimal_uniform_dispatch;
			st.max_path = s.max_path;
			st.max_dispatch = s.max_dispatch;
			st.optimal_max_dispatch = 1 + (size_t)best[FIG_MAX];
		}
		memcpy((char *)out + sizeof(out->sz), (char *)&st + sizeof(st.sz),
		       (caller_sz < sizeof(st) ? caller_sz : sizeof(st)) - sizeof(st.sz));
	}
	free(lr);
	free(s.nrs);
	free(s.calls);
	weights_release(&s.w);
	scg_prog_release(&own);
	return r;
}
