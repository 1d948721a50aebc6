/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runc's ENOSYS stub (libcontainer/seccomp/patchbpf).
 *
 * Before libseccomp's filter runc puts a few instructions that return
 * ENOSYS for any syscall number above the highest one the profile names,
 * per listed architecture, so that programs see "not implemented" for
 * syscalls newer than the profile instead of the default errno.  runc adds
 * it unless the default action is ALLOW, LOG or TRACE; only for the
 * architectures the profile lists (not the native one libseccomp adds by
 * itself); only where at least one name resolves (and the highest number
 * is not 0); it counts every name of the profile, even rules runc skips for
 * having the default action; on s390 and s390x it also returns ENOSYS for
 * syscall 0, the multiplexer unknown numbers end up in.  On x86_64 one
 * check serves x86_64 and x32, told apart by bit 30 of the number, so
 * nr == -1 counts as x32 there.
 *
 * The policy model has no "numbers above N" verdict, so the stub is
 * expressed with what it has: numbers the ABI's table does not know get
 * the `unknown` verdict ENOSYS; known numbers above the highest named one
 * get ENOSYS rules; unknown numbers below it get rules with the default
 * action.  That is exact when every target ABI has a stub; when only some
 * have one, unknown numbers of the others get ENOSYS too (reported).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

struct stub {
	bool on;
	uint32_t max;
};

/* By canonical name: cheap enough for loops over syscall numbers. */
static bool is_arch(const struct scg_arch *a, const char *name)
{
	return !strcmp(scg_arch_name(a), name);
}

/*
 * runc's findLastSyscalls() for one listed architecture.  On ABIs with
 * socketcall(2) and ipc(2), libseccomp resolves the calls they multiplex
 * to negative pseudo numbers even where a direct syscall exists, so those
 * names never raise the mark.
 */
static uint32_t highest_named(const struct oci_resolved *res, const struct scg_arch *arch)
{
	uint32_t max = 0, nr;
	bool mux = oci_arch_has_mux(arch), ipc;
	for (size_t i = 0; i < res->nentries; i++) {
		for (size_t k = 0; k < res->entries[i]->nnames; k++) {
			const char *name = res->entries[i]->names[k];
			if (mux && oci_mux_call(name, &ipc))
				continue;
			if (scg_syscall_lookup(arch, name, &nr) == 0 && nr > max)
				max = nr;
		}
	}
	return max;
}

static bool stub_wanted(const struct oci_resolved *res)
{
	const struct oci_profile *p = res->profile;
	if (oci_action_permissive(p->default_action))
		return false;
	/* runc compares defaultErrnoRet with the whole ERRNO(ENOSYS) value (0x50026) */
	return !(p->has_default_errno && p->default_errno == res->enosys_ret);
}

/* Numbers @first..@last on @arch alone: one rule. */
static int add_numbers(struct scg_policy *p, const struct scg_arch *arch, uint32_t first,
		       uint32_t last, uint32_t action)
{
	struct scg_rule_spec spec = {
		.action = action,
		.has_number = true,
		.number = first,
		.number_last = last,
		.arch_mask = scg_arch_mask_bit(arch),
		.loc = SCG_LOC_NONE,
	};
	return scg_policy_add_rule(p, &spec);
}

static int add_numbered(struct scg_policy *p, const struct scg_arch *arch, uint32_t nr,
			uint32_t action)
{
	return add_numbers(p, arch, nr, nr, action);
}

/* Known numbers above the highest named one: ENOSYS. */
static int add_above(struct scg_policy *p, const struct scg_arch *arch, uint32_t max,
		     uint32_t enosys)
{
	for (size_t i = 0; i < scg_syscall_count(arch); i++) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(arch, i, &name, &nr) < 0 || nr <= max)
			continue;
		int r = add_numbered(p, arch, nr, enosys);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Numbers the table does not know, at or below the highest named one: the
 * default action, one range rule per run of them (ARM's private syscalls
 * sit near 0xf0000, so one rule per number would make a million rules).
 * Below the ABI's first syscall (MIPS starts at 4000, 5000 or 6000) this is
 * not done, to keep those numbers out of the policy: they get ENOSYS here
 * and the default action under runc.  Every run starts above a known
 * number, so s390's syscall 0, the stub's own ENOSYS, is never in one.
 */
