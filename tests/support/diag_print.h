/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics in a failing test's output, formatted as the CLI prints them. */
#ifndef SCG_TESTS_DIAG_PRINT_H
#define SCG_TESTS_DIAG_PRINT_H

#include <syscage/diag.h>

/* Prints every diagnostic of @diag (NULL: nothing) to stdout, indented. */
void test_print_diag(const struct scg_diag *diag);

#endif
