/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of the learning recorder: counting per ABI, argument values,
 * the policy text it writes (parsed back and evaluated), the JSON counts,
 * and merging a written policy back into a recording.
 */
#include <fcntl.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "support/diag_print.h"

static const struct scg_arch *abi(const char *name)
{
	const struct scg_arch *a = scg_arch_lookup(name);
	assert_non_null(a);
	return a;
}

static uint32_t nr_of(const struct scg_arch *arch, const char *name)
{
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(arch, name, &nr), 0);
	return nr;
}

static struct scg_seccomp_data call(const struct scg_arch *arch, const char *name,
				    uint64_t a0, uint64_t a1, uint64_t a2)
{
	struct scg_seccomp_data d = { .nr = nr_of(arch, name), .arch = scg_arch_audit(arch) };
	d.args[0] = a0;
	d.args[1] = a1;
	d.args[2] = a2;
	return d;
}

static void record_n(struct scg_learn *l, const struct scg_seccomp_data *d, int n)
{
	for (int i = 0; i < n; i++)
		assert_int_equal(scg_learn_record(l, d), 0);
}

/* The entry of @name on @arch, or fails the test. */
static struct scg_learn_entry entry_of(const struct scg_learn *l, const struct scg_arch *arch,
				       const char *name)
{
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(l); i++) {
		assert_int_equal(scg_learn_entry_at(l, i, &e), 0);
		if (e.arch == arch && e.name && !strcmp(e.name, name))
			return e;
	}
	fail_msg("no entry for %s on %s", name, scg_arch_name(arch));
	return e;
}

static bool has_entry(const struct scg_learn *l, const struct scg_arch *arch, const char *name)
{
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(l); i++) {
		scg_learn_entry_at(l, i, &e);
		if (e.arch == arch && e.name && !strcmp(e.name, name))
			return true;
	}
	return false;
}

static void test_counts_per_abi(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *x86 = abi("x86"), *x32 = abi("x32");
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "getppid", 0, 0, 0);
	record_n(l, &d, 1000);
	d = call(x86, "getpid", 0, 0, 0);
	record_n(l, &d, 7);
	/* x32: arch says X86_64, bit 30 of nr says x32 */
	d = call(x32, "getpid", 0, 0, 0);
	assert_int_equal(d.arch, scg_arch_audit(x64));
	assert_true(d.nr & SCG_X32_SYSCALL_BIT);
	record_n(l, &d, 5);
	d = call(x64, "getpid", 0, 0, 0);
	record_n(l, &d, 3);

	assert_int_equal(scg_learn_count(l), 4);
	assert_int_equal(scg_learn_total(l), 1015);
	assert_int_equal(entry_of(l, x64, "getppid").calls, 1000);
	assert_int_equal(entry_of(l, x64, "getpid").calls, 3);
	assert_int_equal(entry_of(l, x86, "getpid").calls, 7);
	assert_int_equal(entry_of(l, x32, "getpid").calls, 5);

	/* sorted by ABI order, then number */
	struct scg_learn_entry prev, e;
	scg_learn_entry_at(l, 0, &prev);
	for (size_t i = 1; i < scg_learn_count(l); i++) {
		scg_learn_entry_at(l, i, &e);
		size_t pa = 0, ea = 0;
		for (size_t k = 0; k < scg_arch_count(); k++) {
			if (scg_arch_at(k) == prev.arch)
				pa = k;
			if (scg_arch_at(k) == e.arch)
				ea = k;
		}
		assert_true(pa < ea || (pa == ea && prev.nr < e.nr));
		prev = e;
	}
	assert_int_equal(scg_learn_entry_at(l, 4, &e), -ENOENT);

	/* nr -1 on x86_64 carries bit 30 but is no x32 call, and must not make
	 * later x32 calls look like x86_64 ones */
	struct scg_learn *minus = scg_learn_new(0);
	assert_non_null(minus);
	struct scg_seccomp_data m1 = { .nr = UINT32_MAX, .arch = scg_arch_audit(x64) };
	record_n(minus, &m1, 1);
	struct scg_seccomp_data x = call(x32, "getpid", 0, 0, 0);
	record_n(minus, &x, 2);
	assert_int_equal(entry_of(minus, x32, "getpid").calls, 2);
	scg_learn_free(minus);

	/* an AUDIT_ARCH no ABI has is refused, not counted */
	d.arch = 0x12345678;
	assert_int_equal(scg_learn_record(l, &d), -EAFNOSUPPORT);
	assert_int_equal(scg_learn_total(l), 1015);
	scg_learn_free(l);
	scg_learn_free(NULL);
}

/* Many distinct numbers: the index grows and every count stays right. */
static void test_many_syscalls(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	size_t n = scg_syscall_count(x64);
	for (int round = 0; round < 3; round++) {
		for (size_t i = n; i-- > 0;) {
			const char *name;
			uint32_t nr;
			scg_syscall_at(x64, i, &name, &nr);
			struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(x64) };
			for (size_t k = 0; k <= i % 3; k++)
				assert_int_equal(scg_learn_record(l, &d), 0);
		}
	}
	assert_int_equal(scg_learn_count(l), n);
	for (size_t i = 0; i < n; i++) {
		struct scg_learn_entry e;
		scg_learn_entry_at(l, i, &e);
		assert_int_equal(e.calls, 3 * (i % 3 + 1));
	}
	scg_learn_free(l);
}

