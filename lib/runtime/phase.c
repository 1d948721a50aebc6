/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scg_phase_enter(): a program that links libsyscage moves itself from
 * phase to phase of a policy with phases (<syscage/runtime.h>,
 * docs/phases.md).  Each phase's filter is compiled and installed on every
 * thread at once (TSYNC); the kernel keeps the filters installed before,
 * so a phase only ever takes calls away.
 */
#include <errno.h>
#include <stdlib.h>

#include <syscage/compile.h>
#include <syscage/lang.h>
#include <syscage/runtime.h>

int scg_phase_enter(const struct scg_phases *phases, const char *name)
{
	int i = phases && name ? scg_phases_find(phases, name) : -EINVAL;
	if (i < 0)
		return i;
	struct scg_prog prog;
	int r = scg_compile(scg_phases_policy(phases, (size_t)i), NULL, &prog, NULL);
	if (r < 0)
		return r;
	struct scg_install_result res = {.listener = -1};
	r = scg_filter_install(&prog, SCG_FILTER_FLAG_TSYNC, &res);
	scg_prog_release(&prog);
	return r;
}
