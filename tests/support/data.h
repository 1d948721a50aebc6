/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files under tests/data/, found from the source tree or from a build
 * directory one or two levels below it (tests run from either).
 */
#ifndef SCG_TESTS_DATA_H
#define SCG_TESTS_DATA_H

#include <stddef.h>

/*
 * Reads tests/data/@name whole into a NUL-terminated buffer the caller
 * frees, its length in *@len when @len is not NULL.  NULL when the file is
 * not found, cannot be read or does not fit in 1 MiB (test data is small;
 * a cut-off file would make a test check half of it).
 */
char *test_data_read(const char *name, size_t *len);

#endif
