/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Operands: numbers, named constants (syscalls of the target ABI,
 * AUDIT_ARCH_*, errno names), seccomp_data fields, actions and jump
 * targets.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bpf/asm_internal.h"
#include "bpf/opcodes.h"
#include "util/number.h"
#include "util/suggest.h"

#define NAME_MAX_LEN 64

static const char action_names[][13] = {
    "ALLOW", "KILL_PROCESS", "KILL_THREAD", "KILL", "TRAP", "ERRNO", "TRACE", "LOG", "USER_NOTIF",
};

#define N_ACTIONS (sizeof(action_names) / sizeof(action_names[0]))

/* Copies a token into a NUL-terminated buffer; false if it is too long. */
static bool token_string(const struct asm_token *tok, char *buf, size_t size)
{
	if (tok->len >= size)
		return false;
	memcpy(buf, tok->text, tok->len);
	buf[tok->len] = '\0';
	return true;
}

static int shown_len(const struct asm_token *tok)
{
	return (int)(tok->len > 40 ? 40 : tok->len);
}

/* --- numbers and names ---------------------------------------------------- */

static bool parse_number(struct asm_ctx *ctx, const struct asm_token *tok, uint32_t *out)
{
	int r = scg_parse_u32(tok->text, tok->len, out);
	if (r == -ERANGE) {
		asm_error(ctx, tok->line, tok->column, "asm-range",
			  "values are 32-bit: 0..0xffffffff, or -0x80000000..-1 for two's complement",
			  "number '%.*s' does not fit in 32 bits", shown_len(tok), tok->text);
		return false;
	}
	if (r < 0) {
		asm_error(ctx, tok->line, tok->column, "asm-number",
			  "numbers are decimal, 0x hex, 0b binary or 0 octal", "'%.*s' is not a number",
			  shown_len(tok), tok->text);
		return false;
	}
	return true;
}

static bool starts_with_caseless(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

static const char *suggest_audit_arch(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const char *candidate = scg_audit_arch_name(scg_arch_audit(scg_arch_at(i)));
		if (candidate)
			suggest_consider(&s, candidate);
	}
	return suggest_result(&s);
}

static bool looks_like_errno(const char *name)
{
	if (name[0] != 'E')
		return false;
	for (const char *p = name; *p; p++)
		if (islower((unsigned char)*p))
			return false;
	return true;
}

static void report_unknown_name(struct asm_ctx *ctx, const struct asm_token *tok, const char *name)
{
	const char *best = NULL;
	if (starts_with_caseless(name, "AUDIT_ARCH"))
		best = suggest_audit_arch(name);
	else if (looks_like_errno(name))
		best = scg_errno_suggest(name);
	else if (ctx->arch)
		best = scg_syscall_suggest(ctx->arch, name);
	char hint[160];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	else
		snprintf(hint, sizeof(hint),
			 "names are syscalls of %s, errno names (EPERM) and AUDIT_ARCH_* constants",
			 ctx->arch ? scg_arch_name(ctx->arch) : "the target ABI");
	asm_error(ctx, tok->line, tok->column, "asm-unknown-name", hint, "unknown name '%s'", name);
}

/* A named constant: a syscall of the target ABI, an AUDIT_ARCH_* value or an errno name. */
static bool resolve_name(struct asm_ctx *ctx, const struct asm_token *tok, uint32_t *out)
{
	char name[NAME_MAX_LEN];
	if (!token_string(tok, name, sizeof(name))) {
		asm_error(ctx, tok->line, tok->column, "asm-unknown-name", NULL,
			  "unknown name '%.*s...'", shown_len(tok), tok->text);
		return false;
	}
	int sys = ctx->arch ? scg_syscall_lookup(ctx->arch, name, out) : -ENOENT;
	if (sys == 0 || scg_audit_arch_lookup(name, out) == 0 ||
	    scg_errno_lookup(ctx->arch, name, out) == 0)
		return true;
	if (sys == -ENOSYS) {
		asm_error(ctx, tok->line, tok->column, "asm-syscall-abi",
			  scg_hint_text(SCG_HINT_ARCH_OR_NUMBER),
			  "'%s' is a syscall, but not on %s", name, scg_arch_name(ctx->arch));
		return false;
	}
	report_unknown_name(ctx, tok, name);
	return false;
}

