/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The libseccomp-compatible library (compat/): rule sets built through the
 * libseccomp API, then (ABI, syscall, arguments) -> expected verdict, checked
 * through syscage's emulator and, for x86_64 calls, through the kernel.  Also
 * the API's return codes, attribute defaults, resolvers and transactions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SCMP_A0(op, datum) leaves datum_b to its zero default, as libseccomp's macros do. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <seccomp.h>
#include <syscage/syscage.h>

#include "support/features.h"
#include "support/live.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EBADF_RET (-9)

/* One call and the return value the filter must give it. */
struct probe {
	const char *arch; /* NULL: the end of the list */
	const char *name; /* NULL: use @nr */
	uint32_t nr;
	uint64_t args[6];
	uint32_t expect;
};

struct table_case {
	const char *title;
	uint32_t def_action;
	void (*build)(scmp_filter_ctx ctx);
	struct probe probes[12];
};

/* --- rule sets ------------------------------------------------------------- */

static void build_deny_one_value(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(5), SCMP_SYS(close), 1,
					  SCMP_A0(SCMP_CMP_EQ, 10001)), 0);
}

static void build_unconditional_wins(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(dup), 1,
					  SCMP_A0(SCMP_CMP_EQ, 10001)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(dup), 0), 0);
	/* Later rules for a syscall decided unconditionally change nothing. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(4), SCMP_SYS(dup), 0), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(6), SCMP_SYS(dup), 1,
					  SCMP_A0(SCMP_CMP_EQ, 10002)), 0);
}

static void build_newest_overlap(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(close), 1,
					  SCMP_A0(SCMP_CMP_GT, 10000)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(close), 1,
					  SCMP_A0(SCMP_CMP_LT, 20000)), 0);
}

static void build_64bit(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(9), SCMP_SYS(close), 1,
					  SCMP_A0_64(SCMP_CMP_GT, 0x100000000ULL)), 0);
	/* SCMP_A0_32 cuts the datum to 32 bits: -1 means 0xffffffff, high word 0. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(4), SCMP_SYS(dup), 1,
					  SCMP_A0_32(SCMP_CMP_EQ, -1)), 0);
}

static void build_masked(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(6), SCMP_SYS(close), 1,
					  SCMP_A0(SCMP_CMP_MASKED_EQ, 0xff, 0x11)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(7), SCMP_SYS(dup), 2,
					  SCMP_A1(SCMP_CMP_NE, 0), SCMP_A0(SCMP_CMP_GE, 10005)), 0);
}

static void build_allow_list(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(close), 0), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(dup), 1,
					  SCMP_A0(SCMP_CMP_LE, 10003)), 0);
}

static void build_x86_socket_deny(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(socket), 1,
					  SCMP_A0(SCMP_CMP_EQ, 2)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(semget), 0), 0);
}

static void build_x86_socket_allow(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
					  SCMP_A0(SCMP_CMP_EQ, 1)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(bind), 0), 0);
}

static void build_badarch(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(99)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(8), SCMP_SYS(close), 0), 0);
}

static void build_tskip(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -1, 0), -EINVAL);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_API_TSKIP, 1), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -1, 0), 0);
}

static void build_pseudo(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	/* socketcall does not exist on x86_64: a pseudo number, a rule on x86 only. */
	assert_true(SCMP_SYS(socketcall) < 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(socketcall), 0), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(arch_prctl), 0), 0);
}

static void build_merged(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(5), SCMP_SYS(close), 0), 0);
	scmp_filter_ctx other = seccomp_init(SCMP_ACT_ALLOW);
	assert_non_null(other);
	assert_int_equal(seccomp_arch_remove(other, SCMP_ARCH_NATIVE), 0);
	assert_int_equal(seccomp_arch_add(other, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_rule_add(other, SCMP_ACT_ERRNO(6), SCMP_SYS(close), 0), 0);
	assert_int_equal(seccomp_merge(c, other), 0);
}

/* libseccomp 2.5.4's BPF gives LOG to getppid(0x7fffffff, 2, 0x100001233, ...) here,
 * although neither rule matches (its own text export says ALLOW). */
static void build_libseccomp_slip(scmp_filter_ctx c)
{
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_LOG, SCMP_SYS(getppid), 2,
					  SCMP_A0(SCMP_CMP_LE, 0x1234),
					  SCMP_A2(SCMP_CMP_MASKED_EQ, 0x80000001, 0xffffffff)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_LOG, SCMP_SYS(getppid), 3,
					  SCMP_A0(SCMP_CMP_GE, 0x100000001ULL),
					  SCMP_A5(SCMP_CMP_MASKED_EQ, 0xff, 0xfffffffe),
					  SCMP_A2(SCMP_CMP_GT, 1)), 0);
}

#define X64(n, e, ...) { "x86_64", n, 0, { __VA_ARGS__ }, e }
#define X86(n, e, ...) { "x86", n, 0, { __VA_ARGS__ }, e }
#define ERR(n) SCMP_ACT_ERRNO(n)
#define ALLOW SCMP_ACT_ALLOW

