/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kafel's policy language (google/kafel): POLICY definitions made of
 * action blocks and USE statements, the implicit top-level policy that
 * kafel compiles (every statement outside a POLICY, USE ones included, in
 * order), DEFAULT, #define NAME VALUE, #include "file", syscalls by name,
 * by #define'd number or as SYSCALL[N], arguments named by a declaration
 * "name(a, b)" or by the syscall's parameter names, and boolean
 * expressions over them.  The first rule that matches decides, as in
 * kafel; kafel compiles for one ABI (the native one here) and kills the
 * thread for calls of others and, without DEFAULT, for unmatched calls.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>
#include <syscage/lang.h>

#include "import/source.h"
#include "lang/lang_internal.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/suggest.h"

#define KF_MAX_DEPTH 8
#define KF_MAX_RULES 65536
#define KF_NAME 64

enum tk_kind { TK_EOF, TK_ID, TK_NUM, TK_PUNCT, TK_DEFINE };

enum { P_EQ = 256, P_NE, P_LE, P_GE, P_AND, P_OR };

struct tok {
	enum tk_kind kind;
	const char *text; /* TK_ID: the identifier */
	size_t len;
	uint64_t num; /* TK_NUM */
	int punct;    /* TK_PUNCT: the character, or P_* */
	struct scg_loc loc;
};

struct kf_filter {
	char name[KF_NAME]; /* "" for a number */
	uint32_t nr;
	struct scg_expr *cond;
	struct scg_loc loc;
};

struct kf_entry {
	size_t use; /* the policy a USE pastes, or SIZE_MAX for an action block */
	uint32_t action;
	struct kf_filter *f;
	size_t nf, fcap;
};

struct kf_policy {
	char name[KF_NAME];
	struct kf_entry *e;
	size_t ne, ecap;
};

struct kf_define {
	char name[KF_NAME];
	uint64_t value;
};

struct kf_ctx {
	struct scg_diag *diag;
	bool failed;
	bool oom; /* a failure was the allocator's, not the input's */
	const struct scg_arch *abi;
	char **texts; /* every file read, kept for the tokens and locations */
	size_t ntexts, texts_cap;
	struct tok *t;
	size_t nt, cap, pos;
	unsigned depth;
	struct kf_policy *pol; /* [0] is the top-level policy */
	size_t npol, pol_cap;
	struct kf_define *defs;
	size_t ndefs, defs_cap;
	bool has_default;
	uint32_t dflt;
	/* the syscall whose filter is being read: its argument names */
	char sc_name[KF_NAME];
	char args[6][KF_NAME];
	bool declared;
	size_t nrules;
};

