/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Value sets as disjoint cubes, argument regions as disjoint boxes (see set.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "set.h"
#include "util/grow.h"

/* --- value sets ------------------------------------------------------------- */

void oci_vset_release(struct oci_vset *s)
{
	if (!s)
		return;
	free(s->cubes);
	*s = (struct oci_vset){ 0 };
}

static int push(struct oci_vset *s, uint64_t mask, uint64_t value)
{
	if (s->n == s->cap) {
		if (s->n >= OCI_SET_LIMIT)
			return -E2BIG;
		if (GROW_ARRAY(&s->cubes, &s->cap, s->n + 1, 4))
			return -ENOMEM;
	}
	s->cubes[s->n++] = (struct oci_cube){ mask, value & mask };
	return 0;
}

int oci_vset_copy(struct oci_vset *dst, const struct oci_vset *src)
{
	*dst = (struct oci_vset){ 0 };
	for (size_t i = 0; i < src->n; i++) {
		int r = push(dst, src->cubes[i].mask, src->cubes[i].value);
		if (r < 0) {
			oci_vset_release(dst);
			return r;
		}
	}
	return 0;
}

/* (x & m) < v, as the cubes where x first drops below v going down from bit 63. */
static int less_than(struct oci_vset *s, uint64_t m, uint64_t v)
{
	uint64_t pmask = 0, pval = 0;
	for (int i = 63; i >= 0; i--) {
		uint64_t bit = 1ULL << i;
		int r = 0;
		if (!(m & bit)) {
			if (v & bit)
				return push(s, pmask, pval); /* here y has 0 where v has 1 */
			continue;
		}
		if (v & bit)
			r = push(s, pmask | bit, pval); /* y takes 0 here: smaller */
		pmask |= bit;
		pval |= v & bit;
		if (r < 0)
			return r;
	}
	return 0; /* equal all the way: not smaller */
}

static int equal_to(struct oci_vset *s, uint64_t m, uint64_t v)
{
	return (v & ~m) ? 0 : push(s, m, v);
}

int oci_vset_cmp(struct oci_vset *dst, enum scg_cmp_op op, uint64_t mask, uint64_t value)
{
	struct oci_vset tmp = { 0 };
	int r = 0;
	*dst = (struct oci_vset){ 0 };
	switch (op) {
	case SCG_CMP_EQ:
		return equal_to(dst, mask, value);
	case SCG_CMP_LT:
		return less_than(dst, mask, value);
	case SCG_CMP_LE:
		r = less_than(dst, mask, value);
		return r < 0 ? r : equal_to(dst, mask, value);
	case SCG_CMP_NE:
		r = equal_to(&tmp, mask, value);
		break;
	case SCG_CMP_GT:
		r = less_than(&tmp, mask, value);
		if (r == 0)
			r = equal_to(&tmp, mask, value);
		break;
	case SCG_CMP_GE:
		r = less_than(&tmp, mask, value);
		break;
	}
	if (r == 0)
		r = oci_vset_complement(dst, &tmp);
	oci_vset_release(&tmp);
	return r;
}

/* The disjoint cubes of everything outside cube @c. */
static int cube_complement(struct oci_vset *s, const struct oci_cube *c)
{
	uint64_t pmask = 0;
	for (int i = 63; i >= 0; i--) {
		uint64_t bit = 1ULL << i;
		if (!(c->mask & bit))
			continue;
		int r = push(s, pmask | bit, (c->value & pmask) | (~c->value & bit));
		if (r < 0)
			return r;
		pmask |= bit;
	}
	return 0;
}

static bool cube_meet(const struct oci_cube *a, const struct oci_cube *b, struct oci_cube *out)
{
	if ((a->value ^ b->value) & a->mask & b->mask)
		return false;
	out->mask = a->mask | b->mask;
	out->value = a->value | b->value;
	return true;
}

int oci_vset_intersect(struct oci_vset *dst, const struct oci_vset *a, const struct oci_vset *b)
{
	struct oci_vset out = { 0 };
	for (size_t i = 0; i < a->n; i++) {
		for (size_t k = 0; k < b->n; k++) {
			struct oci_cube c;
			if (!cube_meet(&a->cubes[i], &b->cubes[k], &c))
				continue;
			int r = push(&out, c.mask, c.value);
			if (r < 0) {
				oci_vset_release(&out);
				return r;
			}
		}
	}
	*dst = out;
	return 0;
}

/* Everything outside @src: the intersection of every cube's complement. */
int oci_vset_complement(struct oci_vset *dst, const struct oci_vset *src)
{
	struct oci_vset acc = { 0 };
	int r = push(&acc, 0, 0);
	for (size_t i = 0; r == 0 && i < src->n; i++) {
		struct oci_vset outside = { 0 }, next;
		r = cube_complement(&outside, &src->cubes[i]);
		if (r == 0)
			r = oci_vset_intersect(&next, &acc, &outside);
		oci_vset_release(&outside);
		if (r == 0) {
			oci_vset_release(&acc);
			acc = next;
		}
	}
	if (r < 0) {
		oci_vset_release(&acc);
		return r;
	}
	*dst = acc;
	return 0;
}

/* Disjoint cubes cover everything when their sizes add up to 2^64 values. */
bool oci_vset_is_all(const struct oci_vset *s)
{
	unsigned __int128 covered = 0;
	for (size_t i = 0; i < s->n; i++)
		covered += (unsigned __int128)1 << (64 - __builtin_popcountll(s->cubes[i].mask));
	return covered >= (unsigned __int128)1 << 64;
}

bool oci_vset_is_empty(const struct oci_vset *s)
{
	return s->n == 0;
}

bool oci_vset_contains(const struct oci_vset *s, uint64_t x)
{
	for (size_t i = 0; i < s->n; i++)
		if ((x & s->cubes[i].mask) == s->cubes[i].value)
			return true;
	return false;
}

bool oci_vset_low_only(const struct oci_vset *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->cubes[i].mask >> 32)
			return false;
	return true;
}

