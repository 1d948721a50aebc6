/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Learning through the raw_syscalls:sys_enter tracepoint.  The program that
 * runs there, bpf/learn.bpf.c, counts the calls of the traced processes per
 * ABI and number in per-CPU maps, or, with arguments, sends each call
 * through a ring buffer; this side starts the command (or finds the
 * processes below a pid), waits, and feeds the same struct scg_learn as the
 * notification learner.  libbpf is loaded on first use (libbpf_api.h).
 * docs/learn.md, "Learning with eBPF".
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <syscage/ebpf.h>
#include <syscage/launch.h>
#include <syscage/runtime.h>

#include "ebpf/libbpf_api.h"
#include "ebpf/maps.h"

enum { EXIT_SETUP = 125 };

#define CGROUP2_MAGIC 0x63677270
/* The ring buffer with --args: room for about 300,000 calls between two reads. */
#define RING_BYTES (16U << 20)
/* How long the reader waits between two looks (ms). */
#define POLL_MS 50

/* An error for opts->log, formatted. */
__attribute__((format(printf, 2, 3)))
static void say(const struct scg_ebpf_learn_opts *o, const char *fmt, ...)
{
	if (!o->log)
		return;
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->log(o->ctx, SCG_SEV_ERROR, msg);
}

/* Where libbpf's messages go: its hook takes no context. */
static const struct scg_ebpf_learn_opts *libbpf_listener;

/* libbpf's own messages: only with SYSCAGE_LIBBPF_DEBUG set (its errors are told below). */
__attribute__((format(printf, 2, 0)))
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	const struct scg_ebpf_learn_opts *o = libbpf_listener;
	if (!o || !o->log || !getenv("SYSCAGE_LIBBPF_DEBUG"))
		return 0;
	char msg[1024];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	o->log(o->ctx, SCG_SEV_NOTE, msg);
	return n;
}

/* Bit @cap of this process's effective capabilities. */
static bool has_capability(unsigned cap)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return geteuid() == 0;
	char line[256];
	unsigned long long eff = 0;
	bool found = false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	fclose(f);
	if (!found)
		return geteuid() == 0;
	return cap < 64 && (eff >> cap) & 1;
}

static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -1;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* What the kernel and this process lack for recording; 0 or a negative errno, told. */
static int can_record(const struct scg_ebpf_learn_opts *o)
{
	enum { CAP_SYS_ADMIN_BIT = 21, CAP_PERFMON_BIT = 38, CAP_BPF_BIT = 39 };
	if (!has_capability(CAP_SYS_ADMIN_BIT) &&
	    !(has_capability(CAP_BPF_BIT) && has_capability(CAP_PERFMON_BIT))) {
		int u = read_sysctl("/proc/sys/kernel/unprivileged_bpf_disabled");
		say(o, "loading a tracing program needs root (CAP_BPF and CAP_PERFMON, or "
		       "CAP_SYS_ADMIN)%s",
		    u > 0 ? "; kernel.unprivileged_bpf_disabled is set as well" : "");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		int e = errno;
		say(o, "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s; CONFIG_DEBUG_INFO_BTF)",
		    strerror(e));
		return -e;
	}
	if (libbpf_load() < 0) {
		say(o, "%s cannot be loaded: libbpf is not installed (Debian's package libbpf1)",
		    SCG_LIBBPF_SONAME);
		return -ENOSYS;
	}
	return 0;
}

/* The reason a bpf() step failed with @err, as the user can act on it. */
static const char *bpf_failure(int err)
{
	switch (err) {
	case ENOSYS: return "the kernel has no bpf() (CONFIG_BPF_SYSCALL)";
	case EPERM:
	case EACCES: return "not permitted (root, CAP_BPF and CAP_PERFMON; or a lockdown)";
	case ENOENT: return "the kernel has no raw_syscalls:sys_enter or sched_process_fork "
			    "tracepoint (CONFIG_FTRACE_SYSCALLS)";
	case EINVAL: return "the kernel refused the program (too old: it needs Linux 5.11 "
			    "with BTF)";
	default: return strerror(err);
	}
}

