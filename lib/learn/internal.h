/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside the learning recorder: shared by record.c, args.c, merge.c and the writers. */
#ifndef SCG_LIB_LEARN_INTERNAL_H
#define SCG_LIB_LEARN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/learn.h>

/*
 * Which arguments of @name on @arch are worth recording (bit i: argument i)
 * and which of those the kernel reads as 32 bits (bit i of *@narrow): flag,
 * mode and command words, not pointers, lengths, offsets, ids, unnamed
 * parameters or (unless @flags has SCG_LEARN_ARGS_FD) descriptor numbers,
 * which change from run to run without the program doing anything
 * different.  0 when the parameter table has no entry.
 */
unsigned learn_scalar_args(const struct scg_arch *arch, const char *name, unsigned flags,
			       unsigned *narrow);

/*
 * Arguments of @name the kernel reads only when another argument asks it
 * to: bit i set when argument i is such a parameter, with the argument
 * that decides in *@ruler and the bits that make it read in *@bits (open's
 * and openat's mode: only with O_CREAT or O_TMPFILE in flags).  Without
 * them the register holds whatever the caller left there, so a call
 * without those bits means the parameter cannot be restricted.  0 when
 * @name has no such parameter.
 */
unsigned learn_conditional_args(const struct scg_arch *arch, const char *name, unsigned *ruler,
				 uint64_t *bits);

/*
 * Arguments of @name (bit i: argument i) whose values come in families: a
 * value seen stands for others the same program makes on another run,
 * depending on timing (futex's waker of one run is the waiter of the
 * next).  0 for most syscalls.
 */
unsigned learn_family_args(const char *name);

/* The family of @value of argument @arg of @name into @out, @value included; the count, 0 when it stands alone. */
#define LEARN_FAMILY_MAX 16
size_t learn_value_family(const char *name, unsigned arg, uint64_t value,
			  uint64_t out[LEARN_FAMILY_MAX]);

/*
 * The two arguments of @name on @arch whose values are recorded as pairs
 * (struct scg_learn_pairs): *@ruler names the values of *@dependent
 * (setsockopt's level and optname, socket's domain and protocol).  False
 * for syscalls without such arguments.
 */
bool learn_paired_args(const struct scg_arch *arch, const char *name, unsigned *ruler,
		       unsigned *dependent);

/* The name policy text uses for argument @arg of @name on @arch: a
 * parameter name, or NULL when only argN will do. */
const char *learn_param_name(const struct scg_arch *arch, const char *name, unsigned arg);

struct strbuf;
/* Whether the values of @param of @syscall are sets of bits (flags, masks, protections). */
bool learn_param_is_flags(const char *syscall, const char *param);

/*
 * Appends @v, a value of parameter @param (NULL: unnamed) of @syscall on
 * @arch, as policy text: with the constants of the policy language where
 * they say exactly @v on @arch (O_RDONLY|O_CLOEXEC), else as a number
 * (names.c).  @args holds the other arguments of the call where bit i of
 * @known says argument i is args[i] in every call the value stands for:
 * a parameter whose names depend on another (setsockopt's option name on
 * its level) is named only then.
 */
void learn_append_value(struct strbuf *sb, const struct scg_arch *arch, const char *syscall,
			const char *param, uint64_t v, const uint64_t args[6], unsigned known);

/*
 * Makes room for @extra more entries, so that adding them cannot fail:
 * what an atomic merge needs.  0 or -ENOMEM.
 */
int learn_reserve(struct scg_learn *learn, size_t extra);

#endif
