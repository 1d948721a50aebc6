/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errno and AUDIT_ARCH_* names.  errno values are the kernel's (what a
 * filter's SECCOMP_RET_ERRNO data must hold), which depend on the ABI:
 * 1..34 are the same everywhere, above that MIPS and PA-RISC keep their own
 * historical numbering (and PowerPC gives EDEADLOCK a value of its own).
 */
#include <errno.h>
#include <strings.h>

#include "internal.h"
#include "util/suggest.h"

/* Names in place, not pointers: the tables need no relocation when the library loads. */
struct named_value {
	char name[28]; /* the longest names have 22 characters (AUDIT_ARCH_LOONGARCH64) */
	uint32_t value;
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

struct value_list {
	const struct named_value *items;
	size_t count;
};

struct errno_numbering {
	struct value_list parts[3];
};

/* clang-format off */
/* Tables laid out by hand, several entries a line. */
#define LIST(a) { (a), COUNT_OF(a) }

/* 1..34: shared by every Linux ABI. */
static const struct named_value errno_base[] = {
	{ "EPERM", 1 },	   { "ENOENT", 2 },   { "ESRCH", 3 },	{ "EINTR", 4 },
	{ "EIO", 5 },	   { "ENXIO", 6 },    { "E2BIG", 7 },	{ "ENOEXEC", 8 },
	{ "EBADF", 9 },	   { "ECHILD", 10 },  { "EAGAIN", 11 }, { "ENOMEM", 12 },
	{ "EACCES", 13 },  { "EFAULT", 14 },  { "ENOTBLK", 15 }, { "EBUSY", 16 },
	{ "EEXIST", 17 },  { "EXDEV", 18 },   { "ENODEV", 19 }, { "ENOTDIR", 20 },
	{ "EISDIR", 21 },  { "EINVAL", 22 },  { "ENFILE", 23 }, { "EMFILE", 24 },
	{ "ENOTTY", 25 },  { "ETXTBSY", 26 }, { "EFBIG", 27 },	{ "ENOSPC", 28 },
	{ "ESPIPE", 29 },  { "EROFS", 30 },   { "EMLINK", 31 }, { "EPIPE", 32 },
	{ "EDOM", 33 },	   { "ERANGE", 34 },
};

/*
 * Above 34, per numbering.  Aliases come last so that a value's first name
 * is its usual one (EAGAIN, not EWOULDBLOCK).
 */
static const struct named_value errno_generic[] = {
	{ "EDEADLK", 35 },	    { "ENAMETOOLONG", 36 },    { "ENOLCK", 37 },
	{ "ENOSYS", 38 },	    { "ENOTEMPTY", 39 },       { "ELOOP", 40 },
	{ "ENOMSG", 42 },	    { "EIDRM", 43 },	       { "ECHRNG", 44 },
	{ "EL2NSYNC", 45 },	    { "EL3HLT", 46 },	       { "EL3RST", 47 },
	{ "ELNRNG", 48 },	    { "EUNATCH", 49 },	       { "ENOCSI", 50 },
	{ "EL2HLT", 51 },	    { "EBADE", 52 },	       { "EBADR", 53 },
	{ "EXFULL", 54 },	    { "ENOANO", 55 },	       { "EBADRQC", 56 },
	{ "EBADSLT", 57 },	    { "EBFONT", 59 },	       { "ENOSTR", 60 },
	{ "ENODATA", 61 },	    { "ETIME", 62 },	       { "ENOSR", 63 },
	{ "ENONET", 64 },	    { "ENOPKG", 65 },	       { "EREMOTE", 66 },
	{ "ENOLINK", 67 },	    { "EADV", 68 },	       { "ESRMNT", 69 },
	{ "ECOMM", 70 },	    { "EPROTO", 71 },	       { "EMULTIHOP", 72 },
	{ "EDOTDOT", 73 },	    { "EBADMSG", 74 },	       { "EOVERFLOW", 75 },
	{ "ENOTUNIQ", 76 },	    { "EBADFD", 77 },	       { "EREMCHG", 78 },
	{ "ELIBACC", 79 },	    { "ELIBBAD", 80 },	       { "ELIBSCN", 81 },
	{ "ELIBMAX", 82 },	    { "ELIBEXEC", 83 },	       { "EILSEQ", 84 },
	{ "ERESTART", 85 },	    { "ESTRPIPE", 86 },	       { "EUSERS", 87 },
	{ "ENOTSOCK", 88 },	    { "EDESTADDRREQ", 89 },    { "EMSGSIZE", 90 },
	{ "EPROTOTYPE", 91 },	    { "ENOPROTOOPT", 92 },     { "EPROTONOSUPPORT", 93 },
	{ "ESOCKTNOSUPPORT", 94 },  { "EOPNOTSUPP", 95 },      { "EPFNOSUPPORT", 96 },
	{ "EAFNOSUPPORT", 97 },	    { "EADDRINUSE", 98 },      { "EADDRNOTAVAIL", 99 },
	{ "ENETDOWN", 100 },	    { "ENETUNREACH", 101 },    { "ENETRESET", 102 },
	{ "ECONNABORTED", 103 },    { "ECONNRESET", 104 },     { "ENOBUFS", 105 },
	{ "EISCONN", 106 },	    { "ENOTCONN", 107 },       { "ESHUTDOWN", 108 },
	{ "ETOOMANYREFS", 109 },    { "ETIMEDOUT", 110 },      { "ECONNREFUSED", 111 },
	{ "EHOSTDOWN", 112 },	    { "EHOSTUNREACH", 113 },   { "EALREADY", 114 },
	{ "EINPROGRESS", 115 },	    { "ESTALE", 116 },	       { "EUCLEAN", 117 },
	{ "ENOTNAM", 118 },	    { "ENAVAIL", 119 },	       { "EISNAM", 120 },
	{ "EREMOTEIO", 121 },	    { "EDQUOT", 122 },	       { "ENOMEDIUM", 123 },
	{ "EMEDIUMTYPE", 124 },	    { "ECANCELED", 125 },      { "ENOKEY", 126 },
	{ "EKEYEXPIRED", 127 },	    { "EKEYREVOKED", 128 },    { "EKEYREJECTED", 129 },
	{ "EOWNERDEAD", 130 },	    { "ENOTRECOVERABLE", 131 }, { "ERFKILL", 132 },
	{ "EHWPOISON", 133 },
	/* aliases */
	{ "EWOULDBLOCK", 11 },	    { "EDEADLOCK", 35 },       { "ENOTSUP", 95 },
};

/* MIPS: the numbering of the MIPS System V ABI. */
static const struct named_value errno_mips[] = {
	{ "ENOMSG", 35 },	    { "EIDRM", 36 },	       { "ECHRNG", 37 },
	{ "EL2NSYNC", 38 },	    { "EL3HLT", 39 },	       { "EL3RST", 40 },
	{ "ELNRNG", 41 },	    { "EUNATCH", 42 },	       { "ENOCSI", 43 },
	{ "EL2HLT", 44 },	    { "EDEADLK", 45 },	       { "ENOLCK", 46 },
	{ "EBADE", 50 },	    { "EBADR", 51 },	       { "EXFULL", 52 },
	{ "ENOANO", 53 },	    { "EBADRQC", 54 },	       { "EBADSLT", 55 },
	{ "EDEADLOCK", 56 },	    { "EBFONT", 59 },	       { "ENOSTR", 60 },
	{ "ENODATA", 61 },	    { "ETIME", 62 },	       { "ENOSR", 63 },
	{ "ENONET", 64 },	    { "ENOPKG", 65 },	       { "EREMOTE", 66 },
	{ "ENOLINK", 67 },	    { "EADV", 68 },	       { "ESRMNT", 69 },
	{ "ECOMM", 70 },	    { "EPROTO", 71 },	       { "EDOTDOT", 73 },
	{ "EMULTIHOP", 74 },	    { "EBADMSG", 77 },	       { "ENAMETOOLONG", 78 },
	{ "EOVERFLOW", 79 },	    { "ENOTUNIQ", 80 },	       { "EBADFD", 81 },
	{ "EREMCHG", 82 },	    { "ELIBACC", 83 },	       { "ELIBBAD", 84 },
	{ "ELIBSCN", 85 },	    { "ELIBMAX", 86 },	       { "ELIBEXEC", 87 },
	{ "EILSEQ", 88 },	    { "ENOSYS", 89 },	       { "ELOOP", 90 },
	{ "ERESTART", 91 },	    { "ESTRPIPE", 92 },	       { "ENOTEMPTY", 93 },
	{ "EUSERS", 94 },	    { "ENOTSOCK", 95 },	       { "EDESTADDRREQ", 96 },
	{ "EMSGSIZE", 97 },	    { "EPROTOTYPE", 98 },      { "ENOPROTOOPT", 99 },
	{ "EPROTONOSUPPORT", 120 }, { "ESOCKTNOSUPPORT", 121 }, { "EOPNOTSUPP", 122 },
	{ "EPFNOSUPPORT", 123 },    { "EAFNOSUPPORT", 124 },   { "EADDRINUSE", 125 },
	{ "EADDRNOTAVAIL", 126 },   { "ENETDOWN", 127 },       { "ENETUNREACH", 128 },
	{ "ENETRESET", 129 },	    { "ECONNABORTED", 130 },   { "ECONNRESET", 131 },
	{ "ENOBUFS", 132 },	    { "EISCONN", 133 },	       { "ENOTCONN", 134 },
	{ "EUCLEAN", 135 },	    { "ENOTNAM", 137 },	       { "ENAVAIL", 138 },
	{ "EISNAM", 139 },	    { "EREMOTEIO", 140 },      { "EINIT", 141 },
	{ "EREMDEV", 142 },	    { "ESHUTDOWN", 143 },      { "ETOOMANYREFS", 144 },
	{ "ETIMEDOUT", 145 },	    { "ECONNREFUSED", 146 },   { "EHOSTDOWN", 147 },
	{ "EHOSTUNREACH", 148 },    { "EALREADY", 149 },       { "EINPROGRESS", 150 },
	{ "ESTALE", 151 },	    { "ECANCELED", 158 },      { "ENOMEDIUM", 159 },
	{ "EMEDIUMTYPE", 160 },	    { "ENOKEY", 161 },	       { "EKEYEXPIRED", 162 },
	{ "EKEYREVOKED", 163 },	    { "EKEYREJECTED", 164 },   { "EOWNERDEAD", 165 },
	{ "ENOTRECOVERABLE", 166 }, { "ERFKILL", 167 },	       { "EHWPOISON", 168 },
	{ "EDQUOT", 1133 },
	/* aliases; the kernel header has no ENOTSUP, the C library makes it EOPNOTSUPP */
	{ "EWOULDBLOCK", 11 },	    { "ENOTSUP", 122 },
};

/* PA-RISC: HP-UX numbers where HP-UX had the error, Linux additions at 160..187. */
static const struct named_value errno_parisc[] = {
	{ "ENOMSG", 35 },	    { "EIDRM", 36 },	       { "ECHRNG", 37 },
	{ "EL2NSYNC", 38 },	    { "EL3HLT", 39 },	       { "EL3RST", 40 },
	{ "ELNRNG", 41 },	    { "EUNATCH", 42 },	       { "ENOCSI", 43 },
	{ "EL2HLT", 44 },	    { "EDEADLK", 45 },	       { "ENOLCK", 46 },
	{ "EILSEQ", 47 },	    { "ENONET", 50 },	       { "ENODATA", 51 },
	{ "ETIME", 52 },	    { "ENOSR", 53 },	       { "ENOSTR", 54 },
	{ "ENOPKG", 55 },	    { "ENOLINK", 57 },	       { "EADV", 58 },
	{ "ESRMNT", 59 },	    { "ECOMM", 60 },	       { "EPROTO", 61 },
	{ "EMULTIHOP", 64 },	    { "EDOTDOT", 66 },	       { "EBADMSG", 67 },
	{ "EUSERS", 68 },	    { "EDQUOT", 69 },	       { "ESTALE", 70 },
	{ "EREMOTE", 71 },	    { "EOVERFLOW", 72 },       { "EBADE", 160 },
	{ "EBADR", 161 },	    { "EXFULL", 162 },	       { "ENOANO", 163 },
	{ "EBADRQC", 164 },	    { "EBADSLT", 165 },	       { "EBFONT", 166 },
	{ "ENOTUNIQ", 167 },	    { "EBADFD", 168 },	       { "EREMCHG", 169 },
	{ "ELIBACC", 170 },	    { "ELIBBAD", 171 },	       { "ELIBSCN", 172 },
	{ "ELIBMAX", 173 },	    { "ELIBEXEC", 174 },       { "ERESTART", 175 },
	{ "ESTRPIPE", 176 },	    { "EUCLEAN", 177 },	       { "ENOTNAM", 178 },
	{ "ENAVAIL", 179 },	    { "EISNAM", 180 },	       { "EREMOTEIO", 181 },
	{ "ENOMEDIUM", 182 },	    { "EMEDIUMTYPE", 183 },    { "ENOKEY", 184 },
	{ "EKEYEXPIRED", 185 },	    { "EKEYREVOKED", 186 },    { "EKEYREJECTED", 187 },
	/* HP-UX leftovers that no Linux code path returns */
	{ "ENOSYM", 215 },	    { "EREMOTERELEASE", 240 },
	{ "ENOTSOCK", 216 },	    { "EDESTADDRREQ", 217 },   { "EMSGSIZE", 218 },
	{ "EPROTOTYPE", 219 },	    { "ENOPROTOOPT", 220 },    { "EPROTONOSUPPORT", 221 },
	{ "ESOCKTNOSUPPORT", 222 }, { "EOPNOTSUPP", 223 },     { "EPFNOSUPPORT", 224 },
	{ "EAFNOSUPPORT", 225 },    { "EADDRINUSE", 226 },     { "EADDRNOTAVAIL", 227 },
	{ "ENETDOWN", 228 },	    { "ENETUNREACH", 229 },    { "ENETRESET", 230 },
	{ "ECONNABORTED", 231 },    { "ECONNRESET", 232 },     { "ENOBUFS", 233 },
	{ "EISCONN", 234 },	    { "ENOTCONN", 235 },       { "ESHUTDOWN", 236 },
	{ "ETOOMANYREFS", 237 },    { "ETIMEDOUT", 238 },      { "ECONNREFUSED", 239 },
	{ "EHOSTDOWN", 241 },	    { "EHOSTUNREACH", 242 },   { "EALREADY", 244 },
	{ "EINPROGRESS", 245 },	    { "ENOTEMPTY", 247 },      { "ENAMETOOLONG", 248 },
	{ "ELOOP", 249 },	    { "ENOSYS", 251 },	       { "ENOTSUP", 252 },
	{ "ECANCELED", 253 },	    { "EOWNERDEAD", 254 },     { "ENOTRECOVERABLE", 255 },
	{ "ERFKILL", 256 },	    { "EHWPOISON", 257 },
	/* aliases */
	{ "EWOULDBLOCK", 11 },	    { "EDEADLOCK", 45 },       { "EREFUSED", 239 },
	{ "ECANCELLED", 253 },
};

/* PowerPC: the generic numbering, but EDEADLOCK is not an alias of EDEADLK. */
static const struct named_value errno_powerpc[] = {
	{ "EDEADLOCK", 58 },
};

/* A numbering is up to three lists searched in order; the first hit wins. */
static const struct errno_numbering numberings[] = {
	[ERRNO_FAMILY_GENERIC] = { { LIST(errno_base), LIST(errno_generic) } },
	[ERRNO_FAMILY_POWERPC] = { { LIST(errno_base), LIST(errno_powerpc), LIST(errno_generic) } },
	[ERRNO_FAMILY_MIPS] = { { LIST(errno_base), LIST(errno_mips) } },
	[ERRNO_FAMILY_PARISC] = { { LIST(errno_base), LIST(errno_parisc) } },
};
/* clang-format on */

#define NUMBERING_PARTS COUNT_OF(numberings[0].parts)

static const struct named_value *find_name(const struct value_list *list, const char *name)
{
	for (size_t i = 0; i < list->count; i++)
		if (!strcasecmp(list->items[i].name, name))
			return &list->items[i];
	return NULL;
}

static const struct named_value *find_value(const struct value_list *list, uint32_t value)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].value == value)
			return &list->items[i];
	return NULL;
}

