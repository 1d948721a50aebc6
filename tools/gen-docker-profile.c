/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Writes profiles/docker-default.policy: Docker's default seccomp profile
 * (tests/data/docker-default.json) for Docker's default capabilities, as
 * one policy that serves every host Docker ships for.
 *
 *     tools/gen-docker-profile.sh        (builds this and runs it)
 *     gen-docker-profile IN.json OUT.policy
 *
 * The profile is imported once per host (amd64, arm64, ...) the way Docker
 * and runc would use it there, with a kernel newer than any minKernel of
 * the file.  Rules that come out the same on every host are written once;
 * the others get an `on ABI, ...` clause naming the ABIs of the hosts that
 * have them.  runc's ENOSYS stub becomes `unknown errno(ENOSYS)` plus
 * errno(ENOSYS) rules, by name, for the syscalls newer than the profile.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/lang.h>
#include <syscage/oci.h>
#include <syscage/syscage.h>

#define ENOSYS_RET (SCG_RET_ERRNO | 38U) /* on every host below */

/*
 * The 64-bit hosts Docker is built for, each with the ABI set its archMap
 * entry gives it (the 32-bit hosts select like their 64-bit siblings).
 * MIPS hosts are left out: ENOSYS is 89 there, so runc's stub would make
 * the text spell errno numbers instead of ENOSYS; they get what every host
 * gets, and `unknown errno(ENOSYS)` resolves to their own number.
 */
static const char *const hosts[] = { "amd64", "arm64", "s390x", "ppc64le", "riscv64", "loong64" };

#define MAX_RULES 4096

struct merged {
	struct scg_rule_spec spec; /* syscall points into a table or a policy (kept alive) */
	uint32_t mask;             /* ABIs it applies to, over all hosts */
	unsigned line, column;     /* where Docker's entry is, for ordering */
	size_t order;
};

static struct merged rules[MAX_RULES];
static size_t nrules, next_order;
static struct scg_policy *keep[sizeof(hosts) / sizeof(hosts[0])];

static size_t arch_bit(const struct scg_arch *arch)
{
	for (size_t i = 0; i < scg_arch_count(); i++)
		if (scg_arch_at(i) == arch)
			return i;
	return 0;
}

/*
 * Rules for one syscall with the same action and condition become one rule
 * over all their ABIs, even when they come from different entries (Docker
 * lists sync_file_range2 once for ppc64le and once for arm): it keeps the
 * first one's place.  Docker's file never puts another rule for the same
 * syscall between two such entries, so the order of first matches holds.
 */
static void add(const struct scg_rule *r, const char *name, uint32_t mask)
{
	for (size_t i = 0; i < nrules; i++) {
		struct merged *m = &rules[i];
		if (!strcmp(m->spec.syscall, name) && m->spec.action == r->action &&
		    scg_expr_equal(m->spec.cond, r->cond)) {
			m->mask |= mask;
			return;
		}
	}
	if (nrules == MAX_RULES) {
		fprintf(stderr, "gen-docker-profile: too many rules\n");
		exit(1);
	}
	rules[nrules++] = (struct merged){
		.spec = { .action = r->action, .syscall = name, .cond = (struct scg_expr *)r->cond },
		.mask = mask, .line = r->loc.line, .column = r->loc.column, .order = next_order++,
	};
}

/* The rules one host gets, each limited to the ABIs of that host. */
static void take_host(const struct scg_policy *p)
{
	uint32_t host_mask = 0;
	for (size_t t = 0; t < scg_policy_arch_count(p); t++)
		host_mask |= 1U << arch_bit(scg_policy_arch_at(p, t));
	for (size_t i = 0; i < scg_policy_rule_count(p); i++) {
		struct scg_rule r;
		scg_policy_rule_at(p, i, &r);
		uint32_t mask = r.arch_mask ? r.arch_mask & host_mask : host_mask;
		if (!r.has_number) {
			add(&r, r.syscall, mask);
			continue;
		}
		/* the stub, numbered per ABI: keep its ENOSYS rules, by name */
		for (size_t t = 0; r.action == ENOSYS_RET && t < scg_policy_arch_count(p); t++) {
			const struct scg_arch *a = scg_policy_arch_at(p, t);
			const char *name = scg_syscall_name(a, r.number);
			if ((mask & (1U << arch_bit(a))) && name)
				add(&r, name, 1U << arch_bit(a));
		}
	}
}

/* The target ABIs that have syscall @name. */
static uint32_t existing(const struct scg_policy *p, const char *name)
{
	uint32_t mask = 0, nr;
	for (size_t t = 0; t < scg_policy_arch_count(p); t++)
		if (scg_syscall_lookup(scg_policy_arch_at(p, t), name, &nr) == 0)
			mask |= 1U << arch_bit(scg_policy_arch_at(p, t));
	return mask;
}

static int by_position(const void *pa, const void *pb)
{
	const struct merged *a = pa, *b = pb;
	/* the stub's rules (no position) first, as runc's stub runs first */
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 22);
	*len = buf ? fread(buf, 1, 1 << 22, f) : 0;
	fclose(f);
	return buf;
}

