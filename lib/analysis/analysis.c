/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Public entry points of the analysis engine: partitions and paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <syscage/arch.h>
#include <syscage/verify.h>

#include "analysis/symexec.h"
#include "util/opts.h"

/* Refuses programs the kernel would not load: the engine assumes the kernel's checks. */
static int check_progs(const struct scg_prog *progs, size_t n, struct scg_diag *diag)
{
	if (!progs || n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct scg_verify_result res;
		int r = scg_verify(&progs[i], NULL, &res, NULL);
		if (r < 0)
			return r;
		if (!res.accepted) {
			scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_INSN(res.error_insn),
				     "analysis-not-loadable", "run 'syscage verify' for details",
				     "filter %zu would not load (%s)", i, res.rule ? res.rule : "refused");
			return -EINVAL;
		}
	}
	return 0;
}

int analysis_check(const struct scg_prog *progs, size_t n, struct scg_diag *diag)
{
	return check_progs(progs, n, diag);
}

/* --- budgets ----------------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000U + (uint64_t)ts.tv_nsec;
}

/* The first layout of struct scg_analysis_options ends with stats. */
#define ANALYSIS_OPTS_FIRST OPTS_END(struct scg_analysis_options, stats)

int run_init(struct analysis_run *run, const struct scg_analysis_options *opts)
{
	memset(run, 0, sizeof(*run));
	struct scg_analysis_options o;
	int r = opts_load(&o, sizeof(o), opts, ANALYSIS_OPTS_FIRST);
	if (r < 0)
		return r;
	uint64_t ms = o.timeout_ms;
	if (ms)
		run->deadline_ns = now_ns() + (ms > UINT64_MAX / 2000000U ? UINT64_MAX / 2 : ms * 1000000U);
	run->cancel = o.cancel;
	run->cancel_ctx = o.cancel_ctx;
	run->undecided = o.undecided;
	run->undecided_ctx = o.undecided_ctx;
	run->stats_out = o.stats;
	return 0;
}

void run_finish(struct analysis_run *run, const struct scg_analysis_options *opts)
{
	(void)opts;
	struct scg_analysis_stats *st = run->stats_out;
	if (st) {
		st->walks += run->stats.walks;
		st->states += run->stats.states;
		st->merges += run->stats.merges;
		st->leaves += run->stats.leaves;
		st->solver_calls += run->stats.solver_calls;
	}
	smt_unref(run->smt);
	run->smt = NULL;
	symexec_release_infos(run);
}

int run_check(struct analysis_run *run)
{
	if (run->stop)
		return run->stop;
	if (run->deadline_ns && now_ns() >= run->deadline_ns)
		run->stop = -ETIMEDOUT;
	else if (run->cancel && run->cancel(run->cancel_ctx))
		run->stop = -ECANCELED;
	return run->stop;
}

unsigned run_ms_left(const struct analysis_run *run, unsigned cap)
{
	if (!run->deadline_ns)
		return cap;
	uint64_t now = now_ns();
	uint64_t left = run->deadline_ns > now ? (run->deadline_ns - now) / 1000000U : 0;
	return left >= cap ? cap : left ? (unsigned)left : 1;
}

int run_undecided(struct analysis_run *run, const struct scg_region *region)
{
	return run->undecided ? run->undecided(run->undecided_ctx, region) : 0;
}

struct smt *run_smt(struct analysis_run *run)
{
	if (!run->smt)
		run->smt = smt_new();
	return smt_ref(run->smt);
}

/* --- partitions ---------------------------------------------------------------- */

int scg_analysis_regions_opts(const struct scg_prog *progs, size_t n,
			      const struct scg_region *within,
			      const struct scg_analysis_options *opts, scg_region_fn fn, void *ctx,
			      struct scg_diag *diag)
{
	int r = check_progs(progs, n, diag);
	if (r < 0)
		return r;
	struct analysis_run run;
	r = run_init(&run, opts);
	if (r < 0)
		return r;
	r = analysis_walk(&run, progs, n, within, fn, ctx, diag);
	run_finish(&run, opts);
	return r;
}

int scg_analysis_regions(const struct scg_prog *progs, size_t n, const struct scg_region *within,
			 scg_region_fn fn, void *ctx, struct scg_diag *diag)
{
	return scg_analysis_regions_opts(progs, n, within, NULL, fn, ctx, diag);
}

int analysis_walk(struct analysis_run *run, const struct scg_prog *progs, size_t n,
		  const struct scg_region *within, scg_region_fn fn, void *ctx,
		  struct scg_diag *diag)
{
	struct symexec s = { .run = run, .progs = progs, .n = n, .fn = fn, .ctx = ctx, .diag = diag };
	int r = within ? region_copy(&s.region, within) : region_init(&s.region);
	if (r < 0)
		return r;
	if (run_check(run) < 0) {
		/* nothing of it was decided */
		run_undecided(run, &s.region);
		region_release(&s.region);
		return run->stop;
	}
	s.rets = calloc(n, sizeof(*s.rets));
	r = s.rets ? symexec_run(&s) : -ENOMEM;
	region_release(&s.region);
	free(s.rets);
	return r;
}