static const struct errno_numbering *numbering_of(const struct scg_arch *arch)
{
	return &numberings[arch_errno_family(arch)];
}

int scg_errno_lookup(const struct scg_arch *arch, const char *name, uint32_t *value)
{
	if (!name || !value)
		return -EINVAL;
	const struct errno_numbering *n = numbering_of(arch);
	for (size_t i = 0; i < NUMBERING_PARTS; i++) {
		const struct named_value *hit = find_name(&n->parts[i], name);
		if (hit) {
			*value = hit->value;
			return 0;
		}
	}
	return -ENOENT;
}

const char *scg_errno_name(const struct scg_arch *arch, uint32_t value)
{
	const struct errno_numbering *n = numbering_of(arch);
	for (size_t i = 0; i < NUMBERING_PARTS; i++) {
		const struct named_value *hit = find_value(&n->parts[i], value);
		if (hit)
			return hit->name;
	}
	return NULL;
}

const char *scg_errno_suggest(const char *name)
{
	if (!name)
		return NULL;
	struct suggest s;
	suggest_init(&s, name);
	for (size_t n = 0; n < COUNT_OF(numberings); n++)
		for (size_t i = 0; i < NUMBERING_PARTS; i++) {
			const struct value_list *list = &numberings[n].parts[i];
			for (size_t j = 0; j < list->count; j++)
				suggest_consider(&s, list->items[j].name);
		}
	return suggest_result(&s);
}

