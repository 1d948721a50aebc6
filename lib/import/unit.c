/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit-file reader: see unit.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/unit.h"
#include "util/scan.h"
#include "util/strbuf.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

struct scg_loc unit_loc(const struct unit_setting *s, size_t offset, const char *file)
{
	size_t i = 0;
	while (i + 1 < s->npieces && s->pieces[i + 1].offset <= offset)
		i++;
	const struct unit_piece *p = &s->pieces[i];
	return (struct scg_loc){file, p->line, p->column + (unsigned)(offset - p->offset), -1};
}

bool unit_next_word(const struct unit_setting *s, size_t *pos, const char *file,
		    struct unit_word *w)
{
	const char *v = s->value;
	size_t i = *pos;
	while (v[i] && is_blank(v[i]))
		i++;
	if (!v[i]) {
		*pos = i;
		return false;
	}
	w->loc = unit_loc(s, i, file);
	w->truncated = false;
	size_t n = 0;
	char quote = 0;
	for (; v[i] && (quote || !is_blank(v[i])); i++) {
		char c = v[i];
		if (!quote && (c == '"' || c == '\'')) {
			quote = c;
			continue;
		}
		if (quote && c == quote) {
			quote = 0;
			continue;
		}
		if (n + 1 < sizeof(w->text))
			w->text[n++] = c;
		else
			w->truncated = true;
	}
	w->text[n] = '\0';
	*pos = i;
	return true;
}

struct reader {
	struct scan sc; /* at the start of the next physical line */
	const char *file;
	char section[64];
	struct scg_diag *diag;
	bool failed;
};

/* Where the physical line at @s ends: the offset of its '\n', or of the end of the text. */
static size_t line_end(const struct scan *s)
{
	struct scan e = *s;
	scan_to_eol(&e);
	return e.pos;
}

static void error(struct reader *rd, struct scg_loc loc, const char *hint, const char *msg)
{
	rd->failed = true;
	scg_diag_add(rd->diag, SCG_SEV_ERROR, loc, "unit-syntax", hint, "%s", msg);
}

/* The cursor @s is on the '['; @e ends its line. */
static void read_header(struct reader *rd, const struct scan *s, size_t e)
{
	const char *p = s->text + s->pos;
	const char *close = memchr(p, ']', e - s->pos);
	if (!close) {
		error(rd, scan_loc(s, rd->file), "a section header is '[Name]' on a line of its own",
		      "section header without ']'");
		return;
	}
	size_t n = (size_t)(close - p - 1);
	if (n >= sizeof(rd->section))
		n = sizeof(rd->section) - 1;
	memcpy(rd->section, p + 1, n);
	rd->section[n] = '\0';
}

/*
 * Appends physical lines to @sb from the cursor (on the value) while they
 * end in a backslash; leaves the cursor at the start of the next line.
 */
static void join_lines(struct reader *rd, struct unit_setting *s, struct strbuf *sb)
{
	struct scan *sc = &rd->sc;
	for (;;) {
		size_t e = line_end(sc);
		const char *p = sc->text + sc->pos, *last = sc->text + e;
		while (last > p && is_blank(last[-1]))
			last--;
		bool more = last > p && last[-1] == '\\' && e < sc->len;
		if (s->npieces < UNIT_MAX_PIECES)
			s->pieces[s->npieces++] =
				(struct unit_piece){sb->len, sc->line, sc->column};
		strbuf_appendn(sb, p, (size_t)((more ? last - 1 : last) - p));
		scan_line(sc);
		if (!more)
			return;
		strbuf_append(sb, " ");
		/* comment lines inside a continuation are skipped, as systemd does */
		while (scan_more(sc) && (scan_peek(sc, 0) == '#' || scan_peek(sc, 0) == ';'))
			scan_line(sc);
	}
}

/* The cursor is on the key's first byte; @e ends its line. */
static int read_assignment(struct reader *rd, size_t e, unit_visit_fn fn, void *ctx)
{
	struct scan *sc = &rd->sc;
	const char *p = sc->text + sc->pos;
	struct scg_loc at = scan_loc(sc, rd->file);
	const char *eq = memchr(p, '=', e - sc->pos);
	if (!eq) {
		error(rd, at, "settings are 'Key=value'; comments start with '#' or ';'",
		      "line is neither an assignment, a section header nor a comment");
		scan_line(sc);
		return 0;
	}
	const char *kend = eq;
	while (kend > p && is_blank(kend[-1]))
		kend--;
	if (kend == p) {
		error(rd, at, "write the setting's name before '='", "empty setting name");
		scan_line(sc);
		return 0;
	}
	struct unit_setting s = {.section = rd->section};
	s.key_loc = at;
	s.key = strndup(p, (size_t)(kend - p));
	scan_skip(sc, (size_t)(eq + 1 - p));
	scan_while(sc, is_blank);
	struct strbuf sb = STRBUF_INIT;
	join_lines(rd, &s, &sb);
	/* trailing blanks are not part of the value */
	while (sb.len && sb.data && is_blank(sb.data[sb.len - 1]))
		sb.data[--sb.len] = '\0';
	int r = strbuf_finish(&sb, &s.value);
	if (r == 0 && !s.key)
		r = -ENOMEM;
	if (r == 0 && fn)
		r = fn(ctx, &s);
	free(s.key);
	free(s.value);
	return r;
}

int unit_read(const char *text, size_t len, const char *file, unit_visit_fn fn, void *ctx,
	      struct scg_diag *diag)
{
	struct reader rd = {.file = file, .diag = diag};
	scan_init(&rd.sc, text, len);
	struct scan *sc = &rd.sc;
	int r = 0;
	while (scan_more(sc) && r == 0) {
		scan_while(sc, is_blank);
		size_t e = line_end(sc);
		char c = scan_peek(sc, 0);
		if (sc->pos == e || c == '#' || c == ';') {
			scan_line(sc);
		} else if (c == '[') {
			read_header(&rd, sc, e);
			scan_line(sc);
		} else if (memchr(sc->text + sc->pos, '\0', e - sc->pos)) {
			error(&rd, scan_loc(sc, file), "unit files are text", "NUL byte in line");
			scan_line(sc);
		} else {
			r = read_assignment(&rd, e, fn, ctx);
		}
	}
	if (r < 0)
		return r;
	return rd.failed ? -EINVAL : 0;
}
