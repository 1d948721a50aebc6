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

/*
 * Each class is one string of NUL-separated names (the literal's own NUL ends
 * the list): no pointer per name for the loader to relocate.
 */
/* clang-format off */

/* Calls that take a file name (a path) as an argument. */
static const char file_class[] =
	"access\0" "acct\0" "chdir\0" "chmod\0" "chown\0" "chown32\0" "chroot\0" "creat\0"
	"execve\0" "execveat\0" "faccessat\0" "faccessat2\0" "fanotify_mark\0" "fchmodat\0"
	"fchmodat2\0" "fchownat\0" "file_getattr\0" "file_setattr\0" "fsconfig\0" "fspick\0"
	"fstatat64\0" "futimesat\0" "getcwd\0" "getxattr\0" "getxattrat\0"
	"inotify_add_watch\0" "lchown\0" "lchown32\0" "lgetxattr\0" "link\0" "linkat\0"
	"listxattr\0" "listxattrat\0" "llistxattr\0" "lremovexattr\0" "lsetxattr\0" "lstat\0"
	"lstat64\0" "mkdir\0" "mkdirat\0" "mknod\0" "mknodat\0" "mount\0" "mount_setattr\0"
	"move_mount\0" "name_to_handle_at\0" "newfstatat\0" "oldlstat\0" "oldstat\0" "open\0"
	"open_tree\0" "open_tree_attr\0" "openat\0" "openat2\0" "pivot_root\0" "quotactl\0"
	"readlink\0" "readlinkat\0" "removexattr\0" "removexattrat\0" "rename\0" "renameat\0"
	"renameat2\0" "rmdir\0" "setxattr\0" "setxattrat\0" "stat\0" "stat64\0" "statfs\0"
	"statfs64\0" "statx\0" "swapoff\0" "swapon\0" "symlink\0" "symlinkat\0" "truncate\0"
	"truncate64\0" "umount\0" "umount2\0" "unlink\0" "unlinkat\0" "uselib\0" "utime\0"
	"utimensat\0" "utimensat_time64\0" "utimes\0";

/* Calls about file descriptors: they take, make or use one. */
static const char desc_class[] =
	"_llseek\0" "_newselect\0" "arm_fadvise64_64\0" "bpf\0" "cachestat\0" "close\0"
	"copy_file_range\0" "creat\0" "dup\0" "dup2\0" "dup3\0" "epoll_create\0"
	"epoll_create1\0" "epoll_ctl\0" "epoll_pwait\0" "epoll_pwait2\0" "epoll_wait\0"
	"eventfd\0" "eventfd2\0" "execveat\0" "faccessat\0" "faccessat2\0" "fadvise64\0"
	"fadvise64_64\0" "fallocate\0" "fanotify_init\0" "fanotify_mark\0" "fchdir\0"
	"fchmod\0" "fchmodat\0" "fchmodat2\0" "fchown\0" "fchown32\0" "fchownat\0" "fcntl\0"
	"fcntl64\0" "fdatasync\0" "fgetxattr\0" "file_getattr\0" "file_setattr\0"
	"finit_module\0" "flistxattr\0" "flock\0" "fremovexattr\0" "fsconfig\0" "fsetxattr\0"
	"fsmount\0" "fsopen\0" "fspick\0" "fstat\0" "fstat64\0" "fstatat64\0" "fstatfs\0"
	"fstatfs64\0" "fsync\0" "ftruncate\0" "ftruncate64\0" "futimesat\0" "getdents\0"
	"getdents64\0" "getxattrat\0" "inotify_add_watch\0" "inotify_init\0" "inotify_init1\0"
	"inotify_rm_watch\0" "io_uring_enter\0" "io_uring_register\0" "io_uring_setup\0"
	"ioctl\0" "kexec_file_load\0" "landlock_add_rule\0" "landlock_create_ruleset\0"
	"landlock_restrict_self\0" "linkat\0" "listxattrat\0" "lseek\0" "memfd_create\0"
	"memfd_secret\0" "mkdirat\0" "mknodat\0" "mmap\0" "mmap2\0" "mount_setattr\0"
	"move_mount\0" "mq_getsetattr\0" "mq_notify\0" "mq_open\0" "mq_timedreceive\0"
	"mq_timedreceive_time64\0" "mq_timedsend\0" "mq_timedsend_time64\0"
	"name_to_handle_at\0" "newfstatat\0" "old_mmap\0" "old_select\0" "oldfstat\0" "open\0"
	"open_by_handle_at\0" "open_tree\0" "open_tree_attr\0" "openat\0" "openat2\0"
	"perf_event_open\0" "pidfd_getfd\0" "pidfd_open\0" "pidfd_send_signal\0" "pipe\0"
	"pipe2\0" "poll\0" "ppoll\0" "ppoll_time64\0" "pread64\0" "preadv\0" "preadv2\0"
	"process_madvise\0" "process_mrelease\0" "pselect6\0" "pselect6_time64\0" "pwrite64\0"
	"pwritev\0" "pwritev2\0" "quotactl_fd\0" "read\0" "readahead\0" "readdir\0"
	"readlinkat\0" "readv\0" "removexattrat\0" "renameat\0" "renameat2\0" "select\0"
	"sendfile\0" "sendfile64\0" "setns\0" "setxattrat\0" "signalfd\0" "signalfd4\0"
	"splice\0" "statx\0" "symlinkat\0" "sync_file_range\0" "sync_file_range2\0" "syncfs\0"
	"tee\0" "timerfd_create\0" "timerfd_gettime\0" "timerfd_gettime64\0"
	"timerfd_settime\0" "timerfd_settime64\0" "unlinkat\0" "userfaultfd\0" "utimensat\0"
	"utimensat_time64\0" "vmsplice\0" "write\0" "writev\0";

