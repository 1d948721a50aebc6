// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parameter names and widths from the man pages (data/syscall-params.tsv,
 * turned into syscall_params.c by the build), and the rules for when they describe an
 * ABI's registers: the language's named arguments, the decoder, learn and
 * inject all read them through here.
 */
#include <pthread.h>
#include <string.h>

#include <syscage/arch.h>

#include "arch/syscall_params.h"

/*
 * syscall_param_view, the public view of the rows (pointers into the pool), is
 * filled once on first use: the table itself stays pointer-free.
 */
static pthread_once_t param_view_once = PTHREAD_ONCE_INIT;

static void param_view_fill(void)
{
	for (size_t i = 0; i < syscall_param_table_count; i++) {
		const struct syscall_param_row *r = &syscall_param_rows[i];
		struct scg_syscall_params *v = &syscall_param_view[i];
		v->syscall = syscall_param_pool + r->syscall;
		v->unsupported = syscall_param_pool + r->unsupported;
		v->count = r->count;
		for (unsigned j = 0; j < r->count && j < 6; j++) {
			v->params[j].name = syscall_param_pool + r->params[j].name;
			v->params[j].type = syscall_param_pool + r->params[j].type;
			v->params[j].kind = (enum scg_param_kind)r->params[j].kind;
		}
	}
}

const struct scg_syscall_params *syscall_param_at(size_t i)
{
	if (i >= syscall_param_table_count)
		return NULL;
	pthread_once(&param_view_once, param_view_fill);
	return &syscall_param_view[i];
}

const struct scg_syscall_params *scg_syscall_params(const char *syscall)
{
	size_t lo = 0, hi = syscall_param_table_count;
	while (syscall && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(syscall, syscall_param_pool + syscall_param_rows[mid].syscall);
		if (cmp == 0)
			return syscall_param_at(mid);
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* x32 and MIPS n32 report a 64-bit AUDIT_ARCH: their registers are 64-bit. */
static bool has_64bit_regs(const struct scg_arch *arch)
{
	return (scg_arch_audit(arch) & SCG_AUDIT_ARCH_64BIT) != 0;
}

static bool listed_unsupported(const struct scg_syscall_params *p, const struct scg_arch *arch)
{
	const char *name = scg_arch_name(arch);
	size_t n = strlen(name);
	for (const char *s = p->unsupported ? p->unsupported : ""; *s;) {
		size_t len = strcspn(s, ",");
		if ((len == n && !strncmp(s, name, n)) ||
		    (len == 5 && !strncmp(s, "32bit", 5) && !has_64bit_regs(arch)))
			return true;
		s += len + (s[len] == ',');
	}
	return false;
}

/* A 64-bit parameter takes two registers on a 32-bit ABI, moving the ones after it. */
static bool split_by_64bit(const struct scg_syscall_params *p, unsigned index,
			   const struct scg_arch *arch)
{
	if (has_64bit_regs(arch))
		return false;
	for (unsigned i = 0; i <= index && i < p->count && i < 6; i++)
		if (p->params[i].kind == SCG_PARAM_64)
			return true;
	return false;
}

bool scg_syscall_params_apply(const struct scg_syscall_params *params,
			      const struct scg_arch *arch, unsigned index)
{
	return params && arch && !listed_unsupported(params, arch) &&
	       !split_by_64bit(params, index, arch);
}

unsigned scg_syscall_arg_width(const struct scg_arch *arch, const char *syscall, unsigned index)
{
	const struct scg_syscall_params *p = scg_syscall_params(syscall);
	if (!p || index >= p->count || index >= 6 || !scg_syscall_params_apply(p, arch, index))
		return 0;
	switch (p->params[index].kind) {
	case SCG_PARAM_32:
		return 32;
	case SCG_PARAM_LONG:
		return has_64bit_regs(arch) ? 64 : 32;
	case SCG_PARAM_64:
		return 64;
	case SCG_PARAM_UNKNOWN:
		break;
	}
	return 0;
}
