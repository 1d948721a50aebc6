/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Parsing one injection rule: "SET:option=value:...".  The set is expanded
 * by set.c; an :if= condition is handed to the policy language parser as
 * "allow SET if COND", so conditions mean exactly what they mean in a
 * policy, and its diagnostics are moved to the condition's columns here.
 */
#include <stdarg.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/rule.h"
#include "util/number.h"
#include "util/opts.h"
#include "util/scan.h"
#include "util/strbuf.h"
#include "util/suggest.h"

/* strace's limits for when=: first and step 1..65535, last 1..65534. */
enum { WHEN_MAX = 65535 };

static const char known_keys[][12] = {"error", "retval",      "signal",	   "when",
				      "if",    "delay_enter", "delay_exit"};
/* strace options seccomp cannot carry out, and why. */
static const struct {
	const char *key, *why;
} strace_only_keys[] = {
	{ "syscall", "a call that runs (CONTINUE) runs as the program made it: a seccomp answer "
		     "cannot change its number" },
	{ "poke_enter", "a seccomp answer can fail the call or let it run, not change the "
			"program's memory; strace writes it while the tracee is stopped" },
	{ "poke_exit", "the supervisor never sees a call that runs return, and a call it fails "
		       "leaves the program's memory as it was" },
};

struct rule_ctx {
	const char *text;
	struct scg_diag *diag;
	const struct scg_arch *arches[8];
	size_t narches;
	struct scg_inject_rule *rule;
	const char *cond; /* inside text */
	size_t cond_len;
	unsigned cond_column;
	bool has_signal;
	const char *delay_exit_at; /* inside text */
};

static struct scg_loc col(unsigned column)
{
	return (struct scg_loc){ NULL, 1, column, -1 };
}

/*
 * The column of @p, inside the rule's text: a rule is one line whatever it
 * holds, and a '\n' in it is one more byte (its diagnostics are on line 1).
 */
static unsigned column_of(const struct rule_ctx *c, const char *p)
{
	return (unsigned)(p - c->text) + 1;
}

static bool not_colon(char ch)
{
	return ch != ':';
}

static int fail(struct rule_ctx *c, const char *at, const char *code, const char *hint,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(struct rule_ctx *c, const char *at, const char *code, const char *hint,
		const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(c->diag, SCG_SEV_ERROR, col(column_of(c, at)), code, hint, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_errno(struct rule_ctx *c, const char *v, size_t len)
{
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), v);
	uint32_t e;
	if (scg_parse_u32(v, len, &e) == 0) {
		if (e < 1 || e > SCG_MAX_ERRNO)
			return fail(c, v, "inject-errno", "errno numbers go from 1 to 4095",
				    "errno %s out of range", word);
	} else if (len == 0 || scg_errno_lookup(c->arches[0], word, &e) < 0) {
		const char *best = scg_errno_suggest(word);
		char hint[64];
		if (best)
			snprintf(hint, sizeof(hint), "did you mean %s?", best);
		return fail(c, v, "inject-errno", best ? hint : NULL, "unknown errno '%s'", word);
	}
	c->rule->has_error = true;
	c->rule->error = e;
	return 0;
}

/*
 * A return value from -4095 to -1 is how the kernel reports an error: the C
 * library turns it into -1 and errno, so retval=-1 arrives as EPERM.  A
 * value past 32 bits is cut to its low half on a 32-bit ABI.
 */
static void warn_retval(struct rule_ctx *c, const char *at, int64_t v)
{
	unsigned column = column_of(c, at);
	if (v < 0 && v >= -(int64_t)SCG_MAX_ERRNO) {
		const char *name = scg_errno_name(c->arches[0], (uint32_t)-v);
		char hint[96];
		snprintf(hint, sizeof(hint), "write error=%s if the error is meant", name ? name : "N");
		scg_diag_add(c->diag, SCG_SEV_WARNING, col(column), "inject-retval-errno", hint,
			     "retval=%lld is ambiguous: the program sees it as a failure with errno %s "
			     "(the kernel's return values -4095..-1 are errors)",
			     (long long)v, name ? name : "?");
		return;
	}
	bool narrow = false;
	for (size_t i = 0; i < c->narches; i++)
		narrow |= scg_arch_bits(c->arches[i]) == 32;
	if (narrow && (v > (int64_t)UINT32_MAX || v < INT32_MIN))
		scg_diag_add(c->diag, SCG_SEV_WARNING, col(column), "inject-retval-width", NULL,
			     "retval=%lld does not fit 32 bits: 32-bit programs see only its low half",
			     (long long)v);
}

static int parse_retval(struct rule_ctx *c, const char *v, size_t len)
{
	uint64_t n;
	if (scg_parse_u64(v, len, &n) < 0) {
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), v);
		return fail(c, v, "inject-retval", "a number: retval=0, retval=-1, retval=0x10",
			    "bad return value '%s'", word);
	}
	c->rule->has_retval = true;
	c->rule->retval = (int64_t)n;
	warn_retval(c, v, (int64_t)n);
	return 0;
}

