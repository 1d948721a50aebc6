/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target, the seccomp audit-record reader (scg_audit_log_parse):
 * any bytes are read without a crash; a refused text has an error
 * diagnostic at a line of the text and hands nothing over; an accepted one
 * keeps records whose lines are in the text and whose ABI agrees with
 * scg_arch_from_audit(), keeps no more records than it read, and learns
 * into a policy that parses and allows every record of a known ABI and
 * syscall.
 * abort() otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/syscage.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_learned(const struct scg_audit_log *log)
{
	struct scg_learn *l = scg_learn_new(0);
	char *text = NULL;
	if (!l || scg_learn_add_audit_log(l, log) != 0 || scg_learn_to_text(l, NULL, &text) != 0)
		abort();
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	if (!diag || scg_policy_parse(text, strlen(text), NULL, &p, diag) != 0) {
		fprintf(stderr, "policy learned from a log does not parse:\n%s", text);
		abort();
	}
	for (size_t i = 0; i < scg_audit_log_count(log); i++) {
		const struct scg_audit_seccomp *r = scg_audit_log_at(log, i);
		/* A number the ABI's table does not name is left to the 'unknown' verdict. */
		if (!r->arch || !scg_syscall_name(r->arch, r->nr))
			continue;
		struct scg_seccomp_data d = { .nr = r->nr, .arch = r->audit_arch };
		struct scg_verdict v;
		scg_policy_eval(p, &d, &v);
		if (v.action != SCG_RET_ALLOW) {
			fprintf(stderr, "record %zu (nr %u) not allowed: %#x\n", i, r->nr, v.action);
			abort();
		}
	}
	scg_policy_free(p);
	scg_diag_free(diag);
	free(text);
	scg_learn_free(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	struct scg_diag *diag = scg_diag_new();
	struct scg_audit_log *log = NULL;
	struct scg_audit_log_options o = { .filename = "fuzz", .comm = size & 1 ? "prog" : NULL };
	if (!diag)
		abort();
	int r = scg_audit_log_parse((const char *)data, size, &o, &log, diag);
	if (r == -EINVAL) {
		const struct scg_diag_entry *e = scg_diag_get(diag, 0);
		if (log || !e || e->severity != SCG_SEV_ERROR || e->loc.line == 0 ||
		    e->loc.line > lines)
			abort();
	} else if (r == 0) {
		struct scg_audit_log_stats st;
		scg_audit_log_stats(log, &st);
		if (st.kept != scg_audit_log_count(log) || st.kept > st.records ||
		    st.records + st.skipped != st.lines || scg_diag_count(diag) != 0)
			abort();
		for (size_t i = 0; i < scg_audit_log_count(log); i++) {
			const struct scg_audit_seccomp *rec = scg_audit_log_at(log, i);
			if (rec->line == 0 || rec->line > lines ||
			    rec->arch != scg_arch_from_audit(rec->audit_arch, rec->nr) ||
			    (o.comm && strcmp(rec->comm, o.comm) != 0))
				abort();
		}
		check_learned(log);
	} else if (r != -ENOMEM) {
		abort();
	}
	scg_audit_log_free(log);
	scg_diag_free(diag);
	return 0;
}
