/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frequency profile as JSON: the counts alone, for tools (and the
 * compiler) that weigh syscalls by how often they are made.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <syscage/json.h>

#include "learn/internal.h"

/* The counts of @learn, whose entries come sorted by ABI: one object per ABI. */
static void write_counts(struct scg_json *w, const struct scg_learn *learn)
{
	scg_json_object(w, SCG_JSON_LINES);
	scg_json_member_int(w, "version", 1);
	scg_json_member_uint(w, "total", scg_learn_total(learn));
	scg_json_key(w, "abis");
	scg_json_object(w, SCG_JSON_LINES);
	const struct scg_arch *current = NULL;
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(learn); i++) {
		scg_learn_entry_at(learn, i, &e);
		if (e.arch != current) {
			if (current)
				scg_json_end(w);
			scg_json_key(w, scg_arch_name(e.arch));
			scg_json_object(w, SCG_JSON_LINES);
			current = e.arch;
		}
		char nr[16];
		snprintf(nr, sizeof(nr), "%" PRIu32, e.nr);
		scg_json_key(w, e.name ? e.name : nr);
		scg_json_uint(w, e.calls);
	}
	if (current)
		scg_json_end(w);
	scg_json_end(w);
	scg_json_end(w);
}

int scg_learn_counts_json(const struct scg_learn *learn, char **json)
{
	*json = NULL;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	struct scg_json *w = scg_json_new(f);
	int r = w ? 0 : -ENOMEM;
	if (w) {
		write_counts(w, learn);
		r = scg_json_free(w);
	}
	if (r == 0 && fputc('\n', f) == EOF)
		r = -ENOMEM;
	if (fclose(f) != 0 && r == 0) /* the text is whole only once it is flushed */
		r = -ENOMEM;
	if (r < 0) {
		free(text);
		return -ENOMEM;
	}
	*json = text;
	return 0;
}
