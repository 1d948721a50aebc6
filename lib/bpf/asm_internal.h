/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the assembler (asm_lex.c, asm_parse.c, asm_operand.c,
 * asm_label.c, asm_emit.c, asm.c) and the syntax tables it shares with the
 * disassembler (asm_syntax.c, insn_text.c, disasm*.c) and the verifier's
 * messages (verify.c).
 *
 * The assembler is a pipeline: the lexer cuts one line into tokens, the
 * parser turns each line into labels and one symbolic node (jump targets
 * still named), and each node goes at once into a labelled program
 * (bpf/lprog.h), the jump resolver the policy compiler uses too: it binds
 * the labels, adds JA trampolines until every conditional jump is within
 * reach, and encodes.
 */
#ifndef SCG_LIB_BPF_ASM_INTERNAL_H
#define SCG_LIB_BPF_ASM_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/asm.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>

#include "bpf/lprog.h"
#include "util/strbuf.h"

/* --- the syntax shared by assembler and disassembler (asm_syntax.c) ---- */

/* What follows a mnemonic. */
enum asm_operand {
	ASM_OPND_NONE,   /* neg, tax, txa */
	ASM_OPND_IMM,    /* #k */
	ASM_OPND_BARE,   /* k without '#' (ldi, ldxi) */
	ASM_OPND_LEN,    /* #len */
	ASM_OPND_MEM,    /* M[k] */
	ASM_OPND_ABS,    /* [k] */
	ASM_OPND_IND,    /* [x + k] */
	ASM_OPND_MSH,    /* 4*([k]&0xf) */
	ASM_OPND_X,      /* x */
	ASM_OPND_A,      /* a */
	ASM_OPND_TARGET, /* ja L */
	ASM_OPND_COND_K, /* #k, Ltrue[, Lfalse] */
	ASM_OPND_COND_X, /* x, Ltrue[, Lfalse] */
};

/* One way to write one opcode. */
struct asm_form {
	char mnemonic[8]; /* in place, not a pointer: no relocation when the library loads */
	enum asm_operand operand;
	uint16_t code;
	bool inverted; /* jne, jlt, jle: a single target is the false branch */
	bool alias;    /* accepted, never chosen by the disassembler */
};

/* The form for @mnemonic (case-insensitive, @len bytes) with @operand, or NULL. */
const struct asm_form *asm_form_find(const char *mnemonic, size_t len, enum asm_operand operand);
/* True when @mnemonic names an instruction at all. */
bool asm_mnemonic_known(const char *mnemonic, size_t len);
/* The closest mnemonic to a misspelled one, or NULL. */
const char *asm_mnemonic_suggest(const char *word);
/* "#k, M[k], [k]" for a hint about what @mnemonic takes.  Appends to @sb. */
void asm_mnemonic_operands(struct strbuf *sb, const char *mnemonic, size_t len);
/* How an operand kind is written, for messages ("#k", "M[k]", ...). */
const char *asm_operand_syntax(enum asm_operand operand);

/*
 * The form the disassembler prints for @insn: the first non-alias form with
 * this code whose unused fields (jt, jf, k) are all zero, so that assembling
 * the printed text gives back the same 8 bytes.  NULL: print ".insn".
 */
const struct asm_form *asm_form_of_insn(const struct scg_insn *insn);
/* The printed form for @code regardless of the other fields, or NULL (no such opcode). */
const struct asm_form *asm_form_by_code(uint16_t code);

/*
 * seccomp_data field names usable as [name]: nr, arch, ip, ip.lo, ip.hi,
 * arg0..arg5 (the low word), argN.lo, argN.hi.  Offsets of ip and args
 * follow @arch's byte order.  Returns 0, -ENOENT (not a field name) or
 * -EINVAL (a field whose offset needs an ABI and @arch is NULL).
 */
int asm_field_offset(const char *name, size_t len, const struct scg_arch *arch, uint32_t *offset);
/*
 * The canonical name ("nr", "arch", "ip.lo", "arg3.hi") of offset @offset
 * on @arch into @buf, or false when @offset is no field word.
 */