struct tracer {
	const struct scg_ebpf_learn_opts *o;
	struct bpf_object *obj;
	struct bpf_link *links[2];
	struct ring_buffer *ring;
	struct scg_learn *rec;
	unsigned long long lost, foreign, nomem;
};

static int on_event(void *ctx, void *data, size_t size)
{
	struct tracer *t = ctx;
	struct learn_ebpf_event e;
	if (size < sizeof(e))
		return 0;
	memcpy(&e, data, sizeof(e));
	struct scg_seccomp_data d = { .nr = (int32_t)e.nr, .arch = e.arch };
	memcpy(d.args, e.args, sizeof(d.args));
	int r = scg_learn_record(t->rec, &d);
	if (r == -EAFNOSUPPORT)
		t->foreign++;
	else if (r < 0)
		t->nomem++;
	return 0;
}

static struct bpf_map *map_of(const struct tracer *t, const char *name)
{
	return bpf_object__find_map_by_name(t->obj, name);
}

/*
 * The ring buffer's size: RING_BYTES with --args, else one page (it is not
 * used).  SYSCAGE_EBPF_RING_PAGES=N makes it N pages, read only every
 * POLL_MS, for the tests of lost calls.
 */
static uint32_t ring_bytes(bool args)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t bytes = page > 0 ? (uint32_t)page : 4096;
	const char *env = getenv("SYSCAGE_EBPF_RING_PAGES");
	char *end;
	unsigned long n = env ? strtoul(env, &end, 10) : 0;
	/* a power of two of pages, as the kernel wants */
	if (env && !*end && n > 0 && n <= 65536 && !(n & (n - 1)))
		return args ? bytes * (uint32_t)n : bytes;
	return args ? RING_BYTES : bytes;
}

/* Opens and loads the program; false after an error. */
static bool load(struct tracer *t, bool args)
{
	size_t size;
	const void *elf = learn_ebpf_object(&size);
	struct bpf_object_open_opts oo = { .sz = sizeof(oo), .object_name = "syscage_learn" };
	t->obj = bpf_object__open_mem(elf, size, &oo);
	if (!t->obj) {
		say(t->o, "cannot open the BPF program: %s", strerror(errno));
		return false;
	}
	struct bpf_map *events = map_of(t, "events");
	if (!events || bpf_map__set_max_entries(events, ring_bytes(args))) {
		say(t->o, "the BPF program has no ring buffer");
		return false;
	}
	int r = bpf_object__load(t->obj);
	if (r < 0) {
		say(t->o, "cannot load the BPF program: %s", bpf_failure(-r));
		return false;
	}
	return true;
}

static bool configure(struct tracer *t, const struct learn_ebpf_config *c)
{
	uint32_t zero = 0;
	if (bpf_map__update_elem(map_of(t, "config"), &zero, sizeof(zero), c, sizeof(*c), BPF_ANY)) {
		say(t->o, "cannot configure the BPF program: %s", strerror(errno));
		return false;
	}
	return true;
}

static int add_target(struct tracer *t, pid_t pid, uint8_t state)
{
	uint32_t key = (uint32_t)pid;
	return bpf_map__update_elem(map_of(t, "targets"), &key, sizeof(key), &state,
				    sizeof(state), BPF_ANY);
}

