/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The oracle for the OCI importer's differential tests: a profile run
 * through an independent, straight-line copy of what Docker and runc do,
 * with the real libseccomp building the filter, and runc's ENOSYS stub
 * assembled in front of it.  The result is a BPF program the emulator runs.
 */
#ifndef SCG_TESTS_OCI_ORACLE_H
#define SCG_TESTS_OCI_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

struct oracle_opts {
	const char *kernel;  /* "5.10"; NULL: uname */
	bool stub;           /* runc's ENOSYS stub */
	bool all_caps;       /* every capability instead of Docker's default set */
	const char *const *caps; /* not NULL, without all_caps: these instead (Podman's) */
	size_t ncaps;
};

struct oracle_result {
	struct scg_prog prog;   /* stub + libseccomp's filter (caller releases) */
	int rule_error;         /* first seccomp_rule_add() error (runc would fail), or 0 */
	/* libseccomp 2.5.4 sometimes loses the syscall-number load of an ABI's block:
	 * per AUDIT_ARCH (x86_64 and x32 share one block), found by looking at the code */
	bool lost_load_x86_64, lost_load_i386;
	char message[256];
	/* numbers and values the profile mentions, for choosing test inputs */
	uint64_t constants[512];
	size_t nconstants;
	char names[512][40]; /* names with argument conditions */
	size_t nnames;
};

/* Builds the filter for an x86_64 host (amd64), targets x86_64, x86 and x32 as listed. */
int oracle_build(const char *json, size_t len, const struct oracle_opts *opts,
		 struct oracle_result *out);

/*
 * The profile's selected entries compiled one at a time, each into its
 * own libseccomp filter with the profile's default action, to tell a wrong
 * verdict of libseccomp's merged filter from a wrong entry: the entries
 * syscage writes never overlap, so for any call at most one of these
 * filters gives something else than the default.
 */
struct oracle_entries {
	struct scg_prog *progs;
	size_t n;
	uint32_t def;
};

int oracle_entries_build(const char *json, size_t len, const struct oracle_opts *opts,
			 struct oracle_entries *out);
void oracle_entries_release(struct oracle_entries *e);
/* The one non-default verdict among the entries, or the default; -1 if several disagree. */
int oracle_entries_verdict(const struct oracle_entries *e, const struct scg_seccomp_data *d,
			   uint32_t *ret);

/* Whether libseccomp knows @name (runc skips names it does not). */
bool oracle_libseccomp_knows(const char *name);
/* Whether libseccomp's and syscage's tables give @name the same numbers on x86_64, x86, x32. */
bool oracle_tables_agree(const char *name);

#endif
