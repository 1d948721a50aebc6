/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the OCI / Docker importer and exporter: known verdicts of
 * Docker's default profile, Docker's selection (caps, arches, minKernel),
 * errno values, error messages with positions, and export -> import round
 * trips.  Differential tests against libseccomp are in test_oci_libseccomp.c.
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

#include <syscage/lang.h>
#include <syscage/oci.h>
#include <syscage/syscage.h>

#include "support/scale.h"
#include "support/data.h"
#include "support/diag_print.h"
#include "support/progen.h"

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define AUDIT_AARCH64 0xc00000b7U
#define X32_BIT 0x40000000U
#define EPERM_RET (SCG_RET_ERRNO | 1U)
#define ENOSYS_RET (SCG_RET_ERRNO | 38U)

/* --- helpers ------------------------------------------------------------------- */

struct import_opts {
	const char *kernel;
	const char *const *caps;
	size_t ncaps;
	const char *host;
	bool no_stub;
};

static struct scg_policy *import_text(const char *json, size_t len, const struct import_opts *io)
{
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = io && io->kernel ? io->kernel : "6.1";
	opts.host_arch = io && io->host ? io->host : "amd64";
	opts.caps = io ? io->caps : NULL;
	opts.ncaps = io ? io->ncaps : 0;
	opts.runc_enosys = !(io && io->no_stub);
	opts.filename = "test.json";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	int r = scg_oci_import(json, len, &opts, &p, diag);
	if (r < 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	scg_diag_free(diag);
	return p;
}

static struct scg_policy *import_docker(const struct import_opts *io)
{
	size_t len;
	char *json = test_data_read("docker-default.json", &len);
	assert_non_null(json);
	struct scg_policy *p = import_text(json, len, io);
	free(json);
	return p;
}

static uint32_t verdict_args(const struct scg_policy *p, uint32_t audit, const char *arch,
			     const char *name, const uint64_t args[6])
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(scg_arch_lookup(arch), name, &nr), 0);
	struct scg_seccomp_data d = { .nr = nr, .arch = audit };
	memcpy(d.args, args, sizeof(d.args));
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

static uint32_t verdict(const struct scg_policy *p, const char *name, uint64_t a0, uint64_t a1)
{
	const uint64_t args[6] = { a0, a1 };
	return verdict_args(p, AUDIT_X86_64, "x86_64", name, args);
}

static uint32_t verdict_nr(const struct scg_policy *p, uint32_t audit, uint32_t nr)
{
	struct scg_seccomp_data d = { .nr = nr, .arch = audit };
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

/* --- Docker's default profile ------------------------------------------------------ */

static void test_docker_basic_verdicts(void **state)
{
	(void)state;
	struct scg_policy *p = import_docker(NULL);
	assert_int_equal(scg_policy_arch_count(p), 3);
	assert_ptr_equal(scg_policy_arch_at(p, 0), scg_arch_lookup("x86_64"));
	assert_int_equal(scg_policy_default(p), EPERM_RET);
	assert_int_equal(scg_policy_badarch(p), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "arch_prctl", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "chroot", 0, 0), SCG_RET_ALLOW); /* CAP_SYS_CHROOT is a default */
	assert_int_equal(verdict(p, "mount", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "bpf", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "kexec_load", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "clone3", 0, 0), ENOSYS_RET);
	/* personality: 0, PER_LINUX32, UNAME26, both, and the query 0xffffffff */
	assert_int_equal(verdict(p, "personality", 0xffffffff, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "personality", 8, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "personality", 0x20008, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "personality", 0x400000, 0), EPERM_RET);
	assert_int_equal(verdict(p, "personality", 0xffffffffffffffffULL, 0), EPERM_RET);
	/* socket: every family but AF_ALG (38) and AF_VSOCK (40) */
	assert_int_equal(verdict(p, "socket", 2, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "socket", 37, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "socket", 38, 0), EPERM_RET);
	assert_int_equal(verdict(p, "socket", 39, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "socket", 40, 0), EPERM_RET);
	assert_int_equal(verdict(p, "socket", 41, 0), SCG_RET_ALLOW);
	/* clone without namespace flags only */
	assert_int_equal(verdict(p, "clone", 0x11, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "clone", 0x10000000 /* CLONE_NEWUSER */, 0), EPERM_RET);
	assert_int_equal(verdict(p, "clone", 0x20000 /* CLONE_NEWNS */, 0), EPERM_RET);
	scg_policy_free(p);
}

static void test_docker_other_abis(void **state)
{
	(void)state;
	struct scg_policy *p = import_docker(NULL);
	const uint64_t none[6] = { 0 }, vsock[6] = { 40 }, af_inet_high[6] = { 0x100000002ULL };
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "socketcall", none), SCG_RET_ALLOW);
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "chown32", none), SCG_RET_ALLOW);
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "socket", vsock), EPERM_RET);
	/* 32-bit ABIs: libseccomp compares the low half only */
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "socket", af_inet_high), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "socket", 0x100000002ULL, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "personality", 0x1ffffffffULL, 0), EPERM_RET);
	const uint64_t pers_high[6] = { 0x1ffffffffULL };
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "personality", pers_high), SCG_RET_ALLOW);
	assert_int_equal(verdict_args(p, AUDIT_X86_64, "x32", "read", none), SCG_RET_ALLOW);
	assert_int_equal(verdict_nr(p, AUDIT_AARCH64, 63), SCG_RET_KILL_THREAD);
	scg_policy_free(p);
}

static void test_docker_kernel_and_caps(void **state)
{
	(void)state;
	static const char *const admin[] = { "CAP_SYS_ADMIN", "sys_ptrace", "BPF" };
	struct import_opts old = { .kernel = "4.4" }, caps = { .caps = admin, .ncaps = 3 };
	struct scg_policy *p = import_docker(NULL);
	assert_int_equal(verdict(p, "ptrace", 0, 0), SCG_RET_ALLOW); /* minKernel 4.8 */
	scg_policy_free(p);
	p = import_docker(&old);
	assert_int_equal(verdict(p, "ptrace", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "process_vm_readv", 0, 0), EPERM_RET);
	scg_policy_free(p);
	p = import_docker(&caps);
	assert_int_equal(verdict(p, "clone", 0x10000000, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "clone3", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "mount", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "bpf", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "kcmp", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "chroot", 0, 0), EPERM_RET); /* not in this set */
	scg_policy_free(p);
}

static void test_docker_enosys_stub(void **state)
{
	(void)state;
	struct import_opts off = { .no_stub = true };
	struct scg_policy *p = import_docker(NULL);
	uint32_t unknown;
	assert_true(scg_policy_unknown(p, &unknown));
	assert_int_equal(unknown, ENOSYS_RET);
	/* newer than the profile's newest syscall, a gap below it, far beyond */
	assert_int_equal(verdict(p, "file_getattr", 0, 0), ENOSYS_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 400), EPERM_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 1000), ENOSYS_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 0xffffffff), ENOSYS_RET); /* x32's path */
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, X32_BIT | 600), ENOSYS_RET);
	assert_int_equal(verdict_nr(p, AUDIT_I386, 1000), ENOSYS_RET);
	scg_policy_free(p);
	p = import_docker(&off);
	assert_false(scg_policy_unknown(p, NULL));
	assert_int_equal(verdict(p, "file_getattr", 0, 0), EPERM_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 1000), EPERM_RET);
	scg_policy_free(p);
}

