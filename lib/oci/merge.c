/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How libseccomp (2.5) decides between several rules for one syscall on
 * one ABI, expressed as first-match rules.
 *
 * libseccomp keeps one decision tree per syscall.  An unconditional rule
 * replaces whatever conditional rules came before it and makes later ones
 * no-ops, and the first unconditional rule stays: so the first
 * unconditional rule decides everything.  Conditional rules are merged
 * into the tree; a call takes the action of a matching rule, and when all
 * rules share one action the order does not matter.  When actions differ
 * and conditions overlap, the tree's own order decides: each level is
 * sorted by argument number (higher first), then by comparison kind
 * (EQ/NE/MASKED_EQ, then LT/LE, then GT/GE), then by value (larger first,
 * smaller first for LT/LE; a 64-bit value by its high word, and where
 * two equality tests share the high word's node, by the low word), ties
 * in insertion order, and deeper levels of the merge can overrule it.  The
 * calls where such rules meet take the action of libseccomp's rebuilt tree
 * (lib/libseccomp/overlap.h), ahead of the rules in that order, which then
 * decide every other call; the overlap is reported.  Rules with identical
 * conditions and different actions make libseccomp fail (EEXIST), and runc
 * with it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "libseccomp/overlap.h"
#include "libseccomp/rule_tree.h"
#include "set.h"
#include "util/grow.h"
#include "util/hashmap.h"

/* libseccomp's tree walks a level node by node, so merging n rules into it takes up to n^2
 * steps: past this many rules of one syscall the index alone decides, in linear time (and the
 * program, past 4096 instructions, fails to load anyway). */
#define TREE_CHECK_MAX 4096

/* Is @cmp of rule @in a comparison of the argument's low 32 bits (struct oci_inst)? */
static bool low32(const struct oci_inst *in, const struct oci_cmp *cmp)
{
	return (in->low32 >> cmp->index) & 1;
}

struct scg_expr *oci_cmp_expr(const struct oci_cmp *cmp, bool low32)
{
	unsigned width = low32 ? 32 : 64;
	enum scg_cmp_op op = SCG_CMP_EQ;
	uint64_t mask = ~0ULL, value = cmp->value;
	switch (cmp->op) {
	case OCI_OP_NE:
		op = SCG_CMP_NE;
		break;
	case OCI_OP_LT:
		op = SCG_CMP_LT;
		break;
	case OCI_OP_LE:
		op = SCG_CMP_LE;
		break;
	case OCI_OP_EQ:
		break;
	case OCI_OP_GE:
		op = SCG_CMP_GE;
		break;
	case OCI_OP_GT:
		op = SCG_CMP_GT;
		break;
	case OCI_OP_MASKED_EQ:
		/* libseccomp masks the datum too: (arg & mask) == (valueTwo & mask) */
		mask = cmp->value;
		value = cmp->value_two & cmp->value;
		break;
	}
	return scg_expr_cmp(cmp->index, width, op, mask, value);
}

/* libseccomp drops a MASKED_EQ whose mask has no bit it would compare. */
static bool cmp_is_noop(const struct oci_inst *in, const struct oci_cmp *cmp)
{
	uint64_t mask = low32(in, cmp) ? (uint32_t)cmp->value : cmp->value;
	return cmp->op == OCI_OP_MASKED_EQ && mask == 0;
}

static size_t effective_cmps(const struct oci_inst *in, struct oci_cmp *out)
{
	size_t n = 0;
	for (size_t i = 0; i < in->ncmps; i++)
		if (!cmp_is_noop(in, &in->cmps[i]))
			out[n++] = in->cmps[i];
	return n;
}

static struct scg_expr *inst_cond(const struct oci_inst *in)
{
	struct oci_cmp cmps[6];
	size_t n = effective_cmps(in, cmps);
	struct scg_expr *cond = NULL;
	for (size_t i = 0; i < n; i++) {
		struct scg_expr *e = oci_cmp_expr(&cmps[i], low32(in, &cmps[i]));
		cond = cond ? scg_expr_and(cond, e) : e;
		if (!cond)
			return NULL;
	}
	return cond;
}

static size_t ncmps(const struct oci_inst *in)
{
	struct oci_cmp c[6];
	return effective_cmps(in, c);
}

/* The rank of a rule's first tree node; a level lists higher ranks first. */
struct node_rank {
	unsigned arg;
	unsigned op;
	uint64_t datum;
	/*
	 * A 64-bit equality test is a node for the high word and one for the low
	 * word.  Rules whose high-word nodes are the same node (same op and mask,
	 * not only the same rank) meet again one level down, where the low word's
	 * value orders them; other rules of equal rank keep their order.
	 */
	uint64_t node; /* the high-word node's op and mask; 0: not such a test */
	uint64_t low;
};

static unsigned op_priority(enum oci_op op)
{
	switch (op) {
	case OCI_OP_MASKED_EQ:
	case OCI_OP_EQ:
	case OCI_OP_NE:
		return 3;
	case OCI_OP_LE:
	case OCI_OP_LT:
		return 2;
	case OCI_OP_GE:
	case OCI_OP_GT:
		return 1;
	}
	return 0;
}

static struct node_rank first_node(const struct oci_inst *in)
{
	struct oci_cmp c[6];
	size_t n = effective_cmps(in, c);
	struct node_rank r = { 0, 0, 0, 0, 0 };
	if (!n)
		return r;
	uint64_t mask = c[0].op == OCI_OP_MASKED_EQ ? c[0].value : ~0ULL;
	uint64_t datum = (c[0].op == OCI_OP_MASKED_EQ ? c[0].value_two : c[0].value) & mask;
	/* 64-bit comparisons test the high word first */
	bool low = low32(in, &c[0]);
	r.arg = c[0].index * 2 + (low ? 0 : 1);
	r.datum = low ? (uint32_t)datum : datum >> 32;
	r.op = op_priority(c[0].op);
	if (!low && r.op == 3) {
		/* EQ and NE make the same node (NE takes the other branch) */
		r.node = (mask >> 32) << 1 | (c[0].op == OCI_OP_MASKED_EQ) | 1ULL << 40;
		r.low = (uint32_t)datum;
	}
	if (c[0].op == OCI_OP_LT || c[0].op == OCI_OP_LE)
		r.datum = ~r.datum; /* smaller values first */
	return r;
}

static int rank_cmp(const struct node_rank *a, const struct node_rank *b)
{
	if (a->arg != b->arg)
		return a->arg > b->arg ? -1 : 1;
	if (a->op != b->op)
		return a->op > b->op ? -1 : 1;
	if (a->datum != b->datum)
		return a->datum > b->datum ? -1 : 1;
	return 0;
}

struct ranked {
	struct node_rank rank;
	size_t at;    /* position before sorting: ties keep it */
	size_t first; /* the first rule sharing its high-word node */
};

static int by_node(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = rank_cmp(&a->rank, &b->rank);
	if (c)
		return c;
	if (a->rank.node != b->rank.node)
		return a->rank.node < b->rank.node ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

static int by_tree_order(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = rank_cmp(&a->rank, &b->rank);
	if (c)
		return c;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	if (a->rank.low != b->rank.low)
		return a->rank.low > b->rank.low ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* Stable sort by descending rank. */
static int sort_by_tree_order(struct oci_inst *insts, size_t n)
{
	struct ranked *order = malloc(n * sizeof(*order));
	struct oci_inst *sorted = malloc(n * sizeof(*sorted));
	if (!order || !sorted) {
		free(order);
		free(sorted);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct ranked){ first_node(&insts[i]), i, i };
	/* who shares a node: runs of one rank and node, each led by its first rule */
	qsort(order, n, sizeof(*order), by_node);
	for (size_t i = 1; i < n; i++)
		if (order[i].rank.node && order[i].rank.node == order[i - 1].rank.node &&
		    !rank_cmp(&order[i].rank, &order[i - 1].rank))
			order[i].first = order[i - 1].first;
	qsort(order, n, sizeof(*order), by_tree_order);
	for (size_t i = 0; i < n; i++)
		sorted[i] = insts[order[i].at];
	memcpy(insts, sorted, n * sizeof(*insts));
	free(order);
	free(sorted);
	return 0;
}

static int push(struct oci_outrule **out, size_t *nout, size_t *cap, const struct oci_inst *in,
		struct scg_expr *cond)
{
	if (GROW_ARRAY(out, cap, *nout + 1, 64)) {
		scg_expr_free(cond);
		return -ENOMEM;
	}
	(*out)[(*nout)++] = (struct oci_outrule){ in->nr, in->action, cond, in->entry, in->seq };
	return 0;
}

/*
 * Says which of two overlapping rules with different actions wins where
 * both match: the one libseccomp's tree order puts first in @sorted.  The
 * warning stands at the later rule of the file.
 */
static void warn_overlap(struct oci_doc *doc, const struct scg_arch *arch,
			 const struct oci_inst *earlier, const struct oci_inst *later,
			 const struct oci_inst *sorted, size_t n)
{
	const struct oci_inst *win = earlier, *lose = later;
	for (size_t i = 0; i < n; i++) {
		if (sorted[i].seq == later->seq && sorted[i].entry == later->entry) {
			win = later;
			lose = earlier;
			break;
		}
		if (sorted[i].seq == earlier->seq && sorted[i].entry == earlier->entry)
			break;
	}
	char rw[32], rl[32];
	scg_ret_format(win->action, rw, sizeof(rw));
	scg_ret_format(lose->action, rl, sizeof(rl));
	scg_diag_add(doc->diag, SCG_SEV_WARNING, later->entry->loc, "oci-overlap",
		     "give rules for one syscall disjoint conditions, or one action",
		     "on %s, '%s' has overlapping conditional rules with different actions: "
		     "where both match, libseccomp gives %s, not %s (its rule tree decides, "
		     "not the file order)",
		     scg_arch_name(arch), later->name, rw, rl);
}

static int overlapping(const struct oci_inst *a, const struct oci_inst *b, bool *overlap)
{
	struct scg_expr *ca = inst_cond(a), *cb = inst_cond(b);
	size_t budget = OCI_SET_BUDGET; /* conjunctions of comparisons: far below it */
	int r = ca && cb ? oci_expr_overlap(ca, cb, overlap, &budget) : -ENOMEM;
	scg_expr_free(ca);
	scg_expr_free(cb);
	return r;
}

/* For a name the ABI lacks, where a refusal would otherwise surprise. */
#define PSEUDO_NOTE \
	" (libseccomp keeps the rules of a name an ABI lacks, and merges them as any other)"

static int refuse_conflict(struct oci_doc *doc, const struct scg_arch *arch,
			   const struct oci_inst *in, bool same)
{
	scg_diag_add(doc->diag, SCG_SEV_ERROR, in->entry->loc, "oci-conflict",
		     "give rules for one syscall disjoint conditions, or one action",
		     same ? "on %s, '%s' has two rules with the same conditions and different "
			    "actions: libseccomp refuses that (EEXIST), and runc fails%s" :
			    "on %s, '%s' has a rule whose conditions start another rule's with a "
			    "different action: libseccomp refuses that (EEXIST), and runc fails%s",
		     scg_arch_name(arch), in->name, in->pseudo ? PSEUDO_NOTE : "");
	doc->errors++;
	return -EINVAL;
}

/* --- libseccomp's tree merge, indexed ---------------------------------------- */

/*
 * A comparison as libseccomp's tree tells its nodes apart: argument, op,
 * and mask and value as far as the argument is compared (its low half on
 * 32-bit ABIs).  One syscall on one ABI compares each argument as wide in
 * every rule.
 */
struct norm_cmp {
	uint64_t mask, value;
	uint8_t index, op;
};

#define NONE SIZE_MAX

/*
 * The comparisons that some kept rule starts with: the first kept rule
 * (position in the kept order) with exactly these comparisons, the first
 * that starts with them, and the first of those whose action differs from
 * that one's.
 */
struct prefix_entry {
	uint64_t hash;
	size_t owner; /* a rule (index before absorbing) whose first len comparisons they are */
	size_t len;
	size_t exact, first, other;
	uint32_t first_action;
};

/* One comparison of a kept rule, chained to the next kept rule making the same comparison. */
struct cmp_post {
	size_t rule, next;
};

/* The kept rules making one comparison. */
struct cmp_key {
	size_t owner, at; /* rule and position of the comparison in it */
	size_t head, count;
};

struct prefix_index {
	const struct oci_inst *insts;
	struct norm_cmp (*norm)[6]; /* per rule, before absorbing */
	uint8_t *count;
	bool *gone;   /* per rule: kept once, then removed by a later, wider rule */
	size_t *kept; /* kept position -> rule */
	size_t nkept;
	struct prefix_entry *entries;
	size_t nentries;
	struct hashmap entry_index; /* prefix hash -> entry */
	struct cmp_key *keys; /* the comparisons of the kept rules */
	size_t nkeys;
	struct hashmap key_index; /* comparison hash -> key */
	struct cmp_post *posts;
	size_t nposts;
};

static bool norm_equal(const struct norm_cmp *a, const struct norm_cmp *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].index != b[i].index || a[i].op != b[i].op || a[i].mask != b[i].mask ||
		    a[i].value != b[i].value)
			return false;
	return true;
}

/* @h with comparison @c folded in. */
static uint64_t hash_step(uint64_t h, const struct norm_cmp *c)
{
	h = hash_combine(h, c->index | (uint64_t)c->op << 8);
	h = hash_combine(h, c->mask);
	return hash_combine(h, c->value);
}

/* hash[p - 1]: the hash of the first p comparisons of @seq. */
static void seq_hashes(const struct norm_cmp *seq, size_t n, uint64_t *hash)
{
	uint64_t h = 0;
	for (size_t p = 0; p < n; p++)
		hash[p] = h = hash_step(h, &seq[p]);
}

static int prefix_index_init(struct prefix_index *px, const struct oci_inst *insts, size_t n)
{
	*px = (struct prefix_index){ .insts = insts };
	/* All zeroed: kept positions are read only after prefix_insert() filled
	 * them, a link the static analyzer cannot follow through the hash table. */
	px->norm = calloc(n ? n : 1, sizeof(*px->norm));
	px->count = calloc(n ? n : 1, 1);
	px->gone = calloc(n ? n : 1, sizeof(*px->gone));
	px->kept = calloc(n ? n : 1, sizeof(*px->kept));
	if (!px->norm || !px->count || !px->gone || !px->kept)
		return -ENOMEM;
	size_t total = 0;
	for (size_t i = 0; i < n; i++) {
		struct oci_cmp c[6];
		size_t m = effective_cmps(&insts[i], c);
		for (size_t k = 0; k < m; k++) {
			uint64_t keep = low32(&insts[i], &c[k]) ? 0xffffffffULL : ~0ULL;
			uint64_t mask = c[k].op == OCI_OP_MASKED_EQ ? c[k].value : ~0ULL;
			uint64_t value = c[k].op == OCI_OP_MASKED_EQ ? c[k].value_two & mask : c[k].value;
			px->norm[i][k] = (struct norm_cmp){ mask & keep, value & keep, c[k].index,
							     (uint8_t)c[k].op };
		}
		px->count[i] = (uint8_t)m;
		total += m;
	}
	px->entries = calloc(total ? total : 1, sizeof(*px->entries));
	px->keys = calloc(total ? total : 1, sizeof(*px->keys));
	px->posts = calloc(total ? total : 1, sizeof(*px->posts));
	/* Reserved for every comparison: inserting into the indexes cannot fail. */
	if (!px->entries || !px->keys || !px->posts || hashmap_reserve(&px->entry_index, total) < 0 ||
	    hashmap_reserve(&px->key_index, total) < 0)
		return -ENOMEM;
	return 0;
}

static void prefix_index_release(struct prefix_index *px)
{
	free(px->norm);
	free(px->count);
	free(px->gone);
	free(px->kept);
	free(px->entries);
	hashmap_release(&px->entry_index);
	free(px->keys);
	hashmap_release(&px->key_index);
	free(px->posts);
}

/* The entry of comparisons @seq (@len of them), or NONE. */
static size_t prefix_find(const struct prefix_index *px, const struct norm_cmp *seq, size_t len,
			  uint64_t hash)
{
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&px->entry_index, hash, &pos, &i);) {
		const struct prefix_entry *e = &px->entries[i];
		if (e->len == len && norm_equal(px->norm[e->owner], seq, len))
			return (size_t)i;
	}
	return NONE;
}

