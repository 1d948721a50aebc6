/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tables behind the policy language: named constants, syscall parameter
 * names, syscall groups and built-in profiles.  Shared by the parser, the
 * text writer and the tests; not part of the public API.
 */
#ifndef SCG_LIB_LANG_LANG_INTERNAL_H
#define SCG_LIB_LANG_LANG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>

/* --- named constants (constants.c) ---------------------------------------- */

/*
 * The value of constant @name (AF_UNIX, O_CLOEXEC, TCGETS, EPERM, ...) on
 * @arch.  Returns 0, -ENOENT when no such constant exists, or -ENODATA when
 * it exists but its value on @arch is not known to syscage (the caller must
 * refuse rather than guess).
 */
int constant_value(const char *name, const struct scg_arch *arch, uint64_t *value);
/* The closest constant name to a misspelled one, or NULL. */
const char *constant_suggest(const char *name);
/*
 * The prefix of the constants parameter @param of @syscall takes ("O_" for
 * openat's flags, "AT_" for any dirfd), and in *@example (may be NULL) one of
 * them to show in hints; NULL when the parameter has no one family.
 */
const char *constant_family(const char *syscall, const char *param, const char **example);
/*
 * constant_suggest(), for a value going where constants starting with
 * @prefix (NULL: anywhere) belong: the name with the prefix put in front
 * (CREAT: O_CREAT), else the closest of the family, else the closest of all.
 */
const char *constant_suggest_in(const char *name, const char *prefix);
/* Every constant of the table (errno names are not in it), for listings and tests. */
size_t constant_count(void);
const char *constant_name_at(size_t index);

/* --- syscall groups (groups.c, generated) --------------------------------- */

struct group_entry {
	uint16_t name, summary; /* offsets in group_pool; name without '@' */
	uint16_t first, count;	/* the members: group_members[first .. first + count) */
};

extern const char group_pool[];
extern const uint16_t group_members[]; /* offsets in group_pool; each group's sorted, unique */
extern const struct group_entry group_table[];
extern const size_t group_table_count;
/* room for every group's members with a NULL after each, for scg_group_members() */
extern const char *group_member_view[];

static inline const char *group_name(const struct group_entry *g)
{
	return group_pool + g->name;
}

/* Member @i of @g, or NULL past the last. */
static inline const char *group_member_at(const struct group_entry *g, size_t i)
{
	return i < g->count ? group_pool + group_members[g->first + i] : NULL;
}

/* The group called @name (with or without '@'), or NULL. */
const struct group_entry *group_find(const char *name);

/* --- built-in profiles (profiles.c, generated) ---------------------------- */

struct profile_entry {
	const char *name;
	const char *summary;
	const char *source;
};

extern const struct profile_entry profile_table[];
extern const size_t profile_table_count;

/* --- ABI helpers shared by the parser and the text writer ------------------ */

/* The position of @arch's SCG_ARCH_BIT_* in a rule's arch_mask, or -1. */
int lang_arch_bit(const struct scg_arch *arch);
/* True when the ABI passes each argument in one 64-bit register. */
bool lang_arch_has_64bit_regs(const struct scg_arch *arch);

#endif