static void test_docker_other_host(void **state)
{
	(void)state;
	struct import_opts arm = { .host = "arm64" }, s390 = { .host = "s390x" };
	struct scg_policy *p = import_docker(&arm);
	assert_int_equal(scg_policy_arch_count(p), 2);
	assert_ptr_equal(scg_policy_arch_at(p, 0), scg_arch_lookup("aarch64"));
	assert_ptr_equal(scg_policy_arch_at(p, 1), scg_arch_lookup("arm"));
	const uint64_t none[6] = { 0 };
	assert_int_equal(verdict_args(p, 0x40000028U, "arm", "cacheflush", none), SCG_RET_ALLOW);
	assert_int_equal(verdict_args(p, 0x40000028U, "arm", "set_tls", none), SCG_RET_ALLOW);
	scg_policy_free(p);
	/* s390x: clone takes its flags in the second argument */
	p = import_docker(&s390);
	const uint64_t ns_in_arg1[6] = { 0, 0x10000000 }, ns_in_arg0[6] = { 0x10000000, 0 };
	assert_int_equal(verdict_args(p, 0x80000016U, "s390x", "clone", ns_in_arg1), EPERM_RET);
	assert_int_equal(verdict_args(p, 0x80000016U, "s390x", "clone", ns_in_arg0), SCG_RET_ALLOW);
	scg_policy_free(p);
}

/* --- Docker's selection, errno values ------------------------------------------- */

static struct scg_policy *import_str(const char *json, const struct import_opts *io)
{
	return import_text(json, strlen(json), io);
}

static void test_selection(void **state)
{
	(void)state;
	static const char *const admin[] = { "CAP_SYS_ADMIN" };
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
		" \"syscalls\": ["
		"{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"includes\": {\"caps\": [\"CAP_SYS_ADMIN\"]}},"
		"{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"excludes\": {\"caps\": [\"CAP_SYS_ADMIN\"]}},"
		"{\"names\": [\"close\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"includes\": {\"arches\": [\"arm64\"]}},"
		"{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"excludes\": {\"arches\": [\"amd64\"]}},"
		"{\"names\": [\"uname\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"includes\": {\"minKernel\": \"5.10\"}},"
		"{\"names\": [\"futex\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"excludes\": {\"minKernel\": \"5.10\"}}]}";
	/* without runc's stub: it would answer syscalls above the highest selected one */
	struct import_opts plain = { .kernel = "5.4", .no_stub = true },
			   rich = { .kernel = "5.10.0-rc1", .caps = admin, .ncaps = 1, .no_stub = true };
	struct scg_policy *p = import_str(json, &plain);
	assert_int_equal(verdict(p, "read", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "write", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "close", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "getpid", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "uname", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "futex", 0, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
	p = import_str(json, &rich);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "uname", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "futex", 0, 0), EPERM_RET);
	scg_policy_free(p);
}

static void test_errno_values(void **state)
{
	(void)state;
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38,"
		" \"architectures\": [\"SCMP_ARCH_X86_64\"], \"syscalls\": ["
		"{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13},"
		"{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ERRNO\"},"
		"{\"names\": [\"close\"], \"action\": \"SCMP_ACT_TRACE\"},"
		"{\"names\": [\"kill\"], \"action\": \"SCMP_ACT_KILL\"},"
		"{\"names\": [\"tkill\"], \"action\": \"SCMP_ACT_KILL_PROCESS\"},"
		"{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_TRAP\", \"errnoRet\": 5},"
		"{\"names\": [\"dup\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 65537}]}";
	struct scg_policy *p = import_str(json, NULL);
	assert_int_equal(scg_policy_default(p), ENOSYS_RET);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ERRNO | 13);
	assert_int_equal(verdict(p, "write", 0, 0), EPERM_RET); /* runc's default errno */
	assert_int_equal(verdict(p, "close", 0, 0), SCG_RET_TRACE | 1);
	assert_int_equal(verdict(p, "kill", 0, 0), SCG_RET_KILL_THREAD);
	assert_int_equal(verdict(p, "tkill", 0, 0), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "getpid", 0, 0), SCG_RET_TRAP);
	assert_int_equal(verdict(p, "dup", 0, 0), SCG_RET_ERRNO | 1); /* low 16 bits */
	/* defaultErrnoRet 38 is not runc's 0x50026: the stub is still there */
	assert_true(scg_policy_unknown(p, NULL));
	scg_policy_free(p);
}

/*
 * libseccomp (2.5.4 here, 2.6 alike) refuses SCMP_ACT_ERRNO(n) for n >= 4095
 * (seccomp_rule_add() and seccomp_init() say -EINVAL), and runc hands it the
 * low 16 bits of errnoRet: the import refuses what runc could not load, and
 * the export never writes it.
 */
static void test_errno_libseccomp_limit(void **state)
{
	(void)state;
	static const struct {
		const char *entry; /* the errno part of getpid's entry, or of the default */
		bool is_default, ok;
	} cases[] = {
		{ "\"errnoRet\": 4094", false, true },   { "\"errnoRet\": 4095", false, false },
		{ "\"errnoRet\": 65535", false, false }, { "\"errnoRet\": 65536", false, true },
		{ "\"errnoRet\": 70000", false, false }, { "\"errno\": \"4095\"", false, false },
		{ "\"defaultErrnoRet\": 4094", true, true }, { "\"defaultErrnoRet\": 4095", true, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char json[512];
		if (cases[i].is_default)
			snprintf(json, sizeof(json),
				 "{\"defaultAction\": \"SCMP_ACT_ERRNO\", %s, \"syscalls\": []}",
				 cases[i].entry);
		else
			snprintf(json, sizeof(json),
				 "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": "
				 "[\"getpid\"], \"action\": \"SCMP_ACT_ERRNO\", %s}]}",
				 cases[i].entry);
		struct scg_oci_options opts;
		scg_oci_options_init(&opts);
		opts.host_arch = "amd64";
		struct scg_policy *p = NULL;
		struct scg_diag *diag = scg_diag_new();
		int r = scg_oci_import(json, strlen(json), &opts, &p, diag);
		if ((r == 0) != cases[i].ok)
			fail_msg("%s: import returned %d", cases[i].entry, r);
		if (!cases[i].ok) {
			bool said = false;
			for (size_t k = 0; k < scg_diag_count(diag); k++)
				said |= strstr(scg_diag_get(diag, k)->message, "libseccomp refuses") != NULL;
			assert_true(said);
		}
		scg_diag_free(diag);
		scg_policy_free(p);
	}
	/* and a policy with such an errno does not export */
	struct scg_policy *p = NULL;
	const char *text = "arch x86_64\ndefault allow\nerrno(4095) getpid\n";
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, NULL), 0);
	char *out = NULL;
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_oci_export(p, &out, diag), -EINVAL);
	assert_null(out);
	scg_diag_free(diag);
	scg_policy_free(p);
}

