/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Terminal and file plumbing shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdint.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

void cli_fputs_escaped(const char *s, FILE *out)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\x%02x", *p);
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			fprintf(out, "\\xc2\\x%02x", p[1]); /* a C1 control, such as CSI, in UTF-8 */
			p++;
		} else {
			fputc(*p, out);
		}
	}
}

void cli_vfprintf_escaped(FILE *out, const char *fmt, va_list ap)
{
	char small[512];
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	char *text = n >= (int)sizeof(small) ? malloc((size_t)n + 1) : NULL;
	if (text)
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n >= 0)
		cli_fputs_escaped(text ? text : small, out); /* cut short without memory */
	free(text);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("syscage: ", stderr);
	cli_vfprintf_escaped(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* The library's hints that name a setting, worded with the flags that change it. */
static const char *const hints[SCG_HINTS + 1] = {
	[SCG_HINT_MORE_TIME] = "give it more time (--timeout SECONDS, 0 for no limit)",
	[SCG_HINT_NAME_FORMAT] = "name the format (--input-format) to have its reader say what is "
				 "wrong",
	[SCG_HINT_CHOOSE_FORMAT] = "say which with --input-format, or give the file the suffix of "
				   "one",
	[SCG_HINT_ONE_ARCH] = "compile with --arch for one ABI",
	[SCG_HINT_ADD_X32] = "target x32 too (--arch x86_64,x32), with no rule for it",
	[SCG_HINT_CHOOSE_ARCH] = "choose one with --arch",
	[SCG_HINT_ARCH_OR_NUMBER] = "choose the ABI with --arch, or write the number",
	[SCG_HINT_OWN_ARCH] = "read it for its own ABI (no --arch), or disassemble it again for "
			      "the other",
	[SCG_HINT_POLICY_ARCH] = "add an 'arch' line, or compile with --arch",
	[SCG_HINT_LIST_ARCHES] = "`syscage syscalls --arches` lists the ABIs",
	[SCG_HINT_LIST_GROUPS] = "`syscage syscalls --groups` lists the groups",
	[SCG_HINT_INT_ARGS_32] = "compare only the low 32 bits: in a policy the parameter's name or "
				 "argN.lo; import OCI profiles with --int-args-32",
	[SCG_HINT_INJECT_ARCHES] = "the target ABIs come from -p's policy, or are the native ones",
};

const char *cli_hint(const struct scg_diag_entry *e)
{
	if ((unsigned)e->hint_id <= SCG_HINTS && hints[e->hint_id])
		return hints[e->hint_id];
	return e->hint;
}

/* One diagnostic: its line escaped as a whole, the hint on a line of its own. */
void cli_print_diag_entry(const struct scg_diag_entry *e)
{
	struct scg_diag_entry line = *e;
	line.hint = NULL;
	int need = scg_diag_format(&line, NULL, 0);
	char *text = need < 0 ? NULL : malloc((size_t)need + 1);
	if (text)
		scg_diag_format(&line, text, (size_t)need + 1);
	cli_fputs_escaped(text ? text : e->message, stderr);
	free(text);
	if (e->hint) {
		fputs("\n  hint: ", stderr);
		cli_fputs_escaped(cli_hint(e), stderr);
	}
	fputc('\n', stderr);
}

void cli_print_diag(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		cli_print_diag_entry(scg_diag_get(diag, i));
}

/* A record of a log under 64 KiB is one write(2) when the caller flushes after it. */
static FILE *log_stream(FILE *f)
{
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

FILE *cli_log_open(const char *path)
{
	/* 0600: the log tells what the program did; it is for the user who ran it */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		cli_error("cannot open log '%s': %s", path, strerror(e));
		return NULL;
	}
	return log_stream(f);
}

int cli_log_fd_parse(const char *option, const char *text)
{
	char *end;
	errno = 0;
	long fd = strtol(text, &end, 10);
	if (!*text || *end || errno || fd < 0 || fd > INT_MAX) {
		cli_error("%s takes a file descriptor number, not '%s'", option, text);
		return -1;
	}
	int flags = fcntl((int)fd, F_GETFL);
	if (flags < 0) {
		cli_error("%s %ld: %s (open it for writing, e.g. %ld>>FILE)", option, fd,
			  errno == EBADF ? "no such open file descriptor" : strerror(errno), fd);
		return -1;
	}
	if ((flags & O_ACCMODE) == O_RDONLY) {
		cli_error("%s %ld: the descriptor is open for reading only", option, fd);
		return -1;
	}
	return (int)fd;
}

FILE *cli_log_fdopen(int fd)
{
	/* 0, 1 and 2 stay the program's too: the log writes through a copy */
	int own = fd > 2 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (own == fd)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	FILE *f = own < 0 ? NULL : fdopen(own, "w");
	if (!f) {
		cli_error("cannot write the log on descriptor %d: %s", fd, strerror(errno));
		if (own >= 0 && own != fd)
			close(own);
	}
	return log_stream(f);
}

/* Doubles *@buf (*@cap bytes); on failure frees it and returns -ENOMEM. */
static int grow(char **buf, size_t *cap)
{
	char *bigger = *cap < SIZE_MAX / 2 ? realloc(*buf, *cap * 2) : NULL;
	if (!bigger) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	*buf = bigger;
	*cap *= 2;
	return 0;
}

static int read_stream(FILE *f, char **data, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (used + 1 >= cap && grow(&buf, &cap) < 0)
			return -ENOMEM;
		size_t n = fread(buf + used, 1, cap - used - 1, f);
		used += n;
		if (n == 0) {
			if (ferror(f)) {
				int err = errno ? errno : EIO;
				free(buf);
				return -err;
			}
			break;
		}
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

/*
 * A FIFO opened without blocking: a first read of 0 bytes means nobody has it open for
 * writing, where a blocking open or read would wait forever; EAGAIN means a writer is
 * there, so reading goes on blocking.  Pipes from `<(...)` have their writer already.
 */
static int read_fifo(int fd, char **data, size_t *len)
{
	size_t cap = 4096, used = 0;
	bool waiting_allowed = false;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (used + 1 >= cap && grow(&buf, &cap) < 0)
			return -ENOMEM;
		ssize_t n = read(fd, buf + used, cap - used - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && !waiting_allowed &&
		    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0) {
			waiting_allowed = true;
			continue;
		}
		if (n < 0 || (n == 0 && used == 0 && !waiting_allowed)) {
			int err = n < 0 ? errno : EPIPE;
			free(buf);
			return -err;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

int cli_read_file(const char *path, char **data, size_t *len)
{
	bool is_stdin = !path || !strcmp(path, "-");
	if (is_stdin) {
		int r = read_stream(stdin, data, len);
		if (r < 0)
			cli_error("cannot read '<stdin>': %s", strerror(-r));
		return r;
	}
	/* Non-blocking only while opening: a FIFO without a writer must not hang open(). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		cli_error("cannot open '%s': %s", path, strerror(err));
		return -err;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		cli_error("cannot read '%s': it is a directory", path);
		return -EISDIR;
	}
	if (S_ISFIFO(st.st_mode)) {
		int r = read_fifo(fd, data, len);
		close(fd);
		if (r == -EPIPE)
			cli_error("cannot read '%s': a FIFO that nothing writes to", path);
		else if (r < 0)
			cli_error("cannot read '%s': %s", path, strerror(-r));
		return r;
	}
	FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		int err = errno;
		close(fd);
		cli_error("cannot read '%s': %s", path, strerror(err));
		return -err;
	}
	int r = read_stream(f, data, len);
	fclose(f);
	if (r < 0)
		cli_error("cannot read '%s': %s", path, strerror(-r));
	return r;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_stdout(const void *data, size_t len, bool binary)
{
	if (binary && isatty(STDOUT_FILENO)) {
		cli_error("refusing to write binary output to a terminal; use -o FILE or a pipe");
		return -EINVAL;
	}
	fflush(stdout);
	int r = write_all(STDOUT_FILENO, data, len);
	if (r < 0)
		cli_error("cannot write to standard output: %s", strerror(-r));
	return r;
}

/*
 * -o /dev/null, -o /dev/stdout, a FIFO: write into the node itself.  Renaming a temporary
 * file over it would replace the device with a regular file (as root, even in /dev).
 */
static int write_special(const char *path, const struct stat *st, const void *data, size_t len,
			 bool binary)
{
	if (S_ISDIR(st->st_mode)) {
		cli_error("cannot write '%s': it is a directory", path);
		return -EISDIR;
	}
	/* Non-blocking only to open: a FIFO nobody reads fails with ENXIO instead of hanging. */
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && binary && isatty(fd)) {
		close(fd);
		cli_error("refusing to write binary output to a terminal ('%s')", path);
		return -EINVAL;
	}
	int r = fd < 0 ? -errno : write_all(fd, data, len);
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		cli_error("cannot write '%s': %s", path, strerror(-r));
	return r;
}

static int write_replacing(const char *target, const char *shown, const void *data, size_t len);
static char *link_target(const char *path);

int cli_write_output(const char *path, const void *data, size_t len, bool binary)
{
	if (!path || !strcmp(path, "-"))
		return write_stdout(data, len, binary);
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_special(path, &st, data, len, binary);
	/* A symbolic link is written through, never replaced (-o /dev/stdout must not turn
	 * /dev/stdout into a file): the new file goes beside the link's target. */
	struct stat lst;
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		char *target = link_target(path);
		if (!target)
			return -ENOMEM;
		int r = write_replacing(target, path, data, len);
		free(target);
		return r;
	}
	return write_replacing(path, path, data, len);
}

/* Where the symbolic link @path leads, the file itself not necessarily existing yet. */
static char *link_target(const char *path)
{
	char *resolved = realpath(path, NULL);
	if (resolved)
		return resolved;
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return strdup(path);
	buf[n] = '\0';
	if (buf[0] == '/')
		return strdup(buf);
	char *dir_copy = strdup(path);
	char *joined = NULL;
	if (dir_copy && asprintf(&joined, "%s/%s", dirname(dir_copy), buf) < 0)
		joined = NULL;
	free(dir_copy);
	return joined;
}

/* Writes @data to a new file beside @target, then renames it over @target: readers never
 * see a partial file.  @shown is the name errors give. */
static int write_replacing(const char *target, const char *shown, const void *data, size_t len)
{
	const char *path = shown;
	char *dir_copy = strdup(target);
	if (!dir_copy)
		return -ENOMEM;
	char *tmp = NULL;
	int r = asprintf(&tmp, "%s/.syscage-XXXXXX", dirname(dir_copy)) < 0 ? -ENOMEM : 0;
	free(dir_copy);
	if (r < 0)
		return r;

	int fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		cli_error("cannot write '%s': cannot create a file in its directory: %s", path,
			  strerror(-r));
		free(tmp);
		return r;
	}
	r = write_all(fd, data, len);
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, target) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		cli_error("cannot write '%s': %s", path, strerror(-r));
	}
	free(tmp);
	return r;
}

