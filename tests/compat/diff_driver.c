/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential driver for the libseccomp-compatible library.  Built twice
 * from this one source: against libseccomp (/usr/include/seccomp.h,
 * -lseccomp) and against syscage's compat/seccomp.h and libseccomp.so.2.
 * It prints the return code of every API call it makes and, for each rule
 * set, the verdict of the exported filter (run in syscage's emulator) on
 * many calls; tests/test_compat_diff.c requires the two outputs to match.
 *
 *   diff-<lib> [RULE_SETS [SEED]]
 *   diff-<lib> overlap [RULE_SETS [SEED]]   (overlapping rules of different actions)
 *   diff-<lib> resolve [HEADER]             (every resolver answer)
 *
 * Only what libseccomp 2.5 and syscage define alike is exercised: generated
 * rule sets where conditional rules for one syscall share an action or test
 * disjoint values, hand-written overlaps where one range holds the other
 * (the narrower decides in both), no argument conditions on multiplexed
 * socket/IPC calls, probes only with real syscall numbers
 * (docs/libseccomp.md lists why).
 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <seccomp.h>
#include <syscage/syscage.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state;

static uint32_t rnd(uint32_t below)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((rng_state >> 33) % below);
}

/* --- hand-written cases: return codes ----------------------------------------- */

#define RC(expr) printf("%-4d %s\n", (int)(expr), #expr)

static void return_codes(void)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	uint32_t v = 0;
	for (int a = SCMP_FLTATR_ACT_DEFAULT; a <= SCMP_FLTATR_API_SYSRAWRC; a++) {
		int rc = seccomp_attr_get(c, (enum scmp_filter_attr)a, &v);
		printf("attr %d: %d %#x\n", a, rc, v);
	}
	RC(seccomp_attr_get(c, 0, &v));
	RC(seccomp_attr_set(c, SCMP_FLTATR_ACT_DEFAULT, SCMP_ACT_KILL));
	RC(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW));
	RC(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, 0x12345678));
	RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 3));
	RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 0));
	RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2));
	RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_NNP, 5));
	RC(seccomp_attr_get(c, SCMP_FLTATR_CTL_NNP, &v));
	printf("nnp %u\n", v);
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(read), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_KILL, SCMP_SYS(read), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(read), 1, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(write), 1, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(write), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(dup), 1, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(dup), 2, SCMP_A0(SCMP_CMP_EQ, 1),
			    SCMP_A1(SCMP_CMP_EQ, 2)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(dup2), 2, SCMP_A0(SCMP_CMP_EQ, 1),
			    SCMP_A1(SCMP_CMP_EQ, 2)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(dup2), 1, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 2, SCMP_A0(SCMP_CMP_EQ, 1),
			    SCMP_A0(SCMP_CMP_EQ, 2)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 1, SCMP_CMP(6, SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 1, SCMP_A0(0, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 1, SCMP_A0(8, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(close), 7, SCMP_A0(SCMP_CMP_EQ, 1)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -1, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -50, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -101, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), 1000, 0));
	RC(seccomp_rule_add(c, 0x12345678, 1, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_TRACE(5), 1, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(5000), 3, 0));
	RC(seccomp_rule_add(NULL, SCMP_ACT_ERRNO(3), 1, 0));
	RC(seccomp_attr_set(c, SCMP_FLTATR_API_TSKIP, 1));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), -1, 0));
	RC(seccomp_arch_add(c, SCMP_ARCH_X86_64));
	RC(seccomp_arch_add(c, SCMP_ARCH_X86));
	RC(seccomp_arch_add(c, 0x1234));
	RC(seccomp_arch_exist(c, SCMP_ARCH_X86));
	RC(seccomp_arch_exist(c, SCMP_ARCH_ARM));
	RC(seccomp_arch_exist(c, 0x1234));
	RC(seccomp_arch_remove(c, SCMP_ARCH_ARM));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, 2)));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_ERRNO(3), SCMP_SYS(socket), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(socketcall), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(arch_prctl), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), 99999, 0));
	RC(seccomp_syscall_priority(c, SCMP_SYS(read), 200));
	RC(seccomp_syscall_priority(c, -5, 200));
	RC(seccomp_syscall_resolve_name("socketcall"));
	RC(seccomp_syscall_resolve_name("bogus"));
	RC(seccomp_syscall_resolve_name(NULL));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86, "socket"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86, "semop"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86, "socketcall"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, "socketcall"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_X32, "read"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, "openat"));
	RC(seccomp_syscall_resolve_name_arch(SCMP_ARCH_AARCH64, "open"));
	RC(seccomp_syscall_resolve_name_arch(0x1234, "read"));
	RC(seccomp_syscall_resolve_name_rewrite(SCMP_ARCH_X86_64, "read"));
	RC(seccomp_syscall_resolve_name_rewrite(SCMP_ARCH_X86, "read"));
	RC(seccomp_arch_resolve_name("x86"));
	RC(seccomp_arch_resolve_name("amd64"));
	RC(seccomp_arch_resolve_name("aarch64"));
	RC(seccomp_arch_resolve_name("mipsel64n32"));
	RC(seccomp_arch_native());
	RC(seccomp_notify_fd(c));
	RC(seccomp_notify_id_valid(-1, 1));
	seccomp_release(c);

	static const struct {
		uint32_t token;
		int nr;
	} nums[] = { { SCMP_ARCH_X86, 102 }, { SCMP_ARCH_X86, -101 }, { SCMP_ARCH_X86_64, 0 },
		     { SCMP_ARCH_X32, 0x40000000 }, { SCMP_ARCH_AARCH64, 56 },
		     { SCMP_ARCH_ARM, 281 } };
	for (size_t i = 0; i < N(nums); i++) {
		char *name = seccomp_syscall_resolve_num_arch(nums[i].token, nums[i].nr);
		printf("num %#x %d: %s\n", nums[i].token, nums[i].nr, name ? name : "-");
		free(name);
	}
}

/* --- hand-written cases: verdicts ---------------------------------------------- */

