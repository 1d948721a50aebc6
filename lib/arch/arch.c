/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One static descriptor per kernel ABI as seccomp sees it.  Everything about
 * an ABI is data here; code elsewhere asks the descriptor instead of testing
 * for particular architectures.
 */
#include <errno.h>
#include <limits.h>
#include <strings.h>

#include "internal.h"
#include "util/suggest.h"

/* ELF machine numbers (e_machine), the low 16 bits of every AUDIT_ARCH_* value. */
#define EM_M68K	     4U
#define EM_MIPS	     8U
#define EM_PARISC    15U
#define EM_PPC	     20U
#define EM_PPC64     21U
#define EM_S390	     22U
#define EM_386	     3U
#define EM_ARM	     40U
#define EM_SH	     42U
#define EM_X86_64    62U
#define EM_AARCH64   183U
#define EM_RISCV     243U
#define EM_LOONGARCH 258U

#define AUDIT_64  SCG_AUDIT_ARCH_64BIT
#define AUDIT_LE  SCG_AUDIT_ARCH_LE
#define AUDIT_N32 SCG_AUDIT_ARCH_MIPS64_N32

/* Positions in arches[]; this is also the stable order scg_arch_at() reports. */
enum arch_id {
	ARCH_X86_64,
	ARCH_X86,
	ARCH_X32,
	ARCH_AARCH64,
	ARCH_ARM,
	ARCH_RISCV64,
	ARCH_LOONGARCH64,
	ARCH_MIPS,
	ARCH_MIPSEL,
	ARCH_MIPS64,
	ARCH_MIPSEL64,
	ARCH_MIPS64N32,
	ARCH_MIPSEL64N32,
	ARCH_PPC,
	ARCH_PPC64,
	ARCH_PPC64LE,
	ARCH_S390,
	ARCH_S390X,
	ARCH_PARISC,
	ARCH_PARISC64,
	ARCH_M68K,
	ARCH_SH,
	ARCH_SHEB,
	ARCH_COUNT,
	ARCH_NONE = -1,
};

_Static_assert(ARCH_COUNT <= UCHAR_MAX, "companions are stored as unsigned char");

/* Aliases: other projects' spellings and `uname -m` answers. */
#define ALIASES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NO_ALIASES   ((const char *const[]){NULL})

