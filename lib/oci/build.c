/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runc's half: the resolved linux.seccomp object as runc hands it to
 * libseccomp, rule by rule, for every target ABI.
 *
 * For each entry and name runc adds one libseccomp rule (or one per
 * comparison when two comparisons name the same argument: runc then ORs
 * them); it skips rules whose action is the default action and names
 * libseccomp does not know.  libseccomp resolves the name on each ABI
 * (skipping ABIs without it), compares only the low 32 bits of arguments
 * on 32-bit ABIs, and on ABIs with socketcall(2)/ipc(2) also adds the rule
 * to the multiplexer with argument 0 replaced by the sub-call number.
 * merge.c then orders the rules of each syscall as libseccomp decides.
 * With int_args_32, int parameters are compared over 32 bits on 64-bit
 * ABIs too (struct scg_oci_options): the one place the import leaves
 * libseccomp's verdicts, on request.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "libseccomp/high_numbers.h"
#include "util/grow.h"

struct inst_list {
	struct oci_inst *v;
	size_t n, cap;
};

static int inst_push(struct inst_list *l, const struct oci_inst *in)
{
	if (GROW_ARRAY(&l->v, &l->cap, l->n + 1, 256))
		return -ENOMEM;
	l->v[l->n++] = *in;
	return 0;
}

/*
 * The arguments of syscall @nr compared over their low 32 bits: all of them
 * on 32-bit ABIs (libseccomp), and with @int_args_32 those the kernel reads
 * as int on 64-bit ABIs.  A multiplexer rule is judged by the multiplexer's
 * own parameters (socketcall's call is an int).
 */
static unsigned low32_args(const struct scg_arch *arch, uint32_t nr, bool int_args_32)
{
	if (scg_arch_bits(arch) == 32)
		return 0x3f;
	const char *name = int_args_32 ? scg_syscall_name(arch, nr) : NULL;
	unsigned mask = 0;
	for (unsigned arg = 0; name && arg < 6; arg++)
		if (scg_syscall_arg_width(arch, name, arg) == 32)
			mask |= 1U << arg;
	return mask;
}

/* libseccomp keeps one comparison per argument, in argument order. */
static void set_cmps(struct oci_inst *in, const struct oci_cmp *cmps, size_t n)
{
	in->ncmps = 0;
	for (unsigned arg = 0; arg < 6; arg++)
		for (size_t i = 0; i < n; i++)
			if (cmps[i].index == arg)
				in->cmps[in->ncmps++] = cmps[i];
}

/* The rule libseccomp adds to socketcall(2) or ipc(2) for a multiplexed call. */
static int add_mux(struct inst_list *l, const struct scg_arch *arch, const struct oci_inst *base,
		   const struct oci_cmp *cmps, size_t n, bool int_args_32)
{
	bool ipc = false;
	unsigned call = oci_mux_call(base->name, &ipc);
	uint32_t nr;
	if (!call || !oci_arch_has_mux(arch) ||
	    scg_syscall_lookup(arch, ipc ? "ipc" : "socketcall", &nr) < 0)
		return 0;
	struct oci_cmp rewritten[7];
	size_t k = 0;
	rewritten[k++] = (struct oci_cmp){ 0, OCI_OP_EQ, call, 0 };
	for (size_t i = 0; i < n; i++)
		if (cmps[i].index != 0)
			rewritten[k++] = cmps[i];
	struct oci_inst in = *base;
	in.nr = nr;
	in.low32 = low32_args(arch, nr, int_args_32);
	set_cmps(&in, rewritten, k);
	return inst_push(l, &in);
}

/* One libseccomp rule (one seccomp_rule_add() call) on one ABI. */
static int add_rule(struct inst_list *l, const struct scg_arch *arch, const struct oci_inst *base,
		    const struct oci_cmp *cmps, size_t n, bool int_args_32)
{
	int r = add_mux(l, arch, base, cmps, n, int_args_32);
	uint32_t nr = 0;
	int found = r < 0 ? r : scg_syscall_lookup(arch, base->name, &nr);
	if (found < 0 && found != -ENOSYS)
		return r;
	struct oci_inst in = *base;
	in.pseudo = found == -ENOSYS;
	in.nr = in.pseudo ? UINT32_MAX : nr; /* after every real number */
	in.low32 = in.pseudo ? (scg_arch_bits(arch) == 32 ? 0x3f : 0) :
			       low32_args(arch, nr, int_args_32);
	set_cmps(&in, cmps, n);
	return inst_push(l, &in);
}

