/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI / Docker seccomp profiles, inside libsyscage-oci.
 *
 * The pipeline: json.c parses the text with json-c and knows where every
 * value sits (for diagnostics); profile.c turns the JSON tree into a
 * struct oci_profile, checking every name and type; resolve.c applies
 * Docker's host-dependent selection (archMap, includes, excludes); build.c
 * and merge.c reproduce what runc and libseccomp make of the result;
 * stub.c adds runc's ENOSYS stub.  export.c and set.c go the other way.
 */
#ifndef SCG_LIB_OCI_INTERNAL_H
#define SCG_LIB_OCI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/diag.h>
#include <syscage/lang.h>
#include <syscage/oci.h>
#include <syscage/policy.h>

#include "libseccomp/rule_tree.h"
#include "util/scan.h"

struct json_object;

/* --- names (names.c) --------------------------------------------------- */

enum oci_action {
	OCI_ACT_KILL, /* SCMP_ACT_KILL: runc maps it to KILL_THREAD */
	OCI_ACT_KILL_THREAD,
	OCI_ACT_KILL_PROCESS,
	OCI_ACT_TRAP,
	OCI_ACT_ERRNO,
	OCI_ACT_TRACE,
	OCI_ACT_ALLOW,
	OCI_ACT_LOG,
	OCI_ACT_NOTIFY,
};

/* libseccomp's enum scmp_compare values, which the export keeps. */
enum oci_op {
	OCI_OP_NE = 1,
	OCI_OP_LT,
	OCI_OP_LE,
	OCI_OP_EQ,
	OCI_OP_GE,
	OCI_OP_GT,
	OCI_OP_MASKED_EQ,
};

int oci_action_lookup(const char *name, enum oci_action *out);
const char *oci_action_name(enum oci_action action);
const char *oci_action_suggest(const char *name);
/* The seccomp return value runc asks libseccomp for (errno_ret: NULL = not given). */
uint32_t oci_action_ret(enum oci_action action, const uint32_t *errno_ret);
/* runc installs no ENOSYS stub behind these default actions. */
bool oci_action_permissive(enum oci_action action);

int oci_op_lookup(const char *name, enum oci_op *out);
const char *oci_op_name(enum oci_op op);
const char *oci_op_suggest(const char *name);

/* SCMP_ARCH_* names. */
const struct scg_arch *oci_arch_lookup(const char *scmp_name);
const char *oci_arch_scmp_name(const struct scg_arch *arch);
const char *oci_arch_suggest(const char *scmp_name);
/* runc's own list (others are valid OCI but runc refuses them). */
bool oci_arch_runc_knows(const struct scg_arch *arch);

/* A host as Docker sees it. */
struct oci_host {
	const char *go_name;        /* runtime.GOARCH */
	const char *docker_name;    /* what includes/excludes.arches compare with; NULL: none */
	const struct scg_arch *archmap; /* the archMap entry Docker picks; NULL: none */
	const struct scg_arch *native;  /* the ABI libseccomp adds by itself */
};

/* By Go, syscage or uname name; false if unknown. */
bool oci_host_lookup(const char *name, struct oci_host *out);
bool oci_host_native(struct oci_host *out);
const char *oci_host_suggest(const char *name);

/* Capabilities: bit n = capability number n. */
#define OCI_CAP_COUNT 41
int oci_cap_lookup(const char *name); /* "CAP_X" or "X", any case; -1 if unknown */
const char *oci_cap_name(int cap);
const char *oci_cap_suggest(const char *name);
uint64_t oci_cap_docker_default(void);

/* socketcall(2)/ipc(2) sub-call number of @name (0: not multiplexed). */
unsigned oci_mux_call(const char *name, bool *is_ipc);
/* libseccomp 2.5 rewrites rules for multiplexed calls on these ABIs. */
bool oci_arch_has_mux(const struct scg_arch *arch);

/* --- the JSON document (json.c, locate.c) ------------------------------ */

