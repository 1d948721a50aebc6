/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Random policies for differential tests of the compiler: random rules over
 * random syscalls of random ABIs (big- and little-endian, x32, MIPS), raw
 * numbers and number ranges (small ones over known syscalls, huge ones over
 * unknown numbers up to 0xffffffff), with
 * conditions using every operator, both widths, masks and nesting, and
 * every kind of action; plus the argument values that matter for a policy
 * (at and around each constant, in both halves).  Deterministic per seed.
 */
#ifndef SCG_TESTS_POLGEN_H
#define SCG_TESTS_POLGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

#include "support/progen.h"

struct polgen_opts {
	size_t max_rules;        /* 1.. */
	unsigned max_depth;      /* condition nesting, 0 = comparisons only */
	/* When set, only these ABIs are targets (NULL-terminated); otherwise 1-3 random ones. */
	const struct scg_arch *const *arches;
	/* Actions come from this list when not NULL (@nactions entries); otherwise any value. */
	const uint32_t *actions;
	size_t nactions;
	/* Rules name syscalls from this list when not NULL; otherwise any name or number. */
	const char *const *syscalls;
	size_t nsyscalls;
};

/* A new random policy (caller frees), or NULL on allocation failure. */
struct scg_policy *polgen_policy(struct progen_rng *rng, const struct polgen_opts *opts);

/* A random condition over arguments 0..@max_arg with nesting up to @depth. */
struct scg_expr *polgen_expr(struct progen_rng *rng, unsigned depth, unsigned max_arg);

/*
 * Values of argument @arg worth testing against @policy: 0, ~0, and for each
 * constant compared with that argument, the constant, +-1 in each 32-bit
 * half, sign- and zero-extended low halves, and the mask.  Writes up to @max
 * distinct values and returns how many.
 */
size_t polgen_arg_values(const struct scg_policy *policy, unsigned arg, uint64_t *out, size_t max);

/* Effect equality of two return values as the kernel sees them (data only where it counts). */
bool polgen_same_effect(uint32_t a, uint32_t b);

#endif
