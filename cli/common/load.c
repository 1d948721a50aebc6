/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading a filter named on the command line.  The kind of file is decided
 * by its name, never guessed from its content (a raw filter can look like
 * text): *.s and *.asm are assembler; anything else is raw struct
 * sock_filter records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

bool cli_is_asm_path(const char *path)
{
	return path && (has_suffix(path, ".s") || has_suffix(path, ".asm"));
}

/* A policy or profile, compiled with the default options. */
static int compile_policy(const char *path, struct scg_prog *prog)
{
	struct scg_policy *policy;
	int r = cli_load_policy(path, NULL, 0, &policy);
	if (r < 0)
		return r;
	struct scg_diag *diag = scg_diag_new();
	if (!diag) {
		scg_policy_free(policy);
		return -ENOMEM;
	}
	r = scg_compile(policy, NULL, prog, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	scg_policy_free(policy);
	return r;
}

int cli_load_filter(const char *path, const struct scg_arch *arch, struct scg_prog *prog)
{
	if (cli_is_policy_ref(path))
		return compile_policy(path, prog);
	char *data;
	size_t len;
	int r = cli_read_file(path, &data, &len);
	if (r < 0)
		return r;

	struct scg_diag *diag = scg_diag_new();
	if (!diag) {
		free(data);
		return -ENOMEM;
	}
	const char *name = path && strcmp(path, "-") ? path : "<stdin>";
	if (cli_is_asm_path(path)) {
		/* a header naming the file's ABI wins over @arch, which names the words of others */
		SCG_OPTS(scg_asm_options, opts, .arch = arch, .filename = name,
			 .arch_is_default = true);
		r = scg_asm(data, len, &opts, prog, diag);
	} else {
		r = scg_prog_from_raw(data, len, name, prog, diag);
	}
	cli_print_diag(diag);
	if (r < 0 && scg_diag_count(diag) == 0)
		cli_error("cannot load '%s': %s", name, strerror(-r));
	scg_diag_free(diag);
	free(data);
	return r;
}
