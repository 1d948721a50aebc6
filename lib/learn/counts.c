/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frequency profile as JSON: the counts alone, for tools (and the
 * compiler) that weigh syscalls by how often they are made.
 */
#include <inttypes.h>

#include "learn/internal.h"
#include "util/strbuf.h"

int scg_learn_counts_json(const struct scg_learn *learn, char **json)
{
	*json = NULL;
	struct scg_strbuf sb = SCG_STRBUF_INIT;
	scg_strbuf_appendf(&sb, "{\n  \"version\": 1,\n  \"total\": %" PRIu64 ",\n  \"abis\": {",
			   scg_learn_total(learn));
	const struct scg_arch *current = NULL;
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(learn); i++) {
		scg_learn_entry_at(learn, i, &e);
		if (e.arch != current) {
			/* Entries come sorted by ABI: one object per run of entries. */
			scg_strbuf_appendf(&sb, "%s\n    \"%s\": {", current ? "\n    }," : "",
					   scg_arch_name(e.arch));
			current = e.arch;
		} else {
			scg_strbuf_append(&sb, ",");
		}
		/* Syscall names are [a-z0-9_]: nothing to escape. */
		if (e.name)
			scg_strbuf_appendf(&sb, "\n      \"%s\": %" PRIu64, e.name, e.calls);
		else
			scg_strbuf_appendf(&sb, "\n      \"%" PRIu32 "\": %" PRIu64, e.nr, e.calls);
	}
	scg_strbuf_append(&sb, current ? "\n    }\n  }\n}\n" : "}\n}\n");
	return scg_strbuf_finish(&sb, json);
}
