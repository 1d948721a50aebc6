/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_oci_export(): a policy as an OCI linux.seccomp object.
 *
 * Besides the entries (export_plan.c, export_entries.c) two things need
 * care, both because of runc.  runc puts its ENOSYS stub in front of the
 * filter: every syscall number above the highest one the profile names
 * (per architecture) gets ENOSYS.  When the policy gives unknown syscalls
 * ENOSYS, syscalls it answers with ENOSYS anyway and that lie above that
 * mark are left to the stub; otherwise the mark is raised by naming a
 * syscall with the default action (runc skips such rules but counts their
 * names).  And OCI has no bad-architecture action: runc keeps libseccomp's
 * KILL_THREAD.  Whatever cannot be matched exactly is reported as a warning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export_internal.h"
#include "libseccomp/rule_tree.h"
#include "util/grow.h"

#define ENOSYS_RET (SCG_RET_ERRNO | 38U)

/* --- actions ------------------------------------------------------------------- */

struct oci_act {
	const char *name;
	bool has_errno;
	uint32_t errno_ret;
};

static bool act_of(uint32_t ret, struct oci_act *out)
{
	uint32_t data = ret & SCG_RET_DATA;
	*out = (struct oci_act){ NULL, false, 0 };
	switch (scg_action_of(ret)) {
	case SCG_ACTION_ALLOW:
		out->name = "SCMP_ACT_ALLOW";
		break;
	case SCG_ACTION_LOG:
		out->name = "SCMP_ACT_LOG";
		break;
	case SCG_ACTION_KILL_PROCESS:
		out->name = "SCMP_ACT_KILL_PROCESS";
		break;
	case SCG_ACTION_KILL_THREAD:
		out->name = "SCMP_ACT_KILL_THREAD";
		break;
	case SCG_ACTION_TRAP:
		out->name = data ? NULL : "SCMP_ACT_TRAP"; /* libseccomp's TRAP has no data */
		break;
	case SCG_ACTION_ERRNO:
		*out = (struct oci_act){ "SCMP_ACT_ERRNO", true, data };
		break;
	case SCG_ACTION_TRACE:
		*out = (struct oci_act){ "SCMP_ACT_TRACE", true, data };
		break;
	case SCG_ACTION_USER_NOTIF:
		out->name = "SCMP_ACT_NOTIFY";
		break;
	case SCG_ACTION_UNKNOWN:
		break;
	}
	return out->name != NULL;
}

static bool check_action(struct oci_export *x, uint32_t ret, struct scg_loc loc, bool is_default)
{
	struct oci_act a;
	char text[48];
	scg_ret_format(ret, text, sizeof(text));
	if (!act_of(ret, &a)) {
		oci_export_error(x, loc, "use TRAP without data, or another action",
				 "OCI has no action for %s", text);
		return false;
	}
	/* libseccomp's db_action_valid(): SCMP_ACT_ERRNO(n) with n >= MAX_ERRNO is -EINVAL */
	if (scg_action_of(ret) == SCG_ACTION_ERRNO && (ret & SCG_RET_DATA) >= SCG_MAX_ERRNO) {
		oci_export_error(x, loc, "use an errno below 4095",
				 "libseccomp refuses %s (errno 4095 and above), so runc could not "
				 "load the profile",
				 text);
		return false;
	}
	if (scg_action_of(ret) == SCG_ACTION_USER_NOTIF && is_default) {
		oci_export_error(x, loc, NULL, "runc refuses SCMP_ACT_NOTIFY as the default action");
		return false;
	}
	return true;
}

/* Whether rule @r is about write(2) on one of the policy's ABIs. */
static bool rule_names_write(const struct scg_policy *p, const struct scg_rule *r)
{
	if (r->syscall)
		return !strcmp(r->syscall, "write");
	for (size_t t = 0; t < scg_policy_arch_count(p); t++) {
		uint32_t nr;
		if (scg_syscall_lookup(scg_policy_arch_at(p, t), "write", &nr) == 0 &&
		    nr >= r->number && nr <= r->number_last)
			return true;
	}
	return false;
}

