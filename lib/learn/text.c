/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A recording as policy text.  The layout is meant to be read and edited
 * by people and read back by scg_learn_merge_policy():
 *
 *   arch x86_64                     the ABIs seen (and the native one)
 *   default kill                    everything not seen
 *   unknown errno(ENOSYS)
 *   badarch kill
 *   # @basic-io: reading, writing, ... (5 of 17 used)
 *   allow read                      # 120 calls
 *   allow @signal                   # 9 calls: rt_sigaction 7, rt_sigprocmask 2, ...
 *   allow mmap if prot in {1, 3}    # 33 calls
 *
 * Every rule fits on one line and ends with its count, so the counts can be
 * found again from a rule's line number.  With several ABIs, each has its
 * own section and every rule carries `on ABI`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/lang.h>

#include "learn/internal.h"
#include "util/opts.h"
#include "util/strbuf.h"

/* Column where count comments start, so they line up. */
enum { COMMENT_COLUMN = 40 };

/* Umbrella groups that span the others: no use as a category. */
static bool umbrella_group(const char *name)
{
	return !strcmp(name, "system-service") || !strcmp(name, "privileged");
}

static bool group_has(size_t group, const char *name)
{
	const char *const *m = scg_group_members(group);
	for (; m && *m; m++)
		if (!strcmp(*m, name))
			return true;
	return false;
}

/* The category of @name: the first group (in table order) that has it; scg_group_count() if none. */
static size_t category_of(const char *name)
{
	size_t n = scg_group_count();
	for (size_t g = 0; g < n; g++)
		if (!umbrella_group(scg_group_name(g)) && group_has(g, name))
			return g;
	return n;
}

/* What the writer knows about one ABI's part of the recording. */
struct abi_view {
	const struct scg_learn *learn;
	const struct scg_arch *arch;
	const char *on; /* " on x86" when several ABIs are targets, else "" */
	size_t first, end; /* entries of this ABI: [first, end) */
};

static bool find_entry(const struct abi_view *v, const char *name, struct scg_learn_entry *out)
{
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, out);
		if (out->name && !strcmp(out->name, name))
			return true;
	}
	return false;
}

static bool entry_restricted(const struct scg_learn_entry *e)
{
	for (unsigned i = 0; i < 6; i++)
		if (((e->listed & (1U << i)) && e->nvalues[i]) || (e->general & (1U << i)))
			return true;
	return false;
}

/* Pads the current line with spaces up to the comment column. */
static void pad_line(struct strbuf *sb, size_t line_start)
{
	size_t width = sb->len - line_start;
	do
		strbuf_append(sb, " ");
	while (++width < COMMENT_COLUMN);
}

static void append_count(struct strbuf *sb, uint64_t calls)
{
	strbuf_appendf(sb, "# %" PRIu64 " call%s", calls, calls == 1 ? "" : "s");
}

/* Largest value of a summarised number written as a range (`arg <= MAX`); larger: free. */
#define RANGE_LIMIT UINT64_C(0xffff)

/* What a summarised argument becomes: a mask test, a range, or nothing (any value). */
enum summary { SUMMARY_NONE, SUMMARY_MASK, SUMMARY_RANGE };

static enum summary summary_of(const struct scg_learn_entry *e, unsigned i)
{
	if (!(e->general & (1U << i)))
		return SUMMARY_NONE;
	const char *param = learn_param_name(e->arch, e->name, i);
	if (learn_param_is_flags(e->name, param))
		return SUMMARY_MASK;
	return e->max[i] <= RANGE_LIMIT ? SUMMARY_RANGE : SUMMARY_NONE;
}

/* What the names of one rule's values may depend on: the arguments with one value in every call. */
struct known_args {
	uint64_t args[6];
	unsigned mask;
};

/* "prot" for a named parameter, else "arg2" or "arg2.lo" (compared as 32 bits). */
static const char *arg_text(const struct scg_learn_entry *e, unsigned i, char buf[16])
{
	const char *param = learn_param_name(e->arch, e->name, i);
	if (param)
		return param;
	unsigned narrow = 0;
	learn_scalar_args(e->arch, e->name, 0, &narrow);
	snprintf(buf, 16, "arg%u%s", i, (narrow & (1U << i)) ? ".lo" : "");
	return buf;
}