static uint64_t cmp_hash(const struct norm_cmp *c)
{
	return hash_step(0, c);
}

/* The key of comparison @c among the kept rules' comparisons, or NONE. */
static size_t key_find(const struct prefix_index *px, const struct norm_cmp *c)
{
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&px->key_index, cmp_hash(c), &pos, &i);) {
		const struct cmp_key *k = &px->keys[i];
		if (norm_equal(&px->norm[k->owner][k->at], c, 1))
			return (size_t)i;
	}
	return NONE;
}

static void post_insert(struct prefix_index *px, size_t i)
{
	for (size_t p = 0; p < px->count[i]; p++) {
		size_t at = key_find(px, &px->norm[i][p]);
		if (at == NONE) {
			at = px->nkeys;
			(void)hashmap_add(&px->key_index, cmp_hash(&px->norm[i][p]), at); /* reserved */
			px->keys[px->nkeys++] = (struct cmp_key){ i, p, NONE, 0 };
		}
		struct cmp_key *k = &px->keys[at];
		px->posts[px->nposts] = (struct cmp_post){ i, k->head };
		k->head = px->nposts++;
		k->count++;
	}
}

/* Notes kept rule at position @k (with @action; @exact: no further comparisons) in @e. */
static void note_kept(struct prefix_entry *e, size_t k, uint32_t action, bool exact)
{
	if (e->first == NONE) {
		e->first = k;
		e->first_action = action;
	}
	if (exact && e->exact == NONE)
		e->exact = k;
	if (e->other == NONE && action != e->first_action)
		e->other = k;
}

