/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policy -> policy text.  The output names what the language can name
 * (actions, errno names that mean the same number on every target ABI,
 * ABIs) and writes numbers for the rest, so that parsing it back gives the
 * same verdict for every call.  Consecutive rules that differ only in
 * their syscall share a line.  Rules that can never match (an earlier rule
 * without a condition decides their syscall on each of their ABIs, as when
 * a profile overrides part of one it uses) are left out: they change no
 * verdict, and read back they would only be warned about.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/lang.h>

#include "lang/lang_internal.h"
#include "lang/parse.h"
#include "util/strbuf.h"

/* An errno name only if it stands for @value on every target ABI. */
static const char *errno_name(const struct scg_policy *p, uint32_t value)
{
	const char *name = scg_errno_name(scg_policy_arch_at(p, 0), value);
	for (size_t i = 0; name && i < scg_policy_arch_count(p); i++) {
		uint32_t v;
		if (scg_errno_lookup(scg_policy_arch_at(p, i), name, &v) < 0 || v != value)
			return NULL;
	}
	return name;
}

static void put_action(struct strbuf *sb, const struct scg_policy *p, uint32_t ret)
{
	uint32_t data = ret & SCG_RET_DATA;
	const char *name;
	switch (ret & SCG_RET_ACTION_FULL) {
	case SCG_RET_ERRNO:
		name = errno_name(p, data);
		if (name)
			strbuf_appendf(sb, "errno(%s)", name);
		else
			strbuf_appendf(sb, "errno(%u)", data);
		return;
	case SCG_RET_TRAP:
		strbuf_appendf(sb, "trap(%u)", data);
		return;
	case SCG_RET_TRACE:
		strbuf_appendf(sb, "trace(%u)", data);
		return;
	default:
		break;
	}
	name = ret == SCG_RET_ALLOW	     ? "allow"
	       : ret == SCG_RET_KILL_PROCESS ? "kill"
	       : ret == SCG_RET_KILL_THREAD  ? "kill-thread"
	       : ret == SCG_RET_LOG	     ? "log"
	       : ret == SCG_RET_USER_NOTIF   ? "notify"
					     : NULL;
	if (name)
		strbuf_append(sb, name);
	else
		strbuf_appendf(sb, "action(%#010x)", ret); /* data bits or an unknown action */
}

static void put_number(struct strbuf *sb, uint64_t v)
{
	if (v < 10)
		strbuf_appendf(sb, "%u", (unsigned)v);
	else
		strbuf_appendf(sb, "%#llx", (unsigned long long)v);
}

static void put_cmp(struct strbuf *sb, const struct scg_expr *e)
{
	static const char ops[][3] = {"==", "!=", "<", "<=", ">", ">="};
	uint64_t all = e->width == 32 ? 0xffffffffu : ~UINT64_C(0);
	const char *part = e->width == 32 ? ".lo" : "";
	if ((e->mask & all) == all) {
		strbuf_appendf(sb, "arg%u%s", e->arg, part);
	} else {
		strbuf_appendf(sb, "(arg%u%s & ", e->arg, part);
		put_number(sb, e->mask & all);
		strbuf_append(sb, ")");
	}
	strbuf_appendf(sb, " %s ", (unsigned)e->op < 6 ? ops[e->op] : "==");
	put_number(sb, e->value & all);
}

static void put_expr(struct strbuf *sb, const struct scg_expr *e, enum scg_expr_kind parent)
{
	switch (e->kind) {
	case SCG_EXPR_CMP:
		put_cmp(sb, e);
		return;
	case SCG_EXPR_NOT:
		/* '!' takes a comparison or another '!' as it is: parentheses would
		 * count twice against the parser's nesting limit (LANG_MAX_NESTING) */
		if (e->left->kind == SCG_EXPR_CMP || e->left->kind == SCG_EXPR_NOT) {
			strbuf_append(sb, "!");
			put_expr(sb, e->left, SCG_EXPR_NOT);
			return;
		}
		strbuf_append(sb, "!(");
		put_expr(sb, e->left, SCG_EXPR_OR);
		strbuf_append(sb, ")");
		return;
	case SCG_EXPR_AND:
	case SCG_EXPR_OR: {
		/* && binds tighter than ||: only an OR inside an AND needs parentheses */
		bool paren = parent == SCG_EXPR_AND && e->kind == SCG_EXPR_OR;
		if (paren)
			strbuf_append(sb, "(");
		put_expr(sb, e->left, e->kind);
		strbuf_append(sb, e->kind == SCG_EXPR_AND ? " && " : " || ");
		put_expr(sb, e->right, e->kind);
		if (paren)
			strbuf_append(sb, ")");
		return;
	}
	}
}