/* Imports @json for an amd64 host, keeping the warnings in @diag. */
static struct scg_policy *import_into(const char *json, struct scg_diag *diag)
{
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.host_arch = "amd64";
	struct scg_policy *p = NULL;
	int r = scg_oci_import(json, strlen(json), &opts, &p, diag);
	if (r < 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	return p;
}

/* A diagnostic whose message has @needle, or NULL. */
static const struct scg_diag_entry *diag_with(const struct scg_diag *diag, const char *needle)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (strstr(scg_diag_get(diag, i)->message, needle))
			return scg_diag_get(diag, i);
	return NULL;
}

/*
 * Podman's "errno" and "defaultErrno" (containers/common): an errno name of
 * the host, or a decimal number; given, they win over errnoRet and
 * defaultErrnoRet.
 */
static void test_podman_errno_names(void **state)
{
	(void)state;
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": \"ENOSYS\","
		" \"architectures\": [\"SCMP_ARCH_X86_64\"], \"syscalls\": ["
		"{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},"
		"{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EACCES\"},"
		"{\"names\": [\"rmdir\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EROFS\","
		" \"errnoRet\": 1},"
		"{\"names\": [\"unlink\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"22\"},"
		"{\"names\": [\"chmod\"], \"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"\","
		" \"errnoRet\": 5},"
		"{\"names\": [\"ptrace\"], \"action\": \"SCMP_ACT_TRACE\", \"errno\": \"EIO\"}]}";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = import_into(json, diag);
	/* defaultErrno is ENOSYS, not runc's 0x50026: the stub is still there */
	assert_int_equal(scg_policy_default(p), ENOSYS_RET);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "mkdir", 0, 0), SCG_RET_ERRNO | 13);
	assert_int_equal(verdict(p, "rmdir", 0, 0), SCG_RET_ERRNO | 30); /* the name wins */
	assert_int_equal(verdict(p, "unlink", 0, 0), SCG_RET_ERRNO | 22);
	assert_int_equal(verdict(p, "chmod", 0, 0), SCG_RET_ERRNO | 5); /* "" is absent */
	assert_int_equal(verdict(p, "ptrace", 0, 0), SCG_RET_TRACE | 5);
	/* Docker reads errnoRet where Podman reads errno: said where they disagree */
	const struct scg_diag_entry *w = diag_with(diag, "Docker ignores it");
	assert_non_null(w);
	assert_non_null(strstr(w->message, "syscalls[2].errno"));
	assert_null(diag_with(diag, "unknown member"));
	/* the export stays numeric */
	char *out = NULL;
	scg_diag_clear(diag);
	assert_int_equal(scg_oci_export(p, &out, diag), 0);
	assert_non_null(strstr(out, "\"errnoRet\":13"));
	assert_non_null(strstr(out, "\"defaultErrnoRet\":38"));
	assert_null(strstr(out, "\"errno\""));
	assert_null(strstr(out, "\"defaultErrno\""));
	free(out);
	scg_policy_free(p);
	scg_diag_free(diag);
}

/*
 * An errno name beside a number: no warning where every ABI numbers the name
 * so (EPERM is 1 everywhere, as in Podman's profile); where one numbers it
 * apart (ENOSYS is 89 on MIPS), the warning names that ABI.
 */
static void test_podman_errno_agreeing(void **state)
{
	(void)state;
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38,"
		" \"defaultErrno\": \"ENOSYS\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
		" \"syscalls\": [{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\","
		" \"errnoRet\": 1, \"errno\": \"EPERM\"},"
		" {\"names\": [\"rmdir\"], \"action\": \"SCMP_ACT_ERRNO\","
		" \"errnoRet\": 22, \"errno\": \"22\"}]}";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = import_into(json, diag);
	assert_int_equal(verdict(p, "mkdir", 0, 0), SCG_RET_ERRNO | 1);
	assert_int_equal(verdict(p, "rmdir", 0, 0), SCG_RET_ERRNO | 22);
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		assert_null(strstr(scg_diag_get(diag, i)->message, "syscalls["));
	const struct scg_diag_entry *w = diag_with(diag, "Docker ignores it");
	assert_non_null(w);
	assert_non_null(strstr(w->message, "defaultErrno"));
	assert_non_null(w->hint);
	assert_non_null(strstr(w->hint, "ENOSYS is 89 on a mips"));
	scg_policy_free(p);
	scg_diag_free(diag);
}

/*
 * Two overlapping rules with different actions: libseccomp's tree order
 * decides (NE 255 sorts before EQ 0, the high words being one node), and
 * the warning names the action that wins where both match.
 */
static void test_overlap_warning(void **state)
{
	(void)state;
	const char *json = "{\"defaultAction\": \"SCMP_ACT_TRAP\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
			   " \"syscalls\": [{\"names\": [\"ioctl\"], \"action\": \"SCMP_ACT_ALLOW\","
			   " \"args\": [{\"index\": 2, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]},"
			   " {\"names\": [\"ioctl\"], \"action\": \"SCMP_ACT_ERRNO\","
			   " \"args\": [{\"index\": 2, \"value\": 255, \"op\": \"SCMP_CMP_NE\"}]}]}";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = import_into(json, diag);
	const uint64_t zero[6] = { 0 }, a2_255[6] = { 0, 0, 255 };
	assert_int_equal(verdict_args(p, AUDIT_X86_64, "x86_64", "ioctl", zero), EPERM_RET);
	assert_int_equal(verdict_args(p, AUDIT_X86_64, "x86_64", "ioctl", a2_255), SCG_RET_TRAP);
	const struct scg_diag_entry *w = diag_with(diag, "overlapping");
	assert_non_null(w);
	assert_non_null(strstr(w->message, "libseccomp gives ERRNO(1), not ALLOW"));
	scg_policy_free(p);
	scg_diag_free(diag);
}

/* Podman numbers errno names with its host's table: ENOSYS is 89 on MIPS. */
static void test_podman_errno_host(void **state)
{
	(void)state;
	const char *json = "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": \"ENOSYS\","
			   " \"syscalls\": [{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\","
			   " \"errno\": \"EDQUOT\"}]}";
	struct import_opts io = { .host = "mips64le" };
	struct scg_policy *p = import_str(json, &io);
	const struct scg_arch *mips = scg_policy_arch_at(p, 0);
	uint32_t nr;
	assert_int_equal(scg_policy_default(p), SCG_RET_ERRNO | 89);
	assert_int_equal(scg_syscall_lookup(mips, "read", &nr), 0);
	struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(mips) };
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	assert_int_equal(v.action, SCG_RET_ERRNO | 1133); /* EDQUOT on MIPS; 122 elsewhere */
	scg_policy_free(p);
}

