/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the compiler's files share.
 *
 * The optimising compiler works in three stages:
 *
 *  1. layout.c cuts the syscall-number space of every AUDIT_ARCH value the
 *     policy targets into ranges, each with one *decision*: the ordered
 *     (condition, action) entries of the rules that can match there, and the
 *     verdict when none does.  Adjacent numbers with equal decisions share a
 *     range.
 *  2. cond.c turns each decision into decision-graph nodes (dag.c) that test
 *     32-bit words of the arguments; tree.c builds a search tree over the
 *     ranges whose leaves are those nodes; compile.c puts the arch dispatch
 *     on top.  Identical nodes are created once, so equal returns, equal
 *     argument checks and equal subtrees are shared by construction.
 *  3. codegen.c lays the graph out, loads each word only when the register
 *     does not already hold it, and emits through the labelled-program
 *     builder (bpf/lprog.h), which resolves jumps and adds trampolines.
 *
 * plain.c is the unoptimised reference (optimize = 0): one straight chain of
 * rules per ABI, written independently of stages 1-3 so that the two can be
 * checked against each other.
 */
#ifndef SCG_LIB_COMPILE_INTERNAL_H
#define SCG_LIB_COMPILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/compile.h>

#include "bpf/lprog.h"
#include "util/hashmap.h"

#define WORD_FULL 0xffffffffU

/* --- decision graph (dag.c) ------------------------------------------- */

enum dag_kind { DAG_RET, DAG_TEST };

/* RET k, or: if ((word & mask) op k) goto t; else goto f. */
struct dag_node {
	uint8_t kind;
	uint8_t op;    /* BPF_JEQ, BPF_JGT, BPF_JGE or BPF_JSET */
	uint32_t word; /* offset in struct seccomp_data */
	uint32_t mask; /* ANDed into A before the test; WORD_FULL for none */
	uint32_t k;    /* operand, or the return value */
	uint32_t t, f;
	uint8_t copy;  /* 0, or which private copy of a subgraph this belongs to */
};

struct dag {
	struct dag_node *nodes;
	size_t len, cap;
	struct hashmap index; /* node hash -> node */
	int err; /* sticky -ENOMEM */
};

int dag_init(struct dag *g);
void dag_release(struct dag *g);
/* The node for RET @value. */
uint32_t dag_ret(struct dag *g, uint32_t value);
/* The node for a test; a test whose branches agree is its branch. */
uint32_t dag_test(struct dag *g, uint32_t word, uint32_t mask, uint8_t op, uint32_t k, uint32_t t,
		  uint32_t f);
/*
 * A copy of the tests under @node (returns stay shared) that no other part
 * of the graph shares, marked @copy (1..255): the code can then be laid out
 * right where one edge enters it.  Subgraphs of more than @budget tests
 * are not copied (@node is returned).
 */
uint32_t dag_private_copy(struct dag *g, uint32_t node, uint8_t copy, size_t budget);

/* --- conditions (cond.c) ---------------------------------------------- */

/* A comparison of one masked 32-bit word: (word & mask) op k, op in EQ, GT, GE. */
struct atom {
	uint32_t word, mask;
	uint8_t op;
	uint32_t k;
};

enum fkind { F_FALSE, F_TRUE, F_ATOM, F_NOT, F_AND, F_OR };

/* A condition as a formula over atoms; index 0 is FALSE, 1 is TRUE. */
struct fnode {
	uint8_t kind;
	uint32_t a, b; /* ATOM: atom index; NOT: a; AND, OR: a, b */
};

struct cond_ctx {
	struct dag *dag;
	struct atom *atoms;
	size_t natoms, atoms_cap;
	struct hashmap atom_index; /* atom hash -> atom */
	struct fnode *f;
	size_t nf, f_cap;
	size_t budget; /* decide() steps left before falling back to plain jumping code */
	struct cond_scratch *scratch; /* cond_decide()'s per-atom state (cond.c) */
	int err;
};

int cond_init(struct cond_ctx *c, struct dag *dag);
void cond_release(struct cond_ctx *c);
/*
 * The formula of @expr with argument words at @arch's offsets (only its byte
 * order matters).  Constant parts are folded.
 */
uint32_t cond_formula(struct cond_ctx *c, const struct scg_expr *expr, bool big_endian);
/* 1 when @formula is always true, 0 when always false, -1 otherwise. */
int cond_constant(const struct cond_ctx *c, uint32_t formula);