static void test_argument_values(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *x86 = abi("x86");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	/* getpriority(which, who): which is a choice, who an id */
	struct scg_seccomp_data d = call(x64, "getpriority", 1, 1234, 0);
	record_n(l, &d, 2);
	d = call(x64, "getpriority", 0, 99, 0);
	record_n(l, &d, 1);
	/* an int with a sign-extended upper half is the same 32-bit value */
	d = call(x64, "getpriority", 0xffffffff00000000ULL, 5, 0);
	record_n(l, &d, 1);
	struct scg_learn_entry e = entry_of(l, x64, "getpriority");
	assert_int_equal(e.calls, 4);
	assert_int_equal(e.listed, 1U << 0);
	assert_int_equal(e.nvalues[0], 2);
	assert_int_equal(e.values[0][0], 0);
	assert_int_equal(e.values[0][1], 1);

	/* read(fd, buf, count): nothing worth listing */
	d = call(x64, "read", 3, 0x7fff0000, 4096);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "read").listed, 0);

	/* mmap: prot and flags, not addr, length, fd or offset */
	d = call(x64, "mmap", 0, 4096, 3);
	d.args[3] = 0x22;
	d.args[4] = (uint64_t)-1;
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "mmap").listed, (1U << 2) | (1U << 3));

	/* prctl(option, unsigned long x4): the table names only option, and the
	 * others hold addresses (PR_SET_NAME's string, here): only option */
	d = call(x64, "prctl", 15 /* PR_SET_NAME */, 0x7fcec3bccbc8ULL, 0);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "prctl").listed, 1U << 0);
	/* an unsigned long named flags is a choice (clone), one named arg is not (fcntl) */
	d = call(x64, "clone", 0x1200011, 0x7ffc00001000ULL, 0x7ffc00002000ULL);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "clone").listed, 1U << 0);
	d = call(x64, "fcntl", 3, 4 /* F_SETFL */, 0x7fcec3bccbc8ULL);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "fcntl").listed, 1U << 1);

	/* on a 32-bit ABI every argument counts as 32 bits */
	d = call(x86, "getpriority", 0xdead00000002ULL, 0, 0);
	record_n(l, &d, 1);
	e = entry_of(l, x86, "getpriority");
	assert_int_equal(e.values[0][0], 2);

	/* past SCG_LEARN_MAX_VALUES distinct values the argument is given up on */
	for (uint64_t v = 0; v <= SCG_LEARN_MAX_VALUES; v++) {
		d = call(x64, "personality", v, 0, 0);
		record_n(l, &d, 1);
		e = entry_of(l, x64, "personality");
		if (v < SCG_LEARN_MAX_VALUES)
			assert_int_equal(e.nvalues[0], v + 1);
	}
	assert_int_equal(e.listed, 0);
	assert_int_equal(e.calls, SCG_LEARN_MAX_VALUES + 1);
	scg_learn_free(l);
}

/* SCG_LEARN_ARGS_FD adds descriptor numbers (int parameters named *fd), nothing else. */
static void test_argument_descriptors(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS | SCG_LEARN_ARGS_FD);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "read", 3, 0x7fff0000, 4096);
	record_n(l, &d, 1);
	struct scg_learn_entry e = entry_of(l, x64, "read");
	assert_int_equal(e.listed, 1U << 0);
	assert_int_equal(e.values[0][0], 3);
	/* openat(AT_FDCWD, path, flags, mode): dirfd as the kernel reads it (32 bits) */
	d = call(x64, "openat", (uint64_t)-100, 0x7fff0000, 0x80000);
	record_n(l, &d, 1);
	e = entry_of(l, x64, "openat");
	/* no O_CREAT: the kernel never reads mode, whose register holds leftovers */
	assert_int_equal(e.listed, (1U << 0) | (1U << 2));
	assert_int_equal(e.values[0][0], 0xffffff9cULL);
	/* open(path, O_CREAT, 0644) keeps mode; a later call without O_CREAT drops it */
	d = call(x64, "open", 0x7fff0000, O_CREAT | O_WRONLY, 0644);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "open").listed, (1U << 1) | (1U << 2));
	d = call(x64, "open", 0x7fff0000, O_RDONLY, 0x4c91f829);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "open").listed, 1U << 1);
	/* poll(fds, nfds, timeout): a pointer and a count, not descriptors */
	d = call(x64, "poll", 0x7fff0000, 2, 100);
	record_n(l, &d, 1);
	assert_int_equal(entry_of(l, x64, "poll").listed, 0);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow read if fd == 3 "));
	scg_learn_free(l);
	free(text);
}

static struct scg_policy *parse(const char *text)
{
	struct scg_policy *p = NULL;
	struct scg_diag *diag = scg_diag_new();
	int r = scg_policy_parse(text, strlen(text), NULL, &p, diag);
	if (r != 0) {
		test_print_diag(diag);
		print_error("%s", text);
	}
	assert_int_equal(r, 0);
	/* a learned policy is clean: no warnings either */
	assert_int_equal(scg_diag_count_at_least(diag, SCG_SEV_WARNING), 0);
	scg_diag_free(diag);
	return p;
}

static uint32_t verdict(const struct scg_policy *p, struct scg_seccomp_data d)
{
	struct scg_verdict v;
	scg_policy_eval(p, &d, &v);
	return v.action;
}

static void test_policy_text(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *x86 = abi("x86");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "read", 0, 0, 0);
	record_n(l, &d, 12);
	d = call(x64, "getpriority", 1, 0, 0);
	record_n(l, &d, 1);
	d = call(x64, "getpriority", 2, 0, 0);
	record_n(l, &d, 1);
	d = call(x86, "getpid", 0, 0, 0);
	record_n(l, &d, 1);
	char *text;
	struct scg_learn_text_options opts = { .origin = "test program" };
	assert_int_equal(scg_learn_to_text(l, &opts, &text), 0);
	assert_non_null(strstr(text, "from: test program\n"));
	assert_non_null(strstr(text, "arch x86_64, x86\n"));
	assert_non_null(strstr(text, "\ndefault kill\n"));
	assert_non_null(strstr(text, "# 12 calls\n"));
	assert_non_null(strstr(text, "allow getpriority if which in {1, 2} on x86_64"));
	assert_non_null(strstr(text, "allow getpid on x86 "));

	struct scg_policy *p = parse(text);
	assert_int_equal(verdict(p, call(x64, "read", 5, 0, 0)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "getpriority", 2, 7, 0)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "getpriority", 0, 7, 0)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x64, "getpid", 0, 0, 0)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x86, "getpid", 0, 0, 0)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x86, "read", 0, 0, 0)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(abi("x32"), "read", 0, 0, 0)), SCG_RET_KILL_PROCESS);
	struct scg_seccomp_data unknown = { .nr = 4000, .arch = scg_arch_audit(x64) };
	assert_int_equal(verdict(p, unknown), SCG_RET_ERRNO | 38 /* ENOSYS */);
	scg_policy_free(p);
	free(text);

	opts.deny_with_eperm = true;
	assert_int_equal(scg_learn_to_text(l, &opts, &text), 0);
	p = parse(text);
	assert_int_equal(verdict(p, call(x64, "getpid", 0, 0, 0)), SCG_RET_ERRNO | 1 /* EPERM */);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/* A group every member of which was used becomes one `allow @group` line. */