/* A path from the root to a value, kept on the stack of the walker. */
struct oci_path {
	const struct oci_path *parent;
	const char *key; /* object member, or NULL for an array element */
	size_t index;
};

struct oci_doc {
	const char *text;
	size_t len;
	const char *file;
	struct json_object *root;
	struct scg_diag *diag;
	size_t errors;
	size_t warnings;
	bool huge_numbers; /* some integer literal does not fit in 64 bits */
};

/* Beyond these, problems are counted but not reported (each report skims the text). */
#define OCI_MAX_REPORTS 50

/* Parses the text; on failure reports the position and returns -EINVAL. */
int oci_doc_parse(struct oci_doc *doc, const char *text, size_t len, const char *file,
		  struct scg_diag *diag);
void oci_doc_release(struct oci_doc *doc);

/* "syscalls[3].args[0].index" */
void oci_path_format(const struct oci_path *path, char *buf, size_t size);
/* Where the value at @path starts (or its key, with @key), as file:line:column. */
struct scg_loc oci_doc_loc(const struct oci_doc *doc, const struct oci_path *path, bool key);
/* Byte offset -> line:column (1-based, columns count UTF-8 characters, as util/scan.h does). */
void oci_offset_to_linecol(const char *text, size_t len, size_t offset, unsigned *line,
			   unsigned *col);
/* The cursor at the value (or key) at @path in valid JSON @text; at the root's start on failure. */
struct scan oci_locate_cursor(const char *text, size_t len, const struct oci_path *path,
			      bool key);
/* Byte offset of the value (or key) at @path in valid JSON @text; the root's on failure. */
size_t oci_locate(const char *text, size_t len, const struct oci_path *path, bool key);
/*
 * Where the first @n elements of the array at @path start, in @file, found
 * in one pass (an element not found gets the place of the last one found).
 */
void oci_locate_elements(const char *text, size_t len, const struct oci_path *array,
			 const char *file, struct scg_loc *locs, size_t n);