/* clang-format off */
/* One descriptor per block reads better than one field per line. */
static const struct scg_arch arches[ARCH_COUNT] = {
	[ARCH_X86_64] = {
		.mask_bit = SCG_ARCH_BIT_X86_64,
		.name = "x86_64", .aliases = ALIASES("amd64", "x86-64", "x64"),
		.audit = EM_X86_64 | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_x86_64,
		.companions = { ARCH_X86, ARCH_X32 }, .n_companions = 2,
	},
	[ARCH_X86] = {
		.mask_bit = SCG_ARCH_BIT_X86,
		.name = "x86", .aliases = ALIASES("i386", "i486", "i586", "i686", "ia32", "x86_32"),
		.audit = EM_386 | AUDIT_LE, .bits = 32,
		.table = &syscall_table_i386,
	},
	/* x32 reports AUDIT_ARCH_X86_64; only bit 30 of nr tells it apart. */
	[ARCH_X32] = {
		.mask_bit = SCG_ARCH_BIT_X32,
		.name = "x32", .aliases = ALIASES("x86_x32", "x86-x32"),
		.audit = EM_X86_64 | AUDIT_64 | AUDIT_LE, .bits = 32,
		.nr_flags = SCG_X32_SYSCALL_BIT,
		.table = &syscall_table_x32,
	},
	[ARCH_AARCH64] = {
		.mask_bit = SCG_ARCH_BIT_AARCH64,
		.name = "aarch64", .aliases = ALIASES("arm64"),
		.audit = EM_AARCH64 | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_arm64,
		.companions = { ARCH_ARM }, .n_companions = 1,
	},
	[ARCH_ARM] = {
		.mask_bit = SCG_ARCH_BIT_ARM,
		.name = "arm",
		.aliases = ALIASES("armhf", "armel", "armv6l", "armv7l", "arm-eabi", "aarch32"),
		.audit = EM_ARM | AUDIT_LE, .bits = 32,
		.table = &syscall_table_arm,
	},
	[ARCH_RISCV64] = {
		.mask_bit = SCG_ARCH_BIT_RISCV64,
		.name = "riscv64", .aliases = ALIASES("riscv", "rv64"),
		.audit = EM_RISCV | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_riscv64,
	},
	[ARCH_LOONGARCH64] = {
		.mask_bit = SCG_ARCH_BIT_LOONGARCH64,
		.name = "loongarch64", .aliases = ALIASES("loong64", "loongarch"),
		.audit = EM_LOONGARCH | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_loongarch64,
	},
	/* The MIPS variants of one ABI share numbers; only the byte order differs. */
	[ARCH_MIPS] = {
		.mask_bit = SCG_ARCH_BIT_MIPS,
		.name = "mips", .aliases = ALIASES("mipso32", "mipsbe", "mipseb"),
		.audit = EM_MIPS, .bits = 32, .big_endian = true,
		.table = &syscall_table_mipso32, .errno_family = ERRNO_FAMILY_MIPS,
	},
	[ARCH_MIPSEL] = {
		.mask_bit = SCG_ARCH_BIT_MIPSEL,
		.name = "mipsel", .aliases = ALIASES("mipselo32", "mipso32el", "mipsle"),
		.audit = EM_MIPS | AUDIT_LE, .bits = 32,
		.table = &syscall_table_mipso32, .errno_family = ERRNO_FAMILY_MIPS,
	},
	[ARCH_MIPS64] = {
		.mask_bit = SCG_ARCH_BIT_MIPS64,
		.name = "mips64", .aliases = ALIASES("mips64n64", "mipsn64"),
		.audit = EM_MIPS | AUDIT_64, .bits = 64, .big_endian = true,
		.table = &syscall_table_mips64, .errno_family = ERRNO_FAMILY_MIPS,
		.companions = { ARCH_MIPS, ARCH_MIPS64N32 }, .n_companions = 2,
	},
	[ARCH_MIPSEL64] = {
		.mask_bit = SCG_ARCH_BIT_MIPSEL64,
		.name = "mipsel64", .aliases = ALIASES("mips64el", "mipsel64n64", "mips64eln64"),
		.audit = EM_MIPS | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_mips64, .errno_family = ERRNO_FAMILY_MIPS,
		.companions = { ARCH_MIPSEL, ARCH_MIPSEL64N32 }, .n_companions = 2,
	},
	/* n32: 32-bit pointers on a 64-bit kernel, so AUDIT_ARCH has the 64-bit bit. */
	[ARCH_MIPS64N32] = {
		.mask_bit = SCG_ARCH_BIT_MIPS64N32,
		.name = "mips64n32", .aliases = ALIASES("mipsn32"),
		.audit = EM_MIPS | AUDIT_64 | AUDIT_N32, .bits = 32, .big_endian = true,
		.table = &syscall_table_mips64n32, .errno_family = ERRNO_FAMILY_MIPS,
	},
	[ARCH_MIPSEL64N32] = {
		.mask_bit = SCG_ARCH_BIT_MIPSEL64N32,
		.name = "mipsel64n32", .aliases = ALIASES("mipsn32el", "mips64eln32"),
		.audit = EM_MIPS | AUDIT_64 | AUDIT_LE | AUDIT_N32, .bits = 32,
		.table = &syscall_table_mips64n32, .errno_family = ERRNO_FAMILY_MIPS,
	},
	[ARCH_PPC] = {
		.mask_bit = SCG_ARCH_BIT_PPC,
		.name = "ppc", .aliases = ALIASES("powerpc"),
		.audit = EM_PPC, .bits = 32, .big_endian = true,
		.table = &syscall_table_powerpc, .errno_family = ERRNO_FAMILY_POWERPC,
	},
	[ARCH_PPC64] = {
		.mask_bit = SCG_ARCH_BIT_PPC64,
		.name = "ppc64", .aliases = ALIASES("powerpc64"),
		.audit = EM_PPC64 | AUDIT_64, .bits = 64, .big_endian = true,
		.table = &syscall_table_powerpc64, .errno_family = ERRNO_FAMILY_POWERPC,
		.companions = { ARCH_PPC }, .n_companions = 1,
	},
	[ARCH_PPC64LE] = {
		.mask_bit = SCG_ARCH_BIT_PPC64LE,
		.name = "ppc64le", .aliases = ALIASES("powerpc64le"),
		.audit = EM_PPC64 | AUDIT_64 | AUDIT_LE, .bits = 64,
		.table = &syscall_table_powerpc64, .errno_family = ERRNO_FAMILY_POWERPC,
	},
	[ARCH_S390] = {
		.mask_bit = SCG_ARCH_BIT_S390,
		.name = "s390", .aliases = NO_ALIASES,
		.audit = EM_S390, .bits = 32, .big_endian = true,
		.table = &syscall_table_s390,
	},
	[ARCH_S390X] = {
		.mask_bit = SCG_ARCH_BIT_S390X,
		.name = "s390x", .aliases = ALIASES("s390-64"),
		.audit = EM_S390 | AUDIT_64, .bits = 64, .big_endian = true,
		.table = &syscall_table_s390x,
		.companions = { ARCH_S390 }, .n_companions = 1,
	},
	[ARCH_PARISC] = {
		.mask_bit = SCG_ARCH_BIT_PARISC,
		.name = "parisc", .aliases = ALIASES("hppa", "parisc32"),
		.audit = EM_PARISC, .bits = 32, .big_endian = true,
		.table = &syscall_table_parisc, .errno_family = ERRNO_FAMILY_PARISC,
	},
	[ARCH_PARISC64] = {
		.mask_bit = SCG_ARCH_BIT_PARISC64,
		.name = "parisc64", .aliases = ALIASES("hppa64"),
		.audit = EM_PARISC | AUDIT_64, .bits = 64, .big_endian = true,
		.table = &syscall_table_parisc64, .errno_family = ERRNO_FAMILY_PARISC,
		.companions = { ARCH_PARISC }, .n_companions = 1,
	},
	[ARCH_M68K] = {
		.mask_bit = SCG_ARCH_BIT_M68K,
		.name = "m68k", .aliases = NO_ALIASES,
		.audit = EM_M68K, .bits = 32, .big_endian = true,
		.table = &syscall_table_m68k,
	},
	/* SuperH: plain AUDIT_ARCH_SH is the big-endian one. */
	[ARCH_SH] = {
		.mask_bit = SCG_ARCH_BIT_SH,
		.name = "sh", .aliases = ALIASES("sh4", "shel", "superh"),
		.audit = EM_SH | AUDIT_LE, .bits = 32,
		.table = &syscall_table_sh,
	},
	[ARCH_SHEB] = {
		.mask_bit = SCG_ARCH_BIT_SHEB,
		.name = "sheb", .aliases = ALIASES("sh4eb", "shbe"),
		.audit = EM_SH, .bits = 32, .big_endian = true,
		.table = &syscall_table_sh,
	},
};
/* clang-format on */