static int parse_signal(struct rule_ctx *c, const char *v, size_t len)
{
	char word[32];
	snprintf(word, sizeof(word), "%.*s", (int)(len < 31 ? len : 31), v);
	uint32_t n;
	int sig = 0;
	if (scg_parse_u32(v, len, &n) == 0) {
		sig = n >= 1 && n <= (uint32_t)SIGRTMAX ? (int)n : -1;
	} else {
		const char *name = strncasecmp(word, "SIG", 3) == 0 ? word + 3 : word;
		struct suggest s;
		suggest_init(&s, name);
		for (int i = 1; i < SIGRTMIN && !sig; i++) {
			const char *abbrev = sigabbrev_np(i);
			if (abbrev && !strcasecmp(abbrev, name))
				sig = i;
			else if (abbrev)
				suggest_consider(&s, abbrev);
		}
		if (!sig) {
			const char *best = suggest_result(&s);
			char hint[48];
			if (best)
				snprintf(hint, sizeof(hint), "did you mean SIG%s?", best);
			return fail(c, v, "inject-signal", best ? hint : NULL, "unknown signal '%s'",
				    word);
		}
	}
	if (sig < 0)
		return fail(c, v, "inject-signal", "signal numbers go from 1 to SIGRTMAX",
			    "signal %s out of range", word);
	c->rule->signal = sig;
	c->has_signal = true;
	return 0;
}

/* Reads decimal digits at *@pos; false when there are none or the value passes @max. */
static bool read_count(const char *text, size_t len, size_t *pos, uint32_t max, uint32_t *out)
{
	size_t start = *pos;
	uint64_t v = 0;
	while (*pos < len && text[*pos] >= '0' && text[*pos] <= '9') {
		v = v * 10 + (uint64_t)(text[*pos] - '0');
		if (v > max) {
			*pos = start;
			return false;
		}
		(*pos)++;
	}
	*out = (uint32_t)v;
	if (*pos > start && v >= 1)
		return true;
	*pos = start; /* point at the number, not past it */
	return false;
}

int inject_when_parse(const char *text, size_t len, struct scg_inject_when *out,
			  size_t *bad_at)
{
	struct scg_inject_when w = { 0, 0, 1 };
	size_t pos = 0;
	if (!read_count(text, len, &pos, WHEN_MAX, &w.first))
		goto bad;
	w.last = w.first;
	if (pos + 1 < len && text[pos] == '.' && text[pos + 1] == '.') {
		pos += 2;
		size_t at = pos;
		if (!read_count(text, len, &pos, WHEN_MAX - 1, &w.last) || w.last < w.first) {
			pos = at;
			goto bad;
		}
	}
	if (pos < len && text[pos] == '+') {
		pos++;
		if (w.last == w.first && pos > 0 && memchr(text, '.', pos) == NULL)
			w.last = UINT32_MAX; /* "first+": no end */
		if (pos < len && !read_count(text, len, &pos, WHEN_MAX, &w.step))
			goto bad;
	}
	if (pos != len)
		goto bad;
	*out = w;
	return 0;
bad:
	*bad_at = pos;
	return -EINVAL;
}

bool scg_inject_when_takes(const struct scg_inject_when *when, uint64_t count)
{
	if (count < when->first || count > when->last)
		return false;
	return (count - when->first) % when->step == 0;
}

static int parse_when(struct rule_ctx *c, const char *v, size_t len)
{
	size_t bad_at;
	if (inject_when_parse(v, len, &c->rule->when, &bad_at) < 0) {
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), v);
		return fail(c, v + bad_at, "inject-when",
			    "first[..last][+[step]], e.g. 3, 2..5, 2+, 2+3 (1 to 65535)",
			    "bad when-expression '%s'", word);
	}
	c->rule->has_when = true; /* like strace, a later when= replaces an earlier one */
	return 0;
}

