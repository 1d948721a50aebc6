/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A scanning cursor over a text held in memory, for the lexers: the next
 * byte, its line and its column, and the moves every lexer makes (blanks,
 * the rest of a line, a run of bytes of one class, a literal).  Lines and
 * columns are 1-based; a column counts bytes, or characters where the lexer
 * moves by scan_char().  Any byte is text: a NUL is a byte like another,
 * and only the length ends the text.
 */
#ifndef SCG_LIB_UTIL_SCAN_H
#define SCG_LIB_UTIL_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/diag.h>

struct scan {
	const char *text;
	size_t len, pos;      /* the next byte is text[pos] */
	unsigned line, column; /* of text[pos] */
};

/* A cursor at the start of the @len bytes at @text (borrowed). */
void scan_init(struct scan *s, const char *text, size_t len);
/*
 * The same, for a piece of a larger text (one line of a log, one statement
 * cut out of a file) whose first byte sits at @line, @column of that text:
 * the locations the cursor gives are the larger text's.
 */
void scan_init_at(struct scan *s, const char *text, size_t len, unsigned line, unsigned column);

/* Whether a byte is left. */
static inline bool scan_more(const struct scan *s)
{
	return s->pos < s->len;
}

/* The byte @ahead bytes past the cursor, or '\0' past the end. */
static inline char scan_peek(const struct scan *s, size_t ahead)
{
	return ahead < s->len - s->pos ? s->text[s->pos + ahead] : '\0';
}

/* Where the cursor is, in @file (borrowed), as a diagnostic's location. */
struct scg_loc scan_loc(const struct scan *s, const char *file);

/* Moves over one byte (nothing at the end); a '\n' starts the next line. */
void scan_advance(struct scan *s);
/* Moves over @n bytes, or to the end. */
void scan_skip(struct scan *s, size_t n);
/*
 * Moves over one character, counted as one column: a well-formed UTF-8
 * sequence, or one byte of any other; returns the sequence's length, or 0
 * for a byte that starts none (moved over all the same).
 */
size_t scan_char(struct scan *s);

/* Moves over the literal @lit if the text continues with it; whether it did. */
bool scan_accept(struct scan *s, const char *lit);
/* Moves over the bytes @pred accepts; returns how many. */
size_t scan_while(struct scan *s, bool (*pred)(char));
/* Moves over blanks (space, \t, \r, \f, \v: not '\n'); returns how many. */
size_t scan_blanks(struct scan *s);
/*
 * Drops the blanks that end the text (never those before the cursor), so
 * that the cursor stops before them; returns how many.
 */
size_t scan_trim_end(struct scan *s);
/* Moves to the end of the line: onto its '\n', or to the end of the text. */
void scan_to_eol(struct scan *s);
/* Moves past the end of the line, over its '\n'. */
void scan_line(struct scan *s);

/* The byte classes the lexers share. */
bool scan_is_blank(char c);       /* space, \t, \r, \f, \v */
bool scan_is_digit(char c);       /* 0-9 */
bool scan_is_ident_start(char c); /* a-z, A-Z, _ */
bool scan_is_ident_char(char c);  /* a-z, A-Z, _, 0-9 */

#endif
