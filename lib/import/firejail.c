/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * firejail's seccomp options, from a profile (one option a line, no
 * leading "--", "include" lines followed) or a command line, as the
 * filters firejail 0.9.72 loads for them: its prebuilt default lists,
 * fseccomp's drop, default+drop and keep filters for both ABIs, the
 * secondary-architecture block, the W^X, protocol and namespace filters,
 * stacked as the kernel runs them.  Options that are not seccomp are not
 * ours and are skipped.
 */
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <syscage/bpf.h>
#include <syscage/import.h>
#include <syscage/lang.h>

#include "import/firejail.h"
#include "import/stack.h"
#include "util/grow.h"
#include "util/opts.h"
#include "util/scan.h"

#define INCLUDE_DEPTH 16     /* firejail's MAX_INCLUDE_LEVEL */
#define FILE_MAX (1U << 20)  /* the largest profile read */
#define IGNORE_MAX 32
#define PROTO_MAX 16

/* firejail's seccomp options that are not read, and a word on each. */
static const char *const unsupported[] = {
    "seccomp.print",
    "allow-debuggers",
    NULL,
};

/* Words that only firejail profiles start lines with. */
static const char keywords[][28] = {
    "seccomp",
    "seccomp.drop",
    "seccomp.keep",
    "seccomp.32",
    "seccomp.32.drop",
    "seccomp.32.keep",
    "seccomp.block-secondary",
    "seccomp-error-action",
    "memory-deny-write-execute",
    "protocol",
    "restrict-namespaces",
    "include",
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
};

/* A list option's value and where it starts. */
struct fj_list {
	char *text; /* NULL: not given */
	struct scg_loc loc;
};

struct fj_proto {
	char name[16];
	struct scg_loc loc;
};

struct fj_settings {
	bool seccomp, seccomp32, block_secondary, mdwx, ns_all;
	struct scg_loc seccomp_loc, seccomp32_loc, bs_loc, mdwx_loc, ns_loc;
	struct fj_list list, drop, keep, list32, drop32, keep32, ns_list;
	struct fj_proto proto[PROTO_MAX];
	size_t nproto;
	struct scg_loc proto_loc;
	uint32_t action;
};

struct fj_ctx {
	struct fj_settings set;
	struct scg_diag *diag;
	bool failed;
	/* the files read, for rule locations (they outlive the stack) and cycles */
	char **names;
	size_t nnames, names_cap;
	const char *chain[INCLUDE_DEPTH + 2]; /* the include chain, outermost first */
	size_t depth;
	char *ignore[IGNORE_MAX];
	size_t nignore;
};

