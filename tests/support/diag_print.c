/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>

#include "support/diag_print.h"

void test_print_diag(const struct scg_diag *diag)
{
	for (size_t i = 0; diag && i < scg_diag_count(diag); i++) {
		char buf[1024];
		scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
		printf("  %s\n", buf);
	}
	fflush(stdout);
}