/* The exported filter, in the byte order of @big_endian ABIs, as a native program. */
static int exported(scmp_filter_ctx c, bool big_endian, struct scg_prog *prog)
{
	int fd = memfd_create("filter", 0);
	int rc = seccomp_export_bpf(c, fd);
	off_t size = lseek(fd, 0, SEEK_END);
	struct scg_insn *insns = rc == 0 && size > 0 ? malloc((size_t)size) : NULL;
	if (insns == NULL || pread(fd, insns, (size_t)size, 0) != size)
		rc = rc < 0 ? rc : -EIO;
	for (size_t i = 0; rc == 0 && i < (size_t)size / sizeof(*insns); i++) {
		insns[i].code = big_endian ? be16toh(insns[i].code) : le16toh(insns[i].code);
		insns[i].k = big_endian ? be32toh(insns[i].k) : le32toh(insns[i].k);
	}
	if (rc == 0)
		rc = scg_prog_from_raw(insns, (size_t)size, "filter", prog, NULL);
	free(insns);
	close(fd);
	return rc;
}

/* One line per call: "verdict <what>: <action>"; both builds must print the same. */
static void verdicts(scmp_filter_ctx c, const char *what, uint32_t arch, bool big_endian,
		     const int *nrs, const uint64_t *a0s, const uint64_t *a2s, size_t n)
{
	struct scg_prog prog = { 0 };
	if (exported(c, big_endian, &prog) < 0) {
		printf("verdict %s: no filter\n", what);
		return;
	}
	printf("verdict %s:", what);
	for (size_t i = 0; i < n; i++) {
		struct scg_seccomp_data d = { .nr = (uint32_t)nrs[i], .arch = arch };
		d.args[0] = a0s != NULL ? a0s[i] : 0;
		d.args[2] = a2s != NULL ? a2s[i] : 0;
		uint32_t out = 0xdeadbeef;
		if (scg_emu_run(&prog, &d, &out, NULL, NULL, NULL) < 0)
			out = 0xdeadbeef;
		printf(" %#x", out);
	}
	printf("\n");
	scg_prog_release(&prog);
}

static scmp_filter_ctx x86_only(uint32_t def)
{
	scmp_filter_ctx c = seccomp_init(def);
	printf("x86 only: %d %d\n", seccomp_arch_add(c, SCMP_ARCH_X86),
	       seccomp_arch_remove(c, SCMP_ARCH_NATIVE));
	return c;
}

/* x86's socket(2) and socketcall(2) numbers, ipc(2) and the direct semget(2). */
enum { X86_SOCKET = 359, X86_SOCKETCALL = 102, X86_IPC = 117, X86_SEMGET = 393 };

/* An exact rule for a socket or IPC call covers its multiplexed form too. */
static void multiplexed_calls(void)
{
	static const int nrs[] = { X86_SOCKET, X86_SOCKETCALL, X86_SOCKETCALL, X86_IPC, X86_IPC,
				   X86_SEMGET };
	static const uint64_t a0s[] = { 2, 1 /* SYS_SOCKET */, 2 /* SYS_BIND */, 2 /* SEMGET */,
					1 /* SEMOP */, 0 };
	scmp_filter_ctx c = x86_only(SCMP_ACT_ALLOW);
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, SCMP_SYS(socket), 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, 2)));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_ERRNO(1), SCMP_SYS(semget), 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_ERRNO(1), SCMP_SYS(shmget), 1,
				  SCMP_A0(SCMP_CMP_EQ, 2)));
	verdicts(c, "exact socket, semget on x86", SCMP_ARCH_X86, false, nrs, a0s, NULL, N(nrs));
	seccomp_release(c);
	c = x86_only(SCMP_ACT_KILL);
	RC(seccomp_rule_add_exact(c, SCMP_ACT_ALLOW, SCMP_SYS(socket), 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_ALLOW, SCMP_SYS(semget), 0));
	verdicts(c, "exact allow socket, semget on x86", SCMP_ARCH_X86, false, nrs, a0s, NULL,
		 N(nrs));
	seccomp_release(c);
}

/*
 * A MASKED_EQ whose mask keeps no bit of what the ABI compares (the low half
 * on x86) is no test at all to libseccomp: the rule is unconditional, so it
 * stays when an unconditional rule follows, and replaces conditional rules
 * before it.
 */
static void vanishing_comparisons(void)
{
	enum { X86_CLOSE = 6, X86_READ = 3 };
	static const int nrs[] = { X86_CLOSE, X86_CLOSE, X86_READ, X86_READ };
	static const uint64_t a2s[] = { 0, 2, 0, 7 };
	scmp_filter_ctx c = x86_only(SCMP_ACT_LOG);
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(close), 1,
			    SCMP_A2(SCMP_CMP_MASKED_EQ, 0x100000000ULL, 2)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(close), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), SCMP_SYS(read), 1, SCMP_A2(SCMP_CMP_EQ, 7)));
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(read), 1,
			    SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffff00000000ULL, 1)));
	verdicts(c, "masks without a low bit on x86", SCMP_ARCH_X86, false, nrs, NULL, a2s, N(nrs));
	seccomp_release(c);
}

