/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Adding rules: validation, per-ABI resolution (pseudo numbers, multiplexed
 * socketcall/ipc), libseccomp's rules for overlapping rules, priorities and
 * transactions.  Every change is all-or-nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "libseccomp/rule_tree.h"

void compat_rules_release(struct compat_rules *rules)
{
	free(rules->v);
	memset(rules, 0, sizeof(*rules));
}

int compat_rules_append(struct compat_rules *rules, const struct compat_rule *rule)
{
	if (rules->n == rules->cap) {
		size_t cap = rules->cap ? rules->cap * 2 : 16;
		struct compat_rule *v = rules->cap > SIZE_MAX / 2 ? NULL
					: reallocarray(rules->v, cap, sizeof(*v));
		if (v == NULL)
			return -ENOMEM;
		rules->v = v;
		rules->cap = cap;
	}
	rules->v[rules->n++] = *rule;
	return 0;
}

int compat_rules_copy(struct compat_rules *dst, const struct compat_rules *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		if (compat_rules_append(dst, &src->v[i]) < 0) {
			compat_rules_release(dst);
			return -ENOMEM;
		}
	return 0;
}

static void rules_remove(struct compat_rules *rules, size_t index)
{
	memmove(&rules->v[index], &rules->v[index + 1],
		(rules->n - index - 1) * sizeof(rules->v[0]));
	rules->n--;
}

void compat_rules_drop_arch(struct compat_rules *rules, const struct scg_arch *arch)
{
	size_t i = 0;
	while (i < rules->n)
		if (rules->v[i].arch == arch)
			rules_remove(rules, i);
		else
			i++;
}

/* --- overlapping rules ------------------------------------------------------ */

static bool cmp_equal(const struct compat_cmp *x, const struct compat_cmp *y)
{
	return x->arg == y->arg && x->op == y->op && x->a == y->a &&
	       (x->op != SCMP_CMP_MASKED_EQ || x->b == y->b);
}

/* Every comparison of @small is also one of @big. */
static bool cmps_subset(const struct compat_rule *small, const struct compat_rule *big)
{
	for (unsigned i = 0; i < small->ncmp; i++) {
		bool found = false;
		for (unsigned j = 0; j < big->ncmp && !found; j++)
			found = cmp_equal(&small->cmp[i], &big->cmp[j]);
		if (!found)
			return false;
	}
	return true;
}

/* @a's comparisons begin @b's (both sorted by argument). */
static bool cmps_prefix(const struct compat_rule *a, const struct compat_rule *b)
{
	if (a->ncmp > b->ncmp)
		return false;
	for (unsigned i = 0; i < a->ncmp; i++)
		if (!cmp_equal(&a->cmp[i], &b->cmp[i]))
			return false;
	return true;
}

/* @e as libseccomp's db takes it. */
static struct libseccomp_rule tree_rule(const struct compat_rule *e)
{
	struct libseccomp_rule r = { .action = e->action, .ncmp = e->ncmp };
	for (unsigned k = 0; k < e->ncmp; k++)
		r.cmp[k] = (struct libseccomp_cmp){ e->cmp[k].arg, (enum libseccomp_op)e->cmp[k].op,
						    e->cmp[k].a, e->cmp[k].b };
	return r;
}

int compat_rules_tree(const struct compat_rules *rules, const struct scg_arch *arch, uint32_t nr,
		      const struct compat_rule *extra, struct libseccomp_tree **out)
{
	*out = libseccomp_tree_new(scg_arch_bits(arch));
	if (*out == NULL)
		return -ENOMEM;
	int rc = 0;
	for (size_t i = 0; rc != -ENOMEM && i <= rules->n; i++) {
		const struct compat_rule *e = i < rules->n ? &rules->v[i] : extra;
		if (e == NULL || e->arch != arch || e->nr != nr)
			continue;
		struct libseccomp_rule r = tree_rule(e);
		rc = libseccomp_tree_add(*out, &r);
	}
	if (rc == -ENOMEM) {
		libseccomp_tree_free(*out);
		*out = NULL;
	}
	return rc;
}

/*
 * libseccomp's answer for @rule: its rule tree for the syscall on the ABI,
 * rebuilt from every rule accepted for it so far, in order (as its own
 * transactions rebuild it), and then @rule merged in: 0 or -EEXIST
 * (lib/libseccomp/rule_tree.h; -EEXIST also for its -ELOOP).
 */
