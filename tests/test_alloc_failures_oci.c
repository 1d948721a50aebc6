// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The OCI/Docker import and export (libsyscage-oci) under allocation
 * failure, as test_alloc_failures.c does for the rest of the library: each
 * allocation of one run fails in turn, and the run must give -ENOMEM or
 * exactly the undisturbed result (the policy as text, the JSON written).
 * Only syscage's own allocations are counted and failed: json-c is a shared
 * library, so --wrap does not reach the allocations it makes while it parses
 * the input or prints the output; a json-c call that returns NULL is
 * covered only where syscage's code makes one fail.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/oci.h>
#include <syscage/syscage.h>

#include "alloc_fail.h"

/* Imports @input (JSON) for an amd64 host on Linux 6.1; the outcome is the policy as text. */
static int run_import(const void *input, struct outcome *out)
{
	static const char *const caps[] = { "CAP_SYS_ADMIN", "CAP_SYS_PTRACE" };
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.host_arch = "amd64";
	opts.caps = caps;
	opts.ncaps = 2;
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *policy = NULL;
	alloc_arm();
	int r = scg_oci_import(input, strlen(input), &opts, &policy, diag);
	alloc_disarm();
	scg_diag_free(diag);
	return outcome_policy(out, r, policy);
}

/* Writes the policy @input as JSON; the outcome is the text. */
static int run_export(const void *input, struct outcome *out)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	char *json = NULL;
	alloc_arm();
	int r = scg_oci_export(input, &json, diag);
	alloc_disarm();
	if (r == 0)
		outcome_text(out, json);
	else
		assert_null(json);
	scg_diag_free(diag);
	return r;
}

/* A Docker profile with what the importer resolves: archMap, caps, minKernel, args, errno. */
static const char profile[] =
	"{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 1,\n"
	" \"archMap\": [{\"architecture\": \"SCMP_ARCH_X86_64\",\n"
	"              \"subArchitectures\": [\"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"]}],\n"
	" \"syscalls\": [\n"
	"  {\"names\": [\"read\", \"write\", \"close\", \"exit_group\", \"futex\"],\n"
	"   \"action\": \"SCMP_ACT_ALLOW\"},\n"
	"  {\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\",\n"
	"   \"args\": [{\"index\": 0, \"value\": 8, \"op\": \"SCMP_CMP_EQ\"}]},\n"
	"  {\"names\": [\"clone\"], \"action\": \"SCMP_ACT_ALLOW\",\n"
	"   \"args\": [{\"index\": 0, \"value\": 2114060288, \"op\": \"SCMP_CMP_MASKED_EQ\"}],\n"
	"   \"excludes\": {\"caps\": [\"CAP_SYS_ADMIN\"]}},\n"
	"  {\"names\": [\"mount\", \"umount2\"], \"action\": \"SCMP_ACT_ALLOW\",\n"
	"   \"includes\": {\"caps\": [\"CAP_SYS_ADMIN\"]}},\n"
	"  {\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 97,\n"
	"   \"args\": [{\"index\": 0, \"value\": 40, \"op\": \"SCMP_CMP_GT\"}]},\n"
	"  {\"names\": [\"ptrace\"], \"action\": \"SCMP_ACT_ALLOW\",\n"
	"   \"includes\": {\"minKernel\": \"4.8\"}},\n"
	"  {\"names\": [\"no_such_call\"], \"action\": \"SCMP_ACT_ALLOW\"}\n"
	" ]}\n";

/* A whole OCI config.json: its linux.seccomp for x86_64 and i386, where socket calls multiplex */
static const char config[] =
	"{\"ociVersion\": \"1.0.2\", \"process\": {\"args\": [\"sh\"]},\n"
	" \"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\",\n"
	"  \"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\"],\n"
	"  \"flags\": [\"SECCOMP_FILTER_FLAG_LOG\"],\n"
	"  \"syscalls\": [\n"
	"   {\"names\": [\"getpid\", \"socket\", \"connect\", \"exit_group\"],\n"
	"    \"action\": \"SCMP_ACT_ALLOW\"},\n"
	"   {\"names\": [\"kill\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 1,\n"
	"    \"args\": [{\"index\": 1, \"value\": 9, \"op\": \"SCMP_CMP_EQ\"},\n"
	"             {\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_NE\"}]},\n"
	"   {\"names\": [\"openat\"], \"action\": \"SCMP_ACT_LOG\",\n"
	"    \"args\": [{\"index\": 2, \"value\": 64, \"valueTwo\": 64,\n"
	"              \"op\": \"SCMP_CMP_MASKED_EQ\"}]}\n"
	"  ]}}}\n";

/*
 * Docker's default profile is not among the inputs: its import makes some
 * 11 000 allocations, each failing run takes about a millisecond, and the
 * test would take seconds; the profile above goes through the same steps.
 */
static void test_oci_import(void **state)
{
	(void)state;
	assert_true(fail_each(run_import, profile, 0) > 0);
	assert_true(fail_each(run_import, config, 0) > 0);
	assert_true(fail_each(run_import,
			      "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": ["
			      "{\"names\": [\"read\", \"write\"], \"action\": \"SCMP_ACT_ALLOW\"},"
			      "{\"names\": [\"mkdir\"], \"action\": \"SCMP_ACT_ERRNO\","
			      " \"errno\": \"EACCESS\"}]}",
			      -EINVAL) > 0);
}

/* The policy @text in the policy language (no allocation fails). */
static struct scg_policy *policy_of(const char *text)
{
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	struct scg_policy *policy = NULL;
	assert_int_equal(scg_policy_parse(text, strlen(text), NULL, &policy, diag), 0);
	scg_diag_free(diag);
	return policy;
}

static void test_oci_export(void **state)
{
	(void)state;
	/* first-match rules that overlap: the export writes them as disjoint entries */
	struct scg_policy *policy = policy_of("arch x86_64, x86\n"
					      "default errno(EPERM)\n"
					      "unknown errno(ENOSYS)\n"
					      "allow read, write, close, exit_group\n"
					      "errno(EACCES) openat if (flags & O_CREAT) != 0\n"
					      "allow openat\n"
					      "allow socket if domain in {AF_UNIX, AF_INET}\n"
					      "kill-process ptrace\n");
	assert_true(fail_each(run_export, policy, 0) > 0);
	scg_policy_free(policy);
	/* OCI has no action for TRAP with a value: refused, never written without the rule */
	policy = policy_of("arch x86_64, x86\ndefault allow\nallow read\ntrap(5) write\n");
	fail_each(run_export, policy, -EINVAL);
	scg_policy_free(policy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oci_import),
		cmocka_unit_test(test_oci_export),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
