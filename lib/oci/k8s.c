/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kubernetes SeccompProfile objects (the Security Profiles Operator's
 * security-profiles-operator.x-k8s.io custom resource) in YAML: the spec is
 * the OCI linux.seccomp object field for field, so it is turned into JSON
 * and read by the OCI import.  The YAML read is the block style such objects
 * are written in (mappings, sequences, "- key: value" items, plain and
 * quoted scalars, [a, b] lists, comments); each value lands on the JSON line
 * of its YAML line, so the import's file:line points into the YAML.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/oci.h>

#include "util/strbuf.h"

struct yaml_line {
	const char *text; /* past the indentation; comments cut off */
	size_t len;
	unsigned indent; /* columns of indentation */
	unsigned number; /* 1-based */
};

struct yaml {
	struct yaml_line *lines; /* the lines with content */
	size_t n, at;
	unsigned emitted_line; /* the JSON line being written */
	struct strbuf out;
	const char *file;
	struct scg_diag *diag;
	char kind[64];
	bool failed;
};

static void yaml_error(struct yaml *y, unsigned line, unsigned column, const char *hint,
		       const char *msg)
{
	if (y->failed)
		return;
	y->failed = true;
	scg_diag_add(y->diag, SCG_SEV_ERROR,
		     (struct scg_loc){.file = y->file, .line = line, .column = column, .insn = -1},
		     "k8s-yaml", hint, "%s", msg);
}

/* Newlines until the JSON being written is on line @line. */
static void go_to_line(struct yaml *y, unsigned line)
{
	while (y->emitted_line < line) {
		strbuf_append(&y->out, "\n");
		y->emitted_line++;
	}
}

/* The length of @s up to a comment (" #" outside quotes), without trailing blanks. */
static size_t content_len(const char *s, size_t len)
{
	char quote = 0;
	size_t i = 0;
	for (; i < len; i++) {
		if (quote) {
			if (s[i] == quote)
				quote = 0;
			else if (quote == '"' && s[i] == '\\')
				i++;
		} else if (s[i] == '"' || s[i] == '\'') {
			quote = s[i];
		} else if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
			break;
		}
	}
	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\r'))
		i--;
	return i;
}

static int split_lines(struct yaml *y, const char *text, size_t len)
{
	size_t cap = 1;
	for (size_t i = 0; i < len; i++)
		cap += text[i] == '\n';
	y->lines = calloc(cap, sizeof(*y->lines));
	if (!y->lines)
		return -ENOMEM;
	unsigned number = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		number++;
		unsigned indent = 0;
		const char *q = p;
		while (q < e && *q == ' ') {
			q++;
			indent++;
		}
		size_t n = content_len(q, (size_t)(e - q));
		bool marker = n == 3 && !strncmp(q, "---", 3) && indent == 0;
		if (marker && y->n > 0) {
			yaml_error(y, number, 1, "give one SeccompProfile a file",
				   "a second YAML document");
			return -EINVAL;
		}
		if (n && !marker && y->n < cap) /* cap counts the lines: always true */
			y->lines[y->n++] = (struct yaml_line){q, n, indent, number};
		p = e < end ? e + 1 : end;
	}
	return 0;
}

/* Where "key:" ends in @s (the colon), or 0 when @s is no "key: value" or "key:" text. */
static size_t key_end(const char *s, size_t len)
{
	if (len && (s[0] == '"' || s[0] == '\'' || s[0] == '[' || s[0] == '{'))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ':' && (i + 1 == len || s[i + 1] == ' '))
			return i;
	return 0;
}

static bool is_seq_item(const char *s, size_t len)
{
	return len && s[0] == '-' && (len == 1 || s[1] == ' ');
}

/* A JSON string of @n bytes at @s (escaped as JSON needs). */
static void json_string(struct yaml *y, const char *s, size_t n)
{
	strbuf_append(&y->out, "\"");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			strbuf_appendf(&y->out, "\\%c", c);
		else if (c < 0x20)
			strbuf_appendf(&y->out, "\\u%04x", c);
		else
			strbuf_appendn(&y->out, s + i, 1);
	}
	strbuf_append(&y->out, "\"");
}

