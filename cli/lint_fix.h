/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lint's fixes in the language of the input (cli/lint_fix.c). */
#ifndef SYSCAGE_CLI_LINT_FIX_H
#define SYSCAGE_CLI_LINT_FIX_H

#include <stddef.h>

#include <syscage/diag.h>
#include <syscage/load.h>

/*
 * The fix for finding @e written in the language of an input in @format
 * (systemd settings for a unit, JSON fields for an OCI profile, ...), in
 * @buf; NULL when the engine's own fix stands.
 */
const char *lint_fix(enum scg_input_format format, const struct scg_diag_entry *e, char *buf,
		     size_t size);

/*
 * @diag with the risky syscalls one verdict allows at one place (a rule, the
 * default, an instruction) as one finding naming them all, its fix in
 * @format's language, and a finding repeated at the same place once; NULL
 * when memory runs out.  Free with scg_diag_free().
 */
struct scg_diag *lint_group(const struct scg_diag *diag, enum scg_input_format format);

#endif