bool asm_parse_value(struct asm_ctx *ctx, struct asm_line *line, uint32_t *out)
{
	const struct asm_token *tok = asm_peek(line);
	bool ok;
	if (tok->kind == ASM_TOK_NUMBER)
		ok = parse_number(ctx, tok, out);
	else if (tok->kind == ASM_TOK_IDENT)
		ok = resolve_name(ctx, tok, out);
	else {
		asm_unexpected(ctx, tok, "a number or a name", NULL);
		return false;
	}
	line->pos++;
	return ok;
}

/* --- actions: ret ALLOW, ret ERRNO(EPERM), ... ------------------------ */

static int action_index(const struct asm_token *tok)
{
	for (size_t i = 0; i < N_ACTIONS; i++)
		if (asm_ident_is(tok, action_names[i]))
			return (int)i;
	return -1;
}

static const char *suggest_action(const struct asm_token *tok)
{
	char word[NAME_MAX_LEN];
	if (!token_string(tok, word, sizeof(word)))
		return NULL;
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < N_ACTIONS; i++)
		suggest_consider(&s, action_names[i]);
	return suggest_result(&s);
}

static void report_bad_action(struct asm_ctx *ctx, const struct asm_token *name,
			      const struct asm_token *data)
{
	if (action_index(name) < 0) {
		const char *best = suggest_action(name);
		char hint[112] = "actions: ALLOW, LOG, ERRNO(n), TRAP(n), TRACE(n), USER_NOTIF, "
				 "KILL_PROCESS, KILL_THREAD";
		if (best)
			snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
		asm_error(ctx, name->line, name->column, "asm-unknown-action", hint,
			  "unknown action '%.*s'", shown_len(name), name->text);
		return;
	}
	if (!data) {
		asm_error(ctx, name->line, name->column, "asm-operand",
			  "for example ERRNO(EPERM); ERRNO(0) makes the syscall return 0 without running",
			  "%.*s needs its data in parentheses", shown_len(name), name->text);
		return;
	}
	char word[NAME_MAX_LEN] = "";
	const char *best = data->kind == ASM_TOK_IDENT && token_string(data, word, sizeof(word))
				   ? scg_errno_suggest(word)
				   : NULL;
	char hint[96] = "the data is a number 0..65535 or, for ERRNO, an errno name";
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	asm_error(ctx, data->line, data->column, "asm-operand", hint, "bad data '%.*s' for %.*s",
		  shown_len(data), data->text, shown_len(name), name->text);
}

/* NAME or NAME(DATA), checked by scg_ret_parse() on the target ABI. */
static bool parse_action(struct asm_ctx *ctx, struct asm_line *line, uint32_t *out)
{
	const struct asm_token *name = asm_peek(line);
	const struct asm_token *data = NULL;
	char text[2 * NAME_MAX_LEN + 4];
	if (!token_string(name, text, NAME_MAX_LEN)) {
		report_bad_action(ctx, name, NULL);
		return false;
	}
	line->pos++;
	if (asm_accept_punct(line, '(')) {
		data = asm_peek(line);
		if (data->kind != ASM_TOK_IDENT && data->kind != ASM_TOK_NUMBER) {
			asm_unexpected(ctx, data, "a number or an errno name", NULL);
			return false;
		}
		line->pos++;
		if (!asm_expect_punct(ctx, line, ')', "')'"))
			return false;
		if (data->len >= NAME_MAX_LEN) {
			report_bad_action(ctx, name, data);
			return false;
		}
		size_t used = strlen(text);
		snprintf(text + used, sizeof(text) - used, "(%.*s)", (int)data->len, data->text);
	} else if (asm_ident_is(name, "ERRNO")) {
		/* scg_ret_parse() reads a bare ERRNO as ERRNO(0): "succeed without running" */
		report_bad_action(ctx, name, NULL);
		return false;
	}
	if (scg_ret_parse(text, ctx->arch, out) == 0)
		return true;
	report_bad_action(ctx, name, data);
	return false;
}

/* --- operands ------------------------------------------------------------ */

