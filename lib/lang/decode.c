/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscalls as text: each argument decoded by what its parameter is (the
 * generated parameter table gives the C type, decode_table.c the constants
 * it takes), so the text reads like strace's and parses back as policy
 * values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/decode.h>
#include <syscage/lang.h>

#include "lang/decode_internal.h"
#include "lang/lang_internal.h"

/* Text appended to a fixed buffer, counting what did not fit (snprintf's contract). */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->len < o->size ? o->size - o->len : 0;
	int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* The next name of a decode_set list (NUL-separated, ended by an empty name). */
static const char *next_name(const char *list)
{
	return list + strlen(list) + 1;
}

static bool starts_with_any(const char *name, const char *prefixes)
{
	for (; prefixes && *prefixes; prefixes = next_name(prefixes))
		if (!strncmp(name, prefixes, strlen(prefixes)))
			return true;
	return false;
}

static bool in_set(const struct decode_set *set, const char *name)
{
	for (const char *n = set->names; n && *n; n = next_name(n))
		if (!strcmp(n, name))
			return true;
	return starts_with_any(name, set->prefixes) && !starts_with_any(name, set->skip) &&
	       !decode_is_alias(name);
}

/* A member's value on @arch, within @mask (the parameter's width). */
struct member {
	const char *name;
	uint64_t value;
};

/* The members of @set that have a value on @arch, in table order; returns how many. */
static size_t members_of(const struct decode_set *set, const struct scg_arch *arch,
			 uint64_t mask, struct member *m, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < constant_count() && n < max; i++) {
		const char *name = constant_name_at(i);
		uint64_t v;
		/* a constant wider than the parameter is not one of its values,
		 * unless it is a negative one (AT_FDCWD in an int) */
		if (in_set(set, name) && constant_value(name, arch, &v) == 0 &&
		    (!(v & ~mask) || (v | mask) == UINT64_MAX))
			m[n++] = (struct member){ name, v & mask };
	}
	return n;
}

#define MAX_MEMBERS 160

static const char *name_of(const struct decode_set *set, const struct scg_arch *arch,
			   uint64_t mask, uint64_t value)
{
	struct member m[MAX_MEMBERS];
	size_t n = members_of(set, arch, mask, m, MAX_MEMBERS);
	for (size_t i = 0; i < n; i++)
		if (m[i].value == value)
			return m[i].name;
	return NULL;
}

static void put_hex(struct out *o, uint64_t v)
{
	put(o, "%#" PRIx64, v);
}

static void put_pointer(struct out *o, uint64_t v)
{
	if (v)
		put_hex(o, v);
	else
		put(o, "NULL");
}

/* Several bits first: O_SYNC before the O_DSYNC bit it contains. */
static int by_bits_first(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int bx = __builtin_popcountll(x->value), by = __builtin_popcountll(y->value);
	if (bx != by)
		return by - bx;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* Chosen flags print in the order of their lowest bit, as strace does. */
static int by_value(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	uint64_t lx = x->value & -x->value, ly = y->value & -y->value;
	return lx < ly ? -1 : lx > ly;
}

/* The bits of @v under the entry's enum_mask: a name, or the number unless 0. */
static void put_enum_part(struct out *o, const struct decode_param *d,
			  const struct scg_arch *arch, uint64_t mask, uint64_t v, bool sep)
{
	uint64_t e = v & d->enum_mask;
	const char *name = name_of(d->enum_set, arch, mask, e);
	if (name)
		put(o, "%s%s", sep ? "|" : "", name);
	else if (e)
		put(o, "%s%#" PRIx64, sep ? "|" : "", e);
}

static void put_flags(struct out *o, const struct decode_param *d, const struct scg_arch *arch,
		      uint64_t mask, uint64_t v)
{
	if (v == mask && mask > 0xff) { /* -1: "all of them" or a query, not a set of flags */
		put_hex(o, v);
		return;
	}
	size_t start = o->len;
	uint64_t mode = d->mode_bits ? v & 0777 : 0, rest = v & ~mode;
	if (d->enum_set && !d->enum_last)
		put_enum_part(o, d, arch, mask, v, false);
	rest &= ~d->enum_mask;
	struct member m[MAX_MEMBERS], chosen[MAX_MEMBERS] = { 0 };
	size_t n = members_of(d->set, arch, mask, m, MAX_MEMBERS), nchosen = 0;
	qsort(m, n, sizeof(m[0]), by_bits_first);
	const char *zero = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!m[i].value) {
			zero = zero ? zero : m[i].name;
			continue;
		}
		if ((m[i].value & d->enum_mask) || (rest & m[i].value) != m[i].value)
			continue;
		chosen[nchosen++] = m[i];
		rest &= ~m[i].value;
	}
	qsort(chosen, nchosen, sizeof(chosen[0]), by_value);
	for (size_t i = 0; i < nchosen; i++)
		put(o, "%s%s", o->len > start ? "|" : "", chosen[i].name);
	if (d->enum_set && d->enum_last)
		put_enum_part(o, d, arch, mask, v, o->len > start);
	if (rest)
		put(o, "%s%#" PRIx64, o->len > start ? "|" : "", rest);
	if (mode)
		put(o, "%s%#" PRIo64, o->len > start ? "|" : "", mode);
	else if (o->len == start)
		put(o, "%s", zero ? zero : "0");
}

