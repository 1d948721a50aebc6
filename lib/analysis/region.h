/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The region type behind struct scg_region.  Internal to libsyscage-analysis. */
#ifndef SCG_LIB_ANALYSIS_REGION_H
#define SCG_LIB_ANALYSIS_REGION_H

#include <syscage/analysis.h>

#include "analysis/smt.h"
#include "analysis/wordset.h"

struct scg_region {
	struct wset w[SCG_DATA_WORDS];
	/* general conditions (Z3 booleans over the words), all of which hold; NULL smt when none */
	struct smt *smt;
	Z3_ast *conds;
	size_t nconds, cconds;
	uint32_t cond_words; /* bit i: some condition involves word i */
	/* an input the solver found in the region (a cheap example, checked before use) */
	bool has_hint;
	uint32_t hint[SCG_DATA_WORDS];
};

/*
 * Appends a general condition over the words in the bit mask @words (taking
 * a reference to @smt the first time).  0 or -ENOMEM.
 */
int region_add_cond(struct scg_region *r, struct smt *smt, Z3_ast cond, uint32_t words);

/* Every input, in place.  0 or -ENOMEM (then @r holds nothing to release). */
int region_init(struct scg_region *r);
/* Deep copy into an uninitialised @dst. */
int region_copy(struct scg_region *dst, const struct scg_region *src);
void region_release(struct scg_region *r);
/* 1 when non-empty, 0 when empty, -E2BIG when undecided within the search budget. */
int region_feasible(const struct scg_region *r);

#endif
