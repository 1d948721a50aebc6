/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy-language statement parser: one statement a line (a line that
 * ends inside brackets or after a comma or an operator continues on the
 * next), errors reported with a position and the parse resumed at the next
 * line, so one run reports several problems.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/syscall_tables.h"
#include "lang/lang_internal.h"
#include "lang/parse.h"
#include "util/number.h"
#include "util/opts.h"
#include "util/suggest.h"
#include "util/grow.h"

/* --- arena ------------------------------------------------------------------ */

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

#define ARENA_CHUNK (64u * 1024u)

void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct arena_chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->next = a->head;
		c->used = 0;
		c->size = cap;
		a->head = c;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

void arena_release(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *next = a->head->next;
		free(a->head);
		a->head = next;
	}
}

/* --- diagnostics ------------------------------------------------------------ */

int lang_ctx_init(struct parse_ctx *ctx, struct scg_diag *diag,
		  const struct scg_policy_source_options *opts)
{
	*ctx = (struct parse_ctx){.diag = diag};
	int r = opts_load(&ctx->opts_copy, sizeof(ctx->opts_copy), opts,
			  OPTS_END(struct scg_policy_source_options, narches));
	if (r < 0)
		return r;
	ctx->opts = &ctx->opts_copy;
	if (diag && !(ctx->pending = scg_diag_new()))
		return -ENOMEM;
	return 0;
}

/* Remembers that the newest pending diagnostic, at @loc, belongs to statement @stmt. */
static void add_key(struct parse_ctx *ctx, unsigned stmt, struct scg_loc loc)
{
	if (GROW_ARRAY(&ctx->keys, &ctx->keys_cap, ctx->nkeys + 1, 16)) {
		ctx->arena.failed = true;
		return;
	}
	ctx->keys[ctx->nkeys] = (struct pending_key){stmt, loc.line, loc.column, ctx->nkeys};
	ctx->nkeys++;
}

static int compare_keys(const void *a, const void *b)
{
	const struct pending_key *x = a, *y = b;
	if (x->stmt != y->stmt)
		return x->stmt < y->stmt ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index; /* stable */
}

void lang_flush_diags(struct parse_ctx *ctx)
{
	size_t n = scg_diag_count(ctx->pending);
	if (n && ctx->nkeys == n)
		qsort(ctx->keys, n, sizeof(*ctx->keys), compare_keys);
	for (size_t i = 0; i < n; i++) {
		/* without the keys (out of memory), in the order they came */
		size_t at = ctx->nkeys == n ? ctx->keys[i].index : i;
		const struct scg_diag_entry *e = scg_diag_get(ctx->pending, at);
		if (scg_diag_add(ctx->diag, e->severity, e->loc, e->code, e->hint, "%s",
				 e->message) < 0)
			ctx->arena.failed = true;
	}
	scg_diag_free(ctx->pending);
	ctx->pending = NULL;
	free(ctx->keys);
	ctx->keys = NULL;
	ctx->nkeys = ctx->keys_cap = 0;
}

void lang_diag(struct parse_ctx *ctx, enum scg_severity sev, struct scg_loc loc, const char *code,
	       const char *hint, const char *fmt, ...)
{
	if (ctx->stopped)
		return;
	va_list ap;
	va_start(ap, fmt);
	/* without a list (the caller gave none) errors still count */
	if (ctx->pending && scg_diag_vadd(ctx->pending, sev, loc, code, hint, fmt, ap) < 0)
		ctx->arena.failed = true;
	else if (ctx->pending)
		add_key(ctx, ctx->stmt, loc);
	va_end(ap);
	if (sev == SCG_SEV_ERROR && ++ctx->errors >= LANG_MAX_ERRORS) {
		/* last, wherever the lowering stopped */
		if (ctx->pending && scg_diag_add(ctx->pending, SCG_SEV_NOTE, loc, "too-many-errors",
						 NULL, "too many errors; stopping here") < 0)
			ctx->arena.failed = true;
		else if (ctx->pending)
			add_key(ctx, UINT_MAX, loc);
		ctx->stopped = true;
	}
}

/* --- tokens ----------------------------------------------------------------- */