static bool pruned_at(const struct prefix_index *px, size_t k)
{
	return k != NONE && px->gone[px->kept[k]];
}

/* Does the rule kept at @k, not pruned, start with @e's comparisons? */
static bool starts_with(const struct prefix_index *px, size_t k, const struct prefix_entry *e)
{
	size_t i = px->kept[k];
	return !px->gone[i] && px->count[i] >= e->len && norm_equal(px->norm[i], px->norm[e->owner], e->len);
}

/*
 * The entry of @slot with the rules pruned since it was written replaced
 * by the next kept rules that fit: positions only move forward, since the
 * rules before a position the entry names did not fit, so each entry's
 * scans add up to one pass over the kept rules.
 */
static struct prefix_entry *live_entry(struct prefix_index *px, size_t slot)
{
	struct prefix_entry *e = &px->entries[slot];
	if (pruned_at(px, e->first)) {
		size_t from = e->first + 1;
		e->first = e->exact = e->other = NONE;
		for (size_t k = from; k < px->nkept; k++)
			if (starts_with(px, k, e))
				note_kept(e, k, px->insts[px->kept[k]].action,
					  px->count[px->kept[k]] == e->len);
		return e;
	}
	if (pruned_at(px, e->exact)) {
		size_t k = e->exact + 1;
		while (k < px->nkept && !(starts_with(px, k, e) && px->count[px->kept[k]] == e->len))
			k++;
		e->exact = k < px->nkept ? k : NONE;
	}
	if (pruned_at(px, e->other)) {
		size_t k = e->other + 1;
		while (k < px->nkept &&
		       !(starts_with(px, k, e) && px->insts[px->kept[k]].action != e->first_action))
			k++;
		e->other = k < px->nkept ? k : NONE;
	}
	return e;
}