static void error(struct kf_ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void error(struct kf_ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
{
	if (c->failed)
		return; /* kafel stops at the first error */
	c->failed = true;
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(c->diag, SCG_SEV_ERROR, loc, "kafel", hint, fmt, ap);
	va_end(ap);
}

/* --- tokens ------------------------------------------------------------------------ */

static int push(struct kf_ctx *c, struct tok t)
{
	if (GROW_ARRAY(&c->t, &c->cap, c->nt + 1, 256))
		return -ENOMEM;
	c->t[c->nt++] = t;
	return 0;
}

static bool id_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool id_char(char ch)
{
	return id_start(ch) || (ch >= '0' && ch <= '9');
}

/* A number as kafel writes it: 42, 0x2a, 052, 0b101010 (with a '-' before: two's complement). */
static size_t lex_number(const char *p, const char *end, uint64_t *out, bool *bad)
{
	const char *s = p;
	bool neg = *s == '-';
	if (neg)
		s++;
	unsigned base = 10;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (end - s > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	else if (end - s > 1 && s[0] == '0')
		base = 8, s++;
	uint64_t v = 0;
	*bad = false;
	const char *digits = s;
	for (; s < end && id_char(*s); s++) {
		unsigned d = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
			     : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
			     : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
						      : 99;
		if (d >= base || v > (UINT64_MAX - d) / base)
			*bad = true;
		v = v * base + (d < base ? d : 0);
	}
	if (s == digits && base != 8)
		*bad = true;
	*out = neg ? (uint64_t)0 - v : v;
	return (size_t)(s - p);
}

static int lex(struct kf_ctx *c, const char *text, size_t len, const char *file);

/* #include "a" "b" ...; up to the end of the line or ';'. */
static int include(struct kf_ctx *c, const char **pp, const char *end, unsigned line,
		   const char *lstart, const char *file)
{
	const char *p = *pp;
	int r = 0;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		struct scg_loc loc = {file, line, (unsigned)(p - lstart) + 1, -1};
		if (p >= end || *p == '\n' || *p == ';')
			break;
		if (*p != '"') {
			error(c, loc, "#include \"file.policy\"", "expected a file name in quotes");
			break;
		}
		const char *q = ++p;
		while (q < end && *q != '"' && *q != '\n')
			q++;
		if (q >= end || *q != '"') {
			error(c, loc, "close the name with '\"'", "unterminated file name");
			break;
		}
		char *name = strndup(p, (size_t)(q - p));
		p = q + 1;
		if (!name)
			return -ENOMEM;
		if (c->depth >= KF_MAX_DEPTH) {
			error(c, loc, "includes nest 8 deep at most", "'%s': includes nest too deep",
			      name);
			free(name);
			break;
		}
		char *itext = NULL, *resolved = NULL;
		size_t ilen = 0;
		r = imp_read_include(file, name, &itext, &ilen, &resolved);
		if (!r && GROW_ARRAY(&c->texts, &c->texts_cap, c->ntexts + 2, 8))
			r = -ENOMEM;
		if (r < 0 && r != -ENOMEM) {
			if (!c->failed)
				scg_diag_add(c->diag, SCG_SEV_ERROR, loc, "kafel",
					     "kafel looks beside the including file here",
					     "cannot include '%s': %s", name, strerror(-r));
			c->failed = true;
			r = 0;
		} else if (!r) {
			c->texts[c->ntexts++] = itext;
			c->texts[c->ntexts++] = resolved;
			itext = resolved = NULL;
			c->depth++;
			r = lex(c, c->texts[c->ntexts - 2], ilen, c->texts[c->ntexts - 1]);
			c->depth--;
		}
		free(itext);
		free(resolved);
		free(name);
		if (r || c->failed)
			break;
	}
	*pp = p;
	return r;
}

static int lex(struct kf_ctx *c, const char *text, size_t len, const char *file)
{
	const char *p = text, *end = text + len, *lstart = text;
	unsigned line = 1;
	while (p < end && !c->failed) {
		struct scg_loc loc = {file, line, (unsigned)(p - lstart) + 1, -1};
		char ch = *p;
		if (ch == '\n') {
			line++;
			lstart = ++p;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
			p++;
			continue;
		}
		if (ch == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (ch == '/' && p + 1 < end && p[1] == '*') {
			p += 2;
			while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
				if (*p == '\n') {
					line++;
					lstart = p + 1;
				}
				p++;
			}
			if (p + 1 >= end) {
				error(c, loc, "close it with '*/'", "unterminated comment");
				break;
			}
			p += 2;
			continue;
		}
		if (ch == '#') {
			const char *w = p + 1;
			while (w < end && (*w == ' ' || *w == '\t'))
				w++;
			const char *we = w;
			while (we < end && id_char(*we))
				we++;
			if (we - w == 6 && !strncmp(w, "define", 6)) {
				int r = push(c, (struct tok){.kind = TK_DEFINE, .loc = loc});
				if (r)
					return r;
				p = we;
			} else if (we - w == 7 && !strncmp(w, "include", 7)) {
				p = we;
				int r = include(c, &p, end, line, lstart, file);
				if (r)
					return r;
			} else {
				error(c, loc, "kafel's directives: #define, #include",
				      "unknown directive");
			}
			continue;
		}
		if ((ch >= '0' && ch <= '9') || (ch == '-' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			bool bad;
			uint64_t v;
			size_t n = lex_number(p, end, &v, &bad);
			if (bad)
				error(c, loc, "numbers: 42, 0x2a, 052, 0b101010, up to 64 bits",
				      "bad number");
			int r = push(c, (struct tok){.kind = TK_NUM, .num = v, .loc = loc});
			if (r)
				return r;
			p += n;
			continue;
		}
		if (id_start(ch)) {
			const char *s = p;
			while (p < end && id_char(*p))
				p++;
			int r = push(c, (struct tok){.kind = TK_ID, .text = s, .len = (size_t)(p - s),
						     .loc = loc});
			if (r)
				return r;
			continue;
		}
		static const struct {
			char a, b;
			int code;
		} two[] = {{'=', '=', P_EQ}, {'!', '=', P_NE}, {'<', '=', P_LE},
			   {'>', '=', P_GE}, {'&', '&', P_AND}, {'|', '|', P_OR}};
		int code = 0;
		for (size_t i = 0; i < sizeof(two) / sizeof(two[0]) && !code; i++)
			if (ch == two[i].a && p + 1 < end && p[1] == two[i].b)
				code = two[i].code;
		if (code) {
			p += 2;
		} else if (ch && strchr("{}()[],;!&|<>", (unsigned char)ch)) {
			code = (unsigned char)ch;
			p++;
		} else {
			char what[8];
			snprintf(what, sizeof(what), "%c", ch >= ' ' && ch < 127 ? ch : '?');
			error(c, loc, NULL, "unexpected character '%s'", what);
			break;
		}
		int r = push(c, (struct tok){.kind = TK_PUNCT, .punct = code, .loc = loc});
		if (r)
			return r;
	}
	return 0;
}

/* --- the parser ------------------------------------------------------------------------- */

static const struct tok *peek(const struct kf_ctx *c)
{
	return &c->t[c->pos];
}

static bool is_punct(const struct kf_ctx *c, int code)
{
	return peek(c)->kind == TK_PUNCT && peek(c)->punct == code;
}

static bool is_word(const struct kf_ctx *c, const char *w)
{
	const struct tok *t = peek(c);
	return t->kind == TK_ID && strlen(w) == t->len && !strncmp(t->text, w, t->len);
}

static void next(struct kf_ctx *c)
{
	if (c->t[c->pos].kind != TK_EOF)
		c->pos++;
}

static bool expect(struct kf_ctx *c, int code, const char *what)
{
	if (is_punct(c, code)) {
		next(c);
		return true;
	}
	error(c, peek(c)->loc, NULL, "expected %s", what);
	return false;
}

static void word_of(const struct tok *t, char *buf, size_t size)
{
	if (!t->text) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%.*s", (int)(t->len < size ? t->len : size - 1), t->text);
}

static const struct kf_define *find_define(const struct kf_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->ndefs; i++)
		if (!strcmp(c->defs[i].name, name))
			return &c->defs[i];
	return NULL;
}

/* A number or a #define'd name. */
static bool value(struct kf_ctx *c, uint64_t *out)
{
	const struct tok *t = peek(c);
	char name[KF_NAME];
	if (t->kind == TK_NUM) {
		*out = t->num;
		next(c);
		return true;
	}
	if (t->kind == TK_ID) {
		word_of(t, name, sizeof(name));
		const struct kf_define *d = find_define(c, name);
		if (d) {
			*out = d->value;
			next(c);
			return true;
		}
		error(c, t->loc, "#define it first", "undefined constant '%s'", name);
		return false;
	}
	error(c, t->loc, NULL, "expected a number");
	return false;
}

static bool action(struct kf_ctx *c, uint32_t *out)
{
	static const struct {
		const char *word;
		uint32_t action;
		bool data;
	} words[] = {
	    {"ALLOW", SCG_RET_ALLOW, false},
	    {"LOG", SCG_RET_LOG, false},
	    {"KILL", SCG_RET_KILL_THREAD, false},
	    {"KILL_THREAD", SCG_RET_KILL_THREAD, false},
	    {"DENY", SCG_RET_KILL_THREAD, false},
	    {"KILL_PROCESS", SCG_RET_KILL_PROCESS, false},
	    {"USER_NOTIF", SCG_RET_USER_NOTIF, false},
	    {"ERRNO", SCG_RET_ERRNO, true},
	    {"TRAP", SCG_RET_TRAP, true},
	    {"TRACE", SCG_RET_TRACE, true},
	};
	const struct tok *t = peek(c);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!is_word(c, words[i].word))
			continue;
		next(c);
		*out = words[i].action;
		if (!words[i].data)
			return true;
		uint64_t v;
		if (!expect(c, '(', "'('") || !value(c, &v))
			return false;
		if (v > SCG_RET_DATA) {
			error(c, t->loc, "0 to 65535", "%s value out of range", words[i].word);
			return false;
		}
		*out |= (uint32_t)v;
		return expect(c, ')', "')'");
	}
	char w[KF_NAME];
	word_of(t, w, sizeof(w));
	error(c, t->loc,
	      "actions: ALLOW, LOG, KILL, KILL_PROCESS, USER_NOTIF, ERRNO(n), TRAP(n), TRACE(n)",
	      "expected an action, not '%s'", t->kind == TK_ID ? w : "this");
	return false;
}

