/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ABI descriptors, syscall tables, errno and AUDIT_ARCH names. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <string.h>

#include <syscage/arch.h>

#include "arch/syscall_tables.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct scg_arch *arch(const char *name)
{
	const struct scg_arch *a = scg_arch_lookup(name);
	if (!a)
		fail_msg("no ABI named '%s'", name);
	return a;
}

/* --- descriptors -------------------------------------------------------- */

struct abi_fact {
	const char *name;
	uint32_t audit;
	unsigned bits;
	bool big_endian;
	uint32_t nr_flags;
};

/* Independent of arch.c: the linux/audit.h values as published. */
/* clang-format off */
static const struct abi_fact abi_facts[] = {
	{ "x86_64", 0xc000003e, 64, false, 0 },
	{ "x86", 0x40000003, 32, false, 0 },
	{ "x32", 0xc000003e, 32, false, 0x40000000 },
	{ "aarch64", 0xc00000b7, 64, false, 0 },
	{ "arm", 0x40000028, 32, false, 0 },
	{ "riscv64", 0xc00000f3, 64, false, 0 },
	{ "loongarch64", 0xc0000102, 64, false, 0 },
	{ "mips", 0x8, 32, true, 0 },
	{ "mipsel", 0x40000008, 32, false, 0 },
	{ "mips64", 0x80000008, 64, true, 0 },
	{ "mipsel64", 0xc0000008, 64, false, 0 },
	{ "mips64n32", 0xa0000008, 32, true, 0 },
	{ "mipsel64n32", 0xe0000008, 32, false, 0 },
	{ "ppc", 0x14, 32, true, 0 },
	{ "ppc64", 0x80000015, 64, true, 0 },
	{ "ppc64le", 0xc0000015, 64, false, 0 },
	{ "s390", 0x16, 32, true, 0 },
	{ "s390x", 0x80000016, 64, true, 0 },
	{ "parisc", 0xf, 32, true, 0 },
	{ "parisc64", 0x8000000f, 64, true, 0 },
	{ "m68k", 0x4, 32, true, 0 },
	{ "sh", 0x4000002a, 32, false, 0 },
	{ "sheb", 0x2a, 32, true, 0 },
};
/* clang-format on */

static void test_every_abi_has_a_fact(void **state)
{
	(void)state;
	assert_int_equal(scg_arch_count(), COUNT_OF(abi_facts));
	for (size_t i = 0; i < COUNT_OF(abi_facts); i++) {
		const struct scg_arch *a = arch(abi_facts[i].name);
		assert_string_equal(scg_arch_name(a), abi_facts[i].name);
		assert_int_equal(scg_arch_audit(a), abi_facts[i].audit);
		assert_int_equal(scg_arch_bits(a), abi_facts[i].bits);
		assert_int_equal(scg_arch_big_endian(a), abi_facts[i].big_endian);
		assert_int_equal(scg_arch_nr_flags(a), abi_facts[i].nr_flags);
	}
	assert_null(scg_arch_at(scg_arch_count()));
}

static void test_audit_le_bit_matches_byte_order(void **state)
{
	(void)state;
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *a = scg_arch_at(i);
		bool le = scg_arch_audit(a) & SCG_AUDIT_ARCH_LE;
		assert_int_equal(le, !scg_arch_big_endian(a));
	}
}

static void test_lookup_by_name_and_alias(void **state)
{
	(void)state;
	/* clang-format off */
	static const char *const pairs[][2] = {
		{ "i386", "x86" },	    { "i686", "x86" },		{ "ia32", "x86" },
		{ "amd64", "x86_64" },	    { "x86-64", "x86_64" },	{ "arm64", "aarch64" },
		{ "armhf", "arm" },	    { "armel", "arm" },		{ "powerpc", "ppc" },
		{ "powerpc64", "ppc64" },   { "powerpc64le", "ppc64le" }, { "loong64", "loongarch64" },
		{ "riscv", "riscv64" },	    { "rv64", "riscv64" },	{ "mipso32", "mips" },
		{ "mips64el", "mipsel64" }, { "hppa", "parisc" },	{ "AMD64", "x86_64" },
		{ "X86_64", "x86_64" },	    { "AArch64", "aarch64" },
	};
	/* clang-format on */
	for (size_t i = 0; i < COUNT_OF(pairs); i++)
		assert_ptr_equal(scg_arch_lookup(pairs[i][0]), arch(pairs[i][1]));
	assert_null(scg_arch_lookup("vax"));
	assert_null(scg_arch_lookup(""));
	assert_null(scg_arch_lookup(NULL));
}

