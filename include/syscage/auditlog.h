/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The kernel's seccomp audit records, read back from a log.
 *
 * A filter's SECCOMP_RET_LOG verdict (and, with the default
 * /proc/sys/kernel/seccomp/actions_logged, its kill, trap, errno and trace
 * verdicts) makes the kernel write one audit record per call:
 *
 *   type=1326 audit(1796461154.992:471): auid=4294967295 uid=0 gid=0
 *     ses=4294967295 pid=11658 comm="prog" exe="/usr/bin/prog" sig=0
 *     arch=c000003e syscall=39 compat=0 ip=0x7f... code=0x7ffc0000
 *
 * auditd writes it to audit.log as "type=SECCOMP msg=audit(...): ...";
 * without auditd the kernel prints it ("audit: type=1326 ..."), and it is
 * found in /dev/kmsg, dmesg and `journalctl -k` with their line prefixes.
 * `ausearch -i` writes the same fields interpreted (arch=x86_64
 * syscall=getpid code=log), which this reader takes too.  docs/learn.md,
 * "Learning from the audit log".
 *
 * The reader is a parser: it never opens /dev/kmsg or a file itself.
 */
#ifndef SYSCAGE_AUDITLOG_H
#define SYSCAGE_AUDITLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/arch.h>
#include <syscage/diag.h>
#include <syscage/export.h>
#include <syscage/learn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One seccomp audit record. */
struct scg_audit_seccomp {
	/* The ABI of the call (scg_arch_from_audit() of arch and syscall);
	 * NULL for an AUDIT_ARCH value no known ABI has. */
	const struct scg_arch *arch;
	uint32_t audit_arch; /* arch= */
	uint32_t nr;         /* syscall=, x32's bit 30 included */
	/* code=: the filter's return value (SECCOMP_RET_LOG is 0x7ffc0000);
	 * has_code is false when the record has none or names it (ausearch -i). */
	bool has_code;
	uint32_t code;
	long pid;         /* pid=, or -1 */
	const char *comm; /* comm= decoded (quoted or hex-encoded), "" when absent */
	const char *exe;  /* exe= decoded, "" when absent */
	unsigned line;    /* 1-based line of the record in the text */
};

/* Records read from a log.  Opaque. */
struct scg_audit_log;

struct scg_audit_log_options {
	/* the size of this struct as the caller knows it: SCG_OPTS() sets it */
	size_t sz;
	/* The name diagnostics give the text ("audit.log", "<stdin>"), or NULL. */
	const char *filename;
	/* Keep only records whose exe= is exactly this path, or NULL. */
	const char *exe;
	/* Keep only records whose comm= is this name (the kernel keeps the first
	 * 15 bytes of a program's name: a longer one is compared on those), or NULL. */
	const char *comm;
};

/* What a log held besides the records kept. */
struct scg_audit_log_stats {
	size_t lines;      /* lines read */
	size_t records;    /* seccomp records read */
	size_t kept;       /* of them, those the filter kept */
	size_t foreign;    /* of the kept, from an ABI syscage does not know */
	size_t skipped;    /* lines that are no seccomp record (other messages) */
	/* Records the kernel says it did not print: the sum of printk's
	 * "kauditd_printk_skb: N callbacks suppressed". */
	size_t suppressed;
	/* Lines saying the kernel dropped audit records: "audit_lost=",
	 * "rate limit exceeded", "backlog limit exceeded". */
	size_t lost_lines;
};

/*
 * Parses @len bytes of log text (need not be NUL-terminated; lines end with
 * "\n" or "\r\n").  A line is taken for a seccomp record when a word of it
 * is "type=1326" or "type=SECCOMP"; every other line is skipped (and
 * counted).  A record without arch= or syscall=, or with a value that does
 * not read (an unknown ABI name, a syscall name the ABI has not, a broken
 * number or quote) is an error at its file:line:column in @diag (rule id
 * "audit-record").  @opts may be NULL.
 * Returns 0 with *@out set (the caller frees it with scg_audit_log_free()),
 * -EINVAL when a record was malformed (*@out untouched; every malformed
 * line is reported), or -ENOMEM.
 */
SCG_API int scg_audit_log_parse(const char *text, size_t len,
				const struct scg_audit_log_options *opts,
				struct scg_audit_log **out, struct scg_diag *diag);
/* NULL is a no-op. */
SCG_API void scg_audit_log_free(struct scg_audit_log *log);

/* The records kept, in the order of the text.  Borrowed, valid until the log is freed. */
SCG_API size_t scg_audit_log_count(const struct scg_audit_log *log);
SCG_API const struct scg_audit_seccomp *scg_audit_log_at(const struct scg_audit_log *log,
							 size_t index);
/* What @log read besides the records kept (all zero for NULL). */
SCG_API void scg_audit_log_stats(const struct scg_audit_log *log,
				 struct scg_audit_log_stats *out);

/*
 * Adds each kept record of a known ABI to @learn as one call with
 * scg_learn_add_calls(): a record carries no argument values, so every
 * argument of a syscall learned this way allows any value.  Records of
 * ABIs syscage does not know are left out (scg_audit_log_stats() counts
 * them).  Atomic.  Returns 0 or -ENOMEM (nothing changed).
 */
SCG_API int scg_learn_add_audit_log(struct scg_learn *learn, const struct scg_audit_log *log);

#ifdef __cplusplus
}
#endif

#endif /* SYSCAGE_AUDITLOG_H */
