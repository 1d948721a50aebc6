/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Filters -> policy.  Each ABI and each syscall number of its table is
 * analysed on its own (the region restricted to that arch and nr): one
 * verdict makes an unconditional rule, several make one conditional rule
 * per region plus the commonest verdict.  Regions are disjoint, so the
 * rules' order within a syscall does not matter.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <syscage/compile.h>
#include <syscage/policy.h>

#include "analysis/decompile_dag.h"
#include "analysis/symexec.h"
#include "util/strbuf.h"

#define X86_64_AUDIT 0xc000003eU
/* Verdicts kept per syscall before the commonest one is chosen. */
#define MAX_VERDICTS 64U
/*
 * Rules (numbers or ranges) for unknown numbers whose verdict is not
 * `unknown`'s, on the region path; past it no policy the compiler can lay
 * out says it.
 */
#define MAX_ODD_RULES 4096U
/* Rules the structured path writes for one syscall, or for all unknown numbers of an ABI. */
#define MAX_DAG_RULES 8192U
/* Walks of the filter for the unknown numbers of one ABI: a filter that computes with the
 * number (and, mul, jset) can tell every number apart, which one walk each would take
 * billions of to read; past this the regions describe them. */
#define MAX_DAG_WALKS 1024U

/* Verdicts seen over some inputs, with how many regions (or syscalls) got each. */
struct tally {
	uint32_t rets[MAX_VERDICTS];
	size_t count[MAX_VERDICTS], n;
	bool overflow;
};

/* How far the decompiler got, for the report when its budget runs out. */
enum decomp_phase { PHASE_BADARCH, PHASE_SURVEY, PHASE_RULES };

struct decomp {
	struct analysis_run *run;
	enum decomp_phase phase;
	size_t at_arch;    /* the ABI (table index) being surveyed or written */
	size_t at_syscall; /* its syscall (table index); its count when at its unknown numbers */
	const struct scg_prog *progs;
	size_t n;
	struct scg_diag *diag;
	struct scg_policy *policy;
	const struct scg_arch *arch; /* the ABI being rebuilt */
	uint32_t badarch;
	/* default verdict candidates: how many syscalls got each verdict unconditionally */
	struct tally common;
};

/* Effect-level canonical value: the kernel cannot tell these apart. */
static uint32_t canonical(uint32_t ret)
{
	enum scg_action a = scg_action_of(ret);
	if (a == SCG_ACTION_UNKNOWN)
		return SCG_RET_KILL_PROCESS;
	if (!scg_action_has_data(a))
		return ret & SCG_RET_ACTION_FULL;
	if (a == SCG_ACTION_ERRNO && (ret & SCG_RET_DATA) > SCG_MAX_ERRNO)
		return SCG_RET_ERRNO | SCG_MAX_ERRNO;
	return ret;
}

static void tally_add(struct tally *t, uint32_t ret, size_t weight)
{
	ret = canonical(ret);
	for (size_t i = 0; i < t->n; i++) {
		if (t->rets[i] == ret) {
			t->count[i] += weight;
			return;
		}
	}
	if (t->n == MAX_VERDICTS) {
		t->overflow = true;
		return;
	}
	t->rets[t->n] = ret;
	t->count[t->n++] = weight;
}

static uint32_t tally_top(const struct tally *t)
{
	size_t best = 0;
	for (size_t i = 1; i < t->n; i++)
		if (t->count[i] > t->count[best])
			best = i;
	return t->rets[best];
}

/* How many syscall numbers @region spans (bit patterns ignored: only a weight). */
static size_t nr_weight(const struct scg_region *region)
{
	const struct wset *nr = &region->w[SCG_WORD_NR];
	uint64_t sum = 0;
	for (size_t i = 0; i < nr->niv; i++)
		sum += (uint64_t)nr->iv[i].hi - nr->iv[i].lo + 1;
	return (size_t)(sum > SIZE_MAX ? SIZE_MAX : sum);
}

/* Weighted by the numbers each region spans, so `unknown` is the verdict of most numbers. */
static int count_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
			uint32_t winner)
{
	(void)rets;
	tally_add(ctx, winner, nr_weight(region));
	return 0;
}

/* The verdicts over @within, counted per region. */
static int survey_by(struct decomp *d, const struct scg_region *within, struct tally *t,
		     scg_region_fn count)
{
	memset(t, 0, sizeof(*t));
	int r = analysis_walk(d->run, d->progs, d->n, within, count, t, d->diag);
	if (r == 0 && t->overflow) {
		scg_diag_add(d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-too-many-verdicts", NULL,
			     "more than %u different verdicts in one place", MAX_VERDICTS);
		r = -ENOTSUP;
	}
	return r;
}

static int survey(struct decomp *d, const struct scg_region *within, struct tally *t)
{
	return survey_by(d, within, t, count_region);
}