static int import_host(const char *json, size_t len, const char *host, size_t k)
{
	struct scg_oci_options opts;
	struct scg_diag *diag = scg_diag_new();
	scg_oci_options_init(&opts);
	opts.host_arch = host;
	opts.kernel = "99.0"; /* newer than every minKernel */
	opts.filename = "docker-default.json";
	int r = scg_oci_import(json, len, &opts, &keep[k], diag);
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		char buf[1024];
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		if (e->severity < SCG_SEV_ERROR)
			continue;
		scg_diag_format(e, buf, sizeof(buf));
		fprintf(stderr, "%s\n", buf);
	}
	scg_diag_free(diag);
	return r;
}

static const char header[] =
	"# Docker's default seccomp profile, for Docker's default capabilities\n"
	"#\n"
	"# Generated by tools/gen-docker-profile.sh from Docker's profile\n"
	"# (moby profiles/seccomp/default.json, Apache-2.0; copy in\n"
	"# tests/data/docker-default.json): every rule Docker selects for a container\n"
	"# without extra capabilities (CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FSETID,\n"
	"# CAP_FOWNER, CAP_MKNOD, CAP_NET_RAW, CAP_SETGID, CAP_SETUID, CAP_SETFCAP,\n"
	"# CAP_SETPCAP, CAP_NET_BIND_SERVICE, CAP_SYS_CHROOT, CAP_KILL,\n"
	"# CAP_AUDIT_WRITE), read the way runc and libseccomp read it.\n"
	"#\n"
	"# minKernel: this profile assumes a kernel at least as new as every\n"
	"# minKernel in Docker's file, that is Linux 4.8 or later, so ptrace,\n"
	"# process_vm_readv and process_vm_writev are allowed.  (Before 4.8 a\n"
	"# tracer could change a syscall after seccomp had checked it.)\n"
	"#\n"
	"# Docker selects some entries by the host's architecture; rules that only\n"
	"# some hosts get say so with `on`, naming the ABIs of those hosts (amd64:\n"
	"# x86_64, x86, x32; arm64: aarch64, arm; s390x: s390x, s390; mips64le:\n"
	"# mipsel64, mipsel, mipsel64n32; ...).  On a 32-bit host Docker would select\n"
	"# as on its 64-bit sibling here.  runc's stub that returns ENOSYS for\n"
	"# syscalls newer than the profile is `unknown errno(ENOSYS)` plus the\n"
	"# errno(ENOSYS) rules below, and calls from other ABIs kill the thread, as\n"
	"# libseccomp does under runc.  docs/oci.md and docs/profiles.md say more.\n"
	"\n";

/* The policy text without its own header comment and `arch` line: a profile targets the user's ABIs. */
static int write_profile(const char *text, const char *out)
{
	FILE *f = fopen(out, "w");
	if (!f)
		return -errno;
	fputs(header, f);
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line + 1) : strlen(line);
		if (line[0] != '#' && strncmp(line, "arch ", 5))
			fwrite(line, 1, n, f);
		line += n;
	}
	return fclose(f) ? -errno : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen-docker-profile IN.json OUT.policy\n");
		return 2;
	}
	size_t len;
	char *json = read_all(argv[1], &len);
	if (!json) {
		fprintf(stderr, "gen-docker-profile: cannot read %s\n", argv[1]);
		return 1;
	}
	struct scg_policy *all = scg_policy_new();
	for (size_t k = 0; k < sizeof(hosts) / sizeof(hosts[0]); k++) {
		if (import_host(json, len, hosts[k], k) < 0) {
			fprintf(stderr, "gen-docker-profile: importing for %s failed\n", hosts[k]);
			return 1;
		}
		for (size_t t = 0; t < scg_policy_arch_count(keep[k]); t++)
			scg_policy_add_arch(all, scg_policy_arch_at(keep[k], t));
		take_host(keep[k]);
		if (!k) {
			scg_policy_set_default(all, scg_policy_default(keep[k]));
			scg_policy_set_badarch(all, scg_policy_badarch(keep[k]));
			scg_policy_set_unknown(all, ENOSYS_RET);
		}
	}
	qsort(rules, nrules, sizeof(rules[0]), by_position);
	for (size_t i = 0; i < nrules; i++) {
		struct scg_rule_spec spec = rules[i].spec;
		spec.cond = scg_expr_clone(spec.cond);
		/* a rule every host has, wherever the syscall exists, needs no `on` */
		uint32_t missing = ~existing(all, spec.syscall);
		spec.arch_mask = (rules[i].mask | missing) == ~0U ? 0 : rules[i].mask;
		if (scg_policy_add_rule(all, &spec) < 0)
			return 1;
	}
	char *text = NULL;
	int r = scg_policy_to_text(all, &text);
	if (r == 0)
		r = write_profile(text, argv[2]);
	if (r < 0) {
		fprintf(stderr, "gen-docker-profile: %s\n", strerror(-r));
		return 1;
	}
	free(text);
	scg_policy_free(all);
	for (size_t k = 0; k < sizeof(hosts) / sizeof(hosts[0]); k++)
		scg_policy_free(keep[k]);
	free(json);
	return 0;
}