/* The cgroup v2 directory @path into the program's cgroup array; false after an error. */
static bool set_cgroup(struct tracer *t, const char *path)
{
	if (path == NULL) {
		say(t->o, "cgroup mode without a cgroup");
		return false;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs sf;
	if (fd < 0) {
		say(t->o, "cgroup %s: %s", path, strerror(errno));
		return false;
	}
	if (fstatfs(fd, &sf) < 0 || sf.f_type != CGROUP2_MAGIC) {
		say(t->o, "cgroup %s is not a directory of a cgroup v2 (cgroup2) "
			  "file system", path);
		close(fd);
		return false;
	}
	uint32_t zero = 0, value = (uint32_t)fd;
	int r = bpf_map__update_elem(map_of(t, "cgroup"), &zero, sizeof(zero), &value,
				     sizeof(value), BPF_ANY);
	int e = errno;
	close(fd);
	if (r) {
		say(t->o, "cgroup %s: %s", path, strerror(e));
		return false;
	}
	return true;
}

/* The parent of process @pid from /proc, or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')'); /* the name may hold anything but ends at the last ) */
	int ppid = 0;
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/* Whether process @pid has ended (gone, or a zombie its parent has not waited for). */
static bool process_gone(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kill(pid, 0) < 0 && errno == ESRCH;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	char state = '?';
	return p && sscanf(p + 1, " %c", &state) == 1 && (state == 'Z' || state == 'X');
}

/* Whether @pid descends from @root (a loop guard for odd /proc contents). */
static bool descends_from(pid_t pid, pid_t root)
{
	for (int depth = 0; pid > 1 && depth < 4096; depth++) {
		pid = parent_of(pid);
		if (pid == root)
			return true;
	}
	return false;
}

/*
 * --pid: @root and the processes below it that exist now; the program adds
 * those forked from now on.  Returns how many there were, or -1 after an error.
 */
static int add_process_tree(struct tracer *t, pid_t root)
{
	if (kill(root, 0) < 0 && errno == ESRCH) {
		say(t->o, "process %d: no such process", (int)root);
		return -1;
	}
	if (add_target(t, root, LEARN_EBPF_TRACED)) {
		say(t->o, "cannot trace process %d: %s", (int)root, strerror(errno));
		return -1;
	}
	int count = 1;
	DIR *proc = opendir("/proc");
	const struct dirent *d;
	while (proc && (d = readdir(proc))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);
		if (end == d->d_name || *end || pid <= 1 || pid == root)
			continue;
		if (descends_from((pid_t)pid, root) && add_target(t, (pid_t)pid, LEARN_EBPF_TRACED) == 0)
			count++;
	}
	if (proc)
		closedir(proc);
	return count;
}

static bool attach(struct tracer *t)
{
	size_t i = 0;
	for (struct bpf_program *prog = bpf_object__next_program(t->obj, NULL); prog;
	     prog = bpf_object__next_program(t->obj, prog)) {
		if (i == sizeof(t->links) / sizeof(t->links[0]))
			break;
		t->links[i] = bpf_program__attach(prog);
		if (!t->links[i]) {
			say(t->o, "cannot attach to %s: %s",
				  bpf_program__section_name(prog), bpf_failure(errno));
			return false;
		}
		i++;
	}
	return true;
}

static void detach(struct tracer *t)
{
	for (size_t i = 0; i < sizeof(t->links) / sizeof(t->links[0]); i++) {
		bpf_link__destroy(t->links[i]);
		t->links[i] = NULL;
	}
}

static void add_counted(struct tracer *t, uint32_t audit_arch, uint32_t nr, uint64_t calls)
{
	const struct scg_arch *arch = scg_arch_from_audit(audit_arch, nr);
	if (!arch)
		t->foreign += calls;
	else if (scg_learn_add_calls(t->rec, arch, nr, calls) < 0)
		t->nomem += calls;
}

/* The per-CPU counts of `slots` into the recording. */
static void collect_slots(struct tracer *t)
{
	static const uint32_t audit[LEARN_EBPF_ABIS] = { 0xc000003eU, 0x40000003U, 0xc000003eU };
	int cpus = libbpf_num_possible_cpus();
	uint64_t *per_cpu = cpus > 0 ? calloc((size_t)cpus, sizeof(*per_cpu)) : NULL;
	if (!per_cpu) {
		say(t->o, "cannot read the counts: %s", strerror(ENOMEM));
		t->nomem++;
		return;
	}
	struct bpf_map *m = map_of(t, "slots");
	for (uint32_t slot = 0; slot < LEARN_EBPF_ABIS * LEARN_EBPF_SLOTS; slot++) {
		if (bpf_map__lookup_elem(m, &slot, sizeof(slot), per_cpu,
					 (size_t)cpus * sizeof(*per_cpu), 0))
			continue;
		uint64_t calls = 0;
		for (int i = 0; i < cpus; i++)
			calls += per_cpu[i];
		if (!calls)
			continue;
		uint32_t abi = slot / LEARN_EBPF_SLOTS, nr = slot % LEARN_EBPF_SLOTS;
		add_counted(t, audit[abi], abi == LEARN_EBPF_ABI_X32 ? nr | 0x40000000U : nr, calls);
	}
	free(per_cpu);
}