/* strace's delays: microseconds, or a number with s, ms, us or ns; up to UINT32_MAX us. */
static int parse_delay(struct rule_ctx *c, const char *v, size_t len, uint32_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	size_t digits = 0;
	while (digits < len && v[digits] >= '0' && v[digits] <= '9')
		digits++;
	uint64_t n, ns = 1000;
	bool ok = digits > 0 && digits <= 12 && scg_parse_u64(v, digits, &n) == 0;
	if (ok && digits < len) {
		ok = false;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]) && !ok; i++)
			if (len - digits == strlen(units[i].suffix) &&
			    !memcmp(v + digits, units[i].suffix, len - digits)) {
				ns = units[i].ns;
				ok = true;
			}
	}
	uint64_t us = ok ? n * ns / 1000 : 0;
	if (!ok || us > UINT32_MAX) {
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), v);
		return fail(c, v, "inject-delay",
			    "microseconds, or a number with s, ms, us or ns: delay_enter=1500, "
			    "delay_exit=2ms (at most 4294967295 us)",
			    "bad delay '%s'", word);
	}
	*out = (uint32_t)us;
	return 0;
}

static int unknown_key(struct rule_ctx *c, const char *key, size_t len)
{
	char word[32];
	snprintf(word, sizeof(word), "%.*s", (int)(len < 31 ? len : 31), key);
	for (size_t i = 0; i < sizeof(strace_only_keys) / sizeof(strace_only_keys[0]); i++)
		if (!strcmp(word, strace_only_keys[i].key)) {
			scg_diag_add(c->diag, SCG_SEV_ERROR, col(column_of(c, key)),
				     "inject-unsupported",
				     "syscage supports error=, retval=, signal=, when=, if=, "
				     "delay_enter= and delay_exit=",
				     "strace's '%s=' is not possible with seccomp, because %s", word,
				     strace_only_keys[i].why);
			return -EINVAL;
		}
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++)
		suggest_consider(&s, known_keys[i]);
	const char *best = suggest_result(&s);
	char hint[48];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean %s=?", best);
	return fail(c, key, "inject-option", best ? hint : NULL, "unknown option '%s'", word);
}

static int parse_option(struct rule_ctx *c, const char *opt, size_t len)
{
	const char *eq = memchr(opt, '=', len);
	if (!eq)
		return unknown_key(c, opt, len);
	size_t klen = (size_t)(eq - opt), vlen = len - klen - 1;
	const char *v = eq + 1;
	bool is_error = klen == 5 && !memcmp(opt, "error", 5);
	bool is_retval = klen == 6 && !memcmp(opt, "retval", 6);
	if ((is_error || is_retval) && (c->rule->has_error || c->rule->has_retval))
		return fail(c, opt, "inject-twice", "error= and retval= exclude each other",
			    "%s", "only one error= or retval= per rule");
	if (is_error)
		return parse_errno(c, v, vlen);
	if (is_retval)
		return parse_retval(c, v, vlen);
	if (klen == 6 && !memcmp(opt, "signal", 6)) {
		if (c->has_signal)
			return fail(c, opt, "inject-twice", NULL, "%s", "only one signal= per rule");
		return parse_signal(c, v, vlen);
	}
	if (klen == 4 && !memcmp(opt, "when", 4))
		return parse_when(c, v, vlen);
	if (klen == 11 && !memcmp(opt, "delay_enter", 11)) {
		c->rule->has_delay_enter = true;
		return parse_delay(c, v, vlen, &c->rule->delay_enter_us);
	}
	if (klen == 10 && !memcmp(opt, "delay_exit", 10)) {
		c->rule->has_delay_exit = true;
		c->delay_exit_at = opt;
		return parse_delay(c, v, vlen, &c->rule->delay_exit_us);
	}
	if (klen == 2 && !memcmp(opt, "if", 2)) {
		if (c->cond)
			return fail(c, opt, "inject-twice", NULL, "%s", "only one if= per rule");
		if (vlen == 0)
			return fail(c, v, "inject-if", "a condition: if=flags & O_CREAT", "%s",
				    "empty condition");
		/* The condition goes into policy text, where these would end the rule
		 * or comment out its ABI restriction. */
		size_t cut = strcspn(v, "#\n\r");
		if (cut < vlen)
			return fail(c, v + cut, "inject-if", NULL, "%s",
				    "a condition is one line, without '#'");
		c->cond = v;
		c->cond_len = vlen;
		c->cond_column = column_of(c, v);
		c->rule->has_cond = true;
		return 0;
	}
	return unknown_key(c, opt, klen);
}

