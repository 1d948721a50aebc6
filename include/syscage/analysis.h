/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The analysis engine (libsyscage-analysis): an exact symbolic model of a
 * seccomp filter, or of a stack of filters.
 *
 * The engine walks the (loop-free) programs symbolically and partitions the
 * space of struct seccomp_data, viewed as its sixteen 32-bit words (word i
 * is what "ld [4*i]" loads), into regions.  Every input of a region makes
 * the stack return the same value.  Regions are disjoint and together cover
 * every possible input: the answers are proofs, not samples.  Paths that
 * meet again at an instruction in the same state are walked on as one, so
 * the work follows the program's shape, not its number of paths.
 *
 * A region constrains each word independently (struct scg_word_set): a
 * union of intervals, bits with known values, and masked patterns the word
 * must not match.  Loads, constants, AND masks, the four conditional jumps
 * against constants, scratch memory, TAX/TXA, LD LEN and RET A of a loaded
 * word are modelled exactly this way, which covers the filters compilers
 * emit.  Values computed from loaded words (arithmetic, shifts, division,
 * comparisons between two words, RET A of a computed value) become Z3
 * bit-vector terms, and the regions they split carry general conditions
 * as well; every question about such a region is answered by the solver
 * over both parts together.  libz3 is loaded on first use; when it cannot
 * be, analysing such a filter fails with -ENOSYS.  Word sets then describe the words' own
 * constraints only.
 *
 * Functions return 0 (or a count) or a negative errno and never print.
 */
#ifndef SYSCAGE_ANALYSIS_H
#define SYSCAGE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/emu.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCG_DATA_WORDS 16U
#define SCG_WORD_NR 0U
#define SCG_WORD_ARCH 1U

/* A closed interval of 32-bit values. */
struct scg_interval {
	uint32_t lo, hi;
};

/* The values v with (v & mask) == value. */
struct scg_pattern {
	uint32_t mask, value;
};

/*
 * A set of 32-bit values: those inside one of @intervals (sorted, disjoint,
 * not adjacent), whose bits in @known match @known_value, and that match
 * none of the @excluded patterns.  Borrowed from the region it belongs to.
 */
struct scg_word_set {
	const struct scg_interval *intervals;
	size_t nintervals;
	uint32_t known, known_value;
	const struct scg_pattern *excluded;
	size_t nexcluded;
};

/* A set of inputs: one word set per word of seccomp_data, plus any general conditions.  Opaque. */
struct scg_region;

/* Every input.  NULL with errno set on allocation failure. */
SCG_API struct scg_region *scg_region_new(void);
/* NULL is a no-op. */
SCG_API void scg_region_free(struct scg_region *region);
/* A deep copy, or NULL. */
SCG_API struct scg_region *scg_region_clone(const struct scg_region *region);
/* Keeps only inputs whose word @word lies in [lo, hi].  0, -EINVAL, -ENOMEM. */
SCG_API int scg_region_restrict_range(struct scg_region *region, unsigned word, uint32_t lo,
				      uint32_t hi);
/* Removes inputs whose word @word lies in [lo, hi].  0, -EINVAL, -ENOMEM. */
SCG_API int scg_region_exclude_range(struct scg_region *region, unsigned word, uint32_t lo,
				     uint32_t hi);
/* The set of values word @word may take in @region (borrowed). */
SCG_API void scg_region_word(const struct scg_region *region, unsigned word,
			     struct scg_word_set *set);
/* True when word @word's own set is every value (general conditions may still involve it). */
SCG_API bool scg_region_word_free(const struct scg_region *region, unsigned word);
/* True when @region contains no input. */
SCG_API bool scg_region_empty(const struct scg_region *region);
/* True when the input @words (sixteen words) lies in @region. */
SCG_API bool scg_region_contains(const struct scg_region *region, const uint32_t *words);
/*
 * One input of @region, as sixteen words (smallest values first where that
 * is cheap).  Returns 0, or -ENOENT for an empty region.
 */
SCG_API int scg_region_example_words(const struct scg_region *region, uint32_t *words);
/*
 * The same input as struct seccomp_data, laid out with the byte order of its
 * arch word (bit 30 of AUDIT_ARCH_* set: little endian).
 */
SCG_API int scg_region_example(const struct scg_region *region, struct scg_seccomp_data *data);
/*
 * The smallest value >= @from in word @word's set (general conditions not
 * considered), in *@out.  0, or -ENOENT when there is none.
 */
SCG_API int scg_region_word_next(const struct scg_region *region, unsigned word, uint32_t from,
				 uint32_t *out);