/* The inputs of ABI @arch (x86_64 and x32 split by bit 30 of nr; -1 stays x86_64). */
static struct scg_region *abi_region(const struct scg_arch *arch, bool minus_one)
{
	struct scg_region *r = scg_region_new();
	if (!r)
		return NULL;
	uint32_t audit = scg_arch_audit(arch);
	int e = scg_region_restrict_range(r, SCG_WORD_ARCH, audit, audit);
	if (e == 0 && audit == X86_64_AUDIT) {
		if (minus_one)
			e = wset_intersect(&r->w[SCG_WORD_NR], UINT32_MAX, UINT32_MAX);
		else
			e = wset_fix_bits(&r->w[SCG_WORD_NR], SCG_X32_SYSCALL_BIT,
					  scg_arch_nr_flags(arch));
		if (e == 0 && !minus_one && scg_arch_nr_flags(arch))
			e = wset_remove(&r->w[SCG_WORD_NR], UINT32_MAX, UINT32_MAX);
	}
	if (e < 0) {
		scg_region_free(r);
		return NULL;
	}
	return r;
}


/* Argument @arg's word @high of @arch is word @w; false for nr, arch and ip. */
static bool word_arg(const struct scg_arch *arch, unsigned w, unsigned *arg, bool *high)
{
	for (unsigned a = 0; a < 6; a++) {
		for (int h = 0; h < 2; h++) {
			if ((unsigned)scg_arch_arg_offset(arch, a, h) == w * 4) {
				*arg = a;
				*high = h;
				return true;
			}
		}
	}
	return false;
}

static struct scg_expr *both(struct scg_expr *acc, struct scg_expr *e)
{
	if (!acc)
		return e;
	if (!e) {
		scg_expr_free(acc);
		return NULL;
	}
	return scg_expr_and(acc, e);
}

static struct scg_expr *either(struct scg_expr *acc, struct scg_expr *e)
{
	if (!acc)
		return e;
	if (!e) {
		scg_expr_free(acc);
		return NULL;
	}
	return scg_expr_or(acc, e);
}

/* (word & mask) OP value for the low word (32-bit test) or the high word (64-bit test). */
static struct scg_expr *word_cmp(unsigned arg, bool high, enum scg_cmp_op op, uint32_t mask,
				 uint32_t value)
{
	if (high)
		return scg_expr_cmp(arg, 64, op, (uint64_t)mask << 32, (uint64_t)value << 32);
	return scg_expr_cmp(arg, 32, op, mask, value);
}

static struct scg_expr *interval_expr(const struct scg_interval *iv, unsigned arg, bool high)
{
	if (iv->lo == iv->hi)
		return word_cmp(arg, high, SCG_CMP_EQ, UINT32_MAX, iv->lo);
	struct scg_expr *e = NULL;
	bool ok = true;
	if (iv->lo > 0) {
		e = word_cmp(arg, high, SCG_CMP_GE, UINT32_MAX, iv->lo);
		ok = e != NULL;
	}
	if (ok && iv->hi < UINT32_MAX) {
		e = both(e, word_cmp(arg, high, SCG_CMP_LE, UINT32_MAX, iv->hi));
		ok = e != NULL;
	}
	return ok ? e : NULL;
}

/* The word set as a condition; *@out stays NULL for an unconstrained word. */
static int word_expr(const struct wset *ws, unsigned arg, bool high, struct scg_expr **out)
{
	struct scg_expr *e = NULL, *alt = NULL;
	bool full_range = ws->niv == 1 && ws->iv[0].lo == 0 && ws->iv[0].hi == UINT32_MAX;
	for (size_t i = 0; i < ws->niv && !full_range; i++)
		if (!(alt = either(alt, interval_expr(&ws->iv[i], arg, high))))
			return -ENOMEM;
	e = alt;
	if (ws->known && !(e = both(e, word_cmp(arg, high, SCG_CMP_EQ, ws->known, ws->known_value))))
		return -ENOMEM;
	for (size_t i = 0; i < ws->nex; i++)
		if (!(e = both(e, word_cmp(arg, high, SCG_CMP_NE, ws->ex[i].mask, ws->ex[i].value))))
			return -ENOMEM;
	*out = e;
	return 0;
}

