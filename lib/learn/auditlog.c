/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading seccomp audit records (type=1326, "SECCOMP") from a log: audit.log
 * and ausearch, the kernel's own printk lines in /dev/kmsg, dmesg and
 * `journalctl -k`.  Every form carries the record as space-separated
 * key=value fields after its type; the line prefixes differ, so the reader
 * looks for the type word anywhere in the line and reads the fields after it.
 */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/auditlog.h>

#include "learn/internal.h"
#include "util/opts.h"
#include "util/scan.h"
#include "util/grow.h"

/* The kernel's TASK_COMM_LEN less the NUL: what comm= can hold. */
enum { COMM_MAX = 15 };

struct scg_audit_log {
	struct scg_audit_seccomp *recs;
	size_t n, cap;
	struct scg_audit_log_stats stats;
};

/* A piece of the text. */
struct span {
	const char *p;
	size_t n;
};

static bool span_is(struct span s, const char *word)
{
	size_t n = strlen(word);
	return s.n == n && memcmp(s.p, word, n) == 0;
}

static bool span_has(struct span s, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; n <= s.n && i <= s.n - n; i++)
		if (memcmp(s.p + i, word, n) == 0)
			return true;
	return false;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Where the record's fields start (just past its type word) in @line, or
 * NULL when the line is no seccomp record.  The type word starts the line
 * or follows a space, ';' (/dev/kmsg) or ':' ("audit:" without a space).
 */
static const char *record_fields(struct span line)
{
	static const char types[][13] = {"type=1326", "type=SECCOMP"};
	for (size_t i = 0; i + 5 <= line.n; i++) {
		if (line.p[i] != 't' || (i > 0 && !is_space(line.p[i - 1]) &&
					  line.p[i - 1] != ';' && line.p[i - 1] != ':'))
			continue;
		for (size_t t = 0; t < 2; t++) {
			size_t n = strlen(types[t]);
			if (line.n - i >= n && memcmp(line.p + i, types[t], n) == 0 &&
			    (line.n - i == n || is_space(line.p[i + n])))
				return line.p + i + n;
		}
	}
	return NULL;
}

/* printk's "kauditd_printk_skb: N callbacks suppressed": N, else 0. */
static size_t suppressed_count(struct span line)
{
	static const char key[] = "kauditd_printk_skb: ";
	if (!span_has(line, " callbacks suppressed"))
		return 0;
	for (size_t i = 0; i + sizeof(key) - 1 <= line.n; i++) {
		if (memcmp(line.p + i, key, sizeof(key) - 1) != 0)
			continue;
		size_t v = 0;
		for (size_t j = i + sizeof(key) - 1; j < line.n && line.p[j] >= '0' &&
						      line.p[j] <= '9' && v < (size_t)1 << 40; j++)
			v = v * 10 + (size_t)(line.p[j] - '0');
		return v;
	}
	return 0;
}

static bool says_lost(struct span line)
{
	return span_has(line, "audit_lost=") || span_has(line, "audit: rate limit exceeded") ||
	       span_has(line, "audit: backlog limit exceeded");
}

/* One field of a record: key=value, the value's quotes removed. */
struct field {
	struct span key, value;
	bool quoted;
	unsigned column; /* of the value in the line */
};

/* A byte of a key or a value: not a blank, '=' or auditd's 0x1d. */
static bool is_key_char(char c)
{
	return !is_space(c) && c != '=' && c != '\x1d';
}

/* A byte of a word or an unquoted value: not a blank or 0x1d. */
static bool is_word_char(char c)
{
	return !is_space(c) && c != '\x1d';
}

/*
 * Reads the next field at the cursor, which ends with the line.  Returns 1
 * with @f set, 0 at the end, -1 for an unterminated quote (f->column set).
 * Words without '=' ("audit(...):", ":") are passed over.  auditd's
 * enriched format ends the kernel's fields with a 0x1d byte; what follows
 * is auditd's.
 */
