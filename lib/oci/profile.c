/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * From the JSON tree to a struct oci_profile.
 *
 * The rules are those of the Go decoder Docker and runc use: member names
 * match case-insensitively (the last one wins), unknown members are
 * ignored, null means "absent", numbers must be non-negative integers that
 * fit.  Every problem is reported with its position; reading goes on after
 * an error so that one run shows them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "internal.h"
#include "util/suggest.h"

#define PATH_KEY(parent, k) { (parent), (k), 0 }
#define PATH_INDEX(parent, i) { (parent), NULL, (i) }

struct reader {
	struct oci_doc *doc;
	bool oom;
};

/* --- generic helpers -------------------------------------------------------- */

/* Member @key, matched as Go does (case-insensitively, last wins); NULL if absent or null. */
static struct json_object *member(struct json_object *obj, const char *key)
{
	struct json_object *found = NULL;
	json_object_object_foreach(obj, k, v)
	{
		if (!strcasecmp(k, key))
			found = v;
	}
	return found;
}

/* Warns about members nobody reads, and about ones that only match ignoring case. */
static void check_keys(struct reader *rd, const struct oci_path *path, struct json_object *obj,
		       const char *const *known)
{
	json_object_object_foreach(obj, k, v)
	{
		(void)v;
		struct oci_path kp = PATH_KEY(path, k);
		const char *exact = NULL, *folded = NULL;
		struct suggest s;
		suggest_init(&s, k);
		for (size_t i = 0; known[i]; i++) {
			if (!strcmp(k, known[i]))
				exact = known[i];
			else if (!strcasecmp(k, known[i]))
				folded = known[i];
			suggest_consider(&s, known[i]);
		}
		if (exact)
			continue;
		if (folded) {
			oci_warn(rd->doc, &kp, true, NULL,
				 "read as '%s' (Go's JSON decoder ignores case in member names)",
				 folded);
			continue;
		}
		char hint[128] = "";
		if (suggest_result(&s))
			snprintf(hint, sizeof(hint), "did you mean '%s'?", suggest_result(&s));
		oci_warn(rd->doc, &kp, true, hint[0] ? hint : NULL,
			 "unknown member ignored (Docker and runc ignore it too)");
	}
}

static const char *type_word(json_type t)
{
	switch (t) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
	case json_type_int:
		return "a number";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "a value";
}

static bool expect_type(struct reader *rd, const struct oci_path *path, struct json_object *v,
			json_type type, const char *what)
{
	if (json_object_get_type(v) == type)
		return true;
	oci_error(rd->doc, path, NULL, "must be %s, not %s", what,
		  type_word(json_object_get_type(v)));
	return false;
}

/* A non-negative decimal integer up to @max, read from the text as Go reads it. */
static bool read_uint(struct reader *rd, const struct oci_path *path, struct json_object *v,
		      uint64_t max, uint64_t *out)
{
	json_type t = json_object_get_type(v);
	if (t != json_type_int && t != json_type_double) {
		oci_error(rd->doc, path, NULL, "must be a non-negative integer, not %s",
			  type_word(t));
		return false;
	}
	/* json-c's value is exact unless it was clamped: only then read the text */
	uint64_t fast = json_object_get_uint64(v);
	if (t == json_type_int && json_object_get_int64(v) >= 0 &&
	    (fast != UINT64_MAX || !rd->doc->huge_numbers)) {
		if (fast > max) {
			oci_error(rd->doc, path, NULL, "%llu does not fit (the largest value is %llu)",
				  (unsigned long long)fast, (unsigned long long)max);
			return false;
		}
		*out = fast;
		return true;
	}
	size_t pos = oci_locate(rd->doc->text, rd->doc->len, path, false);
	const char *s = rd->doc->text + pos;
	size_t n = 0;
	uint64_t value = 0;
	bool overflow = false;
	while (pos + n < rd->doc->len && s[n] >= '0' && s[n] <= '9') {
		unsigned d = (unsigned)(s[n] - '0');
		if (value > (UINT64_MAX - d) / 10)
			overflow = true;
		value = value * 10 + d;
		n++;
	}
	bool more = pos + n < rd->doc->len && strchr("-+.eE", s[n]) && s[n];
	if (n == 0 || more) {
		oci_error(rd->doc, path, NULL, "must be a non-negative integer");
		return false;
	}
	if (overflow || value > max) {
		oci_error(rd->doc, path, NULL, "%.*s does not fit (the largest value is %llu)",
			  (int)n, s, (unsigned long long)max);
		return false;
	}
	*out = value;
	return true;
}

