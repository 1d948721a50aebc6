/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * firejail's seccomp options, from a profile (one option a line, no
 * leading "--") or a command line: seccomp, seccomp.drop,
 * seccomp-error-action and memory-deny-write-execute, as the filters
 * firejail 0.9.72 loads for them (prebuilt default lists, fseccomp's drop
 * filters, its W^X filters), stacked as the kernel runs them.  The other
 * seccomp options are refused as not supported yet; options that are not
 * seccomp are not ours and are skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/bpf.h>
#include <syscage/import.h>
#include <syscage/lang.h>

#include "import/firejail.h"
#include "import/stack.h"
#include "util/opts.h"

/* firejail's seccomp options that are not read yet, and a word on each. */
static const char *const unsupported[] = {
    "seccomp.keep",
    "seccomp.32",
    "seccomp.32.drop",
    "seccomp.32.keep",
    "seccomp.block-secondary",
    "protocol",
    "restrict-namespaces",
    "seccomp.print",
    NULL,
};

/* Words that only firejail profiles start lines with. */
static const char *const keywords[] = {
    "seccomp",
    "seccomp.drop",
    "seccomp-error-action",
    "memory-deny-write-execute",
    "caps.drop",
    "caps.keep",
    "nonewprivs",
    "noroot",
    "noblacklist",
    "blacklist",
    "whitelist",
    "private-dev",
    "private-tmp",
    "private-etc",
    "netfilter",
    "net",
    "nodvd",
    "notv",
    NULL,
};

struct fj_settings {
	bool seccomp, drop, mdwx;
	struct scg_loc seccomp_loc, drop_loc, mdwx_loc;
	uint32_t action;
	char *drop_list;
};

struct fj_ctx {
	struct fj_settings set;
	const char *file;
	struct scg_diag *diag;
	bool failed;
};

static void diag(struct fj_ctx *c, enum scg_severity sev, struct scg_loc loc, const char *hint,
		 const char *fmt, const char *what)
{
	if (sev == SCG_SEV_ERROR)
		c->failed = true;
	scg_diag_add(c->diag, sev, loc, sev == SCG_SEV_ERROR ? "firejail" : "firejail-ignored",
		     hint, fmt, what);
}

static bool in_list(const char *const *list, const char *word, size_t len)
{
	for (; *list; list++)
		if (strlen(*list) == len && !strncmp(*list, word, len))
			return true;
	return false;
}

static bool parse_action(const char *v, uint32_t *out)
{
	uint32_t n;
	if (!strcmp(v, "kill")) /* fseccomp's kill is the kernel's KILL (the thread) */
		*out = SCG_RET_KILL_THREAD;
	else if (!strcmp(v, "log"))
		*out = SCG_RET_LOG;
	else if ((scg_errno_lookup(scg_arch_lookup("x86_64"), v, &n) == 0 ||
		  scg_parse_u32(v, strlen(v), &n) == 0) &&
		 n >= 1 && n <= SCG_MAX_ERRNO)
		*out = SCG_RET_ERRNO | n;
	else
		return false;
	return true;
}

/* One option: @name (without "--"), its value (NULL: none), where its name and value start. */
static void option(struct fj_ctx *c, const char *name, size_t nlen, const char *value,
		   struct scg_loc loc, struct scg_loc vloc)
{
	struct fj_settings *s = &c->set;
	char opt[64];
	snprintf(opt, sizeof(opt), "%.*s", (int)(nlen < 63 ? nlen : 63), name);
	if (in_list(unsupported, name, nlen) || (!strcmp(opt, "seccomp") && value)) {
		diag(c, SCG_SEV_ERROR, loc,
		     "supported: seccomp, seccomp.drop, seccomp-error-action, "
		     "memory-deny-write-execute",
		     "firejail's '%s' is not supported yet", opt);
	} else if (!strcmp(opt, "seccomp")) {
		s->seccomp = true;
		s->seccomp_loc = loc;
	} else if (!strcmp(opt, "memory-deny-write-execute")) {
		s->mdwx = true;
		s->mdwx_loc = loc;
	} else if (!strcmp(opt, "seccomp.drop") && value && *value) {
		free(s->drop_list);
		s->drop_list = strdup(value);
		s->drop = s->drop_list != NULL;
		s->drop_loc = vloc;
	} else if (!strcmp(opt, "seccomp-error-action") && value &&
		   parse_action(value, &s->action)) {
		return;
	} else if (!strcmp(opt, "seccomp.drop") || !strcmp(opt, "seccomp-error-action")) {
		diag(c, SCG_SEV_ERROR, vloc,
		     !strcmp(opt, "seccomp.drop") ? "a comma-separated list of syscalls and @groups"
						  : "an errno name (EPERM), kill or log",
		     "bad value for '%s'", opt);
	}
}

