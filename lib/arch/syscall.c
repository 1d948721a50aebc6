/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Syscall name <-> number lookups over the generated per-ABI tables. */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "util/suggest.h"

static const struct syscall_entry *entry_by_name(const struct syscall_table *table,
						     const char *name)
{
	size_t lo = 0, hi = table->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct syscall_entry *e = &table->by_nr[table->by_name[mid]];
		int cmp = strcmp(name, syscall_entry_name(e));
		if (cmp == 0)
			return e;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const struct syscall_entry *entry_by_nr(const struct syscall_table *table,
						   uint32_t nr)
{
	size_t lo = 0, hi = table->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct syscall_entry *e = &table->by_nr[mid];
		if (e->nr == nr)
			return e;
		if (nr < e->nr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool is_known_anywhere(const char *name)
{
	size_t lo = 0, hi = syscall_all_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, syscall_all_name(mid));
		if (cmp == 0)
			return true;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

int scg_syscall_lookup(const struct scg_arch *arch, const char *name, uint32_t *nr)
{
	if (!arch || !name || !nr)
		return -EINVAL;
	const struct syscall_entry *e = entry_by_name(arch->table, name);
	if (e) {
		*nr = e->nr;
		return 0;
	}
	return is_known_anywhere(name) ? -ENOSYS : -ENOENT;
}

const char *scg_syscall_name(const struct scg_arch *arch, uint32_t nr)
{
	if (!arch)
		return NULL;
	const struct syscall_entry *e = entry_by_nr(arch->table, nr);
	return e ? syscall_entry_name(e) : NULL;
}

const char *scg_syscall_suggest(const struct scg_arch *arch, const char *name)
{
	if (!arch || !name)
		return NULL;
	struct suggest s;
	suggest_init(&s, name);
	/* In name order, so ties break the same way on every ABI. */
	const struct syscall_table *table = arch->table;
	for (size_t i = 0; i < table->count; i++)
		suggest_consider(&s, syscall_entry_name(&table->by_nr[table->by_name[i]]));
	return suggest_result(&s);
}

size_t scg_syscall_count(const struct scg_arch *arch)
{
	return arch ? arch->table->count : 0;
}

int scg_syscall_at(const struct scg_arch *arch, size_t index, const char **name, uint32_t *nr)
{
	if (!arch)
		return -EINVAL;
	if (index >= arch->table->count)
		return -ERANGE;
	const struct syscall_entry *e = &arch->table->by_nr[index];
	if (name)
		*name = syscall_entry_name(e);
	if (nr)
		*nr = e->nr;
	return 0;
}

uint32_t scg_syscall_max(const struct scg_arch *arch)
{
	if (!arch || arch->table->count == 0)
		return 0;
	return arch->table->by_nr[arch->table->count - 1].nr;
}
