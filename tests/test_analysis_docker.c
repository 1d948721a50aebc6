/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The analysis engine on Docker's default profile: syscage's import of
 * tests/data/docker-default.json against runc + libseccomp's filter for the
 * same profile (tests/oci_oracle.c), x86_64, x86 and x32.  The engine must
 * prove them equal (a difference is printed, with the emulator's word on
 * both filters for an example call).
 * libseccomp's filter must also decompile into a policy whose compilation
 * the engine proves equal to it.
 *
 * With SYSCAGE_ANALYSIS_DUMP=DIR the two filters are written to DIR (for
 * the figure in docs/PERFORMANCE.md).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include <syscage/analysis.h>
#include <syscage/oci.h>
#include <syscage/syscage.h>

#include "oci_oracle.h"
#include "support/data.h"

#define AUDIT_X86_64 0xc000003eU

/* Keeps only names this libseccomp numbers like syscage does (runc skips the others). */
static char *comparable_profile(const char *json)
{
	struct json_object *doc = json_tokener_parse(json);
	assert_non_null(doc);
	struct json_object *calls, *names;
	if (json_object_object_get_ex(doc, "syscalls", &calls)) {
		size_t n = json_object_array_length(calls);
		for (size_t i = 0; i < n; i++) {
			if (!json_object_object_get_ex(json_object_array_get_idx(calls, i), "names", &names))
				continue;
			for (size_t k = json_object_array_length(names); k-- > 0;) {
				const char *name = json_object_get_string(json_object_array_get_idx(names, k));
				if (!oracle_libseccomp_knows(name) || !oracle_tables_agree(name))
					json_object_array_del_idx(names, k, 1);
			}
		}
	}
	char *out = strdup(json_object_to_json_string(doc));
	json_object_put(doc);
	assert_non_null(out);
	return out;
}

struct tally {
	const struct scg_prog *ours, *theirs;
	int differences;
};

static int on_difference(void *ctx, const struct scg_region *region, uint32_t ret_a, uint32_t ret_b)
{
	struct tally *t = ctx;
	struct scg_seccomp_data d;
	assert_int_equal(scg_region_example(region, &d), 0);
	struct scg_emu_result ra, rb;
	assert_int_equal(scg_emu_stack(t->ours, 1, &d, &ra, NULL, NULL, NULL), 0);
	assert_int_equal(scg_emu_stack(t->theirs, 1, &d, &rb, NULL, NULL, NULL), 0);
	assert_true(scg_verdict_same(ra.ret, ret_a, false));
	assert_true(scg_verdict_same(rb.ret, ret_b, false));
	t->differences++;
	print_message("difference: arch %#x nr %#x: ours %#x, libseccomp %#x\n", d.arch, d.nr,
		      ret_a, ret_b);
	return 0;
}

static void dump(const char *dir, const char *name, const struct scg_prog *p)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p->insns, sizeof(*p->insns), p->len, f), p->len);
	fclose(f);
}

static void docker_case(bool stub)
{
	char *raw = test_data_read("docker-default.json", NULL);
	assert_non_null(raw);
	char *json = comparable_profile(raw);
	struct oracle_opts oo = { .kernel = "6.8", .stub = stub };
	struct oracle_result *o = calloc(1, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(oracle_build(json, strlen(json), &oo, o), 0);
	assert_false(o->lost_load_x86_64 || o->lost_load_i386);

	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.8";
	opts.runc_enosys = stub;
	opts.host_arch = "amd64";
	struct scg_policy *policy;
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &policy, NULL), 0);
	struct scg_prog ours;
	assert_int_equal(scg_compile(policy, NULL, &ours, NULL), 0);

	struct tally t = { &ours, &o->prog, 0 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int n = scg_analysis_diff(&ours, 1, &o->prog, 1, NULL, on_difference, &t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	print_message("docker-default (stub %d): %d differing regions, %.1f ms\n", stub, n, ms);
	assert_int_equal(n, t.differences);
	assert_int_equal(n, 0);
	/* each ABI alone, too */
	struct scg_diff_options x86 = { .arch = scg_arch_lookup("x86") };
	struct scg_diff_options x32 = { .arch = scg_arch_lookup("x32") };
	assert_int_equal(scg_analysis_diff(&ours, 1, &o->prog, 1, &x86, NULL, NULL, NULL), 0);
	assert_int_equal(scg_analysis_diff(&ours, 1, &o->prog, 1, &x32, NULL, NULL, NULL), 0);

	/* libseccomp's filter decompiles into a policy that compiles back to an equal filter */
	struct scg_policy *back;
	assert_int_equal(scg_decompile(&o->prog, 1, &back, NULL), 0);
	struct scg_prog again;
	assert_int_equal(scg_compile(back, NULL, &again, NULL), 0);
	assert_int_equal(scg_analysis_diff(&o->prog, 1, &again, 1, NULL, NULL, NULL, NULL), 0);
	print_message("libseccomp's %zu instructions decompiled and recompiled: %zu\n", o->prog.len,
		      again.len);
	scg_prog_release(&again);
	scg_policy_free(back);

	const char *dir = getenv("SYSCAGE_ANALYSIS_DUMP");
	if (dir && stub) {
		dump(dir, "docker-syscage.bpf", &ours);
		dump(dir, "docker-libseccomp.bpf", &o->prog);
	}
	scg_prog_release(&ours);
	scg_policy_free(policy);
	scg_prog_release(&o->prog);
	free(o);
	free(json);
	free(raw);
}

static void test_docker_stub(void **state)
{
	(void)state;
	docker_case(true);
}

static void test_docker_no_stub(void **state)
{
	(void)state;
	docker_case(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docker_stub),
		cmocka_unit_test(test_docker_no_stub),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