/* Numbers without a name, pseudo numbers, legacy names, -1. */
static void numbers(void)
{
	scmp_filter_ctx c = x86_only(SCMP_ACT_ERRNO(9));
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, 184 /* tuxcall */, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, 174 /* create_module: x86 127 */, 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, -100001, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_KILL, -100001, 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, -10001, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_KILL, 100000, 0));
	static const int x86_nrs[] = { 127, 3, 0 };
	verdicts(c, "legacy numbers on x86", SCMP_ARCH_X86, false, x86_nrs, NULL, NULL,
		 N(x86_nrs));
	RC(seccomp_syscall_priority(c, -100001, 10));
	RC(seccomp_syscall_priority(c, 100000, 10));
	RC(seccomp_syscall_priority(c, SCMP_SYS(read), 10));
	seccomp_release(c);

	c = seccomp_init(SCMP_ACT_ALLOW);
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, -10001 /* __PNR_arch_prctl */, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_KILL, -10001, 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, -100001, 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, -101 /* __PNR_socket */, 0));
	RC(seccomp_rule_add_exact(c, SCMP_ACT_KILL, SCMP_SYS(socketcall), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), 184, 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(3), 236, 0));
	RC(seccomp_syscall_priority(c, -1, 100));
	RC(seccomp_attr_set(c, SCMP_FLTATR_API_TSKIP, 1));
	RC(seccomp_syscall_priority(c, -1, 100));
	RC(seccomp_syscall_priority(c, -2, 100));
	RC(seccomp_syscall_priority(c, -100001, 100));
	static const int nrs[] = { 158 /* arch_prctl */, 41 /* socket */, 184, 236 };
	verdicts(c, "pseudo and legacy numbers on x86_64", SCMP_ARCH_X86_64, false, nrs, NULL, NULL,
		 N(nrs));
	seccomp_release(c);

	static const struct {
		uint32_t token;
		int nr;
	} nums[] = { { SCMP_ARCH_X86_64, 174 }, { SCMP_ARCH_X86_64, 177 }, { SCMP_ARCH_X86_64, 178 },
		     { SCMP_ARCH_X86_64, 180 }, { SCMP_ARCH_X86_64, 181 }, { SCMP_ARCH_X86_64, 182 },
		     { SCMP_ARCH_X86_64, 183 }, { SCMP_ARCH_X86_64, 184 }, { SCMP_ARCH_X86_64, 185 },
		     { SCMP_ARCH_X86_64, 236 }, { SCMP_ARCH_X86, 17 },      { SCMP_ARCH_X86, 273 },
		     { SCMP_ARCH_X32, 0x40000000 + 184 }, { SCMP_ARCH_MIPS, 4137 },
		     { SCMP_ARCH_PPC64, 225 },  { SCMP_ARCH_S390X, 127 } };
	for (size_t i = 0; i < N(nums); i++) {
		char *name = seccomp_syscall_resolve_num_arch(nums[i].token, nums[i].nr);
		printf("num %#x %d: %s\n", nums[i].token, nums[i].nr, name ? name : "-");
		free(name);
	}
	static const char *const names[] = { "tuxcall", "vserver", "create_module", "break",
					     "afs_syscall", "nfsservctl" };
	static const uint32_t tokens[] = { SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32,
					   SCMP_ARCH_AARCH64, SCMP_ARCH_PPC64LE, SCMP_ARCH_MIPSEL };
	for (size_t i = 0; i < N(names); i++)
		for (size_t k = 0; k < N(tokens); k++)
			printf("name %#x %s: %d\n", tokens[k], names[i],
			       seccomp_syscall_resolve_name_arch(tokens[k], names[i]));
}

/* What an API level allows: actions, flag attributes, TSYNC with a listener. */
static void api_levels(void)
{
	unsigned level = seccomp_api_get();
	for (unsigned l = 1; l <= 6 && l <= level; l++) {
		printf("level %u: %d\n", l, seccomp_api_set(l));
		scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
		RC(seccomp_rule_add(c, SCMP_ACT_NOTIFY, 1, 0));
		RC(seccomp_rule_add(c, SCMP_ACT_LOG, 2, 0));
		RC(seccomp_rule_add(c, SCMP_ACT_KILL_PROCESS, 3, 0));
		RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_TSYNC, 0));
		RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_TSYNC, 1));
		RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_LOG, 0));
		RC(seccomp_attr_set(c, SCMP_FLTATR_CTL_SSB, 0));
		RC(seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_NOTIFY));
		RC(seccomp_reset(c, SCMP_ACT_LOG));
		seccomp_release(c);
	}
	printf("level back: %d\n", seccomp_api_set(level));
}

/* Filters for a big-endian ABI are exported in its byte order; ABIs of both orders do not mix. */
static void byte_order(void)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	RC(seccomp_arch_add(c, SCMP_ARCH_S390X));
	RC(seccomp_arch_remove(c, SCMP_ARCH_NATIVE));
	RC(seccomp_arch_add(c, SCMP_ARCH_S390X));
	RC(seccomp_arch_add(c, SCMP_ARCH_X86));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(1), SCMP_SYS(getpid), 0));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(2), SCMP_SYS(write), 1, SCMP_A2(SCMP_CMP_GT, 0x10000)));
	static const int nrs[] = { 20 /* getpid */, 4 /* write */, 4, 3 };
	static const uint64_t a2s[] = { 0, 0x10001, 1, 0 };
	verdicts(c, "s390x, big-endian", SCMP_ARCH_S390X, true, nrs, NULL, a2s, N(nrs));
	scmp_filter_ctx m = seccomp_init(SCMP_ACT_ALLOW);
	RC(seccomp_merge(c, m));
	seccomp_release(m);
	seccomp_release(c);
	c = seccomp_init(SCMP_ACT_ALLOW);
	RC(seccomp_arch_remove(c, SCMP_ARCH_NATIVE));
	RC(seccomp_arch_add(c, SCMP_ARCH_MIPS));
	RC(seccomp_arch_add(c, SCMP_ARCH_MIPSEL));
	RC(seccomp_rule_add(c, SCMP_ACT_KILL, SCMP_SYS(getppid), 0));
	static const int mips[] = { 4064 /* getppid */, 4020 };
	verdicts(c, "mips, big-endian", SCMP_ARCH_MIPS, true, mips, NULL, NULL, N(mips));
	seccomp_release(c);
}

