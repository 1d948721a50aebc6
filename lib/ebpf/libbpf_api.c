/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Loading libbpf on first use (see libbpf_api.h). */
#define SCG_LIBBPF_API_IMPLEMENTATION
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

#include "ebpf/libbpf_api.h"

struct libbpf_api libbpf_fns;

static int resolve(void *lib)
{
	void *sym;
/* NOLINTBEGIN(bugprone-macro-parentheses): @name is a member and a symbol name. */
#define SCG_LIBBPF_RESOLVE(name)                    \
	sym = dlsym(lib, #name);                    \
	if (!sym)                                   \
		return -ENOSYS;                     \
	*(void **)(void *)&libbpf_fns.name = sym;
	SCG_LIBBPF_FUNCTIONS(SCG_LIBBPF_RESOLVE)
#undef SCG_LIBBPF_RESOLVE
	/* NOLINTEND(bugprone-macro-parentheses) */
	return 0;
}

int libbpf_load(void)
{
	static int state = 1; /* 1: not tried yet; then 0 or -ENOSYS */
	if (state <= 0)
		return state;
	void *lib = dlopen(SCG_LIBBPF_SONAME, RTLD_NOW | RTLD_LOCAL);
	state = lib ? resolve(lib) : -ENOSYS;
	if (state < 0 && lib)
		dlclose(lib);
	return state;
}