const struct scg_arch *cli_arch(const char *name)
{
	if (!name)
		return scg_arch_native();
	const struct scg_arch *arch = scg_arch_lookup(name);
	if (arch)
		return arch;
	const char *hint = scg_arch_suggest(name);
	if (hint)
		cli_error("unknown architecture '%s'; did you mean '%s'? ('syscage syscalls --arches' lists them)",
			  name, hint);
	else
		cli_error("unknown architecture '%s' ('syscage syscalls --arches' lists them)", name);
	return NULL;
}

int cli_parse_syscall(const struct scg_arch *arch, const char *text, uint32_t *nr)
{
	uint64_t number;
	char *end;
	errno = 0;
	if (text[0] && (text[0] == '-' || (text[0] >= '0' && text[0] <= '9'))) {
		number = strtoull(text, &end, 0);
		if (errno || *end) {
			cli_error("'%s' is not a syscall number", text);
			return -EINVAL;
		}
		if (number > UINT32_MAX && (int64_t)number < INT32_MIN) {
			cli_error("syscall number '%s' does not fit in 32 bits", text);
			return -ERANGE;
		}
		*nr = (uint32_t)number;
		return 0;
	}
	int r = scg_syscall_lookup(arch, text, nr);
	if (r == 0)
		return 0;
	if (r == -ENOSYS) {
		cli_error("'%s' is a syscall, but not on %s", text, scg_arch_name(arch));
		return r;
	}
	const char *hint = scg_syscall_suggest(arch, text);
	if (hint)
		cli_error("unknown syscall '%s' on %s; did you mean '%s'?", text, scg_arch_name(arch), hint);
	else
		cli_error("unknown syscall '%s' on %s", text, scg_arch_name(arch));
	return r;
}

