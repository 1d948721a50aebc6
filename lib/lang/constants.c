/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named constants of the policy language, with their value on each ABI.
 *
 * Most constants come from include/uapi/linux/ and are the same on every
 * Linux ABI ("universal").  Those from arch/<arch>/include/uapi/asm/ differ:
 * the asm-generic value holds on x86, s390, RISC-V and LoongArch, while ARM
 * (32 and 64-bit), m68k, PowerPC, MIPS, PA-RISC and SuperH override some.
 * Each such row gives one value per header family.  NA marks a value this
 * table does not vouch for (the constant is absent there, or its value
 * changed over time); a rule using it on that ABI is refused, not guessed.
 *
 * Sources: include/uapi/asm-generic/{fcntl,mman-common,mman,ioctls,signal}.h,
 * include/uapi/linux/{fcntl,sched,prctl,socket,ptrace,futex,fs,mount,sockios,
 * stat,keyctl,bpf,personality}.h and the
 * arch/{arm,arm64,m68k,powerpc,mips,parisc,sh}/include/uapi/asm/ overrides.
 * Every family table is sorted by name (strcmp) for binary search; the tests
 * check that, and compare the asm-generic column with the host's headers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <syscage/lang.h>

#include "lang/lang_internal.h"
#include "util/suggest.h"

/* Header families, in the column order of the rows below. */
enum variant { V_GENERIC, V_ARM, V_M68K, V_PPC, V_MIPS, V_PARISC, V_SH, V_COUNT };

/* A value no real constant here has: "this table does not know". */
#define NA UINT64_C(0xdeadbeefdeadbeef)

/* Names in place, not pointers: the table needs no relocation when the library loads. */
#define CONSTANT_NAME_MAX 40 /* longest name + 1: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV */
struct constant {
	char name[CONSTANT_NAME_MAX];
	bool universal; /* also valid on ABIs without a column here */
	uint64_t value[V_COUNT];
};

struct family {
	const struct constant *items;
	size_t count;
};

/* clang-format off */
/* Tables laid out by hand: one constant a line, columns aligned. */
#define U(n, v) { n, true, { v, v, v, v, v, v, v } }
/* Columns: generic, ARM, m68k, PowerPC, MIPS, PA-RISC, SuperH. */
#define C(n, g, arm, m68k, ppc, mips, parisc, sh) \
	{ n, false, { g, arm, m68k, ppc, mips, parisc, sh } }
/* The same on every ABI with a column, but from an arch header. */
#define A(n, v) C(n, v, v, v, v, v, v, v)
/* A row given by one of the ROW_* macros below. */
#define R(n, row) R_EXPANDED(n, row)
#define R_EXPANDED(...) C(__VA_ARGS__)

/* Rows shared by several names (flags defined as O_NONBLOCK / O_CLOEXEC). */
#define ROW_O_NONBLOCK 0x800, 0x800, 0x800, 0x800, 0x80, NA, 0x800
#define ROW_O_CLOEXEC 0x80000, 0x80000, 0x80000, 0x80000, 0x80000, 0x200000, 0x80000

static const struct constant address_families[] = {
	U("AF_ALG", 38), U("AF_APPLETALK", 5), U("AF_ATMPVC", 8), U("AF_ATMSVC", 20),
	U("AF_AX25", 3), U("AF_BLUETOOTH", 31), U("AF_BRIDGE", 7), U("AF_CAIF", 37),
	U("AF_CAN", 29), U("AF_DECnet", 12), U("AF_ECONET", 19), U("AF_IB", 27),
	U("AF_IEEE802154", 36), U("AF_INET", 2), U("AF_INET6", 10), U("AF_IPX", 4),
	U("AF_IRDA", 23), U("AF_ISDN", 34), U("AF_IUCV", 32), U("AF_KCM", 41),
	U("AF_KEY", 15), U("AF_LLC", 26), U("AF_LOCAL", 1), U("AF_MCTP", 45),
	U("AF_MPLS", 28), U("AF_NETBEUI", 13), U("AF_NETLINK", 16), U("AF_NETROM", 6),
	U("AF_NFC", 39), U("AF_PACKET", 17), U("AF_PHONET", 35), U("AF_PPPOX", 24),
	U("AF_QIPCRTR", 42), U("AF_RDS", 21), U("AF_ROSE", 11), U("AF_ROUTE", 16),
	U("AF_RXRPC", 33), U("AF_SECURITY", 14), U("AF_SMC", 43), U("AF_SNA", 22),
	U("AF_TIPC", 30), U("AF_UNIX", 1), U("AF_UNSPEC", 0), U("AF_VSOCK", 40),
	U("AF_WANPIPE", 25), U("AF_X25", 9), U("AF_XDP", 44),
};

static const struct constant socket_types[] = {
	/* MIPS swaps STREAM and DGRAM; SOCK_NONBLOCK is O_NONBLOCK except on PA-RISC */
	R("SOCK_CLOEXEC", ROW_O_CLOEXEC),
	U("SOCK_DCCP", 6),
	C("SOCK_DGRAM", 2, 2, 2, 2, 1, 2, 2),
	C("SOCK_NONBLOCK", 0x800, 0x800, 0x800, 0x800, 0x80, 0x40000000, 0x800),
	U("SOCK_PACKET", 10),
	U("SOCK_RAW", 3),
	U("SOCK_RDM", 4),
	U("SOCK_SEQPACKET", 5),
	C("SOCK_STREAM", 1, 1, 1, 1, 2, 1, 1),
};

static const struct constant socket_misc[] = {
	U("IPPROTO_ICMP", 1), U("IPPROTO_ICMPV6", 58), U("IPPROTO_IP", 0),
	U("IPPROTO_IPV6", 41), U("IPPROTO_MPTCP", 262), U("IPPROTO_RAW", 255),
	U("IPPROTO_SCTP", 132), U("IPPROTO_TCP", 6), U("IPPROTO_UDP", 17),
	U("IPPROTO_UDPLITE", 136),
	U("MSG_BATCH", 0x40000), U("MSG_CMSG_CLOEXEC", 0x40000000), U("MSG_CONFIRM", 0x800),
	U("MSG_CTRUNC", 0x8), U("MSG_DONTROUTE", 0x4), U("MSG_DONTWAIT", 0x40),
	U("MSG_EOR", 0x80), U("MSG_ERRQUEUE", 0x2000), U("MSG_FASTOPEN", 0x20000000),
	U("MSG_FIN", 0x200), U("MSG_MORE", 0x8000), U("MSG_NOSIGNAL", 0x4000),
	U("MSG_OOB", 0x1), U("MSG_PEEK", 0x2), U("MSG_PROXY", 0x10), U("MSG_RST", 0x1000),
	U("MSG_SYN", 0x400), U("MSG_TRUNC", 0x20), U("MSG_WAITALL", 0x100),
	U("MSG_WAITFORONE", 0x10000), U("MSG_ZEROCOPY", 0x4000000),
	U("SHUT_RD", 0), U("SHUT_RDWR", 2), U("SHUT_WR", 1),
	C("SOL_SOCKET", 1, 1, 1, 1, 0xffff, NA, 1),
};

static const struct constant open_flags[] = {
	/*                 generic    ARM       m68k      PowerPC   MIPS      PA-RISC   SuperH */
	C("FASYNC",        0x2000,    0x2000,   0x2000,   0x2000,   0x1000,   0x2000,   0x2000),
	C("O_ACCMODE",     3,         3,        3,        3,        3,        3,        3),
	C("O_APPEND",      0x400,     0x400,    0x400,    0x400,    0x8,      0x8,      0x400),
	C("O_ASYNC",       0x2000,    0x2000,   0x2000,   0x2000,   0x1000,   0x2000,   0x2000),
	R("O_CLOEXEC", ROW_O_CLOEXEC),
	C("O_CREAT",       0x40,      0x40,     0x40,     0x40,     0x100,    0x100,    0x40),
	C("O_DIRECT",      0x4000,    0x10000,  0x10000,  0x20000,  0x8000,   0x4000,   0x4000),
	C("O_DIRECTORY",   0x10000,   0x4000,   0x4000,   0x4000,   0x10000,  0x1000,   0x10000),
	C("O_DSYNC",       0x1000,    0x1000,   0x1000,   0x1000,   0x10,     0x40000,  0x1000),
	C("O_EXCL",        0x80,      0x80,     0x80,     0x80,     0x400,    0x400,    0x80),
	C("O_LARGEFILE",   0x8000,    0x20000,  0x20000,  0x10000,  0x2000,   0x800,    0x8000),
	R("O_NDELAY", ROW_O_NONBLOCK),
	C("O_NOATIME",     0x40000,   0x40000,  0x40000,  0x40000,  0x40000,  0x100000, 0x40000),
	C("O_NOCTTY",      0x100,     0x100,    0x100,    0x100,    0x800,    0x20000,  0x100),
	C("O_NOFOLLOW",    0x20000,   0x8000,   0x8000,   0x8000,   0x20000,  0x80,     0x20000),
	R("O_NONBLOCK", ROW_O_NONBLOCK),
	C("O_PATH",        0x200000,  0x200000, 0x200000, 0x200000, 0x200000, 0x400000, 0x200000),
	C("O_RDONLY",      0,         0,        0,        0,        0,        0,        0),
	C("O_RDWR",        2,         2,        2,        2,        2,        2,        2),
	C("O_SYNC",        0x101000,  0x101000, 0x101000, 0x101000, 0x4010,   0x48000,  0x101000),
	C("O_TMPFILE",     0x410000,  0x404000, 0x404000, 0x404000, NA,       0x801000, 0x410000),
	C("O_TRUNC",       0x200,     0x200,    0x200,    0x200,    0x200,    0x200,    0x200),
	C("O_WRONLY",      1,         1,        1,        1,        1,        1,        1),
};