/* Records rule @i as kept, at the next position, under each of its prefixes. */
static void prefix_insert(struct prefix_index *px, size_t i)
{
	size_t m = px->count[i], k = px->nkept;
	uint64_t hash[6];
	seq_hashes(px->norm[i], m, hash);
	for (size_t p = 1; p <= m; p++) {
		size_t at = prefix_find(px, px->norm[i], p, hash[p - 1]);
		if (at == NONE) {
			at = px->nentries;
			(void)hashmap_add(&px->entry_index, hash[p - 1], at); /* reserved */
			px->entries[px->nentries++] = (struct prefix_entry){
				hash[p - 1], i, p, NONE, NONE, NONE, 0,
			};
		}
		note_kept(live_entry(px, at), k, px->insts[i].action, p == m);
	}
	post_insert(px, i);
	px->kept[k] = i;
	px->nkept++;
}

/* Does rule @big make every comparison of rule @small? */
static bool makes_all(const struct prefix_index *px, size_t big, size_t small)
{
	for (size_t a = 0; a < px->count[small]; a++) {
		bool found = false;
		for (size_t b = 0; b < px->count[big] && !found; b++)
			found = norm_equal(&px->norm[small][a], &px->norm[big][b], 1);
		if (!found)
			return false;
	}
	return true;
}

