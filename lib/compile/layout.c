/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Layout: from a policy to the decision graph of the whole filter.
 *
 * The filter first compares seccomp_data.arch with each AUDIT_ARCH value the
 * policy targets (in the policy's order; anything else gets the badarch
 * verdict).  Under each value, one search tree on nr covers all 2^32
 * numbers.  x86_64 and x32 share AUDIT_ARCH_X86_64, so their tree is split
 * at its root by `jge #0x40000000`: x32 numbers carry bit 30, and the one
 * exception, nr == -1 (0xffffffff), is simply a range of its own that
 * belongs to x86_64 -- exactly scg_arch_from_audit()'s rule.  A half whose
 * ABI is not a target is one range with the badarch verdict.
 *
 * Numbers are cut into ranges with one decision each.  Every rule covers an
 * interval of numbers on an ABI (a name or a single number: one point; a
 * rule such as `kill 0x80000000..0xbfffffff`: all of them), so the cuts are
 * at each known syscall, on both sides, and at each end of each rule's
 * interval.  Between two cuts the rules that apply and the fallback verdict
 * (default for a known syscall, unknown for the other numbers) do not
 * change, so a range of 2^30 numbers costs one decision, not 2^30.
 * Neighbouring ranges whose decisions compile to the same node merge.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>

#include "bpf/opcodes.h"
#include "compile/internal.h"
#include "util/grow.h"
#include "util/hashmap.h"

#define NO_FORMULA UINT32_MAX
/*
 * What the number dispatch (hot chain and tree) is laid out for: a blend of
 * the workload with a uniform prior, under a height bound.
 *
 * Each known syscall the kernel cannot cache weighs UNIFORM_UNIT (the
 * uniform prior: every such number alike); the workload's calls of those
 * syscalls together weigh WORKLOAD_SHARE times all of them together, shared
 * out by their counts; a syscall the kernel caches weighs 1, a tie-break
 * for kernels without the cache; other numbers weigh nothing.  The tree and
 * the chain minimise the blended cost B = W + U / WORKLOAD_SHARE, where W
 * is the mean dispatch length per workload call and U the mean over the
 * uncached numbers (both in tests).  And no number's dispatch (chain and
 * tree, not the x32 split) is longer than DEPTH_SLACK tests more than a
 * balanced tree over the same ranges.
 *
 * Why that holds the two figures: let T be the layout, O_W the best tree
 * for W alone within the bound, and U <= H (the bound) for any tree in it.
 * T minimises B in the bound, so W(T) + U(T)/S <= W(O_W) + U(O_W)/S, that
 * is W(T) <= W(O_W) + (H - U(T))/S: the workload pays at most
 * (H - U)/WORKLOAD_SHARE tests per call over its own optimum in the bound,
 * about 0.1 to 0.2 with H - U of 2 or 3.  The uniform figure is the other
 * side: U(T) <= U(O_U) + S (W(O_U) - W(T)), and the bound caps it at H
 * whatever the workload; in practice the workload's calls are a few
 * syscalls that a `jeq` each or a shallow leaf serves, and the rest of the
 * tree stays balanced.  `compile --stats` prints both against their optima.
 */
#define UNIFORM_UNIT 4096
#define WORKLOAD_SHARE 4
#define DEPTH_SLACK 2
#define X32_SPLIT SCG_X32_SYSCALL_BIT
/* A policy holds at most 32 target ABIs (a bit each in a rule's arch_mask). */
#define MAX_TARGETS 32

uint32_t compile_action(uint32_t action)
{
	switch (scg_action_of(action)) {
	case SCG_ACTION_ALLOW:
	case SCG_ACTION_LOG:
	case SCG_ACTION_KILL_PROCESS:
	case SCG_ACTION_KILL_THREAD:
	case SCG_ACTION_USER_NOTIF:
		return action & SCG_RET_ACTION_FULL; /* the kernel ignores their data */
	case SCG_ACTION_TRAP:
	case SCG_ACTION_ERRNO:
	case SCG_ACTION_TRACE:
	case SCG_ACTION_UNKNOWN:
		break;
	}
	return action;
}

/* A rule that can match numbers @first..@last on an ABI. */
struct rule_span {
	uint32_t first, last, rule;
};

/* Decision memo: the entries of one decision, flattened, and the node built for it. */
struct known_decision {
	size_t at, n; /* in layout.keys */
	uint32_t final;
	uint32_t node;
};

