/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JSON string literals, for programs that write JSON of their own around the library's data. */
#ifndef SYSCAGE_JSON_H
#define SYSCAGE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the @len bytes at @s to @out as one JSON string literal, quotes
 * included; @s may be NULL when @len is 0 ("").  '"' and '\\' are escaped,
 * \n, \r and \t take their short escapes, every other control character and
 * DEL become \u00XX (a NUL inside @len bytes is \u0000).  Well-formed UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF) is
 * copied as it is; each byte that starts no well-formed sequence becomes
 * \ufffd, the replacement character.  So the output is valid JSON and valid
 * UTF-8 whatever @s holds, and a stray byte never swallows the closing quote.
 * These are the rules of every JSON string the library itself writes.
 *
 * Returns 0, -EINVAL (@out NULL, or @s NULL with @len > 0), or the negative
 * errno of the first write that failed (-EIO if the stream set none); the
 * stream's error indicator stays set, and part of the literal may have been
 * written.  A buffered stream may report the
 * failure only when flushed.
 */
SCG_API int scg_json_write_string(FILE *out, const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_JSON_H */