static const struct constant fcntl_commands[] = {
	U("FD_CLOEXEC", 1),
	U("F_ADD_SEALS", 1033), U("F_CANCELLK", 1029), U("F_DUPFD", 0),
	U("F_DUPFD_CLOEXEC", 1030), U("F_GETFD", 1), U("F_GETFL", 3),
	U("F_GETLEASE", 1025),
	C("F_GETLK", 5, 5, 5, 5, 14, 5, 5),
	C("F_GETOWN", 9, 9, 9, 9, 23, 11, 9),
	U("F_GETOWNER_UIDS", 17), U("F_GETOWN_EX", 16), U("F_GETPIPE_SZ", 1032),
	C("F_GETSIG", 11, 11, 11, 11, 11, 14, 11),
	U("F_GET_FILE_RW_HINT", 1037), U("F_GET_RW_HINT", 1035), U("F_GET_SEALS", 1034),
	U("F_NOTIFY", 1026), U("F_OFD_GETLK", 36), U("F_OFD_SETLK", 37), U("F_OFD_SETLKW", 38),
	C("F_RDLCK", 0, 0, 0, 0, 0, 1, 0),
	U("F_SEAL_FUTURE_WRITE", 0x10), U("F_SEAL_GROW", 0x4), U("F_SEAL_SEAL", 0x1),
	U("F_SEAL_SHRINK", 0x2), U("F_SEAL_WRITE", 0x8), U("F_SETFD", 2), U("F_SETFL", 4),
	U("F_SETLEASE", 1024),
	A("F_SETLK", 6), A("F_SETLKW", 7),
	C("F_SETOWN", 8, 8, 8, 8, 24, 12, 8),
	U("F_SETOWN_EX", 15), U("F_SETPIPE_SZ", 1031),
	C("F_SETSIG", 10, 10, 10, 10, 10, 13, 10),
	U("F_SET_FILE_RW_HINT", 1038), U("F_SET_RW_HINT", 1036),
	C("F_UNLCK", 2, 2, 2, 2, 2, 3, 2),
	C("F_WRLCK", 1, 1, 1, 1, 1, 2, 1),
};

static const struct constant at_flags[] = {
	U("AT_EACCESS", 0x200), U("AT_EMPTY_PATH", 0x1000),
	U("AT_FDCWD", UINT64_C(0xffffffffffffff9c)), /* -100 */
	U("AT_NO_AUTOMOUNT", 0x800), U("AT_RECURSIVE", 0x8000), U("AT_REMOVEDIR", 0x200),
	U("AT_STATX_DONT_SYNC", 0x4000), U("AT_STATX_FORCE_SYNC", 0x2000),
	U("AT_STATX_SYNC_AS_STAT", 0), U("AT_SYMLINK_FOLLOW", 0x400),
	U("AT_SYMLINK_NOFOLLOW", 0x100),
	U("RENAME_EXCHANGE", 2), U("RENAME_NOREPLACE", 1), U("RENAME_WHITEOUT", 4),
	U("SEEK_CUR", 1), U("SEEK_DATA", 3), U("SEEK_END", 2), U("SEEK_HOLE", 4), U("SEEK_SET", 0),
};

static const struct constant memory[] = {
	/*                      generic     ARM         m68k        PowerPC     MIPS        PA-RISC     SuperH */
	C("MADV_COLD",          20,         20,         20,         20,         20,         NA,         20),
	C("MADV_COLLAPSE",      25,         25,         25,         25,         25,         NA,         25),
	C("MADV_DODUMP",        17,         17,         17,         17,         17,         NA,         17),
	C("MADV_DOFORK",        11,         11,         11,         11,         11,         NA,         11),
	C("MADV_DONTDUMP",      16,         16,         16,         16,         16,         NA,         16),
	C("MADV_DONTFORK",      10,         10,         10,         10,         10,         NA,         10),
	A("MADV_DONTNEED",      4),
	C("MADV_DONTNEED_LOCKED", 24,       24,         24,         24,         24,         NA,         24),
	C("MADV_FREE",          8,          8,          8,          8,          8,          NA,         8),
	C("MADV_HUGEPAGE",      14,         14,         14,         14,         14,         NA,         14),
	C("MADV_HWPOISON",      100,        100,        100,        100,        100,        NA,         100),
	C("MADV_KEEPONFORK",    19,         19,         19,         19,         19,         NA,         19),
	C("MADV_MERGEABLE",     12,         12,         12,         12,         12,         NA,         12),
	C("MADV_NOHUGEPAGE",    15,         15,         15,         15,         15,         NA,         15),
	A("MADV_NORMAL",        0),
	C("MADV_PAGEOUT",       21,         21,         21,         21,         21,         NA,         21),
	C("MADV_POPULATE_READ", 22,         22,         22,         22,         22,         NA,         22),
	C("MADV_POPULATE_WRITE", 23,        23,         23,         23,         23,         NA,         23),
	A("MADV_RANDOM",        1),
	C("MADV_REMOVE",        9,          9,          9,          9,          9,          NA,         9),
	A("MADV_SEQUENTIAL",    2),
	C("MADV_SOFT_OFFLINE",  101,        101,        101,        101,        NA,         NA,         101),
	C("MADV_UNMERGEABLE",   13,         13,         13,         13,         13,         NA,         13),
	A("MADV_WILLNEED",      3),
	C("MADV_WIPEONFORK",    18,         18,         18,         18,         18,         NA,         18),
	C("MAP_ANON",           0x20,       0x20,       0x20,       0x20,       0x800,      0x10,       0x20),
	C("MAP_ANONYMOUS",      0x20,       0x20,       0x20,       0x20,       0x800,      0x10,       0x20),
	C("MAP_DENYWRITE",      0x800,      0x800,      0x800,      0x800,      0x2000,     0x800,      0x800),
	U("MAP_DROPPABLE",      0x08),
	C("MAP_EXECUTABLE",     0x1000,     0x1000,     0x1000,     0x1000,     0x4000,     0x1000,     0x1000),
	U("MAP_FILE",           0),
	C("MAP_FIXED",          0x10,       0x10,       0x10,       0x10,       0x10,       0x04,       0x10),
	C("MAP_FIXED_NOREPLACE", 0x100000,  0x100000,   0x100000,   0x100000,   NA,         0x100000,   0x100000),
	C("MAP_GROWSDOWN",      0x100,      0x100,      0x100,      0x100,      0x1000,     0x8000,     0x100),
	C("MAP_HUGETLB",        0x40000,    0x40000,    0x40000,    0x40000,    0x80000,    0x80000,    0x40000),
	C("MAP_LOCKED",         0x2000,     0x2000,     0x2000,     0x80,       0x8000,     0x2000,     0x2000),
	C("MAP_NONBLOCK",       0x10000,    0x10000,    0x10000,    0x10000,    0x20000,    0x20000,    0x10000),
	C("MAP_NORESERVE",      0x4000,     0x4000,     0x4000,     0x40,       0x400,      0x4000,     0x4000),
	C("MAP_POPULATE",       0x8000,     0x8000,     0x8000,     0x8000,     0x10000,    0x10000,    0x8000),
	U("MAP_PRIVATE",        0x02),
	U("MAP_SHARED",         0x01),
	U("MAP_SHARED_VALIDATE", 0x03),
	C("MAP_STACK",          0x20000,    0x20000,    0x20000,    0x20000,    0x40000,    0x40000,    0x20000),
	C("MAP_SYNC",           0x80000,    0x80000,    0x80000,    0x80000,    NA,         NA,         0x80000),
	C("MCL_CURRENT",        1,          1,          1,          0x2000,     1,          1,          1),
	C("MCL_FUTURE",         2,          2,          2,          0x4000,     2,          2,          2),
	C("MCL_ONFAULT",        4,          4,          4,          0x8000,     4,          4,          4),
	U("MFD_ALLOW_SEALING",  0x2),
	U("MFD_CLOEXEC",        0x1),
	U("MFD_EXEC",           0x10),
	U("MFD_HUGETLB",        0x4),
	U("MFD_NOEXEC_SEAL",    0x8),
	U("MLOCK_ONFAULT",      0x1),
	U("MREMAP_DONTUNMAP",   4),
	U("MREMAP_FIXED",       2),
	U("MREMAP_MAYMOVE",     1),
	C("MS_ASYNC",           1,          1,          1,          1,          1,          2,          1),
	C("MS_INVALIDATE",      2,          2,          2,          2,          2,          4,          2),
	C("MS_SYNC",            4,          4,          4,          4,          4,          1,          4),
	A("PROT_EXEC",          0x4),
	A("PROT_GROWSDOWN",     0x01000000),
	A("PROT_GROWSUP",       0x02000000),
	A("PROT_NONE",          0x0),
	A("PROT_READ",          0x1),
	C("PROT_SEM",           0x8,        0x8,        0x8,        0x8,        0x10,       0x8,        0x8),
	A("PROT_WRITE",         0x2),
};

