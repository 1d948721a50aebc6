/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The assembler's lexer: cuts the source into identifiers, numbers and
 * punctuation, skipping blanks and comments (";" or "//" to the end of the
 * line, "/" "*" ... "*" "/", and bpf_asm's "#" in the first column).  It
 * works on any bytes: a NUL or a non-ASCII byte is an error, never the end.
 */
#include <string.h>

#include "bpf/asm_internal.h"

/* Skips a block comment starting at the lexer; false if it never ends. */
static bool skip_block_comment(struct scan *lx)
{
	scan_skip(lx, 2);
	while (scan_more(lx)) {
		if (scan_accept(lx, "*/"))
			return true;
		scan_advance(lx);
	}
	return false;
}

/* Skips blanks and comments, but not newlines.  False on an unterminated comment. */
static bool skip_blanks(struct asm_ctx *ctx, struct scan *lx)
{
	for (;;) {
		char c = scan_peek(lx, 0);
		if (!scan_more(lx))
			return true;
		if (scan_is_blank(c)) {
			scan_advance(lx);
		} else if (c == ';' || (c == '/' && scan_peek(lx, 1) == '/') ||
			   (c == '#' && lx->column == 1)) {
			scan_to_eol(lx);
		} else if (c == '/' && scan_peek(lx, 1) == '*') {
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

static bool is_ident_char(char c)
{
	return scan_is_ident_char(c) || c == '.';
}

static void report_bad_char(struct asm_ctx *ctx, const struct scan *lx)
{
	unsigned char c = (unsigned char)scan_peek(lx, 0);
	if (c >= 0x21 && c < 0x7f)
		asm_error(ctx, lx->line, lx->column, "asm-syntax", NULL, "unexpected character '%c'",
			  c);
	else
		asm_error(ctx, lx->line, lx->column, "asm-syntax",
			  c >= 0x80 ? "the assembler reads ASCII text; is this a raw filter file?"
				    : NULL,
			  "unexpected byte 0x%02x", c);
}

bool asm_lex(struct asm_ctx *ctx, struct scan *lx, struct asm_token *tok)
{
	if (!skip_blanks(ctx, lx)) {
		*tok = (struct asm_token){ ASM_TOK_END, lx->text + lx->pos, 0, lx->line, lx->column };
		return false;
	}
	*tok = (struct asm_token){ ASM_TOK_END, lx->text + lx->pos, 0, lx->line, lx->column };
	size_t start = lx->pos;
	char c = scan_peek(lx, 0);
	if (!scan_more(lx))
		return true;
	if (c == '\n') {
		scan_advance(lx);
		return true;
	}
	if (scan_is_ident_start(c)) {
		tok->kind = ASM_TOK_IDENT;
		scan_while(lx, is_ident_char);
	} else if (scan_is_digit(c) || (c == '-' && scan_is_digit(scan_peek(lx, 1)))) {
		tok->kind = ASM_TOK_NUMBER;
		scan_advance(lx);
		scan_while(lx, scan_is_ident_char); /* 0x1f, and 12ab too: the parser reports it */
	} else if (c && strchr(":,#%[]()+-*&.", c)) {
		tok->kind = ASM_TOK_PUNCT;
		scan_advance(lx);
	} else {
		report_bad_char(ctx, lx);
		scan_advance(lx);
		return false;
	}
	tok->len = lx->pos - start;
	return true;
}