/*
 * libseccomp prunes its tree before adding a rule: kept rules with the
 * same action whose comparisons include all of the new rule's (and more)
 * are dropped, since the new rule matches wherever they do.  Returns
 * whether any was.
 */
static bool prune_narrower(struct prefix_index *px, const struct oci_inst *insts, size_t i)
{
	const struct cmp_key *rarest = NULL;
	for (size_t p = 0; p < px->count[i]; p++) {
		size_t slot = key_find(px, &px->norm[i][p]);
		if (slot == NONE)
			return false;
		if (!rarest || px->keys[slot].count < rarest->count)
			rarest = &px->keys[slot];
	}
	bool pruned = false;
	for (size_t e = rarest ? rarest->head : NONE; e != NONE; e = px->posts[e].next) {
		size_t k = px->posts[e].rule;
		if (!px->gone[k] && insts[k].action == insts[i].action &&
		    px->count[k] > px->count[i] && makes_all(px, k, i))
			pruned = px->gone[k] = true;
	}
	return pruned;
}

/*
 * ... and drops the new rule when a kept one with its action makes only
 * some of its comparisons: that one matches wherever the new one would.
 */
static bool made_redundant(struct prefix_index *px, const struct oci_inst *insts, size_t i)
{
	size_t m = px->count[i];
	for (unsigned subset = 1; subset + 1 < 1U << m; subset++) {
		struct norm_cmp seq[6];
		uint64_t hash[6];
		size_t len = 0;
		for (size_t p = 0; p < m; p++)
			if (subset >> p & 1)
				seq[len++] = px->norm[i][p];
		seq_hashes(seq, len, hash);
		size_t slot = prefix_find(px, seq, len, hash[len - 1]);
		const struct prefix_entry *e = slot != NONE ? live_entry(px, slot) : NULL;
		if (e && e->exact != NONE && insts[px->kept[e->exact]].action == insts[i].action)
			return true;
	}
	return false;
}

/* Every rule of @all is libseccomp's tree's own: int arguments over 32 bits are not. */
static bool native_rules(const struct scg_arch *arch, const struct oci_inst *all, size_t n)
{
	unsigned native_low32 = scg_arch_bits(arch) == 32 ? 0x3f : 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].low32 != native_low32)
			return false;
	return true;
}

/* A range comparison of a whole 64-bit argument: libseccomp splits it into three nodes. */
static bool split_range(const struct oci_inst *in)
{
	struct oci_cmp c[6];
	size_t n = effective_cmps(in, c);
	for (size_t i = 0; i < n; i++)
		if (!low32(in, &c[i]) && op_priority(c[i].op) < 3)
			return true;
	return false;
}

