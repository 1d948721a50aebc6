/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Rules that can never match: an earlier rule for the same syscall already
 * decides every call the later one covers, because it is unconditional on
 * all of the later rule's ABIs, or has the identical condition on them.
 *
 * A rule in a file nested deeper than the earlier rule's is not reported:
 * `kill ptrace` followed by `use docker-default` overrides the profile's
 * ptrace rule on purpose.  The index is the one hash map, so that 100,000
 * rules check in linear time.
 *
 * Number ranges (`kill 0x80000000..0xbfffffff`) are keyed like any syscall,
 * so an identical range is found in the index; on top of that, an
 * unconditional range decides every later rule whose numbers it covers on
 * each of that rule's ABIs -- names resolved per ABI -- and such ranges are
 * kept in a short list that each rule is checked against.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse.h"
#include "util/grow.h"
#include "util/hashmap.h"

struct shadow_entry {
	const char *syscall; /* NULL for numbers */
	uint32_t number, number_last;
	const struct scg_expr *cond; /* NULL: the union of the unconditional rules */
	uint32_t abis;
	struct scg_loc loc; /* of the latest rule that contributed */
	unsigned depth;
	size_t seq; /* when that rule came: of several entries, the latest rule's decides */
};

/* An unconditional rule over a range of numbers. */
struct shadow_span {
	uint32_t first, last;
	uint32_t abis;
	struct scg_loc loc;
	unsigned depth;
};

/*
 * Policies hold a handful of ranges; past this many, later ones are not
 * remembered, so that a pathological policy still checks in linear time
 * (a missed warning, never a wrong one).
 */
#define MAX_SPANS 256

struct shadow_index {
	struct shadow_entry *entries;
	size_t count, cap;
	/* the syscall's hash, mixed with the condition's when there is one -> entry */
	struct hashmap index;
	struct shadow_span *spans;
	size_t nspans;
	size_t seq; /* rules checked */
};

uint64_t lang_expr_hash(const struct scg_expr *e)
{
	uint64_t h = hash_u64((uint64_t)e->kind);
	switch (e->kind) {
	case SCG_EXPR_CMP:
		h = hash_combine(h, e->arg | (uint64_t)e->width << 8 | (uint64_t)e->op << 16);
		h = hash_combine(h, e->mask);
		return hash_combine(h, e->value);
	case SCG_EXPR_NOT:
		return hash_combine(h, lang_expr_hash(e->left));
	case SCG_EXPR_AND:
	case SCG_EXPR_OR:
		h = hash_combine(h, lang_expr_hash(e->left));
		return hash_combine(h, lang_expr_hash(e->right));
	}
	return h;
}

struct shadow_index *shadow_index_new(void)
{
	struct shadow_index *sx = calloc(1, sizeof(*sx));
	if (sx)
		sx->index = (struct hashmap)HASHMAP_INIT;
	return sx;
}

void shadow_index_free(struct shadow_index *sx)
{
	if (!sx)
		return;
	hashmap_release(&sx->index);
	free(sx->entries);
	free(sx->spans);
	free(sx);
}

static uint64_t syscall_hash(const struct scg_rule *r)
{
	if (!r->syscall)
		return hash_combine(hash_u64(r->number), r->number_last);
	return hash_str(r->syscall);
}

static bool same_syscall(const struct shadow_entry *e, const struct scg_rule *r)
{
	if (!e->syscall || !r->syscall)
		return !e->syscall && !r->syscall && e->number == r->number &&
		       e->number_last == r->number_last;
	return !strcmp(e->syscall, r->syscall);
}

/*
 * The entry of @r's syscall with condition @cond (NULL: the unconditional
 * one, returned even when it covers fewer ABIs than @abis); of several, the
 * latest rule's.
 */
static struct shadow_entry *find(struct shadow_index *sx, uint64_t hash, const struct scg_rule *r,
				 const struct scg_expr *cond, uint32_t abis)
{
	struct shadow_entry *latest = NULL;
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&sx->index, hash, &pos, &i);) {
		struct shadow_entry *e = &sx->entries[i];
		if (!same_syscall(e, r) || (!e->cond) != (!cond))
			continue;
		if (cond && !scg_expr_equal(e->cond, cond))
			continue;
		if (((abis & ~e->abis) == 0 || !cond) && (!latest || e->seq > latest->seq))
			latest = e;
	}
	return latest;
}

/* The entry of exactly @r's syscall and condition on @abis, or NULL. */
static struct shadow_entry *find_same(struct shadow_index *sx, uint64_t hash,
				      const struct scg_rule *r, uint32_t abis)
{
	uint64_t i;
	for (size_t pos = HASHMAP_START; hashmap_next(&sx->index, hash, &pos, &i);) {
		struct shadow_entry *e = &sx->entries[i];
		if (e->abis == abis && e->cond && same_syscall(e, r) &&
		    scg_expr_equal(e->cond, r->cond))
			return e;
	}
	return NULL;
}

