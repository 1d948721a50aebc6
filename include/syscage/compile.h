/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The compiler: policy -> seccomp BPF program.
 *
 * The output checks the ABI first, handles x32 on x86_64 (leaving nr == -1
 * to the x86_64 rules), reads argument words at the target ABI's offsets,
 * compares 64-bit values exactly at every boundary of both halves, keeps
 * every argument-independent ALLOW on a path the kernel's action cache
 * understands, and means exactly what scg_policy_eval() says.
 */
#ifndef SYSCAGE_COMPILE_H
#define SYSCAGE_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How often programs make one syscall (a count, or any relative figure). */
struct scg_syscall_weight {
	const char *name; /* the syscall, on every target ABI that has it */
	uint64_t count;
};

struct scg_compile_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* 0: one straight rule chain per syscall, no layout work (a reference
	 * for equivalence tests); 1 (default): every optimisation. */
	unsigned optimize;
	/*
	 * The workload the filter is laid out for: the syscalls the kernel's
	 * cache cannot skip (argument checks, verdicts other than ALLOW) that
	 * programs make often are tested first.  NULL: syscage's built-in
	 * profile of common programs (scg_compile_builtin_weights()).
	 */
	const struct scg_syscall_weight *weights;
	size_t nweights;
	/* Lay out for no workload at all (every syscall alike). */
	bool unweighted;
};

/*
 * The built-in workload profile: calls per syscall over a set of common
 * programs (shell, coreutils, compilers, interpreters; docs/compiler.md),
 * sorted by name.  *@n gets the count.
 */
SCG_API const struct scg_syscall_weight *scg_compile_builtin_weights(size_t *n);

/*
 * Compiles @policy (with at least one target ABI) into *@out (caller
 * releases).  A policy that needs more than 4096 instructions is refused
 * with -E2BIG and a diagnostic naming the cause.  @opts may be NULL.
 */
SCG_API int scg_compile(const struct scg_policy *policy, const struct scg_compile_options *opts,
			struct scg_prog *out, struct scg_diag *diag);

/*
 * How well a compiled filter is laid out for a workload (`syscage compile
 * --stats`).  On kernels with the action cache (5.11+) only the calls the
 * cache cannot skip run the filter; these figures are about them.
 */
struct scg_compile_stats {
	/* sizeof(struct scg_compile_stats) as the caller knows it: SCG_OPTS
	 * (<syscage/export.h>) sets it; the library fills only what fits */
	size_t sz;
	size_t length;             /* instructions of the program */
	size_t uncached_syscalls;  /* known syscalls of the ABI the workload calls and the kernel cannot cache */
	uint64_t uncached_calls;   /* their calls in the workload */
	/* Instructions the program executes per uncached call, weighted by the
	 * workload: measured with the emulator (arguments 0). */
	double weighted_uncached;
	/* The same with the number dispatch replaced by the best decision tree
	 * over syscall numbers (tests nr >= k and nr == k; an exact dynamic
	 * program over the ranges and the workload's weights): the ABI check
	 * before it and the argument tests after it stay as measured. */
	double optimal_weighted_uncached;
	double weighted_dispatch;          /* of weighted_uncached: loading nr and the tests on it */
	double optimal_weighted_dispatch;  /* of optimal_weighted_uncached: the same in the best tree */
	size_t ranges;             /* number ranges the dynamic program ran over */
	/* The same program over every known syscall of the ABI the kernel cannot
	 * cache, called by the workload or not, each counting once (arguments 0): */
	size_t uniform_syscalls;           /* how many */
	double uniform_uncached;           /* mean instructions executed */
	double optimal_uniform_uncached;   /* with the best tree for them */
	double uniform_dispatch;           /* of uniform_uncached: loading nr and the tests on it */
	double optimal_uniform_dispatch;
	size_t max_path;                   /* the longest of those paths, instructions */
	size_t max_dispatch;               /* the longest number dispatch among them */
	size_t optimal_max_dispatch;       /* the least any tree over the numbers makes it */
	/* Per figure (0 weighted, 1 uniform, 2 maximum): how many numbers the
	 * optimum lets `jeq` test, out of how many it could.  When fewer, the
	 * optimum is the best tree whose `jeq` tests take only those (the most
	 * weighted): the exact search over every choice outgrew its memory. */
	size_t jeq_points[3], jeq_candidates[3];
};

/*
 * Fills @out (its sz set by the caller) for @prog compiled from @policy with
 * @opts (whose workload is the one weighed: its weights, or the built-in
 * one, also when the filter was laid out for none with unweighted), on ABI
 * @arch (NULL: the policy's first target).  @prog NULL: compiled here.
 * Returns 0, -EINVAL, -E2BIG (more than 2048 number ranges in the dispatch,
 * too many for the search for the best tree) or -ENOMEM.
 */
SCG_API int scg_compile_stats(const struct scg_policy *policy, const struct scg_compile_options *opts,
			      const struct scg_prog *prog, const struct scg_arch *arch,
			      struct scg_compile_stats *out);

/*
 * Built-in profiles ship compiled (lib/compile/prebuilt_profiles.c, written
 * by `ninja -C build prebuilt`): the filter scg_compile() makes with no
 * options from built-in profile @name loaded for @native, i.e. for @native
 * and its companions, as scg_profile_load() targets them on such a machine.
 * Copies it into *@out (caller releases).  Returns 0, -ENOENT when none is
 * built in for that profile and ABI (compile it then), or -ENOMEM.  A unit
 * test holds every one equal to a fresh compile.
 */
SCG_API int scg_profile_prebuilt(const char *name, const struct scg_arch *native,
				 struct scg_prog *out);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_COMPILE_H */