bool asm_field_name(uint32_t offset, const struct scg_arch *arch, char *buf, size_t size);

/* bpf_asm's ancillary load names ("proto", "cpu", ...): their offset from SKF_AD_OFF. */
int asm_ancillary_offset(const char *name, size_t len, uint32_t *offset);

/* --- rendering one instruction (insn_text.c) ---------------------------- */

struct asm_text_opts {
	const struct scg_arch *arch; /* decides [argN.lo] and errno/action text; may be NULL */
	bool a_holds_arch;           /* A is seccomp_data.arch: print AUDIT_ARCH_* names */
	size_t prog_len;             /* targets below it are labels "L<index>", others "+N" */
	bool *referenced;            /* NULL, or prog_len flags: set for each label printed */
};

/*
 * Appends @insn (at index @pc) in assembler syntax: a mnemonic form when
 * reassembling it gives back the same bytes, ".insn" otherwise.  Returns
 * true when a mnemonic form was used.
 */
bool asm_insn_text(struct strbuf *sb, const struct scg_insn *insn, size_t pc,
		   const struct asm_text_opts *opts);
/* Appends @k the way the disassembler writes constants (decimal or hex). */
void asm_append_number(struct strbuf *sb, uint32_t k, bool prefer_hex);

/* --- the assembler's working state --------------------------------------- */

enum asm_token_kind {
	ASM_TOK_END,    /* end of the line (newline or end of input) */
	ASM_TOK_IDENT,  /* [A-Za-z_][A-Za-z0-9_.]* */
	ASM_TOK_NUMBER, /* -?[0-9][A-Za-z0-9_]*: checked by the parser */
	ASM_TOK_PUNCT,  /* one of : , # % [ ] ( ) + - * & . */
};

struct asm_token {
	enum asm_token_kind kind;
	const char *text;
	size_t len;
	unsigned line, column;
};

/* A jump field: unused, a raw number (+N or .insn), a label, or the next instruction. */
enum asm_target_kind {
	ASM_TARGET_NONE,
	ASM_TARGET_RAW,
	ASM_TARGET_LABEL,
	ASM_TARGET_NEXT, /* the omitted branch of "jeq #k, L": the next instruction */
};

struct asm_target {
	enum asm_target_kind kind;
	size_t index; /* label index */
	unsigned line, column;
};

/* One instruction as written: raw fields (a RAW target's number too) plus symbolic targets. */
struct asm_node {
	struct scg_insn insn;
	struct asm_target jt, jf, ja; /* ja: the k field of a JA */
	unsigned line, column;
};

struct asm_label {
	const char *name; /* points into the source text */
	size_t len;
	size_t node; /* index of the node it marks (== node count: the end) */
	unsigned line, column;
	lprog_label id; /* its label in ctx->lp */
};

/* After this many errors the assembler stops reading. */
#define ASM_MAX_ERRORS 50U

struct asm_ctx {
	const char *text;
	size_t text_len;
	const char *file;
	const struct scg_arch *arch;
	struct scg_diag *diag;
	unsigned errors;
	bool stopped; /* too many errors: stop reading */
	bool nomem;

	struct lprog *lp; /* every stored node, as one instruction tagged with its index */
	struct asm_node *nodes;
	size_t n_nodes, cap_nodes;
	size_t n_statements; /* instructions written, including ones not stored (too many) */

	struct asm_label *labels;
	size_t n_labels, cap_labels;
	size_t *label_slots; /* open-addressing hash of label indexes; SIZE_MAX = empty */
	size_t n_slots;
};

