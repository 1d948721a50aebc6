/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writing decided regions as OCI entries, and making one list of entries
 * serve every ABI, as an OCI entry does.
 *
 * The same text means different things on 64-bit and 32-bit ABIs (there
 * libseccomp compares the low 32 bits only), so the entries of a syscall
 * are written for each ABI and must come out the same.  A set of low
 * halves can be written two ways on a 32-bit ABI: with 32-bit ranges
 * ("SCMP_CMP_LE 37"), which reads the same as the 64-bit ABI's entries when
 * the 64-bit rule compares small values, or as bit patterns of the low
 * half (SCMP_CMP_MASKED_EQ), which also mean the same on 64-bit ABIs; the
 * form that matches is used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "util/grow.h"

void oci_xlist_release(struct oci_xlist *l)
{
	free(l->v);
	*l = (struct oci_xlist){ 0 };
}

static int xlist_push(struct oci_xlist *l, const struct oci_xentry *e)
{
	if (l->n == l->cap) {
		if (l->n >= OCI_SET_LIMIT)
			return -E2BIG;
		if (GROW_ARRAY(&l->v, &l->cap, l->n + 1, 8))
			return -ENOMEM;
	}
	l->v[l->n++] = *e;
	return 0;
}

/* --- one argument's value set as comparisons ----------------------------- */

struct pieces {
	struct oci_cmp *v;
	size_t n, cap;
	bool any; /* no comparison needed */
};

static uint64_t domain(unsigned width)
{
	return width == 32 ? 0xffffffffULL : ~0ULL;
}

static int piece(struct pieces *p, enum oci_op op, uint64_t value, uint64_t value_two)
{
	if (p->n == p->cap) {
		if (p->n >= OCI_SET_LIMIT)
			return -E2BIG;
		if (GROW_ARRAY(&p->v, &p->cap, p->n + 1, 4))
			return -ENOMEM;
	}
	p->v[p->n++] = (struct oci_cmp){ 0, op, value, value_two };
	return 0;
}

static int cube_pieces(struct pieces *p, const struct oci_vset *s, uint64_t full)
{
	int r = 0;
	for (size_t i = 0; r == 0 && i < s->n; i++) {
		const struct oci_cube *c = &s->cubes[i];
		r = c->mask == full ? piece(p, OCI_OP_EQ, c->value, 0) :
				      piece(p, OCI_OP_MASKED_EQ, c->mask, c->value);
	}
	return r;
}

static int interval_pieces(struct pieces *p, const struct oci_interval *iv, unsigned width)
{
	uint64_t d = domain(width);
	if (iv->lo == iv->hi)
		return piece(p, OCI_OP_EQ, iv->lo, 0);
	if (iv->lo == 0)
		return piece(p, OCI_OP_LE, iv->hi, 0);
	if (iv->hi == d)
		return piece(p, OCI_OP_GE, iv->lo, 0);
	struct oci_vset blocks = { 0 };
	int r = oci_vset_add_interval(&blocks, width, iv->lo, iv->hi);
	if (r == 0)
		r = cube_pieces(p, &blocks, d);
	oci_vset_release(&blocks);
	return r;
}

/*
 * @width is the ABI's (32 reads low halves as 32-bit numbers); @patterns
 * writes a 32-bit ABI's sets as bit patterns that 64-bit ABIs read alike.
 */
static int encode(const struct oci_vset *s, unsigned width, bool patterns, struct pieces *p)
{
	struct oci_interval *iv = NULL;
	size_t n = 0;
	p->any = oci_vset_is_all(s);
	if (p->any)
		return 0;
	if (patterns)
		return cube_pieces(p, s, ~0ULL);
	int r = oci_vset_intervals(s, width, &iv, &n);
	if (r == -ERANGE)
		return cube_pieces(p, s, domain(width));
	if (r < 0)
		return r;
	if (n == 2 && iv[0].lo == 0 && iv[1].hi == domain(width) && iv[0].hi + 2 == iv[1].lo) {
		r = piece(p, OCI_OP_NE, iv[0].hi + 1, 0); /* all but one value */
	} else {
		for (size_t i = 0; r == 0 && i < n; i++)
			r = interval_pieces(p, &iv[i], width);
	}
	free(iv);
	return r;
}

/* --- boxes as entries --------------------------------------------------------- */

/* Every combination of one piece per argument. */
static int cross(struct oci_xlist *out, uint32_t action, struct pieces *per_arg[6], int arg,
		 struct oci_xentry *cur)
{
	if (arg == 6)
		return xlist_push(out, cur);
	if (!per_arg[arg] || per_arg[arg]->any)
		return cross(out, action, per_arg, arg + 1, cur);
	for (size_t i = 0; i < per_arg[arg]->n; i++) {
		cur->args[cur->nargs] = per_arg[arg]->v[i];
		cur->args[cur->nargs].index = (uint8_t)arg;
		cur->nargs++;
		int r = cross(out, action, per_arg, arg + 1, cur);
		cur->nargs--;
		if (r < 0)
			return r;
	}
	return 0;
}

