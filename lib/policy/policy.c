/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy model: target ABIs, ordered rules, fallback verdicts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/policy.h>

#include "util/grow.h"

#define POLICY_MAX_ARCHES 32

struct stored_rule {
	uint32_t action;
	char *syscall;
	bool has_number;
	uint32_t number, number_last; /* number_last >= number with has_number, else 0 */
	uint32_t arch_mask;
	struct scg_expr *cond;
	struct scg_loc loc; /* loc.file points into policy->files */
	/*
	 * The last name resolution, (arch mask bit << 32) | number, 0 before the first.
	 * Analyses ask for a rule's number once per syscall and ABI they sweep, and a name
	 * lookup each time dominated them.  One word, read and written atomically, so
	 * threads that share a const policy only ever see a whole answer.
	 */
	uint64_t resolved;
};

struct scg_policy {
	const struct scg_arch *arches[POLICY_MAX_ARCHES];
	size_t narches;
	uint32_t default_action;
	uint32_t badarch_action;
	uint32_t unknown_action;
	bool has_unknown;
	struct stored_rule *rules;
	size_t nrules, rules_cap;
	char **files; /* interned file names that rule locations point to */
	size_t nfiles;
	struct scg_loc setting_loc[3]; /* enum scg_setting; file interned too */
};

struct scg_policy *scg_policy_new(void)
{
	struct scg_policy *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->default_action = SCG_RET_KILL_PROCESS;
	p->badarch_action = SCG_RET_KILL_PROCESS;
	for (size_t i = 0; i < 3; i++)
		p->setting_loc[i] = SCG_LOC_NONE;
	return p;
}

void scg_policy_free(struct scg_policy *policy)
{
	if (!policy)
		return;
	for (size_t i = 0; i < policy->nrules; i++) {
		free(policy->rules[i].syscall);
		scg_expr_free(policy->rules[i].cond);
	}
	for (size_t i = 0; i < policy->nfiles; i++)
		free(policy->files[i]);
	free(policy->files);
	free(policy->rules);
	free(policy);
}

/* Returns the policy's own copy of @file (NULL stays NULL). */
static const char *intern_file(struct scg_policy *p, const char *file, int *err)
{
	if (!file)
		return NULL;
	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i], file))
			return p->files[i];
	int r = RESIZE_ARRAY(&p->files, p->nfiles + 1);
	char *copy = strdup(file);
	if (r || !copy) {
		free(copy);
		*err = -ENOMEM;
		return NULL;
	}
	p->files[p->nfiles++] = copy;
	return copy;
}

/* Points every location in @e at the policy's interned file name. */
static void relocate_expr(struct scg_expr *e, const char *file)
{
	if (!e)
		return;
	if (e->loc.file)
		e->loc.file = file;
	relocate_expr(e->left, file);
	relocate_expr(e->right, file);
}

static bool expr_valid(const struct scg_expr *e)
{
	if (!e)
		return true;
	switch (e->kind) {
	case SCG_EXPR_CMP:
		return e->arg <= 5 && (e->width == 32 || e->width == 64);
	case SCG_EXPR_NOT:
		return e->left && expr_valid(e->left);
	case SCG_EXPR_AND:
	case SCG_EXPR_OR:
		return e->left && e->right && expr_valid(e->left) && expr_valid(e->right);
	}
	return false;
}

int scg_policy_add_rule(struct scg_policy *policy, struct scg_rule_spec *spec)
{
	int err = 0;
	struct stored_rule r = {
		.action = spec->action,
		.has_number = spec->has_number,
		.number = spec->number,
		.arch_mask = spec->arch_mask,
		.loc = spec->loc,
	};
	/* A number_last below number (0 from an initializer that leaves it out): one number. */
	if (r.has_number)
		r.number_last = spec->number_last < spec->number ? spec->number : spec->number_last;
	/* An empty name would print as a rule naming nothing, which no parser reads back. */
	if ((!spec->syscall && !spec->has_number) || (spec->syscall && !spec->syscall[0]) ||
	    !expr_valid(spec->cond))
		err = -EINVAL;
	if (!err && spec->syscall && !(r.syscall = strdup(spec->syscall)))
		err = -ENOMEM;
	if (!err)
		err = GROW_ARRAY(&policy->rules, &policy->rules_cap, policy->nrules + 1, 64);
	if (!err)
		r.loc.file = intern_file(policy, spec->loc.file, &err);
	if (err) {
		free(r.syscall);
		scg_expr_free(spec->cond);
		spec->cond = NULL;
		return err;
	}
	r.cond = spec->cond;
	spec->cond = NULL;
	relocate_expr(r.cond, r.loc.file);
	policy->rules[policy->nrules++] = r;
	return 0;
}