/* One entry of a decision: if the formula holds, return the action. */
struct entry {
	uint32_t formula;
	uint32_t action;
};

/*
 * The graph node deciding @n entries (first match wins) with @final when
 * none matches.  Splits on one word test at a time, folding every test the
 * tests on the path already decide (jump threading, shared high-word tests).
 */
uint32_t cond_decide(struct cond_ctx *c, const struct entry *entries, size_t n, uint32_t final);

/* --- the search tree (tree.c) ------------------------------------------- */

struct nr_range {
	uint32_t first, last; /* inclusive */
	uint32_t node;        /* what decides numbers in the range */
	uint64_t weight;      /* how much its depth counts (layout.c: range_weights()) */
	uint64_t calls;       /* the workload's calls of its syscall when the kernel cannot cache it */
	uint32_t uncached;    /* known syscalls in it the kernel cannot cache (0 or 1) */
	uint32_t known;       /* known syscalls in it (0 or 1) */
};

/*
 * The most ranges tree_build() lays out exactly (the dynamic programs);
 * past it the top levels split the weight in halves, and the height limit
 * and the pricing of the hot chain (layout.c) give way: bounding every
 * piece would cost O(n^3) each, which policies of many thousand numbered
 * rules cannot pay.
 */
#define TREE_EXACT_MAX 256
/* The height of a balanced tree over @n leaves: ceil(log2(n)). */
unsigned tree_height_needed(size_t n);
/*
 * The node of a search tree on seccomp_data.nr over @n sorted, contiguous
 * ranges: among the trees of height at most @limit (0: any; raised to
 * tree_height_needed(n) when below; ignored past TREE_EXACT_MAX ranges),
 * the mean depth weighted by ->weight is minimal (exactly, up to
 * TREE_EXACT_MAX ranges, where an approximation takes over).  The
 * ranges must cover every number that can reach the tree.
 */
uint32_t tree_build(struct dag *g, const struct nr_range *ranges, size_t n, unsigned limit,
		    int *err);
/* The weighted depth tree_build() reaches with @limit; UINT64_MAX when no tree fits. */
uint64_t tree_cost(const struct nr_range *ranges, size_t n, unsigned limit, int *err);
/*
 * tree_cost() for 1 to TREE_EXACT_MAX ranges under a @limit from
 * tree_height_needed(n) to 63, keeping the plan (and a copy of @ranges) for
 * tree_plan_emit(), which builds what tree_build() would.  NULL with
 * *@cost UINT64_MAX when no tree fits, or with *@err set.
 */
struct tree_plan;
struct tree_plan *tree_plan(const struct nr_range *ranges, size_t n, unsigned limit,
			    uint64_t *cost, int *err);
uint32_t tree_plan_emit(struct dag *g, const struct tree_plan *t);
void tree_plan_free(struct tree_plan *t);

/* --- the workload (weights.c) ------------------------------------------- */

/* Calls per syscall name, sorted by name for lookups. */
struct weights {
	const struct scg_syscall_weight *w;
	size_t n;
	struct scg_syscall_weight *owned; /* the caller's list, sorted and summed */
};

/* From @opts: the caller's list, the built-in profile, or nothing (unweighted). */
int weights_init(struct weights *w, const struct scg_compile_options *opts);
void weights_release(struct weights *w);
/* Calls of @name (0 when unknown or @name is NULL). */
uint64_t weights_of(const struct weights *w, const char *name);

/*
 * The workload on one ABI, in number order, for lookups in ascending number
 * order: each name the ABI knows, at its number.  weights_by_nr() returns 0
 * or -ENOMEM; nr_weights_release() frees what it built.
 */
struct nr_weight {
	uint32_t nr;
	uint64_t count;
};
struct nr_weights {
	struct nr_weight *v;
	size_t n;
	size_t next; /* where the next lookup starts */
};
int weights_by_nr(const struct weights *w, const struct scg_arch *arch, struct nr_weights *out);
/* Calls of number @nr; each call's @nr at least the one before. */
uint64_t nr_weights_of(struct nr_weights *nw, uint32_t nr);
void nr_weights_release(struct nr_weights *nw);

/* --- hot syscalls (hot.c) ------------------------------------------------ */

/* At most this many `jeq` in front of an ABI's tree. */
#define HOT_MAX 8

