/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The assembler's lexer: cuts the source into identifiers, numbers and
 * punctuation, skipping blanks and comments (";" or "//" to the end of the
 * line, "/" "*" ... "*" "/", and bpf_asm's "#" in the first column).  It
 * works on any bytes: a NUL or a non-ASCII byte is an error, never the end.
 */
#include <ctype.h>
#include <string.h>

#include "bpf/asm_internal.h"

void asm_lexer_init(struct asm_lexer *lx, const char *text, size_t len)
{
	*lx = (struct asm_lexer){ text, len, 0, 1, 1 };
}

bool asm_lexer_more(const struct asm_lexer *lx)
{
	return lx->pos < lx->len;
}

static char cur(const struct asm_lexer *lx)
{
	return lx->pos < lx->len ? lx->text[lx->pos] : '\0';
}

static char ahead(const struct asm_lexer *lx, size_t n)
{
	return lx->pos + n < lx->len ? lx->text[lx->pos + n] : '\0';
}

static void advance(struct asm_lexer *lx)
{
	if (lx->pos >= lx->len)
		return;
	if (lx->text[lx->pos] == '\n') {
		lx->line++;
		lx->column = 1;
	} else {
		lx->column++;
	}
	lx->pos++;
}

void asm_lex_skip_line(struct asm_lexer *lx)
{
	while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
		advance(lx);
	advance(lx);
}

static void skip_to_newline(struct asm_lexer *lx)
{
	while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
		advance(lx);
}

/* Skips a block comment starting at the lexer; false if it never ends. */
static bool skip_block_comment(struct asm_lexer *lx)
{
	advance(lx);
	advance(lx);
	while (lx->pos < lx->len) {
		if (cur(lx) == '*' && ahead(lx, 1) == '/') {
			advance(lx);
			advance(lx);
			return true;
		}
		advance(lx);
	}
	return false;
}

/* Skips blanks and comments, but not newlines.  False on an unterminated comment. */
static bool skip_blanks(struct asm_ctx *ctx, struct asm_lexer *lx)
{
	for (;;) {
		char c = cur(lx);
		if (lx->pos >= lx->len)
			return true;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == ';' || (c == '/' && ahead(lx, 1) == '/') ||
			   (c == '#' && lx->column == 1)) {
			skip_to_newline(lx);
		} else if (c == '/' && ahead(lx, 1) == '*') {
			unsigned line = lx->line, column = lx->column;
			if (!skip_block_comment(lx)) {
				asm_error(ctx, line, column, "asm-comment", "close it with */",
					  "comment never ends");
				return false;
			}
		} else {
			return true;
		}
	}
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static bool is_number_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void take_while(struct asm_lexer *lx, bool (*pred)(char))
{
	while (lx->pos < lx->len && pred(lx->text[lx->pos]))
		advance(lx);
}

static void report_bad_char(struct asm_ctx *ctx, const struct asm_lexer *lx)
{
	unsigned char c = (unsigned char)cur(lx);
	if (c >= 0x21 && c < 0x7f)
		asm_error(ctx, lx->line, lx->column, "asm-syntax", NULL, "unexpected character '%c'",
			  c);
	else
		asm_error(ctx, lx->line, lx->column, "asm-syntax",
			  c >= 0x80 ? "the assembler reads ASCII text; is this a raw filter file?"
				    : NULL,
			  "unexpected byte 0x%02x", c);
}

bool asm_lex(struct asm_ctx *ctx, struct asm_lexer *lx, struct asm_token *tok)
{
	if (!skip_blanks(ctx, lx)) {
		*tok = (struct asm_token){ ASM_TOK_END, lx->text + lx->pos, 0, lx->line, lx->column };
		return false;
	}
	*tok = (struct asm_token){ ASM_TOK_END, lx->text + lx->pos, 0, lx->line, lx->column };
	size_t start = lx->pos;
	char c = cur(lx);
	if (lx->pos >= lx->len)
		return true;
	if (c == '\n') {
		advance(lx);
		return true;
	}
	if (is_ident_start(c)) {
		tok->kind = ASM_TOK_IDENT;
		take_while(lx, is_ident_char);
	} else if (isdigit((unsigned char)c) || (c == '-' && isdigit((unsigned char)ahead(lx, 1)))) {
		tok->kind = ASM_TOK_NUMBER;
		advance(lx);
		take_while(lx, is_number_char);
	} else if (c && strchr(":,#%[]()+-*&.", c)) {
		tok->kind = ASM_TOK_PUNCT;
		advance(lx);
	} else {
		report_bad_char(ctx, lx);
		advance(lx);
		return false;
	}
	tok->len = lx->pos - start;
	return true;
}
