/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy-language parser, inside: tokens, the syntax tree it builds
 * before the target ABIs are known, and the state shared by its stages.
 *
 *   lex.c          text -> tokens
 *   parse.c        tokens -> statements (rules, settings, include/use)
 *   parse_expr.c   conditions and constant values
 *   parse_source.c files, composition, the public entry points
 *   parse_lower.c  syntax tree -> struct scg_policy, per target ABI
 *   parse_check.c  rules that can never match
 *
 * The tree is resolved only after every file is read, because constants,
 * errno names and parameter widths depend on the final set of target ABIs,
 * which the outermost file may set last.
 */
#ifndef SCG_LIB_LANG_PARSE_H
#define SCG_LIB_LANG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/lang.h>

/* Limits, each with a clear diagnostic. */
#define LANG_MAX_ERRORS	       25 /* then "too many errors" and stop */
#define LANG_MAX_NESTING       64 /* parentheses, '!' and '~' inside one condition */
#define LANG_MAX_INCLUDE_DEPTH 32
#define LANG_MAX_SOURCE	       (256u << 20) /* bytes of one file */
#define LANG_MAX_ARCHES	       32	    /* bits of a rule's arch_mask */

/* --- tokens ---------------------------------------------------------------- */

enum tok_kind {
	TK_EOF,
	TK_NEWLINE,
	TK_IDENT,  /* allow, read, AF_UNIX, kill-thread, arg0 */
	TK_GROUP,  /* @basic-io (text without '@') */
	TK_NUMBER, /* 42, 0x1f (validated by the parser) */
	TK_STRING, /* "file" (text without quotes, escapes still in) */
	TK_LPAREN,
	TK_RPAREN,
	TK_LBRACE,
	TK_RBRACE,
	TK_COMMA,
	TK_DOT,
	TK_DOTDOT, /* between the ends of a syscall number range */
	TK_EQ,
	TK_NE,
	TK_LT,
	TK_LE,
	TK_GT,
	TK_GE,
	TK_AMP,
	TK_ANDAND,
	TK_PIPE,
	TK_OROR,
	TK_BANG,
	TK_TILDE,
	TK_MINUS,
	TK_QUESTION, /* after a syscall name: optional, no warning where it is absent */
};

struct token {
	enum tok_kind kind;
	uint32_t line, col;
	uint32_t off, len; /* the token's text in the source */
};

struct parse_ctx;

struct token_list {
	struct token *items;
	size_t count, cap;
};

/* --- arena: the tree lives here and is freed at once ------------------------ */

struct arena_chunk;
struct arena {
	struct arena_chunk *head;
	bool failed; /* an allocation failed: the parse reports -ENOMEM */
};

void *arena_alloc(struct arena *a, size_t size); /* zeroed; NULL on failure */
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_release(struct arena *a);

/* --- the syntax tree ---------------------------------------------------------- */

/* A constant value: 42, -1, AF_UNIX, PROT_READ|PROT_WRITE, ~O_CLOEXEC. */
enum uval_kind { UV_NUMBER, UV_NAME, UV_OR, UV_NOT };

struct uval {
	enum uval_kind kind;
	struct scg_loc loc;
	uint64_t number;   /* UV_NUMBER */
	bool negative;	   /* UV_NUMBER written with '-' */
	const char *name;  /* UV_NAME */
	struct uval *left; /* UV_OR, UV_NOT */
	struct uval *right;
};

enum upart { PART_FULL, PART_LO, PART_HI };

/* The left side of a comparison: argN or a parameter name, .lo/.hi, & mask. */
struct uoperand {
	int arg;	   /* 0..5, or -1 for a parameter name */
	const char *param; /* with arg == -1 */
	enum upart part;
	struct uval *mask; /* NULL: none */
	struct scg_loc loc;
};

enum ucond_kind { UC_CMP, UC_IN, UC_AND, UC_OR, UC_NOT };

struct ucond {
	enum ucond_kind kind;
	struct scg_loc loc;
	struct uoperand operand; /* UC_CMP, UC_IN */
	enum scg_cmp_op op;	 /* UC_CMP */
	struct uval *value;	 /* UC_CMP */
	struct uval **set;	 /* UC_IN */
	size_t nset;
	bool not_in;	     /* UC_IN: "not in" */
	struct ucond **kids; /* UC_AND, UC_OR (n-ary), UC_NOT (one) */
	size_t nkids;
};

