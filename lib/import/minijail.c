/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * minijail's seccomp policies (minijail0(5)): one "name: filter" line per
 * syscall, where the filter is "1" (or an action), or an argument filter in
 * disjunctive normal form ("arg0 == 1 && arg1 & O_CLOEXEC || arg2 in
 * PROT_READ|PROT_WRITE") with an optional "; return ERRNO" (or action) for
 * the calls it does not allow; '#' comments, '\' continuations, @include
 * and @frequency lines, and five forms of minijail's Python compiler: syscall
 * sets ("{read, write}: filter", one line per name), filter lists ("name:
 * {arg0 == 1, trap}", tried in order), "[arch=...]" tags that keep a line or
 * a name for the ABIs they list, "@default ACTION", and @denylist policies,
 * whose lines return errnos and whose default allows.
 * Everything else falls to the default: the process is killed unless
 * @default says otherwise.  One filter, first line first, for the native ABI.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>
#include <syscage/number.h>

#include "import/source.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/scan.h"

#define MJ_MAX_DEPTH 8

/* An action that stands for the policy's default (kill, or @default's), which
 * may be set by a line read later: settled once the whole policy is read. */
#define MJ_THE_DEFAULT UINT32_MAX

/* A logical line: physical lines joined at '\', each piece's start remembered. */
struct mj_piece {
	size_t off;
	unsigned line, column;
};

struct mj_line {
	char *text;
	size_t len, cap;
	struct mj_piece *pieces;
	size_t npieces, pcap;
	const char *file;
};

struct mj_ctx {
	struct scg_diag *diag;
	bool failed;
	bool oom; /* a failure was the allocator's, not the input's */
	struct scg_policy *p;
	const struct scg_arch *abi;
	unsigned depth;
	bool in_frequency; /* reading a @frequency file: "name: count" lines */
	bool denylist;	   /* the policy is a @denylist one (its top file says so) */
	bool scanning;	   /* only looking for a @denylist line, nothing reported */
	bool saw_denylist; /* the scanned file has one */
	uint32_t default_action; /* @default's, or KILL_PROCESS */
	size_t *defaulted;	 /* the rules whose action is the default */
	size_t ndefaulted, defaulted_cap;
	struct scg_import_count *counts;
	size_t ncounts, counts_cap;
	char **files; /* names of included files, kept for the locations */
	size_t nfiles, files_cap;
};

static void err(struct mj_ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void err(struct mj_ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
{
	c->failed = true;
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(c->diag, SCG_SEV_ERROR, loc, "minijail", hint, fmt, ap);
	va_end(ap);
}

static struct scg_loc loc_at(const struct mj_line *l, size_t off)
{
	const struct mj_piece *pc = &l->pieces[0];
	for (size_t i = 1; i < l->npieces && l->pieces[i].off <= off; i++)
		pc = &l->pieces[i];
	return (struct scg_loc){l->file, pc->line, pc->column + (unsigned)(off - pc->off), -1};
}

/* [*pos, end) with blanks skipped at both ends. */
static void trim(const char *s, size_t *pos, size_t *end)
{
	struct scan sc;
	scan_init(&sc, s + *pos, *end - *pos);
	scan_blanks(&sc);
	scan_trim_end(&sc);
	*end = *pos + sc.len;
	*pos += sc.pos;
}

/* The first byte at or after @p that is no blank, or @end. */
static size_t skip_blanks(const char *s, size_t p, size_t end)
{
	struct scan sc;
	scan_init(&sc, s + p, end - p);
	return p + scan_blanks(&sc);
}

static bool word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

/* --- actions ------------------------------------------------------------------ */

#define DENY_HINT                                                                              \
	"minijail's compiler takes 'return ERRNO' on every line of a @denylist policy; the "   \
	"calls no line names are allowed"

/*
 * An action of minijail's policy compiler at [pos, end): 1 with *@out, 0 when
 * the text is no action word, -1 when it is one with a bad value (reported).
 */
static int parse_action(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t end,
			uint32_t *out)
{
	const char *s = l->text;
	trim(s, &pos, &end);
	size_t w = pos;
	while (w < end && !scan_is_blank(s[w]))
		w++;
	static const struct {
		const char *word;
		uint32_t action;
	} words[] = {
	    {"1", SCG_RET_ALLOW},		 {"allow", SCG_RET_ALLOW},
	    {"kill", SCG_RET_KILL_PROCESS},	 {"kill-process", SCG_RET_KILL_PROCESS},
	    {"kill-thread", SCG_RET_KILL_THREAD}, {"trap", SCG_RET_TRAP},
	    {"trace", SCG_RET_TRACE},		 {"log", SCG_RET_LOG},
	    {"user-notify", SCG_RET_USER_NOTIF},
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (word_is(s + pos, w - pos, words[i].word) && w == end) {
			if (c->denylist) {
				err(c, loc_at(l, pos), DENY_HINT,
				    "a @denylist policy takes 'return ERRNO' only, not '%s'",
				    words[i].word);
				return -1;
			}
			*out = words[i].action;
			return 1;
		}
	if (!word_is(s + pos, w - pos, "return"))
		return 0;
	size_t v = w;
	trim(s, &v, &end);
	if (v == end && c->denylist) { /* the default would be to allow */
		err(c, loc_at(l, w), DENY_HINT, "expected an errno after 'return'");
		return -1;
	}
	if (v == end) { /* a bare return is the default action */
		*out = MJ_THE_DEFAULT;
		return 1;
	}
	uint64_t n;
	int r = imp_constant(s + v, end - v, c->abi, &n, c->diag, loc_at(l, v), "minijail");
	if (r < 0) {
		c->failed = true;
		c->oom |= r == -ENOMEM;
		return -1;
	}
	if (n > SCG_RET_DATA) {
		char num[24];
		snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
		err(c, loc_at(l, v), "an errno: EPERM, 13",
		    "errno value %s is out of range (the filter's return value holds 0 to 65535)",
		    num);
		return -1;
	}
	*out = SCG_RET_ERRNO | (uint32_t)n;
	return 1;
}

/* --- argument filters ----------------------------------------------------------- */

/* One atom "argN OP VALUE" at [*pos, end), stopping before "&&", "||" or the end. */
static struct scg_expr *parse_atom(struct mj_ctx *c, const struct mj_line *l, size_t *pos,
				   size_t end)
{
	const char *s = l->text;
	size_t p = *pos;
	p = skip_blanks(s, p, end);
	size_t start = p;
	if (end - p < 4 || strncmp(s + p, "arg", 3) || s[p + 3] < '0' || s[p + 3] > '9') {
		err(c, loc_at(l, p), "an atom is 'argN OP VALUE', N from 0 to 5: arg1 == O_RDONLY",
		    "expected an argument (argN)");
		return NULL;
	}
	p += 3;
	unsigned arg = 0;
	while (p < end && s[p] >= '0' && s[p] <= '9' && arg < 100)
		arg = arg * 10 + (unsigned)(s[p++] - '0');
	if (arg > 5) {
		char name[16];
		while (p < end && s[p] >= '0' && s[p] <= '9')
			p++;
		snprintf(name, sizeof(name), "%.*s", (int)(p - start < 15 ? p - start : 15), s + start);
		err(c, loc_at(l, start + 3), "syscalls have six arguments, arg0 to arg5",
		    "no argument '%s'", name);
		return NULL;
	}
	p = skip_blanks(s, p, end);
	enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_SET, OP_IN } op;
	size_t oplen = 2;
	if (!strncmp(s + p, "==", 2))
		op = OP_EQ;
	else if (!strncmp(s + p, "!=", 2))
		op = OP_NE;
	else if (!strncmp(s + p, "<=", 2))
		op = OP_LE;
	else if (!strncmp(s + p, ">=", 2))
		op = OP_GE;
	else if (!strncmp(s + p, "in", 2) && p + 2 < end && scan_is_blank(s[p + 2]))
		op = OP_IN;
	else if (p < end && s[p] == '<' && (oplen = 1))
		op = OP_LT;
	else if (p < end && s[p] == '>' && (oplen = 1))
		op = OP_GT;
	else if (p < end && s[p] == '&' && (p + 1 >= end || s[p + 1] != '&') && (oplen = 1))
		op = OP_SET;
	else {
		err(c, loc_at(l, p), "operators: == != < <= > >= & in", "expected an operator");
		return NULL;
	}
	p += oplen;
	/* the value runs to "&&", "||" or the end, outside parentheses */
	size_t v = p;
	int depth = 0;
	while (p < end) {
		if (s[p] == '(')
			depth++;
		else if (s[p] == ')')
			depth--;
		else if (depth <= 0 && p + 1 < end &&
			 ((s[p] == '&' && s[p + 1] == '&') || (s[p] == '|' && s[p + 1] == '|')))
			break;
		p++;
	}
	size_t vend = p;
	trim(s, &v, &vend);
	if (v == vend) {
		err(c, loc_at(l, v), "a number, a constant or constants joined by '|'",
		    "expected a value");
		return NULL;
	}
	uint64_t val;
	int r = imp_constant(s + v, vend - v, c->abi, &val, c->diag, loc_at(l, v), "minijail");
	if (r < 0) {
		c->failed = true;
		c->oom |= r == -ENOMEM;
		return NULL;
	}
	*pos = p;
	static const enum scg_cmp_op ops[] = {SCG_CMP_EQ, SCG_CMP_NE, SCG_CMP_LT,
					      SCG_CMP_LE, SCG_CMP_GT, SCG_CMP_GE};
	struct scg_expr *e;
	if (op == OP_SET) /* a flag set: (arg & VALUE) != 0 */
		e = scg_expr_cmp(arg, 64, SCG_CMP_NE, val, 0);
	else if (op == OP_IN) /* a subset of VALUE's flags: (arg & ~VALUE) == 0 */
		e = scg_expr_cmp(arg, 64, SCG_CMP_EQ, ~val, 0);
	else
		e = scg_expr_cmp(arg, 64, ops[op], UINT64_MAX, val);
	if (e)
		e->loc = loc_at(l, start);
	return e;
}

/* A disjunction of conjunctions of atoms at [pos, end); NULL on error (reported) or no memory. */
static struct scg_expr *parse_filter(struct mj_ctx *c, const struct mj_line *l, size_t pos,
				     size_t end, bool *nomem)
{
	struct scg_expr *any = NULL;
	for (;;) {
		struct scg_expr *all = NULL;
		for (;;) {
			struct scg_expr *a = parse_atom(c, l, &pos, end);
			if (!a) {
				*nomem = !c->failed;
				scg_expr_free(all);
				scg_expr_free(any);
				return NULL;
			}
			all = all ? scg_expr_and(all, a) : a;
			if (!all) {
				*nomem = true;
				scg_expr_free(any);
				return NULL;
			}
			if (pos >= end || strncmp(l->text + pos, "&&", 2))
				break;
			pos += 2;
		}
		any = any ? scg_expr_or(any, all) : all;
		if (!any) {
			*nomem = true;
			return NULL;
		}
		if (pos >= end)
			return any;
		pos += 2; /* "||" */
	}
}

/* --- lines ---------------------------------------------------------------------- */

static int add_rule(struct mj_ctx *c, const char *name, bool has_nr, uint32_t nr,
		    struct scg_expr *cond, uint32_t action, struct scg_loc loc)
{
	if (action == MJ_THE_DEFAULT) {
		if (GROW_ARRAY(&c->defaulted, &c->defaulted_cap, c->ndefaulted + 1, 16)) {
			scg_expr_free(cond);
			return -ENOMEM;
		}
		c->defaulted[c->ndefaulted++] = scg_policy_rule_count(c->p);
		action = SCG_RET_KILL_PROCESS; /* settled in settle_default() */
	}
	struct scg_rule_spec spec = {.action = action,
				     .syscall = has_nr ? NULL : name,
				     .has_number = has_nr,
				     .number = nr,
				     .cond = cond,
				     .loc = loc};
	return scg_policy_add_rule(c->p, &spec);
}

/* A warning when @name already has a line: minijail's first line decides. */
static void check_twice(struct mj_ctx *c, const char *name, struct scg_loc loc)
{
	for (size_t i = 0; i < scg_policy_rule_count(c->p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(c->p, i, &r);
		if (r.syscall && !strcmp(r.syscall, name)) {
			char hint[160];
			snprintf(hint, sizeof(hint), "the line at %s:%u decides",
				 r.loc.file ? r.loc.file : "?", r.loc.line);
			scg_diag_add(c->diag, SCG_SEV_WARNING, loc, "minijail-twice", hint,
				     "'%s' has a line already; this one is never reached", name);
			return;
		}
	}
}

/* --- "{filter, filter}" lists ----------------------------------------------------- */

#define LIST_HINT                                                                              \
	"a list is '{arg0 == 1, arg0 == 2; return EPERM, trap}': each filter's action (allow "  \
	"when it has none) for the calls it matches, in order"

/*
 * One filter of a list at [pos, end): "ACTION", "EXPR" or "EXPR; ACTION", as
 * minijail's Python compiler reads it: the action (allow without one) for
 * the calls EXPR matches.  *@last when it is an action alone, which ends
 * the list.
 */
static int list_item(struct mj_ctx *c, const struct mj_line *l, const char *name, bool has_nr,
		     uint32_t nr, size_t pos, size_t end, bool *last)
{
	const char *s = l->text;
	trim(s, &pos, &end);
	*last = false;
	if (pos == end) {
		err(c, loc_at(l, pos), LIST_HINT, "expected a filter");
		return 0;
	}
	const char *semi = memchr(s + pos, ';', end - pos);
	uint32_t action = SCG_RET_ALLOW;
	int a = semi ? parse_action(c, l, (size_t)(semi - s) + 1, end, &action)
		     : parse_action(c, l, pos, end, &action);
	if (a < 0)
		return 0;
	if (!semi && a > 0) {
		*last = true;
		return add_rule(c, name, has_nr, nr, NULL, action, loc_at(l, pos));
	}
	if (semi && a == 0) {
		err(c, loc_at(l, skip_blanks(s, (size_t)(semi - s) + 1, end)), LIST_HINT,
		    "expected an action after ';'");
		return 0;
	}
	bool nomem = false; /* no ';': parse_action() found no action and left the allow */
	struct scg_expr *cond = parse_filter(c, l, pos, semi ? (size_t)(semi - s) : end, &nomem);
	if (!cond)
		return nomem ? -ENOMEM : 0;
	return add_rule(c, name, has_nr, nr, cond, action, loc_at(l, pos));
}

/*
 * "{filter, filter, ...}" at [open, end) for one syscall: its filters in
 * order, then the default when the last one has a condition.  An action
 * alone ends the list; a filter after it would never be reached, which
 * minijail's compiler refuses too.
 */
static int list_filter(struct mj_ctx *c, const struct mj_line *l, const char *name, bool has_nr,
		       uint32_t nr, struct scg_loc loc, size_t open, size_t end)
{
	const char *s = l->text;
	const char *brace = memchr(s + open + 1, '}', end - open - 1);
	if (!brace) {
		err(c, loc_at(l, open), LIST_HINT, "unclosed '{'");
		return 0;
	}
	size_t close = (size_t)(brace - s);
	const char *inner = memchr(s + open + 1, '{', close - open - 1);
	if (inner || skip_blanks(s, close + 1, end) != end) {
		err(c, loc_at(l, inner ? (size_t)(inner - s) : skip_blanks(s, close + 1, end)),
		    LIST_HINT, inner ? "lists do not nest" : "text after the list's '}'");
		return 0;
	}
	bool last = false, failed = c->failed; /* this list's own errors stop it, not earlier ones */
	c->failed = false;
	int r = 0;
	for (size_t p = open + 1; p <= close && !r && !c->failed;) {
		const char *comma = memchr(s + p, ',', close - p);
		size_t e = comma ? (size_t)(comma - s) : close;
		size_t item = skip_blanks(s, p, e);
		if (last && item < e) {
			err(c, loc_at(l, item), LIST_HINT,
			    "never reached: the action before it ends the list of '%s'", name);
			return 0;
		}
		r = list_item(c, l, name, has_nr, nr, p, e, &last);
		p = e + 1;
	}
	if (!r && !c->failed && !last)
		r = add_rule(c, name, has_nr, nr, NULL, c->denylist ? SCG_RET_ALLOW : MJ_THE_DEFAULT,
			     loc);
	c->failed |= failed;
	return r;
}

/*
 * The filter at (colon, end) for one syscall named at @loc: the rules of a
 * "name: filter" line, or of one name of a set.
 */
static int syscall_filter(struct mj_ctx *c, const struct mj_line *l, const char *name, bool has_nr,
			  uint32_t nr, struct scg_loc loc, size_t colon, size_t end)
{
	const char *s = l->text;
	size_t fpos = colon + 1, fend = end;
	trim(s, &fpos, &fend);
	if (fpos == fend) {
		err(c, loc_at(l, colon), "'1' allows it; 'arg0 == 1' allows some calls",
		    "no filter after '%s:'", name);
		return 0;
	}
	if (!has_nr)
		check_twice(c, name, loc);
	if (s[fpos] == '{')
		return list_filter(c, l, name, has_nr, nr, loc, fpos, fend);
	const char *semi = memchr(s + fpos, ';', fend - fpos);
	size_t expr_end = semi ? (size_t)(semi - s) : fend;
	uint32_t action;
	if (!semi) {
		int a = parse_action(c, l, fpos, fend, &action);
		if (a < 0)
			return 0;
		if (a > 0)
			return add_rule(c, name, has_nr, nr, NULL, action, loc);
	}
	uint32_t otherwise = MJ_THE_DEFAULT;
	size_t apos = semi ? expr_end + 1 : fend;
	if (semi) {
		int a = parse_action(c, l, apos, fend, &otherwise);
		if (a == 0) {
			size_t p = apos;
			size_t e = fend;
			trim(s, &p, &e);
			err(c, loc_at(l, p),
			    c->denylist ? DENY_HINT
					: "after ';' comes what the other calls get: return EPERM, "
					  "kill, trap, trace, log, user-notify",
			    "expected an action after ';'");
		}
		if (a <= 0)
			return 0;
	}
	bool nomem = false;
	struct scg_expr *cond = parse_filter(c, l, fpos, expr_end, &nomem);
	if (!cond)
		return nomem ? -ENOMEM : 0;
	size_t p = semi ? apos : fpos;
	size_t e = fend;
	trim(s, &p, &e);
	if (c->denylist) {
		/* minijail's compiler: the errno for the calls the filter matches, the rest allowed */
		if (!semi) {
			scg_expr_free(cond);
			err(c, loc_at(l, fend), DENY_HINT,
			    "expected '; return ERRNO' after the argument filter of '%s'", name);
			return 0;
		}
		int r = add_rule(c, name, has_nr, nr, cond, otherwise, loc_at(l, p));
		return r ? r : add_rule(c, name, has_nr, nr, NULL, SCG_RET_ALLOW, loc);
	}
	int r = add_rule(c, name, has_nr, nr, cond, SCG_RET_ALLOW, loc);
	/* the calls the filter does not allow: the line's own verdict, so reports name it */
	if (!r)
		r = add_rule(c, name, has_nr, nr, NULL, otherwise, semi ? loc_at(l, p) : loc);
	return r;
}

/* --- "[arch=...]" tags ------------------------------------------------------------ */

#define META_HINT "a tag is '[key=value, value; key=value]', as in 'mmap2[arch=arm, i386]'"

/* An identifier of minijail's compiler at [p, end): its end, p when none. */
static size_t ident_end(const char *s, size_t p, size_t end)
{
	size_t q = p;
	while (q < end && (s[q] == '_' || (s[q] >= 'a' && s[q] <= 'z') || (s[q] >= 'A' && s[q] <= 'Z') ||
			   (q > p && ((s[q] >= '0' && s[q] <= '9') || s[q] == '-' || s[q] == '@'))))
		q++;
	return q;
}

/* Whether @name (@n bytes) names the native ABI: its name or an alias ("i386" for "x86"). */
static bool names_native(const struct mj_ctx *c, const char *name, size_t n)
{
	char buf[32];
	if (n >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%.*s", (int)n, name);
	return scg_arch_lookup(buf) == c->abi;
}

/* One "key=value, value" of a tag at *@p; *@p moves past it.  false when malformed. */
static bool tag_entry(struct mj_ctx *c, const struct mj_line *l, size_t *p, size_t end,
		      bool *arch_key, bool *native, bool quiet)
{
	const char *s = l->text;
	size_t k = skip_blanks(s, *p, end), ke = ident_end(s, k, end);
	size_t q = skip_blanks(s, ke, end);
	if (ke == k || q >= end || s[q] != '=') {
		if (!quiet)
			err(c, loc_at(l, ke == k ? k : q), META_HINT,
			    ke == k ? "expected a key" : "expected '=' after the key");
		return false;
	}
	*arch_key = word_is(s + k, ke - k, "arch");
	for (q++;;) {
		size_t v = skip_blanks(s, q, end), ve = ident_end(s, v, end);
		if (ve == v) {
			if (!quiet)
				err(c, loc_at(l, v), META_HINT, "expected a value");
			return false;
		}
		*native |= *arch_key && names_native(c, s + v, ve - v);
		q = skip_blanks(s, ve, end);
		if (q >= end || s[q] != ',')
			break;
		q++;
	}
	*p = q;
	return true;
}

/*
 * The tag at *@p (s[*p] == '[') of minijail's Python compiler, after a
 * syscall name; *@p moves past its ']'.  *@skip when it has an "arch" key
 * that does not list the native ABI: the name is for other ABIs.  Other keys
 * are read and left alone, as minijail's compiler does; a key given twice is
 * an error.  false when malformed (reported unless @quiet).
 */
static bool read_tag(struct mj_ctx *c, const struct mj_line *l, size_t *p, size_t end, bool *skip,
		     bool quiet)
{
	const char *s = l->text;
	size_t open = *p, q = *p + 1;
	bool arch_seen = false, native = false;
	size_t keys[16][2];
	size_t nkeys = 0;
	*skip = false;
	for (;;) {
		size_t k = skip_blanks(s, q, end);
		bool arch_key = false;
		if (!tag_entry(c, l, &q, end, &arch_key, &native, quiet))
			return false;
		size_t ke = ident_end(s, k, end);
		for (size_t i = 0; i < nkeys; i++)
			if (keys[i][1] - keys[i][0] == ke - k && !strncmp(s + keys[i][0], s + k, ke - k)) {
				if (!quiet)
					err(c, loc_at(l, k), META_HINT, "key given twice in a tag");
				return false;
			}
		if (nkeys < sizeof(keys) / sizeof(keys[0])) {
			keys[nkeys][0] = k;
			keys[nkeys++][1] = ke;
		}
		arch_seen |= arch_key;
		if (q < end && s[q] == ';') {
			q++;
			continue;
		}
		if (q < end && s[q] == ']')
			break;
		if (!quiet)
			err(c, loc_at(l, q >= end ? open : q), META_HINT,
			    q >= end ? "unclosed '['" : "expected ',', ';' or ']'");
		return false;
	}
	*p = q + 1;
	*skip = arch_seen && !native;
	return true;
}

/* The filter at (colon, end) checked for errors and its rules dropped: a line
 * for other ABIs says nothing for this one, but a mistake in it is still one. */
static int check_filter_only(struct mj_ctx *c, const struct mj_line *l, const char *name,
			     struct scg_loc loc, size_t colon, size_t end)
{
	struct scg_policy *kept = c->p;
	size_t ndefaulted = c->ndefaulted;
	c->p = scg_policy_new();
	int r = c->p ? syscall_filter(c, l, name, false, 0, loc, colon, end) : -ENOMEM;
	scg_policy_free(c->p);
	c->p = kept;
	c->ndefaulted = ndefaulted;
	return r;
}

/*
 * The syscall name at [pos, nend) (blanks trimmed) of a line, and its tag if
 * any, into @name: 1 when the name is for this ABI, 0 when its tag keeps it
 * for others, -1 when malformed (reported; @hint says what a line is).
 */
static int line_name(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t nend,
		     const char *hint, char *name, size_t size)
{
	const char *s = l->text;
	const char *bracket = memchr(s + pos, '[', nend - pos);
	size_t name_end = bracket ? (size_t)(bracket - s) : nend;
	while (name_end > pos && scan_is_blank(s[name_end - 1]))
		name_end--;
	if (name_end == pos || name_end - pos >= size) {
		err(c, loc_at(l, pos), hint, "expected a syscall name");
		return -1;
	}
	snprintf(name, size, "%.*s", (int)(name_end - pos), s + pos);
	if (!bracket)
		return 1;
	size_t t = (size_t)(bracket - s);
	bool skip;
	if (!read_tag(c, l, &t, nend, &skip, false))
		return -1;
	if (skip_blanks(s, t, nend) != nend) {
		err(c, loc_at(l, skip_blanks(s, t, nend)), META_HINT, "expected ':' after the tag");
		return -1;
	}
	return !skip;
}

/* "name: filter" */
static int syscall_line(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t colon,
			size_t end)
{
	const char *s = l->text;
	size_t nend = colon;
	trim(s, &pos, &nend);
	struct scg_loc loc = loc_at(l, pos);
	char name[64];
	int kept = line_name(c, l, pos, nend, "a line is 'syscall: filter'", name, sizeof(name));
	if (kept < 0)
		return 0;
	if (!kept)
		return check_filter_only(c, l, name, loc, colon, end);
	uint32_t nr = 0;
	bool has_nr = scg_parse_u32(name, strlen(name), &nr) == 0;
	uint32_t known;
	if (!has_nr && scg_syscall_lookup(c->abi, name, &known) < 0) {
		char hint[96];
		err(c, loc, imp_syscall_hint(c->abi, name, hint, sizeof(hint)),
		    "unknown syscall '%s'", name);
		return 0;
	}
	return syscall_filter(c, l, name, has_nr, nr, loc, colon, end);
}

/* --- syscall sets: "{read, write}: filter" -------------------------------------------- */

#define SET_HINT "a set is '{name, name, ...}: filter'"

static bool set_delim(char ch)
{
	return ch == ',' || ch == '{' || ch == '}' || ch == ':' || ch == '[' || scan_is_blank(ch);
}

/* After a set's name ending at @q: its tag, if any, read (quietly or not);
 * the position past both, or 0 when the tag is malformed. */
static size_t set_name_tag(struct mj_ctx *c, const struct mj_line *l, size_t q, size_t end,
			   bool *skip, bool quiet)
{
	size_t t = skip_blanks(l->text, q, end);
	*skip = false;
	if (t >= end || l->text[t] != '[')
		return q;
	return read_tag(c, l, &t, end, skip, quiet) ? t : 0;
}

/*
 * One name of a set at [pos, q), into @name; false when it is no syscall name
 * of the native ABI (reported).  minijail's compiler takes names here, not
 * numbers, and its "group@namespace" names come from its own tables.
 */
static bool set_name(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t q, char *name,
		     size_t size)
{
	const char *s = l->text;
	struct scg_loc loc = loc_at(l, pos);
	uint32_t nr;
	if (q - pos >= size) {
		err(c, loc, SET_HINT, "expected a syscall name");
		return false;
	}
	snprintf(name, size, "%.*s", (int)(q - pos), s + pos);
	if (scg_parse_u32(name, strlen(name), &nr) == 0) {
		err(c, loc, "minijail's compiler reads names in a set; a number goes on a line of its own",
		    "syscall number %s in a set", name);
		return false;
	}
	if (strchr(name, '@')) {
		err(c, loc, "list the syscalls of the group by name",
		    "syscall group '%s' is not read (minijail's compiler takes groups from its own "
		    "tables)",
		    name);
		return false;
	}
	if (scg_syscall_lookup(c->abi, name, &nr) < 0) {
		char hint[96];
		err(c, loc, imp_syscall_hint(c->abi, name, hint, sizeof(hint)),
		    "unknown syscall '%s'", name);
		return false;
	}
	return true;
}

/*
 * "{a, b, ...}: filter" at [open, end): every name is checked first (each bad
 * one reported), then the filter is read for each name in turn, as if each
 * had a line of its own: the first line of a syscall decides, a second one
 * is warned about.  A name tagged for other ABIs ("mmap2[arch=arm]") is
 * left out, unchecked, as minijail's compiler does.
 */
static int set_line(struct mj_ctx *c, const struct mj_line *l, size_t open, size_t end)
{
	const char *s = l->text;
	char name[64];
	size_t p = open + 1, close = 0, count = 0, kept = 0;
	bool want_name = true, bad = false;
	for (;;) {
		p = skip_blanks(s, p, end);
		if (p >= end) {
			err(c, loc_at(l, open), SET_HINT, "unclosed '{'");
			return 0;
		}
		if (want_name) {
			if (s[p] == '}') {
				err(c, loc_at(l, p), SET_HINT,
				    count ? "expected a syscall name after ','"
					  : "empty syscall set");
				return 0;
			}
			if (set_delim(s[p])) {
				err(c, loc_at(l, p), SET_HINT,
				    s[p] == '{' ? "sets do not nest" : "expected a syscall name");
				return 0;
			}
			size_t q = p;
			while (q < end && !set_delim(s[q]))
				q++;
			bool skip;
			size_t after = set_name_tag(c, l, q, end, &skip, false);
			if (!after)
				return 0;
			if (!skip) {
				bad |= !set_name(c, l, p, q, name, sizeof(name));
				kept++;
			}
			count++;
			want_name = false;
			p = after;
		} else if (s[p] == ',') {
			want_name = true;
			p++;
		} else if (s[p] == '}') {
			close = p;
			break;
		} else if (s[p] == ':') {
			err(c, loc_at(l, open), SET_HINT, "unclosed '{'");
			return 0;
		} else {
			err(c, loc_at(l, p), SET_HINT, "expected ',' or '}'");
			return 0;
		}
	}
	p = close + 1;
	p = skip_blanks(s, p, end);
	if (p >= end || s[p] != ':') {
		err(c, loc_at(l, p), SET_HINT, "expected ':' after the set");
		return 0;
	}
	if (bad)
		return 0;
	size_t colon = p;
	/* a bad filter is the same bad filter for every name: reported once */
	bool failed = c->failed, checked = false;
	c->failed = false;
	int r = 0;
	for (p = open + 1; p < close && !r && !c->failed;) {
		while (p < close && (scan_is_blank(s[p]) || s[p] == ','))
			p++;
		size_t q = p;
		while (q < close && !set_delim(s[q]))
			q++;
		if (q == p) /* the blanks before '}' */
			break;
		snprintf(name, sizeof(name), "%.*s", (int)(q - p), s + p);
		bool skip;
		size_t after = set_name_tag(c, l, q, close, &skip, true);
		if (!skip)
			r = syscall_filter(c, l, name, false, 0, loc_at(l, p), colon, end);
		else if (!kept && !checked) { /* every name is for other ABIs: checked once */
			checked = true;
			r = check_filter_only(c, l, name, loc_at(l, p), colon, end);
		}
		p = after;
	}
	c->failed |= failed;
	return r;
}

/* "@denylist": the policy returns errnos for the calls its lines name and allows the rest. */
static int denylist_line(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t w,
			 size_t end)
{
	const char *s = l->text;
	trim(s, &w, &end);
	if (w < end) {
		err(c, loc_at(l, w), "@denylist stands alone on its line",
		    "unexpected text after @denylist");
		return 0;
	}
	if (!c->denylist)
		err(c, loc_at(l, pos),
		    "minijail compiles a policy as a denylist or not as a whole: every file of it has "
		    "the @denylist line, or none",
		    "@denylist in a file included by a policy without it");
	return 0;
}

#define DEFAULT_HINT "@default takes kill-process, kill-thread, kill, trap or user-notify"

/*
 * "@default ACTION" (minijail's Python compiler): the verdict for the calls no
 * line names, and for those an argument filter leaves without a '; return',
 * wherever the line stands; the last one read decides.  As there, a default
 * that lets calls run is refused, and a @denylist policy has none.
 */
static int default_line(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t w,
			size_t end)
{
	static const struct {
		const char *word;
		uint32_t action;
	} defaults[] = {
	    {"kill", SCG_RET_KILL_PROCESS}, {"kill-process", SCG_RET_KILL_PROCESS},
	    {"kill-thread", SCG_RET_KILL_THREAD}, {"trap", SCG_RET_TRAP},
	    {"user-notify", SCG_RET_USER_NOTIF},
	};
	const char *s = l->text;
	size_t a = skip_blanks(s, w, end), ae = a;
	while (ae < end && !scan_is_blank(s[ae]))
		ae++;
	if (c->denylist) {
		err(c, loc_at(l, pos), DENY_HINT, "@default in a @denylist policy");
		return 0;
	}
	if (a == end) {
		err(c, loc_at(l, a), DEFAULT_HINT, "expected an action after @default");
		return 0;
	}
	char word[32];
	snprintf(word, sizeof(word), "%.*s", (int)(ae - a < 31 ? ae - a : 31), s + a);
	static const char lets_run[][7] = {"1", "allow", "log", "trace", "return"};
	for (size_t i = 0; i < sizeof(lets_run) / sizeof(lets_run[0]); i++)
		if (word_is(s + a, ae - a, lets_run[i])) {
			err(c, loc_at(l, a), DEFAULT_HINT,
			    "'%s' is no default: the default must refuse the calls it gets", word);
			return 0;
		}
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		if (!word_is(s + a, ae - a, defaults[i].word))
			continue;
		size_t t = skip_blanks(s, ae, end);
		if (t != end) {
			err(c, loc_at(l, t), DEFAULT_HINT, "unexpected text after the action");
			return 0;
		}
		c->default_action = defaults[i].action;
		return 0;
	}
	err(c, loc_at(l, a), DEFAULT_HINT, "unknown default action '%s'", word);
	return 0;
}

static int read_text(struct mj_ctx *c, const char *text, size_t len, const char *file);
static int policy_text(struct mj_ctx *c, const char *text, size_t len, const char *file,
		       const struct scg_loc *from);

static int count_line(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t colon,
		      size_t end)
{
	const char *s = l->text;
	size_t nend = colon, v = colon + 1;
	trim(s, &pos, &nend);
	trim(s, &v, &end);
	char name[64];
	uint64_t n;
	uint32_t nr;
	int kept = line_name(c, l, pos, nend, "a frequency line is 'syscall: count'", name,
			     sizeof(name));
	if (kept < 0)
		return 0;
	if (!kept) { /* counts for other ABIs: the count must still be one */
		if (v == end || scg_parse_u64(s + v, end - v, &n) < 0)
			err(c, loc_at(l, v), "a count: a number of calls", "bad count for '%s'", name);
		return 0;
	}
	if (scg_syscall_lookup(c->abi, name, &nr) < 0) {
		char hint[96];
		err(c, loc_at(l, pos), imp_syscall_hint(c->abi, name, hint, sizeof(hint)),
		    "unknown syscall '%s'", name);
		return 0;
	}
	if (v == end || scg_parse_u64(s + v, end - v, &n) < 0) {
		err(c, loc_at(l, v), "a count: a number of calls", "bad count for '%s'", name);
		return 0;
	}
	for (size_t i = 0; i < c->ncounts; i++)
		if (!strcmp(c->counts[i].name, name)) {
			c->counts[i].count += n;
			return 0;
		}
	if (GROW_ARRAY(&c->counts, &c->counts_cap, c->ncounts + 1, 16))
		return -ENOMEM;
	c->counts[c->ncounts].name = strdup(name);
	c->counts[c->ncounts].count = n;
	if (!c->counts[c->ncounts].name)
		return -ENOMEM;
	c->ncounts++;
	return 0;
}

/* Reads an @include'd or @frequency file; @frequency files hold "name: count" lines. */
static int other_file(struct mj_ctx *c, const struct mj_line *l, size_t pos, size_t end,
		      bool frequency)
{
	const char *s = l->text;
	trim(s, &pos, &end);
	struct scg_loc loc = loc_at(l, pos);
	if (pos == end) {
		err(c, loc, "the path follows, relative to this file", "expected a path");
		return 0;
	}
	if (c->depth >= MJ_MAX_DEPTH) {
		err(c, loc, "includes nest 8 deep at most", "includes nest too deep");
		return 0;
	}
	char *path = strndup(s + pos, end - pos);
	char *text = NULL, *resolved = NULL;
	size_t len = 0;
	int r = path ? imp_read_include(l->file, path, &text, &len, &resolved) : -ENOMEM;
	if (!r && GROW_ARRAY(&c->files, &c->files_cap, c->nfiles + 1, 4))
		r = -ENOMEM;
	if (r < 0 && r != -ENOMEM) {
		c->failed = true;
		scg_diag_add(c->diag, SCG_SEV_ERROR, loc, "minijail", NULL, "cannot read '%s': %s", path,
			     strerror(-r));
		r = 0;
	} else if (!r) {
		c->files[c->nfiles++] = resolved;
		resolved = NULL;
		bool in_frequency = c->in_frequency;
		c->in_frequency = frequency;
		c->depth++;
		r = frequency ? read_text(c, text, len, c->files[c->nfiles - 1])
			      : policy_text(c, text, len, c->files[c->nfiles - 1], &loc);
		c->depth--;
		c->in_frequency = in_frequency;
	}
	free(text);
	free(resolved);
	free(path);
	return r;
}

/* One logical line, comments cut off. */
static int line(struct mj_ctx *c, struct mj_line *l)
{
	char *hash = memchr(l->text, '#', l->len);
	size_t end = hash ? (size_t)(hash - l->text) : l->len;
	size_t pos = 0;
	trim(l->text, &pos, &end);
	if (pos == end)
		return 0;
	const char *s = l->text;
	bool freq_file = c->in_frequency;
	size_t w = pos;
	while (w < end && !scan_is_blank(s[w]))
		w++;
	if (c->scanning) {
		c->saw_denylist |= word_is(s + pos, w - pos, "@denylist");
		return 0;
	}
	if (s[pos] == '@' && !freq_file) {
		if (word_is(s + pos, w - pos, "@include"))
			return other_file(c, l, w, end, false);
		if (word_is(s + pos, w - pos, "@frequency"))
			return other_file(c, l, w, end, true);
		if (word_is(s + pos, w - pos, "@denylist"))
			return denylist_line(c, l, pos, w, end);
		if (word_is(s + pos, w - pos, "@default"))
			return c->p ? default_line(c, l, pos, w, end) : 0;
		char word[32];
		snprintf(word, sizeof(word), "%.*s", (int)(w - pos < 31 ? w - pos : 31), s + pos);
		err(c, loc_at(l, pos),
		    "minijail's directives: @include, @frequency, @default, @denylist",
		    "unknown directive '%s'", word);
		return 0;
	}
	if (s[pos] == '{' && !freq_file)
		return c->p ? set_line(c, l, pos, end) : 0;
	const char *colon = memchr(s + pos, ':', end - pos);
	if (!colon) {
		err(c, loc_at(l, pos), freq_file ? "a frequency line is 'syscall: count'"
						 : "a line is 'syscall: filter'",
		    "expected ':'");
		return 0;
	}
	if (freq_file)
		return count_line(c, l, pos, (size_t)(colon - s), end);
	if (!c->p) /* scg_minijail_frequency(): only the counts matter */
		return 0;
	return syscall_line(c, l, pos, (size_t)(colon - s), end);
}

static int append(struct mj_line *l, const char *p, size_t n, unsigned lineno, unsigned col)
{
	if (GROW_ARRAY(&l->text, &l->cap, l->len + n + 1, 128) ||
	    GROW_ARRAY(&l->pieces, &l->pcap, l->npieces + 1, 4))
		return -ENOMEM;
	l->pieces[l->npieces++] = (struct mj_piece){l->len, lineno, col};
	if (n)
		memcpy(l->text + l->len, p, n);
	l->len += n;
	l->text[l->len] = '\0';
	return 0;
}

static int read_text(struct mj_ctx *c, const char *text, size_t len, const char *file)
{
	struct mj_line l = {.file = file};
	struct scan s;
	scan_init(&s, text, len);
	int r = 0;
	for (; scan_more(&s) && !r; scan_line(&s)) {
		const char *p = text + s.pos;
		struct scan eol = s;
		scan_to_eol(&eol);
		size_t n = eol.pos - s.pos;
		bool last = !scan_more(&eol); /* no '\n' ends it */
		if (memchr(p, '\0', n)) {
			if (!c->scanning)
				err(c, scan_loc(&s, file), "policies are text", "NUL byte in line");
			l.len = l.npieces = 0;
			continue;
		}
		size_t body = n;
		while (body && (p[body - 1] == '\r' || p[body - 1] == ' ' || p[body - 1] == '\t'))
			body--;
		bool cont = body && p[body - 1] == '\\';
		r = append(&l, p, cont ? body - 1 : n, s.line, s.column);
		if (!r && (!cont || last)) {
			r = line(c, &l);
			l.len = l.npieces = 0;
		}
	}
	free(l.text);
	free(l.pieces);
	return r;
}

/*
 * A policy file: the top one (@from NULL) says whether the policy is a
 * @denylist one; an included one agrees, as minijail's compiler checks each
 * file it reads (an included @denylist line under a policy without it is
 * reported at that line).
 */
static int policy_text(struct mj_ctx *c, const char *text, size_t len, const char *file,
		       const struct scg_loc *from)
{
	c->scanning = true;
	c->saw_denylist = false;
	int r = read_text(c, text, len, file);
	c->scanning = false;
	if (r < 0)
		return r;
	if (!from) {
		c->denylist = c->saw_denylist;
	} else if (c->denylist && !c->saw_denylist) {
		c->failed = true;
		scg_diag_add(c->diag, SCG_SEV_ERROR, *from, "minijail",
			     "minijail compiles a policy as a denylist or not as a whole: every file "
			     "of it has the @denylist line, or none",
			     "'%s' has no @denylist line; the policy including it has", file);
		return 0;
	}
	return read_text(c, text, len, file);
}

/* --- entry points ------------------------------------------------------------------ */

bool scg_minijail_detect(const char *text, size_t len)
{
	static const char *const starts[] = {"1",	  "allow", "arg",	  "return", "kill",
					     "trap",	  "trace", "log",	  "user-notify", NULL};
	for (const char *p = text, *end = text + len; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *le = e ? e : end;
		while (p < le && scan_is_blank(*p))
			p++;
		if ((le - p > 9 && (!strncmp(p, "@include ", 9) || !strncmp(p, "@default ", 9))) ||
		    (le - p > 11 && !strncmp(p, "@frequency ", 11)))
			return true;
		if (le - p >= 9 && !strncmp(p, "@denylist", 9) &&
		    (le - p == 9 || scan_is_blank(p[9]) || p[9] == '#'))
			return true;
		const char *w = p;
		bool set = w < le && *w == '{'; /* "{read, write}: 1" */
		if (set)
			w++;
		for (;;) {
			while (w < le && ((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') ||
					  *w == '_' || (set && (*w == ',' || scan_is_blank(*w)))))
				w++;
			const char *tag_end = w < le && *w == '[' ? memchr(w, ']', (size_t)(le - w)) : NULL;
			if (!tag_end) /* "mmap2[arch=arm]: 1" */
				break;
			w = tag_end + 1;
		}
		if (set && w < le && *w == '}')
			w++;
		else if (set)
			w = p;
		while (set && w < le && scan_is_blank(*w))
			w++;
		if (w > p && w < le && *w == ':') {
			w++;
			while (w < le && scan_is_blank(*w))
				w++;
			for (const char *const *s = starts; *s; s++)
				if ((size_t)(le - w) >= strlen(*s) && !strncmp(w, *s, strlen(*s)))
					return true;
		}
		p = e ? e + 1 : end;
	}
	return false;
}

static void ctx_release(struct mj_ctx *c)
{
	free(c->defaulted);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	scg_import_counts_free(c->counts, c->ncounts);
	c->counts = NULL;
	c->ncounts = 0;
}

static int ctx_init(struct mj_ctx *c, const struct scg_import_options *opts,
		    struct scg_import_options *o, struct scg_diag *diag)
{
	if (opts_load(o, sizeof(*o), opts, OPTS_END(struct scg_import_options, filename)) < 0)
		return -EINVAL;
	*c = (struct mj_ctx){.diag = diag, .abi = scg_arch_native(),
			     .default_action = SCG_RET_KILL_PROCESS};
	if (!o->filename)
		o->filename = "<minijail>";
	return 0;
}

/* Whether rule @i takes the default; c->defaulted is in rule order. */
static bool takes_default(const struct mj_ctx *c, size_t i, size_t *next)
{
	if (*next < c->ndefaulted && c->defaulted[*next] == i) {
		++*next;
		return true;
	}
	return false;
}

/*
 * The rules that take the default get @default's action, now that the whole
 * policy is read: the policy is built again, as its rules' actions are fixed
 * once added.
 */
static int settle_default(struct mj_ctx *c)
{
	if (c->default_action == SCG_RET_KILL_PROCESS || !c->ndefaulted)
		return 0;
	struct scg_policy *p = scg_policy_new();
	int r = p ? scg_policy_add_arch(p, c->abi) : -ENOMEM;
	size_t next = 0;
	for (size_t i = 0; !r && i < scg_policy_rule_count(c->p); i++) {
		struct scg_rule rule;
		scg_policy_rule_at(c->p, i, &rule);
		struct scg_rule_spec spec = {
		    .action = takes_default(c, i, &next) ? c->default_action : rule.action,
		    .syscall = rule.syscall, .has_number = rule.has_number, .number = rule.number,
		    .number_last = rule.number_last, .arch_mask = rule.arch_mask,
		    .cond = rule.cond ? scg_expr_clone(rule.cond) : NULL, .loc = rule.loc};
		r = rule.cond && !spec.cond ? -ENOMEM : scg_policy_add_rule(p, &spec);
	}
	if (r) {
		scg_policy_free(p);
		return r;
	}
	scg_policy_set_badarch(p, scg_policy_badarch(c->p));
	scg_policy_free(c->p);
	c->p = p;
	return 0;
}

int scg_minijail_import(const char *text, size_t len, const struct scg_import_options *opts,
			struct scg_policy **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_import_options o;
	struct mj_ctx c;
	if (ctx_init(&c, opts, &o, diag) < 0)
		return -EINVAL;
	c.p = scg_policy_new();
	int r = c.p ? scg_policy_add_arch(c.p, c.abi) : -ENOMEM;
	if (!r) {
		scg_policy_set_badarch(c.p, SCG_RET_KILL_PROCESS);
		r = policy_text(&c, text, len, o.filename, NULL);
		if (!r && !c.failed)
			r = settle_default(&c);
		/* a @denylist policy allows what its lines do not name; other ABIs stay killed */
		scg_policy_set_default(c.p, c.denylist ? SCG_RET_ALLOW : c.default_action);
	}
	if (!r && c.failed)
		r = c.oom ? -ENOMEM : -EINVAL;
	if (!r)
		*out = c.p;
	else
		scg_policy_free(c.p);
	ctx_release(&c);
	return r;
}

int scg_minijail_frequency(const char *text, size_t len, const struct scg_import_options *opts,
			   struct scg_import_count **counts, size_t *n, struct scg_diag *diag)
{
	*counts = NULL;
	*n = 0;
	struct scg_import_options o;
	struct mj_ctx c;
	if (ctx_init(&c, opts, &o, diag) < 0)
		return -EINVAL;
	int r = policy_text(&c, text, len, o.filename, NULL);
	if (!r && c.failed)
		r = c.oom ? -ENOMEM : -EINVAL;
	if (!r) {
		*counts = c.counts;
		*n = c.ncounts;
		c.counts = NULL;
		c.ncounts = 0;
	}
	ctx_release(&c);
	return r;
}

void scg_import_counts_free(struct scg_import_count *counts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(counts[i].name);
	free(counts);
}