/*
 * Those nodes (high word greater, high word equal, low word) are shared
 * between the rules with the same high word, and reached on two paths, so
 * libseccomp can refuse (EEXIST) rules whose comparisons the index here
 * keeps apart.  tree_check() merges the rules into libseccomp's own tree
 * and knows; where it cannot (int arguments compared over 32 bits), this
 * is said once per syscall, where actions differ.
 */
static void warn_split_ranges(struct oci_doc *doc, const struct scg_arch *arch,
			      const struct oci_inst *insts, size_t n)
{
	const struct oci_inst *range = NULL;
	bool actions_differ = false;
	for (size_t i = 0; i < n; i++) {
		actions_differ |= insts[i].action != insts[0].action;
		if (!range && split_range(&insts[i]))
			range = &insts[i];
	}
	if (!range || !actions_differ || (native_rules(arch, insts, n) && n <= TREE_CHECK_MAX))
		return;
	scg_diag_add(doc->diag, SCG_SEV_WARNING, range->entry->loc, "oci-uncertain",
		     "compare with SCMP_CMP_EQ or SCMP_CMP_MASKED_EQ, or give the rules one action",
		     "on %s, '%s' has rules with different actions and less/greater comparisons "
		     "of 64-bit arguments, which libseccomp splits into shared nodes per word: it "
		     "may refuse the profile (EEXIST) where the import accepts it",
		     scg_arch_name(arch), range->name);
}

/*
 * What libseccomp's tree merge does with a conditional rule against the
 * rules already kept (db_rule_add()): first the pruning above, then the
 * merge proper, where a rule whose comparisons begin (or equal) a kept
 * rule's with another action is refused and a rule that continues a kept
 * rule's comparisons is absorbed by it (the shorter rule wins, whatever
 * the actions).  The first kept rule in either relation decides.  Keeps
 * the survivors in @insts, in order; returns how many.  The kept rules'
 * prefixes and comparisons are hashed, so that thousands of rules for one
 * syscall merge in linear time.
 */
static int absorb(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		  size_t n, size_t *kept)
{
	struct prefix_index px;
	int r = prefix_index_init(&px, insts, n);
	warn_split_ranges(doc, arch, insts, n);
	for (size_t i = 0; r == 0 && i < n; i++) {
		size_t m = px.count[i], absorbed_by = NONE, conflict = NONE;
		if (!prune_narrower(&px, insts, i) && made_redundant(&px, insts, i))
			continue;
		uint64_t hash[6];
		seq_hashes(px.norm[i], m, hash);
		for (size_t p = 1; p < m; p++) {
			size_t slot = prefix_find(&px, px.norm[i], p, hash[p - 1]);
			if (slot != NONE && live_entry(&px, slot)->exact < absorbed_by)
				absorbed_by = px.entries[slot].exact;
		}
		size_t slot = m ? prefix_find(&px, px.norm[i], m, hash[m - 1]) : NONE;
		if (slot != NONE) {
			const struct prefix_entry *e = live_entry(&px, slot);
			conflict = e->first_action != insts[i].action ? e->first : e->other;
		}
		if (conflict < absorbed_by)
			r = refuse_conflict(doc, arch, &insts[i], m == px.count[px.kept[conflict]]);
		else if (absorbed_by == NONE)
			prefix_insert(&px, i);
	}
	size_t k = 0;
	for (size_t p = 0; r == 0 && p < px.nkept; p++)
		if (!px.gone[px.kept[p]])
			px.kept[k++] = px.kept[p];
	/* kept positions follow the rules' order: copying forward never overwrites one ahead */
	for (size_t p = 0; p < k; p++)
		insts[p] = insts[px.kept[p]];
	prefix_index_release(&px);
	*kept = k;
	return r;
}

/*
 * The value every rule's condition pins argument @arg to, when it pins one:
 * rules with different values there cannot overlap.
 */
static bool point_value(const struct oci_inst *in, unsigned arg, uint64_t *value)
{
	struct oci_cmp c[6];
	size_t n = effective_cmps(in, c);
	for (size_t i = 0; i < n; i++) {
		uint64_t keep = low32(in, &c[i]) ? 0xffffffffULL : ~0ULL;
		if (c[i].index != arg)
			continue;
		if (c[i].op == OCI_OP_EQ) {
			*value = c[i].value & keep;
			return true;
		}
		if (c[i].op == OCI_OP_MASKED_EQ && (c[i].value & keep) == keep) {
			*value = c[i].value_two & keep;
			return true;
		}
	}
	return false;
}

struct pinned {
	uint64_t values[6]; /* of the arguments every rule pins */
	size_t at;
};

