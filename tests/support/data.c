/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "support/data.h"

enum { DATA_MAX = 1 << 20 };

static char *read_whole(FILE *f, size_t *len)
{
	char *buf = malloc(DATA_MAX + 1);
	if (!buf)
		return NULL;
	size_t n = fread(buf, 1, DATA_MAX + 1, f);
	if (ferror(f) || n > DATA_MAX) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *test_data_read(const char *name, size_t *len)
{
	static const char *const dirs[] = { "tests/data/", "../tests/data/", "../../tests/data/" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s%s", dirs[i], name);
		FILE *f = fopen(path, "rb");
		if (!f)
			continue;
		char *buf = read_whole(f, len);
		fclose(f);
		return buf;
	}
	return NULL;
}
