/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target, the properties of a learned policy: for the calls the
 * input bytes describe, the policy text scg_learn_to_text() writes parses
 * without a warning, allows every recorded call, and reads back through
 * scg_learn_merge_policy() into a recording that writes the same text.
 * abort() otherwise.
 *
 * Input layout: 8 bytes per call: ABI (x86_64, x86, x32 by the low two
 * bits), syscall (table index, 2 bytes), argument values (one byte each for
 * arguments 0..3, the high bit moving it above 32 bits), repetitions.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CALLS 256

static struct scg_policy *parse_clean(const char *text)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	if (!diag)
		abort();
	int r = scg_policy_parse(text, strlen(text), NULL, &p, diag);
	if (r != 0 || scg_diag_count_at_least(diag, SCG_SEV_WARNING) != 0) {
		fprintf(stderr, "learned policy does not parse cleanly:\n%s", text);
		abort();
	}
	scg_diag_free(diag);
	return p;
}

static struct scg_seccomp_data decode(const uint8_t *c)
{
	static const char *const abis[] = { "x86_64", "x86", "x32", "x86_64" };
	const struct scg_arch *arch = scg_arch_lookup(abis[c[0] & 3]);
	const char *name;
	uint32_t nr;
	scg_syscall_at(arch, ((size_t)c[1] << 8 | c[2]) % scg_syscall_count(arch), &name, &nr);
	struct scg_seccomp_data d = { .nr = nr, .arch = scg_arch_audit(arch) };
	for (unsigned i = 0; i < 4; i++)
		d.args[i] = (uint64_t)(c[3 + i] & 0x7f) << ((c[3 + i] & 0x80) ? 33 : 0);
	return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scg_learn *l = scg_learn_new(SCG_LEARN_ARGS);
	struct scg_seccomp_data calls[MAX_CALLS];
	size_t n = 0;
	if (!l)
		abort();
	for (size_t off = 0; off + 8 <= size && n < MAX_CALLS; off += 8) {
		calls[n] = decode(data + off);
		for (unsigned k = 0; k <= (data[off + 7] & 3); k++)
			if (scg_learn_record(l, &calls[n]) != 0)
				abort();
		n++;
	}
	char *text, *again;
	if (scg_learn_to_text(l, NULL, &text) != 0)
		abort();
	struct scg_policy *p = parse_clean(text);
	for (size_t i = 0; i < n; i++) {
		struct scg_verdict v;
		scg_policy_eval(p, &calls[i], &v);
		if (v.action != SCG_RET_ALLOW) {
			fprintf(stderr, "call %zu (nr %u) not allowed by:\n%s", i, calls[i].nr, text);
			abort();
		}
	}
	struct scg_learn *back = scg_learn_new(0);
	if (!back || scg_learn_merge_policy(back, p, text, strlen(text)) != 0 ||
	    scg_learn_to_text(back, NULL, &again) != 0)
		abort();
	if (strcmp(text, again) != 0) {
		fprintf(stderr, "merge changed the policy:\n%s\n---\n%s", text, again);
		abort();
	}
	free(again);
	scg_learn_free(back);
	scg_policy_free(p);
	free(text);
	scg_learn_free(l);
	return 0;
}
