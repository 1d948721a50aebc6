/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The lexers' scanning cursor (scan.h). */
#include <string.h>

#include "util/scan.h"
#include "util/utf8.h"

void scan_init(struct scan *s, const char *text, size_t len)
{
	scan_init_at(s, text, len, 1, 1);
}

void scan_init_at(struct scan *s, const char *text, size_t len, unsigned line, unsigned column)
{
	*s = (struct scan){ .text = text, .len = len, .pos = 0, .line = line, .column = column };
}

struct scg_loc scan_loc(const struct scan *s, const char *file)
{
	return (struct scg_loc){ file, s->line, s->column, -1 };
}

void scan_advance(struct scan *s)
{
	if (s->pos >= s->len)
		return;
	if (s->text[s->pos++] == '\n') {
		s->line++;
		s->column = 1;
	} else {
		s->column++;
	}
}

void scan_skip(struct scan *s, size_t n)
{
	while (n-- > 0 && s->pos < s->len)
		scan_advance(s);
}

size_t scan_char(struct scan *s)
{
	if (s->pos >= s->len)
		return 0;
	if (s->text[s->pos] == '\n') {
		scan_advance(s);
		return 1;
	}
	size_t n = utf8_sequence((const unsigned char *)s->text + s->pos, s->len - s->pos);
	s->pos += n ? n : 1;
	s->column++;
	return n;
}

bool scan_accept(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);
	if (n > s->len - s->pos || (n && memcmp(s->text + s->pos, lit, n) != 0))
		return false;
	scan_skip(s, n);
	return true;
}

size_t scan_while(struct scan *s, bool (*pred)(char))
{
	size_t start = s->pos;
	while (s->pos < s->len && pred(s->text[s->pos]))
		scan_advance(s);
	return s->pos - start;
}

bool scan_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

size_t scan_blanks(struct scan *s)
{
	return scan_while(s, scan_is_blank);
}

size_t scan_trim_end(struct scan *s)
{
	size_t len = s->len;
	while (s->len > s->pos && scan_is_blank(s->text[s->len - 1]))
		s->len--;
	return len - s->len;
}

void scan_to_eol(struct scan *s)
{
	if (s->pos >= s->len)
		return;
	const char *nl = memchr(s->text + s->pos, '\n', s->len - s->pos);
	size_t end = nl ? (size_t)(nl - s->text) : s->len;
	s->column += (unsigned)(end - s->pos);
	s->pos = end;
}

void scan_line(struct scan *s)
{
	scan_to_eol(s);
	scan_advance(s);
}

bool scan_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool scan_is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool scan_is_ident_char(char c)
{
	return scan_is_ident_start(c) || scan_is_digit(c);
}
