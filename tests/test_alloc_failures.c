// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every parser and writer under allocation failure: the test binary is
 * linked with --wrap=malloc,calloc,realloc, so the library's own calls go
 * through the counters of tests/alloc_fail.c.  Each input is read (or
 * written) once to count its allocations, then once per allocation with
 * that one failing.  Each run must give the undisturbed result or -ENOMEM,
 * never a different verdict on the input (an "unknown constant" because a
 * scratch list could not be allocated), never a shorter text with success,
 * and, under the sanitizer build, leak nothing.  Allocations libc makes for
 * itself (strdup, fopen, open_memstream) are not counted: they are covered
 * only when they succeed.  The OCI part is in test_alloc_failures_oci.c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "alloc_fail.h"

typedef int (*parse_fn)(const char *text, size_t len, struct scg_policy **out,
			struct scg_diag *diag);

struct parse_input {
	parse_fn parse;
	const char *text;
};

/* One parse; on success the outcome is the policy as text. */
static int run_parse(const void *input, struct outcome *out)
{
	const struct parse_input *in = input;
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *policy = NULL;
	alloc_arm();
	int r = in->parse(in->text, strlen(in->text), &policy, diag);
	alloc_disarm();
	scg_diag_free(diag);
	return outcome_policy(out, r, policy);
}

/*
 * Parses @text with each allocation failing in turn; returns how many runs
 * ran out of memory.  A parse that still succeeds must give the same
 * policy: a condition lost to a failed allocation would allow more than
 * the input.
 */
static long parse_each(parse_fn parse, const char *text, int expected)
{
	const struct parse_input in = { parse, text };
	return fail_each(run_parse, &in, expected);
}

static int parse_policy(const char *text, size_t len, struct scg_policy **out,
			struct scg_diag *diag)
{
	return scg_policy_parse(text, len, NULL, out, diag);
}

#define IMPORTER(name)                                                                      \
	static int parse_##name(const char *text, size_t len, struct scg_policy **out,      \
				struct scg_diag *diag)                                      \
	{                                                                                   \
		struct scg_import_options opts;                                             \
		scg_import_options_init(&opts);                                             \
		return scg_##name##_import(text, len, &opts, out, diag);                    \
	}
IMPORTER(kafel)
IMPORTER(minijail)
IMPORTER(systemd)
IMPORTER(firejail)

static void test_policy_language(void **state)
{
	(void)state;
	const char *good = "arch x86_64\n"
			   "default kill\n"
			   "allow read, write, close\n"
			   "allow openat if (flags & O_CREAT) == 0\n"
			   "errno(EACCES) socket if domain in {AF_INET, AF_INET6}\n"
			   "allow @signal\n";
	assert_true(parse_each(parse_policy, good, 0) > 0);
	assert_true(parse_each(parse_policy, "arch x86_64\nallow opneat\n", -EINVAL) > 0);
}

static void test_kafel(void **state)
{
	(void)state;
	const char *good = "#define MYFLAGS 0x42\n"
			   "POLICY p {\n"
			   "  ALLOW { read, write, close },\n"
			   "  ERRNO(1) { openat(dirfd, path, flags) { (flags & O_CREAT) == 0 } },\n"
			   "  ALLOW { mmap(addr, len, prot) { (prot & PROT_EXEC) == 0 && len != MYFLAGS } },\n"
			   "  ALLOW { close(fd) { !(fd == 3) } }\n"
			   "}\n"
			   "USE p DEFAULT KILL\n";
	assert_true(parse_each(parse_kafel, good, 0) > 0);
	assert_true(parse_each(parse_kafel, "POLICY p { ALLOW { read(fd) { fd == NO_SUCH } } }\n"
					   "USE p DEFAULT KILL\n",
			      -EINVAL) > 0);
}

static void test_minijail(void **state)
{
	(void)state;
	const char *good = "read: 1\n"
			   "write: arg0 == 1 || arg0 == 2\n"
			   "openat: arg2 & O_CREAT\n"
			   "socket: arg0 == AF_INET; return EACCES\n"
			   "close: 1\n";
	assert_true(parse_each(parse_minijail, good, 0) > 0);
	assert_true(parse_each(parse_minijail, "read: arg0 == NO_SUCH_CONSTANT\n", -EINVAL) > 0);
}

