/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `syscage run`: telling the user about denied syscalls, decoded the way
 * strace shows them, on stderr, in a JSON-lines log, and as a summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/lang_internal.h"
#include "run.h"

struct run_count {
	char name[64];
	uint32_t action;
	unsigned long count;
};

struct run_report {
	const struct scg_policy *policy;
	FILE *log;
	bool quiet;
	bool marker_explained; /* the note on READ_AFTER_MARKER has been printed */
	struct run_count *counts;
	size_t ncounts;
};

struct run_report *run_report_new(const struct scg_policy *policy, const char *log_path,
				  bool quiet)
{
	struct run_report *rep = calloc(1, sizeof(*rep));
	if (!rep)
		return NULL;
	rep->policy = policy;
	rep->quiet = quiet;
	if (log_path) {
		rep->log = fopen(log_path, "we");
		if (!rep->log) {
			cli_error("cannot open log '%s': %s", log_path, strerror(errno));
			free(rep);
			return NULL;
		}
	}
	return rep;
}

void run_report_free(struct run_report *rep)
{
	if (!rep)
		return;
	if (rep->log)
		fclose(rep->log);
	free(rep->counts);
	free(rep);
}

/* "ERRNO(EACCES)", "KILL_PROCESS", ... */
static void format_action(uint32_t action, const struct scg_arch *arch, char *buf, size_t size)
{
	if (scg_action_of(action) == SCG_ACTION_ERRNO) {
		const char *e = scg_errno_name(arch, action & SCG_RET_DATA);
		if (e) {
			snprintf(buf, size, "ERRNO(%s)", e);
			return;
		}
	}
	scg_ret_format(action, buf, size);
}