static bool is_integer(const char *s, size_t n)
{
	size_t i = s[0] == '-' && n > 1;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
		return false; /* JSON has no hex: kept a string, which the import refuses by name */
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

/* A scalar: numbers, true, false and null as such, everything else a string. */
static void scalar(struct yaml *y, const struct yaml_line *l, const char *s, size_t n)
{
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		/* JSON's escapes are YAML's double-quoted ones; others are refused by json-c */
		strbuf_appendn(&y->out, s, n);
	} else if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'') {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 1; i + 1 < n; i++) {
			strbuf_appendn(&sb, s + i, 1);
			if (s[i] == '\'' && s[i + 1] == '\'')
				i++;
		}
		char *t = NULL;
		if (strbuf_finish(&sb, &t) == 0) {
			json_string(y, t, strlen(t));
			free(t);
		}
	} else if (n && (s[0] == '|' || s[0] == '>' || s[0] == '&' || s[0] == '*' || s[0] == '!')) {
		yaml_error(y, l->number, (unsigned)(s - l->text) + l->indent + 1,
			   "write the value on the line, plain or quoted",
			   "block scalars, anchors, aliases and tags are not read here");
	} else if (is_integer(s, n) || (n == 4 && !strncmp(s, "true", 4)) ||
		   (n == 5 && !strncmp(s, "false", 5)) || (n == 4 && !strncmp(s, "null", 4))) {
		strbuf_appendn(&y->out, s, n);
	} else {
		json_string(y, s, n);
	}
}

/* A value written on its line: a scalar or a [a, b] list of scalars. */
static void inline_value(struct yaml *y, const struct yaml_line *l, const char *s, size_t n)
{
	if (!n || s[0] != '[') {
		scalar(y, l, s, n);
		return;
	}
	if (s[n - 1] != ']') {
		yaml_error(y, l->number, (unsigned)(s - l->text) + l->indent + 1,
			   "close the list on its line: [a, b]",
			   "a [ list that does not end on its line");
		return;
	}
	strbuf_append(&y->out, "[");
	const char *p = s + 1, *end = s + n - 1;
	for (bool first = true; p < end;) {
		while (p < end && *p == ' ')
			p++;
		const char *e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		const char *t = e;
		while (t > p && t[-1] == ' ')
			t--;
		if (t > p) {
			strbuf_append(&y->out, first ? "" : ", ");
			scalar(y, l, p, (size_t)(t - p));
			first = false;
		}
		p = e < end ? e + 1 : end;
	}
	strbuf_append(&y->out, "]");
}

static void node(struct yaml *y, unsigned indent, bool top);

/*
 * The mapping whose first key is @s (@n bytes) on line @l, its keys at column
 * @indent; the following lines at that indentation that are keys go on it.
 */
static void mapping(struct yaml *y, const struct yaml_line *l, const char *s, size_t n,
		    unsigned indent, bool top)
{
	bool first = true;
	if (!top)
		strbuf_append(&y->out, "{");
	for (;;) {
		size_t k = key_end(s, n);
		if (!k) {
			yaml_error(y, l->number, indent + 1, "write 'key: value'",
				   "a line that is no 'key: value' inside a mapping");
			return;
		}
		const char *v = s + k + 1;
		size_t vn = n - k - 1;
		while (vn && *v == ' ') {
			v++;
			vn--;
		}
		/* of the object, only its spec is read; kind is checked */
		bool skip = top && !(k == 4 && !strncmp(s, "spec", 4));
		if (top && k == 4 && !strncmp(s, "kind", 4))
			snprintf(y->kind, sizeof(y->kind), "%.*s", (int)vn, v);
		if (!skip) {
			go_to_line(y, l->number);
			if (!top) {
				strbuf_append(&y->out, first ? "" : ", ");
				json_string(y, s, k);
				strbuf_append(&y->out, ": ");
			}
			first = false;
		}
		y->at++;
		if (vn) {
			if (!skip)
				inline_value(y, l, v, vn);
		} else if (y->at < y->n &&
			   (y->lines[y->at].indent > indent ||
			    (y->lines[y->at].indent == indent &&
			     is_seq_item(y->lines[y->at].text, y->lines[y->at].len)))) {
			if (skip) { /* passed over: every line deeper than the key, or its list */
				unsigned at_indent = y->lines[y->at].indent;
				while (y->at < y->n &&
				       (y->lines[y->at].indent > indent ||
					(y->lines[y->at].indent == indent && at_indent == indent &&
					 is_seq_item(y->lines[y->at].text, y->lines[y->at].len))))
					y->at++;
			} else {
				node(y, y->lines[y->at].indent, false);
			}
		} else if (!skip) {
			strbuf_append(&y->out, "null");
		}
		if (y->failed || y->at >= y->n || y->lines[y->at].indent != indent ||
		    is_seq_item(y->lines[y->at].text, y->lines[y->at].len))
			break;
		l = &y->lines[y->at];
		s = l->text;
		n = l->len;
	}
	if (y->at < y->n && y->lines[y->at].indent > indent && !y->failed)
		yaml_error(y, y->lines[y->at].number, y->lines[y->at].indent + 1,
			   "indent a mapping's keys alike",
			   "a line indented deeper than its mapping");
	if (!top)
		strbuf_append(&y->out, "}");
}

