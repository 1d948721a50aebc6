/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sets of 32-bit values for the analysis engine (see wordset.h).
 *
 * Full-word comparisons only ever cut the value line, so they live in the
 * interval list; masked tests fix or forbid bit patterns.  Emptiness and
 * examples come from one search: walk the excluded patterns, branching on
 * which free bit of each differs from the forbidden value, and at the end
 * take the smallest interval member with the accumulated fixed bits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/wordset.h"
#include "util/grow.h"

/* Nodes one wset_next() call may visit before giving up with -E2BIG. */
#define SEARCH_BUDGET 200000U

/*
 * The interval list of a word no comparison narrowed, shared by every such
 * set (civ 0: not owned) and never written: a set gets its own list before
 * its first change.  Most words of most regions are like that, so copying a
 * region costs little.
 */
static const struct scg_interval every_value = { 0, UINT32_MAX };

static void share_every_value(struct wset *ws)
{
	ws->iv = (struct scg_interval *)&every_value; /* read only: see reserve_iv() */
	ws->niv = 1;
	ws->civ = 0;
}

int wset_init_full(struct wset *ws)
{
	memset(ws, 0, sizeof(*ws));
	share_every_value(ws);
	return 0;
}

int wset_copy(struct wset *dst, const struct wset *src)
{
	*dst = *src;
	dst->iv = NULL;
	dst->ex = NULL;
	dst->cex = src->nex;
	if (src->niv == 1 && src->iv[0].lo == 0 && src->iv[0].hi == UINT32_MAX) {
		share_every_value(dst);
	} else {
		dst->civ = src->niv ? src->niv : 1;
		dst->iv = malloc(sizeof(*dst->iv) * dst->civ);
		if (!dst->iv)
			goto fail;
		memcpy(dst->iv, src->iv, sizeof(*dst->iv) * src->niv);
	}
	if (src->nex) {
		dst->ex = malloc(sizeof(*dst->ex) * src->nex);
		if (!dst->ex)
			goto fail;
		memcpy(dst->ex, src->ex, sizeof(*dst->ex) * src->nex);
	}
	return 0;
fail:
	if (dst->civ)
		free(dst->iv);
	memset(dst, 0, sizeof(*dst));
	return -ENOMEM;
}

void wset_release(struct wset *ws)
{
	if (!ws)
		return;
	if (ws->civ)
		free(ws->iv);
	free(ws->ex);
	memset(ws, 0, sizeof(*ws));
}

bool wset_is_full(const struct wset *ws)
{
	return ws->niv == 1 && ws->iv[0].lo == 0 && ws->iv[0].hi == UINT32_MAX && !ws->known &&
	       !ws->nex;
}

static int reserve_iv(struct wset *ws, size_t need);

int wset_intersect(struct wset *ws, uint32_t lo, uint32_t hi)
{
	if (lo == 0 && hi == UINT32_MAX)
		return 0;
	if (reserve_iv(ws, ws->niv) < 0)
		return -ENOMEM;
	size_t out = 0;
	for (size_t i = 0; i < ws->niv; i++) {
		struct scg_interval v = ws->iv[i];
		if (v.hi < lo || v.lo > hi)
			continue;
		if (v.lo < lo)
			v.lo = lo;
		if (v.hi > hi)
			v.hi = hi;
		ws->iv[out++] = v;
	}
	ws->niv = out;
	return 0;
}

/* Room for @need intervals in a list of @ws's own (the shared one is copied first). */
static int reserve_iv(struct wset *ws, size_t need)
{
	if (ws->civ && need <= ws->civ)
		return 0;
	size_t cap = grow_capacity(ws->civ ? ws->civ : 4, need, 4, sizeof(*ws->iv));
	if (!cap)
		return -ENOMEM;
	if (ws->civ) {
		if (RESIZE_ARRAY(&ws->iv, cap))
			return -ENOMEM;
	} else {
		struct scg_interval *iv = malloc(sizeof(*iv) * cap);
		if (!iv)
			return -ENOMEM;
		memcpy(iv, ws->iv, sizeof(*iv) * ws->niv);
		ws->iv = iv;
	}
	ws->civ = cap;
	return 0;
}

int wset_remove(struct wset *ws, uint32_t lo, uint32_t hi)
{
	/* at most one interval splits in two */
	if (reserve_iv(ws, ws->niv + 1) < 0)
		return -ENOMEM;
	size_t n = ws->niv;
	struct scg_interval *tmp = malloc(sizeof(*tmp) * (n + 1));
	if (!tmp)
		return -ENOMEM;
	size_t out = 0;
	for (size_t i = 0; i < n; i++) {
		struct scg_interval v = ws->iv[i];
		if (v.hi < lo || v.lo > hi) {
			tmp[out++] = v;
			continue;
		}
		if (v.lo < lo)
			tmp[out++] = (struct scg_interval){ v.lo, lo - 1 };
		if (v.hi > hi)
			tmp[out++] = (struct scg_interval){ hi + 1, v.hi };
	}
	memcpy(ws->iv, tmp, sizeof(*tmp) * out);
	ws->niv = out;
	free(tmp);
	return 0;
}

