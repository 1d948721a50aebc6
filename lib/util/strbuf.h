/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growable NUL-terminated string.  An allocation failure is sticky: later
 * appends do nothing and scg_strbuf_finish() reports -ENOMEM, so builders can
 * append freely and check once at the end.
 */
#ifndef SCG_LIB_UTIL_STRBUF_H
#define SCG_LIB_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct scg_strbuf {
	char *data;
	size_t len;
	size_t cap;
	bool failed;
};

#define SCG_STRBUF_INIT { NULL, 0, 0, false }

void scg_strbuf_append(struct scg_strbuf *sb, const char *s);
void scg_strbuf_appendn(struct scg_strbuf *sb, const char *s, size_t n);
void scg_strbuf_appendf(struct scg_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hands the string to *@out (caller frees) and resets @sb.  0 or -ENOMEM. */
int scg_strbuf_finish(struct scg_strbuf *sb, char **out);
void scg_strbuf_release(struct scg_strbuf *sb);

#endif
