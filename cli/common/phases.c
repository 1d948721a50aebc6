/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies with phases named on the command line (docs/phases.md): a policy
 * file with `phase` lines is read whole by scg_phases_parse_file(); any
 * other input is left to cli_load_policy().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Whether the regular file @path has a `phase` line. */
static bool file_has_phases(const char *path)
{
	struct stat st;
	if (!strcmp(path, "-") || stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (16 << 20))
		return false;
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char *text = malloc((size_t)st.st_size + 1);
	size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	bool yes = text && scg_phases_detect(text, n);
	free(text);
	return yes;
}

int cli_load_phases(const char *path, const struct scg_arch *const *arches, size_t narches,
		    struct scg_phases **out)
{
	*out = NULL;
	if (!file_has_phases(path))
		return 0;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	SCG_OPTS(scg_policy_source_options, o, .filename = path, .arches = narches ? arches : NULL,
		 .narches = narches);
	int r = scg_phases_parse_file(path, &o, out, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	if (r == -ENOMEM)
		cli_error("%s: %s", path, strerror(-r));
	return r < 0 ? r : 1;
}

int cli_phase_index(const struct scg_phases *phases, const char *name)
{
	int i = scg_phases_find(phases, name);
	if (i >= 0)
		return i;
	char list[256] = "";
	for (size_t k = 0; k < scg_phases_count(phases); k++) {
		strncat(list, k ? ", " : "", sizeof(list) - strlen(list) - 1);
		strncat(list, scg_phases_name(phases, k), sizeof(list) - strlen(list) - 1);
	}
	cli_error("no phase '%s' (the phases: %s)", name, list);
	return -ENOENT;
}
