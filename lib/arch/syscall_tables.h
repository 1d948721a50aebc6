/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syscall tables (syscall_tables.c, written at build time by
 * tools/gen-tables-c.py from data/syscalls.csv).
 */
#ifndef SCG_LIB_ARCH_SYSCALL_TABLES_H
#define SCG_LIB_ARCH_SYSCALL_TABLES_H

#include <stddef.h>
#include <stdint.h>

struct syscall_entry {
	uint16_t name; /* offset in syscall_name_pool */
	uint32_t nr;
};

/* One ABI's syscalls: entries sorted by number, plus an index sorted by name. */
struct syscall_table {
	const char *name;		   /* the column of data/syscalls.csv: "mipso32" */
	const struct syscall_entry *by_nr; /* increasing nr */
	const uint16_t *by_name;	       /* positions in by_nr, in strcmp order of name */
	size_t count;
};

/* One table per column of data/syscalls.csv, named after it. */
extern const struct syscall_table syscall_table_arm;
extern const struct syscall_table syscall_table_arm64;
extern const struct syscall_table syscall_table_i386;
extern const struct syscall_table syscall_table_loongarch64;
extern const struct syscall_table syscall_table_m68k;
extern const struct syscall_table syscall_table_mips64;
extern const struct syscall_table syscall_table_mips64n32;
extern const struct syscall_table syscall_table_mipso32;
extern const struct syscall_table syscall_table_parisc;
extern const struct syscall_table syscall_table_parisc64;
extern const struct syscall_table syscall_table_powerpc;
extern const struct syscall_table syscall_table_powerpc64;
extern const struct syscall_table syscall_table_riscv64;
extern const struct syscall_table syscall_table_s390;
extern const struct syscall_table syscall_table_s390x;
extern const struct syscall_table syscall_table_sh;
extern const struct syscall_table syscall_table_x32;
extern const struct syscall_table syscall_table_x86_64;

/* Every name below, NUL-separated; entries and the list hold offsets into it. */
extern const char syscall_name_pool[];

/*
 * Every syscall name any reference table lists, numbered or not, in strcmp
 * order (offsets into syscall_name_pool): a name here but not in an ABI's
 * table is a real syscall that ABI lacks, not a typo.
 */
extern const uint16_t syscall_all_names[];
extern const size_t syscall_all_count;

static inline const char *syscall_entry_name(const struct syscall_entry *e)
{
	return syscall_name_pool + e->name;
}

static inline const char *syscall_all_name(size_t i)
{
	return syscall_name_pool + syscall_all_names[i];
}

#endif
