/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From first-match rules to OCI entries.
 *
 * For each ABI and syscall the rules are walked in order; each one keeps
 * only the arguments no earlier rule took (B after A becomes B and not A),
 * so the regions that end up with an action are disjoint and libseccomp's
 * "any matching rule" reading gives the same verdicts.  A region is a list
 * of boxes; a box becomes entries, one per combination of the pieces each
 * argument's value set needs (one comparison covers a range that touches
 * either end, a single value or all but one value; anything else is split
 * into aligned blocks or bit patterns, written as SCMP_CMP_MASKED_EQ).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"
#include "libseccomp/high_numbers.h"
#include "util/grow.h"

void oci_export_error(struct oci_export *x, struct scg_loc loc, const char *hint,
		      const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	if (x->error)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!loc.file && !loc.line)
		loc = SCG_LOC_NONE; /* a rule built without a location */
	scg_diag_add(x->diag, SCG_SEV_ERROR, loc, "oci-export", hint, "%s", msg);
	x->error = -EINVAL;
}

/* --- decisions ----------------------------------------------------------------- */

struct oci_decision *oci_export_find(struct oci_abi_plan *abi, uint32_t nr)
{
	for (size_t i = 0; i < abi->n; i++)
		if (abi->d[i].nr == nr)
			return &abi->d[i];
	return NULL;
}

/* The decision for @nr, made empty on first use.  Decisions stay sorted by number. */
static struct oci_decision *decision(struct oci_abi_plan *abi, uint32_t nr, int *err)
{
	struct oci_decision *d = oci_export_find(abi, nr);
	if (d)
		return d;
	if (RESIZE_ARRAY(&abi->d, abi->n + 1)) {
		*err = -ENOMEM;
		return NULL;
	}
	size_t at = abi->n;
	while (at > 0 && abi->d[at - 1].nr > nr) {
		abi->d[at] = abi->d[at - 1];
		at--;
	}
	abi->d[at] = (struct oci_decision){ .nr = nr };
	abi->n++;
	return &abi->d[at];
}

static int add_region(struct oci_decision *d, uint32_t action, struct oci_region *r)
{
	if (RESIZE_ARRAY(&d->actions, d->n + 1) || RESIZE_ARRAY(&d->regions, d->n + 1)) {
		oci_region_release(r);
		return -ENOMEM;
	}
	d->actions[d->n] = action;
	d->regions[d->n++] = *r;
	return 0;
}

static int add_name(struct oci_export *x, const char *name)
{
	for (size_t i = 0; i < x->nnames; i++)
		if (!strcmp(x->names[i], name))
			return 0;
	if (GROW_ARRAY(&x->names, &x->names_cap, x->nnames + 1, 64))
		return -ENOMEM;
	x->names[x->nnames++] = name;
	return 0;
}

static bool region_low_only(const struct oci_region *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (int a = 0; a < 6; a++)
			if (r->boxes[i].args[a] && !oci_vset_low_only(r->boxes[i].args[a]))
				return false;
	return true;
}