static void test_systemd(void **state)
{
	(void)state;
	const char *good = "[Service]\n"
			   "SystemCallFilter=@system-service\n"
			   "SystemCallFilter=~@mount\n"
			   "SystemCallErrorNumber=EPERM\n"
			   "RestrictAddressFamilies=AF_UNIX AF_INET\n";
	assert_true(parse_each(parse_systemd, good, 0) > 0);
	/* a deny list: a family lost to a failed allocation would be allowed */
	const char *deny = "[Service]\n"
			   "SystemCallFilter=~@mount @clock\n"
			   "SystemCallArchitectures=native\n"
			   "RestrictAddressFamilies=~AF_PACKET AF_NETLINK\n"
			   "RestrictNamespaces=~user net\n"
			   "MemoryDenyWriteExecute=yes\n"
			   "LockPersonality=yes\n";
	assert_true(parse_each(parse_systemd, deny, 0) > 0);
	assert_true(parse_each(parse_systemd, "[Service]\nSystemCallFilter=~@clok\n  not a setting\n",
			      -EINVAL) > 0);
}

static void test_firejail(void **state)
{
	(void)state;
	assert_true(parse_each(parse_firejail, "seccomp.drop mount,umount2,@clock\n", 0) > 0);
	assert_true(parse_each(parse_firejail, "seccomp.drop mount,@clock,@nosuch\n", -EINVAL) > 0);
}

/* --- the compiler and the assembler ------------------------------------- */

static void outcome_prog(struct outcome *out, const struct scg_prog *prog)
{
	outcome_bytes(out, prog->insns, prog->len * sizeof(*prog->insns));
}

/* Compiles the policy @input; the outcome is the program's bytes. */
static int run_compile(const void *input, struct outcome *out)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_prog prog = {0};
	alloc_arm();
	int r = scg_compile(input, NULL, &prog, diag);
	alloc_disarm();
	if (r == 0)
		outcome_prog(out, &prog);
	scg_prog_release(&prog);
	scg_diag_free(diag);
	return r;
}

/* A policy parsed from @text (no allocation fails). */
static struct scg_policy *policy_of(parse_fn parse, const char *text)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *policy = NULL;
	assert_int_equal(parse(text, strlen(text), &policy, diag), 0);
	scg_diag_free(diag);
	return policy;
}

/*
 * The compiler with each allocation failing: -ENOMEM or the very same
 * program, never a filter that decides differently.
 */
static void test_compile(void **state)
{
	(void)state;
	struct scg_policy *policy = policy_of(
		parse_policy, "arch x86_64, x32, i386\n"
			      "default errno(EPERM)\n"
			      "allow read, write, close, exit_group, futex, mmap, munmap\n"
			      "allow openat if (flags & O_CREAT) == 0\n"
			      "allow socket if domain in {AF_UNIX, AF_INET} && type == SOCK_STREAM\n"
			      "kill ptrace\n"
			      "allow @signal\n");
	assert_true(fail_each(run_compile, policy, 0) > 0);
	scg_policy_free(policy);
}

/* Assembles @input for x86_64; the outcome is the program's bytes. */
static int run_asm(const void *input, struct outcome *out)
{
	SCG_OPTS(scg_asm_options, opts, .arch = scg_arch_lookup("x86_64"), .filename = "t.s");
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_prog prog = {0};
	alloc_arm();
	int r = scg_asm(input, strlen(input), &opts, &prog, diag);
	alloc_disarm();
	if (r == 0)
		outcome_prog(out, &prog);
	else
		assert_null(prog.insns);
	scg_prog_release(&prog);
	scg_diag_free(diag);
	return r;
}

static void test_asm(void **state)
{
	(void)state;
	/* names, labels, comments, and a jump too far for one instruction (a trampoline) */
	char text[8192];
	char *p = text;
	p += sprintf(p, "/* deny open */\n"
			"\tld [arch]\n"
			"\tjne #AUDIT_ARCH_X86_64, kill\n"
			"\tld [nr]\n"
			"\tjeq #openat, deny\n"
			"\tjeq #open, deny, far ; far away\n");
	for (int i = 0; i < 300; i++)
		p += sprintf(p, "\tld [arg%d.lo]\n", i % 6);
	sprintf(p, "far:\tld [arg1]\n"
		   "\tjset #0x40, deny\n"
		   "\tret ALLOW\n"
		   "deny:\tret ERRNO(EACCES)\n"
		   "kill:\tret KILL_PROCESS\n");
	assert_true(fail_each(run_asm, text, 0) > 0);
	assert_true(fail_each(run_asm, "ld [nr]\njeq #opne, deny\nret ALLOW\nderp: ret #0\n",
			      -EINVAL) > 0);
}