/* Nested ranges on one argument with different actions: the narrowest decides. */
static void nested_ranges(void)
{
	static const struct {
		enum scmp_compare op;
		uint64_t data[4];
	} chains[] = {
		{ SCMP_CMP_LT, { 128, 256, 512, 1024 } }, { SCMP_CMP_LE, { 64, 128, 256, 512 } },
		{ SCMP_CMP_GT, { 128, 256, 512, 1024 } }, { SCMP_CMP_GE, { 64, 128, 256, 512 } },
	};
	static const int nrs[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint64_t a2s[] = { 0, 64, 65, 127, 128, 200, 256, 300, 600, 2000 };
	for (size_t k = 0; k < N(chains); k++)
		for (int reverse = 0; reverse < 2; reverse++) {
			scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
			for (int i = 0; i < 4; i++) {
				int j = reverse ? 3 - i : i;
				int rc = seccomp_rule_add(c, SCMP_ACT_ERRNO(5 + j), SCMP_SYS(write), 1,
							  SCMP_A2(chains[k].op, chains[k].data[j]));
				printf("nested %d %d %d: %d\n", chains[k].op, reverse, j, rc);
			}
			char what[64];
			snprintf(what, sizeof(what), "nested op %d%s", chains[k].op,
				 reverse ? " reversed" : "");
			verdicts(c, what, SCMP_ARCH_X86_64, false, nrs, NULL, a2s, N(nrs));
			seccomp_release(c);
		}
	/* libseccomp's own example: a2 < 128 EIO, a2 < 256 ENOMEM ..., write(.., .., 65) */
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_KILL);
	RC(seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, SCMP_A2(SCMP_CMP_GE, 32768)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(5), SCMP_SYS(write), 1, SCMP_A2(SCMP_CMP_LT, 128)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(6), SCMP_SYS(write), 1, SCMP_A2(SCMP_CMP_LT, 256)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(12), SCMP_SYS(write), 1,
			    SCMP_A2(SCMP_CMP_LT, 16384)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(7), SCMP_SYS(read), 2, SCMP_A0(SCMP_CMP_EQ, 3),
			    SCMP_A2(SCMP_CMP_LT, 100)));
	RC(seccomp_rule_add(c, SCMP_ACT_ERRNO(8), SCMP_SYS(read), 2, SCMP_A0(SCMP_CMP_EQ, 3),
			    SCMP_A2(SCMP_CMP_LT, 1000)));
	static const int w[] = { 1, 1, 1, 1, 1, 0, 0, 0, 0 };
	static const uint64_t w0[] = { 1, 1, 1, 1, 1, 3, 4, 3, 3 };
	static const uint64_t w2[] = { 65, 128, 300, 20000, 40000, 50, 50, 100, 1000 };
	verdicts(c, "write a2 < 128, < 256, < 16384", SCMP_ARCH_X86_64, false, w, w0, w2, N(w));
	seccomp_release(c);
}

/* --- generated rule sets ------------------------------------------------------- */

/* Syscalls the rules name (none multiplexed on any filter ABI used here). */
static const char *const pool[] = { "read", "write", "close", "dup", "dup2", "mmap",
				    "openat", "getppid", "ioctl", "kill", "futex", "prctl",
				    "mprotect", "lseek", "fcntl", "clone" };

static const uint64_t data_pool[] = { 0, 1, 2, 5, 0x7fffffff, 0x80000000ULL, 0xffffffffULL,
				      0x100000000ULL, 0x100000001ULL, 0xffffffff00000000ULL,
				      0x8000000000000000ULL, UINT64_MAX, 0x1234, 0xff };

static const uint32_t actions[] = { SCMP_ACT_ALLOW, SCMP_ACT_ERRNO(1), SCMP_ACT_ERRNO(13),
				    SCMP_ACT_TRAP, SCMP_ACT_LOG, SCMP_ACT_KILL_PROCESS,
				    SCMP_ACT_TRACE(7) };

static uint64_t pick_datum(void)
{
	uint64_t d = data_pool[rnd(N(data_pool))];
	if (rnd(4) == 0)
		d += rnd(3) - 1;
	return d;
}

struct gen_rule {
	int rc;
	size_t pool_index;
	int sys;
	uint32_t action;
	unsigned n;
	struct scmp_arg_cmp cmp[3];
};

static void gen_cmps(struct gen_rule *r)
{
	unsigned used = 0;
	r->n = rnd(4);
	for (unsigned i = 0; i < r->n; i++) {
		unsigned arg;
		do
			arg = rnd(6);
		while (used & (1U << arg));
		used |= 1U << arg;
		enum scmp_compare op = (enum scmp_compare)(1 + rnd(7));
		r->cmp[i] = (struct scmp_arg_cmp){ arg, op, pick_datum(), pick_datum() };
		if (rnd(3) == 0 && op != SCMP_CMP_MASKED_EQ)
			r->cmp[i] = SCMP_CMP32(arg, op, (uint32_t)pick_datum());
	}
}

static const uint32_t arch_sets[][3] = {
	{ SCMP_ARCH_X86_64 }, { SCMP_ARCH_X86_64, SCMP_ARCH_X86 },
	{ SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32 }, { SCMP_ARCH_X86 },
	{ SCMP_ARCH_AARCH64, SCMP_ARCH_ARM }, { SCMP_ARCH_X86_64, SCMP_ARCH_X32 },
};

static int setup_arches(scmp_filter_ctx c, const uint32_t *set)
{
	int native_kept = 0;
	for (size_t i = 0; i < 3 && set[i] != 0; i++) {
		if (set[i] == SCMP_ARCH_X86_64)
			native_kept = 1;
		else
			printf(" add %d", seccomp_arch_add(c, set[i]));
	}
	if (!native_kept)
		printf(" remove %d", seccomp_arch_remove(c, SCMP_ARCH_NATIVE));
	return 0;
}

/* --- what the rules mean ---------------------------------------------------------
 * Computed from the rule list alone, so both builds print the same meaning: a
 * call from an ABI the filter lacks gets the bad-ABI action; else the first
 * accepted unconditional rule for the syscall decides (one whose comparisons
 * the ABI drops counts); else any matching
 * conditional rule (all of one syscall share an action here); else the
 * default.  32-bit ABIs compare low words; MASKED_EQ masks both sides. */
struct filter_desc {
	uint32_t def, badarch;
	const uint32_t *set;
	const struct gen_rule *rules;
	size_t nrules;
};

