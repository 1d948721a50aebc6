/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "json.h"

#include <stdbool.h>
#include <stdio.h>

#include "util/utf8.h"

/* The escape for @c, a byte that is not copied as it is, into @esc; its length. */
static size_t escape(unsigned char c, char esc[8])
{
	int n;
	if (c == '"' || c == '\\')
		n = snprintf(esc, 8, "\\%c", c);
	else if (c == '\n' || c == '\r' || c == '\t')
		n = snprintf(esc, 8, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
	else if (c < 0x80)
		n = snprintf(esc, 8, "\\u%04x", c);
	else
		n = snprintf(esc, 8, "\\ufffd");
	return (size_t)n;
}

/*
 * The one writer of JSON string literals (the rules are in json.h): hands
 * @put the literal for @len bytes at @s in pieces, runs of bytes that go out
 * as they are between escapes.  Stops at the first piece @put refuses.
 */
int json_write_escaped(json_put put, void *ctx, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	int r = put(ctx, "\"", 1);
	size_t run = 0; /* bytes before p + i that go out as they are */
	for (size_t i = 0; i < len && !r;) {
		unsigned char c = p[i];
		size_t seq = c >= 0x20 && c != '"' && c != '\\' && c != 0x7f ? utf8_sequence(p + i, len - i)
									     : 0;
		if (seq) {
			i += seq;
			run += seq;
			continue;
		}
		if (run)
			r = put(ctx, s + i - run, run);
		run = 0;
		char esc[8];
		if (!r)
			r = put(ctx, esc, escape(c, esc));
		i++;
	}
	if (!r && run)
		r = put(ctx, s + len - run, run);
	return r ? r : put(ctx, "\"", 1);
}

static int put_strbuf(void *ctx, const char *s, size_t n)
{
	strbuf_appendn(ctx, s, n); /* a failure is the strbuf's, sticky */
	return 0;
}

void json_append_string(struct strbuf *sb, const char *s, size_t len)
{
	(void)json_write_escaped(put_strbuf, sb, s, len);
}
