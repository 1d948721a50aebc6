/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics in a failing test's output, formatted as the CLI prints them. */
#ifndef SCG_TESTS_DIAG_PRINT_H
#define SCG_TESTS_DIAG_PRINT_H

#include <stdbool.h>

#include <syscage/diag.h>

/* Prints every diagnostic of @diag (NULL: nothing) to stdout, indented. */
void test_print_diag(const struct scg_diag *diag);

/* Whether @diag holds a diagnostic with the code @code, of any severity (diag_has.c). */
bool test_diag_has(const struct scg_diag *diag, const char *code);

#endif