static void test_runc_quirks(void **state)
{
	(void)state;
	/* two comparisons of one argument: runc ORs them; a rule with the default action is skipped */
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
		" \"syscalls\": ["
		"{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ERRNO\","
		" \"args\": [{\"index\": 0, \"value\": 0, \"op\": \"SCMP_CMP_EQ\"}]},"
		"{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"},"
		"{\"names\": [\"write\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
		"{\"index\": 0, \"value\": 10, \"op\": \"SCMP_CMP_GE\"},"
		"{\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_LE\"}]},"
		"{\"names\": [\"close\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": ["
		"{\"index\": 0, \"value\": 0, \"valueTwo\": 5, \"op\": \"SCMP_CMP_MASKED_EQ\"}]}]}";
	struct scg_policy *p = import_str(json, NULL);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 1, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 11, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "write", 5, 0), EPERM_RET);
	/* a zero mask makes the comparison vanish: close is allowed whatever its argument */
	assert_int_equal(verdict(p, "close", 12345, 0), SCG_RET_ALLOW);
	scg_policy_free(p);
}

static void test_disabled_and_config_json(void **state)
{
	(void)state;
	struct scg_policy *p = import_str("{}", NULL);
	assert_int_equal(scg_policy_default(p), SCG_RET_ALLOW);
	assert_int_equal(scg_policy_badarch(p), SCG_RET_ALLOW);
	scg_policy_free(p);
	p = import_str("{\"ociVersion\": \"1.0.2\", \"linux\": {\"seccomp\": {"
		       "\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\", \"syscalls\": ["
		       "{\"names\": [\"exit_group\"], \"action\": \"SCMP_ACT_ALLOW\"}]}}}",
		       NULL);
	assert_int_equal(scg_policy_default(p), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "exit_group", 0, 0), SCG_RET_ALLOW);
	/* no "architectures": libseccomp's native ABI only, and runc adds no stub */
	assert_int_equal(scg_policy_arch_count(p), 1);
	assert_false(scg_policy_unknown(p, NULL));
	scg_policy_free(p);
}

/* --- errors ------------------------------------------------------------------------- */

struct expect {
	const char *json;
	unsigned line, column;
	const char *message; /* a substring */
	const char *hint;    /* a substring, or NULL */
};

static void check_error(const struct expect *e)
{
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.host_arch = "amd64";
	opts.filename = "bad.json";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_oci_import(e->json, strlen(e->json), &opts, &p, diag), -EINVAL);
	assert_null(p);
	const struct scg_diag_entry *found = NULL;
	for (size_t i = 0; i < scg_diag_count(diag) && !found; i++) {
		const struct scg_diag_entry *d = scg_diag_get(diag, i);
		if (d->severity == SCG_SEV_ERROR)
			found = d;
	}
	if (!found || !strstr(found->message, e->message) || found->loc.line != e->line ||
	    found->loc.column != e->column || (e->hint && (!found->hint || !strstr(found->hint, e->hint)))) {
		print_message("for %s\nexpected %u:%u '%s' (hint '%s'), got:\n", e->json, e->line,
			      e->column, e->message, e->hint ? e->hint : "");
		test_print_diag(diag);
		fail();
	}
	assert_string_equal(found->loc.file, "bad.json");
	scg_diag_free(diag);
}

static void test_error_positions(void **state)
{
	(void)state;
	static const struct expect cases[] = {
		{ "{\n  \"defaultAction\": \"SCMP_ACT_ERRNO\",\n  \"syscalls\": [\n    {\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALOW\"}\n  ]\n}",
		  4, 35, "unknown action 'SCMP_ACT_ALOW'", "SCMP_ACT_ALLOW" },
		{ "{\"defaultAction\": \"ALLOW\"}", 1, 19, "unknown action", "SCMP_ACT_ALLOW" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\",\n \"architectures\": [\"SCMP_ARCH_X86-64\"]}", 2, 20,
		  "unknown architecture", "SCMP_ARCH_X86_64" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [\"aarch64\"]}", 1, 55,
		  "unknown architecture", "SCMP_ARCH_AARCH64" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 6, \"op\": \"SCMP_CMP_EQ\"}]}]}",
		  1, 117, "syscalls[0].args[0].index: must be 0..5", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0, \"op\": \"SCMP_CMP_EQUAL\"}]}]}",
		  1, 126, "unknown comparison", "SCMP_CMP_EQ" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0, \"value\": -1, \"op\": \"SCMP_CMP_EQ\"}]}]}",
		  1, 129, "must be a non-negative integer", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0, \"value\": 18446744073709551616, \"op\": \"SCMP_CMP_EQ\"}]}]}",
		  1, 129, "does not fit", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": \"read\", "
		  "\"action\": \"SCMP_ACT_ALLOW\"}]}",
		  1, 60, "syscalls[0].names: must be an array of strings, not a string", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"]}]}", 1, 50,
		  "entry without \"action\"", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"name\": \"write\", \"action\": \"SCMP_ACT_ALLOW\"}]}",
		  1, 78, "both \"name\" and \"names\"", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\",\n \"syscalls\": [\n", 3, 1,
		  "unexpected end of the JSON text", "truncated" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\",, \"syscalls\": []}", 1, 36, "invalid JSON", "comma" },
		{ "{\"defaultAction\": \"SCMP_\xff\"}", 1, 25, "invalid JSON: invalid utf-8", "UTF-8" },
		{ "{'defaultAction': 'SCMP_ACT_ERRNO'}", 1, 2, "single-quoted string", NULL },
		/* after blank lines, CRLF ends, tabs and characters of several bytes:
		 * one character, one column */
		{ "\r\n\n{\t\"defaultAction\" :\r\n\t\t\"SCMP_ACT_ERRNO\",\n\n  \"syscalls\": [\n"
		  "\t{\"names\": [\"read\"], \"comment\": \"\xc3\xa9\xe2\x80\xa6\", "
		  "\"action\": \"SCMP_ACT_ALLOWW\"}]}",
		  7, 49, "syscalls[0].action", NULL },
		{ "{\"defaultAction\":\n \"\xc3\xa9\xe2\x80\xa6\x01\"}", 2, 5, "raw control character", NULL },
		/* a byte that starts no character is one, as in the policy language */
		{ "{\"defaultAction\":\n \"\x80\xbf\x01\"}", 2, 5, "raw control character", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\"} trailing", 1, 37, "invalid JSON", NULL },
		{ "", 1, 1, "empty input", NULL },
		{ "[1, 2]", 1, 1, "a seccomp profile is a JSON object", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ALLOW\", \"includes\": {\"minKernel\": \"four\"}}]}",
		  1, 124, "invalid kernel version 'four'", "4.8" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"flags\": [\"SECCOMP_FILTER_FLAG_LOGG\"]}", 1, 47,
		  "does not know the flag", "SECCOMP_FILTER_FLAG_LOG" },
		{ "{\"syscalls\": [{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"}]}", 1, 1,
		  "no \"defaultAction\"", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"write\"], "
		  "\"action\": \"SCMP_ACT_NOTIFY\"}]}",
		  1, 50, "refuses SCMP_ACT_NOTIFY for write", NULL },
		/* Podman's errno names: exactly as Go spells them */
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"read\"], "
		  "\"action\": \"SCMP_ACT_ERRNO\", \"errno\": \"EACCESS\"}]}",
		  1, 107, "syscalls[0].errno: unknown errno 'EACCESS'", "EACCES" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\",\n \"defaultErrno\": \"eperm\"}", 2, 18,
		  "defaultErrno: unknown errno 'eperm'", "EPERM" },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": 1}", 1, 53,
		  "defaultErrno: must be a string", NULL },
		{ "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrno\": \"4294967296\"}", 1, 53,
		  "unknown errno '4294967296'", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_error(&cases[i]);
}

