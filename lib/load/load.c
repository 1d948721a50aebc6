/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One loader for every input: what a file holds is told by its content
 * (binary data is a compiled filter; text is each format whose content it
 * fits), the name only settling a tie, and the formats are one table.  OCI
 * JSON and Kubernetes YAML are read through the caller's importer, so that
 * libsyscage needs no JSON library.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <syscage/asm.h>
#include <syscage/import.h>
#include <syscage/lang.h>
#include <syscage/load.h>

#include "bpf/asm_internal.h"
#include "util/opts.h"

/* --- detection ---------------------------------------------------------------- */

/* Binary: a NUL byte or a control character no text file holds. */
static bool is_binary(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] == 0 || (p[i] < 0x20 && !strchr("\t\n\v\f\r", p[i])) || p[i] == 0x7f)
			return true;
	return false;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The first word of each line that is not a comment, compared with the language's statements. */
static bool detect_policy(const char *text, size_t len)
{
	static const char *const words[] = {
	    "allow",   "kill", "kill-process", "kill-thread", "errno",	 "trap",
	    "trace",   "log",  "notify",       "action",      "default", "unknown",
	    "badarch", "arch", "include",      "use",	      NULL};
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		while (p < e && is_blank(*p))
			p++;
		size_t n = 0;
		while (p + n < e && (p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z')))
			n++;
		for (const char *const *w = words; *w && n; w++)
			if (strlen(*w) == n && !strncmp(p, *w, n) &&
			    (p + n == e || strchr(" \t(", p[n])))
				return true;
		p = e < end ? e + 1 : end;
	}
	return false;
}

static bool is_ident(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
	       (!first && c >= '0' && c <= '9');
}

/* Past blanks, comments (";", "//", a "#" line, block comments) and "label:" prefixes. */
static const char *asm_skip(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (is_blank(*p) || *p == '\n'))
			p++;
		if (p < end &&
		    (*p == ';' || *p == '#' || (*p == '/' && p + 1 < end && p[1] == '/'))) {
			const char *e = memchr(p, '\n', (size_t)(end - p));
			p = e ? e : end;
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < end ? q + 2 : end;
			continue;
		}
		const char *q = p;
		while (q < end && is_ident(*q, q == p))
			q++;
		if (q > p && q < end && *q == ':') {
			p = q + 1;
			continue;
		}
		return p;
	}
}

/* Assembler: the first statement is an instruction. */
static bool detect_asm(const char *text, size_t len)
{
	const char *end = text + len, *p = asm_skip(text, end), *q = p;
	while (q < end && is_ident(*q, q == p))
		q++;
	return q > p && (q == end || !is_ident(*q, false)) &&
	       asm_mnemonic_known(p, (size_t)(q - p));
}

/* The first character that is not white space, or 0. */
static char first_char(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			return text[i];
	return 0;
}

static bool detect_oci(const char *text, size_t len)
{
	return first_char(text, len) == '{';
}

/* A line that starts with @key at column 1. */
static bool has_top_key(const char *text, size_t len, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = text, *end = text + len; p < end;) {
		if ((size_t)(end - p) >= n && !strncmp(p, key, n))
			return true;
		const char *e = memchr(p, '\n', (size_t)(end - p));
		p = e ? e + 1 : end;
	}
	return false;
}

/* A Kubernetes object in YAML: apiVersion: and kind: at the top level. */
static bool detect_k8s(const char *text, size_t len)
{
	return has_top_key(text, len, "apiVersion:") && has_top_key(text, len, "kind:");
}

/* --- reading ------------------------------------------------------------------- */

