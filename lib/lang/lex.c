/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy-language lexer.  Tokens keep their position (line, column
 * counted in characters, both 1-based) and point into the source text.
 * Comments run from '#' to the end of the line; newlines end statements
 * (the parser decides where a statement may continue).  The text must be
 * UTF-8: non-ASCII characters are allowed in comments and strings only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"
#include "util/grow.h"
#include "util/scan.h"

struct lexer {
	struct parse_ctx *ctx;
	struct source *src;
	struct scan sc; /* columns in characters: multi-byte ones move by scan_char() */
};

struct scg_loc lang_token_loc(const struct source *src, const struct token *t)
{
	return (struct scg_loc){src->name, t->line, t->col, -1};
}

static struct scg_loc here(const struct lexer *lx)
{
	return scan_loc(&lx->sc, lx->src->name);
}

static int push(struct lexer *lx, enum tok_kind kind, size_t start, size_t len, uint32_t col)
{
	struct token_list *tl = &lx->src->toks;
	if (GROW_ARRAY(&tl->items, &tl->cap, tl->count + 1, 256))
		return -ENOMEM;
	tl->items[tl->count++] = (struct token){
	    .kind = kind,
	    .line = lx->sc.line,
	    .col = col,
	    .off = (uint32_t)start,
	    .len = (uint32_t)len,
	};
	return 0;
}

/*
 * Advances over one character that may be multi-byte; reports invalid
 * UTF-8 and returns false for it (skipping one byte).
 */
static bool advance_char(struct lexer *lx)
{
	struct scg_loc loc = here(lx);
	unsigned char c = (unsigned char)scan_peek(&lx->sc, 0);
	if (scan_char(&lx->sc))
		return true;
	lang_diag(lx->ctx, SCG_SEV_ERROR, loc, "utf8", "policy files are UTF-8 text",
		  "invalid UTF-8 byte 0x%02x", c);
	return false;
}

static void skip_comment(struct lexer *lx)
{
	while (scan_more(&lx->sc) && scan_peek(&lx->sc, 0) != '\n')
		advance_char(lx);
}

static int lex_string(struct lexer *lx)
{
	struct scan *sc = &lx->sc;
	size_t start = sc->pos;
	uint32_t col = sc->column;
	scan_advance(sc);
	while (scan_more(sc)) {
		char c = scan_peek(sc, 0);
		if (c == '"') {
			int r = push(lx, TK_STRING, start + 1, sc->pos - start - 1, col);
			scan_advance(sc);
			return r;
		}
		if (c == '\n')
			break;
		if (c == '\\' && sc->pos + 1 < sc->len && scan_peek(sc, 1) != '\n')
			scan_advance(sc);
		advance_char(lx);
	}
	lang_diag(lx->ctx, SCG_SEV_ERROR, (struct scg_loc){lx->src->name, sc->line, col, -1},
		  "syntax", "close it with '\"' on the same line", "unterminated string");
	return 0;
}

/* Far above any real name (syscalls, errnos, constants: < 40 characters) or number. */
#define MAX_WORD_LENGTH 256
#define SCG_STRINGIFY_(x) #x
#define SCG_STRINGIFY(x) SCG_STRINGIFY_(x)

/* Identifiers may contain '-' between letters: kill-thread, docker-default. */
static size_t ident_length(const char *s, size_t avail)
{
	size_t n = 1;
	while (n < avail) {
		if (scan_is_ident_char(s[n]))
			n++;
		else if (s[n] == '-' && n + 1 < avail && scan_is_ident_start(s[n + 1]))
			n++;
		else
			break;
	}
	return n;
}

static int lex_word(struct lexer *lx, enum tok_kind kind, size_t skip)
{
	const char *s = lx->sc.text + lx->sc.pos + skip;
	size_t avail = lx->sc.len - lx->sc.pos - skip;
	size_t n = 0;
	if (kind == TK_NUMBER)
		while (n < avail && scan_is_ident_char(s[n]))
			n++; /* "0x1f", and "12ab" too: the parser reports it */
	else if (avail && scan_is_ident_start(s[0]))
		n = ident_length(s, avail);
	if (kind == TK_GROUP && n == 0) {
		lang_diag(lx->ctx, SCG_SEV_ERROR, here(lx), "syntax", "for example @basic-io",
			  "'@' must be followed by a group name");
	}
	/* Every later message quotes the token: keep a hostile 100 kB one out of them. */
	size_t kept = n;
	if (n > MAX_WORD_LENGTH) {
		lang_diag(lx->ctx, SCG_SEV_ERROR, here(lx), "too-long",
			  "names and numbers are at most " SCG_STRINGIFY(MAX_WORD_LENGTH) " characters",
			  "%s too long: %zu characters", kind == TK_NUMBER ? "number" : "name", n);
		kept = MAX_WORD_LENGTH;
	}
	int r = push(lx, kind, lx->sc.pos + skip, kept, lx->sc.column);
	scan_skip(&lx->sc, skip + n);
	return r;
}