struct path_capture {
	struct scg_region **out;
	uint32_t words[SCG_DATA_WORDS]; /* the input whose path is wanted */
};

/* The sixteen words a filter of @d's ABI loads (bit 30 of arch set: little endian). */
static void data_words(const struct scg_seccomp_data *d, uint32_t *w)
{
	bool le = d->arch & SCG_AUDIT_ARCH_LE;
	w[0] = d->nr;
	w[1] = d->arch;
	for (unsigned i = 0; i < 7; i++) {
		uint64_t v = i == 0 ? d->instruction_pointer : d->args[i - 1];
		uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
		w[2 + 2 * i] = le ? lo : hi;
		w[3 + 2 * i] = le ? hi : lo;
	}
}

static int capture_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
			  uint32_t winner)
{
	(void)rets;
	(void)winner;
	struct path_capture *pc = ctx;
	/* a split the path does not decide (RET A, a zero divisor) yields several leaves */
	if (!pc->out || *pc->out || !scg_region_contains(region, pc->words))
		return 0;
	*pc->out = scg_region_clone(region);
	return *pc->out ? 0 : -ENOMEM;
}

struct pc_trace {
	size_t *pcs;
	size_t n, cap;
};

static void record_pc(void *ctx, const struct scg_emu_step *step)
{
	struct pc_trace *t = ctx;
	if (t->n < t->cap)
		t->pcs[t->n] = step->pc;
	t->n++;
}

int scg_analysis_path(const struct scg_prog *prog, const struct scg_seccomp_data *data,
		      size_t *pcs, size_t max, struct scg_region **region, struct scg_diag *diag)
{
	return scg_analysis_path_opts(prog, data, NULL, pcs, max, region, diag);
}

int scg_analysis_path_opts(const struct scg_prog *prog, const struct scg_seccomp_data *data,
			   const struct scg_analysis_options *opts, size_t *pcs, size_t max,
			   struct scg_region **region, struct scg_diag *diag)
{
	int r = check_progs(prog, 1, diag);
	if (r < 0)
		return r;
	if (region)
		*region = NULL;
	/* a path visits each instruction at most once */
	struct pc_trace t = { .pcs = calloc(prog->len, sizeof(size_t)), .cap = prog->len };
	if (!t.pcs)
		return -ENOMEM;
	uint32_t ret;
	r = scg_emu_run(prog, data, &ret, NULL, record_pc, &t);
	if (r < 0)
		goto out;
	struct path_capture cap = { .out = region };
	data_words(data, cap.words);
	struct analysis_run run;
	r = run_init(&run, opts);
	if (r < 0)
		goto out;
	struct symexec s = { .run = &run, .progs = prog, .n = 1, .rets = &ret,
			     .fn = capture_region, .ctx = &cap, .diag = diag, .guide = t.pcs,
			     .nguide = t.n };
	r = region_init(&s.region);
	if (r == 0) {
		r = symexec_run(&s);
		region_release(&s.region);
	}
	run_finish(&run, opts);
	if (r < 0) {
		if (region) {
			scg_region_free(*region);
			*region = NULL;
		}
		goto out;
	}
	for (size_t i = 0; i < t.n && i < max; i++)
		pcs[i] = t.pcs[i];
	r = (int)t.n;
out:
	free(t.pcs);
	return r;
}

int scg_analysis_reachable(const struct scg_prog *prog, bool *reached, struct scg_diag *diag)
{
	return scg_analysis_reachable_opts(prog, NULL, reached, diag);
}

int analysis_reachable(struct analysis_run *run, const struct scg_prog *prog, bool *reached,
		       struct scg_diag *diag)
{
	memset(reached, 0, prog->len * sizeof(*reached));
	uint32_t ret;
	struct symexec s = { .run = run, .progs = prog, .n = 1, .rets = &ret, .diag = diag,
			     .reached = reached };
	int r = region_init(&s.region);
	if (r < 0)
		return r;
	r = symexec_run(&s);
	region_release(&s.region);
	return r;
}

int scg_analysis_reachable_opts(const struct scg_prog *prog,
				const struct scg_analysis_options *opts, bool *reached,
				struct scg_diag *diag)
{
	int r = check_progs(prog, 1, diag);
	if (r < 0)
		return r;
	struct analysis_run run;
	r = run_init(&run, opts);
	if (r < 0)
		return r;
	r = analysis_reachable(&run, prog, reached, diag);
	run_finish(&run, opts);
	return r;
}
