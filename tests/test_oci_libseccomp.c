/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential tests of the OCI importer against runc + libseccomp: the
 * same profile goes through scg_oci_import() and through the oracle
 * (tests/oci_oracle.c: Docker's selection and runc's rule adding over the
 * real libseccomp, runc's ENOSYS stub in front), and the imported policy's
 * verdict must equal the emulated filter's for every syscall number of
 * x86_64, x86 and x32 and for argument values around every constant of
 * the profile.
 *
 * Two things are taken out of the comparison on purpose, both documented
 * in docs/oci.md: names this libseccomp does not know are removed from the
 * profile first (runc skips them; syscage's tables are newer), and the
 * syscalls the kernel never filters (x86_64 uretprobe, uprobe).
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
#include <json-c/json.h>

#include <syscage/oci.h>
#include <syscage/syscage.h>

#include "oci_oracle.h"
#include "support/data.h"
#include "support/diag_print.h"
#include "support/features.h"
#include "support/progen.h"

#define AUDIT_X86_64 0xc000003eU
#define AUDIT_I386 0x40000003U
#define X32_BIT 0x40000000U

/* --- test data ---------------------------------------------------------------- */

/*
 * The profile without names this libseccomp cannot resolve (runc would
 * skip them) or numbers differently from syscage on some ABI: the two
 * would then differ only because their tables are of different ages.
 */
static char *without_unknown_names(const char *json, size_t *len, size_t *dropped)
{
	struct json_object *doc = json_tokener_parse(json);
	assert_non_null(doc);
	struct json_object *calls;
	*dropped = 0;
	if (json_object_object_get_ex(doc, "syscalls", &calls)) {
		for (size_t i = 0; i < json_object_array_length(calls); i++) {
			struct json_object *names;
			if (!json_object_object_get_ex(json_object_array_get_idx(calls, i), "names", &names))
				continue;
			for (size_t k = json_object_array_length(names); k-- > 0;) {
				const char *n = json_object_get_string(json_object_array_get_idx(names, k));
				if (!oracle_libseccomp_knows(n) || !oracle_tables_agree(n)) {
					json_object_array_del_idx(names, k, 1);
					(*dropped)++;
				}
			}
		}
	}
	char *out = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY));
	json_object_put(doc);
	*len = strlen(out);
	return out;
}

/* --- comparison ------------------------------------------------------------------ */

struct abi {
	const char *name;
	uint32_t audit;
	uint32_t flags;
};

static const struct abi abis[] = {
	{ "x86_64", AUDIT_X86_64, 0 },
	{ "x86", AUDIT_I386, 0 },
	{ "x32", AUDIT_X86_64, X32_BIT },
};

struct compare {
	const struct scg_policy *policy;
	const struct scg_diag *diag;
	const struct oracle_result *oracle;
	const struct scg_prog *prog;
	size_t lost_load;
	/* the entries one at a time, built on the first difference (exported policies and
	 * overlapping random profiles) */
	const char *json;
	struct oracle_opts oo;
	struct oracle_entries entries;
	size_t merge_bug;
	size_t checked;
	size_t failures;
	size_t explained;
	const char *label;
};

/*
 * The one difference the policy model cannot avoid (reported with a warning,
 * docs/oci.md): when runc's stub covers
 * some ABIs but not others, the policy's single `unknown` verdict gives the
 * others' unknown numbers ENOSYS too.
 */
static bool explained_partial_stub(const struct scg_seccomp_data *d, uint32_t oracle,
				   const struct scg_verdict *v, const struct scg_policy *p,
				   const struct scg_diag *diag)
{
	const struct scg_arch *arch = scg_arch_from_audit(d->arch, d->nr);
	if (v->source != SCG_VERDICT_UNKNOWN || oracle != scg_policy_default(p) || !arch)
		return false;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		char needle[64];
		snprintf(needle, sizeof(needle), " of %s ", scg_arch_name(arch));
		if (e->code && !strcmp(e->code, "oci-enosys-partial") && strstr(e->message, needle))
			return true;
	}
	return false;
}

static void report(struct compare *c, const struct scg_seccomp_data *d, uint32_t want, uint32_t got,
		   const struct scg_verdict *v)
{
	char w[48], g[48];
	scg_ret_format(want, w, sizeof(w));
	scg_ret_format(got, g, sizeof(g));
	const struct scg_arch *arch = scg_arch_from_audit(d->arch, d->nr);
	const char *name = arch ? scg_syscall_name(arch, d->nr) : NULL;
	print_message("%s: arch %#x nr %#x (%s) args %#llx %#llx %#llx: runc+libseccomp %s, "
		      "policy %s (source %d rule %zu)\n",
		      c->label, d->arch, d->nr, name ? name : "?", (unsigned long long)d->args[0],
		      (unsigned long long)d->args[1], (unsigned long long)d->args[2], w, g,
		      (int)v->source, v->rule);
}

/*
 * libseccomp 2.5.4's code for a syscall with several conditional rules can
 * test a sibling rule's value against the word a deeper test left in the
 * accumulator (docs/oci.md).  Such a difference is libseccomp's when the
 * same entries, compiled one at a time, agree with the policy.
 */
static bool merged_wrongly(struct compare *c, const struct scg_seccomp_data *d, uint32_t want)
{
	uint32_t ret;
	if (!c->entries.progs)
		assert_int_equal(oracle_entries_build(c->json, strlen(c->json), &c->oo, &c->entries), 0);
	return oracle_entries_verdict(&c->entries, d, &ret) == 0 && ret == want;
}