static int region_expr(struct decomp *d, const struct scg_region *region, struct scg_expr **out)
{
	*out = NULL;
	if (region->nconds) {
		scg_diag_add(d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-computed", NULL,
			     "on %s the verdict depends on values the filter computes from several "
			     "words or with arithmetic, which policies cannot test",
			     scg_arch_name(d->arch));
		return -ENOTSUP;
	}
	for (unsigned w = 2; w < SCG_DATA_WORDS; w++) {
		if (wset_is_full(&region->w[w]))
			continue;
		unsigned arg;
		bool high;
		if (!word_arg(d->arch, w, &arg, &high)) {
			scg_expr_free(*out);
			*out = NULL;
			scg_diag_add(d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-ip", NULL,
				     "on %s the verdict depends on the instruction pointer, which "
				     "policies cannot test", scg_arch_name(d->arch));
			return -ENOTSUP;
		}
		struct scg_expr *e;
		int r = word_expr(&region->w[w], arg, high, &e);
		if (r == 0 && e && !(*out = both(*out, e)))
			r = -ENOMEM;
		if (r < 0) {
			scg_expr_free(*out);
			*out = NULL;
			return r;
		}
	}
	return 0;
}

/* A rule for @name, or (@name NULL) for the numbers @nr..@last. */
static int add_rule(struct decomp *d, const char *name, uint32_t nr, uint32_t last,
		    uint32_t action, struct scg_expr *cond)
{
	struct scg_rule_spec spec = {
		.action = action,
		.syscall = name,
		.has_number = !name,
		.number = nr,
		.number_last = last,
		.arch_mask = scg_arch_mask_bit(d->arch),
		.cond = cond,
		.loc = SCG_LOC_NONE,
	};
	return scg_policy_add_rule(d->policy, &spec);
}

/* --- one syscall with argument-dependent verdicts ------------------------- */

struct split {
	struct decomp *d;
	const char *name;
	uint32_t nr, skip; /* regions with verdict @skip are left to a later rule */
};

static int emit_region(void *ctx, const struct scg_region *region, const uint32_t *rets,
		       uint32_t winner)
{
	(void)rets;
	struct split *sp = ctx;
	if (canonical(winner) == sp->skip)
		return 0;
	struct scg_expr *cond;
	int r = region_expr(sp->d, region, &cond);
	if (r < 0)
		return r;
	return add_rule(sp->d, sp->name, sp->nr, sp->nr, canonical(winner), cond);
}

/*
 * Adds @rules (taking their conditions) for @name, or the numbers
 * @nr..@last; a last unconditional rule with verdict @skip is left to the
 * default (or `unknown`) it repeats.
 */
static void trim_dag_rules(struct dag_rules *rules, uint32_t skip)
{
	size_t n = rules->n;
	if (n && !rules->v[n - 1].cond && rules->v[n - 1].action == skip)
		rules->n--;
}

static bool dag_rules_equal(const struct dag_rules *a, const struct dag_rules *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].action != b->v[i].action || !scg_expr_equal(a->v[i].cond, b->v[i].cond))
			return false;
	return true;
}

static int add_dag_rules(struct decomp *d, const char *name, uint32_t nr, uint32_t last,
			 struct dag_rules *rules, uint32_t skip)
{
	int r = 0;
	trim_dag_rules(rules, skip);
	size_t n = rules->n;
	for (size_t i = 0; i < n && r == 0; i++) {
		r = add_rule(d, name, nr, last, rules->v[i].action, rules->v[i].cond);
		rules->v[i].cond = NULL;
	}
	dag_rules_release(rules);
	return r;
}

/* The structured rules of one filter for @nr of the current ABI; -ENOTSUP: use regions. */
static int dag_rules_at(struct decomp *d, uint32_t nr, uint32_t *lo, uint32_t *hi,
			struct dag_rules *rules)
{
	if (d->n != 1)
		return -ENOTSUP;
	return dag_rules_for(&d->progs[0], d->arch, nr, canonical, MAX_DAG_RULES, lo, hi, rules);
}

/*
 * Rules for @name (@nr) of the current ABI on @within; @def is the policy
 * default.  Rules read from the filter's structure are left in *@keep, to be
 * written with those of the syscalls that have the same ones.
 */
static int emit_syscall(struct decomp *d, const char *name, uint32_t nr,
			const struct scg_region *within, const struct tally *t, uint32_t def,
			struct dag_rules *keep)
{
	if (t->n > 1) {
		uint32_t lo, hi;
		int r = dag_rules_at(d, nr, &lo, &hi, keep);
		if (r == 0)
			trim_dag_rules(keep, def);
		if (r != -ENOTSUP)
			return r;
	}
	/* the default, when it is one of the verdicts, needs no rule: the others get theirs */
	uint32_t top = tally_top(t);
	for (size_t i = 0; i < t->n; i++)
		if (t->rets[i] == def)
			top = def;
	if (t->n > 1) {
		struct split sp = { d, name, nr, top };
		int r = analysis_walk(d->run, d->progs, d->n, within, emit_region, &sp, d->diag);
		if (r < 0)
			return r;
	}
	return top == def ? 0 : add_rule(d, name, nr, nr, top, NULL);
}

/* --- unknown numbers ------------------------------------------------------ */

