/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From a context to BPF: the rules become a syscage policy, syscage's
 * compiler makes the program; exporting and loading it.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <syscage/compile.h>
#include <syscage/lang.h>
#include <syscage/runtime.h>

#include "internal.h"
/* libseccomp's own quirk, shared with the OCI import */
#include "libseccomp/high_numbers.h"
/* which of overlapping rules decides: the values libseccomp's comparisons accept */
#include "libseccomp/cmp_set.h"
/* ... and its rule tree, which decides where rules of different actions match */
#include "libseccomp/overlap.h"
#include "libseccomp/rule_tree.h"

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

/* --- which of overlapping rules decides ------------------------------------- */

/* @c as the comparison libseccomp's model knows (the enums agree by value). */
static struct libseccomp_cmp model_cmp(const struct compat_cmp *c)
{
	return (struct libseccomp_cmp){ c->arg, (enum libseccomp_op)c->op, c->a, c->b };
}

/* Every call rule @a matches, rule @b (same syscall, same ABI) matches too. */
static bool rule_subset(const struct compat_rule *a, const struct compat_rule *b)
{
	uint64_t w = scg_arch_bits(a->arch) == 32 ? UINT32_MAX : UINT64_MAX;
	const struct libseccomp_cmp all = { .op = LIBSECCOMP_GE, .a = 0 };
	for (unsigned i = 0; i < a->ncmp; i++) {
		struct libseccomp_cmp x = model_cmp(&a->cmp[i]);
		if (libseccomp_cmp_empty(&x, w))
			return true;
	}
	for (unsigned j = 0; j < b->ncmp; j++) {
		struct libseccomp_cmp y = model_cmp(&b->cmp[j]), x = all;
		for (unsigned i = 0; i < a->ncmp; i++)
			if (a->cmp[i].arg == b->cmp[j].arg) {
				x = model_cmp(&a->cmp[i]);
				break;
			}
		if (!libseccomp_cmp_subset(&x, &y, w))
			return false;
	}
	return true;
}

/* The kernel's rank of an action: lower is stricter (KILL_PROCESS lowest). */
static int32_t action_rank(uint32_t action)
{
	return (int32_t)(action & SCG_RET_ACTION_FULL);
}

/*
 * @a decides before @b where both match: the stricter action first, so a
 * call two rules of different actions match never gets the laxer one.
 * Calls of overlapping rules normally take libseccomp's tree's answer
 * before these rules are reached (add_overlap_rules()); this order decides
 * them only where that tree is too large to unfold.  Between actions of one
 * rank (ERRNO(5) and ERRNO(6)), the strictly narrower rule first, as in
 * libseccomp's nested ranges.
 */
static bool decides_first(const struct compat_rule *a, const struct compat_rule *b)
{
	if (action_rank(a->action) != action_rank(b->action))
		return action_rank(a->action) < action_rank(b->action);
	return a->action != b->action && rule_subset(a, b) && !rule_subset(b, a);
}

/*
 * The order the policy lists the rules in (its first match decides): newest
 * first, except that of conditional rules of one syscall, a stricter action
 * comes before a laxer one, and of actions of one rank a narrower rule
 * before every rule that contains it, so the narrowest range decides, as in
 * libseccomp (write with a2 < 128 ERRNO(5) and a2 < 256 ERRNO(6):
 * write(.., .., 65) fails with EIO, in either order of adding).  Each
 * syscall keeps the places its rules had.
 * The caller frees; NULL when out of memory.
 */