static const struct table_case cases[] = {
	{ "deny one value", ALLOW, build_deny_one_value,
	  { X64("close", ERR(5), 10001), X64("close", ALLOW, 10002),
	    X64("close", ALLOW, 10001ULL | (1ULL << 32)), X64("dup", ALLOW, 10001) } },
	{ "an unconditional rule decides alone", ALLOW, build_unconditional_wins,
	  { X64("dup", ERR(3), 10001), X64("dup", ERR(3), 10002), X64("dup", ERR(3), 5) } },
	{ "the newest of overlapping rules decides", ALLOW, build_newest_overlap,
	  { X64("close", ERR(2), 15000), X64("close", ERR(1), 25000), X64("close", ERR(2), 5),
	    X64("close", ERR(1), 1ULL << 40) } },
	{ "64-bit and 32-bit data", ALLOW, build_64bit,
	  { X64("close", ERR(9), 0x100000001ULL), X64("close", ALLOW, 0x100000000ULL),
	    X64("close", ALLOW, 0xffffffffULL), X64("close", ERR(9), UINT64_MAX),
	    X64("dup", ERR(4), 0xffffffffULL), X64("dup", ALLOW, UINT64_MAX) } },
	{ "masked and multi-argument rules", ALLOW, build_masked,
	  { X64("close", ERR(6), 0x10011), X64("close", ALLOW, 0x10012),
	    X64("dup", ERR(7), 10005, 1), X64("dup", ALLOW, 10005, 0),
	    X64("dup", ALLOW, 10004, 1) } },
	{ "allow list", ERR(38), build_allow_list,
	  { X64("close", ALLOW, 10001), X64("dup", ALLOW, 10003), X64("dup", ERR(38), 10004),
	    X64("getppid", ERR(38)), X86("close", SCMP_ACT_KILL),
	    X86("close", SCMP_ACT_KILL, 10001) } },
	{ "x86 socketcall: a deny rule with arguments", ALLOW, build_x86_socket_deny,
	  { X86("socket", ERR(1), 2), X86("socket", ALLOW, 10), X86("socketcall", ERR(1), 1),
	    X86("socketcall", ALLOW, 2), X64("socket", ERR(1), 2), X64("socket", ALLOW, 1),
	    X86("ipc", ERR(2), 2), X86("semget", ERR(2)), X64("semget", ERR(2)) } },
	{ "x86 socketcall: an allow rule with arguments", ERR(1), build_x86_socket_allow,
	  { X86("socket", ALLOW, 1), X86("socket", ERR(1), 2), X86("socketcall", ERR(1), 1),
	    X86("socketcall", ALLOW, 2), X86("bind", ALLOW), X64("socket", ALLOW, 1) } },
	{ "bad ABI action", ALLOW, build_badarch,
	  { X64("close", ERR(8)), { "x32", "close", 0, { 0 }, ERR(99) }, X86("close", ERR(99)),
	    { "aarch64", "close", 0, { 0 }, ERR(99) } } },
	{ "rules for syscall -1", ALLOW, build_tskip,
	  { { "x86_64", NULL, UINT32_MAX, { 0 }, ERR(3) }, X64("close", ALLOW) } },
	{ "pseudo syscall numbers", ALLOW, build_pseudo,
	  { X86("socketcall", ERR(2), 5), X86("arch_prctl", ERR(3)), X64("arch_prctl", ERR(3)),
	    X64("getppid", ALLOW) } },
	{ "same-action rules libseccomp 2.5.4 compiles wrongly", ALLOW, build_libseccomp_slip,
	  { X64("getppid", ALLOW, 0x7fffffff, 2, 0x100001233, 0x17ffffffe, 0, 0x17ffffffe),
	    X64("getppid", SCMP_ACT_LOG, 0x1234, 0, 0x80000001),
	    X64("getppid", SCMP_ACT_LOG, 0x100000001ULL, 0, 2, 0, 0, 0x1fe),
	    X64("getppid", ALLOW, 0x100000001ULL, 0, 1, 0, 0, 0x1fe) } },
	{ "merged contexts", ALLOW, build_merged,
	  { X64("close", ERR(5)), X86("close", ERR(6)), X86("dup", ALLOW),
	    X86("close", ERR(6), 10001), X86("dup", ALLOW, 10001) } },
};

/* --- running them ---------------------------------------------------------- */

static void export_prog(scmp_filter_ctx c, struct scg_prog *prog)
{
	size_t len = 0;
	assert_int_equal(seccomp_export_bpf_mem(c, NULL, &len), 0);
	assert_true(len > 0 && len % sizeof(struct scg_insn) == 0);
	prog->len = len / sizeof(struct scg_insn);
	prog->insns = calloc(prog->len, sizeof(struct scg_insn));
	assert_non_null(prog->insns);
	assert_int_equal(seccomp_export_bpf_mem(c, prog->insns, &len), 0);
	struct scg_verify_result vr;
	assert_int_equal(scg_verify(prog, NULL, &vr, NULL), 0);
	assert_true(vr.accepted);
}

static struct scg_seccomp_data probe_data(const struct probe *p)
{
	const struct scg_arch *arch = scg_arch_lookup(p->arch);
	assert_non_null(arch);
	struct scg_seccomp_data d = { .arch = scg_arch_audit(arch) };
	if (p->name != NULL)
		assert_int_equal(scg_syscall_lookup(arch, p->name, &d.nr), 0);
	else
		d.nr = p->nr;
	memcpy(d.args, p->args, sizeof(d.args));
	return d;
}

static size_t kernel_checked, int80_skipped;

/* The kernel's answer for a call whose syscall fails harmlessly when it runs. */
static void check_kernel(const struct scg_prog *prog, const struct scg_seccomp_data *d)
{
	struct scg_emu_result res;
	assert_int_equal(scg_emu_stack(prog, 1, d, &res, NULL, NULL, NULL), 0);
	struct live_call call = { .nr = d->nr, .int80 = d->arch == scg_arch_audit(scg_arch_lookup("x86")) };
	memcpy(call.args, d->args, sizeof(call.args));
	struct live_outcome want, got;
	live_expect(&res, EBADF_RET, &want);
	assert_int_equal(live_run(prog, 1, &call, &got), 0);
	if (!live_outcome_equal(&want, &got)) {
		char a[64], b[64];
		live_outcome_format(&want, a, sizeof(a));
		live_outcome_format(&got, b, sizeof(b));
		fail_msg("nr %u: expected %s, kernel %s", d->nr, a, b);
	}
	kernel_checked++;
}