static char *dup_string(struct reader *rd, const char *s)
{
	char *copy = strdup(s);
	if (!copy)
		rd->oom = true;
	return copy;
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* An array of strings (null: empty); empty strings refused when @nonempty. */
static void read_strings(struct reader *rd, const struct oci_path *path, struct json_object *v,
			 bool nonempty, char ***out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	if (!v || !expect_type(rd, path, v, json_type_array, "an array of strings"))
		return;
	size_t n = json_object_array_length(v);
	char **items = calloc(n ? n : 1, sizeof(*items));
	if (!items) {
		rd->oom = true;
		return;
	}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		struct json_object *item = json_object_array_get_idx(v, i);
		if (!item || !expect_type(rd, &ip, item, json_type_string, "a string"))
			continue;
		if (nonempty && !json_object_get_string_len(item)) {
			oci_error(rd->doc, &ip, NULL, "empty name");
			continue;
		}
		if ((items[kept] = dup_string(rd, json_object_get_string(item))))
			kept++;
	}
	*out = items;
	*nout = kept;
}

static bool read_action(struct reader *rd, const struct oci_path *path, struct json_object *v,
			enum oci_action *out)
{
	if (!expect_type(rd, path, v, json_type_string, "a string such as \"SCMP_ACT_ALLOW\""))
		return false;
	const char *name = json_object_get_string(v);
	if (oci_action_lookup(name, out) == 0)
		return true;
	const char *s = oci_action_suggest(name);
	char hint[96];
	snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
	oci_error(rd->doc, path, s ? hint : NULL, "unknown action '%s'", name);
	return false;
}

/*
 * libseccomp refuses SCMP_ACT_ERRNO(n) for n >= MAX_ERRNO (4095): its
 * db_action_valid() in 2.5 and 2.6, which seccomp_init() and
 * seccomp_rule_add() call (-EINVAL), so runc and crun fail to start the
 * container.  n is what runc hands over: the low 16 bits of the value.
 */
#define LIBSECCOMP_ERRNO_LIMIT 4095U

/* An ERRNO action with @value (read at @path) libseccomp would refuse: an error. */
static void check_errno_limit(struct reader *rd, const struct oci_path *path,
			      enum oci_action action, uint32_t value)
{
	if (action != OCI_ACT_ERRNO || (value & 0xffffU) < LIBSECCOMP_ERRNO_LIMIT)
		return;
	char low[48] = "";
	if (value > 0xffffU)
		snprintf(low, sizeof(low), " (runc passes the low 16 bits of %u)", (unsigned)value);
	oci_error(rd->doc, path, "an errno is at most 4094 here (4095 is MAX_ERRNO itself)",
		  "libseccomp refuses SCMP_ACT_ERRNO(%u)%s, so runc cannot load this profile",
		  (unsigned)(value & 0xffffU), low);
}

/* errnoRet and defaultErrnoRet: Go's *uint; runc keeps the low 16 bits and the kernel caps at 4095. */
static bool read_errno(struct reader *rd, const struct oci_path *path, struct json_object *v,
		       uint32_t *out)
{
	uint64_t value;
	if (!read_uint(rd, path, v, UINT32_MAX, &value))
		return false;
	/* (a low half of 4095 or more is an error for ERRNO actions: check_errno_limit()) */
	if (value > SCG_MAX_ERRNO && (value & 0xffffU) < LIBSECCOMP_ERRNO_LIMIT)
		oci_warn(rd->doc, path, false, NULL,
			 "%llu is not an errno: runc keeps the low 16 bits (%llu)",
			 (unsigned long long)value, (unsigned long long)(value & 0xffffU));
	*out = (uint32_t)value;
	return true;
}