/* Every name and alias finds its own ABI, in any case, so no two ABIs share a name. */
static void test_every_abi_found_by_its_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *a = scg_arch_at(i);
		char upper[32];
		const char *name = scg_arch_name(a);
		size_t n = strlen(name);
		assert_true(n < sizeof(upper));
		for (size_t j = 0; j <= n; j++)
			upper[j] = (char)toupper((unsigned char)name[j]);
		assert_ptr_equal(scg_arch_lookup(name), a);
		assert_ptr_equal(scg_arch_lookup(upper), a);
		for (const char *const *alias = scg_arch_aliases(a); *alias; alias++)
			assert_ptr_equal(scg_arch_lookup(*alias), a);
	}
}

static void test_arg_offsets_little_endian(void **state)
{
	(void)state;
	const struct scg_arch *a = arch("x86_64");
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(scg_arch_arg_offset(a, i, false), 16 + 8 * (int)i);
		assert_int_equal(scg_arch_arg_offset(a, i, true), 20 + 8 * (int)i);
	}
	assert_int_equal(scg_arch_ip_offset(a, false), 8);
	assert_int_equal(scg_arch_ip_offset(a, true), 12);
	assert_int_equal(scg_arch_arg_offset(a, 6, false), -EINVAL);
	assert_int_equal(scg_arch_arg_offset(arch("mipsel"), 2, false), 32);
}

static void test_arg_offsets_big_endian(void **state)
{
	(void)state;
	static const char *const names[] = {"s390x", "mips", "ppc64", "sheb", "parisc"};
	for (size_t n = 0; n < COUNT_OF(names); n++) {
		const struct scg_arch *a = arch(names[n]);
		for (unsigned i = 0; i < 6; i++) {
			assert_int_equal(scg_arch_arg_offset(a, i, false), 20 + 8 * (int)i);
			assert_int_equal(scg_arch_arg_offset(a, i, true), 16 + 8 * (int)i);
		}
		assert_int_equal(scg_arch_ip_offset(a, false), 12);
		assert_int_equal(scg_arch_ip_offset(a, true), 8);
		assert_int_equal(scg_arch_arg_offset(a, 6, true), -EINVAL);
	}
}

static void test_from_audit(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = arch("x86_64"), *x32 = arch("x32");
	assert_ptr_equal(scg_arch_from_audit(0xc000003e, 257), x86_64);
	assert_ptr_equal(scg_arch_from_audit(0xc000003e, 0x40000000), x32);
	assert_ptr_equal(scg_arch_from_audit(0xc000003e, 0x40000101), x32);
	/* -1 skips the syscall; it is still x86_64 even though bit 30 is set */
	assert_ptr_equal(scg_arch_from_audit(0xc000003e, 0xffffffff), x86_64);
	assert_ptr_equal(scg_arch_from_audit(0x40000003, 0x40000000), arch("x86"));
	assert_ptr_equal(scg_arch_from_audit(0x4000002a, 1), arch("sh"));
	assert_ptr_equal(scg_arch_from_audit(0x2a, 1), arch("sheb"));
	assert_null(scg_arch_from_audit(0x12345678, 0));

	/* every ABI claims its own syscalls */
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *a = scg_arch_at(i);
		uint32_t nr;
		assert_int_equal(scg_syscall_at(a, 0, NULL, &nr), 0);
		assert_ptr_equal(scg_arch_from_audit(scg_arch_audit(a), nr), a);
	}
}

