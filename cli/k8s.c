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

/* A YAML scalar: plain where it is a bare word, else double-quoted. */
static void scalar(FILE *tb, const char *s)
{
	bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_./-") == strlen(s) &&
		     !strchr("-.0123456789", s[0]) && strcmp(s, "true") && strcmp(s, "false") &&
		     strcmp(s, "null") && strcmp(s, "yes") && strcmp(s, "no") && strcmp(s, "on") &&
		     strcmp(s, "off") && strcmp(s, "y") && strcmp(s, "n");
	if (plain) {
		fputs(s, tb);
		return;
	}
	fputs("\"", tb);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(tb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(tb, "\\x%02x", *p);
		else
			fputc(*p, tb);
	}
	fputs("\"", tb);
}

static bool refuse(const char *where, const char *key)
{
	cli_error("compile --format k8s: the SeccompProfile spec has no field for %s'%s'", where,
		  key);
	return false;
}

/* A JSON array of strings as a YAML block sequence at @indent. */
static bool strings(FILE *tb, const char *key, struct json_object *v, const char *indent)
{
	if (!json_object_is_type(v, json_type_array))
		return refuse("a non-list ", key);
	fprintf(tb, "%s:\n", key);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		fprintf(tb, "%s- ", indent);
		scalar(tb, json_object_get_string(json_object_array_get_idx(v, i)));
		fputs("\n", tb);
	}
	return true;
}

static bool arg(FILE *tb, struct json_object *a)
{
	const char *lead = "      - ";
	json_object_object_foreach(a, key, v)
	{
		if (!strcmp(key, "op")) {
			fprintf(tb, "%sop: ", lead);
			scalar(tb, json_object_get_string(v));
			fputs("\n", tb);
		} else if (!strcmp(key, "index") || !strcmp(key, "value") ||
			   !strcmp(key, "valueTwo")) {
			/* values are unsigned 64-bit; json-c keeps them exactly */
			fprintf(tb, "%s%s: %" PRIu64 "\n", lead, key, json_object_get_uint64(v));
		} else {
			return refuse("the argument field ", key);
		}
		lead = "        ";
	}
	return true;
}

static bool syscall(FILE *tb, struct json_object *s)
{
	const char *lead = "  - ";
	json_object_object_foreach(s, key, v)
	{
		if (!strcmp(key, "comment")) { /* the operator has no field: a YAML comment keeps it */
			const char *c = json_object_get_string(v);
			fputs("  # ", tb);
			fwrite(c, 1, strcspn(c, "\n\r"), tb);
			fputs("\n", tb);
			continue;
		}
		fputs(lead, tb);
		lead = "    ";
		if (!strcmp(key, "names")) {
			if (!strings(tb, key, v, "    "))
				return false;
		} else if (!strcmp(key, "action")) {
			fputs("action: ", tb);
			scalar(tb, json_object_get_string(v));
			fputs("\n", tb);
		} else if (!strcmp(key, "errnoRet")) {
			fprintf(tb, "errnoRet: %" PRIu64 "\n", json_object_get_uint64(v));
		} else if (!strcmp(key, "args")) {
			if (!json_object_is_type(v, json_type_array))
				return refuse("a non-list ", key);
			fputs("args:\n", tb);
			for (size_t i = 0; i < json_object_array_length(v); i++)
				if (!arg(tb, json_object_array_get_idx(v, i)))
					return false;
		} else {
			return refuse("the syscall field ", key);
		}
	}
	return true;
}

static bool spec(FILE *tb, struct json_object *root)
{
	json_object_object_foreach(root, key, v)
	{
		if (!strcmp(key, "defaultErrnoRet")) {
			/* runc's errno for an ERRNO action without one is EPERM, the operator's too */
			if (json_object_get_int64(v) == EPERM)
				continue;
			return refuse("", key);
		}
		fputs("  ", tb);
		if (!strcmp(key, "defaultAction") || !strcmp(key, "listenerPath") ||
		    !strcmp(key, "listenerMetadata")) {
			fprintf(tb, "%s: ", key);
			scalar(tb, json_object_get_string(v));
			fputs("\n", tb);
		} else if (!strcmp(key, "architectures") || !strcmp(key, "flags")) {
			if (!strings(tb, key, v, "  "))
				return false;
		} else if (!strcmp(key, "syscalls")) {
			if (!json_object_is_type(v, json_type_array))
				return refuse("a non-list ", key);
			fputs("syscalls:\n", tb);
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
	size_t len;
	FILE *tb = open_memstream(yaml, &len);
	if (!tb) {
		json_object_put(root);
		return -ENOMEM;
	}
	fputs("apiVersion: security-profiles-operator.x-k8s.io/v1beta1\n"
			    "kind: SeccompProfile\n"
			    "metadata:\n"
			    "  name: ", tb);
	scalar(tb, name);
	fputs("\nspec:\n", tb);
	bool ok = spec(tb, root);
	json_object_put(root);
	int r = cli_memstream_finish(tb, yaml);
	if (r == 0 && !ok) {
		free(*yaml);
		*yaml = NULL;
		r = -EINVAL;
	}
	return r;
}