/* The ABI the compiler targets; one chain so nothing else needs an #if. */
#define BIG_ENDIAN_BUILD (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#if defined(__x86_64__) && defined(__ILP32__)
#define NATIVE_ARCH ARCH_X32
#elif defined(__x86_64__)
#define NATIVE_ARCH ARCH_X86_64
#elif defined(__i386__)
#define NATIVE_ARCH ARCH_X86
#elif defined(__aarch64__) && !BIG_ENDIAN_BUILD
#define NATIVE_ARCH ARCH_AARCH64
#elif defined(__arm__) && !BIG_ENDIAN_BUILD
#define NATIVE_ARCH ARCH_ARM
#elif defined(__riscv) && defined(__riscv_xlen) && __riscv_xlen == 64
#define NATIVE_ARCH ARCH_RISCV64
#elif defined(__loongarch64)
#define NATIVE_ARCH ARCH_LOONGARCH64
#elif defined(__mips__) && defined(_MIPS_SIM) && _MIPS_SIM == _ABIO32
#define NATIVE_ARCH (BIG_ENDIAN_BUILD ? ARCH_MIPS : ARCH_MIPSEL)
#elif defined(__mips__) && defined(_MIPS_SIM) && _MIPS_SIM == _ABIN32
#define NATIVE_ARCH (BIG_ENDIAN_BUILD ? ARCH_MIPS64N32 : ARCH_MIPSEL64N32)
#elif defined(__mips__) && defined(_MIPS_SIM) && _MIPS_SIM == _ABI64
#define NATIVE_ARCH (BIG_ENDIAN_BUILD ? ARCH_MIPS64 : ARCH_MIPSEL64)
#elif defined(__powerpc64__)
#define NATIVE_ARCH (BIG_ENDIAN_BUILD ? ARCH_PPC64 : ARCH_PPC64LE)
#elif defined(__powerpc__) && BIG_ENDIAN_BUILD
#define NATIVE_ARCH ARCH_PPC
#elif defined(__s390x__)
#define NATIVE_ARCH ARCH_S390X
#elif defined(__s390__)
#define NATIVE_ARCH ARCH_S390
#elif defined(__hppa__) && defined(__LP64__)
#define NATIVE_ARCH ARCH_PARISC64
#elif defined(__hppa__)
#define NATIVE_ARCH ARCH_PARISC
#elif defined(__m68k__)
#define NATIVE_ARCH ARCH_M68K
#elif defined(__sh__)
#define NATIVE_ARCH (BIG_ENDIAN_BUILD ? ARCH_SHEB : ARCH_SH)
#else
/* A target no descriptor covers (sparc, alpha, riscv32, ...): --arch still works. */
#define NATIVE_ARCH ARCH_NONE
#endif

