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
 * smaller first for LT/LE), ties in insertion order.  That order is used
 * here too and the overlap is reported, since deeper levels of libseccomp's
 * merge can still decide differently.  Rules with identical conditions and
 * different actions make libseccomp fail (EEXIST), and runc with it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "set.h"

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

/* Equal as libseccomp compares a rule's nodes: same argument, op and (truncated) value. */
static bool same_cmp(const struct oci_cmp *a, const struct oci_cmp *b, bool low32)
{
	uint64_t keep = low32 ? 0xffffffffULL : ~0ULL;
	uint64_t ma = a->op == OCI_OP_MASKED_EQ ? a->value : ~0ULL;
	uint64_t mb = b->op == OCI_OP_MASKED_EQ ? b->value : ~0ULL;
	uint64_t va = a->op == OCI_OP_MASKED_EQ ? a->value_two & ma : a->value;
	uint64_t vb = b->op == OCI_OP_MASKED_EQ ? b->value_two & mb : b->value;
	return a->index == b->index && a->op == b->op && !((ma ^ mb) & keep) && !((va ^ vb) & keep);
}

/* Are @a's comparisons the first ones of @b's (all of them when @a and @b are equal)? */
static bool is_prefix(const struct oci_inst *a, const struct oci_inst *b)
{
	struct oci_cmp ca[6], cb[6];
	size_t na = effective_cmps(a, ca), nb = effective_cmps(b, cb);
	if (na > nb)
		return false;
	/* one syscall on one ABI: both rules compare each argument as wide */
	for (size_t i = 0; i < na; i++)
		if (!same_cmp(&ca[i], &cb[i], low32(a, &ca[i])))
			return false;
	return true;
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
	struct node_rank r = { 0, 0, 0 };
	if (!n)
		return r;
	uint64_t mask = c[0].op == OCI_OP_MASKED_EQ ? c[0].value : ~0ULL;
	uint64_t datum = (c[0].op == OCI_OP_MASKED_EQ ? c[0].value_two : c[0].value) & mask;
	/* 64-bit comparisons test the high word first */
	bool low = low32(in, &c[0]);
	r.arg = c[0].index * 2 + (low ? 0 : 1);
	r.datum = low ? (uint32_t)datum : datum >> 32;
	r.op = op_priority(c[0].op);
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

/* Stable insertion sort by descending rank (rule sets per syscall are small). */
static void sort_by_tree_order(struct oci_inst *insts, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct oci_inst cur = insts[i];
		struct node_rank rc = first_node(&cur);
		size_t j = i;
		while (j > 0) {
			struct node_rank rp = first_node(&insts[j - 1]);
			if (rank_cmp(&rp, &rc) <= 0)
				break;
			insts[j] = insts[j - 1];
			j--;
		}
		insts[j] = cur;
	}
}

static int push(struct oci_outrule **out, size_t *nout, size_t *cap, const struct oci_inst *in,
		struct scg_expr *cond)
{
	if (*nout == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct oci_outrule *grown = realloc(*out, ncap * sizeof(*grown));
		if (!grown) {
			scg_expr_free(cond);
			return -ENOMEM;
		}
		*out = grown;
		*cap = ncap;
	}
	(*out)[(*nout)++] = (struct oci_outrule){ in->nr, in->action, cond, in->entry, in->seq };
	return 0;
}

static void warn_overlap(struct oci_doc *doc, const struct scg_arch *arch,
			 const struct oci_inst *a, const struct oci_inst *b)
{
	char ra[32], rb[32];
	scg_ret_format(a->action, ra, sizeof(ra));
	scg_ret_format(b->action, rb, sizeof(rb));
	scg_diag_add(doc->diag, SCG_SEV_WARNING, b->entry->loc, "oci-overlap",
		     "give rules for one syscall disjoint conditions, or one action",
		     "on %s, '%s' has conditional rules with different actions (%s, %s): "
		     "libseccomp's rule tree, not the file order, decides where they overlap",
		     scg_arch_name(arch), b->name, ra, rb);
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

static int refuse_conflict(struct oci_doc *doc, const struct scg_arch *arch,
			   const struct oci_inst *in, bool same)
{
	scg_diag_add(doc->diag, SCG_SEV_ERROR, in->entry->loc, "oci-conflict",
		     "give rules for one syscall disjoint conditions, or one action",
		     same ? "on %s, '%s' has two rules with the same conditions and different "
			    "actions: libseccomp refuses that (EEXIST), and runc fails" :
			    "on %s, '%s' has a rule whose conditions start another rule's with a "
			    "different action: libseccomp refuses that (EEXIST), and runc fails",
		     scg_arch_name(arch), in->name);
	doc->errors++;
	return -EINVAL;
}

/*
 * What libseccomp's tree merge does with a conditional rule against the
 * rules already kept: a rule whose comparisons begin (or equal) a kept
 * rule's with another action is refused; a rule that continues a kept
 * rule's comparisons is absorbed by it (the shorter rule wins, whatever
 * the actions).  Keeps the survivors in @insts, in order; returns how many.
 */
static int absorb(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		  size_t n, size_t *kept)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool absorbed = false;
		for (size_t j = 0; j < k && !absorbed; j++) {
			if (is_prefix(&insts[j], &insts[i]) && ncmps(&insts[j]) < ncmps(&insts[i]))
				absorbed = true;
			else if (insts[i].action != insts[j].action && is_prefix(&insts[i], &insts[j]))
				return refuse_conflict(doc, arch, &insts[i],
						       ncmps(&insts[i]) == ncmps(&insts[j]));
		}
		if (!absorbed)
			insts[k++] = insts[i];
	}
	*kept = k;
	return 0;
}

int oci_merge_syscall(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		      size_t n, struct oci_outrule **out, size_t *nout, size_t *cap)
{
	for (size_t i = 0; i < n; i++) {
		if (ncmps(&insts[i]) == 0)
			return push(out, nout, cap, &insts[i], NULL);
	}
	int r = absorb(doc, arch, insts, n, &n);
	if (r < 0)
		return r;
	bool mixed = false;
	for (size_t i = 1; i < n && !mixed && r == 0; i++)
		for (size_t k = 0; k < i && !mixed && r == 0; k++)
			if (insts[i].action != insts[k].action &&
			    (r = overlapping(&insts[k], &insts[i], &mixed)) == 0 && mixed)
				warn_overlap(doc, arch, &insts[k], &insts[i]);
	if (r < 0)
		return r;
	if (mixed)
		sort_by_tree_order(insts, n);
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