struct punct {
	const char *text;
	enum tok_kind kind;
};

/* Longest first, so "&&" wins over "&". */
static const struct punct puncts[] = {
    {"==", TK_EQ},   {"!=", TK_NE},    {"<=", TK_LE},	 {">=", TK_GE},	   {"&&", TK_ANDAND},
    {"||", TK_OROR}, {"(", TK_LPAREN}, {")", TK_RPAREN}, {"{", TK_LBRACE}, {"}", TK_RBRACE},
    {",", TK_COMMA}, {"..", TK_DOTDOT}, {".", TK_DOT}, {"<", TK_LT}, {">", TK_GT}, {"&", TK_AMP},
    {"|", TK_PIPE},  {"!", TK_BANG},   {"~", TK_TILDE},	 {"-", TK_MINUS},  {"?", TK_QUESTION},
};

static bool lex_punct(struct lexer *lx, int *r)
{
	size_t pos = lx->sc.pos;
	uint32_t col = lx->sc.column;
	for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		if (scan_accept(&lx->sc, puncts[i].text)) {
			*r = push(lx, puncts[i].kind, pos, lx->sc.pos - pos, col);
			return true;
		}
	}
	return false;
}

static void bad_character(struct lexer *lx)
{
	unsigned char c = (unsigned char)scan_peek(&lx->sc, 0);
	struct scg_loc loc = here(lx);
	if (c == '=') {
		/* read on as if it were "==", so one mistake gives one error */
		lang_diag(lx->ctx, SCG_SEV_ERROR, loc, "syntax", "compare with '=='",
			  "unexpected '='");
		if (push(lx, TK_EQ, lx->sc.pos, 1, lx->sc.column) < 0)
			lx->ctx->arena.failed = true;
	} else if (c == 0)
		lang_diag(lx->ctx, SCG_SEV_ERROR, loc, "syntax", NULL, "unexpected NUL byte");
	else if (c < 0x80)
		lang_diag(lx->ctx, SCG_SEV_ERROR, loc, "syntax", NULL, "unexpected character '%c'",
			  c >= 0x20 && c < 0x7f ? c : '?');
	else if (advance_char(lx)) {
		/* valid UTF-8, but only comments and strings may hold it */
		lang_diag(lx->ctx, SCG_SEV_ERROR, loc, "syntax",
			  "non-ASCII text is allowed in comments and strings only",
			  "unexpected non-ASCII character");
		return;
	} else {
		return; /* advance_char() reported the invalid byte */
	}
	scan_advance(&lx->sc);
}

static void newline(struct lexer *lx, int *r)
{
	struct token_list *tl = &lx->src->toks;
	/* one NEWLINE for a run of empty lines */
	if (tl->count && tl->items[tl->count - 1].kind != TK_NEWLINE)
		*r = push(lx, TK_NEWLINE, lx->sc.pos, 1, lx->sc.column);
	scan_advance(&lx->sc);
}

static int lex_one(struct lexer *lx)
{
	char c = scan_peek(&lx->sc, 0);
	int r = 0;
	if (scan_is_blank(c)) {
		scan_advance(&lx->sc);
	} else if (c == '\n') {
		newline(lx, &r);
	} else if (c == '#') {
		skip_comment(lx);
	} else if (c == '"') {
		r = lex_string(lx);
	} else if (c == '@') {
		r = lex_word(lx, TK_GROUP, 1);
	} else if (c >= '0' && c <= '9') {
		r = lex_word(lx, TK_NUMBER, 0);
	} else if (scan_is_ident_start(c)) {
		r = lex_word(lx, TK_IDENT, 0);
	} else if (!lex_punct(lx, &r)) {
		bad_character(lx);
	}
	return r;
}

void lang_lex(struct parse_ctx *ctx, struct source *src, size_t count)
{
	if (!src->lex.line)
		src->lex.line = src->lex.col = 1;
	struct lexer lx = {ctx, src, {0}};
	scan_init(&lx.sc, src->text, src->len);
	/* on from where the last call stopped */
	lx.sc.pos = src->lex.pos;
	lx.sc.line = src->lex.line;
	lx.sc.column = src->lex.col;
	int r = 0;
	while (!src->lex.done && src->toks.count < count && r == 0) {
		if (scan_more(&lx.sc) && !ctx->stopped) {
			r = lex_one(&lx);
			continue;
		}
		/* the last statement ends even without a final newline */
		r = push(&lx, TK_NEWLINE, lx.sc.pos, 0, lx.sc.column);
		if (r == 0)
			r = push(&lx, TK_EOF, lx.sc.pos, 0, lx.sc.column);
		src->lex.done = true;
	}
	src->lex.pos = lx.sc.pos;
	src->lex.line = lx.sc.line;
	src->lex.col = lx.sc.column;
	if (r < 0)
		ctx->arena.failed = true;
}
