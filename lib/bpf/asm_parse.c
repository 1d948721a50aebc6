/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The assembler's parser: one statement per line, each made of labels
 * ("name:"), then an instruction or a ".insn" directive.  Every statement
 * becomes exactly one node, a zeroed placeholder when it has errors, so the
 * parser can go on and report further problems with the same numbering.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"
#include "util/grow.h"

/* A longer line is certainly not one instruction; stop collecting its tokens. */
#define MAX_LINE_TOKENS 256U

/* --- token cursor ------------------------------------------------------ */

const struct asm_token *asm_peek(const struct asm_line *line)
{
	return &line->toks[line->pos < line->n ? line->pos : line->n - 1];
}

bool asm_is_punct(const struct asm_token *tok, char c)
{
	return tok->kind == ASM_TOK_PUNCT && tok->text[0] == c;
}

bool asm_accept_punct(struct asm_line *line, char c)
{
	if (!asm_is_punct(asm_peek(line), c))
		return false;
	line->pos++;
	return true;
}

bool asm_ident_is(const struct asm_token *tok, const char *word)
{
	return tok->kind == ASM_TOK_IDENT && strlen(word) == tok->len &&
	       !strncasecmp(tok->text, word, tok->len);
}

void asm_unexpected(struct asm_ctx *ctx, const struct asm_token *tok, const char *what,
		    const char *hint)
{
	if (tok->kind == ASM_TOK_END)
		asm_error(ctx, tok->line, tok->column, "asm-syntax", hint,
			  "expected %s at the end of the line", what);
	else
		asm_error(ctx, tok->line, tok->column, "asm-syntax", hint, "expected %s, found '%.*s'",
			  what, (int)(tok->len > 40 ? 40 : tok->len), tok->text);
}

bool asm_expect_punct(struct asm_ctx *ctx, struct asm_line *line, char c, const char *what)
{
	if (asm_accept_punct(line, c))
		return true;
	asm_unexpected(ctx, asm_peek(line), what, NULL);
	return false;
}

/* --- nodes --------------------------------------------------------------- */

/* Appends @node and hands it on to the labelled program; not stored when there are too many. */
static void store_node(struct asm_ctx *ctx, const struct asm_node *node)
{
	ctx->n_statements++;
	if (ctx->n_nodes >= SCG_BPF_MAXINSNS)
		return; /* too long: counted, reported once at the end */
	if (GROW_ARRAY(&ctx->nodes, &ctx->cap_nodes, ctx->n_nodes + 1, 64)) {
		ctx->nomem = true;
		return;
	}
	ctx->nodes[ctx->n_nodes] = *node;
	asm_emit_node(ctx, ctx->n_nodes++);
}

/* --- statements ----------------------------------------------------------- */

static bool expect_line_end(struct asm_ctx *ctx, struct asm_line *line)
{
	const struct asm_token *tok = asm_peek(line);
	if (tok->kind == ASM_TOK_END)
		return true;
	asm_error(ctx, tok->line, tok->column, "asm-syntax",
		  "one instruction per line; comments start with ';'", "unexpected '%.*s' after the instruction",
		  (int)(tok->len > 40 ? 40 : tok->len), tok->text);
	return false;
}

static bool parse_field(struct asm_ctx *ctx, struct asm_line *line, uint32_t max, const char *what,
			uint32_t *out)
{
	const struct asm_token *at = asm_peek(line);
	if (!asm_parse_value(ctx, line, out))
		return false;
	if (*out <= max)
		return true;
	asm_error(ctx, at->line, at->column, "asm-range", NULL, "%s %#x does not fit (at most %#x)",
		  what, *out, max);
	return false;
}

/* .insn CODE, JT, JF, K: any 8-byte record, field by field. */
static bool parse_insn_directive(struct asm_ctx *ctx, struct asm_line *line, struct asm_node *node)
{
	uint32_t code, jt, jf, k;
	if (!parse_field(ctx, line, 0xffff, "code", &code) ||
	    !asm_expect_punct(ctx, line, ',', "',' after the code") ||
	    !parse_field(ctx, line, 0xff, "jt", &jt) ||
	    !asm_expect_punct(ctx, line, ',', "',' after jt") ||
	    !parse_field(ctx, line, 0xff, "jf", &jf) ||
	    !asm_expect_punct(ctx, line, ',', "',' after jf") ||
	    !parse_field(ctx, line, UINT32_MAX, "k", &k))
		return false;
	node->insn = (struct scg_insn){ (uint16_t)code, (uint8_t)jt, (uint8_t)jf, k };
	return true;
}