static bool kernel_safe(const struct probe *p)
{
	/* close and dup of descriptors far above any open one only fail with EBADF;
	 * x86 calls enter through int $0x80. */
	return (strcmp(p->arch, "x86_64") == 0 || strcmp(p->arch, "x86") == 0) && p->name != NULL &&
	       (strcmp(p->name, "close") == 0 || strcmp(p->name, "dup") == 0) &&
	       (uint32_t)p->args[0] >= 10000;
}

/* Whether the kernel can answer for @p: x86 probes need 32-bit emulation. */
static bool kernel_can_run(const struct probe *p)
{
	if (strcmp(p->arch, "x86") || feature_have("i386-emulation"))
		return true;
	int80_skipped++;
	return false;
}

static void run_case(const struct table_case *tc, int live)
{
	scmp_filter_ctx c = seccomp_init(tc->def_action);
	assert_non_null(c);
	tc->build(c);
	struct scg_prog prog = { 0 };
	export_prog(c, &prog);
	for (size_t i = 0; i < N(tc->probes) && tc->probes[i].arch != NULL; i++) {
		const struct probe *p = &tc->probes[i];
		struct scg_seccomp_data d = probe_data(p);
		uint32_t ret;
		assert_int_equal(scg_emu_run(&prog, &d, &ret, NULL, NULL, NULL), 0);
		if (ret != p->expect)
			fail_msg("%s: probe %zu (%s %s): got %#x, want %#x", tc->title, i, p->arch,
				 p->name ? p->name : "-", ret, p->expect);
		if (live && kernel_safe(p) && kernel_can_run(p))
			check_kernel(&prog, &d);
	}
	scg_prog_release(&prog);
	seccomp_release(c);
}

static void test_table(void **state)
{
	(void)state;
	int live = live_require();
	assert_true(live >= 0);
	if (!live)
		skip();
	kernel_checked = int80_skipped = 0;
	for (size_t i = 0; i < N(cases); i++)
		run_case(&cases[i], live);
	if (int80_skipped)
		feature_skip("i386-emulation", "%zu int $0x80 kernel checks of test_table",
			     int80_skipped);
	assert_true(kernel_checked + int80_skipped >= 15);
}

/* --- return codes and attributes -------------------------------------------- */

