/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syscall set of an injection rule, as strace's --trace/--inject take
 * it: "[!]item[,item...]" where an item is a syscall name, "?name" (no
 * error when nothing matches), "all", "/regex" (POSIX ERE on names), a
 * policy group "@name", or one of strace's classes: %file, %process, ...
 * (classes.c) and the name patterns %statfs, %fstatfs, %%statfs.  An item
 * may end in strace's personality suffix (@64, @32, @x32).
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject/rule.h"
#include "util/suggest.h"
#include "util/grow.h"
#include "util/scan.h"

/* strace's pattern-defined classes, with the regex its manual gives for each. */
static const struct {
	const char *name;
	const char *regex;
} pattern_classes[] = {
	{ "statfs", "^(.*_)?statv?fs" },
	{ "fstatfs", "fstatv?fs" },
	{ "%statfs", "statv?fs|fsstat|ustat" },
};

/* Names, each with the target ABIs (bit i: arches[i]) it is in the set on. */
struct name_list {
	const char **v;
	uint32_t *masks;
	size_t n, cap;
	bool failed;
};

static void list_add(struct name_list *l, const char *name, uint32_t mask)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name)) {
			l->masks[i] |= mask;
			return;
		}
	if (l->n == l->cap) {
		/* two arrays of one capacity: l->cap changes once both have grown */
		size_t cap = grow_capacity(l->cap, l->n + 1, 32, sizeof(*l->v));
		if (!cap || RESIZE_ARRAY(&l->v, cap) || RESIZE_ARRAY(&l->masks, cap)) {
			l->failed = true;
			return;
		}
		l->cap = cap;
	}
	l->masks[l->n] = mask;
	l->v[l->n++] = name;
}

static uint32_t list_mask(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return l->masks[i];
	return 0;
}

static void list_free(struct name_list *l)
{
	free(l->v);
	free(l->masks);
}

struct set_ctx {
	const struct scg_arch *const *arches;
	size_t narches;
	struct scg_diag *diag;
	struct name_list names;
	uint32_t abis; /* the item's personality: the target ABIs it may add names on */
};

static struct scg_loc at(unsigned column)
{
	return (struct scg_loc){ NULL, 1, column, -1 };
}

/*
 * The name as the tables spell it (static storage), if a target ABI of the
 * item's personality knows it; *@mask: those ABIs.
 */
static const char *known_name(const struct set_ctx *c, const char *name, uint32_t *mask)
{
	const char *found = NULL;
	*mask = 0;
	for (size_t i = 0; i < c->narches; i++) {
		uint32_t nr;
		if (!(c->abis & (1U << i)) || scg_syscall_lookup(c->arches[i], name, &nr) < 0)
			continue;
		found = scg_syscall_name(c->arches[i], nr);
		*mask |= 1U << i;
	}
	return found;
}

/* Adds every name of every target ABI that @re matches. */
static size_t add_matching(struct set_ctx *c, const regex_t *re)
{
	size_t found = 0;
	for (size_t a = 0; a < c->narches; a++) {
		if (!(c->abis & (1U << a)))
			continue;
		for (size_t i = 0; i < scg_syscall_count(c->arches[a]); i++) {
			const char *name;
			uint32_t nr;
			if (scg_syscall_at(c->arches[a], i, &name, &nr) < 0)
				continue;
			if (!re || regexec(re, name, 0, NULL, 0) == 0) {
				list_add(&c->names, name, 1U << a);
				found++;
			}
		}
	}
	return found;
}

/*
 * Where @pattern puts a repetition right after another ("a++", "a*{9}"):
 * POSIX leaves the meaning undefined, and glibc's regcomp() copies the
 * repeated tree for each, which grows without bound.  -1: nowhere.
 */
static long stacked_repetition(const char *pattern)
{
	bool after_repeat = false, escaped = false;
	for (const char *p = pattern; *p; p++) {
		bool repeat = !escaped && strchr("*+?{", *p);
		if (repeat && after_repeat)
			return p - pattern;
		if (!escaped && (*p == '{' || *p == '[')) { /* skip a bound, or a bracket expression */
			const char *close = strchr(p + (p[0] == '[' && p[1] == ']') + 1,
						   *p == '{' ? '}' : ']');
			p = close ? close : p + strlen(p) - 1;
		}
		after_repeat = repeat;
		escaped = !escaped && *p == '\\';
	}
	return -1;
}

static int add_regex(struct set_ctx *c, const char *pattern, unsigned column, bool quiet)
{
	long stacked = stacked_repetition(pattern);
	if (stacked >= 0) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column + 1 + (unsigned)stacked), "inject-regex",
			     "write one repetition: 'a+', not 'a++'",
			     "a repetition of a repetition in '/%s' is undefined in POSIX regular "
			     "expressions", pattern);
		return -EINVAL;
	}
	regex_t re;
	int r = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
	if (r != 0) {
		char why[128];
		regerror(r, &re, why, sizeof(why));
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-regex", NULL,
			     "bad regular expression '%s': %s", pattern, why);
		return -EINVAL;
	}
	size_t found = add_matching(c, &re);
	regfree(&re);
	if (!found && !quiet) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-no-match", NULL,
			     "no syscall matches '/%s'", pattern);
		return -EINVAL;
	}
	return 0;
}

