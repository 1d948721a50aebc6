/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Conditions and constant values.
 *
 *   cond     := and { '||' and }
 *   and      := unary { '&&' unary }
 *   unary    := '!' unary | '(' cond ')' | compare
 *   compare  := operand ( CMP value | ['not'] 'in' '{' value {',' value} '}' )
 *   operand  := ARG | '(' ARG '&' value ')'
 *   ARG      := (argN | parameter) [ '.lo' | '.hi' ]
 *   value    := term { '|' term }
 *   term     := NUMBER | '-' NUMBER | NAME | '~' term | '(' value ')'
 *
 * The tree keeps names unresolved: what a constant or a parameter means
 * depends on the target ABI and is decided by parse_lower.c.  Nesting is
 * bounded (LANG_MAX_NESTING) so that no input can exhaust the stack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lang/lang_internal.h"
#include "lang/parse.h"
#include "util/number.h"

static bool too_deep(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	if (depth < LANG_MAX_NESTING)
		return false;
	struct token t = lang_peek(src);
	lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, &t), "nesting",
		  "split the condition or simplify it", "nesting deeper than %d levels",
		  LANG_MAX_NESTING);
	return true;
}

static struct scg_loc loc_of(struct source *src, const struct token *t)
{
	return lang_token_loc(src, t);
}