const char *shadow_where(const struct scg_loc *by, const char *file, char *buf, size_t size)
{
	if (by->file == file || (by->file && file && !strcmp(by->file, file)))
		snprintf(buf, size, "line %u", by->line);
	else
		snprintf(buf, size, "%s:%u", by->file ? by->file : "?", by->line);
	return buf;
}

/* Adds rule @r's entry; entries found before may move. */
static int insert(struct shadow_index *sx, uint64_t hash, const struct scg_rule *r, uint32_t abis,
		  unsigned depth)
{
	if (GROW_ARRAY(&sx->entries, &sx->cap, sx->count + 1, 64) ||
	    hashmap_add(&sx->index, hash, sx->count) < 0)
		return -ENOMEM;
	sx->entries[sx->count++] = (struct shadow_entry){
	    .syscall = r->syscall,
	    .number = r->number,
	    .number_last = r->number_last,
	    .cond = r->cond,
	    .abis = abis,
	    .loc = r->loc,
	    .depth = depth,
	    .seq = sx->seq,
	};
	return 0;
}

/* An earlier unconditional range covering rule @index's numbers on ABI @abi, or NULL. */
static const struct shadow_span *span_covering(const struct shadow_index *sx,
					       const struct scg_policy *policy, size_t index,
					       unsigned abi, unsigned depth)
{
	const struct scg_arch *arch = scg_policy_arch_at(policy, abi);
	uint32_t first, last;
	if (!arch || scg_policy_rule_range(policy, index, arch, &first, &last) < 0)
		return NULL;
	for (size_t i = 0; i < sx->nspans; i++) {
		const struct shadow_span *s = &sx->spans[i];
		if ((s->abis & (1u << abi)) && s->first <= first && last <= s->last &&
		    depth <= s->depth)
			return s;
	}
	return NULL;
}

/* Do earlier ranges decide rule @index on every ABI of @abis? */
static bool covered_by_spans(const struct shadow_index *sx, const struct scg_policy *policy,
			     size_t index, uint32_t abis, unsigned depth,
			     struct scg_loc *decided_by)
{
	const struct shadow_span *first_hit = NULL;
	for (unsigned abi = 0; abi < 32 && sx->nspans; abi++) {
		if (!(abis & (1u << abi)))
			continue;
		const struct shadow_span *s = span_covering(sx, policy, index, abi, depth);
		if (!s)
			return false;
		first_hit = first_hit ? first_hit : s;
	}
	if (first_hit)
		*decided_by = first_hit->loc;
	return first_hit != NULL;
}

static int remember_span(struct shadow_index *sx, const struct scg_rule *r, uint32_t abis,
			 unsigned depth)
{
	if (sx->nspans == MAX_SPANS)
		return 0;
	if (!sx->spans && !(sx->spans = malloc(MAX_SPANS * sizeof(*sx->spans))))
		return -ENOMEM;
	sx->spans[sx->nspans++] =
	    (struct shadow_span){r->number, r->number_last, abis, r->loc, depth};
	return 0;
}

int shadow_check(struct shadow_index *sx, const struct scg_policy *policy, size_t index,
		 uint32_t abis, unsigned depth, struct scg_loc *decided_by)
{
	struct scg_rule r;
	if (scg_policy_rule_at(policy, index, &r) < 0 || !abis)
		return 0;
	uint64_t key = syscall_hash(&r);
	struct shadow_entry *uncond = find(sx, key, &r, NULL, abis);
	const struct shadow_entry *hit = uncond && (abis & ~uncond->abis) == 0 ? uncond : NULL;
	uint64_t chash = r.cond ? hash_combine(key, lang_expr_hash(r.cond)) : key;
	if (!hit && r.cond)
		hit = find(sx, chash, &r, r.cond, abis);
	int shadowed = hit && depth <= hit->depth;
	if (shadowed)
		*decided_by = hit->loc;
	else
		shadowed = covered_by_spans(sx, policy, index, abis, depth, decided_by);
	int err = 0;
	struct shadow_entry *same = r.cond ? find_same(sx, chash, &r, abis) : NULL;
	sx->seq++;
	if (same) { /* the latest of identical rules stands for them all: lookups stay short */
		same->loc = r.loc;
		same->depth = depth;
		same->seq = sx->seq;
	} else if (r.cond)
		err = insert(sx, chash, &r, abis, depth);
	else if (!uncond)
		err = insert(sx, key, &r, abis, depth);
	else if (abis & ~uncond->abis) { /* name the rule that completed the coverage */
		uncond->abis |= abis;
		uncond->loc = r.loc;
		uncond->depth = depth;
	}
	if (!err && !r.cond && r.has_number && r.number_last > r.number)
		err = remember_span(sx, &r, abis, depth);
	return err < 0 ? err : shadowed;
}