static bool parse_directive(struct asm_ctx *ctx, struct asm_line *line, struct asm_node *node)
{
	const struct asm_token *dot = asm_peek(line);
	line->pos++;
	const struct asm_token *name = asm_peek(line);
	if (asm_ident_is(name, "insn") && name->text == dot->text + 1) {
		line->pos++;
		return parse_insn_directive(ctx, line, node);
	}
	asm_error(ctx, dot->line, dot->column, "asm-directive",
		  "the only directive is '.insn CODE, JT, JF, K'", "unknown directive '.%.*s'",
		  (int)(name->kind == ASM_TOK_IDENT && name->len < 40 ? name->len : 0), name->text);
	return false;
}

static void set_target(struct asm_target *slot, const struct asm_target *target, uint32_t raw,
		       uint8_t *field)
{
	*slot = *target;
	*field = target->kind == ASM_TARGET_RAW ? (uint8_t)raw : 0;
}

/* jeq/jne/jgt/jge/jlt/jle/jset OPERAND, T1[, T2] */
static bool parse_cond_jump(struct asm_ctx *ctx, struct asm_line *line, const struct asm_token *mn,
			    struct asm_node *node)
{
	struct asm_operand_value v;
	if (!asm_parse_operand(ctx, line, &v))
		return false;
	if ((v.kind != ASM_OPND_IMM && v.kind != ASM_OPND_X) || v.is_action) {
		asm_error(ctx, v.at->line, v.at->column, "asm-operand",
			  "write '#k' (a number or a name) or 'x'", "'%.*s' compares A with #k or x",
			  (int)mn->len, mn->text);
		return false;
	}
	const struct asm_form *form = asm_form_find(
		mn->text, mn->len, v.kind == ASM_OPND_IMM ? ASM_OPND_COND_K : ASM_OPND_COND_X);
	/* an omitted branch falls through, even when a trampoline lands after the jump */
	struct asm_target t1, t2 = { ASM_TARGET_NEXT, 0, mn->line, mn->column };
	uint32_t raw1, raw2 = 0;
	if (!form || !asm_expect_punct(ctx, line, ',', "',' and a jump target") ||
	    !asm_parse_target(ctx, line, SCG_BPF_JUMP_REACH, &t1, &raw1))
		return false;
	if (asm_accept_punct(line, ',') &&
	    !asm_parse_target(ctx, line, SCG_BPF_JUMP_REACH, &t2, &raw2))
		return false;
	node->insn.code = form->code;
	node->insn.k = v.kind == ASM_OPND_IMM ? v.k : 0;
	/* jne/jlt/jle are jeq/jge/jgt with the branches swapped */
	if (form->inverted) {
		set_target(&node->jf, &t1, raw1, &node->insn.jf);
		set_target(&node->jt, &t2, raw2, &node->insn.jt);
	} else {
		set_target(&node->jt, &t1, raw1, &node->insn.jt);
		set_target(&node->jf, &t2, raw2, &node->insn.jf);
	}
	return true;
}

static bool parse_ja(struct asm_ctx *ctx, struct asm_line *line, const struct asm_form *form,
		     struct asm_node *node)
{
	uint32_t raw;
	if (!asm_parse_target(ctx, line, UINT32_MAX, &node->ja, &raw))
		return false;
	node->insn.code = form->code;
	node->insn.k = node->ja.kind == ASM_TARGET_RAW ? raw : 0;
	return true;
}

static void report_bad_operand(struct asm_ctx *ctx, const struct asm_token *mn,
			       const struct asm_operand_value *v)
{
	struct strbuf hint = STRBUF_INIT;
	strbuf_appendf(&hint, "'%.*s' takes ", (int)mn->len, mn->text);
	asm_mnemonic_operands(&hint, mn->text, mn->len);
	if (v->is_action)
		asm_error(ctx, v->at->line, v->at->column, "asm-operand", hint.data,
			  "an action only follows 'ret'");
	else if (v->kind == ASM_OPND_NONE)
		asm_error(ctx, v->at->line, v->at->column, "asm-operand", hint.data,
			  "'%.*s' needs an operand", (int)mn->len, mn->text);
	else
		asm_error(ctx, v->at->line, v->at->column, "asm-operand", hint.data,
			  "'%.*s' does not take %s", (int)mn->len, mn->text,
			  asm_operand_syntax(v->kind));
	ctx->nomem |= hint.failed;
	strbuf_release(&hint);
}

static bool parse_instruction(struct asm_ctx *ctx, struct asm_line *line, const struct asm_token *mn,
			      struct asm_node *node)
{
	const struct asm_form *ja = asm_form_find(mn->text, mn->len, ASM_OPND_TARGET);
	if (ja)
		return parse_ja(ctx, line, ja, node);
	if (asm_form_find(mn->text, mn->len, ASM_OPND_COND_K))
		return parse_cond_jump(ctx, line, mn, node);

