/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names of what a kernel may lack, shared by SYSCAGE_DISABLE_FEATURES,
 * `syscage status` and the test suite's skip lines (tests/cli_lib.bash reads
 * them from `syscage status --json`).
 */
#ifndef SYSCAGE_CLI_FEATURES_H
#define SYSCAGE_CLI_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/runtime.h>

/* How many named features there are; cli_feature_name(i) for i below it. */
size_t cli_feature_count(void);
const char *cli_feature_name(size_t i);
/* Whether @f (as cli_features_probe() left it) has feature number @i. */
bool cli_feature_present(const struct scg_features *f, size_t i);

#endif