static int add_gaps(struct scg_policy *p, const struct scg_arch *arch, uint32_t max)
{
	size_t count = scg_syscall_count(arch);
	uint32_t known;
	if (scg_syscall_at(arch, 0, NULL, &known) < 0)
		return 0;
	for (size_t i = 1; known < max; i++) {
		uint32_t next = max;
		/* past the table's end (@max is a known number: defensive) the run ends at @max */
		bool end = i >= count || scg_syscall_at(arch, i, NULL, &next) < 0 || next > max;
		uint32_t last = end ? max : next - 1;
		if (last > known) {
			int r = add_numbers(p, arch, known + 1, last, scg_policy_default(p));
			if (r < 0)
				return r;
		}
		if (end)
			break;
		known = next;
	}
	return 0;
}

static void warn_partial(struct oci_doc *doc, const struct scg_arch *arch)
{
	scg_diag_add(doc->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-enosys-partial",
		     "list every architecture in the profile",
		     "runc puts no ENOSYS stub in front of %s (not listed, or no syscall of the "
		     "profile exists there): its unknown syscall numbers get the default action "
		     "under runc, ENOSYS here",
		     scg_arch_name(arch));
}

void oci_stub_plan(const struct oci_resolved *res, const struct scg_oci_options *opts,
		   struct oci_stub_plan *plan)
{
	*plan = (struct oci_stub_plan){ 0 };
	if ((opts && !opts->runc_enosys) || !stub_wanted(res) || res->disabled)
		return;
	for (size_t t = 0; t < res->ntargets; t++) {
		for (size_t l = 0; l < res->nlisted; l++) {
			if (res->listed[l] != res->targets[t])
				continue;
			plan->max[t] = highest_named(res, res->targets[t]);
			plan->on[t] = plan->max[t] != 0;
		}
		plan->active |= plan->on[t];
	}
}

/*
 * The stub runs before libseccomp's filter, so its ENOSYS for known numbers
 * above the mark (and s390's syscall 0) must come before every rule.
 */
int oci_stub_front(const struct oci_resolved *res, const struct oci_stub_plan *plan,
		   struct scg_policy *p)
{
	int r = 0;
	for (size_t t = 0; r == 0 && plan->active && t < res->ntargets; t++) {
		const struct scg_arch *arch = res->targets[t];
		if (!plan->on[t])
			continue;
		if (is_arch(arch, "s390") || is_arch(arch, "s390x"))
			r = add_numbered(p, arch, 0, res->enosys_ret);
		if (r == 0)
			r = add_above(p, arch, plan->max[t], res->enosys_ret);
	}
	return r;
}

/* After the profile's rules: the unknown verdict and the numbers it must not cover. */
int oci_stub_back(struct oci_doc *doc, const struct oci_resolved *res,
		  const struct oci_stub_plan *plan, struct scg_policy *p)
{
	bool x32_stubbed = false;
	int r = 0;
	if (!plan->active)
		return 0;
	scg_policy_set_unknown(p, res->enosys_ret);
	for (size_t t = 0; t < res->ntargets; t++)
		x32_stubbed |= plan->on[t] && is_arch(res->targets[t], "x32");
	for (size_t t = 0; r == 0 && t < res->ntargets; t++) {
		const struct scg_arch *arch = res->targets[t];
		if (!plan->on[t]) {
			warn_partial(doc, arch);
			continue;
		}
		r = add_gaps(p, arch, plan->max[t]);
		/* nr -1 takes x32's path through the stub; without an x32 stub, the filter decides */
		if (r == 0 && is_arch(arch, "x86_64") && !x32_stubbed)
			r = add_numbered(p, arch, UINT32_MAX, scg_policy_default(p));
	}
	return r;
}