/* "arg3" -> 3; -1 when @t is not argN; -2 for argN with N > 5. */
static int arg_index(const struct source *src, const struct token *t)
{
	const char *s = src->text + t->off;
	if (t->kind != TK_IDENT || t->len < 4 || memcmp(s, "arg", 3))
		return -1;
	for (size_t i = 3; i < t->len; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	if (t->len == 4 && s[3] <= '5')
		return s[3] - '0';
	return -2;
}

static void no_such_arg(struct parse_ctx *ctx, struct source *src, const struct token *t)
{
	lang_diag(ctx, SCG_SEV_ERROR, loc_of(src, t), "no-such-argument",
		  "arguments are arg0..arg5", "%.*s does not exist",
		  (int)(t->len < 40 ? t->len : 40), src->text + t->off);
}

/* --- values ----------------------------------------------------------------- */

static struct uval *new_val(struct parse_ctx *ctx, enum uval_kind kind, struct scg_loc loc)
{
	struct uval *v = arena_alloc(&ctx->arena, sizeof(*v));
	if (v) {
		v->kind = kind;
		v->loc = loc;
	}
	return v;
}

static struct uval *parse_number(struct parse_ctx *ctx, struct source *src, const struct token *t,
				 bool negative, struct scg_loc loc)
{
	uint64_t n;
	int r = scg_parse_u64(src->text + t->off, t->len, &n);
	if (r == 0 && negative && n > (UINT64_C(1) << 63))
		r = -ERANGE;
	if (r < 0) {
		lang_diag(ctx, SCG_SEV_ERROR, loc, "syntax",
			  r == -ERANGE ? "values are 64-bit" : "numbers: 42, 0x2a, 052, 0b101010",
			  r == -ERANGE ? "number out of range: %s%.*s" : "invalid number '%s%.*s'",
			  negative ? "-" : "", (int)(t->len < 40 ? t->len : 40),
			  src->text + t->off);
		return NULL;
	}
	struct uval *v = new_val(ctx, UV_NUMBER, loc);
	if (v) {
		v->number = negative ? (uint64_t)0 - n : n;
		v->negative = negative && n != 0;
	}
	return v;
}

static struct uval *parse_name_value(struct parse_ctx *ctx, struct source *src,
				     const struct token *t)
{
	if (arg_index(src, t) != -1) {
		lang_diag(ctx, SCG_SEV_ERROR, loc_of(src, t), "syntax",
			  "the argument goes on the left: arg0 == 1, not 1 == arg0",
			  "expected a constant, found %.*s", (int)(t->len < 40 ? t->len : 40),
			  src->text + t->off);
		return NULL;
	}
	struct uval *v = new_val(ctx, UV_NAME, loc_of(src, t));
	if (v && !(v->name = lang_token_text(ctx, src, t)))
		return NULL;
	return v;
}

static struct uval *parse_paren_value(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	src->brackets++;
	struct uval *v = lang_parse_value(ctx, src, depth + 1);
	if (!v)
		return NULL;
	struct token close = lang_peek(src);
	if (!lang_accept(src, TK_RPAREN)) {
		lang_syntax_error(ctx, src, &close, "')'");
		return NULL;
	}
	src->brackets--;
	return v;
}

static struct uval *parse_term(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	if (too_deep(ctx, src, depth))
		return NULL;
	struct token t = lang_next(src);
	struct scg_loc loc = loc_of(src, &t);
	if (t.kind == TK_NUMBER)
		return parse_number(ctx, src, &t, false, loc);
	if (t.kind == TK_IDENT)
		return parse_name_value(ctx, src, &t);
	if (t.kind == TK_LPAREN)
		return parse_paren_value(ctx, src, depth);
	if (t.kind == TK_MINUS) {
		struct token n = lang_peek(src);
		if (n.kind != TK_NUMBER) {
			lang_syntax_error(ctx, src, &n, "a number after '-'");
			return NULL;
		}
		lang_next(src);
		return parse_number(ctx, src, &n, true, loc);
	}
	if (t.kind == TK_TILDE) {
		struct uval *v = new_val(ctx, UV_NOT, loc);
		if (v && !(v->left = parse_term(ctx, src, depth + 1)))
			return NULL;
		return v;
	}
	lang_syntax_error(ctx, src, &t, "a number or a constant");
	return NULL;
}

struct uval *lang_parse_value(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	struct uval *v = parse_term(ctx, src, depth);
	while (v && lang_peek(src).kind == TK_PIPE) {
		struct token pipe = lang_next(src);
		struct uval * or = new_val(ctx, UV_OR, loc_of(src, &pipe));
		lang_continue_line(src);
		if (! or)
			return NULL;
		or->left = v;
		or->right = parse_term(ctx, src, depth);
		v = or->right ? or : NULL;
	}
	return v;
}

/* --- operands and comparisons ----------------------------------------------- */

/* ARG := (argN | parameter) [ '.lo' | '.hi' ] */
static bool parse_arg(struct parse_ctx *ctx, struct source *src, struct uoperand *op)
{
	struct token t = lang_next(src);
	op->loc = loc_of(src, &t);
	if (t.kind != TK_IDENT) {
		lang_syntax_error(ctx, src, &t, "an argument (arg0..arg5 or a parameter name)");
		return false;
	}
	op->arg = arg_index(src, &t);
	if (op->arg == -2) {
		no_such_arg(ctx, src, &t);
		return false;
	}
	if (op->arg == -1 && !(op->param = lang_token_text(ctx, src, &t)))
		return false;
	if (!lang_accept(src, TK_DOT))
		return true;
	struct token part = lang_next(src);
	if (lang_ident_is(src, &part, "lo") || lang_ident_is(src, &part, "hi")) {
		op->part = src->text[part.off] == 'l' ? PART_LO : PART_HI;
		return true;
	}
	lang_diag(ctx, SCG_SEV_ERROR, loc_of(src, &part), "syntax",
		  ".lo compares the low 32 bits, .hi the high 32 bits", "expected 'lo' or 'hi'");
	return false;
}

static bool is_masked_operand(struct source *src)
{
	lang_peek(src); /* skips a line break inside the brackets */
	size_t i = src->pos;
	if (lang_token_at(src, i).kind != TK_IDENT)
		return false;
	if (lang_token_at(src, i + 1).kind == TK_DOT && lang_token_at(src, i + 2).kind == TK_IDENT)
		i += 2;
	return lang_token_at(src, i + 1).kind == TK_AMP;
}

/* '(' ARG '&' value ')', the '(' already read */
static bool parse_masked(struct parse_ctx *ctx, struct source *src, struct uoperand *op,
			 const struct token *open, unsigned depth)
{
	if (!parse_arg(ctx, src, op))
		return false;
	lang_next(src); /* '&' */
	op->mask = lang_parse_value(ctx, src, depth + 1);
	if (!op->mask)
		return false;
	struct token close = lang_peek(src);
	if (close.kind != TK_RPAREN) {
		char expected[64];
		snprintf(expected, sizeof(expected), "')' to close the '(' at %u:%u", open->line,
			 open->col);
		lang_syntax_error(ctx, src, &close, expected);
		return false;
	}
	lang_next(src);
	src->brackets--;
	return true;
}

static const struct {
	enum tok_kind tok;
	enum scg_cmp_op op;
} cmp_ops[] = {
    {TK_EQ, SCG_CMP_EQ}, {TK_NE, SCG_CMP_NE}, {TK_LT, SCG_CMP_LT},
    {TK_LE, SCG_CMP_LE}, {TK_GT, SCG_CMP_GT}, {TK_GE, SCG_CMP_GE},
};

static struct ucond *new_cond(struct parse_ctx *ctx, enum ucond_kind kind, struct scg_loc loc)
{
	struct ucond *c = arena_alloc(&ctx->arena, sizeof(*c));
	if (c) {
		c->kind = kind;
		c->loc = loc;
	}
	return c;
}

/* '{' value { ',' value } [','] '}' */
static bool parse_set(struct parse_ctx *ctx, struct source *src, struct ucond *c)
{
	struct token brace = lang_peek(src);
	if (!lang_accept(src, TK_LBRACE)) {
		lang_syntax_error(ctx, src, &brace, "'{' after 'in'");
		return false;
	}
	src->brackets++;
	size_t cap = 8;
	c->set = arena_alloc(&ctx->arena, cap * sizeof(*c->set));
	while (c->set && lang_peek(src).kind != TK_RBRACE) {
		if (c->nset == cap) {
			struct uval **grown = arena_alloc(&ctx->arena, 2 * cap * sizeof(*grown));
			if (!grown)
				return false;
			memcpy(grown, c->set, cap * sizeof(*grown));
			c->set = grown;
			cap *= 2;
		}
		if (!(c->set[c->nset++] = lang_parse_value(ctx, src, 0)))
			return false;
		struct token next = lang_peek(src);
		if (!lang_accept(src, TK_COMMA) && next.kind != TK_RBRACE) {
			lang_syntax_error(ctx, src, &next, "',' or '}'");
			return false;
		}
	}
	if (!c->set)
		return false;
	lang_next(src);
	src->brackets--;
	if (c->nset == 0)
		lang_diag(ctx, SCG_SEV_ERROR, c->loc, "syntax", NULL, "empty set");
	return c->nset > 0;
}

/* The name of parameter @op of syscall @name ("" when it has none). */
static const char *param_name(const char *name, const struct uoperand *op)
{
	if (op->arg < 0)
		return op->param;
	const struct scg_syscall_params *p = scg_syscall_params(name);
	return p && op->arg < p->count ? p->params[op->arg].name : "";
}

/* A member of the constant family @op takes in the rule being read, or NULL. */
static const char *family_example(const struct parse_ctx *ctx, const struct uoperand *op)
{
	const char *example = NULL;
	for (size_t i = 0; ctx->rule && i < ctx->rule->nitems; i++) {
		const struct usyscall *u = &ctx->rule->items[i];
		if (u->kind == US_NAME && constant_family(u->name, param_name(u->name, op), &example))
			return example;
	}
	return NULL;
}

/*
 * "arg0 & MASK" written without parentheses: the fix, in the rule's own
 * terms, "(flags & O_CREAT) != 0": the operand as written, the mask as
 * written when it is one word, else a constant of the operand's family.
 */
static const char *mask_hint(struct parse_ctx *ctx, struct source *src, const struct uoperand *op,
			     char *buf, size_t size)
{
	char operand[64];
	if (op->arg >= 0)
		snprintf(operand, sizeof(operand), "arg%d", op->arg);
	else
		snprintf(operand, sizeof(operand), "%.40s", op->param);
	if (op->part != PART_FULL)
		strcat(operand, op->part == PART_LO ? ".lo" : ".hi");
	struct token m = lang_token_at(src, src->pos + 1); /* after the '&' */
	const char *example = family_example(ctx, op);
	if ((m.kind == TK_IDENT || m.kind == TK_NUMBER) && m.len <= 40)
		snprintf(buf, size, "put the mask in parentheses: (%s & %.*s) != 0", operand,
			 (int)m.len, src->text + m.off);
	else
		snprintf(buf, size, "put the mask in parentheses: (%s & %s) != 0", operand,
			 example ? example : "0x4");
	return buf;
}

static struct ucond *parse_compare_rest(struct parse_ctx *ctx, struct source *src,
					const struct uoperand *op)
{
	struct token t = lang_peek(src);
	bool not_in = lang_ident_is(src, &t, "not");
	if (not_in || lang_ident_is(src, &t, "in")) {
		lang_next(src);
		struct token in = not_in ? lang_next(src) : t;
		if (!lang_ident_is(src, &in, "in")) {
			lang_syntax_error(ctx, src, &in, "'in' after 'not'");
			return NULL;
		}
		struct ucond *c = new_cond(ctx, UC_IN, op->loc);
		if (!c)
			return NULL;
		c->operand = *op;
		c->not_in = not_in;
		return parse_set(ctx, src, c) ? c : NULL;
	}
	for (size_t i = 0; i < sizeof(cmp_ops) / sizeof(cmp_ops[0]); i++) {
		if (t.kind != cmp_ops[i].tok)
			continue;
		lang_next(src);
		struct ucond *c = new_cond(ctx, UC_CMP, op->loc);
		if (!c)
			return NULL;
		c->operand = *op;
		c->op = cmp_ops[i].op;
		c->value = lang_parse_value(ctx, src, 0);
		return c->value ? c : NULL;
	}
	char buf[64], hint[160];
	lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, &t), "syntax",
		  t.kind == TK_AMP ? mask_hint(ctx, src, op, hint, sizeof(hint))
				   : "a condition compares: arg0 == 1, (arg0 & 4) != 0",
		  "expected a comparison (==, !=, <, <=, >, >=, in), found %s",
		  lang_token_describe(src, &t, buf, sizeof(buf)));
	return NULL;
}

