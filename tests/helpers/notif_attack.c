/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * More ways a supervised program may try to get past its supervisor, for
 * tests/cli/run_programs.sh (run under `syscage run`; the policies there
 * kill unshare):
 *
 *   notif_attack own-filter HOW RESULT
 *       installs a seccomp filter of its own that answers unshare with
 *       USER_NOTIF (HOW = notify; it has no listener) or ERRNO(E2BIG)
 *       (HOW = errno; HOW = prctl installs that one through
 *       prctl(PR_SET_SECCOMP) instead of seccomp(); HOW = page0 maps page 0,
 *       puts the struct sock_fprog there and passes seccomp() a NULL
 *       program, writing "install skip" when page 0 cannot be mapped:
 *       root with CAP_SYS_RAWIO can), then calls unshare(0).  The kernel ranks both
 *       above syscage's USER_NOTIF, so the policy's verdict is not the one
 *       given; the call must not run all the same.  Writes "install R E"
 *       and, if it lives on, "unshare R E".
 *   notif_attack own-filter-orphan HOW RESULT
 *       forks and exits at once; the child waits until its parent and
 *       syscage are gone (the watchdog then answers alone), then does what
 *       own-filter HOW does.
 *   notif_attack int80 RESULT
 *       signals syscage and its watchdog through the i386 ABI (int $0x80,
 *       kill, tkill, tgkill), once with clean registers and once with
 *       junk in the upper halves of the 64-bit registers.  Writes
 *       "NAME TARGET E" per attempt and "int80 done".
 *   notif_attack x32 RESULT
 *       the same through the x32 ABI (the x86_64 numbers with bit 30 set),
 *       which runs where the kernel has x32 on.  Writes "x32 done".
 *   notif_attack clone-parent RESULT
 *       makes syscage the parent of a new process (CLONE_PARENT) whose exit
 *       signal is SIGKILL, lets it exit, then calls unshare(0).  Writes
 *       "sibling exited", "syscage alive" or "syscage gone", then
 *       "unshare R E" if it lives on.
 *   notif_attack bad-pointers RESULT
 *       makes denied mkdir and clone3 calls whose pointers syscage reads for
 *       its report: unmapped, non-canonical, in the kernel's half, a path
 *       running into an unreadable page without a NUL, 1 MiB without a
 *       NUL, a clone3 size of 1 MiB.  Writes "NAME R E" per call and
 *       "bad-pointers done".
 *   notif_attack exec-race READY GO RESULT
 *       a second thread calls unshare(0); once it waits in that call, writes
 *       "PID TID NR" to READY, waits for the file GO (the test creates it
 *       once syscage is busy reporting the call), then execs
 *       `sh -c 'echo survived >RESULT; exec sleep 1000'`: the exec ends the
 *       waiting thread, and the process must die all the same.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "attack_note.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The state letter and parent of @pid from /proc; 0 when it is gone. */
static char proc_state(pid_t pid, pid_t *ppid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *close_paren = strrchr(buf, ')');
	char state = 0;
	int parent = 0;
	if (!close_paren || sscanf(close_paren + 1, " %c %d", &state, &parent) != 2)
		return 0;
	if (ppid)
		*ppid = parent;
	return state;
}

static void unshare_now(void)
{
	long r = syscall(SYS_unshare, 0L);
	note("unshare %ld %s", r, outcome(r));
}

static int run_own_filter(const char *how)
{
	uint32_t ret = strcmp(how, "notify") ? SECCOMP_RET_ERRNO | E2BIG : SECCOMP_RET_USER_NOTIF;
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, ret),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };
	struct sock_fprog *at = &prog;
	if (!strcmp(how, "page0")) {
		at = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			  -1, 0);
		if (at != NULL) {
			note("install skip");
			return 0;
		}
		/* at is NULL, deliberately: the kernel copies the program there (from a
		 * pipe), since a store through NULL is undefined in C (UBSan stops it) */
		int fds[2];
		if (pipe(fds) < 0 || write(fds[1], &prog, sizeof(prog)) != (ssize_t)sizeof(prog) ||
		    syscall(SYS_read, fds[0], 0L, sizeof(prog)) != (long)sizeof(prog))
			return 1;
		close(fds[0]);
		close(fds[1]);
	}
	long r = strcmp(how, "prctl") ? syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0L, at)
				      : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, at);
	note("install %ld %s", r, outcome(r));
	unshare_now();
	return 0;
}