/* A syscall the kernel's cache cannot skip, with its range in the layout. */
struct hot_call {
	uint32_t nr, node;
	uint64_t count;
	size_t range;     /* index in the layout's ranges, before merging */
	bool checks_args; /* its verdict depends on the arguments */
};

struct hot_list {
	struct hot_call *calls;
	size_t n, cap;
};

int hot_add(struct hot_list *h, const struct hot_call *call);
void hot_release(struct hot_list *h);
/*
 * Sorts the candidates by count, most first (ties by number); layout.c
 * decides how many of them get a `jeq` of their own.
 */
void hot_sort(struct hot_list *h);
/*
 * The chain testing h->calls[0, n) in order, falling through to @rest.  Each
 * call's checks are copied (private copy @copy) so that they can sit right
 * behind its test.
 */
uint32_t hot_chain(struct dag *g, const struct hot_list *h, size_t n, uint32_t rest,
		   uint8_t copy);

/* --- layout (layout.c) -------------------------------------------------- */

/* Per ABI statistics for diagnostics. */
struct abi_stats {
	const struct scg_arch *arch;
	uint32_t root; /* first node of the ABI's number dispatch */
	size_t ranges; /* number ranges of its tree (optimised) */
	size_t insns;  /* instructions of its section (unoptimised) */
};

/* Builds the whole decision graph of @policy; *@root is the first node. */
int layout_build(const struct scg_policy *policy, const struct weights *w, struct dag *g,
		 struct cond_ctx *c, uint32_t *root, struct abi_stats *stats, size_t *nstats);

/*
 * The ranges of every number under AUDIT_ARCH value @audit (both halves of
 * x86_64/x32, nr == -1 included), before the hot chain takes any and
 * before neighbours with equal nodes merge: *@out (caller frees), *@n.
 * For statistics (stats.c).  0 or -errno.
 */
int layout_audit_ranges(const struct scg_policy *policy, const struct weights *w, uint32_t audit,
			struct dag *g, struct cond_ctx *c, struct nr_range **out, size_t *n);

/* --- the optimum of the number dispatch (optimum.c) ------------------------ */

/* One range of numbers with one decision, and the calls the workload makes in it. */
struct opt_range {
	uint32_t first, last;
	uint32_t node;   /* equal nodes: the same decision */
	uint64_t weight; /* workload calls; a weighted range of one number may be tested by `jeq` */
	bool jeq;        /* (opt_tree_cost()'s own: whether it is among the numbers `jeq` may test) */
};

/* The most one-number ranges `jeq` may test in the search. */
#define OPT_MAX_POINTS 20
/* Memo entries before the search gives up (-E2BIG). */
#define OPT_MAX_STATES (1U << 18)
/* Ranges (after reduction) the search takes with no `jeq` points at all. */
#define OPT_MAX_RANGES 2048

/*
 * The smallest sum over the ranges of weight times the number of tests on
 * the way to its decision (@minimax: the largest number of tests to any
 * weighted range) that any decision tree over the numbers reaches, whose
 * tests are `nr >= k` (any k; `nr > k` is the same test) and `nr == k` (k
 * one of the @max_points most weighted one-number ranges, at most
 * OPT_MAX_POINTS; ties: first those between two ranges of one node, then
 * by number).  With every weighted one-number range among them the optimum
 * is over all such trees.  A leaf decides numbers of one node only.  @r:
 * sorted, contiguous ranges.  An exact dynamic program over (interval of
 * ranges, set of numbers already taken by `jeq`), after runs of unweighted
 * ranges are reduced to what can change the answer.  0, -E2BIG (the search
 * outgrew its memo, OPT_MAX_STATES: try fewer points; with none, more than
 * OPT_MAX_RANGES ranges) or -ENOMEM.
 */
int opt_tree_cost(const struct opt_range *r, size_t n, bool minimax, size_t max_points,
		  uint64_t *cost);

/* Actions whose data the kernel ignores lose it (so ALLOW is exactly 0x7fff0000). */
uint32_t compile_action(uint32_t action);

/* --- emission (codegen.c, plain.c) --------------------------------------- */

/* Emits the graph from @root into @lp. */
int codegen_emit(const struct dag *g, uint32_t root, struct lprog *lp);

/* The unoptimised reference program; @stats (32 entries) gets each ABI's section size. */
int plain_emit(const struct scg_policy *policy, struct lprog *lp, struct abi_stats *stats,
	       size_t *nstats);

#endif