/* --- intervals ---------------------------------------------------------------- */

static uint64_t domain(unsigned width)
{
	return width == 32 ? 0xffffffffULL : ~0ULL;
}

int oci_vset_add_interval(struct oci_vset *s, unsigned width, uint64_t lo, uint64_t hi)
{
	uint64_t d = domain(width);
	while (lo <= hi) {
		/* the largest aligned block starting at lo that ends by hi */
		uint64_t size_mask = 0;
		while (size_mask != d && !(lo & (size_mask + 1)) &&
		       lo + ((size_mask << 1) | 1) <= hi && lo + ((size_mask << 1) | 1) >= lo)
			size_mask = (size_mask << 1) | 1;
		int r = push(s, d & ~size_mask, lo);
		if (r < 0)
			return r;
		if (lo + size_mask == d || lo + size_mask == hi)
			break;
		lo += size_mask + 1;
	}
	return 0;
}

static int by_lo(const void *pa, const void *pb)
{
	const struct oci_interval *a = pa, *b = pb;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

int oci_vset_intervals(const struct oci_vset *s, unsigned width, struct oci_interval **out,
		       size_t *n)
{
	uint64_t d = domain(width);
	struct oci_interval *v = calloc(s->n ? s->n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++) {
		uint64_t free_bits = d & ~s->cubes[i].mask;
		/* an aligned block: free bits are the low ones, and no mask bit beyond the domain */
		if ((free_bits & (free_bits + 1)) || (s->cubes[i].mask & ~d)) {
			free(v);
			return -ERANGE;
		}
		v[i] = (struct oci_interval){ s->cubes[i].value, s->cubes[i].value + free_bits };
	}
	qsort(v, s->n, sizeof(*v), by_lo);
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (k && v[k - 1].hi != d && v[k - 1].hi + 1 == v[i].lo)
			v[k - 1].hi = v[i].hi;
		else
			v[k++] = v[i];
	}
	*out = v;
	*n = k;
	return 0;
}

/* --- boxes and regions ------------------------------------------------------- */

void oci_box_release(struct oci_box *b)
{
	for (int a = 0; a < 6; a++) {
		oci_vset_release(b->args[a]);
		free(b->args[a]);
		b->args[a] = NULL;
	}
}

void oci_region_release(struct oci_region *r)
{
	for (size_t i = 0; i < r->n; i++)
		oci_box_release(&r->boxes[i]);
	free(r->boxes);
	*r = (struct oci_region){ 0 };
}

