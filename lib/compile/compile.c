/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* scg_compile(): the entry point, and what it says when a policy does not fit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/arch.h>
#include <syscage/compile.h>

#include "compile/internal.h"
#include "util/opts.h"
#include "util/strbuf.h"

#define MAX_STATS 32
#define SYSCALLS_NAMED 3

/* Nodes reachable from @root: roughly the instructions one ABI's part needs. */
static size_t reachable(const struct dag *g, uint32_t root, uint8_t *seen, uint32_t *stack)
{
	size_t count = 0, sp = 0;
	memset(seen, 0, g->len);
	stack[sp++] = root;
	seen[root] = 1;
	while (sp) {
		const struct dag_node *n = &g->nodes[stack[--sp]];
		count++;
		if (n->kind != DAG_TEST)
			continue;
		if (!seen[n->t]) {
			seen[n->t] = 1;
			stack[sp++] = n->t;
		}
		if (!seen[n->f]) {
			seen[n->f] = 1;
			stack[sp++] = n->f;
		}
	}
	return count;
}

static size_t expr_size(const struct scg_expr *e)
{
	if (!e)
		return 0;
	return (e->kind == SCG_EXPR_CMP ? 1 : 0) + expr_size(e->left) + expr_size(e->right);
}

/* Per syscall: how many rules name it and how many comparisons they hold. */
struct syscall_load {
	const char *name; /* NULL: a raw number */
	uint32_t number, number_last;
	size_t rules, comparisons;
	struct scg_loc first;
};

static bool same_load(const struct syscall_load *l, const struct scg_rule *r)
{
	return r->syscall ? l->name && !strcmp(l->name, r->syscall)
			  : !l->name && l->number == r->number && l->number_last == r->number_last;
}

static uint64_t load_hash(const struct scg_rule *r)
{
	return r->syscall ? hash_str(r->syscall)
			  : hash_combine(hash_u64(r->number), r->number_last);
}

/* The load of @r's syscall, added (in order of first appearance) when new. */
static struct syscall_load *load_of(struct syscall_load *loads, size_t *n, struct hashmap *index,
				    const struct scg_rule *r)
{
	uint64_t hash = load_hash(r), i;
	/* the index holds positions below *n only */
	for (size_t pos = HASHMAP_START; *n && hashmap_next(index, hash, &pos, &i);)
		if (same_load(&loads[i], r))
			return &loads[i];
	(void)hashmap_add(index, hash, *n); /* reserved for every rule */
	loads[*n] = (struct syscall_load){ .name = r->syscall, .number = r->number,
					   .number_last = r->number_last, .first = r->loc };
	return &loads[(*n)++];
}

/* "; most condition code: read (1500 rules, 1500 comparisons, first at f:3), ..." */
static void name_big_syscalls(const struct scg_policy *policy, struct strbuf *sb)
{
	size_t count = scg_policy_rule_count(policy), n = 0;
	struct syscall_load *loads = malloc((count ? count : 1) * sizeof(*loads));
	struct hashmap index = HASHMAP_INIT;
	if (!loads || hashmap_reserve(&index, count) < 0) {
		free(loads);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		struct scg_rule r;
		scg_policy_rule_at(policy, i, &r);
		struct syscall_load *l = load_of(loads, &n, &index, &r);
		l->rules++;
		l->comparisons += expr_size(r.cond);
	}
	hashmap_release(&index);
	for (size_t k = 0; k < SYSCALLS_NAMED; k++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (loads[i].comparisons && (best == n || loads[i].comparisons > loads[best].comparisons))
				best = i;
		if (best == n)
			break;
		const struct syscall_load *l = &loads[best];
		strbuf_append(sb, k ? ", " : "; most condition code: ");
		if (l->name)
			strbuf_append(sb, l->name);
		else if (l->number_last > l->number)
			strbuf_appendf(sb, "syscalls %u..%u", l->number, l->number_last);
		else
			strbuf_appendf(sb, "syscall %u", l->number);
		strbuf_appendf(sb, " (%zu rule%s, %zu comparisons", l->rules, l->rules == 1 ? "" : "s",
				   l->comparisons);
		if (l->first.file)
			strbuf_appendf(sb, ", first at %s:%u", l->first.file, l->first.line);
		strbuf_append(sb, ")");
		loads[best].comparisons = 0;
	}
	free(loads);
}

/* "x86_64 + x32: " for the ABIs that share @stats[i]'s code, or NULL when listed already. */
static bool name_group(const struct abi_stats *stats, size_t nstats, size_t i, bool shared_roots,
		       struct strbuf *sb)
{
	for (size_t j = 0; shared_roots && j < i; j++)
		if (stats[j].root == stats[i].root)
			return false;
	strbuf_append(sb, scg_arch_name(stats[i].arch));
	for (size_t j = i + 1; shared_roots && j < nstats; j++)
		if (stats[j].root == stats[i].root)
			strbuf_appendf(sb, " + %s", scg_arch_name(stats[j].arch));
	strbuf_append(sb, ": ");
	return true;
}