static const struct constant clone_flags[] = {
	U("CLONE_CHILD_CLEARTID", 0x00200000), U("CLONE_CHILD_SETTID", 0x01000000),
	U("CLONE_CLEAR_SIGHAND", UINT64_C(0x100000000)), U("CLONE_DETACHED", 0x00400000),
	U("CLONE_FILES", 0x00000400), U("CLONE_FS", 0x00000200),
	U("CLONE_INTO_CGROUP", UINT64_C(0x200000000)), U("CLONE_IO", 0x80000000),
	U("CLONE_NEWCGROUP", 0x02000000), U("CLONE_NEWIPC", 0x08000000),
	U("CLONE_NEWNET", 0x40000000), U("CLONE_NEWNS", 0x00020000),
	U("CLONE_NEWPID", 0x20000000), U("CLONE_NEWTIME", 0x00000080),
	U("CLONE_NEWUSER", 0x10000000), U("CLONE_NEWUTS", 0x04000000),
	U("CLONE_PARENT", 0x00008000), U("CLONE_PARENT_SETTID", 0x00100000),
	U("CLONE_PIDFD", 0x00001000), U("CLONE_PTRACE", 0x00002000),
	U("CLONE_SETTLS", 0x00080000), U("CLONE_SIGHAND", 0x00000800),
	U("CLONE_SYSVSEM", 0x00040000), U("CLONE_THREAD", 0x00010000),
	U("CLONE_UNTRACED", 0x00800000), U("CLONE_VFORK", 0x00004000),
	U("CLONE_VM", 0x00000100), U("CSIGNAL", 0xff),
	U("SCHED_BATCH", 3), U("SCHED_DEADLINE", 6), U("SCHED_FIFO", 1), U("SCHED_IDLE", 5),
	U("SCHED_OTHER", 0), U("SCHED_RR", 2),
};

static const struct constant prctl_options[] = {
	U("PR_CAPBSET_DROP", 24), U("PR_CAPBSET_READ", 23), U("PR_CAP_AMBIENT", 47),
	U("PR_GET_CHILD_SUBREAPER", 37), U("PR_GET_DUMPABLE", 3), U("PR_GET_ENDIAN", 19),
	U("PR_GET_FPEMU", 9), U("PR_GET_FPEXC", 11), U("PR_GET_FP_MODE", 46),
	U("PR_GET_IO_FLUSHER", 58), U("PR_GET_KEEPCAPS", 7), U("PR_GET_MDWE", 66),
	U("PR_GET_MEMORY_MERGE", 68), U("PR_GET_NAME", 16), U("PR_GET_NO_NEW_PRIVS", 39),
	U("PR_GET_PDEATHSIG", 2), U("PR_GET_SECCOMP", 21), U("PR_GET_SECUREBITS", 27),
	U("PR_GET_SPECULATION_CTRL", 52), U("PR_GET_TAGGED_ADDR_CTRL", 56),
	U("PR_GET_THP_DISABLE", 42), U("PR_GET_TID_ADDRESS", 40), U("PR_GET_TIMERSLACK", 30),
	U("PR_GET_TIMING", 13), U("PR_GET_TSC", 25), U("PR_GET_UNALIGN", 5),
	U("PR_MCE_KILL", 33), U("PR_MCE_KILL_GET", 34), U("PR_MPX_DISABLE_MANAGEMENT", 44),
	U("PR_MPX_ENABLE_MANAGEMENT", 43), U("PR_PAC_GET_ENABLED_KEYS", 61),
	U("PR_PAC_RESET_KEYS", 54), U("PR_PAC_SET_ENABLED_KEYS", 60), U("PR_SCHED_CORE", 62),
	U("PR_SET_CHILD_SUBREAPER", 36), U("PR_SET_DUMPABLE", 4), U("PR_SET_ENDIAN", 20),
	U("PR_SET_FPEMU", 10), U("PR_SET_FPEXC", 12), U("PR_SET_FP_MODE", 45),
	U("PR_SET_IO_FLUSHER", 57), U("PR_SET_KEEPCAPS", 8), U("PR_SET_MDWE", 65),
	U("PR_SET_MEMORY_MERGE", 67), U("PR_SET_MM", 35), U("PR_SET_NAME", 15),
	U("PR_SET_NO_NEW_PRIVS", 38), U("PR_SET_PDEATHSIG", 1), U("PR_SET_PTRACER", 0x59616d61),
	U("PR_SET_SECCOMP", 22), U("PR_SET_SECUREBITS", 28), U("PR_SET_SPECULATION_CTRL", 53),
	U("PR_SET_SYSCALL_USER_DISPATCH", 59), U("PR_SET_TAGGED_ADDR_CTRL", 55),
	U("PR_SET_THP_DISABLE", 41), U("PR_SET_TIMERSLACK", 29), U("PR_SET_TIMING", 14),
	U("PR_SET_TSC", 26), U("PR_SET_UNALIGN", 6), U("PR_SET_VMA", 0x53564d41),
	U("PR_SME_GET_VL", 64), U("PR_SME_SET_VL", 63), U("PR_SVE_GET_VL", 51),
	U("PR_SVE_SET_VL", 50), U("PR_TASK_PERF_EVENTS_DISABLE", 31),
	U("PR_TASK_PERF_EVENTS_ENABLE", 32),
};

static const struct constant ioctl_requests[] = {
	/*                 generic     ARM         m68k        PowerPC     MIPS        PA-RISC     SuperH */
	C("FIOASYNC",      0x5452,     0x5452,     0x5452,     0x8004667d, 0x667d,     0x5452,     0x4004667d),
	C("FIOCLEX",       0x5451,     0x5451,     0x5451,     0x20006601, 0x6601,     0x5451,     0x6601),
	C("FIONBIO",       0x5421,     0x5421,     0x5421,     0x8004667e, 0x667e,     0x5421,     0x4004667e),
	C("FIONCLEX",      0x5450,     0x5450,     0x5450,     0x20006602, 0x6602,     0x5450,     0x6602),
	C("FIONREAD",      0x541b,     0x541b,     0x541b,     0x4004667f, 0x467f,     0x541b,     0x8004667f),
	C("TCFLSH",        0x540b,     0x540b,     0x540b,     0x2000741f, 0x5407,     0x5407,     0x741f),
	C("TCGETS",        0x5401,     0x5401,     0x5401,     0x402c7413, 0x540d,     NA,         0x5401),
	C("TCSBRK",        0x5409,     0x5409,     0x5409,     0x2000741d, 0x5405,     0x5405,     0x741d),
	C("TCSETS",        0x5402,     0x5402,     0x5402,     0x802c7414, 0x540e,     NA,         0x5402),
	C("TCSETSF",       0x5404,     0x5404,     0x5404,     0x802c7416, 0x5410,     NA,         0x5404),
	C("TCSETSW",       0x5403,     0x5403,     0x5403,     0x802c7415, 0x540f,     NA,         0x5403),
	C("TCXONC",        0x540a,     0x540a,     0x540a,     0x2000741e, 0x5406,     0x5406,     0x741e),
	C("TIOCCONS",      0x541d,     0x541d,     0x541d,     0x541d,     0x80047478, 0x541d,     0x541d),
	C("TIOCEXCL",      0x540c,     0x540c,     0x540c,     0x540c,     0x740d,     0x540c,     0x540c),
	C("TIOCGETD",      0x5424,     0x5424,     0x5424,     0x5424,     0x7400,     0x5424,     0x80045424),
	C("TIOCGEXCL",     0x80045440, 0x80045440, 0x80045440, 0x40045440, 0x40045440, 0x40045440, 0x80045440),
	C("TIOCGPGRP",     0x540f,     0x540f,     0x540f,     0x40047477, 0x40047477, 0x4004541e, 0x80047477),
	C("TIOCGPKT",      0x80045438, 0x80045438, 0x80045438, 0x40045438, 0x40045438, 0x40045438, 0x80045438),
	C("TIOCGPTLCK",    0x80045439, 0x80045439, 0x80045439, 0x40045439, 0x40045439, 0x40045439, 0x80045439),
	C("TIOCGPTN",      0x80045430, 0x80045430, 0x80045430, 0x40045430, 0x40045430, 0x40045430, 0x80045430),
	C("TIOCGPTPEER",   0x5441,     0x5441,     0x5441,     0x20005441, 0x20005441, 0x5441,     0x5441),
	C("TIOCGSID",      0x5429,     0x5429,     0x5429,     0x5429,     0x7416,     0x40045414, 0x80045429),
	C("TIOCGWINSZ",    0x5413,     0x5413,     0x5413,     0x40087468, 0x40087468, 0x5413,     0x80087468),
	C("TIOCINQ",       0x541b,     0x541b,     0x541b,     0x4004667f, 0x467f,     0x541b,     0x8004667f),
	C("TIOCLINUX",     0x541c,     0x541c,     0x541c,     0x541c,     0x5483,     0x541c,     0x4001541c),
	C("TIOCMGET",      0x5415,     0x5415,     0x5415,     0x5415,     0x741d,     0x5415,     0x80045415),
	C("TIOCNOTTY",     0x5422,     0x5422,     0x5422,     0x5422,     0x5471,     0x5422,     0x5422),
	C("TIOCNXCL",      0x540d,     0x540d,     0x540d,     0x540d,     0x740e,     0x540d,     0x540d),
	C("TIOCOUTQ",      0x5411,     0x5411,     0x5411,     0x40047473, 0x7472,     0x5411,     0x80047473),
	C("TIOCPKT",       0x5420,     0x5420,     0x5420,     0x5420,     0x5470,     0x5420,     0x40045420),
	C("TIOCSCTTY",     0x540e,     0x540e,     0x540e,     0x540e,     0x5480,     0x540e,     0x540e),
	C("TIOCSETD",      0x5423,     0x5423,     0x5423,     0x5423,     0x7401,     0x5423,     0x40045423),
	C("TIOCSIG",       0x40045436, 0x40045436, 0x40045436, 0x80045436, 0x80045436, 0x80045436, 0x40045436),
	C("TIOCSPGRP",     0x5410,     0x5410,     0x5410,     0x80047476, 0x80047476, 0x8004541d, 0x40047476),
	C("TIOCSPTLCK",    0x40045431, 0x40045431, 0x40045431, 0x80045431, 0x80045431, 0x80045431, 0x40045431),
	C("TIOCSTI",       0x5412,     0x5412,     0x5412,     0x5412,     0x5472,     0x5412,     0x40015412),
	C("TIOCSWINSZ",    0x5414,     0x5414,     0x5414,     0x80087467, 0x80087467, 0x5414,     0x40087467),
	C("TIOCVHANGUP",   0x5437,     0x5437,     0x5437,     0x5437,     0x5437,     0x5437,     0x5437),
};

