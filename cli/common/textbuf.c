/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "textbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The stream, opened on first use; NULL once anything has failed. */
static FILE *stream_of(struct textbuf *tb)
{
	if (tb->failed)
		return NULL;
	if (!tb->stream) {
		tb->stream = open_memstream(&tb->data, &tb->len);
		tb->failed = !tb->stream;
	}
	return tb->stream;
}

void textbuf_appendn(struct textbuf *tb, const char *s, size_t n)
{
	FILE *f = stream_of(tb);
	if (f && n && fwrite(s, 1, n, f) != n)
		tb->failed = true;
}

void textbuf_append(struct textbuf *tb, const char *s)
{
	textbuf_appendn(tb, s, strlen(s));
}

void textbuf_appendf(struct textbuf *tb, const char *fmt, ...)
{
	FILE *f = stream_of(tb);
	if (!f)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vfprintf(f, fmt, ap) < 0)
		tb->failed = true;
	va_end(ap);
}

void textbuf_json_string(struct textbuf *tb, const char *s)
{
	FILE *f = stream_of(tb);
	if (f)
		cli_json_string(f, s);
}

int textbuf_finish(struct textbuf *tb, char **out)
{
	*out = NULL;
	stream_of(tb); /* an empty text is still a string */
	/* fclose() flushes into data; both must work for the text to be whole */
	bool ok = tb->stream && !tb->failed && !ferror(tb->stream);
	if (tb->stream && fclose(tb->stream) != 0)
		ok = false;
	if (ok)
		*out = tb->data;
	else
		free(tb->data);
	*tb = (struct textbuf)TEXTBUF_INIT;
	return ok ? 0 : -ENOMEM;
}
