/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * strace's syscall classes (%file, %process, ...) as data: for each, the
 * syscalls strace's tables put in it, by name.  A name counts on every
 * target ABI whose table has it, so one list serves every ABI: x86's
 * stat64 and socketcall, the 32-bit *32 credential calls and the *_time64
 * calls are listed beside x86_64's names and only match where they exist.
 *
 * The membership follows the class flags of strace's per-ABI syscall
 * tables (TRACE_FILE, TRACE_DESC, ...), as its manual defines the classes.
 * The statfs classes are name patterns in strace's manual too; set.c keeps
 * them as regular expressions.
 */
#include <string.h>

#include "inject/rule.h"

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Calls that take a file name (a path) as an argument. */
static const char *const *const file_class = LIST(
	"access", "acct", "chdir", "chmod", "chown", "chown32", "chroot", "creat", "execve",
	"execveat", "faccessat", "faccessat2", "fanotify_mark", "fchmodat", "fchmodat2",
	"fchownat", "file_getattr", "file_setattr", "fsconfig", "fspick", "fstatat64",
	"futimesat", "getcwd", "getxattr", "getxattrat", "inotify_add_watch", "lchown",
	"lchown32", "lgetxattr", "link", "linkat", "listxattr", "listxattrat", "llistxattr",
	"lremovexattr", "lsetxattr", "lstat", "lstat64", "mkdir", "mkdirat", "mknod", "mknodat",
	"mount", "mount_setattr", "move_mount", "name_to_handle_at", "newfstatat", "oldlstat",
	"oldstat", "open", "open_tree", "open_tree_attr", "openat", "openat2", "pivot_root",
	"quotactl", "readlink", "readlinkat", "removexattr", "removexattrat", "rename",
	"renameat", "renameat2", "rmdir", "setxattr", "setxattrat", "stat", "stat64", "statfs",
	"statfs64", "statx", "swapoff", "swapon", "symlink", "symlinkat", "truncate",
	"truncate64", "umount", "umount2", "unlink", "unlinkat", "uselib", "utime", "utimensat",
	"utimensat_time64", "utimes");

/* Calls about file descriptors: they take, make or use one. */
static const char *const *const desc_class = LIST(
	"_llseek", "_newselect", "arm_fadvise64_64", "bpf", "cachestat", "close", "copy_file_range",
	"creat", "dup", "dup2", "dup3", "epoll_create", "epoll_create1", "epoll_ctl",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "eventfd", "eventfd2", "execveat",
	"faccessat", "faccessat2", "fadvise64", "fadvise64_64", "fallocate", "fanotify_init",
	"fanotify_mark", "fchdir", "fchmod", "fchmodat", "fchmodat2", "fchown", "fchown32",
	"fchownat", "fcntl", "fcntl64", "fdatasync", "fgetxattr", "file_getattr", "file_setattr",
	"finit_module", "flistxattr", "flock", "fremovexattr", "fsconfig", "fsetxattr", "fsmount",
	"fsopen", "fspick", "fstat", "fstat64", "fstatat64", "fstatfs", "fstatfs64", "fsync",
	"ftruncate", "ftruncate64", "futimesat", "getdents", "getdents64", "getxattrat",
	"inotify_add_watch", "inotify_init", "inotify_init1", "inotify_rm_watch", "io_uring_enter",
	"io_uring_register", "io_uring_setup", "ioctl", "kexec_file_load", "landlock_add_rule",
	"landlock_create_ruleset", "landlock_restrict_self", "linkat", "listxattrat", "lseek",
	"memfd_create", "memfd_secret", "mkdirat", "mknodat", "mmap", "mmap2", "mount_setattr",
	"move_mount", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	"mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64", "name_to_handle_at",
	"newfstatat", "old_mmap", "old_select", "oldfstat", "open", "open_by_handle_at",
	"open_tree", "open_tree_attr", "openat", "openat2", "perf_event_open", "pidfd_getfd",
	"pidfd_open", "pidfd_send_signal", "pipe", "pipe2", "poll", "ppoll", "ppoll_time64",
	"pread64", "preadv", "preadv2", "process_madvise", "process_mrelease", "pselect6",
	"pselect6_time64", "pwrite64", "pwritev", "pwritev2", "quotactl_fd", "read", "readahead",
	"readdir", "readlinkat", "readv", "removexattrat", "renameat", "renameat2", "select",
	"sendfile", "sendfile64", "setns", "setxattrat", "signalfd", "signalfd4", "splice", "statx",
	"symlinkat", "sync_file_range", "sync_file_range2", "syncfs", "tee", "timerfd_create",
	"timerfd_gettime", "timerfd_gettime64", "timerfd_settime", "timerfd_settime64",
	"unlinkat", "userfaultfd", "utimensat", "utimensat_time64", "vmsplice", "write",
	"writev");

