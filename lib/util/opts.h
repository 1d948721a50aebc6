/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading the options structs of the public API (SCG_OPTS in
 * <syscage/export.h>): each starts with `size_t sz`, the size the caller was
 * compiled with, so a struct can grow without breaking programs built
 * against an older header, and a program built against a newer one is
 * refused only when it sets a field this library does not know.
 */
#ifndef SCG_LIB_UTIL_OPTS_H
#define SCG_LIB_UTIL_OPTS_H

#include <stddef.h>

/* The end of @field in @type: the first layout's size is the end of its last field. */
#define OPTS_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * Copies the caller's @opts (NULL: every field zero) into @local, the
 * @local_sz-byte struct this library knows, zeroing the fields the caller's
 * struct is too small to have; local's sz becomes @local_sz.  An sz of 0
 * (a struct initialised without SCG_OPTS) stands for @first_sz, the size of
 * the struct's first layout.  Returns 0, or -EINVAL when sz cannot hold sz
 * itself or the caller's struct has nonzero bytes past @local_sz.
 */
int opts_load(void *local, size_t local_sz, const void *opts, size_t first_sz);

#endif
