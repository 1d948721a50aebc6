/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "util/opts.h"

#include <errno.h>
#include <string.h>

int opts_load(void *local, size_t local_sz, const void *opts, size_t first_sz)
{
	memset(local, 0, local_sz);
	size_t sz = 0;
	if (opts) {
		memcpy(&sz, opts, sizeof(sz));
		if (sz == 0)
			sz = first_sz;
		if (sz < sizeof(size_t))
			return -EINVAL;
		/* fields of a newer header: harmless only when the caller left them zero */
		const unsigned char *bytes = opts;
		for (size_t i = local_sz; i < sz; i++)
			if (bytes[i])
				return -EINVAL;
		memcpy(local, opts, sz < local_sz ? sz : local_sz);
	}
	memcpy(local, &local_sz, sizeof(local_sz));
	return 0;
}