size_t scg_policy_rule_count(const struct scg_policy *policy)
{
	return policy->nrules;
}

int scg_policy_rule_at(const struct scg_policy *policy, size_t index, struct scg_rule *rule)
{
	if (index >= policy->nrules)
		return -EINVAL;
	const struct stored_rule *r = &policy->rules[index];
	*rule = (struct scg_rule){
		.action = r->action,
		.syscall = r->syscall,
		.has_number = r->has_number,
		.number = r->number,
		.number_last = r->number_last,
		.arch_mask = r->arch_mask,
		.cond = r->cond,
		.loc = r->loc,
	};
	return 0;
}

#define UNRESOLVED UINT32_MAX /* the name is no syscall of that ABI */

static int resolve_cached(const struct stored_rule *r, const struct scg_arch *arch, uint32_t *nr)
{
	uint64_t key = (uint64_t)scg_arch_mask_bit(arch) << 32;
	uint64_t seen = __atomic_load_n(&r->resolved, __ATOMIC_RELAXED);
	if (key && (seen & ~(uint64_t)UINT32_MAX) == key) {
		*nr = (uint32_t)seen;
		return *nr == UNRESOLVED ? -ENOSYS : 0;
	}
	if (scg_syscall_lookup(arch, r->syscall, nr) < 0)
		*nr = UNRESOLVED;
	/* The cache belongs to the stored rule, not to what the caller may change. */
	__atomic_store_n((uint64_t *)&r->resolved, key | *nr, __ATOMIC_RELAXED);
	return *nr == UNRESOLVED ? -ENOSYS : 0;
}

int scg_policy_rule_range(const struct scg_policy *policy, size_t index,
			  const struct scg_arch *arch, uint32_t *first, uint32_t *last)
{
	if (index >= policy->nrules)
		return -EINVAL;
	const struct stored_rule *r = &policy->rules[index];
	if (r->arch_mask && !(r->arch_mask & scg_arch_mask_bit(arch)))
		return -ENOSYS;
	if (r->has_number) {
		*first = r->number;
		*last = r->number_last;
		return 0;
	}
	if (resolve_cached(r, arch, first) < 0)
		return -ENOSYS;
	*last = *first;
	return 0;
}

int scg_policy_rule_nr(const struct scg_policy *policy, size_t index, const struct scg_arch *arch,
		       uint32_t *nr)
{
	uint32_t last;
	return scg_policy_rule_range(policy, index, arch, nr, &last);
}

/* --- targets and fallback verdicts -------------------------------------- */

int scg_policy_add_arch(struct scg_policy *policy, const struct scg_arch *arch)
{
	for (size_t i = 0; i < policy->narches; i++)
		if (policy->arches[i] == arch)
			return 0;
	if (policy->narches == POLICY_MAX_ARCHES)
		return -E2BIG;
	policy->arches[policy->narches++] = arch;
	return 0;
}

int scg_policy_remove_arch(struct scg_policy *policy, const struct scg_arch *arch)
{
	for (size_t i = 0; i < policy->narches; i++) {
		if (policy->arches[i] != arch)
			continue;
		memmove(&policy->arches[i], &policy->arches[i + 1],
			(policy->narches - i - 1) * sizeof(policy->arches[0]));
		policy->narches--;
		return 0;
	}
	return -ENOENT;
}

int scg_policy_add_native_arches(struct scg_policy *policy)
{
	const struct scg_arch *native = scg_arch_native();
	const struct scg_arch *companions[8];
	size_t n = scg_arch_companions(native, companions, 8);
	int r = scg_policy_add_arch(policy, native);
	for (size_t i = 0; r == 0 && i < n && i < 8; i++)
		r = scg_policy_add_arch(policy, companions[i]);
	return r;
}

size_t scg_policy_arch_count(const struct scg_policy *policy)
{
	return policy->narches;
}

const struct scg_arch *scg_policy_arch_at(const struct scg_policy *policy, size_t index)
{
	return index < policy->narches ? policy->arches[index] : NULL;
}

void scg_policy_set_default(struct scg_policy *policy, uint32_t action)
{
	policy->default_action = action;
}

uint32_t scg_policy_default(const struct scg_policy *policy)
{
	return policy->default_action;
}

void scg_policy_set_badarch(struct scg_policy *policy, uint32_t action)
{
	policy->badarch_action = action;
}

