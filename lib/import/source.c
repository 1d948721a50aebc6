/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Included files and constant values for the text importers (source.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <syscage/lang.h>

#include "import/source.h"

static char *join_path(const char *including, const char *path)
{
	const char *slash = including && including[0] != '<' ? strrchr(including, '/') : NULL;
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (path[0] == '/' || !slash)
		return strdup(path);
	size_t dir = (size_t)(slash - including) + 1;
	char *out = malloc(dir + strlen(path) + 1);
	if (out) {
		memcpy(out, including, dir);
		strcpy(out + dir, path);
	}
	return out;
}

int imp_read_include(const char *including, const char *path, char **text, size_t *len,
		     char **resolved)
{
	*text = NULL;
	*resolved = join_path(including, path);
	if (!*resolved)
		return -ENOMEM;
	int fd = open(*resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	int r = 0;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else if (st.st_size > (off_t)IMP_INCLUDE_MAX)
		r = -EFBIG;
	char *buf = r ? NULL : malloc((size_t)st.st_size + 1);
	if (!r && !buf)
		r = -ENOMEM;
	size_t got = 0;
	while (!r && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r = -errno;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (r) {
		free(buf);
		return r;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

int imp_constant(const char *text, size_t n, const struct scg_arch *abi, uint64_t *value,
		 struct scg_diag *diag, struct scg_loc loc, const char *code)
{
	char *copy = strndup(text, n);
	struct scg_diag *scratch = scg_diag_new();
	int r = copy && scratch ? scg_constant_eval(copy, abi, value, scratch) : -ENOMEM;
	if (r == -EINVAL) {
		bool said = false;
		for (size_t i = 0; i < scg_diag_count(scratch); i++) {
			const struct scg_diag_entry *e = scg_diag_get(scratch, i);
			if (e->severity != SCG_SEV_ERROR)
				continue;
			scg_diag_add(diag, SCG_SEV_ERROR, loc, code, e->hint, "%s", e->message);
			said = true;
		}
		if (!said)
			scg_diag_add(diag, SCG_SEV_ERROR, loc, code, "a number or a constant: 0x40, O_RDONLY",
				     "bad value '%s'", copy);
	}
	free(copy);
	scg_diag_free(scratch);
	return r;
}

const char *imp_syscall_hint(const struct scg_arch *abi, const char *name, char *buf, size_t size)
{
	const char *best = scg_syscall_suggest(abi, name);
	if (!best)
		return NULL;
	snprintf(buf, size, "did you mean '%s'?", best);
	return buf;
}