/* Neither gone nor a zombie. */
static bool alive(pid_t pid)
{
	char state = proc_state(pid, NULL);
	return state && state != 'Z';
}

/* own-filter from an orphan, once the supervisor is gone too. */
static int run_own_filter_orphan(const char *how)
{
	pid_t parent = getpid(), supervisor = getppid();
	pid_t child = fork();
	if (child != 0)
		return child < 0 ? 3 : 0;
	/* at most 20 s: less than the test's reaper waits, even if a pid were reused */
	for (int i = 0; i < 2000 && (alive(parent) || alive(supervisor)); i++)
		sleep_ms(10);
	_exit(run_own_filter(how));
}

#if defined(__x86_64__)
/* An i386 syscall through int $0x80, the 64-bit registers given whole. */
static long int80(long nr, uint64_t a, uint64_t b, uint64_t c)
{
	long ret = nr;
	__asm__ volatile("int $0x80" : "+a"(ret) : "b"(a), "c"(b), "d"(c)
			 : "r8", "r9", "r10", "r11", "memory"); /* the kernel clears r8-r11 */
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

static void int80_at(pid_t pid, const char *name, uint64_t junk)
{
	enum { I386_KILL = 37, I386_TKILL = 238, I386_TGKILL = 270 };
	uint64_t p = junk | (uint32_t)pid, sig = junk | SIGKILL;
	note("kill %s%s %s", name, junk ? "+junk" : "", outcome(int80(I386_KILL, p, sig, 0)));
	note("tkill %s%s %s", name, junk ? "+junk" : "", outcome(int80(I386_TKILL, p, sig, 0)));
	note("tgkill %s%s %s", name, junk ? "+junk" : "",
	     outcome(int80(I386_TGKILL, p, p, sig)));
}

/* syscage's watchdog: its child other than us (as supervisor_attack finds it). */
static pid_t find_watchdog(pid_t supervisor)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;
	while (d && !found && (e = readdir(d))) {
		pid_t pid = atoi(e->d_name), ppid = 0;
		if (pid > 0 && pid != getpid() && proc_state(pid, &ppid) && ppid == supervisor)
			found = pid;
	}
	if (d)
		closedir(d);
	return found;
}

static int run_int80(void)
{
	pid_t supervisor = getppid(), watchdog = find_watchdog(supervisor);
	for (int j = 0; j < 2; j++) {
		uint64_t junk = j ? 0xdead000100000000ULL : 0;
		if (watchdog)
			int80_at(watchdog, "syscage-watch", junk);
		int80_at(supervisor, "syscage", junk);
	}
	note("int80 done");
	return 0;
}

static void x32_at(pid_t pid, const char *name)
{
	const long x32 = 0x40000000L;
	note("kill %s %s", name, outcome(syscall(x32 | SYS_kill, pid, SIGKILL)));
	note("tkill %s %s", name, outcome(syscall(x32 | SYS_tkill, pid, SIGKILL)));
	note("tgkill %s %s", name, outcome(syscall(x32 | SYS_tgkill, pid, pid, SIGKILL)));
}

static int run_x32(void)
{
	pid_t supervisor = getppid(), watchdog = find_watchdog(supervisor);
	if (watchdog)
		x32_at(watchdog, "syscage-watch");
	x32_at(supervisor, "syscage");
	note("x32 done");
	return 0;
}
#else
static int run_int80(void)
{
	note("int80 not x86_64");
	return 1;
}

static int run_x32(void)
{
	note("x32 not x86_64");
	return 1;
}
#endif

static int sibling_main(void *arg)
{
	(void)arg;
	return 0;
}

