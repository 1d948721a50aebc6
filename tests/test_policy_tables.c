/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy language's tables: named constants (checked against this
 * host's C headers for the asm-generic column, and for coherence on every
 * ABI), syscall groups, parameter names, and the built-in profiles
 * (checked against the profiles/ files they were generated from; run from
 * the top of the source tree).
 */
#include <asm/prctl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <linux/bpf.h>
#include <linux/fs.h>
#include <linux/futex.h>
#include <linux/keyctl.h>
#include <linux/sockios.h>
#include <linux/stat.h>
#include <sys/personality.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <syscage/syscage.h>

#include "arch/syscall_params.h"
#include "lang/lang_internal.h"

#include "support/diag_print.h"

/* --- constants -------------------------------------------------------------- */

struct host_value {
	const char *name;
	uint64_t value;
};

#define H(n)                                                                                       \
	{                                                                                          \
#n, (uint64_t)(int64_t)(n)                                                         \
	}

/* Values from this host's headers; on x86 they are the asm-generic ones. */
static const struct host_value host_values[] = {
    H(AF_UNIX),
    H(AF_INET),
    H(AF_INET6),
    H(AF_NETLINK),
    H(AF_PACKET),
    H(AF_ALG),
    H(AF_VSOCK),
    H(AF_BLUETOOTH),
    H(AF_KEY),
    H(AF_XDP),
    H(AF_UNSPEC),
    H(AF_CAN),
    H(SOCK_STREAM),
    H(SOCK_DGRAM),
    H(SOCK_RAW),
    H(SOCK_SEQPACKET),
    H(SOCK_NONBLOCK),
    H(SOCK_CLOEXEC),
    H(SOL_SOCKET),
    H(MSG_DONTWAIT),
    H(MSG_NOSIGNAL),
    H(MSG_PEEK),
    H(MSG_WAITALL),
    H(MSG_CMSG_CLOEXEC),
    H(SHUT_RDWR),
    H(IPPROTO_TCP),
    H(IPPROTO_UDP),
    H(IPPROTO_RAW),
    H(IPPROTO_ICMPV6),
    H(O_RDONLY),
    H(O_WRONLY),
    H(O_RDWR),
    H(O_ACCMODE),
    H(O_CREAT),
    H(O_EXCL),
    H(O_NOCTTY),
    H(O_TRUNC),
    H(O_APPEND),
    H(O_NONBLOCK),
    H(O_NDELAY),
    H(O_DSYNC),
    H(O_ASYNC),
    H(O_DIRECT),
    H(O_DIRECTORY),
    H(O_NOFOLLOW),
    H(O_NOATIME),
    H(O_CLOEXEC),
    H(O_SYNC),
    H(O_PATH),
    H(O_TMPFILE),
    H(F_DUPFD),
    H(F_GETFD),
    H(F_SETFD),
    H(F_GETFL),
    H(F_SETFL),
    H(F_GETLK),
    H(F_SETLK),
    H(F_SETLKW),
    H(F_SETOWN),
    H(F_GETOWN),
    H(F_SETSIG),
    H(F_GETSIG),
    H(F_DUPFD_CLOEXEC),
    H(F_SETPIPE_SZ),
    H(F_ADD_SEALS),
    H(F_SEAL_WRITE),
    H(F_OFD_SETLK),
    H(F_RDLCK),
    H(F_UNLCK),
    H(FD_CLOEXEC),
    H(F_SETLEASE),
    H(F_NOTIFY),
    H(AT_FDCWD),
    H(AT_SYMLINK_NOFOLLOW),
    H(AT_REMOVEDIR),
    H(AT_EMPTY_PATH),
    H(AT_EACCESS),
    H(AT_SYMLINK_FOLLOW),
    H(AT_NO_AUTOMOUNT),
    H(SEEK_SET),
    H(SEEK_END),
    H(SEEK_HOLE),
    H(PROT_READ),
    H(PROT_WRITE),
    H(PROT_EXEC),
    H(PROT_NONE),
    H(PROT_GROWSDOWN),
    H(MAP_SHARED),
    H(MAP_PRIVATE),
    H(MAP_FIXED),
    H(MAP_ANONYMOUS),
    H(MAP_ANON),
    H(MAP_GROWSDOWN),
    H(MAP_DENYWRITE),
    H(MAP_EXECUTABLE),
    H(MAP_LOCKED),
    H(MAP_NORESERVE),
    H(MAP_POPULATE),
    H(MAP_NONBLOCK),
    H(MAP_STACK),
    H(MAP_HUGETLB),
    H(MAP_SYNC),
    H(MAP_FIXED_NOREPLACE),
    H(MAP_SHARED_VALIDATE),
    H(MADV_DONTNEED),
    H(MADV_FREE),
    H(MADV_DONTFORK),
    H(MADV_HUGEPAGE),
    H(MADV_WIPEONFORK),
    H(MADV_HWPOISON),
    H(MCL_CURRENT),
    H(MCL_FUTURE),
    H(MCL_ONFAULT),
    H(MS_ASYNC),
    H(MS_SYNC),
    H(MS_INVALIDATE),
    H(MFD_CLOEXEC),
    H(MFD_ALLOW_SEALING),
    H(MREMAP_MAYMOVE),
    H(CLONE_VM),
    H(CLONE_FS),
    H(CLONE_FILES),
    H(CLONE_SIGHAND),
    H(CLONE_PIDFD),
    H(CLONE_THREAD),
    H(CLONE_NEWNS),
    H(CLONE_NEWUSER),
    H(CLONE_NEWPID),
    H(CLONE_NEWNET),
    H(CLONE_NEWCGROUP),
    H(CLONE_SETTLS),
    H(CLONE_CHILD_CLEARTID),
    H(CLONE_IO),
    H(CLONE_NEWTIME),
    H(CSIGNAL),
    H(SCHED_FIFO),
    H(SCHED_IDLE),
    H(SCHED_BATCH),
    H(PR_SET_NO_NEW_PRIVS),
    H(PR_SET_SECCOMP),
    H(PR_GET_SECCOMP),
    H(PR_SET_NAME),
    H(PR_SET_DUMPABLE),
    H(PR_CAPBSET_DROP),
    H(PR_SET_PTRACER),
    H(PR_SET_CHILD_SUBREAPER),
    H(PR_CAP_AMBIENT),
    H(PR_SET_VMA),
    H(PR_SME_GET_VL),
    H(TCGETS),
    H(TCSETS),
    H(TCSETSW),
    H(TCSETSF),
    H(TIOCGWINSZ),
    H(TIOCSWINSZ),
    H(FIONREAD),
    H(TIOCINQ),
    H(FIONBIO),
    H(FIOCLEX),
    H(FIONCLEX),
    H(FIOASYNC),
    H(TIOCSTI),
    H(TIOCSCTTY),
    H(TIOCNOTTY),
    H(TIOCGPGRP),
    H(TIOCSPGRP),
    H(TIOCOUTQ),
    H(TIOCLINUX),
    H(TIOCGPTN),
    H(TIOCSPTLCK),
    H(TIOCGSID),
    H(TIOCEXCL),
    H(TCFLSH),
    H(TCSBRK),
    H(TIOCMGET),
    H(TIOCPKT),
    H(TIOCCONS),
    H(TIOCSETD),
    H(TIOCGETD),
    H(SIGHUP),
    H(SIGINT),
    H(SIGKILL),
    H(SIGTERM),
    H(SIGUSR1),
    H(SIGUSR2),
    H(SIGCHLD),
    H(SIGSTOP),
    H(SIGCONT),
    H(SIGSYS),
    H(SIGBUS),
    H(SIGSEGV),
    H(SIGPIPE),
    H(SIGWINCH),
    H(SIGIO),
    H(SIGPWR),
    H(SIGXCPU),
    H(SIGURG),
    H(SIG_BLOCK),
    H(SIG_UNBLOCK),
    H(SIG_SETMASK),
    H(FUTEX_WAIT),
    H(FUTEX_WAKE),
    H(FUTEX_WAIT_BITSET),
    H(FUTEX_PRIVATE_FLAG),
    H(FUTEX_CLOCK_REALTIME),
    H(FUTEX_WAKE_PRIVATE),
    H(FUTEX_LOCK_PI),
    H(CLOCK_MONOTONIC),
    H(CLOCK_BOOTTIME),
    H(CLOCK_TAI),
    H(P_ALL),
    H(P_PID),
    H(P_PGID),
    H(BLKSSZGET),
    H(BLKGETSIZE),
    H(BLKRRPART),
    H(BLKDISCARD),
    H(BLKZEROOUT),
    H(BLKROTATIONAL),
    H(SIOCGIFFLAGS),
    H(SIOCSIFFLAGS),
    H(SIOCGIFINDEX),
    H(SIOCETHTOOL),
    H(SIOCBRADDBR),
    H(SIOCGIFHWADDR),
    H(MS_RDONLY),
    H(MS_NOSUID),
    H(MS_REC),
    H(MS_BIND),
    H(MS_PRIVATE),
    H(MS_LAZYTIME),
    H(MS_MGC_VAL),
    H(STATX_BASIC_STATS),
    H(STATX_BTIME),
    H(STATX_MNT_ID),
    H(STATX_SIZE),
    H(KEYCTL_JOIN_SESSION_KEYRING),
    H(KEYCTL_PKEY_VERIFY),
    H(KEYCTL_MOVE),
    H(BPF_PROG_LOAD),
    H(BPF_MAP_CREATE),
    H(BPF_LINK_CREATE),
    H(UNAME26),
    H(ADDR_NO_RANDOMIZE),
    H(READ_IMPLIES_EXEC),
    H(PER_LINUX32),
    H(RLIMIT_AS), H(RLIMIT_CORE), H(RLIMIT_CPU), H(RLIMIT_DATA), H(RLIMIT_FSIZE),
    H(RLIMIT_LOCKS), H(RLIMIT_MEMLOCK), H(RLIMIT_MSGQUEUE), H(RLIMIT_NICE), H(RLIMIT_NOFILE),
    H(RLIMIT_NPROC), H(RLIMIT_RSS), H(RLIMIT_RTPRIO), H(RLIMIT_RTTIME), H(RLIMIT_SIGPENDING),
    H(RLIMIT_STACK),
    H(EPOLL_CTL_ADD), H(EPOLL_CTL_DEL), H(EPOLL_CTL_MOD), H(F_OK), H(R_OK), H(W_OK), H(X_OK),
    H(POSIX_FADV_DONTNEED), H(POSIX_FADV_NOREUSE), H(POSIX_FADV_NORMAL), H(POSIX_FADV_RANDOM),
    H(POSIX_FADV_SEQUENTIAL), H(POSIX_FADV_WILLNEED),
    H(ARCH_GET_CPUID), H(ARCH_GET_FS), H(ARCH_GET_GS), H(ARCH_SET_CPUID), H(ARCH_SET_FS),
    H(ARCH_SET_GS), H(ITIMER_PROF), H(ITIMER_REAL), H(ITIMER_VIRTUAL),
    H(LINUX_REBOOT_CMD_CAD_OFF), H(LINUX_REBOOT_CMD_CAD_ON), H(LINUX_REBOOT_CMD_HALT),
    H(LINUX_REBOOT_CMD_KEXEC), H(LINUX_REBOOT_CMD_POWER_OFF), H(LINUX_REBOOT_CMD_RESTART),
    H(LINUX_REBOOT_CMD_RESTART2), H(LINUX_REBOOT_CMD_SW_SUSPEND), H(LINUX_REBOOT_MAGIC1),
    H(LINUX_REBOOT_MAGIC2), H(LINUX_REBOOT_MAGIC2A), H(LINUX_REBOOT_MAGIC2B),
    H(LINUX_REBOOT_MAGIC2C),
    H(WCONTINUED), H(WEXITED), H(WNOHANG), H(WNOWAIT), H(WSTOPPED), H(WUNTRACED), H(__WALL),
    H(__WCLONE), H(__WNOTHREAD),
    /* System V IPC (IPC_64 is only in <linux/ipc.h>, which clashes with <sys/ipc.h>) */
    H(IPC_CREAT), H(IPC_EXCL), H(IPC_INFO), H(IPC_RMID), H(IPC_SET), H(IPC_STAT),
    H(SHM_HUGETLB), H(SHM_NORESERVE), H(SHM_INFO), H(SHM_LOCK), H(SHM_STAT), H(SHM_STAT_ANY),
    H(SHM_UNLOCK), H(MSG_INFO), H(MSG_STAT), H(MSG_STAT_ANY), H(GETALL), H(GETNCNT), H(GETPID),
    H(GETVAL), H(GETZCNT), H(SETALL), H(SETVAL), H(SEM_INFO), H(SEM_STAT), H(SEM_STAT_ANY),
    H(IPC_NOWAIT), H(MSG_COPY), H(MSG_EXCEPT), H(MSG_NOERROR), H(SHM_EXEC), H(SHM_RDONLY),
    H(SHM_REMAP), H(SHM_RND),
    H(SYNC_FILE_RANGE_WAIT_AFTER), H(SYNC_FILE_RANGE_WAIT_BEFORE), H(SYNC_FILE_RANGE_WRITE),
    /* socket options, by level: SOL_SOCKET, IPPROTO_IP, IPPROTO_IPV6, IPPROTO_TCP */
    H(IPV6_ADDRFORM), H(IPV6_ADD_MEMBERSHIP), H(IPV6_AUTOFLOWLABEL), H(IPV6_CHECKSUM),
    H(IPV6_DROP_MEMBERSHIP), H(IPV6_FREEBIND), H(IPV6_HOPLIMIT), H(IPV6_JOIN_ANYCAST),
    H(IPV6_LEAVE_ANYCAST), H(IPV6_MINHOPCOUNT), H(IPV6_MTU), H(IPV6_MTU_DISCOVER),
    H(IPV6_MULTICAST_HOPS), H(IPV6_MULTICAST_IF), H(IPV6_MULTICAST_LOOP), H(IPV6_NEXTHOP),
    H(IPV6_PKTINFO), H(IPV6_RECVERR), H(IPV6_RECVHOPLIMIT), H(IPV6_RECVPKTINFO),
    H(IPV6_RECVTCLASS), H(IPV6_ROUTER_ALERT), H(IPV6_TCLASS), H(IPV6_TRANSPARENT),
    H(IPV6_UNICAST_HOPS), H(IPV6_UNICAST_IF), H(IPV6_V6ONLY), H(IP_ADD_MEMBERSHIP),
    H(IP_ADD_SOURCE_MEMBERSHIP), H(IP_BIND_ADDRESS_NO_PORT), H(IP_BLOCK_SOURCE), H(IP_CHECKSUM),
    H(IP_DROP_MEMBERSHIP), H(IP_DROP_SOURCE_MEMBERSHIP), H(IP_FREEBIND), H(IP_HDRINCL),
    H(IP_MINTTL), H(IP_MSFILTER), H(IP_MTU), H(IP_MTU_DISCOVER), H(IP_MULTICAST_ALL),
    H(IP_MULTICAST_IF), H(IP_MULTICAST_LOOP), H(IP_MULTICAST_TTL), H(IP_NODEFRAG),
    H(IP_OPTIONS), H(IP_ORIGDSTADDR), H(IP_PASSSEC), H(IP_PKTINFO), H(IP_PKTOPTIONS),
    H(IP_RECVERR), H(IP_RECVFRAGSIZE), H(IP_RECVOPTS), H(IP_RECVTOS), H(IP_RECVTTL),
    H(IP_RETOPTS), H(IP_ROUTER_ALERT), H(IP_TOS), H(IP_TRANSPARENT), H(IP_TTL),
    H(IP_UNBLOCK_SOURCE), H(IP_UNICAST_IF), H(SO_ACCEPTCONN), H(SO_ATTACH_FILTER),
    H(SO_BINDTODEVICE), H(SO_BROADCAST), H(SO_BUSY_POLL), H(SO_COOKIE), H(SO_DEBUG),
    H(SO_DETACH_FILTER), H(SO_DOMAIN), H(SO_DONTROUTE), H(SO_ERROR), H(SO_INCOMING_CPU),
    H(SO_KEEPALIVE), H(SO_LINGER), H(SO_MARK), H(SO_NO_CHECK), H(SO_OOBINLINE), H(SO_PASSCRED),
    H(SO_PEERCRED), H(SO_PRIORITY), H(SO_PROTOCOL), H(SO_RCVBUF), H(SO_RCVBUFFORCE),
    H(SO_RCVLOWAT), H(SO_REUSEADDR), H(SO_REUSEPORT), H(SO_SNDBUF), H(SO_SNDBUFFORCE),
    H(SO_SNDLOWAT), H(SO_TYPE), H(SO_ZEROCOPY), H(TCP_CONGESTION), H(TCP_CORK),
    H(TCP_DEFER_ACCEPT), H(TCP_FASTOPEN), H(TCP_FASTOPEN_CONNECT), H(TCP_INFO), H(TCP_INQ),
    H(TCP_KEEPCNT), H(TCP_KEEPIDLE), H(TCP_KEEPINTVL), H(TCP_LINGER2), H(TCP_MAXSEG),
    H(TCP_MD5SIG), H(TCP_NODELAY), H(TCP_NOTSENT_LOWAT), H(TCP_QUICKACK), H(TCP_SYNCNT),
    H(TCP_ULP), H(TCP_USER_TIMEOUT), H(TCP_WINDOW_CLAMP), H(TCP_ZEROCOPY_RECEIVE),
};

