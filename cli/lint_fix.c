/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lint's fixes in the input's own language: the engine words a fix for
 * policies and filters; a systemd unit's author needs the unit's settings,
 * an OCI profile's the JSON's fields, and so on.  The syscall a finding is
 * about is read from its message, whose forms the engine's checks write
 * (lib/analysis/lint.c).  A finding with no fix here keeps the engine's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_fix.h"

/* The @n bytes between @before and @after in @msg (the first @before), or 0. */
static size_t between(const char *msg, const char *before, const char *after, char *buf,
		      size_t size)
{
	const char *a = strstr(msg, before);
	if (!a)
		return 0;
	a += strlen(before);
	const char *b = strstr(a, after);
	if (!b || b == a || (size_t)(b - a) >= size || memchr(a, ' ', (size_t)(b - a)))
		return 0;
	memcpy(buf, a, (size_t)(b - a));
	buf[b - a] = '\0';
	return (size_t)(b - a);
}

/* The syscall a finding is about: "on x86_64, NAME is allowed", "NAME's argument". */
static bool subject(const char *code, const char *msg, char *name, size_t size)
{
	if (!strcmp(code, "risky-syscall"))
		return between(msg, ", ", " is allowed", name, size);
	if (!strcmp(code, "multiplexer-bypass"))
		return between(msg, " but ", ", which", name, size);
	if (!strcmp(code, "int-compared-64"))
		return between(msg, ", ", "'s argument", name, size) ||
		       between(msg, ", ", " is allowed, but", name, size);
	return false;
}

static const char *systemd_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size, "add SystemCallFilter=~%s, or leave it out of the allow list",
			 name);
	else if (!strcmp(code, "multiplexer-bypass") && name[0])
		snprintf(buf, size,
			 "add SystemCallFilter=~%s:ENOSYS (the C library then makes the direct "
			 "calls)",
			 name);
	else if (!strcmp(code, "io-uring-bypass"))
		snprintf(buf, size,
			 "add SystemCallFilter=~io_uring_setup io_uring_enter io_uring_register");
	else if (!strcmp(code, "abi-bypass"))
		snprintf(buf, size, "set SystemCallArchitectures=native");
	else if (!strcmp(code, "kill-thread"))
		snprintf(buf, size,
			 "systemd leaves libseccomp's KILL_THREAD for calls of ABIs the unit does "
			 "not list; SystemCallArchitectures=native keeps them to the native one");
	else if (!strcmp(code, "unknown-not-enosys"))
		snprintf(buf, size,
			 "set SystemCallErrorNumber= (ENOSYS, or EPERM) so that a denied call "
			 "fails instead of killing the service");
	else if (!strcmp(code, "int-compared-64"))
		snprintf(buf, size,
			 "the comparison is systemd's own, from the setting on this line: no unit "
			 "setting makes it compare 32 bits");
	else
		return NULL;
	return buf;
}

static const char *oci_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size,
			 "take \"%s\" out of the \"names\" of the SCMP_ACT_ALLOW entries, or add "
			 "an entry that denies it",
			 name);
	else if (!strcmp(code, "multiplexer-bypass") && name[0])
		snprintf(buf, size,
			 "add {\"names\": [\"%s\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": "
			 "38} (ENOSYS: the C library then makes the direct calls)",
			 name);
	else if (!strcmp(code, "io-uring-bypass"))
		snprintf(buf, size,
			 "add {\"names\": [\"io_uring_setup\", \"io_uring_enter\", "
			 "\"io_uring_register\"], \"action\": \"SCMP_ACT_ERRNO\"}");
	else if (!strcmp(code, "abi-bypass"))
		snprintf(buf, size,
			 "list in \"architectures\" only the ABIs the rules are written for");
	else if (!strcmp(code, "kill-thread"))
		snprintf(buf, size,
			 "use SCMP_ACT_KILL_PROCESS, not SCMP_ACT_KILL or "
			 "SCMP_ACT_KILL_THREAD");
	else if (!strcmp(code, "unknown-not-enosys"))
		snprintf(buf, size,
			 "keep runc's ENOSYS answer for syscalls newer than the profile (do not "
			 "import with --no-enosys-stub)");
	else if (!strcmp(code, "int-compared-64"))
		snprintf(buf, size,
			 "runc compares the whole register, as libseccomp does; --int-args-32 "
			 "shows what the kernel's 32-bit reading would decide");
	else
		return NULL;
	return buf;
}