/* The 4 or the 0xf of 4*([k]&0xf), as @want says: anything else is reported. */
static bool expect_msh_constant(struct asm_ctx *ctx, struct asm_line *line, uint32_t want)
{
	const struct asm_token *tok = asm_peek(line);
	uint32_t v;
	if (tok->kind != ASM_TOK_NUMBER) {
		asm_unexpected(ctx, tok, want == 4 ? "4" : "0xf", NULL);
		return false;
	}
	if (!parse_number(ctx, tok, &v))
		return false;
	line->pos++;
	if (v == want)
		return true;
	asm_error(ctx, tok->line, tok->column, "asm-operand", "BPF_MSH is 4*([k]&0xf)",
		  "only 4*([k]&0xf) exists");
	return false;
}

/* 4*([k]&0xf): bpf_asm's only spelling of BPF_MSH. */
static bool parse_msh(struct asm_ctx *ctx, struct asm_line *line, uint32_t *k)
{
	return expect_msh_constant(ctx, line, 4) && asm_expect_punct(ctx, line, '*', "'*'") &&
	       asm_expect_punct(ctx, line, '(', "'('") && asm_expect_punct(ctx, line, '[', "'['") &&
	       asm_parse_value(ctx, line, k) && asm_expect_punct(ctx, line, ']', "']'") &&
	       asm_expect_punct(ctx, line, '&', "'&'") && expect_msh_constant(ctx, line, 0xf) &&
	       asm_expect_punct(ctx, line, ')', "')'");
}

static bool is_register(const struct asm_token *tok, char reg)
{
	char name[2] = { reg, '\0' };
	return asm_ident_is(tok, name);
}

/* [k], [field], [x + k], [%x + k] */
static bool parse_brackets(struct asm_ctx *ctx, struct asm_line *line,
			   struct asm_operand_value *out)
{
	line->pos++; /* '[' */
	const struct asm_token *tok = asm_peek(line);
	bool percent = asm_is_punct(tok, '%');
	if (percent || is_register(tok, 'x')) {
		line->pos += percent ? 1 : 0;
		if (!is_register(asm_peek(line), 'x')) {
			asm_unexpected(ctx, asm_peek(line), "'x'", NULL);
			return false;
		}
		line->pos++;
		out->kind = ASM_OPND_IND;
		if (asm_accept_punct(line, '+') && !asm_parse_value(ctx, line, &out->k))
			return false;
		return asm_expect_punct(ctx, line, ']', "']'");
	}
	out->kind = ASM_OPND_ABS;
	int r = tok->kind == ASM_TOK_IDENT ? asm_field_offset(tok->text, tok->len, ctx->arch, &out->k)
					   : -ENOENT;
	if (r == -EINVAL) {
		asm_error(ctx, tok->line, tok->column, "asm-operand",
			  scg_hint_text(SCG_HINT_CHOOSE_ARCH),
			  "field '%.*s' depends on the target ABI, and none is known", shown_len(tok),
			  tok->text);
		return false;
	}
	if (r == 0)
		line->pos++;
	else if (!asm_parse_value(ctx, line, &out->k))
		return false;
	return asm_expect_punct(ctx, line, ']', "']'");
}

/* #k, #len, #proto (an ancillary load) */
static bool parse_hash(struct asm_ctx *ctx, struct asm_line *line, struct asm_operand_value *out)
{
	line->pos++; /* '#' */
	const struct asm_token *tok = asm_peek(line);
	uint32_t offset;
	if (asm_ident_is(tok, "len")) {
		line->pos++;
		out->kind = ASM_OPND_LEN;
		return true;
	}
	if (tok->kind == ASM_TOK_IDENT && asm_ancillary_offset(tok->text, tok->len, &offset) == 0) {
		line->pos++;
		out->kind = ASM_OPND_ABS;
		out->k = SCG_SKF_AD_OFF + offset;
		return true;
	}
	out->kind = ASM_OPND_IMM;
	return asm_parse_value(ctx, line, &out->k);
}