static void test_native(void **state)
{
	(void)state;
	const struct scg_arch *native = scg_arch_native();
#if defined(__x86_64__) && !defined(__ILP32__)
	assert_ptr_equal(native, arch("x86_64"));
#elif defined(__aarch64__)
	assert_ptr_equal(native, arch("aarch64"));
#else
	(void)native;
	skip();
#endif
}

static void assert_companions(const char *name, const char *first, const char *second)
{
	const struct scg_arch *out[4] = {NULL};
	size_t want = (first != NULL) + (second != NULL);
	assert_int_equal(scg_arch_companions(arch(name), out, COUNT_OF(out)), want);
	if (first)
		assert_ptr_equal(out[0], arch(first));
	if (second)
		assert_ptr_equal(out[1], arch(second));
}

static void test_companions(void **state)
{
	(void)state;
	assert_companions("x86_64", "x86", "x32");
	assert_companions("aarch64", "arm", NULL);
	assert_companions("ppc64", "ppc", NULL);
	assert_companions("s390x", "s390", NULL);
	assert_companions("mips64", "mips", "mips64n32");
	assert_companions("mipsel64", "mipsel", "mipsel64n32");
	assert_companions("parisc64", "parisc", NULL);
	assert_companions("riscv64", NULL, NULL);
	assert_companions("loongarch64", NULL, NULL);
	assert_companions("x86", NULL, NULL);

	/* a short buffer still reports how many exist */
	const struct scg_arch *one[1] = {NULL};
	assert_int_equal(scg_arch_companions(arch("x86_64"), one, 1), 2);
	assert_ptr_equal(one[0], arch("x86"));
}

static void test_arch_suggest(void **state)
{
	(void)state;
	assert_string_equal(scg_arch_suggest("x86_46"), "x86_64");
	assert_string_equal(scg_arch_suggest("aarch46"), "aarch64");
	assert_null(scg_arch_suggest("zzzzzzzzzz"));
}

/* --- syscall tables ----------------------------------------------------- */

struct syscall_fact {
	const char *arch;
	const char *name;
	uint32_t nr;
};

/* From the kernels' own tables (unistd headers, syscall.tbl files). */
/* clang-format off */
static const struct syscall_fact syscall_facts[] = {
	{ "x86_64", "read", 0 },
	{ "x86_64", "openat", 257 },
	{ "x86_64", "getuid", 102 },
	{ "x86", "socketcall", 102 },
	{ "x86", "getpid", 20 },
	{ "x32", "read", 0x40000000 },
	{ "x32", "openat", 0x40000101 },
	{ "x32", "execve", 0x40000208 },
	{ "aarch64", "openat", 56 },
	{ "arm", "cacheflush", 0xf0002 },
	{ "arm", "set_tls", 0xf0005 },
	{ "arm", "read", 3 },
	{ "mips", "read", 4003 },
	{ "mipsel", "read", 4003 },
	{ "mips64", "read", 5000 },
	{ "mips64n32", "read", 6000 },
	{ "riscv64", "openat", 56 },
	{ "ppc64le", "read", 3 },
	{ "s390x", "read", 3 },
	{ "sh", "read", 3 },
};
/* clang-format on */

static void test_known_syscalls(void **state)
{
	(void)state;
	for (size_t i = 0; i < COUNT_OF(syscall_facts); i++) {
		const struct syscall_fact *f = &syscall_facts[i];
		uint32_t nr = 0;
		assert_int_equal(scg_syscall_lookup(arch(f->arch), f->name, &nr), 0);
		assert_int_equal(nr, f->nr);
		assert_string_equal(scg_syscall_name(arch(f->arch), f->nr), f->name);
	}
}

