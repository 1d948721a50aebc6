/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Well-formed UTF-8 (RFC 3629), one sequence at a time. */
#ifndef SCG_LIB_UTIL_UTF8_H
#define SCG_LIB_UTIL_UTF8_H

#include <stddef.h>

/*
 * The length of the well-formed UTF-8 sequence at @s (at most @n bytes
 * long): 1 to 4, or 0 if the bytes there are not one (overlong forms,
 * surrogates and code points past U+10FFFF are not).
 */
size_t utf8_sequence(const unsigned char *s, size_t n);

#endif