static bool cmp_holds(const struct scmp_arg_cmp *c, const uint64_t *args, bool narrow)
{
	uint64_t width = narrow ? 0xffffffffULL : UINT64_MAX;
	uint64_t v = args[c->arg] & width, a = c->datum_a & width, b = c->datum_b & width;
	switch (c->op) {
	case SCMP_CMP_NE:
		return v != a;
	case SCMP_CMP_LT:
		return v < a;
	case SCMP_CMP_LE:
		return v <= a;
	case SCMP_CMP_EQ:
		return v == a;
	case SCMP_CMP_GE:
		return v >= a;
	case SCMP_CMP_GT:
		return v > a;
	case SCMP_CMP_MASKED_EQ:
		return (v & a) == (b & a);
	case _SCMP_CMP_MIN:
	case _SCMP_CMP_MAX:
		break;
	}
	return false;
}

/* No comparison libseccomp keeps on the ABI (a MASKED_EQ without a bit it compares is none). */
static bool unconditional(const struct gen_rule *r, bool narrow)
{
	uint64_t width = narrow ? 0xffffffffULL : UINT64_MAX;
	for (unsigned k = 0; k < r->n; k++)
		if (r->cmp[k].op != SCMP_CMP_MASKED_EQ || (r->cmp[k].datum_a & width) != 0)
			return false;
	return true;
}

static uint32_t meaning(const struct filter_desc *f, uint32_t token, size_t pool_index,
			const uint64_t *args)
{
	bool present = false;
	for (size_t i = 0; i < 3 && f->set[i] != 0; i++)
		present |= f->set[i] == token;
	if (!present)
		return f->badarch;
	bool narrow = token == SCMP_ARCH_X86 || token == SCMP_ARCH_ARM || token == SCMP_ARCH_X32;
	for (size_t i = 0; i < f->nrules; i++) {
		const struct gen_rule *r = &f->rules[i];
		if (r->rc == 0 && r->pool_index == pool_index && unconditional(r, narrow))
			return r->action;
	}
	for (size_t i = 0; i < f->nrules; i++) {
		const struct gen_rule *r = &f->rules[i];
		if (r->rc != 0 || r->pool_index != pool_index)
			continue;
		bool all = true;
		for (unsigned k = 0; k < r->n && all; k++)
			all = cmp_holds(&r->cmp[k], args, narrow);
		if (all)
			return r->action;
	}
	return f->def;
}

static void probe_filter(const struct scg_prog *prog, const struct filter_desc *f)
{
	const struct gen_rule *rules = f->rules;
	size_t nrules = f->nrules;
	static const uint32_t probe_arches[] = { SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32,
						 SCMP_ARCH_AARCH64, SCMP_ARCH_ARM };
	for (size_t i = 0; i < nrules; i++) {
		printf("\n  rule %d %#x", rules[i].sys, rules[i].action);
		for (unsigned k = 0; k < rules[i].n; k++)
			printf(" a%u/%d/%#" PRIx64 "/%#" PRIx64, rules[i].cmp[k].arg, rules[i].cmp[k].op,
			       rules[i].cmp[k].datum_a, rules[i].cmp[k].datum_b);
	}
	for (size_t a = 0; a < N(probe_arches); a++) {
		for (size_t s = 0; s < N(pool); s++) {
			int nr = seccomp_syscall_resolve_name_arch(probe_arches[a], pool[s]);
			if (nr < 0)
				continue;
			struct scg_seccomp_data d = { .nr = (uint32_t)nr };
			/* x32 calls reach the filter as x86_64 ones with bit 30 set. */
			d.arch = probe_arches[a] == SCMP_ARCH_X32 ? SCMP_ARCH_X86_64 : probe_arches[a];
			uint32_t out[6], want[6];
			for (int k = 0; k < 6; k++) {
				/* Values near the rules' data, on every argument. */
				for (unsigned i = 0; i < 6; i++) {
					const struct gen_rule *r = &rules[rnd((uint32_t)nrules)];
					d.args[i] = r->n ? r->cmp[rnd(r->n)].datum_a : pick_datum();
					if (rnd(3) == 0)
						d.args[i] += rnd(3) - 1;
					if (rnd(4) == 0)
						d.args[i] = pick_datum();
				}
				if (scg_emu_run(prog, &d, &out[k], NULL, NULL, NULL) < 0)
					out[k] = 0xdeadbeef;
				want[k] = meaning(f, probe_arches[a], s, d.args);
			}
			printf("\n  %#x %s:", probe_arches[a], pool[s]);
			for (int k = 0; k < 6; k++)
				printf(" %x", out[k]);
			printf(" |");
			for (int k = 0; k < 6; k++)
				printf(" %x", want[k]);
		}
	}
	printf("\n");
}

static void export_and_probe(scmp_filter_ctx c, const struct filter_desc *f)
{
	int fd = memfd_create("filter", 0);
	int rc = seccomp_export_bpf(c, fd);
	printf(" export %d", rc);
	off_t size = lseek(fd, 0, SEEK_END);
	struct scg_prog prog = { 0 };
	if (rc == 0 && size > 0) {
		void *buf = malloc((size_t)size);
		if (buf != NULL && pread(fd, buf, (size_t)size, 0) == size &&
		    scg_prog_from_raw(buf, (size_t)size, "filter", &prog, NULL) == 0) {
			probe_filter(&prog, f);
			scg_prog_release(&prog);
		} else {
			printf(" unreadable\n");
		}
		free(buf);
	} else {
		printf("\n");
	}
	close(fd);
}