/* --- budgets and work counters ---------------------------------------------- */

/*
 * What the engine did, added to by every call given it (so one struct can sum
 * several calls).  Counts, not times: tests bound them.
 */
struct scg_analysis_stats {
	uint64_t walks;        /* partitions started (one per filter stack and starting region) */
	uint64_t states;       /* steps of the walk: each way of each fork, each state at a join */
	uint64_t merges;       /* states folded into another that reached the same join */
	uint64_t leaves;       /* leaves reached (regions times filters) */
	uint64_t solver_calls; /* satisfiability questions asked of Z3 */
};

/*
 * Called, when a call stops for its budget, once for each region of inputs
 * whose answer was not decided; with the regions already reported they cover
 * the inputs asked about.  The region is borrowed for the duration of the call.
 */
typedef int (*scg_undecided_fn)(void *ctx, const struct scg_region *region);

/*
 * Limits of one call.  Zero-initialised fields mean "no limit" and "not
 * wanted".
 * When the budget runs out the call stops at the next check (the engine's
 * loops, each solver question, whose own timeout never passes the
 * deadline) and returns -ETIMEDOUT (@timeout_ms passed) or -ECANCELED
 * (@cancel said so), after reporting what it left undecided: regions to
 * @undecided, and for decompile and lint the ABIs, syscalls and checks not
 * done as an "analysis-budget" diagnostic.
 */
struct scg_analysis_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	uint64_t timeout_ms;         /* wall-clock budget of the whole call; 0: none */
	bool (*cancel)(void *ctx);   /* polled with the clock: true stops the call */
	void *cancel_ctx;
	scg_undecided_fn undecided;  /* optional */
	void *undecided_ctx;
	struct scg_analysis_stats *stats; /* optional: added to */
};

/*
 * Called once per region of the partition, in the order of the walk (depth
 * first, taken jumps first; paths that meet again at an instruction in one
 * state go on as one, so their inputs are one region).  @rets holds
 * the value each filter returns there (indexed like the stack); @winner is
 * the stack's combined value (kernel precedence).  The region is borrowed
 * for the duration of the call.  A nonzero return stops the walk and is
 * returned by the walker.
 */
typedef int (*scg_region_fn)(void *ctx, const struct scg_region *region, const uint32_t *rets,
			     uint32_t winner);

/*
 * Partitions the inputs in @within (NULL: every input) for the stack of @n
 * filters progs[0] (oldest) ... progs[n-1] (newest).  Every program must be
 * one the kernel loads (-EINVAL otherwise, with a diagnostic).  Returns 0,
 * the callback's nonzero value, -E2BIG when the partition exceeds the
 * engine's limits (RET A of a value with too many possible values, more
 * than 2^24 regions, a solver timeout; the diagnostic names the
 * instruction), -ENOMEM, or (with options) -ETIMEDOUT or -ECANCELED.
 */
SCG_API int scg_analysis_regions(const struct scg_prog *progs, size_t n,
				 const struct scg_region *within, scg_region_fn fn, void *ctx,
				 struct scg_diag *diag);
/* The same within the limits of @opts (NULL: none); -ETIMEDOUT or -ECANCELED as above. */
SCG_API int scg_analysis_regions_opts(const struct scg_prog *progs, size_t n,
				      const struct scg_region *within,
				      const struct scg_analysis_options *opts, scg_region_fn fn,
				      void *ctx, struct scg_diag *diag);

/*
 * The path one input takes through one filter: @pcs receives the executed
 * instruction indexes (up to @max; returns the count), and *@region (when
 * not NULL) a new region holding every input that takes the same path
 * (caller frees).  Returns the count or a negative errno as above.
 */
SCG_API int scg_analysis_path(const struct scg_prog *prog, const struct scg_seccomp_data *data,
			      size_t *pcs, size_t max, struct scg_region **region,
			      struct scg_diag *diag);
SCG_API int scg_analysis_path_opts(const struct scg_prog *prog,
				   const struct scg_seccomp_data *data,
				   const struct scg_analysis_options *opts, size_t *pcs, size_t max,
				   struct scg_region **region, struct scg_diag *diag);

/* --- verdicts and differences ----------------------------------------- */

/*
 * What the kernel does with a winning return value: the action and, for
 * ERRNO (capped at 4095), TRAP and TRACE, the data; unknown actions are
 * KILL_PROCESS.  With @ignore_errno every ERRNO value is the same.
 */
SCG_API bool scg_verdict_same(uint32_t a, uint32_t b, bool ignore_errno);