/* --- fault-injection rules ------------------------------------------------ */

/* Parses the rule @input for x86_64 and i386; the outcome is every field of the rule. */
static int run_inject(const void *input, struct outcome *out)
{
	const struct scg_arch *arches[] = { scg_arch_lookup("x86_64"), scg_arch_lookup("x86") };
	struct scg_inject_options opts = { .arches = arches, .narches = 2 };
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_inject_rule *rule = NULL;
	alloc_arm();
	int r = scg_inject_rule_parse(input, &opts, &rule, diag);
	alloc_disarm();
	if (r == 0) {
		char *text = NULL, *match;
		size_t size;
		FILE *f = open_memstream(&text, &size);
		assert_non_null(f);
		fprintf(f, "%s\n", rule->text);
		for (size_t i = 0; i < rule->nsyscalls; i++)
			fprintf(f, "%s:%#x ", rule->syscalls[i], rule->abi_masks[i]);
		fprintf(f, "\nerror %d %u retval %d %lld signal %d\n", rule->has_error,
			rule->error, rule->has_retval, (long long)rule->retval, rule->signal);
		fprintf(f, "when %d %u %u %u\n", rule->has_when, rule->when.first,
			rule->when.last, rule->when.step);
		fprintf(f, "delay %d %u %d %u\n", rule->has_delay_enter, rule->delay_enter_us,
			rule->has_delay_exit, rule->delay_exit_us);
		for (size_t i = 0; i < rule->narches; i++)
			fprintf(f, "%s ", scg_arch_name(rule->arches[i]));
		fprintf(f, "\ncond %d %s %d\n", rule->has_cond, rule->cond ? rule->cond : "-",
			rule->cond_as_test);
		for (size_t i = 0; i < rule->npaths; i++)
			fprintf(f, "path %s\n", rule->paths[i]);
		assert_int_equal(scg_policy_to_text(rule->match, &match), 0);
		fprintf(f, "%s", match);
		free(match);
		assert_int_equal(fclose(f), 0);
		outcome_text(out, text);
	} else {
		assert_null(rule);
	}
	scg_inject_rule_free(rule);
	scg_diag_free(diag);
	return r;
}

static void test_inject_rule(void **state)
{
	(void)state;
	assert_true(fail_each(run_inject,
			      "openat,open,@signal:error=EACCES:when=2..10+3"
			      ":if=arg1 != 0 && path == \"out.log\"",
			      0) > 0);
	assert_true(fail_each(run_inject, "!read,write,%stat:retval=3:signal=SIGUSR1:when=4+", 0) >
		    0);
	assert_true(fail_each(run_inject, "openat,open:error=EACCES:if=flags & O_CRAET",
			      -EINVAL) > 0);
}

/* --- the audit log -------------------------------------------------------- */

#define REC "auid=4294967295 uid=0 gid=0 ses=4294967295 pid=4242 comm=\"prog\" " \
	    "exe=\"/usr/bin/prog\" sig=0 arch=c000003e syscall=39 compat=0 ip=0x7f0000001000 " \
	    "code=0x7ffc0000"

/* Reads the log @input; the outcome is every record kept and the counts. */
static int run_auditlog(const void *input, struct outcome *out)
{
	struct scg_audit_log_options opts = { .filename = "t.log", .exe = "/usr/bin/prog" };
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_audit_log *log = NULL;
	alloc_arm();
	int r = scg_audit_log_parse(input, strlen(input), &opts, &log, diag);
	alloc_disarm();
	if (r == 0) {
		char *text = NULL;
		size_t size;
		FILE *f = open_memstream(&text, &size);
		assert_non_null(f);
		for (size_t i = 0; i < scg_audit_log_count(log); i++) {
			const struct scg_audit_seccomp *e = scg_audit_log_at(log, i);
			fprintf(f, "%u: %s %#x %u %d %#x %ld %s %s\n", e->line,
				e->arch ? scg_arch_name(e->arch) : "-", e->audit_arch, e->nr,
				e->has_code, e->code, e->pid, e->comm, e->exe);
		}
		struct scg_audit_log_stats st;
		scg_audit_log_stats(log, &st);
		fprintf(f, "%zu %zu %zu %zu %zu %zu %zu\n", st.lines, st.records, st.kept,
			st.foreign, st.skipped, st.suppressed, st.lost_lines);
		assert_int_equal(fclose(f), 0);
		outcome_text(out, text);
	}
	scg_audit_log_free(log);
	scg_diag_free(diag);
	return r;
}

