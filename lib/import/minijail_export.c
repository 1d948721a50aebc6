/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies as minijail seccomp policies.  A minijail line says, for one
 * syscall, when it is allowed (a disjunction of conjunctions of argument
 * tests) and what the other calls get (one action; the default kills the
 * process).  The policy is read by its meaning, syscall by syscall: the
 * rules that can decide a call are folded into "allowed when E, else F",
 * E is put in disjunctive normal form (negations pushed into the tests),
 * and each test is written as minijail has it.  A policy whose default
 * allows is written as a @denylist one: each line says when the call gets
 * its errno instead.  What that cannot say (two verdicts besides allow for
 * one syscall, tests minijail has no operator for, a default other than
 * kill or allow, an action other than an errno in a denylist) is refused
 * with the rule that says it.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>

#include "util/strbuf.h"

#define DNF_MAX_TERMS 64
#define DNF_MAX_ATOMS 32

struct atom {
	unsigned arg, width;
	enum scg_cmp_op op;
	uint64_t mask, value;
};

struct term {
	struct atom a[DNF_MAX_ATOMS];
	size_t n;
};

/* A disjunction of terms; no terms is false, one empty term is true. */
struct dnf {
	struct term *t;
	size_t n;
	bool too_big, nomem;
};

static void dnf_free(struct dnf *d)
{
	free(d->t);
	*d = (struct dnf){0};
}

static struct dnf dnf_const(bool value)
{
	struct dnf d = {0};
	if (value) {
		d.t = calloc(1, sizeof(*d.t));
		d.n = d.t ? 1 : 0;
		d.nomem = !d.t;
	}
	return d;
}

static enum scg_cmp_op negate(enum scg_cmp_op op)
{
	switch (op) {
	case SCG_CMP_EQ:
		return SCG_CMP_NE;
	case SCG_CMP_NE:
		return SCG_CMP_EQ;
	case SCG_CMP_LT:
		return SCG_CMP_GE;
	case SCG_CMP_LE:
		return SCG_CMP_GT;
	case SCG_CMP_GT:
		return SCG_CMP_LE;
	case SCG_CMP_GE:
		return SCG_CMP_LT;
	}
	return op;
}

static struct dnf dnf_or(struct dnf a, struct dnf b)
{
	struct dnf d = {.too_big = a.too_big || b.too_big, .nomem = a.nomem || b.nomem};
	if (!d.too_big && !d.nomem && a.n + b.n > DNF_MAX_TERMS)
		d.too_big = true;
	if (!d.too_big && !d.nomem && a.n + b.n) {
		d.t = malloc((a.n + b.n) * sizeof(*d.t));
		d.nomem = !d.t;
		if (d.t) {
			if (a.n)
				memcpy(d.t, a.t, a.n * sizeof(*d.t));
			if (b.n)
				memcpy(d.t + a.n, b.t, b.n * sizeof(*d.t));
			d.n = a.n + b.n;
		}
	}
	dnf_free(&a);
	dnf_free(&b);
	return d;
}

static struct dnf dnf_and(struct dnf a, struct dnf b)
{
	struct dnf d = {.too_big = a.too_big || b.too_big, .nomem = a.nomem || b.nomem};
	if (!d.too_big && !d.nomem && a.n * b.n > DNF_MAX_TERMS)
		d.too_big = true;
	if (!d.too_big && !d.nomem && a.n && b.n) {
		d.t = malloc(a.n * b.n * sizeof(*d.t));
		d.nomem = !d.t;
		for (size_t i = 0; d.t && i < a.n; i++)
			for (size_t j = 0; j < b.n; j++) {
				struct term *t = &d.t[d.n++];
				if (a.t[i].n + b.t[j].n > DNF_MAX_ATOMS) {
					d.too_big = true;
					t->n = 0;
					continue;
				}
				*t = a.t[i];
				memcpy(t->a + t->n, b.t[j].a, b.t[j].n * sizeof(t->a[0]));
				t->n += b.t[j].n;
			}
	}
	dnf_free(&a);
	dnf_free(&b);
	return d;
}

/* @e (negated with @neg) in disjunctive normal form; NULL is true. */
static struct dnf to_dnf(const struct scg_expr *e, bool neg)
{
	if (!e)
		return dnf_const(!neg);
	switch (e->kind) {
	case SCG_EXPR_CMP: {
		struct dnf d = dnf_const(true);
		if (d.n) {
			d.t[0].a[0] = (struct atom){e->arg, e->width, neg ? negate(e->op) : e->op,
						    e->mask, e->value};
			d.t[0].n = 1;
		}
		return d;
	}
	case SCG_EXPR_NOT:
		return to_dnf(e->left, !neg);
	case SCG_EXPR_AND:
		return neg ? dnf_or(to_dnf(e->left, true), to_dnf(e->right, true))
			   : dnf_and(to_dnf(e->left, false), to_dnf(e->right, false));
	case SCG_EXPR_OR:
		return neg ? dnf_and(to_dnf(e->left, true), to_dnf(e->right, true))
			   : dnf_or(to_dnf(e->left, false), to_dnf(e->right, false));
	}
	return dnf_const(false);
}

