/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the analysis subcommands (diff, explain, decompile, lint). */
#ifndef SCG_CLI_ANALYZE_H
#define SCG_CLI_ANALYZE_H

#include <stdio.h>

#include <syscage/analysis.h>

#include "cli.h"

/*
 * An input of an analysis command: a filter (raw or assembler) or a policy
 * (policy file, OCI JSON, built-in profile name), compiled for @arch alone
 * when @arch is not NULL.  *@policy (when not NULL) receives the policy for
 * policy inputs, NULL for filters; the caller frees it.  Diagnostics are
 * printed.  0 or -errno.
 */
int cli_analysis_load(const char *path, const struct scg_arch *arch, struct scg_prog *prog,
		      struct scg_policy **policy);

/* "x86_64", "x32", "arch 0x12345678", or "other ABIs" for a region. */
void cli_region_abi(const struct scg_region *region, char *buf, size_t size);
/* "openat", "nr 500", or "nr >= 0x1c8" for a region (on its ABI, when known). */
void cli_region_syscall(const struct scg_region *region, char *buf, size_t size);
/* The ABI of a region whose arch word is one value, or NULL. */
const struct scg_arch *cli_region_arch(const struct scg_region *region);

#endif
