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

struct skim {
	const char *text;
	size_t len;
	size_t pos;
};

static void skip_ws(struct skim *s)
{
	while (s->pos < s->len && strchr(" \t\r\n", s->text[s->pos]) && s->text[s->pos])
		s->pos++;
}

/* At a '"': moves past the closing quote. */
static void skip_string(struct skim *s)
{
	for (s->pos++; s->pos < s->len; s->pos++) {
		if (s->text[s->pos] == '\\')
			s->pos++;
		else if (s->text[s->pos] == '"') {
			s->pos++;
			return;
		}
	}
}

static void skip_value(struct skim *s)
{
	skip_ws(s);
	if (s->pos >= s->len)
		return;
	char c = s->text[s->pos];
	if (c == '"') {
		skip_string(s);
		return;
	}
	if (c == '{' || c == '[') {
		size_t depth = 0;
		while (s->pos < s->len) {
			c = s->text[s->pos];
			if (c == '"') {
				skip_string(s);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0) {
				s->pos++;
				return;
			}
			s->pos++;
		}
		return;
	}
	while (s->pos < s->len && !strchr(",]} \t\r\n", s->text[s->pos]) && s->text[s->pos])
		s->pos++;
}

/* Compares the raw key at s->pos (a '"') with @key; escaped keys never match. */
static bool key_equals(const struct skim *s, const char *key)
{
	size_t klen = strlen(key);
	size_t start = s->pos + 1;
	return start + klen < s->len && !memcmp(s->text + start, key, klen) &&
	       s->text[start + klen] == '"';
}

/* At a '{': finds member @key (the last one, as json-c keeps the last duplicate). */
static bool enter_member(struct skim *s, const char *key, bool want_key)
{
	size_t found = (size_t)-1, found_key = 0;
	s->pos++;
	for (;;) {
		skip_ws(s);
		if (s->pos >= s->len || s->text[s->pos] != '"')
			break;
		size_t key_pos = s->pos;
		bool match = key_equals(s, key);
		skip_string(s);
		skip_ws(s);
		if (s->pos >= s->len || s->text[s->pos] != ':')
			break;
		s->pos++;
		skip_ws(s);
		if (match) {
			found = s->pos;
			found_key = key_pos;
		}
		skip_value(s);
		skip_ws(s);
		if (s->pos >= s->len || s->text[s->pos] != ',')
			break;
		s->pos++;
	}
	if (found == (size_t)-1)
		return false;
	s->pos = want_key ? found_key : found;
	return true;
}

/* At a '[': finds element @index. */
static bool enter_element(struct skim *s, size_t index)
{
	s->pos++;
	for (size_t i = 0;; i++) {
		skip_ws(s);
		if (s->pos >= s->len || s->text[s->pos] == ']')
			return false;
		if (i == index)
			return true;
		skip_value(s);
		skip_ws(s);
		if (s->pos >= s->len || s->text[s->pos] != ',')
			return false;
		s->pos++;
	}
}

static bool walk(struct skim *s, const struct oci_path *path, bool want_key)
{
	if (!path) {
		skip_ws(s);
		return s->pos < s->len;
	}
	if (!walk(s, path->parent, false))
		return false;
	char open = s->text[s->pos];
	if (path->key)
		return open == '{' && enter_member(s, path->key, want_key);
	return open == '[' && enter_element(s, path->index);
}

size_t oci_locate(const char *text, size_t len, const struct oci_path *path, bool key)
{
	struct skim s = { text, len, 0 };
	if (walk(&s, path, key))
		return s.pos;
	s.pos = 0;
	skip_ws(&s);
	return s.pos < len ? s.pos : 0;
}

void oci_locate_elements(const char *text, size_t len, const struct oci_path *array,
			 size_t *offsets, size_t n)
{
	struct skim s = { text, len, 0 };
	memset(offsets, 0, n * sizeof(*offsets));
	if (!walk(&s, array, false) || s.text[s.pos] != '[')
		return;
	s.pos++;
	for (size_t i = 0; i < n; i++) {
		skip_ws(&s);
		if (s.pos >= s.len || s.text[s.pos] == ']')
			return;
		offsets[i] = s.pos;
		skip_value(&s);
		skip_ws(&s);
		if (s.pos >= s.len || s.text[s.pos] != ',')
			return;
		s.pos++;
	}
}

void oci_advance_linecol(const char *text, size_t len, size_t *at, size_t offset, size_t *line,
			 size_t *col)
{
	if (offset > len)
		offset = len;
	for (; *at < offset; ++*at) {
		unsigned char b = (unsigned char)text[*at];
		if (b == '\n') {
			++*line;
			*col = 1;
		} else if ((b & 0xc0) != 0x80) {
			/* continuation bytes of a UTF-8 character do not start a column */
			++*col;
		}
	}
}

void oci_offset_to_linecol(const char *text, size_t len, size_t offset, unsigned *line,
			   unsigned *col)
{
	size_t at = 0, l = 1, c = 1;
	oci_advance_linecol(text, len, &at, offset, &l, &c);
	*line = (unsigned)l;
	*col = (unsigned)c;
}