static bool type_is(const struct scg_syscall_param *p, const char *type)
{
	return !strcmp(p->type, type);
}

static bool is_pointer(const struct scg_syscall_param *p)
{
	return strchr(p->type, '*') || strstr(p->type, "[]") || type_is(p, "cap_user_header_t") ||
	       type_is(p, "cap_user_data_t") || type_is(p, "const cap_user_data_t") ||
	       type_is(p, "sighandler_t") || type_is(p, "caddr_t");
}

static bool is_string(const struct scg_syscall_param *p)
{
	return strstr(p->type, "const char *") && !strstr(p->type, "**") && !strstr(p->type, "[]") &&
	       !strstr(p->type, "* const");
}

static bool is_signed(const struct scg_syscall_param *p)
{
	static const char unsigned_words[][10] = {"unsigned", "size_t",	  "uid_t", "gid_t",
						  "uint",     "__u",	  "u32",   "u64",
						  "dev_t",    "socklen_t"};
	if (!strncmp(p->type, "ssize_t", 7))
		return true;
	for (size_t i = 0; i < sizeof(unsigned_words) / sizeof(unsigned_words[0]); i++)
		if (strstr(p->type, unsigned_words[i]))
			return false;
	return true;
}

/* A plain integer or pointer of @bits bits, by its C type. */
static void put_number(struct out *o, const struct scg_syscall_param *p, unsigned bits, uint64_t v)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	v &= mask;
	if (is_pointer(p)) {
		put_pointer(o, v);
	} else if (type_is(p, "mode_t") || type_is(p, "umode_t")) {
		put(o, v ? "%#" PRIo64 : "%" PRIu64, v);
	} else if (is_signed(p) && (v >> (bits - 1)) & 1) {
		put(o, "-%" PRIu64, ((~v) & mask) + 1);
	} else if (v < 0x10000) {
		put(o, "%" PRIu64, v);
	} else {
		put_hex(o, v);
	}
}

/* What is needed to print one call: its ABI, arguments and memory. */
struct call {
	const struct scg_arch *arch;
	const char *name;
	const struct scg_syscall_params *params;
	const uint64_t *args;
	const struct scg_call_memory *mem;
	unsigned flags;
};

static void put_quoted(struct out *o, const char *s, size_t len, bool cut)
{
	put(o, "\"");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c == '\n')
			put(o, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			put(o, "\\x%02x", c);
		else
			put(o, "%c", c);
	}
	put(o, cut ? "\"..." : "\"");
}

static void put_string_arg(struct out *o, struct call *c, uint64_t addr)
{
	char text[256];
	ssize_t n = -EFAULT;
	if (addr && c->mem && c->mem->read_string)
		n = c->mem->read_string(c->mem->ctx, addr, text, sizeof(text));
	if (n < 0 && n != -ENAMETOOLONG) {
		put_pointer(o, addr);
		return;
	}
	c->flags |= SCG_CALL_READ_MEMORY;
	put_quoted(o, text, strlen(text), n == -ENAMETOOLONG);
}

/* A `const void *buf` followed by its length: data the call reads (write's). */
static bool is_data_in(const struct scg_syscall_params *params, unsigned i)
{
	if (i + 1 >= params->count || strcmp(params->params[i].type, "const void *"))
		return false;
	const char *next = params->params[i + 1].name;
	return !strcmp(next, "count") || !strcmp(next, "len") || !strcmp(next, "nbytes");
}

static void put_data_arg(struct out *o, struct call *c, uint64_t addr, uint64_t count)
{
	char data[32];
	size_t want = count < sizeof(data) ? (size_t)count : sizeof(data);
	ssize_t n = -EFAULT;
	if (want > 0 && addr && c->mem && c->mem->read)
		n = c->mem->read(c->mem->ctx, addr, data, want);
	if (want == 0) {
		put(o, "\"\"");
	} else if (n <= 0) {
		put_pointer(o, addr);
	} else {
		c->flags |= SCG_CALL_READ_MEMORY;
		put_quoted(o, data, (size_t)n, (uint64_t)n < count);
	}
}

