/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Well-formed UTF-8, for the JSON writer and the policy lexer. */
#include "util/utf8.h"

#include <stdbool.h>

static bool continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t utf8_sequence(const unsigned char *s, size_t n)
{
	if (!n)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	/* the range of the second byte, which rules out overlong forms,
	 * surrogates (U+D800..U+DFFF) and code points past U+10FFFF */
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (!continuation(s[i]))
			return 0;
	return len;
}