static void test_rule_return_codes(void **state)
{
	(void)state;
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_non_null(c);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(read), 0), -EACCES);
	assert_int_equal(seccomp_rule_add(c, 0x12345678, SCMP_SYS(read), 0), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(5000), SCMP_SYS(read), 0), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), -50, 0), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 7,
					  SCMP_A0(SCMP_CMP_EQ, 1)), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 2,
					  SCMP_A0(SCMP_CMP_EQ, 1), SCMP_A0(SCMP_CMP_EQ, 2)), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 1,
					  SCMP_CMP(6, SCMP_CMP_EQ, 1)), -EINVAL);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 1,
					  SCMP_A0(_SCMP_CMP_MAX, 1)), -EINVAL);
	assert_int_equal(seccomp_rule_add_array(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 1, NULL),
			 -EINVAL);
	assert_int_equal(seccomp_rule_add(NULL, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 0), -EINVAL);
	/* Same condition, another action: refused; a broader rule of another action too. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(write), 2,
					  SCMP_A0(SCMP_CMP_EQ, 1), SCMP_A1(SCMP_CMP_EQ, 2)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(write), 2,
					  SCMP_A1(SCMP_CMP_EQ, 2), SCMP_A0(SCMP_CMP_EQ, 1)), -EEXIST);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(write), 1,
					  SCMP_A0(SCMP_CMP_EQ, 1)), -EEXIST);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(write), 2,
					  SCMP_A0(SCMP_CMP_EQ, 1), SCMP_A1(SCMP_CMP_EQ, 2)), 0);
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_rule_add_exact(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 0),
			 -EOPNOTSUPP);
	/* A native number no other ABI can name. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), 99999, 0), -EFAULT);
	seccomp_release(c);
}

static void test_attributes(void **state)
{
	(void)state;
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ERRNO(1));
	assert_non_null(c);
	static const uint32_t defaults[] = { 0, SCMP_ACT_ERRNO(1), SCMP_ACT_KILL, 1, 0, 0,
					     0, 0, 1, 0, 0 };
	for (uint32_t a = SCMP_FLTATR_ACT_DEFAULT; a < _SCMP_FLTATR_MAX; a++) {
		uint32_t v = 12345;
		assert_int_equal(seccomp_attr_get(c, (enum scmp_filter_attr)a, &v), 0);
		assert_int_equal(v, defaults[a]);
	}
	uint32_t v;
	assert_int_equal(seccomp_attr_get(c, _SCMP_FLTATR_MIN, &v), -EINVAL);
	assert_int_equal(seccomp_attr_get(c, _SCMP_FLTATR_MAX, &v), -EINVAL);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_ACT_DEFAULT, SCMP_ACT_ALLOW), -EACCES);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, 0x12345678), -EINVAL);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 0), -EOPNOTSUPP);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2), 0);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_NNP, 5), 0);
	assert_int_equal(seccomp_attr_get(c, SCMP_FLTATR_CTL_NNP, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(seccomp_reset(c, SCMP_ACT_ALLOW), 0);
	assert_int_equal(seccomp_attr_get(c, SCMP_FLTATR_CTL_OPTIMIZE, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(seccomp_reset(c, 0x12345678), -EINVAL);
	assert_null(seccomp_init(0x12345678));
	assert_int_equal(seccomp_notify_fd(c), -EFAULT);
	assert_int_equal(seccomp_notify_fd(NULL), -EINVAL);
	seccomp_release(c);
}

static void test_arches_and_names(void **state)
{
	(void)state;
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_non_null(c);
	assert_int_equal(seccomp_arch_native(), SCMP_ARCH_X86_64);
	assert_int_equal(seccomp_arch_exist(c, SCMP_ARCH_NATIVE), 0);
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86_64), -EEXIST);
	assert_int_equal(seccomp_arch_add(c, 0x1234), -EINVAL);
	assert_int_equal(seccomp_arch_exist(c, SCMP_ARCH_ARM), -EEXIST);
	assert_int_equal(seccomp_arch_remove(c, SCMP_ARCH_ARM), -EEXIST);
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X32), 0);
	assert_int_equal(seccomp_arch_exist(c, SCMP_ARCH_X32), 0);
	assert_int_equal(seccomp_arch_resolve_name("x32"), SCMP_ARCH_X32);
	assert_int_equal(seccomp_arch_resolve_name("aarch64"), SCMP_ARCH_AARCH64);
	assert_int_equal(seccomp_arch_resolve_name("sheb"), SCMP_ARCH_SHEB);
	assert_int_equal(seccomp_arch_resolve_name("amd64"), 0);
	assert_int_equal(seccomp_arch_resolve_name(NULL), 0);
	assert_int_equal(seccomp_syscall_resolve_name("read"), 0);
	assert_int_equal(seccomp_syscall_resolve_name("bogus"), __NR_SCMP_ERROR);
	assert_int_equal(seccomp_syscall_resolve_name("socketcall"), __PNR_socketcall);
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86, "socket"), __PNR_socket);
	assert_int_equal(seccomp_syscall_resolve_name_rewrite(SCMP_ARCH_X86, "socket"), 102);
	assert_int_equal(seccomp_syscall_resolve_name_rewrite(SCMP_ARCH_X86, "semop"), 117);
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X32, "read"), 0x40000000);
	assert_int_equal(seccomp_syscall_resolve_name_arch(0x1234, "read"), __NR_SCMP_ERROR);
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86, __PNR_socket);
	assert_string_equal(name, "socket");
	free(name);
	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86, 102);
	assert_string_equal(name, "socketcall");
	free(name);
	assert_null(seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, __PNR_socket));
	assert_null(seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, 5000));
	assert_int_equal(seccomp_syscall_priority(c, SCMP_SYS(read), 200), 0);
	assert_int_equal(seccomp_syscall_priority(c, -5, 200), -EINVAL);
	assert_int_equal(seccomp_arch_remove(c, SCMP_ARCH_NATIVE), 0);
	assert_int_equal(seccomp_arch_exist(c, SCMP_ARCH_X86_64), -EEXIST);
	seccomp_release(c);
}

static void test_exports_and_transactions(void **state)
{
	(void)state;
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_non_null(c);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(close), 0), 0);
	size_t len = 0;
	assert_int_equal(seccomp_export_bpf_mem(c, NULL, &len), 0);
	size_t small = len - 8;
	char buf[8];
	assert_int_equal(seccomp_export_bpf_mem(c, buf, &small), -ERANGE);
	assert_int_equal(small, len);
	assert_int_equal(seccomp_export_bpf_mem(c, NULL, NULL), -EINVAL);
	assert_int_equal(seccomp_precompute(c), 0);

	assert_int_equal(seccomp_transaction_commit(c), -EINVAL);
	assert_int_equal(seccomp_transaction_start(c), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(dup), 0), 0);
	assert_int_equal(seccomp_transaction_start(c), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(dup2), 0), 0);
	seccomp_transaction_reject(c);
	assert_int_equal(seccomp_transaction_commit(c), 0);

	struct scg_prog prog = { 0 };
	export_prog(c, &prog);
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	struct scg_seccomp_data d = { .arch = scg_arch_audit(x64) };
	uint32_t ret;
	static const struct {
		const char *name;
		uint32_t want;
	} expect[] = { { "close", SCMP_ACT_ERRNO(1) }, { "dup", SCMP_ACT_ERRNO(2) },
		       { "dup2", SCMP_ACT_ALLOW } };
	for (size_t i = 0; i < N(expect); i++) {
		assert_int_equal(scg_syscall_lookup(x64, expect[i].name, &d.nr), 0);
		assert_int_equal(scg_emu_run(&prog, &d, &ret, NULL, NULL, NULL), 0);
		assert_int_equal(ret, expect[i].want);
	}
	scg_prog_release(&prog);

	/* The readable export names the rules. */
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	assert_int_equal(seccomp_export_pfc(c, fileno(tmp)), 0);
	char text[4096] = "";
	rewind(tmp);
	size_t got = fread(text, 1, sizeof(text) - 1, tmp);
	text[got] = '\0';
	fclose(tmp);
	assert_non_null(strstr(text, "arch x86_64"));
	assert_non_null(strstr(text, "errno(EPERM)"));
	seccomp_release(c);
}

/*
 * x86_64 numbers above the x32 range: libseccomp 2.5.4 gives 0x80000000 ..
 * 0xbfffffff the bad-architecture action when x32 is not in the filter (as
 * every number from 0x40000000 up but -1), the default when it is.
 */
static uint32_t high_number_verdict(bool with_x32, uint32_t nr)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ERRNO(1));
	assert_non_null(c);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP), 0);
	if (with_x32)
		assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X32), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(read), 0), 0);
	struct scg_prog prog = { 0 };
	export_prog(c, &prog);
	struct scg_seccomp_data d = { .arch = SCMP_ARCH_X86_64, .nr = nr };
	uint32_t ret;
	assert_int_equal(scg_emu_run(&prog, &d, &ret, NULL, NULL, NULL), 0);
	scg_prog_release(&prog);
	seccomp_release(c);
	return ret;
}

