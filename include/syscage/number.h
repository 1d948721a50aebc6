/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Integer literals, as the policy language, the assembler and the command read them. */
#ifndef SYSCAGE_NUMBER_H
#define SYSCAGE_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The whole of @s[0..@len) as an integer literal the way the policy language
 * and the assembler write them: decimal, 0x hex, 0o or leading-0 octal, 0b
 * binary, with an optional '-' that yields the two's complement ("-1" is
 * 0xffffffffffffffff).  Returns 0, -EINVAL (not a number) or -ERANGE (does
 * not fit in 64 bits).
 */
SCG_API int scg_parse_u64(const char *s, size_t len, uint64_t *out);
/* Same, for values that fit in 32 bits: 0..0xffffffff or -0x80000000..-1. */
SCG_API int scg_parse_u32(const char *s, size_t len, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_NUMBER_H */