struct token lang_token_at(struct source *src, size_t index)
{
	if (index >= src->toks.count)
		lang_lex(src->ctx, src, index + 1);
	if (index < src->toks.count)
		return src->toks.items[index];
	return (struct token){.kind = TK_EOF};
}

/*
 * A line break the statement goes on after: the next line is indented, or
 * (inside brackets) starts by closing one.
 */
static bool continues(struct source *src)
{
	struct token next = lang_token_at(src, src->pos + 1);
	if (next.kind == TK_EOF)
		return false;
	return next.col > 1 ||
	       (src->brackets && (next.kind == TK_RPAREN || next.kind == TK_RBRACE));
}

struct token lang_peek(struct source *src)
{
	struct token t = lang_token_at(src, src->pos);
	while (src->brackets && t.kind == TK_NEWLINE && continues(src))
		t = lang_token_at(src, ++src->pos);
	return t;
}

struct token lang_next(struct source *src)
{
	struct token t = lang_peek(src);
	if (t.kind != TK_EOF)
		src->pos++;
	return t;
}

bool lang_accept(struct source *src, enum tok_kind kind)
{
	if (lang_peek(src).kind != kind)
		return false;
	lang_next(src);
	return true;
}

void lang_skip_newlines(struct source *src)
{
	while (lang_accept(src, TK_NEWLINE))
		;
}

void lang_continue_line(struct source *src)
{
	if (lang_peek(src).kind == TK_NEWLINE && continues(src))
		src->pos++;
}

bool lang_ident_is(const struct source *src, const struct token *t, const char *word)
{
	size_t n = strlen(word);
	return t->kind == TK_IDENT && t->len == n && !memcmp(src->text + t->off, word, n);
}

char *lang_token_text(struct parse_ctx *ctx, const struct source *src, const struct token *t)
{
	return arena_strndup(&ctx->arena, src->text + t->off, t->len);
}

const char *lang_token_describe(const struct source *src, const struct token *t, char *buf,
				size_t size)
{
	switch (t->kind) {
	case TK_EOF:
		return "end of file";
	case TK_NEWLINE:
		return "end of line";
	case TK_STRING:
		return "a string";
	case TK_GROUP:
		snprintf(buf, size, "'@%.*s'", (int)(t->len < 40 ? t->len : 40),
			 src->text + t->off);
		return buf;
	case TK_IDENT:
	case TK_NUMBER:
	case TK_LPAREN:
	case TK_RPAREN:
	case TK_LBRACE:
	case TK_RBRACE:
	case TK_COMMA:
	case TK_DOT:
	case TK_DOTDOT:
	case TK_EQ:
	case TK_NE:
	case TK_LT:
	case TK_LE:
	case TK_GT:
	case TK_GE:
	case TK_AMP:
	case TK_ANDAND:
	case TK_PIPE:
	case TK_OROR:
	case TK_BANG:
	case TK_TILDE:
	case TK_MINUS:
	case TK_QUESTION:
		break;
	}
	snprintf(buf, size, "'%.*s'", (int)(t->len < 40 ? t->len : 40), src->text + t->off);
	return buf;
}

void lang_syntax_error(struct parse_ctx *ctx, struct source *src, const struct token *t,
		       const char *expected)
{
	char buf[64];
	lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, t), "syntax", NULL,
		  "expected %s, found %s", expected, lang_token_describe(src, t, buf, sizeof(buf)));
}

/* --- actions ---------------------------------------------------------------- */

static const struct {
	const char *word;
	enum uaction_kind kind;
	int data; /* 0: none, 1: optional "(N)", 2: required "(N)" */
} action_words[] = {
    {"allow", UA_ALLOW, 0},
    {"kill", UA_KILL_PROCESS, 0},
    {"kill-process", UA_KILL_PROCESS, 0},
    {"kill-thread", UA_KILL_THREAD, 0},
    {"log", UA_LOG, 0},
    {"notify", UA_NOTIFY, 0},
    {"errno", UA_ERRNO, 2},
    {"trap", UA_TRAP, 1},
    {"trace", UA_TRACE, 1},
    {"action", UA_RAW, 2},
};

#define ACTION_WORDS (sizeof(action_words) / sizeof(action_words[0]))

static int find_action_word(const struct source *src, const struct token *t)
{
	for (size_t i = 0; i < ACTION_WORDS; i++)
		if (lang_ident_is(src, t, action_words[i].word))
			return (int)i;
	return -1;
}