static void test_error_options(void **state)
{
	(void)state;
	static const char *const bad_caps[] = { "CAP_SYS_ADMN" };
	struct scg_oci_options opts;
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	const char *json = "{\"defaultAction\": \"SCMP_ACT_ERRNO\"}";
	scg_oci_options_init(&opts);
	assert_true(opts.runc_enosys);
	opts.caps = bad_caps;
	opts.ncaps = 1;
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &p, diag), -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "unknown capability"));
	assert_non_null(strstr(scg_diag_get(diag, 0)->hint, "CAP_SYS_ADMIN"));
	scg_diag_clear(diag);
	scg_oci_options_init(&opts);
	opts.host_arch = "amd46";
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &p, diag), -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->hint, "amd64"));
	scg_diag_clear(diag);
	scg_oci_options_init(&opts);
	opts.kernel = "new";
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &p, diag), -EINVAL);
	scg_diag_clear(diag);
	/* a profile that mixes byte orders: libseccomp cannot, runc fails */
	scg_oci_options_init(&opts);
	opts.host_arch = "amd64";
	const char *mixed = "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [\"SCMP_ARCH_S390X\"]}";
	assert_int_equal(scg_oci_import(mixed, strlen(mixed), &opts, &p, diag), -EINVAL);
	assert_null(p);
	scg_diag_free(diag);
}

static void test_warnings(void **state)
{
	(void)state;
	const char *json =
		"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"architectures\": [\"SCMP_ARCH_X86_64\"],"
		" \"Syscalls\": [{\"names\": [\"raed\", \"read\"], \"action\": \"SCMP_ACT_ALLOW\","
		" \"comments\": \"x\", \"includes\": {\"caps\": [\"cap_sys_admin\"]}}]}";
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.host_arch = "amd64";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &p, diag), 0);
	char all[4096] = "";
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		char buf[512];
		scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
		strncat(all, buf, sizeof(all) - strlen(all) - 2);
		strcat(all, "\n");
	}
	assert_non_null(strstr(all, "read as 'syscalls'"));
	assert_non_null(strstr(all, "no architecture has a syscall 'raed'"));
	assert_non_null(strstr(all, "did you mean 'read'?"));
	assert_non_null(strstr(all, "did you mean 'comment'?"));
	assert_non_null(strstr(all, "compares capability names exactly"));
	/* includes.caps never matches: read stays denied */
	assert_int_equal(verdict(p, "read", 0, 0), EPERM_RET);
	scg_policy_free(p);
	scg_diag_free(diag);
}

/* --- export ----------------------------------------------------------------------------- */

static const char *first_error(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++)
		if (scg_diag_get(diag, i)->severity == SCG_SEV_ERROR)
			return scg_diag_get(diag, i)->message;
	fail_msg("no error reported");
	return "";
}

static char *export_ok(const struct scg_policy *p)
{
	struct scg_diag *diag = scg_diag_new();
	char *json = NULL;
	int r = scg_oci_export(p, &json, diag);
	if (r < 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	scg_diag_free(diag);
	return json;
}

struct sweep {
	const struct scg_policy *a, *b;
	size_t checked, failures;
};

static void sweep_one(struct sweep *s, const struct scg_seccomp_data *d)
{
	struct scg_verdict va, vb;
	scg_policy_eval(s->a, d, &va);
	scg_policy_eval(s->b, d, &vb);
	s->checked++;
	if (va.action != vb.action && s->failures++ < 10)
		print_message("arch %#x nr %#x args %#llx %#llx %#llx: %#x vs %#x\n", d->arch, d->nr,
			      (unsigned long long)d->args[0], (unsigned long long)d->args[1],
			      (unsigned long long)d->args[2], va.action, vb.action);
}

/* Does some rule of @p name syscall @nr on @arch? */
/* The numbers @p has conditional rules for on @arch, for a sweep to look up per syscall. */
static size_t conditional_numbers(const struct scg_policy *p, const struct scg_arch *arch,
				  uint32_t *nrs)
{
	size_t n = 0;
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		if (scg_policy_rule_nr(p, i, arch, &nrs[n]) == 0 && scg_policy_rule_at(p, i, &r) == 0 &&
		    r.cond)
			n++;
	}
	return n;
}

static bool has_number(const uint32_t *nrs, size_t n, uint32_t nr)
{
	for (size_t i = 0; i < n; i++)
		if (nrs[i] == nr)
			return true;
	return false;
}

/*
 * Same verdicts for every syscall of every target ABI; syscalls @a has
 * conditions for are also tried with argument values around @consts.
 */
static size_t same_verdicts(const struct scg_policy *a, const struct scg_policy *b,
			    const uint64_t *consts, size_t nconsts)
{
	struct sweep s = { a, b, 0, 0 };
	uint32_t *conditional = calloc(scg_policy_rule_count(a) + 1, sizeof(*conditional));
	assert_non_null(conditional);
	for (size_t t = 0; t < scg_policy_arch_count(a); t++) {
		const struct scg_arch *arch = scg_policy_arch_at(a, t);
		size_t nconditional = conditional_numbers(a, arch, conditional);
		for (size_t i = 0; i < scg_syscall_count(arch); i++) {
			const char *name;
			uint32_t nr;
			scg_syscall_at(arch, i, &name, &nr);
			struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(arch) };
			sweep_one(&s, &d);
			if (!has_number(conditional, nconditional, nr))
				continue;
			for (size_t c = 0; c < nconsts; c++) {
				for (unsigned arg = 0; arg < 3; arg++) {
					for (int delta = -1; delta <= 1; delta++) {
						struct scg_seccomp_data e = d;
						e.args[arg] = consts[c] + (uint64_t)(int64_t)delta;
						sweep_one(&s, &e);
						e.args[arg] ^= 0xffffffff00000000ULL;
						sweep_one(&s, &e);
					}
				}
				/* two arguments at once, for conditions that combine them */
				struct scg_seccomp_data e = d;
				e.args[0] = consts[c];
				e.args[1] = consts[(c * 7 + 3) % nconsts];
				e.args[2] = consts[(c * 5 + 1) % nconsts];
				sweep_one(&s, &e);
			}
		}
	}
	free(conditional);
	assert_true(s.checked > 0);
	return s.failures;
}

static void test_export_docker_round_trip(void **state)
{
	(void)state;
	static const uint64_t consts[] = { 0, 8, 38, 39, 40, 0x20000, 0x20008, 0xffffffff,
					   0x10000000, 0x7e020000, 0x11 };
	struct scg_policy *p = import_docker(NULL);
	char *json = export_ok(p);
	assert_non_null(strstr(json, "\"defaultErrnoRet\":1"));
	assert_non_null(strstr(json, "SCMP_CMP_MASKED_EQ"));
	struct scg_policy *q = import_str(json, NULL);
	assert_int_equal(same_verdicts(p, q, consts, sizeof(consts) / sizeof(consts[0])), 0);
	scg_policy_free(q);
	free(json);
	scg_policy_free(p);
}