static void check_one(struct compare *c, const struct scg_seccomp_data *d)
{
	if ((d->arch == AUDIT_X86_64 && c->oracle->lost_load_x86_64) ||
	    (d->arch == AUDIT_I386 && c->oracle->lost_load_i386)) {
		c->lost_load++;
		return;
	}
	struct scg_emu_result res;
	struct scg_verdict v;
	assert_int_equal(scg_emu_stack(c->prog, 1, d, &res, NULL, NULL, NULL), 0);
	if (res.never_filtered)
		return; /* the kernel lets these through whatever the filter says */
	scg_policy_eval(c->policy, d, &v);
	c->checked++;
	if (res.ret == v.action)
		return;
	if (explained_partial_stub(d, res.ret, &v, c->policy, c->diag)) {
		c->explained++;
		return;
	}
	if (c->json && merged_wrongly(c, d, v.action)) {
		c->merge_bug++;
		return;
	}
	if (c->failures++ < 25)
		report(c, d, res.ret, v.action, &v);
}

static size_t arg_values(const struct oracle_result *o, uint64_t *out, size_t max)
{
	static const uint64_t fixed[] = { 0, 1, 0xffffffffULL, 0x100000000ULL, ~0ULL, 0x80000000ULL,
					  0x7fffffffULL, 0xffffffff00000000ULL };
	size_t n = 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && n < max; i++)
		out[n++] = fixed[i];
	for (size_t i = 0; i < o->nconstants && n + 6 <= max; i++) {
		uint64_t c = o->constants[i];
		out[n++] = c;
		out[n++] = c - 1;
		out[n++] = c + 1;
		out[n++] = c | 0xffffffff00000000ULL;
		out[n++] = c + 0x100000000ULL;
		out[n++] = ~c;
	}
	return n;
}

/* Syscall numbers the profile names on @abi, plus the multiplexers. */
static bool named(const struct oracle_result *o, const struct scg_arch *arch, uint32_t nr)
{
	const char *name = scg_syscall_name(arch, nr);
	if (!name)
		return false;
	if (!strcmp(name, "socketcall") || !strcmp(name, "ipc"))
		return true;
	for (size_t i = 0; i < o->nnames; i++)
		if (!strcmp(o->names[i], name))
			return true;
	return false;
}

static void compare_abi(struct compare *c, const struct oracle_result *o, const struct abi *abi)
{
	const struct scg_arch *arch = scg_arch_lookup(abi->name);
	uint64_t values[4096];
	size_t nvalues = arg_values(o, values, sizeof(values) / sizeof(values[0]));
	uint32_t top = scg_syscall_max(arch) + 64;
	static const uint32_t extra[] = { 0xffffffffU, 0x7fffffffU, 0x80000000U, 0x3fffffffU,
					  0x40000000U, 0xc0000000U, 0xbfffffffU, 0x40001000U };
	for (uint32_t nr = abi->flags; nr <= top; nr++) {
		struct scg_seccomp_data d = { .nr = nr, .arch = abi->audit };
		check_one(c, &d);
		d.args[0] = d.args[1] = d.args[2] = d.args[3] = d.args[4] = d.args[5] = ~0ULL;
		check_one(c, &d);
		if (!named(o, arch, nr))
			continue;
		for (unsigned a = 0; a < 6; a++) {
			for (size_t i = 0; i < nvalues; i++) {
				struct scg_seccomp_data e = { .nr = nr, .arch = abi->audit };
				e.args[a] = values[i];
				check_one(c, &e);
			}
		}
	}
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		struct scg_seccomp_data d = { .nr = extra[i], .arch = abi->audit };
		check_one(c, &d);
	}
	/* some other ABI: the bad-architecture action */
	struct scg_seccomp_data d = { .nr = 1, .arch = 0xc00000b7U /* aarch64 */ };
	check_one(c, &d);
}

struct case_opts {
	const char *kernel;
	bool stub;
	bool all_caps;
	bool overlap; /* rules overlap: tell libseccomp's miscompiled merges apart */
};

struct stats {
	size_t checked;   /* verdicts compared */
	size_t explained; /* differences docs/oci.md explains */
	size_t lost_load; /* calls not compared: libseccomp lost the syscall-number load */
	size_t refused;   /* profiles runc refuses (and the importer too) */
	size_t merge_bug; /* libseccomp's merged filter wrong, its entries one at a time right */
};

