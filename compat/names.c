/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ABI tokens, syscall names and numbers the way libseccomp resolves them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* x32 calls report AUDIT_ARCH_X86_64, so libseccomp gives x32 a token of its own. */
#define X32_TOKEN (EM_X86_64 | __AUDIT_ARCH_LE)

uint32_t compat_token_of_arch(const struct scg_arch *arch)
{
	if (scg_arch_nr_flags(arch) & SCG_X32_SYSCALL_BIT)
		return X32_TOKEN;
	return scg_arch_audit(arch);
}

const struct scg_arch *compat_arch_of_token(uint32_t token)
{
	if (token == SCMP_ARCH_NATIVE)
		return scg_arch_native();
	for (size_t i = 0; i < scg_arch_count(); i++) {
		const struct scg_arch *arch = scg_arch_at(i);
		if (compat_token_of_arch(arch) == token)
			return arch;
	}
	return NULL;
}

int compat_syscall_lookup(const struct scg_arch *arch, const char *name, uint32_t *nr)
{
	if (scg_syscall_lookup(arch, name, nr) == 0)
		return 0;
	for (size_t i = 0; i < compat_legacy_count; i++)
		if (strcmp(compat_legacy_table[i].name, name) == 0 &&
		    strcmp(compat_legacy_table[i].arch, scg_arch_name(arch)) == 0) {
			*nr = (uint32_t)compat_legacy_table[i].nr;
			return 0;
		}
	return -ENOENT;
}

/* libseccomp's name for @nr first (arm's 341 is arm_sync_file_range to it), then the table's. */
const char *compat_syscall_name(const struct scg_arch *arch, uint32_t nr)
{
	for (size_t i = 0; i < compat_legacy_count; i++)
		if ((uint32_t)compat_legacy_table[i].nr == nr &&
		    strcmp(compat_legacy_table[i].arch, scg_arch_name(arch)) == 0)
			return compat_legacy_table[i].name;
	return scg_syscall_name(arch, nr);
}

int compat_pnr_of_name(const char *name)
{
	for (size_t i = 0; i < compat_pnr_count; i++)
		if (strcmp(compat_pnr_table[i].name, name) == 0)
			return compat_pnr_table[i].nr;
	return 0;
}

const char *compat_name_of_pnr(int nr)
{
	for (size_t i = 0; i < compat_pnr_count; i++)
		if (compat_pnr_table[i].nr == nr)
			return compat_pnr_table[i].name;
	return NULL;
}

/*
 * libseccomp numbers the socketcall(2) sub-calls -101..-120 and the ipc(2)
 * ones -201..-224, so the sub-call number is the pseudo number's distance
 * from -100 or -200.
 */
bool compat_multiplexed(const struct scg_arch *arch, const char *name, uint32_t *mux_nr,
			uint32_t *subcall)
{
	int pnr = compat_pnr_of_name(name);
	const char *mux;
	int base;
	if (pnr <= -101 && pnr >= -120) {
		mux = "socketcall";
		base = -100;
	} else if (pnr <= -201 && pnr >= -224) {
		mux = "ipc";
		base = -200;
	} else {
		return false;
	}
	if (compat_syscall_lookup(arch, mux, mux_nr) != 0)
		return false;
	*subcall = (uint32_t)(base - pnr);
	return true;
}

int compat_resolve_name(const struct scg_arch *arch, const char *name)
{
	uint32_t mux, sub, nr;
	/* Where a multiplexer exists, libseccomp names its sub-calls by pseudo number
	 * even when the ABI also has the direct syscall; rules then cover both. */
	if (compat_multiplexed(arch, name, &mux, &sub))
		return compat_pnr_of_name(name);
	if (compat_syscall_lookup(arch, name, &nr) == 0)
		return (int)nr;
	int pnr = compat_pnr_of_name(name);
	return pnr != 0 ? pnr : __NR_SCMP_ERROR;
}

/*
 * The base every number of @arch's table carries: x32's bit 30, MIPS's
 * 4000, 5000 or 6000 (the first entry of its table, rounded to a thousand);
 * 0 elsewhere.
 */
static uint32_t number_base(const struct scg_arch *arch)
{
	uint32_t flags = scg_arch_nr_flags(arch);
	if (flags != 0)
		return flags;
	const char *first;
	uint32_t nr;
	if (strncmp(scg_arch_name(arch), "mips", 4) != 0 || scg_syscall_at(arch, 0, &first, &nr) < 0)
		return 0;
	return nr - nr % 1000;
}

const char *compat_name_of_num(const struct scg_arch *arch, int num)
{
	if (arch == NULL)
		return NULL;
	if (num >= 0) {
		/* libseccomp takes a number with or without its ABI's base: x32 2 and
		 * 0x40000002 are both open, MIPS o32 2 and 4002 both fork. */
		uint32_t nr = (uint32_t)num, base = number_base(arch);
		if (base != 0 && nr < base)
			nr += base;
		return compat_syscall_name(arch, nr);
	}
	/* A pseudo number of libseccomp's names a syscall only on ABIs that resolve the
	 * name to it.  syscage's own (COMPAT_PNR_OWN and below, for syscalls newer than
	 * libseccomp 2.5's header) name theirs everywhere: a program whose headers
	 * predate the syscall still means it on an ABI that has it. */
	const char *name = compat_name_of_pnr(num);
	if (name != NULL && num <= COMPAT_PNR_OWN)
		return name;
	return name != NULL && compat_resolve_name(arch, name) == num ? name : NULL;
}

/* --- public API ----------------------------------------------------------- */

COMPAT_API uint32_t seccomp_arch_resolve_name(const char *arch_name)
{
	if (arch_name == NULL)
		return 0;
	/* Canonical names only, case-sensitive: "amd64" is not an ABI to libseccomp. */
	for (size_t i = 0; i < scg_arch_count(); i++)
		if (strcmp(scg_arch_name(scg_arch_at(i)), arch_name) == 0)
			return compat_token_of_arch(scg_arch_at(i));
	return 0;
}

COMPAT_API uint32_t seccomp_arch_native(void)
{
	const struct scg_arch *native = scg_arch_native();
	return native != NULL ? compat_token_of_arch(native) : 0;
}

COMPAT_API char *seccomp_syscall_resolve_num_arch(uint32_t arch_token, int num)
{
	const char *name = compat_name_of_num(compat_arch_of_token(arch_token), num);
	return name != NULL ? strdup(name) : NULL;
}

COMPAT_API int seccomp_syscall_resolve_name_arch(uint32_t arch_token, const char *name)
{
	const struct scg_arch *arch = compat_arch_of_token(arch_token);
	if (name == NULL || arch == NULL)
		return __NR_SCMP_ERROR;
	return compat_resolve_name(arch, name);
}

COMPAT_API int seccomp_syscall_resolve_name_rewrite(uint32_t arch_token, const char *name)
{
	const struct scg_arch *arch = compat_arch_of_token(arch_token);
	uint32_t mux, sub;
	if (name == NULL || arch == NULL)
		return __NR_SCMP_ERROR;
	if (compat_multiplexed(arch, name, &mux, &sub))
		return (int)mux;
	return compat_resolve_name(arch, name);
}

COMPAT_API int seccomp_syscall_resolve_name(const char *name)
{
	return seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);
}
