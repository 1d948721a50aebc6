/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading systemd unit files, drop-ins and `systemctl show` output as
 * systemd.syntax(7) writes them: [Section] headers, Key=Value assignments,
 * '#' and ';' comments, lines continued with a trailing backslash.  Every
 * word of a value keeps its own line and column.
 */
#ifndef SCG_IMPORT_UNIT_H
#define SCG_IMPORT_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/diag.h>

/* Where a stretch of a logical (joined) line starts in the file. */
struct unit_piece {
	size_t offset; /* in the logical value */
	unsigned line, column;
};

#define UNIT_MAX_PIECES 64

struct unit_setting {
	const char *section; /* "" before any header (`systemctl show` output) */
	char *key;
	char *value; /* whitespace around it trimmed, continuations joined */
	struct unit_piece pieces[UNIT_MAX_PIECES];
	size_t npieces;
	struct scg_loc key_loc;
};

struct unit_word {
	char text[256];
	bool truncated;
	struct scg_loc loc;
};

/* The file position of @offset in @s's value. */
struct scg_loc unit_loc(const struct unit_setting *s, size_t offset, const char *file);
/*
 * The next whitespace-separated word of @s's value from *@pos, quotes
 * removed; false at the end.
 */
bool unit_next_word(const struct unit_setting *s, size_t *pos, const char *file,
		    struct unit_word *w);

/* Called for each assignment in file order; returns 0 or -errno to stop. */
typedef int (*unit_visit_fn)(void *ctx, const struct unit_setting *s);

/*
 * Reads @len bytes of @text.  Lines that are neither comments, headers nor
 * assignments are errors (in @diag, with a hint); reading goes on so that
 * all of them are reported.  0, -EINVAL (some error) or what @fn returned.
 */
int unit_read(const char *text, size_t len, const char *file, unit_visit_fn fn, void *ctx,
	      struct scg_diag *diag);

#endif