static void one_rule_set(unsigned index)
{
	uint32_t def = actions[rnd(N(actions))];
	const uint32_t *set = arch_sets[rnd(N(arch_sets))];
	scmp_filter_ctx c = seccomp_init(def);
	printf("set %u:", index);
	setup_arches(c, set);
	/* One action per syscall for its conditional rules; unconditional rules any. */
	uint32_t sys_action[N(pool)];
	for (size_t i = 0; i < N(pool); i++)
		sys_action[i] = actions[rnd(N(actions))];
	struct gen_rule rules[10];
	size_t nrules = 1 + rnd(10);
	for (size_t i = 0; i < nrules; i++) {
		struct gen_rule *r = &rules[i];
		size_t s = rnd(N(pool));
		r->sys = seccomp_syscall_resolve_name(pool[s]);
		gen_cmps(r);
		r->action = r->n == 0 ? actions[rnd(N(actions))] : sys_action[s];
		r->pool_index = s;
		r->rc = seccomp_rule_add_array(c, r->action, r->sys, r->n, r->cmp);
		printf(" %d", r->rc);
	}
	if (rnd(4) == 0)
		printf(" opt %d", seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2));
	struct filter_desc f = { def, SCMP_ACT_KILL, set, rules, nrules };
	if (rnd(4) == 0) {
		int rc = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(99));
		printf(" badarch %d", rc);
		if (rc == 0)
			f.badarch = SCMP_ACT_ERRNO(99);
	}
	export_and_probe(c, &f);
	seccomp_release(c);
}

/* --- overlapping rules of different actions ------------------------------------
 * Rules on three syscalls, each with one or two comparisons on arguments 0-2
 * from a small pool of data and any action, so that rules of different
 * actions often match the same calls, neither holding the other.  What the
 * rules mean is then no longer one answer (libseccomp's tree decides), so
 * these lines carry the filter's verdict on each call with the actions of
 * the accepted rules it matches: "  ov ARCH NAME: v=a,a v= ...".
 * tests/test_compat_diff.c requires syscage's verdict to be libseccomp's or
 * a stricter one, unless libseccomp's is none of those actions. */

static const uint64_t overlap_data[] = { 0, 1, 2, 5, 0x80000000ULL, 0x100000000ULL,
					 UINT64_MAX };

static void gen_overlap_rule(struct gen_rule *r)
{
	unsigned used = 0;
	r->n = 1 + rnd(2);
	for (unsigned i = 0; i < r->n; i++) {
		unsigned arg;
		do
			arg = rnd(3);
		while (used & (1U << arg));
		used |= 1U << arg;
		enum scmp_compare op = (enum scmp_compare)(1 + rnd(7));
		uint64_t a = overlap_data[rnd(N(overlap_data))];
		uint64_t b = overlap_data[rnd(N(overlap_data))];
		if (op == SCMP_CMP_MASKED_EQ && rnd(2) == 0) {
			a = 1ULL << rnd(3); /* a flag test, as O_WRONLY */
			b = rnd(2) ? a : 0;
		}
		r->cmp[i] = (struct scmp_arg_cmp){ arg, op, a, b };
	}
	r->action = actions[rnd(N(actions))];
}

/* --- libseccomp's rule tree as it prints it -----------------------------------------
 * libseccomp's pseudo filter code (seccomp_export_pfc) is printed from its rule
 * tree, not from the BPF it generates, so running it on a call gives the verdict
 * the tree means: an oracle for the drop-in's reading of the tree that does not
 * go through libseccomp's BPF generator (whose program departs from its own
 * tree on some calls).  Only libseccomp's text is read: the drop-in prints
 * its policy instead. */

struct pfc_line {
	int indent;
	int x32; /* an x86_64 ABI's "$arch" test: 1 for x32's block, -1 for x86_64's */
	char text[160];
};

struct pfc {
	struct pfc_line *v;
	size_t n;
};

static void pfc_read(scmp_filter_ctx c, struct pfc *out)
{
	memset(out, 0, sizeof(*out));
	FILE *f = tmpfile();
	if (f == NULL || seccomp_export_pfc(c, fileno(f)) != 0) {
		if (f != NULL)
			fclose(f);
		return;
	}
	rewind(f);
	char line[256];
	size_t cap = 0;
	bool libseccomps = false;
	int x32 = 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		libseccomps = libseccomps || strstr(line, "pseudo filter code start") != NULL;
		int indent = (int)strspn(line, " ");
		const char *t = line + indent;
		/* x86_64 and x32 share one $arch: each block takes its own numbers */
		if (strncmp(t, "# filter for arch ", 18) == 0)
			x32 = strncmp(t + 18, "x32 ", 4) == 0 ? 1 : strncmp(t + 18, "x86_64 ", 7) == 0 ? -1 : 0;
		if (*t == '#' || *t == '\n')
			continue;
		if (out->n == cap) {
			cap = cap ? 2 * cap : 64;
			out->v = realloc(out->v, cap * sizeof(*out->v));
		}
		struct pfc_line *l = &out->v[out->n++];
		l->indent = indent;
		l->x32 = strncmp(t, "if ($arch ", 10) == 0 ? x32 : 0;
		snprintf(l->text, sizeof(l->text), "%.*s", (int)strcspn(t, "\n"), t);
	}
	fclose(f);
	if (!libseccomps) {
		free(out->v);
		memset(out, 0, sizeof(*out));
	}
}

/* The value a condition's left side names, as one word: 32-bit ABIs print $aN. */
static uint64_t pfc_operand(const char *name, const struct scg_seccomp_data *d)
{
	unsigned arg;
	char half[8] = "";
	if (strcmp(name, "$arch") == 0)
		return d->arch;
	if (strcmp(name, "$syscall") == 0)
		return d->nr;
	if (sscanf(name, "$a%u.%7s", &arg, half) >= 1 && arg < 6) {
		if (strcmp(half, "hi32") == 0)
			return d->args[arg] >> 32;
		return d->args[arg] & 0xffffffffULL;
	}
	fprintf(stderr, "diff driver: unknown pseudo filter operand %s\n", name);
	exit(3);
}

/* "if (A op V)" or "if (A & M == V)". */
static bool pfc_holds(const struct pfc_line *l, const struct scg_seccomp_data *d)
{
	const char *text = l->text;
	if (l->x32 != 0 && ((d->nr & 0x40000000U) != 0) != (l->x32 > 0))
		return false;
	char name[32], op[3];
	unsigned long long mask, value;
	if (sscanf(text, "if (%31s & %llx == %llu)", name, &mask, &value) == 3)
		return (pfc_operand(name, d) & mask) == value;
	if (sscanf(text, "if (%31s %2s %llu)", name, op, &value) == 3) {
		uint64_t x = pfc_operand(name, d);
		if (strcmp(op, "==") == 0)
			return x == value;
		if (strcmp(op, ">") == 0)
			return x > value;
		if (strcmp(op, ">=") == 0)
			return x >= value;
	}
	fprintf(stderr, "diff driver: unknown pseudo filter line %s\n", text);
	exit(3);
}