/* Moves the policy parser's errors about "allow SET if COND" onto the rule's columns. */
/* True when @diag already has an error at @column saying @message. */
static bool already_said(const struct scg_diag *diag, unsigned column, const char *message)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->loc.column == column && !strcmp(e->message, message))
			return true;
	}
	return false;
}

/*
 * Moves the policy parser's errors onto the rule's columns: an error on
 * line L of the match text is at column cond_offsets[L - 1] of its
 * condition.  Every line holds the same condition (for other syscalls or
 * ABIs), so the same error from two lines is said once.
 */
static void move_diags(struct rule_ctx *c, const struct scg_diag *from,
		       const size_t *cond_offsets, size_t nlines)
{
	for (size_t i = 0; i < scg_diag_count(from); i++) {
		const struct scg_diag_entry *e = scg_diag_get(from, i);
		if (e->severity < SCG_SEV_ERROR)
			continue;
		size_t line = e->loc.line;
		size_t offset = line >= 1 && line <= nlines ? cond_offsets[line - 1] : 0;
		unsigned column = c->cond_column;
		if (e->loc.column > offset)
			column += e->loc.column - 1 - (unsigned)offset;
		if (!already_said(c->diag, column, e->message))
			scg_diag_add(c->diag, SCG_SEV_ERROR, col(column), e->code, e->hint, "%s",
				     e->message);
	}
}

/*
 * strace users write masks as tests ("flags & O_CREAT"); the policy
 * language wants a comparison.  A condition with no comparison at all is
 * read as "(COND) != 0", the C meaning.
 */
static bool lacks_comparison(const char *cond, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (strchr("=<>!", cond[i]) || (i + 3 < len && !memcmp(cond + i, " in ", 4)))
			return false;
	return true;
}

/* One line of the match: the names of @rule whose ABI mask is @mask. */
static void match_line(struct strbuf *sb, const struct scg_inject_rule *rule, uint32_t mask,
		       size_t *cond_offset)
{
	size_t line_start = sb->len;
	strbuf_append(sb, "allow ");
	bool first = true;
	for (size_t i = 0; i < rule->nsyscalls; i++)
		if (rule->abi_masks[i] == mask) {
			strbuf_appendf(sb, "%s%s", first ? "" : ", ", rule->syscalls[i]);
			first = false;
		}
	if (rule->cond) {
		strbuf_append(sb, " if ");
		if (rule->cond_as_test)
			strbuf_append(sb, "(");
		*cond_offset = sb->len - line_start;
		strbuf_append(sb, rule->cond);
		if (rule->cond_as_test)
			strbuf_append(sb, ") != 0");
	}
	uint32_t all = (1U << rule->narches) - 1;
	for (size_t k = 0; k < rule->narches && mask != all; k++)
		if (mask & (1U << k))
			strbuf_appendf(sb, "%s%s", (mask & ((1U << k) - 1)) ? ", " : " on ",
					   scg_arch_name(rule->arches[k]));
	strbuf_append(sb, "\n");
}

/* The policy text: one rule per group of names on the same ABIs. */
static void match_text(struct strbuf *sb, const struct scg_inject_rule *rule,
		       size_t *cond_offsets, size_t *nlines)
{
	*nlines = 0;
	for (size_t i = 0; i < rule->nsyscalls; i++) {
		size_t k = 0;
		while (k < i && rule->abi_masks[k] != rule->abi_masks[i])
			k++;
		if (k == i && rule->abi_masks[i])
			match_line(sb, rule, rule->abi_masks[i], &cond_offsets[(*nlines)++]);
	}
	if (sb->len == 0)
		strbuf_append(sb, "# no syscall in the set\n");
}

/* (Re)builds @rule->match from its set and condition; errors go to @c->diag. */
static int build_match(struct rule_ctx *c)
{
	struct scg_inject_rule *rule = c->rule;
	struct strbuf sb = STRBUF_INIT;
	size_t nlines, *cond_offsets = calloc(rule->nsyscalls + 1, sizeof(*cond_offsets));
	if (!cond_offsets)
		return -ENOMEM;
	match_text(&sb, rule, cond_offsets, &nlines);
	char *text;
	int r = strbuf_finish(&sb, &text);
	struct scg_diag *pd = r < 0 ? NULL : scg_diag_new();
	if (!pd) {
		free(cond_offsets);
		free(text);
		return -ENOMEM;
	}
	struct scg_policy_source_options po = { .filename = "rule", .arches = rule->arches,
						 .narches = rule->narches };
	scg_policy_free(rule->match);
	rule->match = NULL;
	r = scg_policy_parse(text, strlen(text), &po, &rule->match, pd);
	if (r == -EINVAL)
		move_diags(c, pd, cond_offsets, nlines);
	scg_diag_free(pd);
	free(cond_offsets);
	free(text);
	return r;
}

