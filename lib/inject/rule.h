/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the fault-injection rules (<syscage/inject.h>): the
 * when-expression parser and the syscall set.
 */
#ifndef SCG_LIB_INJECT_RULE_H
#define SCG_LIB_INJECT_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <syscage/inject.h>
#include <syscage/lang.h>

/*
 * Parses a when-expression, first[..last][+[step]].  Returns 0, or -EINVAL
 * with *@bad_at the offset of the offending character.
 */
int inject_when_parse(const char *text, size_t len, struct scg_inject_when *out,
			  size_t *bad_at);

/* --- strace's syscall classes (classes.c) --------------------------------- */

/*
 * The members of class %@name ("file", "%stat", ...): NUL-separated names,
 * ended by an empty one (inject_class_next() walks them), or NULL.
 */
const char *inject_class_members(const char *name);

/* The name after @member in a list of inject_class_members(); "" after the last. */
static inline const char *inject_class_next(const char *member)
{
	return member + strlen(member) + 1;
}
/* The name of class @i (for suggestions), or NULL past the last. */
const char *inject_class_name(size_t i);

/* --- path tests (paths.c) ------------------------------------------------- */

/*
 * Takes the `path == "STRING"` terms out of condition @cond (@len bytes,
 * changed in place: each test and one "&&" beside it become spaces, so the
 * rest keeps its columns) into @rule's paths.  Returns 0, -ENOMEM, or
 * -EINVAL for a malformed path test, *@bad_at its offset in @cond.
 */
int inject_take_path_tests(char *cond, size_t len, struct scg_inject_rule *rule, size_t *bad_at);

/* --- the syscall set (set.c) ---------------------------------------------- */

struct inject_set_result {
	const char **names; /* malloc'd array of static strings, sorted, no duplicates */
	uint32_t *masks;    /* malloc'd: names[i] is in the set on arches[k] for bit k */
	size_t count;
};

/*
 * Expands SET (@len bytes at @text, starting at column @column of the rule)
 * over the target ABIs @arches.  Returns 0, -EINVAL (reported in @diag) or
 * -ENOMEM.
 */
int inject_set_expand(const char *text, size_t len, unsigned column,
		      const struct scg_arch *const *arches, size_t narches,
		      struct inject_set_result *out, struct scg_diag *diag);

#endif
