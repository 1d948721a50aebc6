/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The syscall decoder: calls print as strace prints them, and every
 * decoded value reads back through the policy language to the value
 * passed, on every ABI the parameter table applies to.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <syscage/decode.h>
#include <syscage/syscage.h>

static const struct scg_arch *abi(const char *name)
{
	const struct scg_arch *a = scg_arch_lookup(name);
	assert_non_null(a);
	return a;
}

static void expect_call(const char *arch, const char *syscall, const uint64_t args[6],
			const char *want)
{
	const struct scg_arch *a = abi(arch);
	uint32_t nr;
	assert_int_equal(scg_syscall_lookup(a, syscall, &nr), 0);
	char buf[512];
	int n = scg_call_format(a, nr, args, NULL, buf, sizeof(buf), NULL);
	if (strcmp(buf, want))
		fail_msg("%s on %s:\n  got  %s\n  want %s", syscall, arch, buf, want);
	assert_int_equal(n, (int)strlen(want));
}

#define ARGS(...) ((const uint64_t[6]){ __VA_ARGS__ })

static void test_common_denials(void **state)
{
	(void)state;
	expect_call("x86_64", "unshare", ARGS(0x10000000), "unshare(CLONE_NEWUSER)");
	expect_call("x86_64", "unshare", ARGS(0x20004), "unshare(CLONE_NEWNS|0x4)");
	/* unshare's flags are an int: CLONE_CLEAR_SIGHAND (1 << 32) is none of its values */
	expect_call("x86_64", "unshare", ARGS(0), "unshare(0)");
	expect_call("x86_64", "socket", ARGS(2, 1, 6), "socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)");
	expect_call("x86_64", "socket", ARGS(10, 0x80802, 17),
		    "socket(AF_INET6, SOCK_DGRAM|SOCK_NONBLOCK|SOCK_CLOEXEC, IPPROTO_UDP)");
	/* a protocol is an IPPROTO_* only for the internet families */
	expect_call("x86_64", "socket", ARGS(16, 3, 0), "socket(AF_NETLINK, SOCK_RAW, 0)");
	expect_call("x86_64", "ioctl", ARGS(0, 21505, 0x7ffd0000), "ioctl(0, TCGETS, 0x7ffd0000)");
	expect_call("x86_64", "ioctl", ARGS(3, 0x1268, 0), "ioctl(3, BLKSSZGET, 0)");
	expect_call("x86_64", "ioctl", ARGS(4, 0x8913, 0), "ioctl(4, SIOCGIFFLAGS, 0)");
	expect_call("x86_64", "ptrace", ARGS(16902, 1, 0, 0),
		    "ptrace(PTRACE_SEIZE, 1, NULL, NULL)");
	expect_call("x86_64", "statx", ARGS((uint64_t)-100, 0, 2304, 606, 0x1000),
		    "statx(AT_FDCWD, NULL, AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW|"
		    "AT_NO_AUTOMOUNT, STATX_MODE|STATX_NLINK|STATX_UID|STATX_GID|STATX_MTIME|"
		    "STATX_SIZE, 0x1000)");
	expect_call("x86_64", "clone", ARGS(0x1200011, 0, 0),
		    "clone(CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, NULL, NULL)");
	expect_call("x86_64", "mount", ARGS(0, 0, 0, 0xc0ed4003, 0),
		    "mount(NULL, NULL, NULL, MS_RDONLY|MS_NOSUID|MS_REC|MS_MGC_VAL, NULL)");
	expect_call("x86_64", "mmap", ARGS(0, 4096, 5, 0x812, 3, 0),
		    "mmap(NULL, 4096, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0)");
	expect_call("x86_64", "mprotect", ARGS(0x1000, 4096, 0), "mprotect(0x1000, 4096, PROT_NONE)");
	expect_call("x86_64", "prctl", ARGS(38, 1, 0, 0, 0),
		    "prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)");
	expect_call("x86_64", "fcntl", ARGS(3, 1030, 0), "fcntl(3, F_DUPFD_CLOEXEC, 0)");
	expect_call("x86_64", "keyctl", ARGS(1, 0, 0, 0, 0),
		    "keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0)");
	expect_call("x86_64", "bpf", ARGS(5, 0x5000, 144), "bpf(BPF_PROG_LOAD, 0x5000, 144)");
	expect_call("x86_64", "personality", ARGS(0x20008), "personality(PER_LINUX32|UNAME26)");
	expect_call("x86_64", "personality", ARGS(0xffffffff), "personality(0xffffffff)");
	expect_call("x86_64", "setns", ARGS(3, 0x40000000), "setns(3, CLONE_NEWNET)");
	expect_call("x86_64", "openat", ARGS((uint64_t)-100, 0, 0x80241, 0644),
		    "openat(AT_FDCWD, NULL, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0644)");
	expect_call("x86_64", "openat", ARGS(5, 0, 0x101000, 0),
		    "openat(5, NULL, O_RDONLY|O_SYNC, 0)");
	expect_call("x86_64", "futex", ARGS(0x1000, 128, 1, 0, 0, 0),
		    "futex(0x1000, FUTEX_WAIT|FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0)");
	expect_call("x86_64", "kill", ARGS(1, 9), "kill(1, SIGKILL)");
	expect_call("x86_64", "unlinkat", ARGS(3, 0, 0x200), "unlinkat(3, NULL, AT_REMOVEDIR)");
	/* limits, descriptors, timers, waits, sockets' levels, reboot's magic */
	expect_call("x86_64", "prlimit64", ARGS(0, 7, 0, 0x1000),
		    "prlimit64(0, RLIMIT_NOFILE, NULL, 0x1000)");
	expect_call("x86_64", "epoll_ctl", ARGS(3, 1, 4, 0x1000), "epoll_ctl(3, EPOLL_CTL_ADD, 4, 0x1000)");
	expect_call("x86_64", "access", ARGS(0, 6), "access(NULL, W_OK|R_OK)");
	expect_call("x86_64", "access", ARGS(0, 0), "access(NULL, F_OK)");
	expect_call("x86_64", "wait4", ARGS((uint64_t)-1, 0, 0x40000001, 0),
		    "wait4(-1, NULL, WNOHANG|__WALL, NULL)");
	expect_call("x86_64", "waitid", ARGS(1, 5, 0, 4), "waitid(P_PID, 5, NULL, WEXITED)");
	expect_call("x86_64", "arch_prctl", ARGS(0x1002, 0x1000), "arch_prctl(ARCH_SET_FS, 4096)");
	expect_call("x86_64", "setitimer", ARGS(0, 0, 0), "setitimer(ITIMER_REAL, NULL, NULL)");
	/* an option's name is that of its level's family */
	expect_call("x86_64", "setsockopt", ARGS(3, 1, 2, 0x1000, 4),
		    "setsockopt(3, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4)");
	expect_call("x86_64", "setsockopt", ARGS(3, 6, 1, 0x1000, 4),
		    "setsockopt(3, IPPROTO_TCP, TCP_NODELAY, 0x1000, 4)");
	expect_call("x86_64", "setsockopt", ARGS(3, 0, 1, 0x1000, 4),
		    "setsockopt(3, IPPROTO_IP, IP_TOS, 0x1000, 4)");
	expect_call("x86_64", "setsockopt", ARGS(3, 41, 26, 0x1000, 4),
		    "setsockopt(3, IPPROTO_IPV6, IPV6_V6ONLY, 0x1000, 4)");
	expect_call("x86_64", "getsockopt", ARGS(3, 1, 4, 0x1000, 0x2000),
		    "getsockopt(3, SOL_SOCKET, SO_ERROR, 0x1000, 0x2000)");
	/* a level without a family here, or an option without a name: the number */
	expect_call("x86_64", "setsockopt", ARGS(3, 17, 1, 0x1000, 4),
		    "setsockopt(3, IPPROTO_UDP, 1, 0x1000, 4)");
	expect_call("x86_64", "setsockopt", ARGS(3, 6, 999, 0x1000, 4),
		    "setsockopt(3, IPPROTO_TCP, 999, 0x1000, 4)");
	/* alone, without its level, an option has no name */
	char text[64];
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	assert_non_null(x86_64);
	scg_arg_format(x86_64, "setsockopt", 2, 2, text, sizeof(text));
	assert_string_equal(text, "2");
	expect_call("x86_64", "fadvise64", ARGS(3, 0, 0, 4), "fadvise64(3, 0, 0, POSIX_FADV_DONTNEED)");
	/* System V IPC: flags then permission bits in octal; commands, with IPC_64 when OR-ed in */
	expect_call("x86_64", "shmget", ARGS(0x5432, 0x38000, 0x780),
		    "shmget(21554, 0x38000, IPC_CREAT|IPC_EXCL|0600)");
	expect_call("x86_64", "shmget", ARGS(0, 4096, 0x1b80),
		    "shmget(0, 4096, IPC_CREAT|SHM_HUGETLB|SHM_NORESERVE|0600)");
	expect_call("x86_64", "shmget", ARGS(0, 4096, 0x1a4), "shmget(0, 4096, 0644)");
	expect_call("x86_64", "shmget", ARGS(0, 4096, 0), "shmget(0, 4096, 0)");
	expect_call("x86_64", "shmget", ARGS(0, 4096, 0x42380), "shmget(0, 4096, IPC_CREAT|0x42000|0600)");
	expect_call("x86_64", "msgget", ARGS(0, 0xb80), "msgget(0, IPC_CREAT|0x800|0600)");
	expect_call("x86_64", "semget", ARGS(0, 1, 0x780), "semget(0, 1, IPC_CREAT|IPC_EXCL|0600)");
	expect_call("x86_64", "shmat", ARGS(3, 0, 0x5000), "shmat(3, NULL, SHM_RDONLY|SHM_REMAP)");
	expect_call("x86_64", "msgsnd", ARGS(3, 0x1000, 8, 0x800), "msgsnd(3, 0x1000, 8, IPC_NOWAIT)");
	expect_call("x86_64", "msgrcv", ARGS(3, 0x1000, 8, 0, 0x3800),
		    "msgrcv(3, 0x1000, 8, 0, IPC_NOWAIT|MSG_NOERROR|MSG_EXCEPT)");
	expect_call("x86_64", "shmctl", ARGS(3, 0, 0), "shmctl(3, IPC_RMID, NULL)");
	expect_call("x86_64", "shmctl", ARGS(3, 11, 0), "shmctl(3, SHM_LOCK, NULL)");
	expect_call("arm", "shmctl", ARGS(3, 0x102, 0x1000), "shmctl(3, IPC_STAT|IPC_64, 0x1000)");
	expect_call("x86_64", "msgctl", ARGS(3, 11, 0), "msgctl(3, MSG_STAT, NULL)");
	expect_call("x86_64", "msgctl", ARGS(3, 14, 0), "msgctl(3, 0xe, NULL)");
	expect_call("x86_64", "semctl", ARGS(3, 0, 16), "semctl(3, 0, SETVAL)");
	expect_call("x86_64", "semctl", ARGS(3, 0, 0x110), "semctl(3, 0, SETVAL|IPC_64)");
	expect_call("x86_64", "semctl", ARGS(3, 0, 19), "semctl(3, 0, SEM_INFO)");
	expect_call("x86_64", "sync_file_range", ARGS(3, 0, 0, 7),
		    "sync_file_range(3, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|"
		    "SYNC_FILE_RANGE_WAIT_AFTER)");
	/* ARM and PowerPC's sync_file_range2 takes the flags second */
	expect_call("ppc64le", "sync_file_range2", ARGS(3, 2, 0, 4096),
		    "sync_file_range2(3, SYNC_FILE_RANGE_WRITE, 0, 4096)");
	/* MSG_STAT is a command and MSG_NOERROR a msgrcv flag, never a socket message flag */
	expect_call("x86_64", "sendto", ARGS(3, 0, 0, 0xb, 0, 0),
		    "sendto(3, NULL, 0, MSG_OOB|MSG_PEEK|MSG_CTRUNC, NULL, 0)");
	expect_call("x86_64", "sendto", ARGS(3, 0, 0, 0x1000, 0, 0),
		    "sendto(3, NULL, 0, MSG_RST, NULL, 0)");
	expect_call("x86_64", "reboot", ARGS(0xfee1dead, 0x28121969, 0x4321fedc, 0),
		    "reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_POWER_OFF, NULL)");
}