static void test_x86_64_high_numbers(void **state)
{
	(void)state;
	static const struct {
		uint32_t nr, alone, with_x32;
	} expect[] = {
		{ 0, SCMP_ACT_ALLOW, SCMP_ACT_ALLOW },
		{ 1000, SCMP_ACT_ERRNO(1), SCMP_ACT_ERRNO(1) },
		{ 0x40000000, SCMP_ACT_TRAP, SCMP_ACT_ALLOW },
		{ 0x7fffffff, SCMP_ACT_TRAP, SCMP_ACT_ERRNO(1) },
		{ 0x80000000, SCMP_ACT_TRAP, SCMP_ACT_ERRNO(1) },
		{ 0xbfffffff, SCMP_ACT_TRAP, SCMP_ACT_ERRNO(1) },
		{ 0xc0000000, SCMP_ACT_TRAP, SCMP_ACT_ERRNO(1) },
		{ 0xffffffff, SCMP_ACT_ERRNO(1), SCMP_ACT_ERRNO(1) },
	};
	for (size_t i = 0; i < N(expect); i++) {
		assert_int_equal(high_number_verdict(false, expect[i].nr), expect[i].alone);
		assert_int_equal(high_number_verdict(true, expect[i].nr), expect[i].with_x32);
	}
}

/* What @prog answers for syscall @nr of ABI @audit with arguments @args (or zeros). */
static uint32_t verdict_of(const struct scg_prog *prog, uint32_t audit, uint32_t nr,
			   const uint64_t *args)
{
	struct scg_seccomp_data d = { .nr = nr, .arch = audit };
	if (args != NULL)
		memcpy(d.args, args, sizeof(d.args));
	uint32_t out = 0;
	assert_int_equal(scg_emu_run(prog, &d, &out, NULL, NULL, NULL), 0);
	return out;
}

/*
 * Which overlapping rules of different actions libseccomp refuses follows
 * its rule tree, node for node: each case below was answered differently
 * by a simpler model, and there the drop-in let a call through that
 * libseccomp denies.  Return codes and verdicts are libseccomp 2.5.4's.
 */
static void test_overlap_refusals(void **state)
{
	(void)state;
	struct scg_prog prog = { 0 };
	/* x86_64: the rule that ends on a0's high-word node came first, so the
	 * longer one is added below it (libseccomp: 0), and decides close(0, 0, 0). */
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(13), SCMP_SYS(close), 1,
					  SCMP_A0(SCMP_CMP_LT, 0)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(close), 2,
					  SCMP_A0(SCMP_CMP_LE, 0), SCMP_A2(SCMP_CMP_LE, 0)), 0);
	export_prog(c, &prog);
	const uint64_t zeros[6] = { 0 };
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, zeros), SCMP_ACT_ERRNO(1));
	scg_prog_release(&prog);
	seccomp_release(c);

	/* x86, 32-bit: a0 == 0x100000000 is a0 == 0 there, so a rule of another
	 * action that ends on that node is refused. */
	c = seccomp_init(SCMP_ACT_ERRNO(1));
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_arch_remove(c, SCMP_ARCH_NATIVE), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_TRACE(7), SCMP_SYS(write), 2,
					  SCMP_A0(SCMP_CMP_EQ, 0x100000000), SCMP_A1(SCMP_CMP_EQ, 1)),
			 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
					  SCMP_A0(SCMP_CMP_EQ, 0)), -EEXIST);
	export_prog(c, &prog);
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_I386, 4, zeros), SCMP_ACT_ERRNO(1));
	scg_prog_release(&prog);
	seccomp_release(c);

	/* x86 again: a2 < 0x100000000 is a2 < 0, the TRAP rule's node. */
	c = seccomp_init(SCMP_ACT_ERRNO(13));
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_X86), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(close), 1,
					  SCMP_A2(SCMP_CMP_LT, 0)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(close), 1,
					  SCMP_A2(SCMP_CMP_LT, 0x100000000)), -EEXIST);
	export_prog(c, &prog);
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, zeros), SCMP_ACT_ERRNO(13));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_I386, 6, zeros), SCMP_ACT_ERRNO(13));
	scg_prog_release(&prog);
	seccomp_release(c);

	/* The third rule's a1 chain is reached through both words of a0 and
	 * libseccomp 2.5.4 links it into one level twice: its seccomp_rule_add()
	 * never returns.  The drop-in refuses the rule. */
	c = seccomp_init(SCMP_ACT_ALLOW);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(close), 2,
					  SCMP_A0(SCMP_CMP_GE, 0),
					  SCMP_A1(SCMP_CMP_GT, 0x200000001ULL)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(close), 2,
					  SCMP_A0(SCMP_CMP_LT, 0xffffffffULL),
					  SCMP_A1(SCMP_CMP_LE, 0x100000002ULL)), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(close), 2,
					  SCMP_A0(SCMP_CMP_GE, 0),
					  SCMP_A1(SCMP_CMP_EQ, 0x200000001ULL)), -EEXIST);
	export_prog(c, &prog);
	const uint64_t above[6] = { 5, 0x300000000ULL }, low[6] = { 5, 7 },
		       between[6] = { 5, 0x200000001ULL };
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, above), SCMP_ACT_ERRNO(2));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, low), SCMP_ACT_ERRNO(1));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, between), SCMP_ACT_ALLOW);
	scg_prog_release(&prog);
	seccomp_release(c);
}

/*
 * Calls that rules of different actions meet get the action libseccomp's
 * tree gives them as long as the syscall's rules have at most 8 actions;
 * past that, the rules themselves decide, the strictest action first, so
 * such a call never gets a laxer action than libseccomp's filter gives it.
 * Rule i matches close() with bit i of a0 set; libseccomp 2.5.4 tests the
 * highest bit first (seccomp_export_pfc), whatever the actions.
 */