static void test_constants_match_host(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	if (scg_arch_native() != x86_64 && scg_arch_native() != scg_arch_lookup("aarch64")) {
		print_message(
		    "host headers are not asm-generic ones here; skipping the comparison\n");
		skip();
	}
	const struct scg_arch *arch = scg_arch_native();
	for (size_t i = 0; i < sizeof(host_values) / sizeof(host_values[0]); i++) {
		uint64_t v = 0;
		const char *name = host_values[i].name;
		if (constant_value(name, arch, &v) != 0)
			fail_msg("%s is not known on %s", name, scg_arch_name(arch));
		if (v != host_values[i].value)
			fail_msg("%s: %#llx here, %#llx in the host's headers", name,
				 (unsigned long long)v, (unsigned long long)host_values[i].value);
	}
}

static uint64_t value_on(const char *name, const char *arch)
{
	uint64_t v = 0;
	int r = constant_value(name, scg_arch_lookup(arch), &v);
	if (r != 0)
		fail_msg("%s on %s: %d", name, arch, r);
	return v;
}

static void test_constants_per_abi(void **state)
{
	(void)state;
	assert_int_equal(value_on("O_DIRECT", "x86_64"), 040000);
	assert_int_equal(value_on("O_DIRECT", "aarch64"), 0200000);
	assert_int_equal(value_on("O_DIRECT", "arm"), 0200000);
	assert_int_equal(value_on("O_DIRECT", "ppc64le"), 0400000);
	assert_int_equal(value_on("O_NONBLOCK", "mipsel"), 0x80);
	assert_int_equal(value_on("SOCK_STREAM", "mips64"), 2);
	assert_int_equal(value_on("SOCK_NONBLOCK", "parisc"), 0x40000000);
	assert_int_equal(value_on("MAP_ANONYMOUS", "mips"), 0x800);
	assert_int_equal(value_on("MAP_ANONYMOUS", "parisc64"), 0x10);
	assert_int_equal(value_on("MAP_NORESERVE", "ppc"), 0x40);
	assert_int_equal(value_on("TCGETS", "ppc64"), 0x402c7413);
	assert_int_equal(value_on("TIOCGWINSZ", "sh"), 0x80087468);
	assert_int_equal(value_on("SIGCHLD", "mips"), 18);
	assert_int_equal(value_on("ENOSYS", "mips"), 89);
	assert_int_equal(value_on("ENOSYS", "s390x"), 38);
	assert_int_equal(value_on("AT_FDCWD", "riscv64"), (uint64_t)-100);
	assert_int_equal(value_on("CLONE_INTO_CGROUP", "loongarch64"), 0x200000000ULL);
	/* socket options: PowerPC moves six, MIPS and PA-RISC number them apart */
	assert_int_equal(value_on("SO_REUSEADDR", "x86_64"), 2);
	assert_int_equal(value_on("SO_REUSEADDR", "mips64el"), 4);
	assert_int_equal(value_on("SO_ERROR", "parisc"), 0x1007);
	assert_int_equal(value_on("SO_PASSCRED", "ppc64le"), 20);
	assert_int_equal(value_on("SO_RCVLOWAT", "ppc"), 16);
	assert_int_equal(value_on("SO_PEERCRED", "aarch64"), 17);
	assert_int_equal(value_on("TCP_NODELAY", "mips"), 1);
	uint64_t v;
	assert_int_equal(constant_value("TCGETS", scg_arch_lookup("parisc"), &v), -ENODATA);
	assert_int_equal(constant_value("O_TMPFILE", scg_arch_lookup("mips"), &v), -ENODATA);
	assert_int_equal(constant_value("NO_SUCH_THING", scg_arch_lookup("x86"), &v), -ENOENT);
	assert_string_equal(constant_suggest("AF_UNX"), "AF_UNIX");
	assert_string_equal(constant_suggest("EPRM"), "EPERM");
}

