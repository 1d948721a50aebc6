/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that tries to end its own supervision, for
 * tests/cli/run_programs.sh: run under `syscage run` (or learn, or inject),
 * it kills syscage's watchdog and syscage itself, then makes a call the
 * policy denies, to see whether the denial still holds.
 *
 *   supervisor_attack grandchild RESULT  the program forks; its child (the
 *                                        supervisor's grandchild, which has no
 *                                        parent-death signal) attacks; the
 *                                        program prints "attacker exit N" or
 *                                        "attacker signal N" and exits 0
 *   supervisor_attack pdeathsig RESULT   the program clears its own
 *                                        parent-death signal, then attacks
 *   supervisor_attack setegid RESULT     (root) the program switches its
 *                                        effective group to 1, which makes the
 *                                        kernel clear its parent-death signal,
 *                                        then attacks
 *   supervisor_attack vectors RESULT [broadcast]
 *                                        tries every other way to signal,
 *                                        trace or limit syscage and its
 *                                        watchdog, and kill(0) and kill(-PGID)
 *                                        on syscage's group; with broadcast
 *                                        also kill(-1) (only ever in a pid
 *                                        namespace of its own)
 *
 * The attack appends one line per step to RESULT: "kill syscage-watch E",
 * "kill syscage E" (E: 0 or the errno's name), then, only once both are
 * dead, "supervisor gone", and last "unshare R E" for unshare(0), which the
 * tests' policies deny.  A line "unshare ..." therefore means the caller ran
 * on past a call its policy kills.  The vectors mode writes "NAME TARGET E"
 * per attempt and "vectors done".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attack_note.h"

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
	char *close_paren = strrchr(buf, ')'); /* the name may hold anything */
	char state = 0;
	int parent = 0;
	if (!close_paren || sscanf(close_paren + 1, " %c %d", &state, &parent) != 2)
		return 0;
	if (ppid)
		*ppid = parent;
	return state;
}

/* Whether @pid calls itself @name (/proc/PID/comm). */
static bool named(pid_t pid, const char *name)
{
	char path[64], comm[32] = "";
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool same = fgets(comm, sizeof(comm), f) && !strncmp(comm, name, strlen(name)) &&
		    comm[strlen(name)] == '\n';
	fclose(f);
	return same;
}

/* A child of @supervisor other than @program, named @name unless @name is NULL; 0: none. */
static pid_t child_of(pid_t supervisor, pid_t program, const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;
	while (d && !found && (e = readdir(d))) {
		pid_t pid = atoi(e->d_name), ppid = 0;
		if (pid > 0 && pid != program && proc_state(pid, &ppid) && ppid == supervisor &&
		    (!name || named(pid, name)))
			found = pid;
	}
	if (d)
		closedir(d);
	return found;
}

static void sleep_ms(long ms);

/*
 * syscage's watchdog: the child of @supervisor named syscage-watch, waited for a
 * second, since it may not have named itself yet when the program starts; then
 * any child other than @program; 0 when there is none.  By name first, because a
 * supervisor that was the caller's process may have other children (a daemon a
 * failed test left behind), which the guard has no reason to protect.
 */