static void unknown_action(struct parse_ctx *ctx, struct source *src, const struct token *t)
{
	char *word = lang_token_text(ctx, src, t);
	uint32_t nr;
	if (!word)
		return;
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < ACTION_WORDS; i++)
		suggest_consider(&s, action_words[i].word);
	const char *best = suggest_result(&s);
	char hint[160];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	else if (scg_syscall_lookup(scg_arch_native(), word, &nr) != -ENOENT)
		snprintf(hint, sizeof(hint), "a rule starts with its action: allow %s", word);
	else
		snprintf(
		    hint, sizeof(hint),
		    "actions: allow, kill, kill-thread, errno(E), trap(N), trace(N), log, notify");
	lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, t), "unknown-action", hint,
		  "unknown action '%s'", word);
}

/* action := WORD [ '(' value ')' ] */
static bool parse_action(struct parse_ctx *ctx, struct source *src, struct uaction *out)
{
	struct token t = lang_next(src);
	int i = t.kind == TK_IDENT ? find_action_word(src, &t) : -1;
	if (i < 0) {
		if (t.kind == TK_IDENT)
			unknown_action(ctx, src, &t);
		else
			lang_syntax_error(ctx, src, &t, "an action");
		return false;
	}
	*out = (struct uaction){.kind = action_words[i].kind, .loc = lang_token_loc(src, &t)};
	if (action_words[i].data == 0 ||
	    (action_words[i].data == 1 && lang_peek(src).kind != TK_LPAREN))
		return true;
	struct token next = lang_peek(src);
	if (!lang_accept(src, TK_LPAREN)) {
		lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, &next), "syntax",
			  action_words[i].kind == UA_ERRNO ? "for example errno(EPERM)" : NULL,
			  "'%s' needs a value in parentheses", action_words[i].word);
		return false;
	}
	out->data = lang_parse_value(ctx, src, 0);
	if (!out->data)
		return false;
	next = lang_peek(src);
	if (!lang_accept(src, TK_RPAREN)) {
		lang_syntax_error(ctx, src, &next, "')'");
		return false;
	}
	return true;
}

/* --- syscall lists ----------------------------------------------------------- */

/* The closest name any ABI has (one pass over the union of the tables). */
static const char *suggest_syscall(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < syscall_all_count; i++)
		suggest_consider(&s, syscall_all_name(i));
	return suggest_result(&s);
}

static bool check_syscall_name(struct parse_ctx *ctx, struct scg_loc loc, const char *name)
{
	uint32_t nr;
	if (scg_syscall_lookup(scg_arch_native(), name, &nr) != -ENOENT)
		return true;
	const char *best = suggest_syscall(name);
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	lang_diag(ctx, SCG_SEV_ERROR, loc, "unknown-syscall", best ? hint : NULL,
		  "unknown syscall '%s'", name);
	return false;
}

static bool check_group_name(struct parse_ctx *ctx, struct scg_loc loc, const char *name)
{
	if (group_find(name))
		return true;
	const char *best = scg_group_suggest(name);
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '@%s'?", best);
	lang_diag(ctx, SCG_SEV_ERROR, loc, "unknown-group",
		  best ? hint : scg_hint_text(SCG_HINT_LIST_GROUPS),
		  "unknown group '@%s'", name);
	return false;
}

static bool syscall_number_token(struct parse_ctx *ctx, struct source *src, const struct token *t,
				 uint32_t *nr)
{
	if (t->kind == TK_NUMBER && scg_parse_u32(src->text + t->off, t->len, nr) == 0)
		return true;
	if (t->kind != TK_NUMBER)
		lang_syntax_error(ctx, src, t, "a syscall number");
	else
		lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, t), "syntax",
			  "syscall numbers are 32-bit", "invalid syscall number '%.*s'",
			  (int)t->len, src->text + t->off);
	return false;
}