static const struct constant signals[] = {
	/* MIPS keeps the IRIX numbering above 15; PA-RISC's is not tabulated here */
	/*               generic ARM  m68k PowerPC MIPS  PA-RISC SuperH */
	A("SIGABRT",     6),
	C("SIGALRM",     14,     14,  14,  14,     14,   14,     14),
	C("SIGBUS",      7,      7,   7,   7,      10,   NA,     7),
	C("SIGCHLD",     17,     17,  17,  17,     18,   NA,     17),
	C("SIGCONT",     18,     18,  18,  18,     25,   NA,     18),
	C("SIGFPE",      8,      8,   8,   8,      8,    8,      8),
	A("SIGHUP",      1),
	A("SIGILL",      4),
	A("SIGINT",      2),
	C("SIGIO",       29,     29,  29,  29,     22,   NA,     29),
	A("SIGIOT",      6),
	A("SIGKILL",     9),
	A("SIGPIPE",     13),
	C("SIGPOLL",     29,     29,  29,  29,     22,   NA,     29),
	C("SIGPROF",     27,     27,  27,  27,     29,   NA,     27),
	C("SIGPWR",      30,     30,  30,  30,     19,   NA,     30),
	A("SIGQUIT",     3),
	A("SIGSEGV",     11),
	C("SIGSTKFLT",   16,     16,  16,  16,     NA,   NA,     16),
	C("SIGSTOP",     19,     19,  19,  19,     23,   NA,     19),
	C("SIGSYS",      31,     31,  31,  31,     12,   NA,     31),
	A("SIGTERM",     15),
	A("SIGTRAP",     5),
	C("SIGTSTP",     20,     20,  20,  20,     24,   NA,     20),
	C("SIGTTIN",     21,     21,  21,  21,     26,   NA,     21),
	C("SIGTTOU",     22,     22,  22,  22,     27,   NA,     22),
	C("SIGURG",      23,     23,  23,  23,     21,   NA,     23),
	C("SIGUSR1",     10,     10,  10,  10,     16,   NA,     10),
	C("SIGUSR2",     12,     12,  12,  12,     17,   NA,     12),
	C("SIGVTALRM",   26,     26,  26,  26,     28,   NA,     26),
	C("SIGWINCH",    28,     28,  28,  28,     20,   NA,     28),
	C("SIGXCPU",     24,     24,  24,  24,     30,   NA,     24),
	C("SIGXFSZ",     25,     25,  25,  25,     31,   NA,     25),
	C("SIG_BLOCK",   0,      0,   0,   0,      1,    NA,     0),
	C("SIG_SETMASK", 2,      2,   2,   2,      3,    NA,     2),
	C("SIG_UNBLOCK", 1,      1,   1,   1,      2,    NA,     1),
};

static const struct constant misc[] = {
	U("CLOCK_BOOTTIME", 7), U("CLOCK_BOOTTIME_ALARM", 9), U("CLOCK_MONOTONIC", 1),
	U("CLOCK_MONOTONIC_COARSE", 6), U("CLOCK_MONOTONIC_RAW", 4),
	U("CLOCK_PROCESS_CPUTIME_ID", 2), U("CLOCK_REALTIME", 0), U("CLOCK_REALTIME_ALARM", 8),
	U("CLOCK_REALTIME_COARSE", 5), U("CLOCK_TAI", 11), U("CLOCK_THREAD_CPUTIME_ID", 3),
	R("EFD_CLOEXEC", ROW_O_CLOEXEC),
	R("EFD_NONBLOCK", ROW_O_NONBLOCK),
	U("EFD_SEMAPHORE", 1),
	R("EPOLL_CLOEXEC", ROW_O_CLOEXEC),
	U("FUTEX_CLOCK_REALTIME", 256), U("FUTEX_CMP_REQUEUE", 4), U("FUTEX_CMP_REQUEUE_PI", 12),
	U("FUTEX_FD", 2), U("FUTEX_LOCK_PI", 6), U("FUTEX_LOCK_PI2", 13),
	U("FUTEX_PRIVATE_FLAG", 128), U("FUTEX_REQUEUE", 3), U("FUTEX_TRYLOCK_PI", 8),
	U("FUTEX_UNLOCK_PI", 7), U("FUTEX_WAIT", 0), U("FUTEX_WAIT_BITSET", 9),
	U("FUTEX_WAIT_PRIVATE", 128), U("FUTEX_WAIT_REQUEUE_PI", 11), U("FUTEX_WAKE", 1),
	U("FUTEX_WAKE_BITSET", 10), U("FUTEX_WAKE_OP", 5), U("FUTEX_WAKE_PRIVATE", 129),
	U("GRND_INSECURE", 4), U("GRND_NONBLOCK", 1), U("GRND_RANDOM", 2),
	R("IN_CLOEXEC", ROW_O_CLOEXEC),
	R("IN_NONBLOCK", ROW_O_NONBLOCK),
	R("PIDFD_NONBLOCK", ROW_O_NONBLOCK),
	U("PTRACE_ATTACH", 16), U("PTRACE_CONT", 7), U("PTRACE_DETACH", 17),
	U("PTRACE_GETEVENTMSG", 0x4201), U("PTRACE_GETREGSET", 0x4204),
	U("PTRACE_GETSIGINFO", 0x4202), U("PTRACE_GETSIGMASK", 0x420a),
	U("PTRACE_GET_SYSCALL_INFO", 0x420e), U("PTRACE_INTERRUPT", 0x4207),
	U("PTRACE_KILL", 8), U("PTRACE_LISTEN", 0x4208), U("PTRACE_PEEKDATA", 2),
	U("PTRACE_PEEKSIGINFO", 0x4209), U("PTRACE_PEEKTEXT", 1), U("PTRACE_PEEKUSER", 3),
	U("PTRACE_POKEDATA", 5), U("PTRACE_POKETEXT", 4), U("PTRACE_POKEUSER", 6),
	U("PTRACE_SECCOMP_GET_FILTER", 0x420c), U("PTRACE_SECCOMP_GET_METADATA", 0x420d),
	U("PTRACE_SEIZE", 0x4206), U("PTRACE_SETOPTIONS", 0x4200),
	U("PTRACE_SETREGSET", 0x4205), U("PTRACE_SETSIGINFO", 0x4203),
	U("PTRACE_SETSIGMASK", 0x420b), U("PTRACE_SINGLESTEP", 9), U("PTRACE_SYSCALL", 24),
	U("PTRACE_TRACEME", 0),
	U("P_ALL", 0), U("P_PGID", 2), U("P_PID", 1), U("P_PIDFD", 3),
	U("SECCOMP_FILTER_FLAG_LOG", 2), U("SECCOMP_FILTER_FLAG_NEW_LISTENER", 8),
	U("SECCOMP_FILTER_FLAG_SPEC_ALLOW", 4), U("SECCOMP_FILTER_FLAG_TSYNC", 1),
	U("SECCOMP_FILTER_FLAG_TSYNC_ESRCH", 16), U("SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", 32),
	U("SECCOMP_GET_ACTION_AVAIL", 2), U("SECCOMP_GET_NOTIF_SIZES", 3),
	U("SECCOMP_SET_MODE_FILTER", 1), U("SECCOMP_SET_MODE_STRICT", 0),
	R("SFD_CLOEXEC", ROW_O_CLOEXEC),
	R("SFD_NONBLOCK", ROW_O_NONBLOCK),
	R("TFD_CLOEXEC", ROW_O_CLOEXEC),
	R("TFD_NONBLOCK", ROW_O_NONBLOCK),
};