/* "unknown group '@sinc'" with "did you mean @sync?" when @s has a suggestion. */
static int unknown_word(struct set_ctx *c, unsigned column, const char *code, const char *kind,
			char sigil, const char *word, struct suggest *s)
{
	const char *best = suggest_result(s);
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean %c%s?", sigil, best);
	scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), code, best ? hint : NULL,
		     "unknown %s '%c%s'", kind, sigil, word);
	return -EINVAL;
}

/* Adds each of @members that a target ABI of the item's personality has; how many. */
static bool add_member(struct set_ctx *c, const char *member)
{
	uint32_t mask;
	const char *name = known_name(c, member, &mask);
	if (name)
		list_add(&c->names, name, mask);
	return name != NULL;
}

static size_t add_members(struct set_ctx *c, const char *const *members)
{
	size_t found = 0;
	for (; *members; members++)
		found += add_member(c, *members);
	return found;
}

/* The members of a strace class: NUL-separated, ended by an empty name. */
static size_t add_class_members(struct set_ctx *c, const char *members)
{
	size_t found = 0;
	for (; *members; members = inject_class_next(members))
		found += add_member(c, members);
	return found;
}

static int unknown_class(struct set_ctx *c, const char *cls, unsigned column)
{
	struct suggest s;
	suggest_init(&s, cls);
	for (size_t i = 0; inject_class_name(i); i++)
		suggest_consider(&s, inject_class_name(i));
	for (size_t i = 0; i < sizeof(pattern_classes) / sizeof(pattern_classes[0]); i++)
		suggest_consider(&s, pattern_classes[i].name);
	return unknown_word(c, column, "inject-class", "syscall class", '%', cls, &s);
}

static int add_class(struct set_ctx *c, const char *cls, unsigned column, bool quiet)
{
	for (size_t i = 0; i < sizeof(pattern_classes) / sizeof(pattern_classes[0]); i++)
		if (!strcmp(cls, pattern_classes[i].name))
			return add_regex(c, pattern_classes[i].regex, column, quiet);
	const char *members = inject_class_members(cls);
	if (!members)
		return unknown_class(c, cls, column);
	if (!add_class_members(c, members) && !quiet) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-no-match", NULL,
			     "no syscall of class '%%%s' on the target ABIs", cls);
		return -EINVAL;
	}
	return 0;
}

static int add_group(struct set_ctx *c, const char *group, unsigned column)
{
	struct suggest s;
	suggest_init(&s, group);
	for (size_t g = 0; scg_group_name(g); g++) {
		if (strcmp(scg_group_name(g), group) != 0) {
			suggest_consider(&s, scg_group_name(g));
			continue;
		}
		add_members(c, scg_group_members(g));
		return 0;
	}
	return unknown_word(c, column, "inject-group", "group", '@', group, &s);
}

static int add_name(struct set_ctx *c, const char *word, unsigned column, bool quiet)
{
	uint32_t mask;
	const char *name = known_name(c, word, &mask);
	if (name) {
		list_add(&c->names, name, mask);
		return 0;
	}
	if (quiet)
		return 0;
	uint32_t abis = c->abis;
	c->abis = c->narches >= 32 ? UINT32_MAX : (1U << c->narches) - 1;
	bool elsewhere = known_name(c, word, &mask) != NULL;
	c->abis = abis;
	if (elsewhere) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-syscall",
			     "drop the @ suffix, or write ?name to allow this",
			     "no ABI of this personality has the syscall '%s'", word);
		return -EINVAL;
	}
	const char *best = c->narches ? scg_syscall_suggest(c->arches[0], word) : NULL;
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean %s?", best);
	scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-syscall", best ? hint : NULL,
		     "unknown syscall '%s'", word);
	return -EINVAL;
}

/* x32 and MIPS n32: 64-bit registers, 32-bit pointers; strace's "x32" personality. */
static bool is_x32_like(const struct scg_arch *arch)
{
	const char *name = scg_arch_name(arch);
	return !strcmp(name, "x32") || strstr(name, "n32") != NULL;
}

/* The target ABIs of strace's personality designator @p ("64", "32", "x32"); 0: none. */
static uint32_t personality_abis(const struct set_ctx *c, const char *p, bool *known)
{
	uint32_t mask = 0;
	*known = !strcmp(p, "64") || !strcmp(p, "32") || !strcmp(p, "x32");
	for (size_t i = 0; i < c->narches; i++) {
		const struct scg_arch *a = c->arches[i];
		bool x32 = is_x32_like(a);
		if ((!strcmp(p, "x32") && x32) || (!strcmp(p, "32") && scg_arch_bits(a) == 32 && !x32) ||
		    (!strcmp(p, "64") && scg_arch_bits(a) == 64 && !x32))
			mask |= 1U << i;
	}
	return mask;
}