static void test_export_errors(void **state)
{
	(void)state;
	struct scg_policy *p = scg_policy_new();
	struct scg_diag *diag = scg_diag_new();
	char *json = NULL;
	assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL); /* no ABI */
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	scg_policy_add_arch(p, scg_arch_lookup("x86"));
	struct scg_rule_spec trap = { .action = SCG_RET_TRAP | 5, .syscall = "read" };
	assert_int_equal(scg_policy_add_rule(p, &trap), 0);
	scg_diag_clear(diag);
	assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL);
	assert_non_null(strstr(first_error(diag), "no action for TRAP(5)"));
	scg_policy_free(p);

	/* all 64 bits compared on i386, where libseccomp sees only the low half */
	p = scg_policy_new();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	scg_policy_add_arch(p, scg_arch_lookup("x86"));
	struct scg_rule_spec wide = { .action = SCG_RET_ALLOW, .syscall = "read",
				      .cond = scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 5) };
	assert_int_equal(scg_policy_add_rule(p, &wide), 0);
	scg_diag_clear(diag);
	assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL);
	assert_non_null(strstr(first_error(diag), "only the low 32 bits"));
	scg_policy_free(p);

	/* a range of numbers, even one over known syscalls: OCI names syscalls one by one */
	static const uint32_t range_ends[][2] = { { 0x80000000, 0xbfffffff }, { 0, 2 } };
	static const char *const range_msgs[] = { "numbers 0x80000000..0xbfffffff on x86_64",
						  "numbers 0..2 on x86_64" };
	for (size_t i = 0; i < 2; i++) {
		p = scg_policy_new();
		scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
		scg_policy_set_default(p, SCG_RET_ALLOW);
		struct scg_rule_spec range = { .action = SCG_RET_ERRNO | 1U, .has_number = true,
					       .number = range_ends[i][0],
					       .number_last = range_ends[i][1] };
		assert_int_equal(scg_policy_add_rule(p, &range), 0);
		scg_diag_clear(diag);
		assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL);
		assert_non_null(strstr(first_error(diag), range_msgs[i]));
		assert_non_null(strstr(first_error(diag), "OCI cannot name a range"));
		scg_policy_free(p);
	}
	/* ... except the one libseccomp gives without x32: the bad-architecture action */
	for (int with_x32 = 0; with_x32 < 2; with_x32++) {
		p = scg_policy_new();
		scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
		if (with_x32)
			scg_policy_add_arch(p, scg_arch_lookup("x32"));
		scg_policy_set_default(p, SCG_RET_ALLOW);
		struct scg_rule_spec high = { .action = scg_policy_badarch(p), .has_number = true,
					      .number = 0x80000000, .number_last = 0xbfffffff };
		assert_int_equal(scg_policy_add_rule(p, &high), 0);
		scg_diag_clear(diag);
		json = NULL;
		assert_int_equal(scg_oci_export(p, &json, diag), with_x32 ? -EINVAL : 0);
		free(json);
		scg_policy_free(p);
	}

	/* runc refuses SCMP_ACT_NOTIFY for write(2), by name or by number */
	for (int by_number = 0; by_number < 2; by_number++) {
		p = scg_policy_new();
		scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
		struct scg_rule_spec notify = { .action = SCG_RET_USER_NOTIF,
						.syscall = by_number ? NULL : "write",
						.has_number = by_number, .number = 1, .number_last = 1 };
		assert_int_equal(scg_policy_add_rule(p, &notify), 0);
		scg_diag_clear(diag);
		assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL);
		assert_non_null(strstr(first_error(diag), "refuses SCMP_ACT_NOTIFY for write(2)"));
		scg_policy_free(p);
	}

	/* a rule for one ABI of a syscall several ABIs have */
	p = scg_policy_new();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	scg_policy_add_arch(p, scg_arch_lookup("x32"));
	struct scg_rule_spec one = { .action = SCG_RET_ALLOW, .syscall = "read", .arch_mask = 1 };
	assert_int_equal(scg_policy_add_rule(p, &one), 0);
	scg_diag_clear(diag);
	assert_int_equal(scg_oci_export(p, &json, diag), -EINVAL);
	assert_non_null(strstr(first_error(diag), "decided differently on x86_64 and x32"));
	scg_policy_free(p);
	scg_diag_free(diag);
}

/*
 * libseccomp filters the machine's own ABI besides the listed ones and
 * cannot mix byte orders: an aarch64 policy exported here gives x86_64 calls
 * the default action under runc, an s390x one loads only on a big-endian
 * machine, and one of both orders nowhere.
 */
static void test_export_abis_runc_adds(void **state)
{
	(void)state;
	static const char *const arches[][2] = { { "aarch64", NULL }, { "s390x", NULL },
						 { "s390x", "x86_64" }, { "x86_64", NULL } };
	struct scg_diag *diag = scg_diag_new();
	for (size_t i = 0; i < 4; i++) {
		struct scg_policy *p = scg_policy_new();
		for (size_t k = 0; k < 2 && arches[i][k]; k++)
			scg_policy_add_arch(p, scg_arch_lookup(arches[i][k]));
		scg_policy_set_default(p, SCG_RET_LOG);
		char *json = NULL;
		scg_diag_clear(diag);
		int r = scg_oci_export(p, &json, diag);
		free(json);
		bool native_named = false;
		for (size_t k = 0; k < 2 && arches[i][k]; k++)
			native_named |= scg_arch_lookup(arches[i][k]) == scg_arch_native();
		assert_int_equal(r, i == 2 ? -EINVAL : 0);
		assert_int_equal(test_diag_has(diag, "oci-native"), !native_named);
		assert_int_equal(test_diag_has(diag, "oci-byte-order"), i == 1);
		if (i == 2)
			assert_non_null(strstr(first_error(diag), "differ in byte order"));
		scg_policy_free(p);
	}
	scg_diag_free(diag);
}

