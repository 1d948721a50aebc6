/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy language: every statement and expression form, evaluated
 * through scg_policy_eval() on sample calls; diagnostics with their exact
 * positions and hints; composition with temporary files; limits; and the
 * text round trip (parse -> text -> parse gives the same verdicts).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "libseccomp/high_numbers.h"
#include "support/diag_print.h"
#include "support/polgen.h"
#include "support/poltext.h"
#include "support/scale.h"

#define EPERM_RET (SCG_RET_ERRNO | 1)

/* --- helpers ---------------------------------------------------------------- */

static struct scg_diag *last_diag;

static int parse_with(const char *text, const struct scg_policy_source_options *opts,
		      struct scg_policy **out)
{
	scg_diag_free(last_diag);
	last_diag = scg_diag_new();
	assert_non_null(last_diag);
	return scg_policy_parse(text, strlen(text), opts, out, last_diag);
}

/* Parses @text; it must succeed without errors (warnings are allowed). */
static struct scg_policy *parse_ok(const char *text)
{
	struct scg_policy *p = NULL;
	int r = parse_with(text, NULL, &p);
	if (r != 0)
		test_print_diag(last_diag);
	assert_int_equal(r, 0);
	assert_non_null(p);
	return p;
}

/* Parses @text; it must succeed without any diagnostic at all. */
static struct scg_policy *parse_clean(const char *text)
{
	struct scg_policy *p = parse_ok(text);
	if (scg_diag_count(last_diag))
		test_print_diag(last_diag);
	assert_int_equal(scg_diag_count(last_diag), 0);
	return p;
}

static const struct scg_diag_entry *find_diag(enum scg_severity sev, unsigned line, unsigned col,
					      const char *msg)
{
	for (size_t i = 0; i < scg_diag_count(last_diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(last_diag, i);
		if (e->severity == sev && e->loc.line == line && e->loc.column == col &&
		    strstr(e->message, msg))
			return e;
	}
	test_print_diag(last_diag);
	fail_msg("no %s at %u:%u containing \"%s\"", scg_severity_name(sev), line, col, msg);
	return NULL;
}

/* @text must fail with an error at @line:@col whose message and hint contain the given parts. */
static void expect_error(const char *text, unsigned line, unsigned col, const char *msg,
			 const char *hint)
{
	struct scg_policy *p = (struct scg_policy *)1;
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	assert_null(p);
	const struct scg_diag_entry *e = find_diag(SCG_SEV_ERROR, line, col, msg);
	if (hint) {
		assert_non_null(e->hint);
		if (!strstr(e->hint, hint))
			fail_msg("hint \"%s\" lacks \"%s\"", e->hint, hint);
	}
}

static void expect_warning(const char *text, unsigned line, unsigned col, const char *msg)
{
	struct scg_policy *p = parse_ok(text);
	find_diag(SCG_SEV_WARNING, line, col, msg);
	scg_policy_free(p);
}

static uint32_t nr_of(const char *arch, const char *name)
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup(arch), name, &nr), 0);
	return nr;
}

static uint32_t eval6(const struct scg_policy *p, const char *arch, uint32_t nr,
		      const uint64_t args[6])
{
	struct scg_seccomp_data d = {.nr = nr, .arch = scg_arch_audit(scg_arch_lookup(arch))};
	memcpy(d.args, args, sizeof(d.args));
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

/* The verdict for syscall @name on @arch with the first arguments given. */
static uint32_t verdict(const struct scg_policy *p, const char *arch, const char *name, uint64_t a0,
			uint64_t a1, uint64_t a2)
{
	uint64_t args[6] = {a0, a1, a2, 0, 0, 0};
	return eval6(p, arch, nr_of(arch, name), args);
}

/* --- the example of the reference ---------------------------------------------- */

static const char issue_example[] =
    "# comment\n"
    "default errno(EPERM)              # verdict for a known ABI when no rule matches\n"
    "allow read, write, close, exit_group\n"
    "errno(ENOENT) open\n"
    "kill ptrace                       # kill = KILL_PROCESS\n"
    "allow socket if arg0 == AF_UNIX || arg0 == AF_INET\n"
    "allow mmap if (arg2 & PROT_EXEC) == 0\n"
    "allow ioctl if arg1 in {TCGETS, FIONREAD}\n"
    "allow personality if arg0 == 0xffffffff\n";

static void test_example(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean(issue_example);
	assert_int_equal(scg_policy_arch_count(p), 3); /* x86_64, x86, x32 on this machine */
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x32", "write", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86", "close", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "open", 0, 0, 0), SCG_RET_ERRNO | 2);
	assert_int_equal(verdict(p, "x86_64", "ptrace", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "x86_64", "socket", 1, 1, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "socket", 2, 1, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "socket", 10, 1, 0), EPERM_RET);
	assert_int_equal(verdict(p, "x86_64", "mmap", 0, 4096, 3), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "mmap", 0, 4096, 5), EPERM_RET);
	assert_int_equal(verdict(p, "x86_64", "ioctl", 1, 0x5401, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "ioctl", 1, 0x541b, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "ioctl", 1, 0x5412, 0), EPERM_RET);
	assert_int_equal(verdict(p, "x86_64", "personality", 0xffffffff, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "personality", 0, 0, 0), EPERM_RET);
	/* arg0 compares all 64 bits by default */
	assert_int_equal(verdict(p, "x86_64", "personality", ~0ULL, 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "x86_64", "getpid", 0, 0, 0), EPERM_RET);
	/* another ABI is not a target: the default badarch verdict kills */
	assert_int_equal(verdict(p, "aarch64", "read", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
}

/* --- actions --------------------------------------------------------------------- */

static void test_actions(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		uint32_t ret;
	} cases[] = {
	    {"allow", SCG_RET_ALLOW},
	    {"kill", SCG_RET_KILL_PROCESS},
	    {"kill-process", SCG_RET_KILL_PROCESS},
	    {"kill-thread", SCG_RET_KILL_THREAD},
	    {"log", SCG_RET_LOG},
	    {"notify", SCG_RET_USER_NOTIF},
	    {"errno(EPERM)", SCG_RET_ERRNO | 1},
	    {"errno(13)", SCG_RET_ERRNO | 13},
	    {"errno(0x26)", SCG_RET_ERRNO | 38},
	    {"errno(ENOSYS)", SCG_RET_ERRNO | 38},
	    {"trap", SCG_RET_TRAP},
	    {"trap(7)", SCG_RET_TRAP | 7},
	    {"trace", SCG_RET_TRACE},
	    {"trace(0xffff)", SCG_RET_TRACE | 0xffff},
	    {"action(0x7fff0001)", 0x7fff0001},
	    {"action(0x12345678)", 0x12345678},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128];
		snprintf(text, sizeof(text), "default errno(EPERM)\n%s getpid\n", cases[i].text);
		struct scg_policy *p = parse_clean(text);
		assert_int_equal(verdict(p, "x86_64", "getpid", 0, 0, 0), cases[i].ret);
		scg_policy_free(p);
		/* and as a setting */
		snprintf(text, sizeof(text), "default %s\nbadarch %s\nunknown %s\n", cases[i].text,
			 cases[i].text, cases[i].text);
		p = parse_clean(text);
		assert_int_equal(scg_policy_default(p), cases[i].ret);
		assert_int_equal(scg_policy_badarch(p), cases[i].ret);
		uint32_t unknown = 0;
		assert_true(scg_policy_unknown(p, &unknown));
		assert_int_equal(unknown, cases[i].ret);
		scg_policy_free(p);
	}
}

static void test_errno_per_abi(void **state)
{
	(void)state;
	/* ENOSYS is 38 in the generic numbering and 89 on MIPS */
	struct scg_policy *p = parse_clean("arch x86_64, mips\nerrno(ENOSYS) read\n");
	assert_int_equal(scg_policy_rule_count(p), 2);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_ERRNO | 38);
	assert_int_equal(verdict(p, "mips", "read", 0, 0, 0), SCG_RET_ERRNO | 89);
	scg_policy_free(p);
	/* a setting holds one value: the name is refused, the number accepted */
	expect_error("arch x86_64, mips\ndefault errno(ENOSYS)\n", 2, 15, "89 on mips", "number");
	p = parse_clean("arch x86_64, mips\ndefault errno(38)\n");
	assert_int_equal(scg_policy_default(p), SCG_RET_ERRNO | 38);
	scg_policy_free(p);
}

/* --- conditions ------------------------------------------------------------------ */