static bool index_repeated(const struct oci_entry *e)
{
	unsigned seen = 0;
	for (size_t i = 0; i < e->nargs; i++) {
		if (seen & (1U << e->args[i].index))
			return true;
		seen |= 1U << e->args[i].index;
	}
	return false;
}

static int collect(const struct oci_resolved *res, const struct scg_arch *arch,
		   bool int_args_32, struct inst_list *l)
{
	size_t seq = 0;
	for (size_t i = 0; i < res->nentries; i++) {
		const struct oci_entry *e = res->entries[i];
		uint32_t action = oci_action_ret(e->action, e->has_errno ? &e->errno_ret : NULL);
		if (action == res->default_ret)
			continue; /* runc: "this rule is redundant, silently skip it" */
		bool split = index_repeated(e);
		for (size_t k = 0; k < e->nnames; k++) {
			uint32_t nr;
			if (scg_syscall_lookup(arch, e->names[k], &nr) == -ENOENT)
				continue; /* no ABI knows it: runc skips it */
			struct oci_inst base = { .action = action, .entry = e, .name = e->names[k] };
			int r = 0;
			if (!split) {
				base.seq = seq++;
				r = add_rule(l, arch, &base, e->args, e->nargs, int_args_32);
			}
			for (size_t a = 0; split && r == 0 && a < e->nargs; a++) {
				base.seq = seq++;
				r = add_rule(l, arch, &base, &e->args[a], 1, int_args_32);
			}
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int by_nr_then_seq(const void *pa, const void *pb)
{
	const struct oci_inst *a = pa, *b = pb;
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_name_then_seq(const void *pa, const void *pb)
{
	const struct oci_inst *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The rules of names @arch lacks (at the end of the sorted list), checked name by name. */
static int check_pseudo(struct oci_doc *doc, const struct scg_arch *arch, struct oci_inst *v,
			size_t n)
{
	int r = 0;
	if (n)
		qsort(v, n, sizeof(*v), by_name_then_seq);
	for (size_t i = 0, j; r == 0 && i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[j].name, v[i].name); j++)
			;
		r = oci_merge_check(doc, arch, &v[i], j - i);
	}
	return r;
}

/* The first-match rules of one ABI, grouped by syscall number. */
static int abi_rules(struct oci_doc *doc, const struct oci_resolved *res,
		     const struct scg_arch *arch, bool int_args_32, struct oci_outrule **out,
		     size_t *nout)
{
	struct inst_list l = { 0 };
	size_t cap = 0;
	*out = NULL;
	*nout = 0;
	int r = collect(res, arch, int_args_32, &l);
	if (r == 0 && l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_nr_then_seq);
	size_t real = 0;
	while (real < l.n && !l.v[real].pseudo)
		real++;
	for (size_t i = 0; r == 0 && i < real;) {
		size_t j = i;
		while (j < real && l.v[j].nr == l.v[i].nr)
			j++;
		r = oci_merge_syscall(doc, arch, &l.v[i], j - i, out, nout, &cap);
		i = j;
	}
	if (r == 0 && real < l.n) /* l.v is NULL when no rule was listed */
		r = check_pseudo(doc, arch, &l.v[real], l.n - real);
	free(l.v);
	return r;
}

/* --- emitting policy rules ---------------------------------------------------- */

struct abi_out {
	const struct scg_arch *arch;
	struct oci_outrule *rules; /* sorted by number, each syscall's in merged order */
	size_t n;
	bool *done;
	size_t *rank; /* position of each rule among the rules of its syscall */
	size_t *next; /* at a syscall's first rule: its first rule not yet out, or past it */
};

/* Numbers the rules and points each syscall's cursor at its first rule. */
static int index_out(struct abi_out *o)
{
	size_t n = o->n ? o->n : 1;
	o->done = calloc(n, sizeof(*o->done));
	o->rank = calloc(n, sizeof(*o->rank));
	o->next = calloc(n, sizeof(*o->next));
	if (!o->done || !o->rank || !o->next)
		return -ENOMEM;
	for (size_t i = 0; i < o->n; i++) {
		o->rank[i] = i && o->rules[i - 1].nr == o->rules[i].nr ? o->rank[i - 1] + 1 : 0;
		if (!o->rank[i])
			o->next[i] = i;
	}
	return 0;
}

/*
 * The rule of ABI @o that could be the same as another ABI's rule of
 * syscall @name at position @rank among that syscall's rules: the syscall
 * has one run of rules here (they are sorted by number), and the rule at
 * that position of the run is the only candidate.  o->n when there is none.
 */
static size_t counterpart(const struct abi_out *o, const char *name, size_t rank)
{
	uint32_t nr;
	if (scg_syscall_lookup(o->arch, name, &nr) < 0)
		return o->n;
	size_t lo = 0, hi = o->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->rules[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo + rank >= o->n || o->rules[lo + rank].nr != nr)
		return o->n;
	return lo + rank;
}

static bool same_rule(const struct abi_out *a, size_t i, const struct abi_out *b, size_t j)
{
	const struct oci_outrule *x = &a->rules[i], *y = &b->rules[j];
	const char *nx = scg_syscall_name(a->arch, x->nr), *ny = scg_syscall_name(b->arch, y->nr);
	return nx && ny && !strcmp(nx, ny) && x->action == y->action && x->entry == y->entry &&
	       a->rank[i] == b->rank[j] && scg_expr_equal(x->cond, y->cond);
}

/* Does @name resolve on every target in @mask's complement?  Then @mask can be 0. */
static uint32_t arch_mask_for(struct scg_policy *p, const char *name, uint32_t mask)
{
	uint32_t resolvable = 0, nr;
	for (size_t i = 0; i < scg_policy_arch_count(p); i++) {
		const struct scg_arch *a = scg_policy_arch_at(p, i);
		if (scg_syscall_lookup(a, name, &nr) == 0)
			resolvable |= scg_arch_mask_bit(a);
	}
	return mask == resolvable ? 0 : mask;
}

/* Have the rules before @i of the same syscall gone out?  Only then may @i join a group. */
static bool earlier_done(const struct abi_out *o, size_t i)
{
	size_t *next = &o->next[i - o->rank[i]];
	while (*next < i && o->done[*next])
		++*next;
	return *next >= i;
}

/* Emits ABI @ai's rule @i together with the same rule on every other ABI. */
static int emit_group(struct scg_policy *p, struct abi_out *outs, size_t nouts, size_t ai,
		      size_t i)
{
	struct oci_outrule *r = &outs[ai].rules[i];
	const char *name = scg_syscall_name(outs[ai].arch, r->nr);
	uint32_t mask = 0;
	for (size_t b = 0; name && b < nouts; b++) {
		size_t j = counterpart(&outs[b], name, outs[ai].rank[i]);
		if (j == outs[b].n || outs[b].done[j] || !same_rule(&outs[ai], i, &outs[b], j) ||
		    !earlier_done(&outs[b], j))
			continue;
		outs[b].done[j] = true;
		mask |= scg_arch_mask_bit(outs[b].arch);
	}
	struct scg_rule_spec spec = {
		.action = r->action,
		.syscall = name,
		.arch_mask = arch_mask_for(p, name, mask),
		.cond = r->cond ? scg_expr_clone(r->cond) : NULL,
		.loc = r->entry->loc,
	};
	if (r->cond && !spec.cond)
		return -ENOMEM;
	return scg_policy_add_rule(p, &spec);
}

struct first_rule {
	size_t abi, index, seq;
};

static int by_seq(const void *pa, const void *pb)
{
	const struct first_rule *a = pa, *b = pb;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->abi < b->abi ? -1 : a->abi > b->abi;
}

/*
 * Rules go out in the order of the profile: each syscall where the first
 * of its rules stands, on the first ABI that has it.  The rules of one
 * syscall on one ABI keep their merged order, which is all first-match
 * needs; equal rules on several ABIs become one rule for all of them.
 */
static int emit(struct scg_policy *p, struct abi_out *outs, size_t nouts)
{
	size_t total = 0, n = 0;
	for (size_t a = 0; a < nouts; a++)
		total += outs[a].n;
	struct first_rule *order = calloc(total ? total : 1, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t a = 0; a < nouts; a++)
		for (size_t i = 0; i < outs[a].n; i++)
			if (!outs[a].rank[i])
				order[n++] = (struct first_rule){ a, i, outs[a].rules[i].seq };
	qsort(order, n, sizeof(*order), by_seq);
	int r = 0;
	for (size_t k = 0; r == 0 && k < n; k++) {
		struct abi_out *o = &outs[order[k].abi];
		uint32_t nr = o->rules[order[k].index].nr;
		for (size_t i = order[k].index; r == 0 && i < o->n && o->rules[i].nr == nr; i++)
			if (!o->done[i])
				r = emit_group(p, outs, nouts, order[k].abi, i);
	}
	free(order);
	return r;
}

static void release_outs(struct abi_out *outs, size_t n)
{
	for (size_t a = 0; a < n; a++) {
		for (size_t i = 0; i < outs[a].n; i++)
			scg_expr_free(outs[a].rules[i].cond);
		free(outs[a].rules);
		free(outs[a].done);
		free(outs[a].rank);
		free(outs[a].next);
	}
}

static int build_rules(struct oci_doc *doc, const struct oci_resolved *res, bool int_args_32,
		       struct scg_policy *p)
{
	struct abi_out outs[OCI_MAX_TARGETS] = { 0 };
	int r = 0;
	for (size_t a = 0; r == 0 && a < res->ntargets; a++) {
		outs[a].arch = res->targets[a];
		r = abi_rules(doc, res, outs[a].arch, int_args_32, &outs[a].rules, &outs[a].n);
		if (r == 0)
			r = index_out(&outs[a]);
	}
	if (r == 0)
		r = emit(p, outs, res->ntargets);
	release_outs(outs, res->ntargets);
	return r;
}

/*
 * libseccomp's verdict for x86_64 numbers with bit 31 set, in a filter
 * without x32 (<syscage/policy.h>).  runc's stub, when it covers x86_64,
 * answers them ENOSYS before libseccomp's filter sees them, as the
 * `unknown` verdict already does.
 */
static int add_high_numbers(const struct oci_resolved *res, const struct oci_stub_plan *plan,
			    struct scg_policy *p)
{
	for (size_t t = 0; t < res->ntargets; t++)
		if (!strcmp(scg_arch_name(res->targets[t]), "x86_64") && plan->on[t])
			return 0;
	return libseccomp_high_add(p);
}
/* Where the settings come from: "defaultAction", and "architectures" for other ABIs. */
static int setting_locs(const struct oci_profile *prof, struct scg_policy *p)
{
	int r = 0;
	if (prof->default_loc.line)
		r = scg_policy_set_setting_loc(p, SCG_SETTING_DEFAULT, prof->default_loc);
	const struct scg_loc *arches = prof->arches_loc.line ? &prof->arches_loc : &prof->default_loc;
	if (r == 0 && arches->line)
		r = scg_policy_set_setting_loc(p, SCG_SETTING_BADARCH, *arches);
	return r;
}


int oci_build(struct oci_doc *doc, const struct oci_resolved *res,
	      const struct scg_oci_options *opts, struct scg_policy **out)
{
	struct scg_policy *p = scg_policy_new();
	int r = p ? 0 : -ENOMEM;
	for (size_t a = 0; r == 0 && a < res->ntargets; a++)
		r = scg_policy_add_arch(p, res->targets[a]);
	if (r == 0 && res->disabled) {
		scg_diag_add(doc->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-disabled", NULL,
			     "no defaultAction and no syscalls: Docker and runc install no "
			     "filter, so everything is allowed");
		scg_policy_set_default(p, SCG_RET_ALLOW);
		scg_policy_set_badarch(p, SCG_RET_ALLOW);
		*out = p;
		return 0;
	}
	struct oci_stub_plan plan;
	oci_stub_plan(res, opts, &plan);
	if (r == 0) {
		scg_policy_set_default(p, res->default_ret);
		/* libseccomp's bad-architecture action, which runc keeps: SCMP_ACT_KILL */
		scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
		r = setting_locs(res->profile, p);
		if (r == 0)
			r = oci_stub_front(res, &plan, p);
	}
	if (r == 0)
		r = build_rules(doc, res, opts->int_args_32, p);
	if (r == 0)
		r = oci_stub_back(doc, res, &plan, p);
	if (r == 0)
		r = add_high_numbers(res, &plan, p);
	if (r < 0) {
		scg_policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}