static int box_entries(struct oci_xlist *out, uint32_t action, const struct oci_box *b,
		       unsigned width, bool patterns)
{
	struct pieces *per_arg[6] = { 0 };
	int r = 0;
	for (int a = 0; r == 0 && a < 6; a++) {
		if (!b->args[a])
			continue;
		if (!(per_arg[a] = calloc(1, sizeof(*per_arg[a]))))
			r = -ENOMEM;
		else
			r = encode(b->args[a], width, patterns, per_arg[a]);
	}
	struct oci_xentry cur = { .action = action };
	if (r == 0)
		r = cross(out, action, per_arg, 0, &cur);
	for (int a = 0; a < 6; a++) {
		if (per_arg[a])
			free(per_arg[a]->v);
		free(per_arg[a]);
	}
	return r;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct oci_xentry *a = pa, *b = pb;
	if (a->action != b->action)
		return a->action < b->action ? -1 : 1;
	if (a->nargs != b->nargs)
		return a->nargs < b->nargs ? -1 : 1;
	for (size_t i = 0; i < a->nargs; i++) {
		const struct oci_cmp *x = &a->args[i], *y = &b->args[i];
		if (x->index != y->index)
			return x->index < y->index ? -1 : 1;
		if (x->op != y->op)
			return x->op < y->op ? -1 : 1;
		if (x->value != y->value)
			return x->value < y->value ? -1 : 1;
		if (x->value_two != y->value_two)
			return x->value_two < y->value_two ? -1 : 1;
	}
	return 0;
}

/* The entries of one decision, in a canonical order. */
static int decision_entries(const struct oci_decision *d, unsigned width, bool patterns,
			    struct oci_xlist *out)
{
	*out = (struct oci_xlist){ 0 };
	for (size_t k = 0; d && k < d->n; k++) {
		for (size_t i = 0; i < d->regions[k].n; i++) {
			int r = box_entries(out, d->actions[k], &d->regions[k].boxes[i], width, patterns);
			if (r < 0) {
				oci_xlist_release(out);
				return r;
			}
		}
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_entry);
	return 0;
}

static bool same_list(const struct oci_xlist *a, const struct oci_xlist *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (cmp_entry(&a->v[i], &b->v[i]))
			return false;
	return true;
}

/* --- one list for every ABI ---------------------------------------------------- */

struct candidate {
	struct oci_xlist list;
	const struct scg_arch *from;
	bool set;
};

/* Adds @l as what @arch needs in @slot; false when it disagrees with what is there. */
static bool agree(struct candidate *slot, struct oci_xlist *l, const struct scg_arch *arch,
		  const struct scg_arch **other)
{
	if (!slot->set) {
		slot->list = *l;
		slot->from = arch;
		slot->set = true;
		*l = (struct oci_xlist){ 0 };
		return true;
	}
	bool same = same_list(&slot->list, l);
	oci_xlist_release(l);
	*other = slot->from;
	return same;
}

static struct scg_loc name_loc(struct oci_export *x, const char *name)
{
	for (size_t i = 0; i < scg_policy_rule_count(x->policy); i++) {
		struct scg_rule r;
		if (scg_policy_rule_at(x->policy, i, &r) == 0 && r.syscall && !strcmp(r.syscall, name))
			return r.loc;
	}
	return SCG_LOC_NONE;
}

static void conflict(struct oci_export *x, const char *name, const struct scg_arch *a,
		     const struct scg_arch *b)
{
	oci_export_error(x, name_loc(x, name),
			 "give the syscall the same rules on every ABI of the policy",
			 "'%s' is decided differently on %s and %s, and an OCI entry applies to "
			 "every listed architecture that has the syscall",
			 name, scg_arch_name(a), scg_arch_name(b));
}

int oci_export_entries(struct oci_export *x, const char *name, bool as_patterns,
		       struct oci_xlist *out)
{
	struct candidate wide = { 0 }, narrow = { 0 }, patterns = { 0 };
	const struct scg_arch *other = NULL, *bad = NULL;
	int r = 0;
	*out = (struct oci_xlist){ 0 }; /* released by the caller whatever the outcome */
	for (size_t t = 0; r == 0 && !bad && t < x->nabis; t++) {
		struct oci_abi_plan *abi = &x->abis[t];
		uint32_t nr;
		if (scg_syscall_lookup(abi->arch, name, &nr) < 0)
			continue;
		struct oci_decision *d = oci_export_find(abi, nr);
		if (d && d->dropped)
			continue;
		struct oci_xlist l;
		if (scg_arch_bits(abi->arch) == 64) {
			if ((r = decision_entries(d, 64, as_patterns, &l)) == 0 &&
			    !agree(&wide, &l, abi->arch, &other))
				bad = abi->arch;
			continue;
		}
		if ((r = decision_entries(d, 32, false, &l)) == 0 && !agree(&narrow, &l, abi->arch, &other))
			bad = abi->arch;
		if (r == 0 && !bad && (r = decision_entries(d, 32, true, &l)) == 0)
			agree(&patterns, &l, abi->arch, &other);
	}
	if (r == 0 && bad)
		conflict(x, name, other, bad);
	else if (r == 0 && wide.set && narrow.set && !same_list(&wide.list, &narrow.list) &&
		 !same_list(&wide.list, &patterns.list))
		conflict(x, name, wide.from, narrow.from);
	r = r ? r : x->error;
	if (r == 0) {
		struct candidate *pick = wide.set ? &wide : &narrow;
		*out = pick->list;
		pick->list = (struct oci_xlist){ 0 };
	}
	oci_xlist_release(&wide.list);
	oci_xlist_release(&narrow.list);
	oci_xlist_release(&patterns.list);
	return r;
}
