/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JSON strings for the JSON the library writes by hand.
 *
 * The rules are those of scg_json_write_string() (<syscage/json.h>), which
 * shares this writer and is how the command writes its JSON strings: '"'
 * and '\\' escaped, \n, \r and \t short, every other control character and
 * DEL \u00XX, well-formed UTF-8 copied, and each byte that starts no
 * well-formed sequence \ufffd, so the output is always valid JSON and always
 * UTF-8.  A NUL inside @len bytes is \u0000.
 */
#ifndef SCG_LIB_UTIL_JSON_H
#define SCG_LIB_UTIL_JSON_H

#include <stddef.h>

#include "util/strbuf.h"

/* Appends @len bytes at @s to @sb as a quoted JSON string (@s may be NULL if @len is 0). */
/* Where the pieces of a literal go: 0, or a negative errno that ends the literal. */
typedef int (*json_put)(void *ctx, const char *s, size_t n);

/*
 * The one writer of JSON string literals: hands @put the literal for @len
 * bytes at @s in pieces.  Returns 0 or the first refusal of @put.
 */
int json_write_escaped(json_put put, void *ctx, const char *s, size_t len);

void json_append_string(struct strbuf *sb, const char *s, size_t len);

#endif