static int target_arches(struct rule_ctx *c, const struct scg_inject_options *opts)
{
	if (opts && opts->arches) {
		if (opts->narches == 0 || opts->narches > sizeof(c->arches) / sizeof(c->arches[0]))
			return -EINVAL;
		memcpy(c->arches, opts->arches, opts->narches * sizeof(*opts->arches));
		c->narches = opts->narches;
		return 0;
	}
	const struct scg_arch *native = scg_arch_native();
	if (!native)
		return -ENOSYS;
	c->arches[0] = native;
	size_t max = sizeof(c->arches) / sizeof(c->arches[0]) - 1;
	size_t n = scg_arch_companions(native, c->arches + 1, max);
	c->narches = 1 + (n < max ? n : max);
	return 0;
}

/* The options after the set: ":key=value" each. */
/* The options from the cursor @s on, each after its ':'. */
static int parse_options(struct rule_ctx *c, struct scan *s, const struct scg_inject_options *opts)
{
	while (scan_accept(s, ":")) {
		size_t start = s->pos;
		int r = parse_option(c, s->text + start, scan_while(s, not_colon));
		if (r < 0)
			return r;
	}
	const char *p = s->text + s->pos;
	struct scg_inject_rule *rule = c->rule;
	if (opts && opts->fault && !rule->has_error && !rule->has_retval) {
		rule->has_error = true;
		rule->error = ENOSYS; /* strace's -e fault= default */
	}
	bool delay = rule->has_delay_enter || rule->has_delay_exit;
	if (!rule->has_error && !rule->has_retval && !rule->signal && !delay)
		return fail(c, p, "inject-action",
			    "add :error=ERRNO, :retval=N, :signal=SIG or :delay_enter=US", "%s",
			    "the rule injects nothing");
	if (rule->has_delay_exit && !rule->has_error && !rule->has_retval) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, col(column_of(c, c->delay_exit_at)),
			     "inject-unsupported",
			     "with error= or retval= the call does not run and delay_exit= is exact; "
			     "delay_enter= delays a call that runs",
			     "delay_exit= on a call that runs is not possible with seccomp, because "
			     "the supervisor lets it run (CONTINUE) and never sees it return");
		return -EINVAL;
	}
	return 0;
}

/*
 * Moves the condition into the rule, less its path tests (paths.c): what
 * is left goes to the policy parser, with the columns it had.
 */
static int take_paths(struct rule_ctx *c)
{
	struct scg_inject_rule *rule = c->rule;
	rule->cond = strndup(c->cond, c->cond_len);
	if (!rule->cond)
		return -ENOMEM;
	size_t bad_at;
	int r = inject_take_path_tests(rule->cond, c->cond_len, rule, &bad_at);
	if (r == -EINVAL)
		return fail(c, c->cond + bad_at, "inject-path",
			    "a path test is path == \"FILE\", joined to the rest of the condition "
			    "with && (strings are for path tests only)",
			    "%s", "bad path test");
	if (r < 0)
		return r;
	struct scan rest;
	scan_init(&rest, rule->cond, c->cond_len);
	while (scan_peek(&rest, 0) == ' ')
		scan_advance(&rest);
	if (!scan_more(&rest)) { /* path tests only */
		free(rule->cond);
		rule->cond = NULL;
		return 0;
	}
	rule->cond_as_test = lacks_comparison(rule->cond, c->cond_len);
	return 0;
}

static int parse_rule(struct rule_ctx *c, const struct scg_inject_options *opts)
{
	const char *text = c->text;
	struct scan s;
	scan_init(&s, text, strlen(text));
	size_t set_len = scan_while(&s, not_colon);
	struct inject_set_result set = { 0 };
	int r = inject_set_expand(text, set_len, 1, c->arches, c->narches, &set, c->diag);
	if (r < 0)
		return r;
	c->rule->syscalls = set.names;
	c->rule->abi_masks = set.masks;
	c->rule->nsyscalls = set.count;
	r = parse_options(c, &s, opts);
	if (r < 0)
		return r;
	if (c->cond) {
		r = take_paths(c);
		if (r < 0)
			return r;
	}
	memcpy(c->rule->arches, c->arches, c->narches * sizeof(*c->arches));
	c->rule->narches = c->narches;
	return build_match(c);
}

