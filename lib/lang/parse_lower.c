/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From the syntax tree to struct scg_policy.
 *
 * Everything that depends on the ABI is resolved per target ABI: syscall
 * numbers, constants (O_DIRECT differs on ARM), errno names (MIPS and
 * PA-RISC number them differently) and parameter widths (an int is 32 bits
 * everywhere, a long as wide as the registers).  A statement whose meaning
 * is the same on every target ABI becomes one rule per syscall; where it
 * differs, the rule is split into one rule per group of ABIs that agree,
 * each restricted to them with arch_mask.  A value this project does not
 * know on some target ABI is an error, never a guess.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>

#include "lang/lang_internal.h"
#include "lang/parse.h"
#include "util/grow.h"
#include "util/hashmap.h"

struct lowering {
	struct parse_ctx *ctx;
	struct scg_policy *policy;
	const struct scg_arch *targets[LANG_MAX_ARCHES];
	size_t ntargets;
	/* The policy's own `arch` statement chose the targets (not the native
	 * default, not the caller): only then is an `on` list that names none of
	 * them a likely mistake rather than a rule for another host. */
	bool targets_from_policy;
	struct shadow_index *shadow;
};

/*
 * Members of one @group in a statement: how many became rules, how many of
 * those earlier rules always decide.  Only a group that is dead as a whole
 * is reported: allowing a group after denying some of its members is the
 * usual way to write exceptions.
 */
struct group_note {
	unsigned total, dead;
	struct scg_loc by;
};

/* One statement being lowered. */
struct stmt {
	struct lowering *lw;
	const struct urule *rule;
	bool failed; /* an error was reported: stop this statement */
	bool warned_sign, warned_never;
	struct group_note *notes; /* one per item of the rule */
};

/* One (syscall, ABI) pair of a statement. */
struct env {
	struct stmt *st;
	const struct scg_arch *arch;
	const char *syscall; /* NULL for a raw number */
};

static void format_targets(const struct lowering *lw, uint32_t bits, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < lw->ntargets && used < size; i++) {
		if (!(bits & (1u << i)))
			continue;
		int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
				 scg_arch_name(lw->targets[i]));
		used += n > 0 ? (size_t)n : 0;
	}
}

/* --- values ------------------------------------------------------------------- */

/* The constant family of the operand being compared (lang_internal.h), or NULL.  Worked
 * out only for an error: every comparison a policy reads would pay for it otherwise. */
static const char *compared_family(const struct parse_ctx *ctx)
{
	const char *param = ctx->compared.param;
	if (!ctx->compared.syscall)
		return NULL;
	if (ctx->compared.arg >= 0) {
		const struct scg_syscall_params *p = scg_syscall_params(ctx->compared.syscall);
		param = p && ctx->compared.arg < p->count ? p->params[ctx->compared.arg].name : NULL;
	}
	return constant_family(ctx->compared.syscall, param, NULL);
}

static void constant_error(struct parse_ctx *ctx, const struct uval *v, const struct scg_arch *arch,
			   int r)
{
	if (r == -ENODATA) {
		lang_diag(ctx, SCG_SEV_ERROR, v->loc, "constant-abi",
			  "write the number, or restrict the rule to other ABIs with `on`",
			  "the value of %s on %s is not known to syscage", v->name,
			  arch ? scg_arch_name(arch) : "this ABI");
		return;
	}
	const char *best = constant_suggest_in(v->name, compared_family(ctx));
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	lang_diag(ctx, SCG_SEV_ERROR, v->loc, "unknown-constant", best ? hint : NULL,
		  "unknown constant '%s'", v->name);
}

int lang_eval_value(struct parse_ctx *ctx, const struct uval *v, const struct scg_arch *arch,
		    uint64_t *out)
{
	uint64_t a, b;
	int r;
	switch (v->kind) {
	case UV_NUMBER:
		*out = v->number;
		return 0;
	case UV_NAME:
		r = constant_value(v->name, arch, out);
		if (r < 0)
			constant_error(ctx, v, arch, r);
		return r < 0 ? -EINVAL : 0;
	case UV_OR:
		if (lang_eval_value(ctx, v->left, arch, &a) < 0 ||
		    lang_eval_value(ctx, v->right, arch, &b) < 0)
			return -EINVAL;
		*out = a | b;
		return 0;
	case UV_NOT:
		if (lang_eval_value(ctx, v->left, arch, &a) < 0)
			return -EINVAL;
		*out = ~a;
		return 0;
	}
	return -EINVAL;
}