/* clone3's struct clone_args starts with its 64-bit flags. */
static void put_clone_args(struct out *o, struct call *c, const struct decode_param *d,
			   uint64_t addr)
{
	uint64_t flags;
	if (!addr || !c->mem || !c->mem->read ||
	    c->mem->read(c->mem->ctx, addr, &flags, sizeof(flags)) != (ssize_t)sizeof(flags)) {
		put_pointer(o, addr);
		return;
	}
	c->flags |= SCG_CALL_READ_MEMORY;
	put(o, "{flags=");
	put_flags(o, d, c->arch, UINT64_MAX, flags);
	put(o, ", ...}");
}

/* The decoder entry for argument @i, if its condition on another argument holds. */
static const struct decode_param *entry_for(const struct call *c, unsigned i)
{
	const struct scg_syscall_param *p = &c->params->params[i];
	const struct decode_param *d = p->name[0] ? decode_param_find(c->name, p->name) : NULL;
	for (; d; d = decode_param_next(d)) {
		if (!d->when)
			return d;
		unsigned w = d->when_arg;
		unsigned bits = scg_syscall_arg_width(c->arch, c->name, w);
		uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
		if (bits && name_of(d->when, c->arch, mask, c->args[w] & mask))
			return d;
	}
	return NULL;
}

static void put_arg(struct out *o, struct call *c, unsigned i)
{
	const struct scg_syscall_param *p = &c->params->params[i];
	uint64_t v = c->args[i];
	unsigned bits = scg_syscall_arg_width(c->arch, c->name, i);
	if (!bits) { /* the table cannot tell how the ABI lays this one out */
		put_hex(o, v);
		return;
	}
	uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	const struct decode_param *d = entry_for(c, i);
	const char *name;
	if (d && d->kind == DECODE_CLONE_ARGS) {
		put_clone_args(o, c, d, v & mask);
	} else if (is_string(p) && c->mem) {
		put_string_arg(o, c, v & mask);
	} else if (is_data_in(c->params, i) && c->mem) {
		put_data_arg(o, c, v & mask, c->args[i + 1]);
	} else if (d && d->kind == DECODE_FLAGS) {
		put_flags(o, d, c->arch, mask, v & mask);
	} else if (d && (name = name_of(d->set, c->arch, mask, v & mask))) {
		put(o, "%s", name);
	} else {
		put_number(o, p, bits, v);
	}
}

int scg_call_format(const struct scg_arch *arch, uint32_t nr, const uint64_t args[6],
		    const struct scg_call_memory *mem, char *buf, size_t size, unsigned *flags)
{
	struct out o = { buf, size, 0 };
	struct call c = { .arch = arch, .args = args, .mem = mem };
	c.name = arch ? scg_syscall_name(arch, nr) : NULL;
	c.params = c.name ? scg_syscall_params(c.name) : NULL;
	if (c.name)
		put(&o, "%s(", c.name);
	else
		put(&o, "syscall_%#" PRIx32 "(", nr);
	unsigned count = c.params ? c.params->count : 6;
	for (unsigned i = 0; i < count; i++) {
		put(&o, "%s", i ? ", " : "");
		if (c.params)
			put_arg(&o, &c, i);
		else
			put_hex(&o, args[i]);
	}
	put(&o, ")");
	if (size && o.len >= size)
		buf[size - 1] = '\0';
	if (flags)
		*flags = c.flags;
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}

int decode_arg_format(const struct scg_arch *arch, const char *syscall, unsigned index,
		      const uint64_t args[6], char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct call c = { .arch = arch, .name = syscall, .args = args };
	c.params = syscall ? scg_syscall_params(syscall) : NULL;
	if (arch && c.params && index < c.params->count)
		put_arg(&o, &c, index);
	else
		put_hex(&o, index < 6 ? args[index] : 0);
	if (size && o.len >= size)
		buf[size - 1] = '\0';
	return o.len > INT32_MAX ? INT32_MAX : (int)o.len;
}

int scg_arg_format(const struct scg_arch *arch, const char *syscall, unsigned index,
		   uint64_t value, char *buf, size_t size)
{
	/* alone, an argument whose names depend on another's keeps its number */
	uint64_t args[6] = { 0 };
	if (index >= 6)
		return decode_arg_format(arch, syscall, index, args, buf, size);
	args[index] = value;
	const struct scg_syscall_params *p = syscall ? scg_syscall_params(syscall) : NULL;
	const struct decode_param *d = p && index < p->count && p->params[index].name[0]
					       ? decode_param_find(syscall, p->params[index].name)
					       : NULL;
	if (d && d->when && d->when_arg < 6)
		args[d->when_arg] = UINT64_MAX; /* no constant of a level: the condition fails */
	return decode_arg_format(arch, syscall, index, args, buf, size);
}
