/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/polgen.h"

#include <stdlib.h>
#include <string.h>

static const char *const pool_arches[] = {
	"x86_64", "x86", "x32", "aarch64", "s390x", "mips", "mipsel64n32", "ppc64", "arm",
};

/* A shared pool of constants, so that conditions of different rules interact. */
static uint64_t pick_constant(struct progen_rng *rng)
{
	static const uint64_t common[] = {
		0, 1, 2, 8, 0x20008, 0xffffffff, 0x100000000ULL, 0x100000001ULL, 0x7fffffff,
		0x80000000, 0xffffffff00000000ULL, 0xffffffffffffffffULL, 0x8000000000000000ULL,
		0x7fffffffffffffffULL, 0xffffff9c, 0xffffffffffffff9cULL,
	};
	if (progen_below(rng, 3) == 0)
		return progen_interesting64(rng);
	return common[progen_below(rng, sizeof(common) / sizeof(common[0]))];
}

static uint64_t pick_mask(struct progen_rng *rng)
{
	static const uint64_t masks[] = {
		0xff, 0x7e020000, 0xffffffff00000000ULL, 0x100000000ULL, 0x1, 0x80000000,
		0xffff0000ffff0000ULL, 0,
	};
	uint32_t choice = progen_below(rng, 10);
	if (choice < 6)
		return ~0ULL;
	if (choice < 9)
		return masks[progen_below(rng, sizeof(masks) / sizeof(masks[0]))];
	return progen_next(rng);
}

struct scg_expr *polgen_expr(struct progen_rng *rng, unsigned depth, unsigned max_arg)
{
	uint32_t kind = depth ? progen_below(rng, 6) : 0;
	if (kind < 3) {
		unsigned width = progen_below(rng, 4) == 0 ? 32 : 64;
		return scg_expr_cmp(progen_below(rng, max_arg + 1), width,
				    (enum scg_cmp_op)progen_below(rng, 6), pick_mask(rng),
				    pick_constant(rng));
	}
	if (kind == 3)
		return scg_expr_not(polgen_expr(rng, depth - 1, max_arg));
	struct scg_expr *l = polgen_expr(rng, depth - 1, max_arg);
	struct scg_expr *r = polgen_expr(rng, depth - 1, max_arg);
	return kind == 4 ? scg_expr_and(l, r) : scg_expr_or(l, r);
}

static uint32_t pick_action(struct progen_rng *rng, const struct polgen_opts *opts)
{
	if (opts->actions)
		return opts->actions[progen_below(rng, (uint32_t)opts->nactions)];
	return progen_ret(rng, false);
}

/*
 * Numbers first..last for a range rule: a few numbers around a known
 * syscall of @arch (so that ranges and name rules overlap), or a huge
 * range of numbers no table knows, up to the ends of the number space.
 */
static void pick_range(struct progen_rng *rng, const struct scg_arch *arch,
		       struct scg_rule_spec *spec)
{
	static const uint32_t huge[][2] = {
		{ 0x80000000, 0xbfffffff }, /* x86_64 with bit 31: the classic filters' KILL */
		{ 0xc0000000, 0xffffffff }, { 0xfffffff0, 0xffffffff }, { 0x3ffffff0, 0x40000010 },
		{ 0x40000200, 0x7fffffff }, { 1000, 0x3fffffff },	   { 0, 0xffffffff },
		{ 0x7fffffff, 0x80000001 }, { 0xffffffff, 0xffffffff },
	};
	spec->has_number = true;
	if (progen_below(rng, 2)) {
		uint32_t k = progen_below(rng, (uint32_t)(sizeof(huge) / sizeof(huge[0])));
		spec->number = huge[k][0];
		spec->number_last = huge[k][1];
		return;
	}
	uint32_t nr = 0;
	size_t n = scg_syscall_count(arch);
	scg_syscall_at(arch, progen_below(rng, n < 12 ? (uint32_t)n : 12), NULL, &nr);
	uint32_t before = progen_below(rng, 4), after = progen_below(rng, 6);
	spec->number = nr >= before ? nr - before : 0;
	spec->number_last = nr + after;
}

