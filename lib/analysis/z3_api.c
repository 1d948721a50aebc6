/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Loading libz3 on first use (see z3_api.h). */
#define SCG_Z3_API_IMPLEMENTATION
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>

#include "analysis/z3_api.h"

struct z3_api z3_fns;

/* Debian's soname first, then the development link. */
static const char *const libz3_names[] = { "libz3.so.4", "libz3.so" };

static int resolve(void *lib)
{
	void *sym;
/* NOLINTBEGIN(bugprone-macro-parentheses): @name is a member and a symbol name. */
#define SCG_Z3_RESOLVE(name)                        \
	sym = dlsym(lib, #name);                    \
	if (!sym)                                   \
		return -ENOSYS;                     \
	*(void **)(void *)&z3_fns.name = sym;
	SCG_Z3_FUNCTIONS(SCG_Z3_RESOLVE)
#undef SCG_Z3_RESOLVE
	/* NOLINTEND(bugprone-macro-parentheses) */
	return 0;
}

int z3_load(void)
{
	static int state = 1; /* 1: not tried yet; then 0 or -ENOSYS */
	if (state <= 0)
		return state;
	void *lib = NULL;
	for (size_t i = 0; !lib && i < sizeof(libz3_names) / sizeof(libz3_names[0]); i++)
		lib = dlopen(libz3_names[i], RTLD_NOW | RTLD_LOCAL);
	state = lib ? resolve(lib) : -ENOSYS;
	if (state < 0 && lib)
		dlclose(lib);
	return state;
}