static int next_field(struct scan *s, struct field *f)
{
	for (;;) {
		scan_while(s, is_space);
		if (!scan_more(s) || scan_peek(s, 0) == '\x1d')
			return 0;
		const char *w = s->text + s->pos;
		size_t n = scan_while(s, is_key_char);
		if (!scan_accept(s, "=")) {
			scan_while(s, is_word_char);
			continue;
		}
		f->key = (struct span){ w, n };
		f->column = s->column;
		f->quoted = scan_accept(s, "\"");
		const char *v = s->text + s->pos;
		if (f->quoted) {
			const char *q = memchr(v, '"', s->len - s->pos);
			if (!q)
				return -1;
			f->value = (struct span){ v, (size_t)(q - v) };
			scan_skip(s, f->value.n + 1);
		} else {
			f->value = (struct span){ v, scan_while(s, is_word_char) };
		}
		return 1;
	}
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* @s as a number: hex (@hex, an optional 0x) or decimal.  False on overflow or junk. */
static bool parse_u64(struct span s, bool hex, uint64_t *out)
{
	if (s.n > 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		s.p += 2;
		s.n -= 2;
		hex = true;
	}
	if (s.n == 0)
		return false;
	uint64_t v = 0;
	unsigned base = hex ? 16 : 10;
	for (size_t i = 0; i < s.n; i++) {
		int d = hex ? hex_digit(s.p[i]) : (s.p[i] >= '0' && s.p[i] <= '9' ? s.p[i] - '0' : -1);
		if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return true;
}

/* @s copied into a NUL-terminated buffer of @size bytes; false when it does not fit. */
static bool span_copy(struct span s, char *buf, size_t size)
{
	if (s.n >= size)
		return false;
	memcpy(buf, s.p, s.n);
	buf[s.n] = '\0';
	return true;
}

/*
 * A string field as the kernel writes it (audit_log_untrustedstring()):
 * quoted when it is plain, else hex-encoded, or "(null)".  NULL on
 * allocation failure.
 */
static char *decode_string(const struct field *f)
{
	struct span v = f->value;
	bool hex = !f->quoted && v.n > 0 && v.n % 2 == 0 && !span_is(v, "(null)");
	for (size_t i = 0; hex && i < v.n; i++)
		hex = hex_digit(v.p[i]) >= 0;
	size_t n = hex ? v.n / 2 : (span_is(v, "(null)") ? 0 : v.n);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	if (!hex)
		memcpy(s, v.p, n);
	for (size_t i = 0; hex && i < n; i++) {
		/* every digit was checked above: hex_digit() is 0..15 here */
		unsigned hi = (unsigned)hex_digit(v.p[2 * i]) & 0xf;
		unsigned lo = (unsigned)hex_digit(v.p[2 * i + 1]) & 0xf;
		s[i] = (char)(hi << 4 | lo);
	}
	s[n] = '\0';
	return s;
}

/* The parse of one record's fields. */
struct fields {
	struct field arch, syscall, code, pid, comm, exe;
	bool has_arch, has_syscall, has_code, has_pid, has_comm, has_exe;
};

static void keep_field(struct fields *fs, const struct field *f)
{
	const struct {
		const char *key;
		struct field *field;
		bool *has;
	} keys[] = {
#define K(name) { #name, &fs->name, &fs->has_##name }
		K(arch), K(syscall), K(code), K(pid), K(comm), K(exe),
#undef K
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (span_is(f->key, keys[i].key) && !*keys[i].has) {
			*keys[i].field = *f;
			*keys[i].has = true;
		}
	}
}

struct reader {
	const struct scg_audit_log_options *opts;
	struct scg_diag *diag;
	unsigned line;
	bool failed;
};

/* An error at @column of the current line. */
static void bad(struct reader *rd, unsigned column, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void bad(struct reader *rd, unsigned column, const char *hint, const char *fmt, ...)
{
	struct scg_loc loc = { rd->opts->filename, rd->line, column, -1 };
	va_list ap;
	va_start(ap, fmt);
	scg_diag_vadd(rd->diag, SCG_SEV_ERROR, loc, "audit-record", hint, fmt, ap);
	va_end(ap);
	rd->failed = true;
}

/* arch=: hex AUDIT_ARCH (audit.log, the kernel) or an ABI name (ausearch -i). */
static bool read_arch(struct reader *rd, const struct field *f, uint32_t *audit)
{
	uint64_t v;
	if (!f->quoted && parse_u64(f->value, true, &v) && v <= UINT32_MAX) {
		*audit = (uint32_t)v;
		return true;
	}
	char name[32];
	const struct scg_arch *a = span_copy(f->value, name, sizeof(name)) ? scg_arch_lookup(name)
									     : NULL;
	if (!a) {
		bad(rd, f->column, NULL, "arch=%s is neither an AUDIT_ARCH value nor an ABI name",
		    span_copy(f->value, name, sizeof(name)) ? name : "...");
		return false;
	}
	*audit = scg_arch_audit(a);
	return true;
}

/* syscall=: a number, or a name of the record's ABI (ausearch -i). */
static bool read_syscall(struct reader *rd, const struct field *f, uint32_t audit,
			 uint32_t *nr)
{
	/* The kernel prints the number as a long: a number with bit 31 set is negative. */
	struct span s = f->value;
	bool minus = s.n > 1 && s.p[0] == '-';
	if (minus) {
		s.p++;
		s.n--;
	}
	uint64_t v;
	if (!f->quoted && parse_u64(s, false, &v) && v <= (minus ? (uint64_t)1 << 31 : UINT32_MAX)) {
		*nr = minus ? (uint32_t)(0 - v) : (uint32_t)v;
		return true;
	}
	char name[64] = "";
	const struct scg_arch *a = scg_arch_from_audit(audit, 0);
	if (!span_copy(f->value, name, sizeof(name)) || !a ||
	    scg_syscall_lookup(a, name, nr) < 0) {
		const char *hint = a && name[0] ? scg_syscall_suggest(a, name) : NULL;
		char h[96];
		if (hint)
			snprintf(h, sizeof(h), "did you mean '%s'?", hint);
		bad(rd, f->column, hint ? h : NULL, "syscall=%s is neither a number nor a syscall of the record's ABI",
		    f->value.n < sizeof(name) ? name : "...");
		return false;
	}
	return true;
}

static bool matches(const struct scg_audit_log_options *o, const char *comm, const char *exe)
{
	if (o->exe && strcmp(o->exe, exe) != 0)
		return false;
	if (o->comm && strncmp(o->comm, comm, strlen(o->comm) > COMM_MAX ? COMM_MAX : SIZE_MAX))
		return false;
	return true;
}

static void record_free_strings(struct scg_audit_seccomp *r)
{
	free((char *)r->comm);
	free((char *)r->exe);
}

static int push(struct scg_audit_log *log, const struct scg_audit_seccomp *r)
{
	if (GROW_ARRAY(&log->recs, &log->cap, log->n + 1, 64))
		return -ENOMEM;
	log->recs[log->n++] = *r;
	return 0;
}

/* Reads the record whose fields start at @fields in @line.  0 or -ENOMEM; errors in rd. */
static int read_record(struct reader *rd, struct scg_audit_log *log, struct span line,
		       const char *fields)
{
	struct fields fs = { 0 };
	struct field f;
	struct scan s;
	scan_init_at(&s, line.p, line.n, rd->line, 1);
	scan_skip(&s, (size_t)(fields - line.p));
	int r;
	while ((r = next_field(&s, &f)) > 0)
		keep_field(&fs, &f);
	if (r < 0) {
		bad(rd, f.column, NULL, "%s", "a quoted value has no closing quote");
		return 0;
	}
	if (!fs.has_arch || !fs.has_syscall) {
		/* At the record's type word, just before @fields. */
		const char *type = fields;
		while (type > line.p && type[-1] != ' ' && type[-1] != '\t' && type[-1] != ';' &&
		       type[-1] != ':')
			type--;
		bad(rd, (unsigned)(type - line.p) + 1, NULL, "a seccomp record without %s=",
		    fs.has_arch ? "syscall" : "arch");
		return 0;
	}
	struct scg_audit_seccomp rec = { .pid = -1, .line = rd->line };
	if (!read_arch(rd, &fs.arch, &rec.audit_arch) ||
	    !read_syscall(rd, &fs.syscall, rec.audit_arch, &rec.nr))
		return 0;
	uint64_t v;
	if (fs.has_code && !fs.code.quoted && parse_u64(fs.code.value, true, &v) &&
	    v <= UINT32_MAX) {
		rec.has_code = true;
		rec.code = (uint32_t)v;
	}
	if (fs.has_pid && parse_u64(fs.pid.value, false, &v) && v <= (uint64_t)INT32_MAX)
		rec.pid = (long)v;
	rec.arch = scg_arch_from_audit(rec.audit_arch, rec.nr);
	log->stats.records++;
	static const struct field none = { { "", 0 }, { "", 0 }, true, 1 };
	char *comm = decode_string(fs.has_comm ? &fs.comm : &none);
	char *exe = decode_string(fs.has_exe ? &fs.exe : &none);
	rec.comm = comm;
	rec.exe = exe;
	if (!comm || !exe) {
		record_free_strings(&rec);
		return -ENOMEM;
	}
	if (!matches(rd->opts, comm, exe) || rd->failed) {
		/* After an error nothing is handed over: keep reading only to report. */
		record_free_strings(&rec);
		return 0;
	}
	log->stats.kept++;
	log->stats.foreign += rec.arch == NULL;
	if (push(log, &rec) < 0) {
		record_free_strings(&rec);
		return -ENOMEM;
	}
	return 0;
}

int scg_audit_log_parse(const char *text, size_t len, const struct scg_audit_log_options *opts,
			struct scg_audit_log **out, struct scg_diag *diag)
{
	struct scg_audit_log_options o;
	if (opts_load(&o, sizeof(o), opts, OPTS_END(struct scg_audit_log_options, comm)) < 0)
		return -EINVAL;
	struct scg_audit_log *log = calloc(1, sizeof(*log));
	if (!log)
		return -ENOMEM;
	struct reader rd = { .opts = &o, .diag = diag };
	int r = 0;
	struct scan s;
	scan_init(&s, text, len);
	while (scan_more(&s) && r == 0) {
		rd.line = s.line;
		size_t at = s.pos;
		scan_to_eol(&s);
		struct span line = { text + at, s.pos - at };
		scan_advance(&s);
		if (line.n && line.p[line.n - 1] == '\r')
			line.n--;
		log->stats.lines++;
		const char *fields = record_fields(line);
		if (fields) {
			r = read_record(&rd, log, line, fields);
			continue;
		}
		log->stats.skipped++;
		log->stats.suppressed += suppressed_count(line);
		log->stats.lost_lines += says_lost(line);
	}
	if (r == 0 && rd.failed)
		r = -EINVAL;
	if (r < 0) {
		scg_audit_log_free(log);
		return r;
	}
	*out = log;
	return 0;
}

void scg_audit_log_free(struct scg_audit_log *log)
{
	if (!log)
		return;
	for (size_t i = 0; i < log->n; i++)
		record_free_strings(&log->recs[i]);
	free(log->recs);
	free(log);
}

size_t scg_audit_log_count(const struct scg_audit_log *log)
{
	return log ? log->n : 0;
}

const struct scg_audit_seccomp *scg_audit_log_at(const struct scg_audit_log *log, size_t index)
{
	return log && index < log->n ? &log->recs[index] : NULL;
}

void scg_audit_log_stats(const struct scg_audit_log *log, struct scg_audit_log_stats *out)
{
	static const struct scg_audit_log_stats none;
	*out = log ? log->stats : none;
}

int scg_learn_add_audit_log(struct scg_learn *learn, const struct scg_audit_log *log)
{
	/* Room for every record first, so that adding them cannot fail half way. */
	int r = learn_reserve(learn, log->n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < log->n; i++) {
		const struct scg_audit_seccomp *rec = &log->recs[i];
		if (rec->arch && scg_learn_add_calls(learn, rec->arch, rec->nr, 1) < 0)
			return -ENOMEM;
	}
	return 0;
}