/* A plain number: digits after an optional sign (no '|', '~' or names). */
static bool plain_number(const char *text)
{
	if (text[0] != '-' && text[0] != '+' && (text[0] < '0' || text[0] > '9'))
		return false;
	return !strpbrk(text, "|~()");
}

int cli_constant_eval(const struct scg_arch *arch, const char *text, uint64_t *value,
		      char *msg, size_t msg_size, char *hint, size_t hint_size)
{
	uint32_t v32;
	msg[0] = hint[0] = '\0';
	if (scg_audit_arch_lookup(text, &v32) == 0) {
		*value = v32;
		return 0;
	}
	struct scg_diag *diag = scg_diag_new();
	int r = diag ? scg_constant_eval(text, arch, value, diag) : -ENOMEM;
	const struct scg_diag_entry *e = NULL;
	for (size_t i = 0; !e && i < scg_diag_count(diag); i++)
		if (scg_diag_get(diag, i)->severity == SCG_SEV_ERROR)
			e = scg_diag_get(diag, i);
	if (r < 0)
		snprintf(msg, msg_size, "%s", e ? e->message : strerror(-r));
	if (r < 0 && e && e->hint)
		snprintf(hint, hint_size, "%s", cli_hint(e));
	scg_diag_free(diag);
	return r;
}

int cli_parse_value(const struct scg_arch *arch, const char *text, uint64_t *value)
{
	if (plain_number(text)) {
		errno = 0;
		char *end;
		bool negative = text[0] == '-';
		unsigned long long v = strtoull(negative ? text + 1 : text, &end, 0);
		if (errno || *end || end == text + negative) {
			cli_error("'%s' is not a number that fits in 64 bits", text);
			return -EINVAL;
		}
		*value = negative ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
		return 0;
	}
	char msg[256], hint[128];
	int r = cli_constant_eval(arch, text, value, msg, sizeof(msg), hint, sizeof(hint));
	if (r == 0)
		return 0;
	if (hint[0])
		cli_error("%s; %s", msg, hint);
	else if (strstr(msg, "unknown constant"))
		cli_error("%s (numbers, the policy language's constants, errno names and "
			  "AUDIT_ARCH_* names are accepted)",
			  msg);
	else
		cli_error("'%s': %s", text, msg);
	return r;
}

void cli_json_string(FILE *out, const char *s)
{
	(void)scg_json_write_string(out, s, strlen(s)); /* a write error stays on @out */
}