/* Every constant has a value or an honest "not known" on every ABI; the
 * ones from include/uapi/linux are known everywhere. */
static void test_constants_everywhere(void **state)
{
	(void)state;
	static const char *const universal[] = {"AF_",	   "CLONE_",  "PR_",	  "AT_",
						"FUTEX_",  "MSG_",    "IPPROTO_", "CLOCK_",
						"PTRACE_", "SECCOMP_", "TCP_",
						"IP_",	   "IPV6_"};
	size_t n = constant_count();
	assert_true(n > 400);
	for (size_t i = 0; i < n; i++) {
		const char *name = constant_name_at(i);
		bool uni = false;
		for (size_t u = 0; u < sizeof(universal) / sizeof(universal[0]); u++)
			uni |= !strncmp(name, universal[u], strlen(universal[u]));
		for (size_t a = 0; a < scg_arch_count(); a++) {
			uint64_t v;
			int r = constant_value(name, scg_arch_at(a), &v);
			if (r != 0 && (r != -ENODATA || uni))
				fail_msg("%s on %s: %d", name, scg_arch_name(scg_arch_at(a)), r);
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(name, constant_name_at(j)))
				fail_msg("%s is listed twice", name);
	}
}

/* --- groups --------------------------------------------------------------------- */

static bool known_somewhere(const char *name)
{
	uint32_t nr;
	return scg_syscall_lookup(scg_arch_native(), name, &nr) != -ENOENT;
}