static void test_export_dnf(void **state)
{
	(void)state;
	/* first match: ERRNO for fd 0..2, then ALLOW for fd < 100, then KILL for the rest */
	struct scg_policy *p = scg_policy_new();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	scg_policy_set_default(p, SCG_RET_KILL_PROCESS);
	struct scg_rule_spec r1 = { .action = SCG_RET_ERRNO | 9, .syscall = "close",
				    .cond = scg_expr_cmp(0, 64, SCG_CMP_LE, ~0ULL, 2) };
	struct scg_rule_spec r2 = { .action = SCG_RET_ALLOW, .syscall = "close",
				    .cond = scg_expr_cmp(0, 64, SCG_CMP_LT, ~0ULL, 100) };
	struct scg_rule_spec r3 = {
		.action = SCG_RET_ERRNO | 1, .syscall = "ioctl",
		.cond = scg_expr_not(scg_expr_or(scg_expr_cmp(1, 32, SCG_CMP_EQ, ~0ULL, 0x5401),
						 scg_expr_cmp(1, 64, SCG_CMP_NE, 0xff00, 0x5400))) };
	struct scg_rule_spec r4 = { .action = SCG_RET_ALLOW, .syscall = "ioctl" };
	assert_int_equal(scg_policy_add_rule(p, &r1), 0);
	assert_int_equal(scg_policy_add_rule(p, &r2), 0);
	assert_int_equal(scg_policy_add_rule(p, &r3), 0);
	assert_int_equal(scg_policy_add_rule(p, &r4), 0);
	char *json = export_ok(p);
	struct import_opts no_stub = { .no_stub = true };
	struct scg_policy *q = import_str(json, &no_stub);
	static const uint64_t consts[] = { 0, 2, 3, 99, 100, 0x5401, 0x5400, 0x54ff, 0x100005401ULL };
	assert_int_equal(same_verdicts(p, q, consts, sizeof(consts) / sizeof(consts[0])), 0);
	assert_int_equal(verdict(q, "close", 101, 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(q);
	free(json);
	scg_policy_free(p);
}

/* --- random policies: export, import, same verdicts ------------------------------------- */

static const char *const pool[] = { "read", "write", "close", "mmap", "ioctl", "futex",
				    "openat", "kill", "prctl", "getrandom", "clone", "uname" };

static const uint64_t values[] = { 0, 1, 2, 5, 0xff, 0x100, 0x7fffffff, 0x80000000,
				   0xffffffff, 0x100000000ULL, ~0ULL, 0x8000000000000000ULL };

static struct scg_expr *random_expr(struct progen_rng *rng, unsigned width, int depth)
{
	unsigned k = depth > 1 ? 3 : progen_below(rng, 6);
	if (k >= 3) {
		uint64_t mask = progen_below(rng, 3) ? ~0ULL : values[progen_below(rng, 12)] | 0xf0;
		return scg_expr_cmp(progen_below(rng, 3), width, (enum scg_cmp_op)progen_below(rng, 6),
				    mask, values[progen_below(rng, 12)]);
	}
	if (k == 0)
		return scg_expr_not(random_expr(rng, width, depth + 1));
	struct scg_expr *l = random_expr(rng, width, depth + 1), *r = random_expr(rng, width, depth + 1);
	return k == 1 ? scg_expr_and(l, r) : scg_expr_or(l, r);
}

static const uint32_t rets[] = { SCG_RET_ALLOW, SCG_RET_ERRNO | 1, SCG_RET_ERRNO | 13,
				 SCG_RET_KILL_PROCESS, SCG_RET_TRAP, SCG_RET_LOG, SCG_RET_KILL_THREAD };

static struct scg_policy *random_policy(struct progen_rng *rng, bool *with_x86)
{
	struct scg_policy *p = scg_policy_new();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	*with_x86 = progen_below(rng, 2);
	if (*with_x86) {
		scg_policy_add_arch(p, scg_arch_lookup("x86"));
		scg_policy_add_arch(p, scg_arch_lookup("x32"));
	}
	scg_policy_set_default(p, rets[progen_below(rng, 7)]);
	scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
	size_t n = 1 + progen_below(rng, 10);
	for (size_t i = 0; i < n; i++) {
		struct scg_rule_spec spec = {
			.action = rets[progen_below(rng, 7)],
			.syscall = pool[progen_below(rng, sizeof(pool) / sizeof(pool[0]))],
			/* 32-bit ABIs only see low halves: compare 32 bits when they are targets */
			.cond = progen_below(rng, 4) ? random_expr(rng, *with_x86 ? 32 : 64, 0) : NULL,
		};
		assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	}
	return p;
}

static void test_export_random_round_trip(void **state)
{
	(void)state;
	struct progen_rng rng;
	size_t refused = 0, done = 0;
	progen_seed(&rng, 0xe4907);
	for (size_t i = 0; i < test_scaled(300); i++) {
		bool with_x86;
		struct scg_policy *p = random_policy(&rng, &with_x86);
		struct scg_diag *diag = scg_diag_new();
		char *json = NULL;
		int r = scg_oci_export(p, &json, diag);
		if (r == -EINVAL) {
			/* only "too many entries" may stop a policy built to be expressible */
			assert_non_null(strstr(first_error(diag), "more than"));
			refused++;
		} else {
			assert_int_equal(r, 0);
			struct import_opts no_stub = { .no_stub = true };
			struct scg_policy *q = import_str(json, &no_stub);
			if (same_verdicts(p, q, values, sizeof(values) / sizeof(values[0]))) {
				print_message("policy %zu exported as:\n%s\n", i, json);
				fail();
			}
			scg_policy_free(q);
			done++;
		}
		free(json);
		scg_diag_free(diag);
		scg_policy_free(p);
	}
	print_message("%zu random policies exported and imported back, %zu too big\n", done, refused);
	assert_true(done > test_scaled(250));
}

/* --- the runtime's start calls --------------------------------------------------------- */

static struct scg_policy *parsed(const char *text)
{
	struct scg_policy *p = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &p, NULL), 0);
	return p;
}

static uint32_t verdict_of(const struct scg_policy *p, const char *arch_name, const char *call,
			   uint64_t arg0)
{
	const struct scg_arch *arch = scg_arch_lookup(arch_name);
	struct scg_seccomp_data d = { .arch = scg_arch_audit(arch), .args = { arg0 } };
	assert_int_equal(scg_syscall_lookup(arch, call, &d.nr), 0);
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

static void test_runtime_calls(void **state)
{
	(void)state;
	size_t n = 0;
	while (scg_oci_runtime_call(n))
		n++;
	assert_true(n > 20);
	assert_string_equal(scg_oci_runtime_call(0), "execve");
	/* added on every ABI where the default would stop them, and only there */
	struct scg_policy *p = parsed("arch x86_64, x86\ndefault kill\nallow read\nerrno(EPERM) openat\n"
				      "allow close if arg0 > 2\n");
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_oci_add_runtime_calls(p, diag), -EINVAL);
	/* openat and close are refused, at their rules; nothing was added */
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 2);
	assert_int_equal(scg_diag_get(diag, 0)->loc.line, 4);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "openat"));
	assert_int_equal(scg_diag_get(diag, 1)->loc.line, 5);
	assert_int_equal(verdict_of(p, "x86_64", "execve", 0), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	scg_diag_clear(diag);
	p = parsed("arch x86_64, x86\ndefault kill\nallow read, close\nerrno(EPERM) uname if arg0 == 1\n");
	assert_int_equal(scg_oci_add_runtime_calls(p, diag), 0);
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_ERROR), 0);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "execve, execveat, openat, write"));
	assert_null(strstr(scg_diag_get(diag, 0)->message, "close"));
	for (const char *const *a = (const char *const[]){ "x86_64", "x86", NULL }; *a; a++) {
		assert_int_equal(verdict_of(p, *a, "execve", 0), SCG_RET_ALLOW);
		assert_int_equal(verdict_of(p, *a, "futex", 0), SCG_RET_ALLOW);
	}
	/* getpid is the runtime's too: its rule restricts it for arg0 == 1 only, so refused */
	scg_policy_free(p);
	p = parsed("arch x86_64\ndefault kill\nerrno(EPERM) getpid if arg0 == 1\n");
	scg_diag_clear(diag);
	assert_int_equal(scg_oci_add_runtime_calls(p, diag), -EINVAL);
	assert_non_null(strstr(scg_diag_get(diag, 0)->message, "getpid"));
	scg_policy_free(p);
	/* a default that lets them run needs nothing; nor does a policy for another machine */
	const char *const nothing_to_add[] = { "arch x86_64\ndefault allow\nkill ptrace\n",
					       "arch aarch64\ndefault kill\nallow read\n" };
	for (size_t i = 0; i < 2; i++) {
		p = parsed(nothing_to_add[i]);
		scg_diag_clear(diag);
		size_t before = scg_policy_rule_count(p);
		assert_int_equal(scg_oci_add_runtime_calls(p, diag), 0);
		assert_int_equal(scg_policy_rule_count(p), before);
		assert_int_equal(scg_diag_count(diag), 0);
		scg_policy_free(p);
	}
	scg_diag_free(diag);
}