/* --- actions ------------------------------------------------------------------ */

static int errno_value(struct parse_ctx *ctx, const struct uval *v, const struct scg_arch *arch,
		       uint64_t *out)
{
	if (v->kind != UV_NAME)
		return lang_eval_value(ctx, v, arch, out);
	uint32_t e;
	if (scg_errno_lookup(arch, v->name, &e) == 0) {
		*out = e;
		return 0;
	}
	const char *best = scg_errno_suggest(v->name);
	char hint[96];
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	lang_diag(ctx, SCG_SEV_ERROR, v->loc, "unknown-errno", best ? hint : "write a number",
		  "unknown errno '%s'", v->name);
	return -EINVAL;
}

static bool action_data(struct parse_ctx *ctx, const struct uaction *a, const struct scg_arch *arch,
			uint32_t *data)
{
	uint64_t v = 0;
	uint64_t max = a->kind == UA_RAW ? 0xffffffffu : 0xffffu;
	int r = 0;
	if (a->data)
		r = a->kind == UA_ERRNO ? errno_value(ctx, a->data, arch, &v)
					: lang_eval_value(ctx, a->data, arch, &v);
	if (r < 0)
		return false;
	if (v > max) {
		/* decimal, as errno values are written; the field and its range named */
		const char *word = a->kind == UA_ERRNO ? "errno"
				   : a->kind == UA_TRAP	 ? "trap"
				   : a->kind == UA_TRACE ? "trace"
							 : "action";
		lang_diag(ctx, SCG_SEV_ERROR, a->data->loc, "value-range",
			  a->kind == UA_ERRNO ? "errno values above 4095 reach the program as 4095"
					      : NULL,
			  "%s %llu is out of range: %s holds 0..%llu", word, (unsigned long long)v,
			  a->kind == UA_RAW ? "a seccomp return value" : "SECCOMP_RET_DATA",
			  (unsigned long long)max);
		return false;
	}
	*data = (uint32_t)v;
	return true;
}

static bool resolve_action(struct parse_ctx *ctx, const struct uaction *a,
			   const struct scg_arch *arch, uint32_t *ret)
{
	uint32_t data = 0;
	if (!action_data(ctx, a, arch, &data))
		return false;
	switch (a->kind) {
	case UA_ALLOW:
		*ret = SCG_RET_ALLOW;
		break;
	case UA_KILL_PROCESS:
		*ret = SCG_RET_KILL_PROCESS;
		break;
	case UA_KILL_THREAD:
		*ret = SCG_RET_KILL_THREAD;
		break;
	case UA_LOG:
		*ret = SCG_RET_LOG;
		break;
	case UA_NOTIFY:
		*ret = SCG_RET_USER_NOTIF;
		break;
	case UA_ERRNO:
		*ret = SCG_RET_ERRNO | data;
		break;
	case UA_TRAP:
		*ret = SCG_RET_TRAP | data;
		break;
	case UA_TRACE:
		*ret = SCG_RET_TRACE | data;
		break;
	case UA_RAW:
		*ret = data;
		break;
	}
	return true;
}

static void warn_errno_cap(struct parse_ctx *ctx, const struct uaction *a, uint32_t ret)
{
	if (a->kind == UA_ERRNO && (ret & SCG_RET_DATA) > 4095)
		lang_diag(ctx, SCG_SEV_WARNING, a->data->loc, "value-range", NULL,
			  "the kernel turns errno values above 4095 into 4095");
}

/* --- comparisons --------------------------------------------------------------- */

static bool fits32(uint64_t v)
{
	return v <= 0xffffffffu || v >= UINT64_C(0xffffffff80000000);
}