static void test_overlap_fallback(void **state)
{
	(void)state;
	const uint32_t act[9] = { SCMP_ACT_LOG, SCMP_ACT_TRACE(1), SCMP_ACT_ERRNO(3),
				  SCMP_ACT_ERRNO(2), SCMP_ACT_ERRNO(1), SCMP_ACT_TRAP,
				  SCMP_ACT_KILL, SCMP_ACT_TRACE(2), SCMP_ACT_KILL_PROCESS };
	const struct {
		uint64_t a0;
		uint32_t with8, with9; /* eight rules: the tree's answer; nine: the strictest */
	} calls[] = {
		{ 0, ALLOW, ALLOW },
		{ 0x200, ALLOW, ALLOW },
		{ 0x1ff, SCMP_ACT_TRACE(2), SCMP_ACT_KILL_PROCESS },
		{ 0xff, SCMP_ACT_TRACE(2), SCMP_ACT_KILL },
		{ 0x81, SCMP_ACT_TRACE(2), SCMP_ACT_TRACE(2) },
		{ 0xa1, SCMP_ACT_TRACE(2), SCMP_ACT_TRAP },
		{ 0x23, SCMP_ACT_TRAP, SCMP_ACT_TRAP },
		/* one rank: no rule inside another, the newest decides, as libseccomp */
		{ 0x1c, SCMP_ACT_ERRNO(1), SCMP_ACT_ERRNO(1) },
		{ 0x0c, SCMP_ACT_ERRNO(2), SCMP_ACT_ERRNO(2) },
	};
	for (size_t n = 8; n <= 9; n++) {
		scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
		assert_non_null(c);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(seccomp_rule_add(c, act[i], SCMP_SYS(close), 1,
							  SCMP_A0(SCMP_CMP_MASKED_EQ, 1u << i,
								  1u << i)), 0);
		struct scg_prog prog = { 0 };
		export_prog(c, &prog);
		for (unsigned i = 0; i < n; i++) {
			const uint64_t args[6] = { 1u << i };
			assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 3, args), act[i]);
		}
		for (size_t k = 0; k < N(calls); k++) {
			const uint64_t args[6] = { calls[k].a0 };
			uint32_t want = n == 8 ? calls[k].with8 : calls[k].with9;
			uint32_t got = verdict_of(&prog, AUDIT_ARCH_X86_64, 3, args);
			if (got != want)
				fail_msg("%zu rules, a0 %#llx: %#x, want %#x", n,
					 (unsigned long long)calls[k].a0, got, want);
		}
		scg_prog_release(&prog);
		seccomp_release(c);
	}
}

/*
 * Numbers with or without the ABI's base and x32 bit: libseccomp 2.5 and 2.6
 * name x32 2 and 0x40000002 "open", MIPS o32 2 and 4002 "fork", and so does
 * the drop-in (it answered nothing without the base).
 */
static void test_numbers_with_or_without_base(void **state)
{
	(void)state;
	static const struct {
		uint32_t token;
		int nr;
		const char *name;
	} numbers[] = {
		{ SCMP_ARCH_X32, 2, "open" },	      { SCMP_ARCH_X32, 0x40000002, "open" },
		{ SCMP_ARCH_MIPS, 2, "fork" },	      { SCMP_ARCH_MIPS, 4002, "fork" },
		{ SCMP_ARCH_MIPS64, 2, "open" },      { SCMP_ARCH_MIPS64, 5002, "open" },
		{ SCMP_ARCH_MIPS64N32, 2, "open" },   { SCMP_ARCH_MIPS64N32, 6002, "open" },
		{ SCMP_ARCH_X32, 512, "rt_sigaction" }, { SCMP_ARCH_X32, 0x40000000 + 512, "rt_sigaction" },
		{ SCMP_ARCH_MIPS, 7000, NULL },	      { SCMP_ARCH_X86_64, 0x40000002, NULL },
		{ SCMP_ARCH_X86_64, 184, "tuxcall" }, { SCMP_ARCH_X32, 0x40000000 + 184, "tuxcall" },
	};
	for (size_t i = 0; i < N(numbers); i++) {
		char *name = seccomp_syscall_resolve_num_arch(numbers[i].token, numbers[i].nr);
		if (numbers[i].name == NULL)
			assert_null(name);
		else
			assert_string_equal(name, numbers[i].name);
		free(name);
	}
	/* Newer syscalls than libseccomp 2.5's header: SCMP_SYS() and the resolver know them. */
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "mseal"), 462);
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "uretprobe"), 335);
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, "setxattrat"), 463);
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_M68K, "getpagesize"), 166);
	/* SCMP_SYS() compiles for them whatever the build's kernel headers: their own
	 * number where the headers have one, else a pseudo number of syscage's that
	 * names the syscall on every ABI. */
	static const struct {
		int nr;
		const char *name;
	} newer[] = { { SCMP_SYS(mseal), "mseal" }, { SCMP_SYS(statmount), "statmount" },
		      { SCMP_SYS(lsm_list_modules), "lsm_list_modules" },
		      { SCMP_SYS(removexattrat), "removexattrat" } };
	for (size_t i = 0; i < N(newer); i++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, newer[i].nr);
		assert_non_null(name);
		assert_string_equal(name, newer[i].name);
		free(name);
	}
	/* A rule for uretprobe by name: x86_64's 335, and nothing on aarch64, which
	 * lacks it.  (SCMP_SYS(uretprobe) is libseccomp 2.6's pseudo number when the
	 * build's kernel headers lack the syscall, which names nothing on x86_64.) */
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_AARCH64), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1),
					  seccomp_syscall_resolve_name("uretprobe"), 0),
			 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(mseal), 0), 0);
	struct scg_prog prog = { 0 };
	export_prog(c, &prog);
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 335, NULL), SCMP_ACT_ERRNO(1));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 462, NULL), SCMP_ACT_ERRNO(2));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_AARCH64, 462, NULL), SCMP_ACT_ERRNO(2));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_AARCH64, 335, NULL), SCMP_ACT_ALLOW);
	scg_prog_release(&prog);
	seccomp_release(c);
}

