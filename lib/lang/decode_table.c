/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which constants each syscall parameter takes, for the decoder.  The
 * parameter names are those of the generated table (syscall_params.c,
 * from the man pages); the constants and their values per ABI are the
 * policy language's (constants.c), so whatever the decoder prints, a
 * policy reads back.
 */
#include <string.h>

#include "lang/decode_internal.h"

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define PREFIX(...) { .prefixes = LIST(__VA_ARGS__) }
#define NAMES(...) { .names = LIST(__VA_ARGS__) }

/* Names that repeat another's value; the decoder prints the usual one. */
static const char *const aliases[] = {
	"AF_LOCAL",	 "AF_ROUTE",	       "CSIGNAL",		  "FASYNC",
	"FUTEX_WAIT_PRIVATE", "FUTEX_WAKE_PRIVATE", "MAP_ANON",	  "MAP_FILE",
	"O_ACCMODE",	 "O_NDELAY",	       "SIGIOT",		  "SIGPOLL",
	"STATX_ALL",	 "TIOCINQ",
};

bool decode_is_alias(const char *name)
{
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i], name))
			return true;
	return false;
}

/* clang-format off */
static const struct decode_set
	address_families = PREFIX("AF_"),
	socket_types = NAMES("SOCK_STREAM", "SOCK_DGRAM", "SOCK_RAW", "SOCK_RDM",
			     "SOCK_SEQPACKET", "SOCK_DCCP", "SOCK_PACKET"),
	socket_flags = NAMES("SOCK_CLOEXEC", "SOCK_NONBLOCK"),
	inet_families = NAMES("AF_INET", "AF_INET6"),
	ip_protocols = PREFIX("IPPROTO_"),
	message_flags = PREFIX("MSG_"),
	shutdown_how = PREFIX("SHUT_"),
	ioctl_requests = PREFIX("TC", "TIOC", "FIO", "BLK", "SIOC"),
	clone_flags = PREFIX("CLONE_"),
	namespaces = PREFIX("CLONE_NEW"),
	signals = { .prefixes = LIST("SIG"), .skip = LIST("SIG_") },
	sigprocmask_how = PREFIX("SIG_"),
	ptrace_requests = PREFIX("PTRACE_"),
	prctl_options = PREFIX("PR_"),
	mount_flags = { .prefixes = LIST("MS_"), .skip = LIST("MS_ASYNC", "MS_INVALIDATE", "MS_SYNC") },
	umount_flags = NAMES("MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW"),
	msync_flags = NAMES("MS_ASYNC", "MS_INVALIDATE", "MS_SYNC"),
	prot_flags = PREFIX("PROT_"),
	map_types = NAMES("MAP_SHARED", "MAP_PRIVATE", "MAP_SHARED_VALIDATE"),
	map_flags = PREFIX("MAP_"),
	madvise_advice = PREFIX("MADV_"),
	mremap_flags = PREFIX("MREMAP_"),
	mlockall_flags = PREFIX("MCL_"),
	memfd_flags = PREFIX("MFD_"),
	access_modes = NAMES("O_RDONLY", "O_WRONLY", "O_RDWR"),
	open_flags = PREFIX("O_"),
	pipe_flags = NAMES("O_CLOEXEC", "O_NONBLOCK", "O_DIRECT"),
	cloexec_flag = NAMES("O_CLOEXEC"),
	fcntl_commands = { .prefixes = LIST("F_"),
			   .skip = LIST("F_RDLCK", "F_WRLCK", "F_UNLCK", "F_SEAL_", "F_OK") },
	at_fdcwd = NAMES("AT_FDCWD"),
	at_flags = NAMES("AT_SYMLINK_NOFOLLOW", "AT_SYMLINK_FOLLOW", "AT_NO_AUTOMOUNT",
			 "AT_EMPTY_PATH", "AT_RECURSIVE"),
	faccessat_flags = NAMES("AT_EACCESS", "AT_SYMLINK_NOFOLLOW", "AT_EMPTY_PATH"),
	unlinkat_flags = NAMES("AT_REMOVEDIR"),
	statx_sync = NAMES("AT_STATX_SYNC_AS_STAT", "AT_STATX_FORCE_SYNC", "AT_STATX_DONT_SYNC"),
	statx_flags = NAMES("AT_SYMLINK_NOFOLLOW", "AT_NO_AUTOMOUNT", "AT_EMPTY_PATH"),
	statx_masks = PREFIX("STATX_"),
	rename_flags = PREFIX("RENAME_"),
	seek_whence = PREFIX("SEEK_"),
	keyctl_operations = PREFIX("KEYCTL_"),
	bpf_commands = PREFIX("BPF_"),
	execution_domains = NAMES("PER_LINUX", "PER_LINUX32", "PER_BSD"),
	personality_flags = NAMES("UNAME26", "ADDR_NO_RANDOMIZE", "FDPIC_FUNCPTRS",
				  "MMAP_PAGE_ZERO", "ADDR_COMPAT_LAYOUT", "READ_IMPLIES_EXEC",
				  "ADDR_LIMIT_32BIT", "SHORT_INODE", "WHOLE_SECONDS",
				  "STICKY_TIMEOUTS", "ADDR_LIMIT_3GB"),
	futex_commands = { .prefixes = LIST("FUTEX_"),
			   .skip = LIST("FUTEX_PRIVATE_FLAG", "FUTEX_CLOCK_REALTIME") },
	futex_flags = NAMES("FUTEX_PRIVATE_FLAG", "FUTEX_CLOCK_REALTIME"),
	clocks = PREFIX("CLOCK_"),
	random_flags = PREFIX("GRND_"),
	eventfd_flags = PREFIX("EFD_"),
	epoll_flags = PREFIX("EPOLL_"),
	inotify_flags = PREFIX("IN_"),
	signalfd_flags = PREFIX("SFD_"),
	timerfd_flags = PREFIX("TFD_"),
	pidfd_flags = PREFIX("PIDFD_"),
	id_types = PREFIX("P_"),
	seccomp_operations = { .prefixes = LIST("SECCOMP_"), .skip = LIST("SECCOMP_FILTER_FLAG_") },
	seccomp_flags = PREFIX("SECCOMP_FILTER_FLAG_"),
	resource_limits = PREFIX("RLIMIT_"),
	access_checks = NAMES("F_OK", "R_OK", "W_OK", "X_OK"),
	epoll_operations = PREFIX("EPOLL_CTL_"),
	fadvise_advice = PREFIX("POSIX_FADV_"),
	interval_timers = PREFIX("ITIMER_"),
	arch_prctl_codes = PREFIX("ARCH_"),
	reboot_magic = NAMES("LINUX_REBOOT_MAGIC1"),
	reboot_magic2 = PREFIX("LINUX_REBOOT_MAGIC2"),
	reboot_commands = PREFIX("LINUX_REBOOT_CMD_"),
	wait4_options = NAMES("WNOHANG", "WUNTRACED", "WCONTINUED", "__WNOTHREAD", "__WALL",
			      "__WCLONE"),
	waitid_options = NAMES("WNOHANG", "WEXITED", "WSTOPPED", "WCONTINUED", "WNOWAIT",
			       "__WNOTHREAD", "__WALL", "__WCLONE"),
	/* level 1 is SOL_SOCKET where IPPROTO_ICMP would also read */
	socket_levels = { .prefixes = LIST("IPPROTO_"), .names = LIST("SOL_SOCKET"),
			  .skip = LIST("IPPROTO_ICMP") };