int wset_fix_bits(struct wset *ws, uint32_t mask, uint32_t value)
{
	value &= mask;
	if ((ws->known_value ^ value) & ws->known & mask) {
		ws->niv = 0; /* contradicts a known bit */
		return 0;
	}
	ws->known |= mask;
	ws->known_value |= value;
	if (ws->known == UINT32_MAX)
		return wset_intersect(ws, ws->known_value, ws->known_value);
	return 0;
}

int wset_exclude(struct wset *ws, uint32_t mask, uint32_t value)
{
	if (value & ~mask)
		return 0; /* (w & mask) can never equal it */
	if (mask == 0) {
		ws->niv = 0; /* (w & 0) != 0 never holds */
		return 0;
	}
	if (mask == UINT32_MAX)
		return wset_remove(ws, value, value);
	if ((ws->known & mask) == mask) {
		if ((ws->known_value & mask) == value)
			ws->niv = 0;
		return 0;
	}
	if ((ws->known_value ^ value) & ws->known & mask)
		return 0; /* a known bit already differs */
	if (GROW_ARRAY(&ws->ex, &ws->cex, ws->nex + 1, 4))
		return -ENOMEM;
	ws->ex[ws->nex++] = (struct scg_pattern){ mask, value };
	return 0;
}

bool wset_min_fixed(uint32_t lo, uint32_t hi, uint32_t known, uint32_t value, uint32_t *out)
{
	value &= known;
	uint32_t x = 0;
	int bump = -1; /* lowest-so-far free bit where lo has 0: raising it exceeds lo */
	for (int b = 31; b >= 0; b--) {
		uint32_t bit = 1U << b;
		uint32_t lb = lo & bit;
		if (!(known & bit)) {
			if (!lb)
				bump = b;
			x |= lb;
			continue;
		}
		uint32_t vb = value & bit;
		if (vb == lb) {
			x |= vb;
			continue;
		}
		if (vb > lb) {
			x |= vb | (value & (bit - 1));
			goto done;
		}
		/* the fixed bit is below lo's: raise the last free zero bit above it */
		if (bump < 0)
			return false;
		uint32_t bb = 1U << bump;
		x = (x & ~(bb | (bb - 1))) | bb | (value & (bb - 1));
		goto done;
	}
done:
	if (x < lo || x > hi)
		return false;
	*out = x;
	return true;
}

struct search {
	const struct wset *ws;
	uint32_t lo, hi;
	unsigned budget;
	bool found;
	uint32_t best;
};

static int search_patterns(struct search *s, uint32_t known, uint32_t value, size_t pi)
{
	if (s->budget-- == 0)
		return -E2BIG;
	uint32_t floor;
	if (!wset_min_fixed(s->lo, s->hi, known, value, &floor))
		return 0;
	if (s->found && floor >= s->best)
		return 0; /* nothing below what we have */
	while (pi < s->ws->nex) {
		uint32_t m = s->ws->ex[pi].mask, v = s->ws->ex[pi].value;
		if ((value ^ v) & known & m) {
			pi++;
			continue;
		}
		uint32_t freebits = m & ~known;
		if (!freebits)
			return 0;
		/* disjoint cases: the first free bit (from the top) that differs from v */
		uint32_t same = 0;
		for (int b = 31; b >= 0; b--) {
			uint32_t bit = 1U << b;
			if (!(freebits & bit))
				continue;
			uint32_t k2 = known | same | bit;
			uint32_t v2 = (value | (v & same)) | (~v & bit);
			int r = search_patterns(s, k2, v2 & k2, pi + 1);
			if (r < 0)
				return r;
			same |= bit;
		}
		return 0;
	}
	s->found = true;
	s->best = floor;
	return 0;
}

int wset_next(const struct wset *ws, uint32_t from, uint32_t *out)
{
	struct search s = { .ws = ws, .budget = SEARCH_BUDGET };
	for (size_t i = 0; i < ws->niv; i++) {
		if (ws->iv[i].hi < from)
			continue;
		s.lo = ws->iv[i].lo > from ? ws->iv[i].lo : from;
		s.hi = ws->iv[i].hi;
		int r = search_patterns(&s, ws->known, ws->known_value, 0);
		if (r < 0)
			return r;
		if (s.found) {
			*out = s.best;
			return 1;
		}
	}
	return 0;
}

bool wset_contains(const struct wset *ws, uint32_t value)
{
	if ((value ^ ws->known_value) & ws->known)
		return false;
	for (size_t i = 0; i < ws->nex; i++)
		if ((value & ws->ex[i].mask) == ws->ex[i].value)
			return false;
	for (size_t i = 0; i < ws->niv; i++)
		if (value >= ws->iv[i].lo && value <= ws->iv[i].hi)
			return true;
	return false;
}