static bool is_action_word(const struct kf_ctx *c)
{
	static const char *const w[] = {"ALLOW", "LOG",	 "KILL",  "KILL_THREAD", "DENY",
					"KILL_PROCESS", "USER_NOTIF", "ERRNO", "TRAP",
					"TRACE", NULL};
	for (const char *const *p = w; *p; p++)
		if (is_word(c, *p))
			return true;
	return false;
}

/* --- expressions --------------------------------------------------------------------------- */

/*
 * An operand: a number (@num), or argument @arg as (arg & @mask) | @num: the
 * bits of @num are set whatever the argument holds (kafel's '|'), so they
 * are never in @mask.
 */
struct kv {
	bool var;
	unsigned arg, width;
	uint64_t mask, num;
};

static unsigned arg_width(const struct kf_ctx *c, unsigned arg)
{
	if (!c->sc_name[0])
		return 64;
	return scg_syscall_arg_width(c->abi, c->sc_name, arg) == 32 ? 32 : 64;
}

/* A constant of syscage's tables (O_RDONLY, PROT_EXEC): 0, -ENOMEM, or another -errno
 * when it is none (nothing reported). */
static int table_constant(const struct kf_ctx *c, const char *name, uint64_t *out)
{
	struct scg_diag *scratch = scg_diag_new();
	int r = scratch ? scg_constant_eval(name, c->abi, out, scratch) : -ENOMEM;
	scg_diag_free(scratch);
	return r;
}