static void diag(struct fj_ctx *c, enum scg_severity sev, struct scg_loc loc, const char *hint,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void diag(struct fj_ctx *c, enum scg_severity sev, struct scg_loc loc, const char *hint,
		 const char *fmt, ...)
{
	if (sev == SCG_SEV_ERROR)
		c->failed = true;
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(c->diag, sev, loc, sev == SCG_SEV_ERROR ? "firejail" : "firejail-ignored",
		      hint, fmt, ap);
	va_end(ap);
}

static bool in_list(const char *const *list, const char *word, size_t len)
{
	for (; *list; list++)
		if (strlen(*list) == len && !strncmp(*list, word, len))
			return true;
	return false;
}

static bool in_keywords(const char *word, size_t len)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (strlen(keywords[i]) == len && !strncmp(keywords[i], word, len))
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

static void list_set(struct fj_list *l, const char *value, struct scg_loc loc, bool *oom)
{
	free(l->text);
	l->text = strdup(value);
	l->loc = loc;
	if (!l->text)
		*oom = true;
}

/* protocol's list accumulates as firejail's lists do: "-x" takes x out, "=x" starts again. */
static void protocol_add(struct fj_ctx *c, const char *value, struct scg_loc vloc)
{
	static const char *const known[] = {"unix", "inet", "inet6", "netlink", "packet",
					    "bluetooth", NULL};
	struct fj_settings *s = &c->set;
	for (const char *p = value; *p;) {
		size_t n = strcspn(p, ",");
		struct scg_loc loc = vloc;
		loc.column += (unsigned)(p - value);
		const char *w = p;
		size_t wn = n;
		char op = (*w == '-' || *w == '+' || *w == '=') ? *w : 0;
		if (op) {
			w++;
			wn--;
		}
		if (op == '=')
			s->nproto = 0;
		if (op == '-') {
			for (size_t i = 0; i < s->nproto; i++)
				if (strlen(s->proto[i].name) == wn && !strncmp(s->proto[i].name, w, wn))
					s->proto[i] = s->proto[--s->nproto];
		} else if (wn && !in_list(known, w, wn)) {
			char word[64];
			snprintf(word, sizeof(word), "%.*s", (int)(wn < 63 ? wn : 63), w);
			diag(c, SCG_SEV_ERROR, loc,
			     "firejail knows unix, inet, inet6, netlink, packet and bluetooth",
			     "'%s' is not a protocol firejail knows", word);
		} else if (wn) {
			bool have = false;
			for (size_t i = 0; i < s->nproto; i++)
				have |= strlen(s->proto[i].name) == wn &&
					!strncmp(s->proto[i].name, w, wn);
			if (!have && s->nproto < PROTO_MAX) {
				snprintf(s->proto[s->nproto].name, sizeof(s->proto[0].name), "%.*s",
					 (int)wn, w);
				s->proto[s->nproto++].loc = loc;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	s->proto_loc = vloc;
}

static int read_include(struct fj_ctx *c, const char *value, struct scg_loc loc);

/* One option: @name (without "--"), its value (NULL: none), where its name and value start. */
static int option(struct fj_ctx *c, const char *name, size_t nlen, const char *value,
		  struct scg_loc loc, struct scg_loc vloc)
{
	struct fj_settings *s = &c->set;
	char opt[64];
	bool oom = false;
	snprintf(opt, sizeof(opt), "%.*s", (int)(nlen < 63 ? nlen : 63), name);
	struct fj_list *list = !strcmp(opt, "seccomp.drop")      ? &s->drop
			       : !strcmp(opt, "seccomp.keep")    ? &s->keep
			       : !strcmp(opt, "seccomp.32.drop") ? &s->drop32
			       : !strcmp(opt, "seccomp.32.keep") ? &s->keep32
							       : NULL;
	if (in_list(unsupported, name, nlen)) {
		diag(c, SCG_SEV_ERROR, loc, "docs/import.md lists the options read",
		     "firejail's '%s' is not supported", opt);
	} else if (!strcmp(opt, "include")) {
		if (!value)
			diag(c, SCG_SEV_ERROR, loc, "include FILE", "'%s' needs a file", opt);
		else
			return read_include(c, value, vloc);
	} else if (!strcmp(opt, "ignore")) {
		if (value && c->nignore < IGNORE_MAX && !(c->ignore[c->nignore] = strdup(value)))
			return -ENOMEM;
		if (value && c->nignore < IGNORE_MAX)
			c->nignore++;
	} else if (!strcmp(opt, "seccomp") || !strcmp(opt, "seccomp.32")) {
		bool b32 = opt[7] == '.';
		*(b32 ? &s->seccomp32 : &s->seccomp) = true;
		*(b32 ? &s->seccomp32_loc : &s->seccomp_loc) = loc;
		if (value)
			list_set(b32 ? &s->list32 : &s->list, value, vloc, &oom);
	} else if (list) {
		if (!value) {
			diag(c, SCG_SEV_ERROR, vloc.column ? vloc : loc,
			     "a comma-separated list of syscalls and @groups",
			     "'%s' needs a list", opt);
		} else {
			list_set(list, value, vloc, &oom);
			bool b32 = !strncmp(opt, "seccomp.32", 10);
			*(b32 ? &s->seccomp32 : &s->seccomp) = true;
			*(b32 ? &s->seccomp32_loc : &s->seccomp_loc) = loc;
		}
	} else if (!strcmp(opt, "seccomp.block-secondary")) {
		s->block_secondary = true;
		s->bs_loc = loc;
	} else if (!strcmp(opt, "memory-deny-write-execute")) {
		s->mdwx = true;
		s->mdwx_loc = loc;
	} else if (!strcmp(opt, "restrict-namespaces")) {
		if (value)
			list_set(&s->ns_list, value, vloc, &oom);
		else
			s->ns_all = true;
		s->ns_loc = loc;
	} else if (!strcmp(opt, "protocol")) {
		if (value)
			protocol_add(c, value, vloc);
		else
			diag(c, SCG_SEV_ERROR, loc, "protocol unix,inet,...", "'%s' needs a list",
			     opt);
	} else if (!strcmp(opt, "seccomp-error-action")) {
		if (!value || !parse_action(value, &s->action))
			diag(c, SCG_SEV_ERROR, value ? vloc : loc,
			     "an errno name (EPERM), kill or log", "bad value for '%s'", opt);
	}
	return oom ? -ENOMEM : 0;
}

static bool ignored(const struct fj_ctx *c, const char *line)
{
	for (size_t i = 0; i < c->nignore; i++) {
		size_t n = strlen(c->ignore[i]);
		if (!strncmp(line, c->ignore[i], n) && (line[n] == '\0' || line[n] == ' '))
			return true;
	}
	return false;
}

static bool seccomp_word(const char *p)
{
	return !strncmp(p, "seccomp", 7) || !strncmp(p, "protocol", 8) ||
	       !strncmp(p, "memory-deny-write-execute", 25) ||
	       !strncmp(p, "restrict-namespaces", 19);
}

static bool fj_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A profile line "name value" or command-line words "--name[=value]": the
 * @n bytes of @line (a copy, NUL-terminated, without a NUL inside), at line
 * @lineno.
 */
static int read_line(struct fj_ctx *c, const char *file, char *line, size_t n, unsigned lineno)
{
	struct scan s;
	scan_init_at(&s, line, n, lineno, 1);
	scan_while(&s, fj_blank);
	char *p = line + s.pos;
	bool cmdline = !strncmp(p, "--", 2);
	if (!cmdline) { /* firejail cuts a profile line at its first '#' */
		p[strcspn(p, "#")] = '\0';
		s.len = strlen(line); /* the cursor stops at the cut */
	}
	if (!scan_more(&s))
		return 0;
	if (*p == '?') { /* ?HAS_X11: ... depends on the sandbox firejail starts */
		char *rest = p + strcspn(p, ":");
		rest += *rest ? 1 + strspn(rest + 1, " \t") : 0;
		if (seccomp_word(rest))
			diag(c, SCG_SEV_WARNING, scan_loc(&s, file),
			     "firejail decides it when it starts the sandbox",
			     "a conditional line is not followed");
		return 0;
	}
	if (!cmdline && ignored(c, p))
		return 0;
	while (scan_more(&s)) {
		scan_while(&s, fj_blank);
		if (!scan_more(&s))
			break;
		p = line + s.pos;
		struct scg_loc loc = scan_loc(&s, file);
		if (cmdline && strncmp(p, "--", 2)) {
			diag(c, SCG_SEV_ERROR, loc, "options start with '--' on a command line",
			     "'%s' is no option", p);
			return 0;
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
		struct scg_loc vloc = {file, lineno, 0, -1};
		if (value) {
			scan_skip(&s, (size_t)(value - (line + s.pos)));
			vloc = scan_loc(&s, file);
		}
		scan_skip(&s, (size_t)(p - (line + s.pos)));
		char saved = *p;
		*p = '\0';
		int r = option(c, name, nlen, value && *value ? value : NULL, loc, vloc);
		*p = saved;
		if (r < 0 || !cmdline)
			return r;
	}
	return 0;
}

static int read_text(struct fj_ctx *c, const char *file, const char *text, size_t len)
{
	struct scan s;
	scan_init(&s, text, len);
	int r = 0;
	while (scan_more(&s) && r == 0) {
		struct scan eol = s;
		scan_to_eol(&eol);
		size_t n = eol.pos - s.pos;
		const char *nul = memchr(s.text + s.pos, '\0', n);
		if (nul) {
			scan_skip(&s, (size_t)(nul - (s.text + s.pos)));
			diag(c, SCG_SEV_ERROR, scan_loc(&s, file), "profiles are text",
			     "NUL byte in line");
		} else {
			char *line = strndup(s.text + s.pos, n);
			if (!line)
				return -ENOMEM;
			r = read_line(c, file, line, n, s.line);
			free(line);
		}
		scan_line(&s);
	}
	return r;
}

/* --- include ---------------------------------------------------------------- */

/* A regular file of at most FILE_MAX bytes into *@text: 0, -errno, or -EFBIG. */
static int slurp(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	char *buf = malloc(FILE_MAX + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	size_t n = 0;
	int r = 0;
	while (r == 0) {
		ssize_t k = read(fd, buf + n, FILE_MAX + 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			r = -EIO;
		else if (k == 0)
			break;
		else if ((n += (size_t)k) > FILE_MAX)
			r = -EFBIG;
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* ${HOME} and ${CFG} as firejail expands them; other macros are refused. */
static char *expand(struct fj_ctx *c, const char *value, struct scg_loc loc)
{
	const char *home = getenv("HOME");
	const char *tail = value, *head = "";
	if (!strncmp(value, "${HOME}", 7)) {
		head = home ? home : "";
		tail = value + 7;
	} else if (!strncmp(value, "${CFG}", 6)) {
		head = "/etc/firejail";
		tail = value + 6;
	}
	if (strstr(tail, "${")) {
		diag(c, SCG_SEV_ERROR, loc, "${HOME} and ${CFG} are expanded",
		     "macro in '%s' not supported", value);
		return NULL;
	}
	char *out = NULL;
	return asprintf(&out, "%s%s", head, tail) < 0 ? NULL : out;
}

static char *dir_of(const char *file)
{
	const char *slash = file ? strrchr(file, '/') : NULL;
	return slash ? strndup(file, (size_t)(slash - file) + 1) : strdup("");
}

/* Where firejail finds "include NAME": NAME with a slash as it is (relative to the including
 * file here), a bare NAME in ~/.config/firejail, /etc/firejail, then beside the including file. */
static char *locate(const char *name, const char *including)
{
	char *dir = dir_of(including), *path = NULL;
	if (!dir)
		return NULL;
	if (strchr(name, '/')) {
		if (asprintf(&path, "%s%s", name[0] == '/' ? "" : dir, name) < 0)
			path = NULL;
		free(dir);
		return path;
	}
	const char *home = getenv("HOME");
	char *cands[3] = {NULL, NULL, NULL};
	if (home && asprintf(&cands[0], "%s/.config/firejail/%s", home, name) < 0)
		cands[0] = NULL;
	if (asprintf(&cands[1], "/etc/firejail/%s", name) < 0)
		cands[1] = NULL;
	if (asprintf(&cands[2], "%s%s", dir, name) < 0)
		cands[2] = NULL;
	for (int i = 0; i < 3; i++) {
		if (!path && cands[i] && (i == 2 || access(cands[i], F_OK) == 0))
			path = cands[i];
		else
			free(cands[i]);
	}
	free(dir);
	return path;
}

static int read_include(struct fj_ctx *c, const char *value, struct scg_loc loc)
{
	char *name = expand(c, value, loc);
	char *path = name ? locate(name, loc.file) : NULL;
	free(name);
	if (!path)
		return c->failed ? 0 : -ENOMEM;
	char *real = realpath(path, NULL);
	size_t plen = strlen(path);
	bool local = plen >= 6 && !strcmp(path + plen - 6, ".local");
	int r = 0;
	if (!real) {
		if (!local) /* firejail skips a missing *.local quietly */
			diag(c, SCG_SEV_ERROR, loc, "firejail stops on a profile it cannot read",
			     "cannot read '%s'", path);
		free(path);
		return 0;
	}
	free(path);
	for (size_t i = 0; i < c->depth; i++)
		if (!strcmp(c->chain[i], real)) {
			diag(c, SCG_SEV_ERROR, loc, "a profile that includes itself never ends",
			     "include cycle through '%s'", real);
			free(real);
			return 0;
		}
	if (c->depth > INCLUDE_DEPTH) {
		diag(c, SCG_SEV_ERROR, loc, "firejail stops at 16 levels of include",
		     "includes nested too deep at '%s'", real);
		free(real);
		return 0;
	}
	if (GROW_ARRAY(&c->names, &c->names_cap, c->nnames + 1, 8)) {
		free(real);
		return -ENOMEM;
	}
	c->names[c->nnames++] = real;
	char *text = NULL;
	size_t len = 0;
	int e = slurp(real, &text, &len);
	if (e == -ENOMEM)
		return e;
	if (e < 0) {
		diag(c, SCG_SEV_ERROR, loc, strerror(-e), "cannot read '%s'", real);
		return 0;
	}
	c->chain[c->depth++] = real;
	r = read_text(c, real, text, len);
	c->depth--;
	free(text);
	return r;
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

static const struct scg_arch *abi_of(bool b32)
{
	return scg_arch_lookup(b32 ? "x86" : "x86_64");
}

/*
 * One filter's layers for @b32's ABI: i386 (other ABIs pass), or x86_64
 * with x32 calls and numbers from 0x80000000 up getting @act, as fseccomp's
 * check does.  @dflt is what the filter returns for calls its rules miss.
 */
static struct imp_layer *filter_layer(struct imp_stack *st, bool b32, uint32_t dflt, uint32_t act,
				      struct scg_loc loc)
{
	if (b32)
		return imp_stack_push(st, imp_abi_bit(abi_of(true)), dflt, loc);
	struct imp_layer *x32 = imp_stack_push(st, imp_abi_bit(scg_arch_lookup("x32")), act, loc);
	struct imp_layer *l =
	    x32 ? imp_stack_push(st, imp_abi_bit(abi_of(false)), dflt, loc) : NULL;
	char key[32];
	if (l && imp_layer_add(l, imp_number_key(key, sizeof(key), 0x80000000U, UINT32_MAX), NULL,
			       act, loc) < 0)
		return NULL;
	return l;
}

struct mdwx_rule {
	uint32_t nr;
	uint32_t mask; /* 0: refused whatever its arguments */
};

/* A W^X filter of firejail's: arguments compared over their low 32 bits. */
static int mdwx(struct imp_stack *st, bool b32, uint32_t act, struct scg_loc loc)
{
	static const struct mdwx_rule i386[] = {
	    {90, 0}, {192, 6}, {125, 4}, {380, 4}, {397, 0x8000}, {356, 0},
	};
	static const struct mdwx_rule x86_64[] = {
	    {9, 6}, {10, 4}, {329, 4}, {30, 0x8000}, {319, 0},
	};
	const struct mdwx_rule *r = b32 ? i386 : x86_64;
	size_t n = b32 ? 6 : 5;
	struct imp_layer *l = filter_layer(st, b32, SCG_RET_ALLOW, act, loc);
	int e = l ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && !e; i++) {
		struct scg_expr *cond =
		    r[i].mask ? scg_expr_cmp(2, 32, SCG_CMP_EQ, r[i].mask, r[i].mask) : NULL;
		e = r[i].mask && !cond ? -ENOMEM : add_nr(l, abi_of(b32), r[i].nr, cond, act, loc);
	}
	return e;
}

static const struct fj_syscall *find_syscall(const char *name, bool b32)
{
	const struct fj_syscall *t = b32 ? fj_syscalls32 : fj_syscalls64;
	size_t n = b32 ? fj_syscall_count32 : fj_syscall_count64;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fj_name_pool + t[i].name, name))
			return &t[i];
	return NULL;
}

static const struct fj_group *find_group(const char *name)
{
	for (size_t i = 0; i < fj_group_count; i++)
		if (!strcmp(fj_name_pool + fj_groups[i].name, name))
			return &fj_groups[i];
	return NULL;
}

/* @default-keep: what firejail itself calls after the filters are in (execveat, execve, prctl). */
static const uint32_t keep64[] = {322, 59, 157}, keep32[] = {358, 11, 172};

static bool after_exec(uint32_t nr, bool b32)
{
	const uint32_t *k = b32 ? keep32 : keep64;
	return nr == k[0] || nr == k[1] || nr == k[2];
}

/* One entry of a syscall list, as fseccomp reads it. */
struct fj_item {
	bool group, neg, has_act, skip;
	uint32_t nr, act;
	const struct fj_group *g;
	struct scg_loc loc;
};

enum fj_kind { FJ_DROP, FJ_DEFAULT_DROP, FJ_KEEP };

/* The entries of @l for @b32's ABI into *@items (caller frees), each at its column. */
static int parse_items(struct fj_ctx *c, const struct fj_list *l, bool b32, enum fj_kind kind,
		       struct fj_item **items, size_t *n)
{
	*items = NULL;
	*n = 0;
	if (!l || !l->text)
		return 0;
	size_t cap = 1;
	for (const char *p = l->text; *p; p++)
		cap += *p == ',';
	struct fj_item *v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	char *copy = strdup(l->text);
	if (!copy) {
		free(v);
		return -ENOMEM;
	}
	for (char *item = copy; item;) {
		char *comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		struct fj_item *it = &v[*n];
		*it = (struct fj_item){.loc = l->loc};
		it->loc.column += (unsigned)(item - copy);
		size_t bad = strspn(item, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					  "0123456789_:@-$!");
		char *colon = strchr(item, ':');
		if (!*item) {
			it->skip = true; /* fseccomp's strtok passes over empty entries */
		} else if (item[bad]) {
			struct scg_loc at = it->loc;
			at.column += (unsigned)bad;
			diag(c, SCG_SEV_ERROR, at, "names, @groups, $numbers, !name and name:errno",
			     "invalid character in '%s'", item);
			it->skip = true;
		} else if (item[0] == '@') {
			it->group = true;
			if (!(it->g = find_group(item + 1))) {
				diag(c, SCG_SEV_ERROR, it->loc, "firejail stops on an unknown group",
				     "unknown group '%s'", item);
				it->skip = true;
			}
		} else {
			char *name = item;
			it->neg = *name == '!';
			name += it->neg;
			if (colon)
				*colon = '\0';
			const struct fj_syscall *sc = NULL;
			if (!*name) {
				diag(c, SCG_SEV_ERROR, it->loc, "name:errno",
				     "no syscall in '%s'", item);
				it->skip = true;
			} else if (*name == '$') {
				it->nr = (uint32_t)strtol(name + 1, NULL, 0);
			} else if ((sc = find_syscall(name, b32))) {
				it->nr = sc->nr;
			} else {
				diag(c, SCG_SEV_WARNING, it->loc, "firejail ignores names its table lacks",
				     *name == '@' ? "'%s': firejail ignores a negated group"
						  : "unknown syscall '%s': firejail ignores it",
				     name);
				it->skip = true;
			}
			uint32_t e;
			if (colon && !it->skip) {
				if (!strcmp(colon + 1, "kill"))
					it->act = SCG_RET_KILL_THREAD;
				else if (scg_errno_lookup(abi_of(false), colon + 1, &e) == 0 &&
					 e >= 1 && e <= SCG_MAX_ERRNO)
					it->act = SCG_RET_ERRNO | e;
				else {
					diag(c, SCG_SEV_WARNING, it->loc,
					     "fseccomp takes an errno name or kill after ':'",
					     "'%s': firejail ignores the entry", colon + 1);
					it->skip = true;
				}
				it->has_act = !it->skip;
			}
			if (it->neg && it->has_act && !it->skip) {
				diag(c, SCG_SEV_WARNING, it->loc,
				     "fseccomp compares the negated number, which no call has",
				     "'!%s' with an action matches nothing", name);
				it->skip = true;
			}
			if (colon)
				*colon = ':';
		}
		/* what firejail needs after exec stays out of filters loaded before it */
		bool late = false;
		if (!it->skip && kind != FJ_KEEP && !it->neg) {
			size_t gn = 0;
			const uint32_t *nrs = it->group ? fj_group_numbers(it->g, b32, &gn) : NULL;
			for (size_t k = 0; k < gn; k++)
				late |= after_exec(nrs[k], b32);
			if (!it->group)
				late = after_exec(it->nr, b32);
		}
		if (late) {
			diag(c, SCG_SEV_ERROR, it->loc,
			     "firejail refuses it in a filter a preloaded library loads after exec",
			     "'%s' is not supported yet", item);
			it->skip = true;
		}
		(*n)++;
		item = comma ? comma + 1 : NULL;
	}
	free(copy);
	*items = v;
	return 0;
}

static int add_group(struct imp_layer *l, const struct fj_group *g, bool b32, uint32_t act,
		     struct scg_loc loc)
{
	size_t n;
	const uint32_t *nrs = fj_group_numbers(g, b32, &n);
	int e = 0;
	for (size_t i = 0; i < n && !e; i++)
		e = add_nr(l, abi_of(b32), nrs[i], NULL, act, loc);
	return e;
}

/*
 * fseccomp's drop, default+drop and keep filters, first match: the
 * "!name" and "name:errno" entries in list order, then @default-keep
 * (keep) or the default list (default+drop), then the plain entries.
 */
static int list_filter(struct fj_ctx *c, struct imp_stack *st, const struct fj_list *list,
		       bool b32, enum fj_kind kind, struct scg_loc loc)
{
	uint32_t act = c->set.action;
	struct fj_item *items;
	size_t n;
	int e = parse_items(c, list, b32, kind, &items, &n);
	if (e < 0)
		return e;
	if (list && list->text)
		loc = list->loc;
	struct imp_layer *l =
	    filter_layer(st, b32, kind == FJ_KEEP ? act : SCG_RET_ALLOW, act, loc);
	if (!l)
		e = -ENOMEM;
	for (size_t i = 0; i < n && !e; i++) {
		const struct fj_item *it = &items[i];
		if (it->skip || it->group || (!it->neg && !it->has_act))
			continue;
		uint32_t a = it->has_act ? it->act : kind == FJ_KEEP ? act : SCG_RET_ALLOW;
		e = add_nr(l, abi_of(b32), it->nr, NULL, a, it->loc);
	}
	if (!e && kind == FJ_KEEP)
		for (size_t i = 0; i < 3 && !e; i++)
			e = add_nr(l, abi_of(b32), (b32 ? keep32 : keep64)[i], NULL, SCG_RET_ALLOW,
				   loc);
	if (!e && kind == FJ_DEFAULT_DROP) {
		const uint32_t *d = b32 ? fj_default32 : fj_default64;
		size_t nd = b32 ? fj_default_count32 : fj_default_count64;
		for (size_t i = 0; i < nd && !e; i++)
			e = add_nr(l, abi_of(b32), d[i], NULL, act, loc);
	}
	uint32_t plain = kind == FJ_KEEP ? SCG_RET_ALLOW : act;
	for (size_t i = 0; i < n && !e; i++) {
		const struct fj_item *it = &items[i];
		if (it->skip || it->neg || it->has_act)
			continue;
		e = it->group ? add_group(l, it->g, b32, plain, it->loc)
			      : add_nr(l, abi_of(b32), it->nr, NULL, plain, it->loc);
	}
	free(items);
	return e;
}

/* seccomp.block-secondary: every ABI but x86_64 refused, personality() only to query or reset. */
static int block_secondary(struct fj_ctx *c, struct imp_stack *st)
{
	uint32_t act = c->set.action;
	struct scg_loc loc = c->set.bs_loc;
	st->badarch = act; /* ABIs an x86_64 kernel never runs get it too */
	if (!imp_stack_push(st, imp_abi_bit(abi_of(true)), act, loc))
		return -ENOMEM;
	struct imp_layer *l = filter_layer(st, false, SCG_RET_ALLOW, act, loc);
	if (!l)
		return -ENOMEM;
	static const uint64_t ok[] = {0, 0xffffffffU};
	int e = 0;
	for (size_t i = 0; i < 2 && !e; i++) {
		struct scg_expr *cond = scg_expr_cmp(0, 64, SCG_CMP_EQ, UINT64_MAX, ok[i]);
		e = cond ? imp_layer_add(l, "personality", cond, SCG_RET_ALLOW, loc) : -ENOMEM;
	}
	return e ? e : imp_layer_add(l, "personality", NULL, act, loc);
}

/* protocol: socket() with a family off the list gets EOPNOTSUPP; i386's socketcall is not looked at. */
static int protocol(struct fj_ctx *c, struct imp_stack *st)
{
	static const struct {
		const char *name;
		uint32_t family;
	} fam[] = {{"unix", 1},	  {"inet", 2},	 {"inet6", 10},
		   {"netlink", 16}, {"packet", 17}, {"bluetooth", 31}};
	const struct fj_settings *s = &c->set;
	int e = 0;
	for (int b32 = 1; b32 >= 0 && !e; b32--) {
		struct imp_layer *l = filter_layer(st, b32, SCG_RET_ALLOW, s->action, s->proto_loc);
		if (!l)
			return -ENOMEM;
		for (size_t i = 0; i < s->nproto && !e; i++)
			for (size_t k = 0; k < sizeof(fam) / sizeof(fam[0]) && !e; k++) {
				if (strcmp(fam[k].name, s->proto[i].name))
					continue;
				struct scg_expr *cond =
				    scg_expr_cmp(0, 32, SCG_CMP_EQ, UINT32_MAX, fam[k].family);
				e = cond ? add_nr(l, abi_of(b32), b32 ? 359 : 41, cond, SCG_RET_ALLOW,
						  s->proto[i].loc)
					 : -ENOMEM;
			}
		if (!e)
			e = add_nr(l, abi_of(b32), b32 ? 359 : 41, NULL, SCG_RET_ERRNO | 95,
				   s->proto_loc);
	}
	return e;
}

/* restrict-namespaces: CLONE_NEW* flags of clone, unshare and setns; clone3 gets ENOSYS. */
static int namespaces(struct fj_ctx *c, struct imp_stack *st, bool b32)
{
	static const struct {
		const char *name;
		uint32_t flag;
	} ns[] = {{"cgroup", 0x02000000}, {"ipc", 0x08000000}, {"net", 0x40000000},
		  {"mnt", 0x00020000},	  {"pid", 0x20000000}, {"time", 0x00000080},
		  {"user", 0x10000000},	  {"uts", 0x04000000}};
	const struct fj_settings *s = &c->set;
	uint32_t mask = 0, act = s->action;
	struct scg_loc loc = s->ns_all ? s->ns_loc : s->ns_list.loc;
	const char *list = s->ns_all ? NULL : s->ns_list.text;
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		bool found = false;
		for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
			if (strlen(ns[k].name) == n && !strncmp(ns[k].name, p, n)) {
				mask |= ns[k].flag;
				found = true;
			}
		if (!found && !b32) { /* reported once */
			struct scg_loc at = loc;
			at.column += (unsigned)(p - list);
			char word[64];
			snprintf(word, sizeof(word), "%.*s", (int)(n < 63 ? n : 63), p);
			diag(c, SCG_SEV_ERROR, at,
			     "cgroup, ipc, net, mnt, pid, time, user or uts",
			     "'%s' is not a namespace firejail knows", word);
		}
		p += n + (p[n] == ',');
	}
	if (!list)
		mask = 0x7e020080; /* all eight */
	struct imp_layer *l = filter_layer(st, b32, SCG_RET_ALLOW, act, loc);
	if (!l)
		return -ENOMEM;
	const struct scg_arch *abi = abi_of(b32);
	uint32_t clone_mask = mask & ~0x80U; /* CLONE_NEWTIME is CSIGNAL's to clone() */
	int e = 0;
	struct scg_expr *cond;
	if (clone_mask) {
		cond = scg_expr_cmp(0, 32, SCG_CMP_NE, clone_mask, 0);
		e = cond ? add_nr(l, abi, b32 ? 120 : 56, cond, act, loc) : -ENOMEM;
	}
	if (!e)
		e = add_nr(l, abi, 435, NULL, SCG_RET_ERRNO | ENOSYS, loc);
	if (!e && mask) {
		cond = scg_expr_cmp(0, 32, SCG_CMP_NE, mask, 0);
		e = cond ? add_nr(l, abi, b32 ? 310 : 272, cond, act, loc) : -ENOMEM;
	}
	if (!e) {
		cond = scg_expr_cmp(1, 32, SCG_CMP_EQ, UINT32_MAX, 0);
		if (mask && cond)
			cond = scg_expr_or(cond, scg_expr_cmp(1, 32, SCG_CMP_NE, mask, 0));
		e = cond ? add_nr(l, abi, b32 ? 346 : 308, cond, act, loc) : -ENOMEM;
	}
	return e;
}

/* The filters firejail loads, in the order it loads them (sandbox.c, seccomp.c). */
enum fj_filter {
	F_PROTOCOL,
	F_BLOCK_SECONDARY,
	F_DEFAULT32, /* the prebuilt i386 default list (seccomp.32) */
	F_DEFAULT,   /* the x86_64 default list, with seccomp's own list */
	F_DEFAULT_B32, /* the i386 default list, with seccomp.32's list */
	F_DROP,
	F_DROP32,
	F_KEEP,
	F_KEEP32,
	F_MDWX,
	F_MDWX32,
	F_NS,
	F_NS32,
};

/* seccomp_filter_drop() and seccomp_filter_keep() for one ABI. */
static void seq_seccomp(const struct fj_settings *s, bool b32, enum fj_filter *seq, size_t *n)
{
	if (b32 ? s->keep32.text : s->keep.text) {
		if (s->block_secondary)
			seq[(*n)++] = F_BLOCK_SECONDARY;
		seq[(*n)++] = b32 ? F_KEEP32 : F_KEEP;
	} else if (b32 ? s->drop32.text : s->drop.text) {
		if (s->block_secondary)
			seq[(*n)++] = F_BLOCK_SECONDARY;
		/* measured: firejail 0.9.72 installs its i386 default list, twice, for
		 * seccomp.32.drop, and not fseccomp's drop32 filter (see build()) */
		seq[(*n)++] = b32 ? F_DEFAULT32 : F_DROP;
	} else {
		seq[(*n)++] = s->block_secondary ? F_BLOCK_SECONDARY : F_DEFAULT32;
		seq[(*n)++] = b32 ? F_DEFAULT_B32 : F_DEFAULT;
	}
}

static int build_one(struct fj_ctx *c, struct imp_stack *st, enum fj_filter f)
{
	const struct fj_settings *s = &c->set;
	/* seccomp.32's list counts only where firejail rebuilds the i386 filter:
	 * with seccomp's own list or another error action */
	if (s->drop32.text && !s->keep32.text)
		diag(c, SCG_SEV_WARNING, s->drop32.loc,
		     "measured: the stack it installs is its prebuilt i386 default list",
		     "firejail 0.9.72 loads the i386 default list instead of seccomp.32.drop's");
	bool rebuilt = (s->list.text && *s->list.text) || s->action != (SCG_RET_ERRNO | EPERM);
	switch (f) {
	case F_PROTOCOL:
		return protocol(c, st);
	case F_BLOCK_SECONDARY:
		return block_secondary(c, st);
	case F_DEFAULT32:
		return list_filter(c, st, NULL, true, FJ_DEFAULT_DROP,
				   s->seccomp ? s->seccomp_loc : s->seccomp32_loc);
	case F_DEFAULT:
		return list_filter(c, st, &s->list, false, FJ_DEFAULT_DROP, s->seccomp_loc);
	case F_DEFAULT_B32:
		return list_filter(c, st, rebuilt ? &s->list32 : NULL, true, FJ_DEFAULT_DROP,
				   s->seccomp32_loc);
	case F_DROP:
	case F_DROP32:
		return list_filter(c, st, f == F_DROP ? &s->drop : &s->drop32, f == F_DROP32,
				   FJ_DROP, s->seccomp_loc);
	case F_KEEP:
	case F_KEEP32:
		return list_filter(c, st, f == F_KEEP ? &s->keep : &s->keep32, f == F_KEEP32,
				   FJ_KEEP, s->seccomp_loc);
	case F_MDWX:
	case F_MDWX32:
		return mdwx(st, f == F_MDWX32, s->action, s->mdwx_loc);
	case F_NS:
	case F_NS32:
		return namespaces(c, st, f == F_NS32);
	}
	return -EINVAL;
}

static int build(struct fj_ctx *c, struct imp_stack *st)
{
	struct fj_settings *s = &c->set;
	if (s->block_secondary && !s->seccomp && !s->seccomp32) {
		s->seccomp = true; /* what firejail 0.9.72 loads for it alone, measured */
		s->seccomp_loc = s->bs_loc;
	}
	if (s->drop32.text && !s->keep32.text)
		diag(c, SCG_SEV_WARNING, s->drop32.loc,
		     "measured: the stack it installs is its prebuilt i386 default list",
		     "firejail 0.9.72 loads the i386 default list instead of seccomp.32.drop's");
	bool rebuilt = (s->list.text && *s->list.text) || s->action != (SCG_RET_ERRNO | EPERM);
	if (s->list32.text && !rebuilt && !s->drop32.text && !s->keep32.text)
		diag(c, SCG_SEV_WARNING, s->list32.loc,
		     "it counts with a list for seccomp too, or another seccomp-error-action",
		     "firejail 0.9.72 loads its i386 default list without seccomp.32's");
	enum fj_filter seq[16];
	size_t n = 0;
	if (s->nproto)
		seq[n++] = F_PROTOCOL;
	if (s->seccomp)
		seq_seccomp(s, false, seq, &n);
	if (s->seccomp32)
		seq_seccomp(s, true, seq, &n);
	if (s->mdwx) {
		seq[n++] = F_MDWX;
		seq[n++] = F_MDWX32;
	}
	if (s->ns_all || s->ns_list.text) {
		seq[n++] = F_NS;
		seq[n++] = F_NS32;
	}
	/* firejail keeps the filters in a list it prepends to, and installs the list's head first */
	int e = 0;
	for (size_t i = n; i-- > 0 && !e;)
		e = build_one(c, st, seq[i]);
	return e;
}

bool scg_firejail_detect(const char *text, size_t len)
{
	struct scan s;
	scan_init(&s, text, len);
	while (scan_more(&s)) {
		scan_while(&s, fj_blank);
		struct scan eol = s;
		scan_to_eol(&eol);
		const char *w = text + s.pos, *e = text + eol.pos;
		if (e - w > 2 && !strncmp(w, "--", 2))
			w += 2;
		size_t n = 0; /* the option's name, within the line */
		while (w + n < e && !strchr(" \t=\n", w[n]))
			n++;
		if (n && (in_keywords(w, n) || in_list(unsupported, w, n)))
			return true;
		scan_line(&s);
	}
	return false;
}

static void settings_release(struct fj_settings *s)
{
	struct fj_list *lists[] = {&s->list, &s->drop, &s->keep, &s->list32,
				   &s->drop32, &s->keep32, &s->ns_list};
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		free(lists[i]->text);
}

int scg_firejail_import(const char *text, size_t len, const struct scg_import_options *opts,
			struct scg_policy **out, struct scg_diag *diag_out)
{
	*out = NULL;
	struct scg_import_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_import_options, filename)) < 0)
		return -EINVAL;
	const char *file = o.filename ? o.filename : "<firejail>";
	struct fj_ctx c = {.diag = diag_out};
	c.set.action = SCG_RET_ERRNO | EPERM; /* firejail's default */
	char *top = o.filename ? realpath(o.filename, NULL) : NULL;
	if (top)
		c.chain[c.depth++] = top;
	int r = read_text(&c, file, text, len);
	struct imp_stack st;
	imp_stack_init(&st, file);
	static const char abis[][7] = {"x86_64", "x86", "x32"};
	for (size_t i = 0; i < 3; i++)
		st.targets[st.ntargets++] = scg_arch_lookup(abis[i]);
	if (r == 0 && !c.failed)
		r = build(&c, &st);
	if (r == 0 && c.failed)
		r = -EINVAL;
	if (r == 0)
		r = imp_stack_to_policy(&st, out);
	imp_stack_release(&st);
	settings_release(&c.set);
	for (size_t i = 0; i < c.nnames; i++)
		free(c.names[i]);
	free(c.names);
	for (size_t i = 0; i < c.nignore; i++)
		free(c.ignore[i]);
	free(top);
	return r;
}
