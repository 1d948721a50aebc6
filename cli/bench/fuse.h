/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage bench's fuse section: a stack of 8 filters shaped like systemd's
 * hardening directives (the policies in bench/data/hardening/, embedded as
 * fuse_data.c by tools/gen-bench-hardening.py) against one of them
 * alone and against the stack fused into one filter (scg_fuse(),
 * docs/fuse.md).
 */
#ifndef SCG_CLI_BENCH_FUSE_H
#define SCG_CLI_BENCH_FUSE_H

#include <stddef.h>

#include "bench.h"

struct bench_hardening {
	const char *name; /* the file's name without .policy: "1-system-call-filter" */
	const char *text; /* the policy */
};
extern const struct bench_hardening bench_hardening[];
extern const size_t bench_nhardening;

/* Adds the section's rows (the stack is fused and proven here).  0 or -errno. */
int bench_plan_fuse(const struct bench_plan_opts *opts, struct bench_results *res);
/* After the measurements: the fused filter's and the stack's own time over one filter's, as notes. */
void bench_fuse_notes(struct bench_results *res);

#endif
