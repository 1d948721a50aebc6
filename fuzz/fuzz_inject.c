/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as one `syscage inject` rule.  The parser must
 * either fail with an error diagnostic and no rule, or return a rule that
 * injects something (a fault, a signal or a delay), whose set is sorted
 * without duplicates and names each syscall on some target ABI, whose
 * when= takes its first call, that the filter never carries alone when it
 * has a path test or a delay, and whose match policy compiles.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/compile.h>

#include "inject/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_rule(const struct scg_inject_rule *r)
{
	if (!r->has_error && !r->has_retval && !r->signal && !r->has_delay_enter &&
	    !r->has_delay_exit)
		abort();
	if (r->has_delay_exit && !r->has_error && !r->has_retval)
		abort(); /* seccomp never sees a call that runs return */
	if ((r->npaths || r->has_delay_enter || r->has_delay_exit) && scg_inject_rule_is_static(r))
		abort();
	for (size_t i = 0; i < r->nsyscalls; i++)
		if (!r->abi_masks[i] || r->abi_masks[i] >> r->narches)
			abort();
	if (r->has_error && (r->has_retval || r->error < 1 || r->error > SCG_MAX_ERRNO))
		abort();
	for (size_t i = 1; i < r->nsyscalls; i++)
		if (strcmp(r->syscalls[i - 1], r->syscalls[i]) >= 0)
			abort();
	if (r->has_when && (!scg_inject_when_takes(&r->when, r->when.first) ||
			    scg_inject_when_takes(&r->when, (uint64_t)r->when.first - 1)))
		abort();
	if (!r->has_cond && r->nsyscalls && scg_policy_rule_count(r->match) == 0)
		abort();
	struct scg_prog prog;
	int rc = scg_compile(r->match, NULL, &prog, NULL);
	if (rc == 0)
		scg_prog_release(&prog);
	else if (rc != -E2BIG)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A rule is one command-line word; long ones only slow the regex engine down. */
	if (size > 512 || memchr(data, '\0', size))
		return 0;
	char *text = strndup((const char *)data, size);
	struct scg_diag *diag = scg_diag_new();
	if (!text || !diag)
		goto out;
	const struct scg_arch *arches[] = { scg_arch_lookup("x86_64"), scg_arch_lookup("x86") };
	struct scg_inject_options opts = { .arches = arches, .narches = 2, .fault = size & 1 };
	struct scg_inject_rule *r = NULL;
	int rc = scg_inject_rule_parse(text, &opts, &r, diag);
	if (rc == 0) {
		if (!r || scg_diag_count_at_least(diag, SCG_SEV_ERROR))
			abort();
		check_rule(r);
		scg_inject_rule_free(r);
	} else if (rc == -EINVAL) {
		if (r || scg_diag_count_at_least(diag, SCG_SEV_ERROR) == 0)
			abort();
		for (size_t i = 0; i < scg_diag_count(diag); i++)
			if (scg_diag_get(diag, i)->loc.column > size + 1 + 16)
				abort(); /* columns point into the rule (or just past its end) */
	}
out:
	scg_diag_free(diag);
	free(text);
	return 0;
}