/* A parameter named mode that is a pointer is a pointer: never octal, never cut. */
static void test_types_not_names(void **state)
{
	(void)state;
	expect_call("x86_64", "get_mempolicy", ARGS(0x7ffd12345678, 0, 0, 0, 0),
		    "get_mempolicy(0x7ffd12345678, NULL, 0, NULL, 0)");
	expect_call("x86_64", "read", ARGS(3, 0x7ffd12345678, 0x123456789a),
		    "read(3, 0x7ffd12345678, 0x123456789a)");
	expect_call("x86_64", "lseek", ARGS(3, (uint64_t)-2, 2), "lseek(3, -2, SEEK_END)");
	expect_call("x86_64", "chmod", ARGS(0, 04755), "chmod(NULL, 04755)");
	expect_call("x86_64", "kill", ARGS(UINT64_C(0xffffffff00000001), 0), "kill(1, 0)");
	/* 32-bit ABIs: registers are 32 bits wide */
	expect_call("x86", "socket", ARGS(1, 0x80001, 0), "socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0)");
}

/* Values per ABI come from the language's tables: MIPS swaps STREAM and DGRAM. */
static void test_per_abi(void **state)
{
	(void)state;
	expect_call("mips", "socket", ARGS(2, 2, 6), "socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)");
	expect_call("mips", "prlimit64", ARGS(0, 5, 0, 0), "prlimit64(0, RLIMIT_NOFILE, NULL, NULL)");
	/* MIPS and PowerPC number some socket options apart */
	expect_call("mips", "setsockopt", ARGS(3, 0xffff, 2, 0, 0), "setsockopt(3, SOL_SOCKET, 2, NULL, 0)");
	expect_call("mips", "setsockopt", ARGS(3, 0xffff, 4, 0, 0),
		    "setsockopt(3, SOL_SOCKET, SO_REUSEADDR, NULL, 0)");
	expect_call("mips", "getsockopt", ARGS(3, 0xffff, 0x1007, 0, 0),
		    "getsockopt(3, SOL_SOCKET, SO_ERROR, NULL, NULL)");
	expect_call("ppc64le", "setsockopt", ARGS(3, 1, 16, 0, 0),
		    "setsockopt(3, SOL_SOCKET, SO_RCVLOWAT, NULL, 0)");
	expect_call("x86_64", "setsockopt", ARGS(3, 1, 16, 0, 0),
		    "setsockopt(3, SOL_SOCKET, SO_PASSCRED, NULL, 0)");
	/* s390x numbers two of fadvise's advice apart from every other ABI */
	expect_call("s390x", "fadvise64", ARGS(3, 0, 0, 6), "fadvise64(3, 0, 0, POSIX_FADV_DONTNEED)");
	expect_call("s390x", "fadvise64", ARGS(3, 0, 0, 4), "fadvise64(3, 0, 0, 4)");
	expect_call("aarch64", "fadvise64", ARGS(3, 0, 0, 4), "fadvise64(3, 0, 0, POSIX_FADV_DONTNEED)");
	expect_call("ppc64le", "ioctl", ARGS(0, 0x402c7413, 0), "ioctl(0, TCGETS, 0)");
	expect_call("mipsel", "ioctl", ARGS(0, 0x20001268, 0), "ioctl(0, BLKSSZGET, 0)");
}