static int by_pinned(const void *pa, const void *pb)
{
	const struct pinned *a = pa, *b = pb;
	for (size_t i = 0; i < 6; i++)
		if (a->values[i] != b->values[i])
			return a->values[i] < b->values[i] ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/*
 * The first rule (*@later) overlapping an earlier one (*@earlier, the
 * first of those) with another action, as a scan of all pairs in order
 * finds them; *@later = n when none does.  The arguments every rule pins
 * to one value cut the rules into classes that cannot overlap each other,
 * so only pairs within a class are compared: an ioctl request list or a
 * socket family list costs one sort, not every pair.
 */
static int first_overlap(struct oci_inst *insts, size_t n, size_t *earlier, size_t *later)
{
	unsigned pinned_args = 0x3f;
	uint64_t v;
	*later = n;
	for (size_t i = 0; i < n && pinned_args; i++)
		for (unsigned a = 0; a < 6; a++)
			if ((pinned_args >> a & 1) && !point_value(&insts[i], a, &v))
				pinned_args &= ~(1U << a);
	struct pinned *order = calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		order[i].at = i;
		for (unsigned a = 0; a < 6; a++)
			if (pinned_args >> a & 1)
				point_value(&insts[i], a, &order[i].values[a]);
	}
	qsort(order, n, sizeof(*order), by_pinned);
	int r = 0;
	for (size_t s = 0, e; r == 0 && s < n; s = e) {
		for (e = s + 1; e < n && !memcmp(order[e].values, order[s].values, sizeof(order[s].values)); e++)
			;
		bool found = false;
		for (size_t x = s + 1; r == 0 && !found && x < e && order[x].at < *later; x++) {
			const struct oci_inst *b = &insts[order[x].at];
			for (size_t y = s; r == 0 && !found && y < x; y++) {
				const struct oci_inst *a = &insts[order[y].at];
				if (a->action == b->action || (r = overlapping(a, b, &found)) < 0 || !found)
					continue;
				*earlier = order[y].at;
				*later = order[x].at;
			}
		}
	}
	free(order);
	return r;
}

/* --- calls of overlapping rules, as libseccomp's filter decides them --------- */

struct overlap_sink {
	struct oci_outrule **out;
	size_t *nout, *cap;
	const struct oci_inst *first; /* the syscall's first rule: its place and entry */
};

static int push_overlap(void *ctx, uint32_t action, struct scg_expr *cond)
{
	const struct overlap_sink *sink = ctx;
	struct oci_inst in = *sink->first;
	in.action = action;
	return push(sink->out, sink->nout, sink->cap, &in, cond);
}

struct libseccomp_rule oci_libseccomp_rule(uint32_t action, const struct oci_cmp *cmps, size_t n)
{
	struct libseccomp_rule r = { .action = action, .ncmp = (unsigned)n };
	for (size_t k = 0; k < n; k++)
		r.cmp[k] = (struct libseccomp_cmp){ cmps[k].index, (enum libseccomp_op)cmps[k].op,
						    cmps[k].value, cmps[k].value_two };
	return r;
}

/* @in as libseccomp's db takes it. */
static struct libseccomp_rule tree_rule(const struct oci_inst *in)
{
	return oci_libseccomp_rule(in->action, in->cmps, in->ncmps);
}

/*
 * Ahead of the rules of one syscall (@all, every rule of it in libseccomp's
 * insertion order): the calls that rules of different actions both match,
 * with the action libseccomp's filter gives them (lib/libseccomp/overlap.h).
 * -E2BIG, with nothing added, where the rules compare int arguments over 32
 * bits (not libseccomp's tree) or the tree is too large to unfold; the
 * order of sort_by_tree_order() then decides those calls.
 */
static int overlap_rules(const struct scg_arch *arch, const struct oci_inst *all, size_t n,
			 struct oci_outrule **out, size_t *nout, size_t *cap)
{
	if (!native_rules(arch, all, n))
		return -E2BIG;
	struct libseccomp_tree *tree = libseccomp_tree_new(scg_arch_bits(arch));
	struct libseccomp_overlap_rule *rules = calloc(n ? n : 1, sizeof(*rules));
	int r = tree && rules ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct libseccomp_rule lr = tree_rule(&all[i]);
		r = libseccomp_tree_add(tree, &lr);
		if (r == -EEXIST || r == -ELOOP) /* tree_check() refused it already */
			r = -E2BIG;
		rules[i].action = all[i].action;
		if (r == 0 && ncmps(&all[i]) && !(rules[i].cond = inst_cond(&all[i])))
			r = -ENOMEM;
	}
	struct overlap_sink sink = { out, nout, cap, &all[0] };
	if (r == 0)
		r = libseccomp_overlap_rules(tree, rules, n, push_overlap, &sink);
	for (size_t i = 0; rules && i < n; i++)
		scg_expr_free((struct scg_expr *)rules[i].cond);
	free(rules);
	libseccomp_tree_free(tree);
	return r;
}