/* Takes ownership of @b (released on failure). */
static int region_push(struct oci_region *r, struct oci_box *b)
{
	if (r->n == r->cap) {
		if (r->n >= OCI_SET_LIMIT) {
			oci_box_release(b);
			return -E2BIG;
		}
		if (GROW_ARRAY(&r->boxes, &r->cap, r->n + 1, 4)) {
			oci_box_release(b);
			return -ENOMEM;
		}
	}
	r->boxes[r->n++] = *b;
	return 0;
}

static struct oci_vset *vset_new_copy(const struct oci_vset *src, int *err)
{
	struct oci_vset *s = malloc(sizeof(*s));
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	if ((*err = oci_vset_copy(s, src)) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

static int box_copy(struct oci_box *dst, const struct oci_box *src)
{
	int err = 0;
	*dst = (struct oci_box){ 0 };
	for (int a = 0; a < 6 && !err; a++)
		if (src->args[a])
			dst->args[a] = vset_new_copy(src->args[a], &err);
	if (err)
		oci_box_release(dst);
	return err;
}

/* a ∩ b into *out; *empty when they do not meet. */
static int box_meet(const struct oci_box *a, const struct oci_box *b, struct oci_box *out,
		    bool *empty)
{
	int err = 0;
	*out = (struct oci_box){ 0 };
	*empty = false;
	for (int i = 0; i < 6 && !err && !*empty; i++) {
		if (!a->args[i] && !b->args[i])
			continue;
		if (!a->args[i] || !b->args[i]) {
			out->args[i] = vset_new_copy(a->args[i] ? a->args[i] : b->args[i], &err);
			continue;
		}
		struct oci_vset *s = malloc(sizeof(*s));
		if (!s) {
			err = -ENOMEM;
			break;
		}
		if ((err = oci_vset_intersect(s, a->args[i], b->args[i])) < 0) {
			free(s);
			break;
		}
		out->args[i] = s;
		*empty = oci_vset_is_empty(s);
	}
	if (err || *empty)
		oci_box_release(out);
	return err;
}

static int region_meet(struct oci_region *out, const struct oci_region *a,
		       const struct oci_region *b, size_t *budget)
{
	struct oci_region res = { 0 };
	int r = 0;
	for (size_t i = 0; r == 0 && i < a->n; i++) {
		for (size_t k = 0; r == 0 && k < b->n; k++) {
			struct oci_box box;
			bool empty;
			if (!*budget) {
				r = -E2BIG;
				break;
			}
			--*budget;
			r = box_meet(&a->boxes[i], &b->boxes[k], &box, &empty);
			if (r == 0 && !empty)
				r = region_push(&res, &box);
		}
	}
	if (r < 0) {
		oci_region_release(&res);
		return r;
	}
	*out = res;
	return 0;
}

/* Adds the box: @prefix's constraints, and argument @a outside @inside. */
static int push_outside(struct oci_region *out, const struct oci_box *prefix,
			const struct oci_vset *inside, int a)
{
	struct oci_vset outside;
	struct oci_box piece;
	int r = oci_vset_complement(&outside, inside);
	if (r < 0)
		return r;
	if (oci_vset_is_empty(&outside)) {
		oci_vset_release(&outside);
		return 0;
	}
	struct oci_vset *heap = malloc(sizeof(*heap));
	if (!heap || (r = box_copy(&piece, prefix)) < 0) {
		free(heap);
		oci_vset_release(&outside);
		return heap ? r : -ENOMEM;
	}
	*heap = outside;
	piece.args[a] = heap;
	return region_push(out, &piece);
}

/*
 * Everything outside box @b as disjoint boxes: the first constrained
 * argument outside, or it inside and the next one outside, and so on.
 */
static int box_complement(struct oci_region *out, const struct oci_box *b)
{
	struct oci_box prefix = { 0 };
	int r = 0;
	*out = (struct oci_region){ 0 };
	for (int a = 0; r == 0 && a < 6; a++) {
		if (!b->args[a])
			continue;
		r = push_outside(out, &prefix, b->args[a], a);
		if (r == 0 && !(prefix.args[a] = vset_new_copy(b->args[a], &r)))
			break;
	}
	oci_box_release(&prefix);
	if (r < 0)
		oci_region_release(out);
	return r;
}

static int region_all(struct oci_region *r)
{
	struct oci_box all = { 0 };
	*r = (struct oci_region){ 0 };
	return region_push(r, &all);
}

static int region_complement(struct oci_region *out, const struct oci_region *in,
			     size_t *budget)
{
	struct oci_region acc;
	int r = region_all(&acc);
	for (size_t i = 0; r == 0 && i < in->n; i++) {
		struct oci_region outside, next;
		r = box_complement(&outside, &in->boxes[i]);
		if (r == 0)
			r = region_meet(&next, &acc, &outside, budget);
		oci_region_release(&outside);
		if (r == 0) {
			oci_region_release(&acc);
			acc = next;
		}
	}
	if (r < 0) {
		oci_region_release(&acc);
		return r;
	}
	*out = acc;
	return 0;
}

int oci_region_append(struct oci_region *r, const struct oci_region *add)
{
	for (size_t i = 0; i < add->n; i++) {
		struct oci_box b;
		int err = box_copy(&b, &add->boxes[i]);
		if (err == 0)
			err = region_push(r, &b);
		if (err < 0)
			return err;
	}
	return 0;
}

int oci_region_subtract(struct oci_region *r, const struct oci_region *minus, size_t *budget)
{
	struct oci_region outside = { 0 }, next; /* untouched when the complement fails */
	if (!minus->n || !r->n)
		return 0;
	int err = region_complement(&outside, minus, budget);
	if (err == 0)
		err = region_meet(&next, r, &outside, budget);
	oci_region_release(&outside);
	if (err == 0) {
		oci_region_release(r);
		*r = next;
	}
	return err;
}

static int region_cmp(struct oci_region *r, const struct scg_expr *e)
{
	uint64_t wmask = e->width == 32 ? 0xffffffffULL : ~0ULL;
	struct oci_box b = { 0 };
	struct oci_vset *s = malloc(sizeof(*s));
	*r = (struct oci_region){ 0 };
	if (!s)
		return -ENOMEM;
	int err = oci_vset_cmp(s, e->op, e->mask & wmask, e->value & wmask);
	if (err < 0) {
		free(s);
		return err;
	}
	if (oci_vset_is_empty(s)) {
		oci_vset_release(s);
		free(s);
		return 0;
	}
	b.args[e->arg] = s;
	return region_push(r, &b);
}

int oci_region_from_expr(struct oci_region *r, const struct scg_expr *e, size_t *budget)
{
	struct oci_region left, right;
	int err;
	if (!e)
		return region_all(r);
	switch (e->kind) {
	case SCG_EXPR_CMP:
		return region_cmp(r, e);
	case SCG_EXPR_NOT:
		if ((err = oci_region_from_expr(&left, e->left, budget)) < 0)
			return err;
		err = region_complement(r, &left, budget);
		oci_region_release(&left);
		return err;
	case SCG_EXPR_AND:
	case SCG_EXPR_OR:
		break;
	}
	if ((err = oci_region_from_expr(&left, e->left, budget)) < 0)
		return err;
	if ((err = oci_region_from_expr(&right, e->right, budget)) < 0) {
		oci_region_release(&left);
		return err;
	}
	if (e->kind == SCG_EXPR_AND) {
		err = region_meet(r, &left, &right, budget);
		oci_region_release(&left);
	} else {
		/* left ∪ (right \ left), kept disjoint */
		err = oci_region_subtract(&right, &left, budget);
		if (err == 0)
			err = oci_region_append(&left, &right);
		*r = left;
		if (err < 0)
			oci_region_release(r);
	}
	oci_region_release(&right);
	return err;
}

int oci_expr_overlap(const struct scg_expr *a, const struct scg_expr *b, bool *overlap,
		     size_t *budget)
{
	struct oci_region ra, rb, both;
	int r = oci_region_from_expr(&ra, a, budget);
	if (r < 0)
		return r;
	if ((r = oci_region_from_expr(&rb, b, budget)) == 0) {
		r = region_meet(&both, &ra, &rb, budget);
		oci_region_release(&rb);
	}
	oci_region_release(&ra);
	if (r == 0) {
		*overlap = both.n > 0;
		oci_region_release(&both);
	}
	return r;
}