/* Block-device requests: _IO(0x12, n), whose "no data" direction bit is 1 << 29 on PowerPC and MIPS. */
#define BLK(n, v) C(n, v, v, v, 0x20000000 | (v), 0x20000000 | (v), v, v)
static const struct constant block_ioctls[] = {
	BLK("BLKALIGNOFF", 0x127a), BLK("BLKDISCARD", 0x1277), BLK("BLKDISCARDZEROES", 0x127c),
	BLK("BLKFLSBUF", 0x1261), BLK("BLKFRAGET", 0x1265), BLK("BLKFRASET", 0x1264),
	BLK("BLKGETSIZE", 0x1260), BLK("BLKIOMIN", 0x1278), BLK("BLKIOOPT", 0x1279),
	BLK("BLKPBSZGET", 0x127b), BLK("BLKRAGET", 0x1263), BLK("BLKRASET", 0x1262),
	BLK("BLKROGET", 0x125e), BLK("BLKROSET", 0x125d), BLK("BLKROTATIONAL", 0x127e),
	BLK("BLKRRPART", 0x125f), BLK("BLKSECDISCARD", 0x127d), BLK("BLKSECTGET", 0x1267),
	BLK("BLKSECTSET", 0x1266), BLK("BLKSSZGET", 0x1268), BLK("BLKZEROOUT", 0x127f),
};

/* Socket requests of include/uapi/linux/sockios.h (plain numbers, the same everywhere). */
static const struct constant socket_ioctls[] = {
	U("SIOCADDMULTI", 0x8931), U("SIOCADDRT", 0x890b), U("SIOCBRADDBR", 0x89a0),
	U("SIOCBRADDIF", 0x89a2), U("SIOCBRDELBR", 0x89a1), U("SIOCBRDELIF", 0x89a3),
	U("SIOCDARP", 0x8953), U("SIOCDELMULTI", 0x8932), U("SIOCDELRT", 0x890c),
	U("SIOCDIFADDR", 0x8936), U("SIOCETHTOOL", 0x8946), U("SIOCGARP", 0x8954),
	U("SIOCGIFADDR", 0x8915), U("SIOCGIFBR", 0x8940), U("SIOCGIFBRDADDR", 0x8919),
	U("SIOCGIFCONF", 0x8912), U("SIOCGIFCOUNT", 0x8938), U("SIOCGIFDSTADDR", 0x8917),
	U("SIOCGIFENCAP", 0x8925), U("SIOCGIFFLAGS", 0x8913), U("SIOCGIFHWADDR", 0x8927),
	U("SIOCGIFINDEX", 0x8933), U("SIOCGIFMAP", 0x8970), U("SIOCGIFMEM", 0x891f),
	U("SIOCGIFMETRIC", 0x891d), U("SIOCGIFMTU", 0x8921), U("SIOCGIFNAME", 0x8910),
	U("SIOCGIFNETMASK", 0x891b), U("SIOCGIFPFLAGS", 0x8935), U("SIOCGIFSLAVE", 0x8929),
	U("SIOCGIFTXQLEN", 0x8942), U("SIOCGIFVLAN", 0x8982), U("SIOCGMIIPHY", 0x8947),
	U("SIOCGMIIREG", 0x8948), U("SIOCGSKNS", 0x894c), U("SIOCOUTQNSD", 0x894b),
	U("SIOCRTMSG", 0x890d), U("SIOCSARP", 0x8955), U("SIOCSIFADDR", 0x8916),
	U("SIOCSIFBR", 0x8941), U("SIOCSIFBRDADDR", 0x891a), U("SIOCSIFDSTADDR", 0x8918),
	U("SIOCSIFENCAP", 0x8926), U("SIOCSIFFLAGS", 0x8914), U("SIOCSIFHWADDR", 0x8924),
	U("SIOCSIFHWBROADCAST", 0x8937), U("SIOCSIFLINK", 0x8911), U("SIOCSIFMAP", 0x8971),
	U("SIOCSIFMEM", 0x8920), U("SIOCSIFMETRIC", 0x891e), U("SIOCSIFMTU", 0x8922),
	U("SIOCSIFNAME", 0x8923), U("SIOCSIFNETMASK", 0x891c), U("SIOCSIFPFLAGS", 0x8934),
	U("SIOCSIFSLAVE", 0x8930), U("SIOCSIFTXQLEN", 0x8943), U("SIOCSIFVLAN", 0x8983),
	U("SIOCSMIIREG", 0x8949), U("SIOCWANDEV", 0x894a),
};

/* mount(2) and umount2(2) flags (include/uapi/linux/mount.h, fs.h). */
static const struct constant mount_flags[] = {
	U("MNT_DETACH", 2), U("MNT_EXPIRE", 4), U("MNT_FORCE", 1),
	U("MS_BIND", 0x1000), U("MS_DIRSYNC", 0x80), U("MS_I_VERSION", 0x800000),
	U("MS_KERNMOUNT", 0x400000), U("MS_LAZYTIME", 0x2000000), U("MS_MANDLOCK", 0x40),
	U("MS_MGC_VAL", 0xc0ed0000), U("MS_MOVE", 0x2000), U("MS_NOATIME", 0x400),
	U("MS_NODEV", 0x4), U("MS_NODIRATIME", 0x800), U("MS_NOEXEC", 0x8), U("MS_NOSUID", 0x2),
	U("MS_NOSYMFOLLOW", 0x100), U("MS_POSIXACL", 0x10000), U("MS_PRIVATE", 0x40000),
	U("MS_RDONLY", 0x1), U("MS_REC", 0x4000), U("MS_RELATIME", 0x200000),
	U("MS_REMOUNT", 0x20), U("MS_SHARED", 0x100000), U("MS_SILENT", 0x8000),
	U("MS_SLAVE", 0x80000), U("MS_STRICTATIME", 0x1000000), U("MS_SYNCHRONOUS", 0x10),
	U("MS_UNBINDABLE", 0x20000), U("UMOUNT_NOFOLLOW", 8),
};

/* statx(2) masks (include/uapi/linux/stat.h). */
static const struct constant statx_masks[] = {
	U("STATX_ALL", 0xfff), U("STATX_ATIME", 0x20), U("STATX_BASIC_STATS", 0x7ff),
	U("STATX_BLOCKS", 0x400), U("STATX_BTIME", 0x800), U("STATX_CTIME", 0x80),
	U("STATX_DIOALIGN", 0x2000), U("STATX_DIO_READ_ALIGN", 0x20000), U("STATX_GID", 0x10),
	U("STATX_INO", 0x100), U("STATX_MNT_ID", 0x1000), U("STATX_MNT_ID_UNIQUE", 0x4000),
	U("STATX_MODE", 0x2), U("STATX_MTIME", 0x40), U("STATX_NLINK", 0x4),
	U("STATX_SIZE", 0x200), U("STATX_SUBVOL", 0x8000), U("STATX_TYPE", 0x1),
	U("STATX_UID", 0x8), U("STATX_WRITE_ATOMIC", 0x10000),
};

/* keyctl(2) operations (include/uapi/linux/keyctl.h). */
static const struct constant keyctl_operations[] = {
	U("KEYCTL_ASSUME_AUTHORITY", 16), U("KEYCTL_CAPABILITIES", 31), U("KEYCTL_CHOWN", 4),
	U("KEYCTL_CLEAR", 7), U("KEYCTL_DESCRIBE", 6), U("KEYCTL_DH_COMPUTE", 23),
	U("KEYCTL_GET_KEYRING_ID", 0), U("KEYCTL_GET_PERSISTENT", 22), U("KEYCTL_GET_SECURITY", 17),
	U("KEYCTL_INSTANTIATE", 12), U("KEYCTL_INSTANTIATE_IOV", 20), U("KEYCTL_INVALIDATE", 21),
	U("KEYCTL_JOIN_SESSION_KEYRING", 1), U("KEYCTL_LINK", 8), U("KEYCTL_MOVE", 30),
	U("KEYCTL_NEGATE", 13), U("KEYCTL_PKEY_DECRYPT", 26), U("KEYCTL_PKEY_ENCRYPT", 25),
	U("KEYCTL_PKEY_QUERY", 24), U("KEYCTL_PKEY_SIGN", 27), U("KEYCTL_PKEY_VERIFY", 28),
	U("KEYCTL_READ", 11), U("KEYCTL_REJECT", 19), U("KEYCTL_RESTRICT_KEYRING", 29),
	U("KEYCTL_REVOKE", 3), U("KEYCTL_SEARCH", 10), U("KEYCTL_SESSION_TO_PARENT", 18),
	U("KEYCTL_SETPERM", 5), U("KEYCTL_SET_REQKEY_KEYRING", 14), U("KEYCTL_SET_TIMEOUT", 15),
	U("KEYCTL_UNLINK", 9), U("KEYCTL_UPDATE", 2), U("KEYCTL_WATCH_KEY", 32),
};

