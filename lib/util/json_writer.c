/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The streaming JSON writer of <syscage/json.h>. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/json.h>

#include "util/json.h"

/* One open container. */
struct level {
	bool object;
	bool lines;
	bool compact;
	bool has_members;
	bool key_given; /* objects: a key waits for its value */
};

struct scg_json {
	FILE *out;
	int err;
	bool done; /* the document's value is complete */
	size_t depth;
	size_t lines; /* open SCG_JSON_LINES containers: the indentation */
	struct level open[SCG_JSON_MAX_DEPTH];
};

SCG_API struct scg_json *scg_json_new(FILE *out)
{
	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	struct scg_json *w = calloc(1, sizeof(*w));
	if (w)
		w->out = out;
	return w;
}

SCG_API int scg_json_free(struct scg_json *w)
{
	if (!w)
		return 0;
	int r = w->err ? w->err : w->depth ? -EINVAL : 0;
	free(w);
	return r;
}

static int fail(struct scg_json *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

static void put(struct scg_json *w, const char *s, size_t n)
{
	if (w->err)
		return;
	errno = 0;
	if (fwrite(s, 1, n, w->out) != n)
		fail(w, errno > 0 ? -errno : -EIO);
}

static void puts_w(struct scg_json *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A newline and the indentation of @depth open SCG_JSON_LINES containers. */
static void newline(struct scg_json *w, size_t depth)
{
	static const char spaces[] = "                                ";
	put(w, "\n", 1);
	for (size_t n = depth * 2; n > 0;) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		put(w, spaces, k);
		n -= k;
	}
}

/* The separator before a member of the innermost container. */
static void separate(struct scg_json *w)
{
	struct level *l = &w->open[w->depth - 1];
	if (l->has_members)
		puts_w(w, l->lines || l->compact ? "," : ", ");
	if (l->lines)
		newline(w, w->lines);
	l->has_members = true;
}

/* Where a value may go now: checks it, writes what comes before it. */
static int begin_value(struct scg_json *w)
{
	if (w->err)
		return w->err;
	if (!w->depth) {
		if (w->done)
			return fail(w, -EINVAL);
		return 0;
	}
	struct level *l = &w->open[w->depth - 1];
	if (l->object) {
		if (!l->key_given)
			return fail(w, -EINVAL);
		l->key_given = false;
		return 0;
	}
	separate(w);
	return w->err;
}

/* After a value: the document is complete once its outermost value is. */
static int end_value(struct scg_json *w)
{
	if (!w->depth)
		w->done = true;
	return w->err;
}

static int open_container(struct scg_json *w, bool object, enum scg_json_layout layout)
{
	if (begin_value(w) < 0)
		return w->err;
	if (w->depth == SCG_JSON_MAX_DEPTH)
		return fail(w, -EINVAL);
	if (layout != SCG_JSON_INLINE && layout != SCG_JSON_LINES && layout != SCG_JSON_COMPACT)
		return fail(w, -EINVAL);
	w->open[w->depth++] = (struct level){ .object = object,
					      .lines = layout == SCG_JSON_LINES,
					      .compact = layout == SCG_JSON_COMPACT };
	w->lines += layout == SCG_JSON_LINES;
	puts_w(w, object ? "{" : "[");
	return w->err;
}

SCG_API int scg_json_object(struct scg_json *w, enum scg_json_layout layout)
{
	return open_container(w, true, layout);
}

SCG_API int scg_json_array(struct scg_json *w, enum scg_json_layout layout)
{
	return open_container(w, false, layout);
}

SCG_API int scg_json_end(struct scg_json *w)
{
	if (w->err)
		return w->err;
	if (!w->depth || w->open[w->depth - 1].key_given)
		return fail(w, -EINVAL);
	struct level l = w->open[--w->depth];
	w->lines -= l.lines;
	if (l.lines && l.has_members)
		newline(w, w->lines);
	puts_w(w, l.object ? "}" : "]");
	return end_value(w);
}

static int file_put(void *ctx, const char *s, size_t n)
{
	struct scg_json *w = ctx;
	put(w, s, n);
	return w->err;
}

SCG_API int scg_json_key(struct scg_json *w, const char *key)
{
	if (w->err)
		return w->err;
	if (!key || !w->depth || !w->open[w->depth - 1].object || w->open[w->depth - 1].key_given)
		return fail(w, -EINVAL);
	separate(w);
	if (json_write_escaped(file_put, w, key, strlen(key)) == 0)
		puts_w(w, w->open[w->depth - 1].compact ? ":" : ": ");
	w->open[w->depth - 1].key_given = true;
	return w->err;
}

SCG_API int scg_json_stringn(struct scg_json *w, const char *s, size_t len)
{
	if (!s && len)
		return fail(w, -EINVAL);
	if (begin_value(w) < 0)
		return w->err;
	(void)json_write_escaped(file_put, w, s, len);
	return end_value(w);
}

SCG_API int scg_json_string(struct scg_json *w, const char *s)
{
	return s ? scg_json_stringn(w, s, strlen(s)) : scg_json_null(w);
}

static int literal(struct scg_json *w, const char *text)
{
	if (begin_value(w) < 0)
		return w->err;
	puts_w(w, text);
	return end_value(w);
}

SCG_API int scg_json_int(struct scg_json *w, long long v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%lld", v);
	return literal(w, buf);
}

SCG_API int scg_json_uint(struct scg_json *w, unsigned long long v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%llu", v);
	return literal(w, buf);
}

SCG_API int scg_json_bool(struct scg_json *w, int v)
{
	return literal(w, v ? "true" : "false");
}

SCG_API int scg_json_null(struct scg_json *w)
{
	return literal(w, "null");
}

SCG_API int scg_json_valuef(struct scg_json *w, const char *fmt, ...)
{
	if (begin_value(w) < 0)
		return w->err;
	va_list ap;
	va_start(ap, fmt);
	errno = 0;
	if (vfprintf(w->out, fmt, ap) < 0)
		fail(w, errno > 0 ? -errno : -EIO);
	va_end(ap);
	return end_value(w);
}