/* Exports @c's program, in the byte order of its ABIs, as a native program. */
static void export_prog_any_order(scmp_filter_ctx c, bool big_endian, struct scg_prog *prog)
{
	size_t len = 0;
	assert_int_equal(seccomp_export_bpf_mem(c, NULL, &len), 0);
	prog->len = len / sizeof(struct scg_insn);
	prog->insns = calloc(prog->len, sizeof(struct scg_insn));
	assert_non_null(prog->insns);
	assert_int_equal(seccomp_export_bpf_mem(c, prog->insns, &len), 0);
	for (size_t i = 0; big_endian && i < prog->len; i++) {
		prog->insns[i].code = be16toh(prog->insns[i].code);
		prog->insns[i].k = be32toh(prog->insns[i].k);
	}
}

/*
 * Syscalls older kernels' tables listed (the current ones no longer do):
 * libseccomp names them, so a rule for one must reach its number.  With
 * only the current tables, the rule for uselib on an m68k filter was
 * accepted and added nothing, and 86 stayed allowed.
 */
/*
 * libseccomp 2.6 numbers the syscalls its 2.5 header lacked -10246 (fstat)
 * to -10254 (uprobe); binaries built against 2.6 carry those numbers, so the
 * drop-in's header and resolvers use them too, and answer them as 2.6 does:
 * the pseudo number on an ABI without the syscall, and the name for it only
 * there.  An older private number of the drop-in's still names its syscall.
 */
static void test_libseccomp_26_pseudo_numbers(void **state)
{
	(void)state;
	static const struct {
		int pnr;
		const char *name;
		uint32_t lacking; /* an ABI without the syscall */
	} pnrs[] = {
		{ __PNR_atomic_barrier, "atomic_barrier", SCMP_ARCH_X86_64 },
		{ __PNR_atomic_cmpxchg_32, "atomic_cmpxchg_32", SCMP_ARCH_X86_64 },
		{ __PNR_getpagesize, "getpagesize", SCMP_ARCH_X86_64 },
		{ __PNR_riscv_hwprobe, "riscv_hwprobe", SCMP_ARCH_X86_64 },
		{ __PNR_uretprobe, "uretprobe", SCMP_ARCH_AARCH64 },
		{ __PNR_uprobe, "uprobe", SCMP_ARCH_AARCH64 },
	};
	static const int expect[] = { -10247, -10248, -10249, -10250, -10251, -10254 };
	assert_int_equal(__PNR_fstat, -10246); /* every ABI syscage knows has fstat */
	assert_int_equal(__PNR_listns, -10252);
	assert_int_equal(__PNR_rseq_slice_yield, -10253);
	for (size_t i = 0; i < N(pnrs); i++) {
		assert_int_equal(pnrs[i].pnr, expect[i]);
		assert_int_equal(seccomp_syscall_resolve_name_arch(pnrs[i].lacking, pnrs[i].name),
				 expect[i]);
		char *name = seccomp_syscall_resolve_num_arch(pnrs[i].lacking, expect[i]);
		assert_non_null(name);
		assert_string_equal(name, pnrs[i].name);
		free(name);
	}
	/* x86_64 has uretprobe as 335: there -10251 names nothing, as in libseccomp. */
	assert_int_equal(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "uretprobe"), 335);
	assert_null(seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, -10251));
	/* The number the drop-in's header gave uretprobe before still means it. */
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_X86_64, -30074);
	assert_non_null(name);
	assert_string_equal(name, "uretprobe");
	free(name);
	/* A rule for riscv_hwprobe by 2.6's number: riscv64's 258, nothing on x86_64. */
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_int_equal(seccomp_arch_add(c, SCMP_ARCH_RISCV64), 0);
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), __PNR_riscv_hwprobe, 0), 0);
	struct scg_prog prog = { 0 };
	export_prog(c, &prog);
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_RISCV64, 258, NULL), SCMP_ACT_ERRNO(1));
	assert_int_equal(verdict_of(&prog, AUDIT_ARCH_X86_64, 258, NULL), SCMP_ACT_ALLOW);
	scg_prog_release(&prog);
	seccomp_release(c);
}

