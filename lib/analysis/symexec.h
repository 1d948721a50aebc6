/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The symbolic executor behind scg_analysis_regions().  Internal. */
#ifndef SCG_LIB_ANALYSIS_SYMEXEC_H
#define SCG_LIB_ANALYSIS_SYMEXEC_H

#include <syscage/analysis.h>

#include "analysis/region.h"

struct symexec {
	const struct scg_prog *progs;
	size_t n;
	struct scg_region region; /* the path condition, narrowed and restored in place */
	uint32_t *rets;
	scg_region_fn fn;
	void *ctx;
	struct scg_diag *diag;
	size_t leaves;
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

/* scg_analysis_regions() on programs already checked with analysis_check(). */
int analysis_walk(const struct scg_prog *progs, size_t n, const struct scg_region *within,
		  scg_region_fn fn, void *ctx, struct scg_diag *diag);
/* -EINVAL (with a diagnostic) unless the kernel loads every program. */
int analysis_check(const struct scg_prog *progs, size_t n, struct scg_diag *diag);

/* Winning value of @n filter results under the kernel's precedence. */
uint32_t symexec_winner(const uint32_t *rets, size_t n);

#endif
