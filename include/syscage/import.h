/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Importing seccomp settings written for other tools: systemd units (and
 * drop-ins, and `systemctl show` output), firejail options, minijail and
 * kafel policies, and writing policies back as systemd settings, minijail
 * or kafel policies.
 *
 * An import gives ONE policy whose verdict for every (ABI, syscall,
 * arguments) is the verdict of the whole stack of filters the other tool
 * would install for the same settings (systemd installs one filter per
 * directive; the kernel lets the strictest action win, and among equal
 * actions the filter installed last).  Every rule keeps the file, line and
 * column of the setting that made it, so `syscage explain` and `run`'s
 * reports name the original line.  docs/import.md lists each directive's
 * rules and what is not seccomp.
 */
#ifndef SYSCAGE_IMPORT_H
#define SYSCAGE_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scg_import_options {
	/* sizeof(struct scg_import_options) as the caller knows it: SCG_OPTS
	 * (<syscage/export.h>) or scg_import_options_init() fills it in */
	size_t sz;
	/* Name used in diagnostics and rule locations; NULL: "<systemd>". */
	const char *filename;
};

/* Fills @opts with the defaults. */
SCG_API void scg_import_options_init(struct scg_import_options *opts);

/*
 * Whether @len bytes of @text look like systemd unit settings: a section
 * header such as [Service], or a Key=Value line of one of the seccomp
 * directives.  A hint for format detection, not a validation.
 */
SCG_API bool scg_systemd_detect(const char *text, size_t len);

/*
 * Reads the seccomp directives of a unit file, a drop-in or `systemctl
 * show` output (SystemCallFilter=, SystemCallErrorNumber=,
 * SystemCallArchitectures=, SystemCallLog=, RestrictAddressFamilies=,
 * RestrictNamespaces=, MemoryDenyWriteExecute=, LockPersonality=,
 * RestrictRealtime=, RestrictSUIDSGID=, ProtectClock=,
 * ProtectKernelModules=, ProtectKernelTunables=, ProtectKernelLogs=,
 * ProtectHostname=, PrivateDevices=) for the native ABIs, and builds
 * *@out (caller frees).  What systemd ignores with a warning (unknown
 * syscall names, groups, address families) is ignored here too, with a
 * warning at its file:line:column.  Returns 0, -EINVAL for input that is
 * no unit file (each problem in @diag with a hint), or -ENOMEM.
 */
SCG_API int scg_systemd_import(const char *text, size_t len, const struct scg_import_options *opts,
			       struct scg_policy **out, struct scg_diag *diag);

/*
 * Whether @text looks like firejail options: a profile line or a "--"
 * option that firejail has (seccomp, caps.drop, noroot, ...).
 */
SCG_API bool scg_firejail_detect(const char *text, size_t len);

/*
 * Reads firejail's seccomp options from a profile (one option a line,
 * without "--") or a command line ("--seccomp.drop=ptrace,mount ..."):
 * seccomp [LIST], seccomp.drop, seccomp.keep, their seccomp.32 forms,
 * seccomp.block-secondary, seccomp-error-action, memory-deny-write-execute,
 * protocol and restrict-namespaces, as the filters firejail 0.9.72 loads
 * for them.  "include" lines are followed: files are read from the disk
 * (firejail's search directories, then beside @opts->filename), regular
 * files of at most 1 MiB, cycles refused.  Other firejail options are
 * skipped.  Returns 0, -EINVAL (each problem in @diag at its file, line
 * and column, with a hint), or -ENOMEM.
 */
SCG_API int scg_firejail_import(const char *text, size_t len, const struct scg_import_options *opts,
				struct scg_policy **out, struct scg_diag *diag);

/*
 * Writes @policy as systemd unit settings (a [Service] section with
 * SystemCallFilter=, SystemCallErrorNumber= and SystemCallArchitectures=)
 * into *@text (caller frees), such that scg_systemd_import() of the text
 * gives the same verdict for every call.  Returns 0, -EINVAL when the
 * policy says something those directives cannot (each reason in @diag,
 * with the rule where there is one), or -ENOMEM.
 */
