/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* C-style integer literals: decimal, 0x hex, 0o/leading-0 octal, 0b binary, optional '-'. */
#ifndef SCG_LIB_UTIL_NUMBER_H
#define SCG_LIB_UTIL_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses the whole of @s[0..@len) as a number that fits in 64 bits; a leading
 * '-' yields the two's complement (so "-1" is 0xffffffffffffffff).  Returns 0,
 * -EINVAL (not a number) or -ERANGE (does not fit).
 */
int scg_parse_u64(const char *s, size_t len, uint64_t *out);

/* Same, but the value must fit in 32 bits: 0..0xffffffff or -0x80000000..-1. */
int scg_parse_u32(const char *s, size_t len, uint32_t *out);

#endif