static bool env_error(struct env *env, struct scg_loc loc, const char *code, const char *hint,
		      const char *msg)
{
	lang_diag(env->st->lw->ctx, SCG_SEV_ERROR, loc, code, hint, "%s", msg);
	env->st->failed = true;
	return false;
}

struct shape {
	unsigned arg;
	unsigned width;	   /* 32 or 64 */
	bool hi;	   /* compare the high word (width 64, shifted) */
	const char *why32; /* why only 32 bits count, for range errors */
	char why_buf[96];
};

static bool param_position(struct env *env, const struct uoperand *op, struct shape *sh);

static bool operand_shape(struct env *env, const struct uoperand *op, struct shape *sh)
{
	sh->width = 64;
	sh->why32 = NULL;
	if (op->arg >= 0)
		sh->arg = (unsigned)op->arg;
	else if (!param_position(env, op, sh))
		return false;
	sh->hi = op->part == PART_HI;
	if (op->part == PART_LO) {
		sh->width = 32;
		sh->why32 = "'.lo' compares the low 32 bits";
	} else if (sh->hi) {
		sh->why32 = "'.hi' compares the high 32 bits";
	}
	return true;
}

static const struct scg_syscall_param *find_param(const struct scg_syscall_params *p,
						  const char *name, unsigned *index)
{
	for (unsigned i = 0; i < p->count && i < 6; i++) {
		if (p->params[i].name[0] && !strcmp(p->params[i].name, name)) {
			*index = i;
			return &p->params[i];
		}
	}
	return NULL;
}

static bool unknown_param(struct env *env, const struct uoperand *op,
			  const struct scg_syscall_params *p)
{
	char hint[192] = "its parameters:";
	size_t used = strlen(hint);
	for (unsigned i = 0; i < p->count && i < 6 && used < sizeof(hint); i++) {
		int n = snprintf(hint + used, sizeof(hint) - used, "%s %s", i ? "," : "",
				 p->params[i].name[0] ? p->params[i].name : "(unnamed)");
		used += n > 0 ? (size_t)n : 0;
	}
	char msg[160];
	snprintf(msg, sizeof(msg), "'%s' has no parameter '%s'", env->syscall, op->param);
	return env_error(env, op->loc, "unknown-parameter",
			 p->count ? hint : "it takes no arguments", msg);
}

static bool param_position(struct env *env, const struct uoperand *op, struct shape *sh)
{
	char msg[192];
	if (!env->syscall)
		return env_error(env, op->loc, "unknown-parameter", "use arg0..arg5",
				 "a syscall given by number has no parameter names");
	const struct scg_syscall_params *p = scg_syscall_params(env->syscall);
	unsigned i;
	const struct scg_syscall_param *param = p ? find_param(p, op->param, &i) : NULL;
	if (!p) {
		snprintf(msg, sizeof(msg), "the parameter names of '%s' are not known",
			 env->syscall);
		return env_error(env, op->loc, "unknown-parameter", "use arg0..arg5", msg);
	}
	if (!param)
		return unknown_param(env, op, p);
	const char *arch = scg_arch_name(env->arch);
	if (!scg_syscall_params_apply(p, env->arch, i)) {
		snprintf(msg, sizeof(msg), "on %s, '%s' of '%s' is not in argument register %u",
			 arch, op->param, env->syscall, i);
		return env_error(env, op->loc, "parameter-abi",
				 "name the register (argN) and restrict the rule with `on`", msg);
	}
	if (param->kind == SCG_PARAM_UNKNOWN) {
		snprintf(msg, sizeof(msg), "the width of '%s' (%s) is not known", op->param,
			 param->type);
		return env_error(env, op->loc, "parameter-width", "compare argN or argN.lo", msg);
	}
	sh->arg = i;
	bool wide = param->kind == SCG_PARAM_64 ||
		    (param->kind == SCG_PARAM_LONG && lang_arch_has_64bit_regs(env->arch));
	sh->width = wide ? 64 : 32;
	if (!wide) {
		snprintf(sh->why_buf, sizeof(sh->why_buf), "'%s' (%s) is 32 bits wide on %s",
			 op->param, param->type, arch);
		sh->why32 = sh->why_buf;
	}
	return true;
}