/* A profile line "name value" or command-line words "--name[=value]". */
static void read_line(struct fj_ctx *c, char *line, unsigned lineno)
{
	char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '#')
		return;
	bool cmdline = !strncmp(p, "--", 2);
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		struct scg_loc loc = {c->file, lineno, (unsigned)(p - line) + 1, -1};
		if (cmdline && strncmp(p, "--", 2)) {
			diag(c, SCG_SEV_ERROR, loc, "options start with '--' on a command line",
			     "'%s' is no option", p);
			return;
		}
		if (cmdline)
			p += 2;
		char *name = p;
		size_t nlen = strcspn(p, cmdline ? "= \t" : " \t");
		char *value = NULL;
		p += nlen;
		if (cmdline && *p == '=') {
			value = ++p;
			p += strcspn(p, " \t");
		} else if (!cmdline && *p) {
			value = p + strspn(p, " \t");
			p = value + strlen(value);
			while (p > value && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r'))
				p--;
		}
		char *end = p;
		char saved = *end;
		*end = '\0';
		struct scg_loc vloc = {c->file, lineno, value ? (unsigned)(value - line) + 1 : 0,
				       -1};
		option(c, name, nlen, value && *value ? value : NULL, loc, vloc);
		*end = saved;
		if (!cmdline)
			return;
	}
}

static int read_text(struct fj_ctx *c, const char *text, size_t len)
{
	unsigned lineno = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((e ? e : end) - p);
		lineno++;
		char *line = strndup(p, n);
		if (!line)
			return -ENOMEM;
		if (strlen(line) != n)
			diag(c, SCG_SEV_ERROR,
			     (struct scg_loc){c->file, lineno, (unsigned)strlen(line) + 1, -1},
			     "profiles are text", "NUL byte in line%s", "");
		else
			read_line(c, line, lineno);
		free(line);
		p = e ? e + 1 : end;
	}
	return 0;
}

/* --- the filters ------------------------------------------------------------ */

static int add_nr(struct imp_layer *l, const struct scg_arch *abi, uint32_t nr,
		  struct scg_expr *cond, uint32_t action, struct scg_loc loc)
{
	char key[32];
	const char *name = scg_syscall_name(abi, nr);
	uint32_t mine;
	/* by name where syscage's table agrees with firejail's number */
	if (!name || scg_syscall_lookup(abi, name, &mine) < 0 || mine != nr)
		name = imp_number_key(key, sizeof(key), nr, nr);
	return imp_layer_add(l, name, cond, action, loc);
}

static struct scg_expr *low_bits(unsigned arg, uint32_t mask)
{
	return scg_expr_cmp(arg, 32, SCG_CMP_EQ, mask, mask);
}

struct mdwx_rule {
	uint32_t nr;
	uint32_t mask; /* 0: refused whatever its arguments */
};

/* A W^X filter of firejail's: arguments compared over their low 32 bits. */
static int mdwx_layer(struct imp_stack *st, const struct scg_arch *abi, const struct mdwx_rule *r,
		      size_t n, uint32_t act, struct scg_loc loc)
{
	struct imp_layer *l = imp_stack_push(st, imp_abi_bit(abi), SCG_RET_ALLOW, loc);
	int e = l ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && !e; i++) {
		struct scg_expr *cond = r[i].mask ? low_bits(2, r[i].mask) : NULL;
		e = r[i].mask && !cond ? -ENOMEM : add_nr(l, abi, r[i].nr, cond, act, loc);
	}
	return e;
}

static int mdwx(struct imp_stack *st, const struct fj_settings *s)
{
	static const struct mdwx_rule i386[] = {
	    {90, 0}, {192, 6}, {125, 4}, {380, 4}, {397, 0x8000}, {356, 0},
	};
	static const struct mdwx_rule x86_64[] = {
	    {9, 6}, {10, 4}, {329, 4}, {30, 0x8000}, {319, 0},
	};
	int e = mdwx_layer(st, scg_arch_lookup("x86"), i386, 6, s->action, s->mdwx_loc);
	if (!e)
		e = mdwx_layer(st, scg_arch_lookup("x86_64"), x86_64, 5, s->action, s->mdwx_loc);
	return e;
}

/* An x86_64 filter: x32 calls and numbers from 0x80000000 up get @act, as fseccomp's check does. */
static struct imp_layer *x86_64_layer(struct imp_stack *st, uint32_t act, struct scg_loc loc)
{
	struct imp_layer *x32 = imp_stack_push(st, imp_abi_bit(scg_arch_lookup("x32")), act, loc);
	struct imp_layer *l =
	    x32 ? imp_stack_push(st, imp_abi_bit(scg_arch_lookup("x86_64")), SCG_RET_ALLOW, loc)
		: NULL;
	char key[32];
	if (l && imp_layer_add(l, imp_number_key(key, sizeof(key), 0x80000000U, UINT32_MAX), NULL,
			       act, loc) < 0)
		return NULL;
	return l;
}

static int list_nrs(struct imp_layer *l, const struct scg_arch *abi, const uint32_t *nrs, size_t n,
		    uint32_t act, struct scg_loc loc)
{
	int e = 0;
	for (size_t i = 0; i < n && !e; i++)
		e = add_nr(l, abi, nrs[i], NULL, act, loc);
	return e;
}

