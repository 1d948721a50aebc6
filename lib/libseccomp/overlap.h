/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which action libseccomp's filter gives a call that rules of different
 * actions both match, for the two places that must answer as libseccomp
 * does: the drop-in (compat/) and the OCI import (lib/oci/, which runc feeds
 * to libseccomp).  Not part of the API.
 *
 * libseccomp's answer follows its rule tree (rule_tree.h), walked as its
 * program walks it, not the actions' strictness.  The rules come out as
 * first-match rules that cover only the calls where rules of different
 * actions meet; the caller's own rules for the syscall follow them and
 * decide every other call, where the rules mean one action.
 */
#ifndef SCG_LIB_LIBSECCOMP_OVERLAP_H
#define SCG_LIB_LIBSECCOMP_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/policy.h>

struct libseccomp_tree;

/* One accepted rule of the syscall: its action and what it matches (NULL: every call). */
struct libseccomp_overlap_rule {
	uint32_t action;
	const struct scg_expr *cond;
};

/* Receives one first-match rule; owns @cond (never NULL). */
typedef int (*libseccomp_overlap_fn)(void *ctx, uint32_t action, struct scg_expr *cond);

/*
 * For one syscall on one ABI, whose accepted @rules built @tree in that
 * order: a call that rules of different actions match gets the action of
 * the tree's path it takes, or, where that action is no matching rule's (a
 * slip of libseccomp's tree, such as its 64-bit merge error
 * GHSA-4q85-33p6-j5g6) or where the call falls out of the tree, the
 * strictest of the matching rules' actions (of one rank, the one whose
 * first rule comes first in @rules).
 * Nothing when the rules cannot meet with different actions (one action,
 * or an unconditional rule, which decides alone).  0; -E2BIG, with nothing
 * passed to @emit, where the rules have more than 8 distinct actions or the
 * tree unfolds into more than 4096 rules (the caller's rules then decide
 * those calls too); -ENOMEM.
 */
int libseccomp_overlap_rules(const struct libseccomp_tree *tree,
			     const struct libseccomp_overlap_rule *rules, size_t n,
			     libseccomp_overlap_fn emit, void *ctx);

#endif