/* Brings @v to 32 bits (sign-extended negatives are fine), or reports why not. */
static bool narrow(struct env *env, const struct uval *src, const struct shape *sh, uint64_t *v)
{
	if (!fits32(*v)) {
		char msg[96];
		snprintf(msg, sizeof(msg), "%#llx does not fit in 32 bits", (unsigned long long)*v);
		return env_error(env, src->loc, "value-range", sh->why32, msg);
	}
	*v &= 0xffffffffu;
	return true;
}

static bool spelled_negative(const struct uval *v, uint64_t value)
{
	if (v->kind == UV_NUMBER)
		return v->negative;
	return v->kind == UV_NAME && (value >> 63);
}

static void warn_cmp(struct env *env, const struct ucond *c, const struct shape *sh, uint64_t mask,
		     uint64_t value, const struct uval *vsrc)
{
	struct stmt *st = env->st;
	struct parse_ctx *ctx = st->lw->ctx;
	uint64_t wmask = sh->width == 32 ? 0xffffffffu : ~UINT64_C(0);
	if ((c->op == SCG_CMP_EQ || c->op == SCG_CMP_NE) && (value & ~(mask & wmask)) &&
	    !st->warned_never) {
		st->warned_never = true;
		lang_diag(ctx, SCG_SEV_WARNING, vsrc->loc, "never-true", NULL,
			  "%s: the value has bits outside the mask",
			  c->op == SCG_CMP_EQ ? "never true" : "always true");
	}
	if (sh->width == 64 && !sh->hi && c->operand.arg >= 0 && c->operand.part == PART_FULL &&
	    spelled_negative(vsrc, value) && !st->warned_sign) {
		st->warned_sign = true;
		lang_diag(ctx, SCG_SEV_WARNING, vsrc->loc, "sign-extension",
			  "if the parameter is a C int, compare arg.lo or use its parameter name",
			  "a negative value compared over 64 bits matches only sign-extended "
			  "arguments");
	}
}

static struct scg_expr *build_cmp(struct env *env, const struct ucond *c, const struct uval *vsrc,
				  enum scg_cmp_op op)
{
	struct parse_ctx *ctx = env->st->lw->ctx;
	struct shape sh = { .arg = 0 }; /* operand_shape() sets it whenever it returns true */
	uint64_t mask = ~UINT64_C(0), value;
	if (!operand_shape(env, &c->operand, &sh))
		return NULL;
	/* a misspelt constant is matched against the parameter's own family first */
	ctx->compared.syscall = env->syscall;
	ctx->compared.param = c->operand.param;
	ctx->compared.arg = c->operand.arg;
	int r = c->operand.mask ? lang_eval_value(ctx, c->operand.mask, env->arch, &mask) : 0;
	int rv = lang_eval_value(ctx, vsrc, env->arch, &value); /* reported even after the mask's */
	ctx->compared.syscall = NULL;
	if (r < 0 || rv < 0)
		goto fail;
	if (sh.width == 32 || sh.hi) {
		if ((c->operand.mask && !narrow(env, c->operand.mask, &sh, &mask)) ||
		    !narrow(env, vsrc, &sh, &value))
			return NULL;
		mask &= 0xffffffffu;
	}
	if (sh.hi) {
		mask <<= 32;
		value <<= 32;
	}
	struct ucond tmp = *c;
	tmp.op = op;
	warn_cmp(env, &tmp, &sh, mask, value, vsrc);
	struct scg_expr *e = scg_expr_cmp(sh.arg, sh.width, op, mask, value);
	if (!e)
		ctx->arena.failed = true;
	else
		e->loc = c->loc;
	return e;
fail:
	env->st->failed = true;
	return NULL;
}

/* --- conditions ------------------------------------------------------------------ */

static struct scg_expr *balanced(struct scg_expr **list, size_t n, enum scg_expr_kind kind)
{
	if (n == 1)
		return list[0];
	size_t half = n / 2;
	struct scg_expr *l = balanced(list, half, kind);
	struct scg_expr *r = balanced(list + half, n - half, kind);
	return kind == SCG_EXPR_AND ? scg_expr_and(l, r) : scg_expr_or(l, r);
}

static struct scg_expr *build_cond(struct env *env, const struct ucond *c);

