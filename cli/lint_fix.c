/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lint's fixes in the input's own language: the engine words a fix for
 * policies and filters; a systemd unit's author needs the unit's settings,
 * an OCI profile's the JSON's fields, and so on.  The syscall a finding is
 * about is read from its message, whose forms the engine's checks write
 * (lib/analysis/lint.c).  A finding with no fix here keeps the engine's.
 */
#include <stdio.h>
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
		snprintf(buf, size, "use SCMP_ACT_KILL_PROCESS, not SCMP_ACT_KILL or "
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
		snprintf(buf, size,
			 "errno(ENOSYS) %s (the C library then makes the direct calls)", name);
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
		snprintf(buf, size, "add 'seccomp io_uring_setup,io_uring_enter,io_uring_register'");
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