/* Process lifecycle: creation, exec, termination, waiting, and signals sent to processes. */
static const char *const *const process_class = LIST(
	"clone", "clone3", "execve", "execveat", "exit", "exit_group", "fork", "kill",
	"pidfd_send_signal", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "tgkill", "tkill", "vfork",
	"wait4", "waitid", "waitpid");

static const char *const *const network_class = LIST(
	"accept", "accept4", "bind", "connect", "getpeername", "getpmsg", "getsockname",
	"getsockopt", "listen", "putpmsg", "recv", "recvfrom", "recvmmsg", "recvmmsg_time64",
	"recvmsg", "send", "sendfile", "sendfile64", "sendmmsg", "sendmsg", "sendto", "setsockopt",
	"shutdown", "socket", "socketcall", "socketpair");

static const char *const *const signal_class = LIST(
	"io_uring_enter", "kill", "pause", "pidfd_send_signal", "rt_sigaction", "rt_sigpending",
	"rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
	"rt_sigtimedwait_time64", "rt_tgsigqueueinfo", "sgetmask", "sigaction", "sigaltstack",
	"signal", "signalfd", "signalfd4", "sigpending", "sigprocmask", "sigreturn", "sigsuspend",
	"ssetmask", "tgkill", "tkill");

static const char *const *const ipc_class = LIST(
	"ipc", "msgctl", "msgget", "msgrcv", "msgsnd", "semctl", "semget", "semop", "semtimedop",
	"semtimedop_time64", "shmat", "shmctl", "shmdt", "shmget");

static const char *const *const memory_class = LIST(
	"brk", "get_mempolicy", "io_destroy", "io_setup", "io_uring_register", "madvise",
	"map_shadow_stack", "mbind", "migrate_pages", "mincore", "mlock", "mlock2", "mlockall",
	"mmap", "mmap2", "move_pages", "mprotect", "mremap", "mseal", "msync", "munlock",
	"munlockall", "munmap", "old_mmap", "pkey_mprotect", "remap_file_pages", "set_mempolicy",
	"set_mempolicy_home_node", "shmat", "shmdt");

/* Calls that read or change user and group ids or capabilities. */
static const char *const *const creds_class = LIST(
	"capget", "capset", "getegid", "getegid32", "geteuid", "geteuid32", "getgid", "getgid32",
	"getgroups", "getgroups32", "getresgid", "getresgid32", "getresuid", "getresuid32",
	"getuid", "getuid32", "prctl", "setfsgid", "setfsgid32", "setfsuid", "setfsuid32",
	"setgid", "setgid32", "setgroups", "setgroups32", "setregid", "setregid32", "setresgid",
	"setresgid32", "setresuid", "setresuid32", "setreuid", "setreuid32", "setuid",
	"setuid32");

/* Calls that read or change the system's clocks. */
static const char *const *const clock_class = LIST(
	"adjtimex", "clock_adjtime", "clock_adjtime64", "clock_getres", "clock_getres_time64",
	"clock_gettime", "clock_gettime64", "clock_settime", "clock_settime64", "gettimeofday",
	"settimeofday", "stime", "time");

/* Calls without arguments that always succeed. */
static const char *const *const pure_class = LIST(
	"arc_gettls", "getdtablesize", "getegid", "getegid32", "geteuid", "geteuid32", "getgid",
	"getgid32", "getpagesize", "getpgrp", "getpid", "getppid", "gettid", "getuid",
	"getuid32", "getxgid", "getxpid", "getxuid", "kern_features", "metag_get_tls");

static const char *const *const stat_class = LIST("oldstat", "stat", "stat64");
static const char *const *const lstat_class = LIST("lstat", "lstat64", "oldlstat");
static const char *const *const fstat_class = LIST(
	"fstat", "fstat64", "fstatat64", "newfstatat", "oldfstat", "statx");
static const char *const *const any_stat_class = LIST(
	"fstat", "fstat64", "fstatat64", "lstat", "lstat64", "newfstatat", "oldfstat", "oldlstat",
	"oldstat", "stat", "stat64", "statx");

static const struct {
	const char *name; /* after the '%' */
	const char *const *members;
} classes[] = {
	{ "file", file_class },	      { "desc", desc_class },	    { "process", process_class },
	{ "net", network_class },     { "network", network_class }, { "signal", signal_class },
	{ "ipc", ipc_class },	      { "memory", memory_class },   { "creds", creds_class },
	{ "clock", clock_class },     { "pure", pure_class },	    { "stat", stat_class },
	{ "lstat", lstat_class },     { "fstat", fstat_class },	    { "%stat", any_stat_class },
};

const char *const *inject_class_members(const char *name)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].name, name))
			return classes[i].members;
	return NULL;
}

const char *inject_class_name(size_t i)
{
	return i < sizeof(classes) / sizeof(classes[0]) ? classes[i].name : NULL;
}
