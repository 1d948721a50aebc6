/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generated parameter table behind scg_syscall_params() (arch.h), for
 * the generator's checks and the tests that walk every entry.
 */
#ifndef SCG_LIB_ARCH_SYSCALL_PARAMS_H
#define SCG_LIB_ARCH_SYSCALL_PARAMS_H

#include <stddef.h>

#include <syscage/arch.h>

/* Sorted by syscall name (strcmp). */
extern const struct scg_syscall_params syscall_param_table[];
extern const size_t syscall_param_table_count;

#endif
