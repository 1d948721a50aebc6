/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as policy text.  The parser must either fail
 * with an error diagnostic and no policy, or build a policy whose text form
 * parses back to a policy with the same verdicts, and that compiles.
 *
 * Includes read files of one directory only, made at the first input:
 * the input is parsed as a file of that directory, and one that holds a
 * '/' and a string after include or use is skipped, so every path it can
 * name is a name in that directory; the fuzzer never reads a path it
 * invents elsewhere.  The same bytes are then read as a policy with phases.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* `include "x"` and `use "x"` need a string; `use NAME` reads only built-ins. */
static bool names_a_path(const uint8_t *data, size_t size)
{
	return memchr(data, '"', size) && memchr(data, '/', size) &&
	       (memmem(data, size, "include", 7) || memmem(data, size, "use", 3));
}

static char include_dir[] = "/tmp/fuzz_policy-XXXXXX";

static const struct {
	const char *name, *text;
} include_files[] = {
	{"empty.policy", ""},
	{"rules.policy", "allow read\nerrno(EPERM) write if arg0 == 1\nkill 1000..1010\n"},
	{"self.policy", "include \"self.policy\"\n"},
	{"nested.policy", "use stdio\ninclude \"rules.policy\"\ndefault errno(EPERM)\n"},
	{"bad.policy", "allow nosuch\nallow read if (arg0 == 1\n"},
};

static void remove_include_dir(void)
{
	char path[sizeof(include_dir) + 32];
	for (size_t i = 0; i < sizeof(include_files) / sizeof(include_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", include_dir, include_files[i].name);
		unlink(path);
	}
	rmdir(include_dir);
}

/* The directory includes are read from, made on the first call. */
static const char *make_include_dir(void)
{
	static bool made;
	if (made)
		return include_dir;
	if (!mkdtemp(include_dir))
		abort();
	for (size_t i = 0; i < sizeof(include_files) / sizeof(include_files[0]); i++) {
		char path[sizeof(include_dir) + 32];
		snprintf(path, sizeof(path), "%s/%s", include_dir, include_files[i].name);
		FILE *f = fopen(path, "w");
		if (!f || fputs(include_files[i].text, f) < 0 || fclose(f) != 0)
			abort();
	}
	atexit(remove_include_dir);
	made = true;
	return include_dir;
}

static void same_verdicts(const struct scg_policy *a, const struct scg_policy *b)
{
	static const uint64_t values[] = {0, 1, 2, 0xffffffff, 0x100000000ULL, ~0ULL};
	for (size_t ai = 0; ai < scg_policy_arch_count(a); ai++) {
		const struct scg_arch *arch = scg_policy_arch_at(a, ai);
		for (size_t i = 0; i < 2 * scg_policy_rule_count(a) && i < 128; i++) {
			struct scg_seccomp_data d = {.arch = scg_arch_audit(arch)};
			uint32_t first, last;
			if (scg_policy_rule_range(a, i / 2, arch, &first, &last) < 0)
				continue;
			d.nr = i % 2 ? last : first; /* both ends of a range */
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				for (int k = 0; k < 6; k++)
					d.args[k] = values[(v + (size_t)k) % 6];
				struct scg_verdict va, vb;
				scg_policy_eval(a, &d, &va);
				scg_policy_eval(b, &d, &vb);
				if (va.action != vb.action)
					abort();
			}
		}
	}
}

static void check_policy(const struct scg_policy *p)
{
	char *text = NULL;
	int r = scg_policy_to_text(p, &text);
	if (r == -EINVAL && scg_policy_arch_count(p) == 0)
		return;
	if (r < 0)
		abort();
	struct scg_policy *back = NULL;
	if (scg_policy_parse(text, strlen(text), NULL, &back, NULL) != 0)
		abort();
	same_verdicts(p, back);
	scg_policy_free(back);
	free(text);
	struct scg_prog prog;
	r = scg_compile(p, NULL, &prog, NULL);
	if (r == 0)
		scg_prog_release(&prog);
	else if (r != -E2BIG)
		abort();
}

/*
 * The same bytes as a policy with phases: it fails with an error and no
 * result, or each phase's filter policy compiles; text without a `phase`
 * line is one phase.
 */
static void check_phases(const uint8_t *data, size_t size,
			 const struct scg_policy_source_options *opts)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_phases *ph = NULL;
	if (!diag)
		return;
	int r = scg_phases_parse((const char *)data, size, opts, &ph, diag);
	if (r == 0) {
		if (!ph || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		if (!scg_phases_detect((const char *)data, size) && scg_phases_count(ph) != 1)
			abort();
		for (size_t i = 0; i < scg_phases_count(ph); i++) {
			struct scg_policy *p = NULL;
			if (scg_phases_filter_policy(ph, i, &p) < 0)
				abort();
			check_policy(p);
			scg_policy_free(p);
		}
		scg_phases_free(ph);
	} else if (r == -EINVAL && (ph || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)) {
		abort();
	}
	scg_diag_free(diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (names_a_path(data, size))
		return 0;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	char name[sizeof(include_dir) + 16];
	snprintf(name, sizeof(name), "%s/input.policy", make_include_dir());
	SCG_OPTS(scg_policy_source_options, opts, .filename = name);
	struct scg_policy *p = NULL;
	int r = scg_policy_parse((const char *)data, size, &opts, &p, diag);
	if (r == 0) {
		if (!p || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		check_policy(p);
		scg_policy_free(p);
	} else if (r == -EINVAL) {
		if (p || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			abort();
	}
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		char buf[256];
		scg_diag_format(scg_diag_get(diag, i), buf, sizeof(buf));
	}
	scg_diag_free(diag);
	check_phases(data, size, &opts);
	return 0;
}