/* Go's strconv.ParseUint(s, 10, 32): decimal digits only, at most 2^32 - 1. */
static bool parse_go_uint32(const char *s, uint32_t *out)
{
	uint64_t v = 0;
	for (const char *c = s; *c; c++) {
		if (*c < '0' || *c > '9' || (v = v * 10 + (uint64_t)(*c - '0')) > UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	return *s != '\0';
}

/* Is @name, exactly as written, an errno name of some ABI? */
static bool errno_name_known(const char *name)
{
	const char *s = scg_errno_suggest(name);
	return s && !strcmp(s, name);
}

/*
 * Podman's "errno" and "defaultErrno" (containers/common, getErrno()): a
 * decimal number, or an errno name as Go spells it ("EPERM"), numbered for
 * the host (resolve.c).  Given and not "", they win over errnoRet and
 * defaultErrnoRet.  Docker reads neither, hence the warning when both
 * kinds are there and may disagree.
 */
static void read_errno_text(struct reader *rd, const struct oci_path *path, struct json_object *v,
			    bool *has, uint32_t *value, char **name, const char *numeric_key)
{
	if (!expect_type(rd, path, v, json_type_string, "a string (an errno name or number)"))
		return;
	const char *s = json_object_get_string(v);
	uint32_t n;
	if (!*s)
		return; /* Podman: as if absent */
	bool number = parse_go_uint32(s, &n);
	if (!number && !errno_name_known(s)) {
		const char *near = scg_errno_suggest(s);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", near ? near : "");
		oci_error(rd->doc, path, near ? hint : NULL, "unknown errno '%s' (Podman refuses it)",
			  s);
		return;
	}
	/* a name the number matches on every ABI cannot disagree, whatever the host */
	char differs[96] = "";
	for (size_t i = 0; *has && !number && !differs[0] && i < scg_arch_count(); i++) {
		uint32_t e;
		if (scg_errno_lookup(scg_arch_at(i), s, &e) == 0 && e != *value)
			snprintf(differs, sizeof(differs), "%s is %u on a %s host", s, e,
				 scg_arch_name(scg_arch_at(i)));
	}
	if (*has && ((number && n != *value) || differs[0]))
		oci_warn(rd->doc, path, false, differs[0] ? differs : NULL,
			 "Podman uses \"%s\" here, Docker ignores it and uses %s (%u)", s,
			 numeric_key, *value);
	if (number && n > SCG_MAX_ERRNO && (n & 0xffffU) < LIBSECCOMP_ERRNO_LIMIT)
		oci_warn(rd->doc, path, false, NULL,
			 "%u is not an errno: runc keeps the low 16 bits (%u)", n, n & 0xffffU);
	*has = true;
	if (number) {
		*value = n;
	} else if (!(*name = dup_string(rd, s))) {
		*has = false;
	}
}

/* --- includes / excludes ---------------------------------------------------- */

static bool parse_kernel(const char *s, unsigned *major, unsigned *minor)
{
	/* Docker: fmt.Sscanf("%d.%d"); anything after the minor number is ignored */
	char *end;
	unsigned long ma = strtoul(s, &end, 10);
	if (end == s || *end != '.' || ma > 65535)
		return false;
	const char *m = end + 1;
	unsigned long mi = strtoul(m, &end, 10);
	if (end == m || mi > 65535 || *s == '-' || *s == '+' || *m == '-' || *m == '+' ||
	    *s == ' ' || *m == ' ')
		return false;
	*major = (unsigned)ma;
	*minor = (unsigned)mi;
	return true;
}

static void warn_unknown_caps(struct reader *rd, const struct oci_path *path,
			      const struct oci_filter *f)
{
	for (size_t i = 0; i < f->ncaps; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		int cap = oci_cap_lookup(f->caps[i]);
		if (cap >= 0 && !strcmp(f->caps[i], oci_cap_name(cap)))
			continue;
		const char *s = cap >= 0 ? oci_cap_name(cap) : oci_cap_suggest(f->caps[i]);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
		oci_warn(rd->doc, &ip, false, s ? hint : NULL,
			 "'%s' never matches: Docker compares capability names exactly",
			 f->caps[i]);
	}
}

static void read_filter(struct reader *rd, const struct oci_path *path, struct json_object *v,
			struct oci_filter *f)
{
	static const char *const keys[] = { "caps", "arches", "minKernel", NULL };
	if (!expect_type(rd, path, v, json_type_object, "an object"))
		return;
	check_keys(rd, path, v, keys);
	struct oci_path cp = PATH_KEY(path, "caps"), ap = PATH_KEY(path, "arches"),
			kp = PATH_KEY(path, "minKernel");
	read_strings(rd, &cp, member(v, "caps"), false, &f->caps, &f->ncaps);
	warn_unknown_caps(rd, &cp, f);
	read_strings(rd, &ap, member(v, "arches"), false, &f->arches, &f->narches);
	struct json_object *k = member(v, "minKernel");
	if (k && expect_type(rd, &kp, k, json_type_string, "a string such as \"4.8\"")) {
		const char *s = json_object_get_string(k);
		f->has_kernel = true; /* Docker: "" reads as version 0.0 */
		if (*s && !parse_kernel(s, &f->kmajor, &f->kminor))
			oci_error(rd->doc, &kp, "write it as \"<kernel>.<major>\", e.g. \"4.8\"",
				  "invalid kernel version '%s'", s);
	}
}

static void release_filter(struct oci_filter *f)
{
	free_strings(f->caps, f->ncaps);
	free_strings(f->arches, f->narches);
}

/* --- syscall entries ---------------------------------------------------------- */

static void read_arg(struct reader *rd, const struct oci_path *path, struct json_object *v,
		     struct oci_cmp *cmp)
{
	static const char *const keys[] = { "index", "value", "valueTwo", "op", NULL };
	struct oci_path ip = PATH_KEY(path, "index"), vp = PATH_KEY(path, "value"),
			v2p = PATH_KEY(path, "valueTwo"), op = PATH_KEY(path, "op");
	*cmp = (struct oci_cmp){ 0 };
	if (!expect_type(rd, path, v, json_type_object, "an object"))
		return;
	check_keys(rd, path, v, keys);
	uint64_t index = 0;
	struct json_object *m = member(v, "index");
	if (m && read_uint(rd, &ip, m, UINT64_MAX, &index) && index > 5)
		oci_error(rd->doc, &ip, "syscalls have at most six arguments",
			  "must be 0..5, not %llu", (unsigned long long)index);
	cmp->index = (uint8_t)(index > 5 ? 0 : index);
	if ((m = member(v, "value")))
		read_uint(rd, &vp, m, UINT64_MAX, &cmp->value);
	if ((m = member(v, "valueTwo")))
		read_uint(rd, &v2p, m, UINT64_MAX, &cmp->value_two);
	m = member(v, "op");
	if (!m) {
		oci_error(rd->doc, path, "add \"op\": \"SCMP_CMP_EQ\" (or NE, LT, LE, GE, GT, MASKED_EQ)",
			  "comparison without \"op\"");
		return;
	}
	if (!expect_type(rd, &op, m, json_type_string, "a string such as \"SCMP_CMP_EQ\""))
		return;
	const char *name = json_object_get_string(m);
	if (oci_op_lookup(name, &cmp->op) < 0) {
		const char *s = oci_op_suggest(name);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
		oci_error(rd->doc, &op, s ? hint : NULL, "unknown comparison '%s'", name);
		return;
	}
	if (cmp->op != OCI_OP_MASKED_EQ && cmp->value_two)
		oci_warn(rd->doc, &v2p, false, NULL,
			 "ignored: only SCMP_CMP_MASKED_EQ uses valueTwo");
}

static void read_args(struct reader *rd, const struct oci_path *path, struct json_object *v,
		      struct oci_entry *e)
{
	if (!v || !expect_type(rd, path, v, json_type_array, "an array"))
		return;
	size_t n = json_object_array_length(v);
	e->args = calloc(n ? n : 1, sizeof(*e->args));
	if (!e->args) {
		rd->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct oci_path ap = PATH_INDEX(path, i);
		read_arg(rd, &ap, json_object_array_get_idx(v, i), &e->args[i]);
	}
	e->nargs = n;
}

static void check_names(struct reader *rd, const struct oci_path *path, const struct oci_entry *e,
			bool singular)
{
	for (size_t i = 0; i < e->nnames; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		const struct oci_path *at = singular ? path : &ip;
		uint32_t nr;
		const struct scg_arch *native = scg_arch_native() ? scg_arch_native() : scg_arch_at(0);
		if (scg_syscall_lookup(native, e->names[i], &nr) != -ENOENT)
			continue;
		/* a suggestion weighs every name of the table: only for warnings that are shown */
		const char *s = rd->doc->warnings < OCI_MAX_REPORTS
					? scg_syscall_suggest(native, e->names[i])
					: NULL;
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
		oci_warn(rd->doc, at, false, s ? hint : NULL,
			 "no architecture has a syscall '%s': runc skips it", e->names[i]);
	}
}

static void read_names(struct reader *rd, const struct oci_path *path, struct json_object *v,
		       struct oci_entry *e)
{
	struct oci_path np = PATH_KEY(path, "names"), sp = PATH_KEY(path, "name");
	struct json_object *names = member(v, "names"), *name = member(v, "name");
	read_strings(rd, &np, names, true, &e->names, &e->nnames);
	check_names(rd, &np, e, false);
	if (!name || !expect_type(rd, &sp, name, json_type_string, "a string"))
		return;
	const char *s = json_object_get_string(name);
	if (!*s)
		return; /* Docker treats "name": "" as absent */
	if (e->nnames) {
		oci_error(rd->doc, &sp, "use either \"name\" or \"names\"",
			  "both \"name\" and \"names\" are given");
		return;
	}
	free(e->names);
	e->names = calloc(1, sizeof(*e->names));
	if (!e->names || !(e->names[0] = dup_string(rd, s))) {
		rd->oom = true;
		return;
	}
	e->nnames = 1;
	check_names(rd, &sp, e, true);
}

static void read_entry(struct reader *rd, const struct oci_path *path, struct json_object *v,
		       struct oci_entry *e)
{
	static const char *const keys[] = { "names",   "name",	   "action",   "errnoRet", "errno",
					    "args",    "comment",  "includes", "excludes", NULL };
	if (!expect_type(rd, path, v, json_type_object, "an object"))
		return;
	check_keys(rd, path, v, keys);
	read_names(rd, path, v, e);
	struct oci_path actp = PATH_KEY(path, "action"), ep = PATH_KEY(path, "errnoRet"),
			argp = PATH_KEY(path, "args"), inp = PATH_KEY(path, "includes"),
			exp = PATH_KEY(path, "excludes"), cp = PATH_KEY(path, "comment");
	struct json_object *m = member(v, "action");
	if (!m)
		oci_error(rd->doc, path, "add \"action\": \"SCMP_ACT_ALLOW\" (or another action)",
			  "entry without \"action\"");
	else
		read_action(rd, &actp, m, &e->action);
	if ((m = member(v, "errnoRet")) && read_errno(rd, &ep, m, &e->errno_ret))
		e->has_errno = true;
	struct oci_path enp = PATH_KEY(path, "errno");
	const struct oci_path *errno_at = &ep;
	if ((m = member(v, "errno"))) {
		uint32_t before = e->errno_ret;
		read_errno_text(rd, &enp, m, &e->has_errno, &e->errno_ret, &e->errno_name,
				"errnoRet");
		if (e->errno_ret != before)
			errno_at = &enp;
	}
	if (e->has_errno && !e->errno_name)
		check_errno_limit(rd, errno_at, e->action, e->errno_ret);
	read_args(rd, &argp, member(v, "args"), e);
	if ((m = member(v, "comment")))
		expect_type(rd, &cp, m, json_type_string, "a string");
	if ((m = member(v, "includes"))) {
		e->has_includes = true;
		read_filter(rd, &inp, m, &e->includes);
	}
	if ((m = member(v, "excludes"))) {
		e->has_excludes = true;
		read_filter(rd, &exp, m, &e->excludes);
	}
}

static void read_entries(struct reader *rd, const struct oci_path *path, struct json_object *v,
			 struct oci_profile *p)
{
	if (!v || !expect_type(rd, path, v, json_type_array, "an array of objects"))
		return;
	size_t n = json_object_array_length(v);
	p->entries = calloc(n ? n : 1, sizeof(*p->entries));
	if (!p->entries) {
		rd->oom = true;
		return;
	}
	p->nentries = n;
	/* every entry's position, found in one pass: rules keep them for explanations */
	struct scg_loc *locs = calloc(n ? n : 1, sizeof(*locs));
	if (!locs) {
		rd->oom = true;
		return;
	}
	oci_locate_elements(rd->doc->text, rd->doc->len, path, rd->doc->file, locs, n);
	for (size_t i = 0; i < n; i++)
		p->entries[i].loc = locs[i];
	free(locs);
	for (size_t i = 0; i < n; i++) {
		struct oci_path ep = PATH_INDEX(path, i);
		read_entry(rd, &ep, json_object_array_get_idx(v, i), &p->entries[i]);
	}
}

/* --- architectures ------------------------------------------------------------ */

static const struct scg_arch *read_arch(struct reader *rd, const struct oci_path *path,
					struct json_object *v)
{
	if (!expect_type(rd, path, v, json_type_string, "a string such as \"SCMP_ARCH_X86_64\""))
		return NULL;
	const char *name = json_object_get_string(v);
	const struct scg_arch *arch = oci_arch_lookup(name);
	if (!arch) {
		const char *s = oci_arch_suggest(name);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", s ? s : "");
		oci_error(rd->doc, path, s ? hint : NULL, "unknown architecture '%s'", name);
		return NULL;
	}
	if (!oci_arch_runc_knows(arch))
		oci_warn(rd->doc, path, false, NULL,
			 "runc does not accept '%s' (other OCI runtimes may)", name);
	return arch;
}

static void read_arch_list(struct reader *rd, const struct oci_path *path, struct json_object *v,
			   const struct scg_arch ***out, size_t *nout)
{
	if (!v || !expect_type(rd, path, v, json_type_array, "an array of strings"))
		return;
	size_t n = json_object_array_length(v);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out) {
		rd->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		const struct scg_arch *arch = read_arch(rd, &ip, json_object_array_get_idx(v, i));
		if (arch)
			(*out)[(*nout)++] = arch;
	}
}

static void read_archmap(struct reader *rd, const struct oci_path *path, struct json_object *v,
			 struct oci_profile *p)
{
	static const char *const keys[] = { "architecture", "subArchitectures", NULL };
	if (!v || !expect_type(rd, path, v, json_type_array, "an array of objects"))
		return;
	size_t n = json_object_array_length(v);
	p->archmap = calloc(n ? n : 1, sizeof(*p->archmap));
	if (!p->archmap) {
		rd->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		struct json_object *item = json_object_array_get_idx(v, i);
		if (!expect_type(rd, &ip, item, json_type_object, "an object"))
			continue;
		check_keys(rd, &ip, item, keys);
		struct oci_path ap = PATH_KEY(&ip, "architecture"), sp = PATH_KEY(&ip, "subArchitectures");
		struct json_object *a = member(item, "architecture");
		struct oci_archmap *m = &p->archmap[p->narchmap];
		if (!a) {
			oci_error(rd->doc, &ip, NULL, "archMap entry without \"architecture\"");
			continue;
		}
		if (!(m->arch = read_arch(rd, &ap, a)))
			continue;
		read_arch_list(rd, &sp, member(item, "subArchitectures"), &m->subs, &m->nsubs);
		p->narchmap++;
	}
}

/* --- the whole profile ------------------------------------------------------- */

static void read_flags(struct reader *rd, const struct oci_path *path, struct json_object *v)
{
	static const char *const known[] = { "SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG",
					     "SECCOMP_FILTER_FLAG_SPEC_ALLOW", NULL };
	char **flags;
	size_t n;
	read_strings(rd, path, v, false, &flags, &n);
	for (size_t i = 0; i < n; i++) {
		struct oci_path ip = PATH_INDEX(path, i);
		size_t k = 0;
		while (known[k] && strcmp(flags[i], known[k]))
			k++;
		if (known[k])
			continue;
		struct suggest s;
		suggest_init(&s, flags[i]);
		for (k = 0; known[k]; k++)
			suggest_consider(&s, known[k]);
		char hint[96];
		snprintf(hint, sizeof(hint), "did you mean '%s'?", suggest_result(&s));
		oci_error(rd->doc, &ip, suggest_result(&s) ? hint : NULL,
			  "runc does not know the flag '%s'", flags[i]);
	}
	free_strings(flags, n);
}

/* The seccomp object: the root itself, or linux.seccomp of a config.json. */
static struct json_object *seccomp_object(struct reader *rd, struct oci_path *at,
					  struct oci_path *linux_path)
{
	struct json_object *root = rd->doc->root;
	if (json_object_get_type(root) != json_type_object) {
		oci_error(rd->doc, NULL, NULL, "a seccomp profile is a JSON object, not %s",
			  type_word(json_object_get_type(root)));
		return NULL;
	}
	struct json_object *linux_obj = member(root, "linux");
	if (!linux_obj || member(root, "defaultAction") || member(root, "syscalls"))
		return root;
	*linux_path = (struct oci_path)PATH_KEY(NULL, "linux");
	*at = (struct oci_path)PATH_KEY(linux_path, "seccomp");
	struct json_object *seccomp = json_object_get_type(linux_obj) == json_type_object ?
					      member(linux_obj, "seccomp") :
					      NULL;
	if (!seccomp || json_object_get_type(seccomp) != json_type_object) {
		oci_error(rd->doc, linux_path, NULL,
			  "this config.json has no linux.seccomp object");
		return NULL;
	}
	return seccomp;
}

int oci_profile_read(struct oci_doc *doc, struct oci_profile *out)
{
	static const char *const keys[] = { "defaultAction", "defaultErrnoRet",  "defaultErrno",
					    "architectures", "archMap",		 "syscalls",
					    "flags",	     "listenerPath",	 "listenerMetadata",
					    NULL };
	struct reader rd = { doc, false };
	struct oci_path linux_path, at_storage;
	struct oci_path *at = NULL;
	*out = (struct oci_profile){ 0 };
	at_storage.parent = NULL;
	struct json_object *obj = seccomp_object(&rd, &at_storage, &linux_path);
	if (!obj)
		return -EINVAL;
	if (obj != doc->root)
		at = &at_storage;
	check_keys(&rd, at, obj, keys);
	struct oci_path dp = PATH_KEY(at, "defaultAction"), dep = PATH_KEY(at, "defaultErrnoRet"),
			ap = PATH_KEY(at, "architectures"), mp = PATH_KEY(at, "archMap"),
			sp = PATH_KEY(at, "syscalls"), fp = PATH_KEY(at, "flags");
	struct json_object *m = member(obj, "defaultAction");
	if (m && !(json_object_get_type(m) == json_type_string && !json_object_get_string_len(m)))
		out->has_default = read_action(&rd, &dp, m, &out->default_action);
	if (out->has_default)
		out->default_loc = oci_doc_loc(doc, &dp, true);
	if (member(obj, "architectures"))
		out->arches_loc = oci_doc_loc(doc, &ap, true);
	else if (member(obj, "archMap"))
		out->arches_loc = oci_doc_loc(doc, &mp, true);
	if ((m = member(obj, "defaultErrnoRet")) && read_errno(&rd, &dep, m, &out->default_errno))
		out->has_default_errno = true;
	struct oci_path denp = PATH_KEY(at, "defaultErrno");
	const struct oci_path *errno_at = &dep;
	if ((m = member(obj, "defaultErrno"))) {
		uint32_t before = out->default_errno;
		read_errno_text(&rd, &denp, m, &out->has_default_errno, &out->default_errno,
				&out->default_errno_name, "defaultErrnoRet");
		if (out->default_errno != before)
			errno_at = &denp;
	}
	if (out->has_default && out->has_default_errno && !out->default_errno_name)
		check_errno_limit(&rd, errno_at, out->default_action, out->default_errno);
	read_arch_list(&rd, &ap, member(obj, "architectures"), &out->arches, &out->narches);
	read_archmap(&rd, &mp, member(obj, "archMap"), out);
	read_entries(&rd, &sp, member(obj, "syscalls"), out);
	if ((m = member(obj, "flags")))
		read_flags(&rd, &fp, m);
	if (!out->has_default && out->nentries && !doc->errors)
		oci_error(doc, at, "add \"defaultAction\": \"SCMP_ACT_ERRNO\" (or another action)",
			  "the profile has syscall entries but no \"defaultAction\"");
	if (rd.oom)
		return -ENOMEM;
	return doc->errors ? -EINVAL : 0;
}

void oci_profile_release(struct oci_profile *p)
{
	for (size_t i = 0; i < p->nentries; i++) {
		struct oci_entry *e = &p->entries[i];
		free_strings(e->names, e->nnames);
		free(e->errno_name);
		free(e->args);
		release_filter(&e->includes);
		release_filter(&e->excludes);
	}
	for (size_t i = 0; i < p->narchmap; i++)
		free(p->archmap[i].subs);
	free(p->entries);
	free(p->default_errno_name);
	free(p->archmap);
	free(p->arches);
	*p = (struct oci_profile){ 0 };
}
