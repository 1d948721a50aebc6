/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What arch.c, syscall.c and errno.c share about an ABI descriptor. */
#ifndef SCG_LIB_ARCH_INTERNAL_H
#define SCG_LIB_ARCH_INTERNAL_H

#include <syscage/arch.h>

#include "syscall_tables.h"

/*
 * Errno numberings: most ABIs use asm-generic's; MIPS and PA-RISC differ
 * above 34, PowerPC only in EDEADLOCK.
 */
enum errno_family {
	ERRNO_FAMILY_GENERIC,
	ERRNO_FAMILY_POWERPC,
	ERRNO_FAMILY_MIPS,
	ERRNO_FAMILY_PARISC,
};

/* Enough for mips64's companions (o32 and n32); checked where descriptors are defined. */
#define SCG_ARCH_MAX_COMPANIONS 2

struct scg_arch {
	char name[16]; /* in place, not a pointer: no relocation when the library loads */
	const char *const *aliases; /* NULL-terminated */
	uint32_t audit;
	unsigned bits;
	bool big_endian;
	uint32_t nr_flags;
	const struct syscall_table *table;
	enum errno_family errno_family;
	uint32_t mask_bit; /* SCG_ARCH_BIT_*: fixed, unlike the position in the table */
	/* Positions in the descriptor array; only the first n_companions count. */
	unsigned char companions[SCG_ARCH_MAX_COMPANIONS];
	unsigned char n_companions;
};

/* The errno numbering of @arch; NULL means generic. */
enum errno_family arch_errno_family(const struct scg_arch *arch);

#endif