uint32_t scg_policy_badarch(const struct scg_policy *policy)
{
	return policy->badarch_action;
}

void scg_policy_set_unknown(struct scg_policy *policy, uint32_t action)
{
	policy->unknown_action = action;
	policy->has_unknown = true;
}

void scg_policy_clear_unknown(struct scg_policy *policy)
{
	policy->has_unknown = false;
}

bool scg_policy_unknown(const struct scg_policy *policy, uint32_t *action)
{
	if (policy->has_unknown && action)
		*action = policy->unknown_action;
	return policy->has_unknown;
}

int scg_policy_set_setting_loc(struct scg_policy *policy, enum scg_setting setting,
			       struct scg_loc loc)
{
	if ((unsigned)setting > SCG_SETTING_UNKNOWN)
		return -EINVAL;
	int err = 0;
	loc.file = intern_file(policy, loc.file, &err);
	if (err)
		return err;
	policy->setting_loc[setting] = loc;
	return 0;
}

struct scg_loc scg_policy_setting_loc(const struct scg_policy *policy, enum scg_setting setting)
{
	return (unsigned)setting > SCG_SETTING_UNKNOWN ? SCG_LOC_NONE : policy->setting_loc[setting];
}

struct scg_policy *scg_policy_clone(const struct scg_policy *policy)
{
	struct scg_policy *copy = scg_policy_new();
	if (!copy)
		return NULL;
	memcpy(copy->arches, policy->arches, sizeof(policy->arches));
	copy->narches = policy->narches;
	copy->default_action = policy->default_action;
	copy->badarch_action = policy->badarch_action;
	copy->unknown_action = policy->unknown_action;
	copy->has_unknown = policy->has_unknown;
	for (unsigned i = 0; i < 3; i++) {
		if (scg_policy_set_setting_loc(copy, (enum scg_setting)i, policy->setting_loc[i]) < 0) {
			scg_policy_free(copy);
			return NULL;
		}
	}
	for (size_t i = 0; i < policy->nrules; i++) {
		const struct stored_rule *r = &policy->rules[i];
		struct scg_rule_spec spec = {
			.action = r->action,
			.syscall = r->syscall,
			.has_number = r->has_number,
			.number = r->number,
			.number_last = r->number_last,
			.arch_mask = r->arch_mask,
			.cond = scg_expr_clone(r->cond),
			.loc = r->loc,
		};
		if ((r->cond && !spec.cond) || scg_policy_add_rule(copy, &spec) < 0) {
			scg_expr_free(spec.cond);
			scg_policy_free(copy);
			return NULL;
		}
	}
	return copy;
}

/* --- the reference evaluator -------------------------------------------- */

static bool is_target(const struct scg_policy *policy, const struct scg_arch *arch)
{
	for (size_t i = 0; i < policy->narches; i++)
		if (policy->arches[i] == arch)
			return true;
	return false;
}

/*
 * The ABI a call belongs to, as a filter can tell: x86_64 calls with bit 30
 * belong to x32 when x32 is a target, and otherwise still arrive with
 * AUDIT_ARCH_X86_64 -- a policy for x86_64 alone must treat them as a
 * foreign ABI, or x32 would slip past rules keyed on x86_64 numbers.
 */
static const struct scg_arch *call_arch(const struct scg_seccomp_data *data)
{
	return scg_arch_from_audit(data->arch, data->nr);
}

void scg_policy_eval(const struct scg_policy *policy, const struct scg_seccomp_data *data,
		     struct scg_verdict *verdict)
{
	const struct scg_arch *arch = call_arch(data);
	if (!arch || !is_target(policy, arch)) {
		*verdict = (struct scg_verdict){ policy->badarch_action, SCG_VERDICT_BADARCH, 0 };
		return;
	}
	for (size_t i = 0; i < policy->nrules; i++) {
		uint32_t first, last;
		if (scg_policy_rule_range(policy, i, arch, &first, &last) < 0 || data->nr < first ||
		    data->nr > last)
			continue;
		if (policy->rules[i].cond && !scg_expr_eval(policy->rules[i].cond, data->args))
			continue;
		*verdict = (struct scg_verdict){ policy->rules[i].action, SCG_VERDICT_RULE, i };
		return;
	}
	if (policy->has_unknown && !scg_syscall_name(arch, data->nr)) {
		*verdict = (struct scg_verdict){ policy->unknown_action, SCG_VERDICT_UNKNOWN, 0 };
		return;
	}
	*verdict = (struct scg_verdict){ policy->default_action, SCG_VERDICT_DEFAULT, 0 };
}
