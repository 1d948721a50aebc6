/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From a context to BPF: the rules become a syscage policy, syscage's
 * compiler makes the program; exporting and loading it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <syscage/compile.h>
#include <syscage/lang.h>
#include <syscage/runtime.h>

#include "internal.h"

static enum scg_cmp_op cmp_op(enum scmp_compare op)
{
	switch (op) {
	case SCMP_CMP_NE:
		return SCG_CMP_NE;
	case SCMP_CMP_LT:
		return SCG_CMP_LT;
	case SCMP_CMP_LE:
		return SCG_CMP_LE;
	case SCMP_CMP_GE:
		return SCG_CMP_GE;
	case SCMP_CMP_GT:
		return SCG_CMP_GT;
	case SCMP_CMP_EQ:
	case SCMP_CMP_MASKED_EQ:
	case _SCMP_CMP_MIN:
	case _SCMP_CMP_MAX:
		break;
	}
	return SCG_CMP_EQ;
}

/*
 * A rule's comparisons, ANDed.  SCMP_CMP_MASKED_EQ compares the masked argument with the
 * masked datum (libseccomp documents it so).  On a 32-bit ABI the registers are 32 bits
 * wide, so only the low word of each datum counts (as with libseccomp).
 */
static struct scg_expr *rule_condition(const struct compat_rule *r)
{
	unsigned width = scg_arch_bits(r->arch) == 32 ? 32 : 64;
	struct scg_expr *all = NULL;
	for (unsigned i = 0; i < r->ncmp; i++) {
		const struct compat_cmp *c = &r->cmp[i];
		bool masked = c->op == SCMP_CMP_MASKED_EQ;
		struct scg_expr *e = scg_expr_cmp(c->arg, width, cmp_op(c->op),
						  masked ? c->a : UINT64_MAX, masked ? c->b & c->a : c->a);
		if (e == NULL) {
			scg_expr_free(all);
			return NULL;
		}
		all = all == NULL ? e : scg_expr_and(all, e);
		if (all == NULL)
			return NULL;
	}
	return all;
}

static uint32_t arch_bit(const struct scg_arch *arch)
{
	for (size_t i = 0; i < scg_arch_count(); i++)
		if (scg_arch_at(i) == arch)
			return 1U << i;
	return 0;
}

struct scg_policy *compat_policy_build(const struct compat_filter *f)
{
	struct scg_policy *p = scg_policy_new();
	if (p == NULL)
		return NULL;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < f->narch; i++)
		rc = scg_policy_add_arch(p, f->arches[i]);
	scg_policy_set_default(p, f->attr.act_default);
	scg_policy_set_badarch(p, f->attr.act_badarch);
	/* Newest first: where conditional rules of different actions overlap, the
	 * policy's first match must be the rule added last. */
	for (size_t i = f->rules.n; rc == 0 && i-- > 0;) {
		const struct compat_rule *r = &f->rules.v[i];
		struct scg_rule_spec spec = {
			.action = r->action,
			.has_number = true,
			.number = r->nr,
			.arch_mask = arch_bit(r->arch),
			.loc = SCG_LOC_NONE,
		};
		if (r->ncmp > 0 && (spec.cond = rule_condition(r)) == NULL)
			rc = -ENOMEM;
		else
			rc = scg_policy_add_rule(p, &spec);
	}
	/* libseccomp's verdict for x86_64 numbers with bit 31 set, without x32 */
	if (rc == 0)
		rc = scg_policy_add_libseccomp_high_numbers(p);
	if (rc < 0) {
		scg_policy_free(p);
		errno = -rc;
		return NULL;
	}
	return p;
}

/* seccomp_syscall_priority() hints become the compiler's workload weights. */
static int priority_weights(const struct compat_filter *f, struct scg_syscall_weight **out,
			    size_t *n)
{
	const struct scg_arch *native = scg_arch_native();
	*out = NULL;
	*n = 0;
	if (f->nprio == 0)
		return 0;
	struct scg_syscall_weight *w = calloc(f->nprio, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < f->nprio; i++) {
		int nr = f->prio[i].syscall;
		const char *name = nr >= 0 ? (native ? scg_syscall_name(native, (uint32_t)nr) : NULL) :
					     compat_name_of_pnr(nr);
		if (name != NULL)
			w[(*n)++] = (struct scg_syscall_weight){ name, 1ULL + f->prio[i].priority };
	}
	*out = w;
	return 0;
}