static bool term(struct kf_ctx *c, struct kv *v)
{
	const struct tok *t = peek(c);
	*v = (struct kv){0};
	if (t->kind == TK_NUM) {
		v->num = t->num;
		next(c);
		return true;
	}
	if (t->kind != TK_ID) {
		error(c, t->loc, "an argument, a number or a constant", "expected an operand");
		return false;
	}
	char name[KF_NAME];
	word_of(t, name, sizeof(name));
	const struct kf_define *d = find_define(c, name);
	if (d) {
		v->num = d->value;
		next(c);
		return true;
	}
	for (unsigned i = 0; i < 6; i++)
		if (c->args[i][0] && !strcmp(c->args[i], name)) {
			v->var = true;
			v->arg = i;
			v->width = arg_width(c, i);
			v->mask = v->width == 32 ? 0xffffffffULL : UINT64_MAX;
			next(c);
			return true;
		}
	int found = table_constant(c, name, &v->num);
	if (found == 0) {
		next(c);
		return true;
	}
	if (found == -ENOMEM) {
		c->failed = c->oom = true;
		return false;
	}
	struct suggest s;
	suggest_init(&s, name);
	for (unsigned i = 0; i < 6; i++)
		if (c->args[i][0])
			suggest_consider(&s, c->args[i]);
	char hint[512];
	const char *best = suggest_result(&s);
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	else if (c->declared || !c->args[0][0])
		snprintf(hint, sizeof(hint), "name the arguments: %s(a, b) { a == 1 }",
			 c->sc_name[0] ? c->sc_name : "SYSCALL[n]");
	else
		snprintf(hint, sizeof(hint), "%s's arguments: %s %s %s %s %s %s", c->sc_name,
			 c->args[0], c->args[1], c->args[2], c->args[3], c->args[4], c->args[5]);
	error(c, t->loc, hint, "undefined identifier '%s'", name);
	return false;
}

/* The name of the rule being read, for messages. */
static const char *rule_name(const struct kf_ctx *c)
{
	return c->sc_name[0] ? c->sc_name : "SYSCALL[n]";
}

/* Refuses @op ('&' or '|') of two arguments at @loc: a condition tests one argument. */
static bool two_arguments(struct kf_ctx *c, struct scg_loc loc, char op)
{
	char what[KF_NAME + 64];
	snprintf(what, sizeof(what), "'%s' %s an argument with another ('%c' of two arguments)",
		 rule_name(c), op == '&' ? "masks" : "joins", op);
	error(c, loc, op == '&' ? "mask an argument with a number" : "join an argument with a number",
	      "the rule for %s, which the import cannot express", what);
	return false;
}

static bool bit_or(struct kf_ctx *c, struct kv *v);

/* operand: NUMBER | IDENTIFIER | '(' bit_or ')' */
static bool operand(struct kf_ctx *c, struct kv *v)
{
	if (!is_punct(c, '('))
		return term(c, v);
	next(c);
	return bit_or(c, v) && expect(c, ')', "')'");
}

/* bit_and: operand {'&' operand}, as in kafel's grammar ('&' binds tighter than '|') */
static bool bit_and(struct kf_ctx *c, struct kv *v)
{
	if (!operand(c, v))
		return false;
	while (is_punct(c, '&')) {
		struct scg_loc loc = peek(c)->loc;
		next(c);
		struct kv r;
		if (!operand(c, &r))
			return false;
		if (v->var && r.var)
			return two_arguments(c, loc, '&');
		if (!v->var && r.var) {
			struct kv t = *v;
			*v = r;
			r = t;
		}
		/* ((a & m) | o) & k is (a & m & k) | (o & k) */
		if (v->var)
			v->mask &= r.num;
		v->num &= r.num;
	}
	return true;
}

/* bit_or: bit_and {'|' bit_and} */
static bool bit_or(struct kf_ctx *c, struct kv *v)
{
	if (!bit_and(c, v))
		return false;
	while (is_punct(c, '|')) {
		struct scg_loc loc = peek(c)->loc;
		next(c);
		struct kv r;
		if (!bit_and(c, &r))
			return false;
		if (v->var && r.var)
			return two_arguments(c, loc, '|');
		if (!v->var && r.var) {
			struct kv t = *v;
			*v = r;
			r = t;
		}
		v->num |= r.num;
		if (v->var)
			v->mask &= ~r.num; /* bits set whatever the argument holds */
	}
	return true;
}

static int cmp_op(const struct kf_ctx *c)
{
	if (peek(c)->kind != TK_PUNCT)
		return -1;
	switch (peek(c)->punct) {
	case P_EQ:
		return SCG_CMP_EQ;
	case P_NE:
		return SCG_CMP_NE;
	case '<':
		return SCG_CMP_LT;
	case P_LE:
		return SCG_CMP_LE;
	case '>':
		return SCG_CMP_GT;
	case P_GE:
		return SCG_CMP_GE;
	default:
		return -1;
	}
}

static bool eval_const(enum scg_cmp_op op, uint64_t a, uint64_t b)
{
	switch (op) {
	case SCG_CMP_EQ:
		return a == b;
	case SCG_CMP_NE:
		return a != b;
	case SCG_CMP_LT:
		return a < b;
	case SCG_CMP_LE:
		return a <= b;
	case SCG_CMP_GT:
		return a > b;
	case SCG_CMP_GE:
		return a >= b;
	}
	return false;
}