/* Parameters with a constant family: its example is one of its members, known on x86_64. */
static void test_constant_families(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64");
	size_t found = 0;
	for (size_t i = 0; i < syscall_param_table_count; i++) {
		const struct scg_syscall_params *p = syscall_param_at(i);
		for (unsigned j = 0; j < p->count && j < 6; j++) {
			const char *example = NULL;
			const char *prefix = constant_family(p->syscall, p->params[j].name, &example);
			uint64_t v;
			if (!prefix)
				continue;
			found++;
			assert_non_null(example);
			if (strncmp(example, prefix, strlen(prefix)) ||
			    constant_value(example, x86_64, &v) < 0)
				fail_msg("%s %s: example %s is not a known %s*", p->syscall,
					 p->params[j].name, example, prefix);
		}
	}
	assert_true(found >= 40);
	assert_string_equal(constant_family("openat", "flags", NULL), "O_");
	assert_string_equal(constant_family("fchownat", "dirfd", NULL), "AT_");
	assert_null(constant_family("read", "fd", NULL));
	assert_string_equal(constant_suggest_in("CREAT", "O_"), "O_CREAT");
	assert_string_equal(constant_suggest_in("PROT_EXC", "PROT_"), "PROT_EXEC");
	assert_string_equal(constant_suggest_in("AF_UNX", NULL), "AF_UNIX");
}