static pid_t find_watchdog(pid_t supervisor, pid_t program)
{
	/* Sleep once whatever the watchdog's progress, so that a policy learned from one
	 * run has the sleep's syscall for the next, however fast the watchdog was. */
	sleep_ms(1);
	for (int i = 0; i < 100; i++) {
		pid_t pid = child_of(supervisor, program, "syscage-watch");
		if (pid)
			return pid;
		sleep_ms(10);
	}
	return child_of(supervisor, program, NULL);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Waits (30 s at most) until @pid has died: gone, or a zombie. */
static int wait_dead(pid_t pid)
{
	for (int i = 0; i < 600; i++) {
		char s = proc_state(pid, NULL);
		if (s == 0 || s == 'Z' || s == 'X')
			return 0;
		sleep_ms(50);
	}
	return -1;
}

/* Kills the watchdog, then @supervisor (@program's parent); once both are dead, unshare(0). */
static int attack(pid_t supervisor, pid_t program)
{
	pid_t watchdog = find_watchdog(supervisor, program);
	long a = watchdog ? kill(watchdog, SIGKILL) : (errno = ESRCH, -1);
	note("kill syscage-watch %s", outcome(a));
	long b = kill(supervisor, SIGKILL);
	note("kill syscage %s", outcome(b));
	if (a == 0 && b == 0 && wait_dead(watchdog) == 0 && wait_dead(supervisor) == 0)
		note("supervisor gone");
	long r = syscall(SYS_unshare, 0L);
	note("unshare %ld %s", r, outcome(r));
	return 0;
}

static int run_grandchild(void)
{
	pid_t supervisor = getppid(), program = getpid();
	pid_t child = fork();
	if (child < 0)
		return 1;
	if (child == 0)
		_exit(attack(supervisor, program));
	int status;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		printf("attacker signal %d\n", WTERMSIG(status));
	else
		printf("attacker exit %d\n", WEXITSTATUS(status));
	return 0;
}

static int run_pdeathsig(void)
{
	pid_t supervisor = getppid();
	prctl(PR_SET_PDEATHSIG, 0L, 0L, 0L, 0L);
	return attack(supervisor, getpid());
}

static int run_setegid(void)
{
	pid_t supervisor = getppid();
	int before = -1, after = -1;
	prctl(PR_GET_PDEATHSIG, &before, 0L, 0L, 0L);
	if (setegid(1) < 0) {
		note("setegid %s", outcome(-1));
		return 1;
	}
	prctl(PR_GET_PDEATHSIG, &after, 0L, 0L, 0L);
	note("pdeathsig %d then %d", before, after);
	return attack(supervisor, getpid());
}

/* Every other way in, each at @pid (named @name). */
static void try_target(pid_t pid, const char *name)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGKILL;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	note("tkill %s %s", name, outcome(syscall(SYS_tkill, pid, SIGKILL)));
	note("tgkill %s %s", name, outcome(syscall(SYS_tgkill, pid, pid, SIGKILL)));
	note("rt_sigqueueinfo %s %s", name,
	     outcome(syscall(SYS_rt_sigqueueinfo, pid, SIGKILL, &si)));
	note("rt_tgsigqueueinfo %s %s", name,
	     outcome(syscall(SYS_rt_tgsigqueueinfo, pid, pid, SIGKILL, &si)));
	long fd = syscall(SYS_pidfd_open, pid, 0);
	note("pidfd_open %s %s", name, outcome(fd));
	if (fd >= 0)
		close((int)fd);
	/* A /proc/PID directory is a pidfd for pidfd_send_signal. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long r = dirfd < 0 ? -1 : syscall(SYS_pidfd_send_signal, dirfd, SIGKILL, NULL, 0);
	note("pidfd_send_signal %s %s", name, outcome(r));
	if (dirfd >= 0)
		close(dirfd);
	r = ptrace(PTRACE_SEIZE, pid, NULL, NULL);
	note("ptrace %s %s", name, outcome(r));
	char byte;
	struct iovec local = { &byte, 1 }, remote = { &byte, 1 };
	note("process_vm_readv %s %s", name,
	     outcome(syscall(SYS_process_vm_readv, pid, &local, 1UL, &remote, 1UL, 0UL)));
	struct rlimit old;
	note("prlimit64 %s %s", name, outcome(syscall(SYS_prlimit64, pid, RLIMIT_CPU, NULL, &old)));
}

static int run_vectors(bool broadcast)
{
	pid_t supervisor = getppid(), watchdog = find_watchdog(supervisor, getpid());
	note("kill syscage-watch %s", outcome(watchdog ? kill(watchdog, SIGKILL) : -1));
	note("kill syscage %s", outcome(kill(supervisor, SIGKILL)));
	if (watchdog)
		try_target(watchdog, "syscage-watch");
	try_target(supervisor, "syscage");
	/* SIGIO with a signal of one's choice reaches a descriptor's owner. */
	int p[2];
	if (pipe2(p, O_CLOEXEC) == 0) {
		note("F_SETSIG SIGKILL %s", outcome(fcntl(p[0], F_SETSIG, SIGKILL)));
		close(p[0]);
		close(p[1]);
	}
	pid_t group = getpgid(supervisor);
	note("kill -PGID syscage %s", outcome(group > 0 ? kill(-group, SIGKILL) : -1));
	note("kill 0 syscage %s", outcome(kill(0, SIGKILL)));
	if (broadcast)
		note("kill -1 all %s", outcome(kill(-1, SIGKILL)));
	note("vectors done");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argc > 2 ? argv[1] : "";
	result_path = argc > 2 ? argv[2] : "";
	if (!strcmp(mode, "grandchild") && argc == 3)
		return run_grandchild();
	if (!strcmp(mode, "pdeathsig") && argc == 3)
		return run_pdeathsig();
	if (!strcmp(mode, "setegid") && argc == 3)
		return run_setegid();
	if (!strcmp(mode, "vectors") && (argc == 3 || (argc == 4 && !strcmp(argv[3], "broadcast"))))
		return run_vectors(argc == 4);
	fprintf(stderr, "usage: supervisor_attack MODE RESULT (see the comment at the top)\n");
	return 2;
}