/* Imports @json both ways and compares; returns the number of differences. */
static size_t differential(const char *json, size_t len, const struct case_opts *co,
			   const char *label, struct stats *st)
{
	struct oracle_opts oo = { .kernel = co->kernel, .stub = co->stub, .all_caps = co->all_caps };
	struct oracle_result *o = calloc(1, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(oracle_build(json, len, &oo, o), 0);
	static const char *const all[] = { "ALL" };
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = co->kernel;
	opts.runc_enosys = co->stub;
	opts.host_arch = "amd64";
	if (co->all_caps) {
		opts.caps = all;
		opts.ncaps = 1;
	}
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	int r = scg_oci_import(json, len, &opts, &policy, diag);
	if (r < 0 && !o->rule_error)
		test_print_diag(diag);
	if (o->rule_error || r < 0) {
		/* runc fails to start the container; the importer must refuse the profile too */
		size_t failures = 0;
		if (o->rule_error && r != -EINVAL) {
			print_message("%s: runc fails (%s), the import did not\n", label, o->message);
			failures = 1;
		} else if (!o->rule_error) {
			print_message("%s: runc starts the container, the import failed\n", label);
			failures = 1;
		} else {
			st->refused++;
		}
		scg_policy_free(policy);
		scg_diag_free(diag);
		scg_prog_release(&o->prog);
		free(o);
		return failures;
	}
	struct compare c = { .policy = policy, .diag = diag, .oracle = o, .prog = &o->prog, .label = label,
			     .json = co->overlap ? json : NULL, .oo = oo };
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		compare_abi(&c, o, &abis[i]);
	st->checked += c.checked;
	st->explained += c.explained;
	st->lost_load += c.lost_load;
	st->merge_bug += c.merge_bug;
	oracle_entries_release(&c.entries);
	scg_policy_free(policy);
	scg_diag_free(diag);
	scg_prog_release(&o->prog);
	free(o);
	return c.failures;
}

/* --- Docker's default profile ---------------------------------------------------- */

static void docker_case(const struct case_opts *co, const char *label)
{
	size_t len, flen, dropped;
	struct stats st = { 0 };
	char *raw = test_data_read("docker-default.json", &len);
	assert_non_null(raw);
	char *json = without_unknown_names(raw, &flen, &dropped);
	size_t failures = differential(json, flen, co, label, &st);
	print_message("%s: %zu verdicts compared (%zu explained differences), %zu names left out "
		      "(unknown to this libseccomp, or numbered differently)\n",
		      label, st.checked, st.explained, dropped);
	assert_true(st.checked > 5000);
	assert_int_equal(st.lost_load, 0);
	assert_int_equal(failures, 0);
	free(json);
	free(raw);
}

static void test_docker_default(void **state)
{
	(void)state;
	struct case_opts co = { NULL, true, false, false };
	docker_case(&co, "docker-default");
}

static void test_docker_default_no_stub(void **state)
{
	(void)state;
	struct case_opts co = { NULL, false, false, false };
	docker_case(&co, "docker-default, no stub");
}

static void test_docker_default_old_kernel(void **state)
{
	(void)state;
	struct case_opts co = { "4.4", true, false, false };
	docker_case(&co, "docker-default, kernel 4.4");
}

static void test_docker_default_all_caps(void **state)
{
	(void)state;
	struct case_opts co = { "6.1", true, true, false };
	docker_case(&co, "docker-default, every capability");
}

/* --- Podman's profile --------------------------------------------------------- */

/*
 * Podman (containers/common) turns "errno" and "defaultErrno" into
 * errnoRet and defaultErrnoRet, numbered for the host, before the runtime
 * sees the profile; the oracle is runc, which reads the numbers only.  Each
 * name becomes its x86_64 number, and the name is dropped.
 */
static void podman_errno_to_ret(struct json_object *obj, const char *name_key,
				const char *ret_key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(obj, name_key, &v))
		return;
	const char *s = json_object_get_string(v);
	if (s && *s) {
		uint32_t n;
		assert_int_equal(scg_errno_lookup(scg_arch_lookup("x86_64"), s, &n), 0);
		json_object_object_add(obj, ret_key, json_object_new_int64(n));
	}
	json_object_object_del(obj, name_key);
}