	struct asm_operand_value v;
	if (!asm_parse_operand(ctx, line, &v))
		return false;
	bool is_ret = mn->len == 3 && !strncasecmp(mn->text, "ret", 3);
	const struct asm_form *form = asm_form_find(mn->text, mn->len, v.kind);
	if (!form || (v.is_action && !is_ret)) {
		report_bad_operand(ctx, mn, &v);
		return false;
	}
	node->insn = (struct scg_insn){ form->code, 0, 0, v.k };
	return true;
}

static void report_unknown_mnemonic(struct asm_ctx *ctx, const struct asm_token *tok,
				    const struct asm_line *line)
{
	char word[32] = "";
	if (tok->len < sizeof(word)) {
		memcpy(word, tok->text, tok->len);
		word[tok->len] = '\0';
	}
	const char *best = word[0] ? asm_mnemonic_suggest(word) : NULL;
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	else if (line->toks[line->pos + 1].kind == ASM_TOK_END)
		snprintf(hint, sizeof(hint), "a label needs a colon: '%.40s:'", word);
	else
		snprintf(hint, sizeof(hint), "docs/asm.md lists the instructions");
	asm_error(ctx, tok->line, tok->column, "asm-unknown-mnemonic", hint,
		  "unknown instruction '%.*s'", (int)(tok->len > 40 ? 40 : tok->len), tok->text);
}

void asm_parse_statement(struct asm_ctx *ctx, struct asm_line *line)
{
	const struct asm_token *tok = asm_peek(line);
	struct asm_node node = { .line = tok->line, .column = tok->column };
	bool ok;
	if (asm_is_punct(tok, '.')) {
		ok = parse_directive(ctx, line, &node);
	} else if (tok->kind != ASM_TOK_IDENT) {
		asm_unexpected(ctx, tok, "an instruction or a label", NULL);
		ok = false;
	} else if (!asm_mnemonic_known(tok->text, tok->len)) {
		report_unknown_mnemonic(ctx, tok, line);
		ok = false;
	} else {
		line->pos++;
		ok = parse_instruction(ctx, line, tok, &node);
	}
	if (ok)
		ok = expect_line_end(ctx, line);
	if (!ok) /* a placeholder keeps the numbering of later statements */
		node = (struct asm_node){ .line = node.line, .column = node.column };
	store_node(ctx, &node);
}

/* Labels first ("a: b: ld [0]"), then at most one statement. */
static void parse_line(struct asm_ctx *ctx, const struct asm_token *toks, size_t n, bool lexed)
{
	struct asm_line line = { toks, n, 0 };
	while (line.pos + 1 < n && toks[line.pos].kind == ASM_TOK_IDENT &&
	       asm_is_punct(&toks[line.pos + 1], ':')) {
		if (asm_label_define(ctx, &toks[line.pos]) < 0)
			return;
		line.pos += 2;
	}
	if (!lexed) { /* the lexer already complained; keep the numbering */
		store_node(ctx, &(struct asm_node){ .line = toks[0].line, .column = toks[0].column });
		return;
	}
	if (asm_peek(&line)->kind != ASM_TOK_END)
		asm_parse_statement(ctx, &line);
}

/* Lexes one line into @toks; false when the line had a lexical error. */
static bool lex_line(struct asm_ctx *ctx, struct scan *lx, struct asm_token *toks, size_t *n)
{
	*n = 0;
	for (;;) {
		struct asm_token tok;
		if (!asm_lex(ctx, lx, &tok)) {
			toks[(*n)++] = tok;
			toks[*n - 1].kind = ASM_TOK_END;
			scan_line(lx);
			return false;
		}
		if (*n == MAX_LINE_TOKENS - 1 && tok.kind != ASM_TOK_END) {
			asm_error(ctx, tok.line, tok.column, "asm-syntax", "one instruction per line",
				  "line too long");
			tok.kind = ASM_TOK_END;
			toks[(*n)++] = tok;
			scan_line(lx);
			return false;
		}
		toks[(*n)++] = tok;
		if (tok.kind == ASM_TOK_END)
			return true;
	}
}

void asm_parse(struct asm_ctx *ctx)
{
	struct asm_token *toks = malloc(MAX_LINE_TOKENS * sizeof(*toks));
	if (!toks) {
		ctx->nomem = true;
		return;
	}
	struct scan lx;
	scan_init(&lx, ctx->text, ctx->text_len);
	while (scan_more(&lx) && !ctx->stopped && !ctx->nomem) {
		size_t n;
		bool lexed = lex_line(ctx, &lx, toks, &n);
		parse_line(ctx, toks, n, lexed);
	}
	free(toks);
}