static void test_groups(void **state)
{
	(void)state;
	static const char *const required[] = {
	    "aio",	 "basic-io",	   "chown",    "clock",	     "cpu-emulation",
	    "debug",	 "file-system",	   "io-event", "ipc",	     "keyring",
	    "memlock",	 "module",	   "mount",    "network-io", "obsolete",
	    "pkey",	 "privileged",	   "process",  "raw-io",     "reboot",
	    "resources", "sandbox",	   "setuid",   "signal",     "swap",
	    "sync",	 "system-service", "timer",
	};
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		assert_non_null(group_find(required[i]));
	assert_ptr_equal(group_find("@sync"), group_find("sync"));
	assert_null(group_find("nope"));
	for (size_t g = 0; g < scg_group_count(); g++) {
		const char *const *m = scg_group_members(g);
		assert_non_null(m[0]);
		assert_non_null(scg_group_summary(g));
		if (g)
			assert_true(strcmp(scg_group_name(g - 1), scg_group_name(g)) < 0);
		for (size_t i = 0; m[i]; i++) {
			if (!known_somewhere(m[i]))
				fail_msg("@%s: no ABI has %s", scg_group_name(g), m[i]);
			if (i && strcmp(m[i - 1], m[i]) >= 0)
				fail_msg("@%s: not sorted or repeated at %s", scg_group_name(g),
					 m[i]);
		}
	}
	assert_null(scg_group_members(scg_group_count()));
	assert_null(scg_group_name(scg_group_count()));
}