/* n operands built by @one, joined by @kind into a balanced tree */
static struct scg_expr *build_many(struct env *env, const struct ucond *c, size_t n,
				   enum scg_expr_kind kind)
{
	struct scg_expr **list = calloc(n, sizeof(*list));
	if (!list) {
		env->st->lw->ctx->arena.failed = true;
		return NULL;
	}
	/* after a reported error the other operands are still checked, so that each
	 * bad name of the condition is reported */
	struct parse_ctx *ctx = env->st->lw->ctx;
	size_t built = 0;
	for (size_t i = 0; i < n && !ctx->arena.failed && !ctx->stopped; i++) {
		if (c->kind == UC_IN)
			list[i] = build_cmp(env, c, c->set[i], c->not_in ? SCG_CMP_NE : SCG_CMP_EQ);
		else
			list[i] = build_cond(env, c->kids[i]);
		built += list[i] != NULL;
	}
	struct scg_expr *e = NULL;
	if (built == n) {
		e = balanced(list, n, kind);
		if (!e)
			ctx->arena.failed = true;
	} else {
		for (size_t i = 0; i < n; i++)
			scg_expr_free(list[i]);
	}
	free(list);
	return e;
}

static struct scg_expr *build_cond(struct env *env, const struct ucond *c)
{
	struct scg_expr *e;
	switch (c->kind) {
	case UC_CMP:
		return build_cmp(env, c, c->value, c->op);
	case UC_IN:
		return build_many(env, c, c->nset, c->not_in ? SCG_EXPR_AND : SCG_EXPR_OR);
	case UC_AND:
		return build_many(env, c, c->nkids, SCG_EXPR_AND);
	case UC_OR:
		return build_many(env, c, c->nkids, SCG_EXPR_OR);
	case UC_NOT:
		e = build_cond(env, c->kids[0]);
		if (!e)
			return NULL;
		e = scg_expr_not(e);
		if (!e)
			env->st->lw->ctx->arena.failed = true;
		return e;
	}
	return NULL;
}

/* --- rules ------------------------------------------------------------------------ */

struct item {
	const char *name; /* NULL for numbers */
	uint32_t number, number_last; /* without a name: number..number_last */
	bool explicit; /* named in the statement (not through a group, not "name?") */
	struct scg_loc loc;
	int group; /* index of the @group in the rule that brought it, or -1 */
};

/* How a message names an item without a name. */
static const char *numbers_of(const struct item *it)
{
	return it->number_last > it->number ? "this range" : "this number";
}

struct variant {
	uint32_t action;
	struct scg_expr *expr;
	uint32_t abis;	    /* bits of lw->targets */
	uint32_t arch_mask; /* SCG_ARCH_BIT_* values (scg_arch_mask_bit()) */
};

/* Resolves the statement on one ABI and adds it to the matching variant. */
static bool lower_on_abi(struct env *env, size_t ti, struct variant *vars, size_t *nvars)
{
	struct stmt *st = env->st;
	uint32_t action;
	if (!resolve_action(st->lw->ctx, &st->rule->action, env->arch, &action)) {
		st->failed = true;
		return false;
	}
	struct scg_expr *e = NULL;
	if (st->rule->cond && !(e = build_cond(env, st->rule->cond)))
		return false;
	int bit = lang_arch_bit(env->arch);
	uint32_t arch_bit = bit >= 0 && bit < LANG_MAX_ARCHES ? 1u << bit : 0;
	for (size_t i = 0; i < *nvars; i++) {
		if (vars[i].action == action &&
		    ((!e && !vars[i].expr) ||
		     (e && vars[i].expr && scg_expr_equal(e, vars[i].expr)))) {
			vars[i].abis |= 1u << ti;
			vars[i].arch_mask |= arch_bit;
			scg_expr_free(e);
			return true;
		}
	}
	vars[(*nvars)++] = (struct variant){action, e, 1u << ti, arch_bit};
	return true;
}

static bool in_scope(const struct urule *rule, const struct scg_arch *arch)
{
	int bit = lang_arch_bit(arch);
	return !rule->has_on ||
	       (bit >= 0 && bit < LANG_MAX_ARCHES && (rule->on_mask & (1u << bit)));
}