static void put_arches(struct strbuf *sb, const char *keyword, uint32_t mask)
{
	const char *sep = keyword;
	for (size_t i = 0; i < scg_arch_count(); i++) {
		if (mask & scg_arch_mask_bit(scg_arch_at(i))) {
			strbuf_appendf(sb, "%s%s", sep, scg_arch_name(scg_arch_at(i)));
			sep = ", ";
		}
	}
}

/* "name?" when a target ABI in the rule's scope lacks it, so parsing back does not warn. */
static void put_syscall(struct strbuf *sb, const struct scg_policy *p, const struct scg_rule *r)
{
	if (!r->syscall && r->number_last > r->number) {
		/* hexadecimal where the bits tell more than the digits (0x80000000..0xbfffffff) */
		bool hex = r->number_last >= 0x10000;
		strbuf_appendf(sb, hex ? "%#x..%#x" : "%u..%u", r->number, r->number_last);
		return;
	}
	if (!r->syscall) {
		strbuf_appendf(sb, r->number >= 0x10000 ? "%#x" : "%u", r->number);
		return;
	}
	bool absent = false;
	for (size_t i = 0; i < scg_policy_arch_count(p); i++) {
		const struct scg_arch *a = scg_policy_arch_at(p, i);
		int bit = lang_arch_bit(a);
		uint32_t nr;
		bool in_scope =
		    !r->arch_mask || (bit >= 0 && bit < 32 && (r->arch_mask & (1u << bit)));
		if (in_scope && scg_syscall_lookup(a, r->syscall, &nr) < 0)
			absent = true;
	}
	strbuf_appendf(sb, "%s%s", r->syscall, absent ? "?" : "");
}

static uint32_t known_arch_bits(void)
{
	uint32_t all = 0;
	for (size_t i = 0; i < scg_arch_count(); i++)
		all |= scg_arch_mask_bit(scg_arch_at(i));
	return all;
}

static bool same_line(const struct scg_rule *a, const struct scg_rule *b)
{
	if (a->action != b->action || a->arch_mask != b->arch_mask || !a->cond != !b->cond)
		return false;
	return !a->cond || scg_expr_equal(a->cond, b->cond);
}

static bool known_name(const char *name)
{
	uint32_t nr;
	return scg_syscall_lookup(scg_arch_native(), name, &nr) != -ENOENT;
}

/* Writes rules @idx[0..@count) that share everything but the syscall. */
static void put_rule_line(struct strbuf *sb, const struct scg_policy *p, const size_t *idx,
			  size_t count)
{
	struct scg_rule r;
	scg_policy_rule_at(p, idx[0], &r);
	put_action(sb, p, r.action);
	for (size_t i = 0; i < count; i++) {
		struct scg_rule each;
		scg_policy_rule_at(p, idx[i], &each);
		strbuf_append(sb, i == 0 ? " " : ", ");
		put_syscall(sb, p, &each);
	}
	if (r.cond) {
		strbuf_append(sb, " if ");
		put_expr(sb, r.cond, SCG_EXPR_OR);
	}
	if (r.arch_mask)
		put_arches(sb, " on ", r.arch_mask);
	strbuf_append(sb, "\n");
}