static bool group_has(const char *group, const char *name)
{
	const struct group_entry *g = group_find(group);
	for (size_t i = 0; i < g->count; i++)
		if (!strcmp(group_member_at(g, i), name))
			return true;
	return false;
}

static void test_group_contents(void **state)
{
	(void)state;
	assert_true(group_has("basic-io", "read"));
	assert_true(group_has("network-io", "socket"));
	assert_true(group_has("mount", "pivot_root"));
	/* composed groups are flattened */
	assert_true(group_has("system-service", "read"));
	assert_true(group_has("system-service", "openat"));
	assert_true(group_has("system-service", "execve"));
	assert_true(group_has("privileged", "reboot"));
	assert_true(group_has("privileged", "init_module"));
	assert_false(group_has("system-service", "reboot"));
	assert_false(group_has("system-service", "ptrace"));
}

/* --- parameter names ---------------------------------------------------------------- */

static void test_params(void **state)
{
	(void)state;
	assert_true(syscall_param_table_count > 300);
	for (size_t i = 0; i < syscall_param_table_count; i++) {
		const struct scg_syscall_params *p = syscall_param_at(i);
		if (i)
			assert_true(strcmp(syscall_param_at(i - 1)->syscall, p->syscall) < 0);
		if (!known_somewhere(p->syscall))
			fail_msg("no ABI has %s", p->syscall);
		assert_true(p->count <= 6);
		for (unsigned k = 0; k < p->count; k++) {
			const char *n = p->params[k].name;
			assert_false(n[0] == 'a' && n[1] == 'r' && n[2] == 'g' && n[3] >= '0' &&
				     n[3] <= '9');
			assert_true(p->params[k].kind <= SCG_PARAM_UNKNOWN);
		}
		for (const char *s = p->unsupported; *s;) {
			size_t len = strcspn(s, ",");
			char word[32];
			snprintf(word, sizeof(word), "%.*s", (int)len, s);
			if (strcmp(word, "32bit") && !scg_arch_lookup(word))
				fail_msg("%s: unknown ABI '%s'", p->syscall, word);
			s += len + (s[len] == ',');
		}
	}
	const struct scg_syscall_params *p = scg_syscall_params("socket");
	assert_non_null(p);
	assert_string_equal(p->params[0].name, "domain");
	assert_int_equal(p->params[0].kind, SCG_PARAM_32);
	p = scg_syscall_params("ioctl");
	assert_int_equal(p->params[1].kind, SCG_PARAM_32); /* the kernel's unsigned int */
	p = scg_syscall_params("mmap");
	assert_string_equal(p->params[1].name, "length");
	assert_int_equal(p->params[1].kind, SCG_PARAM_LONG);
	assert_string_equal(p->unsupported, "32bit");
	p = scg_syscall_params("pread64");
	assert_int_equal(p->params[3].kind, SCG_PARAM_64);
	assert_null(scg_syscall_params("no_such_syscall"));
}