static bool parse_word_operand(struct asm_ctx *ctx, struct asm_line *line,
			       struct asm_operand_value *out)
{
	const struct asm_token *tok = asm_peek(line);
	uint32_t offset;
	if (is_register(tok, 'x') || is_register(tok, 'a')) {
		line->pos++;
		out->kind = is_register(tok, 'x') ? ASM_OPND_X : ASM_OPND_A;
		return true;
	}
	if (is_register(tok, 'M') && asm_is_punct(&line->toks[line->pos + 1], '[')) {
		line->pos += 2;
		out->kind = ASM_OPND_MEM;
		return asm_parse_value(ctx, line, &out->k) && asm_expect_punct(ctx, line, ']', "']'");
	}
	if (asm_ident_is(tok, "len")) {
		line->pos++;
		out->kind = ASM_OPND_LEN;
		return true;
	}
	if (asm_ancillary_offset(tok->text, tok->len, &offset) == 0) {
		line->pos++;
		out->kind = ASM_OPND_ABS;
		out->k = SCG_SKF_AD_OFF + offset;
		return true;
	}
	if (action_index(tok) >= 0 || asm_is_punct(&line->toks[line->pos + 1], '(') ||
	    suggest_action(tok)) {
		out->kind = ASM_OPND_IMM;
		out->is_action = true;
		return parse_action(ctx, line, &out->k);
	}
	asm_unexpected(ctx, tok, "an operand",
		       "operands are #k, x, a, M[k], [k], [x + k], #len or an action");
	return false;
}

bool asm_parse_operand(struct asm_ctx *ctx, struct asm_line *line, struct asm_operand_value *out)
{
	const struct asm_token *tok = asm_peek(line);
	*out = (struct asm_operand_value){ ASM_OPND_NONE, 0, false, tok };
	if (tok->kind == ASM_TOK_END)
		return true;
	if (asm_is_punct(tok, '#'))
		return parse_hash(ctx, line, out);
	if (asm_is_punct(tok, '['))
		return parse_brackets(ctx, line, out);
	if (asm_is_punct(tok, '%')) {
		line->pos++;
		const struct asm_token *reg = asm_peek(line);
		if (!is_register(reg, 'x') && !is_register(reg, 'a')) {
			asm_unexpected(ctx, reg, "'x' or 'a' after '%'", NULL);
			return false;
		}
		line->pos++;
		out->kind = is_register(reg, 'x') ? ASM_OPND_X : ASM_OPND_A;
		return true;
	}
	if (tok->kind == ASM_TOK_NUMBER) {
		if (asm_is_punct(&line->toks[line->pos + 1], '*')) {
			out->kind = ASM_OPND_MSH;
			return parse_msh(ctx, line, &out->k);
		}
		out->kind = ASM_OPND_BARE;
		return asm_parse_value(ctx, line, &out->k);
	}
	if (tok->kind == ASM_TOK_IDENT)
		return parse_word_operand(ctx, line, out);
	asm_unexpected(ctx, tok, "an operand", NULL);
	return false;
}

/* --- jump targets ----------------------------------------------------------- */

bool asm_parse_target(struct asm_ctx *ctx, struct asm_line *line, uint32_t max,
		      struct asm_target *target, uint32_t *raw)
{
	const struct asm_token *tok = asm_peek(line);
	*target = (struct asm_target){ ASM_TARGET_NONE, 0, tok->line, tok->column };
	*raw = 0;
	if (tok->kind == ASM_TOK_IDENT) {
		size_t index = asm_label_ref(ctx, tok);
		if (index == SIZE_MAX)
			return false;
		line->pos++;
		target->kind = ASM_TARGET_LABEL;
		target->index = index;
		return true;
	}
	if (asm_is_punct(tok, '+')) {
		line->pos++;
		const struct asm_token *num = asm_peek(line);
		if (num->kind != ASM_TOK_NUMBER || num->text[0] == '-') {
			asm_unexpected(ctx, num, "an offset after '+'", NULL);
			return false;
		}
		if (!parse_number(ctx, num, raw))
			return false;
		line->pos++;
		if (*raw > max) {
			asm_error(ctx, num->line, num->column, "asm-range",
				  "a label instead gets a trampoline when needed",
				  "jump offset +%u is out of range (at most %u)", *raw, max);
			return false;
		}
		target->kind = ASM_TARGET_RAW;
		return true;
	}
	char hint[64];
	snprintf(hint, sizeof(hint), "for an offset write '+%.*s'",
		 tok->kind == ASM_TOK_NUMBER ? shown_len(tok) : 1, tok->kind == ASM_TOK_NUMBER ? tok->text : "N");
	asm_unexpected(ctx, tok, "a label or +N", hint);
	return false;
}
