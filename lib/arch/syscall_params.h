/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The parameter table behind scg_syscall_params() (arch.h), generated at
 * build time by tools/gen-tables-c.py from data/syscall-params.tsv: rows of
 * 16-bit offsets into one string pool, so loading the library relocates
 * nothing here.  params.c turns a row into the public struct on demand.
 */
#ifndef SCG_LIB_ARCH_SYSCALL_PARAMS_H
#define SCG_LIB_ARCH_SYSCALL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>

struct syscall_param_cell {
	uint16_t name, type; /* offsets in syscall_param_pool */
	uint8_t kind;	     /* enum scg_param_kind */
};

struct syscall_param_row {
	uint16_t syscall, unsupported; /* offsets in syscall_param_pool */
	uint8_t count;
	struct syscall_param_cell params[6];
};

extern const char syscall_param_pool[];
/* Sorted by syscall name (strcmp). */
extern const struct syscall_param_row syscall_param_rows[];
extern const size_t syscall_param_table_count;
/* As many entries as rows, zero until syscall_param_at() first fills them. */
extern struct scg_syscall_params syscall_param_view[];

/* Entry @i of the table (i < syscall_param_table_count), as scg_syscall_params() returns it. */
const struct scg_syscall_params *syscall_param_at(size_t i);

#endif