/* --- writing ------------------------------------------------------------------ */

struct exporter {
	const struct scg_policy *p;
	const struct scg_arch *abi;
	struct scg_diag *diag;
	bool denylist; /* the default allows: written as a @denylist policy */
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
	scg_diag_vadd(x->diag, SCG_SEV_ERROR, rule ? rule->loc : SCG_LOC_NONE, "minijail-export", hint, fmt,
		      ap);
	va_end(ap);
}

static void put_value(struct strbuf *sb, uint64_t v)
{
	if (v < 10)
		strbuf_appendf(sb, "%llu", (unsigned long long)v);
	else
		strbuf_appendf(sb, "0x%llx", (unsigned long long)v);
}

static bool single_bit(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* One test as minijail writes it, or false. */
static bool put_atom(struct strbuf *sb, const struct atom *a)
{
	static const char ops[][3] = {"==", "!=", "<", "<=", ">", ">="};
	uint64_t full = a->width == 32 ? 0xffffffffULL : UINT64_MAX;
	if (a->mask == full && a->width == 64) {
		strbuf_appendf(sb, "arg%u %s ", a->arg, ops[a->op]);
		put_value(sb, a->value);
		return true;
	}
	/* (arg & M) == 0: no flag of M, i.e. arg in ~M; (arg & M) != 0: arg & M */
	bool zero = a->value == 0 && (a->op == SCG_CMP_EQ || a->op == SCG_CMP_NE);
	bool bit = single_bit(a->mask) && a->value == a->mask &&
		   (a->op == SCG_CMP_EQ || a->op == SCG_CMP_NE);
	if (!zero && !bit)
		return false;
	bool set = (a->op == SCG_CMP_NE) == zero;
	uint64_t mask = a->mask & full;
	if (set) {
		strbuf_appendf(sb, "arg%u & ", a->arg);
		put_value(sb, mask);
	} else {
		strbuf_appendf(sb, "arg%u in ", a->arg);
		put_value(sb, ~mask);
	}
	return true;
}

static const char *action_word(uint32_t action, char *buf, size_t size)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_ALLOW:
		return "allow";
	case SCG_ACTION_KILL_PROCESS:
		return "kill";
	case SCG_ACTION_KILL_THREAD:
		return "kill-thread";
	case SCG_ACTION_TRAP:
		return action & SCG_RET_DATA ? NULL : "trap";
	case SCG_ACTION_TRACE:
		return action & SCG_RET_DATA ? NULL : "trace";
	case SCG_ACTION_LOG:
		return "log";
	case SCG_ACTION_USER_NOTIF:
		return "user-notify";
	case SCG_ACTION_ERRNO:
		snprintf(buf, size, "return %u", action & SCG_RET_DATA);
		return buf;
	case SCG_ACTION_UNKNOWN:
		break;
	}
	return NULL;
}

/* The rules that can decide number @nr, in order, up to the first unconditional one. */
struct chain {
	size_t idx[256];
	size_t n;
	bool tail;	  /* the last one is unconditional */
	uint32_t final; /* its action, or the default */
};

static bool chain_of(const struct exporter *x, uint32_t nr, struct chain *ch)
{
	ch->n = 0;
	ch->tail = false;
	ch->final = scg_policy_default(x->p);
	for (size_t i = 0; i < scg_policy_rule_count(x->p); i++) {
		uint32_t first, last;
		if (scg_policy_rule_range(x->p, i, x->abi, &first, &last) < 0 || nr < first ||
		    nr > last)
			continue;
		if (ch->n == sizeof(ch->idx) / sizeof(ch->idx[0]))
			return false;
		ch->idx[ch->n++] = i;
		struct scg_rule r;
		scg_policy_rule_at(x->p, i, &r);
		if (!r.cond) {
			ch->tail = true;
			ch->final = r.action;
			break;
		}
	}
	return true;
}

/*
 * The calls of the chain that get ALLOW (@allowed) or its other verdict:
 * where a rule giving it matches and no earlier rule giving the other one
 * did.
 */