static char *podman_as_runtime_sees_it(const char *json, size_t *len)
{
	struct json_object *doc = json_tokener_parse(json);
	assert_non_null(doc);
	podman_errno_to_ret(doc, "defaultErrno", "defaultErrnoRet");
	struct json_object *calls;
	if (json_object_object_get_ex(doc, "syscalls", &calls))
		for (size_t i = 0; i < json_object_array_length(calls); i++)
			podman_errno_to_ret(json_object_array_get_idx(calls, i), "errno", "errnoRet");
	char *out = strdup(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	assert_non_null(out);
	json_object_put(doc);
	*len = strlen(out);
	return out;
}

/*
 * The installed profile (Debian's golang-github-containers-common), as
 * Docker's is checked: with runc's stub and Podman's default capabilities
 * (which lack CAP_AUDIT_WRITE, so its NETLINK_AUDIT entries count), and with
 * every capability.  The importer reads the errno names itself; the oracle
 * gets them as numbers, as Podman hands them over.
 */
static void podman_case(const char *label, bool all_caps)
{
	const char *path = getenv("SYSCAGE_PODMAN_PROFILE");
	if (!path)
		path = "/usr/share/containers/seccomp.json";
	FILE *f = fopen(path, "r");
	if (!f) {
		feature_skip("containers-common", "%s: no %s", label, path);
		skip();
	}
	char *raw = NULL;
	size_t cap = 0, rlen = 0, got;
	do {
		char *bigger = realloc(raw, cap + 65536 + 1);
		assert_non_null(bigger);
		raw = bigger;
		cap += 65536;
		got = fread(raw + rlen, 1, cap - rlen, f);
		rlen += got;
	} while (got > 0 && rlen == cap);
	fclose(f);
	raw[rlen] = '\0';

	size_t plen, flen, dropped;
	char *plain = podman_as_runtime_sees_it(raw, &plen);
	char *json = without_unknown_names(plain, &flen, &dropped);
	/* the importer on the file with the names; the oracle on the numbers */
	/* Podman's default capabilities (containers.conf(5), default_capabilities) */
	static const char *const podman_caps[] = {
		"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL",
		"CAP_NET_BIND_SERVICE", "CAP_SETFCAP", "CAP_SETGID", "CAP_SETPCAP", "CAP_SETUID",
		"CAP_SYS_CHROOT",
	};
	struct oracle_opts oo = { .kernel = "6.1", .stub = true, .all_caps = all_caps,
				  .caps = podman_caps,
				  .ncaps = sizeof(podman_caps) / sizeof(podman_caps[0]) };
	struct oracle_result *o = calloc(1, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(oracle_build(json, flen, &oo, o), 0);
	assert_false(o->rule_error);
	char *named = without_unknown_names(raw, &flen, &dropped);
	static const char *const all[] = { "ALL" };
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.runc_enosys = true;
	opts.host_arch = "amd64";
	opts.caps = all_caps ? all : podman_caps;
	opts.ncaps = all_caps ? 1 : sizeof(podman_caps) / sizeof(podman_caps[0]);
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	int r = scg_oci_import(named, flen, &opts, &policy, diag);
	if (r < 0)
		test_print_diag(diag);
	assert_int_equal(r, 0);
	struct compare c = { .policy = policy, .diag = diag, .oracle = o, .prog = &o->prog,
			     .label = label, .oo = oo };
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		compare_abi(&c, o, &abis[i]);
	print_message("%s: %zu verdicts compared (%zu explained differences), %zu names left out "
		      "(unknown to this libseccomp, or numbered differently)\n",
		      label, c.checked, c.explained, dropped);
	assert_true(c.checked > 4000); /* every capability: fewer entries, fewer constants */
	assert_int_equal(c.lost_load, 0);
	assert_int_equal(c.failures, 0);
	oracle_entries_release(&c.entries);
	scg_policy_free(policy);
	scg_diag_free(diag);
	scg_prog_release(&o->prog);
	free(o);
	free(named);
	free(json);
	free(plain);
	free(raw);
}

static void test_podman_default(void **state)
{
	(void)state;
	podman_case("podman", false);
}

static void test_podman_all_caps(void **state)
{
	(void)state;
	podman_case("podman, every capability", true);
}

static void run_random_profiles(size_t count, uint64_t seed, bool overlap);

static void test_random_profiles(void **state)
{
	(void)state;
	run_random_profiles(400, 0x5eccc0de, false);
}

/* One syscall in several entries with different actions: libseccomp's precedence and refusals. */
static void test_random_overlapping_profiles(void **state)
{
	(void)state;
	run_random_profiles(400, 0x0e7e11a9, true);
}

/* --- overlapping rules, case by case ---------------------------------------------- */

struct overlap_case {
	const char *what;
	bool refused; /* libseccomp 2.5.4 fails a seccomp_rule_add() (EEXIST), so runc fails */
	const char *json;
};

#define PROFILE(arches, calls) \
	"{\"defaultAction\": \"SCMP_ACT_TRAP\", \"architectures\": [" arches "], \"syscalls\": [" calls "]}"
#define X86 "\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\""
#define ARG(i, op, v) "{\"index\": " #i ", \"value\": " #v ", \"op\": \"SCMP_CMP_" #op "\"}"
#define RULE(name, action, args) \
	"{\"names\": [\"" name "\"], \"action\": \"SCMP_ACT_" action "\", \"args\": [" args "]}"

/* Shapes the random profiles found, each checked against the real libseccomp. */
static const struct overlap_case overlap_cases[] = {
	{ "refused before an unconditional rule replaced them", true,
	  PROFILE(X86, RULE("socketcall", "ALLOW", ARG(0, NE, 18446744073709551615)) ","
		       RULE("socketcall", "KILL_PROCESS", ARG(0, NE, 18446744073709551615)) ","
		       RULE("socketcall", "KILL", "")) },
	{ "a name the ABI lacks is merged all the same", true,
	  PROFILE("", RULE("setuid32", "ALLOW", ARG(1, EQ, 317)) ","
		      RULE("setuid32", "KILL", ARG(1, EQ, 317))) },
	{ "a wider rule with the same action prunes a narrower one", false,
	  PROFILE(X86, "{\"names\": [\"recvmmsg\", \"socketcall\"], \"action\": \"SCMP_ACT_LOG\","
		       " \"args\": [" ARG(1, LT, 255) "]}," RULE("recvmmsg", "ALLOW", "")) },
	{ "a narrower rule with the action of a wider one is dropped", false,
	  PROFILE(X86, RULE("personality", "KILL", ARG(2, NE, 169651208193)) ","
		       RULE("personality", "TRAP", ARG(2, NE, 169651208193) "," ARG(0, LT, 4294967295)) ","
		       RULE("personality", "KILL", ARG(2, NE, 169651208193) "," ARG(0, LT, 4294967295))) },
	{ "equal high words share a node: the low words order the rules", false,
	  PROFILE(X86, RULE("ioctl", "ALLOW", ARG(2, EQ, 0)) "," RULE("ioctl", "ERRNO", ARG(2, NE, 255))) },
	{ "different high-word nodes keep the file's order", false,
	  PROFILE(X86, "{\"names\": [\"ioctl\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{\"index\": 0,"
		       " \"value\": 40, \"valueTwo\": 1, \"op\": \"SCMP_CMP_MASKED_EQ\"}]},"
		       RULE("ioctl", "ERRNO", ARG(0, NE, 4294967295))) },
};

static void test_overlap_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(overlap_cases) / sizeof(overlap_cases[0]); i++) {
		const struct overlap_case *oc = &overlap_cases[i];
		struct case_opts co = { "6.1", true, false, true };
		struct stats st = { 0 };
		print_message("%s\n", oc->what);
		assert_int_equal(differential(oc->json, strlen(oc->json), &co, oc->what, &st), 0);
		assert_int_equal(st.refused, oc->refused);
		if (!oc->refused)
			assert_true(st.checked > 1000);
	}
}

/*
 * less/greater comparisons of 64-bit arguments share word-sized nodes in
 * libseccomp's tree, where rules of different actions meet: runc fails
 * here, and the import, which merges the rules into the same tree, refuses
 * the profile as libseccomp does.
 */
static void test_split_range_refusal(void **state)
{
	(void)state;
	const char *json = PROFILE("\"SCMP_ARCH_X86_64\"",
				   RULE("splice", "LOG", ARG(2, LE, 40) "," ARG(1, GT, 39)) ","
				   RULE("splice", "LOG", ARG(2, LE, 40)) "," RULE("splice", "ERRNO", ARG(1, GT, 39)));
	struct oracle_opts oo = { .kernel = "6.1" };
	struct oracle_result *o = calloc(1, sizeof(*o));
	assert_non_null(o);
	assert_int_equal(oracle_build(json, strlen(json), &oo, o), 0);
	assert_int_equal(o->rule_error, -EEXIST);
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.kernel = "6.1";
	opts.host_arch = "amd64";
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *policy = NULL;
	assert_int_equal(scg_oci_import(json, strlen(json), &opts, &policy, diag), -EINVAL);
	bool refused = false;
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		refused |= e->code && !strcmp(e->code, "oci-conflict") && strstr(e->message, "EEXIST");
	}
	assert_true(refused);
	scg_policy_free(policy);
	scg_diag_free(diag);
	scg_prog_release(&o->prog);
	free(o);
}