/* Error (counted) or warning at @path, message prefixed with the path. */
void oci_error(struct oci_doc *doc, const struct oci_path *path, const char *hint,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void oci_warn(struct oci_doc *doc, const struct oci_path *path, bool key, const char *hint,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* --- the profile (profile.c) ---------------------------------------------- */

struct oci_cmp {
	uint8_t index;
	enum oci_op op;
	uint64_t value;
	uint64_t value_two;
};

struct oci_filter {
	char **caps;
	size_t ncaps;
	char **arches;
	size_t narches;
	bool has_kernel;
	unsigned kmajor, kminor;
};

struct oci_entry {
	char **names;
	size_t nnames;
	enum oci_action action;
	bool has_errno;
	uint32_t errno_ret;
	char *errno_name; /* Podman's "errno" naming one: numbered for the host (resolve.c) */
	struct oci_cmp *args;
	size_t nargs;
	bool has_includes, has_excludes;
	struct oci_filter includes, excludes;
	struct scg_loc loc; /* loc.file is the profile's file */
};

struct oci_archmap {
	const struct scg_arch *arch;
	const struct scg_arch **subs;
	size_t nsubs;
};

struct oci_profile {
	bool has_default;
	enum oci_action default_action;
	bool has_default_errno;
	uint32_t default_errno;
	char *default_errno_name; /* Podman's "defaultErrno" naming one, as errno_name */
	const struct scg_arch **arches; /* "architectures" */
	size_t narches;
	struct oci_archmap *archmap;
	size_t narchmap;
	struct oci_entry *entries;
	size_t nentries;
	/* where "defaultAction" and "architectures" are written (line 0: absent) */
	struct scg_loc default_loc, arches_loc;
};

/* Reads the profile; every problem is reported, -EINVAL if any was an error. */
int oci_profile_read(struct oci_doc *doc, struct oci_profile *out);
void oci_profile_release(struct oci_profile *profile);

/* --- Docker's selection (resolve.c) ------------------------------------- */

#define OCI_MAX_TARGETS 24

/* The linux.seccomp object Docker hands to runc, plus what runc adds. */
struct oci_resolved {
	const struct oci_profile *profile;
	const struct oci_entry **entries; /* selected, in file order */
	size_t nentries;
	const struct scg_arch *listed[OCI_MAX_TARGETS]; /* config.Architectures */
	size_t nlisted;
	const struct scg_arch *targets[OCI_MAX_TARGETS]; /* native first, then listed */
	size_t ntargets;
	uint32_t default_ret;
	uint32_t enosys_ret; /* ERRNO(ENOSYS) with the host's ENOSYS (89 on MIPS), as runc has it */
	bool disabled; /* Docker and runc install no filter at all */
};

/* Selects for the host; numbers @profile's errno names with the host's errno table. */
int oci_resolve(struct oci_doc *doc, struct oci_profile *profile,
		const struct scg_oci_options *opts, struct oci_resolved *out);
void oci_resolved_release(struct oci_resolved *res);

/* --- what runc + libseccomp make of it (build.c, merge.c, stub.c) ------- */

/* One rule as libseccomp stores it for one ABI: at most one comparison per argument. */
struct oci_inst {
	uint32_t nr;
	uint32_t action;
	struct oci_cmp cmps[6];
	size_t ncmps;       /* sorted by argument */
	unsigned low32;     /* bit n: argument n is compared over its low 32 bits only */
	const struct oci_entry *entry;
	const char *name;   /* the name the entry gave */
	size_t seq;         /* libseccomp insertion order */
	bool pseudo;        /* a name this ABI lacks: libseccomp keeps its rules all the same */
};

/* An ordered rule for the policy, before it is attached to ABIs. */
struct oci_outrule {
	uint32_t nr;
	uint32_t action;
	struct scg_expr *cond; /* owned */
	const struct oci_entry *entry;
	size_t seq;
};

/*
 * libseccomp's verdict order for the rules of one syscall on one ABI,
 * converted to first-match rules appended to @out.  Warns (through @doc)
 * where libseccomp's own tree order decides between different actions.
 */
int oci_merge_syscall(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		      size_t n, struct oci_outrule **out, size_t *nout, size_t *cap);
/*
 * The rules of one name that @arch lacks: libseccomp files them under a
 * pseudo number that never reaches the filter, but merges them all the
 * same, and refuses conflicting ones (EEXIST) as for a real syscall.
 */
int oci_merge_check(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *insts,
		    size_t n);

int oci_build(struct oci_doc *doc, const struct oci_resolved *res,
	      const struct scg_oci_options *opts, struct scg_policy **out);

/* runc's ENOSYS stub, expressed with the unknown verdict and numbered rules (stub.c). */
struct oci_stub_plan {
	bool active;
	bool on[OCI_MAX_TARGETS]; /* per target of struct oci_resolved */
	uint32_t max[OCI_MAX_TARGETS];
};

void oci_stub_plan(const struct oci_resolved *res, const struct scg_oci_options *opts,
		   struct oci_stub_plan *plan);
/* Rules that go before the profile's (the stub runs first). */
int oci_stub_front(const struct oci_resolved *res, const struct oci_stub_plan *plan,
		   struct scg_policy *policy);
/* The unknown verdict and the rules that go after the profile's. */
int oci_stub_back(struct oci_doc *doc, const struct oci_resolved *res,
		  const struct oci_stub_plan *plan, struct scg_policy *policy);

/* --- shared helpers -------------------------------------------------------- */

/* The comparison as an expression, over the argument's low 32 bits when @low32. */
struct scg_expr *oci_cmp_expr(const struct oci_cmp *cmp, bool low32);
/* An entry's action and comparisons as libseccomp's db takes them (merge.c). */
struct libseccomp_rule oci_libseccomp_rule(uint32_t action, const struct oci_cmp *cmps, size_t n);

#endif