static int libseccomp_answer(const struct compat_rules *rules, const struct compat_rule *rule)
{
	struct libseccomp_tree *tree;
	int rc = compat_rules_tree(rules, rule->arch, rule->nr, rule, &tree);
	libseccomp_tree_free(tree);
	/* where libseccomp 2.5 would never return, the drop-in refuses the rule */
	return rc == -ELOOP ? -EEXIST : rc;
}

/*
 * Stores @rule when libseccomp's tree accepts it, the way libseccomp merges
 * rules of one syscall: a rule without conditions decides the syscall alone
 * (the first one stays; later ones change nothing), replacing any
 * conditional rules; a conditional rule already covered by a broader stored
 * rule of its action, or by a shorter chain of another action, changes
 * nothing; one that covers stored rules replaces them.  Where conditional
 * rules of different actions overlap, the stricter action decides
 * (generate.c orders them so).  Rules that change nothing are kept, inert,
 * for libseccomp_answer().
 */
static int rules_insert(struct compat_rules *rules, const struct compat_rule *rule)
{
	int rc = libseccomp_answer(rules, rule);
	if (rc < 0)
		return rc;
	struct compat_rule r = *rule;
	r.inert = false;
	for (size_t i = 0; i < rules->n && !r.inert; i++) {
		const struct compat_rule *e = &rules->v[i];
		if (e->inert || e->arch != rule->arch || e->nr != rule->nr)
			continue;
		if (e->ncmp == 0)
			r.inert = true;
		else if (rule->ncmp > 0 && cmps_subset(e, rule) &&
			 (e->action == rule->action || cmps_prefix(e, rule)))
			r.inert = true;
	}
	for (size_t i = 0; i < rules->n && !r.inert; i++) {
		struct compat_rule *e = &rules->v[i];
		if (e->arch == rule->arch && e->nr == rule->nr &&
		    (rule->ncmp == 0 || cmps_subset(rule, e)))
			e->inert = true;
	}
	return compat_rules_append(rules, &r);
}

/* --- validation and per-ABI resolution -------------------------------------- */