/* --- exported policies through runc + libseccomp ------------------------------------ */

static const char *const xpool[] = { "read", "write", "close", "mmap", "ioctl", "futex",
				     "openat", "kill", "prctl", "getrandom", "uname" };
static const uint64_t xvalues[] = { 0, 1, 2, 5, 0xff, 0x100, 0x7fffffff, 0x80000000,
				    0xffffffff, 0x100000000ULL, ~0ULL };

static struct scg_expr *xexpr(struct progen_rng *rng, unsigned width, int depth)
{
	unsigned k = depth > 1 ? 3 : progen_below(rng, 6);
	if (k >= 3)
		return scg_expr_cmp(progen_below(rng, 3), width, (enum scg_cmp_op)progen_below(rng, 6),
				    progen_below(rng, 3) ? ~0ULL : 0xff00,
				    xvalues[progen_below(rng, sizeof(xvalues) / sizeof(xvalues[0]))]);
	if (k == 0)
		return scg_expr_not(xexpr(rng, width, depth + 1));
	struct scg_expr *l = xexpr(rng, width, depth + 1), *r = xexpr(rng, width, depth + 1);
	return k == 1 ? scg_expr_and(l, r) : scg_expr_or(l, r);
}

static struct scg_policy *xpolicy(struct progen_rng *rng, bool with_x86)
{
	static const uint32_t rets[] = { SCG_RET_ALLOW, SCG_RET_ERRNO | 1, SCG_RET_ERRNO | 13,
					 SCG_RET_KILL_PROCESS, SCG_RET_TRAP };
	struct scg_policy *p = scg_policy_new();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	if (with_x86) {
		scg_policy_add_arch(p, scg_arch_lookup("x86"));
		scg_policy_add_arch(p, scg_arch_lookup("x32"));
	}
	scg_policy_set_default(p, rets[progen_below(rng, 5)]);
	scg_policy_set_badarch(p, SCG_RET_KILL_THREAD);
	size_t n = 1 + progen_below(rng, 8);
	for (size_t i = 0; i < n; i++) {
		struct scg_rule_spec spec = {
			.action = rets[progen_below(rng, 5)],
			.syscall = xpool[progen_below(rng, sizeof(xpool) / sizeof(xpool[0]))],
			.cond = progen_below(rng, 3) ? xexpr(rng, with_x86 ? 32 : 64, 0) : NULL,
		};
		assert_int_equal(scg_policy_add_rule(p, &spec), 0);
	}
	return p;
}

/* Every number once, the pool's syscalls with argument values around the policy's constants. */
static void compare_pool(struct compare *c, const struct abi *abi)
{
	const struct scg_arch *arch = scg_arch_lookup(abi->name);
	uint32_t top = scg_syscall_max(arch) + 8;
	for (uint32_t nr = abi->flags; nr <= top; nr++) {
		struct scg_seccomp_data d = { .nr = nr, .arch = abi->audit };
		check_one(c, &d);
	}
	for (size_t k = 0; k < sizeof(xpool) / sizeof(xpool[0]); k++) {
		uint32_t nr;
		if (scg_syscall_lookup(arch, xpool[k], &nr) < 0)
			continue;
		for (size_t v = 0; v < sizeof(xvalues) / sizeof(xvalues[0]); v++) {
			for (unsigned a = 0; a < 3; a++) {
				for (int delta = -1; delta <= 1; delta++) {
					struct scg_seccomp_data d = { .nr = nr, .arch = abi->audit };
					d.args[a] = xvalues[v] + (uint64_t)(int64_t)delta;
					check_one(c, &d);
					d.args[a] ^= 0xffffffff00000000ULL;
					check_one(c, &d);
				}
			}
			struct scg_seccomp_data d = { .nr = nr, .arch = abi->audit };
			d.args[0] = xvalues[v];
			d.args[1] = xvalues[(v * 7 + 3) % 11];
			d.args[2] = xvalues[(v * 5 + 1) % 11];
			check_one(c, &d);
		}
	}
}

/*
 * A policy exported to OCI JSON must mean the same under runc + libseccomp
 * (without runc's stub: an exported policy has no unknown verdict).
 */