static void warn_absent(struct stmt *st, const struct item *it, uint32_t absent, uint32_t scope)
{
	char names[256];
	format_targets(st->lw, absent, names, sizeof(names));
	lang_diag(st->lw->ctx, SCG_SEV_WARNING, it->loc, "absent-syscall",
		  absent == scope ? "check the name and the target ABIs (`arch`)" : NULL,
		  "'%s' does not exist on %s; the rule does not apply there", it->name, names);
}

/* An earlier rule always decides @it (or not): warn, or count it for its @group. */
static void note_shadow(struct stmt *st, const struct item *it, bool dead, const struct scg_loc *by)
{
	if (it->group >= 0) {
		struct group_note *n = &st->notes[it->group];
		n->total++;
		if (dead && n->dead++ == 0)
			n->by = *by;
		return;
	}
	if (!dead)
		return;
	char where[160];
	shadow_where(by, it->loc.file, where, sizeof(where));
	lang_diag(st->lw->ctx, SCG_SEV_WARNING, it->loc, "never-matches",
		  "remove it, or move it before the other rule",
		  "never matches: %s already decides '%s'", where,
		  it->name ? it->name : numbers_of(it));
}

static void report_group_notes(struct stmt *st)
{
	for (size_t i = 0; st->notes && i < st->rule->nitems; i++) {
		const struct group_note *n = &st->notes[i];
		const struct usyscall *g = &st->rule->items[i];
		char where[160];
		if (!n->total || n->dead < n->total)
			continue;
		shadow_where(&n->by, g->loc.file, where, sizeof(where));
		lang_diag(st->lw->ctx, SCG_SEV_WARNING, g->loc, "never-matches",
			  "remove it, or move it before the other rules",
			  "never matches: earlier rules (first %s) decide every syscall of '@%s'",
			  where, g->name);
	}
}

static void emit_variants(struct stmt *st, const struct item *it, struct variant *vars,
			  size_t nvars)
{
	struct lowering *lw = st->lw;
	struct scg_loc by = SCG_LOC_NONE;
	size_t dead = 0;
	for (size_t i = 0; i < nvars; i++) {
		struct scg_rule_spec spec = {
		    .action = vars[i].action,
		    .syscall = it->name,
		    .has_number = !it->name,
		    .number = it->number,
		    .number_last = it->number_last,
		    .arch_mask =
			nvars > 1 ? vars[i].arch_mask : (st->rule->has_on ? st->rule->on_mask : 0),
		    .cond = vars[i].expr,
		    .loc = it->loc,
		};
		vars[i].expr = NULL;
		if (lw->ctx->arena.failed || scg_policy_add_rule(lw->policy, &spec) < 0) {
			scg_expr_free(spec.cond);
			lw->ctx->arena.failed = true;
			continue;
		}
		if (i == 0)
			warn_errno_cap(lw->ctx, &st->rule->action, vars[i].action);
		size_t index = scg_policy_rule_count(lw->policy) - 1;
		int r =
		    shadow_check(lw->shadow, lw->policy, index, vars[i].abis, st->rule->depth, &by);
		if (r < 0)
			lw->ctx->arena.failed = true;
		dead += r == 1;
	}
	if (nvars)
		note_shadow(st, it, dead == nvars, &by);
}

static void lower_item(struct stmt *st, const struct item *it)
{
	struct lowering *lw = st->lw;
	struct variant vars[LANG_MAX_ARCHES];
	size_t nvars = 0;
	uint32_t absent = 0, scope = 0;
	for (size_t ti = 0; ti < lw->ntargets && !st->failed && !lw->ctx->arena.failed; ti++) {
		struct env env = {st, lw->targets[ti], it->name};
		uint32_t nr;
		if (!in_scope(st->rule, env.arch))
			continue;
		scope |= 1u << ti;
		if (it->name && scg_syscall_lookup(env.arch, it->name, &nr) < 0) {
			absent |= 1u << ti;
			continue;
		}
		lower_on_abi(&env, ti, vars, &nvars);
	}
	if (!st->failed && !lw->ctx->arena.failed && it->explicit && absent)
		warn_absent(st, it, absent, scope);
	if (st->failed || lw->ctx->arena.failed) {
		for (size_t i = 0; i < nvars; i++)
			scg_expr_free(vars[i].expr);
		return;
	}
	emit_variants(st, it, vars, nvars);
}

