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

/*
 * Hints that ask the caller to change something of its own: an option it
 * passed (a time budget, an input format, the ABIs) or a list it can show.
 * The library words them in its API's terms (scg_hint_text()); a front end
 * words them with its own flags, from the entry's hint_id.  New ones are
 * added at the end.
 */
enum scg_hint {
	SCG_HINT_NONE = 0,
	SCG_HINT_MORE_TIME,       /* a larger time budget (timeout_ms), or none */
	SCG_HINT_NAME_FORMAT,     /* name the input format (scg_load_options.format) */
	SCG_HINT_CHOOSE_FORMAT,   /* several formats fit: name one, or rename the file */
	SCG_HINT_ONE_ARCH,        /* the output needs a policy for one ABI */
	SCG_HINT_ADD_X32,         /* target x32 too, with no rule for it */
	SCG_HINT_CHOOSE_ARCH,     /* name the ABI of the input */
	SCG_HINT_ARCH_OR_NUMBER,  /* name the ABI, or write the number */
	SCG_HINT_OWN_ARCH,        /* read the input for its own ABI */
	SCG_HINT_POLICY_ARCH,     /* the policy names no ABI: add one, or pass one */
	SCG_HINT_LIST_ARCHES,     /* the ABIs are listed elsewhere */
	SCG_HINT_LIST_GROUPS,     /* the syscall groups are listed elsewhere */
	SCG_HINT_INT_ARGS_32,     /* compare int arguments over 32 bits (scg_oci_options) */
	SCG_HINT_INJECT_ARCHES,   /* inject rules take the ABIs of their options */
};
#define SCG_HINTS 13

struct scg_diag_entry {
	enum scg_severity severity;
	struct scg_loc loc;  /* loc.file points into the entry's own storage */
	const char *code;    /* stable short identifier, e.g. "jump-out-of-range" */
	const char *message; /* one line, no trailing newline */
	const char *hint;    /* NULL or one line: "did you mean 'openat'?" */
	enum scg_hint hint_id; /* what @hint asks for, when the caller may word it */
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
 * can report unconditionally.  @code and @hint may be NULL; @hint is copied,
 * unless it is scg_hint_text(id), which the entry keeps with its hint_id.
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

/*
 * The library's wording of @hint (static storage), in the terms of its API;
 * NULL for SCG_HINT_NONE and unknown values.  Passed as scg_diag_add()'s
 * hint, it gives the entry its hint_id.
 */
SCG_API const char *scg_hint_text(enum scg_hint hint);

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