static void test_exported_policies(void **state)
{
	(void)state;
	struct progen_rng rng;
	struct stats st = { 0 };
	size_t failed = 0, exported = 0, too_big = 0, merge_bug = 0;
	progen_seed(&rng, 0x0c1e4b07);
	const size_t count = 60;
	size_t refused = 0;
	for (size_t i = 0; i < count && failed < 3; i++) {
		struct scg_policy *p = xpolicy(&rng, progen_below(&rng, 2));
		struct scg_diag *diag = scg_diag_new();
		char *json = NULL;
		if (scg_oci_export(p, &json, diag) == 0) {
			struct oracle_opts oo = { .kernel = "6.1" };
			struct oracle_result *o = calloc(1, sizeof(*o));
			assert_non_null(o);
			assert_int_equal(oracle_build(json, strlen(json), &oo, o), 0);
			assert_int_equal(o->rule_error, 0);
			if (o->prog.len > SCG_BPF_MAXINSNS) {
				too_big++; /* runc could not load what libseccomp made of it */
			} else {
				struct compare c = { .policy = p, .diag = diag, .oracle = o, .prog = &o->prog,
						     .label = "exported policy", .json = json, .oo = oo };
				for (size_t a = 0; a < scg_policy_arch_count(p); a++)
					compare_pool(&c, &abis[a]);
				st.checked += c.checked;
				st.lost_load += c.lost_load;
				merge_bug += c.merge_bug;
				if (c.failures && failed++ < 3)
					print_message("exported policy %zu:\n%s\n", i, json);
				oracle_entries_release(&c.entries);
				exported++;
			}
			scg_prog_release(&o->prog);
			free(o);
		} else {
			/* Refused with a reason (too many OCI entries), never silently. */
			assert_true(scg_diag_count(diag) > 0);
			refused++;
		}
		free(json);
		scg_diag_free(diag);
		scg_policy_free(p);
	}
	print_message("%zu exported policies through runc + libseccomp (%zu refused by the exporter, "
		      "%zu more came out over 4096 "
		      "instructions in libseccomp's hands), %zu verdicts compared, %zu differences "
		      "where libseccomp's merged filter disagrees with the same entries compiled one "
		      "at a time, %zu calls skipped where libseccomp lost the syscall-number load\n",
		      exported, refused, too_big, st.checked, merge_bug, st.lost_load);
	assert_true(exported >= count * 9 / 10);
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exported_policies),
		cmocka_unit_test(test_docker_default),
		cmocka_unit_test(test_docker_default_no_stub),
		cmocka_unit_test(test_docker_default_old_kernel),
		cmocka_unit_test(test_docker_default_all_caps),
		cmocka_unit_test(test_podman_default),
		cmocka_unit_test(test_podman_all_caps),
		cmocka_unit_test(test_random_profiles),
		cmocka_unit_test(test_random_overlapping_profiles),
		cmocka_unit_test(test_overlap_cases),
		cmocka_unit_test(test_split_range_refusal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* --- random profiles ------------------------------------------------------------- */

static const char *const pool[] = {
	"read",	      "write",	    "close",  "getpid",	 "socket",	  "connect", "accept",
	"accept4",    "personality", "clone", "ioctl",	 "mmap",	  "mprotect", "chown32",
	"arch_prctl", "socketcall", "ipc",    "semop",	 "msgget",	  "fcntl64", "rt_sigaction",
	"openat",     "kill",	    "prctl",  "futex",	 "uname",	  "setuid",  "setuid32",
	"not_a_call", "sendmsg",    "shmctl", "recvmmsg", "modify_ldt", "getrandom",
};

static const uint64_t interesting[] = { 0,	    1,		 2,	      5,	 38,
					39,	    40,		 0x7fffffff,  0x80000000, 0xffffffff,
					0x100000000, 0x7E020000, ~0ULL,	      0xff,	 0x100 };

struct gen_arg {
	unsigned index;
	const char *op;
	uint64_t value, value_two;
};

struct key_state {
	const char *name;
	uint32_t action;  /* of its conditional rules; 0: none yet */
	unsigned count;   /* conditional rules */
	bool complex;     /* one of them is more than one equality test on one argument */
	unsigned arg;     /* the argument the simple ones test */
};

/* An entry written earlier, for entries that repeat its names or conditions. */
struct past_entry {
	const char *names[4];
	size_t nnames;
	struct gen_arg args[4];
	size_t nargs;
};

struct gen {
	struct progen_rng rng;
	char *buf;
	size_t len, cap;
	struct key_state keys[64];
	size_t nkeys;
	/* Overlapping rules: one syscall in several entries with different actions, with and
	 * without conditions, twice in one entry, the same conditions with another action. */
	bool overlap;
	struct past_entry past[16];
	size_t npast;
};

static void out(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < g->cap - g->len);
	g->len += (size_t)n;
}

static uint64_t pick_value(struct gen *g)
{
	if (progen_below(&g->rng, 4) == 0)
		return progen_interesting64(&g->rng);
	return interesting[progen_below(&g->rng, sizeof(interesting) / sizeof(interesting[0]))];
}

static const char *mux_of(const char *name)
{
	static const char *const sock[] = { "socket", "connect", "accept", "accept4", "sendmsg",
					    "recvmmsg" };
	static const char *const ipc[] = { "semop", "msgget", "shmctl" };
	for (size_t i = 0; i < sizeof(sock) / sizeof(sock[0]); i++)
		if (!strcmp(name, sock[i]))
			return "socketcall";
	for (size_t i = 0; i < sizeof(ipc) / sizeof(ipc[0]); i++)
		if (!strcmp(name, ipc[i]))
			return "ipc";
	return NULL;
}

static struct key_state *key_slot(struct gen *g, const char *key)
{
	for (size_t i = 0; i < g->nkeys; i++)
		if (!strcmp(g->keys[i].name, key))
			return &g->keys[i];
	g->keys[g->nkeys] = (struct key_state){ .name = key };
	return &g->keys[g->nkeys++];
}

/* The shape of a conditional rule as libseccomp stores it. */
struct shape {
	bool complex;
	unsigned arg;
};

static bool is_range(const char *op)
{
	return strstr(op, "_LT") || strstr(op, "_LE") || strstr(op, "_GT") || strstr(op, "_GE");
}

static struct shape shape_of(const struct gen_arg *args, size_t n, bool mux)
{
	struct shape sh = { false, mux ? 0 : (n ? args[0].index : 0) };
	size_t tests = mux ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		if (mux && args[i].index == 0)
			continue; /* replaced by the sub-call number */
		tests++;
		sh.complex |= is_range(args[i].op) || args[i].index != sh.arg;
	}
	sh.complex |= tests > 1;
	return sh;
}

