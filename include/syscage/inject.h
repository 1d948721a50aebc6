/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fault-injection rules, written the way strace's --inject value is:
 *
 *   SET:error=ERRNO | SET:retval=N   [:signal=SIG] [:when=EXPR] [:if=COND]
 *
 * SET is a comma-separated list of syscall names, policy groups (@name),
 * strace's "all", "/regex", "?name" and the statfs classes, optionally
 * negated as a whole with a leading '!'.  COND is a condition in the policy
 * language ("flags & O_CREAT").  docs/inject.md is the reference.
 *
 * The library only turns text into data: it never prints, and reports
 * problems through struct scg_diag with the column in the rule.
 */
#ifndef SYSCAGE_INJECT_H
#define SYSCAGE_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which invocations of a syscall (counted from 1) a rule takes. */
struct scg_inject_when {
	uint32_t first;
	uint32_t last; /* UINT32_MAX: no end */
	uint32_t step; /* >= 1 */
};

struct scg_inject_rule {
	char *text;               /* the rule as written */
	struct scg_policy *match; /* "allow SET [if COND]": a call is in the rule when a rule of
				   * this policy decides it */
	const char **syscalls;    /* the set, expanded: static names, sorted */
	size_t nsyscalls;
	bool has_error;
	uint32_t error; /* 1..4095 */
	bool has_retval;
	int64_t retval;
	int signal;   /* 0: none */
	bool has_when;
	struct scg_inject_when when;
	bool has_cond; /* an :if= condition */
	/* delay_enter=/delay_exit=, in microseconds: the supervisor waits this
	 * long before it answers the call (see docs/inject.md for what seccomp
	 * allows of delay_exit=). */
	bool has_delay_enter, has_delay_exit;
	uint32_t delay_enter_us, delay_exit_us;
	/* syscalls[i] is in the rule on target ABI arches[k] when bit k of
	 * abi_masks[i] is set (a personality suffix, @64, narrows it). */
	uint32_t *abi_masks;
	const struct scg_arch *arches[8];
	size_t narches;
	char *cond;        /* the :if= text, or NULL */
	bool cond_as_test; /* read as "(cond) != 0" */
	/* Path tests, like strace's -P: when set, the rule takes only calls with
	 * a file-name argument equal to one of these, or a descriptor argument
	 * open on one (see scg_inject_path_args()).  From :if=path == "..."
	 * terms (ANDed with the rest) and scg_inject_rule_add_path(). */
	char **paths;
	size_t npaths;
};

struct scg_inject_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* Target ABIs; NULL: the native ABI and its companions. */
	const struct scg_arch *const *arches;
	size_t narches;
	/* strace's -e fault=: error defaults to ENOSYS. */
	bool fault;
};

/*
 * Parses one rule into *@out (caller frees with scg_inject_rule_free()).
 * @opts may be NULL.  Problems go to @diag: line 1, the column in @text.
 * Returns 0, -EINVAL for a bad rule (*@out NULL), or -ENOMEM.
 */
SCG_API int scg_inject_rule_parse(const char *text, const struct scg_inject_options *opts,
				  struct scg_inject_rule **out, struct scg_diag *diag);
/* NULL is a no-op. */
SCG_API void scg_inject_rule_free(struct scg_inject_rule *rule);

/*
 * True when the kernel can carry the rule alone (SECCOMP_RET_ERRNO): an
 * error for every matching call, no count, no signal.
 */
SCG_API bool scg_inject_rule_is_static(const struct scg_inject_rule *rule);

/*
 * Gives each (syscall, ABI) to the last of @rules whose set has it, as
 * strace keeps one injection per syscall and a later rule for it replaces
 * an earlier one: earlier rules lose it from their sets and matches.  A
 * warning per rule that loses syscalls goes to @diag, with the rule's
 * number (from 1) as the line.  Returns 0 or -ENOMEM.
 */
SCG_API int scg_inject_rules_resolve(struct scg_inject_rule *const *rules, size_t nrules,
				     struct scg_diag *diag);

/*
 * Adds a path test to @rule (strace's -P for one rule): the rule then takes
 * only calls that name @path (copied).  0 or -ENOMEM.
 */
SCG_API int scg_inject_rule_add_path(struct scg_inject_rule *rule, const char *path);

/*
 * Which arguments of @syscall on @arch are file names (bit i: argument i),
 * after the parameter names of the man pages; *@fd_args (may be NULL) gets
 * those that are file descriptors.  0 when none are known.
 */
SCG_API unsigned scg_inject_path_args(const struct scg_arch *arch, const char *syscall,
				      unsigned *fd_args);

/*
 * True when @rule goes into the filter as SECCOMP_RET_ERRNO and the kernel
 * answers its calls alone, uncounted: scg_inject_rule_is_static(), unless
 * @count_all (every rule's calls counted by the supervisor) is set.
 */
SCG_API bool scg_inject_rule_in_filter(const struct scg_inject_rule *rule, bool count_all);

/*
 * The policy that carries the @nrules @rules (borrowed) over @base
 * (borrowed): @base's targets and verdicts, with each rule's calls ranked
 * ahead of @base's verdict for them, as ERRNO when
 * scg_inject_rule_in_filter() and USER_NOTIF (for the supervisor, the
 * runtime's inject server) otherwise.  The verdicts only the kernel can
 * carry out (KILL_PROCESS, KILL_THREAD, TRAP, unknown actions) rank above
 * the rules: a call @base kills or traps is never injected.  So the policy
 * follows @base's rules in order, with the rules' calls narrowed to what
 * each base rule decides in front of each one a supervisor could answer,
 * and in front of the default unless that is kernel-only too.  Returns 0
 * (caller frees *@out), -EINVAL or -ENOMEM (*@out NULL).
 */
SCG_API int scg_inject_policy_build(struct scg_inject_rule *const *rules, size_t nrules,
				    const struct scg_policy *base, bool count_all,
				    struct scg_policy **out);

/* True when invocation number @count (from 1) is one @when takes. */
SCG_API bool scg_inject_when_takes(const struct scg_inject_when *when, uint64_t count);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_INJECT_H */