/* "prot == PROT_READ" or "prot in {PROT_READ, PROT_READ|PROT_WRITE}": @n values of argument @i. */
static void append_list(struct strbuf *sb, const struct scg_learn_entry *e, unsigned i,
			const uint64_t *values, size_t n, size_t stride, const struct known_args *k)
{
	char buf[16];
	const char *param = learn_param_name(e->arch, e->name, i);
	strbuf_append(sb, arg_text(e, i, buf));
	strbuf_append(sb, n == 1 ? " == " : " in {");
	for (size_t v = 0; v < n; v++) {
		if (v)
			strbuf_append(sb, ", ");
		learn_append_value(sb, e->arch, e->name, param, values[v * stride], k->args,
				   k->mask);
	}
	if (n != 1)
		strbuf_append(sb, "}");
}

/*
 * The test of argument @i of @e on its own: its list, or for a summarised
 * one "(flags & ~(O_CREAT|O_CLOEXEC)) == 0" (no bit never seen) or
 * "cmd <= 1030"; false (nothing written) when it allows any value.
 */
static bool arg_restricted(const struct scg_learn_entry *e, unsigned i)
{
	return ((e->listed & (1U << i)) && e->nvalues[i]) || summary_of(e, i) != SUMMARY_NONE;
}

static bool append_arg(struct strbuf *sb, const struct scg_learn_entry *e, unsigned i,
		       const struct known_args *k, const char *join)
{
	enum summary s = summary_of(e, i);
	if (!arg_restricted(e, i))
		return false;
	strbuf_append(sb, join);
	char buf[16];
	const char *name = arg_text(e, i, buf);
	if (s == SUMMARY_MASK) {
		strbuf_appendf(sb, "(%s & ~(", name);
		learn_append_value(sb, e->arch, e->name, learn_param_name(e->arch, e->name, i),
				   e->bits[i], k->args, k->mask);
		strbuf_append(sb, ")) == 0");
	} else if (s == SUMMARY_RANGE) {
		strbuf_appendf(sb, "%s <= %" PRIu64, name, e->max[i]);
	} else {
		append_list(sb, e, i, e->values[i], e->nvalues[i], 1, k);
	}
	return true;
}

/* One value of the ruler and the text of the dependent values it took. */
struct pair_group {
	uint64_t ruler;
	size_t text, len; /* of its dependent's test, in pair_terms.texts */
	size_t term;      /* the group whose term it shares (itself when first) */
};

/*
 * The pairs of a rule as terms, one per ruler value, the ruler values whose
 * dependent reads the same sharing one: `level == SOL_SOCKET && optname in
 * {SO_REUSEADDR, SO_KEEPALIVE}`, `level == IPPROTO_TCP && optname ==
 * TCP_NODELAY`.  Each term names the dependent's values by its ruler's.
 */
struct pair_terms {
	const struct scg_learn_entry *e;
	const struct scg_learn_pairs *p;
	struct strbuf texts;
	struct pair_group groups[SCG_LEARN_MAX_PAIRS];
	size_t ngroups, nterms;
};

static bool same_text(const struct pair_terms *t, size_t a, size_t b)
{
	const struct pair_group *x = &t->groups[a], *y = &t->groups[b];
	return x->len == y->len && !memcmp(t->texts.data + x->text, t->texts.data + y->text, x->len);
}