/* bpf(2) commands (enum bpf_cmd, include/uapi/linux/bpf.h). */
static const struct constant bpf_commands[] = {
	U("BPF_BTF_GET_FD_BY_ID", 19), U("BPF_BTF_GET_NEXT_ID", 23), U("BPF_BTF_LOAD", 18),
	U("BPF_ENABLE_STATS", 32), U("BPF_ITER_CREATE", 33), U("BPF_LINK_CREATE", 28),
	U("BPF_LINK_DETACH", 34), U("BPF_LINK_GET_FD_BY_ID", 30), U("BPF_LINK_GET_NEXT_ID", 31),
	U("BPF_LINK_UPDATE", 29), U("BPF_MAP_CREATE", 0), U("BPF_MAP_DELETE_BATCH", 27),
	U("BPF_MAP_DELETE_ELEM", 3), U("BPF_MAP_FREEZE", 22), U("BPF_MAP_GET_FD_BY_ID", 14),
	U("BPF_MAP_GET_NEXT_ID", 12), U("BPF_MAP_GET_NEXT_KEY", 4),
	U("BPF_MAP_LOOKUP_AND_DELETE_BATCH", 25), U("BPF_MAP_LOOKUP_AND_DELETE_ELEM", 21),
	U("BPF_MAP_LOOKUP_BATCH", 24), U("BPF_MAP_LOOKUP_ELEM", 1), U("BPF_MAP_UPDATE_BATCH", 26),
	U("BPF_MAP_UPDATE_ELEM", 2), U("BPF_OBJ_GET", 7), U("BPF_OBJ_GET_INFO_BY_FD", 15),
	U("BPF_OBJ_PIN", 6), U("BPF_PROG_ATTACH", 8), U("BPF_PROG_BIND_MAP", 35),
	U("BPF_PROG_DETACH", 9), U("BPF_PROG_GET_FD_BY_ID", 13), U("BPF_PROG_GET_NEXT_ID", 11),
	U("BPF_PROG_LOAD", 5), U("BPF_PROG_QUERY", 16), U("BPF_PROG_TEST_RUN", 10),
	U("BPF_RAW_TRACEPOINT_OPEN", 17), U("BPF_TASK_FD_QUERY", 20), U("BPF_TOKEN_CREATE", 36),
};

/* personality(2): execution domains and flags (include/uapi/linux/personality.h). */
static const struct constant personalities[] = {
	U("ADDR_COMPAT_LAYOUT", 0x200000), U("ADDR_LIMIT_32BIT", 0x800000),
	U("ADDR_LIMIT_3GB", 0x8000000), U("ADDR_NO_RANDOMIZE", 0x40000),
	U("FDPIC_FUNCPTRS", 0x80000), U("MMAP_PAGE_ZERO", 0x100000), U("PER_BSD", 6),
	U("PER_LINUX", 0), U("PER_LINUX32", 8), U("READ_IMPLIES_EXEC", 0x400000),
	U("SHORT_INODE", 0x1000000), U("STICKY_TIMEOUTS", 0x4000000), U("UNAME26", 0x20000),
	U("WHOLE_SECONDS", 0x2000000),
};

/* getrlimit/setrlimit/prlimit64 resources (asm-generic/resource.h; MIPS numbers five apart). */
static const struct constant resource_limits[] = {
	C("RLIMIT_AS",         9,  9,  9,  9,  6,  9,  9),
	A("RLIMIT_CORE",       4),
	A("RLIMIT_CPU",        0),
	A("RLIMIT_DATA",       2),
	A("RLIMIT_FSIZE",      1),
	A("RLIMIT_LOCKS",      10),
	C("RLIMIT_MEMLOCK",    8,  8,  8,  8,  9,  8,  8),
	A("RLIMIT_MSGQUEUE",   12),
	A("RLIMIT_NICE",       13),
	C("RLIMIT_NOFILE",     7,  7,  7,  7,  5,  7,  7),
	C("RLIMIT_NPROC",      6,  6,  6,  6,  8,  6,  6),
	C("RLIMIT_RSS",        5,  5,  5,  5,  7,  5,  5),
	A("RLIMIT_RTPRIO",     14),
	A("RLIMIT_RTTIME",     15),
	A("RLIMIT_SIGPENDING", 11),
	A("RLIMIT_STACK",      3),
};

/*
 * Files and descriptors: access(2) modes, epoll_ctl(2) operations, fadvise64(2)
 * advice (on s390x DONTNEED and NOREUSE are 6 and 7: abi_exceptions below).
 */
static const struct constant file_operations[] = {
	U("EPOLL_CTL_ADD", 1), U("EPOLL_CTL_DEL", 2), U("EPOLL_CTL_MOD", 3),
	U("F_OK", 0),
	U("POSIX_FADV_DONTNEED", 4), U("POSIX_FADV_NOREUSE", 5), U("POSIX_FADV_NORMAL", 0),
	U("POSIX_FADV_RANDOM", 1), U("POSIX_FADV_SEQUENTIAL", 2), U("POSIX_FADV_WILLNEED", 3),
	U("R_OK", 4), U("W_OK", 2), U("X_OK", 1),
};

/*
 * Processes: arch_prctl(2) codes (x86), interval timers, reboot(2)'s magic numbers
 * and commands, and the wait4/waitid options.
 */
static const struct constant process_control[] = {
	U("ARCH_GET_CPUID", 0x1011), U("ARCH_GET_FS", 0x1003), U("ARCH_GET_GS", 0x1004),
	U("ARCH_SET_CPUID", 0x1012), U("ARCH_SET_FS", 0x1002), U("ARCH_SET_GS", 0x1001),
	U("ITIMER_PROF", 2), U("ITIMER_REAL", 0), U("ITIMER_VIRTUAL", 1),
	U("LINUX_REBOOT_CMD_CAD_OFF", 0), U("LINUX_REBOOT_CMD_CAD_ON", 0x89abcdef),
	U("LINUX_REBOOT_CMD_HALT", 0xcdef0123), U("LINUX_REBOOT_CMD_KEXEC", 0x45584543),
	U("LINUX_REBOOT_CMD_POWER_OFF", 0x4321fedc), U("LINUX_REBOOT_CMD_RESTART", 0x01234567),
	U("LINUX_REBOOT_CMD_RESTART2", 0xa1b2c3d4), U("LINUX_REBOOT_CMD_SW_SUSPEND", 0xd000fce2),
	U("LINUX_REBOOT_MAGIC1", 0xfee1dead), U("LINUX_REBOOT_MAGIC2", 0x28121969),
	U("LINUX_REBOOT_MAGIC2A", 0x05121996), U("LINUX_REBOOT_MAGIC2B", 0x16041998),
	U("LINUX_REBOOT_MAGIC2C", 0x20112000),
	U("WCONTINUED", 8), U("WEXITED", 4), U("WNOHANG", 1), U("WNOWAIT", 0x1000000),
	U("WSTOPPED", 2), U("WUNTRACED", 2),
	U("__WALL", 0x40000000), U("__WCLONE", 0x80000000), U("__WNOTHREAD", 0x20000000),
};
/*
 * System V IPC (include/uapi/linux/{ipc,shm,msg,sem}.h): the get calls' flags,
 * shmat's and the message calls' flags, the ctl calls' commands and IPC_64, the bit 32-bit ABIs' C libraries OR into
 * a command; and sync_file_range(2)'s flags (include/uapi/linux/fs.h).
 */
static const struct constant ipc_operations[] = {
	U("GETALL", 13), U("GETNCNT", 14), U("GETPID", 11), U("GETVAL", 12), U("GETZCNT", 15),
	U("IPC_64", 0x100), U("IPC_CREAT", 0x200), U("IPC_EXCL", 0x400), U("IPC_INFO", 3),
	U("IPC_NOWAIT", 0x800), U("IPC_RMID", 0), U("IPC_SET", 1), U("IPC_STAT", 2),
	U("MSG_COPY", 0x4000), U("MSG_EXCEPT", 0x2000), U("MSG_INFO", 12), U("MSG_NOERROR", 0x1000),
	U("MSG_STAT", 11), U("MSG_STAT_ANY", 13),
	U("SEM_INFO", 19), U("SEM_STAT", 18), U("SEM_STAT_ANY", 20), U("SETALL", 17), U("SETVAL", 16),
	U("SHM_EXEC", 0x8000), U("SHM_HUGETLB", 0x800), U("SHM_INFO", 14), U("SHM_LOCK", 11),
	U("SHM_NORESERVE", 0x1000), U("SHM_RDONLY", 0x1000), U("SHM_REMAP", 0x4000),
	U("SHM_RND", 0x2000), U("SHM_STAT", 13), U("SHM_STAT_ANY", 15), U("SHM_UNLOCK", 12),
	U("SYNC_FILE_RANGE_WAIT_AFTER", 4), U("SYNC_FILE_RANGE_WAIT_BEFORE", 1),
	U("SYNC_FILE_RANGE_WRITE", 2),
};
/*
 * setsockopt/getsockopt option names, each meaning something only at its
 * level.  SO_* come from the arch headers (asm-generic, with PowerPC's
 * LOWAT/TIMEO/CRED block moved, MIPS and PA-RISC numbered apart); the
 * others from include/uapi/linux/{in,in6,tcp}.h, the same everywhere.
 */