enum uaction_kind {
	UA_ALLOW,
	UA_KILL_PROCESS,
	UA_KILL_THREAD,
	UA_LOG,
	UA_NOTIFY,
	UA_ERRNO,
	UA_TRAP,
	UA_TRACE,
	UA_RAW, /* action(N): a seccomp return value as is */
};

struct uaction {
	enum uaction_kind kind;
	struct uval *data; /* ERRNO, TRAP, TRACE, RAW; NULL = 0 */
	struct scg_loc loc;
};

enum usys_kind { US_NAME, US_GROUP, US_NUMBER };

struct usyscall {
	enum usys_kind kind;
	const char *name; /* US_NAME, US_GROUP (without '@') */
	uint32_t number;  /* US_NUMBER: the first number */
	uint32_t number_last; /* US_NUMBER: the last (== number unless LO..HI) */
	bool optional;	  /* US_NAME written "name?" */
	struct scg_loc loc;
};

struct urule {
	struct uaction action;
	struct usyscall *items;
	size_t nitems;
	struct ucond *cond; /* NULL: unconditional */
	uint32_t on_mask;   /* with has_on: bit i = scg_arch_at(i) */
	bool has_on;
	struct scg_loc loc;
	unsigned depth; /* 0 = the outermost file */
	unsigned stmt;	/* its place in reading order (parse_ctx.stmt) */
};

/* default / badarch / unknown: the shallowest file's statement wins. */
struct usetting {
	bool set;
	unsigned depth;
	struct uaction action;
	struct scg_loc loc;
	unsigned stmt;
};

struct uarch_setting {
	bool set;
	unsigned depth;
	const struct scg_arch *arches[LANG_MAX_ARCHES];
	size_t count;
	struct scg_loc loc;
};

/* --- one source being parsed ------------------------------------------------ */

struct source {
	struct parse_ctx *ctx;
	const char *name; /* for diagnostics (arena) */
	const char *dir;  /* base of relative paths (arena); NULL = current directory */
	const char *id;	  /* identity for cycle detection (arena) */
	bool builtin;	  /* a built-in profile: no file includes */
	const char *text;
	size_t len;
	struct token_list toks; /* lexed on demand, so diagnostics come in order; it moves
				   as it grows: read through lang_token_at() and keep copies */
	size_t pos;
	struct {
		size_t pos;
		uint32_t line, col;
		bool done;
	} lex;
	unsigned depth;
	unsigned brackets; /* open '(' and '{' of the statement: indented lines continue it */
};

/* --- state shared by every stage --------------------------------------------- */

/* A diagnostic waiting in parse_ctx.pending, with the statement it belongs to. */
struct pending_key {
	unsigned stmt, line, column;
	size_t index;
};

struct parse_ctx {
	struct scg_diag *diag; /* the caller's: gets the pending ones in reading order */
	/*
	 * The lowering reports after the whole text is read, so diagnostics wait
	 * here, each keyed by its statement, and reach @diag sorted by statement,
	 * line and column (lang_flush_diags()).
	 */
	struct scg_diag *pending;
	struct pending_key *keys;
	size_t nkeys, keys_cap;
	unsigned stmt; /* the statement being read or lowered: statements begun so far */
	/* For hints that fit where they point: the rule whose condition is being
	 * read, and the operand a value being resolved is compared with (syscall
	 * NULL: none), whose constant family a misspelt name is matched against. */
	const struct urule *rule;
	struct {
		const char *syscall;
		const char *param; /* by name, or by position: arg >= 0 */
		int arg;
	} compared;
	unsigned errors;
	bool stopped; /* too many errors: unwind */
	struct arena arena;
	const struct scg_policy_source_options *opts; /* &opts_copy */
	struct scg_policy_source_options opts_copy;   /* the caller's, as this library reads them */

	struct urule *rules;
	size_t nrules, rules_cap;
	struct usetting def, badarch, unknown;
	struct uarch_setting arch;