/* Makes @arches (when given) the policy's exact targets. */
static int set_targets(struct scg_policy *p, const struct scg_arch *const *arches, size_t n)
{
	if (n == 0)
		return 0;
	while (scg_policy_arch_count(p))
		scg_policy_remove_arch(p, scg_policy_arch_at(p, 0));
	for (size_t i = 0; i < n; i++) {
		int r = scg_policy_add_arch(p, arches[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

static const char *name_of(const struct scg_load_options *o)
{
	return o->filename ? o->filename : "<stdin>";
}

static int read_raw(const char *data, size_t len, const struct scg_load_options *o,
		    struct scg_input *out, struct scg_diag *diag)
{
	return scg_prog_from_raw(data, len, name_of(o), &out->prog, diag);
}

static int read_asm(const char *data, size_t len, const struct scg_load_options *o,
		    struct scg_input *out, struct scg_diag *diag)
{
	/* a header naming the file's ABI wins over @arch, which names the words of others */
	SCG_OPTS(scg_asm_options, ao, .arch = o->arch, .filename = name_of(o), .arch_is_default = true);
	return scg_asm(data, len, &ao, &out->prog, diag);
}

static int read_policy(const char *data, size_t len, const struct scg_load_options *o,
		       struct scg_input *out, struct scg_diag *diag)
{
	SCG_OPTS(scg_policy_source_options, po, .filename = o->filename,
		 .arches = o->narches ? o->arches : NULL, .narches = o->narches);
	return scg_policy_parse(data, len, &po, &out->policy, diag);
}

typedef int (*importer_fn)(const char *text, size_t len, const struct scg_import_options *o,
			   struct scg_policy **out, struct scg_diag *diag);

static int run_importer(importer_fn import, const char *text, size_t len,
			const struct scg_load_options *o, struct scg_input *out,
			struct scg_diag *diag)
{
	struct scg_import_options io;
	scg_import_options_init(&io);
	io.filename = name_of(o);
	return import(text, len, &io, &out->policy, diag);
}

static int read_systemd(const char *data, size_t len, const struct scg_load_options *o,
			struct scg_input *out, struct scg_diag *diag)
{
	return run_importer(scg_systemd_import, data, len, o, out, diag);
}

static int read_minijail(const char *data, size_t len, const struct scg_load_options *o,
			 struct scg_input *out, struct scg_diag *diag)
{
	return run_importer(scg_minijail_import, data, len, o, out, diag);
}

static int read_kafel(const char *data, size_t len, const struct scg_load_options *o,
		      struct scg_input *out, struct scg_diag *diag)
{
	return run_importer(scg_kafel_import, data, len, o, out, diag);
}

static int read_firejail(const char *data, size_t len, const struct scg_load_options *o,
			 struct scg_input *out, struct scg_diag *diag)
{
	return run_importer(scg_firejail_import, data, len, o, out, diag);
}

/* OCI JSON and Kubernetes YAML, through the caller's importer. */
static int read_side(enum scg_input_format f, const char *data, size_t len,
		     const struct scg_load_options *o, struct scg_input *out, struct scg_diag *diag)
{
	if (!o->import) {
		scg_diag_add(diag, SCG_SEV_ERROR, (struct scg_loc){.file = name_of(o), .insn = -1},
			     "input-no-reader", "libsyscage-oci reads it (scg_oci_import())",
			     "%s: this program has no reader for it", scg_input_format_summary(f));
		return -EINVAL;
	}
	return o->import(f, data, len, name_of(o), o->import_ctx, &out->policy, diag);
}

static int read_oci(const char *data, size_t len, const struct scg_load_options *o,
		    struct scg_input *out, struct scg_diag *diag)
{
	return read_side(SCG_INPUT_OCI, data, len, o, out, diag);
}

static int read_k8s(const char *data, size_t len, const struct scg_load_options *o,
		    struct scg_input *out, struct scg_diag *diag)
{
	return read_side(SCG_INPUT_K8S, data, len, o, out, diag);
}

/* The formats, in enum order; a new one is a row here. */
static const struct format {
	const char *name, *summary;
	bool (*detect)(const char *text, size_t len); /* NULL: raw, told by being binary */
	int (*read)(const char *data, size_t len, const struct scg_load_options *o,
		    struct scg_input *out, struct scg_diag *diag);
	const char *suffixes[6];
} formats[SCG_INPUT_FORMATS + 1] = {
    [SCG_INPUT_AUTO] = {"auto", "told by the content", NULL, NULL, {NULL}},
    [SCG_INPUT_RAW] = {"raw", "a compiled filter", NULL, read_raw, {".bpf"}},
    [SCG_INPUT_ASM] = {"asm", "assembler", detect_asm, read_asm, {".s", ".asm"}},
    [SCG_INPUT_POLICY] = {"policy", "the policy language", detect_policy, read_policy, {".policy"}},
    [SCG_INPUT_OCI] = {"oci", "OCI/Docker/Podman JSON", detect_oci, read_oci, {".json"}},
    [SCG_INPUT_K8S] = {"k8s", "Kubernetes YAML", detect_k8s, read_k8s, {".yaml", ".yml"}},
    [SCG_INPUT_SYSTEMD] = {"systemd",
			   "systemd unit settings",
			   scg_systemd_detect,
			   read_systemd,
			   {".service", ".socket", ".mount", ".swap", ".conf"}},
    [SCG_INPUT_MINIJAIL] = {"minijail",
			    "a minijail policy",
			    scg_minijail_detect,
			    read_minijail,
			    {"-seccomp.policy", ".minijail"}},
    [SCG_INPUT_KAFEL] = {"kafel", "a kafel policy", scg_kafel_detect, read_kafel, {".kafel"}},
    [SCG_INPUT_FIREJAIL] = {"firejail",
			    "firejail options",
			    scg_firejail_detect,
			    read_firejail,
			    {".profile", ".inc", ".local"}},
};

const char *scg_input_format_name(enum scg_input_format format)
{
	return (unsigned)format <= SCG_INPUT_FORMATS ? formats[format].name : NULL;
}

const char *scg_input_format_summary(enum scg_input_format format)
{
	return (unsigned)format <= SCG_INPUT_FORMATS ? formats[format].summary : "?";
}

int scg_input_format_parse(const char *name, enum scg_input_format *out)
{
	if (name && !strcmp(name, "bpf")) {
		*out = SCG_INPUT_RAW;
		return 0;
	}
	for (unsigned i = 0; name && i <= SCG_INPUT_FORMATS; i++) {
		if (!strcmp(formats[i].name, name)) {
			*out = (enum scg_input_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool scg_input_format_is_filter(enum scg_input_format format)
{
	return format == SCG_INPUT_RAW || format == SCG_INPUT_ASM;
}

/* How many bytes of @name the longest suffix of format @f matches (0: none). */
static size_t suffix_match(unsigned f, const char *name)
{
	size_t best = 0, ln = name ? strlen(name) : 0;
	for (const char *const *s = formats[f].suffixes; *s && s < formats[f].suffixes + 6; s++) {
		size_t ls = strlen(*s);
		if (ln > ls && ls > best && !strcmp(name + ln - ls, *s))
			best = ls;
	}
	return best;
}

/* The format @name's suffix names (SCG_INPUT_AUTO: none), among the @n in @among (all when 0). */
static enum scg_input_format named(const char *name, const unsigned *among, size_t n)
{
	size_t best = 0;
	unsigned f = SCG_INPUT_AUTO;
	for (unsigned i = 1; i <= SCG_INPUT_FORMATS; i++) {
		bool in = n == 0;
		for (size_t j = 0; j < n; j++)
			in |= among[j] == i;
		size_t m = in ? suffix_match(i, name) : 0;
		if (m > best) {
			best = m;
			f = i;
		}
	}
	return (enum scg_input_format)f;
}

enum scg_input_format scg_input_format_of_name(const char *name)
{
	return name ? named(name, NULL, 0) : SCG_INPUT_AUTO;
}

bool scg_input_name_is_file(const char *name)
{
	static const char *const generic[] = { ".txt", ".bin" }; /* files of no one format */
	if (!name)
		return false;
	if (!strcmp(name, "-") || strchr(name, '/') || named(name, NULL, 0) != SCG_INPUT_AUTO)
		return true;
	size_t ln = strlen(name);
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		size_t ls = strlen(generic[i]);
		if (ln > ls && !strcmp(name + ln - ls, generic[i]))
			return true;
	}
	return false;
}

/* "a (x), b (y) or c (z)": every format, in words and by name, onto @buf. */
static void list_formats(char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t i = 1, len = 0; i <= SCG_INPUT_FORMATS && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s (%s)",
					i == 1			 ? ""
					: i == SCG_INPUT_FORMATS ? " or "
								 : ", ",
					formats[i].summary, formats[i].name);
}

int scg_input_detect(const void *data, size_t len, const char *filename, enum scg_input_format *out,
		     struct scg_diag *diag)
{
	const char *text = data, *name = filename ? filename : "<stdin>";
	struct scg_loc loc = {.file = name, .insn = -1};
	*out = SCG_INPUT_AUTO;
	unsigned fits[SCG_INPUT_FORMATS];
	size_t n = 0;
	for (unsigned i = 1; i <= SCG_INPUT_FORMATS; i++)
		if (formats[i].detect && formats[i].detect(text, len))
			fits[n++] = i;
	if (is_binary(data, len)) {
		/* a text file with a stray NUL byte, named as what it fits, goes to its reader,
		 * which says where the byte is; any other binary data is a compiled filter */
		enum scg_input_format f = named(filename, fits, n);
		*out = n && f != SCG_INPUT_AUTO ? f : SCG_INPUT_RAW;
		return 0;
	}
	char list[512];
	if (n == 1) {
		*out = (enum scg_input_format)fits[0];
		return 0;
	}
	enum scg_input_format by_name = named(filename, n ? fits : NULL, n);
	if (by_name != SCG_INPUT_AUTO && by_name != SCG_INPUT_RAW) {
		*out = by_name;
		return 0;
	}
	if (n == 0) {
		list_formats(list, sizeof(list));
		scg_diag_add(
		    diag, SCG_SEV_ERROR, loc, "input-format-unknown",
		    scg_hint_text(SCG_HINT_NAME_FORMAT),
		    first_char(text, len) ? "no filter or policy syscage reads: tried %s"
					  : "empty: no filter or policy in it (tried %s)",
		    list);
		return -EINVAL;
	}
	list[0] = '\0';
	for (size_t i = 0, l = 0; i < n && l < sizeof(list); i++)
		l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "",
				      formats[fits[i]].name);
	scg_diag_add(diag, SCG_SEV_ERROR, loc, "input-format-ambiguous",
		     scg_hint_text(SCG_HINT_CHOOSE_FORMAT),
		     "the content fits several input formats (%s)",
		     list);
	return -EINVAL;
}

int scg_input_load(const void *data, size_t len, const struct scg_load_options *opts,
		   struct scg_input *out, struct scg_diag *diag)
{
	*out = (struct scg_input){0};
	struct scg_load_options o;
	int r = opts_load(&o, sizeof(o), opts, sizeof(o));
	if (r < 0)
		return r;
	enum scg_input_format f = o.format;
	if ((unsigned)f > SCG_INPUT_FORMATS)
		return -EINVAL;
	if (f == SCG_INPUT_AUTO && (r = scg_input_detect(data, len, o.filename, &f, diag)) < 0)
		return r;
	struct scg_input in = {.format = f};
	r = formats[f].read(data, len, &o, &in, diag);
	if (r == 0 && in.policy && f != SCG_INPUT_POLICY)
		r = set_targets(in.policy, o.arches, o.narches);
	if (r < 0) {
		scg_input_release(&in);
		return r;
	}
	*out = in;
	return 0;
}

void scg_input_release(struct scg_input *in)
{
	if (!in)
		return;
	scg_policy_free(in->policy);
	scg_prog_release(&in->prog);
	*in = (struct scg_input){0};
}