static void pair_terms_build(struct pair_terms *t, const struct scg_learn_entry *e,
			     const struct scg_learn_pairs *p, const struct known_args *k)
{
	memset(t, 0, sizeof(*t));
	t->e = e;
	t->p = p;
	for (size_t i = 0; i < p->count;) {
		size_t end = i;
		while (end < p->count && p->values[end][0] == p->values[i][0])
			end++;
		struct known_args under = *k;
		under.args[p->ruler] = p->values[i][0];
		under.mask |= 1U << p->ruler;
		struct pair_group *g = &t->groups[t->ngroups];
		*g = (struct pair_group){ .ruler = p->values[i][0], .text = t->texts.len,
					  .term = t->ngroups };
		append_list(&t->texts, e, p->dependent, &p->values[i][1], end - i, 2, &under);
		g->len = t->texts.len - g->text;
		t->ngroups++;
		i = end;
	}
	for (size_t i = 0; i < t->ngroups && !t->texts.failed; i++) {
		for (size_t j = 0; j < i && t->groups[i].term == i; j++)
			if (t->groups[j].term == j && same_text(t, i, j))
				t->groups[i].term = j;
		t->nterms += t->groups[i].term == i;
	}
}

/* The ruler's test of the term of group @g: its values, names by @k. */
static void append_term_ruler(struct strbuf *sb, const struct pair_terms *t, size_t g,
			      const struct known_args *k)
{
	uint64_t rulers[SCG_LEARN_MAX_PAIRS];
	size_t n = 0;
	for (size_t j = g; j < t->ngroups; j++)
		if (t->groups[j].term == g)
			rulers[n++] = t->groups[j].ruler;
	append_list(sb, t->e, t->p->ruler, rulers, n, 1, k);
}

static void append_term_dependent(struct strbuf *sb, const struct pair_terms *t, size_t g)
{
	if (!t->texts.failed)
		strbuf_appendn(sb, t->texts.data + t->groups[g].text, t->groups[g].len);
}

/* "(R && D) || (R && D)", in parentheses when @inside another condition. */
static void append_terms(struct strbuf *sb, const struct pair_terms *t, const struct known_args *k,
			 bool inside)
{
	strbuf_append(sb, inside ? "(" : "");
	for (size_t g = 0, n = 0; g < t->ngroups; g++) {
		if (t->groups[g].term != g)
			continue;
		strbuf_append(sb, n++ ? " || (" : "(");
		append_term_ruler(sb, t, g, k);
		strbuf_append(sb, " && ");
		append_term_dependent(sb, t, g);
		strbuf_append(sb, ")");
	}
	strbuf_append(sb, inside ? ")" : "");
}

/*
 * " if prot in {PROT_READ, PROT_READ|PROT_WRITE} && flags == MAP_PRIVATE"
 * for the restricted arguments of @e in their order.  The paired ones
 * (@pairs, NULL when none are kept) are written from their pairs: as one
 * test each when their pairs make one term, else as the disjunction of the
 * terms where the first of them stands.
 */
static void append_condition(struct strbuf *sb, const struct scg_learn_entry *e,
			     const struct scg_learn_pairs *pairs)
{
	const char *join = " if ";
	struct known_args k = { { 0 }, 0 };
	for (unsigned i = 0; i < 6; i++)
		if ((e->listed & (1U << i)) && e->nvalues[i] == 1) {
			k.args[i] = e->values[i][0];
			k.mask |= 1U << i;
		}
	unsigned skip = pairs ? 1U << pairs->ruler | 1U << pairs->dependent : 0;
	k.mask &= ~skip; /* each term of the pairs says its own ruler */
	struct pair_terms terms = { 0 };
	if (pairs)
		pair_terms_build(&terms, e, pairs, &k);
	bool others = false;
	for (unsigned i = 0; i < 6; i++)
		others |= !(skip & (1U << i)) && arg_restricted(e, i);
	for (unsigned i = 0; i < 6; i++) {
		if (!(skip & (1U << i))) {
			if (append_arg(sb, e, i, &k, join))
				join = " && ";
			continue;
		}
		bool first = !(skip & ((1U << i) - 1));
		if (terms.nterms == 1 || first)
			strbuf_append(sb, join);
		join = " && ";
		if (terms.nterms != 1) {
			if (first)
				append_terms(sb, &terms, &k, others);
		} else if (i == pairs->ruler) {
			append_term_ruler(sb, &terms, 0, &k);
		} else {
			append_term_dependent(sb, &terms, 0);
		}
	}
	if (pairs) {
		if (terms.texts.failed)
			sb->failed = true;
		strbuf_release(&terms.texts);
	}
}

