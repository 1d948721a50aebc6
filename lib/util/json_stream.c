/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* scg_json_write_string(): json.c's writer onto a stream, for the command. */
#include <errno.h>
#include <stdio.h>

#include <syscage/json.h>

#include "util/json.h"

static int put_file(void *ctx, const char *s, size_t n)
{
	errno = 0;
	if (fwrite(s, 1, n, ctx) == n)
		return 0;
	return errno > 0 ? -errno : -EIO;
}

int scg_json_write_string(FILE *out, const char *s, size_t len)
{
	if (!out || (!s && len))
		return -EINVAL;
	return json_write_escaped(put_file, out, s, len);
}