static void test_auditlog(void **state)
{
	(void)state;
	const char *good =
		"type=SECCOMP msg=audit(1796461154.992:471): " REC "\n"
		"[ 3142.136907] audit: type=1326 audit(1796461154.992:472): " REC "\r\n"
		"type=SECCOMP msg=audit(12/05/2026 08:59:09.992:471) : auid=unset uid=root "
		"pid=4242 comm=prog exe=/usr/bin/prog sig=0 arch=x86_64 syscall=uname "
		"compat=0 ip=0x7f0000001000 code=log\n"
		"type=1326 audit(1.2:3): pid=17 comm=6D792070726F67 exe=2F7573722F62696E2F70726F67 "
		"arch=40000003 syscall=20 code=0x80000000\n"
		"type=1326 audit(1.2:3): exe=\"/usr/bin/other\" arch=c000003e syscall=1\n"
		"type=1326 audit(1.2:3): exe=\"/usr/bin/prog\" arch=1234 syscall=1\n"
		"kauditd_printk_skb: 5 callbacks suppressed\n"
		"audit: audit_lost=3 audit_rate_limit=0 audit_backlog_limit=64\n"
		"something else\n";
	assert_true(fail_each(run_auditlog, good, 0) > 0);
	assert_true(fail_each(run_auditlog,
			      "type=1326 audit(1.2:3): " REC "\n"
			      "type=1326 audit(1.2:3): arch=x86_64 syscall=opne\n"
			      "type=1326 audit(1.2:3): comm=\"x arch=c000003e syscall=1\n",
			      -EINVAL) > 0);
}

/* --- writers -------------------------------------------------------------- */

typedef int (*export_fn)(const struct scg_policy *policy, char **text, struct scg_diag *diag);

struct export_input {
	export_fn export;
	const struct scg_policy *policy;
};

/* Writes the policy; the outcome is the text. */
static int run_export(const void *input, struct outcome *out)
{
	const struct export_input *in = input;
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	char *text = NULL;
	alloc_arm();
	int r = in->export(in->policy, &text, diag);
	alloc_disarm();
	if (r == 0)
		outcome_text(out, text);
	else
		assert_null(text);
	scg_diag_free(diag);
	return r;
}

/* Writes the policy @parse reads from @text with @export, each allocation failing in turn. */
static long export_each(export_fn export, parse_fn parse, const char *text, int expected)
{
	struct scg_policy *policy = policy_of(parse, text);
	const struct export_input in = { export, policy };
	long nomem = fail_each(run_export, &in, expected);
	scg_policy_free(policy);
	return nomem;
}

static int policy_to_text(const struct scg_policy *policy, char **text, struct scg_diag *diag)
{
	(void)diag;
	return scg_policy_to_text(policy, text);
}

/*
 * Each writer on a policy it can write, and on one it must refuse: a
 * refusal may be decided before any allocation that could fail, so it need
 * not run out of memory, but it must never turn into a text.
 */