/* NUMBER [ ".." NUMBER ]: one number, or every number from the first to the second. */
static bool parse_syscall_number(struct parse_ctx *ctx, struct source *src, const struct token *t,
				 struct usyscall *item)
{
	uint32_t first, last;
	if (!syscall_number_token(ctx, src, t, &first))
		return false;
	last = first;
	struct token end = *t; /* a copy: reading on may move the token array */
	if (lang_accept(src, TK_DOTDOT)) {
		end = lang_next(src);
		if (!syscall_number_token(ctx, src, &end, &last))
			return false;
	}
	if (last < first) {
		/* quoted as written (0x.. stays hex); the lexer caps tokens, 40 keeps it short */
		int lo_len = (int)(t->len < 40 ? t->len : 40);
		int hi_len = (int)(end.len < 40 ? end.len : 40);
		const char *lo = src->text + t->off, *hi = src->text + end.off;
		char hint[128];
		snprintf(hint, sizeof(hint), "write the lower number first: %.*s..%.*s", hi_len, hi,
			 lo_len, lo);
		lang_diag(ctx, SCG_SEV_ERROR, item->loc, "syntax", hint,
			  "empty syscall number range: %.*s is above %.*s", lo_len, lo, hi_len, hi);
		return false;
	}
	item->kind = US_NUMBER;
	item->number = first;
	item->number_last = last;
	return true;
}

/* An item read: ITEM_OK, ITEM_UNKNOWN (a name no table has: reported, the list goes on), or ITEM_BAD. */
enum item_result { ITEM_OK, ITEM_UNKNOWN, ITEM_BAD };

static enum item_result parse_syscall_item(struct parse_ctx *ctx, struct source *src,
					   struct usyscall *item)
{
	struct token t = lang_next(src);
	item->loc = lang_token_loc(src, &t);
	if (t.kind == TK_NUMBER)
		return parse_syscall_number(ctx, src, &t, item) ? ITEM_OK : ITEM_BAD;
	if (t.kind == TK_GROUP) {
		item->kind = US_GROUP;
		item->name = lang_token_text(ctx, src, &t);
		if (!item->name)
			return ITEM_BAD;
		return check_group_name(ctx, item->loc, item->name) ? ITEM_OK : ITEM_UNKNOWN;
	}
	if (t.kind != TK_IDENT || lang_ident_is(src, &t, "if") || lang_ident_is(src, &t, "on")) {
		lang_syntax_error(ctx, src, &t, "a syscall name, @group, number or LO..HI");
		return ITEM_BAD;
	}
	item->kind = US_NAME;
	item->name = lang_token_text(ctx, src, &t);
	item->optional = lang_accept(src, TK_QUESTION);
	if (!item->name)
		return ITEM_BAD;
	return check_syscall_name(ctx, item->loc, item->name) ? ITEM_OK : ITEM_UNKNOWN;
}

/*
 * syscalls := item { ',' item }.  An unknown name is reported and left out,
 * and the list read on, so that every bad name of the rule is reported;
 * the rule then keeps its other items (the parse fails anyway), which lets
 * the lowering check its condition too.  False after a syntax error.
 */
static bool parse_syscalls(struct parse_ctx *ctx, struct source *src, struct urule *rule)
{
	size_t cap = 4;
	rule->items = arena_alloc(&ctx->arena, cap * sizeof(*rule->items));
	for (;;) {
		if (!rule->items)
			return false;
		enum item_result r = parse_syscall_item(ctx, src, &rule->items[rule->nitems]);
		if (r == ITEM_BAD)
			return false;
		if (r == ITEM_OK)
			rule->nitems++;
		if (!lang_accept(src, TK_COMMA))
			return true;
		lang_continue_line(src);
		if (rule->nitems == cap) {
			struct usyscall *grown = arena_alloc(&ctx->arena, 2 * cap * sizeof(*grown));
			if (grown)
				memcpy(grown, rule->items, cap * sizeof(*grown));
			rule->items = grown;
			cap *= 2;
		}
	}
}

/* --- ABI lists --------------------------------------------------------------- */

typedef bool (*arch_fn)(struct parse_ctx *ctx, void *state, const struct scg_arch *arch);

static bool add_arch_and_companions(struct parse_ctx *ctx, void *state, const struct scg_arch *arch,
				    bool companions, arch_fn fn)
{
	if (!fn(ctx, state, arch))
		return false;
	const struct scg_arch *more[8];
	size_t n = companions ? scg_arch_companions(arch, more, 8) : 0;
	for (size_t i = 0; i < n && i < 8; i++)
		if (!fn(ctx, state, more[i]))
			return false;
	return true;
}