/* The calls counted in the kernel into the recording. */
static void collect_counts(struct tracer *t)
{
	collect_slots(t);
	struct bpf_map *m = map_of(t, "counts");
	struct learn_ebpf_key key, next;
	const void *prev = NULL;
	while (bpf_map__get_next_key(m, prev, &next, sizeof(next)) == 0) {
		uint64_t calls;
		key = next;
		prev = &key;
		if (bpf_map__lookup_elem(m, &key, sizeof(key), &calls, sizeof(calls), 0))
			continue;
		add_counted(t, key.arch, key.nr, calls);
	}
}

static unsigned long long lost_calls(const struct tracer *t)
{
	int cpus = libbpf_num_possible_cpus();
	if (cpus <= 0)
		return 0;
	uint64_t *per_cpu = calloc((size_t)cpus, sizeof(*per_cpu));
	uint32_t zero = 0;
	unsigned long long sum = 0;
	if (per_cpu && bpf_map__lookup_elem(map_of(t, "lost"), &zero, sizeof(zero), per_cpu,
					    (size_t)cpus * sizeof(*per_cpu), 0) == 0)
		for (int i = 0; i < cpus; i++)
			sum += per_cpu[i];
	free(per_cpu);
	return sum;
}

/*
 * Waits up to POLL_MS for the end of process @pidfd (-1: none), a signal,
 * or a full enough ring buffer, then reads what is waiting in the ring buffer.
 */
