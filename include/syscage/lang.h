/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy language: a readable text form of struct scg_policy.
 *
 *   # comment
 *   default errno(EPERM)
 *   allow read, write, close, exit_group
 *   allow socket if domain == AF_UNIX || domain == AF_INET
 *   allow mmap if (prot & PROT_EXEC) == 0
 *   kill ptrace
 *   use docker-default
 *
 * docs/policy.md is the reference: statements, actions, conditions, the
 * 32-bit rule, parameter names, constants, groups, composition, ABIs and
 * every diagnostic.  Precedence is the one of <syscage/policy.h>: first
 * matching rule, then `unknown`, then `default`; settings of the outermost
 * file win over those of used and included files.
 */
#ifndef SYSCAGE_LANG_H
#define SYSCAGE_LANG_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/number.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scg_policy_source_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* Name in diagnostics and base for relative `include`/`use` paths;
	 * NULL: "<stdin>" and the current directory. */
	const char *filename;
	/* When non-NULL, exactly these target ABIs, overriding `arch`
	 * statements and the native default. */
	const struct scg_arch *const *arches;
	size_t narches;
};

/*
 * Parses @len bytes of policy text into *@out (caller frees with
 * scg_policy_free()).  @opts may be NULL.  Every problem goes to @diag with
 * file:line:column, a message and, where one helps, a hint; parsing goes on
 * after an error to report more (up to a limit).  Warnings (rules that can
 * never match, syscalls absent on a target ABI, ...) do not fail the parse.
 * Returns 0, -EINVAL when the text has errors (*@out is left NULL), or
 * -ENOMEM.
 */
SCG_API int scg_policy_parse(const char *text, size_t len,
			     const struct scg_policy_source_options *opts, struct scg_policy **out,
			     struct scg_diag *diag);

/*
 * Reads and parses the file @path.  @opts->filename, when set, replaces
 * @path in diagnostics.  Returns what scg_policy_parse() returns, or the
 * negative errno of reading @path (also reported in @diag).
 */
SCG_API int scg_policy_parse_file(const char *path, const struct scg_policy_source_options *opts,
				  struct scg_policy **out, struct scg_diag *diag);

/*
 * Writes @policy as policy text that parses back to an equivalent policy
 * (the same scg_policy_eval() verdict for every call): settings first,
 * then the rules in order, consecutive rules that differ only in their
 * syscall merged into one line.  Numbers are written where the text form
 * has no name (conditions compare argN with hexadecimal values).  *@text is
 * NUL-terminated; the caller frees it.  Returns 0, -EINVAL for a policy
 * without a target ABI or with a rule the language cannot name (a syscall
 * name no ABI knows), or -ENOMEM.
 */
SCG_API int scg_policy_to_text(const struct scg_policy *policy, char **text);

/* Parameter names and widths: scg_syscall_params(), scg_syscall_arg_width() (arch.h). */

/*
 * The name of a constant of the policy language (docs/policy.md,
 * "Constants") that starts with @prefix ("AF_") and has @value on @arch,
 * or NULL: to write a value the way a policy would.  When several have
 * it, the first by name.  Static storage.
 */
SCG_API const char *scg_constant_name(const struct scg_arch *arch, const char *prefix,
				      uint64_t value);

/*
 * The value of @text, a value as the policy language writes it, on @arch:
 * a number (42, 0x2a, -1 as two's complement), a constant or errno name
 * (AF_INET, AT_FDCWD, EPERM), or constants combined with '|', '~' and
 * parentheses (O_WRONLY|O_CREAT): what a condition compares with, for the
 * commands that take argument values.  Problems go to @diag as the parser
 * reports them (an unknown name with its "did you mean" hint); their
 * location names @text as the file.  Returns 0, -EINVAL (reported), or
 * -ENOMEM.
 */
SCG_API int scg_constant_eval(const char *text, const struct scg_arch *arch, uint64_t *value,
			      struct scg_diag *diag);

/* --- policies with phases (docs/phases.md) ------------------------------- */

/*
 * A policy in phases: the start phase (the statements before the first
 * `phase` line) and each later phase, with what ends the phase before it:
 *
 *   allow read, write, execve, accept4, ...      # the start phase
 *   phase serving after accept4 if flags == SOCK_CLOEXEC
 *   allow read, write, accept4, ...               # what serving allows
 *
 * Filters stack, so a later phase can only take calls away: the parser
 * refuses a phase that allows a call the phase before it decides otherwise
 * for every argument (lint proves the rest).  A phase's settings it does not
 * set (default, unknown, badarch) are those of the phase before it, and its
 * target ABIs are the start phase's.
 */