/* Writes the @len bytes at @s as a C string literal, "..." after it when @cut. */
static void format_quoted(char *out, size_t size, const char *s, size_t len, bool cut)
{
	char *p = out;
	size_t room = size;
	int n = snprintf(p, room, "\"");
	for (size_t i = 0; i < len && n > 0 && (size_t)n < room; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			n += snprintf(p + n, room - (size_t)n, "\\%c", c);
		else if (c == '\n')
			n += snprintf(p + n, room - (size_t)n, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			n += snprintf(p + n, room - (size_t)n, "\\x%02x", c);
		else
			n += snprintf(p + n, room - (size_t)n, "%c", c);
	}
	if (n > 0 && (size_t)n < room)
		snprintf(p + n, room - (size_t)n, cut ? "\"..." : "\"");
}

static const struct {
	int flag;
	const char *name;
} open_flags[] = {
	{ O_CREAT, "O_CREAT" },       { O_EXCL, "O_EXCL" },	    { O_NOCTTY, "O_NOCTTY" },
	{ O_TRUNC, "O_TRUNC" },       { O_APPEND, "O_APPEND" },     { O_NONBLOCK, "O_NONBLOCK" },
	{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" }, { O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

static void format_open_flags(uint32_t flags, char *buf, size_t size)
{
	static const char *const modes[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	int n = snprintf(buf, size, "%s", modes[flags & O_ACCMODE]);
	uint32_t rest = flags & ~(uint32_t)O_ACCMODE;
	for (size_t i = 0; i < sizeof(open_flags) / sizeof(open_flags[0]); i++) {
		uint32_t f = (uint32_t)open_flags[i].flag;
		if ((rest & f) == f && n > 0 && (size_t)n < size) {
			n += snprintf(buf + n, size - (size_t)n, "|%s", open_flags[i].name);
			rest &= ~f;
		}
	}
	if (rest && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "|%#" PRIx32, rest);
}

static bool is_dirfd(const char *param)
{
	return !strcmp(param, "dirfd") || !strcmp(param, "olddirfd") || !strcmp(param, "newdirfd") ||
	       !strcmp(param, "fd");
}

static bool is_string(const struct scg_syscall_param *p)
{
	return strstr(p->type, "const char *") && !strstr(p->type, "**") && !strstr(p->type, "[]");
}

struct decode_ctx {
	int listener;
	const struct scg_notif *notif;
	int mem_fd;     /* -1: not opened yet; -2: unavailable */
	bool read_mem;  /* the text shows memory read from the program */
};

static void open_mem(struct decode_ctx *ctx)
{
	if (ctx->mem_fd == -1) {
		int fd = scg_notif_mem_open(ctx->listener, ctx->notif);
		ctx->mem_fd = fd < 0 ? -2 : fd;
	}
}

/* A `const void *buf` followed by its length: data the call reads. */
static bool is_data_in(const struct scg_syscall_params *params, unsigned i)
{
	if (i + 1 >= params->count || strcmp(params->params[i].type, "const void *"))
		return false;
	const char *next = params->params[i + 1].name;
	return !strcmp(next, "count") || !strcmp(next, "len") || !strcmp(next, "nbytes");
}

static void format_string_arg(struct decode_ctx *ctx, uint64_t addr, char *buf, size_t size)
{
	if (addr == 0) {
		snprintf(buf, size, "NULL");
		return;
	}
	open_mem(ctx);
	char text[256];
	ssize_t n = -EBADF;
	if (ctx->mem_fd >= 0)
		n = scg_notif_read_string(ctx->listener, ctx->notif, ctx->mem_fd, addr, text,
					  sizeof(text));
	if (n < 0 && n != -ENAMETOOLONG) {
		snprintf(buf, size, "%#" PRIx64, addr);
		return;
	}
	ctx->read_mem = true;
	format_quoted(buf, size, text, strlen(text), n == -ENAMETOOLONG);
}

/* The first bytes of a buffer the call reads (write's data), like strace shows them. */
static void format_data_arg(struct decode_ctx *ctx, uint64_t addr, uint64_t count, char *buf,
			    size_t size)
{
	char data[32];
	size_t want = count < sizeof(data) ? (size_t)count : sizeof(data);
	ssize_t n = -EFAULT;
	if (want > 0 && addr != 0) {
		open_mem(ctx);
		if (ctx->mem_fd >= 0)
			n = scg_notif_read(ctx->listener, ctx->notif, ctx->mem_fd, addr, data, want);
	}
	if (want == 0)
		snprintf(buf, size, "\"\"");
	else if (n < 0)
		snprintf(buf, size, addr ? "%#" PRIx64 : "NULL", addr);
	else
		format_quoted(buf, size, data, (size_t)n, (uint64_t)n < count);
	ctx->read_mem |= n > 0;
}

static void format_arg(struct decode_ctx *ctx, const char *syscall,
		       const struct scg_syscall_param *p, uint64_t v, char *buf, size_t size)
{
	if (is_string(p)) {
		format_string_arg(ctx, v, buf, size);
	} else if (is_dirfd(p->name) && (int32_t)v == -100) {
		snprintf(buf, size, "AT_FDCWD");
	} else if (!strcmp(p->name, "flags") && (!strcmp(syscall, "open") || !strcmp(syscall, "openat"))) {
		format_open_flags((uint32_t)v, buf, size);
	} else if (!strcmp(p->name, "mode")) {
		snprintf(buf, size, "%#" PRIo32, (uint32_t)v);
	} else if (strchr(p->type, '*')) {
		snprintf(buf, size, v ? "%#" PRIx64 : "NULL", v);
	} else if (p->kind == SCG_PARAM_32) {
		snprintf(buf, size, "%" PRId32, (int32_t)v);
	} else {
		snprintf(buf, size, v < 0x10000 ? "%" PRIu64 : "%#" PRIx64, v);
	}
}

static void decode_call(struct decode_ctx *ctx, const char *name, const uint64_t args[6],
			char *out, size_t size)
{
	const struct scg_syscall_params *params = name ? scg_syscall_params_find(name) : NULL;
	int n = snprintf(out, size, "%s(", name ? name : "syscall");
	unsigned count = params ? params->count : 6;
	for (unsigned i = 0; i < count && n > 0 && (size_t)n < size; i++) {
		char arg[300];
		if (params && is_data_in(params, i))
			format_data_arg(ctx, args[i], args[i + 1], arg, sizeof(arg));
		else if (params)
			format_arg(ctx, name, &params->params[i], args[i], arg, sizeof(arg));
		else
			snprintf(arg, sizeof(arg), "%#" PRIx64, args[i]);
		n += snprintf(out + n, size - (size_t)n, "%s%s", i ? ", " : "", arg);
	}
	if (n > 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n, ")");
}

static void describe_where(const struct scg_policy *policy, const struct scg_verdict *v,
			   char *buf, size_t size)
{
	struct scg_rule rule;
	switch (v->source) {
	case SCG_VERDICT_RULE:
		if (scg_policy_rule_at(policy, v->rule, &rule) == 0 && rule.loc.file)
			snprintf(buf, size, "rule %s:%u", rule.loc.file, rule.loc.line);
		else
			snprintf(buf, size, "rule %zu", v->rule + 1);
		return;
	case SCG_VERDICT_DEFAULT:
		snprintf(buf, size, "the default verdict");
		return;
	case SCG_VERDICT_UNKNOWN:
		snprintf(buf, size, "the verdict for unknown syscalls");
		return;
	case SCG_VERDICT_BADARCH:
		snprintf(buf, size, "the verdict for other ABIs");
		return;
	}
}

void run_describe(const struct run_report *rep, int listener, const struct scg_notif *notif,
		  const struct scg_verdict *verdict, struct run_denial *out)
{
	memset(out, 0, sizeof(*out));
	const struct scg_arch *arch = scg_arch_from_audit(notif->data.arch, notif->data.nr);
	out->pid = (pid_t)notif->pid;
	out->nr = notif->data.nr;
	out->action = verdict->action;
	out->name = arch ? scg_syscall_name(arch, notif->data.nr) : NULL;
	struct decode_ctx ctx = { .listener = listener, .notif = notif, .mem_fd = -1 };
	decode_call(&ctx, out->name, notif->data.args, out->call, sizeof(out->call));
	out->read_after_call = ctx.read_mem;
	if (ctx.mem_fd >= 0)
		close(ctx.mem_fd);
	describe_where(rep->policy, verdict, out->where, sizeof(out->where));
}

static void log_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void log_denial(FILE *f, const struct run_denial *d, const char *action)
{
	fprintf(f, "{\"pid\":%d,\"syscall\":", (int)d->pid);
	log_json_string(f, d->name ? d->name : "");
	fprintf(f, ",\"nr\":%" PRIu32 ",\"call\":", d->nr);
	log_json_string(f, d->call);
	fprintf(f, ",\"read_after_call\":%s", d->read_after_call ? "true" : "false");
	fprintf(f, ",\"verdict\":");
	log_json_string(f, action);
	fprintf(f, ",\"by\":");
	log_json_string(f, d->where);
	fprintf(f, "}\n");
	fflush(f);
}

static void count(struct run_report *rep, const struct run_denial *d)
{
	char name[64];
	snprintf(name, sizeof(name), "%s", d->name ? d->name : "?");
	for (size_t i = 0; i < rep->ncounts; i++) {
		if (rep->counts[i].action == d->action && !strcmp(rep->counts[i].name, name)) {
			rep->counts[i].count++;
			return;
		}
	}
	struct run_count *c = realloc(rep->counts, (rep->ncounts + 1) * sizeof(*c));
	if (!c)
		return; /* the summary misses one line; the denial itself was reported */
	rep->counts = c;
	c = &rep->counts[rep->ncounts++];
	memcpy(c->name, name, sizeof(name));
	c->action = d->action;
	c->count = 1;
}

/*
 * Ends a report line whose call shows memory read from the program: the
 * kernel hands the supervisor pointers, and the program may rewrite what
 * they point to between the call and the read (docs/run.md).
 */
#define READ_AFTER_MARKER " [*]"

void run_report_denial(struct run_report *rep, const struct run_denial *d)
{
	char action[64];
	format_action(d->action, scg_arch_native(), action, sizeof(action));
	if (!rep->quiet) {
		cli_error("denied %s from pid %d: %s by %s%s", d->call, (int)d->pid, action, d->where,
			  d->read_after_call ? READ_AFTER_MARKER : "");
		if (d->read_after_call && !rep->marker_explained) {
			cli_error("[*] strings and data in a report are read from the program's "
				  "memory after the call; it may have changed them since (verdicts "
				  "never depend on them)");
			rep->marker_explained = true;
		}
	}
	if (rep->log)
		log_denial(rep->log, d, action);
	count(rep, d);
}

void run_report_summary(const struct run_report *rep)
{
	if (rep->ncounts == 0 || rep->quiet)
		return;
	fprintf(stderr, "syscage: denied syscalls:\n");
	for (size_t i = 0; i < rep->ncounts; i++) {
		char action[64];
		format_action(rep->counts[i].action, scg_arch_native(), action, sizeof(action));
		fprintf(stderr, "  %8lu  %-20s %s\n", rep->counts[i].count, rep->counts[i].name, action);
	}
}