static void test_removed_syscalls(void **state)
{
	(void)state;
	static const struct {
		uint32_t token;
		bool big_endian;
		const char *name;
		int nr;
	} removed[] = {
		{ SCMP_ARCH_M68K, true, "uselib", 86 },
		{ SCMP_ARCH_M68K, true, "create_module", 127 },
		{ SCMP_ARCH_M68K, true, "get_kernel_syms", 130 },
		{ SCMP_ARCH_M68K, true, "bdflush", 134 },
		{ SCMP_ARCH_M68K, true, "_sysctl", 149 },
		{ SCMP_ARCH_M68K, true, "query_module", 167 },
		{ SCMP_ARCH_M68K, true, "nfsservctl", 169 },
		{ SCMP_ARCH_M68K, true, "getpmsg", 188 },
		{ SCMP_ARCH_M68K, true, "putpmsg", 189 },
		{ SCMP_ARCH_SHEB, true, "uselib", 86 },
		{ SCMP_ARCH_SHEB, true, "bdflush", 134 },
		{ SCMP_ARCH_SH, false, "_sysctl", 149 },
		{ SCMP_ARCH_SH, false, "nfsservctl", 169 },
		{ SCMP_ARCH_LOONGARCH64, false, "nfsservctl", 42 },
		{ SCMP_ARCH_ARM, false, "arm_sync_file_range", 341 },
		{ SCMP_ARCH_X86_64, false, "uselib", 134 },
		{ SCMP_ARCH_X86_64, false, "_sysctl", 156 },
		{ SCMP_ARCH_X86_64, false, "create_module", 174 },
		{ SCMP_ARCH_X86, false, "uselib", 86 },
	};
	for (size_t i = 0; i < N(removed); i++) {
		uint32_t token = removed[i].token;
		assert_int_equal(seccomp_syscall_resolve_name_arch(token, removed[i].name),
				 removed[i].nr);
		char *name = seccomp_syscall_resolve_num_arch(token, removed[i].nr);
		assert_non_null(name);
		assert_string_equal(name, removed[i].name);
		free(name);
		/* As SCMP_SYS() gives it: the native number, or a pseudo number. */
		scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
		if (token != SCMP_ARCH_X86_64) {
			/* The native ABI goes first: an ABI of the other byte order cannot join it. */
			assert_int_equal(seccomp_arch_remove(c, SCMP_ARCH_NATIVE), 0);
			assert_int_equal(seccomp_arch_add(c, token), 0);
		}
		int nr = seccomp_syscall_resolve_name(removed[i].name);
		assert_int_equal(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), nr, 0), 0);
		struct scg_prog prog = { 0 };
		export_prog_any_order(c, removed[i].big_endian, &prog);
		if (verdict_of(&prog, token, (uint32_t)removed[i].nr, NULL) != SCMP_ACT_ERRNO(1))
			fail_msg("%s on %#x: %d is not denied", removed[i].name, token,
				 removed[i].nr);
		assert_int_equal(verdict_of(&prog, token, (uint32_t)removed[i].nr + 1000, NULL),
				 SCMP_ACT_ALLOW);
		scg_prog_release(&prog);
		seccomp_release(c);
	}
}

static void test_api_levels(void **state)
{
	(void)state;
	const struct scmp_version *v = seccomp_version();
	assert_int_equal(v->major, 2);
	assert_int_equal(v->minor, 6);
	unsigned level = seccomp_api_get();
	assert_true(level >= 1 && level <= 7);
	assert_int_equal(seccomp_api_set(0), -EINVAL);
	assert_int_equal(seccomp_api_set(8), -EINVAL);
	assert_int_equal(seccomp_api_set(2), 0);
	assert_int_equal(seccomp_api_get(), 2);
	/* Level 2 knows neither KILL_PROCESS nor NOTIFY. */
	assert_null(seccomp_init(SCMP_ACT_KILL_PROCESS));
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	assert_non_null(c);
	/* An action above the level is invalid; a flag above it cannot be set, not even to 0. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_NOTIFY, SCMP_SYS(close), 0), -EINVAL);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_LOG, 1), -EOPNOTSUPP);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_LOG, 0), -EOPNOTSUPP);
	/* libseccomp 2.6 takes WAITKILL at any level (the kernel decides at load). */
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_WAITKILL, 1), 0);
	seccomp_release(c);
	assert_int_equal(seccomp_api_set(5), 0);
	c = seccomp_init(SCMP_ACT_ALLOW);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_WAITKILL, 1), 0);
	uint32_t waitkill = 0;
	assert_int_equal(seccomp_attr_get(c, SCMP_FLTATR_CTL_WAITKILL, &waitkill), 0);
	assert_int_equal(waitkill, 1);
	/* Before TSYNC_ESRCH (level 6), TSYNC and a listener exclude each other. */
	assert_int_equal(seccomp_rule_add(c, SCMP_ACT_NOTIFY, SCMP_SYS(close), 0), 0);
	assert_int_equal(seccomp_attr_set(c, SCMP_FLTATR_CTL_TSYNC, 1), -EINVAL);
	seccomp_release(c);
	/* NULL context: back to what the kernel supports. */
	assert_int_equal(seccomp_reset(NULL, 0), 0);
	assert_int_equal(seccomp_api_get(), level);
}

/* The notification calls that need no filter: buffers, and answers for bad descriptors. */
static void test_notify_api(void **state)
{
	(void)state;
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	assert_int_equal(seccomp_notify_alloc(&req, &resp), 0);
	assert_non_null(req);
	assert_non_null(resp);
	assert_int_equal(req->id, 0); /* zeroed */
	seccomp_notify_free(req, resp);
	assert_int_equal(seccomp_notify_alloc(&req, NULL), 0);
	seccomp_notify_free(req, NULL);
	assert_int_equal(seccomp_notify_id_valid(-1, 1), -ENOENT);
	assert_int_equal(seccomp_notify_receive(-1, NULL), -EINVAL);
	assert_int_equal(seccomp_notify_respond(-1, NULL), -EINVAL);
	struct seccomp_notif q;
	assert_int_equal(seccomp_notify_receive(-1, &q), -ECANCELED);
	struct seccomp_notif_addfd addfd = { 0 };
	assert_int_equal(seccomp_notify_addfd(-1, &addfd), -ECANCELED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_rule_return_codes),
		cmocka_unit_test(test_overlap_refusals),
		cmocka_unit_test(test_overlap_fallback),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_arches_and_names),
		cmocka_unit_test(test_exports_and_transactions),
		cmocka_unit_test(test_x86_64_high_numbers),
		cmocka_unit_test(test_numbers_with_or_without_base),
		cmocka_unit_test(test_removed_syscalls),
		cmocka_unit_test(test_libseccomp_26_pseudo_numbers),
		cmocka_unit_test(test_api_levels),
		cmocka_unit_test(test_notify_api),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