/*
 * Calls @fn (unless NULL) on each run of consecutive numbers of @region, in
 * order; returns how many there are, or -E2BIG past @max runs.  A run may
 * span 2^30 numbers (x86_64's numbers with bit 31 set, say): one range rule.
 */
static int for_each_run(const struct scg_region *region, size_t max,
			int (*fn)(void *ctx, uint32_t first, uint32_t last), void *ctx)
{
	const struct wset *ws = &region->w[SCG_WORD_NR];
	uint32_t x = 0;
	for (size_t n = 0;; n++) {
		int r = wset_next(ws, x, &x);
		if (r <= 0)
			return r < 0 ? r : (int)n;
		uint32_t end = wset_run_end(ws, x);
		while (end < UINT32_MAX && wset_contains(ws, end + 1))
			end = wset_run_end(ws, end + 1);
		if (n == max)
			return -E2BIG;
		if (fn && (r = fn(ctx, x, end)) < 0)
			return r;
		if (end == UINT32_MAX)
			return (int)n + 1;
		x = end + 1;
	}
}

/* Runs per verdict over the unknown numbers: how many rules each verdict would need. */
static int count_runs(void *ctx, const struct scg_region *region, const uint32_t *rets,
		      uint32_t winner)
{
	(void)rets;
	int n = for_each_run(region, MAX_ODD_RULES, NULL, NULL);
	if (n < 0 && n != -E2BIG)
		return n;
	/* Past the limit a verdict can never be written as rules: any count above it will do. */
	tally_add(ctx, canonical(winner), n < 0 ? MAX_ODD_RULES + 1 : (size_t)n);
	return 0;
}

struct odd {
	struct decomp *d;
	uint32_t unknown, action;
	struct scg_expr *cond;
	size_t rules;
};

/* Too many runs with a verdict of their own: names where they start, and the two verdicts. */
static void report_odd_runs(const struct odd *o, uint32_t first)
{
	char odd[64], usual[64];
	scg_ret_format(o->action, odd, sizeof(odd));
	scg_ret_format(o->unknown, usual, sizeof(usual));
	scg_diag_add(o->d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-unknown-ranges",
		     "a policy gives unknown numbers one verdict ('unknown') and others a "
		     "number or range rule each",
		     "on %s, numbers no table knows get %s from %#x on, other unknown numbers %s, "
		     "over more than %u separate runs of numbers",
		     scg_arch_name(o->d->arch), odd, first, usual, MAX_ODD_RULES);
}

static int emit_run(void *ctx, uint32_t first, uint32_t last)
{
	struct odd *o = ctx;
	if (++o->rules > MAX_ODD_RULES) {
		report_odd_runs(o, first);
		return -ENOTSUP;
	}
	struct scg_expr *c = o->cond ? scg_expr_clone(o->cond) : NULL;
	if (o->cond && !c)
		return -ENOMEM;
	return add_rule(o->d, NULL, first, last, o->action, c);
}

/* A region of unknown numbers whose verdict is not the `unknown` one: number or range rules. */
static int emit_odd_numbers(void *ctx, const struct scg_region *region, const uint32_t *rets,
			    uint32_t winner)
{
	(void)rets;
	struct odd *o = ctx;
	if (canonical(winner) == o->unknown)
		return 0;
	o->action = canonical(winner);
	int r = region_expr(o->d, region, &o->cond);
	if (r == 0)
		r = for_each_run(region, SIZE_MAX, emit_run, o);
	scg_expr_free(o->cond);
	o->cond = NULL;
	return r < 0 ? r : 0;
}

/* The structured rules of the unknown numbers, range by range, kept until all are known. */
struct dag_ranges {
	struct decomp *d;
	struct dag_range {
		uint32_t first, last;
		struct dag_rules rules;
	} *v;
	size_t n, cap, total, walks;
};

