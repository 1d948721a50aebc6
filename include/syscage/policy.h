/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies: what a filter should do, independent of BPF.
 *
 * A policy is a set of target ABIs, an ordered list of rules, and the
 * verdicts for everything no rule decides.  It is built by the policy
 * language parser, the OCI/Docker JSON importer, built-in profiles, or
 * directly through the builder functions below, and consumed by the
 * compiler, the reference evaluator and the exporters.
 *
 * Precedence, in one sentence: for a call on a target ABI, the first rule
 * (in file order, with `use`d and `include`d files expanded where they
 * appear) whose syscall and condition match decides; if none does, a
 * syscall number the ABI's table does not know gets the `unknown` verdict
 * (when set) and any other number the `default` verdict; a call from an ABI
 * that is not a target gets the `badarch` verdict.
 */
#ifndef SYSCAGE_POLICY_H
#define SYSCAGE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/diag.h>
#include <syscage/emu.h>
#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- conditions on arguments ------------------------------------------ */

enum scg_cmp_op {
	SCG_CMP_EQ,
	SCG_CMP_NE,
	SCG_CMP_LT, /* unsigned */
	SCG_CMP_LE,
	SCG_CMP_GT,
	SCG_CMP_GE,
};

enum scg_expr_kind {
	SCG_EXPR_CMP, /* ((argN & mask) op value), over 64 or 32 bits */
	SCG_EXPR_AND,
	SCG_EXPR_OR,
	SCG_EXPR_NOT,
};

/*
 * A condition tree.  Comparisons are unsigned.  With width 32 only the low
 * 32 bits of the argument take part (mask and value are then < 2^32): the
 * way to compare C int parameters whose upper register half is undefined.
 * mask is all ones (for the width) when the source had no '&'.
 */
struct scg_expr {
	enum scg_expr_kind kind;
	struct scg_expr *left;  /* AND, OR, NOT */
	struct scg_expr *right; /* AND, OR */
	uint8_t arg;            /* CMP: 0..5 */
	uint8_t width;          /* CMP: 64 or 32 */
	enum scg_cmp_op op;     /* CMP */
	uint64_t mask;          /* CMP */
	uint64_t value;         /* CMP */
	struct scg_loc loc;     /* where it was written (loc.file borrowed from the policy) */
};

/* Constructors return NULL on allocation failure; combinators take ownership
 * of their operands even on failure (they free them). */
SCG_API struct scg_expr *scg_expr_cmp(unsigned arg, unsigned width, enum scg_cmp_op op,
				      uint64_t mask, uint64_t value);
SCG_API struct scg_expr *scg_expr_and(struct scg_expr *left, struct scg_expr *right);
SCG_API struct scg_expr *scg_expr_or(struct scg_expr *left, struct scg_expr *right);
SCG_API struct scg_expr *scg_expr_not(struct scg_expr *operand);
SCG_API struct scg_expr *scg_expr_clone(const struct scg_expr *expr);
SCG_API void scg_expr_free(struct scg_expr *expr);
/* Whether @a and @b are the same tree (same comparisons, same shape); NULL equals NULL only. */
SCG_API bool scg_expr_equal(const struct scg_expr *a, const struct scg_expr *b);
/* Evaluates @expr on six argument values. */
SCG_API bool scg_expr_eval(const struct scg_expr *expr, const uint64_t args[6]);

/* --- policies ------------------------------------------------------------ */

struct scg_policy; /* opaque */

/*
 * A rule as handed to scg_policy_add_rule().
 *
 * With has_number the rule covers the syscall numbers number..number_last
 * (inclusive), the same numbers on every target ABI.  A number_last below
 * number -- 0 from an initializer that does not set it, in particular --
 * means the single number `number`; scg_policy_add_rule() stores it as
 * number_last == number.
 */
struct scg_rule_spec {
	uint32_t action;        /* seccomp return value */
	const char *syscall;    /* a syscall name, or NULL with has_number */
	bool has_number;        /* the rule names raw syscall numbers */
	uint32_t number;        /* with has_number: the first number it covers */
	uint32_t number_last;   /* with has_number: the last number it covers (see above) */
	uint32_t arch_mask;     /* SCG_ARCH_BIT_* of the ABIs; 0 = every target ABI */
	struct scg_expr *cond;  /* NULL = unconditional; ownership passes to the policy */
	struct scg_loc loc;     /* for diagnostics and explanations; file copied */
};

/* A read-only view of a stored rule. */
struct scg_rule {
	uint32_t action;
	const char *syscall;    /* NULL when the rule names numbers */
	bool has_number;
	uint32_t number;        /* with has_number: number..number_last, number_last >= number */
	uint32_t number_last;   /* (0 for a rule that names a syscall) */
	uint32_t arch_mask;
	const struct scg_expr *cond;
	struct scg_loc loc;
};