const char *scg_arch_name(const struct scg_arch *arch)
{
	return arch ? arch->name : NULL;
}

uint32_t scg_arch_audit(const struct scg_arch *arch)
{
	return arch ? arch->audit : 0;
}

unsigned scg_arch_bits(const struct scg_arch *arch)
{
	return arch ? arch->bits : 0;
}

bool scg_arch_big_endian(const struct scg_arch *arch)
{
	return arch && arch->big_endian;
}

const char *const *scg_arch_aliases(const struct scg_arch *arch)
{
	static const char *const none[] = { NULL };
	return arch ? arch->aliases : none;
}

uint32_t scg_arch_nr_flags(const struct scg_arch *arch)
{
	return arch ? arch->nr_flags : 0;
}

enum errno_family arch_errno_family(const struct scg_arch *arch)
{
	return arch ? arch->errno_family : ERRNO_FAMILY_GENERIC;
}

/*
 * Offset of the low or high half within a 64-bit seccomp_data field.  The
 * field is stored in the ABI's byte order, so a big-endian ABI has its high
 * half first.
 */
static unsigned half_offset(const struct scg_arch *arch, bool high)
{
	return high != arch->big_endian ? 4U : 0U;
}

int scg_arch_arg_offset(const struct scg_arch *arch, unsigned arg, bool high)
{
	if (!arch || arg > 5)
		return -EINVAL;
	return (int)(SCG_DATA_ARGS + 8U * arg + half_offset(arch, high));
}

unsigned scg_arch_ip_offset(const struct scg_arch *arch, bool high)
{
	return SCG_DATA_IP + (arch ? half_offset(arch, high) : 0U);
}

size_t scg_arch_count(void)
{
	return ARCH_COUNT;
}

const struct scg_arch *scg_arch_at(size_t index)
{
	return index < ARCH_COUNT ? &arches[index] : NULL;
}

uint32_t scg_arch_mask_bit(const struct scg_arch *arch)
{
	return arch ? arch->mask_bit : 0;
}

const struct scg_arch *scg_arch_from_mask_bit(uint32_t bit)
{
	for (size_t i = 0; bit && i < ARCH_COUNT; i++)
		if (arches[i].mask_bit == bit)
			return &arches[i];
	return NULL;
}

static bool arch_has_name(const struct scg_arch *arch, const char *name)
{
	if (!strcasecmp(arch->name, name))
		return true;
	for (const char *const *alias = arch->aliases; *alias; alias++)
		if (!strcasecmp(*alias, name))
			return true;
	return false;
}

const struct scg_arch *scg_arch_lookup(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ARCH_COUNT; i++)
		if (arch_has_name(&arches[i], name))
			return &arches[i];
	return NULL;
}

const char *scg_arch_suggest(const char *name)
{
	if (!name)
		return NULL;
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		suggest_consider(&s, arches[i].name);
		for (const char *const *alias = arches[i].aliases; *alias; alias++)
			suggest_consider(&s, *alias);
	}
	return suggest_result(&s);
}

const struct scg_arch *scg_arch_native(void)
{
	int id = NATIVE_ARCH;
	return id == ARCH_NONE ? NULL : &arches[id];
}

/*
 * x32 shares AUDIT_ARCH_X86_64 and marks its numbers with bit 30.  -1 is the
 * exception: tracers set it to skip a syscall, and it is still an x86_64 call.
 */
static bool is_x32_nr(uint32_t nr)
{
	return (nr & SCG_X32_SYSCALL_BIT) && nr != UINT32_MAX;
}

const struct scg_arch *scg_arch_from_audit(uint32_t audit_arch, uint32_t nr)
{
	if (audit_arch == arches[ARCH_X32].audit && is_x32_nr(nr))
		return &arches[ARCH_X32];
	for (size_t i = 0; i < ARCH_COUNT; i++)
		if (arches[i].audit == audit_arch && !arches[i].nr_flags)
			return &arches[i];
	return NULL;
}

size_t scg_arch_companions(const struct scg_arch *arch, const struct scg_arch **out, size_t max)
{
	if (!arch)
		return 0;
	for (size_t i = 0; i < arch->n_companions && i < max; i++)
		out[i] = &arches[arch->companions[i]];
	return arch->n_companions;
}