static int check_actions(struct oci_export *x)
{
	const struct scg_policy *p = x->policy;
	bool notify_warned = false;
	if (!check_action(x, scg_policy_default(p), SCG_LOC_NONE, true))
		return x->error;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		if (!check_action(x, r.action, r.loc, false))
			return x->error;
		if (scg_action_of(r.action) == SCG_ACTION_USER_NOTIF && rule_names_write(p, &r)) {
			oci_export_error(x, r.loc, "give write(2) another action",
					 "runc refuses SCMP_ACT_NOTIFY for write(2)");
			return x->error;
		}
		if (scg_action_of(r.action) == SCG_ACTION_USER_NOTIF && !notify_warned) {
			notify_warned = true;
			scg_diag_add(x->diag, SCG_SEV_WARNING, r.loc, "oci-notify", NULL,
				     "runc needs a listenerPath for SCMP_ACT_NOTIFY and refuses it for "
				     "write(2)");
		}
	}
	if (scg_policy_badarch(p) != SCG_RET_KILL_THREAD) {
		char text[48];
		scg_ret_format(scg_policy_badarch(p), text, sizeof(text));
		scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-badarch", NULL,
			     "OCI has no bad-architecture action: calls from other ABIs get "
			     "libseccomp's KILL_THREAD under runc, not %s",
			     text);
	}
	return 0;
}

/* --- runc's ENOSYS stub ------------------------------------------------------- */

struct stub_names {
	const char **v; /* named only to move the stub's mark: exported with the default action */
	size_t n;
	bool *exported; /* per x->names: has entries somewhere, or must be listed */
};

static bool counts_for_stub(const struct scg_arch *arch, const char *name)
{
	bool ipc;
	return !(oci_arch_has_mux(arch) && oci_mux_call(name, &ipc));
}

static uint32_t stub_mark(const struct oci_export *x, const struct stub_names *sn,
			  const struct scg_arch *arch)
{
	uint32_t max = 0, nr;
	for (size_t i = 0; i < x->nnames; i++)
		if (sn->exported[i] && counts_for_stub(arch, x->names[i]) &&
		    scg_syscall_lookup(arch, x->names[i], &nr) == 0 && nr > max)
			max = nr;
	for (size_t i = 0; i < sn->n; i++)
		if (counts_for_stub(arch, sn->v[i]) && scg_syscall_lookup(arch, sn->v[i], &nr) == 0 &&
		    nr > max)
			max = nr;
	return max;
}

static bool candidate(struct oci_abi_plan *abi, uint32_t nr, bool enosys_unknown)
{
	return enosys_unknown && oci_decision_is_enosys(oci_export_find(abi, nr));
}

/* The highest syscall on @abi the stub must not cover (0: none). */
static uint32_t stub_need(struct oci_abi_plan *abi, bool enosys_unknown)
{
	for (size_t i = scg_syscall_count(abi->arch); i-- > 0;) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(abi->arch, i, &name, &nr) == 0 &&
		    !candidate(abi, nr, enosys_unknown))
			return nr;
	}
	return 0;
}

static size_t name_index(const struct oci_export *x, const char *name)
{
	for (size_t i = 0; i < x->nnames; i++)
		if (!strcmp(x->names[i], name))
			return i;
	return (size_t)-1;
}

/* Lists @name: exported if it has rules, otherwise named with the default action. */
static int list_name(struct oci_export *x, struct stub_names *sn, const char *name, bool *changed)
{
	size_t i = name_index(x, name);
	if (i != (size_t)-1) {
		*changed |= !sn->exported[i];
		sn->exported[i] = true;
		return 0;
	}
	for (size_t k = 0; k < sn->n; k++)
		if (!strcmp(sn->v[k], name))
			return 0;
	if (RESIZE_ARRAY(&sn->v, sn->n + 1))
		return -ENOMEM;
	sn->v[sn->n++] = name;
	*changed = true;
	return 0;
}

