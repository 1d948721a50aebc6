/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the hostile helpers (supervisor_attack.c, notif_attack.c) share: one
 * line per finding appended to the result file the test reads, and a
 * syscall's outcome as the test expects it.  Header-only: each helper is
 * built as one file, by meson or by the CLI tests' cc fallback.
 */
#ifndef SCG_TESTS_HELPERS_ATTACK_NOTE_H
#define SCG_TESTS_HELPERS_ATTACK_NOTE_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *result_path;

/* Appends one line to result_path (opened each time: the caller may have forked). */
__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	int fd = open(result_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd >= 0) {
		(void)!write(fd, line, (size_t)n);
		close(fd);
	}
}

/* "0" for success, else the errno's name. */
static const char *outcome(long r)
{
	if (r >= 0)
		return "0";
	const char *name = strerrorname_np(errno);
	return name ? name : "E?";
}

#endif
