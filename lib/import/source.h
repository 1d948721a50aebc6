/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the text importers (minijail, kafel) share: files they include,
 * read beside the file that names them, and values written the way the
 * policy language writes them (numbers, constants, '|', '~'), reported at
 * the importer's own line and column.
 */
#ifndef SCG_IMPORT_SOURCE_H
#define SCG_IMPORT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/diag.h>

/* The largest file an importer includes (a policy, not a data set). */
#define IMP_INCLUDE_MAX (1U << 20)

/*
 * Reads @path, relative to the directory of @including (the file that
 * names it; NULL or a name in angle brackets: the working directory), into
 * *@text (NUL-terminated, caller frees) and the path it opened into
 * *@resolved (caller frees).  Only regular files up to IMP_INCLUDE_MAX.
 * 0 or a negative errno (-EFBIG, -EINVAL for a file that is not regular).
 */
int imp_read_include(const char *including, const char *path, char **text, size_t *len,
		     char **resolved);

/*
 * The value of @n bytes at @text on @abi, as scg_constant_eval() reads it;
 * problems go to @diag at @loc.  0, -EINVAL (reported) or -ENOMEM.
 */
int imp_constant(const char *text, size_t n, const struct scg_arch *abi, uint64_t *value,
		 struct scg_diag *diag, struct scg_loc loc, const char *code);

/* The best guess for the unknown syscall @name on @abi, as a hint ("did you mean 'x'?") or NULL. */
const char *imp_syscall_hint(const struct scg_arch *abi, const char *name, char *buf, size_t size);

#endif
