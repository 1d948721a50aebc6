/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The export, inside libsyscage-oci: export_plan.c decides, per ABI and
 * syscall, which argument regions get which action (first-match rules made
 * disjoint) and writes them as OCI entries; export.c checks what OCI can
 * hold, places runc's ENOSYS stub and writes the JSON.
 */
#ifndef SCG_LIB_OCI_EXPORT_INTERNAL_H
#define SCG_LIB_OCI_EXPORT_INTERNAL_H

#include "internal.h"
#include "set.h"

/* One OCI entry: an action and at most one comparison per argument. */
struct oci_xentry {
	uint32_t action;
	struct oci_cmp args[6];
	size_t nargs; /* sorted by argument */
};

struct oci_xlist {
	struct oci_xentry *v;
	size_t n, cap;
};

/* What one syscall gets on one ABI: disjoint regions, each with an action (never the default). */
struct oci_decision {
	uint32_t nr;
	uint32_t *actions;
	struct oci_region *regions;
	size_t n;
	struct oci_region covered; /* what the rules so far took, whatever their action */
	bool has_rules;   /* some rule names it (even if only with the default action) */
	bool dropped;     /* runc's stub decides it: not exported on this ABI */
};

struct oci_abi_plan {
	const struct scg_arch *arch;
	struct oci_decision *d; /* sorted by nr */
	size_t n;
};

struct oci_export {
	const struct scg_policy *policy;
	struct scg_diag *diag;
	int error;                /* first error; later work stops */
	size_t budget;            /* box intersections left (set.h) */
	struct oci_abi_plan abis[32];
	size_t nabis;
	const char **names;       /* every syscall name a rule reaches, in rule order */
	size_t nnames, names_cap;
};

/* Builds the per-ABI decisions and the list of names. */
int oci_export_plan(struct oci_export *x);
void oci_export_release(struct oci_export *x);
struct oci_decision *oci_export_find(struct oci_abi_plan *abi, uint32_t nr);

/* How many syscalls of @arch have a number in @first..@last (a binary search, not a walk). */
size_t oci_syscalls_between(const struct scg_arch *arch, uint32_t first, uint32_t last);

/* Is the decision "ENOSYS for every argument"? */
bool oci_decision_is_enosys(const struct oci_decision *d);

/*
 * The entries for @name, the same on every target ABI that has the
 * syscall (skipping decisions marked dropped), into @out.  Reports and
 * returns -EINVAL when no one list fits them all.  @as_patterns writes the
 * 64-bit ABIs' sets as bit patterns (masked equalities) too, never as
 * ranges.
 */
int oci_export_entries(struct oci_export *x, const char *name, bool as_patterns,
		       struct oci_xlist *out);
void oci_xlist_release(struct oci_xlist *l);

/* Reports an error (counted once: the first error stops the export). */
void oci_export_error(struct oci_export *x, struct scg_loc loc, const char *hint,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