struct scg_phases; /* opaque */

/* What ends the phase before a phase. */
enum scg_phase_trigger {
	SCG_PHASE_TRIGGER_NONE = 0, /* the start phase */
	SCG_PHASE_TRIGGER_SYSCALL,  /* the first call that matches the trigger's rules */
	SCG_PHASE_TRIGGER_CALL,     /* the program calls scg_phase_enter() (`after phase_enter`) */
};

/*
 * Parses policy text with phases into *@out (free with scg_phases_free());
 * text without a `phase` line gives one phase, the start.  Problems go to
 * @diag with file:line:column as scg_policy_parse() reports them.  Returns
 * 0, -EINVAL when the text has errors (*@out is left NULL), or -ENOMEM.
 */
SCG_API int scg_phases_parse(const char *text, size_t len,
			     const struct scg_policy_source_options *opts, struct scg_phases **out,
			     struct scg_diag *diag);
/* The same for the file @path (its read errors reported in @diag too). */
SCG_API int scg_phases_parse_file(const char *path, const struct scg_policy_source_options *opts,
				  struct scg_phases **out, struct scg_diag *diag);
/* Whether @text has a `phase` line (a line that starts with the word). */
SCG_API bool scg_phases_detect(const char *text, size_t len);
/* NULL is a no-op. */
SCG_API void scg_phases_free(struct scg_phases *phases);
/* The number of phases, the start phase included (at least 1). */
SCG_API size_t scg_phases_count(const struct scg_phases *phases);
/* Phase @i's name ("start" for phase 0), or NULL past the end. */
SCG_API const char *scg_phases_name(const struct scg_phases *phases, size_t i);
/* The index of the phase called @name, or -ENOENT. */
SCG_API int scg_phases_find(const struct scg_phases *phases, const char *name);
/* What phase @i allows (borrowed), or NULL past the end. */
SCG_API const struct scg_policy *scg_phases_policy(const struct scg_phases *phases, size_t i);
/*
 * What ends the phase before phase @i; with SYSCALL, *@rules (may be NULL)
 * gets its rules (borrowed; their action is SCG_RET_TRACE | @i, their ABI
 * the native one).  *@loc (may be NULL) gets where the `phase` line is.
 */
SCG_API enum scg_phase_trigger scg_phases_trigger(const struct scg_phases *phases, size_t i,
						  const struct scg_policy **rules,
						  struct scg_loc *loc);
/*
 * The policy the filter of phase @i is compiled from: its rules, with the
 * trigger of phase @i + 1 (when a syscall) first as SCG_RET_TRACE | (@i + 1),
 * so that a tracer sees the call that ends the phase before it runs.  The
 * caller frees *@out.  Returns 0, -ENOENT past the end, or -ENOMEM.
 */
SCG_API int scg_phases_filter_policy(const struct scg_phases *phases, size_t i,
				     struct scg_policy **out);

/* --- built-in profiles (profiles/NAME.policy, embedded at build time) ----- */

SCG_API size_t scg_profile_count(void);
/* Name ("docker-default") and one-line summary of profile @i; NULL past the end. */
SCG_API const char *scg_profile_name(size_t i);
SCG_API const char *scg_profile_summary(size_t i);
/* The policy text of profile @name (static storage), or NULL. */
SCG_API const char *scg_profile_source(const char *name);
/* The built-in profile name closest to @name when it looks like a typo of one; else NULL. */
SCG_API const char *scg_profile_suggest(const char *name);
/*
 * Parses built-in profile @name as scg_policy_parse() would.  Returns
 * -ENOENT (with a "did you mean" diagnostic) for an unknown name.
 */
SCG_API int scg_profile_load(const char *name, const struct scg_policy_source_options *opts,
			     struct scg_policy **out, struct scg_diag *diag);

/* --- syscall groups (@aio, @basic-io, ...) -------------------------------- */

SCG_API size_t scg_group_count(void);
/* Name without '@' ("basic-io") and one-line summary of group @i; NULL past the end. */
SCG_API const char *scg_group_name(size_t i);
SCG_API const char *scg_group_summary(size_t i);
/*
 * The group name (without '@') closest to @name (with or without '@') when
 * it looks like a typo of one; else NULL.
 */
SCG_API const char *scg_group_suggest(const char *name);
/*
 * Members of group @i: syscall names (groups made of other groups are
 * flattened), sorted, without duplicates, NULL-terminated, static storage.
 * A member may be absent on some ABIs; rules skip it there silently.
 * NULL past the end.
 */
SCG_API const char *const *scg_group_members(size_t i);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_LANG_H */
