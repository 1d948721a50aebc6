/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as policy text.  The parser must either fail
 * with an error diagnostic and no policy, or build a policy whose text form
 * parses back to a policy with the same verdicts, and that compiles.
 *
 * Inputs that could name a file (a string after include or use) are
 * skipped: the fuzzer must not read whatever path it invents.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* `include "x"` and `use "x"` need a string; `use NAME` reads only built-ins. */
static bool names_a_file(const uint8_t *data, size_t size)
{
	return memchr(data, '"', size) &&
	       (memmem(data, size, "include", 7) || memmem(data, size, "use", 3));
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (names_a_file(data, size))
		return 0;
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return 0;
	struct scg_policy *p = NULL;
	int r = scg_policy_parse((const char *)data, size, NULL, &p, diag);
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
	return 0;
}
