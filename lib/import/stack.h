/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stack of seccomp filters as another tool installs them, each a list of
 * rules with a default, turned into one first-match policy with the
 * kernel's semantics for stacks: the strictest action wins (KILL_PROCESS,
 * KILL_THREAD, TRAP, ERRNO, USER_NOTIF, TRACE, LOG, ALLOW), and among equal
 * actions the filter installed last.  The importers describe what the tool
 * does filter by filter; this file alone knows how filters combine.
 */
#ifndef SCG_IMPORT_STACK_H
#define SCG_IMPORT_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/diag.h>
#include <syscage/policy.h>

/*
 * One rule of one filter.  cond is over 64 bits; a 32-bit ABI gets it cut to
 * 32.  syscall is a name, or "#FIRST-LAST" for the raw numbers FIRST..LAST
 * (imp_number_key() writes it).
 */
struct imp_rule {
	char *syscall;
	struct scg_expr *cond; /* NULL: unconditional */
	uint32_t action;
	struct scg_loc loc; /* loc.file borrowed from the stack */
};

struct imp_layer {
	uint32_t abi_mask;  /* scg_arch_mask_bit()s of the ABIs the filter checks */
	uint32_t dflt;	    /* for calls no rule matches */
	struct scg_loc loc; /* the setting that made the filter (its default's location) */
	struct imp_rule *rules;
	size_t nrules, cap;
};

/* A syscall's number on @arch as the other tool knows it: 0, or -ENOSYS when it has none. */
typedef int (*imp_resolve_fn)(const struct scg_arch *arch, const char *name, uint32_t *nr);

struct imp_stack {
	const char *file;
	imp_resolve_fn resolve; /* NULL: syscage's own tables */
	/* x86_64 numbers 0x80000000..0xbfffffff get the badarch verdict, as in
	 * libseccomp's filters for x86_64 without x32 */
	bool libseccomp_high;
	struct imp_layer *layers; /* in the order they are installed */
	size_t nlayers, cap;
	const struct scg_arch *targets[8];
	size_t ntargets;
	uint32_t badarch;
};

void imp_stack_init(struct imp_stack *st, const char *file);
void imp_stack_release(struct imp_stack *st);
/* A new filter on top of the stack, or NULL (out of memory). */
struct imp_layer *imp_stack_push(struct imp_stack *st, uint32_t abi_mask, uint32_t dflt,
				 struct scg_loc loc);
/* Appends a rule; takes @cond (freed on failure).  0 or -ENOMEM. */
int imp_layer_add(struct imp_layer *layer, const char *syscall, struct scg_expr *cond,
		  uint32_t action, struct scg_loc loc);
/* The syscall key of a rule on numbers @first..@last, into @buf (at least 24 bytes). */
const char *imp_number_key(char *buf, size_t size, uint32_t first, uint32_t last);
/* The syscall key of a rule on numbers @first..@last, into @buf (at least 24 bytes). */
const char *imp_number_key(char *buf, size_t size, uint32_t first, uint32_t last);
/* Bit of @arch in an abi_mask (and a rule's arch_mask). */
uint32_t imp_abi_bit(const struct scg_arch *arch);
/* Whether @name has a number on some target ABI. */
bool imp_known_syscall(const struct imp_stack *st, const char *name);

/* The stack as one policy (caller frees).  0 or -ENOMEM. */
int imp_stack_to_policy(const struct imp_stack *st, struct scg_policy **out);

#endif