struct layout {
	const struct scg_policy *policy;
	struct dag *g;
	struct cond_ctx *c;
	uint32_t *formula[2]; /* per byte order (little, big), per rule */
	uint32_t default_action, unknown_action, badarch_action;
	struct entry *scratch; /* entries of the decision being built */
	struct known_decision *decisions;
	size_t ndecisions, decisions_cap;
	struct hashmap decision_index; /* entries_hash() -> index into decisions */
	struct entry *keys;
	size_t nkeys, keys_cap;
	struct nr_range *ranges;
	size_t nranges, ranges_cap;
	const struct weights *weights;
	struct nr_weights nw;        /* the workload on nw_arch, by number */
	const struct scg_arch *nw_arch;
	uint32_t allow;           /* the RET ALLOW node: the verdict the kernel caches */
	uint32_t fallback[2];     /* the RET nodes of unknown and known numbers, once built */
	uint32_t *numbers;        /* the known syscalls of numbers_arch, in table order */
	size_t nnumbers;
	const struct scg_arch *numbers_arch;
	struct hot_list hot;      /* candidates for the chain in front of the tree */
	int err;
};

static int cmp_rule_span(const void *a, const void *b)
{
	const struct rule_span *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

/* The interval of every rule that applies on @arch, by first number then rule order. */
static int rules_on(const struct scg_policy *policy, const struct scg_arch *arch,
		    struct rule_span **out, size_t *n)
{
	size_t count = scg_policy_rule_count(policy), k = 0;
	struct rule_span *list = malloc((count ? count : 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		uint32_t first, last;
		if (scg_policy_rule_range(policy, i, arch, &first, &last) == 0)
			list[k++] = (struct rule_span){ first, last, (uint32_t)i };
	}
	qsort(list, k, sizeof(*list), cmp_rule_span);
	*out = list;
	*n = k;
	return 0;
}

static uint32_t rule_formula(struct layout *l, uint32_t rule, bool big_endian)
{
	uint32_t *cache = &l->formula[big_endian][rule];
	if (*cache == NO_FORMULA) {
		struct scg_rule r;
		scg_policy_rule_at(l->policy, rule, &r);
		*cache = cond_formula(l->c, r.cond, big_endian);
	}
	return *cache;
}

static uint64_t entries_hash(const struct entry *e, size_t n, uint32_t final)
{
	uint64_t h = hash_combine(hash_u64(final), n);
	for (size_t i = 0; i < n; i++)
		h = hash_combine(h, (uint64_t)e[i].formula << 32 | e[i].action);
	return h;
}

/* The decision in l->scratch[0, n) with @final if it was built before, or NULL. */
static const struct known_decision *find_decision(const struct layout *l, uint64_t hash,
						  size_t n, uint32_t final)
{
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&l->decision_index, hash, &pos, &i);) {
		const struct known_decision *d = &l->decisions[i];
		if (d->n == n && d->final == final &&
		    !memcmp(&l->keys[d->at], l->scratch, n * sizeof(*l->scratch)))
			return d;
	}
	return NULL;
}

static int remember(struct layout *l, uint64_t hash, size_t n, uint32_t final, uint32_t node)
{
	if (GROW_ARRAY(&l->decisions, &l->decisions_cap, l->ndecisions + 1, 64) ||
	    GROW_ARRAY(&l->keys, &l->keys_cap, l->nkeys + n, 2 * n) ||
	    hashmap_add(&l->decision_index, hash, l->ndecisions) < 0)
		return -ENOMEM;
	memcpy(&l->keys[l->nkeys], l->scratch, n * sizeof(*l->scratch));
	l->decisions[l->ndecisions++] = (struct known_decision){ l->nkeys, n, final, node };
	l->nkeys += n;
	return 0;
}

/* The node for the decision in l->scratch[0, n) with @final; built once per distinct decision. */
static uint32_t decision_node(struct layout *l, size_t n, uint32_t final)
{
	/* Trailing entries that give the fallback verdict anyway change nothing. */
	while (n && l->scratch[n - 1].action == final)
		n--;
	if (n == 0)
		return dag_ret(l->g, final);
	uint64_t hash = entries_hash(l->scratch, n, final);
	const struct known_decision *known = find_decision(l, hash, n, final);
	if (known)
		return known->node;
	uint32_t node = cond_decide(l->c, l->scratch, n, final);
	if (remember(l, hash, n, final, node) < 0)
		l->err = -ENOMEM;
	return node;
}