static struct dnf verdict_dnf(const struct exporter *x, const struct chain *ch, bool allowed)
{
	struct dnf d = dnf_const(false);
	const struct scg_expr *earlier[257];
	size_t nearlier = 0;
	for (size_t i = 0; i < ch->n || (!ch->tail && i == ch->n); i++) {
		const struct scg_expr *cond = NULL;
		uint32_t act = ch->final;
		if (i < ch->n) {
			struct scg_rule r;
			scg_policy_rule_at(x->p, ch->idx[i], &r);
			cond = r.cond;
			act = r.action;
		}
		if ((act == SCG_RET_ALLOW) != allowed) {
			earlier[nearlier++] = cond;
			continue;
		}
		struct dnf term = to_dnf(cond, false);
		for (size_t j = 0; j < nearlier; j++)
			term = dnf_and(term, to_dnf(earlier[j], true));
		d = dnf_or(d, term);
	}
	return d;
}

/* The line for number @nr (called @name), or nothing when the default decides it. */
static void write_line(struct exporter *x, struct strbuf *sb, const char *name, uint32_t nr)
{
	struct chain ch;
	if (!chain_of(x, nr, &ch)) {
		refuse(x, NULL, "fewer rules per syscall", "too many rules decide '%s'", name);
		return;
	}
	if (ch.n == 0)
		return;
	struct scg_rule first;
	scg_policy_rule_at(x->p, ch.idx[0], &first);
	/* one action besides allow: what the calls the filter does not allow get */
	uint32_t other = 0;
	bool has_other = false, has_allow = false;
	for (size_t i = 0; i <= ch.n; i++) {
		struct scg_rule r;
		uint32_t act = ch.final;
		if (i < ch.n) {
			scg_policy_rule_at(x->p, ch.idx[i], &r);
			act = r.action;
		} else if (ch.tail) {
			break;
		}
		if (act == SCG_RET_ALLOW) {
			has_allow = true;
		} else if (has_other && act != other) {
			refuse(x, i < ch.n ? &r : &first,
			       "minijail gives a syscall's other calls one action",
			       "'%s' gets two verdicts besides allow", name);
			return;
		} else {
			other = act;
			has_other = true;
		}
	}
	char buf[32];
	if (x->denylist && has_other && scg_action_of(other) != SCG_ACTION_ERRNO) {
		refuse(x, &first, "a policy whose default allows is written as a @denylist one, "
				  "whose lines return errnos",
		       "'%s' gets a verdict other than an errno or allow", name);
		return;
	}
	if (x->denylist && !has_other)
		return; /* allowed, as the default */
	if (!has_allow || !has_other) {
		uint32_t act = has_allow ? SCG_RET_ALLOW : other;
		const char *w = action_word(act, buf, sizeof(buf));
		if (!w)
			refuse(x, &first, "minijail's actions: allow, return ERRNO, kill, "
					  "kill-thread, trap, trace, log, user-notify",
			       "'%s' gets an action minijail cannot write", name);
		else if (act != SCG_RET_KILL_PROCESS || ch.tail)
			strbuf_appendf(sb, "%s: %s\n", name, act == SCG_RET_ALLOW ? "1" : w);
		return;
	}
	/* a denylist line says when the call is refused, an allow list's when it is allowed */
	struct dnf allow = verdict_dnf(x, &ch, !x->denylist);
	bool always = false;
	for (size_t i = 0; i < allow.n; i++)
		always = always || allow.t[i].n == 0;
	if (always && !allow.too_big && !allow.nomem) {
		strbuf_appendf(sb, "%s: %s\n", name,
			       x->denylist ? action_word(other, buf, sizeof(buf)) : "1");
		dnf_free(&allow);
		return;
	}
	if (x->denylist && !allow.n && !allow.too_big && !allow.nomem) { /* never refused */
		dnf_free(&allow);
		return;
	}
	if (allow.nomem) {
		x->err = -ENOMEM;
	} else if (allow.too_big) {
		refuse(x, &first, "minijail writes conditions in disjunctive normal form",
		       "the conditions for '%s' are too large written out", name);
	} else {
		const char *w = action_word(other, buf, sizeof(buf));
		struct strbuf line = STRBUF_INIT;
		strbuf_appendf(&line, "%s: ", name);
		bool ok = w != NULL;
		if (!ok)
			refuse(x, &first, "minijail's actions: return ERRNO, kill, kill-thread, "
					  "trap, trace, log, user-notify",
			       "'%s' gets an action minijail cannot write", name);
		for (size_t i = 0; ok && i < allow.n; i++) {
			if (i)
				strbuf_append(&line, " || ");
			for (size_t j = 0; ok && j < allow.t[i].n; j++) {
				if (j)
					strbuf_append(&line, " && ");
				ok = put_atom(&line, &allow.t[i].a[j]);
			}
		}
		if (ok && allow.n == 0) /* never allowed */
			strbuf_appendf(&line, "%s", w);
		else if (ok && (other != SCG_RET_KILL_PROCESS || x->denylist))
			strbuf_appendf(&line, "; %s", w);
		if (!ok && w)
			refuse(x, &first,
			       "minijail tests ==, !=, <, <=, >, >= on the whole argument, "
			       "& (a flag set) and in (flags within a mask)",
			       "a condition on '%s' has a test minijail cannot write", name);
		char *text = NULL;
		if (!ok) {
			strbuf_release(&line);
		} else if (strbuf_finish(&line, &text) < 0) {
			x->err = -ENOMEM; /* never a policy without the line */
		} else {
			strbuf_appendf(sb, "%s\n", text);
			free(text);
		}
	}
	dnf_free(&allow);
}

