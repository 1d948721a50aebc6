/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of syscage's libseccomp-compatible library (libseccomp.so.2).
 *
 * A filter context keeps what libseccomp's API describes: attributes, the
 * filter ABIs, and the rules as added, already resolved per ABI (one stored
 * rule per ABI a call applies to, multiplexed socketcall/ipc copies
 * included).  Nothing is compiled until an export or a load: then the rules
 * become a syscage policy (include/syscage/policy.h) and syscage's compiler
 * turns it into BPF.
 */
#ifndef SCG_COMPAT_INTERNAL_H
#define SCG_COMPAT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/policy.h>

#include "seccomp.h"

/* Exported through the version script (compat/libseccomp.map). */
#define COMPAT_API __attribute__((visibility("default")))

#define COMPAT_MAX_ARCHES 32
#define COMPAT_MAX_ARGS 6
/* The highest API level this library knows (7: WAITKILL). */
#define COMPAT_API_MAX 7

/* libseccomp's pseudo syscall numbers (generated: compat/pnr_table.c). */
struct compat_pnr {
	char name[32]; /* in place, not a pointer: no relocation when the library loads */
	int nr;
};
/* syscage's own pseudo numbers start here and go down (tools/gen-compat-syscalls.py). */
#define COMPAT_PNR_OWN (-30001)
extern const struct compat_pnr compat_pnr_table[];
extern const size_t compat_pnr_count;

/* Names libseccomp gives numbers the tables name otherwise or not at all
 * (generated: compat/legacy_table.c). */
struct compat_legacy {
	const char *arch; /* libseccomp's ABI name */
	const char *name;
	int nr;
};
extern const struct compat_legacy compat_legacy_table[];
extern const size_t compat_legacy_count;

struct compat_cmp {
	unsigned arg;
	enum scmp_compare op;
	uint64_t a, b;
};

/* One rule on one ABI. */
struct compat_rule {
	const struct scg_arch *arch;
	uint32_t nr; /* as the kernel reports it on @arch (x32 carries bit 30) */
	uint32_t action;
	unsigned ncmp;
	struct compat_cmp cmp[COMPAT_MAX_ARGS]; /* sorted by argument */
	/* Accepted, as libseccomp accepts it, but deciding nothing (a broader or
	 * unconditional rule of the syscall decides): kept so that libseccomp's
	 * rule tree can be rebuilt from every accepted rule, in order. */
	bool inert;
};

struct compat_rules {
	struct compat_rule *v;
	size_t n, cap;
};

struct compat_priority {
	int syscall; /* as passed: a number of the native ABI, or a pseudo number */
	uint8_t priority;
};

/* A saved state for seccomp_transaction_*() and all-or-nothing rule adds. */
struct compat_snapshot {
	const struct scg_arch *arches[COMPAT_MAX_ARCHES];
	size_t narch;
	struct compat_rules rules;
	struct compat_snapshot *next;
};

struct compat_attrs {
	uint32_t act_default;
	uint32_t act_badarch;
	uint32_t nnp, tsync, tskip, log, ssb, optimize, sysrawrc, waitkill;
};

struct compat_filter {
	uint32_t magic;
	struct compat_attrs attr;
	const struct scg_arch *arches[COMPAT_MAX_ARCHES];
	size_t narch;
	struct compat_rules rules;
	struct compat_priority *prio;
	size_t nprio;
	struct compat_snapshot *txn; /* open transactions, innermost first */
	struct scg_prog program;     /* compiled form, valid while @program_valid */
	bool program_valid;
};

#define COMPAT_MAGIC 0x53434d50U

/* @ctx as a filter, or NULL when it is not one this library made. */
struct compat_filter *compat_filter_of(const void *ctx);
/* Marks the compiled program stale after any change. */
void compat_filter_changed(struct compat_filter *f);

/* --- process-wide state (context.c) ------------------------------------- */

unsigned compat_api_level(void);
/* 0 when @action is a valid action at the current API level, else -EINVAL / -EOPNOTSUPP. */
int compat_action_valid(uint32_t action);
/* Whether @f returns USER_NOTIF anywhere (its default or a rule). */
bool compat_uses_notify(const struct compat_filter *f);
void compat_state_notify_set(int fd);
int compat_state_notify_fd(void);

/* --- ABIs and syscall names (names.c) ----------------------------------- */

/* The ABI of a token (0 = native), or NULL. */
const struct scg_arch *compat_arch_of_token(uint32_t token);
uint32_t compat_token_of_arch(const struct scg_arch *arch);
/* @name's number on @arch: syscage's tables, then libseccomp's legacy names. 0 or -ENOENT. */
int compat_syscall_lookup(const struct scg_arch *arch, const char *name, uint32_t *nr);
/* The name of @nr on @arch (same sources), or NULL. */
const char *compat_syscall_name(const struct scg_arch *arch, uint32_t nr);
/*
 * The name libseccomp gives @num on @arch: a number (with the ABI's base or
 * x32 bit, as the kernel reports it) or a pseudo number that @arch resolves
 * its name to; NULL otherwise.
 */
const char *compat_name_of_num(const struct scg_arch *arch, int num);
/* Pseudo number of a name, or 0 when libseccomp has none. */
int compat_pnr_of_name(const char *name);
const char *compat_name_of_pnr(int nr);
/*
 * The multiplexed form of @name on @arch: the multiplexer's number and the
 * sub-call (socketcall's or ipc's first argument).  false when @arch does
 * not multiplex @name.
 */
bool compat_multiplexed(const struct scg_arch *arch, const char *name, uint32_t *mux_nr,
			uint32_t *subcall);
/* libseccomp's resolution of @name on @arch: a number, a pseudo number or __NR_SCMP_ERROR. */
int compat_resolve_name(const struct scg_arch *arch, const char *name);

/* --- rules (rules.c) ------------------------------------------------------ */

void compat_rules_release(struct compat_rules *rules);
int compat_rules_copy(struct compat_rules *dst, const struct compat_rules *src);
struct libseccomp_tree;
/* libseccomp's rule tree for @nr on @arch, rebuilt from every accepted rule of it in
 * order, then @extra (or NULL): the last add's answer, 0 or -EEXIST; -ENOMEM with
 * *@out NULL.  Free with libseccomp_tree_free(). */
int compat_rules_tree(const struct compat_rules *rules, const struct scg_arch *arch, uint32_t nr,
		      const struct compat_rule *extra, struct libseccomp_tree **out);
int compat_rules_append(struct compat_rules *rules, const struct compat_rule *rule);
void compat_rules_drop_arch(struct compat_rules *rules, const struct scg_arch *arch);

/* --- code generation (generate.c) ----------------------------------------- */

/* The syscage policy the context describes (caller frees), or NULL with errno set. */
struct scg_policy *compat_policy_build(const struct compat_filter *f);
/* Compiles if needed; on success f->program is valid. */
int compat_program(struct compat_filter *f);

#endif