int compat_program(struct compat_filter *f)
{
	if (f->program_valid)
		return 0;
	if (f->narch == 0)
		return -EINVAL;
	struct scg_policy *policy = compat_policy_build(f);
	if (policy == NULL)
		return -ENOMEM;
	struct scg_compile_options opts = { .optimize = 1 };
	struct scg_syscall_weight *weights = NULL;
	int rc = priority_weights(f, &weights, &opts.nweights);
	opts.weights = weights;
	/* Level 2 asks for a plain tree over syscall numbers: no workload bias. */
	opts.unweighted = f->attr.optimize == 2;
	if (rc == 0)
		rc = scg_compile(policy, &opts, &f->program, NULL);
	free(weights);
	scg_policy_free(policy);
	if (rc < 0)
		return rc == -ENOMEM ? -ENOMEM : -EFAULT;
	f->program_valid = true;
	return 0;
}

/* --- public API ------------------------------------------------------------ */

COMPAT_API int seccomp_precompute(const scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	return f != NULL ? compat_program(f) : -EINVAL;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* libseccomp reports system failures as -ECANCELED unless asked for raw codes. */
static int system_rc(const struct compat_filter *f, int rc)
{
	if (rc >= 0 || f->attr.sysrawrc || rc == -ENOMEM)
		return rc;
	return -ECANCELED;
}

COMPAT_API int seccomp_export_bpf(const scmp_filter_ctx ctx, int fd)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL)
		return -EINVAL;
	int rc = compat_program(f);
	if (rc < 0)
		return rc;
	return system_rc(f, write_all(fd, f->program.insns,
				      f->program.len * sizeof(f->program.insns[0])));
}

COMPAT_API int seccomp_export_bpf_mem(const scmp_filter_ctx ctx, void *buf, size_t *len)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || len == NULL)
		return -EINVAL;
	int rc = compat_program(f);
	if (rc < 0)
		return rc;
	size_t size = f->program.len * sizeof(f->program.insns[0]);
	if (buf != NULL && *len < size) {
		*len = size;
		return -ERANGE;
	}
	if (buf != NULL)
		memcpy(buf, f->program.insns, size);
	*len = size;
	return 0;
}

COMPAT_API int seccomp_export_pfc(const scmp_filter_ctx ctx, int fd)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || f->narch == 0)
		return -EINVAL;
	struct scg_policy *policy = compat_policy_build(f);
	if (policy == NULL)
		return -ENOMEM;
	char *text = NULL;
	int rc = scg_policy_to_text(policy, &text);
	scg_policy_free(policy);
	if (rc < 0)
		return rc == -ENOMEM ? -ENOMEM : -EFAULT;
	static const char head[] = "# seccomp filter (syscage policy language; rules newest first)\n";
	rc = write_all(fd, head, sizeof(head) - 1);
	if (rc == 0)
		rc = write_all(fd, text, strlen(text));
	free(text);
	return system_rc(f, rc);
}

static bool uses_notify(const struct compat_filter *f)
{
	if (scg_action_of(f->attr.act_default) == SCG_ACTION_USER_NOTIF)
		return true;
	for (size_t i = 0; i < f->rules.n; i++)
		if (scg_action_of(f->rules.v[i].action) == SCG_ACTION_USER_NOTIF)
			return true;
	return false;
}

static unsigned load_flags(const struct compat_filter *f, bool notify)
{
	unsigned flags = 0;
	if (f->attr.tsync)
		flags |= SCG_FILTER_FLAG_TSYNC;
	if (f->attr.log)
		flags |= SCG_FILTER_FLAG_LOG;
	if (f->attr.ssb)
		flags |= SCG_FILTER_FLAG_SPEC_ALLOW;
	if (notify) {
		flags |= SCG_FILTER_FLAG_NEW_LISTENER;
		if (f->attr.tsync)
			flags |= SCG_FILTER_FLAG_TSYNC_ESRCH;
		if (f->attr.waitkill)
			flags |= SCG_FILTER_FLAG_WAIT_KILLABLE_RECV;
	}
	return flags;
}

COMPAT_API int seccomp_load(const scmp_filter_ctx ctx)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL)
		return -EINVAL;
	int rc = compat_program(f);
	if (rc < 0)
		return rc;
	bool notify = uses_notify(f);
	/* One listener per filter chain: a second NOTIFY filter cannot get its own. */
	if (notify && compat_state_notify_fd() >= 0)
		return -EEXIST;
	if (f->attr.nnp && prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL) < 0)
		return system_rc(f, -errno);
	struct scg_install_result res = { .listener = -1 };
	rc = scg_filter_install(&f->program, load_flags(f, notify), &res);
	if (rc == -ESRCH && f->attr.tsync)
		return -ESRCH;
	if (rc < 0)
		return system_rc(f, rc);
	if (notify)
		compat_state_notify_set(res.listener);
	return 0;
}
