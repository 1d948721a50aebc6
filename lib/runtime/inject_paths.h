/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* inject's path tests (inject_paths.c), for its supervisor (inject_serve.c). */
#ifndef SCG_LIB_RUNTIME_INJECT_PATHS_H
#define SCG_LIB_RUNTIME_INJECT_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include <syscage/inject.h>
#include <syscage/runtime.h>

/* The absolute, resolved form of each of @rule's paths (NULL where it cannot be resolved). */
char **inject_resolve_paths(const struct scg_inject_rule *rule);
void inject_free_paths(char **resolved, size_t n);

/*
 * True when call @n names one of @rule's paths (as written, or @resolved)
 * in a file-name argument, or has a descriptor argument open on one.
 * Strings are read through @listener.
 */
bool inject_call_names_path(int listener, const struct scg_notif *n,
			    const struct scg_inject_rule *rule, char *const *resolved);

#endif