/* Process lifecycle: creation, exec, termination, waiting, and signals sent to processes. */
static const char process_class[] =
	"clone\0" "clone3\0" "execve\0" "execveat\0" "exit\0" "exit_group\0" "fork\0" "kill\0"
	"pidfd_send_signal\0" "rt_sigqueueinfo\0" "rt_tgsigqueueinfo\0" "tgkill\0" "tkill\0"
	"vfork\0" "wait4\0" "waitid\0" "waitpid\0";

static const char network_class[] =
	"accept\0" "accept4\0" "bind\0" "connect\0" "getpeername\0" "getpmsg\0" "getsockname\0"
	"getsockopt\0" "listen\0" "putpmsg\0" "recv\0" "recvfrom\0" "recvmmsg\0"
	"recvmmsg_time64\0" "recvmsg\0" "send\0" "sendfile\0" "sendfile64\0" "sendmmsg\0"
	"sendmsg\0" "sendto\0" "setsockopt\0" "shutdown\0" "socket\0" "socketcall\0"
	"socketpair\0";

static const char signal_class[] =
	"io_uring_enter\0" "kill\0" "pause\0" "pidfd_send_signal\0" "rt_sigaction\0"
	"rt_sigpending\0" "rt_sigprocmask\0" "rt_sigqueueinfo\0" "rt_sigreturn\0"
	"rt_sigsuspend\0" "rt_sigtimedwait\0" "rt_sigtimedwait_time64\0" "rt_tgsigqueueinfo\0"
	"sgetmask\0" "sigaction\0" "sigaltstack\0" "signal\0" "signalfd\0" "signalfd4\0"
	"sigpending\0" "sigprocmask\0" "sigreturn\0" "sigsuspend\0" "ssetmask\0" "tgkill\0"
	"tkill\0";

static const char ipc_class[] =
	"ipc\0" "msgctl\0" "msgget\0" "msgrcv\0" "msgsnd\0" "semctl\0" "semget\0" "semop\0"
	"semtimedop\0" "semtimedop_time64\0" "shmat\0" "shmctl\0" "shmdt\0" "shmget\0";

static const char memory_class[] =
	"brk\0" "get_mempolicy\0" "io_destroy\0" "io_setup\0" "io_uring_register\0" "madvise\0"
	"map_shadow_stack\0" "mbind\0" "migrate_pages\0" "mincore\0" "mlock\0" "mlock2\0"
	"mlockall\0" "mmap\0" "mmap2\0" "move_pages\0" "mprotect\0" "mremap\0" "mseal\0"
	"msync\0" "munlock\0" "munlockall\0" "munmap\0" "old_mmap\0" "pkey_mprotect\0"
	"remap_file_pages\0" "set_mempolicy\0" "set_mempolicy_home_node\0" "shmat\0" "shmdt\0";

/* Calls that read or change user and group ids or capabilities. */
static const char creds_class[] =
	"capget\0" "capset\0" "getegid\0" "getegid32\0" "geteuid\0" "geteuid32\0" "getgid\0"
	"getgid32\0" "getgroups\0" "getgroups32\0" "getresgid\0" "getresgid32\0" "getresuid\0"
	"getresuid32\0" "getuid\0" "getuid32\0" "prctl\0" "setfsgid\0" "setfsgid32\0"
	"setfsuid\0" "setfsuid32\0" "setgid\0" "setgid32\0" "setgroups\0" "setgroups32\0"
	"setregid\0" "setregid32\0" "setresgid\0" "setresgid32\0" "setresuid\0" "setresuid32\0"
	"setreuid\0" "setreuid32\0" "setuid\0" "setuid32\0";

/* Calls that read or change the system's clocks. */
static const char clock_class[] =
	"adjtimex\0" "clock_adjtime\0" "clock_adjtime64\0" "clock_getres\0"
	"clock_getres_time64\0" "clock_gettime\0" "clock_gettime64\0" "clock_settime\0"
	"clock_settime64\0" "gettimeofday\0" "settimeofday\0" "stime\0" "time\0";

/* Calls without arguments that always succeed. */
static const char pure_class[] =
	"arc_gettls\0" "getdtablesize\0" "getegid\0" "getegid32\0" "geteuid\0" "geteuid32\0"
	"getgid\0" "getgid32\0" "getpagesize\0" "getpgrp\0" "getpid\0" "getppid\0" "gettid\0"
	"getuid\0" "getuid32\0" "getxgid\0" "getxpid\0" "getxuid\0" "kern_features\0"
	"metag_get_tls\0";

static const char stat_class[] =
	"oldstat\0" "stat\0" "stat64\0";
static const char lstat_class[] =
	"lstat\0" "lstat64\0" "oldlstat\0";
static const char fstat_class[] =
	"fstat\0" "fstat64\0" "fstatat64\0" "newfstatat\0" "oldfstat\0" "statx\0";
static const char any_stat_class[] =
	"fstat\0" "fstat64\0" "fstatat64\0" "lstat\0" "lstat64\0" "newfstatat\0" "oldfstat\0"
	"oldlstat\0" "oldstat\0" "stat\0" "stat64\0" "statx\0";

/* clang-format on */

static const struct {
	char name[8]; /* after the '%' */
	const char *members;
} classes[] = {
	{ "file", file_class },	      { "desc", desc_class },	    { "process", process_class },
	{ "net", network_class },     { "network", network_class }, { "signal", signal_class },
	{ "ipc", ipc_class },	      { "memory", memory_class },   { "creds", creds_class },
	{ "clock", clock_class },     { "pure", pure_class },	    { "stat", stat_class },
	{ "lstat", lstat_class },     { "fstat", fstat_class },	    { "%stat", any_stat_class },
};

const char *inject_class_members(const char *name)
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