static const struct fj_syscall *find_syscall(const char *name)
{
	for (size_t i = 0; i < fj_syscall_count64; i++)
		if (!strcmp(fj_syscalls64[i].name, name))
			return &fj_syscalls64[i];
	return NULL;
}

static const struct fj_group *find_group(const char *name)
{
	for (size_t i = 0; i < fj_group_count; i++)
		if (!strcmp(fj_groups[i].name, name))
			return &fj_groups[i];
	return NULL;
}

/* seccomp.drop's list into the x86_64 filter @l, each item at its column. */
static int drop_items(struct fj_ctx *c, struct imp_layer *l, const struct fj_settings *s)
{
	const struct scg_arch *abi = scg_arch_lookup("x86_64");
	char *list = s->drop_list;
	int e = 0;
	for (char *item = list; item && *item && !e;) {
		size_t n = strcspn(item, ",");
		char saved = item[n];
		item[n] = '\0';
		struct scg_loc loc = s->drop_loc;
		loc.column += (unsigned)(item - list);
		const struct fj_group *g = item[0] == '@' ? find_group(item + 1) : NULL;
		const struct fj_syscall *sc = item[0] != '@' ? find_syscall(item) : NULL;
		bool after = g ? g->after_exec
			       : sc && (!strcmp(item, "execve") || !strcmp(item, "execveat") ||
					!strcmp(item, "prctl"));
		if (after)
			diag(c, SCG_SEV_ERROR, loc,
			     "firejail refuses it in a filter loaded after exec",
			     "'%s' is not supported yet", item);
		else if (g)
			e = list_nrs(l, abi, g->nr64, g->n64, s->action, loc);
		else if (sc)
			e = add_nr(l, abi, sc->nr, NULL, s->action, loc);
		else if (item[0] == '@')
			diag(c, SCG_SEV_ERROR, loc, "firejail stops on an unknown group",
			     "unknown group '%s'", item);
		else if (*item)
			diag(c, SCG_SEV_WARNING, loc, "firejail ignores names its table lacks",
			     "unknown syscall '%s': firejail ignores it", item);
		item[n] = saved;
		item = saved ? item + n + 1 : NULL;
	}
	return e;
}

static int build(struct fj_ctx *c, struct imp_stack *st)
{
	const struct fj_settings *s = &c->set;
	int e = s->mdwx ? mdwx(st, s) : 0;
	if (!e && (s->seccomp || s->drop)) {
		struct imp_layer *l =
		    x86_64_layer(st, s->action, s->drop ? s->drop_loc : s->seccomp_loc);
		if (!l)
			return -ENOMEM;
		e = s->drop ? drop_items(c, l, s)
			    : list_nrs(l, scg_arch_lookup("x86_64"), fj_default64,
				       fj_default_count64, s->action, s->seccomp_loc);
	}
	/* the default list has an i386 filter of its own; seccomp.drop leaves i386 alone */
	if (!e && s->seccomp && !s->drop) {
		struct imp_layer *l = imp_stack_push(st, imp_abi_bit(scg_arch_lookup("x86")),
						     SCG_RET_ALLOW, s->seccomp_loc);
		e = l ? list_nrs(l, scg_arch_lookup("x86"), fj_default32, fj_default_count32,
				 s->action, s->seccomp_loc)
		      : -ENOMEM;
	}
	return e;
}

bool scg_firejail_detect(const char *text, size_t len)
{
	for (const char *p = text, *end = text + len; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		const char *w = p;
		while (w < (e ? e : end) && (*w == ' ' || *w == '\t'))
			w++;
		if ((e ? e : end) - w > 2 && !strncmp(w, "--", 2))
			w += 2;
		size_t n = strcspn(w, " \t=\n");
		if (w + n <= (e ? e : end) && n &&
		    (in_list(keywords, w, n) || in_list(unsupported, w, n)))
			return true;
		p = e ? e + 1 : end;
	}
	return false;
}

int scg_firejail_import(const char *text, size_t len, const struct scg_import_options *opts,
			struct scg_policy **out, struct scg_diag *diag_out)
{
	*out = NULL;
	struct scg_import_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_import_options, filename)) < 0)
		return -EINVAL;
	struct fj_ctx c = {.file = o.filename ? o.filename : "<firejail>", .diag = diag_out};
	c.set.action = SCG_RET_ERRNO | 1; /* firejail's default: EPERM */
	int r = read_text(&c, text, len);
	struct imp_stack st;
	imp_stack_init(&st, c.file);
	static const char *const abis[] = {"x86_64", "x86", "x32"};
	for (size_t i = 0; i < 3; i++)
		st.targets[st.ntargets++] = scg_arch_lookup(abis[i]);
	if (r == 0)
		r = build(&c, &st);
	if (r == 0 && c.failed)
		r = -EINVAL;
	if (r == 0)
		r = imp_stack_to_policy(&st, out);
	imp_stack_release(&st);
	free(c.set.drop_list);
	return r;
}