static void test_missing_syscalls(void **state)
{
	(void)state;
	uint32_t nr = 12345;
	/* a syscall elsewhere, not on this ABI */
	assert_int_equal(scg_syscall_lookup(arch("aarch64"), "open", &nr), -ENOSYS);
	assert_int_equal(scg_syscall_lookup(arch("x86_64"), "socketcall", &nr), -ENOSYS);
	/* a syscall of an ABI syscage does not describe (alpha) */
	assert_int_equal(scg_syscall_lookup(arch("x86_64"), "getxpid", &nr), -ENOSYS);
	/* not a syscall anywhere */
	assert_int_equal(scg_syscall_lookup(arch("x86_64"), "opnat", &nr), -ENOENT);
	assert_int_equal(scg_syscall_lookup(arch("x86_64"), "", &nr), -ENOENT);
	assert_int_equal(nr, 12345);
	/* names are case-sensitive, as in the kernel's tables */
	assert_int_equal(scg_syscall_lookup(arch("x86_64"), "OPENAT", &nr), -ENOENT);

	assert_null(scg_syscall_name(arch("x86_64"), 100000));
	assert_null(scg_syscall_name(arch("x32"), 257)); /* x32 numbers carry bit 30 */
	assert_null(scg_syscall_name(arch("mips"), 3));
}

/* Every entry of every table resolves both ways to itself. */
static void test_tables_round_trip(void **state)
{
	(void)state;
	for (size_t a = 0; a < scg_arch_count(); a++) {
		const struct scg_arch *abi = scg_arch_at(a);
		size_t count = scg_syscall_count(abi);
		uint32_t flags = scg_arch_nr_flags(abi);
		assert_true(count > 300);
		uint32_t prev = 0;
		for (size_t i = 0; i < count; i++) {
			const char *name;
			uint32_t nr, back;
			assert_int_equal(scg_syscall_at(abi, i, &name, &nr), 0);
			if (i > 0)
				assert_true(nr > prev);
			prev = nr;
			assert_int_equal(nr & SCG_X32_SYSCALL_BIT, flags);
			assert_int_equal(scg_syscall_lookup(abi, name, &back), 0);
			assert_int_equal(back, nr);
			assert_string_equal(scg_syscall_name(abi, nr), name);
		}
		assert_int_equal(scg_syscall_max(abi), prev);
		assert_int_equal(scg_syscall_at(abi, count, NULL, NULL), -ERANGE);
	}
}

static void assert_strictly_sorted(const char *const *names, size_t count)
{
	for (size_t i = 1; i < count; i++)
		if (strcmp(names[i - 1], names[i]) >= 0)
			fail_msg("'%s' before '%s'", names[i - 1], names[i]);
}

/* The generated name indexes are what the binary searches assume. */
static void test_generated_indexes(void **state)
{
	(void)state;
	const char *all[2048];
	assert_true(syscall_all_count <= COUNT_OF(all));
	for (size_t i = 0; i < syscall_all_count; i++)
		all[i] = syscall_all_name(i);
	assert_strictly_sorted(all, syscall_all_count);
	const struct syscall_table *t = &syscall_table_x86_64;
	const char *names[1024];
	assert_true(t->count <= COUNT_OF(names));
	for (size_t i = 0; i < t->count; i++)
		names[i] = syscall_entry_name(&t->by_nr[t->by_name[i]]);
	assert_strictly_sorted(names, t->count);
	/* ABIs that share a table (mips/mipsel, sh/sheb) share the numbers too */
	uint32_t a = 0, b = 0;
	assert_int_equal(scg_syscall_lookup(arch("sh"), "openat", &a), 0);
	assert_int_equal(scg_syscall_lookup(arch("sheb"), "openat", &b), 0);
	assert_int_equal(a, b);
}

static void test_max(void **state)
{
	(void)state;
	assert_true(scg_syscall_max(arch("x86_64")) >= 435); /* clone3 */
	assert_int_equal(scg_syscall_max(arch("mips")) / 1000, 4);
	assert_true(scg_syscall_max(arch("x32")) > 0x40000200);
}