/* --- the built-in profiles ---------------------------------------------------------- */

static struct scg_policy *builtin(const char *name)
{
	static const char *const abis[] = { "x86_64", "x86", "x32" };
	const struct scg_arch *targets[3];
	for (int i = 0; i < 3; i++)
		targets[i] = scg_arch_lookup(abis[i]);
	struct scg_policy_source_options o = { .arches = targets, .narches = 3 };
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	int r = scg_profile_load(name, &o, &p, diag);
	if (r < 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	scg_diag_free(diag);
	return p;
}

/* Same verdicts for every syscall the ABIs' tables know (numbers no syscall has aside). */
static size_t same_known(const struct scg_policy *a, const struct scg_policy *b)
{
	static const uint64_t consts[] = { 0, 8, 38, 39, 40, 0x20000, 0x20008, 0xffffffff,
					   0x10000000, 0x7e020000, 0x11, 0x5412 };
	return same_verdicts(a, b, consts, sizeof(consts) / sizeof(consts[0]));
}

static void test_builtin_docker_default(void **state)
{
	(void)state;
	/* the built-in assumes a kernel at least as new as every minKernel */
	struct import_opts newest = { .kernel = "99.0" };
	struct scg_policy *imported = import_docker(&newest), *p = builtin("docker-default");
	assert_int_equal(same_known(imported, p), 0);
	assert_int_equal(verdict(p, "ptrace", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "file_getattr", 0, 0), ENOSYS_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 1000), ENOSYS_RET);
	scg_policy_free(p);
	scg_policy_free(imported);
}

static void test_builtin_default(void **state)
{
	(void)state;
	struct scg_policy *p = builtin("default");
	const uint64_t none[6] = { 0 }, tiocsti[6] = { 0, 0x5412 };
	assert_int_equal(scg_policy_badarch(p), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, "read", 0, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "clone", 0x11, 0), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, "clone", 0x10000000, 0), EPERM_RET);
	assert_int_equal(verdict(p, "socket", 40, 0), EPERM_RET);
	assert_int_equal(verdict(p, "personality", 0x400000, 0), EPERM_RET);
	static const char *const denied[] = { "ptrace", "process_vm_readv", "bpf", "perf_event_open",
					      "userfaultfd", "keyctl", "add_key", "mount",
					      "umount2", "pivot_root", "unshare", "setns", "chroot",
					      "kexec_load", "init_module", "fsopen", "open_tree" };
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		assert_int_equal(verdict(p, denied[i], 0, 0), EPERM_RET);
	assert_int_equal(verdict(p, "clone3", 0, 0), ENOSYS_RET);
	assert_int_equal(verdict(p, "io_uring_setup", 0, 0), ENOSYS_RET);
	assert_int_equal(verdict_args(p, AUDIT_X86_64, "x86_64", "ioctl", tiocsti), EPERM_RET);
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "socketcall", none), ENOSYS_RET);
	assert_int_equal(verdict_args(p, AUDIT_I386, "x86", "ipc", none), ENOSYS_RET);
	assert_int_equal(verdict(p, "file_getattr", 0, 0), ENOSYS_RET);
	assert_int_equal(verdict_nr(p, AUDIT_X86_64, 1000), ENOSYS_RET);
	scg_policy_free(p);
}

/* The options struct follows the sz pattern: older and newer callers, unknown fields refused. */
static void test_options_size(void **state)
{
	(void)state;
	const char *json = "{\"defaultAction\": \"SCMP_ACT_ERRNO\","
			   " \"architectures\": [\"SCMP_ARCH_X86_64\"],"
			   " \"syscalls\": [{\"names\": [\"read\"], \"action\": \"SCMP_ACT_ALLOW\"}]}";
	struct scg_policy *p = NULL;
	struct scg_diag *d = scg_diag_new();
	struct scg_oci_options init;
	scg_oci_options_init(&init);
	assert_int_equal(init.sz, sizeof(init));
	assert_true(init.runc_enosys);
	assert_int_equal(scg_oci_import(json, strlen(json), &init, &p, d), 0);
	scg_policy_free(p);
	SCG_OPTS(scg_oci_options, made, .runc_enosys = true, .host_arch = "amd64");
	assert_int_equal(scg_oci_import(json, strlen(json), &made, &p, d), 0);
	scg_policy_free(p);
	struct scg_oci_options zero = { .runc_enosys = true }; /* sz 0: the first layout */
	assert_int_equal(scg_oci_import(json, strlen(json), &zero, &p, d), 0);
	scg_policy_free(p);
	struct {
		struct scg_oci_options known;
		uint64_t later_field;
	} newer = { .known = { .sz = sizeof(newer), .runc_enosys = true }, .later_field = 1 };
	p = NULL;
	assert_int_equal(scg_oci_import(json, strlen(json), &newer.known, &p, d), -EINVAL);
	assert_null(p);
	newer.later_field = 0; /* a newer caller that leaves the new field alone */
	assert_int_equal(scg_oci_import(json, strlen(json), &newer.known, &p, d), 0);
	scg_policy_free(p);
	scg_diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker_basic_verdicts),
		cmocka_unit_test(test_docker_other_abis),
		cmocka_unit_test(test_docker_kernel_and_caps),
		cmocka_unit_test(test_docker_enosys_stub),
		cmocka_unit_test(test_docker_other_host),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_errno_values),
		cmocka_unit_test(test_errno_libseccomp_limit),
		cmocka_unit_test(test_podman_errno_names),
		cmocka_unit_test(test_podman_errno_agreeing),
		cmocka_unit_test(test_podman_errno_host),
		cmocka_unit_test(test_overlap_warning),
		cmocka_unit_test(test_runc_quirks),
		cmocka_unit_test(test_disabled_and_config_json),
		cmocka_unit_test(test_error_positions),
		cmocka_unit_test(test_error_options),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_export_docker_round_trip),
		cmocka_unit_test(test_export_errors),
		cmocka_unit_test(test_export_abis_runc_adds),
		cmocka_unit_test(test_runtime_calls),
		cmocka_unit_test(test_export_dnf),
		cmocka_unit_test(test_export_random_round_trip),
		cmocka_unit_test(test_builtin_docker_default),
		cmocka_unit_test(test_builtin_default),
		cmocka_unit_test(test_options_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