static int refuse_by_tree(struct oci_doc *doc, const struct scg_arch *arch,
			  const struct oci_inst *in, bool loops)
{
	if (loops)
		scg_diag_add(doc->diag, SCG_SEV_ERROR, in->entry->loc, "oci-conflict",
			     "write the rules for this syscall with fewer less/greater comparisons "
			     "of 64-bit arguments",
			     "on %s, '%s' has a rule that libseccomp 2.5 never finishes adding: its "
			     "comparisons reach one node of its rule tree twice and a level of the "
			     "tree loops on itself, so runc hangs%s",
			     scg_arch_name(arch), in->name, in->pseudo ? PSEUDO_NOTE : "");
	else
		scg_diag_add(doc->diag, SCG_SEV_ERROR, in->entry->loc, "oci-conflict",
			     "give rules for one syscall disjoint conditions, or one action",
			     "on %s, '%s' has a rule that meets another rule's comparisons with a "
			     "different action in libseccomp's rule tree (its 64-bit ranges are "
			     "tested a word at a time): libseccomp refuses that (EEXIST), and runc "
			     "fails%s",
			     scg_arch_name(arch), in->name, in->pseudo ? PSEUDO_NOTE : "");
	doc->errors++;
	return -EINVAL;
}

/*
 * The conditional rules @all that the index above accepted, merged into
 * libseccomp's own tree (lib/libseccomp/rule_tree.h), which also sees the
 * nodes a 64-bit range shares between rules and the rules libseccomp 2.5
 * never returns from.  Rules of int arguments compared over 32 bits are
 * not its tree: those stay the index's.
 */
static int tree_check(struct oci_doc *doc, const struct scg_arch *arch, const struct oci_inst *all,
		      size_t n)
{
	if (!native_rules(arch, all, n) || n > TREE_CHECK_MAX)
		return 0;
	struct libseccomp_tree *tree = libseccomp_tree_new(scg_arch_bits(arch));
	int r = tree ? 0 : -ENOMEM;
	size_t i = 0;
	for (; r == 0 && i < n; i++) {
		struct libseccomp_rule lr = tree_rule(&all[i]);
		r = libseccomp_tree_add(tree, &lr);
	}
	libseccomp_tree_free(tree);
	if (r == -EEXIST || r == -ELOOP)
		return refuse_by_tree(doc, arch, &all[i - 1], r == -ELOOP);
	return r;
}

int oci_merge_check(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		    size_t n)
{
	/* The first unconditional rule replaces the conditional ones before it and makes
	 * later ones no-ops: only those before it can have been refused. */
	size_t upto = 0, kept;
	while (upto < n && ncmps(&insts[upto]) != 0)
		upto++;
	struct oci_inst *all = malloc((upto ? upto : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, insts, upto * sizeof(*all));
	int r = absorb(doc, arch, insts, upto, &kept);
	if (r == 0)
		r = tree_check(doc, arch, all, upto);
	free(all);
	return r;
}

int oci_merge_syscall(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		      size_t n, struct oci_outrule **out, size_t *nout, size_t *cap)
{
	for (size_t i = 0; i < n; i++) {
		if (ncmps(&insts[i]) != 0)
			continue;
		int r = oci_merge_check(doc, arch, insts, i);
		return r < 0 ? r : push(out, nout, cap, &insts[i], NULL);
	}
	struct oci_inst *all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, insts, n * sizeof(*all));
	size_t nall = n;
	int r = absorb(doc, arch, insts, n, &n);
	if (r == 0)
		r = tree_check(doc, arch, all, nall);
	if (r < 0) {
		free(all);
		return r;
	}
	size_t earlier = 0, later = n;
	bool one_action = true;
	for (size_t i = 1; i < n && one_action; i++)
		one_action = insts[i].action == insts[0].action;
	if (!one_action && (r = first_overlap(insts, n, &earlier, &later)) < 0) {
		free(all);
		return r;
	}
	if (later < n)
		r = overlap_rules(arch, all, nall, out, nout, cap);
	free(all);
	if (r < 0 && r != -E2BIG)
		return r;
	if (later < n) {
		struct oci_inst a = insts[earlier], b = insts[later];
		if ((r = sort_by_tree_order(insts, n)) < 0)
			return r;
		warn_overlap(doc, arch, &a, &b, insts, n);
	}
	for (size_t i = 0; i < n; i++) {
		struct scg_expr *cond = inst_cond(&insts[i]);
		if (!cond)
			return -ENOMEM;
		r = push(out, nout, cap, &insts[i], cond);
		if (r < 0)
			return r;
	}
	return 0;
}