static int dag_range(void *ctx, uint32_t first, uint32_t last)
{
	struct dag_ranges *dr = ctx;
	for (uint32_t x = first;;) {
		if (++dr->walks > MAX_DAG_WALKS)
			return -ENOTSUP;
		if (dr->n == dr->cap) {
			size_t cap = dr->cap ? dr->cap * 2 : 16;
			struct dag_range *v = realloc(dr->v, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			dr->v = v;
			dr->cap = cap;
		}
		struct dag_range *one = &dr->v[dr->n];
		*one = (struct dag_range){ 0 };
		uint32_t lo, hi;
		int r = dag_rules_at(dr->d, x, &lo, &hi, &one->rules);
		if (r < 0)
			return r;
		one->first = x;
		one->last = hi < last ? hi : last;
		struct dag_range *prev = dr->n ? one - 1 : NULL;
		if (prev && prev->last + 1 == x && dag_rules_equal(&prev->rules, &one->rules)) {
			prev->last = one->last; /* the same rules go on: one range */
			dag_rules_release(&one->rules);
			one = prev;
		} else {
			dr->n++;
			dr->total += one->rules.n;
		}
		if (dr->total > MAX_DAG_RULES)
			return -ENOTSUP;
		if (one->last == last)
			return 0;
		x = one->last + 1;
	}
}

/*
 * The unknown numbers of the current ABI (@parts) as range rules read from
 * the filter's structure: one walk per stretch of numbers the filter tells
 * apart.  -ENOTSUP (nothing added) when that path cannot read the filter.
 */
static int emit_unknown_dag(struct decomp *d, struct scg_region **parts, size_t n,
			    uint32_t unknown)
{
	struct dag_ranges dr = { .d = d };
	int r = d->n == 1 ? 0 : -ENOTSUP;
	for (size_t i = 0; i < n && r == 0; i++)
		if (!scg_region_empty(parts[i]) && (r = for_each_run(parts[i], SIZE_MAX, dag_range, &dr)) > 0)
			r = 0; /* the number of runs */
	for (size_t i = 0; i < dr.n; i++) {
		if (r == 0)
			r = add_dag_rules(d, NULL, dr.v[i].first, dr.v[i].last, &dr.v[i].rules,
					  unknown);
		else
			dag_rules_release(&dr.v[i].rules);
	}
	free(dr.v);
	return r;
}

/* The current ABI's inputs with a number its table does not know (one or two parts). */
static size_t unknown_parts(const struct scg_arch *arch, struct scg_region **parts)
{
	size_t n = 0;
	bool x86_64 = scg_arch_audit(arch) == X86_64_AUDIT && !scg_arch_nr_flags(arch);
	for (int minus_one = 0; minus_one <= (int)x86_64; minus_one++) {
		struct scg_region *r = abi_region(arch, minus_one);
		if (!r)
			break;
		for (size_t i = 0; i < scg_syscall_count(arch); i++) {
			const char *name;
			uint32_t nr;
			if (scg_syscall_at(arch, i, &name, &nr) == 0)
				wset_remove(&r->w[SCG_WORD_NR], nr, nr);
		}
		parts[n++] = r;
	}
	return n;
}

/* --- the driver ----------------------------------------------------------- */

struct abi_plan {
	const struct scg_arch *arch;
	size_t index;
	struct tally *syscalls; /* one per table entry */
	struct tally unknown;      /* numbers no table knows: numbers per verdict */
	struct tally unknown_runs; /* ... and runs of consecutive numbers per verdict */
};

static int survey_parts_by(struct decomp *d, struct scg_region **parts, size_t n,
			   struct tally *t, scg_region_fn count)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < n; i++) {
		struct tally one = { 0 }; /* an empty part adds nothing */
		int r = scg_region_empty(parts[i]) ? 0 : survey_by(d, parts[i], &one, count);
		if (r < 0)
			return r;
		for (size_t k = 0; k < one.n; k++)
			tally_add(t, one.rets[k], one.count[k]);
	}
	return 0;
}

static int survey_parts(struct decomp *d, struct scg_region **parts, size_t n, struct tally *t)
{
	return survey_parts_by(d, parts, n, t, count_region);
}

static struct scg_region *syscall_region(const struct scg_arch *arch, uint32_t nr)
{
	struct scg_region *r = abi_region(arch, false);
	if (r && wset_intersect(&r->w[SCG_WORD_NR], nr, nr) < 0) {
		scg_region_free(r);
		return NULL;
	}
	return r;
}

/* Pass one for an ABI: is it a target, and the verdicts of each syscall. */
static int plan_abi(struct decomp *d, struct abi_plan *p, bool *target)
{
	struct scg_region *parts[2];
	size_t nparts = 0;
	bool x86_64 = scg_arch_audit(p->arch) == X86_64_AUDIT && !scg_arch_nr_flags(p->arch);
	for (int minus_one = 0; minus_one <= (int)x86_64; minus_one++)
		if ((parts[nparts] = abi_region(p->arch, minus_one)))
			nparts++;
	struct tally all;
	int r = survey_parts(d, parts, nparts, &all);
	for (size_t i = 0; i < nparts; i++)
		scg_region_free(parts[i]);
	*target = r == 0 && !(all.n == 1 && all.rets[0] == canonical(d->badarch));
	if (r < 0 || !*target)
		return r;
	size_t count = scg_syscall_count(p->arch);
	p->syscalls = calloc(count ? count : 1, sizeof(*p->syscalls));
	if (!p->syscalls)
		return -ENOMEM;
	for (size_t i = 0; i < count && r == 0; i++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(p->arch, i, &name, &nr);
		d->at_syscall = i;
		struct scg_region *within = syscall_region(p->arch, nr);
		r = within ? survey(d, within, &p->syscalls[i]) : -ENOMEM;
		scg_region_free(within);
		if (r == 0 && p->syscalls[i].n == 1)
			tally_add(&d->common, p->syscalls[i].rets[0], 1);
	}
	if (r == 0) {
		struct scg_region *unk[2];
		size_t nu = unknown_parts(p->arch, unk);
		d->at_syscall = count;
		r = survey_parts(d, unk, nu, &p->unknown);
		if (r == 0 && p->unknown.n > 0)
			r = survey_parts_by(d, unk, nu, &p->unknown_runs, count_runs);
		for (size_t i = 0; i < nu; i++)
			scg_region_free(unk[i]);
	}
	return r;
}

