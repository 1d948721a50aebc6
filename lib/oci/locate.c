/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where a value sits in the JSON text.
 *
 * json-c builds a tree without source positions, so diagnostics that name
 * a value ("syscalls[3].args[0].index must be 0..5") find it again here by
 * following the same path through the text.  This only skims text json-c
 * has already accepted; it never decides what the document means.  Every
 * step is bounded by @len, so a surprise in the text ends the walk early
 * (at the start of the document) instead of reading past it.
 */
#include <string.h>

#include "internal.h"

/*
 * The skim moves with the scanning cursor, one character at a time, so the
 * cursor's line and column are where it stops.  JSON's structure is ASCII
 * and json-c checked the text is UTF-8, so a character is never cut.
 */

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void skip_ws(struct scan *s)
{
	scan_while(s, is_ws);
}

/* At a '"': moves past the closing quote. */
static void skip_string(struct scan *s)
{
	scan_advance(s);
	while (scan_more(s)) {
		char c = scan_peek(s, 0);
		if (c == '\\')
			scan_advance(s);
		else if (c == '"') {
			scan_advance(s);
			return;
		}
		scan_char(s);
	}
}

static void skip_value(struct scan *s)
{
	skip_ws(s);
	if (!scan_more(s))
		return;
	char c = scan_peek(s, 0);
	if (c == '"') {
		skip_string(s);
		return;
	}
	if (c == '{' || c == '[') {
		size_t depth = 0;
		while (scan_more(s)) {
			c = scan_peek(s, 0);
			if (c == '"') {
				skip_string(s);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0) {
				scan_advance(s);
				return;
			}
			scan_char(s);
		}
		return;
	}
	while (scan_more(s) && !strchr(",]} \t\r\n", scan_peek(s, 0)) && scan_peek(s, 0))
		scan_char(s);
}

/* Compares the raw key at the cursor (a '"') with @key; escaped keys never match. */
static bool key_equals(const struct scan *s, const char *key)
{
	size_t klen = strlen(key);
	size_t start = s->pos + 1;
	return start + klen < s->len && !memcmp(s->text + start, key, klen) &&
	       s->text[start + klen] == '"';
}

/* At a '{': finds member @key (the last one, as json-c keeps the last duplicate). */
static bool enter_member(struct scan *s, const char *key, bool want_key)
{
	struct scan found = { 0 }, found_key = { 0 };
	bool any = false;
	scan_advance(s);
	for (;;) {
		skip_ws(s);
		if (scan_peek(s, 0) != '"')
			break;
		struct scan key_at = *s;
		bool match = key_equals(s, key);
		skip_string(s);
		skip_ws(s);
		if (!scan_accept(s, ":"))
			break;
		skip_ws(s);
		if (match) {
			found = *s;
			found_key = key_at;
			any = true;
		}
		skip_value(s);
		skip_ws(s);
		if (!scan_accept(s, ","))
			break;
	}
	if (!any)
		return false;
	*s = want_key ? found_key : found;
	return true;
}

/* At a '[': finds element @index. */
static bool enter_element(struct scan *s, size_t index)
{
	scan_advance(s);
	for (size_t i = 0;; i++) {
		skip_ws(s);
		if (!scan_more(s) || scan_peek(s, 0) == ']')
			return false;
		if (i == index)
			return true;
		skip_value(s);
		skip_ws(s);
		if (!scan_accept(s, ","))
			return false;
	}
}

static bool walk(struct scan *s, const struct oci_path *path, bool want_key)
{
	if (!path) {
		skip_ws(s);
		return scan_more(s);
	}
	if (!walk(s, path->parent, false))
		return false;
	char open = scan_peek(s, 0);
	if (path->key)
		return open == '{' && enter_member(s, path->key, want_key);
	return open == '[' && enter_element(s, path->index);
}

struct scan oci_locate_cursor(const char *text, size_t len, const struct oci_path *path,
			      bool key)
{
	struct scan s;
	scan_init(&s, text, len);
	if (walk(&s, path, key))
		return s;
	scan_init(&s, text, len);
	skip_ws(&s);
	if (!scan_more(&s))
		scan_init(&s, text, len);
	return s;
}

size_t oci_locate(const char *text, size_t len, const struct oci_path *path, bool key)
{
	return oci_locate_cursor(text, len, path, key).pos;
}

void oci_locate_elements(const char *text, size_t len, const struct oci_path *array,
			 const char *file, struct scg_loc *locs, size_t n)
{
	struct scan s;
	scan_init(&s, text, len);
	struct scg_loc last = scan_loc(&s, file); /* for the ones not found */
	size_t i = 0;
	if (walk(&s, array, false) && scan_accept(&s, "[")) {
		for (; i < n; i++) {
			skip_ws(&s);
			if (!scan_more(&s) || scan_peek(&s, 0) == ']')
				break;
			locs[i] = last = scan_loc(&s, file);
			skip_value(&s);
			skip_ws(&s);
			if (!scan_accept(&s, ",")) {
				i++;
				break;
			}
		}
	}
	for (; i < n; i++)
		locs[i] = last;
}

void oci_offset_to_linecol(const char *text, size_t len, size_t offset, unsigned *line,
			   unsigned *col)
{
	struct scan s;
	scan_init(&s, text, len);
	while (s.pos < offset && scan_more(&s))
		scan_char(&s);
	*line = s.line;
	*col = s.column;
}
