/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A recording as policy text.  The layout is meant to be read and edited
 * by people and read back by scg_learn_merge_policy():
 *
 *   arch x86_64                     the ABIs seen (and the native one)
 *   default kill                    everything not seen
 *   unknown errno(ENOSYS)
 *   badarch kill
 *   # @basic-io: reading, writing, ... (5 of 17 used)
 *   allow read                      # 120 calls
 *   allow @signal                   # 9 calls: rt_sigaction 7, rt_sigprocmask 2, ...
 *   allow mmap if prot in {1, 3}    # 33 calls
 *
 * Every rule fits on one line and ends with its count, so the counts can be
 * found again from a rule's line number.  With several ABIs, each has its
 * own section and every rule carries `on ABI`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/lang.h>

#include "learn/internal.h"
#include "util/opts.h"
#include "util/strbuf.h"

/* Column where count comments start, so they line up. */
enum { COMMENT_COLUMN = 40 };

/* Umbrella groups that span the others: no use as a category. */
static bool umbrella_group(const char *name)
{
	return !strcmp(name, "system-service") || !strcmp(name, "privileged");
}

static bool group_has(size_t group, const char *name)
{
	const char *const *m = scg_group_members(group);
	for (; m && *m; m++)
		if (!strcmp(*m, name))
			return true;
	return false;
}

/* The category of @name: the first group (in table order) that has it; scg_group_count() if none. */
static size_t category_of(const char *name)
{
	size_t n = scg_group_count();
	for (size_t g = 0; g < n; g++)
		if (!umbrella_group(scg_group_name(g)) && group_has(g, name))
			return g;
	return n;
}

/* What the writer knows about one ABI's part of the recording. */
struct abi_view {
	const struct scg_learn *learn;
	const struct scg_arch *arch;
	const char *on; /* " on x86" when several ABIs are targets, else "" */
	size_t first, end; /* entries of this ABI: [first, end) */
};

static bool find_entry(const struct abi_view *v, const char *name, struct scg_learn_entry *out)
{
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, out);
		if (out->name && !strcmp(out->name, name))
			return true;
	}
	return false;
}

static bool entry_restricted(const struct scg_learn_entry *e)
{
	for (unsigned i = 0; i < 6; i++)
		if (((e->listed & (1U << i)) && e->nvalues[i]) || (e->general & (1U << i)))
			return true;
	return false;
}

/* Pads the current line with spaces up to the comment column. */
static void pad_line(struct strbuf *sb, size_t line_start)
{
	size_t width = sb->len - line_start;
	do
		strbuf_append(sb, " ");
	while (++width < COMMENT_COLUMN);
}

static void append_count(struct strbuf *sb, uint64_t calls)
{
	strbuf_appendf(sb, "# %" PRIu64 " call%s", calls, calls == 1 ? "" : "s");
}

/* " if prot in {1, 3} && flags == 0x22" for the restricted arguments of @e. */
/* Largest value of a summarised number written as a range (`arg <= MAX`); larger: free. */
#define RANGE_LIMIT UINT64_C(0xffff)

/* What a summarised argument becomes: a mask test, a range, or nothing (any value). */
enum summary { SUMMARY_NONE, SUMMARY_MASK, SUMMARY_RANGE };

static enum summary summary_of(const struct scg_learn_entry *e, unsigned i)
{
	if (!(e->general & (1U << i)))
		return SUMMARY_NONE;
	const char *param = learn_param_name(e->arch, e->name, i);
	if (learn_param_is_flags(e->name, param))
		return SUMMARY_MASK;
	return e->max[i] <= RANGE_LIMIT ? SUMMARY_RANGE : SUMMARY_NONE;
}

/*
 * " if prot in {PROT_READ, PROT_READ|PROT_WRITE} && flags == MAP_PRIVATE"
 * for the restricted arguments of @e; a summarised one gives
 * "(flags & ~(O_CREAT|O_CLOEXEC)) == 0" (no bit never seen) or "cmd <= 1030".
 */