static enum scg_cmp_op swap_op(enum scg_cmp_op op)
{
	switch (op) {
	case SCG_CMP_LT:
		return SCG_CMP_GT;
	case SCG_CMP_LE:
		return SCG_CMP_GE;
	case SCG_CMP_GT:
		return SCG_CMP_LT;
	case SCG_CMP_GE:
		return SCG_CMP_LE;
	case SCG_CMP_EQ:
	case SCG_CMP_NE:
		break;
	}
	return op;
}

static struct scg_expr *bool_expr(struct kf_ctx *c);

/* A condition that always holds (@value) or never does: (arg0 & 0) == 0, or its negation. */
static struct scg_expr *const_expr(bool value)
{
	struct scg_expr *e = scg_expr_cmp(0, 64, SCG_CMP_EQ, 0, 0);
	return e && !value ? scg_expr_not(e) : e;
}

/*
 * ((arg & mask) | bits) OP @k as a condition in *@out (NULL: out of memory).
 * With bits set, only == and != can be written as a masked comparison:
 * the value equals k exactly when k has every one of those bits, none
 * outside mask and them, and the argument's masked bits match k's.
 */
static bool arg_compare(struct kf_ctx *c, struct kv *a, enum scg_cmp_op op, uint64_t k,
			struct scg_loc loc, struct scg_expr **out)
{
	if (a->width == 32) {
		a->mask &= 0xffffffffULL;
		a->num &= 0xffffffffULL;
		k &= 0xffffffffULL;
	}
	if (a->num == 0) {
		*out = scg_expr_cmp(a->arg, a->width, op, a->mask, k);
		return true;
	}
	if (op != SCG_CMP_EQ && op != SCG_CMP_NE) {
		char rule[KF_NAME];
		snprintf(rule, sizeof(rule), "%s", rule_name(c));
		error(c, loc, "compare it with == or !=, or leave the '|' out",
		      "the rule for '%s' orders an argument with bits '|'-ed in, which the import "
		      "cannot express",
		      rule);
		return false;
	}
	bool possible = (k & a->num) == a->num && (k & ~(a->mask | a->num)) == 0;
	struct scg_expr *e = possible ? scg_expr_cmp(a->arg, a->width, SCG_CMP_EQ, a->mask, k & a->mask)
				      : const_expr(false);
	*out = e && op == SCG_CMP_NE ? scg_expr_not(e) : e;
	return true;
}

/* Whether the '(' here closes before a comparison operator: a masked operand in parentheses. */
static bool paren_is_operand(const struct kf_ctx *c)
{
	int depth = 0;
	for (size_t i = c->pos; i < c->nt && c->t[i].kind != TK_EOF; i++) {
		if (c->t[i].kind != TK_PUNCT)
			continue;
		if (c->t[i].punct == '(')
			depth++;
		else if (c->t[i].punct == ')' && --depth == 0) {
			const struct tok *n = &c->t[i + 1];
			return n->kind == TK_PUNCT &&
			       (n->punct == P_EQ || n->punct == P_NE || n->punct == '<' ||
				n->punct == '>' || n->punct == P_LE || n->punct == P_GE ||
				n->punct == '&' || n->punct == '|'); /* (fd & 0xf) & 0x3 */
		}
	}
	return false;
}

static struct scg_expr *primary(struct kf_ctx *c)
{
	struct scg_loc loc = peek(c)->loc;
	if (is_punct(c, '!')) {
		next(c);
		struct scg_expr *e = primary(c);
		if (e && !(e = scg_expr_not(e)))
			c->failed = c->oom = true;
		return e;
	}
	if (is_punct(c, '(') && !paren_is_operand(c)) {
		next(c);
		struct scg_expr *e = bool_expr(c);
		if (e && !expect(c, ')', "')'")) {
			scg_expr_free(e);
			return NULL;
		}
		return e;
	}
	struct kv l, r;
	if (!bit_or(c, &l))
		return NULL;
	int op = cmp_op(c);
	if (op < 0) {
		error(c, peek(c)->loc,
		      l.var ? "kafel compares: write (x & 0x3) != 0 for a flag test"
			    : "a comparison: a == 1",
		      "expected a comparison operator");
		return NULL;
	}
	next(c);
	if (!bit_or(c, &r))
		return NULL;
	if (l.var && r.var) {
		/* kafel compares two arguments through the filter's scratch memory; a
		 * condition here compares one argument with a constant, so such a rule
		 * has no equivalent, and dropping the test would change its verdicts */
		char rule[KF_NAME + 16];
		snprintf(rule, sizeof(rule), "%s", c->sc_name[0] ? c->sc_name : "SYSCALL[n]");
		error(c, loc,
		      "syscage's conditions compare an argument with a constant: rewrite the rule "
		      "with constants, or leave it out",
		      "the rule for '%s' compares two arguments, which the import cannot express",
		      rule);
		return NULL;
	}
	struct scg_expr *e;
	if (!l.var && !r.var) {
		e = const_expr(eval_const((enum scg_cmp_op)op, l.num, r.num));
	} else {
		enum scg_cmp_op o = (enum scg_cmp_op)op;
		if (!l.var) {
			struct kv t = l;
			l = r;
			r = t;
			o = swap_op(o);
		}
		if (!arg_compare(c, &l, o, r.num, loc, &e))
			return NULL;
	}
	if (e)
		e->loc = loc;
	else
		c->failed = c->oom = true;
	return e;
}