/* "name@64": the item, cut at the '@', covers only that personality's ABIs. */
static int take_personality(struct set_ctx *c, char *item, unsigned column)
{
	char *suffix = strchr(item + 1, '@');
	if (!suffix)
		return 0;
	*suffix++ = '\0';
	bool known;
	c->abis = personality_abis(c, suffix, &known);
	unsigned where = column + (unsigned)(suffix - item);
	if (!known) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(where), "inject-personality",
			     "strace's personalities are @64, @32 and @x32",
			     "unknown personality '@%s'", suffix);
		return -EINVAL;
	}
	if (!c->abis) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(where), "inject-personality",
			     scg_hint_text(SCG_HINT_INJECT_ARCHES),
			     "no target ABI has the personality '@%s'", suffix);
		return -EINVAL;
	}
	return 0;
}

static int add_item(struct set_ctx *c, char *item, unsigned column)
{
	bool quiet = item[0] == '?';
	if (quiet) {
		item++;
		column++;
	}
	if (!*item) {
		scg_diag_add(c->diag, SCG_SEV_ERROR, at(column), "inject-empty", NULL,
			     "empty syscall name in the set");
		return -EINVAL;
	}
	c->abis = c->narches >= 32 ? UINT32_MAX : (1U << c->narches) - 1;
	int r = take_personality(c, item, column);
	if (r < 0)
		return r;
	if (!strcmp(item, "all"))
		return add_matching(c, NULL), 0;
	if (item[0] == '/')
		return add_regex(c, item + 1, column, quiet);
	if (item[0] == '%')
		return add_class(c, item + 1, column, quiet);
	if (item[0] == '@')
		return add_group(c, item + 1, column);
	return add_name(c, item, column, quiet);
}

/* Sorts the names, their masks with them (insertion sort: sets are small). */
static void sort_names(struct name_list *l)
{
	for (size_t i = 1; i < l->n; i++) {
		const char *name = l->v[i];
		uint32_t mask = l->masks[i];
		size_t k = i;
		for (; k > 0 && strcmp(l->v[k - 1], name) > 0; k--) {
			l->v[k] = l->v[k - 1];
			l->masks[k] = l->masks[k - 1];
		}
		l->v[k] = name;
		l->masks[k] = mask;
	}
}

/* Every (name, ABI) of the targets not in @c->names: strace's leading '!'. */
static int negate(struct set_ctx *c)
{
	struct name_list kept = { 0 };
	struct name_list saved = c->names;
	c->names = (struct name_list){ 0 };
	c->abis = c->narches >= 32 ? UINT32_MAX : (1U << c->narches) - 1;
	add_matching(c, NULL);
	struct name_list all = c->names;
	for (size_t i = 0; i < all.n; i++) {
		uint32_t mask = all.masks[i] & ~list_mask(&saved, all.v[i]);
		if (mask)
			list_add(&kept, all.v[i], mask);
	}
	bool failed = all.failed || kept.failed || saved.failed;
	list_free(&all);
	list_free(&saved);
	c->names = kept;
	return failed ? -ENOMEM : 0;
}

static bool not_comma(char ch)
{
	return ch != ',';
}

int inject_set_expand(const char *text, size_t len, unsigned column,
		      const struct scg_arch *const *arches, size_t narches,
		      struct inject_set_result *out, struct scg_diag *diag)
{
	struct set_ctx c = { .arches = arches, .narches = narches, .diag = diag };
	/* the set is part of a one-line rule: a column is @column plus the offset, even past a '\n' */
	struct scan s;
	scan_init(&s, text, len);
	bool negated = scan_accept(&s, "!");
	int r = 0;
	if (!scan_more(&s)) {
		scg_diag_add(diag, SCG_SEV_ERROR, at(column), "inject-empty",
			     "a rule starts with syscalls: 'openat:error=ENOENT'", "no syscall set");
		return -EINVAL;
	}
	do {
		size_t start = s.pos;
		char *item = strndup(text + start, scan_while(&s, not_comma));
		r = item ? add_item(&c, item, column + (unsigned)start) : -ENOMEM;
		free(item);
	} while (r == 0 && scan_accept(&s, ","));
	if (r == 0 && negated)
		r = negate(&c);
	if (r == 0 && c.names.failed)
		r = -ENOMEM;
	if (r < 0) {
		list_free(&c.names);
		return r;
	}
	sort_names(&c.names);
	out->names = c.names.v;
	out->masks = c.names.masks;
	out->count = c.names.n;
	return 0;
}
