/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Learning a policy from what a program does.
 *
 * A recording counts syscalls per ABI (as seccomp tells them apart:
 * seccomp_data.arch, plus bit 30 of nr for x32) and, when asked, the
 * distinct values of each scalar argument (flags, modes, commands; never
 * pointers, lengths, offsets, parameters the table does not name, and
 * descriptor numbers only with SCG_LEARN_ARGS_FD).  An argument that takes
 * more than SCG_LEARN_MAX_VALUES distinct values is summarised instead (the
 * bits seen, the largest value) and written as a mask test (flags) or a
 * range (small numbers), or allows any value.  Two arguments of which one
 * names the other's values (setsockopt's level and optname) are also kept
 * as the pairs the calls made (struct scg_learn_pairs).  The recording is
 * written as policy text that allows what was seen, and as a JSON
 * frequency profile.
 * docs/learn.md describes both formats.
 *
 * Nothing here talks to the kernel: the caller feeds struct seccomp_data
 * records (from user notifications, a trace, or a test).
 */
#ifndef SYSCAGE_LEARN_H
#define SYSCAGE_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/emu.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record the values of scalar arguments, not only the calls. */
#define SCG_LEARN_ARGS (1U << 0)
/* With SCG_LEARN_ARGS: also the descriptor numbers (fd, dirfd, sockfd, ...
 * of int type), which are stable only for programs that open their files
 * in a fixed order. */
#define SCG_LEARN_ARGS_FD (1U << 1)
/* Distinct values kept per argument before it is given up on. */
#define SCG_LEARN_MAX_VALUES 16U

struct scg_learn; /* opaque */

/* An empty recording; @flags: SCG_LEARN_*.  NULL on allocation failure. */
SCG_API struct scg_learn *scg_learn_new(unsigned flags);
/* NULL is a no-op. */
SCG_API void scg_learn_free(struct scg_learn *learn);

/*
 * Counts one call.  Returns 0, -EAFNOSUPPORT for an AUDIT_ARCH value no
 * known ABI has (not recorded), or -ENOMEM (nothing changed).
 */
SCG_API int scg_learn_record(struct scg_learn *learn, const struct scg_seccomp_data *data);

/*
 * Adds @calls calls of @nr on @arch without argument values: every
 * argument of that syscall then allows any value (the widest rule).  For
 * merging recordings.  Returns 0, -EINVAL when @arch is not one of
 * scg_arch_at()'s, or -ENOMEM (nothing changed).
 */
SCG_API int scg_learn_add_calls(struct scg_learn *learn, const struct scg_arch *arch, uint32_t nr,
				uint64_t calls);
/*
 * Adds @calls calls of @nr on @arch whose arguments are restricted:
 * argument i (bit i of @listed) took one of the @nvalues[i] values at
 * @values[i] (values past SCG_LEARN_MAX_VALUES free the argument); the
 * other arguments allow anything.  An argument restricted here but free in
 * the recording stays free.  For two arguments recorded as pairs (below),
 * every combination of their lists is added.  Returns what
 * scg_learn_add_calls() returns.
 */
SCG_API int scg_learn_add_values(struct scg_learn *learn, const struct scg_arch *arch,
				 uint32_t nr, uint64_t calls, unsigned listed,
				 const size_t nvalues[6], const uint64_t *const values[6]);

/* One recorded syscall, a borrowed view valid until the recording changes. */
struct scg_learn_entry {
	const struct scg_arch *arch;
	uint32_t nr;
	const char *name; /* NULL when @arch's table does not know @nr */
	uint64_t calls;
	/* Bit i: argument i is restricted to the nvalues[i] values at values[i]
	 * (sorted, distinct).  Arguments without the bit allow anything. */
	unsigned listed;
	size_t nvalues[6];
	const uint64_t *values[6];
	/* Bit i: argument i took more than SCG_LEARN_MAX_VALUES values, so it
	 * is summarised rather than listed: bits[i] is the OR of every value,
	 * max[i] the largest.  The writer makes a mask test of it for flags, a
	 * range for small numbers, or allows anything.  Arguments in neither
	 * @listed nor @general allow anything. */
	unsigned general;
	uint64_t bits[6], max[6];
};

/*
 * Some arguments are named by another of the same call: setsockopt's and
 * getsockopt's optname by the level, socket's protocol by the domain.  For
 * those two arguments the recording also keeps the distinct pairs of
 * values the calls made, up to SCG_LEARN_MAX_PAIRS; past that only each
 * argument's own values are kept.  The pairs say more than the two lists:
 * SO_KEEPALIVE at SOL_SOCKET and TCP_NODELAY at IPPROTO_TCP, not their
 * four combinations.
 */