/*
 * libseccomp 2.5.4 miscompiles some syscalls with several conditional
 * rules (a sibling test runs on the wrong argument word after a deeper
 * test failed; docs/oci.md), and libseccomp's tree order decides between
 * different actions.  The plain random profiles stay clear of both: a
 * syscall gets several conditional rules only if all of them are single
 * equality tests of one argument with one action.  The overlapping ones
 * (struct gen's overlap) seek them out instead, and tell the miscompiled
 * merges apart by compiling the entries one at a time.
 */
static bool key_allows(struct key_state *k, uint32_t action, struct shape sh, bool commit)
{
	bool ok = !k->count || (k->action == action && !k->complex && !sh.complex && k->arg == sh.arg);
	if (ok && commit) {
		k->action = action;
		k->count++;
		k->complex |= sh.complex;
		k->arg = sh.arg;
	}
	return ok;
}

static bool name_allowed(struct gen *g, const char *name, uint32_t action,
			 const struct gen_arg *args, size_t nargs, bool commit)
{
	const char *mux = mux_of(name);
	bool ok = true;
	if (g->overlap)
		return true;
	if (nargs)
		ok = key_allows(key_slot(g, name), action, shape_of(args, nargs, false), false);
	if (ok && mux)
		ok = key_allows(key_slot(g, mux), action, shape_of(args, nargs, true), false);
	if (ok && commit) {
		if (nargs)
			key_allows(key_slot(g, name), action, shape_of(args, nargs, false), true);
		if (mux)
			key_allows(key_slot(g, mux), action, shape_of(args, nargs, true), true);
	}
	return ok;
}

static const char *const actions[] = { "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO",	  "SCMP_ACT_KILL_PROCESS",
				       "SCMP_ACT_TRAP",	 "SCMP_ACT_LOG",	  "SCMP_ACT_KILL",
				       "SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO" };
static const char *const ops[] = { "SCMP_CMP_NE", "SCMP_CMP_LT", "SCMP_CMP_LE",	     "SCMP_CMP_EQ",
				   "SCMP_CMP_GE", "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ" };

/* runc turns comparisons that repeat an argument into rules of their own: no ranges there. */
static size_t gen_args(struct gen *g, struct gen_arg *args)
{
	size_t n = progen_below(&g->rng, 3) ? progen_below(&g->rng, 3) : 0;
	for (size_t a = 0; a < n; a++)
		args[a] = (struct gen_arg){ progen_below(&g->rng, 3), ops[progen_below(&g->rng, 7)],
					    pick_value(g), pick_value(g) };
	if (n == 2 && args[0].index == args[1].index)
		for (size_t a = 0; a < n; a++)
			if (is_range(args[a].op))
				args[a].op = "SCMP_CMP_EQ";
	return n;
}

static void put_args(struct gen *g, const struct gen_arg *args, size_t n)
{
	out(g, ", \"args\": [");
	for (size_t a = 0; a < n; a++)
		out(g, "%s{\"index\": %u, \"value\": %llu, \"valueTwo\": %llu, \"op\": \"%s\"}",
		    a ? ", " : "", args[a].index, (unsigned long long)args[a].value,
		    (unsigned long long)args[a].value_two, args[a].op);
	out(g, "]");
}

static void gen_filter(struct gen *g, const char *key)
{
	static const char *const conds[] = {
		"{\"caps\": [\"CAP_SYS_ADMIN\"]}", "{\"caps\": [\"CAP_CHOWN\"]}",
		"{\"arches\": [\"amd64\"]}",	   "{\"arches\": [\"arm64\", \"s390x\"]}",
		"{\"minKernel\": \"4.8\"}",	   "{\"minKernel\": \"99.1\"}",
	};
	out(g, ", \"%s\": %s", key, conds[progen_below(&g->rng, sizeof(conds) / sizeof(conds[0]))]);
}

static uint32_t action_ret(const char *action, unsigned errno_ret, bool has_errno)
{
	if (!strcmp(action, "SCMP_ACT_ALLOW"))
		return SCG_RET_ALLOW;
	if (!strcmp(action, "SCMP_ACT_ERRNO"))
		return SCG_RET_ERRNO | (has_errno ? errno_ret : 1);
	if (!strcmp(action, "SCMP_ACT_KILL_PROCESS"))
		return SCG_RET_KILL_PROCESS;
	if (!strcmp(action, "SCMP_ACT_TRAP"))
		return SCG_RET_TRAP;
	if (!strcmp(action, "SCMP_ACT_LOG"))
		return SCG_RET_LOG;
	return SCG_RET_KILL_THREAD;
}

/* Names that overlap more often: plain, multiplexed on x86 (and the multiplexer itself), 64-bit only. */
static const char *const overlap_pool[] = { "read",   "close", "splice",	  "newfstatat",
					    "socket", "ioctl", "socketcall", "accept4" };

static const char *pick_name(struct gen *g)
{
	if (g->overlap && progen_below(&g->rng, 2))
		return overlap_pool[progen_below(&g->rng, sizeof(overlap_pool) / sizeof(overlap_pool[0]))];
	return pool[progen_below(&g->rng, sizeof(pool) / sizeof(pool[0]))];
}

/* An earlier entry's conditions: the same, one fewer, one more, or none. */
static size_t repeat_args(struct gen *g, const struct past_entry *p, struct gen_arg *args)
{
	size_t n = p->nargs;
	memcpy(args, p->args, n * sizeof(*args));
	switch (progen_below(&g->rng, 6)) {
	case 0:
		return 0;
	case 1:
		return n ? n - 1 : 0;
	case 2:
		if (n < 3)
			args[n++] = (struct gen_arg){ progen_below(&g->rng, 3), ops[progen_below(&g->rng, 7)],
						      pick_value(g), pick_value(g) };
		return n;
	default:
		return n;
	}
}

