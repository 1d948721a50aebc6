/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sets of argument values and of argument vectors, for turning first-match
 * rules into the disjoint, AND-only entries an OCI profile can hold.
 *
 * A value set is a list of disjoint cubes: (mask, value) stands for every x
 * with (x & mask) == value.  Every comparison of the policy model is a
 * finite union of cubes (a range splits into aligned blocks, a masked
 * comparison into bit prefixes), complements and intersections of cubes
 * are again cubes, so everything stays exact.  Values are 64-bit; a set
 * whose masks leave the high half free is a set of low halves, which is
 * what 32-bit ABIs compare (libseccomp only ever sees the low half there).
 * @width only matters when reading sets back as intervals.
 *
 * A box gives every argument a value set (NULL: any value); a region is a
 * list of disjoint boxes.  Sizes are bounded: an operation that would pass
 * OCI_SET_LIMIT cubes or boxes fails with -E2BIG, and so does one that
 * would take more than the caller's budget of box intersections (negations
 * of unions can otherwise take very long).
 */
#ifndef SCG_LIB_OCI_SET_H
#define SCG_LIB_OCI_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/policy.h>

#define OCI_SET_LIMIT 4096

struct oci_cube {
	uint64_t mask;
	uint64_t value; /* only bits of mask */
};

struct oci_vset {
	struct oci_cube *cubes;
	size_t n, cap;
};

struct oci_box {
	struct oci_vset *args[6]; /* NULL: any value */
};

struct oci_region {
	struct oci_box *boxes;
	size_t n, cap;
};

void oci_vset_release(struct oci_vset *s);
int oci_vset_copy(struct oci_vset *dst, const struct oci_vset *src);
/* {x : (x & mask) op value}; @dst is overwritten. */
int oci_vset_cmp(struct oci_vset *dst, enum scg_cmp_op op, uint64_t mask, uint64_t value);
int oci_vset_complement(struct oci_vset *dst, const struct oci_vset *src);
int oci_vset_intersect(struct oci_vset *dst, const struct oci_vset *a, const struct oci_vset *b);
bool oci_vset_is_all(const struct oci_vset *s);
bool oci_vset_is_empty(const struct oci_vset *s);
bool oci_vset_contains(const struct oci_vset *s, uint64_t x);
/* Does the set only look at the low 32 bits (what 32-bit ABIs can compare)? */
bool oci_vset_low_only(const struct oci_vset *s);

/*
 * Closed intervals [lo, hi] of @width-bit values covering @s exactly, when
 * its cubes are all aligned blocks of that width; -ERANGE when they are not.
 * *@out is the caller's to free.
 */
struct oci_interval {
	uint64_t lo, hi;
};
int oci_vset_intervals(const struct oci_vset *s, unsigned width, struct oci_interval **out,
		       size_t *n);
/* Adds the aligned blocks of @width-bit values making up [lo, hi]. */
int oci_vset_add_interval(struct oci_vset *s, unsigned width, uint64_t lo, uint64_t hi);

void oci_box_release(struct oci_box *b);
void oci_region_release(struct oci_region *r);
/* Box intersections an export may spend (each costs a few small allocations). */
#define OCI_SET_BUDGET 400000

/* The condition's region (NULL @cond: everything); @r is overwritten. */
int oci_region_from_expr(struct oci_region *r, const struct scg_expr *cond, size_t *budget);
/* @r minus @minus, in place. */
int oci_region_subtract(struct oci_region *r, const struct oci_region *minus, size_t *budget);
/* Do the two conditions hold together for some arguments?  0 or -errno. */
int oci_expr_overlap(const struct scg_expr *a, const struct scg_expr *b, bool *overlap,
		     size_t *budget);
/* Appends @add's boxes (the caller knows they are disjoint from @r's). */
int oci_region_append(struct oci_region *r, const struct oci_region *add);

#endif