	const char *stack[LANG_MAX_INCLUDE_DEPTH + 2]; /* ids of the sources being read */
	unsigned stack_depth;
};

/* Sets up @ctx for a parse reporting to @diag (may be NULL).  0 or -ENOMEM. */
int lang_ctx_init(struct parse_ctx *ctx, struct scg_diag *diag,
		  const struct scg_policy_source_options *opts);
/* Hands the pending diagnostics to the caller's list in reading order. */
void lang_flush_diags(struct parse_ctx *ctx);

/* Reports a problem; errors count toward LANG_MAX_ERRORS. */
void lang_diag(struct parse_ctx *ctx, enum scg_severity sev, struct scg_loc loc, const char *code,
	       const char *hint, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/*
 * lex.c: makes sure @src has at least @count tokens (the last one being
 * TK_EOF once the text is used up).  Sets ctx->arena.failed when out of memory.
 */
void lang_lex(struct parse_ctx *ctx, struct source *src, size_t count);
struct scg_loc lang_token_loc(const struct source *src, const struct token *t);

/* parse.c: reads every statement of @src, recursing into include/use. */
void lang_parse_source(struct parse_ctx *ctx, struct source *src);
/*
 * Token access shared with parse_expr.c, by value: reading a token may lex
 * more of the text, which moves the token array, so no pointer into it is
 * ever handed out (functions below that take a token take the caller's copy).
 */
struct token lang_token_at(struct source *src, size_t index); /* lexes as needed */
struct token lang_peek(struct source *src);
struct token lang_next(struct source *src);
bool lang_accept(struct source *src, enum tok_kind kind);
void lang_skip_newlines(struct source *src);
/* Where a statement may go on: skips a line break if the next line is indented. */
void lang_continue_line(struct source *src);
bool lang_ident_is(const struct source *src, const struct token *t, const char *word);
char *lang_token_text(struct parse_ctx *ctx, const struct source *src, const struct token *t);
void lang_syntax_error(struct parse_ctx *ctx, struct source *src, const struct token *t,
		       const char *expected);
const char *lang_token_describe(const struct source *src, const struct token *t, char *buf,
				size_t size);

/* parse_expr.c */
struct ucond *lang_parse_condition(struct parse_ctx *ctx, struct source *src);
struct uval *lang_parse_value(struct parse_ctx *ctx, struct source *src, unsigned depth);

/* parse_source.c: include/use, called by the statement parser. */
void lang_include_file(struct parse_ctx *ctx, struct source *from, const char *path,
		       struct scg_loc loc);
void lang_use_profile(struct parse_ctx *ctx, struct source *from, const char *name,
		      struct scg_loc loc);

/* parse_lower.c: builds the policy from the tree.  0, -EINVAL or -ENOMEM. */
int lang_lower(struct parse_ctx *ctx, struct scg_policy *policy);
/* Resolves @v on @arch: 0, or -EINVAL after reporting why. */
int lang_eval_value(struct parse_ctx *ctx, const struct uval *v, const struct scg_arch *arch,
		    uint64_t *out);

/* parse_check.c: warns about rules an earlier rule always decides. */
struct shadow_index;
struct shadow_index *shadow_index_new(void);
void shadow_index_free(struct shadow_index *index);
/*
 * Checks rule @index of @policy (applying on the ABIs of @abi_mask, bits
 * of the policy's arch list) against the earlier ones and records it.
 * @depth is the nesting of the file that holds it.  Returns 1 and sets
 * *@decided_by to the earlier rule's location when that rule always
 * decides first (unless the later rule sits in a more deeply nested file:
 * an override), 0 when not, or -ENOMEM.
 */
int shadow_check(struct shadow_index *sx, const struct scg_policy *policy, size_t index,
		 uint32_t abi_mask, unsigned depth, struct scg_loc *decided_by);
/* "line 3" when @by is in @file, else "other.policy:3", into @buf. */
const char *shadow_where(const struct scg_loc *by, const char *file, char *buf, size_t size);

/* Hashing of conditions, beside scg_expr_equal() (also used by the lowering). */
uint64_t lang_expr_hash(const struct scg_expr *e);

#endif
