#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes groups.c, the syscall groups of the policy language; the build runs it
(lib/lang/meson.build).

    tools/gen-groups.py [SYSCALLS_CSV] [OUTPUT]

The groups carry systemd's names and the same meaning where systemd has the
group; the lists below are this project's.  A group may name other groups
("@default"); the output is flattened, sorted and free of duplicates, and
keeps only names that some ABI's syscall table knows (the others are listed
on stderr).  Deterministic: same inputs, same file.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ctables  # noqa: E402

GROUPS = [
    ("aio", "asynchronous I/O: the io_* family and io_uring", """
        io_cancel io_destroy io_getevents io_pgetevents io_pgetevents_time64
        io_setup io_submit io_uring_enter io_uring_register io_uring_setup"""),
    ("basic-io", "reading, writing, seeking and closing file descriptors", """
        _llseek close close_range dup dup2 dup3 lseek pread64 preadv preadv2
        pwrite64 pwritev pwritev2 read readv write writev"""),
    ("chown", "changing file ownership", """
        chown chown32 fchown fchown32 fchownat lchown lchown32"""),
    ("clock", "setting the system clock", """
        adjtimex clock_adjtime clock_adjtime64 clock_settime clock_settime64
        settimeofday stime"""),
    ("cpu-emulation", "running code in other CPU modes (vm86, LDT changes)", """
        modify_ldt subpage_prot switch_endian vm86 vm86old"""),
    ("debug", "debugging, tracing and performance monitoring of processes", """
        lookup_dcookie perf_event_open pidfd_getfd ptrace rtas
        s390_runtime_instr sys_debug_setcontext"""),
    ("default", "what nearly every program needs: memory, time, ids, exit", """
        brk cacheflush clock_getres clock_getres_time64 clock_gettime
        clock_gettime64 clock_nanosleep clock_nanosleep_time64 execve exit
        exit_group futex futex_time64 futex_waitv get_robust_list
        get_thread_area getegid getegid32 geteuid geteuid32 getgid getgid32
        getgroups getgroups32 getpgid getpgrp getpid getppid getrandom
        getresgid getresgid32 getresuid getresuid32 getrlimit getsid gettid
        gettimeofday getuid getuid32 lsm_get_self_attr lsm_list_modules
        membarrier mmap mmap2 mprotect munmap nanosleep pause prlimit64
        restart_syscall riscv_flush_icache riscv_hwprobe rseq rt_sigreturn
        sched_getaffinity sched_yield set_robust_list set_thread_area
        set_tid_address set_tls sigreturn time ugetrlimit"""),
    ("file-system", "opening, creating, renaming, inspecting and removing files", """
        access chdir chmod close creat faccessat faccessat2 fallocate fchdir
        fchmod fchmodat fchmodat2 fcntl fcntl64 fgetxattr flistxattr
        fremovexattr fsetxattr fstat fstat64 fstatat64 fstatfs fstatfs64
        ftruncate ftruncate64 futimesat getcwd getdents getdents64 getxattr
        inotify_add_watch inotify_init inotify_init1 inotify_rm_watch
        lgetxattr link linkat listxattr llistxattr lremovexattr lsetxattr
        lstat lstat64 mkdir mkdirat mknod mknodat mmap mmap2 munmap
        newfstatat oldfstat oldlstat oldstat open openat openat2 readlink
        readlinkat removexattr rename renameat renameat2 rmdir setxattr stat
        stat64 statfs statfs64 statx symlink symlinkat truncate truncate64
        unlink unlinkat utime utimensat utimensat_time64 utimes"""),
    ("io-event", "waiting for events on file descriptors", """
        _newselect epoll_create epoll_create1 epoll_ctl epoll_ctl_old
        epoll_pwait epoll_pwait2 epoll_wait epoll_wait_old eventfd eventfd2
        poll ppoll ppoll_time64 pselect6 pselect6_time64 select"""),
    ("ipc", "pipes, SysV and POSIX IPC, cross-process memory access", """
        ipc memfd_create mq_getsetattr mq_notify mq_open mq_timedreceive
        mq_timedreceive_time64 mq_timedsend mq_timedsend_time64 mq_unlink
        msgctl msgget msgrcv msgsnd pipe pipe2 process_madvise
        process_vm_readv process_vm_writev semctl semget semop semtimedop
        semtimedop_time64 shmat shmctl shmdt shmget"""),
    ("keyring", "the kernel keyring", """
        add_key keyctl request_key"""),
    ("memlock", "locking memory in RAM", """
        mlock mlock2 mlockall munlock munlockall"""),
    ("module", "loading and unloading kernel modules", """
        delete_module finit_module init_module"""),
    ("mount", "mounting, unmounting and changing the root directory", """
        chroot fsconfig fsmount fsopen fspick mount mount_setattr move_mount
        open_tree pivot_root umount umount2"""),
    ("network-io", "sockets: creating, connecting, sending, receiving", """
        accept accept4 bind connect getpeername getsockname getsockopt listen
        recv recvfrom recvmmsg recvmmsg_time64 recvmsg send sendmmsg sendmsg
        sendto setsockopt shutdown socket socketcall socketpair"""),
    ("obsolete", "syscalls nobody should need any more", """
        _sysctl afs_syscall bdflush break create_module ftime
        get_kernel_syms getpmsg gtty idle lock mpx prof profil putpmsg
        query_module security sgetmask ssetmask stty sysfs tuxcall ulimit
        uselib ustat vserver"""),
    ("pkey", "memory protection keys", """
        pkey_alloc pkey_free pkey_mprotect"""),
    ("privileged", "calls that need privileges (capabilities) to succeed", """
        @chown @clock @module @raw-io @reboot @swap _sysctl acct bpf capset
        chroot fanotify_init fanotify_mark nfsservctl open_by_handle_at
        pivot_root quotactl quotactl_fd setdomainname setfsuid setfsuid32
        setgroups setgroups32 sethostname setresuid setresuid32 setreuid
        setreuid32 setuid setuid32 vhangup"""),
    ("process", "creating, signalling, waiting for and inspecting processes", """
        capget clone clone3 execveat fork getrusage kill pidfd_open
        pidfd_send_signal prctl rt_sigqueueinfo rt_tgsigqueueinfo setns
        swapcontext tgkill times tkill unshare vfork wait4 waitid waitpid"""),
    ("raw-io", "raw access to I/O ports and devices", """
        ioperm iopl pciconfig_iobase pciconfig_read pciconfig_write
        s390_pci_mmio_read s390_pci_mmio_write"""),
    ("reboot", "rebooting and loading a new kernel", """
        kexec_file_load kexec_load reboot"""),
    ("resources", "changing resource limits, priorities and memory policy", """
        ioprio_set mbind migrate_pages move_pages nice sched_setaffinity
        sched_setattr sched_setparam sched_setscheduler set_mempolicy
        set_mempolicy_home_node setpriority setrlimit"""),
    ("sandbox", "setting up sandboxes: seccomp and Landlock", """
        landlock_add_rule landlock_create_ruleset landlock_restrict_self
        seccomp"""),
    ("setuid", "changing user and group ids", """
        setgid setgid32 setgroups setgroups32 setregid setregid32 setresgid
        setresgid32 setresuid setresuid32 setreuid setreuid32 setuid
        setuid32"""),
    ("signal", "handling and masking signals", """
        rt_sigaction rt_sigpending rt_sigprocmask rt_sigsuspend
        rt_sigtimedwait rt_sigtimedwait_time64 sigaction sigaltstack signal
        signalfd signalfd4 sigpending sigprocmask sigsuspend"""),
    ("swap", "enabling and disabling swap", """
        swapoff swapon"""),
    ("sync", "flushing files and memory to storage", """
        fdatasync fsync msync sync sync_file_range sync_file_range2 syncfs"""),
    ("system-service", "what a typical system service needs", """
        @aio @basic-io @chown @default @file-system @io-event @ipc @keyring
        @memlock @network-io @process @resources @setuid @signal @sync
        @timer arm_fadvise64_64 capget capset copy_file_range fadvise64
        fadvise64_64 flock get_mempolicy getcpu getpriority ioctl ioprio_get
        kcmp madvise mremap name_to_handle_at oldolduname olduname
        personality readahead readdir remap_file_pages
        sched_get_priority_max sched_get_priority_min sched_getaffinity
        sched_getattr sched_getparam sched_getscheduler sched_rr_get_interval
        sched_rr_get_interval_time64 sched_yield sendfile sendfile64
        setfsgid setfsgid32 setfsuid setfsuid32 setpgid setsid splice
        sysinfo tee umask uname userfaultfd vmsplice"""),
    ("timer", "timers and alarms", """
        alarm getitimer setitimer timer_create timer_delete timer_getoverrun
        timer_gettime timer_gettime64 timer_settime timer_settime64
        timerfd_create timerfd_gettime timerfd_gettime64 timerfd_settime
        timerfd_settime64 times"""),
]


