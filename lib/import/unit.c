/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit-file reader: see unit.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import/unit.h"
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
	const char *text, *end, *file;
	unsigned line;
	char section[64];
	struct scg_diag *diag;
	bool failed;
};

/* The physical line at @p: its end (excluding '\n'). */
static const char *line_end(const char *p, const char *end)
{
	if (p >= end)
		return end;
	const char *e = memchr(p, '\n', (size_t)(end - p));
	return e ? e : end;
}

static void error(struct reader *rd, unsigned line, unsigned col, const char *hint, const char *msg)
{
	rd->failed = true;
	scg_diag_add(rd->diag, SCG_SEV_ERROR, (struct scg_loc){rd->file, line, col, -1},
		     "unit-syntax", hint, "%s", msg);
}

static void read_header(struct reader *rd, const char *p, const char *e, unsigned col)
{
	const char *close = memchr(p, ']', (size_t)(e - p));
	if (!close) {
		error(rd, rd->line, col, "a section header is '[Name]' on a line of its own",
		      "section header without ']'");
		return;
	}
	size_t n = (size_t)(close - p - 1);
	if (n >= sizeof(rd->section))
		n = sizeof(rd->section) - 1;
	memcpy(rd->section, p + 1, n);
	rd->section[n] = '\0';
}

/* Appends physical lines to @sb while they end in a backslash; returns the rest of the text. */
static const char *join_lines(struct reader *rd, struct unit_setting *s, struct strbuf *sb,
			      const char *p, const char *e, unsigned col)
{
	for (;;) {
		const char *last = e;
		while (last > p && is_blank(last[-1]))
			last--;
		bool more = last > p && last[-1] == '\\' && e < rd->end;
		if (s->npieces < UNIT_MAX_PIECES)
			s->pieces[s->npieces++] = (struct unit_piece){sb->len, rd->line, col};
		strbuf_appendn(sb, p, (size_t)((more ? last - 1 : last) - p));
		if (!more)
			return e < rd->end ? e + 1 : e;
		strbuf_append(sb, " ");
		p = e + 1;
		rd->line++;
		e = line_end(p, rd->end);
		/* comment lines inside a continuation are skipped, as systemd does */
		while (p < rd->end && (*p == '#' || *p == ';')) {
			p = e < rd->end ? e + 1 : e;
			rd->line++;
			e = line_end(p, rd->end);
		}
		col = 1;
	}
}

static int read_assignment(struct reader *rd, const char *p, const char *e, unsigned col,
			   const char **next, unit_visit_fn fn, void *ctx)
{
	const char *eq = memchr(p, '=', (size_t)(e - p));
	*next = e < rd->end ? e + 1 : e;
	if (!eq) {
		error(rd, rd->line, col, "settings are 'Key=value'; comments start with '#' or ';'",
		      "line is neither an assignment, a section header nor a comment");
		return 0;
	}
	const char *kend = eq;
	while (kend > p && is_blank(kend[-1]))
		kend--;
	if (kend == p) {
		error(rd, rd->line, col, "write the setting's name before '='",
		      "empty setting name");
		return 0;
	}
	struct unit_setting s = {.section = rd->section};
	s.key_loc = (struct scg_loc){rd->file, rd->line, col, -1};
	s.key = strndup(p, (size_t)(kend - p));
	const char *v = eq + 1;
	while (v < e && is_blank(*v))
		v++;
	struct strbuf sb = STRBUF_INIT;
	*next = join_lines(rd, &s, &sb, v, e, col + (unsigned)(v - p));
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
	struct reader rd = {.text = text, .end = text + len, .file = file, .diag = diag};
	const char *p = text;
	int r = 0;
	for (rd.line = 1; p < rd.end && r == 0; rd.line++) {
		const char *e = line_end(p, rd.end);
		const char *q = p;
		while (q < e && is_blank(*q))
			q++;
		unsigned col = (unsigned)(q - p) + 1;
		if (q == e || *q == '#' || *q == ';') {
			p = e < rd.end ? e + 1 : e;
		} else if (*q == '[') {
			read_header(&rd, q, e, col);
			p = e < rd.end ? e + 1 : e;
		} else if (memchr(q, '\0', (size_t)(e - q))) {
			error(&rd, rd.line, col, "unit files are text", "NUL byte in line");
			p = e < rd.end ? e + 1 : e;
		} else {
			r = read_assignment(&rd, q, e, col, &p, fn, ctx);
		}
	}
	if (r < 0)
		return r;
	return rd.failed ? -EINVAL : 0;
}
