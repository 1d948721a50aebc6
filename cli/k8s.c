/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * compile --format k8s: the OCI linux.seccomp object the OCI export writes,
 * as the Security Profiles Operator's SeccompProfile custom resource
 * (security-profiles-operator.x-k8s.io/v1beta1), in YAML.  The spec is the
 * OCI object field for field (defaultAction, architectures, flags,
 * listenerPath, listenerMetadata, syscalls with names, action, errnoRet and
 * args; each entry's comment as a YAML comment); what else the operator's
 * spec has no field for is refused by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/cli.h"
#include "k8s.h"
#include "common/textbuf.h"

/* A YAML scalar: plain where it is a bare word, else double-quoted. */
static void scalar(struct textbuf *tb, const char *s)
{
	bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_./-") == strlen(s) &&
		     !strchr("-.0123456789", s[0]) && strcmp(s, "true") && strcmp(s, "false") &&
		     strcmp(s, "null") && strcmp(s, "yes") && strcmp(s, "no") && strcmp(s, "on") &&
		     strcmp(s, "off") && strcmp(s, "y") && strcmp(s, "n");
	if (plain) {
		textbuf_append(tb, s);
		return;
	}
	textbuf_append(tb, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			textbuf_appendf(tb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			textbuf_appendf(tb, "\\x%02x", *p);
		else
			textbuf_appendn(tb, (const char *)p, 1);
	}
	textbuf_append(tb, "\"");
}

static bool refuse(const char *where, const char *key)
{
	cli_error("compile --format k8s: the SeccompProfile spec has no field for %s'%s'", where,
		  key);
	return false;
}

/* A JSON array of strings as a YAML block sequence at @indent. */
static bool strings(struct textbuf *tb, const char *key, struct json_object *v, const char *indent)
{
	if (!json_object_is_type(v, json_type_array))
		return refuse("a non-list ", key);
	textbuf_appendf(tb, "%s:\n", key);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		textbuf_appendf(tb, "%s- ", indent);
		scalar(tb, json_object_get_string(json_object_array_get_idx(v, i)));
		textbuf_append(tb, "\n");
	}
	return true;
}

static bool arg(struct textbuf *tb, struct json_object *a)
{
	const char *lead = "      - ";
	json_object_object_foreach(a, key, v)
	{
		if (!strcmp(key, "op")) {
			textbuf_appendf(tb, "%sop: ", lead);
			scalar(tb, json_object_get_string(v));
			textbuf_append(tb, "\n");
		} else if (!strcmp(key, "index") || !strcmp(key, "value") ||
			   !strcmp(key, "valueTwo")) {
			/* values are unsigned 64-bit; json-c keeps them exactly */
			textbuf_appendf(tb, "%s%s: %" PRIu64 "\n", lead, key, json_object_get_uint64(v));
		} else {
			return refuse("the argument field ", key);
		}
		lead = "        ";
	}
	return true;
}

static bool syscall(struct textbuf *tb, struct json_object *s)
{
	const char *lead = "  - ";
	json_object_object_foreach(s, key, v)
	{
		if (!strcmp(key, "comment")) { /* the operator has no field: a YAML comment keeps it */
			const char *c = json_object_get_string(v);
			textbuf_append(tb, "  # ");
			textbuf_appendn(tb, c, strcspn(c, "\n\r"));
			textbuf_append(tb, "\n");
			continue;
		}
		textbuf_append(tb, lead);
		lead = "    ";
		if (!strcmp(key, "names")) {
			if (!strings(tb, key, v, "    "))
				return false;
		} else if (!strcmp(key, "action")) {
			textbuf_append(tb, "action: ");
			scalar(tb, json_object_get_string(v));
			textbuf_append(tb, "\n");
		} else if (!strcmp(key, "errnoRet")) {
			textbuf_appendf(tb, "errnoRet: %" PRIu64 "\n", json_object_get_uint64(v));
		} else if (!strcmp(key, "args")) {
			if (!json_object_is_type(v, json_type_array))
				return refuse("a non-list ", key);
			textbuf_append(tb, "args:\n");
			for (size_t i = 0; i < json_object_array_length(v); i++)
				if (!arg(tb, json_object_array_get_idx(v, i)))
					return false;
		} else {
			return refuse("the syscall field ", key);
		}
	}
	return true;
}

static bool spec(struct textbuf *tb, struct json_object *root)
{
	json_object_object_foreach(root, key, v)
	{
		if (!strcmp(key, "defaultErrnoRet")) {
			/* runc's errno for an ERRNO action without one is EPERM, the operator's too */
			if (json_object_get_int64(v) == EPERM)
				continue;
			return refuse("", key);
		}
		textbuf_append(tb, "  ");
		if (!strcmp(key, "defaultAction") || !strcmp(key, "listenerPath") ||
		    !strcmp(key, "listenerMetadata")) {
			textbuf_appendf(tb, "%s: ", key);
			scalar(tb, json_object_get_string(v));
			textbuf_append(tb, "\n");
		} else if (!strcmp(key, "architectures") || !strcmp(key, "flags")) {
			if (!strings(tb, key, v, "  "))
				return false;
		} else if (!strcmp(key, "syscalls")) {
			if (!json_object_is_type(v, json_type_array))
				return refuse("a non-list ", key);
			textbuf_append(tb, "syscalls:\n");
			for (size_t i = 0; i < json_object_array_length(v); i++)
				if (!syscall(tb, json_object_array_get_idx(v, i)))
					return false;
		} else {
			return refuse("", key);
		}
	}
	return true;
}

int cli_oci_to_k8s(const char *json, const char *name, char **yaml)
{
	*yaml = NULL;
	struct json_object *root = json_tokener_parse(json);
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		cli_error("compile --format k8s: the OCI export is not a JSON object");
		return -EINVAL;
	}
	struct textbuf tb = TEXTBUF_INIT;
	textbuf_append(&tb, "apiVersion: security-profiles-operator.x-k8s.io/v1beta1\n"
			    "kind: SeccompProfile\n"
			    "metadata:\n"
			    "  name: ");
	scalar(&tb, name);
	textbuf_append(&tb, "\nspec:\n");
	bool ok = spec(&tb, root);
	json_object_put(root);
	int r = textbuf_finish(&tb, yaml);
	if (r == 0 && !ok) {
		free(*yaml);
		*yaml = NULL;
		r = -EINVAL;
	}
	return r;
}