static int run_clone_parent(void)
{
	pid_t supervisor = getppid();
	static char stack[65536] __attribute__((aligned(16)));
	pid_t sib = clone(sibling_main, stack + sizeof(stack), CLONE_PARENT | SIGKILL, NULL);
	if (sib < 0) {
		note("clone %s", outcome(-1));
		return 1;
	}
	/* Not our child: wait (30 s at most) until it has exited. */
	for (int i = 0; i < 600; i++) {
		char s = proc_state(sib, NULL);
		if (s == 0 || s == 'Z' || s == 'X')
			break;
		sleep_ms(50);
	}
	note("sibling exited");
	char s = proc_state(supervisor, NULL);
	note(s && s != 'Z' && s != 'X' ? "syscage alive" : "syscage gone");
	unshare_now();
	return 0;
}

static void mkdir_at(const char *name, uintptr_t path)
{
	long r = syscall(SYS_mkdirat, AT_FDCWD, path, 0700);
	note("mkdirat %s %ld %s", name, r, outcome(r));
}

static int run_bad_pointers(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t big = 1 << 20;
	/* a page of 'x' followed by an unreadable one, and 1 MiB of 'y' */
	char *edge = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *huge = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED || huge == MAP_FAILED || mprotect(edge + page, (size_t)page, PROT_NONE))
		return 1;
	memset(edge, 'x', (size_t)page);
	memset(huge, 'y', big);
	mkdir_at("low", 1);
	mkdir_at("edge", (uintptr_t)edge + (uintptr_t)page - 7);
	mkdir_at("unreadable", (uintptr_t)edge + (uintptr_t)page);
	mkdir_at("huge", (uintptr_t)huge);
	mkdir_at("noncanonical", (uintptr_t)0x8000000000000000ULL);
	mkdir_at("kernel", (uintptr_t)0xffffffff81000000ULL);
	mkdir_at("top", UINTPTR_MAX);
	long r = syscall(SYS_clone3, (uintptr_t)edge + (uintptr_t)page, (size_t)64);
	note("clone3 unreadable %ld %s", r, outcome(r));
	r = syscall(SYS_clone3, huge, big);
	note("clone3 huge %ld %s", r, outcome(r));
	r = syscall(SYS_clone3, (uintptr_t)edge + (uintptr_t)page - 8, (size_t)88);
	note("clone3 edge %ld %s", r, outcome(r));
	note("bad-pointers done");
	return 0;
}

static volatile pid_t racer_tid;

static void *racer(void *arg)
{
	(void)arg;
	racer_tid = (pid_t)syscall(SYS_gettid);
	syscall(SYS_unshare, 0L); /* killed by the policy; never returns */
	return NULL;
}

/* Whether thread @tid waits in syscall @nr (the first field of /proc's syscall file). */
static bool waits_in(pid_t tid, long nr)
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	FILE *f = fopen(path, "re");
	long got = -2;
	if (f && fgets(buf, sizeof(buf), f))
		got = strtol(buf, NULL, 10);
	if (f)
		fclose(f);
	return got == nr;
}

static int run_exec_race(const char *ready, const char *go)
{
	pthread_t t;
	if (pthread_create(&t, NULL, racer, NULL) != 0)
		return 3;
	while (!racer_tid || !waits_in(racer_tid, SYS_unshare))
		sleep_ms(10);
	FILE *f = fopen(ready, "we");
	if (!f)
		return 4;
	fprintf(f, "%d %d %ld\n", (int)getpid(), (int)racer_tid, (long)SYS_unshare);
	fclose(f);
	while (access(go, F_OK) != 0)
		sleep_ms(10);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "echo survived >'%s'; exec sleep 1000", result_path);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	return 5;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	result_path = argv[argc - 1];
	if (!strcmp(mode, "own-filter") && argc == 4)
		return run_own_filter(argv[2]);
	if (!strcmp(mode, "own-filter-orphan") && argc == 4)
		return run_own_filter_orphan(argv[2]);
	if (!strcmp(mode, "int80") && argc == 3)
		return run_int80();
	if (!strcmp(mode, "x32") && argc == 3)
		return run_x32();
	if (!strcmp(mode, "clone-parent") && argc == 3)
		return run_clone_parent();
	if (!strcmp(mode, "bad-pointers") && argc == 3)
		return run_bad_pointers();
	if (!strcmp(mode, "exec-race") && argc == 5)
		return run_exec_race(argv[2], argv[3]);
	fprintf(stderr, "usage: notif_attack MODE [ARG] RESULT (see the comment at the top)\n");
	return 2;
}