static void test_syscall_suggest(void **state)
{
	(void)state;
	assert_string_equal(scg_syscall_suggest(arch("x86_64"), "opnat"), "openat");
	assert_string_equal(scg_syscall_suggest(arch("aarch64"), "opnat"), "openat");
	assert_string_equal(scg_syscall_suggest(arch("x86_64"), "gettpid"), "getpid");
	assert_null(scg_syscall_suggest(arch("x86_64"), "qqqqqqqqqqqq"));
}

/* --- errno and AUDIT_ARCH names ----------------------------------------- */

struct errno_fact {
	const char *arch; /* NULL: generic */
	const char *name;
	uint32_t value;
};

/* clang-format off */
static const struct errno_fact errno_facts[] = {
	{ NULL, "EPERM", 1 },	      { NULL, "ENOSYS", 38 },	    { NULL, "EAGAIN", 11 },
	{ NULL, "EHWPOISON", 133 },   { NULL, "EOPNOTSUPP", 95 },   { "x86_64", "ENOSYS", 38 },
	{ "mips", "EPERM", 1 },	      { "mips", "ENOSYS", 89 },	    { "mipsel64n32", "ENOSYS", 89 },
	{ "mips", "EDQUOT", 1133 },   { "mips", "EDEADLOCK", 56 },  { "parisc", "EPERM", 1 },
	{ "parisc", "ENOSYS", 251 },  { "parisc64", "ENOSYS", 251 }, { "parisc", "ENOTSUP", 252 },
	{ "ppc64le", "EDEADLOCK", 58 }, { "ppc", "EDEADLK", 35 },   { "aarch64", "EDEADLK", 35 },
};
/* clang-format on */

static void test_errno_facts(void **state)
{
	(void)state;
	for (size_t i = 0; i < COUNT_OF(errno_facts); i++) {
		const struct errno_fact *f = &errno_facts[i];
		const struct scg_arch *a = f->arch ? arch(f->arch) : NULL;
		uint32_t value = 0;
		assert_int_equal(scg_errno_lookup(a, f->name, &value), 0);
		assert_int_equal(value, f->value);
		assert_string_equal(scg_errno_name(a, f->value), f->name);
	}
}

static void test_errno_aliases(void **state)
{
	(void)state;
	uint32_t v = 0;
	assert_int_equal(scg_errno_lookup(NULL, "EWOULDBLOCK", &v), 0);
	assert_int_equal(v, 11);
	assert_int_equal(scg_errno_lookup(arch("aarch64"), "EDEADLOCK", &v), 0);
	assert_int_equal(v, 35);
	assert_int_equal(scg_errno_lookup(NULL, "ENOTSUP", &v), 0);
	assert_int_equal(v, 95);
	assert_int_equal(scg_errno_lookup(arch("parisc"), "ECANCELLED", &v), 0);
	assert_int_equal(v, 253);
	assert_int_equal(scg_errno_lookup(NULL, "eperm", &v), 0);
	assert_int_equal(v, 1);
	/* a value's name is the usual one, not an alias */
	assert_string_equal(scg_errno_name(NULL, 11), "EAGAIN");
	assert_string_equal(scg_errno_name(NULL, 35), "EDEADLK");
	assert_string_equal(scg_errno_name(NULL, 95), "EOPNOTSUPP");
	assert_string_equal(scg_errno_name(arch("parisc"), 253), "ECANCELED");
	assert_null(scg_errno_name(NULL, 0));
	assert_null(scg_errno_name(NULL, 4095));
	assert_int_equal(scg_errno_lookup(NULL, "ENOSUCH", &v), -ENOENT);
	assert_int_equal(scg_errno_lookup(NULL, "EINIT", &v), -ENOENT); /* MIPS only */
	assert_string_equal(scg_errno_suggest("EPREM"), "EPERM");
	assert_null(scg_errno_suggest("QQQQQQQQ"));
}

