/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a learned policy back into a recording, to widen it with another
 * run.  The syscalls and argument values come from the parsed policy (so a
 * file edited by hand still means what the parser says); the counts come
 * from the "# N calls" comment on each rule's line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "learn/internal.h"

/* Values an argument is restricted to, as found in a condition. */
struct arg_values {
	unsigned listed;  /* arguments restricted to a list */
	unsigned refused; /* arguments tested some other way: any value */
	size_t n[6];
	uint64_t v[6][SCG_LEARN_MAX_VALUES];
	/* An OR of `A == a && B in {...}` terms: the pairs of arguments A and B
	 * (pair_lo the one of lower index) it allows, when no more than a
	 * recording keeps (else pairs_over). */
	bool paired, pairs_over;
	unsigned pair_lo, pair_hi;
	size_t npairs;
	uint64_t pairs[SCG_LEARN_MAX_PAIRS][2];
};

static bool full_mask(const struct scg_expr *e)
{
	return e->mask == (e->width == 32 ? 0xffffffffULL : UINT64_MAX);
}

/* Collects the values of an OR of `argN == V` on one argument; false for anything else. */
static bool collect_or(const struct scg_expr *e, int *arg, uint64_t *vals, size_t *n)
{
	if (e->kind == SCG_EXPR_OR)
		return collect_or(e->left, arg, vals, n) && collect_or(e->right, arg, vals, n);
	if (e->kind != SCG_EXPR_CMP || e->op != SCG_CMP_EQ || !full_mask(e))
		return false;
	if (*arg >= 0 && *arg != e->arg)
		return false;
	*arg = e->arg;
	for (size_t i = 0; i < *n; i++)
		if (vals[i] == e->value)
			return true;
	if (*n == SCG_LEARN_MAX_VALUES)
		return false; /* more than a recording keeps: any value */
	vals[(*n)++] = e->value;
	return true;
}

/* Marks every argument @e tests as unrestricted. */
static void refuse_args(const struct scg_expr *e, struct arg_values *out)
{
	if (e->kind == SCG_EXPR_CMP) {
		out->refused |= 1U << e->arg;
		return;
	}
	if (e->left)
		refuse_args(e->left, out);
	if (e->right)
		refuse_args(e->right, out);
}

/* Adds @v to the @n values at @vals unless there; false when that makes too many. */
static bool add_listed(uint64_t *vals, size_t *n, uint64_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (vals[i] == v)
			return true;
	if (*n == SCG_LEARN_MAX_VALUES)
		return false;
	vals[(*n)++] = v;
	return true;
}

/*
 * The pairs found so far, and the values of each argument in them: the
 * first SCG_LEARN_MAX_VALUES (lists_over past that), which the pairs
 * complete as the recording takes them.
 */
struct pair_scan {
	int lo, hi;
	bool lists_over;
	size_t nlo, nhi;
	uint64_t vlo[SCG_LEARN_MAX_VALUES], vhi[SCG_LEARN_MAX_VALUES];
	struct arg_values *out;
};

static void add_scanned_pair(struct pair_scan *ps, uint64_t lo, uint64_t hi)
{
	struct arg_values *out = ps->out;
	for (size_t i = 0; i < out->npairs; i++)
		if (out->pairs[i][0] == lo && out->pairs[i][1] == hi)
			return;
	if (out->npairs == SCG_LEARN_MAX_PAIRS)
		out->pairs_over = true;
	else
		memcpy(out->pairs[out->npairs++], (uint64_t[2]){ lo, hi }, sizeof(out->pairs[0]));
}

/*
 * Collects an OR of terms `A in {...} && B in {...}` on the same two
 * arguments (what the writer makes of pairs); false for anything else.
 */
static bool collect_pairs(const struct scg_expr *e, struct pair_scan *ps)
{
	if (e->kind == SCG_EXPR_OR)
		return collect_pairs(e->left, ps) && collect_pairs(e->right, ps);
	if (e->kind != SCG_EXPR_AND)
		return false;
	uint64_t a[SCG_LEARN_MAX_VALUES], b[SCG_LEARN_MAX_VALUES];
	size_t na = 0, nb = 0;
	int ia = -1, ib = -1;
	if (!collect_or(e->left, &ia, a, &na) || !collect_or(e->right, &ib, b, &nb) || ia == ib)
		return false;
	if (ia > ib) { /* lower argument first */
		int t = ia;
		ia = ib;
		ib = t;
		uint64_t tmp[SCG_LEARN_MAX_VALUES];
		memcpy(tmp, a, sizeof(a));
		memcpy(a, b, sizeof(a));
		memcpy(b, tmp, sizeof(a));
		size_t tn = na;
		na = nb;
		nb = tn;
	}
	if (ps->lo >= 0 && (ps->lo != ia || ps->hi != ib))
		return false;
	ps->lo = ia;
	ps->hi = ib;
	for (size_t i = 0; i < na; i++) {
		ps->lists_over |= !add_listed(ps->vlo, &ps->nlo, a[i]);
		for (size_t k = 0; k < nb; k++) {
			ps->lists_over |= !add_listed(ps->vhi, &ps->nhi, b[k]);
			add_scanned_pair(ps, a[i], b[k]);
		}
	}
	return true;
}