struct scg_diff_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	bool ignore_errno;           /* all ERRNO values alike */
	const struct scg_arch *arch; /* compare only inputs of this ABI; NULL: all */
	const struct scg_analysis_options *limits; /* NULL: no budget */
};

/*
 * Called for each region where stack A and stack B take different actions,
 * with the winning values of each side.
 */
typedef int (*scg_diff_fn)(void *ctx, const struct scg_region *region, uint32_t ret_a,
			   uint32_t ret_b);

/*
 * Compares two stacks over every possible input.  Syscalls the kernel never
 * filters (x86_64 uretprobe, uprobe) are not compared.  Returns the number
 * of differing regions (0: equivalent, a proof), or a negative errno as
 * scg_analysis_regions().  @opts may be NULL; @fn may be NULL.  When the
 * budget of opts->limits runs out, the differences reported so far stand,
 * the inputs not compared go to its undecided callback, and the call
 * returns -ETIMEDOUT or -ECANCELED.
 */
SCG_API int scg_analysis_diff(const struct scg_prog *a, size_t na, const struct scg_prog *b,
			      size_t nb, const struct scg_diff_options *opts, scg_diff_fn fn,
			      void *ctx, struct scg_diag *diag);

/*
 * Describes the argument conditions of @region in policy syntax for @arch
 * ("arg0.lo == 0x3 && arg1.hi == 0"; "" when no argument is constrained;
 * general conditions follow in brackets, in Z3's notation over w0..w15),
 * into a new string (caller frees).  Returns 0 or -ENOMEM.
 */
SCG_API int scg_region_args_text(const struct scg_region *region, const struct scg_arch *arch,
				 char **text);

/* --- decompiling ---------------------------------------------------------- */

struct scg_policy;

/*
 * A policy equivalent to the stack of @n filters: its targets are the ABIs
 * the filters do not treat as a bad architecture, each syscall of each
 * target gets its verdict (argument conditions rebuilt from the regions,
 * restricted to the ABI with `on`), the most common verdict becomes
 * `default`, the verdict of numbers no table knows becomes `unknown`.
 * Compiling *@out gives a filter scg_analysis_diff() proves equal, except on
 * the syscalls the kernel never filters.  Returns 0, -ENOTSUP (with a
 * diagnostic) when the filters depend on something the policy language
 * cannot say (the instruction pointer, verdicts that vary with arguments
 * for a bad architecture, ranges of unknown numbers with different
 * verdicts), or an error of scg_analysis_regions().  Caller frees *@out.
 * When the budget of @opts runs out there is no policy: an
 * "analysis-budget" error names the ABIs and syscalls not decided, and the
 * call returns -ETIMEDOUT or -ECANCELED.  Conditions come simplified
 * (scg_policy_simplify()).
 */
SCG_API int scg_decompile(const struct scg_prog *progs, size_t n, struct scg_policy **out,
			  struct scg_diag *diag);
SCG_API int scg_decompile_opts(const struct scg_prog *progs, size_t n,
			       const struct scg_analysis_options *opts, struct scg_policy **out,
			       struct scg_diag *diag);

struct scg_expr;

/*
 * The decompiler's simplifier: a copy of @expr in which no && or || chain
 * repeats an operand ("(arg0 & 4) != 0 && (arg0 & 4) != 0" becomes
 * "(arg0 & 4) != 0"), so a filter that tests the same bits twice on a path
 * reads once.  The result means what @expr means.  Returns a new expression
 * (free it with scg_expr_free()), or NULL with errno set (EINVAL, ENOMEM).
 */
SCG_API struct scg_expr *scg_expr_simplify(const struct scg_expr *expr);
/*
 * @policy with every rule's condition simplified as scg_expr_simplify()
 * does, its targets and verdicts the same.  scg_decompile() hands out its
 * policy simplified already.  Returns 0 (caller frees *@out), -EINVAL or
 * -ENOMEM (*@out NULL).
 */
SCG_API int scg_policy_simplify(const struct scg_policy *policy, struct scg_policy **out);

/* --- fusing a stack ------------------------------------------------------- */

struct scg_compile_options;

struct scg_fuse_options {
	/* sizeof(struct scg_fuse_options) as the caller knows it: SCG_OPTS (<syscage/export.h>) */
	size_t sz;
	/* How the decompiled policy is compiled (the workload it is laid out
	 * for, ...); NULL: scg_compile()'s defaults. */
	const struct scg_compile_options *compile;
	/* Budget of decompiling and of the proof; NULL: none. */
	const struct scg_analysis_options *limits;
	/* Chain the filters' code even when the stack decompiles (for tests). */
	bool force_chain;
};