/* Raises @abi's mark to @need with the first syscall at or above it that counts. */
static int raise_mark(struct oci_export *x, struct stub_names *sn, struct oci_abi_plan *abi,
		      uint32_t need, bool *changed)
{
	for (size_t i = 0; i < scg_syscall_count(abi->arch); i++) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(abi->arch, i, &name, &nr) == 0 && nr >= need &&
		    counts_for_stub(abi->arch, name))
			return list_name(x, sn, name, changed);
	}
	scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-enosys", NULL,
		     "on %s, runc's ENOSYS stub will cover syscall %u and above, which this policy "
		     "answers otherwise",
		     scg_arch_name(abi->arch), need);
	return 0;
}

static int settle_marks(struct oci_export *x, struct stub_names *sn, bool enosys_unknown)
{
	bool changed = true;
	int r = 0;
	for (size_t round = 0; changed && r == 0 && round < 64; round++) {
		changed = false;
		for (size_t t = 0; r == 0 && t < x->nabis; t++) {
			struct oci_abi_plan *abi = &x->abis[t];
			uint32_t mark = stub_mark(x, sn, abi->arch), need = stub_need(abi, enosys_unknown);
			if (need > mark)
				r = raise_mark(x, sn, abi, need, &changed);
			/* ENOSYS syscalls below the mark must be listed to keep their ENOSYS */
			for (size_t i = 0; r == 0 && enosys_unknown && i < abi->n; i++)
				if (abi->d[i].nr <= mark && candidate(abi, abi->d[i].nr, true))
					r = list_name(x, sn, scg_syscall_name(abi->arch, abi->d[i].nr),
						      &changed);
		}
	}
	return r;
}

/* Above the mark the stub decides: those decisions are not exported. */
static int drop_covered(struct oci_export *x, const struct stub_names *sn)
{
	for (size_t t = 0; t < x->nabis; t++) {
		struct oci_abi_plan *abi = &x->abis[t];
		uint32_t mark = stub_mark(x, sn, abi->arch);
		for (size_t i = 0; i < abi->n; i++)
			abi->d[i].dropped = abi->d[i].nr > mark;
	}
	return 0;
}

struct span {
	uint32_t lo, hi;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * Numbers no syscall has, up to @mark, that the policy leaves to its
 * unknown verdict (ENOSYS) instead of naming them with a numbered rule.
 * Counted by ranges, not number by number: on arm the mark can be near
 * 0xf0000 (the private syscalls).
 */
static size_t unknown_gaps(const struct oci_export *x, const struct scg_arch *arch, uint32_t mark)
{
	uint32_t first = 0;
	size_t nrules = scg_policy_rule_count(x->policy), n = 0;
	if (scg_syscall_at(arch, 0, NULL, &first) < 0 || mark < first)
		return 0;
	struct span *spans = calloc(nrules ? nrules : 1, sizeof(*spans));
	if (!spans)
		return 0;
	for (size_t i = 0; i < nrules; i++) {
		struct scg_rule r;
		uint32_t lo, hi;
		if (scg_policy_rule_at(x->policy, i, &r) < 0 || !r.has_number ||
		    scg_policy_rule_range(x->policy, i, arch, &lo, &hi) < 0 || hi < first ||
		    lo > mark)
			continue;
		spans[n++] = (struct span){ lo < first ? first : lo, hi > mark ? mark : hi };
	}
	qsort(spans, n, sizeof(*spans), span_cmp);
	/* every unknown number up to the mark, less those the rules' merged spans name */
	uint64_t gaps = (uint64_t)mark - first + 1 - oci_syscalls_between(arch, first, mark);
	for (size_t i = 0; i < n;) {
		uint32_t lo = spans[i].lo, hi = spans[i].hi;
		for (i++; i < n && spans[i].lo <= (uint64_t)hi + 1; i++)
			hi = spans[i].hi > hi ? spans[i].hi : hi;
		gaps -= (uint64_t)hi - lo + 1 - oci_syscalls_between(arch, lo, hi);
	}
	free(spans);
	return (size_t)gaps;
}

static void warn_stub_gaps(struct oci_export *x, const struct stub_names *sn, bool enosys_unknown)
{
	for (size_t t = 0; t < x->nabis; t++) {
		const struct scg_arch *arch = x->abis[t].arch;
		uint32_t mark = stub_mark(x, sn, arch);
		if (!enosys_unknown) {
			scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-enosys", NULL,
				     "runc's ENOSYS stub answers syscall numbers above %u on %s "
				     "with ENOSYS; this policy gives them its default action",
				     mark, scg_arch_name(arch));
			continue;
		}
		size_t gaps = unknown_gaps(x, arch, mark);
		if (gaps)
			scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-enosys", NULL,
				     "on %s, %zu numbers no syscall uses lie below %u: this policy "
				     "gives them ENOSYS, runc its default action",
				     scg_arch_name(arch), gaps, mark);
	}
}