/*
 * The kept rules of the current ABI's syscalls (@kept, one list per table
 * entry, released here): syscalls with the same list get each rule
 * together, rule by rule, so the text names them on one line.  The order
 * between different syscalls does not matter; within one it is kept.
 */
static int emit_kept(struct decomp *d, struct dag_rules *kept, size_t count)
{
	int r = 0;
	size_t *group = malloc((count ? count : 1) * sizeof(*group));
	if (!group)
		r = -ENOMEM;
	for (size_t i = 0; i < count && r == 0; i++) {
		if (kept[i].n == 0)
			continue;
		size_t n = 0;
		for (size_t j = i; j < count; j++)
			if (j == i || (kept[j].n && dag_rules_equal(&kept[i], &kept[j])))
				group[n++] = j;
		for (size_t k = 0; k < kept[i].n && r == 0; k++) {
			for (size_t m = 0; m < n && r == 0; m++) {
				const char *name;
				uint32_t nr;
				scg_syscall_at(d->arch, group[m], &name, &nr);
				const struct scg_expr *cond = kept[i].v[k].cond;
				struct scg_expr *c = cond ? scg_expr_clone(cond) : NULL;
				r = cond && !c ? -ENOMEM : add_rule(d, name, nr, nr, kept[i].v[k].action, c);
			}
		}
		for (size_t m = n; m-- > 0;)
			dag_rules_release(&kept[group[m]]);
	}
	for (size_t i = 0; i < count; i++)
		dag_rules_release(&kept[i]);
	free(group);
	return r;
}

/* Pass two: the rules of one target ABI. */
static int emit_abi(struct decomp *d, struct abi_plan *p, uint32_t def, uint32_t unknown)
{
	d->arch = p->arch;
	size_t count = scg_syscall_count(p->arch);
	struct dag_rules *kept = calloc(count ? count : 1, sizeof(*kept));
	int r = kept ? 0 : -ENOMEM;
	for (size_t i = 0; i < count && r == 0; i++) {
		const char *name;
		uint32_t nr;
		scg_syscall_at(p->arch, i, &name, &nr);
		d->at_syscall = i;
		struct scg_region *within = syscall_region(p->arch, nr);
		r = within ? emit_syscall(d, name, nr, within, &p->syscalls[i], def, &kept[i])
			   : -ENOMEM;
		scg_region_free(within);
	}
	if (kept) {
		int e = emit_kept(d, kept, r == 0 ? count : 0);
		for (size_t i = 0; i < count; i++)
			dag_rules_release(&kept[i]);
		free(kept);
		if (r == 0)
			r = e;
	}
	d->at_syscall = scg_syscall_count(p->arch);
	bool odd = p->unknown.n > 1 || (p->unknown.n == 1 && p->unknown.rets[0] != unknown);
	if (r == 0 && odd) {
		struct scg_region *unk[2];
		size_t nu = unknown_parts(p->arch, unk);
		struct odd o = { .d = d, .unknown = unknown };
		r = emit_unknown_dag(d, unk, nu, unknown);
		if (r == -ENOTSUP)
			r = 0;
		else
			o.d = NULL; /* written from the structure */
		for (size_t i = 0; i < nu; i++) {
			if (r == 0 && o.d && !scg_region_empty(unk[i]))
				r = analysis_walk(d->run, d->progs, d->n, unk[i], emit_odd_numbers,
						  &o, d->diag);
			scg_region_free(unk[i]);
		}
	}
	return r;
}

/* The verdict of ABIs syscage does not know; it must not depend on anything else. */
static int find_badarch(struct decomp *d)
{
	struct scg_region *r = scg_region_new();
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < scg_arch_count(); i++) {
		uint32_t audit = scg_arch_audit(scg_arch_at(i));
		wset_remove(&r->w[SCG_WORD_ARCH], audit, audit);
	}
	struct tally t;
	int e = survey(d, r, &t);
	scg_region_free(r);
	if (e < 0)
		return e;
	if (t.n != 1) {
		scg_diag_add(d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-badarch", NULL,
			     "calls from unknown ABIs get more than one verdict");
		return -ENOTSUP;
	}
	d->badarch = t.rets[0];
	return 0;
}

