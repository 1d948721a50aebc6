/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A policy's rules handed to libseccomp (scmp_rules.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scmp_rules.h"

/* Disjuncts a condition expands to at most (more: the rule is left out). */
#define MAX_DISJUNCTS 64

/* A conjunction of comparisons as libseccomp takes them. */
struct conj {
	struct scmp_arg_cmp c[6];
	unsigned n;
};

static bool one_cmp(const struct scg_expr *e, struct scmp_arg_cmp *out)
{
	static const enum scmp_compare ops[] = {SCMP_CMP_EQ, SCMP_CMP_NE, SCMP_CMP_LT,
						SCMP_CMP_LE, SCMP_CMP_GT, SCMP_CMP_GE};
	uint64_t full = e->width == 32 ? 0xffffffffULL : ~0ULL;
	struct scmp_arg_cmp c = {.arg = e->arg, .op = ops[e->op], .datum_a = e->value};
	if (e->mask != full) {
		if (e->op != SCG_CMP_EQ)
			return false;
		c.op = SCMP_CMP_MASKED_EQ;
		c.datum_a = e->mask;
		c.datum_b = e->value;
	}
	*out = c;
	return true;
}

/* @e in disjunctive form into @out (*@n disjuncts); false when libseccomp cannot take it. */
static bool to_dnf(const struct scg_expr *e, struct conj *out, size_t *n)
{
	if (!e) {
		out[0].n = 0;
		*n = 1;
		return true;
	}
	if (e->kind == SCG_EXPR_CMP) {
		out[0].n = 1;
		*n = 1;
		return one_cmp(e, &out[0].c[0]);
	}
	if (e->kind == SCG_EXPR_OR) {
		size_t a = 0, b = 0;
		if (!to_dnf(e->left, out, &a))
			return false;
		struct conj right[MAX_DISJUNCTS];
		if (!to_dnf(e->right, right, &b) || a + b > MAX_DISJUNCTS)
			return false;
		memcpy(&out[a], right, b * sizeof(right[0]));
		*n = a + b;
		return true;
	}
	if (e->kind == SCG_EXPR_AND) {
		struct conj l[MAX_DISJUNCTS], r[MAX_DISJUNCTS];
		size_t a = 0, b = 0, k = 0;
		if (!to_dnf(e->left, l, &a) || !to_dnf(e->right, r, &b) || a * b > MAX_DISJUNCTS)
			return false;
		for (size_t i = 0; i < a; i++)
			for (size_t j = 0; j < b; j++) {
				if (l[i].n + r[j].n > 6)
					return false;
				out[k] = l[i];
				memcpy(&out[k].c[l[i].n], r[j].c, r[j].n * sizeof(r[j].c[0]));
				out[k++].n += r[j].n;
			}
		*n = k;
		return true;
	}
	return false;
}

/* libseccomp's token for @arch (AUDIT_ARCH_* except x32, which has its own). */
static uint32_t scmp_arch(const struct scg_arch *arch)
{
	return scg_arch_nr_flags(arch) ? SCMP_ARCH_X32 : scg_arch_audit(arch);
}

static bool same_rule(const struct scmp_rule *a, const struct scmp_rule *b)
{
	return a->nr == b->nr && a->action == b->action && a->n == b->n &&
	       !memcmp(a->args, b->args, a->n * sizeof(a->args[0]));
}

size_t scmp_rules_max(const struct scg_policy *p)
{
	return scg_policy_rule_count(p) * MAX_DISJUNCTS + 1;
}

size_t scmp_rules(const struct scg_policy *p, struct scmp_rule *out, size_t *skipped)
{
	size_t n = 0;
	*skipped = 0;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		int nr = r.syscall ? seccomp_syscall_resolve_name(r.syscall) : __NR_SCMP_ERROR;
		struct conj d[MAX_DISJUNCTS];
		size_t nd = 0;
		if (nr == __NR_SCMP_ERROR || !to_dnf(r.cond, d, &nd) ||
		    r.action == scg_policy_default(p)) {
			(*skipped)++;
			continue;
		}
		for (size_t k = 0; k < nd; k++) {
			struct scmp_rule x = {.nr = nr, .action = r.action, .n = d[k].n};
			memcpy(x.args, d[k].c, d[k].n * sizeof(d[k].c[0]));
			bool seen = false;
			for (size_t j = 0; j < n && !seen; j++)
				seen = same_rule(&out[j], &x);
			if (!seen)
				out[n++] = x;
		}
	}
	return n;
}

scmp_filter_ctx scmp_build(const struct scg_policy *p, const struct scmp_rule *rules, size_t n,
			   int level)
{
	scmp_filter_ctx ctx = seccomp_init(scg_policy_default(p));
	if (!ctx)
		return NULL;
	bool native = false;
	for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
		uint32_t a = scmp_arch(scg_policy_arch_at(p, t));
		native |= a == seccomp_arch_native();
		seccomp_arch_add(ctx, a);
	}
	if (!native)
		seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, scg_policy_badarch(p));
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, (uint32_t)level);
	for (size_t i = 0; i < n; i++)
		seccomp_rule_add_array(ctx, rules[i].action, rules[i].nr, rules[i].n,
				       rules[i].args);
	return ctx;
}

int scmp_export(scmp_filter_ctx ctx, struct scg_prog *out)
{
	int fd = memfd_create("bpf", 0);
	if (fd < 0)
		return -errno;
	int r = seccomp_export_bpf(ctx, fd);
	off_t size = lseek(fd, 0, SEEK_END);
	void *buf = r == 0 && size > 0 ? malloc((size_t)size) : NULL;
	if (buf && pread(fd, buf, (size_t)size, 0) == size)
		r = scg_prog_from_raw(buf, (size_t)size, "libseccomp", out, NULL);
	else
		r = r ? r : -EIO;
	free(buf);
	close(fd);
	return r;
}
