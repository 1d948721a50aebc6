/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Seccomp state of processes and threads, as /proc/PID/status reports it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/inspect.h>

#include "inspect/internal.h"
#include "util/grow.h"

const char *scg_seccomp_mode_name(enum scg_seccomp_mode mode)
{
	switch (mode) {
	case SCG_SECCOMP_NONE:
		return "none";
	case SCG_SECCOMP_STRICT:
		return "strict";
	case SCG_SECCOMP_FILTER:
		return "filter";
	case SCG_SECCOMP_UNKNOWN:
		break;
	}
	return "unknown";
}

/* A decimal number filling [s, end) after leading blanks; no sign, no overflow. */
static int parse_decimal(const char *s, const char *end, long max, long *out)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (s == end)
		return -EINVAL;
	long v = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > max / 10 || v * 10 > max - (*s - '0'))
			return -ERANGE;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

struct status_field {
	const char *key; /* with the colon */
	long max;
};

static const struct status_field fields[] = {
	{ "Pid:", 0x7fffffffL },
	{ "Seccomp:", SCG_SECCOMP_FILTER },
	{ "Seccomp_filters:", 0x7fffffffL },
	{ "NoNewPrivs:", 1 },
};

static void store_field(size_t which, long v, struct scg_task_seccomp *out)
{
	switch (which) {
	case 0:
		out->tid = (pid_t)v;
		break;
	case 1:
		out->mode = (enum scg_seccomp_mode)v;
		break;
	case 2:
		out->filters = v;
		break;
	default:
		out->no_new_privs = (int)v;
		break;
	}
}

/* Handles one line [line, end); unknown keys are ignored. */
static int parse_line(const char *line, const char *end, unsigned lineno,
		      struct scg_task_seccomp *out, struct scg_diag *diag)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		size_t klen = strlen(fields[i].key);
		if ((size_t)(end - line) < klen || memcmp(line, fields[i].key, klen))
			continue;
		long v;
		int r = parse_decimal(line + klen, end, fields[i].max, &v);
		if (r < 0) {
			scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){ "status", lineno, 1, -1 },
				     "bad-status-field", NULL, "%s %.*s: not a number in 0..%ld",
				     fields[i].key, (int)(end - line - (long)klen), line + klen,
				     fields[i].max);
			return -EINVAL;
		}
		store_field(i, v, out);
		return 0;
	}
	return 0;
}

int scg_status_parse(const char *text, size_t len, struct scg_task_seccomp *out,
		     struct scg_diag *diag)
{
	if (!text || !out)
		return -EINVAL;
	*out = (struct scg_task_seccomp){ -1, SCG_SECCOMP_UNKNOWN, -1, -1 };
	const char *p = text, *end = text + len;
	unsigned lineno = 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		int r = parse_line(p, line_end, lineno, out, diag);
		if (r < 0)
			return r;
		p = nl ? nl + 1 : end;
		lineno++;
	}
	return 0;
}

