/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growable NUL-terminated string.  An allocation failure is sticky: later
 * appends do nothing and strbuf_finish() reports -ENOMEM, so builders can
 * append freely and check once at the end.
 */
#ifndef SCG_LIB_UTIL_STRBUF_H
#define SCG_LIB_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
};

#define STRBUF_INIT { NULL, 0, 0, false }

void strbuf_append(struct strbuf *sb, const char *s);
void strbuf_appendn(struct strbuf *sb, const char *s, size_t n);
void strbuf_appendf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hands the string to *@out (caller frees) and resets @sb.  0 or -ENOMEM. */
int strbuf_finish(struct strbuf *sb, char **out);
void strbuf_release(struct strbuf *sb);

#endif