/* The sequence whose items start with "- " at column @indent. */
static void sequence(struct yaml *y, unsigned indent)
{
	strbuf_append(&y->out, "[");
	bool first = true;
	while (!y->failed && y->at < y->n && y->lines[y->at].indent == indent &&
	       is_seq_item(y->lines[y->at].text, y->lines[y->at].len)) {
		const struct yaml_line *l = &y->lines[y->at];
		go_to_line(y, l->number);
		strbuf_append(&y->out, first ? "" : ", ");
		first = false;
		const char *s = l->text + 1;
		size_t n = l->len - 1;
		unsigned col = indent + 1;
		while (n && *s == ' ') {
			s++;
			n--;
			col++;
		}
		if (!n) { /* "-" alone: the item is on the lines below */
			y->at++;
			if (y->at < y->n && y->lines[y->at].indent > indent)
				node(y, y->lines[y->at].indent, false);
			else
				strbuf_append(&y->out, "null");
		} else if (key_end(s, n)) { /* "- key: value": a mapping at the key's column */
			struct yaml_line item = {s, n, col, l->number};
			y->lines[y->at] = item;
			mapping(y, &y->lines[y->at], s, n, col, false);
		} else {
			inline_value(y, l, s, n);
			y->at++;
		}
	}
	strbuf_append(&y->out, "]");
}

/* NOLINTBEGIN(clang-analyzer-unix.Malloc): clang-analyzer 14 loses y->lines across the
 * calls below and reports it leaked at the end; scg_k8s_import() frees it (valgrind and
 * fuzz_load find no leak). */
static void node(struct yaml *y, unsigned indent, bool top)
{
	size_t at = y->at; /* by index: mapping() and sequence() move y->at on */
	if (is_seq_item(y->lines[at].text, y->lines[at].len)) {
		if (top)
			yaml_error(y, y->lines[at].number, indent + 1,
				   "a SeccompProfile is a mapping",
				   "a list where the object's fields belong");
		else
			sequence(y, indent);
	} else if (key_end(y->lines[at].text, y->lines[at].len)) {
		mapping(y, &y->lines[at], y->lines[at].text, y->lines[at].len, indent, top);
	} else {
		go_to_line(y, y->lines[at].number);
		inline_value(y, &y->lines[at], y->lines[at].text, y->lines[at].len);
		y->at++;
	}
}
/* NOLINTEND(clang-analyzer-unix.Malloc) */

int scg_k8s_import(const char *yaml, size_t len, const struct scg_oci_options *opts,
		   struct scg_policy **out, struct scg_diag *diag)
{
	*out = NULL;
	struct scg_oci_options o;
	if (opts)
		o = *opts;
	else
		scg_oci_options_init(&o);
	struct yaml y = {.file = o.filename ? o.filename : "<k8s>",
			 .diag = diag,
			 .emitted_line = 1,
			 .out = STRBUF_INIT};
	int r = split_lines(&y, yaml, len);
	if (r == 0 && y.n == 0) {
		yaml_error(&y, 1, 1, NULL, "an empty YAML document: no SeccompProfile in it");
		r = -EINVAL;
	}
	if (r == 0) {
		node(&y, y.lines[0].indent, true);
		if (!y.failed && y.lines[0].indent != 0)
			yaml_error(&y, y.lines[0].number, 1, NULL,
				   "the object's fields are indented");
	}
	const char *kind = y.kind;
	if (r == 0 && !y.failed && strcmp(kind, "SeccompProfile") &&
	    strcmp(kind, "\"SeccompProfile\"")) {
		char msg[128];
		snprintf(msg, sizeof(msg), "%s%s%s, not a SeccompProfile",
			 kind[0] ? "a Kubernetes " : "no 'kind:' field", kind,
			 kind[0] ? " object" : "");
		yaml_error(&y, y.lines[0].number, 1,
			   "syscage reads the Security Profiles Operator's SeccompProfile objects",
			   msg);
	}
	char *json = NULL;
	if (r == 0 && y.failed)
		r = -EINVAL;
	if (r == 0 && strbuf_finish(&y.out, &json) < 0)
		r = -ENOMEM;
	if (r == 0 && !strchr(json, '{')) {
		yaml_error(&y, y.lines[0].number, 1, "the profile goes under 'spec:'",
			   "a SeccompProfile without a spec");
		r = -EINVAL;
	}
	if (r == 0) {
		o.filename = y.file;
		r = scg_oci_import(json, strlen(json), &o, out, diag);
	}
	free(json);
	strbuf_release(&y.out);
	free(y.lines);
	return r;
}