static void test_unknown_and_cut(void **state)
{
	(void)state;
	char buf[16];
	const uint64_t args[6] = { 1, 2, 3, 4, 5, 6 };
	int n = scg_call_format(abi("x86_64"), 0x3fff, args, NULL, buf, sizeof(buf), NULL);
	assert_string_equal(buf, "syscall_0x3fff(");
	assert_true(n > (int)sizeof(buf));
	char full[128];
	assert_int_equal(scg_call_format(abi("x86_64"), 0x3fff, args, NULL, full, sizeof(full), NULL),
			 n);
	assert_string_equal(full, "syscall_0x3fff(0x1, 0x2, 0x3, 0x4, 0x5, 0x6)");
}

/* Fake program memory: one string and a struct clone_args at fixed addresses. */
#define STRING_AT 0x1000
#define CLONE_ARGS_AT 0x2000

static ssize_t fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr != CLONE_ARGS_AT || len < 8)
		return -EFAULT;
	uint64_t flags = 0x10020000; /* CLONE_NEWUSER|CLONE_NEWNS */
	memcpy(buf, &flags, sizeof(flags));
	return 8;
}

static ssize_t fake_read_string(void *ctx, uint64_t addr, char *buf, size_t size)
{
	(void)ctx;
	if (addr != STRING_AT)
		return -EFAULT;
	snprintf(buf, size, "/etc/\"x\"\n");
	return (ssize_t)strlen(buf);
}

