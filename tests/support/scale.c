/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "support/scale.h"

/* The default run keeps a quarter of each sweep: enough for every kind of case to occur many
 * times over (the tests assert minimum counts per kind), in a suite that finishes in minutes. */
enum { QUICK_DIVISOR = 4 };

static bool nightly(void)
{
	const char *depth = getenv("SYSCAGE_TEST_DEPTH");
	return depth && !strcmp(depth, "nightly");
}

static unsigned long scale_divisor(void)
{
	const char *s = getenv("SYSCAGE_TEST_SCALE");
	unsigned long div = s ? strtoul(s, NULL, 10) : 1;
	return div < 1 ? 1 : div;
}

size_t test_stride(size_t quick)
{
	return nightly() ? 1 : (quick ? quick : 1) * scale_divisor();
}

size_t test_scaled(size_t n)
{
	unsigned long div = scale_divisor();
	if (!nightly())
		div *= QUICK_DIVISOR;
	if (div == 1 || n == 0)
		return n;
	return n / div ? n / div : 1;
}
