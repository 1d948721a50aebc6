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

static const char *const hint_texts[SCG_HINTS + 1] = {
	[SCG_HINT_MORE_TIME] = "give it more time (a larger timeout_ms, 0 for no limit)",
	[SCG_HINT_NAME_FORMAT] = "name the format (scg_load_options.format) to have its reader "
				 "say what is wrong",
	[SCG_HINT_CHOOSE_FORMAT] = "name the format (scg_load_options.format), or give the file "
				   "the suffix of one",
	[SCG_HINT_ONE_ARCH] = "write a policy for one ABI",
	[SCG_HINT_ADD_X32] = "target x32 too, with no rule for it",
	[SCG_HINT_CHOOSE_ARCH] = "name the ABI (scg_asm_options.arch)",
	[SCG_HINT_ARCH_OR_NUMBER] = "name the ABI (scg_asm_options.arch), or write the number",
	[SCG_HINT_OWN_ARCH] = "read it for its own ABI, or disassemble it again for the other",
	[SCG_HINT_POLICY_ARCH] = "add an 'arch' line, or give the compiler the ABIs",
	[SCG_HINT_LIST_ARCHES] = "scg_arch_at() lists the ABIs",
	[SCG_HINT_LIST_GROUPS] = "scg_group_name() lists the groups",
	[SCG_HINT_INT_ARGS_32] = "compare only the low 32 bits: in a policy the parameter's name "
				 "or argN.lo; import OCI profiles with int_args_32 set",
	[SCG_HINT_INJECT_ARCHES] = "the target ABIs are the rules' options' (arches), or the "
				   "native ones",
};

_Static_assert(SCG_HINT_INJECT_ARCHES == SCG_HINTS, "SCG_HINTS is the last hint");

const char *scg_hint_text(enum scg_hint hint)
{
	return (unsigned)hint <= SCG_HINTS ? hint_texts[hint] : NULL;
}

/* The id of @hint when it is one of hint_texts (by address), else SCG_HINT_NONE. */
static enum scg_hint hint_id_of(const char *hint)
{
	for (unsigned i = 1; hint && i <= SCG_HINTS; i++)
		if (hint == hint_texts[i])
			return (enum scg_hint)i;
	return SCG_HINT_NONE;
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
	enum scg_hint hint_id = hint_id_of(hint);
	item.hint = hint_id ? NULL : dup_or_null(hint, &failed);
	if (failed) {
		diag_item_release(&item);
		return -ENOMEM;
	}
	item.pub = (struct scg_diag_entry){
		.severity = severity,
		.loc = loc,
		.code = code,
		.message = item.message,
		.hint = hint_id ? hint_texts[hint_id] : item.hint,
		.hint_id = hint_id,
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