static const struct constant socket_options[] = {
	U("IPV6_ADDRFORM", 1), U("IPV6_ADD_MEMBERSHIP", 20), U("IPV6_AUTOFLOWLABEL", 70),
	U("IPV6_CHECKSUM", 7), U("IPV6_DROP_MEMBERSHIP", 21), U("IPV6_FREEBIND", 78),
	U("IPV6_HOPLIMIT", 52), U("IPV6_JOIN_ANYCAST", 27), U("IPV6_LEAVE_ANYCAST", 28),
	U("IPV6_MINHOPCOUNT", 73), U("IPV6_MTU", 24), U("IPV6_MTU_DISCOVER", 23),
	U("IPV6_MULTICAST_HOPS", 18), U("IPV6_MULTICAST_IF", 17), U("IPV6_MULTICAST_LOOP", 19),
	U("IPV6_NEXTHOP", 9), U("IPV6_PKTINFO", 50), U("IPV6_RECVERR", 25),
	U("IPV6_RECVHOPLIMIT", 51), U("IPV6_RECVPKTINFO", 49), U("IPV6_RECVTCLASS", 66),
	U("IPV6_ROUTER_ALERT", 22), U("IPV6_TCLASS", 67), U("IPV6_TRANSPARENT", 75),
	U("IPV6_UNICAST_HOPS", 16), U("IPV6_UNICAST_IF", 76), U("IPV6_V6ONLY", 26),
	U("IP_ADD_MEMBERSHIP", 35), U("IP_ADD_SOURCE_MEMBERSHIP", 39),
	U("IP_BIND_ADDRESS_NO_PORT", 24), U("IP_BLOCK_SOURCE", 38), U("IP_CHECKSUM", 23),
	U("IP_DROP_MEMBERSHIP", 36), U("IP_DROP_SOURCE_MEMBERSHIP", 40), U("IP_FREEBIND", 15),
	U("IP_HDRINCL", 3), U("IP_MINTTL", 21), U("IP_MSFILTER", 41), U("IP_MTU", 14),
	U("IP_MTU_DISCOVER", 10), U("IP_MULTICAST_ALL", 49), U("IP_MULTICAST_IF", 32),
	U("IP_MULTICAST_LOOP", 34), U("IP_MULTICAST_TTL", 33), U("IP_NODEFRAG", 22),
	U("IP_OPTIONS", 4), U("IP_ORIGDSTADDR", 20), U("IP_PASSSEC", 18), U("IP_PKTINFO", 8),
	U("IP_PKTOPTIONS", 9), U("IP_RECVERR", 11), U("IP_RECVFRAGSIZE", 25),
	U("IP_RECVOPTS", 6), U("IP_RECVTOS", 13), U("IP_RECVTTL", 12), U("IP_RETOPTS", 7),
	U("IP_ROUTER_ALERT", 5), U("IP_TOS", 1), U("IP_TRANSPARENT", 19), U("IP_TTL", 2),
	U("IP_UNBLOCK_SOURCE", 37), U("IP_UNICAST_IF", 50),
	/*                    generic ARM  m68k PPC MIPS    PA-RISC SuperH */
	C("SO_ACCEPTCONN",    30, 30, 30, 30, 0x1009, 0x401c, 30),
	C("SO_ATTACH_FILTER", 26, 26, 26, 26, 26,     0x401a, 26),
	C("SO_BINDTODEVICE",  25, 25, 25, 25, 25,     0x4019, 25),
	C("SO_BROADCAST",     6,  6,  6,  6,  0x0020, 0x0020, 6),
	C("SO_BUSY_POLL",     46, 46, 46, 46, 46,     0x4027, 46),
	C("SO_COOKIE",        57, 57, 57, 57, 57,     0x4032, 57),
	C("SO_DEBUG",         1,  1,  1,  1,  1,      1,      1),
	C("SO_DETACH_FILTER", 27, 27, 27, 27, 27,     0x401b, 27),
	C("SO_DOMAIN",        39, 39, 39, 39, 0x1029, 0x1029, 39),
	C("SO_DONTROUTE",     5,  5,  5,  5,  0x0010, 0x0010, 5),
	C("SO_ERROR",         4,  4,  4,  4,  0x1007, 0x1007, 4),
	C("SO_INCOMING_CPU",  49, 49, 49, 49, 49,     0x402a, 49),
	C("SO_KEEPALIVE",     9,  9,  9,  9,  0x0008, 0x0008, 9),
	C("SO_LINGER",        13, 13, 13, 13, 0x0080, 0x0080, 13),
	C("SO_MARK",          36, 36, 36, 36, 36,     0x401f, 36),
	C("SO_NO_CHECK",      11, 11, 11, 11, 11,     0x400b, 11),
	C("SO_OOBINLINE",     10, 10, 10, 10, 0x0100, 0x0100, 10),
	C("SO_PASSCRED",      16, 16, 16, 20, 17,     0x4010, 16),
	C("SO_PEERCRED",      17, 17, 17, 21, 18,     0x4011, 17),
	C("SO_PRIORITY",      12, 12, 12, 12, 12,     0x400c, 12),
	C("SO_PROTOCOL",      38, 38, 38, 38, 0x1028, 0x1028, 38),
	C("SO_RCVBUF",        8,  8,  8,  8,  0x1002, 0x1002, 8),
	C("SO_RCVBUFFORCE",   33, 33, 33, 33, 33,     0x100b, 33),
	C("SO_RCVLOWAT",      18, 18, 18, 16, 0x1004, 0x1004, 18),
	C("SO_REUSEADDR",     2,  2,  2,  2,  0x0004, 0x0004, 2),
	C("SO_REUSEPORT",     15, 15, 15, 15, 0x0200, 0x0200, 15),
	C("SO_SNDBUF",        7,  7,  7,  7,  0x1001, 0x1001, 7),
	C("SO_SNDBUFFORCE",   32, 32, 32, 32, NA,     0x100a, 32),
	C("SO_SNDLOWAT",      19, 19, 19, 17, 0x1003, 0x1003, 19),
	C("SO_TYPE",          3,  3,  3,  3,  0x1008, 0x1008, 3),
	C("SO_ZEROCOPY",      60, 60, 60, 60, 60,     0x4035, 60),
	U("TCP_CONGESTION", 13), U("TCP_CORK", 3), U("TCP_DEFER_ACCEPT", 9),
	U("TCP_FASTOPEN", 23), U("TCP_FASTOPEN_CONNECT", 30), U("TCP_INFO", 11),
	U("TCP_INQ", 36), U("TCP_KEEPCNT", 6), U("TCP_KEEPIDLE", 4), U("TCP_KEEPINTVL", 5),
	U("TCP_LINGER2", 8), U("TCP_MAXSEG", 2), U("TCP_MD5SIG", 14), U("TCP_NODELAY", 1),
	U("TCP_NOTSENT_LOWAT", 25), U("TCP_QUICKACK", 12), U("TCP_SYNCNT", 7),
	U("TCP_ULP", 31), U("TCP_USER_TIMEOUT", 18), U("TCP_WINDOW_CLAMP", 10),
	U("TCP_ZEROCOPY_RECEIVE", 35),
};
/* clang-format on */

/* Values an ABI takes apart from its column's (s390x's fadvise advice). */
static const struct {
	const char *abi, *name;
	uint64_t value;
} abi_exceptions[] = {
	{ "s390x", "POSIX_FADV_DONTNEED", 6 },
	{ "s390x", "POSIX_FADV_NOREUSE", 7 },
};

#define FAMILY(t)                                                                                  \
	{                                                                                          \
		(t), sizeof(t) / sizeof((t)[0])                                                    \
	}

static const struct family families[] = {
    FAMILY(address_families), FAMILY(socket_types),   FAMILY(socket_misc), FAMILY(open_flags),
    FAMILY(fcntl_commands),   FAMILY(at_flags),	      FAMILY(memory),	   FAMILY(clone_flags),
    FAMILY(prctl_options),    FAMILY(ioctl_requests), FAMILY(signals),	   FAMILY(misc),
    FAMILY(block_ioctls),     FAMILY(socket_ioctls),  FAMILY(mount_flags), FAMILY(statx_masks),
    FAMILY(keyctl_operations), FAMILY(bpf_commands),  FAMILY(personalities),
    FAMILY(resource_limits),   FAMILY(file_operations), FAMILY(process_control),
    FAMILY(socket_options),    FAMILY(ipc_operations),
};

#define FAMILY_COUNT (sizeof(families) / sizeof(families[0]))