/* How many runs of @plan's unknown numbers do not get @v: the rules @v as `unknown` leaves. */
static size_t runs_besides(const struct abi_plan *plan, uint32_t v)
{
	size_t sum = 0;
	for (size_t i = 0; i < plan->unknown_runs.n; i++)
		if (plan->unknown_runs.rets[i] != v)
			sum += plan->unknown_runs.count[i];
	return sum;
}

static size_t numbers_with(const struct abi_plan *plan, uint32_t v)
{
	for (size_t i = 0; i < plan->unknown.n; i++)
		if (plan->unknown.rets[i] == v)
			return plan->unknown.count[i];
	return 0;
}

/*
 * One `unknown` verdict for every target: the one that leaves the fewest
 * number and range rules for the others, then the one of the most numbers.
 * On x86_64, a filter that kills numbers with bit 31 set and allows the
 * other unknown numbers gets `unknown` ALLOW (the default, then) and one
 * range rule, though the killed numbers are about as many.
 */
static void pick_unknown(const struct abi_plan *plans, size_t n, uint32_t *out)
{
	size_t best_rules = SIZE_MAX, best_numbers = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < plans[i].unknown.n; k++) {
			uint32_t v = plans[i].unknown.rets[k];
			size_t rules = 0, numbers = 0;
			for (size_t j = 0; j < n; j++) {
				rules += runs_besides(&plans[j], v);
				numbers += numbers_with(&plans[j], v);
			}
			if (rules < best_rules || (rules == best_rules && numbers > best_numbers)) {
				best_rules = rules;
				best_numbers = numbers;
				*out = v;
			}
		}
	}
}

static int build(struct decomp *d, struct abi_plan *plans, size_t *nplans)
{
	d->phase = PHASE_BADARCH;
	int r = find_badarch(d);
	d->phase = PHASE_SURVEY;
	for (size_t i = 0; i < scg_arch_count() && r == 0; i++) {
		struct abi_plan *p = &plans[*nplans];
		*p = (struct abi_plan){ .arch = scg_arch_at(i), .index = i };
		d->at_arch = i;
		d->at_syscall = 0;
		bool target = false;
		r = plan_abi(d, p, &target);
		if (target)
			(*nplans)++;
		else
			free(p->syscalls);
		if (r == 0 && target)
			r = scg_policy_add_arch(d->policy, p->arch);
	}
	/*
	 * No ABI needs a rule: every call gets the unknown ABIs' verdict.  The
	 * language has no policy without targets, so the native ABI is one,
	 * with that verdict as its default too.
	 */
	if (r == 0 && *nplans == 0)
		r = scg_policy_add_arch(d->policy, scg_arch_native());
	if (r < 0)
		return r;
	uint32_t def = d->common.n ? tally_top(&d->common) : canonical(d->badarch);
	uint32_t unknown = def;
	pick_unknown(plans, *nplans, &unknown);
	d->phase = PHASE_RULES;
	for (size_t i = 0; i < *nplans && r == 0; i++) {
		d->at_arch = plans[i].index;
		d->at_syscall = 0;
		r = emit_abi(d, &plans[i], def, unknown);
	}
	scg_policy_set_default(d->policy, def);
	scg_policy_set_badarch(d->policy, d->badarch);
	if (unknown != def)
		scg_policy_set_unknown(d->policy, unknown);
	return r;
}

/* The ABIs from table index @from on, by name, after @sb's text. */
static void put_arches_from(struct strbuf *sb, size_t from)
{
	for (size_t i = from; i < scg_arch_count(); i++)
		strbuf_appendf(sb, "%s%s", i > from ? ", " : "", scg_arch_name(scg_arch_at(i)));
}

/* Syscalls @from.. of @arch's table: "syscalls 120 (clone) to 372 (of 373)". */
static void put_syscalls_from(struct strbuf *sb, const struct scg_arch *arch, size_t from)
{
	size_t count = scg_syscall_count(arch);
	const char *name = NULL;
	uint32_t nr = 0;
	if (from < count) {
		scg_syscall_at(arch, from, &name, &nr);
		strbuf_appendf(sb, "%zu of its %zu syscalls (table entries %zu, %s, to %zu) and ",
				   count - from, count, from, name, count - 1);
	}
	strbuf_appendf(sb, "the numbers no table knows");
}

/*
 * What the decompiler had not decided when the budget ran out, as one
 * diagnostic: the unknown ABIs' verdict, then ABI by ABI, syscall by
 * syscall, in the order it works.
 */