/* --- statements --------------------------------------------------------------------- */

/* The statement's syscalls so far, indexed by name or numbers so that each is listed once. */
struct item_list {
	struct item *items;
	size_t n, cap;
	struct hashmap index; /* item_hash() -> index into items */
};

static uint64_t item_hash(const struct item *it)
{
	return it->name ? hash_str(it->name) : hash_combine(it->number, it->number_last);
}

static bool same_item(const struct item *a, const struct item *b)
{
	return a->name ? b->name && !strcmp(a->name, b->name)
		       : !b->name && a->number == b->number && a->number_last == b->number_last;
}

static bool add_item(struct parse_ctx *ctx, struct item_list *l, struct item it)
{
	uint64_t hash = item_hash(&it), i;
	/* the index holds positions below l->n only */
	for (size_t pos = HASHMAP_START; l->n && hashmap_next(&l->index, hash, &pos, &i);) {
		if (!same_item(&l->items[i], &it))
			continue;
		if (it.explicit && l->items[i].explicit)
			lang_diag(ctx, SCG_SEV_WARNING, it.loc, "duplicate", NULL,
				  "'%s' is listed twice", it.name ? it.name : numbers_of(&it));
		return true;
	}
	if (GROW_ARRAY(&l->items, &l->cap, l->n + 1, 16) || hashmap_add(&l->index, hash, l->n) < 0)
		return false;
	l->items[l->n++] = it;
	return true;
}

/* The statement's syscalls, groups expanded, each once. */
static struct item *expand_items(struct parse_ctx *ctx, const struct urule *rule, size_t *count)
{
	struct item_list l = { NULL, 0, 0, HASHMAP_INIT };
	bool ok = true;
	for (size_t i = 0; ok && i < rule->nitems; i++) {
		const struct usyscall *u = &rule->items[i];
		if (u->kind != US_GROUP) {
			struct item it = {u->kind == US_NAME ? u->name : NULL, u->number,
					  u->number_last, !u->optional, u->loc, -1};
			ok = add_item(ctx, &l, it);
			continue;
		}
		const struct group_entry *g = group_find(u->name);
		for (size_t j = 0; ok && g && j < g->count; j++)
			ok = add_item(
			    ctx, &l,
			    (struct item){group_member_at(g, j), 0, 0, false, u->loc, (int)i});
	}
	hashmap_release(&l.index);
	if (!ok) {
		free(l.items);
		ctx->arena.failed = true;
		return NULL;
	}
	*count = l.n;
	return l.items;
}

static void lower_rule(struct lowering *lw, const struct urule *rule)
{
	struct stmt st = {lw, rule, false, false, false, NULL};
	uint32_t scope = 0;
	for (size_t ti = 0; ti < lw->ntargets; ti++)
		scope |= in_scope(rule, lw->targets[ti]) ? 1u << ti : 0;
	if (!scope && lw->ntargets) {
		if (lw->targets_from_policy)
			lang_diag(lw->ctx, SCG_SEV_WARNING, rule->loc, "no-target", NULL,
				  "the rule applies to none of the target ABIs");
		return;
	}
	size_t n = 0;
	struct item *items = expand_items(lw->ctx, rule, &n);
	st.notes = calloc(rule->nitems, sizeof(*st.notes));
	if (!st.notes)
		lw->ctx->arena.failed = true;
	for (size_t i = 0; items && st.notes && i < n && !st.failed && !lw->ctx->stopped; i++)
		lower_item(&st, &items[i]);
	if (!st.failed)
		report_group_notes(&st);
	free(st.notes);
	free(items);
}

/* --- settings and targets -------------------------------------------------------------- */