static struct scg_expr *chain(struct kf_ctx *c, int sep, struct scg_expr *(*sub)(struct kf_ctx *),
			      bool is_and)
{
	struct scg_expr *e = sub(c);
	while (e && is_punct(c, sep)) {
		next(c);
		struct scg_expr *r = sub(c);
		if (!r) {
			scg_expr_free(e);
			return NULL;
		}
		e = is_and ? scg_expr_and(e, r) : scg_expr_or(e, r);
		if (!e)
			c->failed = c->oom = true;
	}
	return e;
}

static struct scg_expr *and_expr(struct kf_ctx *c)
{
	return chain(c, P_AND, primary, true);
}

static struct scg_expr *or_expr(struct kf_ctx *c)
{
	return chain(c, P_OR, and_expr, false);
}

/* bool_expr: or_expr {',' or_expr}: a comma is '||' of the lowest precedence */
static struct scg_expr *bool_expr(struct kf_ctx *c)
{
	return chain(c, ',', or_expr, false);
}

/* --- statements ------------------------------------------------------------------------------- */

static int add_filter(struct kf_entry *e, const struct kf_filter *f)
{
	if (GROW_ARRAY(&e->f, &e->fcap, e->nf + 1, 8))
		return -ENOMEM;
	e->f[e->nf++] = *f;
	return 0;
}

/* syscall_id ['(' names ')'] ['{' [bool_expr] '}'] */
static int filter(struct kf_ctx *c, struct kf_entry *e)
{
	struct kf_filter f = {.loc = peek(c)->loc};
	const struct tok *t = peek(c);
	if (is_word(c, "SYSCALL")) {
		next(c);
		uint64_t v;
		if (!expect(c, '[', "'['") || !value(c, &v) || !expect(c, ']', "']'"))
			return 0;
		f.nr = (uint32_t)v;
	} else if (t->kind == TK_ID) {
		word_of(t, f.name, sizeof(f.name));
		const struct kf_define *d = find_define(c, f.name);
		uint32_t nr;
		if (d) {
			f.nr = (uint32_t)d->value;
			f.name[0] = '\0';
		} else if (scg_syscall_lookup(c->abi, f.name, &nr) < 0) {
			char hint[96];
			error(c, t->loc, imp_syscall_hint(c->abi, f.name, hint, sizeof(hint)),
			      "undefined syscall '%s'", f.name);
			return 0;
		}
		next(c);
	} else {
		error(c, t->loc, NULL, "expected a syscall");
		return 0;
	}
	/* its arguments' names: declared, or the parameter names of the man page */
	snprintf(c->sc_name, sizeof(c->sc_name), "%s", f.name);
	memset(c->args, 0, sizeof(c->args));
	c->declared = is_punct(c, '(');
	if (c->declared) {
		next(c);
		for (unsigned i = 0; !is_punct(c, ')') && !c->failed; i++) {
			const struct tok *a = peek(c);
			char name[KF_NAME];
			word_of(a, name, sizeof(name));
			if (a->kind != TK_ID) {
				error(c, a->loc, NULL, "expected an argument name");
				return 0;
			}
			if (i == 6) {
				error(c, a->loc, "syscalls have six arguments",
				      "too many arguments for '%s'", f.name[0] ? f.name : "SYSCALL");
				return 0;
			}
			for (unsigned j = 0; j < i; j++)
				if (!strcmp(c->args[j], name)) {
					error(c, a->loc, NULL, "redefinition of argument '%s'", name);
					return 0;
				}
			snprintf(c->args[i], KF_NAME, "%s", name);
			next(c);
			if (!is_punct(c, ')') && !expect(c, ',', "',' or ')'"))
				return 0;
		}
		if (c->failed)
			return 0;
		next(c);
	} else if (f.name[0]) {
		const struct scg_syscall_params *p = scg_syscall_params(f.name);
		for (unsigned i = 0; p && i < p->count && i < 6; i++)
			snprintf(c->args[i], KF_NAME, "%s", p->params[i].name);
	}
	if (is_word(c, "ON")) {
		/* kafel's grammar has no guard: its caller picks the ABI, kafel_set_target_arch() */
		error(c, peek(c)->loc,
		      "kafel's language names no architecture: its caller picks one "
		      "(kafel_set_target_arch()); the import compiles for the native ABI",
		      "an architecture guard (ON ...) is not kafel syntax");
		return 0;
	}
	if (is_punct(c, '{')) {
		next(c);
		if (!is_punct(c, '}')) {
			f.cond = bool_expr(c);
			if (!f.cond)
				return 0;
		}
		if (!expect(c, '}', "'}'")) {
			scg_expr_free(f.cond);
			return 0;
		}
	}
	int r = add_filter(e, &f);
	if (r)
		scg_expr_free(f.cond);
	return r;
}

