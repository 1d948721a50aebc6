/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/diag.h>

#include "grow.h"
#include "suggest.h"

/* Each entry owns its strings; the public view points into them. */
struct diag_item {
	struct scg_diag_entry pub;
	char *file;
	char *message;
	char *hint;
};

struct scg_diag {
	struct diag_item *items;
	size_t count;
	size_t cap;
};

struct scg_diag *scg_diag_new(void)
{
	return calloc(1, sizeof(struct scg_diag));
}

static void diag_item_release(struct diag_item *item)
{
	free(item->file);
	free(item->message);
	free(item->hint);
}

void scg_diag_clear(struct scg_diag *diag)
{
	if (!diag)
		return;
	for (size_t i = 0; i < diag->count; i++)
		diag_item_release(&diag->items[i]);
	diag->count = 0;
}

void scg_diag_free(struct scg_diag *diag)
{
	if (!diag)
		return;
	scg_diag_clear(diag);
	free(diag->items);
	free(diag);
}

size_t scg_diag_count(const struct scg_diag *diag)
{
	return diag ? diag->count : 0;
}

size_t scg_diag_count_at_least(const struct scg_diag *diag, enum scg_severity min)
{
	size_t n = 0;
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		n += diag->items[i].pub.severity >= min;
	return n;
}

const struct scg_diag_entry *scg_diag_get(const struct scg_diag *diag, size_t index)
{
	if (!diag || index >= diag->count)
		return NULL;
	return &diag->items[index].pub;
}

static char *dup_or_null(const char *s, bool *failed)
{
	if (!s)
		return NULL;
	char *copy = strdup(s);
	if (!copy)
		*failed = true;
	return copy;
}

int scg_diag_vadd(struct scg_diag *diag, enum scg_severity severity, struct scg_loc loc,
		  const char *code, const char *hint, const char *fmt, va_list ap)
{
	if (!diag)
		return 0;
	if (GROW_ARRAY(&diag->items, &diag->cap, diag->count + 1, 8))
		return -ENOMEM;

	struct diag_item item = { 0 };
	bool failed = false;
	if (vasprintf(&item.message, fmt, ap) < 0) {
		item.message = NULL;
		failed = true;
	}
	item.file = dup_or_null(loc.file, &failed);
	item.hint = dup_or_null(hint, &failed);
	if (failed) {
		diag_item_release(&item);
		return -ENOMEM;
	}
	item.pub = (struct scg_diag_entry){
		.severity = severity,
		.loc = loc,
		.code = code,
		.message = item.message,
		.hint = item.hint,
	};
	item.pub.loc.file = item.file;
	diag->items[diag->count++] = item;
	return 0;
}

int scg_diag_add(struct scg_diag *diag, enum scg_severity severity, struct scg_loc loc,
		 const char *code, const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = scg_diag_vadd(diag, severity, loc, code, hint, fmt, ap);
	va_end(ap);
	return r;
}

const char *scg_severity_name(enum scg_severity severity)
{
	switch (severity) {
	case SCG_SEV_NOTE:
		return "note";
	case SCG_SEV_WARNING:
		return "warning";
	case SCG_SEV_ERROR:
		return "error";
	}
	return "?";
}

/* "file:line:col", "file:line", "file", "insn N", "file: insn N" or "" */
static int format_location(const struct scg_loc *loc, char *buf, size_t size)
{
	const char *file = loc->file;
	if (file && loc->line && loc->column)
		return snprintf(buf, size, "%s:%u:%u: ", file, loc->line, loc->column);
	if (file && loc->line)
		return snprintf(buf, size, "%s:%u: ", file, loc->line);
	if (file && loc->insn >= 0)
		return snprintf(buf, size, "%s: insn %ld: ", file, loc->insn);
	if (loc->insn >= 0)
		return snprintf(buf, size, "insn %ld: ", loc->insn);
	if (file)
		return snprintf(buf, size, "%s: ", file);
	if (size)
		buf[0] = '\0';
	return 0;
}

int scg_diag_format(const struct scg_diag_entry *entry, char *buf, size_t size)
{
	int at = format_location(&entry->loc, buf, size);
	if (at < 0)
		return at;
	size_t used = (size_t)at < size ? (size_t)at : size;
	char *rest = size ? buf + used : NULL; /* no pointer arithmetic on a NULL buffer */
	int more;
	if (entry->hint)
		more = snprintf(rest, size - used, "%s: %s\n  hint: %s",
				scg_severity_name(entry->severity), entry->message, entry->hint);
	else
		more = snprintf(rest, size - used, "%s: %s",
				scg_severity_name(entry->severity), entry->message);
	return more < 0 ? more : at + more;
}

const char *scg_suggest(const char *word, const char *const *candidates, size_t n)
{
	struct suggest s;
	suggest_init(&s, word);
	for (size_t i = 0; i < n; i++)
		suggest_consider(&s, candidates[i]);
	return suggest_result(&s);
}
