/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Programs for tests/cli/run_programs.sh to run under `syscage run`: each
 * mode exercises one thing the supervisor must get right, and its exit
 * status says whether the program saw what the policy promises.
 *
 *   run_workload threads N PATH        N threads make syscalls; one calls mkdir(PATH)
 *                                      and prints "tid T errno E"
 *   run_workload forktree PATH         a grandchild prints "grandchild PID", calls
 *                                      mkdir(PATH), prints "errno E"
 *   run_workload trap READY            catches SIGTERM/SIGINT/SIGHUP, writes its pid
 *                                      to READY, prints "caught SIGxxx" for the first
 *   run_workload die READY             default action for those signals, writes its
 *                                      pid to READY, waits to be killed
 *   run_workload block READY GO PATH   forks a grandchild; both wait for GO, then call
 *                                      mkdir(PATH).  READY holds "PID GRANDCHILD NR".
 *                                      The grandchild exits with the call's errno; the
 *                                      program waits to be killed
 *   run_workload pending READY GO RESULT PATH
 *                                      forks three children that, once GO exists, call
 *                                      mkdir(PATH) and write the errno to RESULT.0, .1
 *                                      and .2; the program exits 0 as soon as all three
 *                                      calls wait.  READY holds "PID NR CHILD..."
 *   run_workload storm N PATH          one thread calls mkdir(PATH) N times while
 *                                      another keeps sending it SIGUSR1 (SA_RESTART);
 *                                      prints "denied D of N"
 *   run_workload fork-exit RESULT PATH forks and exits 0 at once; the child waits until
 *                                      its parent and the supervisor are gone, calls
 *                                      mkdir(PATH) and writes the errno to RESULT
 *   run_workload daemon RESULT PATH    the same, but the child's call comes 0.3 s after
 *                                      its parent is gone
 *   run_workload closefds PATH         closes every fd, inherited ones included, then
 *                                      calls mkdir(PATH); exits with its errno
 *   run_workload execloop N PATH       execs itself N times, then calls mkdir(PATH)
 *                                      and prints "execs done errno E"
 *   run_workload forge N               tries execve and execveat of /bin/true with N
 *                                      guessed sixth arguments; prints "denied D of T"
 *   run_workload stress T P C PATH     T threads and P processes each call mkdir(PATH)
 *                                      C times at once; prints "calls N failed-as-denied M"
 *   run_workload child-loop N PATH READY RESULT
 *                                      forks a child that writes "PID NR" to READY,
 *                                      calls mkdir(PATH) N times and writes "denied D
 *                                      of N" to RESULT; the program waits for it
 *   run_workload race N PATH DECOY     one thread calls mkdir on a buffer holding PATH
 *                                      N times while another keeps rewriting the
 *                                      buffer to DECOY and back; prints "denied D of N"
 *   run_workload exit N                exits with status N
 *
 * Modes that check an errno exit 0 when every denied call failed with
 * EACCES, the errno the tests' policies give.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The errno of mkdir(@path), 0 when it succeeded (it should not). */
static int mkdir_errno(const char *path)
{
	if (syscall(SYS_mkdirat, AT_FDCWD, path, 0755) == 0)
		return 0;
	return errno;
}

static void create_file(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	rename(tmp, path); /* the waiting test never sees a half-written file */
}

/* Waits (at most 30 s) until @path exists. */
static int wait_file(const char *path)
{
	struct stat st;
	for (int i = 0; i < 3000; i++) {
		if (stat(path, &st) == 0)
			return 0;
		sleep_ms(10);
	}
	return -1;
}

/* --- threads ---------------------------------------------------------------- */

struct thread_arg {
	int index;
	int denier;
	const char *path;
	int err;
	pid_t tid;
};

