/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Argument values as a policy writes them: `O_RDONLY|O_CLOEXEC` rather
 * than 0x80000, where the policy language has constants for the parameter.
 *
 * Each value is written only with constants that have, on the entry's ABI,
 * exactly the value they stand for there (the parser resolves them on the
 * same ABI: a rule of another ABI's section carries `on ABI`), and a name
 * is used only when the parts it is made of add up to the value; anything
 * else stays a number.  So the text means the same numbers as before, and
 * scg_learn_merge_policy() reads back the recording it came from.
 */
#include <inttypes.h>
#include <string.h>

#include <syscage/decode.h>

#include "learn/internal.h"
#include "lang/decode_internal.h"
#include "lang/lang_internal.h"
#include "util/strbuf.h"

/*
 * How one parameter's values are named: @low_mask bits form one value
 * named whole with @low_prefix (the access mode of open, the base type of
 * socket, the command of futex, the exit signal of clone); the other bits
 * are named one by one with @prefix when @bits, or the whole value is one
 * name when not.
 */
/* The short names are kept in place: no pointer for the loader to relocate. */
struct naming {
	const char *syscalls; /* comma-separated; NULL: any syscall */
	char param[12];
	const char *prefix;
	bool bits;
	uint64_t low_mask;
	char low_prefix[4]; /* empty: @prefix */
	char zero[12];      /* with @bits: the name of 0, or empty to write 0 */
	const char *skip;   /* names (prefixes) of other uses of @prefix, never written */
};

static const struct naming namings[] = {
	{ "open,openat,openat2,creat", "flags", "O_", true, 3, "", "O_RDONLY", NULL },
	{ "pipe2,dup3", "flags", "O_", true, 0, "", "", NULL },
	{ NULL, "prot", "PROT_", true, 0, "", "PROT_NONE", NULL },
	{ "mmap,mmap2", "flags", "MAP_", true, 3, "", "", NULL },
	{ "socket,socketpair", "domain", "AF_", false, 0, "", "", NULL },
	{ "socket,socketpair", "type", "SOCK_", true, 0xf, "", "", NULL },
	{ "accept4", "flags", "SOCK_", true, 0, "", "", NULL },
	{ "fcntl,fcntl64", "cmd", "F_", false, 0, "", "", "F_SEAL_,F_RDLCK,F_WRLCK,F_UNLCK" },
	{ "prctl", "option", "PR_", false, 0, "", "", NULL },
	{ "futex,futex_time64", "futex_op", "FUTEX_", true, 0x7f, "", "FUTEX_WAIT", NULL },
	{ "rt_sigprocmask,sigprocmask", "how", "SIG_", false, 0, "", "", NULL },
	{ "lseek,_llseek", "whence", "SEEK_", false, 0, "", "", NULL },
	{ "madvise", "advice", "MADV_", false, 0, "", "", NULL },
	{ "getrandom", "flags", "GRND_", true, 0, "", "", NULL },
	{ "ioctl", "request", "TC,TIOC,FIO", false, 0, "", "", "TCP_" },
	{ "clone", "flags", "CLONE_", true, 0xff, "SIG", "", "SIG_" },
	{ "unshare,setns", "flags", "CLONE_", true, 0, "", "", NULL },
	{ "unlinkat", "flags", "AT_REMOVEDIR", true, 0, "", "", NULL },
	{ "faccessat,faccessat2", "flags", "AT_EACCESS,AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH", true, 0,
	  "", "", NULL },
	{ "newfstatat,fstatat64,statx,fchownat,linkat,utimensat,execveat,name_to_handle_at,"
	  "open_tree,fchmodat2",
	  "flags", "AT_SYMLINK_,AT_NO_AUTOMOUNT,AT_EMPTY_PATH,AT_STATX_,AT_RECURSIVE", true, 0,
	  "", "", NULL },
};

/* @name is in the comma-separated @list: equal to an item, or when @prefixes starting with one. */
static bool in_list(const char *list, const char *name, bool prefixes)
{
	size_t n = strlen(name);
	for (const char *s = list; *s;) {
		size_t len = strcspn(s, ",");
		if (prefixes ? !strncmp(name, s, len) : (len == n && !strncmp(s, name, n)))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

static const struct naming *naming_of(const char *syscall, const char *param)
{
	if (!syscall || !param)
		return NULL;
	for (size_t i = 0; i < sizeof(namings) / sizeof(namings[0]); i++) {
		const struct naming *n = &namings[i];
		if (!strcmp(n->param, param) && (!n->syscalls || in_list(n->syscalls, syscall, false)))
			return n;
	}
	return NULL;
}

/*
 * The first constant starting with one of @prefixes, and not in @skip,
 * whose value on @arch is @value; NULL if none.
 */
static const char *find_name(const struct scg_arch *arch, const char *prefixes, const char *skip,
			     uint64_t value)
{
	size_t count = constant_count();
	for (size_t i = 0; i < count; i++) {
		const char *name = constant_name_at(i);
		uint64_t v;
		if (!name || !in_list(prefixes, name, true) || (skip && in_list(skip, name, true)))
			continue;
		/* an alias (AF_LOCAL, O_NDELAY): the decoder's usual name reads better */
		if (!decode_is_alias(name) && constant_value(name, arch, &v) == 0 && v == value)
			return name;
	}
	return NULL;
}

/* Writes @v with @n's constants into @sb when it can; false (nothing written) otherwise. */
static bool append_named(struct strbuf *sb, const struct scg_arch *arch,
			 const struct naming *n, uint64_t v)
{
	if (!n->bits) {
		const char *name = find_name(arch, n->prefix, n->skip, v);
		if (name)
			strbuf_append(sb, name);
		return name != NULL;
	}
	if (v == 0) {
		if (!n->zero[0])
			return false;
		uint64_t z;
		if (constant_value(n->zero, arch, &z) < 0 || z != 0)
			return false;
		strbuf_append(sb, n->zero);
		return true;
	}
	const char *parts[65];
	size_t nparts = 0;
	uint64_t low = v & n->low_mask, rest = v & ~n->low_mask, unnamed = 0;
	if (n->low_mask) {
		/* O_RDONLY|O_CLOEXEC: the base value is written even when 0, if it has a name */
		const char *name = find_name(arch, n->low_prefix[0] ? n->low_prefix : n->prefix, n->skip,
					     low);
		if (name)
			parts[nparts++] = name;
		else if (low)
			return false; /* a base value without a name: the bits alone would mislead */
	}
	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = UINT64_C(1) << b;
		if (!(rest & bit))
			continue;
		const char *name = find_name(arch, n->prefix, n->skip, bit);
		if (name)
			parts[nparts++] = name;
		else
			unnamed |= bit;
	}
	if (nparts == 0)
		return false;
	for (size_t i = 0; i < nparts; i++)
		strbuf_appendf(sb, "%s%s", i ? "|" : "", parts[i]);
	if (unnamed)
		strbuf_appendf(sb, "|0x%" PRIx64, unnamed);
	return true;
}

/*
 * The decoder's entry for @param of @syscall (decode_table.c), or NULL;
 * one with a condition on another argument only when that argument is
 * one of @known.
 */
static const struct decode_param *decoded(const char *syscall, const char *param, unsigned known)
{
	const struct decode_param *d = syscall && param ? decode_param_find(syscall, param) : NULL;
	bool usable = d && (!d->when || (d->when_arg < 6 && (known & (1U << d->when_arg))));
	return usable && (d->kind == DECODE_ENUM || d->kind == DECODE_FLAGS) ? d : NULL;
}

bool learn_param_is_flags(const char *syscall, const char *param)
{
	if (!param)
		return false;
	const struct naming *n = naming_of(syscall, param);
	if (n)
		return n->bits;
	const struct decode_param *d = decoded(syscall, param, 0);
	if (d)
		return d->kind == DECODE_FLAGS;
	return strstr(param, "flags") || strstr(param, "mask") || !strcmp(param, "prot");
}

/*
 * @v as the decoder writes it, for the parameters only the decoder's table
 * names (resources, access modes, wait options, ...); false when that text
 * has no name in it, so that the number is written the learner's way.
 */
static bool append_decoded(struct strbuf *sb, const struct scg_arch *arch, const char *syscall,
			   const char *param, uint64_t v, const uint64_t args[6], unsigned known)
{
	const struct scg_syscall_params *p = decoded(syscall, param, known)
						     ? scg_syscall_params(syscall)
						     : NULL;
	for (unsigned i = 0; p && i < p->count && i < 6; i++) {
		if (strcmp(p->params[i].name, param))
			continue;
		uint64_t call[6] = { 0 };
		for (unsigned k = 0; args && k < 6; k++)
			if (known & (1U << k))
				call[k] = args[k];
		call[i] = v;
		char text[256];
		int n = decode_arg_format(arch, syscall, i, call, text, sizeof(text));
		bool named = n > 0 && (size_t)n < sizeof(text) &&
			     ((text[0] >= 'A' && text[0] <= 'Z') || text[0] == '_');
		if (named)
			strbuf_append(sb, text);
		return named;
	}
	return false;
}

/* Whether @param of @syscall is a file mode (mode_t). */
static bool is_mode(const char *syscall, const char *param)
{
	const struct scg_syscall_params *p = syscall && param ? scg_syscall_params(syscall) : NULL;
	for (unsigned i = 0; p && i < p->count; i++)
		if (!strcmp(p->params[i].name, param))
			return !strcmp(p->params[i].type, "mode_t") ||
			       !strcmp(p->params[i].type, "umode_t");
	return false;
}

void learn_append_value(struct strbuf *sb, const struct scg_arch *arch, const char *syscall,
			const char *param, uint64_t v, const uint64_t args[6], unsigned known)
{
	const struct naming *n = naming_of(syscall, param);
	if (n ? append_named(sb, arch, n, v)
	      : append_decoded(sb, arch, syscall, param, v, args, known))
		return;
	const struct decode_param *d = decoded(syscall, param, known);
	bool perms = d && d->mode_bits && !(v & ~UINT64_C(0777)); /* shmget's 0600 */
	if (v && (perms || is_mode(syscall, param))) { /* permission bits read in octal: 022, 0755 */
		strbuf_appendf(sb, "0%" PRIo64, v);
		return;
	}
	if (v < 10)
		strbuf_appendf(sb, "%" PRIu64, v);
	else
		strbuf_appendf(sb, "0x%" PRIx64, v);
}