/* An action as libseccomp's pseudo filter code names it ("ERRNO(1);"). */
static uint32_t pfc_action(const char *name)
{
	static const struct {
		const char *name;
		uint32_t action;
	} fixed[] = { { "KILL_PROCESS;", SCMP_ACT_KILL_PROCESS }, { "KILL;", SCMP_ACT_KILL_THREAD },
		      { "TRAP;", SCMP_ACT_TRAP },		  { "LOG;", SCMP_ACT_LOG },
		      { "ALLOW;", SCMP_ACT_ALLOW },		  { "NOTIFY;", SCMP_ACT_NOTIFY } };
	unsigned data;
	for (size_t i = 0; i < N(fixed); i++)
		if (strcmp(name, fixed[i].name) == 0)
			return fixed[i].action;
	if (sscanf(name, "ERRNO(%u);", &data) == 1)
		return SCMP_ACT_ERRNO(data);
	if (sscanf(name, "TRACE(%u);", &data) == 1)
		return SCMP_ACT_TRACE(data);
	fprintf(stderr, "diff driver: unknown pseudo filter action %s\n", name);
	exit(3);
}

/* The end of the block that starts at @i with @indent. */
static size_t pfc_skip(const struct pfc *p, size_t i, int indent)
{
	while (i < p->n && p->v[i].indent >= indent)
		i++;
	return i;
}

/* Runs the block at @i (lines of @indent): true with the action when one is
 * reached, false when the call falls out of it. */
static bool pfc_run(const struct pfc *p, size_t i, int indent, const struct scg_seccomp_data *d,
		    uint32_t *action)
{
	while (i < p->n && p->v[i].indent == indent) {
		const char *t = p->v[i].text;
		if (strncmp(t, "action ", 7) == 0) {
			*action = pfc_action(t + 7);
			return true;
		}
		if (strncmp(t, "if (", 4) != 0) {
			fprintf(stderr, "diff driver: unknown pseudo filter line %s\n", t);
			exit(3);
		}
		bool holds = pfc_holds(&p->v[i], d);
		size_t then_end = pfc_skip(p, i + 1, indent + 2);
		bool has_else = then_end < p->n && p->v[then_end].indent == indent &&
				strcmp(p->v[then_end].text, "else") == 0;
		size_t else_end = has_else ? pfc_skip(p, then_end + 1, indent + 2) : then_end;
		if (holds && pfc_run(p, i + 1, indent + 2, d, action))
			return true;
		if (!holds && has_else && pfc_run(p, then_end + 1, indent + 2, d, action))
			return true;
		i = else_end;
	}
	return false;
}

static void probe_overlaps(const struct scg_prog *prog, const struct pfc *tree,
			   const struct gen_rule *rules, size_t nrules, const uint32_t *set)
{
	for (size_t a = 0; a < 3 && set[a] != 0; a++) {
		for (size_t s = 0; s < 3; s++) {
			int nr = seccomp_syscall_resolve_name_arch(set[a], pool[s]);
			if (nr < 0)
				continue;
			struct scg_seccomp_data d = { .nr = (uint32_t)nr };
			d.arch = set[a] == SCMP_ARCH_X32 ? SCMP_ARCH_X86_64 : set[a];
			printf("  ov %#x %s:", set[a], pool[s]);
			for (int k = 0; k < 16; k++) {
				for (unsigned i = 0; i < 6; i++) {
					const struct gen_rule *r = &rules[rnd((uint32_t)nrules)];
					const struct scmp_arg_cmp *c = &r->cmp[rnd(r->n)];
					d.args[i] = rnd(2) ? c->datum_a : c->datum_b;
					if (rnd(3) == 0)
						d.args[i] += rnd(3) - 1;
					if (rnd(4) == 0)
						d.args[i] = overlap_data[rnd(N(overlap_data))];
					if (rnd(4) == 0)
						d.args[i] |= 1ULL << rnd(3);
				}
				uint32_t out, meant;
				if (scg_emu_run(prog, &d, &out, NULL, NULL, NULL) < 0)
					out = 0xdeadbeef;
				if (tree->n > 0 && !pfc_run(tree, 0, 0, &d, &meant))
					meant = 0xdeadbeef;
				if (tree->n > 0 && meant != out)
					printf(" %x~%x=", out, meant);
				else
					printf(" %x=", out);
				/* The actions of the accepted rules this call matches. */
				bool narrow = set[a] == SCMP_ARCH_X86 || set[a] == SCMP_ARCH_ARM ||
					      set[a] == SCMP_ARCH_X32;
				const char *sep = "";
				for (size_t i = 0; i < nrules; i++) {
					const struct gen_rule *r = &rules[i];
					bool all = r->rc == 0 && r->pool_index == s;
					for (unsigned j = 0; j < r->n && all; j++)
						all = cmp_holds(&r->cmp[j], d.args, narrow);
					if (all) {
						printf("%s%x", sep, r->action);
						sep = ",";
					}
				}
			}
			printf("\n");
		}
	}
}

