/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "bench_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <syscage/oci.h>

#define ERRNO_(e) (SCG_RET_ERRNO | (e))

static void add(struct scg_policy *p, const char *name, uint32_t action, struct scg_expr *cond)
{
	struct scg_rule_spec spec = { .action = action, .syscall = name, .cond = cond,
				      .loc = SCG_LOC_NONE };
	if (scg_policy_add_rule(p, &spec) < 0)
		abort();
}

static struct scg_policy *x86_family(uint32_t def)
{
	struct scg_policy *p = scg_policy_new();
	if (!p)
		abort();
	scg_policy_add_arch(p, scg_arch_lookup("x86_64"));
	scg_policy_add_arch(p, scg_arch_lookup("x86"));
	scg_policy_add_arch(p, scg_arch_lookup("x32"));
	scg_policy_set_default(p, def);
	scg_policy_set_badarch(p, SCG_RET_KILL_PROCESS);
	return p;
}

/* Every other x86_64 syscall allowed: the most ranges an allow list can have. */
static struct scg_policy *alternating(void)
{
	struct scg_policy *p = x86_family(ERRNO_(1));
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < scg_syscall_count(x64); i += 2) {
		const char *name;
		scg_syscall_at(x64, i, &name, NULL);
		add(p, name, SCG_RET_ALLOW, NULL);
	}
	return p;
}

/* Default allow, a deny list with a few argument checks (the shape of many hand-made filters). */
static struct scg_policy *deny_list(void)
{
	static const char *const denied[] = {
		"acct", "add_key", "bpf", "clock_adjtime", "clock_settime", "create_module",
		"delete_module", "finit_module", "get_kernel_syms", "get_mempolicy", "init_module",
		"ioperm", "iopl", "kcmp", "kexec_file_load", "kexec_load", "keyctl", "lookup_dcookie",
		"mbind", "mount", "move_pages", "nfsservctl", "open_by_handle_at", "perf_event_open",
		"pivot_root", "process_vm_readv", "process_vm_writev", "ptrace", "query_module",
		"quotactl", "reboot", "request_key", "set_mempolicy", "setns", "settimeofday",
		"swapoff", "swapon", "sysfs", "umount2", "unshare", "uselib", "userfaultfd", "ustat",
		"vm86", "vm86old",
	};
	struct scg_policy *p = x86_family(SCG_RET_ALLOW);
	for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		add(p, denied[i], ERRNO_(1), NULL);
	add(p, "ioctl", ERRNO_(1), scg_expr_cmp(1, 32, SCG_CMP_EQ, ~0ULL, 0x5412)); /* TIOCSTI */
	add(p, "clone", ERRNO_(1), scg_expr_cmp(0, 64, SCG_CMP_NE, 0x7e020000, 0));
	add(p, "socket", ERRNO_(97), scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 16)); /* AF_NETLINK */
	add(p, "socket", ERRNO_(97), scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 40)); /* AF_VSOCK */
	return p;
}

/* An allow list with argument checks on several syscalls. */
static struct scg_policy *allow_args(void)
{
	struct scg_policy *p = x86_family(ERRNO_(1));
	scg_policy_set_unknown(p, ERRNO_(38));
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < 300 && i < scg_syscall_count(x64); i++) {
		const char *name;
		scg_syscall_at(x64, i, &name, NULL);
		if (strcmp(name, "socket") && strcmp(name, "personality") && strcmp(name, "clone"))
			add(p, name, SCG_RET_ALLOW, NULL);
	}
	static const uint64_t persona[] = { 0, 8, 0x20000, 0x20008, 0xffffffff };
	for (size_t i = 0; i < 5; i++)
		add(p, "personality", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, persona[i]));
	add(p, "socket", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_LT, ~0ULL, 38));
	add(p, "socket", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_EQ, ~0ULL, 39));
	add(p, "socket", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_GT, ~0ULL, 40));
	add(p, "clone", SCG_RET_ALLOW, scg_expr_cmp(0, 64, SCG_CMP_EQ, 0x7e020000, 0));
	return p;
}

static const struct {
	const char *name, *summary;
	struct scg_policy *(*build)(void);
} synthetic[] = {
	{ "alternating", "every other x86_64 syscall allowed, x86_64 + x86 + x32", alternating },
	{ "deny-list", "default allow, 45 denied syscalls, 4 argument checks", deny_list },
	{ "allow-args", "300 allowed syscalls, argument checks like Docker's", allow_args },
};
#define N_SYNTHETIC (sizeof(synthetic) / sizeof(synthetic[0]))

size_t bench_synthetic_count(void)
{
	return N_SYNTHETIC;
}

const char *bench_synthetic_name(size_t i)
{
	return synthetic[i].name;
}

const char *bench_synthetic_summary(size_t i)
{
	return synthetic[i].summary;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static int read_all(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -errno;
	size_t cap = 1 << 16, used = 0;
	char *buf = malloc(cap);
	while (buf) {
		used += fread(buf + used, 1, cap - used, f);
		if (used < cap)
			break;
		char *bigger = realloc(buf, cap * 2);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	fclose(f);
	if (!buf)
		return -ENOMEM;
	*data = buf;
	*len = used;
	return 0;
}

/* A Docker/OCI profile for the native ABI and its companions, with Docker's default capabilities. */
static int load_json(const char *path, struct scg_policy **out, struct scg_diag *diag)
{
	char *json = NULL;
	size_t len = 0;
	int r = read_all(path, &json, &len);
	if (r < 0)
		return r;
	struct scg_oci_options opts;
	scg_oci_options_init(&opts);
	opts.filename = path;
	r = scg_oci_import(json, len, &opts, out, diag);
	free(json);
	return r;
}

int bench_load_policy(const char *name, struct scg_policy **out)
{
	for (size_t i = 0; i < N_SYNTHETIC; i++)
		if (!strcmp(name, synthetic[i].name)) {
			*out = synthetic[i].build();
			return 0;
		}
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	int r;
	if (has_suffix(name, ".json"))
		r = load_json(name, out, diag);
	else if (scg_profile_source(name))
		r = scg_profile_load(name, NULL, out, diag);
	else
		r = scg_policy_parse_file(name, NULL, out, diag);
	for (size_t i = 0; r < 0 && i < scg_diag_count(diag); i++)
		fprintf(stderr, "%s\n", scg_diag_get(diag, i)->message);
	if (r < 0)
		fprintf(stderr, "compile-stats: cannot load '%s': %s\n", name, strerror(-r));
	scg_diag_free(diag);
	return r;
}