static void report_budget(const struct decomp *d, size_t nplans, const struct abi_plan *plans)
{
	struct strbuf sb = STRBUF_INIT;
	size_t narch = scg_arch_count();
	const struct scg_arch *arch = scg_arch_at(d->at_arch);
	switch (d->phase) {
	case PHASE_BADARCH:
		strbuf_appendf(&sb, "the verdict of ABIs syscage does not know, and all %zu "
				   "known ABIs (", narch);
		put_arches_from(&sb, 0);
		strbuf_append(&sb, ")");
		break;
	case PHASE_SURVEY:
		strbuf_appendf(&sb, "on %s, ", scg_arch_name(arch));
		put_syscalls_from(&sb, arch, d->at_syscall);
		if (d->at_arch + 1 < narch) {
			strbuf_appendf(&sb, "; %zu ABIs not examined (", narch - d->at_arch - 1);
			put_arches_from(&sb, d->at_arch + 1);
			strbuf_append(&sb, ")");
		}
		break;
	case PHASE_RULES: {
		/* every verdict is known; the rules of syscalls with several are not all written */
		size_t left = 0, first = SIZE_MAX;
		strbuf_appendf(&sb, "the argument conditions of ");
		for (size_t i = 0; i < nplans; i++) {
			if (plans[i].index < d->at_arch)
				continue;
			size_t count = scg_syscall_count(plans[i].arch);
			size_t from = plans[i].index == d->at_arch ? d->at_syscall : 0;
			for (size_t k = from; k < count; k++) {
				if (plans[i].syscalls[k].n <= 1)
					continue;
				if (first == SIZE_MAX)
					first = i;
				left++;
			}
		}
		strbuf_appendf(&sb, "%zu syscall%s whose verdict depends on them (from %s on), "
				   "and the numbers no table knows of the ABIs from %s on",
				   left, left == 1 ? "" : "s",
				   first == SIZE_MAX ? scg_arch_name(arch) : scg_arch_name(plans[first].arch),
				   scg_arch_name(arch));
		break;
	}
	}
	char *what = NULL;
	if (strbuf_finish(&sb, &what) < 0)
		what = NULL;
	scg_diag_add(d->diag, SCG_SEV_ERROR, SCG_LOC_NONE, "analysis-budget",
		     scg_hint_text(SCG_HINT_MORE_TIME),
		     "the time budget ran out before the policy was complete, so none is written; "
		     "not decided: %s", what ? what : "(no memory to say)");
	free(what);
}

/*
 * The promise is a policy that compiles to an equivalent filter: one the
 * compiler cannot fit in the kernel's 4096 instructions is refused, with
 * the compiler's count of what it would need.  0 or -ENOTSUP.
 */
static int check_compiles(const struct scg_policy *policy, struct scg_diag *diag)
{
	struct scg_diag *why = scg_diag_new();
	if (!why)
		return -ENOMEM;
	struct scg_prog prog = { 0 };
	int r = scg_compile(policy, NULL, &prog, why);
	scg_prog_release(&prog);
	if (r == 0 || r == -ENOMEM) {
		scg_diag_free(why);
		return r;
	}
	const char *reason = "the compiler refuses it";
	for (size_t i = 0; i < scg_diag_count(why); i++)
		if (scg_diag_get(why, i)->severity == SCG_SEV_ERROR) {
			reason = scg_diag_get(why, i)->message;
			break;
		}
	scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "decompile-too-big",
		     "the filter's conditions do not factor into rules the compiler can lay out; "
		     "read it with `syscage disasm` instead",
		     "the policy would have %zu rules and does not compile: %s",
		     scg_policy_rule_count(policy), reason);
	scg_diag_free(why);
	return -ENOTSUP;
}

int scg_decompile(const struct scg_prog *progs, size_t n, struct scg_policy **out,
		  struct scg_diag *diag)
{
	return scg_decompile_opts(progs, n, NULL, out, diag);
}

int scg_decompile_opts(const struct scg_prog *progs, size_t n,
		       const struct scg_analysis_options *opts, struct scg_policy **out,
		       struct scg_diag *diag)
{
	int r = analysis_check(progs, n, diag);
	if (r < 0)
		return r;
	struct analysis_run run;
	r = run_init(&run, opts);
	if (r < 0)
		return r;
	struct decomp d = { .run = &run, .progs = progs, .n = n, .diag = diag };
	struct abi_plan *plans = calloc(scg_arch_count(), sizeof(*plans));
	d.policy = scg_policy_new();
	size_t nplans = 0;
	r = plans && d.policy ? build(&d, plans, &nplans) : -ENOMEM;
	if (analysis_stopped(r))
		report_budget(&d, nplans, plans);
	struct scg_policy *simple = NULL;
	if (r == 0)
		r = scg_policy_simplify(d.policy, &simple);
	if (r == 0) {
		scg_policy_free(d.policy);
		d.policy = simple;
		r = check_compiles(d.policy, diag);
	}
	run_finish(&run, opts);
	for (size_t i = 0; i < nplans; i++)
		free(plans[i].syscalls);
	free(plans);
	if (r < 0) {
		scg_policy_free(d.policy);
		return r;
	}
	*out = d.policy;
	return 0;
}