static void report_too_big(const struct scg_policy *policy, const struct dag *g,
			   const struct abi_stats *stats, size_t nstats, size_t len,
			   struct scg_diag *diag)
{
	struct strbuf sb = STRBUF_INIT;
	if (len)
		strbuf_appendf(&sb, "the filter needs %zu instructions; the kernel accepts at most %u",
				   len, SCG_BPF_MAXINSNS);
	else
		strbuf_appendf(&sb, "the filter needs more than the %u instructions the kernel accepts",
				   SCG_BPF_MAXINSNS);
	uint8_t *seen = g ? malloc(g->len) : NULL;
	uint32_t *stack = g ? malloc(g->len * sizeof(*stack)) : NULL;
	for (size_t i = 0, shown = 0; i < nstats; i++) {
		struct strbuf name = STRBUF_INIT;
		if (!name_group(stats, nstats, i, g != NULL, &name)) {
			strbuf_release(&name);
			continue;
		}
		strbuf_append(&sb, shown++ ? "; " : " (");
		strbuf_append(&sb, name.data ? name.data : "");
		strbuf_release(&name);
		if (!g)
			strbuf_appendf(&sb, "%zu instructions", stats[i].insns);
		else if (seen && stack)
			strbuf_appendf(&sb, "%zu number ranges, about %zu instructions",
					   stats[i].ranges, reachable(g, stats[i].root, seen, stack));
	}
	if (nstats)
		strbuf_append(&sb, ")");
	free(seen);
	free(stack);
	name_big_syscalls(policy, &sb);
	char *msg = NULL;
	if (strbuf_finish(&sb, &msg) == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "filter-too-long",
			     "target fewer ABIs, merge rules, or split the policy into stacked filters",
			     "%s", msg);
		free(msg);
	}
}

static int compile_optimized(const struct scg_policy *policy,
			     const struct scg_compile_options *opts, struct lprog *lp,
			     struct scg_diag *diag, struct scg_prog *out)
{
	struct weights w;
	int r = weights_init(&w, opts);
	if (r < 0)
		return r;
	struct dag g;
	struct cond_ctx c;
	struct abi_stats stats[MAX_STATS];
	size_t nstats = 0;
	uint32_t root = 0;
	r = dag_init(&g);
	if (r == 0)
		r = cond_init(&c, &g);
	else
		memset(&c, 0, sizeof(c));
	if (r == 0)
		r = layout_build(policy, &w, &g, &c, &root, stats, &nstats);
	if (r == 0)
		r = codegen_emit(&g, root, lp);
	/* layout_build() can refuse with -E2BIG before anything is resolved: len stays 0 then. */
	struct lprog_report rep = { .len = 0 };
	if (r == 0)
		r = lprog_resolve(lp, out, NULL, &rep);
	if (r == -E2BIG)
		report_too_big(policy, &g, stats, nstats, rep.len, diag);
	cond_release(&c);
	dag_release(&g);
	weights_release(&w);
	return r;
}

static int compile_plain(const struct scg_policy *policy, struct lprog *lp, struct scg_diag *diag,
			 struct scg_prog *out)
{
	struct abi_stats stats[MAX_STATS];
	size_t nstats = 0;
	int r = plain_emit(policy, lp, stats, &nstats);
	struct lprog_report rep = { .len = 0 };
	if (r == 0)
		r = lprog_resolve(lp, out, NULL, &rep);
	if (r == -E2BIG)
		report_too_big(policy, NULL, stats, nstats, rep.len, diag);
	return r;
}

int scg_compile(const struct scg_policy *policy, const struct scg_compile_options *opts,
		struct scg_prog *out, struct scg_diag *diag)
{
	*out = (struct scg_prog){ 0 };
	if (!policy)
		return -EINVAL;
	if (scg_policy_arch_count(policy) == 0) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "no-target-arch",
			     scg_hint_text(SCG_HINT_POLICY_ARCH), "the policy targets no ABI");
		return -EINVAL;
	}
	if (scg_policy_arch_count(policy) > MAX_STATS)
		return -E2BIG;
	struct scg_compile_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_compile_options, unweighted)) < 0)
		return -EINVAL;
	if (!opts)
		o.optimize = 1; /* no options: every optimisation */
	opts = &o;
	struct lprog *lp = lprog_new();
	if (!lp)
		return -ENOMEM;
	unsigned optimize = opts->optimize;
	int r = optimize ? compile_optimized(policy, opts, lp, diag, out)
			 : compile_plain(policy, lp, diag, out);
	lprog_free(lp);
	return r;
}