/* arches := NAME { ',' NAME }; "native" is the native ABI and its companions. */
static bool parse_arch_list(struct parse_ctx *ctx, struct source *src, void *state, arch_fn fn)
{
	do {
		lang_continue_line(src);
		struct token t = lang_next(src);
		if (t.kind != TK_IDENT) {
			lang_syntax_error(ctx, src, &t, "an architecture name");
			return false;
		}
		char *name = lang_token_text(ctx, src, &t);
		if (!name)
			return false;
		bool native = !strcmp(name, "native");
		const struct scg_arch *arch = native ? scg_arch_native() : scg_arch_lookup(name);
		if (!arch) {
			const char *best = scg_arch_suggest(name);
			char hint[96];
			if (best)
				snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
			lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, &t), "unknown-arch",
				  best ? hint : scg_hint_text(SCG_HINT_LIST_ARCHES),
				  "unknown architecture '%s'", name);
			return false;
		}
		if (!add_arch_and_companions(ctx, state, arch, native, fn))
			return false;
	} while (lang_accept(src, TK_COMMA));
	return true;
}

static bool add_on_arch(struct parse_ctx *ctx, void *state, const struct scg_arch *arch)
{
	(void)ctx;
	int bit = lang_arch_bit(arch);
	if (bit >= 0 && bit < LANG_MAX_ARCHES)
		*(uint32_t *)state |= 1u << bit;
	return true;
}

static bool add_target_arch(struct parse_ctx *ctx, void *state, const struct scg_arch *arch)
{
	struct uarch_setting *s = state;
	for (size_t i = 0; i < s->count; i++)
		if (s->arches[i] == arch)
			return true;
	if (s->count == LANG_MAX_ARCHES) {
		lang_diag(ctx, SCG_SEV_ERROR, s->loc, "syntax", NULL, "too many architectures");
		return false;
	}
	s->arches[s->count++] = arch;
	return true;
}

/* --- statements -------------------------------------------------------------- */

static void parse_rule(struct parse_ctx *ctx, struct source *src)
{
	struct token first = lang_peek(src);
	struct urule rule = {
	    .loc = lang_token_loc(src, &first), .depth = src->depth, .stmt = ctx->stmt};
	if (!parse_action(ctx, src, &rule.action) || !parse_syscalls(ctx, src, &rule))
		return;
	/* "if" and "on" may come in either order, each once */
	for (;;) {
		struct token t = lang_peek(src);
		if (!rule.cond && lang_ident_is(src, &t, "if")) {
			lang_next(src);
			lang_continue_line(src);
			ctx->rule = &rule;
			rule.cond = lang_parse_condition(ctx, src);
			ctx->rule = NULL;
			if (!rule.cond)
				return;
		} else if (!rule.has_on && lang_ident_is(src, &t, "on")) {
			lang_next(src);
			rule.has_on = true;
			if (!parse_arch_list(ctx, src, &rule.on_mask, add_on_arch))
				return;
		} else {
			break;
		}
	}
	if (rule.nitems == 0) /* every name was unknown, each reported */
		return;
	if (GROW_ARRAY(&ctx->rules, &ctx->rules_cap, ctx->nrules + 1, 64)) {
		ctx->arena.failed = true;
		return;
	}
	ctx->rules[ctx->nrules++] = rule;
}

/* The shallowest file wins; within one file the later statement, with a warning. */
static void apply_setting(struct parse_ctx *ctx, struct usetting *s, const char *what,
			  const struct uaction *action, unsigned depth)
{
	if (s->set && depth > s->depth)
		return;
	if (s->set && depth == s->depth && s->loc.file == action->loc.file)
		lang_diag(ctx, SCG_SEV_WARNING, action->loc, "repeated-setting", NULL,
			  "'%s' was already set on line %u; this one replaces it", what,
			  s->loc.line);
	*s = (struct usetting){true, depth, *action, action->loc, ctx->stmt};
}

static void parse_setting(struct parse_ctx *ctx, struct source *src, struct usetting *s,
			  const char *what)
{
	lang_next(src);
	struct uaction action;
	if (parse_action(ctx, src, &action))
		apply_setting(ctx, s, what, &action, src->depth);
}

