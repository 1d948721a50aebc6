/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The values one of libseccomp's comparisons accepts, as an exact set, for
 * the drop-in's question "does every call rule A matches also match rule
 * B?" (which of two overlapping rules decides, compat/generate.c).  One
 * comparison accepts a range, all values but one, or the values whose
 * masked bits are fixed; the register is @w wide, @w being 2^k - 1
 * (UINT32_MAX or UINT64_MAX for the ABIs; the algebra holds for any k, so
 * tests can check it against every value of a small register).  The
 * comparison's values are cut to @w, as a 32-bit ABI's registers cut
 * them; SCMP_CMP_MASKED_EQ compares the masked argument with the masked
 * datum.  Not part of the API.
 */
#ifndef SCG_LIB_LIBSECCOMP_CMP_SET_H
#define SCG_LIB_LIBSECCOMP_CMP_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "libseccomp/rule_tree.h"

/* Whether @c accepts no value of a @w-wide register. */
bool libseccomp_cmp_empty(const struct libseccomp_cmp *c, uint64_t w);

/* Whether every value @x accepts, @y accepts too (their arguments are not compared). */
bool libseccomp_cmp_subset(const struct libseccomp_cmp *x, const struct libseccomp_cmp *y,
			   uint64_t w);

#endif