static void one_overlap_set(unsigned index)
{
	uint32_t def = actions[rnd(N(actions))];
	const uint32_t *set = arch_sets[rnd(N(arch_sets))];
	scmp_filter_ctx c = seccomp_init(def);
	printf("overlap %u default %x:", index, def);
	setup_arches(c, set);
	struct gen_rule rules[8];
	size_t nrules = 2 + rnd(7);
	for (size_t i = 0; i < nrules; i++) {
		struct gen_rule *r = &rules[i];
		r->pool_index = rnd(3);
		r->sys = seccomp_syscall_resolve_name(pool[r->pool_index]);
		gen_overlap_rule(r);
		r->rc = seccomp_rule_add_array(c, r->action, r->sys, r->n, r->cmp);
		printf(" %d", r->rc);
	}
	struct scg_prog prog = { 0 };
	bool big_endian = false;
	int rc = exported(c, big_endian, &prog);
	printf(" export %d\n", rc);
	for (size_t i = 0; i < nrules; i++) {
		printf("  rule %d %#x", rules[i].sys, rules[i].action);
		for (unsigned k = 0; k < rules[i].n; k++)
			printf(" a%u/%d/%#" PRIx64 "/%#" PRIx64, rules[i].cmp[k].arg, rules[i].cmp[k].op,
			       rules[i].cmp[k].datum_a, rules[i].cmp[k].datum_b);
		printf("\n");
	}
	if (rc == 0) {
		struct pfc tree;
		pfc_read(c, &tree);
		probe_overlaps(&prog, &tree, rules, nrules, set);
		free(tree.v);
		scg_prog_release(&prog);
	}
	seccomp_release(c);
}

/* --- resolvers ---------------------------------------------------------------------
 * Every resolver entry point over libseccomp 2.5's ABIs, every name either
 * library knows (libseccomp's header HEADER, default the system's, and
 * syscage's tables) and every number of each ABI's range, with and without
 * its base, pseudo numbers included.  Lines:
 *   abi NAME: TOKEN
 *   name TOKEN NAME: resolve_name_arch resolve_name_rewrite
 *   num TOKEN NUM: resolve_num_arch (or -)
 * tests/test_compat_diff.c compares them; docs/libseccomp.md lists the
 * allowed differences. */

static const char *const resolver_abis[] = {
	"x86",	      "x86_64",	   "x32",	   "arm",      "aarch64",  "mips",  "mipsel",
	"mips64",     "mipsel64",  "mips64n32", "mipsel64n32", "ppc", "ppc64", "ppc64le",
	"s390",	      "s390x",	   "parisc",	   "parisc64", "riscv64",
};

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of @header's __SNR_ and __PNR_ macros and of syscage's tables, sorted, unique. */
static size_t resolver_names(const char *header, char ***out)
{
	size_t n = 0, cap = 4096;
	char **v = malloc(cap * sizeof(*v));
	FILE *f = fopen(header, "r");
	char line[512], name[128];
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if ((sscanf(line, "#define __SNR_%127[A-Za-z0-9_]", name) == 1 ||
		     sscanf(line, "#define __PNR_%127[A-Za-z0-9_]", name) == 1) &&
		    n < cap)
			v[n++] = strdup(name);
	if (f != NULL)
		fclose(f);
	for (size_t a = 0; a < scg_arch_count(); a++) {
		const struct scg_arch *arch = scg_arch_at(a);
		for (size_t i = 0; i < scg_syscall_count(arch) && n < cap; i++) {
			const char *nm;
			uint32_t nr;
			if (scg_syscall_at(arch, i, &nm, &nr) == 0)
				v[n++] = strdup(nm);
		}
	}
	qsort(v, n, sizeof(*v), by_string);
	size_t u = 0;
	for (size_t i = 0; i < n; i++) {
		if (u > 0 && strcmp(v[u - 1], v[i]) == 0) {
			free(v[i]);
			continue;
		}
		v[u++] = v[i];
	}
	*out = v;
	return u;
}

static void resolve_num_line(uint32_t token, int num)
{
	char *name = seccomp_syscall_resolve_num_arch(token, num);
	printf("num %#x %d: %s\n", token, num, name != NULL ? name : "-");
	free(name);
}

static void resolvers(const char *header)
{
	char **names;
	size_t nnames = resolver_names(header, &names);
	printf("names %zu\n", nnames);
	for (size_t a = 0; a < N(resolver_abis); a++) {
		uint32_t token = seccomp_arch_resolve_name(resolver_abis[a]);
		printf("abi %s: %#x\n", resolver_abis[a], token);
		if (token == 0)
			continue;
		for (size_t i = 0; i < nnames; i++)
			printf("name %#x %s: %d %d\n", token, names[i],
			       seccomp_syscall_resolve_name_arch(token, names[i]),
			       seccomp_syscall_resolve_name_rewrite(token, names[i]));
		/* Numbers with and without the base (MIPS 4000/5000/6000, x32's bit 30),
		 * ARM's private ones, and the pseudo numbers of both libraries. */
		static const int bases[] = { 0, 4000, 5000, 6000, 0x40000000, 0xf0000 };
		for (size_t b = 0; b < N(bases); b++)
			for (int k = 0; k < 1100; k++)
				resolve_num_line(token, bases[b] + k);
		for (int k = -1; k >= -300; k--)
			resolve_num_line(token, k);
		for (int k = -10000; k >= -10300; k--)
			resolve_num_line(token, k);
		for (int k = -30001; k >= -30150; k--)
			resolve_num_line(token, k);
	}
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
}

/* Built twice, each time against one library's header: the loaded one must be that library. */
static void require_own_library(void)
{
	const struct scmp_version *v = seccomp_version();
	if (v->major == SCMP_VER_MAJOR && v->minor == SCMP_VER_MINOR && v->micro == SCMP_VER_MICRO)
		return;
	fprintf(stderr, "diff_driver: loaded libseccomp %u.%u.%u, built against %d.%d.%d\n",
		v->major, v->minor, v->micro, SCMP_VER_MAJOR, SCMP_VER_MINOR, SCMP_VER_MICRO);
	exit(2);
}

int main(int argc, char **argv)
{
	require_own_library();
	if (argc > 1 && strcmp(argv[1], "resolve") == 0) {
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		resolvers(argc > 2 ? argv[2] : "/usr/include/seccomp-syscalls.h");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "overlap") == 0) {
		unsigned sets = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1000;
		rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x0f1aULL;
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
		for (unsigned i = 0; i < sets; i++)
			one_overlap_set(i);
		return 0;
	}
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2000;
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eccULL;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	return_codes();
	multiplexed_calls();
	vanishing_comparisons();
	numbers();
	api_levels();
	byte_order();
	nested_ranges();
	for (unsigned i = 0; i < sets; i++)
		one_rule_set(i);
	return 0;
}
