/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growing string for the command's JSON and SVG output, on a memory
 * stream.  A failure is sticky: later appends do nothing and
 * textbuf_finish() reports -ENOMEM, so a writer appends freely and checks
 * once at the end.
 */
#ifndef SYSCAGE_CLI_TEXTBUF_H
#define SYSCAGE_CLI_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct textbuf {
	FILE *stream; /* opened on the first append */
	char *data;
	size_t len;
	bool failed;
};

#define TEXTBUF_INIT { NULL, NULL, 0, false }

void textbuf_append(struct textbuf *tb, const char *s);
void textbuf_appendn(struct textbuf *tb, const char *s, size_t n);
void textbuf_appendf(struct textbuf *tb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Appends @s as a JSON string: cli_json_string(). */
void textbuf_json_string(struct textbuf *tb, const char *s);
/* Hands the string to *@out (caller frees) and resets @tb.  0 or -ENOMEM. */
int textbuf_finish(struct textbuf *tb, char **out);

#endif