/* scg_syscall_arg_width(): the width a parameter name compares, for the OCI import too. */
static void test_arg_width(void **state)
{
	(void)state;
	const struct scg_arch *x86_64 = scg_arch_lookup("x86_64"), *x86 = scg_arch_lookup("x86");
	const struct scg_arch *x32 = scg_arch_lookup("x32"), *s390 = scg_arch_lookup("s390");
	assert_int_equal(scg_syscall_arg_width(x86_64, "socket", 0), 32);    /* int domain */
	assert_int_equal(scg_syscall_arg_width(x86_64, "socket", 2), 32);    /* int protocol */
	assert_int_equal(scg_syscall_arg_width(x86_64, "personality", 0), 32);
	assert_int_equal(scg_syscall_arg_width(x86_64, "ioctl", 1), 32);     /* the kernel's unsigned int */
	assert_int_equal(scg_syscall_arg_width(x86_64, "clone", 0), 64);     /* unsigned long flags */
	assert_int_equal(scg_syscall_arg_width(x86_64, "mmap", 1), 64);      /* size_t */
	assert_int_equal(scg_syscall_arg_width(x32, "mmap", 1), 64);         /* 64-bit registers */
	assert_int_equal(scg_syscall_arg_width(x86_64, "pread64", 3), 64);   /* off_t */
	assert_int_equal(scg_syscall_arg_width(x86, "pread64", 3), 0);       /* two registers there */
	assert_int_equal(scg_syscall_arg_width(x86, "pread64", 0), 32);
	assert_int_equal(scg_syscall_arg_width(x86, "mmap", 1), 0);          /* old_mmap */
	assert_int_equal(scg_syscall_arg_width(s390, "clone", 0), 0);        /* s390 swaps them */
	assert_int_equal(scg_syscall_arg_width(x86_64, "socket", 3), 0);     /* three parameters */
	assert_int_equal(scg_syscall_arg_width(x86_64, "no_such_syscall", 0), 0);
	assert_int_equal(scg_syscall_arg_width(NULL, "socket", 0), 0);
	assert_int_equal(scg_syscall_arg_width(x86_64, NULL, 0), 0);
}

