/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "strbuf.h"

#include "grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool strbuf_reserve(struct strbuf *sb, size_t extra)
{
	if (sb->failed)
		return false;
	bool empty = !sb->data;
	if (extra > SIZE_MAX - sb->len - 1 || GROW_ARRAY(&sb->data, &sb->cap, sb->len + extra + 1, 64)) {
		sb->failed = true;
		return false;
	}
	if (empty)
		sb->data[0] = '\0';
	return true;
}

void strbuf_appendn(struct strbuf *sb, const char *s, size_t n)
{
	if (!strbuf_reserve(sb, n))
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_append(struct strbuf *sb, const char *s)
{
	strbuf_appendn(sb, s, strlen(s));
}

void strbuf_appendf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (need < 0) {
		sb->failed = true;
		return;
	}
	if (!strbuf_reserve(sb, (size_t)need))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)need + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)need;
}

int strbuf_finish(struct strbuf *sb, char **out)
{
	if (!sb->failed && !strbuf_reserve(sb, 0)) /* an empty buffer still yields "" */
		sb->failed = true;
	if (sb->failed) {
		strbuf_release(sb);
		*out = NULL;
		return -ENOMEM;
	}
	*out = sb->data;
	*sb = (struct strbuf)STRBUF_INIT;
	return 0;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->data);
	*sb = (struct strbuf)STRBUF_INIT;
}
