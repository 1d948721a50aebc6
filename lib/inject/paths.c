/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Targeting calls by the file they name, like strace's -P: the path tests
 * of an :if= condition (path == "notes.txt"), and which arguments of a
 * syscall are file names or descriptors, from the parameter tables of the
 * policy language (data/syscall-params.tsv, after the man pages).
 *
 * A seccomp filter sees registers, not the memory behind a pointer, so a
 * rule with a path test is always supervised: the supervisor reads the
 * strings from the program (docs/inject.md says what that can and cannot
 * promise).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inject/rule.h"
#include "lang/lang_internal.h"
#include "util/grow.h"
#include "util/scan.h"

/* Parameter names that hold a file name (a path) in the man pages' prototypes. */
static const char path_params[][9] = {
    "pathname", "filename", "path",    "oldpath",  "newpath", "linkpath",
    "source",	"target",   "special", "new_root", "put_old",
};

static bool is_path_param(const struct scg_syscall_param *p)
{
	if (!strstr(p->type, "char *") || strstr(p->type, "* const"))
		return false;
	for (size_t i = 0; i < sizeof(path_params) / sizeof(path_params[0]); i++)
		if (!strcmp(p->name, path_params[i]))
			return true;
	return false;
}

/* "fd", "dirfd", "oldfd", "newdirfd", "sockfd", "fd_in": an int that names a descriptor. */
static bool is_fd_param(const struct scg_syscall_param *p)
{
	size_t len = strlen(p->name);
	bool named = !strncmp(p->name, "fd", 2) || (len >= 2 && !strcmp(p->name + len - 2, "fd"));
	return named && strstr(p->type, "int") && !strchr(p->type, '*');
}

unsigned scg_inject_path_args(const struct scg_arch *arch, const char *syscall, unsigned *fd_args)
{
	unsigned paths = 0, fds = 0;
	const struct scg_syscall_params *sp = syscall ? scg_syscall_params(syscall) : NULL;
	for (unsigned i = 0; sp && i < sp->count && i < 6; i++) {
		if (!scg_syscall_params_apply(sp, arch, i))
			break;
		if (is_path_param(&sp->params[i]))
			paths |= 1U << i;
		else if (is_fd_param(&sp->params[i]))
			fds |= 1U << i;
	}
	if (fd_args)
		*fd_args = fds;
	return paths;
}

int scg_inject_rule_add_path(struct scg_inject_rule *rule, const char *path)
{
	if (RESIZE_ARRAY(&rule->paths, rule->npaths + 1))
		return -ENOMEM;
	if (!(rule->paths[rule->npaths] = strdup(path)))
		return -ENOMEM;
	rule->npaths++;
	return 0;
}

/* --- path tests in a condition --------------------------------------------- */

/* A cursor at @pos of the condition @s, which ends at @end: its offsets are @s's. */
static void cursor_at(struct scan *c, const char *s, size_t pos, size_t end)
{
	scan_init(c, s, end);
	scan_skip(c, pos);
}

/* The end of the conjunct that starts at @pos: the next "&&" outside parentheses and quotes. */
static size_t conjunct_end(const char *s, size_t pos, size_t end)
{
	int depth = 0;
	bool quoted = false;
	struct scan c;
	for (cursor_at(&c, s, pos, end); scan_more(&c); scan_advance(&c)) {
		char ch = scan_peek(&c, 0);
		if (ch == '"')
			quoted = !quoted;
		else if (!quoted && ch == '(')
			depth++;
		else if (!quoted && ch == ')')
			depth--;
		else if (!quoted && !depth && ch == '&' && scan_peek(&c, 1) == '&')
			return c.pos;
	}
	return end;
}

/*
 * If @s[@start..@end) is `path == "STRING"`, STRING's bounds into *@str
 * and *@len: 1.  0 when it is no path test, -1 when it is a malformed one
 * (*@bad: where).  A condition is one line (rule.c refuses '\n' and '\r'),
 * so the cursor's blanks are isspace()'s.
 */
static int path_test(const char *s, size_t start, size_t end, size_t *str, size_t *len,
		     size_t *bad)
{
	struct scan c;
	cursor_at(&c, s, start, end);
	scan_blanks(&c);
	if (!scan_accept(&c, "path") || scan_is_ident_char(scan_peek(&c, 0)))
		return 0;
	scan_blanks(&c);
	*bad = c.pos;
	if (!scan_accept(&c, "=="))
		return -1;
	scan_blanks(&c);
	*bad = c.pos;
	if (!scan_accept(&c, "\""))
		return -1;
	const char *close = memchr(s + c.pos, '"', end - c.pos);
	if (!close || close == s + c.pos)
		return -1;
	*str = c.pos;
	*len = (size_t)(close - (s + c.pos));
	scan_skip(&c, *len + 1);
	scan_blanks(&c);
	return scan_more(&c) ? -1 : 1;
}

/* Overwrites @s[@from..@to) with spaces, keeping every other column where it was. */
static void blank(char *s, size_t from, size_t to)
{
	memset(s + from, ' ', to - from);
}

int inject_take_path_tests(char *cond, size_t len, struct scg_inject_rule *rule, size_t *bad_at)
{
	enum { MAX_TERMS = 64 };
	size_t begin[MAX_TERMS], end[MAX_TERMS];
	bool is_path[MAX_TERMS];
	size_t n = 0;
	for (size_t pos = 0; pos < len && n < MAX_TERMS; n++) {
		begin[n] = pos;
		end[n] = conjunct_end(cond, pos, len);
		pos = end[n] < len ? end[n] + 2 : len;
	}
	for (size_t i = 0; i < n; i++) {
		size_t str, slen, bad;
		int r = path_test(cond, begin[i], end[i], &str, &slen, &bad);
		if (r < 0) {
			*bad_at = bad;
			return -EINVAL;
		}
		is_path[i] = r > 0;
		const char *quote = memchr(cond + begin[i], '"', end[i] - begin[i]);
		if (!is_path[i] && quote) { /* a string elsewhere: under || or in parentheses */
			*bad_at = (size_t)(quote - cond);
			return -EINVAL;
		}
		if (!is_path[i])
			continue;
		char *path = strndup(cond + str, slen);
		int e = path ? scg_inject_rule_add_path(rule, path) : -ENOMEM;
		free(path);
		if (e < 0)
			return e;
	}
	/* Each path test goes with one "&&": the one before it when a kept term precedes it,
	 * else the one after it.  Blanks keep the other terms' columns for diagnostics. */
	bool kept_before = false;
	for (size_t i = 0; i < n; i++) {
		if (!is_path[i]) {
			kept_before = true;
			continue;
		}
		blank(cond, begin[i], end[i]);
		if (kept_before)
			blank(cond, end[i - 1], end[i - 1] + 2);
		else if (i + 1 < n)
			blank(cond, end[i], end[i] + 2);
	}
	return 0;
}