static void test_whole_group(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	size_t g = 0;
	while (scg_group_name(g) && strcmp(scg_group_name(g), "pkey"))
		g++;
	assert_non_null(scg_group_name(g));
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	for (const char *const *m = scg_group_members(g); *m; m++) {
		uint32_t nr;
		if (scg_syscall_lookup(x64, *m, &nr) == 0) {
			struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(x64) };
			record_n(l, &d, 2);
		}
	}
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow @pkey "));
	assert_non_null(strstr(text, "# 6 calls: pkey_alloc 2, pkey_free 2, pkey_mprotect 2\n"));
	free(text);

	/* one member missing: rules one by one */
	struct scg_learn *part = scg_learn_new(0);
	assert_non_null(part);
	struct scg_seccomp_data d = call(x64, "pkey_alloc", 0, 0, 0);
	record_n(part, &d, 1);
	assert_int_equal(scg_learn_to_text(part, NULL, &text), 0);
	assert_null(strstr(text, "allow @pkey"));
	assert_non_null(strstr(text, "allow pkey_alloc "));
	assert_non_null(strstr(text, "(1 of 3 used)"));
	free(text);
	scg_learn_free(part);
	scg_learn_free(l);
}

static void test_counts_json(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *x86 = abi("x86");
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	char *json;
	assert_int_equal(scg_learn_counts_json(l, &json), 0);
	assert_string_equal(json, "{\n  \"version\": 1,\n  \"total\": 0,\n  \"abis\": {}\n}\n");
	free(json);
	struct scg_seccomp_data d = call(x64, "write", 0, 0, 0);
	record_n(l, &d, 3);
	d = call(x64, "read", 0, 0, 0);
	record_n(l, &d, 2);
	d = call(x86, "getpid", 0, 0, 0);
	record_n(l, &d, 1);
	d = (struct scg_seccomp_data){ .nr = 3999, .arch = scg_arch_audit(x64) };
	record_n(l, &d, 4);
	assert_int_equal(scg_learn_counts_json(l, &json), 0);
	assert_string_equal(json, "{\n  \"version\": 1,\n  \"total\": 10,\n  \"abis\": {\n"
				  "    \"x86_64\": {\n      \"read\": 2,\n      \"write\": 3,\n"
				  "      \"3999\": 4\n    },\n"
				  "    \"x86\": {\n      \"getpid\": 1\n    }\n  }\n}\n");
	free(json);
	scg_learn_free(l);
}

/* Two recordings hold the same syscalls, counts and values. */
static void assert_same_recording(const struct scg_learn *a, const struct scg_learn *b)
{
	assert_int_equal(scg_learn_count(a), scg_learn_count(b));
	for (size_t i = 0; i < scg_learn_count(a); i++) {
		struct scg_learn_entry x, y;
		scg_learn_entry_at(a, i, &x);
		scg_learn_entry_at(b, i, &y);
		assert_ptr_equal(x.arch, y.arch);
		assert_int_equal(x.nr, y.nr);
		assert_int_equal(x.calls, y.calls);
		assert_int_equal(x.listed, y.listed);
		for (unsigned k = 0; k < 6; k++) {
			assert_int_equal(x.nvalues[k], y.nvalues[k]);
			for (size_t v = 0; v < x.nvalues[k]; v++)
				assert_int_equal(x.values[k][v], y.values[k][v]);
		}
		struct scg_learn_pairs px, py;
		int rx = scg_learn_pairs_at(a, i, &px), ry = scg_learn_pairs_at(b, i, &py);
		assert_int_equal(rx, ry);
		if (rx < 0)
			continue;
		assert_int_equal(px.ruler, py.ruler);
		assert_int_equal(px.dependent, py.dependent);
		assert_int_equal(px.kept, py.kept);
		assert_int_equal(px.count, py.count);
		for (size_t v = 0; v < px.count; v++) {
			assert_int_equal(px.values[v][0], py.values[v][0]);
			assert_int_equal(px.values[v][1], py.values[v][1]);
		}
	}
}

static struct scg_learn *reread(const struct scg_learn *l, unsigned flags)
{
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	struct scg_policy *p = parse(text);
	struct scg_learn *back = scg_learn_new(flags);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	scg_policy_free(p);
	free(text);
	return back;
}

static void test_merge_round_trip(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *x86 = abi("x86");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	const char *names[] = { "read", "write", "close", "getpriority", "socket", "mmap" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct scg_seccomp_data d = call(x64, names[i], i % 3, 1, 0x22);
		record_n(l, &d, (int)i + 1);
		d.args[0] = 0x10 + i;
		record_n(l, &d, 2);
	}
	/* the whole @pkey group, to go through a group line */
	struct scg_seccomp_data d = call(x64, "pkey_alloc", 0, 0, 0);
	record_n(l, &d, 4);
	d = call(x64, "pkey_free", 0, 0, 0);
	record_n(l, &d, 5);
	d = call(x64, "pkey_mprotect", 0, 0, 0);
	d.args[2] = 1;
	d.args[3] = 0;
	record_n(l, &d, 6);
	d = call(x86, "getpid", 0, 0, 0);
	record_n(l, &d, 9);
	struct scg_learn *back = reread(l, 0);
	assert_int_equal(scg_learn_total(back), scg_learn_total(l));
	/* pkey_mprotect's prot is listed, so the group could not be one line */
	assert_same_recording(l, back);
	scg_learn_free(back);
	scg_learn_free(l);
}

static void test_merge_widens(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *first = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(first);
	struct scg_seccomp_data d = call(x64, "getpriority", 0, 0, 0);
	record_n(first, &d, 3);
	d = call(x64, "read", 0, 0, 0);
	record_n(first, &d, 1);
	struct scg_learn *merged = reread(first, SCG_LEARN_ARGS);
	/* the second run: another value, another syscall */
	d = call(x64, "getpriority", 1, 0, 0);
	record_n(merged, &d, 2);
	d = call(x64, "uname", 0, 0, 0);
	record_n(merged, &d, 1);
	struct scg_learn_entry e = entry_of(merged, x64, "getpriority");
	assert_int_equal(e.calls, 5);
	assert_int_equal(e.nvalues[0], 2);
	assert_int_equal(entry_of(merged, x64, "read").calls, 1);
	assert_int_equal(entry_of(merged, x64, "uname").calls, 1);
	assert_int_equal(scg_learn_total(merged), 7);
	scg_learn_free(merged);
	scg_learn_free(first);
}

