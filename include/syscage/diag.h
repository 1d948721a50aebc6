/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics: the one channel through which every syscage parser, checker
 * and compiler reports problems with its input.
 *
 * Library functions return 0 or a negative errno.  What went wrong *in the
 * input* (file, line, column or instruction index, a message, a hint) is
 * appended to a caller-owned struct scg_diag.  The library never prints.
 */
#ifndef SYSCAGE_DIAG_H
#define SYSCAGE_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include <syscage/export.h>

#ifdef __cplusplus
extern "C" {
#endif

enum scg_severity {
	SCG_SEV_NOTE = 0,
	SCG_SEV_WARNING = 1,
	SCG_SEV_ERROR = 2,
};

/* Where a diagnostic points.  Unknown parts are 0 (line, column) or -1 (insn). */
struct scg_loc {
	const char *file; /* borrowed; copied by scg_diag_add() */
	unsigned line;    /* 1-based */
	unsigned column;  /* 1-based */
	long insn;        /* instruction index in a program, or -1 */
};

#define SCG_LOC_NONE ((struct scg_loc){ NULL, 0, 0, -1 })
#define SCG_LOC_INSN(i) ((struct scg_loc){ NULL, 0, 0, (long)(i) })

struct scg_diag_entry {
	enum scg_severity severity;
	struct scg_loc loc;  /* loc.file points into the entry's own storage */
	const char *code;    /* stable short identifier, e.g. "jump-out-of-range" */
	const char *message; /* one line, no trailing newline */
	const char *hint;    /* NULL or one line: "did you mean 'openat'?" */
};

/* An ordered list of diagnostics.  Opaque. */
struct scg_diag;

/* Returns a new empty list, or NULL with errno set.  Free with scg_diag_free(). */
SCG_API struct scg_diag *scg_diag_new(void);
/* Frees the list and every entry.  NULL is a no-op. */
SCG_API void scg_diag_free(struct scg_diag *diag);
/* Frees every entry and leaves the list empty, ready for reuse.  NULL is a no-op. */
SCG_API void scg_diag_clear(struct scg_diag *diag);
/* How many entries the list holds; 0 for NULL. */
SCG_API size_t scg_diag_count(const struct scg_diag *diag);
/* Entries at or above @min severity. */
SCG_API size_t scg_diag_count_at_least(const struct scg_diag *diag, enum scg_severity min);
/* Borrowed pointer, valid until the list is cleared or freed; NULL past the end. */
SCG_API const struct scg_diag_entry *scg_diag_get(const struct scg_diag *diag, size_t index);

/*
 * Appends an entry.  @diag may be NULL (the entry is dropped), so library code
 * can report unconditionally.  @code and @hint may be NULL; @hint is copied.
 * Returns 0 or -ENOMEM.
 */
SCG_API int scg_diag_add(struct scg_diag *diag, enum scg_severity severity, struct scg_loc loc,
			 const char *code, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* scg_diag_add() with the arguments as a va_list. */
SCG_API int scg_diag_vadd(struct scg_diag *diag, enum scg_severity severity, struct scg_loc loc,
			  const char *code, const char *hint, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/*
 * Formats one entry the way compilers do:
 *   "file:line:col: error: message" or "insn 12: warning: message",
 * followed by "\n  hint: ..." when there is a hint.  No trailing newline.
 * Behaves like snprintf(): returns the length the full text needs.
 */
SCG_API int scg_diag_format(const struct scg_diag_entry *entry, char *buf, size_t size);

/* "note", "warning" or "error" (static storage); "?" for any other value. */
SCG_API const char *scg_severity_name(enum scg_severity severity);

/*
 * For a "did you mean" hint: the one of the @n @candidates closest to
 * @word (case-insensitive edit distance) when it is close enough to be a
 * typo of it, else NULL.  Returns one of @candidates (borrowed).
 */
SCG_API const char *scg_suggest(const char *word, const char *const *candidates, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_DIAG_H */