static int add_entry(struct kf_policy *p, const struct kf_entry *e)
{
	if (GROW_ARRAY(&p->e, &p->ecap, p->ne + 1, 8))
		return -ENOMEM;
	p->e[p->ne++] = *e;
	return 0;
}

static void entry_free(struct kf_entry *e)
{
	for (size_t i = 0; i < e->nf; i++)
		scg_expr_free(e->f[i].cond);
	free(e->f);
}

/* USE name | action '{' [filter {',' filter}] '}', into policy @pi */
static int policy_statement(struct kf_ctx *c, size_t pi)
{
	struct kf_entry e = {.use = SIZE_MAX};
	if (is_word(c, "USE")) {
		next(c);
		const struct tok *t = peek(c);
		char name[KF_NAME];
		word_of(t, name, sizeof(name));
		if (t->kind != TK_ID) {
			error(c, t->loc, NULL, "expected a policy name");
			return 0;
		}
		struct suggest s;
		suggest_init(&s, name);
		for (size_t i = 1; i < c->npol && e.use == SIZE_MAX; i++) {
			if (!strcmp(c->pol[i].name, name))
				e.use = i;
			suggest_consider(&s, c->pol[i].name);
		}
		if (e.use == SIZE_MAX || e.use == pi) {
			char hint[96];
			const char *best = suggest_result(&s);
			if (best)
				snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
			error(c, t->loc, best ? hint : "a USE names a policy defined before it",
			      "undefined policy '%s'", name);
			return 0;
		}
		next(c);
		return add_entry(&c->pol[pi], &e);
	}
	if (!action(c, &e.action) || !expect(c, '{', "'{'"))
		return 0;
	int r = 0;
	while (!r && !c->failed && !is_punct(c, '}')) {
		r = filter(c, &e);
		if (!r && !c->failed && !is_punct(c, '}') && !expect(c, ',', "',' or '}'"))
			break;
	}
	if (r || c->failed) {
		entry_free(&e);
		return r;
	}
	next(c);
	r = add_entry(&c->pol[pi], &e);
	if (r)
		entry_free(&e);
	return r;
}

static int new_policy(struct kf_ctx *c, const char *name)
{
	if (GROW_ARRAY(&c->pol, &c->pol_cap, c->npol + 1, 4))
		return -ENOMEM;
	c->pol[c->npol] = (struct kf_policy){0};
	snprintf(c->pol[c->npol].name, KF_NAME, "%s", name);
	c->npol++;
	return 0;
}

static int define(struct kf_ctx *c)
{
	const struct tok *t = peek(c);
	char name[KF_NAME];
	word_of(t, name, sizeof(name));
	if (t->kind != TK_ID) {
		error(c, t->loc, "#define NAME 42", "expected a name after #define");
		return 0;
	}
	next(c);
	if (peek(c)->kind != TK_NUM) {
		error(c, peek(c)->loc, "#define NAME 42", "expected a number for '%s'", name);
		return 0;
	}
	const struct kf_define *old = find_define(c, name);
	if (old) {
		/* kafel accepts a constant defined again with the same value */
		if (old->value == peek(c)->num) {
			next(c);
			return 0;
		}
		char what[KF_NAME + 64];
		snprintf(what, sizeof(what), "'%s' with a different value (was %llu, is %llu)", name,
			 (unsigned long long)old->value, (unsigned long long)peek(c)->num);
		error(c, t->loc, NULL, "redefinition of constant %s", what);
		return 0;
	}
	if (GROW_ARRAY(&c->defs, &c->defs_cap, c->ndefs + 1, 16))
		return -ENOMEM;
	snprintf(c->defs[c->ndefs].name, KF_NAME, "%s", name);
	c->defs[c->ndefs++].value = peek(c)->num;
	next(c);
	return 0;
}

static int program(struct kf_ctx *c)
{
	int r = new_policy(c, "@main");
	while (!r && !c->failed && peek(c)->kind != TK_EOF) {
		const struct tok *t = peek(c);
		if (t->kind == TK_DEFINE) {
			next(c);
			r = define(c);
		} else if (is_punct(c, ',') || is_punct(c, ';')) {
			next(c);
		} else if (is_word(c, "POLICY")) {
			next(c);
			const struct tok *n = peek(c);
			char name[KF_NAME];
			word_of(n, name, sizeof(name));
			if (n->kind != TK_ID) {
				error(c, n->loc, NULL, "expected a policy name");
				break;
			}
			for (size_t i = 1; i < c->npol; i++)
				if (!strcmp(c->pol[i].name, name))
					error(c, n->loc, NULL, "redefinition of policy '%s'", name);
			next(c);
			if (c->failed || !expect(c, '{', "'{'"))
				break;
			r = new_policy(c, name);
			while (!r && !c->failed && !is_punct(c, '}')) {
				r = policy_statement(c, c->npol - 1);
				if (!r && !c->failed && !is_punct(c, '}') &&
				    !expect(c, ',', "',' or '}'"))
					break;
			}
			if (!r && !c->failed)
				next(c);
		} else if (is_word(c, "DEFAULT")) {
			next(c);
			if (c->has_default) {
				error(c, t->loc, "DEFAULT is given once", "second default action");
				break;
			}
			c->has_default = action(c, &c->dflt);
		} else if (is_word(c, "USE") || is_action_word(c)) {
			r = policy_statement(c, 0);
		} else {
			char w[KF_NAME];
			word_of(t, w, sizeof(w));
			error(c, t->loc,
			      "statements: POLICY name { ... }, USE name, DEFAULT action, an action "
			      "block, #define, #include",
			      "unexpected '%s'", t->kind == TK_ID ? w : "token");
		}
	}
	return r;
}

