/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the analysis subcommands (diff, explain, decompile, lint). */
#ifndef SCG_CLI_ANALYZE_H
#define SCG_CLI_ANALYZE_H

#include <stdint.h>
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
/* The same with a policy compiled for all its ABIs: @words only names the words of an
 * assembler input without an ABI header. */
int cli_analysis_load_words(const char *path, const struct scg_arch *words, struct scg_prog *prog,
			    struct scg_policy **policy);

/*
 * Exit status of an analysis command whose time budget ran out before the
 * answer was complete (diff, explain, decompile, lint, dump --format policy).
 */
#define CLI_EXIT_BUDGET 3
/* The budget of an analysis command without --timeout, in seconds. */
#define CLI_ANALYSIS_TIMEOUT_S 10U

/* The --timeout option of the analysis commands, for their usage text. */
extern const char cli_timeout_usage[];

/*
 * --timeout SECONDS of @cmd: a number of seconds >= 0 (a fraction is
 * allowed; 0 is no limit) into *@ms.  0, or -EINVAL after a message.
 */
int cli_parse_timeout(const char *cmd, const char *text, uint64_t *ms);
/* Options for the library with a budget of @ms milliseconds (0: none). */
struct scg_analysis_options cli_analysis_options(uint64_t ms);
/*
 * @ret as `syscage emu` prints the verdict (the emulator's own reading: an
 * errno above 4095 is 4095, an unknown action kills the process), with
 * " (unknown action 0x...)" after an unknown one when @note_unknown.
 */
void cli_verdict_format(uint32_t ret, bool note_unknown, char *buf, size_t size);
/*
 * The reason for @err (negative) from the analysis engine, in words: the
 * engine's -E2BIG (a filter past its limits, or a solver that gave up) is no
 * argument list, so it is said as what it is; other values as strerror().
 */
const char *cli_analysis_strerror(int err);
/* "syscage: CMD: the time budget of 10 s ran out before ..." on stderr (@err: -ETIMEDOUT, ...). */
void cli_budget_error(const char *cmd, uint64_t ms, int err, const char *what);

/* Regions of inputs an analysis left undecided, counted by ABI and syscall. */
struct cli_undecided;
struct cli_undecided *cli_undecided_new(void);
void cli_undecided_free(struct cli_undecided *u);
/* An scg_undecided_fn: counts @region under its ABI and syscall. */
int cli_undecided_add(void *ctx, const struct scg_region *region);
/* How many regions were added. */
size_t cli_undecided_count(const struct cli_undecided *u);
/* "  x86_64 openat: 2 regions" per group, in the order first seen; or as a JSON array. */
void cli_undecided_print(const struct cli_undecided *u, FILE *out, const char *prefix);
void cli_undecided_json(const struct cli_undecided *u, struct scg_json *w);

/* "x86_64", "x32", "arch 0x12345678", or "other ABIs" for a region. */
void cli_region_abi(const struct scg_region *region, char *buf, size_t size);
/* "openat", "nr 500", or "nr >= 0x1c8" for a region (on its ABI, when known). */
void cli_region_syscall(const struct scg_region *region, char *buf, size_t size);
/* The ABI of a region whose arch word is one value, or NULL. */
const struct scg_arch *cli_region_arch(const struct scg_region *region);

#endif
