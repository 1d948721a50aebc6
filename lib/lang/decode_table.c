/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which constants each syscall parameter takes, for the decoder.  The
 * parameter names are those of the parameter table (data/syscall-params.tsv,
 * from the man pages); the constants and their values per ABI are the
 * policy language's (constants.c), so whatever the decoder prints, a
 * policy reads back.
 */
#include <string.h>

#include "lang/decode_internal.h"

/*
 * A list is one string of NUL-separated names, ended by an empty one (the
 * literal's own NUL): no pointer per name for the loader to relocate.
 */
#define LIST(list) (list)
#define PREFIX(list) { .prefixes = LIST(list) }
#define NAMES(list) { .names = LIST(list) }

/* Names that repeat another's value; the decoder prints the usual one. */
static const char aliases[][20] = {
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
	address_families = PREFIX("AF_\0"),
	socket_types = NAMES("SOCK_STREAM\0" "SOCK_DGRAM\0" "SOCK_RAW\0" "SOCK_RDM\0"
			     "SOCK_SEQPACKET\0" "SOCK_DCCP\0" "SOCK_PACKET\0"),
	socket_flags = NAMES("SOCK_CLOEXEC\0" "SOCK_NONBLOCK\0"),
	inet_families = NAMES("AF_INET\0" "AF_INET6\0"),
	ip_protocols = PREFIX("IPPROTO_\0"),
	message_flags = { .prefixes = LIST("MSG_\0"),
			  .skip = LIST("MSG_INFO\0" "MSG_STAT\0" "MSG_COPY\0" "MSG_EXCEPT\0"
				       "MSG_NOERROR\0") },
	shutdown_how = PREFIX("SHUT_\0"),
	ioctl_requests = { .prefixes = LIST("TC\0" "TIOC\0" "FIO\0" "BLK\0" "SIOC\0"),
			   .skip = LIST("TCP_\0") },
	clone_flags = PREFIX("CLONE_\0"),
	namespaces = PREFIX("CLONE_NEW\0"),
	signals = { .prefixes = LIST("SIG\0"), .skip = LIST("SIG_\0") },
	sigprocmask_how = PREFIX("SIG_\0"),
	ptrace_requests = PREFIX("PTRACE_\0"),
	prctl_options = PREFIX("PR_\0"),
	mount_flags = { .prefixes = LIST("MS_\0"),
			.skip = LIST("MS_ASYNC\0" "MS_INVALIDATE\0" "MS_SYNC\0") },
	umount_flags = NAMES("MNT_FORCE\0" "MNT_DETACH\0" "MNT_EXPIRE\0" "UMOUNT_NOFOLLOW\0"),
	msync_flags = NAMES("MS_ASYNC\0" "MS_INVALIDATE\0" "MS_SYNC\0"),
	prot_flags = PREFIX("PROT_\0"),
	map_types = NAMES("MAP_SHARED\0" "MAP_PRIVATE\0" "MAP_SHARED_VALIDATE\0"),
	map_flags = PREFIX("MAP_\0"),
	madvise_advice = PREFIX("MADV_\0"),
	mremap_flags = PREFIX("MREMAP_\0"),
	mlockall_flags = PREFIX("MCL_\0"),
	memfd_flags = PREFIX("MFD_\0"),
	access_modes = NAMES("O_RDONLY\0" "O_WRONLY\0" "O_RDWR\0"),
	open_flags = PREFIX("O_\0"),
	pipe_flags = NAMES("O_CLOEXEC\0" "O_NONBLOCK\0" "O_DIRECT\0"),
	cloexec_flag = NAMES("O_CLOEXEC\0"),
	fcntl_commands = { .prefixes = LIST("F_\0"),
			   .skip = LIST("F_RDLCK\0" "F_WRLCK\0" "F_UNLCK\0" "F_SEAL_\0" "F_OK\0") },
	at_fdcwd = NAMES("AT_FDCWD\0"),
	at_flags = NAMES("AT_SYMLINK_NOFOLLOW\0" "AT_SYMLINK_FOLLOW\0" "AT_NO_AUTOMOUNT\0"
			     "AT_EMPTY_PATH\0" "AT_RECURSIVE\0"),
	faccessat_flags = NAMES("AT_EACCESS\0" "AT_SYMLINK_NOFOLLOW\0" "AT_EMPTY_PATH\0"),
	unlinkat_flags = NAMES("AT_REMOVEDIR\0"),
	statx_sync = NAMES("AT_STATX_SYNC_AS_STAT\0" "AT_STATX_FORCE_SYNC\0"
			     "AT_STATX_DONT_SYNC\0"),
	statx_flags = NAMES("AT_SYMLINK_NOFOLLOW\0" "AT_NO_AUTOMOUNT\0" "AT_EMPTY_PATH\0"),
	statx_masks = PREFIX("STATX_\0"),
	rename_flags = PREFIX("RENAME_\0"),
	seek_whence = PREFIX("SEEK_\0"),
	keyctl_operations = PREFIX("KEYCTL_\0"),
	bpf_commands = PREFIX("BPF_\0"),
	execution_domains = NAMES("PER_LINUX\0" "PER_LINUX32\0" "PER_BSD\0"),
	personality_flags = NAMES("UNAME26\0" "ADDR_NO_RANDOMIZE\0" "FDPIC_FUNCPTRS\0"
			     "MMAP_PAGE_ZERO\0" "ADDR_COMPAT_LAYOUT\0" "READ_IMPLIES_EXEC\0"
			     "ADDR_LIMIT_32BIT\0" "SHORT_INODE\0" "WHOLE_SECONDS\0"
			     "STICKY_TIMEOUTS\0" "ADDR_LIMIT_3GB\0"),
	futex_commands = { .prefixes = LIST("FUTEX_\0"),
			   .skip = LIST("FUTEX_PRIVATE_FLAG\0" "FUTEX_CLOCK_REALTIME\0") },
	futex_flags = NAMES("FUTEX_PRIVATE_FLAG\0" "FUTEX_CLOCK_REALTIME\0"),
	clocks = PREFIX("CLOCK_\0"),
	random_flags = PREFIX("GRND_\0"),
	eventfd_flags = PREFIX("EFD_\0"),
	epoll_flags = PREFIX("EPOLL_\0"),
	inotify_flags = PREFIX("IN_\0"),
	signalfd_flags = PREFIX("SFD_\0"),
	timerfd_flags = PREFIX("TFD_\0"),
	pidfd_flags = PREFIX("PIDFD_\0"),
	id_types = PREFIX("P_\0"),
	seccomp_operations = { .prefixes = LIST("SECCOMP_\0"),
			       .skip = LIST("SECCOMP_FILTER_FLAG_\0") },
	seccomp_flags = PREFIX("SECCOMP_FILTER_FLAG_\0"),
	resource_limits = PREFIX("RLIMIT_\0"),
	access_checks = NAMES("F_OK\0" "R_OK\0" "W_OK\0" "X_OK\0"),
	epoll_operations = PREFIX("EPOLL_CTL_\0"),
	fadvise_advice = PREFIX("POSIX_FADV_\0"),
	interval_timers = PREFIX("ITIMER_\0"),
	arch_prctl_codes = PREFIX("ARCH_\0"),
	reboot_magic = NAMES("LINUX_REBOOT_MAGIC1\0"),
	reboot_magic2 = PREFIX("LINUX_REBOOT_MAGIC2\0"),
	reboot_commands = PREFIX("LINUX_REBOOT_CMD_\0"),
	wait4_options = NAMES("WNOHANG\0" "WUNTRACED\0" "WCONTINUED\0" "__WNOTHREAD\0" "__WALL\0"
			      "__WCLONE\0"),
	waitid_options = NAMES("WNOHANG\0" "WEXITED\0" "WSTOPPED\0" "WCONTINUED\0" "WNOWAIT\0"
			       "__WNOTHREAD\0" "__WALL\0" "__WCLONE\0"),
	/* level 1 is SOL_SOCKET where IPPROTO_ICMP would also read */
	socket_levels = { .prefixes = LIST("IPPROTO_\0"), .names = LIST("SOL_SOCKET\0"),
			  .skip = LIST("IPPROTO_ICMP\0") },
	/* an option's name says something only at its level: one set per level */
	level_socket = NAMES("SOL_SOCKET\0"),
	level_ip = NAMES("IPPROTO_IP\0"),
	level_ipv6 = NAMES("IPPROTO_IPV6\0"),
	level_tcp = NAMES("IPPROTO_TCP\0"),
	socket_options = PREFIX("SO_\0"),
	ip_options = PREFIX("IP_\0"),
	ipv6_options = PREFIX("IPV6_\0"),
	tcp_options = PREFIX("TCP_\0"),
	/* System V IPC: the get calls' flags (with permission bits), the ctl calls' commands */
	ipc_get_flags = NAMES("IPC_CREAT\0" "IPC_EXCL\0"),
	shm_get_flags = NAMES("IPC_CREAT\0" "IPC_EXCL\0" "SHM_HUGETLB\0" "SHM_NORESERVE\0"),
	shmat_flags = NAMES("SHM_RDONLY\0" "SHM_RND\0" "SHM_REMAP\0" "SHM_EXEC\0"),
	msgsnd_flags = NAMES("IPC_NOWAIT\0"),
	msgrcv_flags = NAMES("IPC_NOWAIT\0" "MSG_NOERROR\0" "MSG_EXCEPT\0" "MSG_COPY\0"),
	ipc_64_flag = NAMES("IPC_64\0"),
	shm_commands = NAMES("IPC_RMID\0" "IPC_SET\0" "IPC_STAT\0" "IPC_INFO\0" "SHM_LOCK\0"
			     "SHM_UNLOCK\0" "SHM_STAT\0" "SHM_INFO\0" "SHM_STAT_ANY\0"),
	msg_commands = NAMES("IPC_RMID\0" "IPC_SET\0" "IPC_STAT\0" "IPC_INFO\0" "MSG_STAT\0"
			     "MSG_INFO\0" "MSG_STAT_ANY\0"),
	sem_commands = { .prefixes = LIST("SEM_\0" "GET\0" "SET\0"),
			 .names = LIST("IPC_RMID\0" "IPC_SET\0" "IPC_STAT\0" "IPC_INFO\0") },
	sync_file_range_flags = PREFIX("SYNC_FILE_RANGE_\0");

#define ENUM(s) DECODE_ENUM, &(s), 0, NULL, NULL, 0, false, false
#define FLAGS(s) DECODE_FLAGS, &(s), 0, NULL, NULL, 0, false, false
#define FLAGS_WITH(s, mask, e) DECODE_FLAGS, &(s), (mask), &(e), NULL, 0, false, false
#define FLAGS_THEN(s, mask, e) DECODE_FLAGS, &(s), (mask), &(e), NULL, 0, true, false
/* Flags over permission bits, which print in octal: IPC_CREAT|0600. */
#define FLAGS_MODE(s) DECODE_FLAGS, &(s), 0, NULL, NULL, 0, false, true
/* An option name of setsockopt/getsockopt, while the level (argument 1) is @level. */
#define OPTION(s, level) DECODE_ENUM, &(s), 0, NULL, &(level), 1, false, false

/*
 * Sorted by syscall, then parameter ("*" first); the entries of one
 * parameter with conditions are adjacent, the first that holds applies.
 */
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
	{ "clone3", "cl_args", DECODE_CLONE_ARGS, &clone_flags, 0, NULL, NULL, 0, false, false },
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
	{ "getsockopt", "optname", OPTION(socket_options, level_socket) },
	{ "getsockopt", "optname", OPTION(ip_options, level_ip) },
	{ "getsockopt", "optname", OPTION(ipv6_options, level_ipv6) },
	{ "getsockopt", "optname", OPTION(tcp_options, level_tcp) },
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
	{ "msgctl", "cmd", FLAGS_WITH(ipc_64_flag, 0xff, msg_commands) },
	{ "msgget", "msgflg", FLAGS_MODE(ipc_get_flags) },
	{ "msgrcv", "msgflg", FLAGS(msgrcv_flags) },
	{ "msgsnd", "msgflg", FLAGS(msgsnd_flags) },
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
	{ "semctl", "cmd", FLAGS_WITH(ipc_64_flag, 0xff, sem_commands) },
	{ "semget", "semflg", FLAGS_MODE(ipc_get_flags) },
	{ "send", "flags", FLAGS(message_flags) },
	{ "sendmmsg", "flags", FLAGS(message_flags) },
	{ "sendmsg", "flags", FLAGS(message_flags) },
	{ "sendto", "flags", FLAGS(message_flags) },
	{ "setitimer", "which", ENUM(interval_timers) },
	{ "setns", "nstype", ENUM(namespaces) },
	{ "setrlimit", "resource", ENUM(resource_limits) },
	{ "setsockopt", "level", ENUM(socket_levels) },
	{ "setsockopt", "optname", OPTION(socket_options, level_socket) },
	{ "setsockopt", "optname", OPTION(ip_options, level_ip) },
	{ "setsockopt", "optname", OPTION(ipv6_options, level_ipv6) },
	{ "setsockopt", "optname", OPTION(tcp_options, level_tcp) },
	{ "shmat", "shmflg", FLAGS(shmat_flags) },
	{ "shmctl", "cmd", FLAGS_WITH(ipc_64_flag, 0xff, shm_commands) },
	{ "shmget", "shmflg", FLAGS_MODE(shm_get_flags) },
	{ "shutdown", "how", ENUM(shutdown_how) },
	{ "signalfd4", "flags", FLAGS(signalfd_flags) },
	{ "socket", "domain", ENUM(address_families) },
	{ "socket", "protocol", DECODE_ENUM, &ip_protocols, 0, NULL, &inet_families, 0, false, false },
	{ "socket", "type", FLAGS_WITH(socket_flags, 0xf, socket_types) },
	{ "socketpair", "domain", ENUM(address_families) },
	{ "socketpair", "type", FLAGS_WITH(socket_flags, 0xf, socket_types) },
	{ "statx", "flags", FLAGS_WITH(statx_flags, 0x6000, statx_sync) },
	{ "statx", "mask", FLAGS(statx_masks) },
	{ "sync_file_range", "flags", FLAGS(sync_file_range_flags) },
	{ "sync_file_range2", "flags", FLAGS(sync_file_range_flags) },
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

const struct decode_param *decode_param_next(const struct decode_param *d)
{
	const struct decode_param *end = params + sizeof(params) / sizeof(params[0]);
	if (!d || d < params || d + 1 >= end)
		return NULL;
	return !strcmp(d[1].syscall, d->syscall) && !strcmp(d[1].param, d->param) ? d + 1 : NULL;
}