/* --- built-in profiles ------------------------------------------------------------ */

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *s = NULL;
	size_t len = 0, cap = 0, n;
	char buf[4096];
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + n + 1 > cap) {
			s = realloc(s, cap = (len + n + 1) * 2);
			assert_non_null(s);
		}
		memcpy(s + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!s)
		s = calloc(1, 1);
	s[len] = '\0';
	return s;
}

static void check_profile_parses(const char *name)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_policy *p = NULL;
	int r = scg_profile_load(name, NULL, &p, diag);
	test_print_diag(diag);
	if (r != 0 || scg_diag_count(diag))
		fail_msg("profile %s: %d, %zu diagnostics", name, r, scg_diag_count(diag));
	struct scg_prog prog;
	assert_int_equal(scg_compile(p, NULL, &prog, diag), 0);
	scg_prog_release(&prog);
	scg_policy_free(p);
	scg_diag_free(diag);
}

static void test_profiles_match_files(void **state)
{
	(void)state;
	DIR *d = opendir("profiles");
	if (!d)
		fail_msg("cannot open profiles/ (run from the top of the source tree)");
	size_t files = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 8 || strcmp(e->d_name + len - 7, ".policy"))
			continue;
		files++;
		char name[256], path[512];
		snprintf(name, sizeof(name), "%.*s", (int)(len - 7), e->d_name);
		snprintf(path, sizeof(path), "profiles/%s", e->d_name);
		const char *embedded = scg_profile_source(name);
		if (!embedded)
			fail_msg("profiles/%s is not built in: run `ninja -C build profiles`",
				 e->d_name);
		char *text = read_all(path);
		if (strcmp(text, embedded))
			fail_msg("profiles/%s differs from the built-in copy: "
				 "run `ninja -C build profiles`",
				 e->d_name);
		free(text);
		check_profile_parses(name);
	}
	closedir(d);
	assert_int_equal(files, scg_profile_count());
	for (size_t i = 0; i < scg_profile_count(); i++) {
		assert_non_null(scg_profile_summary(i));
		assert_true(scg_profile_summary(i)[0] != '\0');
	}
	assert_null(scg_profile_name(scg_profile_count()));
	assert_null(scg_profile_source("no-such-profile"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_constants_match_host), cmocka_unit_test(test_constants_per_abi),
	    cmocka_unit_test(test_constants_everywhere), cmocka_unit_test(test_constant_families),
	    cmocka_unit_test(test_groups),
	    cmocka_unit_test(test_group_contents),	 cmocka_unit_test(test_params),
	    cmocka_unit_test(test_arg_width),		 cmocka_unit_test(test_profiles_match_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