/* Reports an error at @line:@column (0 = none) with an optional @hint. */
void asm_error(struct asm_ctx *ctx, unsigned line, unsigned column, const char *code,
	       const char *hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void asm_warning(struct asm_ctx *ctx, unsigned line, unsigned column, const char *code,
		 const char *hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* --- lexer (asm_lex.c) --- */

struct asm_lexer {
	const char *text;
	size_t len, pos;
	unsigned line, column;
};

void asm_lexer_init(struct asm_lexer *lx, const char *text, size_t len);
/* True while there is input left to read. */
bool asm_lexer_more(const struct asm_lexer *lx);
/*
 * Reads the next token.  Comments and blanks are skipped; a newline gives
 * ASM_TOK_END.  A character that cannot start a token is reported, and
 * false is returned with the lexer past it.
 */
bool asm_lex(struct asm_ctx *ctx, struct asm_lexer *lx, struct asm_token *tok);
/* Skips to just past the end of the current line. */
void asm_lex_skip_line(struct asm_lexer *lx);

/* --- parser (asm_parse.c, asm_operand.c) --- */

/* A cursor over the tokens of one line. */
struct asm_line {
	const struct asm_token *toks; /* the last one is ASM_TOK_END */
	size_t n, pos;
};

/* Parses all of the text into ctx->nodes and ctx->labels. */
void asm_parse(struct asm_ctx *ctx);
/* Parses one statement (labels already taken): an instruction or .insn. */
void asm_parse_statement(struct asm_ctx *ctx, struct asm_line *line);

/* Where an operand was found and what it says. */
struct asm_operand_value {
	enum asm_operand kind;
	uint32_t k;
	bool is_action; /* written as ALLOW, ERRNO(n), ...: only after ret */
	const struct asm_token *at;
};

/* Parses one operand (possibly none).  Reports and returns false on error. */
bool asm_parse_operand(struct asm_ctx *ctx, struct asm_line *line, struct asm_operand_value *out);
/* Parses a constant: a number or a name (syscall, AUDIT_ARCH_*, errno). */
bool asm_parse_value(struct asm_ctx *ctx, struct asm_line *line, uint32_t *out);
/* Parses a jump target: a label or +N (N at most @max).  Fills @target. */
bool asm_parse_target(struct asm_ctx *ctx, struct asm_line *line, uint32_t max,
		      struct asm_target *target, uint32_t *raw);

const struct asm_token *asm_peek(const struct asm_line *line);
bool asm_is_punct(const struct asm_token *tok, char c);
bool asm_accept_punct(struct asm_line *line, char c);
/* Consumes @c or reports "expected @what". */
bool asm_expect_punct(struct asm_ctx *ctx, struct asm_line *line, char c, const char *what);
bool asm_ident_is(const struct asm_token *tok, const char *word); /* case-insensitive */
/* Reports "unexpected X" at @tok with an optional @hint. */
void asm_unexpected(struct asm_ctx *ctx, const struct asm_token *tok, const char *what,
		    const char *hint);

/* --- labels (asm_label.c) --- */

/* Defines the label named by @tok at the next instruction (binding it in ctx->lp). */
int asm_label_define(struct asm_ctx *ctx, const struct asm_token *tok);
/* Index of the label named by @tok, creating an undefined one if needed; SIZE_MAX on ENOMEM. */
size_t asm_label_ref(struct asm_ctx *ctx, const struct asm_token *tok);
/*
 * Reports @fault, found by lprog_check() for a jump to @t's label, at @t:
 * an undefined label (with the closest defined name as a hint), a backward
 * jump (an error; a warning for ja, which lprog encodes).
 */
void asm_label_report(struct asm_ctx *ctx, const struct asm_target *t,
		      const struct lprog_report *fault);
/* Warns about labels defined after the last instruction. */
void asm_labels_check_end(struct asm_ctx *ctx);

/* --- into the labelled program (asm_emit.c) --- */

/* A labelled program set up for the assembler (NULL on ENOMEM); lprog_free() it. */
struct lprog *asm_lprog_new(void);
/* Appends node @index, just stored, to ctx->lp. */
void asm_emit_node(struct asm_ctx *ctx, size_t index);
/* Reports label errors, resolves ctx->lp into @out.  0 or -EINVAL/-ENOMEM. */
int asm_resolve(struct asm_ctx *ctx, struct scg_prog *out);

#endif /* SCG_LIB_BPF_ASM_INTERNAL_H */