/* On a generic-numbering host the C library's own values must agree. */
static void test_errno_matches_host(void **state)
{
	(void)state;
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
	/* clang-format off */
	static const struct {
		const char *name;
		int value;
	} host[] = {
		{ "EPERM", EPERM },	      { "ERANGE", ERANGE },	  { "EDEADLK", EDEADLK },
		{ "ENOSYS", ENOSYS },	      { "ELOOP", ELOOP },	  { "ENOMSG", ENOMSG },
		{ "EBADSLT", EBADSLT },	      { "EBFONT", EBFONT },	  { "EOVERFLOW", EOVERFLOW },
		{ "EILSEQ", EILSEQ },	      { "ENOTSOCK", ENOTSOCK },	  { "EOPNOTSUPP", EOPNOTSUPP },
		{ "ECONNREFUSED", ECONNREFUSED }, { "ESTALE", ESTALE },	  { "EDQUOT", EDQUOT },
		{ "ECANCELED", ECANCELED },   { "ENOTRECOVERABLE", ENOTRECOVERABLE },
		{ "ERFKILL", ERFKILL },	      { "EHWPOISON", EHWPOISON }, { "ENOTSUP", ENOTSUP },
		{ "EWOULDBLOCK", EWOULDBLOCK }, { "EDEADLOCK", EDEADLOCK },
	};
	/* clang-format on */
	for (size_t i = 0; i < COUNT_OF(host); i++) {
		uint32_t v = 0;
		assert_int_equal(scg_errno_lookup(NULL, host[i].name, &v), 0);
		assert_int_equal(v, (uint32_t)host[i].value);
	}
#else
	skip();
#endif
}

static void test_audit_arch_names(void **state)
{
	(void)state;
	uint32_t v = 0;
	assert_int_equal(scg_audit_arch_lookup("AUDIT_ARCH_X86_64", &v), 0);
	assert_int_equal(v, 0xc000003e);
	assert_int_equal(scg_audit_arch_lookup("AUDIT_ARCH_SHEL", &v), 0);
	assert_int_equal(v, 0x4000002a);
	assert_int_equal(scg_audit_arch_lookup("AUDIT_ARCH_VAX", &v), -ENOENT);
	assert_string_equal(scg_audit_arch_name(0x40000003), "AUDIT_ARCH_I386");
	assert_string_equal(scg_audit_arch_name(0x2a), "AUDIT_ARCH_SH");
	assert_null(scg_audit_arch_name(0));
	/* every ABI's value has a name that maps back to it */
	for (size_t i = 0; i < scg_arch_count(); i++) {
		uint32_t audit = scg_arch_audit(scg_arch_at(i));
		const char *name = scg_audit_arch_name(audit);
		assert_non_null(name);
		assert_int_equal(scg_audit_arch_lookup(name, &v), 0);
		assert_int_equal(v, audit);
	}
}

/*
 * A rule's arch_mask bits are stored in policies callers build: each ABI
 * keeps its bit whatever the table order, and no two ABIs share one.
 */
static void test_arch_mask_bits(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		uint32_t bit;
	} pinned[] = {
		{ "x86_64", SCG_ARCH_BIT_X86_64 }, { "x86", SCG_ARCH_BIT_X86 },
		{ "x32", SCG_ARCH_BIT_X32 },       { "aarch64", SCG_ARCH_BIT_AARCH64 },
		{ "arm", SCG_ARCH_BIT_ARM },       { "riscv64", SCG_ARCH_BIT_RISCV64 },
		{ "s390x", SCG_ARCH_BIT_S390X },   { "sheb", SCG_ARCH_BIT_SHEB },
	};
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++) {
		const struct scg_arch *a = scg_arch_lookup(pinned[i].name);
		assert_non_null(a);
		assert_int_equal(scg_arch_mask_bit(a), pinned[i].bit);
		assert_ptr_equal(scg_arch_from_mask_bit(pinned[i].bit), a);
	}
	assert_int_equal(SCG_ARCH_BIT_X86_64, 1);
	assert_int_equal(SCG_ARCH_BIT_SHEB, 1U << 22);
	uint32_t seen = 0;
	for (size_t i = 0; i < scg_arch_count(); i++) {
		uint32_t bit = scg_arch_mask_bit(scg_arch_at(i));
		assert_int_equal(__builtin_popcount(bit), 1);
		assert_int_equal(seen & bit, 0);
		seen |= bit;
	}
	assert_int_equal(scg_arch_mask_bit(NULL), 0);
	assert_null(scg_arch_from_mask_bit(0));
	assert_null(scg_arch_from_mask_bit(SCG_ARCH_BIT_X86 | SCG_ARCH_BIT_X32));
}