static pthread_barrier_t start_line;

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	pthread_barrier_wait(&start_line);
	struct stat st;
	for (int i = 0; i < 200; i++) {
		(void)syscall(SYS_getppid);
		(void)stat("/", &st);
	}
	if (a->index == a->denier) {
		a->tid = (pid_t)syscall(SYS_gettid);
		a->err = mkdir_errno(a->path);
	}
	return NULL;
}

static int run_threads(int n, const char *path)
{
	if (n < 1 || n > 1024)
		return 2;
	pthread_t th[1024];
	struct thread_arg args[1024];
	pthread_barrier_init(&start_line, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		args[i] = (struct thread_arg){ .index = i, .denier = n / 2, .path = path };
		if (pthread_create(&th[i], NULL, thread_main, &args[i]))
			return 3;
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	const struct thread_arg *d = &args[n / 2];
	printf("tid %d errno %d\n", (int)d->tid, d->err);
	return d->err == EACCES && d->tid != getpid() ? 0 : 1;
}

/* --- processes -------------------------------------------------------------- */

static int wait_status(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 4;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int run_forktree(const char *path)
{
	fflush(stdout);
	pid_t child = fork();
	if (child < 0)
		return 3;
	if (child == 0) {
		pid_t grandchild = fork();
		if (grandchild < 0)
			_exit(3);
		if (grandchild == 0) {
			printf("grandchild %d\n", (int)getpid());
			int err = mkdir_errno(path);
			printf("errno %d\n", err);
			fflush(stdout);
			_exit(err == EACCES ? 0 : 1);
		}
		_exit(wait_status(grandchild));
	}
	return wait_status(child);
}

static const int test_signals[] = { SIGTERM, SIGINT, SIGHUP };
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (!caught)
		caught = sig;
}

/* Sets every test signal to @handler and unblocks them (the shell may have ignored some). */
static void set_signals(void (*handler)(int))
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(test_signals) / sizeof(test_signals[0]); i++) {
		struct sigaction sa = { .sa_handler = handler };
		sigemptyset(&sa.sa_mask);
		sigaction(test_signals[i], &sa, NULL);
		sigaddset(&set, test_signals[i]);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void write_pid(const char *path)
{
	char text[32];
	snprintf(text, sizeof(text), "%d\n", (int)getpid());
	create_file(path, text);
}

static int run_trap(const char *ready)
{
	set_signals(on_signal);
	write_pid(ready);
	for (int i = 0; i < 3000 && !caught; i++)
		sleep_ms(10);
	if (!caught)
		return 1;
	printf("caught SIG%s\n", sigabbrev_np(caught));
	return 0;
}

static int run_die(const char *ready)
{
	set_signals(SIG_DFL);
	write_pid(ready);
	sleep_ms(30000);
	return 1; /* nobody killed us */
}

static int run_block(const char *ready, const char *go, const char *path)
{
	fflush(stdout);
	pid_t grandchild = fork();
	if (grandchild < 0)
		return 3;
	if (grandchild == 0) {
		if (wait_file(go) < 0)
			_exit(3);
		_exit(mkdir_errno(path));
	}
	char text[128];
	snprintf(text, sizeof(text), "%d %d %d\n", (int)getpid(), (int)grandchild, SYS_mkdirat);
	create_file(ready, text);
	if (wait_file(go) < 0)
		return 3;
	(void)mkdir_errno(path);
	/* The supervisor died: the parent-death signal is on its way. */
	sleep_ms(30000);
	return 1;
}

/* The number of the syscall @pid waits in, -1 when it runs or cannot be read. */
static long syscall_of(pid_t pid)
{
	char path[64], text[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	char *end;
	long nr = strtol(text, &end, 10);
	return end == text ? -1 : nr;
}

enum { PENDING_CHILDREN = 3 };

static int run_pending(const char *ready, const char *go, const char *result, const char *path)
{
	pid_t children[PENDING_CHILDREN];
	char text[128];
	int n = snprintf(text, sizeof(text), "%d %d", (int)getpid(), SYS_mkdirat);
	fflush(stdout);
	for (int i = 0; i < PENDING_CHILDREN; i++) {
		children[i] = fork();
		if (children[i] < 0)
			return 3;
		if (children[i] == 0) {
			if (wait_file(go) < 0)
				_exit(3);
			char name[4096], err[32];
			snprintf(name, sizeof(name), "%s.%d", result, i);
			snprintf(err, sizeof(err), "%d\n", mkdir_errno(path));
			create_file(name, err);
			_exit(0);
		}
		n += snprintf(text + n, sizeof(text) - (size_t)n, " %d", (int)children[i]);
	}
	snprintf(text + n, sizeof(text) - (size_t)n, "\n");
	create_file(ready, text);
	if (wait_file(go) < 0)
		return 3;
	for (int i = 0; i < PENDING_CHILDREN; i++)
		for (int t = 0; t < 3000 && syscall_of(children[i]) != SYS_mkdirat; t++)
			sleep_ms(10);
	return 0;
}

static long deny_loop(const char *path, long calls);

static volatile sig_atomic_t storm_signals;
static volatile sig_atomic_t storm_done;

static void on_storm_signal(int sig)
{
	(void)sig;
	storm_signals++;
}

struct storm_arg {
	pid_t target;
};

static void *storm_sender(void *p)
{
	const struct storm_arg *a = p;
	/* A signal every 20 us or so: many calls are hit while they wait for the
	 * supervisor, and the sender does not starve the supervisor of a CPU on
	 * a loaded two-core machine. */
	struct timespec gap = { 0, 20000 };
	while (!storm_done) {
		syscall(SYS_tgkill, getpid(), a->target, SIGUSR1);
		nanosleep(&gap, NULL);
	}
	return NULL;
}

static int run_storm(long n, const char *path)
{
	struct sigaction sa = { .sa_handler = on_storm_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	struct storm_arg arg = { .target = (pid_t)syscall(SYS_gettid) };
	pthread_t sender;
	if (pthread_create(&sender, NULL, storm_sender, &arg))
		return 3;
	while (storm_signals == 0)
		sleep_ms(1);
	long denied = deny_loop(path, n);
	storm_done = 1;
	pthread_join(sender, NULL);
	printf("denied %ld of %ld\n", denied, n);
	return denied == n ? 0 : 1;
}

static int run_child_loop(long n, const char *path, const char *ready, const char *result)
{
	fflush(stdout);
	pid_t child = fork();
	if (child < 0)
		return 3;
	if (child == 0) {
		char line[64];
		snprintf(line, sizeof(line), "%d %d\n", (int)getpid(), (int)SYS_mkdirat);
		create_file(ready, line);
		long denied = deny_loop(path, n);
		snprintf(line, sizeof(line), "denied %ld of %ld\n", denied, n);
		create_file(result, line);
		_exit(denied == n ? 0 : 1);
	}
	int status;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

struct race_arg {
	char *buf;
	const char *path, *decoy;
	atomic_int done;
};

/* Rewrites the buffer under the caller's feet, as fast as it can, until told to stop. */
static void *race_writer(void *p)
{
	struct race_arg *a = p;
	while (!atomic_load(&a->done)) {
		memcpy(a->buf, a->decoy, strlen(a->decoy) + 1);
		memcpy(a->buf, a->path, strlen(a->path) + 1);
	}
	return NULL;
}

/* A report may show DECOY, yet each call is denied: verdicts never read memory. */
static int run_race(long n, const char *path, const char *decoy)
{
	char buf[4096];
	if (strlen(path) >= sizeof(buf) || strlen(decoy) >= sizeof(buf))
		return 2;
	struct race_arg arg = { .buf = buf, .path = path, .decoy = decoy };
	memcpy(buf, path, strlen(path) + 1);
	pthread_t writer;
	if (pthread_create(&writer, NULL, race_writer, &arg))
		return 3;
	long denied = 0;
	for (long i = 0; i < n; i++)
		if (syscall(SYS_mkdirat, AT_FDCWD, buf, 0755) < 0 && errno == EACCES)
			denied++;
	atomic_store(&arg.done, 1);
	pthread_join(writer, NULL);
	printf("denied %ld of %ld\n", denied, n);
	return denied == n ? 0 : 1;
}

/* True once @pid has exited (a zombie counts: it no longer holds the listener). */
static bool gone(pid_t pid)
{
	char path[64], state = 'Z';
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 'Z';
	fclose(f);
	return state == 'Z' || state == 'X';
}

/* @wait_supervisor: the orphan's call comes once syscage is gone too, else
 * as soon as its parent is (a daemon, for `run --wait`). */
static int run_fork_exit(const char *result, const char *path, bool wait_supervisor)
{
	pid_t parent = getpid(), supervisor = getppid();
	fflush(stdout);
	pid_t child = fork();
	if (child < 0)
		return 3;
	if (child > 0)
		return 0;
	for (int i = 0; i < 3000 && !(gone(parent) && (!wait_supervisor || gone(supervisor))); i++)
		sleep_ms(10);
	/* A daemon's call comes well after the exit, when a supervisor that
	 * does not wait for it is long gone (what --wait is tested against). */
	if (!wait_supervisor)
		sleep_ms(300);
	char text[32];
	snprintf(text, sizeof(text), "%d\n", mkdir_errno(path));
	create_file(result, text);
	_exit(0);
}

static int run_closefds(const char *path)
{
	/* close_range may itself be missing on old kernels: close one by one then. */
	if (syscall(SYS_close_range, 0U, ~0U, 0U) < 0)
		for (int fd = 0; fd < 65536; fd++)
			close(fd);
	return mkdir_errno(path);
}

static int run_execloop(const char *self, long n, const char *path)
{
	if (n <= 0) {
		int err = mkdir_errno(path);
		printf("execs done errno %d\n", err);
		return err == EACCES ? 0 : 1;
	}
	char count[32];
	snprintf(count, sizeof(count), "%ld", n - 1);
	char *argv[] = { (char *)self, (char *)"execloop", count, (char *)path, NULL };
	execv("/proc/self/exe", argv);
	perror("execv");
	return 1;
}

/* One execve or execveat of /bin/true with @guess as the sixth argument. */
static long exec_guess(uint64_t guess, bool at)
{
	static char *const argv[] = { (char *)"true", NULL };
	static char *const envp[] = { NULL };
	if (at)
		return syscall(SYS_execveat, AT_FDCWD, "/bin/true", argv, envp, 0L, guess);
	return syscall(SYS_execve, "/bin/true", argv, envp, 0L, 0L, guess);
}

static int run_forge(long n)
{
	/* Values a program might try: nothing, all ones, each half alone, then random. */
	static const uint64_t fixed[] = { 0, 1, UINT64_MAX, 0xffffffffULL, 0xffffffff00000000ULL };
	long denied = 0, tries = 0;
	for (long i = 0; i < n; i++) {
		uint64_t guess;
		if ((size_t)i < sizeof(fixed) / sizeof(fixed[0]))
			guess = fixed[i];
		else if (getrandom(&guess, sizeof(guess), 0) != (ssize_t)sizeof(guess))
			return 3;
		for (int at = 0; at < 2; at++) {
			tries++;
			if (exec_guess(guess, at) < 0 && errno == EACCES)
				denied++;
		}
	}
	printf("denied %ld of %ld\n", denied, tries);
	return denied == tries ? 0 : 1;
}

/* --- stress ----------------------------------------------------------------- */

struct stress_arg {
	const char *path;
	long calls;
	long denied;
};

static pthread_barrier_t stress_line;

static long deny_loop(const char *path, long calls)
{
	long denied = 0;
	for (long i = 0; i < calls; i++)
		denied += mkdir_errno(path) == EACCES;
	return denied;
}

static void *stress_thread(void *p)
{
	struct stress_arg *a = p;
	pthread_barrier_wait(&stress_line);
	a->denied = deny_loop(a->path, a->calls);
	return NULL;
}

/* The children start when the parent closes the write end of @gate. */
static int stress_children(int procs, long calls, const char *path, pid_t *pids, int gate[2])
{
	for (int i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -1;
		if (pids[i] == 0) {
			close(gate[1]);
			char c;
			(void)!read(gate[0], &c, 1);
			long denied = deny_loop(path, calls);
			_exit(denied == calls ? 0 : 1);
		}
	}
	return 0;
}

static int run_stress(int threads, int procs, long calls, const char *path)
{
	if (threads < 0 || threads > 1024 || procs < 0 || procs > 1024 || calls < 0)
		return 2;
	static pthread_t th[1024];
	static struct stress_arg args[1024];
	static pid_t pids[1024];
	int gate[2];
	if (pipe(gate) < 0)
		return 3;
	fflush(stdout);
	if (stress_children(procs, calls, path, pids, gate) < 0)
		return 3;
	pthread_barrier_init(&stress_line, NULL, (unsigned)threads + 1);
	for (int i = 0; i < threads; i++) {
		args[i] = (struct stress_arg){ .path = path, .calls = calls };
		if (pthread_create(&th[i], NULL, stress_thread, &args[i]))
			return 3;
	}
	close(gate[1]); /* the children go ... */
	pthread_barrier_wait(&stress_line); /* ... and so do the threads */
	long denied = 0, failed_procs = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		denied += args[i].denied;
	}
	for (int i = 0; i < procs; i++)
		failed_procs += wait_status(pids[i]) != 0;
	denied += (procs - failed_procs) * calls;
	printf("calls %ld failed-as-denied %ld\n", (long)(threads + procs) * calls, denied);
	return failed_procs == 0 && denied == (long)(threads + procs) * calls ? 0 : 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "threads") && argc == 4)
		return run_threads(atoi(argv[2]), argv[3]);
	if (!strcmp(mode, "forktree") && argc == 3)
		return run_forktree(argv[2]);
	if (!strcmp(mode, "trap") && argc == 3)
		return run_trap(argv[2]);
	if (!strcmp(mode, "die") && argc == 3)
		return run_die(argv[2]);
	if (!strcmp(mode, "block") && argc == 5)
		return run_block(argv[2], argv[3], argv[4]);
	if (!strcmp(mode, "pending") && argc == 6)
		return run_pending(argv[2], argv[3], argv[4], argv[5]);
	if (!strcmp(mode, "storm") && argc == 4)
		return run_storm(atol(argv[2]), argv[3]);
	if (!strcmp(mode, "fork-exit") && argc == 4)
		return run_fork_exit(argv[2], argv[3], true);
	if (!strcmp(mode, "daemon") && argc == 4)
		return run_fork_exit(argv[2], argv[3], false);
	if (!strcmp(mode, "closefds") && argc == 3)
		return run_closefds(argv[2]);
	if (!strcmp(mode, "execloop") && argc == 4)
		return run_execloop(argv[0], atol(argv[2]), argv[3]);
	if (!strcmp(mode, "forge") && argc == 3)
		return run_forge(atol(argv[2]));
	if (!strcmp(mode, "stress") && argc == 6)
		return run_stress(atoi(argv[2]), atoi(argv[3]), atol(argv[4]), argv[5]);
	if (!strcmp(mode, "child-loop") && argc == 6)
		return run_child_loop(atol(argv[2]), argv[3], argv[4], argv[5]);
	if (!strcmp(mode, "race") && argc == 5)
		return run_race(atol(argv[2]), argv[3], argv[4]);
	if (!strcmp(mode, "exit") && argc == 3)
		return atoi(argv[2]);
	fprintf(stderr, "usage: run_workload MODE ARGS (see the comment at the top)\n");
	return 2;
}
