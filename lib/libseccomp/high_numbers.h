/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libseccomp's verdict for x86_64 numbers 0x80000000..0xbfffffff, for the two
 * places that must reproduce libseccomp rather than the kernel's tables: the
 * libseccomp drop-in (compat/) and the OCI import and export (lib/oci/, which
 * runc feeds to libseccomp).  Not part of the API: a quirk of one library's
 * filter layout, not a property of policies.
 *
 * libseccomp's filter for x86_64 without x32 sends every number from
 * 0x40000000 up (but -1) to the bad-architecture action.  Numbers
 * 0x80000000..0xbfffffff carry no x32 bit: to the policy model they are
 * x86_64 numbers no table knows, so without help they would get the
 * `unknown` verdict instead.
 */
#ifndef SCG_LIB_LIBSECCOMP_HIGH_NUMBERS_H
#define SCG_LIB_LIBSECCOMP_HIGH_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/policy.h>

/*
 * When @policy targets x86_64 and not x32, adds the rule that gives those
 * numbers the badarch verdict (so set that first); nothing otherwise.
 * 0 or -errno.
 */
int libseccomp_high_add(struct scg_policy *policy);

/*
 * True when rule @index gives x86_64 what libseccomp_high_add()'s rule gives
 * it (libseccomp gives it by itself); on other ABIs the rule may still decide.
 */
bool libseccomp_high_rule_is(const struct scg_policy *policy, size_t index);

#endif
