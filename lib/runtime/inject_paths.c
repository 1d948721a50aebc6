/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inject's supervisor: does a notified call name one of a rule's paths?  As
 * strace's -P decides: a file-name argument equal to the path as written
 * or to its absolute, resolved form (a string comparison, the program's
 * working directory and symbolic links in the argument not followed), or a
 * descriptor argument whose /proc/PID/fd link is the resolved path.
 *
 * The strings are read from the program's memory while the call waits
 * (scg_notif_read_string() re-validates the notification after the read),
 * but another thread of the program can change them between that read and
 * the kernel's own: a path test picks calls to fail or delay, it is not a
 * security boundary (docs/inject.md).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/launch.h>

#include "runtime/inject_paths.h"

char **inject_resolve_paths(const struct scg_inject_rule *rule)
{
	char **resolved = calloc(rule->npaths ? rule->npaths : 1, sizeof(*resolved));
	for (size_t i = 0; resolved && i < rule->npaths; i++)
		resolved[i] = realpath(rule->paths[i], NULL); /* NULL: does not exist (yet) */
	return resolved;
}

void inject_free_paths(char **resolved, size_t n)
{
	for (size_t i = 0; resolved && i < n; i++)
		free(resolved[i]);
	free(resolved);
}

static bool is_rule_path(const struct scg_inject_rule *rule, char *const *resolved,
			 const char *s, bool resolved_only)
{
	for (size_t i = 0; i < rule->npaths; i++)
		if ((!resolved_only && !strcmp(s, rule->paths[i])) ||
		    (resolved && resolved[i] && !strcmp(s, resolved[i])))
			return true;
	return false;
}

/* Argument @value as a descriptor of thread @tid: is its link one of the rule's paths? */
static bool fd_names_path(int listener, const struct scg_notif *n, uint64_t value,
			  const struct scg_inject_rule *rule, char *const *resolved)
{
	int32_t fd = (int32_t)(uint32_t)value;
	if (fd < 0)
		return false;
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/%u/fd/%d", n->pid, fd);
	ssize_t len = readlink(link, target, sizeof(target) - 1);
	/* the thread id could have been reused unless the call still waits */
	if (len <= 0 || scg_notif_id_valid(listener, n->id) < 0)
		return false;
	target[len] = '\0';
	return is_rule_path(rule, resolved, target, true);
}

bool inject_call_names_path(int listener, const struct scg_notif *n,
			    const struct scg_inject_rule *rule, char *const *resolved)
{
	const struct scg_arch *arch = scg_arch_from_audit(n->data.arch, n->data.nr);
	const char *name = arch ? scg_syscall_name(arch, n->data.nr) : NULL;
	unsigned fds, paths = scg_inject_path_args(arch, name, &fds);
	bool found = false;
	int mem = -1;
	for (unsigned i = 0; i < 6 && !found; i++) {
		if (fds & (1U << i))
			found = fd_names_path(listener, n, n->data.args[i], rule, resolved);
		if (!(paths & (1U << i)) || found)
			continue;
		if (mem < 0 && (mem = scg_notif_mem_open(listener, n)) < 0)
			break;
		char s[PATH_MAX];
		if (scg_notif_read_string(listener, n, mem, n->data.args[i], s, sizeof(s)) >= 0)
			found = is_rule_path(rule, resolved, s, false);
	}
	if (mem >= 0)
		close(mem);
	return found;
}