SCG_API int scg_systemd_export(const struct scg_policy *policy, char **text,
			       struct scg_diag *diag);

/* --- minijail ------------------------------------------------------------ */

/*
 * Whether @text looks like a minijail seccomp policy: a line "name: 1",
 * "name: argN ...", "name: return ..." or an @include / @frequency line.
 */
SCG_API bool scg_minijail_detect(const char *text, size_t len);

/*
 * Reads a minijail seccomp policy (minijail0(5): "name: filter" lines,
 * argument filters in disjunctive normal form over argN ==, !=, <, <=, >,
 * >=, & (a flag set), in (a subset of the flags), "; return ERRNO" and the
 * actions of minijail's policy compiler, @include and @frequency files,
 * which are read relative to the including file) into *@out (caller
 * frees): one policy for the native ABI whose default and
 * bad-architecture verdicts are minijail's (kill the process).  Every rule
 * keeps the line and column it was written at.  Returns 0, -EINVAL (each
 * problem in @diag at its file, line and column, unknown syscalls with a
 * "did you mean"), or -ENOMEM.
 */
SCG_API int scg_minijail_import(const char *text, size_t len,
				const struct scg_import_options *opts, struct scg_policy **out,
				struct scg_diag *diag);

/* A syscall and how often a workload makes it (minijail's @frequency files). */
struct scg_import_count {
	char *name;
	unsigned long long count;
};

/*
 * The counts of the @frequency files a minijail policy names (following its
 * @include lines), summed per syscall, into *@counts (caller frees with
 * scg_import_counts_free()) and *@n; *@n is 0 when it names none.  Returns
 * 0, -EINVAL (problems in @diag) or -ENOMEM.
 */
SCG_API int scg_minijail_frequency(const char *text, size_t len,
				   const struct scg_import_options *opts,
				   struct scg_import_count **counts, size_t *n, struct scg_diag *diag);
/* Frees @n counts and their names (NULL with @n 0 is a no-op). */
SCG_API void scg_import_counts_free(struct scg_import_count *counts, size_t n);

/*
 * Writes @policy as a minijail seccomp policy into *@text (caller frees),
 * such that scg_minijail_import() of the text gives the same verdict for
 * every call.  Returns 0, -EINVAL when the policy says something minijail
 * cannot (each reason in @diag, with the rule that says it), or -ENOMEM.
 */
SCG_API int scg_minijail_export(const struct scg_policy *policy, char **text,
				struct scg_diag *diag);

/* --- kafel ---------------------------------------------------------------- */

/*
 * Whether @text looks like a kafel policy: a POLICY, USE or DEFAULT
 * statement, #define or #include, or an action block ("ALLOW {").
 */
SCG_API bool scg_kafel_detect(const char *text, size_t len);

/*
 * Reads a kafel policy (POLICY blocks, USE, action blocks, argument
 * filters, #define, #include "file" relative to the including file,
 * DEFAULT) into *@out (caller frees): the implicit top-level policy, as
 * kafel compiles it for x86_64, first matching rule first.  Every rule keeps
 * the line and column of its syscall.  Returns 0, -EINVAL (each problem in
 * @diag at its file, line and column) or -ENOMEM.
 */
SCG_API int scg_kafel_import(const char *text, size_t len, const struct scg_import_options *opts,
			     struct scg_policy **out, struct scg_diag *diag);

/*
 * Writes @policy as a kafel policy into *@text (caller frees), such that
 * scg_kafel_import() of the text gives the same verdict for every call.
 * Returns 0, -EINVAL when the policy says something kafel cannot (each
 * reason in @diag, with the rule that says it), or -ENOMEM.
 */
SCG_API int scg_kafel_export(const struct scg_policy *policy, char **text, struct scg_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_IMPORT_H */