static uint32_t nr_of(const struct scg_arch *a, const char *name)
{
	uint32_t nr = 0;
	assert_int_equal(scg_syscall_lookup(a, name, &nr), 0);
	return nr;
}

static void test_memory(void **state)
{
	(void)state;
	const struct scg_call_memory mem = { fake_read, fake_read_string, NULL };
	const struct scg_arch *a = abi("x86_64");
	char buf[256];
	unsigned flags = 0;
	const uint64_t open_args[6] = { (uint64_t)-100, STRING_AT, 0, 0 };
	scg_call_format(a, nr_of(a, "openat"), open_args, &mem, buf,
			sizeof(buf), &flags);
	assert_string_equal(buf, "openat(AT_FDCWD, \"/etc/\\\"x\\\"\\n\", O_RDONLY, 0)");
	assert_int_equal(flags, SCG_CALL_READ_MEMORY);
	const uint64_t clone3_args[6] = { CLONE_ARGS_AT, 88 };
	scg_call_format(a, nr_of(a, "clone3"), clone3_args, &mem, buf,
			sizeof(buf), &flags);
	assert_string_equal(buf, "clone3({flags=CLONE_NEWNS|CLONE_NEWUSER, ...}, 88)");
	/* unreadable memory: the address, and no claim to have read it */
	const uint64_t bad_args[6] = { (uint64_t)-100, 0x9000, 0, 0 };
	scg_call_format(a, nr_of(a, "openat"), bad_args, &mem, buf,
			sizeof(buf), &flags);
	assert_string_equal(buf, "openat(AT_FDCWD, 0x9000, O_RDONLY, 0)");
	assert_int_equal(flags, 0);
}