static void poll_once(struct tracer *t, int pidfd)
{
	struct pollfd fds[2];
	nfds_t n = 0;
	if (pidfd >= 0)
		fds[n++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
	if (t->ring)
		fds[n++] = (struct pollfd){ .fd = ring_buffer__epoll_fd(t->ring), .events = POLLIN };
	poll(fds, n, POLL_MS);
	if (t->ring)
		ring_buffer__consume(t->ring);
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_SETUP;
}

static void tracer_free(struct tracer *t)
{
	ring_buffer__free(t->ring);
	detach(t);
	bpf_object__close(t->obj);
}

/* Sets up the tracer for @o (not yet attached); false after an error. */
static bool set_up(struct tracer *t, const struct scg_ebpf_learn_opts *o)
{
	if (!load(t, o->args))
		return false;
	struct learn_ebpf_config c = {
		.mode = o->argv || o->pid || !o->cgroup ? LEARN_EBPF_PIDS : LEARN_EBPF_CGROUP,
		.self_tgid = (uint32_t)getpid(),
		.with_args = o->args,
		.wakeup_bytes = RING_BYTES / 4,
	};
	/* A test's small ring buffer is read on the timer alone: it overflows
	 * between two reads, whatever the machine's speed. */
	if (getenv("SYSCAGE_EBPF_RING_PAGES"))
		c.wakeup_bytes = UINT64_MAX;
	if (!configure(t, &c))
		return false;
	if (c.mode == LEARN_EBPF_CGROUP && !set_cgroup(t, o->cgroup))
		return false;
	if (o->args) {
		t->ring = ring_buffer__new(bpf_map__fd(map_of(t, "events")), on_event, t, NULL);
		if (!t->ring) {
			say(t->o, "cannot map the ring buffer: %s", strerror(errno));
			return false;
		}
	}
	return true;
}

/* The signal the caller's handler caught, taken; 0 if none. */
static int take_stop(const struct scg_ebpf_learn_opts *o)
{
	int sig = o->stop ? *o->stop : 0;
	if (sig)
		*o->stop = 0;
	return sig;
}

/*
 * Waits for the end of the recording: the command's, the process's, or a
 * signal.  The command's exit status, or -errno when waiting for it failed.
 */
static int wait_for_end(struct tracer *t, const struct scg_ebpf_learn_opts *o, pid_t child)
{
	int code = 0;
	/* A descriptor that wakes the wait when the process ends (Linux 5.3); without
	 * it the end is seen at the next look. */
	pid_t watched = child > 0 ? child : o->pid;
	int pidfd = watched > 0 ? (int)syscall(SYS_pidfd_open, watched, 0) : -1;
	for (;;) {
		poll_once(t, pidfd);
		if (child > 0) {
			int status, sig = take_stop(o);
			if (sig)
				kill(child, sig);
			pid_t w = waitpid(child, &status, WNOHANG);
			if (w == child) {
				code = exit_code(status);
				break;
			}
			if (w < 0 && errno != EINTR) {
				code = -errno;
				break;
			}
		} else if (take_stop(o)) {
			break;
		} else if (o->pid && process_gone(o->pid)) {
			break;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return code;
}

/* Starts the command, held until the program is attached; 0 or a negative errno, told. */
static int start_command(struct tracer *t, const char *path, struct scg_held *held)
{
	const struct scg_ebpf_learn_opts *o = t->o;
	int r = scg_spawn_held(path, o->argv, NULL,
			       o->stdout_to_stderr ? SCG_HELD_STDOUT_TO_STDERR : 0, held);
	if (r < 0) {
		say(o, "cannot start %s: %s", o->argv[0], strerror(-r));
		return r;
	}
	if (add_target(t, held->pid, LEARN_EBPF_AT_EXEC)) {
		r = -errno;
		say(o, "cannot trace %s: %s", o->argv[0], strerror(-r));
		return r;
	}
	return 0;
}

/* After the recording: what the kernel counted into @rec, and what was lost. */
static void finish(struct tracer *t, struct scg_ebpf_learn_result *res)
{
	detach(t);
	if (t->ring)
		ring_buffer__consume(t->ring);
	else
		collect_counts(t);
	res->lost = lost_calls(t);
	res->foreign = t->foreign;
	res->unrecorded = t->nomem;
}

int scg_ebpf_learn(const struct scg_ebpf_learn_opts *o, struct scg_learn *rec,
		   struct scg_ebpf_learn_result *res)
{
	*res = (struct scg_ebpf_learn_result){ 0 };
	int r = can_record(o);
	if (r < 0)
		return r;
	libbpf_listener = o;
	libbpf_set_print(libbpf_print);
	char *path = NULL;
	if (o->argv) {
		path = scg_launch_resolve(o->argv[0]);
		if (!path) {
			res->command_error = errno;
			return -res->command_error;
		}
	}
	struct tracer t = { .o = o, .rec = rec };
	/* A command: a child that waits until the program is attached, then
	 * execs it; the program traces it from the first call after that execve
	 * (LEARN_EBPF_AT_EXEC), as the notification learner does. */
	struct scg_held held = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	pid_t child = -1;
	r = -EIO;
	if (!set_up(&t, o))
		goto out;
	if (o->argv) {
		r = start_command(&t, path, &held);
		if (r < 0)
			goto out;
		child = held.pid;
	} else if (o->pid && add_process_tree(&t, o->pid) < 0) {
		r = -ESRCH;
		goto out;
	}
	r = -EIO;
	if (!attach(&t))
		goto out;
	if (child > 0) {
		r = scg_held_release(&held);
		if (r < 0) {
			say(o, "%s: %s", o->argv[0], strerror(-r));
			goto out;
		}
	}
	if (o->recording)
		o->recording(o->ctx);
	r = wait_for_end(&t, o, child);
	child = -1;
	finish(&t, res);
	if (r >= 0) {
		res->status = r;
		r = 0;
	}
out:
	scg_held_abandon(&held); /* when not released: the child exits without its exec */
	if (child > 0)
		waitpid(child, NULL, 0);
	tracer_free(&t);
	libbpf_set_print(NULL);
	libbpf_listener = NULL;
	free(path);
	return r;
}
