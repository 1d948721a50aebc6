/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "support/diag_print.h"

bool test_diag_has(const struct scg_diag *diag, const char *code)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (!strcmp(scg_diag_get(diag, i)->code, code))
			return true;
	return false;
}