/* The policy's ABIs as arch_mask bits. */
static uint32_t policy_arches(const struct scg_policy *p)
{
	uint32_t all = 0;
	for (size_t i = 0; i < scg_policy_arch_count(p); i++) {
		int bit = lang_arch_bit(scg_policy_arch_at(p, i));
		if (bit >= 0 && bit < 32)
			all |= 1u << bit;
	}
	return all;
}

/* The policy's ABIs rule @r applies to (a rule's 0 means all of them). */
static uint32_t rule_arches(const struct scg_rule *r, uint32_t all)
{
	return r->arch_mask ? r->arch_mask & all : all;
}

/* Whether @a and @b name the same calls: the same name, or @a's numbers include @b's. */
static bool covers_calls(const struct scg_rule *a, const struct scg_rule *b)
{
	if (a->syscall || b->syscall)
		return a->syscall && b->syscall && !strcmp(a->syscall, b->syscall);
	return a->number <= b->number && b->number_last <= a->number_last;
}

/* Marks in @dead the rules that earlier rules without conditions always decide first. */
static void find_dead(const struct scg_policy *p, bool *dead, size_t n)
{
	uint32_t all = policy_arches(p);
	for (size_t i = 0; i < n; i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		uint32_t want = rule_arches(&r, all), decided = 0;
		for (size_t j = 0; j < i && (want & ~decided); j++) {
			struct scg_rule e;
			scg_policy_rule_at(p, j, &e);
			if (!e.cond && covers_calls(&e, &r))
				decided |= rule_arches(&e, all);
		}
		dead[i] = want && !(want & ~decided);
	}
}

/* Writes the live rules, consecutive ones that differ only in their syscall on one line. */
static int put_rules(struct strbuf *sb, const struct scg_policy *p, size_t n)
{
	bool *dead = calloc(n ? n : 1, sizeof(*dead));
	size_t *line = calloc(n ? n : 1, sizeof(*line));
	if (!dead || !line) {
		free(dead);
		free(line);
		return -ENOMEM;
	}
	find_dead(p, dead, n);
	size_t count = 0;
	struct scg_rule a = { 0 }, b = { 0 };
	for (size_t i = 0; i <= n; i++) {
		if (i < n && dead[i])
			continue;
		bool joins = i < n && count && scg_policy_rule_at(p, i, &b) == 0 && same_line(&a, &b);
		if (count && !joins) {
			if (!a.arch_mask || (a.arch_mask & known_arch_bits()))
				put_rule_line(sb, p, line, count);
			/* else the rule applies to no ABI the library knows: nothing to say */
			count = 0;
		}
		if (i == n)
			break;
		if (!count)
			scg_policy_rule_at(p, i, &a);
		line[count++] = i;
	}
	free(dead);
	free(line);
	return 0;
}

static void put_settings(struct strbuf *sb, const struct scg_policy *p)
{
	uint32_t unknown;
	strbuf_append(sb, "# policy text written by libsyscage\n");
	for (size_t i = 0; i < scg_policy_arch_count(p); i++)
		strbuf_appendf(sb, "%s%s", i ? ", " : "arch ",
				   scg_arch_name(scg_policy_arch_at(p, i)));
	strbuf_append(sb, "\ndefault ");
	put_action(sb, p, scg_policy_default(p));
	strbuf_append(sb, "\nbadarch ");
	put_action(sb, p, scg_policy_badarch(p));
	if (scg_policy_unknown(p, &unknown)) {
		strbuf_append(sb, "\nunknown ");
		put_action(sb, p, unknown);
	}
	strbuf_append(sb, "\n");
}

int scg_policy_to_text(const struct scg_policy *policy, char **text)
{
	*text = NULL;
	size_t n = scg_policy_rule_count(policy);
	if (scg_policy_arch_count(policy) == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct scg_rule r;
		if (scg_policy_rule_at(policy, i, &r) < 0 || (r.syscall && !known_name(r.syscall)))
			return -EINVAL;
	}
	struct strbuf sb = STRBUF_INIT;
	put_settings(&sb, policy);
	if (n)
		strbuf_append(&sb, "\n");
	int r = put_rules(&sb, policy, n);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	return strbuf_finish(&sb, text);
}
