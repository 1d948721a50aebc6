/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writing JSON: string literals, and a streaming writer that places the
 * commas, quotes the keys and escapes the strings, for programs that write
 * JSON of their own around the library's data.
 */
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

/*
 * A streaming JSON writer onto a stdio stream: objects and arrays nest, the
 * writer puts the separators between their members and checks that keys
 * come where an object expects them.  Nothing is held back: each call
 * writes its text at once, so the caller may interleave output of its own
 * (a newline after the document, say) between documents.
 *
 * How a container is laid out is chosen when it is opened:
 *
 *   SCG_JSON_INLINE  {"a": 1, "b": [2, 3]}: members on one line, ", " between;
 *   SCG_JSON_LINES   each member on its own line, indented two spaces per
 *                    open SCG_JSON_LINES container (inline ones add none),
 *                    the closing bracket on a line of its own; an empty
 *                    container is {} or [];
 *   SCG_JSON_COMPACT {"a":1,"b":[2,3]}: no spaces, for one document a line
 *                    (JSON Lines logs); containers opened inside it are laid
 *                    out as they say.
 *
 * Every function returns 0 or a negative errno: -EINVAL for a misuse (a key
 * outside an object, a value where a key is due, an end with nothing open,
 * nesting deeper than SCG_JSON_MAX_DEPTH, an unknown layout), or the error
 * of the first failed write.  The first error sticks: later calls write
 * nothing and return it.
 */
struct scg_json;

enum scg_json_layout {
	SCG_JSON_INLINE = 0,
	SCG_JSON_LINES = 1,
	SCG_JSON_COMPACT = 2,
};

#define SCG_JSON_MAX_DEPTH 32

/* A writer onto @out (not closed by the writer), or NULL with errno set. */
SCG_API struct scg_json *scg_json_new(FILE *out);
/*
 * Frees the writer; returns its sticky error, or -EINVAL when a container is
 * still open, else 0.  A NULL writer is 0.
 */
SCG_API int scg_json_free(struct scg_json *w);

/* Opens an object or an array, as a value (after a key in an object, or in an array) or as the document. */
SCG_API int scg_json_object(struct scg_json *w, enum scg_json_layout layout);
SCG_API int scg_json_array(struct scg_json *w, enum scg_json_layout layout);
/* Closes the innermost open object or array. */
SCG_API int scg_json_end(struct scg_json *w);

/* The key of the next member of the open object (NUL-terminated, escaped as a string). */
SCG_API int scg_json_key(struct scg_json *w, const char *key);

/* Values.  scg_json_string() of NULL writes null; scg_json_stringn() takes @len bytes. */
SCG_API int scg_json_string(struct scg_json *w, const char *s);
SCG_API int scg_json_stringn(struct scg_json *w, const char *s, size_t len);
SCG_API int scg_json_int(struct scg_json *w, long long v);
SCG_API int scg_json_uint(struct scg_json *w, unsigned long long v);
SCG_API int scg_json_bool(struct scg_json *w, int v);
SCG_API int scg_json_null(struct scg_json *w);
/*
 * A value written as printf() formats it: for numbers in a form of the
 * caller's choosing ("%.3f", "%#llx" in quotes...).  The caller answers for
 * it being one JSON value.
 */
SCG_API int scg_json_valuef(struct scg_json *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A member of the open object in one call: its key, then its value (errors are sticky). */
static inline int scg_json_member_string(struct scg_json *w, const char *key, const char *s)
{
	int r = scg_json_key(w, key);
	return r < 0 ? r : scg_json_string(w, s);
}
static inline int scg_json_member_int(struct scg_json *w, const char *key, long long v)
{
	int r = scg_json_key(w, key);
	return r < 0 ? r : scg_json_int(w, v);
}
static inline int scg_json_member_uint(struct scg_json *w, const char *key, unsigned long long v)
{
	int r = scg_json_key(w, key);
	return r < 0 ? r : scg_json_uint(w, v);
}
static inline int scg_json_member_bool(struct scg_json *w, const char *key, int v)
{
	int r = scg_json_key(w, key);
	return r < 0 ? r : scg_json_bool(w, v);
}

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_JSON_H */