/* Hand-written policies: other verdicts ignored, other conditions allow anything. */
static void test_merge_hand_written(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	const char *text = "arch x86_64\n"
			   "allow read            # 10 calls\n"
			   "allow write, close    # 4 calls\n"
			   "allow socket if domain == 1 && type > 2\n"
			   "allow getpriority if which in {0, 1} || who == 0   # 2 calls\n"
			   "errno(EPERM) mkdir\n";
	struct scg_policy *p = parse(text);
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	assert_int_equal(scg_learn_merge_policy(l, p, text, strlen(text)), 0);
	assert_int_equal(entry_of(l, x64, "read").calls, 10);
	assert_int_equal(entry_of(l, x64, "write").calls, 4);
	assert_int_equal(entry_of(l, x64, "close").calls, 4);
	struct scg_learn_entry e = entry_of(l, x64, "socket");
	assert_int_equal(e.calls, 0);
	assert_int_equal(e.listed, 1U << 0);
	assert_int_equal(e.nvalues[0], 1);
	e = entry_of(l, x64, "getpriority");
	assert_int_equal(e.listed, 0);
	assert_false(has_entry(l, x64, "mkdir"));
	/* no text: counts 0 */
	struct scg_learn *bare = scg_learn_new(0);
	assert_non_null(bare);
	assert_int_equal(scg_learn_merge_policy(bare, p, NULL, 0), 0);
	assert_int_equal(entry_of(bare, x64, "read").calls, 0);
	scg_learn_free(bare);
	scg_learn_free(l);
	scg_policy_free(p);
}

/* Ranges: a short one adds each of its numbers, a huge one only the syscalls the table has. */
static void test_merge_ranges(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	const char *text = "arch x86_64\n"
			   "allow 1000..1003\n"
			   "allow 0..0xffffffff\n";
	struct scg_policy *p = parse(text);
	struct scg_learn *l = scg_learn_new(0);
	assert_non_null(l);
	assert_int_equal(scg_learn_merge_policy(l, p, text, strlen(text)), 0);
	size_t unnamed = 0, named = 0;
	for (size_t i = 0; i < scg_learn_count(l); i++) {
		struct scg_learn_entry e;
		assert_int_equal(scg_learn_entry_at(l, i, &e), 0);
		assert_ptr_equal(e.arch, x64);
		if (e.name) {
			named++;
		} else {
			assert_true(e.nr >= 1000 && e.nr <= 1003);
			unnamed++;
		}
	}
	assert_int_equal(unnamed, 4);
	assert_int_equal(named, scg_syscall_count(x64));
	scg_learn_free(l);
	scg_policy_free(p);
}

/* Values are written with the policy language's constants, resolved on the
 * entry's ABI; the text compiles, allows exactly the values seen and reads
 * back into the same recording. */