/* --- the policy ----------------------------------------------------------------------------------- */

static int expand(struct kf_ctx *c, struct scg_policy *p, size_t pi, unsigned depth)
{
	if (depth > 64)
		return 0; /* USE only names earlier policies: no cycles */
	const struct kf_policy *pol = &c->pol[pi];
	for (size_t i = 0; i < pol->ne; i++) {
		const struct kf_entry *e = &pol->e[i];
		if (e->use != SIZE_MAX) {
			int r = expand(c, p, e->use, depth + 1);
			if (r || c->failed)
				return r;
			continue;
		}
		for (size_t j = 0; j < e->nf; j++) {
			const struct kf_filter *f = &e->f[j];
			if (++c->nrules > KF_MAX_RULES) {
				error(c, f->loc, "USE pastes a policy's rules where it stands",
				      "more than 65536 rules");
				return 0;
			}
			struct scg_expr *cond = f->cond ? scg_expr_clone(f->cond) : NULL;
			if (f->cond && !cond)
				return -ENOMEM;
			struct scg_rule_spec spec = {.action = e->action,
						     .syscall = f->name[0] ? f->name : NULL,
						     .has_number = !f->name[0],
						     .number = f->nr,
						     .arch_mask = scg_arch_mask_bit(c->abi),
						     .cond = cond,
						     .loc = f->loc};
			int r = scg_policy_add_rule(p, &spec);
			if (r)
				return r;
		}
	}
	return 0;
}

static int build(struct kf_ctx *c, struct scg_policy **out)
{
	struct scg_policy *p = scg_policy_new();
	if (!p)
		return -ENOMEM;
	int r = scg_policy_add_arch(p, c->abi);
	/* kafel checks one ABI: x32 calls pass the x86_64 check and match no number */
	const struct scg_arch *x32 = scg_arch_lookup("x32");
	if (!r && !strcmp(scg_arch_name(c->abi), "x86_64") && x32)
		r = scg_policy_add_arch(p, x32);
	scg_policy_set_default(p, c->has_default ? c->dflt : SCG_RET_KILL_THREAD);
	scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
	if (!r)
		r = expand(c, p, 0, 0);
	if (r || c->failed) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

bool scg_kafel_detect(const char *text, size_t len)
{
	static const char *const starts[] = {"POLICY ", "USE ", "DEFAULT ", "#define ", "#include ",
					     NULL};
	static const char *const blocks[] = {"ALLOW",		"LOG",	 "KILL",  "KILL_PROCESS",
					     "KILL_THREAD",	"DENY",	 "ERRNO", "TRAP",
					     "TRACE",		"USER_NOTIF", NULL};
	for (const char *p = text, *end = text + len; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *le = e ? e : end;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		size_t n = (size_t)(le - p);
		for (const char *const *s = starts; *s; s++)
			if (n >= strlen(*s) && !strncmp(p, *s, strlen(*s)))
				return true;
		for (const char *const *s = blocks; *s; s++) {
			size_t k = strlen(*s);
			if (n > k && !strncmp(p, *s, k) && !id_char(p[k])) {
				const char *q = p + k;
				while (q < le && (*q == ' ' || *q == '\t'))
					q++;
				if (q < le && (*q == '{' || *q == '('))
					return true;
			}
		}
		p = e ? e + 1 : end;
	}
	return false;
}

int scg_kafel_import(const char *text, size_t len, const struct scg_import_options *opts,
		     struct scg_policy **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_import_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_import_options, filename)) < 0)
		return -EINVAL;
	struct kf_ctx c = {.diag = diag, .abi = scg_arch_native()};
	int r = lex(&c, text, len, o.filename ? o.filename : "<kafel>");
	if (!r) {
		struct scg_loc end = {o.filename ? o.filename : "<kafel>", 0, 0, -1};
		if (c.nt)
			end = c.t[c.nt - 1].loc;
		r = push(&c, (struct tok){.kind = TK_EOF, .loc = end});
	}
	if (!r && !c.failed)
		r = program(&c);
	if (!r && !c.failed)
		r = build(&c, out);
	if (!r && c.failed)
		r = c.oom ? -ENOMEM : -EINVAL;
	for (size_t i = 0; i < c.npol; i++) {
		for (size_t j = 0; j < c.pol[i].ne; j++)
			entry_free(&c.pol[i].e[j]);
		free(c.pol[i].e);
	}
	free(c.pol);
	free(c.defs);
	free(c.t);
	for (size_t i = 0; i < c.ntexts; i++)
		free(c.texts[i]);
	free(c.texts);
	return r;
}