/* clang-format off */
/* linux/audit.h values for the ABIs syscage describes. */
static const struct named_value audit_arches[] = {
	{ "AUDIT_ARCH_X86_64", 0xc000003eU },	   { "AUDIT_ARCH_I386", 0x40000003U },
	{ "AUDIT_ARCH_AARCH64", 0xc00000b7U },	   { "AUDIT_ARCH_ARM", 0x40000028U },
	{ "AUDIT_ARCH_RISCV64", 0xc00000f3U },	   { "AUDIT_ARCH_LOONGARCH64", 0xc0000102U },
	{ "AUDIT_ARCH_MIPS", 0x00000008U },	   { "AUDIT_ARCH_MIPSEL", 0x40000008U },
	{ "AUDIT_ARCH_MIPS64", 0x80000008U },	   { "AUDIT_ARCH_MIPSEL64", 0xc0000008U },
	{ "AUDIT_ARCH_MIPS64N32", 0xa0000008U },   { "AUDIT_ARCH_MIPSEL64N32", 0xe0000008U },
	{ "AUDIT_ARCH_PPC", 0x00000014U },	   { "AUDIT_ARCH_PPC64", 0x80000015U },
	{ "AUDIT_ARCH_PPC64LE", 0xc0000015U },	   { "AUDIT_ARCH_S390", 0x00000016U },
	{ "AUDIT_ARCH_S390X", 0x80000016U },	   { "AUDIT_ARCH_PARISC", 0x0000000fU },
	{ "AUDIT_ARCH_PARISC64", 0x8000000fU },	   { "AUDIT_ARCH_M68K", 0x00000004U },
	{ "AUDIT_ARCH_SH", 0x0000002aU },	   { "AUDIT_ARCH_SHEL", 0x4000002aU },
};

/* clang-format on */

static const struct value_list audit_arch_list = LIST(audit_arches);

int scg_audit_arch_lookup(const char *name, uint32_t *value)
{
	if (!name || !value)
		return -EINVAL;
	const struct named_value *hit = find_name(&audit_arch_list, name);
	if (!hit)
		return -ENOENT;
	*value = hit->value;
	return 0;
}

const char *scg_audit_arch_name(uint32_t value)
{
	const struct named_value *hit = find_value(&audit_arch_list, value);
	return hit ? hit->name : NULL;
}