static void append_condition(struct strbuf *sb, const struct scg_learn_entry *e)
{
	const char *join = " if ";
	unsigned narrow = 0;
	learn_scalar_args(e->arch, e->name, 0, &narrow);
	/* the arguments with one value in every call: what another's names may depend on */
	uint64_t args[6] = { 0 };
	unsigned known = 0;
	for (unsigned i = 0; i < 6; i++)
		if ((e->listed & (1U << i)) && e->nvalues[i] == 1) {
			args[i] = e->values[i][0];
			known |= 1U << i;
		}
	for (unsigned i = 0; i < 6; i++) {
		enum summary s = summary_of(e, i);
		if ((!(e->listed & (1U << i)) || !e->nvalues[i]) && s == SUMMARY_NONE)
			continue;
		strbuf_append(sb, join);
		join = " && ";
		const char *param = learn_param_name(e->arch, e->name, i);
		char arg[16];
		snprintf(arg, sizeof(arg), "arg%u%s", i, (narrow & (1U << i)) ? ".lo" : "");
		if (s == SUMMARY_MASK) {
			strbuf_appendf(sb, "(%s & ~(", param ? param : arg);
			learn_append_value(sb, e->arch, e->name, param, e->bits[i], args, known);
			strbuf_append(sb, ")) == 0");
			continue;
		}
		strbuf_append(sb, param ? param : arg);
		if (s == SUMMARY_RANGE) {
			strbuf_appendf(sb, " <= %" PRIu64, e->max[i]);
			continue;
		}
		if (e->nvalues[i] == 1) {
			strbuf_append(sb, " == ");
			learn_append_value(sb, e->arch, e->name, param, e->values[i][0], args,
					   known);
		} else {
			strbuf_append(sb, " in {");
			for (size_t k = 0; k < e->nvalues[i]; k++) {
				if (k)
					strbuf_append(sb, ", ");
				learn_append_value(sb, e->arch, e->name, param,
						   e->values[i][k], args, known);
			}
			strbuf_append(sb, "}");
		}
	}
}

static void write_rule(struct strbuf *sb, const struct abi_view *v,
		       const struct scg_learn_entry *e)
{
	size_t start = sb->len;
	strbuf_appendf(sb, "allow %s", e->name);
	append_condition(sb, e);
	strbuf_append(sb, v->on);
	pad_line(sb, start);
	append_count(sb, e->calls);
	strbuf_append(sb, "\n");
}

/*
 * True when every member of @group that exists on the ABI was used without
 * restrictions and has @group as its category: then `allow @group` says
 * exactly what was seen.
 */
static bool whole_group_used(const struct abi_view *v, size_t group)
{
	const char *const *m = scg_group_members(group);
	size_t present = 0;
	for (; m && *m; m++) {
		uint32_t nr;
		if (scg_syscall_lookup(v->arch, *m, &nr) < 0)
			continue;
		struct scg_learn_entry e;
		if (!find_entry(v, *m, &e) || entry_restricted(&e) || category_of(*m) != group)
			return false;
		present++;
	}
	return present > 1;
}

static void write_group_rule(struct strbuf *sb, const struct abi_view *v, size_t group)
{
	uint64_t total = 0;
	struct scg_learn_entry e;
	for (const char *const *m = scg_group_members(group); *m; m++)
		if (find_entry(v, *m, &e))
			total += e.calls;
	size_t start = sb->len;
	strbuf_appendf(sb, "allow @%s%s", scg_group_name(group), v->on);
	pad_line(sb, start);
	append_count(sb, total);
	const char *sep = ": ";
	for (const char *const *m = scg_group_members(group); *m; m++) {
		if (!find_entry(v, *m, &e))
			continue;
		strbuf_appendf(sb, "%s%s %" PRIu64, sep, *m, e.calls);
		sep = ", ";
	}
	strbuf_append(sb, "\n");
}

static size_t group_present_count(const struct abi_view *v, size_t group)
{
	size_t n = 0;
	uint32_t nr;
	for (const char *const *m = scg_group_members(group); m && *m; m++)
		n += scg_syscall_lookup(v->arch, *m, &nr) == 0;
	return n;
}

/* One category of one ABI: its heading, then a group rule or one rule per syscall. */
static void write_category(struct strbuf *sb, const struct abi_view *v, size_t group)
{
	size_t used = 0;
	struct scg_learn_entry e;
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		used += e.name && category_of(e.name) == group;
	}
	if (!used)
		return;
	if (group < scg_group_count())
		strbuf_appendf(sb, "\n# @%s: %s (%zu of %zu used)\n", scg_group_name(group),
				   scg_group_summary(group), used, group_present_count(v, group));
	else
		strbuf_append(sb, "\n# in no group\n");
	if (group < scg_group_count() && whole_group_used(v, group)) {
		write_group_rule(sb, v, group);
		return;
	}
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		if (e.name && category_of(e.name) == group)
			write_rule(sb, v, &e);
	}
}