static void test_comparisons(void **state)
{
	(void)state;
	static const struct {
		const char *cond;
		uint64_t yes, no;
	} cases[] = {
	    {"arg0 == 5", 5, 6},
	    {"arg0 != 5", 6, 5},
	    {"arg0 < 5", 4, 5},
	    {"arg0 <= 5", 5, 6},
	    {"arg0 > 5", 6, 5},
	    {"arg0 >= 5", 5, 4},
	    {"arg0 > 0xffffffff", 0x100000000ULL, 0xffffffff},
	    {"(arg0 & 0xf0) == 0x20", 0x125, 0x135},
	    {"(arg0 & 4) != 0", 4, 3},
	    {"arg0 in {1, 3, 5}", 3, 2},
	    {"arg0 not in {1, 3, 5}", 2, 3},
	    {"(arg0 & 0xff) in {0x10, 0x20,}", 0x120, 0x130},
	    {"arg0 == 1 || arg0 == 2", 2, 3},
	    {"arg0 > 1 && arg0 < 4", 3, 4},
	    {"!(arg0 == 1)", 2, 1},
	    {"!!(arg0 == 1)", 1, 2},
	    {"(arg0 == 1 || arg0 == 2) && !(arg0 == 2)", 1, 2},
	    {"arg0 == 1 || arg0 == 2 && arg0 == 3", 1, 2},
	    {"arg0 == -1", ~0ULL, 0xffffffff},
	    {"arg0 == 052", 42, 52},
	    {"arg0 == 0b101", 5, 4},
	    {"arg0 == 1_000", 1000, 1},
	    {"arg0 == PROT_READ|PROT_WRITE", 3, 1},
	    {"(arg0 & ~O_CLOEXEC) == O_RDWR", 0x80002, 0x80003},
	    {"(arg0 & (PROT_WRITE|PROT_EXEC)) != (PROT_WRITE|PROT_EXEC)", 2, 7},
	    {"arg0.lo == 5", 0xdeadbeef00000005ULL, 0x5000000000ULL},
	    {"arg0.lo == -1", 0xffffffff, 0xfffffffe},
	    {"arg0.hi == 1", 0x1deadbeefULL, 1},
	    {"(arg0.hi & 0xf) == 2", 0xf200000000ULL, 0x100000000ULL},
	    {"(arg0.lo & 0xff) < 0x10", 0xff0000000fULL, 0x10},
	    {"arg0 == AT_FDCWD", 0xffffffffffffff9cULL, 0xffffff9c},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[160];
		snprintf(text, sizeof(text), "allow getpid if %s\n", cases[i].cond);
		struct scg_policy *p = parse_ok(text);
		uint32_t yes = verdict(p, "x86_64", "getpid", cases[i].yes, 0, 0);
		uint32_t no = verdict(p, "x86_64", "getpid", cases[i].no, 0, 0);
		if (yes != SCG_RET_ALLOW || no != SCG_RET_KILL_PROCESS)
			fail_msg("%s: %#x for %#llx, %#x for %#llx", cases[i].cond, yes,
				 (unsigned long long)cases[i].yes, no,
				 (unsigned long long)cases[i].no);
		scg_policy_free(p);
	}
}

static void test_all_arguments(void **state)
{
	(void)state;
	struct scg_policy *p =
	    parse_clean("allow getpid if arg0 == 0 && arg1 == 1 && arg2 == 2 &&\n"
			"    arg3 == 3 && arg4 == 4 && arg5 == 5\n");
	uint64_t args[6] = {0, 1, 2, 3, 4, 5};
	uint32_t nr = nr_of("x86_64", "getpid");
	assert_int_equal(eval6(p, "x86_64", nr, args), SCG_RET_ALLOW);
	for (int i = 0; i < 6; i++) {
		args[i]++;
		assert_int_equal(eval6(p, "x86_64", nr, args), SCG_RET_KILL_PROCESS);
		args[i]--;
	}
	scg_policy_free(p);
}

/* The stored condition of rule @i. */
static const struct scg_expr *cond_of(const struct scg_policy *p, size_t i)
{
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, i, &r), 0);
	assert_non_null(r.cond);
	return r.cond;
}

static void test_widths(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean("arch x86_64\n"
					   "allow getpid if arg1.lo == 7\n"
					   "allow getppid if arg1.hi == 7\n"
					   "allow socket if domain == AF_UNIX\n"
					   "allow mmap if length == 4096\n"
					   "allow openat if dirfd == AT_FDCWD\n");
	const struct scg_expr *e = cond_of(p, 0);
	assert_int_equal(e->arg, 1);
	assert_int_equal(e->width, 32);
	assert_int_equal(e->value, 7);
	e = cond_of(p, 1);
	assert_int_equal(e->width, 64);
	assert_int_equal(e->mask, 0xffffffff00000000ULL);
	assert_int_equal(e->value, 7ULL << 32);
	e = cond_of(p, 2); /* int domain: 32 bits */
	assert_int_equal(e->arg, 0);
	assert_int_equal(e->width, 32);
	e = cond_of(p, 3); /* size_t length: 64 bits on x86_64 */
	assert_int_equal(e->arg, 1);
	assert_int_equal(e->width, 64);
	e = cond_of(p, 4); /* the sign-extension trap, avoided */
	assert_int_equal(e->width, 32);
	assert_int_equal(e->value, 0xffffff9c);
	assert_int_equal(verdict(p, "x86_64", "openat", 0xffffff9cULL, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "openat", 0xffffffffffffff9cULL, 0, 0),
			 SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "socket", 0xabcdef0000000001ULL, 0, 0),
			 SCG_RET_ALLOW);
	scg_policy_free(p);
}

static void test_parameter_names(void **state)
{
	(void)state;
	/* a long is 64 bits on x86_64 and 32 on x86: one rule per width */
	struct scg_policy *p = parse_clean("arch x86_64, x86\nallow write if count < 0x10000\n");
	size_t n = scg_policy_rule_count(p);
	bool saw32 = false, saw64 = false;
	for (size_t i = 0; i < n; i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		saw32 |= r.cond->width == 32;
		saw64 |= r.cond->width == 64;
		assert_int_not_equal(r.arch_mask, 0);
	}
	assert_true(saw32 && saw64);
	scg_policy_free(p);

	p = parse_clean("allow read, write if fd == 1\nallow kill if sig == SIGTERM\n"
			"allow clone if (flags & CLONE_NEWUSER) == 0\n"
			"allow ioctl if request == TIOCGWINSZ\n");
	assert_int_equal(verdict(p, "x86_64", "write", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "write", 2, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "x86_64", "kill", 1, 15, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "clone", 0x10000000, 0, 0), SCG_RET_KILL_PROCESS);
	/* ioctl's request is 32 bits wide: the upper half cannot hide TIOCGWINSZ */
	assert_int_equal(verdict(p, "x86_64", "ioctl", 1, 0xffffffff00005413ULL, 0), SCG_RET_ALLOW);
	scg_policy_free(p);

	expect_error("allow socket if domian == AF_UNIX\n", 1, 17,
		     "'socket' has no parameter 'domian'", "domain, type, protocol");
	expect_error("allow 41 if domain == 1\n", 1, 13, "has no parameter names", "arg0");
	expect_error("arch x86\nallow pread64 if offset == 0\n", 2, 18, "on x86, 'offset'", "argN");
	expect_error("arch s390x\nallow clone if flags == 0\n", 2, 16, "on s390x", "`on`");
	/* x86's "mmap" is old_mmap, whose one argument points to the others */
	expect_error("arch x86\nallow mmap if prot == 0\n", 2, 15, "on x86, 'prot' of 'mmap'",
		     NULL);
	p = parse_clean("arch x86\nallow mmap2 if (prot & PROT_EXEC) == 0\n");
	scg_policy_free(p);
	expect_error("allow socket if domain == 0x100000000\n", 1, 27, "does not fit in 32 bits",
		     "'domain' (int)");
	/* before the 64-bit offset, names still work on a 32-bit ABI */
	p = parse_clean("arch x86\nallow pread64 if count < 16\n");
	scg_policy_free(p);
}