uint32_t wset_run_end(const struct wset *ws, uint32_t x)
{
	uint32_t end = x;
	for (size_t i = 0; i < ws->niv; i++) {
		if (x >= ws->iv[i].lo && x <= ws->iv[i].hi) {
			end = ws->iv[i].hi;
			break;
		}
	}
	if (ws->known) {
		/* Counting up from x, the lowest known bit is the first to flip. */
		uint32_t lowest = ws->known & (~ws->known + 1U);
		uint32_t same = x | (lowest - 1U);
		if (same < end)
			end = same;
	}
	for (size_t i = 0; i < ws->nex; i++) {
		uint32_t hit;
		/* x itself is a member, so the first match (if any) lies beyond it. */
		if (wset_min_fixed(x, end, ws->ex[i].mask, ws->ex[i].value, &hit) && hit > x)
			end = hit - 1U;
	}
	return end;
}

static bool same_intervals(const struct wset *a, const struct wset *b)
{
	/* memcmp() must not see NULL, even for 0 bytes */
	return a->niv == b->niv && (a->niv == 0 || !memcmp(a->iv, b->iv, sizeof(*a->iv) * a->niv));
}

static bool same_patterns(const struct scg_pattern *a, size_t na, const struct scg_pattern *b,
			  size_t nb)
{
	return na == nb && (na == 0 || !memcmp(a, b, sizeof(*a) * na));
}

bool wset_equal(const struct wset *a, const struct wset *b)
{
	return a->known == b->known && a->known_value == b->known_value && same_intervals(a, b) &&
	       same_patterns(a->ex, a->nex, b->ex, b->nex);
}

/* @a's intervals joined with @b's (sorted, disjoint, adjacent ones coalesced). */
static int union_intervals(struct wset *a, const struct wset *b)
{
	size_t n = a->niv + b->niv, out = 0, i = 0, k = 0;
	struct scg_interval *iv = malloc(sizeof(*iv) * (n ? n : 1));
	if (!iv)
		return -ENOMEM;
	while (i < a->niv || k < b->niv) {
		struct scg_interval v;
		if (k == b->niv || (i < a->niv && a->iv[i].lo <= b->iv[k].lo))
			v = a->iv[i++];
		else
			v = b->iv[k++];
		if (out && (iv[out - 1].hi == UINT32_MAX || v.lo <= iv[out - 1].hi + 1)) {
			if (v.hi > iv[out - 1].hi)
				iv[out - 1].hi = v.hi;
			continue;
		}
		iv[out++] = v;
	}
	if (a->civ)
		free(a->iv);
	a->iv = iv;
	a->niv = out;
	a->civ = n ? n : 1;
	return 0;
}

/*
 * @fixed is @free plus (w & m) == v as known bits, @excluded is @free plus
 * the pattern (m, v) at index @at: is the pattern exactly the known bits
 * @fixed has beyond @excluded's?
 */
static bool fixes_the_excluded(const struct wset *fixed, const struct wset *excluded, size_t at)
{
	uint32_t m = excluded->ex[at].mask, v = excluded->ex[at].value;
	uint32_t base = excluded->known, extra = fixed->known & ~base;
	if ((fixed->known & base) != base || ((fixed->known_value ^ excluded->known_value) & base))
		return false;
	if (!extra || (m & ~base) != extra || ((v ^ fixed->known_value) & extra))
		return false;
	/* the pattern's bits already known agree with them (else it could not be there) */
	if ((v ^ excluded->known_value) & m & base)
		return false;
	/* and the other patterns are the same */
	return same_patterns(fixed->ex, at, excluded->ex, at) &&
	       same_patterns(fixed->ex + at, fixed->nex - at, excluded->ex + at + 1,
			     excluded->nex - at - 1);
}

int wset_union(struct wset *a, const struct wset *b)
{
	bool same_known = a->known == b->known && a->known_value == b->known_value;
	bool same_ex = same_patterns(a->ex, a->nex, b->ex, b->nex);
	if (same_known && same_ex)
		return same_intervals(a, b) ? 1 : union_intervals(a, b) < 0 ? -ENOMEM : 1;
	if (!same_intervals(a, b))
		return 0;
	if (same_ex && a->known == b->known) {
		uint32_t diff = a->known_value ^ b->known_value;
		if (diff & (diff - 1))
			return 0;
		/* one known bit differs: it is free in the union */
		a->known &= ~diff;
		a->known_value &= ~diff;
		return 1;
	}
	if (a->nex + 1 == b->nex) {
		/* b excludes what a fixes: b without that pattern */
		for (size_t at = 0; at < b->nex; at++) {
			if (!fixes_the_excluded(a, b, at))
				continue;
			a->known = b->known;
			a->known_value = b->known_value;
			return 1;
		}
	} else if (b->nex + 1 == a->nex) {
		for (size_t at = 0; at < a->nex; at++) {
			if (!fixes_the_excluded(b, a, at))
				continue;
			memmove(a->ex + at, a->ex + at + 1, sizeof(*a->ex) * (a->nex - at - 1));
			a->nex--;
			return 1;
		}
	}
	return 0;
}