static size_t *rule_order(const struct compat_filter *f)
{
	size_t n = f->rules.n;
	size_t *seq = malloc((n ? n : 1) * sizeof(*seq));
	size_t *pos = malloc((n ? n : 1) * sizeof(*pos));
	size_t *member = malloc((n ? n : 1) * sizeof(*member));
	bool *grouped = calloc(n ? n : 1, sizeof(*grouped));
	if (seq == NULL || pos == NULL || member == NULL || grouped == NULL) {
		free(seq);
		free(pos);
		free(member);
		free(grouped);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		seq[i] = n - 1 - i;
	for (size_t start = 0; start < n; start++) {
		if (grouped[start])
			continue;
		const struct compat_rule *head = &f->rules.v[seq[start]];
		size_t m = 0;
		for (size_t p = start; p < n; p++) {
			const struct compat_rule *r = &f->rules.v[seq[p]];
			bool together = p == start || (!r->inert && !head->inert);
			if (!grouped[p] && together && r->arch == head->arch && r->nr == head->nr) {
				grouped[p] = true;
				pos[m++] = p;
			}
		}
		/* Members in newest-first order; pick, each time, the newest one that no
		 * remaining member must decide before. */
		for (size_t k = 0; k < m; k++)
			member[k] = seq[pos[k]];
		for (size_t k = 0; k < m; k++) {
			size_t pick = k;
			for (size_t c = k; c < m; c++) {
				bool blocked = false;
				for (size_t o = k; o < m && !blocked; o++)
					blocked = o != c && decides_first(&f->rules.v[member[o]],
									  &f->rules.v[member[c]]);
				if (!blocked) {
					pick = c;
					break;
				}
			}
			size_t chosen = member[pick];
			memmove(&member[k + 1], &member[k], (pick - k) * sizeof(member[0]));
			member[k] = chosen;
			seq[pos[k]] = chosen;
		}
	}
	free(pos);
	free(member);
	free(grouped);
	return seq;
}

/* --- calls of overlapping rules, as libseccomp's filter decides them --------- */

struct syscall_sink {
	struct scg_policy *policy;
	const struct compat_rule *r;
};

static int add_overlap_rule(void *ctx, uint32_t action, struct scg_expr *cond)
{
	const struct syscall_sink *sink = ctx;
	struct scg_rule_spec spec = { .action = action, .has_number = true, .number = sink->r->nr,
				      .arch_mask = scg_arch_mask_bit(sink->r->arch), .cond = cond,
				      .loc = SCG_LOC_NONE };
	int rc = scg_policy_add_rule(sink->policy, &spec);
	return rc < 0 ? rc : 0;
}

/*
 * Calls that rules of @r's syscall with different actions both match get
 * the action libseccomp's filter gives them (lib/libseccomp/overlap.h);
 * the rules themselves follow (rule_order()) and decide every other call.
 * Where the tree is too large to unfold, the stricter action decides.
 */
static int add_overlap_rules(struct scg_policy *p, const struct compat_filter *f,
			     const struct compat_rule *r)
{
	size_t n = 0;
	struct libseccomp_overlap_rule *rules = calloc(f->rules.n ? f->rules.n : 1, sizeof(*rules));
	int rc = rules == NULL ? -ENOMEM : 0;
	for (size_t i = 0; rc == 0 && i < f->rules.n; i++) {
		const struct compat_rule *e = &f->rules.v[i];
		if (e->arch != r->arch || e->nr != r->nr)
			continue;
		rules[n].action = e->action;
		if (e->ncmp > 0 && (rules[n].cond = rule_condition(e)) == NULL)
			rc = -ENOMEM;
		n++;
	}
	struct libseccomp_tree *tree = NULL;
	if (rc == 0 && n > 1)
		rc = compat_rules_tree(&f->rules, r->arch, r->nr, NULL, &tree);
	struct syscall_sink sink = { .policy = p, .r = r };
	if (tree != NULL)
		rc = libseccomp_overlap_rules(tree, rules, n, add_overlap_rule, &sink);
	libseccomp_tree_free(tree);
	for (size_t i = 0; i < n; i++)
		scg_expr_free((struct scg_expr *)rules[i].cond);
	free(rules);
	return rc == -E2BIG ? 0 : rc;
}

/* Is @i the first rule of its syscall and ABI? */
static bool first_of_syscall(const struct compat_filter *f, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (f->rules.v[j].arch == f->rules.v[i].arch && f->rules.v[j].nr == f->rules.v[i].nr)
			return false;
	return true;
}

static int add_ordered_rule(struct scg_policy *p, const struct compat_rule *r)
{
	struct scg_rule_spec spec = {
		.action = r->action,
		.has_number = true,
		.number = r->nr,
		.arch_mask = scg_arch_mask_bit(r->arch),
		.loc = SCG_LOC_NONE,
	};
	if (r->ncmp > 0 && (spec.cond = rule_condition(r)) == NULL)
		return -ENOMEM;
	return scg_policy_add_rule(p, &spec);
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
	for (size_t i = 0; rc == 0 && i < f->rules.n; i++)
		if (first_of_syscall(f, i))
			rc = add_overlap_rules(p, f, &f->rules.v[i]);
	size_t *order = rc == 0 ? rule_order(f) : NULL;
	if (rc == 0 && order == NULL)
		rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < f->rules.n; i++) {
		const struct compat_rule *r = &f->rules.v[order[i]];
		if (!r->inert)
			rc = add_ordered_rule(p, r);
	}
	free(order);
	/* libseccomp's verdict for x86_64 numbers with bit 31 set, without x32 */
	if (rc == 0)
		rc = libseccomp_high_add(p);
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

/*
 * The program in the byte order of the filter's ABIs (all of them share one,
 * seccomp_arch_add() sees to it), as libseccomp writes it: a filter for
 * s390x or MIPS has code and k big-endian.  The caller frees.
 */
static struct scg_insn *program_for_export(const struct compat_filter *f, size_t *size)
{
	*size = f->program.len * sizeof(f->program.insns[0]);
	struct scg_insn *out = malloc(*size ? *size : 1);
	if (out == NULL)
		return NULL;
	memcpy(out, f->program.insns, *size);
	bool big = f->narch > 0 && scg_arch_big_endian(f->arches[0]);
	for (size_t i = 0; i < f->program.len; i++) {
		out[i].code = big ? htobe16(out[i].code) : htole16(out[i].code);
		out[i].k = big ? htobe32(out[i].k) : htole32(out[i].k);
	}
	return out;
}

COMPAT_API int seccomp_export_bpf(const scmp_filter_ctx ctx, int fd)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL)
		return -EINVAL;
	int rc = compat_program(f);
	if (rc < 0)
		return rc;
	size_t size;
	struct scg_insn *prog = program_for_export(f, &size);
	if (prog == NULL)
		return -ENOMEM;
	rc = system_rc(f, write_all(fd, prog, size));
	free(prog);
	return rc;
}

COMPAT_API int seccomp_export_bpf_mem(const scmp_filter_ctx ctx, void *buf, size_t *len)
{
	struct compat_filter *f = compat_filter_of(ctx);
	if (f == NULL || len == NULL)
		return -EINVAL;
	int rc = compat_program(f);
	if (rc < 0)
		return rc;
	size_t size;
	struct scg_insn *prog = program_for_export(f, &size);
	if (prog == NULL)
		return -ENOMEM;
	if (buf != NULL && *len < size)
		rc = -ERANGE;
	else if (buf != NULL)
		memcpy(buf, prog, size);
	free(prog);
	*len = size;
	return rc;
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
	static const char head[] =
		"# seccomp filter (syscage policy language; the first matching rule decides)\n";
	rc = write_all(fd, head, sizeof(head) - 1);
	if (rc == 0)
		rc = write_all(fd, text, strlen(text));
	free(text);
	return system_rc(f, rc);
}

bool compat_uses_notify(const struct compat_filter *f)
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
		if (f->attr.waitkill && compat_api_level() >= 7)
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
	bool notify = compat_uses_notify(f);
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