/* Reads a small /proc file whole; -errno on failure (ENOENT becomes ESRCH). */
static int read_proc_file(const char *path, char *buf, size_t size, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	size_t got = 0;
	while (got < size - 1) {
		ssize_t n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;
			close(fd);
			/* a task that exits while being read reports ESRCH */
			return err == -ENOENT ? -ESRCH : err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*len = got;
	return 0;
}

int inspect_status_field(pid_t pid, const char *key, char *value, size_t size)
{
	char path[64], buf[8192];
	size_t len;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	int r = read_proc_file(path, buf, sizeof(buf), &len);
	if (r < 0)
		return r;
	size_t klen = strlen(key);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen))
			continue;
		p += klen;
		while (*p == '\t' || *p == ' ')
			p++;
		size_t n = strcspn(p, "\n");
		if (size == 0)
			return -ERANGE;
		if (n >= size)
			n = size - 1;
		memcpy(value, p, n);
		value[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* Copies the "Name:" value (already escaped by the kernel) into @name. */
static void copy_name(const char *text, char *name, size_t size)
{
	name[0] = '\0';
	const char *p = text;
	if (strncmp(p, "Name:", 5)) {
		p = strstr(text, "\nName:");
		if (!p)
			return;
		p++;
	}
	p += 5;
	while (*p == '\t' || *p == ' ')
		p++;
	size_t n = strcspn(p, "\n");
	if (n >= size)
		n = size - 1;
	memcpy(name, p, n);
	name[n] = '\0';
}

static int read_task(const char *path, struct scg_task_seccomp *out, char *name, size_t name_size,
		     struct scg_diag *diag)
{
	char buf[8192] = ""; /* the analyzer cannot tell that -errno is negative */
	size_t len = 0;
	int r = read_proc_file(path, buf, sizeof(buf), &len);
	if (r < 0)
		return r;
	if (name)
		copy_name(buf, name, name_size);
	struct scg_diag *local = scg_diag_new();
	r = scg_status_parse(buf, len, out, local);
	if (r < 0) {
		const struct scg_diag_entry *e = scg_diag_get(local, 0);
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "bad-status-file", NULL, "%s: %s",
			     path, e ? e->message : "unreadable");
	}
	scg_diag_free(local);
	return r;
}

static int cmp_tid(const void *a, const void *b)
{
	pid_t x = ((const struct scg_task_seccomp *)a)->tid;
	pid_t y = ((const struct scg_task_seccomp *)b)->tid;
	return (x > y) - (x < y);
}

static int append_thread(struct scg_proc_seccomp *st, size_t *cap, const struct scg_task_seccomp *t)
{
	if (GROW_ARRAY(&st->threads, cap, st->nthreads + 1, 8))
		return -ENOMEM;
	st->threads[st->nthreads++] = *t;
	return 0;
}

static int read_threads(pid_t pid, struct scg_proc_seccomp *st, struct scg_diag *diag)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	size_t cap = 0;
	int r = 0;
	struct dirent *de;
	while (r == 0 && (de = readdir(dir))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		char tpath[96];
		snprintf(tpath, sizeof(tpath), "/proc/%d/task/%.16s/status", (int)pid, de->d_name);
		struct scg_task_seccomp t;
		r = read_task(tpath, &t, NULL, 0, diag);
		if (r == -ESRCH) { /* the thread ended meanwhile */
			r = 0;
			continue;
		}
		if (r == 0)
			r = append_thread(st, &cap, &t);
	}
	closedir(dir);
	if (r == 0 && st->nthreads)
		qsort(st->threads, st->nthreads, sizeof(*st->threads), cmp_tid);
	return r;
}

/* Why /proc answered @r for @pid's @path, and which privilege would do. */
static void report_read(pid_t pid, const char *path, int r, struct scg_diag *diag)
{
	if (r == -ESRCH && kill(pid, 0) < 0 && errno == ESRCH) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "no-such-process", NULL,
			     "no process %d", (int)pid);
	} else if (r == -ESRCH) {
		/* kill() sees it, /proc does not: hidepid=invisible (2) hides it */
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "proc-hidden",
			     "/proc is mounted with hidepid=invisible; other users' processes "
			     "need CAP_SYS_PTRACE, or the group the mount's gid= names",
			     "process %d exists but /proc hides it from this user", (int)pid);
	} else if (r == -EACCES || r == -EPERM) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "proc-unreadable",
			     "/proc is mounted with hidepid=noaccess (1) or similar; other users' "
			     "processes need CAP_SYS_PTRACE, or the group the mount's gid= names",
			     "%s: %s: another user's process, and this user may not read it",
			     path, strerror(-r));
	} else if (r != -EINVAL) {
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "proc-unreadable", NULL, "%s: %s",
			     path, strerror(-r));
	}
}

