/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libseccomp's rule tree for one syscall on one ABI, rebuilt node for node
 * so that the places that must answer as libseccomp does (the drop-in in
 * compat/, and later the OCI import) know which rules it refuses and which
 * of several matching rules its filter lets decide.
 *
 * libseccomp turns each conditional rule into a chain of word comparisons
 * (a 64-bit ABI tests a 64-bit datum as a high-word and a low-word node, a
 * range as three), then merges the chain into the syscall's tree: first it
 * prunes existing branches the new rule makes redundant, then it adds the
 * chain level by level, sharing nodes that test the same word the same way.
 * Where a shared node already carries another action on the branch the new
 * rule ends on (or the new rule ends where the tree goes on with another
 * action), the add fails with -EEXIST.  The first unconditional rule of a
 * syscall replaces its tree and makes every later rule a no-op.  Not part
 * of the API.
 */
#ifndef SCG_LIB_LIBSECCOMP_RULE_TREE_H
#define SCG_LIB_LIBSECCOMP_RULE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* libseccomp's enum scmp_compare, by value. */
enum libseccomp_op {
	LIBSECCOMP_NE = 1,
	LIBSECCOMP_LT = 2,
	LIBSECCOMP_LE = 3,
	LIBSECCOMP_EQ = 4,
	LIBSECCOMP_GE = 5,
	LIBSECCOMP_GT = 6,
	LIBSECCOMP_MASKED_EQ = 7,
};

struct libseccomp_cmp {
	unsigned arg; /* 0..5 */
	enum libseccomp_op op;
	uint64_t a, b; /* as struct scmp_arg_cmp: MASKED_EQ's mask, then its datum */
};

/* One rule as libseccomp's db sees it: at most one comparison per argument. */
struct libseccomp_rule {
	uint32_t action;
	unsigned ncmp;
	struct libseccomp_cmp cmp[6];
};

struct libseccomp_tree;

/* An empty tree for an ABI whose registers are @bits (32 or 64) wide; NULL
 * when out of memory.  Free with libseccomp_tree_free(). */
struct libseccomp_tree *libseccomp_tree_new(unsigned bits);
void libseccomp_tree_free(struct libseccomp_tree *tree);

/*
 * Merges @rule as libseccomp's db_rule_add() does: 0 when accepted (which
 * may change nothing), -EEXIST when libseccomp refuses it, -ELOOP where
 * libseccomp 2.5 would never return (a level of its tree looping on
 * itself), -ENOMEM.  After
 * an error the tree is as libseccomp leaves it (possibly half changed):
 * rebuild it from the accepted rules, as libseccomp's transactions do.
 */
int libseccomp_tree_add(struct libseccomp_tree *tree, const struct libseccomp_rule *rule);

/* One test of libseccomp's filter: (word & mask) op datum, on the high or low
 * word of an argument (a 32-bit ABI has only the low one), holding or not. */
struct libseccomp_word_test {
	unsigned arg;
	bool hi;
	enum libseccomp_op op; /* LIBSECCOMP_EQ, _GT or _GE */
	uint32_t mask, datum;
	bool holds;
};

/* The longest path of tests: three words for each of six arguments. */
#define LIBSECCOMP_MAX_PATH 18

/* One rule: @ntests tests that all hold as @path says (none: always), and its action. */
typedef int (*libseccomp_emit_fn)(void *ctx, const struct libseccomp_word_test *path,
				  size_t ntests, uint32_t action);

/*
 * The verdicts of the filter libseccomp generates from @tree, as first-match
 * rules passed to @emit in order (a call no rule matches gets the filter's
 * default; no rule at all when the tree is empty).  Stops at the first
 * non-zero return of @emit and returns it; -E2BIG past @max_rules rules.
 */
int libseccomp_tree_rules(const struct libseccomp_tree *tree, size_t max_rules,
			  libseccomp_emit_fn emit, void *ctx);

#endif