static bool permissive(uint32_t ret)
{
	enum scg_action a = scg_action_of(ret);
	return a == SCG_ACTION_ALLOW || a == SCG_ACTION_LOG || a == SCG_ACTION_TRACE;
}

static int place_stub(struct oci_export *x, struct stub_names *sn)
{
	uint32_t unknown;
	bool has_unknown = scg_policy_unknown(x->policy, &unknown);
	if (permissive(scg_policy_default(x->policy))) {
		if (has_unknown)
			scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-unknown", NULL,
				     "OCI cannot give unknown syscall numbers their own verdict "
				     "(runc adds no ENOSYS stub with a permissive default)");
		return 0;
	}
	bool enosys_unknown = has_unknown && unknown == ENOSYS_RET;
	if (has_unknown && !enosys_unknown)
		scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-unknown", NULL,
			     "OCI cannot give unknown syscall numbers their own verdict; runc "
			     "answers those above the newest named syscall with ENOSYS");
	/* at first only syscalls with entries the stub cannot stand in for are listed */
	for (size_t i = 0; i < x->nnames; i++) {
		sn->exported[i] = false;
		for (size_t t = 0; t < x->nabis; t++) {
			uint32_t nr;
			struct oci_decision *d;
			if (scg_syscall_lookup(x->abis[t].arch, x->names[i], &nr) == 0 &&
			    (d = oci_export_find(&x->abis[t], nr)) && d->n &&
			    !candidate(&x->abis[t], nr, enosys_unknown))
				sn->exported[i] = true;
		}
	}
	int r = settle_marks(x, sn, enosys_unknown);
	if (r == 0)
		r = drop_covered(x, sn);
	if (r == 0)
		warn_stub_gaps(x, sn, enosys_unknown);
	return r;
}

/* --- JSON ------------------------------------------------------------------------ */

struct group {
	struct oci_xentry entry;
	struct json_object *names;
	const char *comment; /* Docker's "comment" member, which runc ignores */
};

struct groups {
	struct group *v;
	size_t n, cap;
};

static bool same_entry(const struct oci_xentry *a, const struct oci_xentry *b)
{
	if (a->action != b->action || a->nargs != b->nargs)
		return false;
	for (size_t i = 0; i < a->nargs; i++)
		if (a->args[i].index != b->args[i].index || a->args[i].op != b->args[i].op ||
		    a->args[i].value != b->args[i].value || a->args[i].value_two != b->args[i].value_two)
			return false;
	return true;
}

/* Entries that differ only in their syscall become one entry with several names. */
static int group_add(struct groups *g, const struct oci_xentry *e, const char *name)
{
	size_t i = 0;
	while (i < g->n && !same_entry(&g->v[i].entry, e))
		i++;
	if (i == g->n) {
		if (GROW_ARRAY(&g->v, &g->cap, g->n + 1, 16))
			return -ENOMEM;
		g->v[i] = (struct group){ *e, json_object_new_array(), NULL };
		if (!g->v[i].names)
			return -ENOMEM;
		g->n++;
	}
	return json_object_array_add(g->v[i].names, json_object_new_string(name)) ? -ENOMEM : 0;
}

static void add_action(struct json_object *obj, const char *key, const char *errno_key,
		       uint32_t ret)
{
	struct oci_act a;
	act_of(ret, &a);
	json_object_object_add(obj, key, json_object_new_string(a.name));
	if (a.has_errno)
		json_object_object_add(obj, errno_key, json_object_new_uint64(a.errno_ret));
}