static void test_writers(void **state)
{
	(void)state;
	assert_true(export_each(policy_to_text, parse_policy,
				"arch x86_64, x86\n"
				"default errno(EPERM)\n"
				"allow read, write, close\n"
				"allow openat if (flags & O_CREAT) == 0\n"
				"errno(EACCES) socket if domain in {AF_INET, AF_INET6}\n"
				"allow @signal\n",
				0) > 0);
	assert_true(export_each(scg_systemd_export, parse_systemd,
				"[Service]\n"
				"SystemCallFilter=~@mount @clock\n"
				"SystemCallErrorNumber=EPERM\n"
				"SystemCallArchitectures=native\n",
				0) > 0);
	export_each(scg_systemd_export, parse_policy,
				"arch x86_64, x32\ndefault allow\nbadarch kill-thread\nkill write if fd == 1\n",
				-EINVAL);
	assert_true(export_each(scg_minijail_export, parse_minijail,
				"read: 1\n"
				"write: arg0 == 1 || arg0 == 2\n"
				"openat: arg2 & O_CREAT\n"
				"socket: arg0 == AF_INET; return EACCES\n"
				"close: 1\n",
				0) > 0);
	export_each(scg_minijail_export, parse_policy,
				"arch x86_64, x86\ndefault allow\nkill ptrace\n", -EINVAL);
	assert_true(export_each(scg_kafel_export, parse_kafel,
				"POLICY p {\n"
				"  ERRNO(13) { openat(d, path, flags) { (flags & 3) != 0 || !(d < 100) } },\n"
				"  ALLOW { openat, write { fd == 1, fd == 2 }, lseek { offset > 4 } },\n"
				"  LOG { write }, TRAP(7) { uname, SYSCALL[0x1ff] }\n"
				"}\nUSE p DEFAULT ERRNO(1)\n",
				0) > 0);
	export_each(scg_kafel_export, parse_policy,
				"arch x86_64, x86\ndefault kill-thread\nbadarch kill-thread\n",
				-EINVAL);
}

/* --- learning ------------------------------------------------------------- */

enum learn_writer { LEARN_TEXT, LEARN_JSON };

struct learn_input {
	enum learn_writer writer;
	const struct scg_learn *learn;
};

static int run_learn(const void *input, struct outcome *out)
{
	const struct learn_input *in = input;
	SCG_OPTS(scg_learn_text_options, opts, .origin = "ls -l /");
	char *text = NULL;
	alloc_arm();
	int r = in->writer == LEARN_TEXT ? scg_learn_to_text(in->learn, &opts, &text)
					 : scg_learn_counts_json(in->learn, &text);
	alloc_disarm();
	if (r == 0)
		outcome_text(out, text);
	else
		assert_null(text);
	return r;
}

/* A call of @name on @arch with the first three arguments. */
static void record(struct scg_learn *learn, const char *arch, const char *name, uint64_t a0,
		   uint64_t a1, uint64_t a2)
{
	const struct scg_arch *a = scg_arch_lookup(arch);
	assert_non_null(a);
	struct scg_seccomp_data d = { .arch = scg_arch_audit(a), .args = { a0, a1, a2 } };
	if (name)
		assert_int_equal(scg_syscall_lookup(a, name, &d.nr), 0);
	else
		d.nr = 999; /* a number the table does not name */
	assert_int_equal(scg_learn_record(learn, &d), 0);
}

static void test_learn(void **state)
{
	(void)state;
	struct scg_learn *learn = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(learn);
	record(learn, "x86_64", "openat", (uint64_t)-100, 0x1000, 0x80000 /* O_CLOEXEC */);
	record(learn, "x86_64", "openat", (uint64_t)-100, 0x2000, 0x241);
	record(learn, "x86_64", "read", 3, 0x1000, 4096);
	record(learn, "x86_64", "mmap", 0, 4096, 3);
	for (uint64_t v = 0; v <= SCG_LEARN_MAX_VALUES; v++)
		record(learn, "x86_64", "personality", v, 0, 0);
	record(learn, "x86_64", NULL, 0, 0, 0);
	record(learn, "x86", "getpid", 0, 0, 0);
	record(learn, "x86", "rt_sigaction", 2, 0, 0);
	struct learn_input in = { LEARN_TEXT, learn };
	assert_true(fail_each(run_learn, &in, 0) > 0);
	in.writer = LEARN_JSON;
	assert_true(fail_each(run_learn, &in, 0) > 0);
	scg_learn_free(learn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_language),
		cmocka_unit_test(test_kafel),
		cmocka_unit_test(test_minijail),
		cmocka_unit_test(test_systemd),
		cmocka_unit_test(test_firejail),
		cmocka_unit_test(test_compile),
		cmocka_unit_test(test_asm),
		cmocka_unit_test(test_inject_rule),
		cmocka_unit_test(test_auditlog),
		cmocka_unit_test(test_writers),
		cmocka_unit_test(test_learn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