/* A conjunct that is a list of pairs: both arguments listed, with their pairs. */
static bool take_pairs(const struct scg_expr *e, struct arg_values *out)
{
	if (e->kind != SCG_EXPR_OR || out->paired)
		return false;
	struct pair_scan ps = { .lo = -1, .hi = -1, .out = out };
	/* too many pairs and too many values: neither says what the rule allows */
	bool ok = collect_pairs(e, &ps) && !(ps.lists_over && out->pairs_over) &&
		  !((out->listed | out->refused) & (1U << ps.lo | 1U << ps.hi));
	if (!ok) {
		out->npairs = 0;
		out->pairs_over = false;
		return false;
	}
	out->paired = true;
	out->pair_lo = (unsigned)ps.lo;
	out->pair_hi = (unsigned)ps.hi;
	out->listed |= 1U << ps.lo | 1U << ps.hi;
	out->n[ps.lo] = ps.nlo;
	out->n[ps.hi] = ps.nhi;
	memcpy(out->v[ps.lo], ps.vlo, ps.nlo * sizeof(ps.vlo[0]));
	memcpy(out->v[ps.hi], ps.vhi, ps.nhi * sizeof(ps.vhi[0]));
	return true;
}

static void collect_and(const struct scg_expr *e, struct arg_values *out)
{
	if (e->kind == SCG_EXPR_AND) {
		collect_and(e->left, out);
		collect_and(e->right, out);
		return;
	}
	uint64_t vals[SCG_LEARN_MAX_VALUES];
	size_t n = 0;
	int arg = -1;
	if (take_pairs(e, out))
		return;
	if (!collect_or(e, &arg, vals, &n) || (out->listed & (1U << arg))) {
		/* Not a value list, or a second test of the same argument. */
		refuse_args(e, out);
		return;
	}
	out->listed |= 1U << arg;
	out->n[arg] = n;
	memcpy(out->v[arg], vals, n * sizeof(*vals));
}

/* The text of line @line (1-based) of @text: start and length. */
static bool find_line(const char *text, size_t len, unsigned line, const char **start,
		      size_t *n)
{
	const char *p = text, *end = text + len;
	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return false;
		p = nl + 1;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*start = p;
	*n = (size_t)((nl ? nl : end) - p);
	return true;
}

