/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading a filter named on the command line: whatever cli_load_input()
 * reads, a policy compiled with the default options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/load.h>

#include "cli.h"

/* @policy compiled with the default options into @prog. */
static int compile_policy(const struct scg_policy *policy, struct scg_prog *prog)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	int r = scg_compile(policy, NULL, prog, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	return r;
}

int cli_load_filter(const char *path, const struct scg_arch *arch, struct scg_prog *prog)
{
	*prog = (struct scg_prog){ 0 };
	struct scg_input in;
	int r = cli_load_input(path, arch, NULL, 0, &in);
	if (r < 0)
		return r;
	if (in.policy) {
		r = compile_policy(in.policy, prog);
	} else {
		*prog = in.prog;
		in.prog = (struct scg_prog){ 0 };
	}
	scg_input_release(&in);
	return r;
}