/* An empty policy: no target ABI, default KILL_PROCESS, badarch KILL_PROCESS, no unknown verdict. */
SCG_API struct scg_policy *scg_policy_new(void);
/* Frees the policy, its rules and their conditions.  NULL is a no-op. */
SCG_API void scg_policy_free(struct scg_policy *policy);
/* Deep copy, or NULL. */
SCG_API struct scg_policy *scg_policy_clone(const struct scg_policy *policy);

/* Target ABIs, in the order the filter checks them.  Adding one twice is a no-op. */
SCG_API int scg_policy_add_arch(struct scg_policy *policy, const struct scg_arch *arch);
SCG_API int scg_policy_remove_arch(struct scg_policy *policy, const struct scg_arch *arch);
SCG_API size_t scg_policy_arch_count(const struct scg_policy *policy);
SCG_API const struct scg_arch *scg_policy_arch_at(const struct scg_policy *policy, size_t index);
/* Adds the native ABI and its companions (x86_64: x86_64, x86, x32). */
SCG_API int scg_policy_add_native_arches(struct scg_policy *policy);

/* The verdict (SCG_RET_* value) for calls no rule matches. */
SCG_API void scg_policy_set_default(struct scg_policy *policy, uint32_t action);
SCG_API uint32_t scg_policy_default(const struct scg_policy *policy);
/* The verdict for calls from an ABI that is not a target of the policy. */
SCG_API void scg_policy_set_badarch(struct scg_policy *policy, uint32_t action);
SCG_API uint32_t scg_policy_badarch(const struct scg_policy *policy);
/* The verdict for syscall numbers a target ABI's table does not know. */
SCG_API void scg_policy_set_unknown(struct scg_policy *policy, uint32_t action);
SCG_API void scg_policy_clear_unknown(struct scg_policy *policy);
SCG_API bool scg_policy_unknown(const struct scg_policy *policy, uint32_t *action);

/* The settings, for where each was written. */
enum scg_setting {
	SCG_SETTING_DEFAULT = 0,
	SCG_SETTING_BADARCH,
	SCG_SETTING_UNKNOWN,
};
/* Records where a setting was written (file copied).  0, -EINVAL or -ENOMEM. */
SCG_API int scg_policy_set_setting_loc(struct scg_policy *policy, enum scg_setting setting,
				       struct scg_loc loc);
/* Where a setting was written (loc.file borrowed from the policy); SCG_LOC_NONE when unknown. */
SCG_API struct scg_loc scg_policy_setting_loc(const struct scg_policy *policy,
					      enum scg_setting setting);

/*
 * Appends a rule.  Atomic: on failure the policy is unchanged (and the
 * spec's condition is freed).  Returns 0, -EINVAL (arg > 5, bad width, no
 * syscall, an empty name) or -ENOMEM.
 */
SCG_API int scg_policy_add_rule(struct scg_policy *policy, struct scg_rule_spec *spec);
/* The rules, in order (the first that matches decides). */
SCG_API size_t scg_policy_rule_count(const struct scg_policy *policy);
/* Borrowed view, valid until the policy changes. */
SCG_API int scg_policy_rule_at(const struct scg_policy *policy, size_t index,
			       struct scg_rule *rule);
/*
 * Resolves rule @index's syscall on @arch: 0 and *@nr, or -ENOSYS when the
 * rule does not apply there (name absent on that ABI, or arch_mask excludes it).
 * For a rule over a range of numbers, *@nr is the first of them: use
 * scg_policy_rule_range() wherever every number counts.
 */
SCG_API int scg_policy_rule_nr(const struct scg_policy *policy, size_t index,
			       const struct scg_arch *arch, uint32_t *nr);
/*
 * The same for every number the rule covers on @arch: 0 and
 * *@first..*@last (equal for a name or a single number), or -ENOSYS.
 */
SCG_API int scg_policy_rule_range(const struct scg_policy *policy, size_t index,
				  const struct scg_arch *arch, uint32_t *first, uint32_t *last);

/* --- the reference evaluator ---------------------------------------------- */

enum scg_verdict_source {
	SCG_VERDICT_RULE,    /* rule @rule decided */
	SCG_VERDICT_DEFAULT, /* a known syscall no rule matched */
	SCG_VERDICT_UNKNOWN, /* a number the ABI's table does not know */
	SCG_VERDICT_BADARCH, /* the ABI is not a target */
};

struct scg_verdict {
	uint32_t action;
	enum scg_verdict_source source;
	size_t rule; /* with SCG_VERDICT_RULE */
};

/*
 * Decides a call straight from the policy, without BPF: the meaning every
 * compiled filter must reproduce.  x86_64 calls with bit 30 set in nr belong
 * to x32 (except nr == -1, which stays x86_64).
 */
SCG_API void scg_policy_eval(const struct scg_policy *policy, const struct scg_seccomp_data *data,
			     struct scg_verdict *verdict);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_POLICY_H */
