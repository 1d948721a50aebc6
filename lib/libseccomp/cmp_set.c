/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The values one of libseccomp's comparisons accepts (cmp_set.h). */
#include "libseccomp/cmp_set.h"

/* The values one comparison accepts, within @w (the register width's mask). */
struct value_set {
	enum { SET_EMPTY, SET_RANGE, SET_ALL_BUT, SET_MASKED } kind;
	uint64_t lo, hi;   /* SET_RANGE */
	uint64_t point;    /* SET_ALL_BUT */
	uint64_t mask, v;  /* SET_MASKED: x & mask == v, mask neither 0 nor @w */
};

static struct value_set value_set_of(const struct libseccomp_cmp *c, uint64_t w)
{
	uint64_t a = c->a & w;
	/* every value, also for an operator libseccomp does not have */
	struct value_set s = { .kind = SET_RANGE, .lo = 0, .hi = w };
	switch (c->op) {
	case LIBSECCOMP_EQ:
		s.lo = s.hi = a;
		break;
	case LIBSECCOMP_NE:
		s.kind = SET_ALL_BUT;
		s.point = a;
		break;
	case LIBSECCOMP_LT:
		if (a == 0)
			s.kind = SET_EMPTY;
		s.hi = a - 1;
		break;
	case LIBSECCOMP_LE:
		s.hi = a;
		break;
	case LIBSECCOMP_GT:
		if (a == w)
			s.kind = SET_EMPTY;
		s.lo = a + 1;
		break;
	case LIBSECCOMP_GE:
		s.lo = a;
		break;
	case LIBSECCOMP_MASKED_EQ:
		if (a == w) {
			s.lo = s.hi = c->b & a;
		} else if (a != 0) {
			s.kind = SET_MASKED;
			s.mask = a;
			s.v = c->b & a;
		}
		break;
	}
	return s;
}

/* Bits that vary between @lo and @hi: every bit up to the highest that differs. */
static uint64_t varying_bits(uint64_t lo, uint64_t hi)
{
	uint64_t x = lo ^ hi, m = 0;
	while (x != 0) {
		m = (m << 1) | 1;
		x >>= 1;
	}
	return m;
}

/* Every value of @x is one of @y. */
static bool set_subset(const struct value_set *x, const struct value_set *y, uint64_t w)
{
	if (x->kind == SET_EMPTY || (y->kind == SET_RANGE && y->lo == 0 && y->hi == w))
		return true;
	if (y->kind == SET_EMPTY)
		return false;
	switch (x->kind) {
	case SET_RANGE:
		if (y->kind == SET_RANGE)
			return x->lo >= y->lo && x->hi <= y->hi;
		if (y->kind == SET_ALL_BUT)
			return y->point < x->lo || y->point > x->hi;
		return (x->lo & y->mask) == y->v && (varying_bits(x->lo, x->hi) & y->mask) == 0;
	case SET_ALL_BUT:
		if (y->kind == SET_ALL_BUT)
			return x->point == y->point;
		if (y->kind == SET_RANGE)
			return (y->lo == 0 || (y->lo == 1 && x->point == 0)) &&
			       (y->hi == w || (y->hi == w - 1 && x->point == w));
		return false;
	case SET_MASKED: {
		uint64_t min = x->v, max = x->v | (w & ~x->mask);
		if (y->kind == SET_RANGE)
			return min >= y->lo && max <= y->hi;
		if (y->kind == SET_ALL_BUT)
			return (y->point & x->mask) != x->v;
		return (y->mask & ~x->mask) == 0 && (x->v & y->mask) == y->v;
	}
	case SET_EMPTY:
		break;
	}
	return true;
}

bool libseccomp_cmp_empty(const struct libseccomp_cmp *c, uint64_t w)
{
	return value_set_of(c, w).kind == SET_EMPTY;
}

bool libseccomp_cmp_subset(const struct libseccomp_cmp *x, const struct libseccomp_cmp *y,
			   uint64_t w)
{
	struct value_set sx = value_set_of(x, w), sy = value_set_of(y, w);
	return set_subset(&sx, &sy, w);
}
