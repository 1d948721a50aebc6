/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies as systemd unit settings: SystemCallFilter=,
 * SystemCallErrorNumber= and SystemCallArchitectures=.  The policy is read
 * by its meaning, name by name on each target ABI (the reference
 * evaluator's verdict for the number systemd's libseccomp gives the name),
 * so an imported unit exports as well as a policy written by hand; what
 * those directives cannot say (conditions on arguments, verdicts that
 * differ between ABIs, actions other than allow, errno and kill, calls
 * libseccomp has no name for) is refused with the rule that says it.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>

#include "import/systemd.h"
#include "libseccomp/high_numbers.h"
#include "util/strbuf.h"

struct exporter {
	const struct scg_policy *p;
	struct scg_diag *diag;
	const struct scg_arch *abis[3]; /* x86_64, x86, x32 */
	bool target[3];
	uint32_t dflt;
	int err;
};

static void refuse(struct exporter *x, const struct scg_rule *rule, const char *hint,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void refuse(struct exporter *x, const struct scg_rule *rule, const char *hint,
		   const char *fmt, ...)
{
	if (!x->err)
		x->err = -EINVAL;
	struct scg_loc loc = rule ? rule->loc : SCG_LOC_NONE;
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(x->diag, SCG_SEV_ERROR, loc, "systemd-export", hint, fmt, ap);
	va_end(ap);
}

/* The rule that decides @nr on @abi when it has a condition on arguments, or none. */
static bool conditional_rule(const struct exporter *x, const struct scg_arch *abi, uint32_t nr,
			     struct scg_rule *out)
{
	for (size_t i = 0; i < scg_policy_rule_count(x->p); i++) {
		uint32_t first, last;
		if (scg_policy_rule_range(x->p, i, abi, &first, &last) < 0 || nr < first ||
		    nr > last)
			continue;
		scg_policy_rule_at(x->p, i, out);
		if (out->cond)
			return true;
		return false; /* an unconditional rule decides first */
	}
	return false;
}

static uint32_t verdict(const struct exporter *x, const struct scg_arch *abi, uint32_t nr,
			struct scg_rule *rule, bool *has_rule)
{
	struct scg_seccomp_data d = {.nr = nr, .arch = scg_arch_audit(abi)};
	struct scg_verdict v;
	scg_policy_eval(x->p, &d, &v);
	*has_rule = v.source == SCG_VERDICT_RULE;
	if (*has_rule)
		scg_policy_rule_at(x->p, v.rule, rule);
	return v.action;
}

/* @name's verdict on every target ABI that has it; false when it has none there. */
static bool name_verdict(struct exporter *x, const struct sd_name *n, uint32_t *out)
{
	bool any = false;
	for (size_t a = 0; a < 3 && !x->err; a++) {
		uint32_t nr;
		if (!x->target[a] || sd_resolve(x->abis[a], sd_name_text(n), &nr) < 0)
			continue;
		struct scg_rule rule;
		bool has_rule;
		if (conditional_rule(x, x->abis[a], nr, &rule)) {
			refuse(x, &rule, "SystemCallFilter= cannot look at arguments",
			       "the rule for '%s' has a condition on arguments", sd_name_text(n));
			return false;
		}
		uint32_t v = verdict(x, x->abis[a], nr, &rule, &has_rule);
		if (any && v != *out) {
			refuse(x, has_rule ? &rule : NULL,
			       "systemd gives a name one verdict on every ABI",
			       "'%s' gets different verdicts on different ABIs", sd_name_text(n));
			return false;
		}
		*out = v;
		any = true;
	}
	return any;
}

/* Appends an entry, continuing the line with a backslash past 76 columns. */
static void put_entry(struct strbuf *sb, size_t *col, size_t *count, const char *name,
		      const char *suffix)
{
	size_t n = strlen(name) + strlen(suffix) + 1;
	if (*count && *col + n > 76) {
		strbuf_append(sb, " \\\n ");
		*col = 1;
	}
	strbuf_appendf(sb, "%s%s%s", *count && *col > 1 ? " " : "", name, suffix);
	*col += n;
	++*count;
}

/* A deny list (default allow) or an allow list (default errno or kill) of every name. */
static void write_filter(struct exporter *x, struct strbuf *sb)
{
	bool allow_mode = scg_action_of(x->dflt) != SCG_ACTION_ALLOW;
	strbuf_append(sb, allow_mode ? "SystemCallFilter=" : "SystemCallFilter=~");
	size_t col = 17, count = 0;
	const struct sd_group *dflt_group = sd_group_find("default");
	for (size_t i = 0; i < sd_name_count && !x->err; i++) {
		uint32_t v;
		if (!name_verdict(x, &sd_names[i], &v) || v == x->dflt)
			continue;
		enum scg_action act = scg_action_of(v);
		char suffix[32] = "";
		if (allow_mode && act != SCG_ACTION_ALLOW) {
			refuse(x, NULL,
			       "an allow list gives every other call SystemCallErrorNumber=",
			       "'%s' gets a verdict that is neither allow nor the default",
			       sd_name_text(&sd_names[i]));
			break;
		}
		const char *ename = scg_errno_name(x->abis[0], v & SCG_RET_DATA);
		if (!allow_mode && act == SCG_ACTION_ERRNO && ename)
			snprintf(suffix, sizeof(suffix), ":%s", ename);
		else if (!allow_mode && act == SCG_ACTION_ERRNO)
			snprintf(suffix, sizeof(suffix), ":%u", v & SCG_RET_DATA);
		else if (!allow_mode && act == SCG_ACTION_KILL_PROCESS)
			snprintf(suffix, sizeof(suffix), ":kill");
		else if (!allow_mode) {
			refuse(x, NULL, "systemd's lists say errno or kill",
			       "'%s' gets an action systemd cannot give it",
			       sd_name_text(&sd_names[i]));
			break;
		}
		/* @default is in every allow list already */
		bool implied = false;
		for (size_t m = 0; allow_mode && m < dflt_group->count && !implied; m++)
			implied =
			    !strcmp(sd_group_member(dflt_group, m), sd_name_text(&sd_names[i]));
		if (!implied)
			put_entry(sb, &col, &count, sd_name_text(&sd_names[i]), suffix);
	}
	if (allow_mode && count == 0)
		put_entry(sb, &col, &count, "@default", "");
	strbuf_append(sb, "\n");
}

/* systemd's allow lists always hold @default: the policy must allow each of its calls. */
static void check_default_group(struct exporter *x)
{
	if (scg_action_of(x->dflt) == SCG_ACTION_ALLOW)
		return;
	const struct sd_group *dflt = sd_group_find("default");
	for (size_t i = 0; i < dflt->count && !x->err; i++) {
		const char *m = sd_group_member(dflt, i);
		const struct sd_name *n = sd_name_find(m);
		uint32_t v;
		if (n && name_verdict(x, n, &v) && scg_action_of(v) != SCG_ACTION_ALLOW)
			refuse(x, NULL, "systemd's allow lists always allow the calls of @default",
			       "the policy does not allow '%s'", m);
	}
}

/* Whether some name systemd's libseccomp knows has number @nr on @abi. */
static bool nameable(const struct scg_arch *abi, uint32_t nr)
{
	const char *name = scg_syscall_name(abi, nr);
	uint32_t mine;
	if (name && sd_resolve(abi, name, &mine) == 0 && mine == nr)
		return true;
	for (size_t i = 0; i < sd_name_count; i++)
		if (sd_resolve(abi, sd_name_text(&sd_names[i]), &mine) == 0 && mine == nr)
			return true;
	return false;
}

/* Calls systemd cannot name (numbers libseccomp does not know) must get the default. */
static void check_unnamed(struct exporter *x)
{
	uint32_t u;
	if (scg_policy_unknown(x->p, &u) && u != x->dflt)
		refuse(x, NULL, "systemd gives unknown numbers the same verdict as other calls",
		       "the 'unknown' verdict differs from the default");
	for (size_t i = 0; i < scg_policy_rule_count(x->p) && !x->err; i++) {
		struct scg_rule rule;
		scg_policy_rule_at(x->p, i, &rule);
		if (libseccomp_high_rule_is(x->p, i))
			continue;
		for (size_t a = 0; a < 3 && !x->err; a++) {
			uint32_t first, last;
			if (!x->target[a] ||
			    scg_policy_rule_range(x->p, i, x->abis[a], &first, &last) < 0)
				continue;
			for (uint64_t nr = first; nr <= last && !x->err; nr++) {
				bool named = nameable(x->abis[a], (uint32_t)nr);
				struct scg_rule r;
				bool has_rule;
				if (!named &&
				    verdict(x, x->abis[a], (uint32_t)nr, &r, &has_rule) != x->dflt)
					refuse(x, &rule,
					       "systemd names calls as its libseccomp does",
					       "rule for %s: a call systemd cannot name gets a "
					       "verdict of its own",
					       rule.syscall ? rule.syscall : "a number");
				if (last - first > 4096)
					break; /* a range that wide is about unknown numbers:
						  checked above */
			}
		}
	}
}

/* SystemCallArchitectures= for the targets, and the verdict of other ABIs it implies. */
static void write_arches(struct exporter *x, struct strbuf *sb)
{
	bool all = x->target[0] && x->target[1] && x->target[2];
	uint32_t badarch = scg_policy_badarch(x->p);
	if (all) {
		if (scg_action_of(badarch) != SCG_ACTION_ALLOW)
			refuse(x, NULL, "write 'badarch allow', or target fewer ABIs",
			       "without SystemCallArchitectures= systemd lets calls of other ABIs "
			       "through");
		return;
	}
	if (!x->target[0] || badarch != SCG_RET_KILL_THREAD)
		refuse(x, NULL, "target x86_64 and write 'badarch kill-thread'",
		       "SystemCallArchitectures= always keeps the native ABI and kills only the "
		       "thread of other ABIs");
	bool high = x->target[2];
	for (size_t i = 0; i < scg_policy_rule_count(x->p) && !high; i++)
		high = libseccomp_high_rule_is(x->p, i);
	if (!high)
		refuse(
		    x, NULL, "add 'kill-thread 0x80000000..0xbfffffff on x86_64', or target x32",
		    "without x32, libseccomp's filter kills x86_64 calls 0x80000000..0xbfffffff");
	strbuf_append(sb, "SystemCallArchitectures=native");
	if (x->target[1])
		strbuf_append(sb, " x86");
	if (x->target[2])
		strbuf_append(sb, " x32");
	strbuf_append(sb, "\n");
}

static void write_error_number(struct exporter *x, struct strbuf *sb)
{
	enum scg_action a = scg_action_of(x->dflt);
	if (a == SCG_ACTION_ALLOW || a == SCG_ACTION_KILL_PROCESS)
		return;
	if (a != SCG_ACTION_ERRNO || (x->dflt & SCG_RET_DATA) == 0 ||
	    (x->dflt & SCG_RET_DATA) > 4095) {
		refuse(x, NULL, "the default can be allow, kill or errno(1..4095)",
		       "systemd cannot give the policy's default to every other call");
		return;
	}
	const char *name = scg_errno_name(x->abis[0], x->dflt & SCG_RET_DATA);
	if (name)
		strbuf_appendf(sb, "SystemCallErrorNumber=%s\n", name);
	else
		strbuf_appendf(sb, "SystemCallErrorNumber=%u\n", x->dflt & SCG_RET_DATA);
}

int scg_systemd_export(const struct scg_policy *policy, char **text, struct scg_diag *diag)
{
	*text = NULL;
	struct exporter x = {.p = policy, .diag = diag, .dflt = scg_policy_default(policy)};
	static const char names[][7] = {"x86_64", "x86", "x32"};
	for (size_t a = 0; a < 3; a++)
		x.abis[a] = scg_arch_lookup(names[a]);
	for (size_t i = 0; i < scg_policy_arch_count(policy); i++) {
		const struct scg_arch *t = scg_policy_arch_at(policy, i);
		size_t a = 0;
		while (a < 3 && x.abis[a] != t)
			a++;
		if (a == 3) {
			refuse(&x, NULL, "systemd filters the ABIs of the machine it runs on",
			       "the policy targets %s", scg_arch_name(t));
			return x.err;
		}
		x.target[a] = true;
	}
	struct strbuf sb = STRBUF_INIT;
	strbuf_append(&sb, "# written by syscage compile --format systemd\n[Service]\n");
	write_arches(&x, &sb);
	write_error_number(&x, &sb);
	check_unnamed(&x);
	check_default_group(&x);
	if (!x.err)
		write_filter(&x, &sb);
	if (x.err) {
		strbuf_release(&sb);
		return x.err;
	}
	return strbuf_finish(&sb, text);
}