static struct json_object *entry_json(struct group *g)
{
	struct json_object *e = json_object_new_object();
	json_object_object_add(e, "names", g->names);
	g->names = NULL;
	add_action(e, "action", "errnoRet", g->entry.action);
	if (g->comment)
		json_object_object_add(e, "comment", json_object_new_string(g->comment));
	if (!g->entry.nargs)
		return e;
	struct json_object *args = json_object_new_array();
	for (size_t i = 0; i < g->entry.nargs; i++) {
		const struct oci_cmp *c = &g->entry.args[i];
		struct json_object *a = json_object_new_object();
		json_object_object_add(a, "index", json_object_new_uint64(c->index));
		json_object_object_add(a, "value", json_object_new_uint64(c->value));
		json_object_object_add(a, "valueTwo", json_object_new_uint64(c->value_two));
		json_object_object_add(a, "op", json_object_new_string(oci_op_name(c->op)));
		json_object_array_add(args, a);
	}
	json_object_object_add(e, "args", args);
	return e;
}

/* Does @abi give every call of @mux one action other than the default, whatever its arguments? */
static bool mux_settled(struct oci_export *x, struct oci_abi_plan *abi, const char *mux)
{
	uint32_t nr;
	struct oci_decision *d;
	if (scg_syscall_lookup(abi->arch, mux, &nr) < 0 || !(d = oci_export_find(abi, nr)) ||
	    d->n != 1 || d->regions[0].n != 1)
		return false;
	for (int a = 0; a < 6; a++)
		if (d->regions[0].boxes[0].args[a] && !oci_vset_is_all(d->regions[0].boxes[0].args[a]))
			return false;
	(void)x;
	return true;
}

/*
 * libseccomp also adds every rule for a multiplexed call (socket, semop...)
 * to socketcall(2) or ipc(2), with argument 0 replaced: harmless when the
 * policy decides the multiplexer for every argument anyway.
 */
static void warn_mux(struct oci_export *x, const bool *listed_mux)
{
	static const char *const muxes[2] = { "socketcall", "ipc" };
	for (size_t t = 0; t < x->nabis; t++) {
		if (!oci_arch_has_mux(x->abis[t].arch))
			continue;
		for (int m = 0; m < 2; m++)
			if (listed_mux[m] && !mux_settled(x, &x->abis[t], muxes[m]))
				scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-mux",
					     "give the multiplexer one verdict for all arguments",
					     "on %s, runc and libseccomp also apply the rules for calls "
					     "%s(2) multiplexes to %s itself, with argument 0 replaced "
					     "by the call number",
					     scg_arch_name(x->abis[t].arch), muxes[m], muxes[m]);
	}
}

/* @patterns: per name, whether its 64-bit sets are written as bit patterns. */
static int collect_entries(struct oci_export *x, const struct stub_names *sn, const bool *patterns,
			   struct groups *g)
{
	bool listed_mux[2] = { false, false };
	for (size_t i = 0; i < x->nnames; i++) {
		struct oci_xlist l = { 0 };
		bool ipc;
		int r = oci_export_entries(x, x->names[i], patterns[i], &l);
		for (size_t k = 0; r == 0 && k < l.n; k++)
			r = group_add(g, &l.v[k], x->names[i]);
		if (r == 0 && l.n && oci_mux_call(x->names[i], &ipc))
			listed_mux[ipc] = true;
		oci_xlist_release(&l);
		if (r < 0)
			return r;
	}
	warn_mux(x, listed_mux);
	struct oci_xentry named = { .action = scg_policy_default(x->policy) };
	for (size_t i = 0; i < sn->n; i++) {
		int r = group_add(g, &named, sn->v[i]);
		if (r < 0)
			return r;
		g->v[g->n - 1].comment = "the default action: named only so that runc's ENOSYS "
					 "stub starts above these syscalls";
	}
	return 0;
}

/* --- what libseccomp makes of the entries ------------------------------------- */

static bool group_names(const struct group *gr, const char *name)
{
	for (size_t k = 0; k < json_object_array_length(gr->names); k++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(gr->names, k)), name))
			return true;
	return false;
}