static int choose_targets(struct lowering *lw)
{
	const struct scg_policy_source_options *opts = lw->ctx->opts;
	int r = 0;
	if (opts && opts->arches) {
		for (size_t i = 0; r == 0 && i < opts->narches; i++)
			if (opts->arches[i])
				r = scg_policy_add_arch(lw->policy, opts->arches[i]);
	} else if (lw->ctx->arch.set) {
		lw->targets_from_policy = true;
		for (size_t i = 0; r == 0 && i < lw->ctx->arch.count; i++)
			r = scg_policy_add_arch(lw->policy, lw->ctx->arch.arches[i]);
	} else {
		r = scg_policy_add_native_arches(lw->policy);
	}
	lw->ntargets = 0;
	for (size_t i = 0; i < scg_policy_arch_count(lw->policy) && i < LANG_MAX_ARCHES; i++)
		lw->targets[lw->ntargets++] = scg_policy_arch_at(lw->policy, i);
	return r == -E2BIG ? -EINVAL : r;
}

/* A setting is one value for every target ABI. */
static bool setting_action(struct lowering *lw, const struct usetting *s, const char *what,
			   uint32_t *ret)
{
	if (!lw->ntargets)
		return resolve_action(lw->ctx, &s->action, NULL, ret);
	uint32_t first = 0;
	for (size_t i = 0; i < lw->ntargets; i++) {
		uint32_t v;
		if (!resolve_action(lw->ctx, &s->action, lw->targets[i], &v))
			return false;
		if (i == 0) {
			first = v;
		} else if (v != first) {
			const struct uval *d = s->action.data;
			lang_diag(lw->ctx, SCG_SEV_ERROR, d ? d->loc : s->loc, "constant-abi",
				  "write the number: a setting holds one value for all target ABIs",
				  "'%s' would be %u on %s but %u on %s", what, first & SCG_RET_DATA,
				  scg_arch_name(lw->targets[0]), v & SCG_RET_DATA,
				  scg_arch_name(lw->targets[i]));
			return false;
		}
	}
	*ret = first;
	warn_errno_cap(lw->ctx, &s->action, first);
	return true;
}

/* A setting's value, its diagnostics placed at its statement; false when unset or wrong. */
static bool setting_value(struct lowering *lw, const struct usetting *s, const char *what,
			  uint32_t *ret)
{
	if (!s->set)
		return false;
	lw->ctx->stmt = s->stmt;
	return setting_action(lw, s, what, ret);
}

static void apply_settings(struct lowering *lw)
{
	uint32_t v;
	/* where each was written goes with it (for lint and explain; no verdict depends on it,
	 * so running out of memory for the file name only loses the place) */
	if (setting_value(lw, &lw->ctx->def, "default", &v)) {
		scg_policy_set_default(lw->policy, v);
		(void)scg_policy_set_setting_loc(lw->policy, SCG_SETTING_DEFAULT, lw->ctx->def.loc);
	}
	if (setting_value(lw, &lw->ctx->badarch, "badarch", &v)) {
		scg_policy_set_badarch(lw->policy, v);
		(void)scg_policy_set_setting_loc(lw->policy, SCG_SETTING_BADARCH,
						 lw->ctx->badarch.loc);
	}
	if (setting_value(lw, &lw->ctx->unknown, "unknown", &v)) {
		scg_policy_set_unknown(lw->policy, v);
		(void)scg_policy_set_setting_loc(lw->policy, SCG_SETTING_UNKNOWN,
						 lw->ctx->unknown.loc);
	}
}

int lang_lower(struct parse_ctx *ctx, struct scg_policy *policy)
{
	struct lowering lw = {.ctx = ctx, .policy = policy};
	int r = choose_targets(&lw);
	if (r < 0)
		return r;
	if (!(lw.shadow = shadow_index_new()))
		return -ENOMEM;
	apply_settings(&lw);
	for (size_t i = 0; i < ctx->nrules && !ctx->stopped && !ctx->arena.failed; i++) {
		ctx->stmt = ctx->rules[i].stmt; /* its diagnostics go with its parse's */
		lower_rule(&lw, &ctx->rules[i]);
	}
	shadow_index_free(lw.shadow);
	if (ctx->arena.failed)
		return -ENOMEM;
	return ctx->errors || ctx->stopped ? -EINVAL : 0;
}