static void test_value_names(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *arm64 = abi("aarch64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	struct scg_seccomp_data d;
	const uint64_t open_flags[] = { 0, 0x80000, 0x90800, 0x241 };
	for (size_t i = 0; i < 4; i++) {
		d = call(x64, "openat", (uint64_t)-100, 0x1000, open_flags[i]);
		record_n(l, &d, 1);
	}
	d = call(x64, "mmap", 0, 4096, 3);
	d.args[3] = 0x22;
	record_n(l, &d, 1);
	d = call(x64, "clone", 0x1200011, 0, 0);
	record_n(l, &d, 1);
	d = call(x64, "fcntl", 3, 2 /* F_SETFD, also F_UNLCK and F_SEAL_SHRINK */, 1);
	record_n(l, &d, 1);
	d = call(x64, "futex", 0x1000, 0x81, 1);
	record_n(l, &d, 1);
	/* an unknown bit stays a number beside the names */
	d = call(x64, "getrandom", 0x1000, 16, 0x1 | 0x100);
	record_n(l, &d, 1);
	/* O_DIRECTORY is 0x4000 on ARM, 0x10000 on x86 */
	d = call(arm64, "openat", (uint64_t)-100, 0x1000, 0x4000);
	record_n(l, &d, 1);
	/* the decoder's families: resources, access modes, epoll, waits, levels; modes in octal */
	d = call(x64, "prlimit64", 0, 7 /* RLIMIT_NOFILE */, 0);
	record_n(l, &d, 1);
	d = call(arm64, "prlimit64", 0, 7, 0);
	record_n(l, &d, 1);
	d = call(x64, "access", 0x1000, 6, 0);
	record_n(l, &d, 1);
	d = call(x64, "epoll_ctl", 3, 1, 4);
	record_n(l, &d, 1);
	d = call(x64, "wait4", (uint64_t)-1, 0, 0x40000001);
	record_n(l, &d, 1);
	d = call(x64, "setsockopt", 3, 6, 1);
	record_n(l, &d, 1);
	d = call(x64, "umask", 022, 0, 0);
	record_n(l, &d, 1);
	/* AF_LOCAL is AF_UNIX's alias: the usual name, as the decoder prints it */
	d = call(x64, "socketpair", 1, 1, 0);
	record_n(l, &d, 1);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "flags in {O_RDONLY, O_WRONLY|O_CREAT|O_TRUNC, "
				     "O_RDONLY|O_CLOEXEC, O_RDONLY|O_NONBLOCK|O_DIRECTORY|O_CLOEXEC}"));
	assert_non_null(strstr(text, "prot == PROT_READ|PROT_WRITE && flags == MAP_PRIVATE|MAP_ANONYMOUS"));
	assert_non_null(strstr(text, "flags == SIGCHLD|CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID"));
	assert_non_null(strstr(text, "allow fcntl if cmd == F_SETFD"));
	/* a wake stands for the wait of the next run: the whole wait/wake family, private */
	assert_non_null(strstr(text, "futex_op in {FUTEX_WAIT|FUTEX_PRIVATE_FLAG, "
				     "FUTEX_WAKE|FUTEX_PRIVATE_FLAG, "));
	assert_non_null(strstr(text, "flags == GRND_NONBLOCK|0x100"));
	assert_non_null(strstr(text, "allow openat if flags == O_RDONLY|O_DIRECTORY on aarch64"));
	assert_non_null(strstr(text, "allow prlimit64 if resource == RLIMIT_NOFILE "));
	assert_non_null(strstr(text, "allow access if mode == W_OK|R_OK "));
	assert_non_null(strstr(text, "allow epoll_ctl if op == EPOLL_CTL_ADD "));
	assert_non_null(strstr(text, "allow wait4 if options == WNOHANG|__WALL "));
	assert_non_null(strstr(text, "allow setsockopt if level == IPPROTO_TCP "));
	assert_non_null(strstr(text, "allow umask if mask == 022 "));
	assert_non_null(strstr(text, "allow socketpair if domain == AF_UNIX && type == SOCK_STREAM "));

	struct scg_policy *p = parse(text);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(verdict(p, call(x64, "openat", 5, 0, open_flags[i])), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "openat", 5, 0, 0x40 /* O_CREAT */)),
			 SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(arm64, "openat", 5, 0, 0x4000)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(arm64, "openat", 5, 0, 0x10000)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x64, "fcntl", 3, 2, 0)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "fcntl", 3, 4, 0)), SCG_RET_KILL_PROCESS);
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_same_recording(l, back);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/* System V IPC flags and commands, and sync_file_range's flags, by name; modes in octal. */
static void test_ipc_names(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *arm = abi("arm");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "shmget", 0x5432, 0x38000, 0x780);
	record_n(l, &d, 1);
	d = call(x64, "shmctl", 65536, 0, 0);
	record_n(l, &d, 1);
	d = call(arm, "shmctl", 65536, 0x102 /* IPC_STAT|IPC_64 */, 0x1000);
	record_n(l, &d, 1);
	d = call(x64, "semget", 0, 17, 0x380);
	record_n(l, &d, 1);
	d = call(x64, "semctl", 3, 0, 16);
	record_n(l, &d, 1);
	d = call(x64, "msgget", 7, 0x1a4, 0);
	record_n(l, &d, 1);
	d = call(x64, "sync_file_range", 3, 0, 8192);
	d.args[3] = 2;
	record_n(l, &d, 1);
	d = call(arm, "sync_file_range2", 3, 7, 0);
	record_n(l, &d, 1);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow sync_file_range2 if flags == SYNC_FILE_RANGE_WAIT_BEFORE|"
				     "SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER on arm "));
	assert_non_null(strstr(text, "allow shmget if shmflg == IPC_CREAT|IPC_EXCL|0600 "));
	assert_non_null(strstr(text, "allow shmctl if cmd == IPC_RMID "));
	assert_non_null(strstr(text, "cmd == IPC_STAT|IPC_64 "));
	assert_non_null(strstr(text, "semflg == IPC_CREAT|0600 "));
	assert_non_null(strstr(text, "cmd == SETVAL "));
	assert_non_null(strstr(text, "msgflg == 0644 "));
	assert_non_null(strstr(text, "flags == SYNC_FILE_RANGE_WRITE "));

	struct scg_policy *p = parse(text);
	assert_int_equal(verdict(p, call(x64, "shmget", 0x5432, 0x38000, 0x780)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "shmget", 0x5432, 0x38000, 0x580)),
			 SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(arm, "shmctl", 65536, 0x102, 0x1000)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(arm, "shmctl", 65536, 2, 0x1000)), SCG_RET_KILL_PROCESS);
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_same_recording(l, back);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/* The compiled filter of @text. */
static struct scg_prog compiled(const char *text)
{
	struct scg_policy *p = parse(text);
	struct scg_prog prog = { 0 };
	struct scg_diag *diag = scg_diag_new();
	assert_int_equal(scg_compile(p, NULL, &prog, diag), 0);
	scg_diag_free(diag);
	scg_policy_free(p);
	return prog;
}

/*
 * setsockopt's option is named by its level when every call had the same
 * level, on the ABI's own numbering; with several levels it stays a number.
 */
static void test_socket_option_names(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64"), *ppc = abi("ppc64le");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "setsockopt", 3, 1 /* SOL_SOCKET */, 2);
	record_n(l, &d, 1);
	d = call(x64, "setsockopt", 3, 1, 9 /* SO_KEEPALIVE */);
	record_n(l, &d, 1);
	d = call(x64, "getsockopt", 3, 6 /* IPPROTO_TCP */, 11 /* TCP_INFO */);
	record_n(l, &d, 1);
	/* PowerPC moves SO_RCVLOWAT to 16, SO_PASSCRED elsewhere */
	struct scg_learn *lm = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(lm);
	d = call(ppc, "setsockopt", 3, 1, 16);
	record_n(lm, &d, 1);
	d = call(ppc, "getsockopt", 3, 0, 1 /* IP_TOS */);
	record_n(lm, &d, 1);
	d = call(ppc, "getsockopt", 3, 41, 1 /* at IPPROTO_IPV6: IPV6_ADDRFORM */);
	record_n(lm, &d, 1);
	struct scg_learn *both[] = { l, lm };
	for (size_t i = 0; i < 2; i++) {
		char *text;
		assert_int_equal(scg_learn_to_text(both[i], NULL, &text), 0);
		if (i == 0) {
			assert_non_null(strstr(text, "allow setsockopt if level == SOL_SOCKET && "
						     "optname in {SO_REUSEADDR, SO_KEEPALIVE} "));
			assert_non_null(strstr(text, "allow getsockopt if level == IPPROTO_TCP && "
						     "optname == TCP_INFO "));
		} else {
			assert_non_null(strstr(text, "allow setsockopt if level == SOL_SOCKET && "
						     "optname == SO_RCVLOWAT "));
			/* two levels: 1 is IP_TOS at one and IPV6_ADDRFORM at the other */
			assert_non_null(strstr(text, "allow getsockopt if (level == IPPROTO_IP && "
						     "optname == IP_TOS) || (level == IPPROTO_IPV6 && "
						     "optname == IPV6_ADDRFORM) "));
		}
		struct scg_policy *p = parse(text);
		if (i == 0) {
			assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 1, 2)), SCG_RET_ALLOW);
			assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 1, 4)),
					 SCG_RET_KILL_PROCESS);
		} else {
			assert_int_equal(verdict(p, call(ppc, "setsockopt", 3, 1, 16)), SCG_RET_ALLOW);
			assert_int_equal(verdict(p, call(ppc, "setsockopt", 3, 1, 18)),
					 SCG_RET_KILL_PROCESS);
		}
		struct scg_learn *back = scg_learn_new(0);
		assert_non_null(back);
		assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
		assert_same_recording(both[i], back);
		scg_learn_free(back);
		scg_policy_free(p);
		free(text);
		scg_learn_free(both[i]);
	}

	/* the names compile to the filter of the numbers */
	struct scg_prog named = compiled("arch x86_64\ndefault kill\n"
					 "allow setsockopt if level == SOL_SOCKET && "
					 "optname == SO_REUSEADDR\n"
					 "allow getsockopt if level == IPPROTO_TCP && "
					 "optname in {TCP_NODELAY, TCP_INFO}\n");
	struct scg_prog numbers = compiled("arch x86_64\ndefault kill\n"
					   "allow setsockopt if level == 1 && optname == 2\n"
					   "allow getsockopt if level == 6 && optname in {1, 11}\n");
	assert_int_equal(named.len, numbers.len);
	assert_memory_equal(named.insns, numbers.insns, named.len * sizeof(named.insns[0]));
	scg_prog_release(&named);
	scg_prog_release(&numbers);
}