static int cmps_check(unsigned arg_cnt, const struct scmp_arg_cmp *arg_array,
		      struct compat_cmp *out)
{
	unsigned seen = 0;
	if (arg_cnt > COMPAT_MAX_ARGS || (arg_cnt > 0 && arg_array == NULL))
		return -EINVAL;
	for (unsigned i = 0; i < arg_cnt; i++) {
		const struct scmp_arg_cmp *c = &arg_array[i];
		if (c->arg >= COMPAT_MAX_ARGS || c->op <= _SCMP_CMP_MIN || c->op >= _SCMP_CMP_MAX)
			return -EINVAL;
		/* One comparison per argument and rule, as libseccomp requires. */
		if (seen & (1U << c->arg))
			return -EINVAL;
		seen |= 1U << c->arg;
		out[i] = (struct compat_cmp){ c->arg, c->op, c->datum_a, c->datum_b };
	}
	/* Sorted by argument, so equal rule sets compare equal. */
	for (unsigned i = 1; i < arg_cnt; i++)
		for (unsigned j = i; j > 0 && out[j - 1].arg > out[j].arg; j--) {
			struct compat_cmp t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return 0;
}

/* The stricter of two actions by the kernel's precedence (equal rank: @a). */
static uint32_t stricter(uint32_t a, uint32_t b)
{
	int32_t ra = (int32_t)(a & SCG_RET_ACTION_FULL), rb = (int32_t)(b & SCG_RET_ACTION_FULL);
	return rb < ra ? b : a;
}

struct add_request {
	uint32_t action;
	int syscall;
	const char *name; /* NULL when the number has no name */
	unsigned ncmp;
	struct compat_cmp cmp[COMPAT_MAX_ARGS];
	bool exact;
};

/*
 * The multiplexed copy of a socket or IPC rule.  Its arguments sit behind a
 * pointer that BPF cannot read, so the copy tests only the sub-call.  When
 * the rule had argument conditions, the copy takes the stricter of the
 * rule's and the default action: libseccomp's copy would apply the rule's
 * action to every socketcall of that kind, which lets 32-bit programs past
 * deny rules (or past allow-list limits).  docs/libseccomp.md explains.
 */
static int add_multiplexed(struct compat_rules *rules, const struct compat_filter *f,
			   const struct add_request *req, const struct scg_arch *arch,
			   uint32_t mux_nr, uint32_t subcall)
{
	struct compat_rule r = { .arch = arch, .nr = mux_nr, .action = req->action, .ncmp = 1 };
	r.cmp[0] = (struct compat_cmp){ 0, SCMP_CMP_EQ, subcall, 0 };
	if (req->ncmp > 0)
		r.action = stricter(req->action, f->attr.act_default);
	if (r.action == f->attr.act_default)
		return 0;
	return rules_insert(rules, &r);
}

/*
 * libseccomp generates no test for a MASKED_EQ whose mask keeps no bit of
 * what the ABI compares (the low 32 bits on a 32-bit ABI): the comparison
 * vanishes, and a rule left without one is unconditional, which changes
 * how it merges with the syscall's other rules (the first unconditional
 * rule stays).
 */
static void drop_noop_cmps(struct compat_rule *r)
{
	uint64_t width = scg_arch_bits(r->arch) == 32 ? 0xffffffffULL : ~0ULL;
	unsigned n = 0;
	for (unsigned i = 0; i < r->ncmp; i++)
		if (r->cmp[i].op != SCMP_CMP_MASKED_EQ || (r->cmp[i].a & width) != 0)
			r->cmp[n++] = r->cmp[i];
	r->ncmp = n;
}

/*
 * One rule on one ABI, as libseccomp adds it: the number is translated by
 * name from the native ABI (a number no name is known for is taken as is
 * there and refused with -EFAULT on any other ABI); a socket or IPC call
 * also goes to its multiplexer where the ABI has one.  An exact rule that
 * cannot be kept as it is fails: -EINVAL for argument conditions on a
 * multiplexed call (the multiplexer's arguments sit behind a pointer),
 * -EDOM for a syscall the ABI does not have.
 */
static int add_on_arch(struct compat_rules *rules, const struct compat_filter *f,
		       const struct add_request *req, const struct scg_arch *arch)
{
	struct compat_rule r = { .arch = arch, .action = req->action, .ncmp = req->ncmp };
	memcpy(r.cmp, req->cmp, sizeof(r.cmp));
	drop_noop_cmps(&r);
	if (req->syscall == -1) {
		r.nr = UINT32_MAX;
		return rules_insert(rules, &r);
	}
	if (req->name == NULL) {
		if (arch != scg_arch_native())
			return -EFAULT;
		/* A negative number never reaches a filter (docs/libseccomp.md). */
		if (req->syscall < 0)
			return req->exact ? -EDOM : 0;
		r.nr = (uint32_t)req->syscall;
		return rules_insert(rules, &r);
	}
	uint32_t mux, sub, nr;
	bool direct = compat_syscall_lookup(arch, req->name, &nr) == 0;
	if (req->syscall >= 0 && arch == scg_arch_native()) {
		direct = true;
		nr = (uint32_t)req->syscall;
	}
	bool multiplexed = compat_multiplexed(arch, req->name, &mux, &sub);
	if (!direct && !multiplexed)
		return req->exact ? -EDOM : 0;
	if (req->exact && multiplexed && req->ncmp > 0)
		return -EINVAL;
	int rc = 0;
	if (direct) {
		r.nr = nr;
		rc = rules_insert(rules, &r);
	}
	if (rc == 0 && multiplexed) {
		struct add_request effective = *req; /* conditions the ABI compares */
		effective.ncmp = r.ncmp;
		rc = add_multiplexed(rules, f, &effective, arch, mux, sub);
	}
	return rc;
}

static int rule_add(scmp_filter_ctx ctx, uint32_t action, int syscall, unsigned arg_cnt,
		    const struct scmp_arg_cmp *arg_array, bool exact)
{
	struct compat_filter *f = compat_filter_of(ctx);
	struct add_request req = { .action = action, .syscall = syscall, .exact = exact };
	if (f == NULL || (syscall <= -2 && syscall >= -99))
		return -EINVAL;
	int rc = cmps_check(arg_cnt, arg_array, req.cmp);
	if (rc < 0)
		return rc;
	req.ncmp = arg_cnt;
	rc = compat_action_valid(action);
	if (rc < 0)
		return rc;
	if (action == f->attr.act_default)
		return -EACCES;
	if (syscall == -1 && !f->attr.tskip)
		return -EINVAL;
	if (exact && f->narch > 1)
		return -EOPNOTSUPP;
	if (syscall != -1)
		req.name = compat_name_of_num(scg_arch_native(), syscall);

	/* All ABIs or none: work on a copy. */
	struct compat_rules work;
	if (compat_rules_copy(&work, &f->rules) < 0)
		return -ENOMEM;
	for (size_t i = 0; rc == 0 && i < f->narch; i++)
		rc = add_on_arch(&work, f, &req, f->arches[i]);
	if (rc < 0) {
		compat_rules_release(&work);
		return rc;
	}
	compat_rules_release(&f->rules);
	f->rules = work;
	compat_filter_changed(f);
	return 0;
}

/* --- public API ------------------------------------------------------------ */

COMPAT_API int seccomp_rule_add_array(scmp_filter_ctx ctx, uint32_t action, int syscall,
				      unsigned int arg_cnt, const struct scmp_arg_cmp *arg_array)
{
	return rule_add(ctx, action, syscall, arg_cnt, arg_array, false);
}

COMPAT_API int seccomp_rule_add_exact_array(scmp_filter_ctx ctx, uint32_t action, int syscall,
					    unsigned int arg_cnt,
					    const struct scmp_arg_cmp *arg_array)
{
	return rule_add(ctx, action, syscall, arg_cnt, arg_array, true);
}

static int collect_args(unsigned arg_cnt, va_list ap, struct scmp_arg_cmp *out)
{
	if (arg_cnt > COMPAT_MAX_ARGS)
		return -EINVAL;
	for (unsigned i = 0; i < arg_cnt; i++)
		out[i] = va_arg(ap, struct scmp_arg_cmp);
	return 0;
}

COMPAT_API int seccomp_rule_add(scmp_filter_ctx ctx, uint32_t action, int syscall,
				unsigned int arg_cnt, ...)
{
	struct scmp_arg_cmp args[COMPAT_MAX_ARGS];
	va_list ap;
	va_start(ap, arg_cnt);
	int rc = collect_args(arg_cnt, ap, args);
	va_end(ap);
	return rc < 0 ? rc : rule_add(ctx, action, syscall, arg_cnt, args, false);
}

COMPAT_API int seccomp_rule_add_exact(scmp_filter_ctx ctx, uint32_t action, int syscall,
				      unsigned int arg_cnt, ...)
{
	struct scmp_arg_cmp args[COMPAT_MAX_ARGS];
	va_list ap;
	va_start(ap, arg_cnt);
	int rc = collect_args(arg_cnt, ap, args);
	va_end(ap);
	return rc < 0 ? rc : rule_add(ctx, action, syscall, arg_cnt, args, true);
}

COMPAT_API int seccomp_syscall_priority(scmp_filter_ctx ctx, int syscall, uint8_t priority)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || (syscall <= -2 && syscall >= -99) || (syscall == -1 && !f->attr.tskip))
		return -EINVAL;
	/* As for rules: a number without a name cannot be translated to another ABI. */
	const char *name = syscall != -1 ? compat_name_of_num(scg_arch_native(), syscall) : "";
	for (size_t i = 0; name == NULL && i < f->narch; i++)
		if (f->arches[i] != scg_arch_native())
			return -EFAULT;
	for (size_t i = 0; i < f->nprio; i++)
		if (f->prio[i].syscall == syscall) {
			f->prio[i].priority = priority;
			compat_filter_changed(f);
			return 0;
		}
	struct compat_priority *p = reallocarray(f->prio, f->nprio + 1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	f->prio = p;
	f->prio[f->nprio++] = (struct compat_priority){ syscall, priority };
	compat_filter_changed(f);
	return 0;
}

/* --- transactions ---------------------------------------------------------- */

COMPAT_API int seccomp_transaction_start(const scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL)
		return -EINVAL;
	struct compat_snapshot *s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	if (compat_rules_copy(&s->rules, &f->rules) < 0) {
		free(s);
		return -ENOMEM;
	}
	memcpy(s->arches, f->arches, sizeof(s->arches));
	s->narch = f->narch;
	s->next = f->txn;
	f->txn = s;
	return 0;
}

COMPAT_API void seccomp_transaction_reject(const scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || f->txn == NULL)
		return;
	struct compat_snapshot *s = f->txn;
	f->txn = s->next;
	compat_rules_release(&f->rules);
	f->rules = s->rules;
	memcpy(f->arches, s->arches, sizeof(f->arches));
	f->narch = s->narch;
	free(s);
	compat_filter_changed(f);
}

COMPAT_API int seccomp_transaction_commit(const scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || f->txn == NULL)
		return -EINVAL;
	struct compat_snapshot *s = f->txn;
	f->txn = s->next;
	compat_rules_release(&s->rules);
	free(s);
	return 0;
}