int scg_inject_rule_parse(const char *text, const struct scg_inject_options *opts,
			  struct scg_inject_rule **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_inject_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_inject_options, fault)) < 0)
		return -EINVAL;
	opts = &o;
	struct rule_ctx c = { .text = text, .diag = diag };
	int r = target_arches(&c, opts);
	if (r < 0)
		return r;
	c.rule = calloc(1, sizeof(*c.rule));
	if (!c.rule || !(c.rule->text = strdup(text))) {
		free(c.rule);
		return -ENOMEM;
	}
	r = parse_rule(&c, opts);
	if (r < 0) {
		scg_inject_rule_free(c.rule);
		return r;
	}
	*out = c.rule;
	return 0;
}

void scg_inject_rule_free(struct scg_inject_rule *rule)
{
	if (!rule)
		return;
	scg_policy_free(rule->match);
	free(rule->syscalls);
	free(rule->abi_masks);
	free(rule->cond);
	for (size_t i = 0; i < rule->npaths; i++)
		free(rule->paths[i]);
	free(rule->paths);
	free(rule->text);
	free(rule);
}

bool scg_inject_rule_is_static(const struct scg_inject_rule *rule)
{
	return rule->has_error && !rule->has_when && !rule->signal && !rule->has_delay_enter &&
	       !rule->has_delay_exit && !rule->npaths;
}

/* The ABIs (as bits of @rule's arches) on which @other's set has @name. */
static uint32_t taken_by(const struct scg_inject_rule *rule, const struct scg_inject_rule *other,
			 const char *name)
{
	uint32_t mask = 0;
	for (size_t i = 0; i < other->nsyscalls; i++) {
		if (strcmp(other->syscalls[i], name) != 0)
			continue;
		for (size_t a = 0; a < other->narches; a++)
			for (size_t k = 0; k < rule->narches; k++)
				if ((other->abi_masks[i] & (1U << a)) && other->arches[a] == rule->arches[k])
					mask |= 1U << k;
	}
	return mask;
}

/* Takes from rules[@i] what a later rule names; the names it lost go to @lost. */
static bool give_up_to_later(struct scg_inject_rule *const *rules, size_t nrules, size_t i,
			     struct strbuf *lost, bool *any_left)
{
	struct scg_inject_rule *rule = rules[i];
	bool changed = false;
	*any_left = false;
	for (size_t k = 0; k < rule->nsyscalls; k++) {
		uint32_t taken = 0;
		for (size_t j = i + 1; j < nrules; j++)
			taken |= taken_by(rule, rules[j], rule->syscalls[k]);
		if (rule->abi_masks[k] & taken) {
			strbuf_appendf(lost, "%s%s", changed ? ", " : "", rule->syscalls[k]);
			rule->abi_masks[k] &= ~taken;
			changed = true;
		}
		*any_left |= rule->abi_masks[k] != 0;
	}
	return changed;
}

int scg_inject_rules_resolve(struct scg_inject_rule *const *rules, size_t nrules,
			     struct scg_diag *diag)
{
	for (size_t i = 0; i + 1 < nrules; i++) {
		struct strbuf lost = STRBUF_INIT;
		bool any_left;
		if (!give_up_to_later(rules, nrules, i, &lost, &any_left)) {
			strbuf_release(&lost);
			continue;
		}
		char *names;
		if (strbuf_finish(&lost, &names) < 0)
			return -ENOMEM;
		struct rule_ctx c = { .text = rules[i]->text, .diag = diag, .rule = rules[i] };
		int r = build_match(&c);
		struct scg_loc loc = { NULL, (unsigned)(i + 1), 1, -1 };
		if (r == 0 && any_left)
			scg_diag_add(diag, SCG_SEV_WARNING, loc, "inject-replaced",
				     "as under strace, the last rule naming a syscall is the one that "
				     "applies to it",
				     "a later rule replaces this one for %s", names);
		else if (r == 0)
			scg_diag_add(diag, SCG_SEV_WARNING, loc, "inject-replaced",
				     "as under strace, the last rule naming a syscall is the one that "
				     "applies to it",
				     "later rules replace this one for all its syscalls (%s): it "
				     "injects nothing", names);
		free(names);
		if (r < 0)
			return r;
	}
	return 0;
}