/* The next name of an entry: an earlier entry's, one this entry already has, or any. */
static const char *next_name(struct gen *g, const struct past_entry *past, const char **names,
			     size_t got)
{
	if (past && got < past->nnames)
		return past->names[got];
	if (g->overlap && got && progen_below(&g->rng, 4) == 0)
		return names[progen_below(&g->rng, (uint32_t)got)];
	return pick_name(g);
}

static void remember(struct gen *g, const char **names, size_t nnames, const struct gen_arg *args,
		     size_t nargs)
{
	if (!g->overlap || g->npast == sizeof(g->past) / sizeof(g->past[0]))
		return;
	struct past_entry *p = &g->past[g->npast++];
	*p = (struct past_entry){ .nnames = nnames, .nargs = nargs };
	memcpy(p->names, names, nnames * sizeof(*names));
	memcpy(p->args, args, nargs * sizeof(*args));
}

static void gen_entry(struct gen *g)
{
	const char *action = actions[progen_below(&g->rng, sizeof(actions) / sizeof(actions[0]))];
	bool has_errno = progen_below(&g->rng, 2);
	unsigned errno_ret = 1 + progen_below(&g->rng, 40);
	uint32_t ret = action_ret(action, errno_ret, has_errno);
	struct gen_arg args[4];
	const struct past_entry *past = NULL;
	if (g->overlap && g->npast && progen_below(&g->rng, 2))
		past = &g->past[progen_below(&g->rng, (uint32_t)g->npast)];
	size_t nargs = past ? repeat_args(g, past, args) : gen_args(g, args);
	const char *names[4];
	out(g, "{\"names\": [");
	size_t want = past ? past->nnames : 1 + progen_below(&g->rng, 4), got = 0;
	for (size_t tries = 0; got < want && tries < 20; tries++) {
		const char *name = next_name(g, past, names, got);
		if (!name_allowed(g, name, ret, args, nargs, true))
			continue;
		names[got] = name;
		out(g, "%s\"%s\"", got++ ? ", " : "", name);
	}
	if (!got)
		out(g, "\"not_a_call\"");
	out(g, "], \"action\": \"%s\"", action);
	if (has_errno)
		out(g, ", \"errnoRet\": %u", errno_ret);
	if (nargs)
		put_args(g, args, nargs);
	if (progen_below(&g->rng, 6) == 0)
		gen_filter(g, "includes");
	if (progen_below(&g->rng, 8) == 0)
		gen_filter(g, "excludes");
	out(g, "}");
	remember(g, names, got, args, nargs);
}

static void gen_profile(struct gen *g)
{
	static const char *const arch_lists[] = {
		"\"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"]",
		"\"architectures\": [\"SCMP_ARCH_X86_64\"]",
		"\"architectures\": [\"SCMP_ARCH_X86_64\", \"SCMP_ARCH_X86\"]",
		"\"architectures\": [\"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\", \"SCMP_ARCH_X86_64\"]",
		("\"archMap\": [{\"architecture\": \"SCMP_ARCH_X86_64\", \"subArchitectures\": "
		 "[\"SCMP_ARCH_X86\", \"SCMP_ARCH_X32\"]}]"),
		"\"architectures\": []",
	};
	static const char *const defaults[] = { "SCMP_ACT_ERRNO", "SCMP_ACT_ERRNO", "SCMP_ACT_KILL_PROCESS",
						"SCMP_ACT_TRAP",  "SCMP_ACT_ALLOW", "SCMP_ACT_LOG" };
	g->len = 0;
	g->nkeys = 0;
	g->npast = 0;
	out(g, "{\"defaultAction\": \"%s\"", defaults[progen_below(&g->rng, 6)]);
	if (progen_below(&g->rng, 3) == 0)
		out(g, ", \"defaultErrnoRet\": %u", 1 + progen_below(&g->rng, 40));
	out(g, ", %s, \"syscalls\": [",
	    arch_lists[progen_below(&g->rng, sizeof(arch_lists) / sizeof(arch_lists[0]))]);
	size_t n = 1 + progen_below(&g->rng, 12);
	for (size_t i = 0; i < n; i++) {
		if (i)
			out(g, ", ");
		gen_entry(g);
	}
	out(g, "]}");
}

static void run_random_profiles(size_t count, uint64_t seed, bool overlap)
{
	struct gen g = { .cap = 1 << 16, .overlap = overlap };
	size_t failed = 0;
	struct stats st = { 0 };
	g.buf = malloc(g.cap);
	assert_non_null(g.buf);
	progen_seed(&g.rng, seed);
	for (size_t i = 0; i < count; i++) {
		gen_profile(&g);
		struct case_opts co = { progen_below(&g.rng, 2) ? "6.1" : "4.4",
					progen_below(&g.rng, 4) != 0, progen_below(&g.rng, 5) == 0, overlap };
		char label[64];
		snprintf(label, sizeof(label), "random profile %zu", i);
		size_t f = differential(g.buf, g.len, &co, label, &st);
		if (f) {
			print_message("%s (kernel %s, stub %d, all caps %d):\n%.*s\n", label, co.kernel,
				      co.stub, co.all_caps, (int)g.len, g.buf);
			if (++failed >= 3)
				break;
		}
	}
	print_message("%zu random profiles (%zu refused by runc and the importer alike), %zu verdicts "
		      "compared, %zu explained differences, %zu where libseccomp's merged filter "
		      "disagrees with the same entries compiled one at a time, %zu calls skipped where "
		      "libseccomp lost the syscall-number load\n",
		      count, st.refused, st.checked, st.explained, st.merge_bug, st.lost_load);
	assert_true(st.checked > 100000);
	free(g.buf);
	assert_int_equal(failed, 0);
}