static const char *policy_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size, "deny it unless the program needs it: errno(EPERM) %s", name);
	else if (!strcmp(code, "multiplexer-bypass") && name[0])
		snprintf(buf, size, "errno(ENOSYS) %s (the C library then makes the direct calls)",
			 name);
	else if (!strcmp(code, "io-uring-bypass"))
		snprintf(buf, size,
			 "errno(ENOSYS) io_uring_setup, io_uring_enter, io_uring_register");
	else if (!strcmp(code, "abi-bypass"))
		snprintf(buf, size, "badarch kill-process, or give the other ABI the same rules");
	else if (!strcmp(code, "kill-thread"))
		snprintf(buf, size, "use kill-process");
	else if (!strcmp(code, "unknown-not-enosys"))
		snprintf(buf, size, "set `unknown errno(ENOSYS)`");
	else if (!strcmp(code, "int-compared-64"))
		snprintf(buf, size,
			 "compare only the low 32 bits: the parameter by its name, or argN.lo");
	else
		return NULL;
	return buf;
}

static const char *minijail_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size, "remove the '%s:' line, or write '%s: return 1' (EPERM)", name,
			 name);
	else if (!strcmp(code, "multiplexer-bypass") && name[0])
		snprintf(buf, size, "write '%s: return 38' (ENOSYS)", name);
	else
		return NULL;
	return buf;
}

static const char *kafel_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size, "leave %s out of ALLOW, or add ERRNO(1) { %s }", name, name);
	else if (!strcmp(code, "multiplexer-bypass") && name[0])
		snprintf(buf, size, "add ERRNO(38) { %s } (ENOSYS)", name);
	else if (!strcmp(code, "kill-thread"))
		snprintf(buf, size, "use KILL_PROCESS rather than KILL or KILL_THREAD");
	else
		return NULL;
	return buf;
}

static const char *firejail_fix(const char *code, const char *name, char *buf, size_t size)
{
	if (!strcmp(code, "risky-syscall") && name[0])
		snprintf(buf, size, "add 'seccomp %s' (or seccomp.drop %s)", name, name);
	else if (!strcmp(code, "io-uring-bypass"))
		snprintf(buf, size,
			 "add 'seccomp io_uring_setup,io_uring_enter,io_uring_register'");
	else
		return NULL;
	return buf;
}

const char *lint_fix(enum scg_input_format format, const struct scg_diag_entry *e, char *buf,
		     size_t size)
{
	if (!e->code)
		return NULL;
	char name[64] = "";
	if (!subject(e->code, e->message, name, sizeof(name)))
		name[0] = '\0';
	switch (format) {
	case SCG_INPUT_SYSTEMD:
		return systemd_fix(e->code, name, buf, size);
	case SCG_INPUT_OCI:
	case SCG_INPUT_K8S:
		return oci_fix(e->code, name, buf, size);
	case SCG_INPUT_POLICY:
		return policy_fix(e->code, name, buf, size);
	case SCG_INPUT_MINIJAIL:
		return minijail_fix(e->code, name, buf, size);
	case SCG_INPUT_KAFEL:
		return kafel_fix(e->code, name, buf, size);
	case SCG_INPUT_FIREJAIL:
		return firejail_fix(e->code, name, buf, size);
	case SCG_INPUT_AUTO:
	case SCG_INPUT_RAW:
	case SCG_INPUT_ASM:
		return NULL;
	}
	return NULL;
}

/* --- one finding per place for the syscalls a verdict allows ---------------- */

static bool same_place(const struct scg_loc *a, const struct scg_loc *b)
{
	return a->line == b->line && a->insn == b->insn &&
	       (a->file == b->file || (a->file && b->file && !strcmp(a->file, b->file)));
}

/* Whether the comma-separated @list holds @word. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-2] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* Appends @word to the comma-separated @list (of @size bytes) unless it is there. */
static void add_word(char *list, size_t size, const char *word)
{
	size_t n = strlen(word), len = strlen(list);
	if (has_word(list, word))
		return;
	if (len + n + 3 < size)
		snprintf(list + len, size - len, "%s%s", len ? ", " : "", word);
}

