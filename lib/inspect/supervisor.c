/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who answers a filter's USER_NOTIF verdicts: the process holding the
 * listener.  The kernel links a listener to its filter, not to a process,
 * and shows neither in /proc; a supervisor that starts the program (as
 * `syscage run` does) is one of its ancestors, with an open descriptor
 * that /proc/PID/fd names "anon_inode:seccomp notify".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/inspect.h>

#include "inspect/internal.h"

#define MAX_DEPTH 64

/* Whether @pid has a seccomp listener open; false when /proc refuses to say. */
static bool holds_listener(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		char link[96], target[64];
		snprintf(link, sizeof(link), "/proc/%d/fd/%.16s", (int)pid, de->d_name);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		found = !strcmp(target, "anon_inode:seccomp notify");
	}
	closedir(dir);
	return found;
}

static pid_t parent_of(pid_t pid)
{
	char ppid[32];
	if (inspect_status_field(pid, "PPid:", ppid, sizeof(ppid)) < 0)
		return -1;
	return (pid_t)atol(ppid);
}

/* /proc/@pid/cmdline as a NULL-terminated vector in one allocation; NULL when unreadable. */
static char **read_argv(pid_t pid)
{
	char path[64], buf[8192];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return NULL;
	if (buf[len - 1] != '\0')
		buf[len++] = '\0'; /* cut off, or rewritten by the process */
	size_t argc = 0;
	for (ssize_t i = 0; i < len; i++)
		argc += buf[i] == '\0';
	char **argv = malloc((argc + 1) * sizeof(*argv) + (size_t)len);
	if (!argv)
		return NULL;
	char *text = (char *)(argv + argc + 1);
	memcpy(text, buf, (size_t)len);
	for (size_t i = 0; i < argc; i++) {
		argv[i] = text;
		text += strlen(text) + 1;
	}
	argv[argc] = NULL;
	return argv;
}

static void fill_holder(pid_t pid, struct scg_notify_holder *out)
{
	out->pid = pid;
	if (inspect_status_field(pid, "Name:", out->name, sizeof(out->name)) < 0)
		out->name[0] = '\0';
	out->argv = read_argv(pid);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	ssize_t n = readlink(path, out->cwd, sizeof(out->cwd) - 1);
	out->cwd[n > 0 ? n : 0] = '\0';
}

int scg_inspect_notify_holder(pid_t pid, struct scg_notify_holder *out)
{
	if (pid <= 0 || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	pid_t cur = parent_of(pid);
	if (cur < 0)
		return -ESRCH;
	for (unsigned depth = 0; cur > 0 && depth < MAX_DEPTH; depth++) {
		if (holds_listener(cur)) {
			fill_holder(cur, out);
			return 0;
		}
		cur = parent_of(cur);
	}
	return -ENOENT;
}

void scg_notify_holder_release(struct scg_notify_holder *h)
{
	if (!h)
		return;
	free(h->argv);
	h->argv = NULL;
}