/* Whether some rule that can decide number @nr gives it a verdict other than allow. */
static bool refused_somewhere(const struct exporter *x, uint32_t nr)
{
	struct chain ch;
	if (!chain_of(x, nr, &ch))
		return true;
	bool refused = !ch.tail && ch.final != SCG_RET_ALLOW;
	for (size_t i = 0; i < ch.n && !refused; i++) {
		struct scg_rule r;
		scg_policy_rule_at(x->p, ch.idx[i], &r);
		refused = r.action != SCG_RET_ALLOW;
	}
	return refused;
}

int scg_minijail_export(const struct scg_policy *policy, char **text, struct scg_diag *diag)
{
	*text = NULL;
	struct exporter x = {.p = policy, .diag = diag};
	if (scg_policy_arch_count(policy) != 1) {
		refuse(&x, NULL, scg_hint_text(SCG_HINT_ONE_ARCH),
		       "minijail filters one ABI; the policy targets %s",
		       scg_policy_arch_count(policy) ? "several" : "none");
		return x.err;
	}
	x.abi = scg_policy_arch_at(policy, 0);
	uint32_t u, fallback = scg_policy_default(policy);
	x.denylist = fallback == SCG_RET_ALLOW;
	if (fallback != SCG_RET_KILL_PROCESS && !x.denylist)
		refuse(&x, NULL, "write 'default kill-process', or 'default allow' for a @denylist policy",
		       "minijail kills the process for every call no line allows");
	if (scg_policy_badarch(policy) != SCG_RET_KILL_PROCESS)
		refuse(&x, NULL, "write 'badarch kill-process'",
		       "minijail kills the process for calls of other ABIs");
	if (scg_policy_unknown(policy, &u) && u != fallback)
		refuse(&x, NULL, "minijail gives unknown numbers the default",
		       "the 'unknown' verdict is not the default");
	struct strbuf sb = STRBUF_INIT;
	strbuf_appendf(&sb, "# written by syscage compile --format minijail (%s)\n%s",
			   scg_arch_name(x.abi), x.denylist ? "@denylist\n" : "");
	for (size_t i = 0; i < scg_syscall_count(x.abi) && !x.err; i++) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(x.abi, i, &name, &nr) == 0)
			write_line(&x, &sb, name, nr);
	}
	/* numbers the ABI's table has no name for, by number */
	for (size_t i = 0; i < scg_policy_rule_count(policy) && !x.err; i++) {
		struct scg_rule r;
		uint32_t first, last;
		scg_policy_rule_at(policy, i, &r);
		if (!r.has_number || scg_policy_rule_range(policy, i, x.abi, &first, &last) < 0)
			continue;
		if (last - first > 4096) {
			refuse(&x, &r, "minijail names syscalls one by one",
			       "a rule on %s numbers", "too many");
			break;
		}
		for (uint64_t nr = first; nr <= last && !x.err; nr++) {
			bool earlier = false;
			for (size_t j = 0; j < i && !earlier; j++) {
				struct scg_rule o;
				uint32_t f, l;
				scg_policy_rule_at(policy, j, &o);
				earlier = o.has_number &&
					  scg_policy_rule_range(policy, j, x.abi, &f, &l) == 0 &&
					  nr >= f && nr <= l;
			}
			char num[16];
			snprintf(num, sizeof(num), "%u", (unsigned)nr);
			if (scg_syscall_name(x.abi, (uint32_t)nr) || earlier)
				continue;
			if (x.denylist && refused_somewhere(&x, (uint32_t)nr))
				/* minijail's compiler, the one with @denylist, takes names only */
				refuse(&x, &r, "a @denylist policy names its syscalls",
				       "a rule on number %s, which has no name", num);
			else if (!x.denylist)
				write_line(&x, &sb, num, (uint32_t)nr);
		}
	}
	if (x.err) {
		strbuf_release(&sb);
		return x.err;
	}
	return strbuf_finish(&sb, text);
}
