/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI runtime-spec and Docker seccomp profiles (JSON): import and export.
 *
 * This part lives in its own library, libsyscage-oci, because it needs
 * json-c; link it with `pkg-config --libs json-c` after libsyscage.  It is
 * deliberately not included from <syscage/syscage.h>.
 *
 * Import gives a policy whose verdict for every (ABI, syscall, arguments)
 * is the one runc + libseccomp 2.5 give when Docker starts a container with
 * the profile on the chosen host: Docker's `archMap` and
 * `includes`/`excludes` (caps, arches, minKernel) are resolved first, then
 * the resulting linux.seccomp object is read the way runc hands it to
 * libseccomp (per-ABI name resolution, the socketcall/ipc multiplexers,
 * 32-bit comparisons on 32-bit ABIs, libseccomp's precedence between
 * overlapping rules) and, unless turned off, runc's ENOSYS stub is added.
 * docs/oci.md lists every rule and the few places where the result can
 * differ from runc.
 */
#ifndef SYSCAGE_OCI_H
#define SYSCAGE_OCI_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

struct scg_oci_options {
	/* sizeof(struct scg_oci_options) as the caller knows it: SCG_OPTS
	 * (<syscage/export.h>) or scg_oci_options_init() fills it in.  SCG_OPTS
	 * leaves runc_enosys false; scg_oci_options_init() sets the defaults. */
	size_t sz;
	/* Capabilities the container holds ("CAP_SYS_ADMIN" or "SYS_ADMIN",
	 * any case; "ALL" for every one).  NULL: Docker's default set. */
	const char *const *caps;
	size_t ncaps;
	/* Kernel version "5.10" (anything after major.minor is ignored, as
	 * Docker does).  NULL: the running kernel (uname). */
	const char *kernel;
	/* Host architecture as Go names it ("amd64", "arm64", "386", ...;
	 * syscage and uname names are accepted too).  NULL: native. */
	const char *host_arch;
	/* Reproduce runc's stub that returns ENOSYS for syscall numbers above
	 * the highest one the profile names (per ABI).  Default true. */
	bool runc_enosys;
	/* Compare the arguments the kernel reads as int (int, unsigned int,
	 * pid_t, ...: scg_syscall_arg_width() says 32) over their low 32 bits
	 * on 64-bit ABIs too, as policy parameter names do, instead of over the
	 * whole register as libseccomp does there.  The upper half of such a
	 * register is the caller's to fill, so a 64-bit comparison can be
	 * steered past: Docker's `socket` rule `arg0 > 40` lets
	 * socket(AF_VSOCK | 1ULL << 32, ...) make an AF_VSOCK socket.  Default
	 * false: the verdicts of runc + libseccomp, holes included. */
	bool int_args_32;
	/* Name used in diagnostics and rule locations; NULL: "<oci>". */
	const char *filename;
};

/* Fills @opts with the defaults (all NULL and false, runc_enosys true). */
SCG_API void scg_oci_options_init(struct scg_oci_options *opts);

/*
 * Parses @len bytes of JSON: a Docker profile, a bare OCI linux.seccomp
 * object, or a whole OCI config.json (its linux.seccomp is used), and
 * builds *@out (caller frees with scg_policy_free()).  @opts may be NULL
 * (defaults).  Returns 0, -EINVAL for any problem with the input (each one
 * reported in @diag with file:line:column and, where it helps, a "did you
 * mean" hint), or -ENOMEM.  Warnings (e.g. names no ABI knows) are added
 * to @diag on success too.
 */
SCG_API int scg_oci_import(const char *json, size_t len, const struct scg_oci_options *opts,
			   struct scg_policy **out, struct scg_diag *diag);

/*
 * Parses @len bytes of YAML: a Kubernetes SeccompProfile object (the
 * Security Profiles Operator's, security-profiles-operator.x-k8s.io), whose
 * spec is read as the OCI linux.seccomp object it mirrors, as
 * scg_oci_import() reads it; diagnostics give the YAML's lines.  The YAML
 * read is the block style such objects are written in: mappings, sequences,
 * plain and quoted scalars, [a, b] lists, comments; one document.  Returns
 * what scg_oci_import() returns.
 */
SCG_API int scg_k8s_import(const char *yaml, size_t len, const struct scg_oci_options *opts,
			   struct scg_policy **out, struct scg_diag *diag);

/*
 * Writes @policy as an OCI linux.seccomp object (pretty-printed JSON, with
 * a trailing newline) to *@json (caller frees).  First-match rules become
 * disjoint entries, since OCI entries only AND comparisons and libseccomp
 * applies whichever entry matches.  Returns 0, -EINVAL when the policy uses
 * something OCI cannot express exactly (a diagnostic names the rule and
 * why), or -ENOMEM.  Approximations runc imposes (bad-architecture action,
 * unknown syscall numbers) are reported as warnings.
 */
SCG_API int scg_oci_export(const struct scg_policy *policy, char **json, struct scg_diag *diag);

/*
 * The calls an OCI runtime (runc, crun) makes under the container's filter
 * between installing it and the program's first instruction: the exec, the
 * runtime's own last steps and, for runc, Go's runtime.  The name at
 * @index, NULL past the last.
 */
SCG_API const char *scg_oci_runtime_call(size_t index);

/*
 * Makes @policy start under an OCI runtime: each runtime call (above) that
 * it leaves to a default verdict that does not let it run gets an
 * unconditional allow on the policy's ABIs, named in a note.  Nothing
 * changes when the policy does not target the native ABI.  Returns 0, -EINVAL when
 * a rule of the policy refuses one of them for some arguments (an error
 * at that rule names it; nothing is added then), or -ENOMEM.
 */
SCG_API int scg_oci_add_runtime_calls(struct scg_policy *policy, struct scg_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_OCI_H */