/* The fix for several risky syscalls, @names ("a, b"), in the input's language. */
static void group_fix(enum scg_input_format format, const char *names, char *buf, size_t size)
{
	char spaced[1024], quoted[1200];
	size_t s = 0, q = 0;
	quoted[q++] = '"';
	for (const char *p = names; *p && s + 2 < sizeof(spaced) && q + 4 < sizeof(quoted); p++) {
		bool sep = p[0] == ',' && p[1] == ' ';
		spaced[s++] = sep ? ' ' : *p;
		if (sep) {
			memcpy(quoted + q, "\", \"", 4);
			q += 4;
			p++;
		} else {
			quoted[q++] = *p;
		}
	}
	spaced[s] = '\0';
	quoted[q++] = '"';
	quoted[q] = '\0';
	switch (format) {
	case SCG_INPUT_SYSTEMD:
		snprintf(buf, size, "add SystemCallFilter=~%s, or leave them out of the allow list",
			 spaced);
		break;
	case SCG_INPUT_OCI:
	case SCG_INPUT_K8S:
		snprintf(buf, size,
			 "take them out of the \"names\" of the SCMP_ACT_ALLOW entries, or add an "
			 "entry that denies them: %s",
			 quoted);
		break;
	case SCG_INPUT_POLICY:
		snprintf(buf, size, "deny them unless the program needs them: errno(EPERM) %s",
			 names);
		break;
	case SCG_INPUT_MINIJAIL:
		snprintf(buf, size, "remove their lines, or make each 'NAME: return 1': %s", names);
		break;
	case SCG_INPUT_KAFEL:
		snprintf(buf, size, "leave them out of ALLOW, or add ERRNO(1) { %s }", names);
		break;
	case SCG_INPUT_FIREJAIL:
		snprintf(buf, size, "add 'seccomp %s'", names);
		break;
	case SCG_INPUT_AUTO:
	case SCG_INPUT_RAW:
	case SCG_INPUT_ASM:
		snprintf(buf, size, "deny them unless the sandboxed program needs them");
		break;
	}
}

struct scg_diag *lint_group(const struct scg_diag *diag, enum scg_input_format format)
{
	size_t n = scg_diag_count(diag);
	struct scg_diag *out = scg_diag_new();
	bool *done = calloc(n ? n : 1, sizeof(*done));
	for (size_t i = 0; out && done && i < n; i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (done[i])
			continue;
		bool risky = e->code && !strcmp(e->code, "risky-syscall");
		char abis[256] = "", names[1024] = "", reasons[4096] = "", word[64];
		size_t count = 0;
		for (size_t j = i; risky && j < n; j++) {
			const struct scg_diag_entry *f = scg_diag_get(diag, j);
			if (done[j] || !f->code || strcmp(f->code, "risky-syscall") ||
			    !same_place(&e->loc, &f->loc) || f->severity != e->severity)
				continue;
			done[j] = true;
			count++;
			if (between(f->message, "on ", ",", word, sizeof(word)))
				add_word(abis, sizeof(abis), word);
			if (between(f->message, ", ", " is allowed", word, sizeof(word)) &&
			    !has_word(names, word)) {
				add_word(names, sizeof(names), word);
				const char *why = strstr(f->message, " is allowed (");
				size_t len = strlen(reasons);
				snprintf(reasons + len, sizeof(reasons) - len, "%s%s%s",
					 len ? ", " : "", word,
					 why ? why + strlen(" is allowed") : "");
			}
		}
		/* one syscall on several ABIs: its findings as they are */
		if (risky && !strchr(names, ',')) {
			for (size_t j = i + 1; j < n; j++)
				if (done[j] && same_place(&e->loc, &scg_diag_get(diag, j)->loc))
					done[j] = false;
			count = 1;
		}
		/* the same finding at the same place (a KILL_THREAD setting's every RET) once */
		for (size_t j = i + 1; !risky && j < n; j++) {
			const struct scg_diag_entry *f = scg_diag_get(diag, j);
			if (!done[j] && e->code && f->code && !strcmp(e->code, f->code) &&
			    !strcmp(e->message, f->message) && same_place(&e->loc, &f->loc) &&
			    (!e->loc.file || e->loc.line))
				done[j] = true;
		}
		int r;
		if (risky && count > 1 && names[0]) {
			size_t nnames = 1;
			for (const char *p = names; (p = strchr(p, ',')); p++)
				nnames++;
			char fix[1400];
			group_fix(format, names, fix, sizeof(fix));
			char *last =
			    strrchr(abis, ','); /* "x86_64, x86, x32": "..., x86 and x32" */
			char tail[64] = "";
			if (last) {
				snprintf(tail, sizeof(tail), " and%s", last + 1);
				*last = '\0';
			}
			r = scg_diag_add(
			    out, e->severity, e->loc, e->code, fix,
			    "%zu syscalls that commonly break sandboxes are allowed on "
			    "%s%s: %s",
			    nnames, abis, tail, reasons);
		} else {
			r = scg_diag_add(out, e->severity, e->loc, e->code, e->hint, "%s",
					 e->message);
		}
		if (r < 0) {
			scg_diag_free(out);
			out = NULL;
		}
	}
	free(done);
	return out;
}