/*
 * One rule.  The pairs of two arguments that name each other are written
 * when kept; past SCG_LEARN_MAX_PAIRS a comment line says that each
 * argument is restricted on its own.
 */
static void write_rule(struct strbuf *sb, const struct abi_view *v, size_t index,
		       const struct scg_learn_entry *e)
{
	struct scg_learn_pairs pairs;
	bool paired = scg_learn_pairs_at(v->learn, index, &pairs) == 0;
	if (paired && !pairs.kept) {
		char r[16], d[16];
		strbuf_appendf(sb,
			       "# %s: more than %u pairs of %s and %s seen, each restricted on its "
			       "own\n",
			       e->name, SCG_LEARN_MAX_PAIRS, arg_text(e, pairs.ruler, r),
			       arg_text(e, pairs.dependent, d));
	}
	size_t start = sb->len;
	strbuf_appendf(sb, "allow %s", e->name);
	append_condition(sb, e, paired && pairs.kept && pairs.count ? &pairs : NULL);
	strbuf_append(sb, v->on);
	pad_line(sb, start);
	append_count(sb, e->calls);
	strbuf_append(sb, "\n");
}

/*
 * True when every member of @group that exists on the ABI was used without
 * restrictions and has @group as its category: then `allow @group` says
 * exactly what was seen.
 */
static bool whole_group_used(const struct abi_view *v, size_t group)
{
	const char *const *m = scg_group_members(group);
	size_t present = 0;
	for (; m && *m; m++) {
		uint32_t nr;
		if (scg_syscall_lookup(v->arch, *m, &nr) < 0)
			continue;
		struct scg_learn_entry e;
		if (!find_entry(v, *m, &e) || entry_restricted(&e) || category_of(*m) != group)
			return false;
		present++;
	}
	return present > 1;
}

static void write_group_rule(struct strbuf *sb, const struct abi_view *v, size_t group)
{
	uint64_t total = 0;
	struct scg_learn_entry e;
	for (const char *const *m = scg_group_members(group); *m; m++)
		if (find_entry(v, *m, &e))
			total += e.calls;
	size_t start = sb->len;
	strbuf_appendf(sb, "allow @%s%s", scg_group_name(group), v->on);
	pad_line(sb, start);
	append_count(sb, total);
	const char *sep = ": ";
	for (const char *const *m = scg_group_members(group); *m; m++) {
		if (!find_entry(v, *m, &e))
			continue;
		strbuf_appendf(sb, "%s%s %" PRIu64, sep, *m, e.calls);
		sep = ", ";
	}
	strbuf_append(sb, "\n");
}

static size_t group_present_count(const struct abi_view *v, size_t group)
{
	size_t n = 0;
	uint32_t nr;
	for (const char *const *m = scg_group_members(group); m && *m; m++)
		n += scg_syscall_lookup(v->arch, *m, &nr) == 0;
	return n;
}

/* One category of one ABI: its heading, then a group rule or one rule per syscall. */
static void write_category(struct strbuf *sb, const struct abi_view *v, size_t group)
{
	size_t used = 0;
	struct scg_learn_entry e;
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		used += e.name && category_of(e.name) == group;
	}
	if (!used)
		return;
	if (group < scg_group_count())
		strbuf_appendf(sb, "\n# @%s: %s (%zu of %zu used)\n", scg_group_name(group),
				   scg_group_summary(group), used, group_present_count(v, group));
	else
		strbuf_append(sb, "\n# in no group\n");
	if (group < scg_group_count() && whole_group_used(v, group)) {
		write_group_rule(sb, v, group);
		return;
	}
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		if (e.name && category_of(e.name) == group)
			write_rule(sb, v, i, &e);
	}
}