static void parse_arch_setting(struct parse_ctx *ctx, struct source *src)
{
	struct token t = lang_next(src);
	struct uarch_setting s = {.set = true, .depth = src->depth, .loc = lang_token_loc(src, &t)};
	if (!parse_arch_list(ctx, src, &s, add_target_arch))
		return;
	struct uarch_setting *cur = &ctx->arch;
	if (cur->set && src->depth > cur->depth)
		return;
	if (cur->set && src->depth == cur->depth && cur->loc.file == s.loc.file)
		lang_diag(ctx, SCG_SEV_WARNING, s.loc, "repeated-setting", NULL,
			  "'arch' was already set on line %u; this one replaces it", cur->loc.line);
	*cur = s;
}

/* Removes the quotes' escapes (\" and \\) of a string token. */
static char *string_value(struct parse_ctx *ctx, struct source *src, const struct token *t)
{
	char *out = arena_alloc(&ctx->arena, t->len + 1);
	size_t n = 0;
	for (size_t i = 0; out && i < t->len; i++) {
		char c = src->text[t->off + i];
		if (c == '\\') {
			c = src->text[t->off + ++i];
			if (c != '\\' && c != '"') {
				lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, t), "syntax",
					  "only \\\" and \\\\ are escapes", "unknown escape '\\%c'",
					  c >= 0x20 && c < 0x7f ? c : '?');
				return NULL;
			}
		}
		out[n++] = c;
	}
	return out;
}

static void parse_include(struct parse_ctx *ctx, struct source *src, bool is_use)
{
	struct token kw = lang_next(src);
	struct token t = lang_next(src);
	struct scg_loc loc = lang_token_loc(src, &kw);
	if (t.kind == TK_STRING) {
		char *path = string_value(ctx, src, &t);
		if (path)
			lang_include_file(ctx, src, path, loc);
	} else if (is_use && t.kind == TK_IDENT) {
		char *name = lang_token_text(ctx, src, &t);
		if (name)
			lang_use_profile(ctx, src, name, lang_token_loc(src, &t));
	} else {
		lang_syntax_error(ctx, src, &t,
				  is_use ? "a profile name or a \"file\"" : "a \"file\"");
	}
}

static void parse_statement(struct parse_ctx *ctx, struct source *src)
{
	struct token t = lang_peek(src);
	if (lang_ident_is(src, &t, "default"))
		parse_setting(ctx, src, &ctx->def, "default");
	else if (lang_ident_is(src, &t, "badarch"))
		parse_setting(ctx, src, &ctx->badarch, "badarch");
	else if (lang_ident_is(src, &t, "unknown"))
		parse_setting(ctx, src, &ctx->unknown, "unknown");
	else if (lang_ident_is(src, &t, "arch"))
		parse_arch_setting(ctx, src);
	else if (lang_ident_is(src, &t, "include"))
		parse_include(ctx, src, false);
	else if (lang_ident_is(src, &t, "use"))
		parse_include(ctx, src, true);
	else
		parse_rule(ctx, src);
}

static void skip_to_line_end(struct source *src)
{
	while (lang_peek(src).kind != TK_NEWLINE && lang_peek(src).kind != TK_EOF)
		lang_next(src);
}

void lang_parse_source(struct parse_ctx *ctx, struct source *src)
{
	for (;;) {
		lang_skip_newlines(src);
		if (ctx->stopped || ctx->arena.failed || lang_peek(src).kind == TK_EOF)
			return;
		unsigned errors = ctx->errors;
		src->brackets = 0;
		ctx->stmt++;
		parse_statement(ctx, src);
		src->brackets = 0;
		/* A statement cut short by a failed allocation is not a syntax error. */
		struct token t = lang_peek(src);
		if (!ctx->arena.failed && ctx->errors == errors && t.kind != TK_NEWLINE &&
		    t.kind != TK_EOF) {
			char buf[64];
			bool word = t.kind == TK_IDENT || t.kind == TK_NUMBER || t.kind == TK_GROUP;
			lang_diag(ctx, SCG_SEV_ERROR, lang_token_loc(src, &t), "syntax",
				  word ? "separate syscalls with ','; conditions start with 'if'"
				       : NULL,
				  "expected end of line, found %s",
				  lang_token_describe(src, &t, buf, sizeof(buf)));
		}
		skip_to_line_end(src);
	}
}