/* The index of the entry of @name on @arch. */
static size_t index_of(const struct scg_learn *l, const struct scg_arch *arch, const char *name)
{
	struct scg_learn_entry e;
	for (size_t i = 0; i < scg_learn_count(l); i++) {
		scg_learn_entry_at(l, i, &e);
		if (e.arch == arch && e.name && !strcmp(e.name, name))
			return i;
	}
	fail_msg("no entry for %s", name);
	return 0;
}

/*
 * Options at several levels are kept as (level, optname) pairs and written
 * as one term per level, named at it: an option is allowed at the level
 * it was seen at only, not at every level seen.  So are socket's protocols
 * per domain.  The text reads back into the same pairs.
 */
static void test_socket_option_pairs(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	const uint64_t seen[][2] = { { 1, 2 }, { 1, 9 }, { 6, 1 }, { 41, 26 }, { 1, 2 } };
	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++) {
		struct scg_seccomp_data d = call(x64, "setsockopt", 3, seen[i][0], seen[i][1]);
		record_n(l, &d, 1);
	}
	struct scg_seccomp_data d = call(x64, "socket", 1 /* AF_UNIX */, 1, 0);
	record_n(l, &d, 1);
	d = call(x64, "socket", 2 /* AF_INET */, 1, 6 /* IPPROTO_TCP */);
	record_n(l, &d, 1);
	d = call(x64, "socket", 10 /* AF_INET6 */, 0x80001, 6);
	record_n(l, &d, 1);
	/* getsockopt at one level: the two lists say it all, as before */
	d = call(x64, "getsockopt", 3, 1, 4 /* SO_ERROR */);
	record_n(l, &d, 1);
	d = call(x64, "getsockopt", 3, 1, 3 /* SO_TYPE */);
	record_n(l, &d, 1);

	struct scg_learn_pairs pairs;
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "setsockopt"), &pairs), 0);
	assert_int_equal(pairs.ruler, 1);
	assert_int_equal(pairs.dependent, 2);
	assert_true(pairs.kept);
	assert_int_equal(pairs.count, 4);
	const uint64_t sorted[][2] = { { 1, 2 }, { 1, 9 }, { 6, 1 }, { 41, 26 } };
	for (size_t i = 0; i < 4; i++)
		assert_memory_equal(pairs.values[i], sorted[i], sizeof(sorted[i]));
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "socket"), &pairs), 0);
	assert_int_equal(pairs.ruler, 0);
	assert_int_equal(pairs.dependent, 2);
	/* no pairs for a call without paired arguments, nor past the end */
	d = call(x64, "fcntl", 3, 2, 1);
	record_n(l, &d, 1);
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "fcntl"), &pairs), -ENOENT);
	assert_int_equal(scg_learn_pairs_at(l, scg_learn_count(l), &pairs), -ENOENT);

	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow setsockopt if (level == SOL_SOCKET && optname in "
				     "{SO_REUSEADDR, SO_KEEPALIVE}) || (level == IPPROTO_TCP && "
				     "optname == TCP_NODELAY) || (level == IPPROTO_IPV6 && "
				     "optname == IPV6_V6ONLY) "));
	/* domains whose protocols read the same share a term, inside the other tests */
	assert_non_null(strstr(text, "allow socket if ((domain == AF_UNIX && protocol == 0) || "
				     "(domain in {AF_INET, AF_INET6} && protocol == IPPROTO_TCP)) && "
				     "type in {SOCK_STREAM, SOCK_STREAM|SOCK_CLOEXEC} "));
	assert_non_null(strstr(text, "allow getsockopt if level == SOL_SOCKET && "
				     "optname in {SO_TYPE, SO_ERROR} "));
	struct scg_policy *p = parse(text);
	for (size_t i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		assert_int_equal(verdict(p, call(x64, "setsockopt", 3, seen[i][0], seen[i][1])),
				 SCG_RET_ALLOW);
	/* what the two lists alone would allow: an option seen, at another level seen */
	const uint64_t crossed[][2] = { { 1, 1 }, { 6, 2 }, { 6, 26 }, { 41, 9 }, { 1, 26 } };
	for (size_t i = 0; i < sizeof(crossed) / sizeof(crossed[0]); i++)
		assert_int_equal(verdict(p, call(x64, "setsockopt", 3, crossed[i][0],
						 crossed[i][1])),
				 SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x64, "socket", 2, 1, 6)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "socket", 1, 1, 6)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x64, "socket", 2, 1, 0)), SCG_RET_KILL_PROCESS);
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_same_recording(l, back);

	/* merging with a recording of another pair adds that pair only */
	struct scg_learn *more = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(more);
	d = call(x64, "setsockopt", 3, 6, 4 /* TCP_KEEPIDLE */);
	record_n(more, &d, 2);
	assert_int_equal(scg_learn_merge_policy(more, p, text, strlen(text)), 0);
	assert_int_equal(scg_learn_pairs_at(more, index_of(more, x64, "setsockopt"), &pairs), 0);
	assert_true(pairs.kept);
	assert_int_equal(pairs.count, 5);
	assert_int_equal(entry_of(more, x64, "setsockopt").calls, 7);
	char *merged;
	assert_int_equal(scg_learn_to_text(more, NULL, &merged), 0);
	assert_non_null(strstr(merged, "(level == IPPROTO_TCP && optname in {TCP_NODELAY, "
				       "TCP_KEEPIDLE})"));
	free(merged);
	scg_learn_free(more);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);

	/* lists without pairs stand for every combination of their values */
	uint32_t nr = nr_of(x64, "getsockopt");
	const uint64_t levels[] = { 1, 6 }, options[] = { 2 };
	const size_t n[6] = { 0, 2, 1 };
	const uint64_t *const values[6] = { NULL, levels, options };
	assert_int_equal(scg_learn_add_values(l, x64, nr, 1, 0x6, n, values), 0);
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "getsockopt"), &pairs), 0);
	assert_true(pairs.kept);
	assert_int_equal(pairs.count, 4); /* (1, 3), (1, 4) and now (1, 2), (6, 2) */
	/* pairs are taken either way round, and their values join the lists */
	const uint64_t given[][2] = { { 9, 1 } };
	struct scg_learn_pairs add = { .ruler = 2, .dependent = 1, .kept = true, .count = 1,
				       .values = given };
	assert_int_equal(scg_learn_add_paired(l, x64, nr, 1, 0x6, n, values, &add), 0);
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "getsockopt"), &pairs), 0);
	assert_int_equal(pairs.count, 5);
	assert_int_equal(pairs.values[3][0], 1);
	assert_int_equal(pairs.values[3][1], 9);
	assert_int_equal(entry_of(l, x64, "getsockopt").nvalues[2], 4);
	/* pairs of other arguments, or too many of them, are refused and change nothing */
	add.ruler = 0;
	assert_int_equal(scg_learn_add_paired(l, x64, nr, 1, 0x6, n, values, &add), -EINVAL);
	add.ruler = 2;
	add.count = SCG_LEARN_MAX_PAIRS + 1;
	assert_int_equal(scg_learn_add_paired(l, x64, nr, 1, 0x6, n, values, &add), -EINVAL);
	assert_int_equal(scg_learn_add_paired(l, x64, nr_of(x64, "fcntl"), 1, 0x6, n, values,
					      &add),
			 -EINVAL);
	assert_int_equal(entry_of(l, x64, "getsockopt").calls, 4);
	scg_learn_free(l);
}