static void test_constants_per_abi(void **state)
{
	(void)state;
	/* O_DIRECT is 040000 on x86 but 0200000 on ARM: the rule splits */
	struct scg_policy *p =
	    parse_clean("arch aarch64, arm, x86_64\nallow openat if (flags & O_DIRECT) == 0\n");
	assert_int_equal(scg_policy_rule_count(p), 2);
	assert_int_equal(verdict(p, "x86_64", "openat", 0, 0, 0x4000), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "x86_64", "openat", 0, 0, 0x10000), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "aarch64", "openat", 0, 0, 0x10000), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "arm", "openat", 0, 0, 0x4000), SCG_RET_ALLOW);
	scg_policy_free(p);
	/* MIPS numbers FIONREAD its own way */
	p = parse_clean("arch mips\nallow ioctl if request == FIONREAD\n");
	assert_int_equal(verdict(p, "mips", "ioctl", 0, 0x467f, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	/* a value syscage does not vouch for is refused, never guessed */
	expect_error("arch parisc\nallow ioctl if arg1 == TCGETS\n", 2, 24,
		     "the value of TCGETS on parisc is not known", "`on`");
	p = parse_clean("arch parisc, x86_64\nallow ioctl if arg1 == TCGETS on x86_64\n");
	scg_policy_free(p);
}

/* --- syscalls, groups, numbers, ABIs ------------------------------------------------ */

static void test_groups_and_numbers(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean("allow @basic-io, @signal\nerrno(ENOSYS) 999\n"
					   "errno(EPERM) 0x40000027\n");
	assert_int_equal(verdict(p, "x86_64", "pread64", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86", "_llseek", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "rt_sigaction", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "openat", 0, 0, 0), SCG_RET_KILL_PROCESS);
	uint64_t args[6] = {0};
	assert_int_equal(eval6(p, "x86_64", 999, args), SCG_RET_ERRNO | 38);
	/* a raw number is compared with seccomp_data.nr as it is */
	assert_int_equal(eval6(p, "x32", 0x40000027, args), EPERM_RET);
	struct scg_rule r;
	scg_policy_rule_at(p, scg_policy_rule_count(p) - 1, &r);
	assert_true(r.has_number);
	assert_null(r.syscall);
	scg_policy_free(p);
}

/* --- number ranges ------------------------------------------------------------------ */

static void round_trip(const struct scg_policy *p);

static const char ranges_source[] = "arch x86_64, x86, x32\n"
				    "default allow\n"
				    "unknown errno(ENOSYS)\n"
				    "kill 0x80000000..0xbfffffff on x86_64\n"
				    "allow 1000..1010 if arg0 == 1\n"
				    "errno(E2BIG) 451..1023\n"
				    "errno(EPERM) 0..2, 0x40000001..0x40000002 on x32\n";

static void test_number_ranges(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean(ranges_source);
	uint64_t zero[6] = {0}, one[6] = {1};
	/* x86_64 numbers with bit 31 set (x32's have bit 30) */
	assert_int_equal(eval6(p, "x86_64", 0x80000000, zero), SCG_RET_KILL_PROCESS);
	assert_int_equal(eval6(p, "x86_64", 0xbfffffff, zero), SCG_RET_KILL_PROCESS);
	assert_int_equal(eval6(p, "x86_64", 0xc0000000, zero), SCG_RET_ERRNO | 38);
	assert_int_equal(eval6(p, "x86", 0x80000000, zero), SCG_RET_ERRNO | 38);
	/* a condition, then the next range; known syscalls in a range are covered too */
	assert_int_equal(eval6(p, "x86_64", 1000, one), SCG_RET_ALLOW);
	assert_int_equal(eval6(p, "x86_64", 1010, one), SCG_RET_ALLOW);
	assert_int_equal(eval6(p, "x86_64", 1000, zero), SCG_RET_ERRNO | 7);
	assert_int_equal(eval6(p, "x86_64", 1011, one), SCG_RET_ERRNO | 7);
	assert_int_equal(eval6(p, "x86_64", 451, zero), SCG_RET_ERRNO | 7);
	assert_int_equal(eval6(p, "x86_64", 1023, zero), SCG_RET_ERRNO | 7);
	assert_int_equal(eval6(p, "x86_64", 1024, zero), SCG_RET_ERRNO | 38);
	assert_int_equal(eval6(p, "x86_64", 450, zero), SCG_RET_ALLOW);
	assert_int_equal(eval6(p, "x86", 999, one), SCG_RET_ERRNO | 7);
	/* `on` restricts every item of the rule */
	assert_int_equal(eval6(p, "x86_64", 0x40000001, zero), EPERM_RET);
	assert_int_equal(eval6(p, "x86_64", 0x40000002, zero), EPERM_RET);
	assert_int_equal(eval6(p, "x86_64", 0x40000003, zero), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86", "restart_syscall", 0, 0, 0), SCG_RET_ALLOW);
	struct scg_rule r;
	assert_int_equal(scg_policy_rule_at(p, 0, &r), 0);
	assert_true(r.has_number);
	assert_null(r.syscall);
	assert_int_equal(r.number, 0x80000000);
	assert_int_equal(r.number_last, 0xbfffffff);
	uint32_t first = 0, last = 0;
	assert_int_equal(scg_policy_rule_range(p, 0, scg_arch_lookup("x86_64"), &first, &last), 0);
	assert_int_equal(first, 0x80000000);
	assert_int_equal(last, 0xbfffffff);
	assert_int_equal(scg_policy_rule_nr(p, 0, scg_arch_lookup("x86_64"), &first), 0);
	assert_int_equal(first, 0x80000000);
	assert_int_equal(scg_policy_rule_range(p, 0, scg_arch_lookup("x86"), &first, &last),
			 -ENOSYS);
	scg_policy_free(p);
}

/* Through the C API: a number_last below number (or left 0) is one number. */
static void test_number_range_model(void **state)
{
	(void)state;
	struct scg_policy *p = scg_policy_new();
	assert_non_null(p);
	assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
	scg_policy_set_default(p, SCG_RET_ALLOW);
	struct scg_rule_spec specs[] = {
	    {.action = EPERM_RET, .has_number = true, .number = 7},
	    {.action = EPERM_RET, .has_number = true, .number = 900, .number_last = 3},
	    {.action = SCG_RET_TRAP, .has_number = true, .number = 20, .number_last = 30},
	    {.action = SCG_RET_LOG, .syscall = "read", .number = 5, .number_last = 9},
	};
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		assert_int_equal(scg_policy_add_rule(p, &specs[i]), 0);
	static const uint32_t lasts[] = {7, 900, 30, 0};
	struct scg_policy *copy = scg_policy_clone(p);
	assert_non_null(copy);
	for (size_t i = 0; i < 4; i++) {
		struct scg_rule r;
		assert_int_equal(scg_policy_rule_at(copy, i, &r), 0);
		assert_int_equal(r.number_last, lasts[i]);
	}
	uint64_t zero[6] = {0};
	assert_int_equal(eval6(copy, "x86_64", 7, zero), EPERM_RET);
	assert_int_equal(eval6(copy, "x86_64", 8, zero), SCG_RET_ALLOW);
	assert_int_equal(eval6(copy, "x86_64", 3, zero), SCG_RET_ALLOW);
	assert_int_equal(eval6(copy, "x86_64", 19, zero), SCG_RET_ALLOW);
	assert_int_equal(eval6(copy, "x86_64", 20, zero), SCG_RET_TRAP);
	assert_int_equal(eval6(copy, "x86_64", 30, zero), SCG_RET_TRAP);
	assert_int_equal(eval6(copy, "x86_64", 31, zero), SCG_RET_ALLOW);
	assert_int_equal(eval6(copy, "x86_64", 0, zero), SCG_RET_LOG); /* read: a name, not 5..9 */
	assert_int_equal(eval6(copy, "x86_64", 5, zero), SCG_RET_ALLOW);
	scg_policy_free(copy);
	scg_policy_free(p);
}

static void test_number_range_errors(void **state)
{
	(void)state;
	expect_error("kill 10..5\n", 1, 6, "empty syscall number range: 10 is above 5",
		     "write the lower number first: 5..10");
	expect_error("allow read\nkill 0x20..0x10 on x86_64\n", 2, 6, "0x20 is above 0x10",
		     "0x10..0x20");
	expect_error("kill 5..\n", 1, 9, "expected a syscall number, found end of line", NULL);
	expect_error("kill 5..open\n", 1, 9, "expected a syscall number, found 'open'", NULL);
	expect_error("kill 1..0x100000000\n", 1, 9, "invalid syscall number '0x100000000'",
		     "32-bit");
	expect_error("allow read if arg0..lo == 1\n", 1, 19, "found '..'", NULL);
	expect_error("allow 1000..1010 if fd == 1\n", 1, 21, "has no parameter names", NULL);
}

static void test_number_range_warnings(void **state)
{
	(void)state;
	expect_warning("arch x86_64\nkill 0..1000\nallow read\n", 3, 7,
		       "never matches: line 2 already decides 'read'");
	expect_warning("allow 5..10\nkill 5..10\n", 2, 6,
		       "never matches: line 1 already decides 'this range'");
	expect_warning("kill 0..100\nallow 7\n", 2, 7,
		       "never matches: line 1 already decides 'this number'");
	expect_warning("kill 0..100\nallow 50..60 if arg0 == 1\n", 2, 7, "never matches: line 1");
	expect_warning("kill 0..100, 0..100\n", 1, 14, "listed twice");
	/* no false alarms: partial overlaps, conditions, other ABIs, other ranges */
	struct scg_policy *p = parse_clean("arch x86_64, x86\n"
					   "allow 5\nkill 5..10\n"
					   "allow 0..10 if arg0 == 1\nkill 3\n"
					   "kill 0..400 on x86_64\nallow read\n"
					   "kill 0..1 on x86\nallow 0..2 on x86\n"
					   "allow 300..500, 450..600\n");
	scg_policy_free(p);
}

/* libseccomp's verdict for x86_64 numbers with bit 31 set: only without x32. */
static void test_libseccomp_high_numbers(void **state)
{
	(void)state;
	for (int with_x32 = 0; with_x32 < 2; with_x32++) {
		struct scg_policy *p = scg_policy_new();
		assert_non_null(p);
		assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x86_64")), 0);
		if (with_x32)
			assert_int_equal(scg_policy_add_arch(p, scg_arch_lookup("x32")), 0);
		scg_policy_set_default(p, SCG_RET_ALLOW);
		scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
		assert_int_equal(libseccomp_high_add(p), 0);
		assert_int_equal(scg_policy_rule_count(p), with_x32 ? 0 : 1);
		struct scg_seccomp_data d = { .arch = scg_arch_audit(scg_arch_lookup("x86_64")) };
		static const uint32_t probes[][2] = { { 0x7fffffff, 0 }, { 0x80000000, 1 },
						      { 0xbfffffff, 1 }, { 0xc0000000, 0 },
						      { 0xffffffff, 0 }, { 1000, 0 } };
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			d.nr = probes[i][0];
			struct scg_verdict v;
			scg_policy_eval(p, &d, &v);
			if (probes[i][1] && !with_x32)
				assert_int_equal(v.action, SCG_RET_KILL_THREAD);
			else
				assert_int_not_equal(v.source, SCG_VERDICT_RULE);
		}
		if (!with_x32)
			assert_true(libseccomp_high_rule_is(p, 0));
		/* a rule of another action over the same numbers is the policy's own */
		struct scg_rule_spec other = { .action = SCG_RET_ERRNO | 1U, .has_number = true,
					       .number = 0x80000000, .number_last = 0xbfffffff };
		assert_int_equal(scg_policy_add_rule(p, &other), 0);
		assert_false(libseccomp_high_rule_is(p, with_x32 ? 0 : 1));
		scg_policy_free(p);
	}
}

static void test_number_range_text(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean(ranges_source);
	char *text = NULL;
	assert_int_equal(scg_policy_to_text(p, &text), 0);
	static const char *const lines[] = {
	    "\nkill 0x80000000..0xbfffffff on x86_64\n",
	    "\nallow 1000..1010 if arg0 == 1\n",
	    "\nerrno(E2BIG) 451..1023\n",
	    "\nerrno(EPERM) 0..2, 0x40000001..0x40000002 on x32\n",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(text, lines[i]))
			fail_msg("no \"%s\" in:\n%s", lines[i] + 1, text);
	free(text);
	round_trip(p);
	scg_policy_free(p);
}

static void test_arch_settings(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean("arch aarch64, arm\nallow read\n");
	assert_int_equal(scg_policy_arch_count(p), 2);
	assert_ptr_equal(scg_policy_arch_at(p, 0), scg_arch_lookup("aarch64"));
	assert_ptr_equal(scg_policy_arch_at(p, 1), scg_arch_lookup("arm"));
	assert_int_equal(verdict(p, "arm", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);

	p = parse_clean("arch native\n");
	assert_ptr_equal(scg_policy_arch_at(p, 0), scg_arch_native());
	scg_policy_free(p);

	/* the options override the text */
	const struct scg_arch *only[] = {scg_arch_lookup("riscv64")};
	struct scg_policy_source_options opts = {.arches = only, .narches = 1};
	assert_int_equal(parse_with("arch aarch64\nallow read\n", &opts, &p), 0);
	assert_int_equal(scg_policy_arch_count(p), 1);
	assert_ptr_equal(scg_policy_arch_at(p, 0), only[0]);
	scg_policy_free(p);

	/* `on` restricts a rule, before or after its condition */
	p = parse_clean("allow getpid on x86 if arg0 == 1\nallow getppid if arg0 == 1 on x86\n");
	assert_int_equal(verdict(p, "x86", "getpid", 1, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "getpid", 1, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "x86", "getppid", 1, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	p = parse_clean("allow read on x86, x32\n");
	assert_int_equal(verdict(p, "x86", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x32", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_KILL_PROCESS);
	struct scg_rule r;
	scg_policy_rule_at(p, 0, &r);
	assert_int_equal(r.arch_mask, SCG_ARCH_BIT_X86 | SCG_ARCH_BIT_X32);
	scg_policy_free(p);
	/* with targets the policy chose, an `on` naming none of them is a likely mistake */
	expect_warning("arch x86_64\nallow read on mips\n", 2, 1, "none of the target ABIs");
	/* with the native default, it is a rule for another host: silent */
	scg_policy_free(parse_clean("allow read on mips\n"));
}

static void test_unknown_and_badarch(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean("default errno(EPERM)\nunknown errno(ENOSYS)\n"
					   "badarch errno(EACCES)\nallow read\n");
	uint64_t args[6] = {0};
	assert_int_equal(eval6(p, "x86_64", 4000, args), SCG_RET_ERRNO | 38);
	assert_int_equal(verdict(p, "x86_64", "getpid", 0, 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "aarch64", "getpid", 0, 0, 0), SCG_RET_ERRNO | 13);
	scg_policy_free(p);
}

static void test_continuation(void **state)
{
	(void)state;
	struct scg_policy *p = parse_clean("allow read,\n"
					   "      write if arg0 == 1 ||\n"
					   "               arg0 == 2\n"
					   "allow getpid if (arg0 == 1\n"
					   "                 || arg0 == 3) && arg1 in {\n"
					   "    4,\n"
					   "    5\n"
					   "  }\n");
	assert_int_equal(verdict(p, "x86_64", "write", 2, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "getpid", 3, 5, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	/* an unindented line starts a new statement */
	expect_error("allow read if (arg0 == 1\nallow write\n", 1, 25,
		     "expected ')' to close the '(' at 1:15", NULL);
	expect_error("allow read,\nwrite\n", 1, 12, "expected a syscall name", NULL);
	/* CRLF line ends */
	p = parse_clean("allow read\r\nallow write\r\n");
	scg_policy_free(p);
}

/* --- diagnostics ---------------------------------------------------------------------- */

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		unsigned line, col;
		const char *msg, *hint;
	} cases[] = {
	    {"allow opnat\n", 1, 7, "unknown syscall 'opnat'", "did you mean 'openat'?"},
	    {"allow read if arg6 == 1\n", 1, 15, "arg6 does not exist", "arg0..arg5"},
	    {"allow read if arg0 == AF_UNX\n", 1, 23, "unknown constant 'AF_UNX'",
	     "did you mean 'AF_UNIX'?"},
	    {"allow @basic-ioo\n", 1, 7, "unknown group '@basic-ioo'", "did you mean '@basic-io'?"},
	    {"alow read\n", 1, 1, "unknown action 'alow'", "did you mean 'allow'?"},
	    {"kill-thraed read\n", 1, 1, "unknown action", "did you mean 'kill-thread'?"},
	    {"read\n", 1, 1, "unknown action 'read'", "allow read"},
	    {"errno(ENOENTT) open\n", 1, 7, "unknown errno 'ENOENTT'", "did you mean 'ENOENT'?"},
	    {"errno open\n", 1, 7, "'errno' needs a value", "errno(EPERM)"},
	    {"errno(70000) open\n", 1, 7, "out of range", NULL},
	    {"errno(99999) open\n", 1, 7,
	     "errno 99999 is out of range: SECCOMP_RET_DATA holds 0..65535", "4095"},
	    {"trap(0x10000) open\n", 1, 6, "trap 65536 is out of range: SECCOMP_RET_DATA holds 0..65535",
	     NULL},
	    {"action(0x100000000) open\n", 1, 8,
	     "action 4294967296 is out of range: a seccomp return value holds 0..4294967295", NULL},
	    {"allow read if arg0 = 1\n", 1, 20, "unexpected '='", "=="},
	    {"allow read if arg0 & 1 == 0\n", 1, 20, "expected a comparison", "parentheses"},
	    /* hints in the rule's own terms: its parameter, its mask, its constant family */
	    {"allow openat if flags & O_CREAT\n", 1, 23, "expected a comparison",
	     "put the mask in parentheses: (flags & O_CREAT) != 0"},
	    {"allow read if arg0.lo & 1 == 0\n", 1, 23, "expected a comparison", "(arg0.lo & 1) != 0"},
	    {"allow mmap if prot & |\n", 1, 20, "expected a comparison", "(prot & PROT_EXEC) != 0"},
	    {"allow openat if arg2 & (\n", 1, 22, "expected a comparison", "(arg2 & O_CREAT) != 0"},
	    {"allow openat if (flags & CREAT) != 0\n", 1, 26, "unknown constant 'CREAT'",
	     "did you mean 'O_CREAT'?"},
	    {"allow socket if domain == INET6\n", 1, 27, "unknown constant 'INET6'",
	     "did you mean 'AF_INET6'?"},
	    {"allow mmap if (arg2 & PROT_EXC) == 0\n", 1, 23, "unknown constant 'PROT_EXC'",
	     "did you mean 'PROT_EXEC'?"},
	    {"allow read if arg0\n", 1, 19, "expected a comparison", NULL},
	    {"allow read if 1 == arg0\n", 1, 15, "expected an argument", NULL},
	    {"allow read if arg0 == arg1\n", 1, 23, "expected a constant", "left"},
	    {"allow read if arg0.mid == 1\n", 1, 20, "expected 'lo' or 'hi'", NULL},
	    {"allow read if arg0 == 0x1ffffffffffffffff\n", 1, 23, "out of range", NULL},
	    {"allow read if arg0 == 12ab\n", 1, 23, "invalid number '12ab'", NULL},
	    {"allow read if arg0.lo == 0x100000000\n", 1, 26, "does not fit in 32 bits", ".lo"},
	    {"allow read if arg0 in {}\n", 1, 15, "empty set", NULL},
	    {"allow read if arg0 in {1 2}\n", 1, 26, "expected ',' or '}'", NULL},
	    {"allow read write\n", 1, 12, "expected end of line, found 'write'", "','"},
	    {"allow\n", 1, 6, "expected a syscall name", NULL},
	    {"arch aarch65\n", 1, 6, "unknown architecture 'aarch65'", "did you mean 'aarch64'?"},
	    {"allow read on amd46\n", 1, 15, "unknown architecture", NULL},
	    {"use stdoi\n", 1, 5, "unknown profile 'stdoi'", "did you mean 'stdio'?"},
	    {"include nofile\n", 1, 9, "expected a \"file\"", NULL},
	    {"allow read # caf\xc3\xa9 ok\nallow r\xc3\xa9\x61\x64\n", 2, 8,
	     "unexpected non-ASCII character", "comments"},
	    {"allow read # \xff\n", 1, 14, "invalid UTF-8 byte 0xff", "UTF-8"},
	    {"allow read # \xc0\xaf overlong\n", 1, 14, "invalid UTF-8", NULL},
	    {"allow read$\n", 1, 11, "unexpected character '$'", NULL},
	    {"allow re\0ad\n", 1, 9, "NUL", NULL},
	    {"use \"x\\q\"\n", 1, 5, "unknown escape", NULL},
	    {"use \"x\n", 1, 5, "unterminated string", NULL},
	    {"allow @\n", 1, 7, "group name", NULL},
	    {"allow read if !(arg0 == 1\n", 1, 26, "expected ')'", NULL},
	    {"allow read if arg0 == -\n", 1, 24, "a number after '-'", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scg_policy *p = (struct scg_policy *)1;
		size_t len = strlen(cases[i].text);
		if (strstr(cases[i].msg, "NUL"))
			len = 12;
		scg_diag_free(last_diag);
		last_diag = scg_diag_new();
		if (scg_policy_parse(cases[i].text, len, NULL, &p, last_diag) != -EINVAL) {
			test_print_diag(last_diag);
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		}
		assert_null(p);
		const struct scg_diag_entry *e =
		    find_diag(SCG_SEV_ERROR, cases[i].line, cases[i].col, cases[i].msg);
		assert_string_equal(e->loc.file, "<stdin>");
		if (cases[i].hint && (!e->hint || !strstr(e->hint, cases[i].hint)))
			fail_msg("case %zu: hint \"%s\" lacks \"%s\"", i, e->hint ? e->hint : "",
				 cases[i].hint);
	}
}

static void test_constant_eval(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	const struct scg_arch *mips = scg_arch_lookup("mips");
	uint64_t v = 0;
	assert_int_equal(scg_constant_eval("AF_INET", x86_64, &v, NULL), 0);
	assert_int_equal(v, 2);
	assert_int_equal(scg_constant_eval("O_WRONLY|O_CREAT", x86_64, &v, NULL), 0);
	assert_int_equal(v, 0x41);
	assert_int_equal(scg_constant_eval("O_WRONLY | O_CREAT", mips, &v, NULL), 0);
	assert_int_equal(v, 0x101); /* per ABI, as in policies */
	assert_int_equal(scg_constant_eval("AT_FDCWD", x86_64, &v, NULL), 0);
	assert_int_equal(v, (uint64_t)-100);
	assert_int_equal(scg_constant_eval("-1", x86_64, &v, NULL), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(scg_constant_eval("~(PROT_READ|PROT_WRITE)", x86_64, &v, NULL), 0);
	assert_int_equal(v, ~(uint64_t)3);
	assert_int_equal(scg_constant_eval("EPERM", x86_64, &v, NULL), 0);
	assert_int_equal(v, 1);
	scg_diag_free(last_diag);
	last_diag = scg_diag_new();
	assert_int_equal(scg_constant_eval("AF_INTE", x86_64, &v, last_diag), -EINVAL);
	const struct scg_diag_entry *e = find_diag(SCG_SEV_ERROR, 1, 1, "unknown constant 'AF_INTE'");
	assert_string_equal(e->hint, "did you mean 'AF_INET'?");
	assert_string_equal(e->loc.file, "AF_INTE");
	scg_diag_clear(last_diag);
	assert_int_equal(scg_constant_eval("1 2", x86_64, &v, last_diag), -EINVAL);
	find_diag(SCG_SEV_ERROR, 1, 3, "expected the end of the value, found '2'");
	assert_int_equal(scg_constant_eval("", x86_64, &v, NULL), -EINVAL);
	assert_int_equal(scg_constant_eval("1\n2", x86_64, &v, NULL), -EINVAL);
}

static void test_several_errors(void **state)
{
	(void)state;
	expect_error("alow read\nallow opnat\nallow read if arg9 == 1\nallow write\n", 1, 1,
		     "unknown action", NULL);
	find_diag(SCG_SEV_ERROR, 2, 7, "unknown syscall");
	find_diag(SCG_SEV_ERROR, 3, 15, "arg9 does not exist");
	assert_int_equal(scg_diag_count_at_least(last_diag, SCG_SEV_ERROR), 3);
	/* every bad name of one rule, syscalls and constants alike */
	expect_error("allow foo, bar, read, baz\n", 1, 7, "unknown syscall 'foo'", NULL);
	find_diag(SCG_SEV_ERROR, 1, 12, "unknown syscall 'bar'");
	find_diag(SCG_SEV_ERROR, 1, 23, "unknown syscall 'baz'");
	assert_int_equal(scg_diag_count_at_least(last_diag, SCG_SEV_ERROR), 3);
	expect_error("allow openat if flags == BAD1 || mode in {BAD2, 3}\n", 1, 26, "'BAD1'", NULL);
	find_diag(SCG_SEV_ERROR, 1, 43, "unknown constant 'BAD2'");
	expect_error("allow read if (arg0 & BAD1) == BAD2\n", 1, 23, "'BAD1'", NULL);
	find_diag(SCG_SEV_ERROR, 1, 32, "unknown constant 'BAD2'");
	expect_error("allow foo, bar if arg0 == 1\n", 1, 12, "unknown syscall 'bar'", NULL);
	/* in line order, though constants are resolved after the whole text is read */
	expect_error("default errno(99999)\nallow openat if flags == BADC\nallow qux\n"
		     "allow read if arg0 == BADD\n",
		     2, 26, "unknown constant 'BADC'", NULL);
	static const unsigned lines[] = {1, 2, 3, 4};
	assert_int_equal(scg_diag_count(last_diag), 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(scg_diag_get(last_diag, i)->loc.line, lines[i]);
	/* without a diagnostics list, errors fail the parse all the same */
	struct scg_policy *none = (struct scg_policy *)1;
	assert_int_equal(scg_policy_parse("allow foo\n", 10, NULL, &none, NULL), -EINVAL);
	assert_null(none);
	assert_int_equal(scg_policy_parse("allow read if arg0 == NOPE\n", 27, NULL, &none, NULL),
			 -EINVAL);
	/* errors stop after a limit */
	char text[4096] = "";
	for (int i = 0; i < 60; i++)
		strcat(text, "alow read\n");
	expect_error(text, 1, 1, "unknown action", NULL);
	assert_true(scg_diag_count_at_least(last_diag, SCG_SEV_ERROR) <= 30);
	/* the file name and a formatted diagnostic */
	struct scg_policy_source_options opts = {.filename = "my.policy"};
	struct scg_policy *p;
	assert_int_equal(parse_with("allow opnat\n", &opts, &p), -EINVAL);
	char buf[256];
	scg_diag_format(scg_diag_get(last_diag, 0), buf, sizeof(buf));
	assert_string_equal(buf, "my.policy:1:7: error: unknown syscall 'opnat'\n"
				 "  hint: did you mean 'openat'?");
}

static void test_warnings(void **state)
{
	(void)state;
	expect_warning("allow read\nerrno(EPERM) read\n", 2, 14,
		       "never matches: line 1 already decides 'read'");
	expect_warning("allow read if arg0 == 1\nkill write, read if arg0 == 1\n", 2, 13,
		       "never matches: line 1 already decides 'read'");
	expect_warning("allow read\nkill read on x86\n", 2, 6, "never matches");
	expect_warning("allow read on x86_64\nallow read on x86, x32\nkill read\n", 3, 6,
		       "never matches: line 2 already decides 'read'");
	expect_warning("allow socketcall\n", 1, 7, "'socketcall' does not exist on x86_64, x32");
	expect_warning(
	    "allow @sync, read\nkill @swap, @sync\n", 2, 13,
	    "never matches: earlier rules (first line 1) decide every syscall of '@sync'");
	expect_warning("allow read, read\n", 1, 13, "listed twice");
	expect_warning("default allow\ndefault kill\n", 2, 9, "already set on line 1");
	expect_warning("allow read if (arg0 & 1) == 2\n", 1, 29, "never true");
	expect_warning("allow read if (arg0 & 1) != 2\n", 1, 29, "always true");
	expect_warning("allow read if arg0 == -1\n", 1, 23, "sign-extended");
	expect_warning("allow openat if arg0 == AT_FDCWD\n", 1, 25, "sign-extended");
	expect_warning("errno(5000) read\n", 1, 7, "above 4095");
	/* no false alarms */
	struct scg_policy *p =
	    parse_clean("allow read on x86\nkill read\n"
			"allow write if arg0 == 1\nkill write if arg0 == 2\n"
			"allow socketcall?, @network-io\n"
			"allow openat if arg0.lo == AT_FDCWD && dirfd == AT_FDCWD\n"
			"kill write\nuse stdio\n"
			"errno(EPERM) @privileged\nallow @system-service\n");
	scg_policy_free(p);
}

/* --- composition --------------------------------------------------------------------- */

static char tmpdir[64];

static void write_file(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup_tmpdir(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/scg-policy-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/sub", tmpdir);
	return mkdir(sub, 0700);
}

static int teardown_tmpdir(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int parse_in_tmp(const char *name, struct scg_policy **p)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	scg_diag_free(last_diag);
	last_diag = scg_diag_new();
	return scg_policy_parse_file(path, NULL, p, last_diag);
}

static void test_include(void **state)
{
	(void)state;
	write_file("main.policy", "default errno(EPERM)\n"
				  "kill ptrace\n"
				  "include \"sub/base.policy\"\n"
				  "allow getpid\n");
	write_file("sub/base.policy", "default allow\n"
				      "unknown errno(ENOSYS)\n"
				      "arch x86_64\n"
				      "allow ptrace, read\n"
				      "use \"more.policy\"\n");
	write_file("sub/more.policy", "errno(EACCES) getpid\nbadarch errno(ENOENT)\n");
	struct scg_policy *p = NULL;
	int r = parse_in_tmp("main.policy", &p);
	if (r)
		test_print_diag(last_diag);
	assert_int_equal(r, 0);
	/* the outermost file's settings win; the others apply where it is silent */
	assert_int_equal(scg_policy_default(p), EPERM_RET);
	uint32_t unknown;
	assert_true(scg_policy_unknown(p, &unknown));
	assert_int_equal(unknown, SCG_RET_ERRNO | 38);
	assert_int_equal(scg_policy_badarch(p), SCG_RET_ERRNO | 2);
	assert_int_equal(scg_policy_arch_count(p), 1);
	/* rules in file order, the included ones where the include is */
	assert_int_equal(verdict(p, "x86_64", "ptrace", 0, 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86_64", "getpid", 0, 0, 0), SCG_RET_ERRNO | 13);
	/* rule locations name their file */
	struct scg_rule rule;
	scg_policy_rule_at(p, 1, &rule);
	assert_non_null(strstr(rule.loc.file, "sub/base.policy"));
	assert_int_equal(rule.loc.line, 4);
	/* the overridden ptrace rule in base.policy is not reported; the dead getpid rule is */
	find_diag(SCG_SEV_WARNING, 4, 7, "never matches");
	assert_int_equal(scg_diag_count(last_diag), 1);
	scg_policy_free(p);
}

static void test_include_errors(void **state)
{
	(void)state;
	struct scg_policy *p = NULL;
	write_file("a.policy", "allow read\ninclude \"b.policy\"\n");
	write_file("b.policy", "use \"a.policy\"\n");
	assert_int_equal(parse_in_tmp("a.policy", &p), -EINVAL);
	const struct scg_diag_entry *e = find_diag(SCG_SEV_ERROR, 1, 1, "include cycle");
	assert_non_null(strstr(e->loc.file, "b.policy"));

	write_file("self.policy", "include \"self.policy\"\n");
	assert_int_equal(parse_in_tmp("self.policy", &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 1, 1, "include cycle");

	write_file("missing.policy", "allow read\ninclude \"nowhere.policy\"\n");
	assert_int_equal(parse_in_tmp("missing.policy", &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 2, 1, "cannot read");

	write_file("dir.policy", "include \"sub\"\n");
	assert_int_equal(parse_in_tmp("dir.policy", &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 1, 1, "Is a directory");

	/* a chain of 40 files: deeper than 32 */
	for (int i = 0; i < 40; i++) {
		char name[32], text[64];
		snprintf(name, sizeof(name), "chain%d.policy", i);
		snprintf(text, sizeof(text), "include \"chain%d.policy\"\n", i + 1);
		write_file(name, text);
	}
	write_file("chain40.policy", "allow read\n");
	assert_int_equal(parse_in_tmp("chain0.policy", &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 1, 1, "deeper than 32");

	/* 32 levels are fine */
	write_file("chain32.policy", "allow read\n");
	assert_int_equal(parse_in_tmp("chain0.policy", &p), 0);
	scg_policy_free(p);

	assert_int_equal(parse_in_tmp("does-not-exist.policy", &p), -ENOENT);
	assert_null(p);
	assert_int_equal(scg_diag_count_at_least(last_diag, SCG_SEV_ERROR), 1);
}

static void test_use_profile(void **state)
{
	(void)state;
	/* "stdio's rules minus write": an earlier rule wins */
	struct scg_policy *p = parse_clean("errno(EPERM) write\nuse stdio\n");
	assert_int_equal(verdict(p, "x86_64", "write", 1, 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "x86_64", "read", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "x86", "sigreturn", 0, 0, 0), SCG_RET_ALLOW);
	assert_int_equal(scg_policy_default(p), SCG_RET_KILL_PROCESS); /* stdio's default */
	scg_policy_free(p);
	p = parse_clean("default errno(EPERM)\nuse stdio\n");
	assert_int_equal(scg_policy_default(p), EPERM_RET);
	scg_policy_free(p);

	assert_int_equal(scg_profile_load("stdio", NULL, &p, last_diag), 0);
	assert_int_equal(verdict(p, "x86_64", "exit_group", 0, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	assert_int_equal(scg_profile_load("nope", NULL, &p, last_diag), -ENOENT);
	assert_null(p);
}

/* --- limits --------------------------------------------------------------------------- */

static char *repeat(const char *prefix, const char *unit, size_t n, const char *suffix)
{
	size_t lp = strlen(prefix), lu = strlen(unit), ls = strlen(suffix);
	char *s = malloc(lp + lu * n + ls + 1);
	assert_non_null(s);
	memcpy(s, prefix, lp);
	for (size_t i = 0; i < n; i++)
		memcpy(s + lp + i * lu, unit, lu);
	memcpy(s + lp + lu * n, suffix, ls + 1);
	return s;
}

static void test_limits(void **state)
{
	(void)state;
	struct scg_policy *p;
	char *text = repeat("allow read if ", "(", 100000, "arg0 == 1\n");
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 1, 79, "nesting deeper than 64 levels");
	free(text);
	text = repeat("allow read if ", "!", 100000, "(arg0 == 1)\n");
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	free(text);
	text = repeat("allow read if arg0 == ", "~", 100000, "1\n");
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	free(text);
	text = repeat("allow read if arg0 == ", "(", 100000, "1\n");
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	free(text);
	/* long flat chains are fine and stay shallow */
	text = repeat("allow read if arg0 == 0", " || arg0 == 1", 100000, "\n");
	assert_int_equal(parse_with(text, NULL, &p), 0);
	assert_int_equal(verdict(p, "x86_64", "read", 1, 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	free(text);
	text = repeat("allow read if arg0 in {", "1,", 100000, "2}\n");
	assert_int_equal(parse_with(text, NULL, &p), 0);
	scg_policy_free(p);
	free(text);
}

/* --- tokens past the lexer's growth points ---------------------------------------- */

/*
 * The lexer reads tokens on demand into an array that grows by 256, 512,
 * ... entries.  A statement whose tokens straddle a growth point must read
 * the same as anywhere else: one of each kind of statement after 0..@max
 * filler lines (3 tokens each), so that every alignment is crossed.
 */
static char *after_filler(size_t lines, const char *tail)
{
	return repeat("", "allow read\n", lines, tail);
}

static void test_growth_range_error(void **state)
{
	(void)state;
	/* the range error quotes both ends, read before and after the growth */
	for (size_t k = 0; k < 200; k++) {
		char *text = after_filler(k, "allow 500..3\n");
		struct scg_policy *p = (struct scg_policy *)1;
		assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
		const struct scg_diag_entry *e =
		    find_diag(SCG_SEV_ERROR, (unsigned)k + 1, 7,
			      "empty syscall number range: 500 is above 3");
		assert_non_null(e->hint);
		assert_string_equal(e->hint, "write the lower number first: 3..500");
		free(text);
	}
}

static void test_growth_unclosed_group(void **state)
{
	(void)state;
	/* an unclosed '(' quotes its position after hundreds of tokens */
	char *cond = repeat("allow read if (arg0 == 1", " || arg0 == 1", 150, "\n");
	char *masked = repeat("allow read if (arg0 & 1", "|2", 300, "\n");
	for (size_t k = 0; k < 90; k++) {
		char *text = after_filler(k, cond);
		struct scg_policy *p;
		assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
		char want[64];
		snprintf(want, sizeof(want),
			 "expected ')' to close the '(' at %zu:15, found end of line", k + 1);
		find_diag(SCG_SEV_ERROR, (unsigned)k + 1, 1975, want);
		free(text);
		text = after_filler(k, masked);
		assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
		find_diag(SCG_SEV_ERROR, (unsigned)k + 1, 624, want);
		free(text);
	}
	free(cond);
	free(masked);
}

static void test_growth_compare_errors(void **state)
{
	(void)state;
	/* errors that look ahead: the mask hint, 'not' without 'in' */
	for (size_t k = 0; k < 90; k++) {
		char *text = after_filler(k, "allow read if arg0 & O_CREAT == 0\n");
		struct scg_policy *p;
		assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
		const struct scg_diag_entry *e =
		    find_diag(SCG_SEV_ERROR, (unsigned)k + 1, 20,
			      "expected a comparison (==, !=, <, <=, >, >=, in), found '&'");
		assert_string_equal(e->hint, "put the mask in parentheses: (arg0 & O_CREAT) != 0");
		free(text);
		text = after_filler(k, "allow read if arg0 not of {1}\n");
		assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
		find_diag(SCG_SEV_ERROR, (unsigned)k + 1, 24,
			  "expected 'in' after 'not', found 'of'");
		free(text);
	}
}

static void test_growth_use(void **state)
{
	(void)state;
	/* each "use" keeps its keyword's position while the profile name is read */
	char *text = repeat("", "use stdio\n", 600, "");
	struct scg_policy *p;
	assert_int_equal(parse_with(text, NULL, &p), 0);
	scg_policy_free(p);
	free(text);
	text = repeat("", "use stdio\n", 100, "use nope\n");
	assert_int_equal(parse_with(text, NULL, &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 101, 5, "unknown profile 'nope'");
	free(text);
}

static void test_growth_include(void **state)
{
	(void)state;
	write_file("empty.policy", "");
	write_file("one.policy", "allow read\n");
	char *text = repeat("", "include \"empty.policy\"\nuse \"one.policy\"\n", 400,
			    "allow write\n");
	write_file("many.policy", text);
	free(text);
	struct scg_policy *p = NULL;
	int r = parse_in_tmp("many.policy", &p);
	if (r)
		test_print_diag(last_diag);
	assert_int_equal(r, 0);
	assert_int_equal(scg_policy_rule_count(p), 401);
	scg_policy_free(p);
	/* the error names the line of the include after the growth */
	text = repeat("", "include \"empty.policy\"\n", 100, "include \"none.policy\"\n");
	write_file("bad.policy", text);
	free(text);
	assert_int_equal(parse_in_tmp("bad.policy", &p), -EINVAL);
	find_diag(SCG_SEV_ERROR, 101, 1, "cannot read");
}

/* Parses @text as tmpdir/gen.policy (so includes resolve there). */
static int parse_generated(const char *text, struct scg_policy **p)
{
	write_file("gen.policy", text);
	return parse_in_tmp("gen.policy", p);
}

/*
 * Structure-aware texts from tests/support/poltext: tens to thousands of
 * statements with nested groups, long lists and sets, line breaks, uses
 * and includes, so that statements straddle the lexer's growth points in
 * every way.  Each must parse (under ASan: without a bad access); cut short
 * or with a ')' dropped, each must parse or fail with an error, never crash.
 */
static void test_generated_text(void **state)
{
	(void)state;
	write_file("inc-a.policy", "allow read\n");
	write_file("inc-empty.policy", "");
	write_file("sub/inc-b.policy", "errno(EPERM) write if arg0 == 1\ninclude \"../inc-a.policy\"\n");
	static const char *const includes[] = {"inc-a.policy", "inc-empty.policy",
					       "sub/inc-b.policy", NULL};
	static const size_t sizes[] = {1, 40, 90, 300, 600, 1000};
	struct progen_rng rng;
	progen_seed(&rng, 0x7e47);
	for (size_t i = 0; i < 12; i++) {
		struct poltext_opts opts = {
		    /* the second round of sizes, with other options, is a quarter as long by
		     * default: the first has crossed every growth point already */
		    .statements = i < 6 ? sizes[i] : test_scaled(sizes[i % 6]),
		    .max_depth = i % 4 == 3 ? 60 : 1 + (unsigned)(i % 6),
		    .max_items = 1 + i % 40,
		    .max_set = 1 + (i * 7) % 64,
		    .includes = includes,
		    .uses = i % 2 == 0,
		    .breaks = i % 3 != 0,
		};
		char *text = poltext_policy(&rng, &opts);
		assert_non_null(text);
		struct scg_policy *p = NULL;
		int r = parse_generated(text, &p);
		if (r != 0) {
			test_print_diag(last_diag);
			fail_msg("generated text %zu does not parse", i);
		}
		if (opts.statements <= 90 && !opts.uses)
			round_trip(p);
		scg_policy_free(p);
		/* cut anywhere, then an open group; and a ')' dropped */
		size_t len = strlen(text);
		char *cut = malloc(len + 4);
		assert_non_null(cut);
		size_t at = progen_below(&rng, (uint32_t)len + 1);
		memcpy(cut, text, at);
		memcpy(cut + at, "(\n", 3);
		r = parse_generated(cut, &p);
		assert_true(r == 0 || r == -EINVAL);
		assert_int_equal(r == -EINVAL, scg_diag_count_at_least(last_diag, SCG_SEV_ERROR) > 0);
		scg_policy_free(p);
		char *paren = strchr(text + progen_below(&rng, (uint32_t)len), ')');
		if (paren) {
			memmove(paren, paren + 1, strlen(paren));
			r = parse_generated(text, &p);
			assert_true(r == 0 || r == -EINVAL);
			scg_policy_free(p);
		}
		free(cut);
		free(text);
	}
}

static void test_many_rules(void **state)
{
	(void)state;
	size_t n = 100000;
	char *text = malloc(n * 40);
	assert_non_null(text);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "errno(%zu) read if arg0 == %zu\n", i % 4096, i);
	struct scg_policy *p;
	scg_diag_free(last_diag);
	last_diag = scg_diag_new();
	assert_int_equal(scg_policy_parse(text, len, NULL, &p, last_diag), 0);
	assert_int_equal(scg_policy_rule_count(p), n);
	assert_int_equal(scg_diag_count(last_diag), 0);
	assert_int_equal(verdict(p, "x86_64", "read", 99999, 0, 0), SCG_RET_ERRNO | (99999 % 4096));
	scg_policy_free(p);
	free(text);
}

/* --- round trip ------------------------------------------------------------------------- */

/* Every ABI of @a plus one that is not, every syscall its rules name, interesting arguments. */
static void compare_policies(const struct scg_policy *a, const struct scg_policy *b)
{
	uint64_t values[6][24];
	size_t nvalues[6];
	for (unsigned i = 0; i < 6; i++)
		nvalues[i] = polgen_arg_values(a, i, values[i], 24);
	const struct scg_arch *arches[34];
	size_t narches = 0;
	for (size_t i = 0; i < scg_policy_arch_count(a); i++)
		arches[narches++] = scg_policy_arch_at(a, i);
	arches[narches++] = scg_arch_lookup("s390");
	for (size_t ai = 0; ai < narches; ai++) {
		const struct scg_arch *arch = arches[ai];
		uint32_t nrs[80];
		size_t nnr = 0;
		nrs[nnr++] = 0;
		nrs[nnr++] = 0xffffffff;
		nrs[nnr++] = scg_syscall_max(arch) + 1;
		for (size_t i = 0; i < scg_policy_rule_count(a) && nnr + 1 < 80; i++) {
			uint32_t first, last;
			if (scg_policy_rule_range(a, i, arch, &first, &last) == 0) {
				nrs[nnr++] = first;
				nrs[nnr++] = last; /* both ends of a range */
			}
		}
		for (size_t n = 0; n < nnr; n++) {
			for (unsigned arg = 0; arg < 6; arg++) {
				for (size_t v = 0; v < nvalues[arg]; v++) {
					struct scg_seccomp_data d = {.nr = nrs[n],
								     .arch = scg_arch_audit(arch)};
					for (unsigned k = 0; k < 6; k++)
						d.args[k] = values[k][(v + k) % nvalues[k]];
					d.args[arg] = values[arg][v];
					struct scg_verdict va, vb;
					scg_policy_eval(a, &d, &va);
					scg_policy_eval(b, &d, &vb);
					if (va.action != vb.action)
						fail_msg("%s nr %#x: %#x vs %#x",
							 scg_arch_name(arch), d.nr, va.action,
							 vb.action);
				}
			}
		}
	}
}

static void round_trip(const struct scg_policy *p)
{
	char *text = NULL;
	assert_int_equal(scg_policy_to_text(p, &text), 0);
	struct scg_policy *back = NULL;
	if (parse_with(text, NULL, &back) != 0) {
		test_print_diag(last_diag);
		fail_msg("the text does not parse:\n%s", text);
	}
	assert_int_equal(scg_diag_count_at_least(last_diag, SCG_SEV_ERROR), 0);
	compare_policies(p, back);
	compare_policies(back, p);
	/* from then on the text is a fixed point (the first pass may drop
	 * rules that apply to no target ABI) */
	char *again = NULL, *third = NULL;
	struct scg_policy *back2 = NULL;
	assert_int_equal(scg_policy_to_text(back, &again), 0);
	assert_int_equal(parse_with(again, NULL, &back2), 0);
	assert_int_equal(scg_policy_to_text(back2, &third), 0);
	assert_string_equal(again, third);
	scg_policy_free(back2);
	free(again);
	free(third);
	free(text);
	scg_policy_free(back);
}

static void test_round_trip_text(void **state)
{
	(void)state;
	static const char *const sources[] = {
	    issue_example,
	    "arch aarch64, arm, x86_64\ndefault errno(EPERM)\nunknown errno(ENOSYS)\n"
	    "allow openat if (flags & O_DIRECT) == 0 && dirfd == AT_FDCWD\n"
	    "allow open, mmap2?\nerrno(ENOSYS) 999\nallow read on arm\n",
	    "arch x86_64, mips\nerrno(ENOSYS) read\nkill-thread write\nlog getpid\n"
	    "notify kill\ntrap(3) getppid\ntrace(9) gettid\naction(0x7fff0001) getuid\n",
	    "allow getpid if !(arg0 == 1 || arg1.lo < 2) && (arg2.hi & 0xf) >= 3\n"
	    "allow getpid if arg0 not in {1, 2, 3} || arg5 > 0xffffffff\n",
	    "use stdio\n",
	    /* 60 negations in a row: the text must stay within the 64 levels the parser reads */
	    "allow getpid if !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!arg0 == 1 ||\n"
	    "\t!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!(arg1 & 4) == 0\n",
	};
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		struct scg_policy *p = parse_ok(sources[i]);
		round_trip(p);
		scg_policy_free(p);
	}
	/* a known text */
	struct scg_policy *p = parse_clean("default errno(EPERM)\nallow read, write\n"
					   "allow mmap if (arg2 & PROT_EXEC) == 0\n");
	char *text;
	assert_int_equal(scg_policy_to_text(p, &text), 0);
	assert_string_equal(text, "# policy text written by libsyscage\n"
				  "arch x86_64, x86, x32\n"
				  "default errno(EPERM)\n"
				  "badarch kill\n"
				  "\n"
				  "allow read, write\n"
				  "allow mmap if (arg2 & 4) == 0\n");
	free(text);
	scg_policy_free(p);
	/* built with the API: a rule for no known ABI, a name no ABI has */
	p = scg_policy_new();
	assert_int_equal(scg_policy_add_native_arches(p), 0);
	struct scg_rule_spec spec = { .action = SCG_RET_ALLOW, .syscall = "read",
				      .arch_mask = 1u << 30, .loc = SCG_LOC_NONE };
	assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	round_trip(p);
	spec = (struct scg_rule_spec){ .action = SCG_RET_ALLOW, .syscall = "no_such_call",
				       .loc = SCG_LOC_NONE };
	assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	assert_int_equal(scg_policy_to_text(p, &text), -EINVAL);
	assert_null(text);
	/* an empty name is refused, and the policy stays as it was */
	spec = (struct scg_rule_spec){ .action = SCG_RET_ALLOW, .syscall = "",
				       .cond = scg_expr_cmp(0, 64, SCG_CMP_EQ, UINT64_MAX, 1),
				       .loc = SCG_LOC_NONE };
	assert_int_equal(scg_policy_add_rule(p, &spec), -EINVAL);
	assert_null(spec.cond);
	assert_int_equal(scg_policy_rule_count(p), 2);
	scg_policy_free(p);
	/* no target ABI: no text */
	p = scg_policy_new();
	assert_int_equal(scg_policy_to_text(p, &text), -EINVAL);
	scg_policy_free(p);
}

static void test_round_trip_random(void **state)
{
	(void)state;
	struct progen_rng rng;
	progen_seed(&rng, 0x5ca9e);
	struct polgen_opts opts = {.max_rules = 12, .max_depth = 3};
	for (int i = 0; i < 300; i++) {
		struct scg_policy *p = polgen_policy(&rng, &opts);
		assert_non_null(p);
		round_trip(p);
		scg_policy_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_example),
	    cmocka_unit_test(test_actions),
	    cmocka_unit_test(test_errno_per_abi),
	    cmocka_unit_test(test_comparisons),
	    cmocka_unit_test(test_all_arguments),
	    cmocka_unit_test(test_widths),
	    cmocka_unit_test(test_parameter_names),
	    cmocka_unit_test(test_constants_per_abi),
	    cmocka_unit_test(test_groups_and_numbers),
	    cmocka_unit_test(test_number_ranges),
	    cmocka_unit_test(test_number_range_model),
	    cmocka_unit_test(test_number_range_errors),
	    cmocka_unit_test(test_number_range_warnings),
	    cmocka_unit_test(test_number_range_text),
	    cmocka_unit_test(test_libseccomp_high_numbers),
	    cmocka_unit_test(test_arch_settings),
	    cmocka_unit_test(test_unknown_and_badarch),
	    cmocka_unit_test(test_continuation),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_constant_eval), cmocka_unit_test(test_several_errors),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test_setup_teardown(test_include, setup_tmpdir, teardown_tmpdir),
	    cmocka_unit_test_setup_teardown(test_include_errors, setup_tmpdir, teardown_tmpdir),
	    cmocka_unit_test(test_use_profile),
	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_many_rules),
	    cmocka_unit_test(test_growth_range_error),
	    cmocka_unit_test(test_growth_unclosed_group),
	    cmocka_unit_test(test_growth_compare_errors),
	    cmocka_unit_test(test_growth_use),
	    cmocka_unit_test_setup_teardown(test_growth_include, setup_tmpdir, teardown_tmpdir),
	    cmocka_unit_test_setup_teardown(test_generated_text, setup_tmpdir, teardown_tmpdir),
	    cmocka_unit_test(test_round_trip_text),
	    cmocka_unit_test(test_round_trip_random),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	scg_diag_free(last_diag);
	return r;
}