/* Header family of an ABI, by its canonical name; V_COUNT when it has no column. */
static enum variant variant_of(const struct scg_arch *arch)
{
	static const struct {
		const char *prefix;
		enum variant variant;
	} map[] = {
	    {"x86", V_GENERIC},	 {"x32", V_GENERIC}, {"riscv", V_GENERIC}, {"loongarch", V_GENERIC},
	    {"s390", V_GENERIC}, {"aarch64", V_ARM}, {"arm", V_ARM},	   {"m68k", V_M68K},
	    {"ppc", V_PPC},	 {"mips", V_MIPS},   {"parisc", V_PARISC}, {"sh", V_SH},
	};
	const char *name = scg_arch_name(arch);
	for (size_t i = 0; name && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(name, map[i].prefix, strlen(map[i].prefix)))
			return map[i].variant;
	return V_COUNT;
}

static const struct constant *find_in(const struct family *f, const char *name)
{
	size_t lo = 0, hi = f->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(name, f->items[mid].name);
		if (cmp == 0)
			return &f->items[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static const struct constant *find_constant(const char *name)
{
	for (size_t i = 0; i < FAMILY_COUNT; i++) {
		const struct constant *c = find_in(&families[i], name);
		if (c)
			return c;
	}
	return NULL;
}

int constant_value(const char *name, const struct scg_arch *arch, uint64_t *value)
{
	const struct constant *c = find_constant(name);
	if (!c) {
		uint32_t e;
		/* errno names: their numbering differs on MIPS and PA-RISC */
		if (scg_errno_lookup(arch, name, &e) < 0)
			return -ENOENT;
		*value = e;
		return 0;
	}
	for (size_t i = 0; arch && i < sizeof(abi_exceptions) / sizeof(abi_exceptions[0]); i++)
		if (!strcmp(abi_exceptions[i].name, c->name) &&
		    !strcmp(abi_exceptions[i].abi, scg_arch_name(arch))) {
			*value = abi_exceptions[i].value;
			return 0;
		}
	enum variant v = variant_of(arch);
	if (v == V_COUNT) {
		if (!c->universal)
			return -ENODATA;
		v = V_GENERIC;
	}
	if (c->value[v] == NA)
		return -ENODATA;
	*value = c->value[v];
	return 0;
}

const char *scg_constant_name(const struct scg_arch *arch, const char *prefix, uint64_t value)
{
	size_t len = prefix ? strlen(prefix) : 0;
	for (size_t i = 0; arch && len && i < FAMILY_COUNT; i++)
		for (size_t j = 0; j < families[i].count; j++) {
			const char *name = families[i].items[j].name;
			uint64_t v;
			if (!strncmp(name, prefix, len) && constant_value(name, arch, &v) == 0 &&
			    v == value)
				return name;
		}
	return NULL;
}

const char *constant_suggest(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < FAMILY_COUNT; i++)
		for (size_t j = 0; j < families[i].count; j++)
			suggest_consider(&s, families[i].items[j].name);
	const char *best = suggest_result(&s);
	return best ? best : scg_errno_suggest(name);
}

size_t constant_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < FAMILY_COUNT; i++)
		n += families[i].count;
	return n;
}

const char *constant_name_at(size_t index)
{
	for (size_t i = 0; i < FAMILY_COUNT; i++) {
		if (index < families[i].count)
			return families[i].items[index].name;
		index -= families[i].count;
	}
	return NULL;
}

/*
 * The family of constants some parameters take, by syscall and parameter
 * name ("*": any syscall), with one member to show in hints.  Only
 * parameters whose values have one clear family are here.
 */
static const struct param_family {
	char syscall[24], param[16], prefix[16], example[32];
} param_families[] = {
    {"*", "dirfd", "AT_", "AT_FDCWD"},
    {"clock_gettime", "clockid", "CLOCK_", "CLOCK_MONOTONIC"},
    {"clock_nanosleep", "clockid", "CLOCK_", "CLOCK_MONOTONIC"},
    {"clone", "flags", "CLONE_", "CLONE_NEWUSER"},
    {"epoll_create1", "flags", "EPOLL_", "EPOLL_CLOEXEC"},
    {"eventfd2", "flags", "EFD_", "EFD_CLOEXEC"},
    {"fcntl", "cmd", "F_", "F_SETFL"},
    {"fcntl64", "cmd", "F_", "F_SETFL"},
    {"futex", "futex_op", "FUTEX_", "FUTEX_WAIT"},
    {"getrandom", "flags", "GRND_", "GRND_NONBLOCK"},
    {"inotify_init1", "flags", "IN_", "IN_CLOEXEC"},
    {"kill", "sig", "SIG", "SIGKILL"},
    {"lseek", "whence", "SEEK_", "SEEK_SET"},
    {"madvise", "advice", "MADV_", "MADV_DONTNEED"},
    {"memfd_create", "flags", "MFD_", "MFD_CLOEXEC"},
    {"mlockall", "flags", "MCL_", "MCL_CURRENT"},
    {"mmap", "flags", "MAP_", "MAP_SHARED"},
    {"mmap", "prot", "PROT_", "PROT_EXEC"},
    {"mmap2", "flags", "MAP_", "MAP_SHARED"},
    {"mmap2", "prot", "PROT_", "PROT_EXEC"},
    {"mprotect", "prot", "PROT_", "PROT_EXEC"},
    {"mremap", "flags", "MREMAP_", "MREMAP_MAYMOVE"},
    {"msync", "flags", "MS_", "MS_SYNC"},
    {"open", "flags", "O_", "O_CREAT"},
    {"openat", "flags", "O_", "O_CREAT"},
    {"pidfd_open", "flags", "PIDFD_", "PIDFD_NONBLOCK"},
    {"pkey_mprotect", "prot", "PROT_", "PROT_EXEC"},
    {"prctl", "option", "PR_", "PR_SET_NO_NEW_PRIVS"},
    {"ptrace", "request", "PTRACE_", "PTRACE_ATTACH"},
    {"recv", "flags", "MSG_", "MSG_PEEK"},
    {"recvfrom", "flags", "MSG_", "MSG_PEEK"},
    {"recvmmsg", "flags", "MSG_", "MSG_PEEK"},
    {"recvmsg", "flags", "MSG_", "MSG_PEEK"},
    {"renameat2", "flags", "RENAME_", "RENAME_NOREPLACE"},
    {"rt_sigprocmask", "how", "SIG_", "SIG_BLOCK"},
    {"rt_tgsigqueueinfo", "sig", "SIG", "SIGKILL"},
    {"seccomp", "operation", "SECCOMP_", "SECCOMP_SET_MODE_FILTER"},
    {"send", "flags", "MSG_", "MSG_DONTWAIT"},
    {"sendmmsg", "flags", "MSG_", "MSG_DONTWAIT"},
    {"sendmsg", "flags", "MSG_", "MSG_DONTWAIT"},
    {"sendto", "flags", "MSG_", "MSG_DONTWAIT"},
    {"setns", "nstype", "CLONE_", "CLONE_NEWNET"},
    {"shutdown", "how", "SHUT_", "SHUT_RDWR"},
    {"signalfd4", "flags", "SFD_", "SFD_CLOEXEC"},
    {"socket", "domain", "AF_", "AF_INET"},
    {"socket", "type", "SOCK_", "SOCK_STREAM"},
    {"socketpair", "domain", "AF_", "AF_UNIX"},
    {"socketpair", "type", "SOCK_", "SOCK_STREAM"},
    {"tgkill", "sig", "SIG", "SIGKILL"},
    {"timerfd_create", "clockid", "CLOCK_", "CLOCK_MONOTONIC"},
    {"timerfd_create", "flags", "TFD_", "TFD_CLOEXEC"},
    {"tkill", "sig", "SIG", "SIGKILL"},
    {"unshare", "flags", "CLONE_", "CLONE_NEWUSER"},
    {"waitid", "idtype", "P_", "P_PID"},
};

const char *constant_family(const char *syscall, const char *param, const char **example)
{
	for (size_t i = 0; syscall && param && i < sizeof(param_families) / sizeof(param_families[0]);
	     i++) {
		const struct param_family *f = &param_families[i];
		/* the parameter first: every comparison a policy reads comes through here */
		if (!strcmp(f->param, param) && (!strcmp(f->syscall, "*") || !strcmp(f->syscall, syscall))) {
			if (example)
				*example = f->example;
			return f->prefix;
		}
	}
	return NULL;
}

const char *constant_suggest_in(const char *name, const char *prefix)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	if (!plen)
		return constant_suggest(name);
	/* the family's prefix left out: CREAT for O_CREAT */
	char full[80];
	if (strncmp(name, prefix, plen) && snprintf(full, sizeof(full), "%s%s", prefix, name) <
					       (int)sizeof(full)) {
		const struct constant *c = find_constant(full);
		if (c)
			return c->name;
	}
	/* a typo of a member of the family, before the others */
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < FAMILY_COUNT; i++)
		for (size_t j = 0; j < families[i].count; j++)
			if (!strncmp(families[i].items[j].name, prefix, plen))
				suggest_consider(&s, families[i].items[j].name);
	const char *best = suggest_result(&s);
	return best ? best : constant_suggest(name);
}
