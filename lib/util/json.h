/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON strings for the JSON the library writes by hand.
 *
 * The rules, which the command's cli_json_stringn() (cli/io.c) follows
 * too: '"' and '\\' are escaped, \n, \r and \t take their short escapes,
 * every other control character and DEL become \u00XX; well-formed UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF) is
 * copied as it is.  A byte that does not start a well-formed sequence
 * becomes \ufffd, the replacement character, one for each such byte, so the
 * output is always valid JSON and always UTF-8, and a stray byte can never
 * swallow the closing quote.  A NUL inside @len bytes is \u0000.
 */
#ifndef SCG_LIB_UTIL_JSON_H
#define SCG_LIB_UTIL_JSON_H

#include <stddef.h>

#include "util/strbuf.h"

/* Appends @len bytes at @s to @sb as a quoted JSON string. */
void json_append_string(struct strbuf *sb, const char *s, size_t len);

/*
 * The length of the well-formed UTF-8 sequence at @s (at most @n bytes
 * long): 1 to 4, or 0 if the bytes there are not one.
 */
size_t utf8_sequence(const unsigned char *s, size_t n);

#endif