#define SCG_LEARN_MAX_PAIRS 32U

struct scg_learn_pairs {
	unsigned ruler;     /* the argument that names the other's values (level, domain) */
	unsigned dependent; /* the argument named by it (optname, protocol) */
	/* True when every call's pair is among the @count at @values
	 * ([k][0]: argument @ruler, [k][1]: argument @dependent; sorted,
	 * distinct); false when there were more than SCG_LEARN_MAX_PAIRS. */
	bool kept;
	size_t count;
	const uint64_t (*values)[2];
};

/*
 * The pairs of entry @index (as scg_learn_entry_at() numbers them), a
 * borrowed view valid until the recording changes.  Returns 0, or -ENOENT
 * when its syscall has no such arguments or they are not both restricted
 * (listed or summarised).
 */
SCG_API int scg_learn_pairs_at(const struct scg_learn *learn, size_t index,
			       struct scg_learn_pairs *out);

/*
 * As scg_learn_add_values(), with the pairs those calls made: @pairs (NULL:
 * none known) names the syscall's two arguments, either way round, and
 * restricts them: each pair's values join the arguments' lists (which
 * need not hold them, nor be in @listed); with @pairs->kept
 * false (more pairs than a recording keeps) the entry keeps none from then
 * on.  Without @pairs, calls restricted to lists of both arguments may
 * have made any combination of them, so all of those are added as pairs.
 * Pairs are copied.  Returns what
 * scg_learn_add_calls() returns, -EINVAL also when @pairs names other
 * arguments than the syscall's pair or has more than SCG_LEARN_MAX_PAIRS.
 */
SCG_API int scg_learn_add_paired(struct scg_learn *learn, const struct scg_arch *arch,
				 uint32_t nr, uint64_t calls, unsigned listed,
				 const size_t nvalues[6], const uint64_t *const values[6],
				 const struct scg_learn_pairs *pairs);

/* Recorded syscalls, sorted by ABI (scg_arch_at() order) and then by number. */
SCG_API size_t scg_learn_count(const struct scg_learn *learn);
SCG_API int scg_learn_entry_at(const struct scg_learn *learn, size_t index,
			       struct scg_learn_entry *out);
/* Calls recorded in total, on every ABI. */
SCG_API uint64_t scg_learn_total(const struct scg_learn *learn);

/*
 * Widens @learn with the allow rules of @policy (typically a policy written
 * by scg_learn_to_text() and parsed back): each syscall they allow on a
 * target ABI, with the argument values their conditions list (a condition
 * that is not an AND of `argN in {...}` tests allows any value of the
 * arguments it tests).  Counts are taken from the "# N calls" comments of
 * @text (the policy's source, may be NULL: counts 0).  A rule over a range
 * of more than 4096 numbers adds only the syscalls the ABI's table has in
 * it.  Rules with other verdicts are ignored.  Atomic: on failure @learn is unchanged.
 * Returns 0 or -ENOMEM.
 */
SCG_API int scg_learn_merge_policy(struct scg_learn *learn, const struct scg_policy *policy,
				   const char *text, size_t len);

struct scg_learn_text_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* One line saying where the recording came from ("ls -l /"), or NULL. */
	const char *origin;
	/* The verdict for everything else: errno(EPERM) when true, else kill
	 * (the process).  Unknown syscall numbers always get errno(ENOSYS),
	 * calls from ABIs never seen kill. */
	bool deny_with_eperm;
};

/*
 * Writes @learn as policy text (docs/learn.md): the ABIs seen (and the
 * native one) as targets, one section per ABI when several were seen, the
 * syscalls grouped by category (a whole @group when every member was used
 * without restrictions), argument values written with the policy
 * language's constants where they say exactly the value on the rule's ABI
 * (O_RDONLY|O_CLOEXEC), each rule commented with its count.  @opts may be
 * NULL.  *@text is NUL-terminated, the caller frees it.  Returns 0 or
 * -ENOMEM.
 */
SCG_API int scg_learn_to_text(const struct scg_learn *learn,
			      const struct scg_learn_text_options *opts, char **text);

/*
 * Writes the frequency profile as JSON (docs/learn.md):
 *   {"version": 1, "total": N, "abis": {"x86_64": {"read": 12, ...}, ...}}
 * Syscalls the ABI's table does not name appear as their decimal number.
 * *@json ends with a newline, the caller frees it.  Returns 0 or -ENOMEM.
 */
SCG_API int scg_learn_counts_json(const struct scg_learn *learn, char **json);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_LEARN_H */
