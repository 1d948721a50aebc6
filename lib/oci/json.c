/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Parsing the JSON text with json-c, and reporting problems at the
 * position they are in.
 *
 * json-c is more lenient than Go's encoding/json, which Docker and runc
 * use: it takes single-quoted strings and raw control characters inside
 * strings.  Such text would be refused by Docker, so it is refused here
 * too, with the position, before the tree is used.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "internal.h"

/* Far above any real profile (Docker's is 20 KB); bounds memory and time. */
#define OCI_MAX_INPUT (16U << 20)
#define OCI_MAX_DEPTH 64

void oci_path_format(const struct oci_path *path, char *buf, size_t size)
{
	if (!size)
		return;
	if (!path) {
		buf[0] = '\0';
		return;
	}
	oci_path_format(path->parent, buf, size);
	size_t used = strlen(buf);
	if (path->key)
		snprintf(buf + used, size - used, "%s%s", used ? "." : "", path->key);
	else
		snprintf(buf + used, size - used, "[%zu]", path->index);
}

struct scg_loc oci_doc_loc(const struct oci_doc *doc, const struct oci_path *path, bool key)
{
	struct scan at = oci_locate_cursor(doc->text, doc->len, path, key);
	return scan_loc(&at, doc->file);
}

__attribute__((format(printf, 6, 0)))
static void report(struct oci_doc *doc, enum scg_severity sev, struct scg_loc loc,
		   const struct oci_path *path, const char *hint, const char *fmt, va_list ap)
{
	char where[256], msg[512];
	oci_path_format(path, where, sizeof(where));
	vsnprintf(msg, sizeof(msg), fmt, ap);
	scg_diag_add(doc->diag, sev, loc, sev == SCG_SEV_ERROR ? "oci-invalid" : "oci-warning",
		     hint, "%s%s%s", where, where[0] ? ": " : "", msg);
}

void oci_error(struct oci_doc *doc, const struct oci_path *path, const char *hint,
	       const char *fmt, ...)
{
	va_list ap;
	if (doc->errors++ >= OCI_MAX_REPORTS)
		return;
	va_start(ap, fmt);
	report(doc, SCG_SEV_ERROR, oci_doc_loc(doc, path, false), path, hint, fmt, ap);
	va_end(ap);
}

void oci_warn(struct oci_doc *doc, const struct oci_path *path, bool key, const char *hint,
	      const char *fmt, ...)
{
	va_list ap;
	if (doc->warnings++ >= OCI_MAX_REPORTS)
		return;
	va_start(ap, fmt);
	report(doc, SCG_SEV_WARNING, oci_doc_loc(doc, path, key), path, hint, fmt, ap);
	va_end(ap);
}

static void error_at(struct oci_doc *doc, size_t offset, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void error_at(struct oci_doc *doc, size_t offset, const char *hint, const char *fmt, ...)
{
	struct scg_loc loc = SCG_LOC_NONE;
	char msg[512];
	va_list ap;
	loc.file = doc->file;
	oci_offset_to_linecol(doc->text, doc->len, offset, &loc.line, &loc.column);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	scg_diag_add(doc->diag, SCG_SEV_ERROR, loc, "oci-json", hint, "%s", msg);
	doc->errors++;
}

/* An integer literal above 2^64 - 1 (json-c quietly clamps those). */
static bool huge_integer(const char *text, size_t len, size_t *i)
{
	size_t start = *i;
	while (*i < len && text[*i] >= '0' && text[*i] <= '9')
		++*i;
	size_t n = *i - start;
	bool integer = *i >= len || !strchr(".eE", text[*i]) || !text[*i];
	--*i; /* the caller's loop steps past the last digit */
	return integer && (n > 20 || (n == 20 && memcmp(text + start, "18446744073709551615", 20) > 0));
}

/* What Go's decoder refuses and json-c accepts: NUL bytes, 'strings', raw control characters. */
static int check_strict(struct oci_doc *doc)
{
	bool in_string = false;
	for (size_t i = 0; i < doc->len; i++) {
		unsigned char c = (unsigned char)doc->text[i];
		if (!in_string && c >= '0' && c <= '9') {
			doc->huge_numbers |= huge_integer(doc->text, doc->len, &i);
			continue;
		}
		if (c == '\0') {
			error_at(doc, i, NULL, "NUL byte in the input");
			return -EINVAL;
		}
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			else if (c < 0x20) {
				error_at(doc, i, "write it as an escape such as \\n or \\u0009",
					 "raw control character 0x%02x inside a string", c);
				return -EINVAL;
			}
		} else if (c == '"') {
			in_string = true;
		} else if (c == '\'') {
			error_at(doc, i, "JSON strings use double quotes",
				 "single-quoted string");
			return -EINVAL;
		}
	}
	return 0;
}

static const char *tokener_hint(enum json_tokener_error err)
{
	/* an if chain: json-c's enum grows between releases */
	if (err == json_tokener_error_parse_utf8_string)
		return "the file must be UTF-8";
	if (err == json_tokener_error_depth)
		return "profiles are nested a few levels deep at most";
	if (err == json_tokener_error_parse_object_key_name ||
	    err == json_tokener_error_parse_object_value_sep ||
	    err == json_tokener_error_parse_object_key_sep)
		return "check for a missing or extra comma, colon or quote";
	return NULL;
}

static struct json_object *tokenize(struct oci_doc *doc)
{
	struct json_tokener *tok = json_tokener_new_ex(OCI_MAX_DEPTH);
	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	struct json_object *root = json_tokener_parse_ex(tok, doc->text, (int)doc->len);
	enum json_tokener_error err = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	if (!root && err == json_tokener_continue && end == doc->len) {
		/* a bare number at the very end waits for more digits: end it */
		root = json_tokener_parse_ex(tok, "", 1);
		err = json_tokener_get_error(tok);
		if (!root && err == json_tokener_continue)
			err = json_tokener_error_parse_eof;
	}
	if (!root) {
		if (err == json_tokener_continue || err == json_tokener_error_parse_eof)
			error_at(doc, doc->len, "the file may be truncated",
				 "unexpected end of the JSON text");
		else
			error_at(doc, end, tokener_hint(err), "invalid JSON: %s",
				 json_tokener_error_desc(err));
	}
	json_tokener_free(tok);
	return root;
}

int oci_doc_parse(struct oci_doc *doc, const char *text, size_t len, const char *file,
		  struct scg_diag *diag)
{
	*doc = (struct oci_doc){ text, len, file, NULL, diag, 0, 0, false };
	if (len > OCI_MAX_INPUT) {
		error_at(doc, 0, NULL, "the profile is %zu bytes; the limit is %u", len,
			 OCI_MAX_INPUT);
		return -EINVAL;
	}
	size_t first = 0;
	while (first < len && strchr(" \t\r\n", text[first]) && text[first])
		first++;
	if (first == len) {
		error_at(doc, len, NULL, "empty input: expected a JSON object");
		return -EINVAL;
	}
	int r = check_strict(doc);
	if (r < 0)
		return r;
	doc->root = tokenize(doc);
	if (!doc->root)
		return doc->errors ? -EINVAL : -ENOMEM;
	return 0;
}

void oci_doc_release(struct oci_doc *doc)
{
	json_object_put(doc->root);
	doc->root = NULL;
}