/* Parses a decimal count at *@p. */
static bool read_count(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	while (s < end && *s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	if (s == *p)
		return false;
	*p = s;
	*out = v;
	return true;
}

/*
 * The count of @name on a line ending "# N calls" or "# N calls: a 3, b 5":
 * the named count when there is a list, else N.  0 when there is none.
 */
static uint64_t line_count(const char *text, size_t len, unsigned line, const char *name)
{
	const char *s;
	size_t n;
	if (!text || !line || !find_line(text, len, line, &s, &n))
		return 0;
	const char *end = s + n, *hash = memchr(s, '#', n);
	uint64_t total = 0;
	if (!hash)
		return 0;
	const char *p = hash + 1;
	while (p < end && *p == ' ')
		p++;
	if (!read_count(&p, end, &total) || (size_t)(end - p) < 5 || strncmp(p, " call", 5))
		return 0;
	const char *list = memchr(p, ':', (size_t)(end - p));
	if (!list)
		return total;
	size_t nlen = strlen(name);
	for (p = list + 1; p < end;) {
		while (p < end && (*p == ' ' || *p == ','))
			p++;
		const char *word = p;
		while (p < end && *p != ' ' && *p != ',')
			p++;
		bool match = (size_t)(p - word) == nlen && !strncmp(word, name, nlen);
		while (p < end && *p == ' ')
			p++;
		uint64_t v;
		if (!read_count(&p, end, &v))
			return 0;
		if (match)
			return v;
	}
	return 0;
}

/* A rule over more numbers than this adds only those the ABI's table knows. */
#define MAX_RANGE_NUMBERS 4096

/* What merge_rule() adds for one rule, number by number. */
struct merge_item {
	struct scg_learn *tmp;
	const struct scg_rule *rule;
	const char *text;
	size_t len;
	unsigned listed;
	const size_t *nvalues; /* per argument */
	const uint64_t *values[6];
	const struct scg_learn_pairs *pairs; /* NULL: none in the condition */
};

static int merge_number(const struct merge_item *m, const struct scg_arch *arch, uint32_t nr)
{
	const char *name = m->rule->syscall ? m->rule->syscall : scg_syscall_name(arch, nr);
	uint64_t calls = name ? line_count(m->text, m->len, m->rule->loc.line, name) : 0;
	/* pairs of other arguments than the syscall's own: their lists only, which allow more */
	unsigned ruler, dependent;
	const struct scg_learn_pairs *pairs = m->pairs;
	if (pairs && (!name || !learn_paired_args(arch, name, &ruler, &dependent) ||
		      (1U << ruler | 1U << dependent) != (1U << pairs->ruler | 1U << pairs->dependent)))
		pairs = NULL;
	if (m->listed)
		return scg_learn_add_paired(m->tmp, arch, nr, calls, m->listed, m->nvalues,
					    m->values, pairs);
	return scg_learn_add_calls(m->tmp, arch, nr, calls);
}

/* Numbers @first..@last of @arch; a huge range (every number above the table) is
 * no list of calls: only the syscalls the table knows in it count. */
static int merge_range(const struct merge_item *m, const struct scg_arch *arch, uint32_t first,
		       uint32_t last)
{
	int r = 0;
	if (last - first < MAX_RANGE_NUMBERS) {
		for (uint64_t nr = first; r == 0 && nr <= last; nr++)
			r = merge_number(m, arch, (uint32_t)nr);
		return r;
	}
	for (size_t i = 0; r == 0 && i < scg_syscall_count(arch); i++) {
		uint32_t nr;
		if (scg_syscall_at(arch, i, NULL, &nr) == 0 && nr >= first && nr <= last)
			r = merge_number(m, arch, nr);
	}
	return r;
}

/* Adds rule @index of @policy on every target ABI it applies to. */
static int merge_rule(struct scg_learn *tmp, const struct scg_policy *policy, size_t index,
		      const char *text, size_t len)
{
	struct scg_rule rule;
	int r = scg_policy_rule_at(policy, index, &rule);
	if (r < 0 || scg_action_of(rule.action) != SCG_ACTION_ALLOW)
		return r;
	struct arg_values av;
	memset(&av, 0, sizeof(av));
	if (rule.cond)
		collect_and(rule.cond, &av);
	struct merge_item m = { .tmp = tmp, .rule = &rule, .text = text, .len = len,
				.listed = av.listed & ~av.refused, .nvalues = av.n };
	for (unsigned i = 0; i < 6; i++)
		m.values[i] = av.v[i];
	struct scg_learn_pairs pairs = { .ruler = av.pair_lo, .dependent = av.pair_hi,
					 .kept = !av.pairs_over, .count = av.npairs,
					 .values = (const uint64_t(*)[2])av.pairs };
	unsigned both = 1U << av.pair_lo | 1U << av.pair_hi;
	if (av.paired && (m.listed & both) == both)
		m.pairs = &pairs;
	for (size_t a = 0; r == 0 && a < scg_policy_arch_count(policy); a++) {
		const struct scg_arch *arch = scg_policy_arch_at(policy, a);
		uint32_t first, last;
		if (scg_policy_rule_range(policy, index, arch, &first, &last) == 0)
			r = merge_range(&m, arch, first, last);
	}
	return r;
}

/* Adds every entry of @from to @to; cannot fail once room is reserved. */
static void absorb(struct scg_learn *to, const struct scg_learn *from)
{
	struct scg_learn_entry e;
	struct scg_learn_pairs pairs;
	for (size_t i = 0; i < scg_learn_count(from); i++) {
		scg_learn_entry_at(from, i, &e);
		bool paired = scg_learn_pairs_at(from, i, &pairs) == 0;
		if (e.listed)
			scg_learn_add_paired(to, e.arch, e.nr, e.calls, e.listed, e.nvalues, e.values,
					     paired ? &pairs : NULL);
		else
			scg_learn_add_calls(to, e.arch, e.nr, e.calls);
	}
}

int scg_learn_merge_policy(struct scg_learn *learn, const struct scg_policy *policy,
			   const char *text, size_t len)
{
	/* Collect into a separate recording first: @learn changes only once nothing can fail. */
	struct scg_learn *tmp = scg_learn_new(0);
	if (!tmp)
		return -ENOMEM;
	int r = 0;
	for (size_t i = 0; i < scg_policy_rule_count(policy) && r == 0; i++)
		r = merge_rule(tmp, policy, i, text, len);
	if (r == 0)
		r = learn_reserve(learn, scg_learn_count(tmp));
	if (r == 0)
		absorb(learn, tmp);
	scg_learn_free(tmp);
	return r;
}