/* Position of the first syscall of @arch numbered @nr or above (the count when none is). */
static size_t syscall_position(const struct scg_arch *arch, uint64_t nr)
{
	size_t lo = 0, hi = scg_syscall_count(arch);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t at;
		if (scg_syscall_at(arch, mid, NULL, &at) == 0 && at < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t oci_syscalls_between(const struct scg_arch *arch, uint32_t first, uint32_t last)
{
	if (last < first)
		return 0;
	return syscall_position(arch, (uint64_t)last + 1) - syscall_position(arch, first);
}

/* What is left of rule @i on ABI @abi after the rules before it. */
static int plan_rule(struct oci_export *x, struct oci_abi_plan *abi, size_t i)
{
	struct scg_rule rule;
	uint32_t nr, last;
	if (scg_policy_rule_range(x->policy, i, abi->arch, &nr, &last) < 0 ||
	    scg_policy_rule_at(x->policy, i, &rule) < 0)
		return 0;
	/* the one range runc gives by itself: libseccomp's layout decides it */
	if (last != nr && !strcmp(scg_arch_name(abi->arch), "x86_64") &&
	    libseccomp_high_rule_is(x->policy, i))
		return 0;
	/* numbers no syscall has: with the default action they only mean "not unknown" */
	if (rule.action == scg_policy_default(x->policy) &&
	    !oci_syscalls_between(abi->arch, nr, last))
		return 0;
	if (last != nr) {
		const char *hint = "OCI profiles name syscalls one by one; "
				   "keep this rule in the policy language";
		if (last >= 0x10000)
			oci_export_error(x, rule.loc, hint,
					 "rule %zu decides syscall numbers %#x..%#x on %s: "
					 "OCI cannot name a range",
					 i, nr, last, scg_arch_name(abi->arch));
		else
			oci_export_error(x, rule.loc, hint,
					 "rule %zu decides syscall numbers %u..%u on %s: "
					 "OCI cannot name a range",
					 i, nr, last, scg_arch_name(abi->arch));
		return x->error;
	}
	const char *name = scg_syscall_name(abi->arch, nr);
	if (!name) {
		oci_export_error(x, rule.loc, "OCI profiles name syscalls",
				 "rule %zu decides syscall number %u on %s, which has no name", i, nr,
				 scg_arch_name(abi->arch));
		return x->error;
	}
	int err = add_name(x, name);
	struct oci_decision *d = err ? NULL : decision(abi, nr, &err);
	if (!d)
		return err;
	d->has_rules = true;
	struct oci_region r;
	if ((err = oci_region_from_expr(&r, rule.cond, &x->budget)) < 0)
		return err;
	if ((err = oci_region_subtract(&r, &d->covered, &x->budget)) < 0 || !r.n) {
		oci_region_release(&r);
		return err;
	}
	if (scg_arch_bits(abi->arch) == 32 && !region_low_only(&r)) {
		oci_region_release(&r);
		oci_export_error(x, rule.loc,
				 "compare the low 32 bits (width 32) on 32-bit ABIs, or leave them out",
				 "rule %zu compares the high half of an argument on %s, where runc and "
				 "libseccomp compare only the low 32 bits",
				 i, scg_arch_name(abi->arch));
		return x->error;
	}
	if ((err = oci_region_append(&d->covered, &r)) < 0 ||
	    rule.action == scg_policy_default(x->policy)) {
		oci_region_release(&r);
		return err;
	}
	return add_region(d, rule.action, &r);
}

static int plan_abi(struct oci_export *x, struct oci_abi_plan *abi)
{
	size_t nrules = scg_policy_rule_count(x->policy);
	int r = 0;
	for (size_t i = 0; r == 0 && !x->error && i < nrules; i++)
		r = plan_rule(x, abi, i);
	return r ? r : x->error;
}

int oci_export_plan(struct oci_export *x)
{
	x->nabis = scg_policy_arch_count(x->policy);
	for (size_t t = 0; t < x->nabis; t++) {
		x->abis[t].arch = scg_policy_arch_at(x->policy, t);
		int r = plan_abi(x, &x->abis[t]);
		if (r < 0)
			return r;
	}
	return 0;
}

void oci_export_release(struct oci_export *x)
{
	for (size_t t = 0; t < x->nabis; t++) {
		struct oci_abi_plan *abi = &x->abis[t];
		for (size_t i = 0; i < abi->n; i++) {
			for (size_t k = 0; k < abi->d[i].n; k++)
				oci_region_release(&abi->d[i].regions[k]);
			oci_region_release(&abi->d[i].covered);
			free(abi->d[i].regions);
			free(abi->d[i].actions);
		}
		free(abi->d);
	}
	free(x->names);
}

bool oci_decision_is_enosys(const struct oci_decision *d)
{
	if (!d || d->n != 1 || d->actions[0] != (SCG_RET_ERRNO | 38U) || d->regions[0].n != 1)
		return false;
	for (int a = 0; a < 6; a++)
		if (d->regions[0].boxes[0].args[a] && !oci_vset_is_all(d->regions[0].boxes[0].args[a]))
			return false;
	return true;
}
