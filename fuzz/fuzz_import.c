/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target, one per importer: any bytes as a systemd unit, firejail
 * options, a minijail policy or a kafel policy.  fuzz/meson.build compiles
 * this file once per format with -DIMPORT_FORMAT=<name>, giving the targets
 * fuzz_import_<name>, each with its own corpus (fuzz/corpus/fuzz_import_<name>/).
 *
 * The importer must either fail with an error diagnostic and no policy, or
 * return a policy with no error diagnostic whose rules, where they point
 * into the input, point at one of its lines (included files are read from
 * the disk: regular files only, a megabyte at most), and that compiles (or
 * is refused as too big).  Where the format has an exporter, the policy
 * must then be written back, or refused with an error; where the format
 * reads back all it writes, the text written must import again and give
 * every syscall of the native ABI the same verdicts on a spread of
 * argument values.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

#ifndef IMPORT_FORMAT
#error "compile with -DIMPORT_FORMAT=systemd, firejail, minijail or kafel"
#endif
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int (*import_fn)(const char *text, size_t len, const struct scg_import_options *opts,
			 struct scg_policy **policy, struct scg_diag *diag);
typedef int (*export_fn)(const struct scg_policy *policy, char **text, struct scg_diag *diag);

struct format {
	const char *name;
	const char *filename; /* the input's name, as rules' locations give it */
	import_fn import;
	export_fn export; /* NULL: the format is only read */
	bool round_trip;  /* what it writes reads back as the same policy */
};

static const struct format formats[] = {
	{ "systemd", "fuzz.service", scg_systemd_import, scg_systemd_export, false },
	{ "firejail", "fuzz.profile", scg_firejail_import, NULL, false },
	{ "minijail", "fuzz.policy", scg_minijail_import, scg_minijail_export, true },
	{ "kafel", "fuzz.policy", scg_kafel_import, scg_kafel_export, true },
};

static const struct format *format(void)
{
	static const struct format *chosen;
	if (!chosen) {
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (!strcmp(formats[i].name, STRINGIFY(IMPORT_FORMAT)))
				chosen = &formats[i];
		if (!chosen)
			abort(); /* a target built for a format this table lacks */
	}
	return chosen;
}

static unsigned count_lines(const uint8_t *data, size_t size)
{
	unsigned n = 1;
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

/* @a and @b give each syscall of the native ABI the same verdict, on argument values that
 * cross the usual tests (zero, flags, the 32-bit edge, all ones); else abort(). */
static void check_same(const struct scg_policy *a, const struct scg_policy *b)
{
	static const uint64_t vals[] = { 0, 1, 2, 3, 0x40, 0x80000, 0xffffffff, 1ULL << 32,
					 UINT64_MAX };
	const size_t nvals = sizeof(vals) / sizeof(vals[0]);
	const struct scg_arch *abi = scg_arch_native();
	for (size_t i = 0; i < scg_syscall_count(abi); i++) {
		const char *name;
		uint32_t nr;
		if (scg_syscall_at(abi, i, &name, &nr) < 0)
			continue;
		for (size_t j = 0; j < nvals; j++) {
			struct scg_seccomp_data d = { .nr = (int32_t)nr, .arch = scg_arch_audit(abi) };
			for (size_t k = 0; k < 6; k++)
				d.args[k] = vals[(j + k) % nvals];
			struct scg_verdict va, vb;
			scg_policy_eval(a, &d, &va);
			scg_policy_eval(b, &d, &vb);
			if (va.action != vb.action)
				abort();
		}
	}
}

/* The text @f wrote for @p imports again as the same policy. */
static void check_read_back(const struct format *f, const struct scg_policy *p, const char *text)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return;
	struct scg_import_options opts;
	scg_import_options_init(&opts);
	opts.filename = "fuzz-written.policy";
	struct scg_policy *q = NULL;
	int rc = f->import(text, strlen(text), &opts, &q, diag);
	if (rc == 0)
		check_same(p, q);
	else if (rc != -ENOMEM)
		abort();
	scg_policy_free(q);
	scg_diag_free(diag);
}

static void check_export(const struct format *f, const struct scg_policy *p)
{
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return;
	char *text = NULL;
	int rc = f->export(p, &text, diag);
	if ((rc == 0) != (text != NULL) ||
	    (rc == -EINVAL && scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0) ||
	    (rc != 0 && rc != -EINVAL && rc != -ENOMEM))
		abort();
	if (text && f->round_trip)
		check_read_back(f, p, text);
	free(text);
	scg_diag_free(diag);
}

static void check_policy(const struct format *f, const struct scg_policy *p, unsigned lines)
{
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule rule;
		if (scg_policy_rule_at(p, i, &rule) < 0)
			abort();
		if (rule.loc.file && !strcmp(rule.loc.file, f->filename) && rule.loc.line > lines)
			abort();
	}
	struct scg_prog prog;
	int rc = scg_compile(p, NULL, &prog, NULL);
	if (rc == 0)
		scg_prog_release(&prog);
	else if (rc != -E2BIG)
		abort();
	if (f->export)
		check_export(f, p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* inputs are small; a long one only repeats what a short one covers */
	if (size > 4096)
		return 0;
	const struct format *f = format();
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	struct scg_import_options opts;
	scg_import_options_init(&opts);
	opts.filename = f->filename;
	struct scg_policy *p = NULL;
	int rc = f->import((const char *)data, size, &opts, &p, diag);
	if (rc == 0) {
		if (!p || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		check_policy(f, p, count_lines(data, size));
		scg_policy_free(p);
	} else if (rc == -EINVAL) {
		if (p || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			abort();
	} else if (rc != -ENOMEM || p) {
		abort();
	}
	scg_diag_free(diag);
	return 0;
}
