/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* compile --format k8s in a build without json-c: the converter says it was left out. */
#include <errno.h>
#include <stddef.h>

#include "common/cli.h"
#include "k8s.h"

int cli_oci_to_k8s(const char *json, const char *name, char **yaml)
{
	(void)json;
	(void)name;
	*yaml = NULL;
	cli_error("this syscage was built without json-c, so it cannot write SeccompProfile "
		  "objects (install libjson-c-dev and run meson setup with -Doci=enabled)");
	return -ENOTSUP;
}