/* The node deciding numbers of @arch that rules @rules (in policy order) cover. */
static uint32_t rules_node(struct layout *l, const struct scg_arch *arch, bool known,
			   const uint32_t *rules, size_t nrules)
{
	uint32_t final = known ? l->default_action : l->unknown_action;
	bool big = scg_arch_big_endian(arch);
	size_t n = 0;
	for (size_t i = 0; i < nrules; i++) {
		struct scg_rule r;
		scg_policy_rule_at(l->policy, rules[i], &r);
		uint32_t f = rule_formula(l, rules[i], big);
		int fixed = cond_constant(l->c, f);
		if (fixed == 0)
			continue;
		if (fixed == 1) {
			final = compile_action(r.action);
			break;
		}
		l->scratch[n++] = (struct entry){ f, compile_action(r.action) };
	}
	return decision_node(l, n, final);
}

static int push_range(struct layout *l, uint32_t first, uint32_t last, uint32_t node,
		      bool known, bool uncached, uint64_t calls)
{
	if (GROW_ARRAY(&l->ranges, &l->ranges_cap, l->nranges + 1, 256))
		return -ENOMEM;
	l->ranges[l->nranges++] = (struct nr_range){ .first = first, .last = last, .node = node,
						     .calls = calls, .uncached = uncached,
						     .known = known };
	return 0;
}