/* The parameter table through the public accessor, and when its names hold on an ABI. */
static void test_syscall_params(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	const struct scg_arch *x32 = scg_arch_lookup("x32");
	const struct scg_arch *i386 = scg_arch_lookup("i386");
	const struct scg_arch *s390x = scg_arch_lookup("s390x");
	assert_non_null(x86_64);
	assert_non_null(x32);
	assert_non_null(i386);
	assert_non_null(s390x);

	const struct scg_syscall_params *p = scg_syscall_params("openat");
	assert_non_null(p);
	assert_string_equal(p->syscall, "openat");
	assert_int_equal(p->count, 4);
	assert_string_equal(p->params[0].name, "dirfd");
	assert_string_equal(p->params[2].name, "flags");
	assert_int_equal(p->params[1].kind, SCG_PARAM_LONG);
	assert_null(scg_syscall_params("no_such_call"));
	assert_null(scg_syscall_params(NULL));

	/* pread64's offset is 64-bit: two registers on i386, one on x86_64 and x32 */
	p = scg_syscall_params("pread64");
	assert_non_null(p);
	assert_true(scg_syscall_params_apply(p, x86_64, 3));
	assert_true(scg_syscall_params_apply(p, x32, 3));
	assert_true(scg_syscall_params_apply(p, i386, 2));
	assert_false(scg_syscall_params_apply(p, i386, 3));
	assert_int_equal(scg_syscall_arg_width(i386, "pread64", 2), 32);
	assert_int_equal(scg_syscall_arg_width(i386, "pread64", 3), 0);
	assert_int_equal(scg_syscall_arg_width(x86_64, "pread64", 3), 64);
	assert_int_equal(scg_syscall_arg_width(x86_64, "pread64", 0), 32);
	assert_int_equal(scg_syscall_arg_width(x86_64, "pread64", 2), 64);
	assert_int_equal(scg_syscall_arg_width(x32, "pread64", 2), 64);

	/* clone's argument order differs on s390: the table says its names do not hold there */
	p = scg_syscall_params("clone");
	assert_non_null(p);
	assert_true(scg_syscall_params_apply(p, x86_64, 0));
	assert_false(scg_syscall_params_apply(p, s390x, 0));
	assert_int_equal(scg_syscall_arg_width(s390x, "clone", 0), 0);
	assert_false(scg_syscall_params_apply(NULL, x86_64, 0));
	assert_false(scg_syscall_params_apply(p, NULL, 0));
	assert_int_equal(scg_syscall_arg_width(x86_64, "openat", 6), 0);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_abi_has_a_fact),
		cmocka_unit_test(test_audit_le_bit_matches_byte_order),
		cmocka_unit_test(test_lookup_by_name_and_alias),
		cmocka_unit_test(test_every_abi_found_by_its_names),
		cmocka_unit_test(test_arg_offsets_little_endian),
		cmocka_unit_test(test_arg_offsets_big_endian),
		cmocka_unit_test(test_from_audit),
		cmocka_unit_test(test_native),
		cmocka_unit_test(test_companions),
		cmocka_unit_test(test_arch_suggest),
		cmocka_unit_test(test_known_syscalls),
		cmocka_unit_test(test_missing_syscalls),
		cmocka_unit_test(test_tables_round_trip),
		cmocka_unit_test(test_generated_indexes),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_syscall_suggest),
		cmocka_unit_test(test_errno_facts),
		cmocka_unit_test(test_errno_aliases),
		cmocka_unit_test(test_errno_matches_host),
		cmocka_unit_test(test_audit_arch_names),
		cmocka_unit_test(test_arch_mask_bits),
		cmocka_unit_test(test_syscall_params),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
