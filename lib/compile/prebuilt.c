/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Built-in profiles, compiled when syscage was built: `syscage run` with
 * the default profile would otherwise parse and compile the same text on
 * every start.  The table is generated (tools/gen-prebuilt.c); a unit test
 * compares each program with a fresh compile, so it cannot go stale.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/compile.h>

#include "compile/prebuilt.h"

int scg_profile_prebuilt(const char *name, const struct scg_arch *native, struct scg_prog *out)
{
	*out = (struct scg_prog){ 0 };
	const char *abi = native ? scg_arch_name(native) : NULL;
	for (size_t i = 0; name && abi && i < prebuilt_filter_count; i++) {
		const struct prebuilt_filter *f = &prebuilt_filters[i];
		if (strcmp(f->profile, name) || strcmp(f->native, abi))
			continue;
		struct scg_prog view = { (struct scg_insn *)f->insns, f->len };
		return scg_prog_copy(out, &view);
	}
	return -ENOENT;
}