/* Range l->nranges - 1, number @nr, made @count calls and is not cacheable: a candidate for the chain. */
static int note_hot(struct layout *l, uint32_t nr, uint32_t node, uint64_t count)
{
	if (l->weights->n == 0)
		return 0; /* no workload: the tree alone */
	/* Argument checks are never cached: they are candidates even when the workload
	 * never made the call (hot_sort() puts them after the frequent ones). */
	bool checks = l->g->nodes[node].kind == DAG_TEST;
	if (count == 0 && !checks)
		return 0;
	struct hot_call call = { .nr = nr, .node = node, .count = count, .range = l->nranges - 1,
				 .checks_args = checks };
	return hot_add(&l->hot, &call);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void add_bound(uint64_t *bounds, size_t *n, uint64_t lo, uint64_t hi, uint64_t b)
{
	if (b >= lo && b <= hi)
		bounds[(*n)++] = b;
}

/* Appends @b to the sorted, distinct @out unless it is there already. */
static void put_cut(uint64_t *out, size_t *n, uint64_t b)
{
	if (*n == 0 || out[*n - 1] < b)
		out[(*n)++] = b;
}

/*
 * Where decisions in [lo, hi] can change, sorted and distinct, from lo to
 * hi + 1: each known syscall and the number after it, the first number of
 * each rule's interval and the number after its last.  The syscall table is
 * in number order, so only the rules' few bounds are sorted, then merged in.
 * NULL on ENOMEM.
 */
static uint64_t *cut_points(const uint32_t *numbers, size_t nsys, uint32_t lo, uint32_t hi,
			    const struct rule_span *rules, size_t nrules, size_t *count)
{
	size_t nrb = 0, k = 0, j = 0;
	size_t ncuts = 2 * nsys + 2 * nrules + 2;
	uint64_t *b = malloc((ncuts + 2 * nrules) * sizeof(*b));
	if (!b)
		return NULL;
	uint64_t *rb = b + ncuts; /* the rules' bounds, after room for every cut */
	for (size_t i = 0; i < nrules; i++) {
		add_bound(rb, &nrb, lo, hi, rules[i].first);
		add_bound(rb, &nrb, lo, hi, (uint64_t)rules[i].last + 1);
	}
	if (nrb > 1)
		qsort(rb, nrb, sizeof(*rb), cmp_u64);
	put_cut(b, &k, lo);
	for (size_t i = 0; i < nsys; i++) {
		for (uint64_t s = numbers[i]; s <= (uint64_t)numbers[i] + 1; s++) {
			if (s < lo || s > hi)
				continue;
			while (j < nrb && rb[j] <= s)
				put_cut(b, &k, rb[j++]);
			put_cut(b, &k, s);
		}
	}
	while (j < nrb)
		put_cut(b, &k, rb[j++]);
	put_cut(b, &k, (uint64_t)hi + 1);
	*count = k;
	return b;
}

/*
 * The rules covering the piece that starts at @at, in policy order:
 * @active (*@nactive entries) gains the intervals that start by @at (from
 * *@next on; @rules is sorted by first number) and loses those that ended.
 */
static void update_active(const struct rule_span *rules, size_t nrules, size_t *next,
			  uint64_t at, struct rule_span *active, size_t *nactive)
{
	size_t k = 0;
	for (size_t i = 0; i < *nactive; i++)
		if (active[i].last >= at)
			active[k++] = active[i];
	for (; *next < nrules && rules[*next].first <= at; ++*next) {
		if (rules[*next].last < at)
			continue;
		size_t j = k++;
		for (; j > 0 && active[j - 1].rule > rules[*next].rule; j--)
			active[j] = active[j - 1];
		active[j] = rules[*next];
	}
	*nactive = k;
}

/* The next of the @nsys known @numbers at or above @at, from index *@si on; UINT64_MAX if none. */
static uint64_t next_syscall(const uint32_t *numbers, size_t nsys, size_t *si, uint64_t at)
{
	for (; *si < nsys; ++*si)
		if (numbers[*si] >= at)
			return numbers[*si];
	return UINT64_MAX;
}

/*
 * The numbers of @arch's known syscalls, in table (number) order, into
 * l->numbers: asked once per ABI however many intervals it has, where the
 * cuts and the pieces would otherwise walk the table a second time.
 */
static int known_numbers(struct layout *l, const struct scg_arch *arch)
{
	if (l->numbers_arch == arch)
		return 0;
	size_t nsys = scg_syscall_count(arch), k = 0;
	uint32_t *numbers = realloc(l->numbers, (nsys ? nsys : 1) * sizeof(*numbers));
	if (!numbers)
		return -ENOMEM;
	for (size_t i = 0; i < nsys; i++)
		if (scg_syscall_at(arch, i, NULL, &numbers[k]) == 0)
			k++;
	l->numbers = numbers;
	l->nnumbers = k;
	l->numbers_arch = arch;
	return 0;
}

/* The RET node of the fallback verdict: @known numbers get the default, the others unknown's. */
static uint32_t fallback_node(struct layout *l, bool known)
{
	if (l->fallback[known] == UINT32_MAX)
		l->fallback[known] = dag_ret(l->g, known ? l->default_action : l->unknown_action);
	return l->fallback[known];
}

/*
 * The decision of one piece [at, last] and its range (and its place in the
 * hot chain); @nw, the workload on @arch, is asked in ascending order of @at.
 */
static int push_piece(struct layout *l, const struct scg_arch *arch, struct nr_weights *nw,
		      uint32_t at, uint32_t last, bool known, const struct rule_span *active,
		      size_t nactive, uint32_t *ids)
{
	uint32_t node;
	if (nactive == 0) {
		node = fallback_node(l, known);
	} else {
		for (size_t i = 0; i < nactive; i++)
			ids[i] = active[i].rule;
		node = rules_node(l, arch, known, ids, nactive);
	}
	bool uncached = known && node != l->allow;
	uint64_t calls = uncached ? nr_weights_of(nw, at) : 0;
	if (push_range(l, at, last, node, known, uncached, calls) < 0 ||
	    (uncached && note_hot(l, at, node, calls) < 0))
		return -ENOMEM;
	return 0;
}

/* Cuts [first, last] of a target ABI into ranges of one decision each. */
static int cut_interval(struct layout *l, const struct scg_arch *arch, uint32_t first,
			uint32_t last, const struct rule_span *rules, size_t nrules)
{
	size_t ncuts = 0, next = 0, nactive = 0, si = 0;
	int err = known_numbers(l, arch);
	if (err)
		return err;
	uint64_t *cuts = cut_points(l->numbers, l->nnumbers, first, last, rules, nrules, &ncuts);
	struct rule_span *active = malloc((nrules ? nrules : 1) * sizeof(*active));
	uint32_t *ids = malloc((nrules ? nrules : 1) * sizeof(*ids));
	if (l->nw_arch != arch) { /* once per ABI, however many intervals it has */
		nr_weights_release(&l->nw);
		l->nw_arch = NULL;
		err = weights_by_nr(l->weights, arch, &l->nw);
		if (!err)
			l->nw_arch = arch;
	}
	l->nw.next = 0;
	if (!cuts || !active || !ids)
		err = -ENOMEM;
	for (size_t k = 0; !err && k + 1 < ncuts; k++) {
		uint64_t at = cuts[k];
		/* A known syscall is a cut on both sides: a piece holds one or none. */
		bool known = next_syscall(l->numbers, l->nnumbers, &si, at) == at;
		update_active(rules, nrules, &next, at, active, &nactive);
		err = push_piece(l, arch, &l->nw, (uint32_t)at, (uint32_t)(cuts[k + 1] - 1), known,
				 active, nactive, ids);
	}
	free(cuts);
	free(active);
	free(ids);
	return err ? err : l->err;
}

/* Intervals on which scg_arch_from_audit() cannot change its answer. */
static const uint32_t abi_intervals[][2] = {
	{ 0x00000000U, 0x3fffffffU }, { 0x40000000U, 0x7fffffffU }, { 0x80000000U, 0xbfffffffU },
	{ 0xc0000000U, 0xfffffffeU }, { 0xffffffffU, 0xffffffffU },
};
#define N_INTERVALS (sizeof(abi_intervals) / sizeof(abi_intervals[0]))


/* Ranges of one AUDIT_ARCH value over [first, last] of the number space, appended to l->ranges. */
static int cut_audit(struct layout *l, uint32_t audit, uint32_t first, uint32_t last,
		     struct rule_span **rules, size_t *nrules)
{
	uint32_t badarch = dag_ret(l->g, l->badarch_action);
	for (size_t i = 0; i < N_INTERVALS; i++) {
		uint32_t lo = abi_intervals[i][0], hi = abi_intervals[i][1];
		if (hi < first || lo > last)
			continue;
		const struct scg_arch *arch = scg_arch_from_audit(audit, lo);
		size_t t;
		for (t = 0; t < scg_policy_arch_count(l->policy); t++)
			if (scg_policy_arch_at(l->policy, t) == arch)
				break;
		int r = t < scg_policy_arch_count(l->policy)
				? cut_interval(l, arch, lo, hi, rules[t], nrules[t])
				: push_range(l, lo, hi, badarch, false, false, 0);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * The ranges of @src the tree lays out when the first @nhot candidates of
 * @hot have a `jeq` in front of it, into @dst (which may be @src): the
 * numbers the chain catches never reach the tree, so each one's range takes
 * its lower neighbour's node (the upper one's for the first range) and
 * weighs nothing; then neighbours that decide alike merge.  In number
 * order, so a run of chained numbers merges whole.  One pass, where
 * pricing each chain length would otherwise copy and rewrite every range.
 * Returns how many ranges @dst holds.
 */
static size_t merge_unlinked(const struct hot_list *hot, size_t nhot, const struct nr_range *src,
			     size_t n, struct nr_range *dst)
{
	size_t idx[HOT_MAX], h = 0, out = 0;
	for (size_t i = 0; i < nhot; i++) {
		size_t k = i;
		for (; k > 0 && idx[k - 1] > hot->calls[i].range; k--)
			idx[k] = idx[k - 1];
		idx[k] = hot->calls[i].range;
	}
	uint32_t below = 0; /* the node range i - 1 ended up with */
	for (size_t i = 0; i < n; i++) {
		struct nr_range r = src[i];
		if (h < nhot && idx[h] == i) {
			while (h < nhot && idx[h] == i)
				h++;
			if (i > 0)
				r.node = below;
			else if (n > 1)
				r.node = src[1].node; /* read before anything is written over it */
			r.weight = r.calls = 0;
			r.uncached = 0;
		}
		below = r.node;
		struct nr_range *last = out ? &dst[out - 1] : NULL;
		if (last && last->node == r.node && last->last + 1 == r.first) {
			last->last = r.last;
			last->weight += r.weight;
			last->calls += r.calls;
			last->uncached += r.uncached;
			last->known += r.known;
		} else {
			dst[out++] = r;
		}
	}
	return out;
}

/*
 * The prior leans a little toward lower numbers: on every ABI's table the
 * older syscalls, which programs call most.  An eighth of UNIFORM_UNIT for
 * the first four numbers, falling as 1/nr, so all of it together weighs
 * about as much as two or three numbers of the uniform part.
 */
#define OLDER_BONUS (UNIFORM_UNIT / 8)
static uint64_t older_bonus(uint32_t nr)
{
	uint32_t low = nr & 0xfffU; /* MIPS numbers carry their ABI's base */
	return OLDER_BONUS / (1 + low / 4);
}

/* The blend of the workload and the uniform prior (see UNIFORM_UNIT) for each range. */
static void range_weights(struct nr_range *r, size_t n)
{
	uint64_t uncached = 0, calls = 0;
	for (size_t i = 0; i < n; i++) {
		uncached += r[i].uncached;
		calls += r[i].calls;
	}
	double share = calls ? (double)WORKLOAD_SHARE * (double)(uncached ? uncached : 1) *
				       UNIFORM_UNIT / (double)calls
			     : 0;
	for (size_t i = 0; i < n; i++) {
		r[i].weight = (uint64_t)r[i].uncached * (UNIFORM_UNIT + older_bonus(r[i].first)) +
			      (r[i].known && !r[i].uncached ? 1 : 0);
		if (r[i].calls)
			r[i].weight += (uint64_t)((double)r[i].calls * share + 0.5);
	}
}

/*
 * choose_chain() past TREE_EXACT_MAX ranges, where the tree keeps no bound
 * and pricing each chain length would plan the whole tree again: a
 * candidate keeps its `jeq` while it saves its own weight a walk down a
 * balanced tree (about log2(ranges) tests) more than it costs all the
 * weight behind it (one test each).  Every range weighs at least 1 there,
 * so that where nothing weighs the tree's weight halving splits by count
 * instead of peeling off one range a level.
 */
static size_t long_chain(struct layout *l, size_t ranges)
{
	uint64_t rest = 0, depth = tree_height_needed(ranges);
	for (size_t i = 0; i < l->nranges; i++) {
		if (l->ranges[i].weight == 0)
			l->ranges[i].weight = 1;
		rest += l->ranges[i].weight;
	}
	size_t k = 0;
	while (k < l->hot.n && k < HOT_MAX && depth > 1) {
		uint64_t w = l->ranges[l->hot.calls[k].range].weight;
		rest -= w;
		if (w * (depth - 1) <= rest)
			break;
		k++;
	}
	return k;
}

/*
 * How many of the sorted candidates get a `jeq` in front of the tree, and
 * the height the tree may then have (*@limit): the count that minimises the
 * blended cost of chain and tree together, every count from none to
 * HOT_MAX priced exactly, within the height bound (DEPTH_SLACK).  @split:
 * 1 when the x32 split stands between the chain and the tree.  *@plan:
 * the plan of that tree, or NULL past TREE_EXACT_MAX ranges.
 */
static size_t choose_chain(struct layout *l, unsigned split, unsigned *limit,
			   struct tree_plan **plan, int *err)
{
	*plan = NULL;
	size_t n = l->nranges, best_k = 0;
	struct nr_range *copy = malloc(n * sizeof(*copy));
	if (!copy) {
		*err = -ENOMEM;
		return 0;
	}
	size_t ranges = merge_unlinked(&l->hot, 0, l->ranges, n, copy);
	if (ranges > TREE_EXACT_MAX) {
		free(copy);
		*limit = 0;
		return long_chain(l, ranges);
	}
	unsigned bound = tree_height_needed(ranges) + DEPTH_SLACK;
	*limit = bound;
	uint64_t best = UINT64_MAX, total = 0;
	for (size_t i = 0; i < n; i++)
		total += l->ranges[i].weight;
	size_t most = l->hot.n < HOT_MAX ? l->hot.n : HOT_MAX;
	for (size_t k = 0; k <= most && k < bound && *err == 0; k++) {
		uint64_t chain = 0, rest = total;
		for (size_t i = 0; i < k; i++) {
			uint64_t w = l->ranges[l->hot.calls[i].range].weight;
			chain += (i + 1) * w;
			rest -= w;
		}
		/* What the chain costs and the tree's test costs the rest grows with k (by
		 * rest - split * w per step): once it reaches the best, no longer chain wins. */
		if (best != UINT64_MAX && chain + (k + split) * rest >= best)
			break;
		/* with no chain, @copy still holds the merge above */
		size_t merged = k ? merge_unlinked(&l->hot, k, l->ranges, n, copy) : ranges;
		unsigned left = (unsigned)(bound - k);
		if (left < tree_height_needed(merged))
			break;
		/* A tree of two leaves or more tests every range at least once. */
		if (best != UINT64_MAX && merged > 1 && chain + (k + split + 1) * rest >= best)
			continue;
		uint64_t tree;
		struct tree_plan *t = tree_plan(copy, merged, left, &tree, err);
		if (tree == UINT64_MAX)
			continue;
		uint64_t cost = chain + (k + split) * rest + tree;
		if (cost < best) {
			best = cost;
			best_k = k;
			*limit = left;
			tree_plan_free(*plan);
			*plan = t;
		} else {
			tree_plan_free(t);
		}
	}
	free(copy);
	if (*err < 0) {
		tree_plan_free(*plan);
		*plan = NULL;
	}
	return best_k;
}

/*
 * Numbers [first, last] under @audit (one ABI's): the search tree over its
 * ranges into *@tree, and the chain of its hot syscalls in front of it as
 * the return value (private copies @copy).  *@hot (when not NULL) gets the
 * hot list instead, and the tree alone is returned, for the caller to put
 * the chain elsewhere.
 */
static uint32_t abi_tree(struct layout *l, uint32_t audit, uint32_t first, uint32_t last,
			 uint8_t copy, struct rule_span **rules, size_t *nrules, size_t *nranges,
			 struct hot_list *hot, size_t *nhot_out, int *err)
{
	l->nranges = 0;
	l->hot.n = 0;
	*err = cut_audit(l, audit, first, last, rules, nrules);
	if (*err < 0)
		return 0;
	range_weights(l->ranges, l->nranges);
	hot_sort(&l->hot);
	unsigned limit = 0;
	unsigned split = hot != NULL; /* the x32 split comes between chain and tree */
	struct tree_plan *plan;
	size_t nhot = choose_chain(l, split, &limit, &plan, err);
	if (*err < 0)
		return 0;
	size_t merged = merge_unlinked(&l->hot, nhot, l->ranges, l->nranges, l->ranges);
	*nranges += merged;
	/* The tree choose_chain() priced is the one over these ranges: no second plan. */
	uint32_t tree = plan ? tree_plan_emit(l->g, plan)
			     : tree_build(l->g, l->ranges, merged, limit, err);
	tree_plan_free(plan);
	if (*err < 0)
		return 0;
	if (hot) {
		for (size_t i = 0; i < nhot && *err == 0; i++)
			*err = hot_add(hot, &l->hot.calls[i]);
		*nhot_out = nhot;
		return tree;
	}
	return hot_chain(l->g, &l->hot, nhot, tree, copy);
}

/*
 * The tree for one AUDIT_ARCH value.  When two ABIs share the value (x86_64
 * and x32), `jge #0x40000000` separates them: x32 numbers carry bit 30, and
 * the -1 exception is a range of the upper half that decides like x86_64.
 * x86_64's hot syscalls are tested before that split: a `jeq` on an x86_64
 * number (bit 30 clear) never matches an x32 call, so the split costs
 * them nothing, and the verifier's x32 check knows such a `jeq` as safe.
 * x32's chain comes behind the split, so it never costs x86_64's calls
 * anything.
 */
static uint32_t audit_tree(struct layout *l, uint32_t audit, uint8_t copy, struct rule_span **rules,
			   size_t *nrules, size_t *nranges, int *err)
{
	*nranges = 0;
	const struct scg_arch *upper = scg_arch_from_audit(audit, X32_SPLIT);
	bool upper_target = false;
	for (size_t t = 0; t < scg_policy_arch_count(l->policy); t++)
		upper_target |= scg_policy_arch_at(l->policy, t) == upper;
	/* Without x32 among the targets its numbers are badarch ranges of one tree,
	 * which puts them where they cost least instead of a split in front of all. */
	if (scg_arch_from_audit(audit, 0) == upper || !upper_target)
		return abi_tree(l, audit, 0, UINT32_MAX, copy, rules, nrules, nranges, NULL, NULL,
				err);
	struct hot_list low_hot = { 0 };
	size_t nlow = 0;
	uint32_t low = abi_tree(l, audit, 0, X32_SPLIT - 1, copy, rules, nrules, nranges, &low_hot,
				&nlow, err);
	uint32_t node = 0;
	if (*err == 0) {
		uint32_t high = abi_tree(l, audit, X32_SPLIT, UINT32_MAX, (uint8_t)(copy + 1), rules,
					 nrules, nranges, NULL, NULL, err);
		if (*err == 0) {
			node = dag_test(l->g, SCG_DATA_NR, WORD_FULL, BPF_JGE, X32_SPLIT, high, low);
			node = hot_chain(l->g, &low_hot, nlow, node, copy);
		}
	}
	hot_release(&low_hot);
	return node;
}

static int layout_init(struct layout *l, const struct scg_policy *policy,
		       const struct weights *w, struct dag *g, struct cond_ctx *c)
{
	size_t nrules = scg_policy_rule_count(policy);
	memset(l, 0, sizeof(*l));
	l->policy = policy;
	l->weights = w;
	l->g = g;
	l->c = c;
	l->allow = dag_ret(g, SCG_RET_ALLOW);
	l->fallback[0] = l->fallback[1] = UINT32_MAX;
	l->default_action = compile_action(scg_policy_default(policy));
	l->badarch_action = compile_action(scg_policy_badarch(policy));
	uint32_t unknown;
	l->unknown_action = scg_policy_unknown(policy, &unknown) ? compile_action(unknown)
								 : l->default_action;
	for (int b = 0; b < 2; b++) {
		l->formula[b] = malloc((nrules ? nrules : 1) * sizeof(*l->formula[b]));
		if (!l->formula[b])
			return -ENOMEM;
		memset(l->formula[b], 0xff, (nrules ? nrules : 1) * sizeof(*l->formula[b]));
	}
	l->scratch = malloc((nrules ? nrules : 1) * sizeof(*l->scratch));
	return l->scratch ? 0 : -ENOMEM;
}

static void layout_release(struct layout *l)
{
	free(l->formula[0]);
	free(l->formula[1]);
	free(l->scratch);
	free(l->decisions);
	hashmap_release(&l->decision_index);
	free(l->keys);
	free(l->ranges);
	free(l->numbers);
	hot_release(&l->hot);
	nr_weights_release(&l->nw);
}

/* The distinct AUDIT_ARCH values of the targets, in target order. */
static size_t audit_values(const struct scg_policy *policy, uint32_t *out)
{
	size_t n = 0;
	for (size_t i = 0; i < scg_policy_arch_count(policy); i++) {
		uint32_t a = scg_arch_audit(scg_policy_arch_at(policy, i));
		size_t j;
		for (j = 0; j < n && out[j] != a; j++)
			;
		if (j == n)
			out[n++] = a;
	}
	return n;
}

static int build_dispatch(struct layout *l, struct rule_span **rules, size_t *nrules,
			  uint32_t *root, struct abi_stats *stats, size_t *nstats)
{
	size_t narch = scg_policy_arch_count(l->policy);
	uint32_t audits[MAX_TARGETS], roots[MAX_TARGETS];
	size_t naudits = audit_values(l->policy, audits);
	int err = 0;
	*nstats = 0;
	for (size_t i = 0; i < naudits && !err; i++) {
		size_t nranges;
		/* Each ABI's chain gets its own private copies (two per AUDIT_ARCH value). */
		roots[i] = audit_tree(l, audits[i], (uint8_t)(2 * i + 1), rules, nrules, &nranges,
				      &err);
		for (size_t t = 0; t < narch; t++) {
			const struct scg_arch *arch = scg_policy_arch_at(l->policy, t);
			if (scg_arch_audit(arch) == audits[i])
				stats[(*nstats)++] = (struct abi_stats){ .arch = arch, .root = roots[i],
									 .ranges = nranges };
		}
	}
	if (err)
		return err;
	uint32_t node = dag_ret(l->g, l->badarch_action);
	for (size_t i = naudits; i-- > 0;)
		node = dag_test(l->g, SCG_DATA_ARCH, WORD_FULL, BPF_JEQ, audits[i], roots[i], node);
	*root = node;
	return l->g->err ? l->g->err : l->c->err;
}

int layout_build(const struct scg_policy *policy, const struct weights *w, struct dag *g,
		 struct cond_ctx *c, uint32_t *root, struct abi_stats *stats, size_t *nstats)
{
	size_t narch = scg_policy_arch_count(policy);
	struct layout l;
	struct rule_span *rules[MAX_TARGETS] = { 0 };
	size_t nrules[MAX_TARGETS] = { 0 };
	if (narch > MAX_TARGETS)
		return -E2BIG;
	int err = layout_init(&l, policy, w, g, c);
	for (size_t t = 0; t < narch && !err; t++)
		err = rules_on(policy, scg_policy_arch_at(policy, t), &rules[t], &nrules[t]);
	if (!err)
		err = build_dispatch(&l, rules, nrules, root, stats, nstats);
	for (size_t t = 0; t < narch; t++)
		free(rules[t]);
	layout_release(&l);
	return err;
}

int layout_audit_ranges(const struct scg_policy *policy, const struct weights *w, uint32_t audit,
			struct dag *g, struct cond_ctx *c, struct nr_range **out, size_t *n)
{
	size_t narch = scg_policy_arch_count(policy);
	struct layout l;
	struct rule_span *rules[MAX_TARGETS] = { 0 };
	size_t nrules[MAX_TARGETS] = { 0 };
	*out = NULL;
	*n = 0;
	if (narch > MAX_TARGETS)
		return -E2BIG;
	int err = layout_init(&l, policy, w, g, c);
	for (size_t t = 0; t < narch && !err; t++)
		err = rules_on(policy, scg_policy_arch_at(policy, t), &rules[t], &nrules[t]);
	if (!err)
		err = cut_audit(&l, audit, 0, UINT32_MAX, rules, nrules);
	if (!err && (g->err || c->err))
		err = g->err ? g->err : c->err;
	if (!err) {
		*out = l.ranges;
		*n = l.nranges;
		l.ranges = NULL;
	}
	for (size_t t = 0; t < narch; t++)
		free(rules[t]);
	layout_release(&l);
	return err;
}