/*
 * Pairs whose options are more than a list holds: the option alone is
 * summarised, the pairs still say which option goes with which level, and
 * they read back whole.
 */
static void test_pairs_many_options(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	for (uint64_t opt = 1; opt <= 20; opt++) {
		struct scg_seccomp_data d = call(x64, "setsockopt", 3, opt <= 10 ? 1 : 6, opt);
		record_n(l, &d, 1);
	}
	struct scg_learn_pairs pairs;
	assert_int_equal(scg_learn_pairs_at(l, 0, &pairs), 0);
	assert_true(pairs.kept);
	assert_int_equal(pairs.count, 20);
	assert_int_equal(entry_of(l, x64, "setsockopt").general, 1U << 2);
	char *text, *again;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow setsockopt if (level == SOL_SOCKET && optname in "
				     "{SO_DEBUG, "));
	struct scg_policy *p = parse(text);
	assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 6, 20)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 1, 20)), SCG_RET_KILL_PROCESS);
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_same_recording(l, back);
	assert_int_equal(scg_learn_to_text(back, NULL, &again), 0);
	assert_string_equal(text, again);
	free(again);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/*
 * Past SCG_LEARN_MAX_PAIRS pairs each argument is restricted on its own, as
 * before pairs were kept, and a comment says so; the rule allows every
 * pair seen.
 */
static void test_too_many_pairs(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	const uint64_t levels[] = { 0, 1, 6 };
	for (size_t level = 0; level < 3; level++)
		for (uint64_t opt = 1; opt <= 11; opt++) { /* 33 pairs */
			struct scg_seccomp_data d = call(x64, "setsockopt", 3, levels[level], opt);
			record_n(l, &d, 1);
		}
	struct scg_learn_pairs pairs;
	assert_int_equal(scg_learn_pairs_at(l, index_of(l, x64, "setsockopt"), &pairs), 0);
	assert_false(pairs.kept);
	assert_int_equal(pairs.count, 0);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "# setsockopt: more than 32 pairs of level and optname seen, "
				     "each restricted on its own\nallow setsockopt if level in {IPPROTO_IP, "
				     "SOL_SOCKET, IPPROTO_TCP} && "
				     "optname in {1, 2, 3, 4, 5, 6, 7, 8, 9, 0xa, 0xb} "));
	struct scg_policy *p = parse(text);
	assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 6, 11)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "setsockopt", 3, 6, 12)), SCG_RET_KILL_PROCESS);
	/* read back: the lists, whose combinations are too many pairs again */
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_same_recording(l, back);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/* Past SCG_LEARN_MAX_VALUES values, flags become a mask test and small numbers a range. */
static void test_generalised(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	/* 32 combinations of 5 open flags, mode 0 */
	const uint64_t bits[] = { 0x80000 /* O_CLOEXEC */, 0x800 /* O_NONBLOCK */,
				  0x10000 /* O_DIRECTORY */, 0x40 /* O_CREAT */, 1 /* O_WRONLY */ };
	for (unsigned m = 0; m < 32; m++) {
		uint64_t flags = 0;
		for (unsigned b = 0; b < 5; b++)
			flags |= (m & (1U << b)) ? bits[b] : 0;
		struct scg_seccomp_data d = call(x64, "openat", (uint64_t)-100, 0x1000, flags);
		record_n(l, &d, 1);
	}
	/* 20 numbers of a parameter that is no set of bits */
	for (uint64_t v = 0; v < 20; v++) {
		struct scg_seccomp_data d = call(x64, "getpriority", v, 0, 0);
		record_n(l, &d, 1);
	}
	struct scg_learn_entry e = entry_of(l, x64, "openat");
	assert_int_equal(e.general, 1U << 2);
	assert_int_equal(e.bits[2], 0x90841);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow openat if (flags & ~(O_WRONLY|O_CREAT|O_NONBLOCK|"
				     "O_DIRECTORY|O_CLOEXEC)) == 0 "));
	assert_non_null(strstr(text, "allow getpriority if which <= 19 "));
	struct scg_policy *p = parse(text);
	/* a combination never seen, but of bits seen: allowed */
	assert_int_equal(verdict(p, call(x64, "openat", 3, 0, 0x40 | 0x80000 | 0x10000)),
			 SCG_RET_ALLOW);
	/* the kernel reads flags as an int: upper bits do not matter */
	assert_int_equal(verdict(p, call(x64, "openat", 3, 0, 0xffffffff00000040ULL)),
			 SCG_RET_ALLOW);
	/* a bit never seen (O_TRUNC): killed */
	assert_int_equal(verdict(p, call(x64, "openat", 3, 0, 0x200)), SCG_RET_KILL_PROCESS);
	assert_int_equal(verdict(p, call(x64, "getpriority", 19, 0, 0)), SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "getpriority", 20, 0, 0)), SCG_RET_KILL_PROCESS);
	/* merged back, a summarised argument is free: wider, never narrower */
	struct scg_learn *back = scg_learn_new(0);
	assert_non_null(back);
	assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
	assert_int_equal(entry_of(back, x64, "openat").calls, 32);
	assert_false(entry_of(back, x64, "getpriority").listed & 1U);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
}

