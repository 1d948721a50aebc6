/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sets of 32-bit values, exact under the constraints seccomp filters put on
 * one loaded word: interval lists (==, !=, <, >= against the whole word),
 * known bits ((w & m) == v, JSET) and excluded masked patterns
 * ((w & m) != v).  Internal to libsyscage-analysis.
 */
#ifndef SCG_LIB_ANALYSIS_WORDSET_H
#define SCG_LIB_ANALYSIS_WORDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/analysis.h>

struct wset {
	struct scg_interval *iv;
	size_t niv, civ; /* civ 0: iv is the shared list of every value, read only */
	uint32_t known, known_value;
	struct scg_pattern *ex;
	size_t nex, cex;
};

/* Every value.  0 or -ENOMEM. */
int wset_init_full(struct wset *ws);
/* Deep copy into an uninitialised @dst.  0 or -ENOMEM. */
int wset_copy(struct wset *dst, const struct wset *src);
void wset_release(struct wset *ws);
/* True when no constraint was ever applied that removed a value. */
bool wset_is_full(const struct wset *ws);

/* Each narrows the set; they may leave it empty.  0 or -ENOMEM. */
int wset_intersect(struct wset *ws, uint32_t lo, uint32_t hi);
int wset_remove(struct wset *ws, uint32_t lo, uint32_t hi);
int wset_fix_bits(struct wset *ws, uint32_t mask, uint32_t value);
int wset_exclude(struct wset *ws, uint32_t mask, uint32_t value);

/*
 * The smallest member >= @from: 1 (and *@out), 0 when there is none, or
 * -E2BIG when the excluded patterns make the search too large.
 */
int wset_next(const struct wset *ws, uint32_t from, uint32_t *out);
bool wset_contains(const struct wset *ws, uint32_t value);
/*
 * The last value of the run of members that starts at member @x: every value
 * in [@x, result] is a member, the one after it (if any) may not be.  Cheap
 * whatever the run's length: runs end only at an interval's end, where a
 * known bit changes, or at an excluded pattern's first match.
 */
uint32_t wset_run_end(const struct wset *ws, uint32_t x);

/* True when @a and @b hold the same constraints (so the same values). */
bool wset_equal(const struct wset *a, const struct wset *b);
/*
 * Makes @a the union of @a and @b when a word set can say it exactly: the
 * two differ only in their intervals, in one known bit, or in one pattern
 * that one fixes and the other excludes (the two sides of a test).
 * 1 when done, 0 when not (then @a is unchanged), or -ENOMEM.
 */
int wset_union(struct wset *a, const struct wset *b);

/* The smallest x in [lo, hi] with (x & known) == value, if any. */
bool wset_min_fixed(uint32_t lo, uint32_t hi, uint32_t known, uint32_t value, uint32_t *out);

#endif
