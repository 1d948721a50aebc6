/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The built-in profiles, compiled ahead (prebuilt_profiles.c, generated). */
#ifndef SCG_LIB_COMPILE_PREBUILT_H
#define SCG_LIB_COMPILE_PREBUILT_H

#include <stddef.h>

#include <syscage/bpf.h>

/* Names in place, not pointers: fewer relocations when the library loads. */
struct prebuilt_filter {
	char profile[24]; /* built-in profile name */
	char native[16];  /* ABI it was loaded for (with its companions) */
	const struct scg_insn *insns;
	size_t len;
};

extern const struct prebuilt_filter prebuilt_filters[];
extern const size_t prebuilt_filter_count;

#endif
