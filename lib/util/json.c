/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "json.h"

#include <stdbool.h>
#include <stdio.h>

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

void json_append_string(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	strbuf_append(sb, "\"");
	size_t run = 0; /* bytes at p that go out as they are */
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t seq = c >= 0x20 && c != '"' && c != '\\' && c != 0x7f ? utf8_sequence(p + i, len - i)
									     : 0;
		if (seq) {
			i += seq;
			run += seq;
			continue;
		}
		if (run)
			strbuf_appendn(sb, s + i - run, run);
		run = 0;
		char esc[8];
		if (c == '"' || c == '\\')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n' || c == '\r' || c == '\t')
			snprintf(esc, sizeof(esc), "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x80)
			snprintf(esc, sizeof(esc), "\\u%04x", c);
		else
			snprintf(esc, sizeof(esc), "\\ufffd");
		strbuf_append(sb, esc);
		i++;
	}
	if (run)
		strbuf_appendn(sb, s + len - run, run);
	strbuf_append(sb, "\"");
}