#define ENUM(s) DECODE_ENUM, &(s), 0, NULL, NULL, 0, false
#define FLAGS(s) DECODE_FLAGS, &(s), 0, NULL, NULL, 0, false
#define FLAGS_WITH(s, mask, e) DECODE_FLAGS, &(s), (mask), &(e), NULL, 0, false
#define FLAGS_THEN(s, mask, e) DECODE_FLAGS, &(s), (mask), &(e), NULL, 0, true

/* Sorted by syscall, then parameter ("*" first). */
static const struct decode_param params[] = {
	{ "*", "dirfd", ENUM(at_fdcwd) },
	{ "*", "newdirfd", ENUM(at_fdcwd) },
	{ "*", "olddirfd", ENUM(at_fdcwd) },
	{ "accept4", "flags", FLAGS(socket_flags) },
	{ "access", "mode", FLAGS(access_checks) },
	{ "arch_prctl", "code", ENUM(arch_prctl_codes) },
	{ "bpf", "cmd", ENUM(bpf_commands) },
	{ "clock_getres", "clockid", ENUM(clocks) },
	{ "clock_gettime", "clockid", ENUM(clocks) },
	{ "clock_nanosleep", "clockid", ENUM(clocks) },
	{ "clock_settime", "clockid", ENUM(clocks) },
	{ "clone", "flags", FLAGS_THEN(clone_flags, 0xff, signals) },
	{ "clone3", "cl_args", DECODE_CLONE_ARGS, &clone_flags, 0, NULL, NULL, 0, false },
	{ "dup3", "flags", FLAGS(cloexec_flag) },
	{ "epoll_create1", "flags", FLAGS(epoll_flags) },
	{ "epoll_ctl", "op", ENUM(epoll_operations) },
	{ "eventfd2", "flags", FLAGS(eventfd_flags) },
	{ "execveat", "flags", FLAGS(at_flags) },
	{ "faccessat", "mode", FLAGS(access_checks) },
	{ "faccessat2", "flags", FLAGS(faccessat_flags) },
	{ "faccessat2", "mode", FLAGS(access_checks) },
	{ "fadvise64", "advice", ENUM(fadvise_advice) },
	{ "fadvise64_64", "advice", ENUM(fadvise_advice) },
	{ "fchmodat2", "flags", FLAGS(at_flags) },
	{ "fchownat", "flags", FLAGS(at_flags) },
	{ "fcntl", "cmd", ENUM(fcntl_commands) },
	{ "fcntl64", "cmd", ENUM(fcntl_commands) },
	{ "fstatat64", "flags", FLAGS(at_flags) },
	{ "futex", "futex_op", FLAGS_WITH(futex_flags, 0x7f, futex_commands) },
	{ "getitimer", "which", ENUM(interval_timers) },
	{ "getrandom", "flags", FLAGS(random_flags) },
	{ "getrlimit", "resource", ENUM(resource_limits) },
	{ "getsockopt", "level", ENUM(socket_levels) },
	{ "inotify_init1", "flags", FLAGS(inotify_flags) },
	{ "ioctl", "request", ENUM(ioctl_requests) },
	{ "keyctl", "operation", ENUM(keyctl_operations) },
	{ "kill", "sig", ENUM(signals) },
	{ "linkat", "flags", FLAGS(at_flags) },
	{ "lseek", "whence", ENUM(seek_whence) },
	{ "madvise", "advice", ENUM(madvise_advice) },
	{ "memfd_create", "flags", FLAGS(memfd_flags) },
	{ "mlockall", "flags", FLAGS(mlockall_flags) },
	{ "mmap", "flags", FLAGS_WITH(map_flags, 0x3, map_types) },
	{ "mmap", "prot", FLAGS(prot_flags) },
	{ "mmap2", "flags", FLAGS_WITH(map_flags, 0x3, map_types) },
	{ "mmap2", "prot", FLAGS(prot_flags) },
	{ "mount", "mountflags", FLAGS(mount_flags) },
	{ "mprotect", "prot", FLAGS(prot_flags) },
	{ "mremap", "flags", FLAGS(mremap_flags) },
	{ "msync", "flags", FLAGS(msync_flags) },
	{ "name_to_handle_at", "flags", FLAGS(at_flags) },
	{ "newfstatat", "flags", FLAGS(at_flags) },
	{ "open", "flags", FLAGS_WITH(open_flags, 0x3, access_modes) },
	{ "openat", "flags", FLAGS_WITH(open_flags, 0x3, access_modes) },
	{ "personality", "persona", FLAGS_WITH(personality_flags, 0xff, execution_domains) },
	{ "pidfd_open", "flags", FLAGS(pidfd_flags) },
	{ "pipe2", "flags", FLAGS(pipe_flags) },
	{ "pkey_mprotect", "prot", FLAGS(prot_flags) },
	{ "prctl", "option", ENUM(prctl_options) },
	{ "prlimit64", "resource", ENUM(resource_limits) },
	{ "ptrace", "request", ENUM(ptrace_requests) },
	{ "reboot", "cmd", ENUM(reboot_commands) },
	{ "reboot", "magic", ENUM(reboot_magic) },
	{ "reboot", "magic2", ENUM(reboot_magic2) },
	{ "recv", "flags", FLAGS(message_flags) },
	{ "recvfrom", "flags", FLAGS(message_flags) },
	{ "recvmmsg", "flags", FLAGS(message_flags) },
	{ "recvmsg", "flags", FLAGS(message_flags) },
	{ "renameat2", "flags", FLAGS(rename_flags) },
	{ "rt_sigaction", "signum", ENUM(signals) },
	{ "rt_sigprocmask", "how", ENUM(sigprocmask_how) },
	{ "rt_sigqueueinfo", "sig", ENUM(signals) },
	{ "rt_tgsigqueueinfo", "sig", ENUM(signals) },
	{ "seccomp", "flags", FLAGS(seccomp_flags) },
	{ "seccomp", "operation", ENUM(seccomp_operations) },
	{ "send", "flags", FLAGS(message_flags) },
	{ "sendmmsg", "flags", FLAGS(message_flags) },
	{ "sendmsg", "flags", FLAGS(message_flags) },
	{ "sendto", "flags", FLAGS(message_flags) },
	{ "setitimer", "which", ENUM(interval_timers) },
	{ "setns", "nstype", ENUM(namespaces) },
	{ "setrlimit", "resource", ENUM(resource_limits) },
	{ "setsockopt", "level", ENUM(socket_levels) },
	{ "shutdown", "how", ENUM(shutdown_how) },
	{ "signalfd4", "flags", FLAGS(signalfd_flags) },
	{ "socket", "domain", ENUM(address_families) },
	{ "socket", "protocol", DECODE_ENUM, &ip_protocols, 0, NULL, &inet_families, 0, false },
	{ "socket", "type", FLAGS_WITH(socket_flags, 0xf, socket_types) },
	{ "socketpair", "domain", ENUM(address_families) },
	{ "socketpair", "type", FLAGS_WITH(socket_flags, 0xf, socket_types) },
	{ "statx", "flags", FLAGS_WITH(statx_flags, 0x6000, statx_sync) },
	{ "statx", "mask", FLAGS(statx_masks) },
	{ "tgkill", "sig", ENUM(signals) },
	{ "timer_create", "clockid", ENUM(clocks) },
	{ "timerfd_create", "clockid", ENUM(clocks) },
	{ "timerfd_create", "flags", FLAGS(timerfd_flags) },
	{ "tkill", "sig", ENUM(signals) },
	{ "ugetrlimit", "resource", ENUM(resource_limits) },
	{ "umount2", "flags", FLAGS(umount_flags) },
	{ "unlinkat", "flags", FLAGS(unlinkat_flags) },
	{ "unshare", "flags", FLAGS(clone_flags) },
	{ "utimensat", "flags", FLAGS(at_flags) },
	{ "wait4", "options", FLAGS(wait4_options) },
	{ "waitid", "idtype", ENUM(id_types) },
	{ "waitid", "options", FLAGS(waitid_options) },
};
/* clang-format on */

const struct decode_param *decode_param_find(const char *syscall, const char *param)
{
	const struct decode_param *any = NULL;
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		const struct decode_param *p = &params[i];
		if (strcmp(p->param, param))
			continue;
		if (!strcmp(p->syscall, syscall))
			return p;
		if (!strcmp(p->syscall, "*"))
			any = p;
	}
	return any;
}
