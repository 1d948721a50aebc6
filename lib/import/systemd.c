/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * systemd units: the seccomp directives read with systemd 252's rules for
 * each (load-fragment.c): list modes, '~', ':errno' suffixes, merging of
 * repeated lines, the empty assignment that resets.  What systemd ignores
 * with a warning is ignored here too, with the warning.  The filters come
 * from systemd_filters.c, the one policy from stack.c.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <syscage/import.h>
#include <syscage/lang.h>

#include "import/systemd.h"
#include "import/unit.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/suggest.h"

void scg_import_options_init(struct scg_import_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
}

const struct sd_group *sd_group_find(const char *name)
{
	for (size_t i = 0; i < sd_group_count; i++)
		if (!strcmp(sd_group_name(&sd_groups[i]), name))
			return &sd_groups[i];
	return NULL;
}

const struct sd_name *sd_name_find(const char *name)
{
	size_t lo = 0, hi = sd_name_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sd_name_text(&sd_names[mid]), name);
		if (c == 0)
			return &sd_names[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int sd_resolve(const struct scg_arch *arch, const char *name, uint32_t *nr)
{
	static const char abis[][7] = {"x86_64", "x86", "x32"};
	const struct sd_name *n = sd_name_find(name);
	for (size_t i = 0; n && i < 3; i++) {
		if (strcmp(scg_arch_name(arch), abis[i]))
			continue;
		if (n->nr[i] == SD_NR_DIRECT)
			return scg_syscall_lookup(arch, name, nr) == 0 ? 0 : -ENOSYS;
		if (n->nr[i] >= 0) {
			*nr = (uint32_t)n->nr[i];
			return 0;
		}
	}
	return -ENOSYS;
}

int sd_layer_add_names(const struct imp_stack *st, struct imp_layer *layer, const char *name,
		       uint32_t action, struct scg_loc loc)
{
	if (name[0] != '@')
		return sd_name_find(name) ? imp_layer_add(layer, name, NULL, action, loc) : 0;
	const struct sd_group *g = sd_group_find(name + 1);
	for (size_t i = 0; g && i < g->count; i++) {
		int r = sd_layer_add_names(st, layer, sd_group_member(g, i), action, loc);
		if (r < 0)
			return r;
	}
	return 0;
}

void sd_settings_release(struct sd_settings *s)
{
	struct sd_list *lists[] = {&s->filter, &s->log};
	for (size_t i = 0; i < 2; i++) {
		for (size_t j = 0; j < lists[i]->n; j++)
			free(lists[i]->v[j].name);
		free(lists[i]->v);
		memset(lists[i], 0, sizeof(*lists[i]));
	}
}

struct ctx {
	struct sd_settings set;
	struct imp_stack st; /* its targets: the ABIs names are looked up on */
	const char *file;
	struct scg_diag *diag;
};

static void warn(struct ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void warn(struct ctx *c, struct scg_loc loc, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(c->diag, SCG_SEV_WARNING, loc, "systemd-ignored", hint, fmt, ap);
	va_end(ap);
}

/* --- syscall lists -------------------------------------------------------- */

static void list_reset(struct sd_list *l)
{
	for (size_t j = 0; j < l->n; j++)
		free(l->v[j].name);
	l->n = 0;
	l->present = false;
	l->allow = false;
}

static struct sd_entry *list_find(struct sd_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

static int list_put(struct sd_list *l, const char *name, int err, struct scg_loc loc)
{
	struct sd_entry *e = list_find(l, name);
	if (e) { /* a later mention updates the error number, as systemd's hashmap_update() */
		e->err = err;
		e->loc = loc;
		return 0;
	}
	if (GROW_ARRAY(&l->v, &l->cap, l->n + 1, 64))
		return -ENOMEM;
	struct sd_entry *added = &l->v[l->n];
	added->name = strdup(name);
	if (!added->name)
		return -ENOMEM;
	added->err = err;
	added->loc = loc;
	l->n++;
	return 0;
}

static void list_remove(struct sd_list *l, const char *name)
{
	struct sd_entry *e = list_find(l, name);
	if (!e)
		return;
	free(e->name);
	/* keep the order of the rest: explanations list rules in file order */
	size_t i = (size_t)(e - l->v);
	memmove(e, e + 1, (l->n - i - 1) * sizeof(*e));
	l->n--;
}

/* Adds (@add) or removes @name or the members of "@group", recursively. */
static int list_apply(struct ctx *c, struct sd_list *l, const char *name, int err, bool add,
		      struct scg_loc loc, bool user_written)
{
	if (name[0] == '@') {
		const struct sd_group *g = sd_group_find(name + 1);
		if (!g) {
			if (user_written) {
				struct suggest sg;
				char hint[96] = "";
				suggest_init(&sg, name + 1);
				for (size_t i = 0; i < sd_group_count; i++)
					suggest_consider(&sg, sd_group_name(&sd_groups[i]));
				if (suggest_result(&sg))
					snprintf(hint, sizeof(hint), "did you mean '@%s'?",
						 suggest_result(&sg));
				warn(c, loc,
				     hint[0] ? hint
					     : "`systemd-analyze syscall-filter` lists the groups",
				     "unknown system call group '%s': systemd ignores it", name);
			}
			return 0;
		}
		for (size_t i = 0; i < g->count; i++) {
			int r = list_apply(c, l, sd_group_member(g, i), err, add, loc, false);
			if (r < 0)
				return r;
		}
		return 0;
	}
	/* systemd keeps names its libseccomp resolves, on whichever ABI has them */
	if (!sd_name_find(name)) {
		if (user_written) {
			const char *s = scg_syscall_suggest(c->st.targets[0], name);
			char hint[96] = "";
			if (s)
				snprintf(hint, sizeof(hint), "did you mean '%s'?", s);
			warn(c, loc, hint[0] ? hint : NULL,
			     "unknown system call '%s': systemd ignores it", name);
		}
		return 0;
	}
	if (add)
		return list_put(l, name, err, loc);
	list_remove(l, name);
	return 0;
}

/* "name", "name:EPERM", "name:13", "name:kill": 0, or -EINVAL for a bad suffix. */
static int split_errno(struct ctx *c, char *word, int *err)
{
	char *colon = strchr(word, ':');
	*err = SD_ERRNO_NONE;
	if (!colon)
		return 0;
	*colon = '\0';
	const char *e = colon + 1;
	uint32_t v;
	if (!strcmp(e, "kill")) {
		*err = SD_ERRNO_KILL;
		return 0;
	}
	if (scg_parse_u32(e, strlen(e), &v) == 0 ||
	    scg_errno_lookup(c->st.targets[0], e, &v) == 0) {
		if (v > 4095)
			return -EINVAL;
		*err = (int)v;
		return 0;
	}
	return -EINVAL;
}

static int read_list(struct ctx *c, struct sd_list *l, const struct unit_setting *s,
		     bool with_errno, bool add_default)
{
	if (!s->value[0]) {
		list_reset(l);
		return 0;
	}
	size_t pos = 0;
	bool invert = s->value[0] == '~';
	if (invert)
		pos = 1;
	if (!l->present) {
		l->present = true;
		l->allow = !invert;
		l->loc = unit_loc(s, 0, c->file);
		/* an allow list always lets the calls of @default through */
		if (l->allow && add_default) {
			int r = list_apply(c, l, "@default", SD_ERRNO_NONE, true, l->loc, false);
			if (r < 0)
				return r;
		}
	}
	struct unit_word w;
	while (unit_next_word(s, &pos, c->file, &w)) {
		int err = SD_ERRNO_NONE;
		if (with_errno && split_errno(c, w.text, &err) < 0) {
			warn(c, w.loc,
			     "the suffix is ':' and an errno name or number (0..4095), or ':kill'",
			     "bad error number in '%s': systemd ignores the entry", w.text);
			continue;
		}
		if (with_errno && !invert && err != SD_ERRNO_NONE) {
			warn(c, w.loc, "only denied calls ('~' lists) return an error number",
			     "'%s' is allowed, so its error number means nothing: systemd ignores "
			     "the entry",
			     w.text);
			continue;
		}
		/* a name joins the list in its own mode and leaves it in the other */
		int r = list_apply(c, l, w.text, err, invert != l->allow, w.loc, true);
		if (r < 0)
			return r;
	}
	return 0;
}

/* --- the other directives --------------------------------------------------- */

static int parse_bool(const char *v, bool *out)
{
	static const char yes[][5] = {"1", "yes", "y", "true", "t", "on"};
	static const char no[][6] = {"0", "no", "n", "false", "f", "off"};
	for (size_t i = 0; i < 6; i++) {
		if (!strcasecmp(v, yes[i]))
			return *out = true, 0;
		if (!strcasecmp(v, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

static void read_flag(struct ctx *c, struct sd_flag *f, const struct unit_setting *s)
{
	bool on = false;
	if (!s->value[0]) { /* the empty assignment restores the default: off */
		f->on = false;
		return;
	}
	if (parse_bool(s->value, &on) < 0) {
		warn(c, unit_loc(s, 0, c->file), "write yes or no",
		     "'%s' is not a boolean: systemd ignores the line", s->value);
		return;
	}
	f->on = on;
	f->loc = unit_loc(s, 0, c->file);
}

static void read_error_number(struct ctx *c, const struct unit_setting *s)
{
	const char *v = s->value;
	uint32_t n;
	/* 2147483646 is how `systemctl show` writes "kill" */
	if (!v[0] || !strcmp(v, "kill") || !strcmp(v, "2147483646")) {
		c->set.error_number = SD_ERRNO_KILL;
		return;
	}
	if ((scg_parse_u32(v, strlen(v), &n) == 0 ||
	     scg_errno_lookup(c->st.targets[0], v, &n) == 0) &&
	    n >= 1 && n <= 4095) {
		c->set.error_number = (int)n;
		return;
	}
	const char *hint = scg_errno_suggest(v);
	char buf[96];
	snprintf(buf, sizeof(buf), "did you mean '%s'?", hint ? hint : "");
	warn(c, unit_loc(s, 0, c->file), hint ? buf : "an errno name (EPERM) or 1..4095, or kill",
	     "bad error number '%s': systemd ignores the line", v);
}

/* systemd's architecture names; those of other machines are accepted and never occur here. */
static void read_archs(struct ctx *c, const struct unit_setting *s)
{
	static const char *const foreign[] = {
	    "arm",	 "arm64",	  "mips",	 "mips64", "mips64-n32", "mips-le",
	    "mips64-le", "mips64-le-n32", "ppc",	 "ppc64",  "ppc64-le",	 "s390",
	    "s390x",	 "riscv64",	  "loongarch64", "parisc", "parisc64",	 NULL};
	if (!s->value[0]) {
		c->set.archs_present = false;
		c->set.arch_mask = 0;
		return;
	}
	if (!c->set.archs_present)
		c->set.archs_loc = unit_loc(s, 0, c->file);
	c->set.archs_present = true;
	size_t pos = 0;
	struct unit_word w;
	while (unit_next_word(s, &pos, c->file, &w)) {
		const char *name = !strcmp(w.text, "native")   ? scg_arch_name(scg_arch_native())
				   : !strcmp(w.text, "x86-64") ? "x86_64"
							       : w.text;
		const struct scg_arch *a = NULL;
		if (!strcmp(name, "x86") || !strcmp(name, "x86_64") || !strcmp(name, "x32"))
			a = scg_arch_lookup(name);
		if (a) {
			c->set.arch_mask |= imp_abi_bit(a);
			/* x32 needs the x86-64 calls its vDSO makes */
			if (!strcmp(name, "x32"))
				c->set.arch_mask |= imp_abi_bit(scg_arch_lookup("x86_64"));
			continue;
		}
		bool known = false;
		for (const char *const *f = foreign; *f && !known; f++)
			known = !strcmp(*f, w.text);
		if (known)
			continue;
		warn(c, w.loc, "systemd's names: native, x86, x86-64, x32, arm64, ...",
		     "unknown architecture '%s': systemd ignores it", w.text);
	}
}

/* 0, or -ENOMEM: a family is never dropped for want of memory. */
static int read_families(struct ctx *c, const struct unit_setting *s)
{
	struct sd_settings *set = &c->set;
	if (!s->value[0]) {
		set->af_present = false;
		set->af_set = 0;
		return 0;
	}
	set->af_loc = unit_loc(s, 0, c->file);
	if (!strcmp(s->value, "none")) {
		set->af_present = set->af_allow = true;
		set->af_set = 0;
		return 0;
	}
	bool invert = s->value[0] == '~';
	if (!set->af_present) {
		set->af_present = true;
		set->af_allow = !invert;
		set->af_set = 0;
	}
	size_t pos = invert ? 1 : 0;
	struct unit_word w;
	while (unit_next_word(s, &pos, c->file, &w)) {
		uint64_t v = 0;
		int r = strncmp(w.text, "AF_", 3) ? -ENOENT
			: scg_constant_eval(w.text, c->st.targets[0], &v, NULL);
		if (r == -ENOMEM)
			return r;
		if (r < 0 || v == 0 || v >= SD_AF_MAX) {
			warn(c, w.loc, "families are AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, ...",
			     "unknown address family '%s': systemd ignores it", w.text);
			continue;
		}
		if (invert != set->af_allow)
			set->af_set |= 1ULL << v;
		else
			set->af_set &= ~(1ULL << v);
	}
	return 0;
}

static const struct {
	const char *name;
	uint64_t flag;
} ns_names[] = {
    {"cgroup", 0x02000000}, {"ipc", 0x08000000},  {"net", 0x40000000}, {"mnt", 0x00020000},
    {"pid", 0x20000000},    {"user", 0x10000000}, {"uts", 0x04000000}, {"time", 0x00000080},
};

static void read_namespaces(struct ctx *c, const struct unit_setting *s)
{
	struct sd_settings *set = &c->set;
	bool yes = false;
	uint32_t n = 0;
	struct scg_loc loc = unit_loc(s, 0, c->file);
	bool is_bool = s->value[0] && parse_bool(s->value, &yes) == 0;
	if (!s->value[0] || (is_bool && !yes)) {
		set->ns_present = false;
		return;
	}
	/* yes: nothing retained; a number is `systemctl show`'s mask of retained flags */
	if (is_bool || scg_parse_u32(s->value, strlen(s->value), &n) == 0) {
		set->ns_present = true;
		set->ns_retain = is_bool ? 0 : (n & SD_NS_ALL);
		set->ns_loc = loc;
		return;
	}
	bool invert = s->value[0] == '~';
	uint64_t flags = 0;
	size_t pos = invert ? 1 : 0;
	struct unit_word w;
	while (unit_next_word(s, &pos, c->file, &w)) {
		size_t i = 0;
		while (i < sizeof(ns_names) / sizeof(ns_names[0]) &&
		       strcmp(ns_names[i].name, w.text))
			i++;
		if (i == sizeof(ns_names) / sizeof(ns_names[0])) {
			warn(c, w.loc,
			     "the types are cgroup, ipc, net, mnt, pid, user, uts and time ('~' "
			     "only first)",
			     "unknown namespace type '%s': systemd ignores the whole line", w.text);
			return;
		}
		flags |= ns_names[i].flag;
	}
	if (invert)
		flags = ~flags & SD_NS_ALL;
	/* repeated lines: allow lists add up, '~' lines take away */
	if (set->ns_present)
		flags = invert ? (set->ns_retain & flags) : (set->ns_retain | flags);
	set->ns_present = true;
	set->ns_retain = flags;
	set->ns_loc = loc;
}

/* --- dispatch ------------------------------------------------------------- */

static const char directives[][32] = {
    "SystemCallFilter",
    "SystemCallErrorNumber",
    "SystemCallArchitectures",
    "SystemCallLog",
    "RestrictAddressFamilies",
    "RestrictNamespaces",
    "MemoryDenyWriteExecute",
    "LockPersonality",
    "RestrictRealtime",
    "RestrictSUIDSGID",
    "ProtectClock",
    "ProtectKernelModules",
    "ProtectKernelTunables",
    "ProtectKernelLogs",
    "ProtectHostname",
    "PrivateDevices",
};
#define DIRECTIVE_COUNT (sizeof(directives) / sizeof(directives[0]))

/* Reads @s when it is one of the boolean directives; false when it is none of them. */
static bool read_flag_setting(struct ctx *c, const struct unit_setting *s)
{
	struct sd_settings *set = &c->set;
	const struct {
		const char *key;
		struct sd_flag *flag;
	} flags[] = {
	    {"MemoryDenyWriteExecute", &set->mdwx},
	    {"LockPersonality", &set->lock_personality},
	    {"RestrictRealtime", &set->realtime},
	    {"RestrictSUIDSGID", &set->suid_sgid},
	    {"ProtectClock", &set->clock},
	    {"ProtectKernelModules", &set->modules},
	    {"ProtectKernelTunables", &set->tunables},
	    {"ProtectKernelLogs", &set->kernel_logs},
	    {"ProtectHostname", &set->hostname},
	    {"PrivateDevices", &set->devices},
	    {"DynamicUser", &set->dynamic_user},
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(flags[i].key, s->key)) {
			read_flag(c, flags[i].flag, s);
			return true;
		}
	return false;
}

/* Sections whose units run processes; "" is `systemctl show` output. */
static bool exec_section(const char *section)
{
	static const char *const sections[] = {"", "Service", "Socket", "Mount", "Swap", NULL};
	for (const char *const *p = sections; *p; p++)
		if (!strcmp(*p, section))
			return true;
	return false;
}

static bool is_directive(const char *key)
{
	for (size_t i = 0; i < DIRECTIVE_COUNT; i++)
		if (!strcmp(directives[i], key))
			return true;
	/* no seccomp directive, but it turns RestrictSUIDSGID= on */
	return !strcmp(key, "DynamicUser");
}

static int compare_setting(const void *key, const void *entry)
{
	return strcmp(key, sd_setting_pool + ((const struct sd_setting_name *)entry)->name);
}

/* A setting systemd knows, in some section: it installs no seccomp filter of its own. */
static bool known_setting(const char *key)
{
	return bsearch(key, sd_setting_names, sd_setting_count, sizeof(sd_setting_names[0]),
		       compare_setting) != NULL;
}

/* A key that is almost a seccomp directive is worth a warning; others are not ours. */
static void check_unknown_key(struct ctx *c, const struct unit_setting *s)
{
	struct suggest sg;
	suggest_init(&sg, s->key);
	for (size_t i = 0; i < DIRECTIVE_COUNT; i++)
		suggest_consider(&sg, directives[i]);
	const char *near = suggest_result(&sg);
	if (!near)
		return;
	char hint[96];
	snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
	warn(c, s->key_loc, hint, "unknown setting '%s': systemd ignores it", s->key);
}

static int on_setting(void *ctx, const struct unit_setting *s)
{
	struct ctx *c = ctx;
	if (!is_directive(s->key)) {
		/* `systemctl show` prints properties beside the settings: no warning there */
		if (s->section[0] && exec_section(s->section) && !known_setting(s->key))
			check_unknown_key(c, s);
		return 0;
	}
	if (!exec_section(s->section)) {
		char buf[160];
		snprintf(buf, sizeof(buf), "%s= belongs in [Service], [Socket], [Mount] or [Swap]",
			 s->key);
		warn(c, s->key_loc, buf, "'%s' in this section: systemd ignores it", s->key);
		return 0;
	}
	if (read_flag_setting(c, s))
		return 0;
	if (!strcmp(s->key, "SystemCallFilter"))
		return read_list(c, &c->set.filter, s, true, true);
	else if (!strcmp(s->key, "SystemCallLog"))
		return read_list(c, &c->set.log, s, false, false);
	else if (!strcmp(s->key, "SystemCallErrorNumber"))
		read_error_number(c, s);
	else if (!strcmp(s->key, "SystemCallArchitectures"))
		read_archs(c, s);
	else if (!strcmp(s->key, "RestrictAddressFamilies"))
		return read_families(c, s);
	else if (!strcmp(s->key, "RestrictNamespaces"))
		read_namespaces(c, s);
	return 0;
}

bool scg_systemd_detect(const char *text, size_t len)
{
	static const char *const headers[] = {"[Unit]",	 "[Service]", "[Socket]", "[Install]",
					      "[Mount]", "[Swap]",    "[Timer]",  NULL};
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((e ? e : end) - p);
		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		for (const char *const *h = headers; *h; h++)
			if (n >= strlen(*h) && !strncmp(p, *h, strlen(*h)))
				return true;
		for (size_t i = 0; i < DIRECTIVE_COUNT; i++) {
			size_t dl = strlen(directives[i]);
			if (n > dl && !strncmp(p, directives[i], dl) && p[dl] == '=')
				return true;
		}
		p = e ? e + 1 : end;
	}
	return false;
}

/*
 * Where the policy's settings come from: what no filter decides is
 * SystemCallFilter='s (its first line), other ABIs are
 * SystemCallArchitectures=' (or, without it, SystemCallFilter='s).
 */
static int setting_locs(const struct sd_settings *set, struct scg_policy *p)
{
	if (!set->filter.present)
		return 0;
	int r = scg_policy_set_setting_loc(p, SCG_SETTING_DEFAULT, set->filter.loc);
	if (r == 0)
		r = scg_policy_set_setting_loc(p, SCG_SETTING_UNKNOWN, set->filter.loc);
	if (r == 0)
		r = scg_policy_set_setting_loc(p, SCG_SETTING_BADARCH,
					       set->archs_present ? set->archs_loc : set->filter.loc);
	return r;
}

int scg_systemd_import(const char *text, size_t len, const struct scg_import_options *opts,
		       struct scg_policy **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_import_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_import_options, filename)) < 0)
		return -EINVAL;
	struct ctx c = {.diag = diag};
	c.file = o.filename ? o.filename : "<systemd>";
	c.set.error_number = SD_ERRNO_KILL;
	imp_stack_init(&c.st, c.file);
	c.st.resolve = sd_resolve;
	/* names are looked up on every ABI of this machine, as libseccomp does */
	sd_set_arches(&c.set, &c.st);
	int r = unit_read(text, len, c.file, on_setting, &c, diag);
	if (r == 0)
		r = sd_build_filters(&c.set, &c.st);
	if (r == 0)
		r = imp_stack_to_policy(&c.st, out);
	if (r == 0)
		r = setting_locs(&c.set, *out);
	if (r < 0) {
		scg_policy_free(*out);
		*out = NULL;
	}
	imp_stack_release(&c.st);
	sd_settings_release(&c.set);
	return r;
}
