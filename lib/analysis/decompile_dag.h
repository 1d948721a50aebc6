/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The decompiler's structured path: one filter's decisions for one syscall
 * number read as a graph of argument tests, folded back into && / || and
 * written as first-match rules.  Internal.
 */
#ifndef SCG_LIB_ANALYSIS_DECOMPILE_DAG_H
#define SCG_LIB_ANALYSIS_DECOMPILE_DAG_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/bpf.h>
#include <syscage/policy.h>

/* One rule of a first-match list: @cond NULL is unconditional. */
struct dag_rule {
	uint32_t action;
	struct scg_expr *cond;
};

struct dag_rules {
	struct dag_rule *v;
	size_t n, cap;
};

/* Frees the conditions and the array; the list is empty after. */
void dag_rules_release(struct dag_rules *rules);

/*
 * The first-match rules that give @prog's verdict (each passed through
 * @canonical) for every call of @arch with syscall number @nr; the rules
 * hold for every number in *@lo..*@hi as well (the filter tells them
 * apart from @nr by no test).  0; -ENOTSUP when the filter does something
 * the structured path does not read (arithmetic on arguments, the
 * instruction pointer, more than @max_rules rules, ...), and the caller
 * falls back to regions; -ENOMEM.  @out is appended to only on success.
 */
int dag_rules_for(const struct scg_prog *prog, const struct scg_arch *arch, uint32_t nr,
		  uint32_t (*canonical)(uint32_t), size_t max_rules, uint32_t *lo, uint32_t *hi,
		  struct dag_rules *out);

#endif
