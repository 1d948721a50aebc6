/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The symbolic executor behind scg_analysis_regions().  Internal. */
#ifndef SCG_LIB_ANALYSIS_SYMEXEC_H
#define SCG_LIB_ANALYSIS_SYMEXEC_H

#include <errno.h>

#include <syscage/analysis.h>

#include "analysis/region.h"

/* What the walk knows of one filter's shape, worked out once per run. */
struct prog_info {
	const struct scg_insn *insns; /* which filter */
	size_t len;
	bool *join;     /* more than one edge leads here */
	bool *dead;     /* a join where states arrived and none merged: walked through */
	uint32_t *live; /* registers read before written from here on */
};

/*
 * One public call's budget, counters and solver context, shared by every
 * walk the call makes.
 */
struct analysis_run {
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0: none */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
	scg_undecided_fn undecided;
	void *undecided_ctx;
	struct scg_analysis_stats stats;
	struct scg_analysis_stats *stats_out; /* the caller's, added to at the end; or NULL */
	struct smt *smt; /* created on first need, kept for the call's other walks */
	struct prog_info **infos; /* one per filter walked */
	size_t ninfos;
	int stop;        /* 0, or -ETIMEDOUT / -ECANCELED once the budget is gone (sticky) */
};

/* Starts the clock of @opts (NULL or zeroed: no limits); -EINVAL for options it cannot read. */
int run_init(struct analysis_run *run, const struct scg_analysis_options *opts);
/* Adds the counters to @opts' stats and releases the solver context. */
void run_finish(struct analysis_run *run, const struct scg_analysis_options *opts);
/* 0 while there is budget left, else the stop error (polls the clock and the callback). */
int run_check(struct analysis_run *run);
/* Milliseconds left (at least 1), or @cap when there is no deadline or more than @cap left. */
unsigned run_ms_left(const struct analysis_run *run, unsigned cap);
/* Reports @region as undecided, when the caller asked. */
int run_undecided(struct analysis_run *run, const struct scg_region *region);
/* The call's solver context (one reference, the caller's), or NULL when libz3 is missing. */
struct smt *run_smt(struct analysis_run *run);

struct symexec {
	struct analysis_run *run;
	const struct scg_prog *progs;
	size_t n;
	struct scg_region region; /* the path condition, narrowed and restored in place */
	uint32_t *rets;
	scg_region_fn fn;
	void *ctx;
	struct scg_diag *diag;
	size_t leaves;
	uint64_t seq;                  /* states created */
	const struct prog_info **info; /* per filter: joins and live registers */
	/* path mode (one filter): the pcs a concrete run took, followed, and recorded */
	const size_t *guide;
	size_t nguide, step;
	/* optional, filter 0's length: set for every instruction a feasible path executes */
	bool *reached;
	/* the general tier's context, created on first need (or the region's) */
	struct smt *smt;
};

/* Runs the stack over s->region (initialised by the caller).  See scg_analysis_regions(). */
int symexec_run(struct symexec *s);
/* Frees what the run's walks worked out about the filters' shapes. */
void symexec_release_infos(struct analysis_run *run);

/*
 * scg_analysis_regions() on programs already checked with analysis_check(),
 * within @run's budget.
 */
int analysis_walk(struct analysis_run *run, const struct scg_prog *progs, size_t n,
		  const struct scg_region *within, scg_region_fn fn, void *ctx,
		  struct scg_diag *diag);
/* scg_analysis_reachable() on a checked program, within @run's budget. */
int analysis_reachable(struct analysis_run *run, const struct scg_prog *prog, bool *reached,
		       struct scg_diag *diag);
/* True for the errors that mean "the budget ran out". */
static inline bool analysis_stopped(int err)
{
	return err == -ETIMEDOUT || err == -ECANCELED;
}
/* -EINVAL (with a diagnostic) unless the kernel loads every program. */
int analysis_check(const struct scg_prog *progs, size_t n, struct scg_diag *diag);

/* Winning value of @n filter results under the kernel's precedence. */
uint32_t symexec_winner(const uint32_t *rets, size_t n);

#endif