/* --- boolean structure ----------------------------------------------------- */

static struct ucond *parse_or(struct parse_ctx *ctx, struct source *src, unsigned depth);

static struct ucond *parse_group(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	struct token open = lang_next(src); /* '(' */
	src->brackets++;
	if (is_masked_operand(src)) {
		struct uoperand op = {0};
		if (!parse_masked(ctx, src, &op, &open, depth))
			return NULL;
		return parse_compare_rest(ctx, src, &op);
	}
	struct ucond *c = parse_or(ctx, src, depth + 1);
	if (!c)
		return NULL;
	struct token close = lang_peek(src);
	if (close.kind != TK_RPAREN) {
		char expected[64];
		snprintf(expected, sizeof(expected), "')' to close the '(' at %u:%u", open.line,
			 open.col);
		lang_syntax_error(ctx, src, &close, expected);
		return NULL;
	}
	lang_next(src);
	src->brackets--;
	return c;
}

static struct ucond *parse_unary(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	if (too_deep(ctx, src, depth))
		return NULL;
	struct token t = lang_peek(src);
	if (t.kind == TK_BANG) {
		lang_next(src);
		struct ucond *c = new_cond(ctx, UC_NOT, loc_of(src, &t));
		if (!c || !(c->kids = arena_alloc(&ctx->arena, sizeof(*c->kids))))
			return NULL;
		c->nkids = 1;
		c->kids[0] = parse_unary(ctx, src, depth + 1);
		return c->kids[0] ? c : NULL;
	}
	if (t.kind == TK_LPAREN)
		return parse_group(ctx, src, depth);
	struct uoperand op = {0};
	if (!parse_arg(ctx, src, &op))
		return NULL;
	return parse_compare_rest(ctx, src, &op);
}

