/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>

#include "support/scale.h"

size_t test_scaled(size_t n)
{
	const char *s = getenv("SYSCAGE_TEST_SCALE");
	unsigned long div = s ? strtoul(s, NULL, 10) : 1;
	if (div <= 1 || n == 0)
		return n;
	return n / div ? n / div : 1;
}
