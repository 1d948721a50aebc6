/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 99;
}

/* Splits off a radix prefix; returns the radix and advances *pos. */
static unsigned radix_prefix(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos;
	if (len - i >= 2 && s[i] == '0') {
		char p = (char)tolower((unsigned char)s[i + 1]);
		if (p == 'x') {
			*pos = i + 2;
			return 16;
		}
		if (p == 'b') {
			*pos = i + 2;
			return 2;
		}
		if (p == 'o') {
			*pos = i + 2;
			return 8;
		}
		*pos = i + 1;
		return 8; /* C: a leading zero means octal */
	}
	return 10;
}

int scg_parse_u64(const char *s, size_t len, uint64_t *out)
{
	size_t i = 0;
	bool negative = false;
	if (len > 0 && (s[0] == '-' || s[0] == '+')) {
		negative = s[0] == '-';
		i = 1;
	}
	if (i >= len)
		return -EINVAL;
	unsigned radix = radix_prefix(s, len, &i);
	/* "0" alone is decimal zero; "0x" alone is not a number */
	if (i == len && radix == 8 && s[len - 1] == '0')
		return *out = 0, 0;
	if (i >= len)
		return -EINVAL;

	uint64_t value = 0;
	for (; i < len; i++) {
		if (s[i] == '_' && i + 1 < len) /* 0xffff_0000 */
			continue;
		int d = digit_value(s[i]);
		if (d >= (int)radix)
			return -EINVAL;
		if (value > (UINT64_MAX - (uint64_t)d) / radix)
			return -ERANGE;
		value = value * radix + (uint64_t)d;
	}
	if (negative) {
		if (value > (uint64_t)1 << 63)
			return -ERANGE;
		value = (uint64_t)0 - value;
	}
	*out = value;
	return 0;
}

int scg_parse_u32(const char *s, size_t len, uint32_t *out)
{
	uint64_t v;
	int r = scg_parse_u64(s, len, &v);
	if (r < 0)
		return r;
	bool negative = len > 0 && s[0] == '-';
	if (negative ? v < 0xffffffff80000000ULL : v > 0xffffffffULL)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}