typedef struct ucond *(*operand_fn)(struct parse_ctx *, struct source *, unsigned);

/* operand { OP operand }, as one n-ary node (long chains stay shallow). */
static struct ucond *parse_chain(struct parse_ctx *ctx, struct source *src, unsigned depth,
				 enum tok_kind tok, enum ucond_kind kind, operand_fn operand)
{
	struct ucond *first = operand(ctx, src, depth);
	if (!first || lang_peek(src).kind != tok)
		return first;
	struct ucond *c = new_cond(ctx, kind, first->loc);
	size_t cap = 4;
	if (!c || !(c->kids = arena_alloc(&ctx->arena, cap * sizeof(*c->kids))))
		return NULL;
	c->kids[c->nkids++] = first;
	while (lang_accept(src, tok)) {
		lang_continue_line(src);
		if (c->nkids == cap) {
			struct ucond **grown = arena_alloc(&ctx->arena, 2 * cap * sizeof(*grown));
			if (!grown)
				return NULL;
			memcpy(grown, c->kids, cap * sizeof(*grown));
			c->kids = grown;
			cap *= 2;
		}
		if (!(c->kids[c->nkids++] = operand(ctx, src, depth)))
			return NULL;
	}
	return c;
}

static struct ucond *parse_and(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	return parse_chain(ctx, src, depth, TK_ANDAND, UC_AND, parse_unary);
}

static struct ucond *parse_or(struct parse_ctx *ctx, struct source *src, unsigned depth)
{
	return parse_chain(ctx, src, depth, TK_OROR, UC_OR, parse_and);
}

struct ucond *lang_parse_condition(struct parse_ctx *ctx, struct source *src)
{
	return parse_or(ctx, src, 0);
}
