/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policies for the benchmarks: built-in synthetic ones, or files. */
#ifndef SCG_BENCH_INPUT_H
#define SCG_BENCH_INPUT_H

#include <stddef.h>

#include <syscage/syscage.h>

size_t bench_synthetic_count(void);
const char *bench_synthetic_name(size_t i);
const char *bench_synthetic_summary(size_t i);

/* A built-in name or a file; prints what went wrong.  0 or -errno. */
int bench_load_policy(const char *name, struct scg_policy **out);

#endif