static void write_abi(struct strbuf *sb, const struct abi_view *v, bool heading)
{
	uint64_t calls = 0;
	struct scg_learn_entry e;
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		calls += e.calls;
	}
	if (heading)
		strbuf_appendf(sb, "\n# ===== %s: %zu syscalls, %" PRIu64 " calls =====\n",
				   scg_arch_name(v->arch), v->end - v->first, calls);
	for (size_t g = 0; g <= scg_group_count(); g++)
		write_category(sb, v, g);
	for (size_t i = v->first; i < v->end; i++) {
		scg_learn_entry_at(v->learn, i, &e);
		if (!e.name)
			strbuf_appendf(sb,
					   "# syscall %" PRIu32 " (unknown to syscage's %s table): "
					   "%" PRIu64 " calls, answered by 'unknown'\n",
					   e.nr, scg_arch_name(v->arch), e.calls);
	}
}

/* ABIs to target: the native one first, then every ABI seen, in scg_arch_at() order. */
static size_t target_abis(const struct scg_learn *learn, const struct scg_arch **out, size_t max)
{
	size_t n = 0;
	const struct scg_arch *native = scg_arch_native();
	if (native)
		out[n++] = native;
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(learn); i++) {
		scg_learn_entry_at(learn, i, &e);
		bool known = false;
		for (size_t k = 0; k < n; k++)
			known |= out[k] == e.arch;
		if (!known && n < max)
			out[n++] = e.arch;
	}
	return n;
}

/* ENOSYS has one number on all of @abis (not so on mips and parisc): one 'unknown' line can say it. */
static bool one_enosys(const struct scg_arch **abis, size_t nabis)
{
	uint32_t first = 0, v;
	for (size_t i = 0; i < nabis; i++) {
		if (scg_errno_lookup(abis[i], "ENOSYS", &v) < 0)
			return false;
		if (i == 0)
			first = v;
		else if (v != first)
			return false;
	}
	return true;
}

static void write_header(struct strbuf *sb, const struct scg_learn *learn,
			 const struct scg_learn_text_options *opts, const struct scg_arch **abis,
			 size_t nabis)
{
	strbuf_append(sb, "# Learned by syscage learn");
	if (opts && opts->origin)
		strbuf_appendf(sb, " from: %s", opts->origin);
	strbuf_appendf(sb,
			   "\n# %zu syscalls, %" PRIu64 " calls.  Each rule ends with its count "
			   "(\"# N calls\"); see docs/learn.md.\n",
			   scg_learn_count(learn), scg_learn_total(learn));
	strbuf_append(sb, "arch ");
	for (size_t i = 0; i < nabis; i++)
		strbuf_appendf(sb, "%s%s", i ? ", " : "", scg_arch_name(abis[i]));
	strbuf_appendf(sb, "\ndefault %s\n", opts && opts->deny_with_eperm ? "errno(EPERM)" : "kill");
	if (one_enosys(abis, nabis))
		strbuf_append(sb, "unknown errno(ENOSYS)\n");
	else
		strbuf_append(sb, "# unknown numbers get the default: ENOSYS is not one number on these "
				  "ABIs\n");
	strbuf_append(sb, "badarch kill\n");
}

int scg_learn_to_text(const struct scg_learn *learn, const struct scg_learn_text_options *opts,
		      char **text)
{
	*text = NULL;
	struct scg_learn_text_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_learn_text_options, deny_with_eperm)) < 0)
		return -EINVAL;
	opts = &o;
	const struct scg_arch *abis[32];
	size_t nabis = target_abis(learn, abis, sizeof(abis) / sizeof(abis[0]));
	struct strbuf sb = STRBUF_INIT;
	write_header(&sb, learn, opts, abis, nabis);
	bool several = nabis > 1;
	for (size_t a = 0; a < nabis; a++) {
		char on[48] = "";
		if (several)
			snprintf(on, sizeof(on), " on %s", scg_arch_name(abis[a]));
		struct abi_view v = { .learn = learn, .arch = abis[a], .on = on };
		struct scg_learn_entry e;
		size_t i = 0, count = scg_learn_count(learn);
		while (i < count && (scg_learn_entry_at(learn, i, &e), e.arch != abis[a]))
			i++;
		v.first = i;
		while (i < count && (scg_learn_entry_at(learn, i, &e), e.arch == abis[a]))
			i++;
		v.end = i;
		if (v.first < v.end)
			write_abi(&sb, &v, several);
	}
	return strbuf_finish(&sb, text);
}
