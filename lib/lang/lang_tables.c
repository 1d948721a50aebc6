/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lookups over the language's generated tables: profiles, groups, parameters. */
#include <pthread.h>
#include <string.h>

#include <syscage/lang.h>

#include "lang/lang_internal.h"
#include "util/suggest.h"

size_t scg_profile_count(void)
{
	return profile_table_count;
}

const char *scg_profile_name(size_t i)
{
	return i < profile_table_count ? profile_table[i].name : NULL;
}

const char *scg_profile_summary(size_t i)
{
	return i < profile_table_count ? profile_table[i].summary : NULL;
}

const char *scg_profile_source(const char *name)
{
	for (size_t i = 0; name && i < profile_table_count; i++)
		if (!strcmp(profile_table[i].name, name))
			return profile_table[i].source;
	return NULL;
}

const char *scg_profile_suggest(const char *name)
{
	struct suggest s;
	suggest_init(&s, name ? name : "");
	for (size_t i = 0; i < profile_table_count; i++)
		suggest_consider(&s, profile_table[i].name);
	return suggest_result(&s);
}

size_t scg_group_count(void)
{
	return group_table_count;
}

const char *scg_group_name(size_t i)
{
	return i < group_table_count ? group_name(&group_table[i]) : NULL;
}

const char *scg_group_summary(size_t i)
{
	return i < group_table_count ? group_pool + group_table[i].summary : NULL;
}

/*
 * The lists scg_group_members() returns, pointers into the pool, are built
 * once on first use: the table itself holds offsets, no pointer to relocate.
 */
static pthread_once_t member_view_once = PTHREAD_ONCE_INIT;

static void member_view_fill(void)
{
	size_t at = 0;
	for (size_t i = 0; i < group_table_count; i++) {
		for (size_t j = 0; j < group_table[i].count; j++)
			group_member_view[at++] = group_member_at(&group_table[i], j);
		group_member_view[at++] = NULL;
	}
}

const char *const *scg_group_members(size_t i)
{
	if (i >= group_table_count)
		return NULL;
	pthread_once(&member_view_once, member_view_fill);
	/* group i's list starts after the members and NULLs of the groups before it */
	return &group_member_view[group_table[i].first + i];
}

const char *scg_group_suggest(const char *name)
{
	if (name && name[0] == '@')
		name++;
	struct suggest s;
	suggest_init(&s, name ? name : "");
	for (size_t i = 0; i < group_table_count; i++)
		suggest_consider(&s, group_name(&group_table[i]));
	return suggest_result(&s);
}

const struct group_entry *group_find(const char *name)
{
	if (name && name[0] == '@')
		name++;
	for (size_t i = 0; name && i < group_table_count; i++)
		if (!strcmp(group_name(&group_table[i]), name))
			return &group_table[i];
	return NULL;
}

int lang_arch_bit(const struct scg_arch *arch)
{
	uint32_t bit = scg_arch_mask_bit(arch);
	return bit ? __builtin_ctz(bit) : -1;
}

bool lang_arch_has_64bit_regs(const struct scg_arch *arch)
{
	/* x32 and MIPS n32 report a 64-bit AUDIT_ARCH: their registers are 64-bit */
	return (scg_arch_audit(arch) & SCG_AUDIT_ARCH_64BIT) != 0;
}
