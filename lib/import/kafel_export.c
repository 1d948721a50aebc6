/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies as kafel policies.  kafel's rules are first-match like
 * syscage's, so the rules are written one for one, in order, consecutive
 * rules with one action in one block, conditions as kafel expressions over
 * declared argument names (a0..a5).  What kafel cannot say is refused with
 * the rule that says it: a comparison over a width kafel does not read the
 * argument at (kafel reads int parameters over their low 32 bits and
 * everything else over 64), rules for other ABIs, verdicts for calls of
 * other ABIs than kafel's (it kills the thread), wide number ranges.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>
#include <syscage/lang.h>

#include "util/strbuf.h"

struct exporter {
	const struct scg_policy *p;
	const struct scg_arch *abi;
	struct scg_diag *diag;
	int err;
};

static void refuse(struct exporter *x, const struct scg_rule *rule, const char *hint,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void refuse(struct exporter *x, const struct scg_rule *rule, const char *hint,
		   const char *fmt, ...)
{
	if (!x->err)
		x->err = -EINVAL;
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(x->diag, SCG_SEV_ERROR, rule ? rule->loc : SCG_LOC_NONE, "kafel-export", hint, fmt,
		      ap);
	va_end(ap);
}

static bool action_text(uint32_t action, char *buf, size_t size)
{
	unsigned data = action & SCG_RET_DATA;
	switch (scg_action_of(action)) {
	case SCG_ACTION_ALLOW:
		snprintf(buf, size, "ALLOW");
		return true;
	case SCG_ACTION_LOG:
		snprintf(buf, size, "LOG");
		return true;
	case SCG_ACTION_KILL_THREAD:
		snprintf(buf, size, "KILL");
		return true;
	case SCG_ACTION_KILL_PROCESS:
		snprintf(buf, size, "KILL_PROCESS");
		return true;
	case SCG_ACTION_USER_NOTIF:
		snprintf(buf, size, "USER_NOTIF");
		return true;
	case SCG_ACTION_ERRNO:
		snprintf(buf, size, "ERRNO(%u)", data);
		return true;
	case SCG_ACTION_TRAP:
		snprintf(buf, size, "TRAP(%u)", data);
		return true;
	case SCG_ACTION_TRACE:
		snprintf(buf, size, "TRACE(%u)", data);
		return true;
	case SCG_ACTION_UNKNOWN:
		break;
	}
	return false;
}

/* How many bits kafel compares argument @arg of @name over (its syscall table's size). */
static unsigned kafel_width(const struct exporter *x, const char *name, unsigned arg)
{
	return name && scg_syscall_arg_width(x->abi, name, arg) == 32 ? 32 : 64;
}

static void put_num(struct strbuf *sb, uint64_t v)
{
	if (v < 10)
		strbuf_appendf(sb, "%llu", (unsigned long long)v);
	else
		strbuf_appendf(sb, "0x%llx", (unsigned long long)v);
}

/* @e as a kafel expression; the highest argument it reads into *@maxarg. */
static bool put_expr(struct exporter *x, struct strbuf *sb, const struct scg_expr *e,
		     const char *name, int *maxarg)
{
	static const char ops[][3] = {"==", "!=", "<", "<=", ">", ">="};
	switch (e->kind) {
	case SCG_EXPR_NOT:
		strbuf_append(sb, "!(");
		if (!put_expr(x, sb, e->left, name, maxarg))
			return false;
		strbuf_append(sb, ")");
		return true;
	case SCG_EXPR_AND:
	case SCG_EXPR_OR:
		strbuf_append(sb, "(");
		if (!put_expr(x, sb, e->left, name, maxarg))
			return false;
		strbuf_append(sb, e->kind == SCG_EXPR_AND ? " && " : " || ");
		if (!put_expr(x, sb, e->right, name, maxarg))
			return false;
		strbuf_append(sb, ")");
		return true;
	case SCG_EXPR_CMP:
		break;
	}
	uint64_t mask = e->width == 32 ? e->mask & 0xffffffffULL : e->mask;
	unsigned kw = kafel_width(x, name, e->arg);
	/* a 32-bit test is a 64-bit one on the masked low half, and back */
	if (kw == 32 && (mask > 0xffffffffULL || e->value > 0xffffffffULL))
		return false;
	uint64_t full = kw == 32 ? 0xffffffffULL : UINT64_MAX;
	if ((int)e->arg > *maxarg)
		*maxarg = e->arg;
	if (mask == full)
		strbuf_appendf(sb, "a%u %s ", e->arg, ops[e->op]);
	else {
		strbuf_appendf(sb, "(a%u & ", e->arg);
		put_num(sb, mask);
		strbuf_appendf(sb, ") %s ", ops[e->op]);
	}
	put_num(sb, e->value);
	return true;
}

/* One syscall of rule @r: "name(a0, a1) { cond }" or "SYSCALL[n] ...". */
static bool put_filter(struct exporter *x, struct strbuf *sb, const struct scg_rule *r,
		       const char *syscall)
{
	struct strbuf cond = STRBUF_INIT;
	int maxarg = -1;
	if (r->cond && !put_expr(x, &cond, r->cond, r->syscall, &maxarg)) {
		strbuf_release(&cond);
		refuse(x, r,
		       "kafel reads int parameters over their low 32 bits, the others over 64",
		       "a condition on '%s' compares an argument over a width kafel does not",
		       syscall);
		return false;
	}
	strbuf_appendf(sb, "    %s", syscall);
	if (r->cond) {
		strbuf_append(sb, "(");
		for (int i = 0; i <= maxarg; i++)
			strbuf_appendf(sb, "%sa%d", i ? ", " : "", i);
		strbuf_append(sb, ") { ");
		char *text = NULL;
		if (strbuf_finish(&cond, &text) < 0) {
			x->err = -ENOMEM;
			return false;
		}
		strbuf_appendf(sb, "%s }", text);
		free(text);
	} else {
		strbuf_release(&cond);
	}
	return true;
}

/* Which targets kafel's one-ABI filter can say: the ABI, and x32 beside x86_64 without rules. */
static void check_targets(struct exporter *x)
{
	const struct scg_policy *p = x->p;
	uint32_t dflt = scg_policy_default(p), u;
	bool x32 = false;
	for (size_t i = 1; i < scg_policy_arch_count(p); i++) {
		const struct scg_arch *a = scg_policy_arch_at(p, i);
		if (strcmp(scg_arch_name(a), "x32") || strcmp(scg_arch_name(x->abi), "x86_64")) {
			refuse(x, NULL, scg_hint_text(SCG_HINT_ONE_ARCH),
			       "kafel filters one ABI; the policy targets %s too", scg_arch_name(a));
			return;
		}
		x32 = true;
		for (size_t r = 0; r < scg_policy_rule_count(p); r++) {
			uint32_t f, l;
			struct scg_rule rule;
			scg_policy_rule_at(p, r, &rule);
			if (scg_policy_rule_range(p, r, a, &f, &l) == 0) {
				refuse(x, &rule, "kafel's x86_64 filter gives x32 calls its default",
				       "a rule for %s applies to x32 calls", rule.syscall ? rule.syscall : "numbers");
				return;
			}
		}
	}
	if (scg_policy_badarch(p) != SCG_RET_KILL_THREAD)
		refuse(x, NULL, "write 'badarch kill-thread'",
		       "kafel kills the thread for calls of other ABIs");
	else if (!x32 && !strcmp(scg_arch_name(x->abi), "x86_64") && dflt != SCG_RET_KILL_THREAD)
		refuse(x, NULL, scg_hint_text(SCG_HINT_ADD_X32),
		       "kafel gives x32 calls the default, the policy kills their thread");
	if (scg_policy_unknown(p, &u) && u != dflt)
		refuse(x, NULL, "kafel gives unknown numbers the default",
		       "the 'unknown' verdict differs from the default");
}

int scg_kafel_export(const struct scg_policy *policy, char **text, struct scg_diag *diag)
{
	*text = NULL;
	struct exporter x = {.p = policy, .diag = diag};
	if (scg_policy_arch_count(policy) == 0) {
		refuse(&x, NULL, "add 'arch x86_64'", "the policy targets no ABI");
		return x.err;
	}
	x.abi = scg_policy_arch_at(policy, 0);
	check_targets(&x);
	char act[32];
	if (!x.err && !action_text(scg_policy_default(policy), act, sizeof(act)))
		refuse(&x, NULL, "a seccomp action", "the default is no action kafel has");
	struct strbuf sb = STRBUF_INIT;
	strbuf_appendf(&sb, "// written by syscage compile --format kafel (%s)\n",
			   scg_arch_name(x.abi));
	strbuf_append(&sb, "POLICY syscage {\n");
	bool open = false;
	uint32_t cur = 0;
	for (size_t i = 0; i < scg_policy_rule_count(policy) && !x.err; i++) {
		struct scg_rule r;
		uint32_t first, last;
		scg_policy_rule_at(policy, i, &r);
		if (scg_policy_rule_range(policy, i, x.abi, &first, &last) < 0)
			continue; /* not for kafel's ABI */
		if (!action_text(r.action, act, sizeof(act))) {
			refuse(&x, &r, "a seccomp action", "the rule's action is none kafel has");
			break;
		}
		if (r.has_number && last - first >= 64) {
			refuse(&x, &r, "kafel names numbers one by one: SYSCALL[n]",
			       "a rule on %s numbers", "too many");
			break;
		}
		if (!open || r.action != cur) {
			strbuf_appendf(&sb, "%s  %s {\n", open ? "\n  },\n" : "", act);
			open = true;
			cur = r.action;
		} else {
			strbuf_append(&sb, ",\n");
		}
		for (uint64_t nr = first; nr <= last && !x.err; nr++) {
			char name[32];
			if (r.has_number)
				snprintf(name, sizeof(name), "SYSCALL[%u]", (unsigned)nr);
			if (nr > first)
				strbuf_append(&sb, ",\n");
			put_filter(&x, &sb, &r, r.has_number ? name : r.syscall);
			if (!r.has_number)
				break;
		}
	}
	if (open)
		strbuf_append(&sb, "\n  }\n");
	action_text(scg_policy_default(policy), act, sizeof(act));
	strbuf_appendf(&sb, "}\nUSE syscage DEFAULT %s\n", act);
	if (x.err) {
		strbuf_release(&sb);
		return x.err;
	}
	return strbuf_finish(&sb, text);
}