struct scg_fuse_result {
	struct scg_prog prog;      /* the fused filter */
	struct scg_policy *policy; /* the policy it was compiled from; NULL when chained */
	bool chained;              /* built by chaining the filters' code, not by decompiling */
	/* Filters of the stack whose USER_NOTIF decides some call: the kernel
	 * hands each filter's notifications to that filter's own listener, the
	 * fused filter's all go to the one listener of its install. */
	size_t notify_filters;
};

/*
 * One filter that gives every input the verdict the stack of @n filters
 * progs[0] (oldest) ... progs[n-1] (newest) gives it: the strictest action
 * wins, and among equal actions the value (errno, trap or trace data) of
 * the newest filter.  The stack is decompiled (scg_decompile()) and the
 * policy compiled with @opts->compile, so the result costs about one
 * filter; a stack the policy language cannot describe (no ABI check, tests
 * of the instruction pointer, computed values) is chained instead: the
 * filters' code in one program, each return combined with the best value
 * so far in scratch memory (a note in @diag says why).  Either way the
 * result is proven equal to the stack with scg_analysis_diff() before it is
 * handed out; the syscalls the kernel never filters are not compared.
 * Fills *@out (release with scg_fuse_result_release()).  Returns 0;
 * -EINVAL for an empty stack or a filter the kernel would refuse; -E2BIG
 * when the result exceeds 4096 instructions; -ENOTSUP when chaining finds
 * no free scratch words; -EPROTO if the proof fails (a bug; the diagnostic
 * has an input where they differ); or an error of scg_analysis_diff(),
 * -ETIMEDOUT and -ECANCELED included.  On failure *@out is empty.
 */
SCG_API int scg_fuse(const struct scg_prog *progs, size_t n, const struct scg_fuse_options *opts,
		     struct scg_fuse_result *out, struct scg_diag *diag);
/* Frees what scg_fuse() handed out and zeroes @res.  NULL is a no-op. */
SCG_API void scg_fuse_result_release(struct scg_fuse_result *res);

/* --- lint ------------------------------------------------------------------ */

/*
 * Checks a filter for the mistakes that weaken sandboxes and reports each
 * one to @diag with a stable code, a one-line explanation and a fix (hint):
 * no arch check, ABI bypasses (a syscall denied on x86_64 but allowed
 * through its x32 or i386 number), socketcall/ipc allowed while the calls
 * they multiplex are restricted, io_uring allowed while file or network
 * calls are restricted, syscalls that commonly break sandboxes allowed
 * (ptrace, bpf, mount, unshare/clone with namespace flags, ...), int
 * parameters tested over 64 bits (an error, naming the call, where the
 * register's upper half lets a denied call through), KILL_THREAD, TRACE,
 * unknown syscalls denied with something other than ENOSYS, unreachable
 * instructions.  Errors are holes, warnings risks, notes advice.  When
 * @policy (the source of @prog) is given, findings point at the deciding
 * rule, or the rule that makes the mistake (file:line); otherwise at the
 * instruction.
 * Returns 0 or a negative errno as scg_analysis_regions().
 */
SCG_API int scg_lint(const struct scg_prog *prog, const struct scg_policy *policy,
		     struct scg_diag *diag);
/*
 * The same within the limits of @opts.  When the budget runs out, the
 * findings already in @diag stand (each is decided), an "analysis-budget"
 * error names the checks and ABIs not done, and the call returns
 * -ETIMEDOUT or -ECANCELED.
 */
SCG_API int scg_lint_opts(const struct scg_prog *prog, const struct scg_policy *policy,
			  const struct scg_analysis_options *opts, struct scg_diag *diag);

/*
 * Marks in @reached (prog->len flags) the instructions some input reaches.
 * Returns 0 or a negative errno as scg_analysis_regions().
 */
SCG_API int scg_analysis_reachable(const struct scg_prog *prog, bool *reached,
				   struct scg_diag *diag);
SCG_API int scg_analysis_reachable_opts(const struct scg_prog *prog,
					const struct scg_analysis_options *opts, bool *reached,
					struct scg_diag *diag);

/*
 * The constraint on word @word alone, with the word called @name
 * ("nr in {0, 1}", "arch == 0xc000003e"; "" when unconstrained), into a new
 * string (caller frees).  Returns 0, -EINVAL or -ENOMEM.
 */
SCG_API int scg_region_word_text(const struct scg_region *region, unsigned word, const char *name,
				 char **text);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_ANALYSIS_H */
