/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frequency profile as JSON: the counts alone, for tools (and the
 * compiler) that weigh syscalls by how often they are made.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "learn/internal.h"
#include "util/json.h"
#include "util/strbuf.h"

int scg_learn_counts_json(const struct scg_learn *learn, char **json)
{
	*json = NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_appendf(&sb, "{\n  \"version\": 1,\n  \"total\": %" PRIu64 ",\n  \"abis\": {",
			   scg_learn_total(learn));
	const struct scg_arch *current = NULL;
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(learn); i++) {
		scg_learn_entry_at(learn, i, &e);
		if (e.arch != current) {
			/* Entries come sorted by ABI: one object per run of entries. */
			const char *abi = scg_arch_name(e.arch);
			strbuf_append(&sb, current ? "\n    },\n    " : "\n    ");
			json_append_string(&sb, abi, strlen(abi));
			strbuf_append(&sb, ": {");
			current = e.arch;
		} else {
			strbuf_append(&sb, ",");
		}
		char nr[16];
		snprintf(nr, sizeof(nr), "%" PRIu32, e.nr);
		const char *name = e.name ? e.name : nr;
		strbuf_append(&sb, "\n      ");
		json_append_string(&sb, name, strlen(name));
		strbuf_appendf(&sb, ": %" PRIu64, e.calls);
	}
	strbuf_append(&sb, current ? "\n    }\n  }\n}\n" : "}\n}\n");
	return strbuf_finish(&sb, json);
}