/*
 * libseccomp's answer to the entries that name @name, in the file's order,
 * on a 64-bit ABI (lib/libseccomp/rule_tree.h): 0, -EEXIST (refused) or
 * -ELOOP (libseccomp 2.5 never returns).  A 64-bit range is tested a word
 * at a time, and the high word's two outcomes can lead to one node: that is
 * where libseccomp loops.  32-bit ABIs test one word per argument.
 */
static int libseccomp_merge(const struct groups *g, const char *name)
{
	struct libseccomp_tree *tree = libseccomp_tree_new(64);
	int r = tree ? 0 : -ENOMEM;
	for (size_t i = 0; r == 0 && i < g->n; i++) {
		const struct oci_xentry *e = &g->v[i].entry;
		if (e->nargs == 0 || !group_names(&g->v[i], name))
			continue;
		struct libseccomp_rule lr = oci_libseccomp_rule(e->action, e->args, e->nargs);
		r = libseccomp_tree_add(tree, &lr);
	}
	libseccomp_tree_free(tree);
	return r;
}

static bool has_64bit_target(const struct oci_export *x)
{
	for (size_t t = 0; t < x->nabis; t++)
		if (scg_arch_bits(x->abis[t].arch) == 64)
			return true;
	return false;
}

/*
 * Marks in @patterns the names whose entries libseccomp would refuse or
 * never finish adding, so that they are written again as bit patterns;
 * *@again tells whether any was.  Reports the names that fail as patterns
 * too.
 */
static int check_libseccomp(struct oci_export *x, const struct groups *g, bool *patterns,
			    bool *again)
{
	*again = false;
	if (!has_64bit_target(x))
		return 0;
	for (size_t i = 0; i < x->nnames && x->error == 0; i++) {
		int r = libseccomp_merge(g, x->names[i]);
		if (r == -ENOMEM)
			return r;
		if (r == 0)
			continue;
		if (!patterns[i]) {
			patterns[i] = *again = true;
			continue;
		}
		oci_export_error(x, SCG_LOC_NONE, "give the syscall's rules disjoint conditions",
				 "libseccomp would %s the entries for '%s', however they are written",
				 r == -ELOOP ? "never finish adding" : "refuse (EEXIST)", x->names[i]);
	}
	return x->error;
}

static void groups_release(struct groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		json_object_put(g->v[i].names);
	free(g->v);
	*g = (struct groups){ 0 };
}

/* The entries, written again as bit patterns for names libseccomp would not take as ranges. */
static int settle_entries(struct oci_export *x, const struct stub_names *sn, struct groups *g)
{
	bool *patterns = calloc(x->nnames ? x->nnames : 1, sizeof(bool));
	if (!patterns)
		return -ENOMEM;
	bool again = true;
	int r = 0;
	/* a name written again can regroup the others: each pass marks more names, or ends */
	for (int pass = 0; r == 0 && again && pass < 3; pass++) {
		groups_release(g);
		r = collect_entries(x, sn, patterns, g);
		if (r == 0)
			r = check_libseccomp(x, g, patterns, &again);
	}
	if (r == 0 && again)
		oci_export_error(x, SCG_LOC_NONE, "give the syscalls' rules disjoint conditions",
				 "libseccomp would refuse or never finish adding the entries, "
				 "however they are written");
	free(patterns);
	return r ? r : x->error;
}

