/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A policy's rules handed to libseccomp, as runc hands a profile to it (bench only). */
#ifndef SCG_BENCH_SCMP_RULES_H
#define SCG_BENCH_SCMP_RULES_H

#include <seccomp.h>
#include <stddef.h>

#include <syscage/syscage.h>

/* One seccomp_rule_add_array() call. */
struct scmp_rule {
	int nr;
	uint32_t action;
	struct scmp_arg_cmp args[6];
	unsigned n;
};

/*
 * The rules of @p as libseccomp calls, into @out (room for
 * scmp_rules_max(@p)): by name, once each, each condition in disjunctive
 * form one call per disjunct (libseccomp ORs a syscall's rules of one
 * action).  Rules by raw number, conditions libseccomp cannot express and
 * rules that repeat the default are left out and counted in *@skipped.
 */
size_t scmp_rules(const struct scg_policy *p, struct scmp_rule *out, size_t *skipped);
size_t scmp_rules_max(const struct scg_policy *p);
/* A context with the policy's targets, default and badarch verdicts, optimisation @level. */
scmp_filter_ctx scmp_build(const struct scg_policy *p, const struct scmp_rule *rules, size_t n,
			   int level);
/* The context's BPF as a program (caller releases). 0 or -errno. */
int scmp_export(scmp_filter_ctx ctx, struct scg_prog *out);

#endif