/* Decoded text parses back, as a policy value, to the value decoded. */
static void check_reads_back(const struct scg_arch *a, const char *syscall, unsigned index,
			     uint64_t value)
{
	unsigned bits = scg_syscall_arg_width(a, syscall, index);
	if (!bits)
		return;
	uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	char text[512];
	scg_arg_format(a, syscall, index, value, text, sizeof(text));
	if (!strcmp(text, "NULL"))
		return;
	uint64_t back = 0;
	struct scg_diag *diag = scg_diag_new();
	assert_non_null(diag);
	int r = scg_constant_eval(text, a, &back, diag);
	scg_diag_free(diag);
	if (r != 0 || (back & mask) != (value & mask))
		fail_msg("%s arg %u = %#llx on %s printed as '%s', which reads back as %#llx (%d)",
			 syscall, index, (unsigned long long)value, scg_arch_name(a), text,
			 (unsigned long long)back, r);
}

static void test_reads_back(void **state)
{
	(void)state;
	static const struct {
		const char *syscall;
		unsigned index;
	} params[] = {
		{ "socket", 0 },   { "socket", 1 },    { "socket", 2 },	   { "ioctl", 1 },
		{ "clone", 0 },	   { "unshare", 0 },   { "ptrace", 0 },	   { "mount", 3 },
		{ "mmap", 2 },	   { "mmap", 3 },      { "mprotect", 2 },  { "prctl", 0 },
		{ "fcntl", 1 },	   { "statx", 2 },     { "statx", 3 },	   { "keyctl", 0 },
		{ "bpf", 0 },	   { "personality", 0 }, { "setns", 1 },   { "openat", 2 },
		{ "openat", 3 },   { "futex", 1 },     { "kill", 1 },	   { "lseek", 1 },
		{ "openat", 0 },   { "umount2", 1 },   { "sendto", 3 },	   { "madvise", 2 },
	};
	static const char *const arches[] = { "x86_64", "x86", "aarch64", "arm", "mips", "ppc64le",
					      "parisc", "s390x" };
	uint64_t seed = 0x9e3779b97f4a7c15;
	for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]); a++) {
		const struct scg_arch *arch = scg_arch_lookup(arches[a]);
		if (!arch)
			continue;
		for (size_t p = 0; p < sizeof(params) / sizeof(params[0]); p++) {
			for (int i = 0; i < 200; i++) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				/* small numbers, single bits, and random words */
				uint64_t v = i < 64 ? (uint64_t)i : i < 128 ? UINT64_C(1) << (i - 64) : seed;
				check_reads_back(arch, params[p].syscall, params[p].index, v);
			}
		}
	}
}

/* Every syscall of every ABI, random registers: always a terminated text of the returned length. */
static void test_every_syscall(void **state)
{
	(void)state;
	uint64_t seed = 0x2545f4914f6cdd1d;
	for (size_t a = 0; a < scg_arch_count(); a++) {
		const struct scg_arch *arch = scg_arch_at(a);
		for (size_t s = 0; s < scg_syscall_count(arch); s++) {
			const char *name;
			uint32_t nr;
			scg_syscall_at(arch, s, &name, &nr);
			uint64_t args[6];
			for (int i = 0; i < 6; i++) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				args[i] = (s + (size_t)i) % 3 ? seed : seed & 0xff;
			}
			char big[2048], small[24];
			int n = scg_call_format(arch, nr, args, NULL, big, sizeof(big), NULL);
			assert_int_equal(n, (int)strlen(big));
			assert_int_equal(strncmp(big, name, strlen(name)), 0);
			assert_int_equal(scg_call_format(arch, nr, args, NULL, small, sizeof(small), NULL), n);
			assert_true(strlen(small) < sizeof(small));
			assert_int_equal(strncmp(small, big, strlen(small)), 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_denials), cmocka_unit_test(test_types_not_names),
		cmocka_unit_test(test_per_abi),	       cmocka_unit_test(test_unknown_and_cut),
		cmocka_unit_test(test_memory),	       cmocka_unit_test(test_reads_back),
		cmocka_unit_test(test_every_syscall),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
