/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile --workload in a build without json-c: the reader says it was left out. */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

void cli_workload_free(struct scg_syscall_weight *w, size_t n)
{
	(void)n;
	free(w);
}

int cli_load_workload(const char *path, struct scg_syscall_weight **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	cli_error("%s: this syscage was built without json-c, so it cannot read frequency profiles "
		  "(install libjson-c-dev and run meson setup with -Doci=enabled)", path);
	return -ENOTSUP;
}