static int write_json(struct oci_export *x, struct groups *g, char **out)
{
	struct json_object *root = json_object_new_object(), *arches = json_object_new_array(),
			   *calls = json_object_new_array();
	if (!root || !arches || !calls) {
		json_object_put(root);
		json_object_put(arches);
		json_object_put(calls);
		return -ENOMEM;
	}
	add_action(root, "defaultAction", "defaultErrnoRet", scg_policy_default(x->policy));
	for (size_t t = 0; t < x->nabis; t++)
		json_object_array_add(arches,
				      json_object_new_string(oci_arch_scmp_name(x->abis[t].arch)));
	json_object_object_add(root, "architectures", arches);
	for (size_t i = 0; i < g->n; i++)
		json_object_array_add(calls, entry_json(&g->v[i]));
	json_object_object_add(root, "syscalls", calls);
	const char *text = json_object_to_json_string_ext(
		root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t len = text ? strlen(text) : 0;
	char *copy = text ? malloc(len + 2) : NULL;
	if (copy) {
		memcpy(copy, text, len);
		copy[len] = '\n';
		copy[len + 1] = '\0';
	}
	json_object_put(root);
	if (!copy)
		return -ENOMEM;
	*out = copy;
	return 0;
}

/*
 * libseccomp filters its native ABI besides the listed ones, and refuses
 * ABIs of the other byte order: a profile of both orders loads nowhere,
 * one of big-endian ABIs only on a big-endian machine.
 */
static int check_byte_order(struct oci_export *x)
{
	size_t n = scg_policy_arch_count(x->policy), big = 0;
	for (size_t t = 0; t < n; t++)
		big += scg_arch_big_endian(scg_policy_arch_at(x->policy, t));
	if (big && big < n)
		oci_export_error(x, SCG_LOC_NONE, "export the ABIs of each byte order on their own",
				 "the policy's ABIs differ in byte order: libseccomp cannot filter "
				 "both, so runc would fail on every machine");
	else if (big)
		scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-byte-order", NULL,
			     "runc can load this profile only on a big-endian machine: libseccomp "
			     "also filters the machine's own ABI and refuses to mix byte orders");
	return x->error;
}

/* The machine's own ABI gets the profile's rules, not the bad-architecture action. */
static void check_native(struct oci_export *x)
{
	const struct scg_policy *p = x->policy;
	const struct scg_arch *native = scg_arch_native();
	for (size_t t = 0; t < scg_policy_arch_count(p); t++)
		if (scg_policy_arch_at(p, t) == native)
			return;
	if (scg_policy_badarch(p) != scg_policy_default(p))
		scg_diag_add(x->diag, SCG_SEV_WARNING, SCG_LOC_NONE, "oci-native", NULL,
			     "on a machine whose own ABI the policy does not name (as %s here), "
			     "libseccomp filters that ABI too: its calls get the profile's rules "
			     "and default action, not the bad-architecture action",
			     scg_arch_name(native));
}

static int check_targets(struct oci_export *x)
{
	size_t n = scg_policy_arch_count(x->policy);
	if (!n)
		oci_export_error(x, SCG_LOC_NONE, "add an architecture", "the policy has no target ABI");
	if (n > sizeof(x->abis) / sizeof(x->abis[0]))
		oci_export_error(x, SCG_LOC_NONE, NULL, "too many target ABIs");
	for (size_t t = 0; !x->error && t < n; t++) {
		const struct scg_arch *a = scg_policy_arch_at(x->policy, t);
		if (!oci_arch_scmp_name(a))
			oci_export_error(x, SCG_LOC_NONE, NULL, "OCI has no name for the ABI %s",
					 scg_arch_name(a));
	}
	if (!x->error)
		check_native(x);
	return x->error ? x->error : check_byte_order(x);
}

int scg_oci_export(const struct scg_policy *policy, char **json, struct scg_diag *diag)
{
	struct oci_export x = { .policy = policy, .diag = diag, .budget = OCI_SET_BUDGET };
	struct stub_names sn = { 0 };
	struct groups g = { 0 };
	int r = check_targets(&x);
	if (r == 0)
		r = check_actions(&x);
	if (r == 0)
		r = oci_export_plan(&x);
	if (r == 0 && !(sn.exported = calloc(x.nnames ? x.nnames : 1, sizeof(bool))))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < x.nnames; i++)
		sn.exported[i] = true;
	if (r == 0)
		r = place_stub(&x, &sn);
	if (r == 0)
		r = settle_entries(&x, &sn, &g);
	if (r == 0)
		r = write_json(&x, &g, json);
	groups_release(&g);
	free(sn.v);
	free(sn.exported);
	oci_export_release(&x);
	if (r == -E2BIG) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "oci-export",
			     "simplify the argument conditions",
			     "the policy's conditions need more than %d OCI entries per syscall, "
			     "or more work than an export may take",
			     OCI_SET_LIMIT);
		r = -EINVAL;
	}
	return r;
}
