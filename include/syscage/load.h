/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading any input: what a file holds, told by its content, and the filter
 * or the policy in it.  One loader for every input format the library and
 * its side libraries read: compiled filters, assembler, the policy
 * language, OCI/Docker/Podman JSON, Kubernetes SeccompProfile YAML, systemd
 * units, minijail, kafel and firejail.  The name of a file only settles a
 * tie between formats its content fits.
 */
#ifndef SYSCAGE_LOAD_H
#define SYSCAGE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

enum scg_input_format {
	SCG_INPUT_AUTO = 0, /* told by the content (scg_input_detect()) */
	SCG_INPUT_RAW,	    /* a compiled filter: struct sock_filter records, native byte order */
	SCG_INPUT_ASM,	    /* assembler text (scg_asm()) */
	SCG_INPUT_POLICY,   /* the policy language (scg_policy_parse()) */
	SCG_INPUT_OCI,	    /* OCI/Docker/Podman JSON (libsyscage-oci) */
	SCG_INPUT_K8S,	    /* a Kubernetes SeccompProfile in YAML (libsyscage-oci) */
	SCG_INPUT_SYSTEMD,  /* systemd unit settings (scg_systemd_import()) */
	SCG_INPUT_MINIJAIL, /* a minijail seccomp policy (scg_minijail_import()) */
	SCG_INPUT_KAFEL,    /* a kafel policy (scg_kafel_import()) */
	SCG_INPUT_FIREJAIL, /* firejail options (scg_firejail_import()) */
};

/* The number of formats, SCG_INPUT_AUTO not counted: they are 1 .. this. */
#define SCG_INPUT_FORMATS 9

/* The short name --input-format takes ("raw", "asm", "policy", "oci", "k8s",
 * "systemd", "minijail", "kafel", "firejail"; "auto"), static storage; NULL
 * past the end. */
SCG_API const char *scg_input_format_name(enum scg_input_format format);
/* What the format is, in words ("a compiled filter"), static storage. */
SCG_API const char *scg_input_format_summary(enum scg_input_format format);
/* The format named @name (scg_input_format_name(), or "bpf" for raw); 0 or -EINVAL. */
SCG_API int scg_input_format_parse(const char *name, enum scg_input_format *out);
/* True for the formats that hold a filter (raw, asm) rather than a policy. */
SCG_API bool scg_input_format_is_filter(enum scg_input_format format);

/* The format @name's suffix names (*.bpf, *.s, *.policy, *.json, *.yaml,
 * *.service, ...: the longest that matches), or SCG_INPUT_AUTO for none. */
SCG_API enum scg_input_format scg_input_format_of_name(const char *name);
/*
 * True when @name reads as a file name rather than a built-in profile's
 * (scg_profile_source()): "-" (standard input), a '/', or the suffix of an
 * input format or of a file of no one format (*.txt, *.bin).  A caller that
 * takes either also counts a name as a file when a file of that name exists.
 */
SCG_API bool scg_input_name_is_file(const char *name);

/*
 * The format of @len bytes of @data, named @filename (may be NULL): binary
 * data (a NUL byte, a control character) is a compiled filter, unless
 * @filename's suffix names a text format its lines fit (a text file with a
 * stray NUL byte goes to its reader, which says where); text is each
 * format whose content it fits, and where it fits several, the one
 * @filename's suffix names (*.bpf, *.s, *.policy, *.json, *.yaml,
 * *.service, ...).  Returns 0 with *@out
 * set, or -EINVAL with an error in @diag that names the formats tried (none
 * fits) or those it fits (several, with no suffix to choose).
 */
SCG_API int scg_input_detect(const void *data, size_t len, const char *filename,
			     enum scg_input_format *out, struct scg_diag *diag);

/*
 * Reads a format libsyscage leaves to a side library: OCI JSON and
 * Kubernetes YAML, which libsyscage-oci reads (scg_oci_import(),
 * scg_k8s_import()) with options of its own the caller keeps in @ctx.  The
 * same contract as scg_input_load() for a policy; the loader applies
 * scg_load_options.arches afterwards.
 */
typedef int (*scg_input_import_fn)(enum scg_input_format format, const char *text, size_t len,
				   const char *filename, void *ctx, struct scg_policy **out,
				   struct scg_diag *diag);

struct scg_load_options {
	/* sizeof(struct scg_load_options) as the caller knows it: SCG_OPTS fills it in */
	size_t sz;
	/* The format to read (SCG_INPUT_AUTO: scg_input_detect()). */
	enum scg_input_format format;
	/* Name in diagnostics, for the suffix and base of relative includes
	 * (NULL: "<stdin>", the current directory). */
	const char *filename;
	/* The ABI of assembler text (NULL: native). */
	const struct scg_arch *arch;
	/* When non-NULL, exactly these target ABIs for a policy, overriding
	 * what the input says. */
	const struct scg_arch *const *arches;
	size_t narches;
	/* OCI JSON and Kubernetes YAML (NULL: such input is refused). */
	scg_input_import_fn import;
	void *import_ctx;
};

/* What an input held: a filter (raw, asm) or a policy (every other format). */
struct scg_input {
	enum scg_input_format format;
	struct scg_policy *policy; /* policy formats; NULL for a filter */
	struct scg_prog prog;	   /* filter formats; empty for a policy */
};

/*
 * Reads @len bytes of @data in the format @opts names, or the one
 * scg_input_detect() finds.  On success returns 0 and fills *@out (release
 * with scg_input_release()); else returns -EINVAL (bad input, or a format
 * no importer was given for) or -ENOMEM with *@out empty and the reasons in
 * @diag, each with file:line:column where the format has lines.
 */
SCG_API int scg_input_load(const void *data, size_t len, const struct scg_load_options *opts,
			   struct scg_input *out, struct scg_diag *diag);

/* Frees what *@in holds and empties it; NULL is a no-op. */
SCG_API void scg_input_release(struct scg_input *in);

#ifdef __cplusplus
}
#endif

#endif