def read_syscall_names(syscalls_csv):
    return set(ctables.read_syscalls(syscalls_csv)[1])


def flatten(name, table, stack=()):
    if name in stack:
        sys.exit("gen-groups: @%s includes itself" % name)
    members = set()
    for word in table[name][1].split():
        if word.startswith("@"):
            members |= flatten(word[1:], table, stack + (name,))
        else:
            members.add(word)
    return members


def render(groups, known):
    table = {name: (summary, words) for name, summary, words in groups}
    out = [
        "/* SPDX-License-Identifier: LGPL-2.1-or-later */",
        "/*",
        " * Generated by tools/gen-groups.py at build time from the lists in the",
        " * script and the names of data/syscalls.csv.",
        " */",
        '#include "lang/lang_internal.h"',
        "",
        "/* clang-format off */",
    ]
    dropped = set()
    rows = []
    for name, summary, _ in groups:
        members = flatten(name, table)
        dropped |= members - known
        rows.append((name, summary, sorted(members & known)))
    out += ctables.render_groups("group", "struct group_entry", "group_table",
                                 "group_table_count", rows)
    # scg_group_members()'s NULL-terminated lists, filled on first use
    out += ["const char *group_member_view[%d];" % sum(len(r[2]) + 1 for r in rows)]
    out += ["/* clang-format on */", ""]
    return "\n".join(out), dropped


def main(argv):
    syscalls_csv = argv[1] if len(argv) > 1 else "data/syscalls.csv"
    output = argv[2] if len(argv) > 2 else "groups.c"
    names = [g[0] for g in GROUPS]
    if names != sorted(names):
        sys.exit("gen-groups: keep GROUPS sorted by name")
    text, dropped = render(GROUPS, read_syscall_names(syscalls_csv))
    if dropped:
        print("gen-groups: no ABI has: " + " ".join(sorted(dropped)), file=sys.stderr)
    tmp = output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, output)


if __name__ == "__main__":
    main(sys.argv)
