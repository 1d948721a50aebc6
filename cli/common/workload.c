/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading a frequency profile (`syscage learn --counts FILE`) as the
 * workload `syscage compile --workload` lays a filter out for.  Calls are
 * summed per name over every ABI, as the compiler takes them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli.h"

struct workload {
	struct scg_syscall_weight *w;
	size_t n, cap;
	char **names; /* owned copies, freed with the list */
};

static int add(struct workload *wl, const char *name, uint64_t count)
{
	if (wl->n == wl->cap) {
		size_t cap = wl->cap ? wl->cap * 2 : 64;
		struct scg_syscall_weight *w = reallocarray(wl->w, cap, sizeof(*w));
		char **names = reallocarray(wl->names, cap, sizeof(*names));
		if (w)
			wl->w = w;
		if (names)
			wl->names = names;
		if (!w || !names)
			return -ENOMEM;
		wl->cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	wl->names[wl->n] = copy;
	wl->w[wl->n++] = (struct scg_syscall_weight){ copy, count };
	return 0;
}

/* One ABI's {"name": count, ...}; numbers no table names are skipped. */
static int add_abi(struct workload *wl, struct json_object *abi, const char *path)
{
	if (!json_object_is_type(abi, json_type_object)) {
		cli_error("%s: each ABI in \"abis\" must map syscall names to counts", path);
		return -EINVAL;
	}
	json_object_object_foreach(abi, name, value)
	{
		if (!json_object_is_type(value, json_type_int) || json_object_get_int64(value) < 0) {
			cli_error("%s: the count of '%s' is not a non-negative integer", path, name);
			return -EINVAL;
		}
		if (name[0] >= '0' && name[0] <= '9')
			continue;
		int r = add(wl, name, (uint64_t)json_object_get_int64(value));
		if (r < 0)
			return r;
	}
	return 0;
}

static int read_profile(struct workload *wl, const char *text, const char *path)
{
	enum json_tokener_error jerr;
	struct json_object *root = json_tokener_parse_verbose(text, &jerr), *abis;
	if (!root) {
		cli_error("%s: invalid JSON: %s", path, json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	int r = 0;
	if (!json_object_object_get_ex(root, "abis", &abis) ||
	    !json_object_is_type(abis, json_type_object)) {
		cli_error("%s: not a frequency profile (no \"abis\" object; 'syscage learn --counts' "
			  "writes one)",
			  path);
		r = -EINVAL;
	} else {
		json_object_object_foreach(abis, abi_name, abi)
		{
			(void)abi_name;
			if (r == 0)
				r = add_abi(wl, abi, path);
		}
	}
	json_object_put(root);
	return r;
}

void cli_workload_free(struct scg_syscall_weight *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)w[i].name);
	free(w);
}

int cli_load_workload(const char *path, struct scg_syscall_weight **out, size_t *n)
{
	char *text;
	size_t len;
	int r = cli_read_file(path, &text, &len);
	if (r < 0)
		return r;
	struct workload wl = { 0 };
	r = memchr(text, '\0', len) ? -EINVAL : read_profile(&wl, text, path);
	if (r == -EINVAL && memchr(text, '\0', len))
		cli_error("%s: not a frequency profile (binary data)", path);
	free(text);
	free(wl.names); /* the strings stay, owned through the weights */
	if (r == 0 && wl.n == 0) {
		cli_error("%s: the profile records no syscall", path);
		r = -EINVAL;
	}
	if (r < 0) {
		cli_workload_free(wl.w, wl.n);
		if (r == -ENOMEM)
			cli_error("%s: %s", path, strerror(-r));
		return r;
	}
	*out = wl.w;
	*n = wl.n;
	return 0;
}