/*
 * futex: a run that only woke (nobody waited) stands for one that waits,
 * with a timeout on the realtime clock; the private flag seen is kept, and
 * priority inheritance stays out until it is seen.
 */
static void test_futex_families(void **state)
{
	(void)state;
	const struct scg_arch *x64 = abi("x86_64");
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	struct scg_seccomp_data d = call(x64, "futex", 0x1000, 0x81 /* WAKE|PRIVATE */, 1);
	record_n(l, &d, 1);
	char *text;
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	struct scg_policy *p = parse(text);
	const uint64_t allowed[] = { 0x80 /* WAIT */, 0x81, 0x89 /* WAIT_BITSET */,
				     0x189 /* |CLOCK_REALTIME */, 0x8a /* WAKE_BITSET */ };
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		assert_int_equal(verdict(p, call(x64, "futex", 0x1000, allowed[i], 1)),
				 SCG_RET_ALLOW);
	const uint64_t killed[] = { 0 /* shared WAIT */, 0x86 /* LOCK_PI */, 0x84 /* CMP_REQUEUE */,
				    0x8b /* WAIT_REQUEUE_PI */ };
	for (size_t i = 0; i < sizeof(killed) / sizeof(killed[0]); i++)
		assert_int_equal(verdict(p, call(x64, "futex", 0x1000, killed[i], 1)),
				 SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	free(text);
	/* a requeue brings the waits it requeues; a PI lock brings its unlock */
	d = call(x64, "futex", 0x1000, 0x84, 1);
	record_n(l, &d, 1);
	d = call(x64, "futex", 0x1000, 0x86, 1);
	record_n(l, &d, 1);
	struct scg_learn_entry e = entry_of(l, x64, "futex");
	/* wait/wake 6 (two waits with the clock flag), requeue 3, PI 5 (LOCK_PI2 with it) */
	assert_int_equal(e.nvalues[1], 14);
	scg_learn_free(l);
	l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	d = call(x64, "futex", 0x1000, 0x86, 1);
	record_n(l, &d, 1);
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	p = parse(text);
	assert_int_equal(verdict(p, call(x64, "futex", 0x1000, 0x87 /* UNLOCK_PI */, 1)),
			 SCG_RET_ALLOW);
	assert_int_equal(verdict(p, call(x64, "futex", 0x1000, 0x80, 1)), SCG_RET_KILL_PROCESS);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
	/* a shared wait is operation 0: FUTEX_WAIT, as strace writes it */
	l = scg_learn_new(SCG_LEARN_ARGS);
	assert_non_null(l);
	d = call(x64, "futex", 0x1000, 0, 1);
	record_n(l, &d, 1);
	assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
	assert_non_null(strstr(text, "allow futex if futex_op in {FUTEX_WAIT, FUTEX_WAKE, "));
	free(text);
	scg_learn_free(l);
}

/* Random recordings: every recorded call is allowed by the written policy,
 * and the policy reads back into the same recording. */
static void test_random_recordings(void **state)
{
	(void)state;
	const char *abis[] = { "x86_64", "x86", "x32" };
	srand(7);
	for (int round = 0; round < 40; round++) {
		struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
		assert_non_null(l);
		struct scg_seccomp_data seen[64];
		size_t nseen = 0;
		for (int i = 0; i < 64; i++) {
			const struct scg_arch *a = abi(abis[rand() % (round % 3 + 1)]);
			const char *name;
			uint32_t nr;
			scg_syscall_at(a, (size_t)rand() % scg_syscall_count(a), &name, &nr);
			struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(a) };
			for (int k = 0; k < 6; k++)
				d.args[k] = (uint64_t)(rand() % 4) << (rand() % 2 ? 0 : 36);
			record_n(l, &d, 1 + rand() % 3);
			seen[nseen++] = d;
		}
		char *text;
		assert_int_equal(scg_learn_to_text(l, NULL, &text), 0);
		struct scg_policy *p = parse(text);
		for (size_t i = 0; i < nseen; i++)
			assert_int_equal(verdict(p, seen[i]), SCG_RET_ALLOW);
		struct scg_learn *back = scg_learn_new(0);
		assert_non_null(back);
		assert_int_equal(scg_learn_merge_policy(back, p, text, strlen(text)), 0);
		assert_same_recording(l, back);
		scg_learn_free(back);
		scg_policy_free(p);
		free(text);
		scg_learn_free(l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_per_abi),
		cmocka_unit_test(test_many_syscalls),
		cmocka_unit_test(test_argument_values),
		cmocka_unit_test(test_argument_descriptors),
		cmocka_unit_test(test_policy_text),
		cmocka_unit_test(test_whole_group),
		cmocka_unit_test(test_counts_json),
		cmocka_unit_test(test_merge_round_trip),
		cmocka_unit_test(test_merge_widens),
		cmocka_unit_test(test_merge_hand_written),
		cmocka_unit_test(test_merge_ranges),
		cmocka_unit_test(test_value_names),
		cmocka_unit_test(test_ipc_names),
		cmocka_unit_test(test_socket_option_names),
		cmocka_unit_test(test_socket_option_pairs),
		cmocka_unit_test(test_pairs_many_options),
		cmocka_unit_test(test_too_many_pairs),
		cmocka_unit_test(test_generalised),
		cmocka_unit_test(test_futex_families),
		cmocka_unit_test(test_random_recordings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