static void write_abi(struct strbuf *sb, const struct abi_view *v, bool heading)
{
	uint64_t calls = 0;
	struct scg_learn_entry e;
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		calls += e.calls;
	}
	if (heading)
		strbuf_appendf(sb, "\n# ===== %s: %zu syscalls, %" PRIu64 " calls =====\n",
				   scg_arch_name(v->arch), v->end - v->first, calls);
	for (size_t g = 0; g <= scg_group_count(); g++)
		write_category(sb, v, g);
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		if (!e.name)
			strbuf_appendf(sb,
					   "# syscall %" PRIu32 " (unknown to syscage's %s table): "
					   "%" PRIu64 " calls, answered by 'unknown'\n",
					   e.nr, scg_arch_name(v->arch), e.calls);
	}
}

/* ABIs to target: the native one first, then every ABI seen, in scg_arch_at() order. */
static size_t target_abis(const struct scg_learn *learn, const struct scg_arch **out, size_t max)
{
	size_t n = 0;
	const struct scg_arch *native = scg_arch_native();
	if (native)
		out[n++] = native;
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(learn); i++) {
		scg_learn_entry_at(learn, i, &e);
		bool known = false;
		for (size_t k = 0; k < n; k++)
			known |= out[k] == e.arch;
		if (!known && n < max)
			out[n++] = e.arch;
	}
	return n;
}

/* ENOSYS has one number on all of @abis (not so on mips and parisc): one 'unknown' line can say it. */
static bool one_enosys(const struct scg_arch **abis, size_t nabis)
{
	uint32_t first = 0, v;
	for (size_t i = 0; i < nabis; i++) {
		if (scg_errno_lookup(abis[i], "ENOSYS", &v) < 0)
			return false;
		if (i == 0)
			first = v;
		else if (v != first)
			return false;
	}
	return true;
}

static void write_header(struct strbuf *sb, const struct scg_learn *learn,
			 const struct scg_learn_text_options *opts, const struct scg_arch **abis,
			 size_t nabis)
{
	strbuf_append(sb, "# Learned by syscage learn");
	if (opts && opts->origin)
		strbuf_appendf(sb, " from: %s", opts->origin);
	strbuf_appendf(sb,
			   "\n# %zu syscalls, %" PRIu64 " calls.  Each rule ends with its count "
			   "(\"# N calls\"); see docs/learn.md.\n",
			   scg_learn_count(learn), scg_learn_total(learn));
	strbuf_append(sb, "arch ");
	for (size_t i = 0; i < nabis; i++)
		strbuf_appendf(sb, "%s%s", i ? ", " : "", scg_arch_name(abis[i]));
	strbuf_appendf(sb, "\ndefault %s\n", opts && opts->deny_with_eperm ? "errno(EPERM)" : "kill");
	if (one_enosys(abis, nabis))
		strbuf_append(sb, "unknown errno(ENOSYS)\n");
	else
		strbuf_append(sb, "# unknown numbers get the default: ENOSYS is not one number on these "
				  "ABIs\n");
	strbuf_append(sb, "badarch kill\n");
}

int scg_learn_to_text(const struct scg_learn *learn, const struct scg_learn_text_options *opts,
		      char **text)
{
	*text = NULL;
	struct scg_learn_text_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_learn_text_options, deny_with_eperm)) < 0)
		return -EINVAL;
	opts = &o;
	const struct scg_arch *abis[32];
	size_t nabis = target_abis(learn, abis, sizeof(abis) / sizeof(abis[0]));
	struct strbuf sb = STRBUF_INIT;
	write_header(&sb, learn, opts, abis, nabis);
	bool several = nabis > 1;
	for (size_t a = 0; a < nabis; a++) {
		char on[48] = "";
		if (several)
			snprintf(on, sizeof(on), " on %s", scg_arch_name(abis[a]));
		struct abi_view v = { .learn = learn, .arch = abis[a], .on = on };
		struct scg_learn_entry e;
		size_t i = 0, count = scg_learn_count(learn);
		while (i < count && (scg_learn_entry_at(learn, i, &e), e.arch != abis[a]))
			i++;
		v.first = i;
		while (i < count && (scg_learn_entry_at(learn, i, &e), e.arch == abis[a]))
			i++;
		v.end = i;
		if (v.first < v.end)
			write_abi(&sb, &v, several);
	}
	return strbuf_finish(&sb, text);
}