/* A syscall for a rule: a name of a target ABI's table, or (sometimes) raw numbers. */
static void pick_syscall(struct progen_rng *rng, const struct scg_policy *p,
			 const struct polgen_opts *opts, struct scg_rule_spec *spec)
{
	if (opts->syscalls) {
		spec->syscall = opts->syscalls[progen_below(rng, (uint32_t)opts->nsyscalls)];
		return;
	}
	const struct scg_arch *arch =
		scg_policy_arch_at(p, progen_below(rng, (uint32_t)scg_policy_arch_count(p)));
	if (progen_below(rng, 10) == 0) {
		pick_range(rng, arch, spec);
		return;
	}
	if (progen_below(rng, 8) == 0) {
		static const uint32_t odd[] = { 0, 1, 1000, 0x40000005, 0xffffffff, 0x3fffffff,
						0x40000000, 4001, 6010, 0x80000000 };
		spec->has_number = true;
		spec->number = odd[progen_below(rng, sizeof(odd) / sizeof(odd[0]))];
		return;
	}
	/* Few distinct syscalls per policy, so rules on one syscall pile up. */
	size_t n = scg_syscall_count(arch);
	size_t index = progen_below(rng, 4) ? progen_below(rng, n < 12 ? (uint32_t)n : 12)
					    : progen_below(rng, (uint32_t)n);
	scg_syscall_at(arch, index, &spec->syscall, NULL);
}

static int add_arches(struct progen_rng *rng, struct scg_policy *p, const struct polgen_opts *opts)
{
	if (opts->arches) {
		for (size_t i = 0; opts->arches[i]; i++)
			if (scg_policy_add_arch(p, opts->arches[i]) < 0)
				return -1;
		return 0;
	}
	size_t n = 1 + progen_below(rng, 3);
	for (size_t i = 0; i < n; i++) {
		const char *name = pool_arches[progen_below(rng, sizeof(pool_arches) / sizeof(pool_arches[0]))];
		if (scg_policy_add_arch(p, scg_arch_lookup(name)) < 0)
			return -1;
	}
	return 0;
}

struct scg_policy *polgen_policy(struct progen_rng *rng, const struct polgen_opts *opts)
{
	struct scg_policy *p = scg_policy_new();
	if (!p || add_arches(rng, p, opts) < 0) {
		scg_policy_free(p);
		return NULL;
	}
	scg_policy_set_default(p, pick_action(rng, opts));
	scg_policy_set_badarch(p, pick_action(rng, opts));
	if (progen_below(rng, 2))
		scg_policy_set_unknown(p, pick_action(rng, opts));
	size_t nrules = 1 + progen_below(rng, (uint32_t)opts->max_rules);
	unsigned max_arg = progen_below(rng, 3) ? 1 : 5;
	for (size_t i = 0; i < nrules; i++) {
		struct scg_rule_spec spec = { .action = pick_action(rng, opts), .loc = SCG_LOC_NONE };
		pick_syscall(rng, p, opts, &spec);
		if (progen_below(rng, 6) == 0)
			spec.arch_mask = progen_next(rng) & 0xff;
		if (progen_below(rng, 10) >= 3)
			spec.cond = polgen_expr(rng, progen_below(rng, opts->max_depth + 1), max_arg);
		if (scg_policy_add_rule(p, &spec) < 0) {
			scg_policy_free(p);
			return NULL;
		}
	}
	return p;
}

static void add_value(uint64_t *out, size_t *n, size_t max, uint64_t v)
{
	for (size_t i = 0; i < *n; i++)
		if (out[i] == v)
			return;
	if (*n < max)
		out[(*n)++] = v;
}

static void values_around(uint64_t c, uint64_t *out, size_t *n, size_t max)
{
	uint32_t hi = (uint32_t)(c >> 32), lo = (uint32_t)c;
	for (int dh = -1; dh <= 1; dh++)
		for (int dl = -1; dl <= 1; dl++)
			add_value(out, n, max, (uint64_t)(uint32_t)(hi + (uint32_t)dh) << 32 |
						       (uint32_t)(lo + (uint32_t)dl));
	add_value(out, n, max, lo);
	add_value(out, n, max, 0xffffffff00000000ULL | lo);
}

static void collect(const struct scg_expr *e, unsigned arg, uint64_t *out, size_t *n, size_t max)
{
	if (!e)
		return;
	if (e->kind == SCG_EXPR_CMP && e->arg == arg) {
		values_around(e->value, out, n, max);
		add_value(out, n, max, e->mask);
		add_value(out, n, max, e->value | ~e->mask);
	}
	collect(e->left, arg, out, n, max);
	collect(e->right, arg, out, n, max);
}

size_t polgen_arg_values(const struct scg_policy *policy, unsigned arg, uint64_t *out, size_t max)
{
	size_t n = 0;
	add_value(out, &n, max, 0);
	add_value(out, &n, max, ~0ULL);
	for (size_t i = 0; i < scg_policy_rule_count(policy); i++) {
		struct scg_rule r;
		scg_policy_rule_at(policy, i, &r);
		collect(r.cond, arg, out, &n, max);
	}
	return n;
}

bool polgen_same_effect(uint32_t a, uint32_t b)
{
	enum scg_action x = scg_action_of(a), y = scg_action_of(b);
	if (x != y)
		return false;
	if (x == SCG_ACTION_UNKNOWN || scg_action_has_data(x))
		return a == b;
	return true;
}