int scg_proc_seccomp_read(pid_t pid, struct scg_proc_seccomp *out, struct scg_diag *diag)
{
	if (!out || pid <= 0)
		return -EINVAL;
	struct scg_proc_seccomp st = { .pid = pid };
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	int r = read_task(path, &st.process, st.name, sizeof(st.name), diag);
	if (r == 0)
		r = read_threads(pid, &st, diag);
	if (r < 0) {
		report_read(pid, path, r, diag);
		scg_proc_seccomp_release(&st);
		return r;
	}
	*out = st;
	return 0;
}

void scg_proc_seccomp_release(struct scg_proc_seccomp *st)
{
	if (!st)
		return;
	free(st->threads);
	memset(st, 0, sizeof(*st));
}

/* --- every process ------------------------------------------------------ */

static bool under_seccomp(const struct scg_proc_seccomp *st)
{
	if (st->process.mode == SCG_SECCOMP_FILTER || st->process.mode == SCG_SECCOMP_STRICT)
		return true;
	for (size_t i = 0; i < st->nthreads; i++)
		if (st->threads[i].mode == SCG_SECCOMP_FILTER ||
		    st->threads[i].mode == SCG_SECCOMP_STRICT)
			return true;
	return false;
}

int inspect_scan_pids(const pid_t *pids, size_t n, unsigned flags, struct scg_proc_scan *out)
{
	struct scg_proc_scan scan = { 0 };
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		struct scg_proc_seccomp st;
		int r = scg_proc_seccomp_read(pids[i], &st, NULL);
		if (r == -ENOMEM) {
			scg_proc_scan_release(&scan);
			return r;
		}
		if (r == -ESRCH) { /* exited after the listing */
			scan.vanished++;
			continue;
		}
		if (r < 0) { /* refused, or a file that changed under the reader */
			scan.unreadable++;
			continue;
		}
		if (!(flags & SCG_SCAN_EVERY_PROCESS) && !under_seccomp(&st)) {
			scg_proc_seccomp_release(&st);
			continue;
		}
		if (GROW_ARRAY(&scan.procs, &cap, scan.n + 1, 64)) {
			scg_proc_seccomp_release(&st);
			scg_proc_scan_release(&scan);
			return -ENOMEM;
		}
		scan.procs[scan.n++] = st;
	}
	*out = scan;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The numeric entries of /proc, ascending. */
static int list_pids(pid_t **pids, size_t *n, struct scg_diag *diag)
{
	DIR *dir = opendir("/proc");
	if (!dir) {
		int r = -errno;
		scg_diag_add(diag, SCG_SEV_ERROR, SCG_LOC_NONE, "proc-unreadable", NULL,
			     "/proc: %s", strerror(-r));
		return r;
	}
	pid_t *list = NULL;
	size_t count = 0, cap = 0;
	int r = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || *end || v <= 0 || v > 0x3fffffffL)
			continue;
		if (GROW_ARRAY(&list, &cap, count + 1, 256)) {
			r = -ENOMEM;
			break;
		}
		list[count++] = (pid_t)v;
	}
	closedir(dir);
	if (r < 0) {
		free(list);
		return r;
	}
	if (count)
		qsort(list, count, sizeof(*list), cmp_pid);
	*pids = list;
	*n = count;
	return 0;
}

int scg_proc_seccomp_scan(unsigned flags, struct scg_proc_scan *out, struct scg_diag *diag)
{
	if (!out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	pid_t *pids = NULL;
	size_t n = 0;
	int r = list_pids(&pids, &n, diag);
	if (r == 0)
		r = inspect_scan_pids(pids, n, flags, out);
	free(pids);
	return r;
}

void scg_proc_scan_release(struct scg_proc_scan *scan)
{
	if (!scan)
		return;
	for (size_t i = 0; i < scan->n; i++)
		scg_proc_seccomp_release(&scan->procs[i]);
	free(scan->procs);
	memset(scan, 0, sizeof(*scan));
}
