/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn: run a program, record every syscall of every thread and
 * descendant, and write a policy allowing exactly those.
 *
 * The program starts through the launcher (scg_launch() in its RECORD
 * mode: exec cookie, guard, watchdog, signal forwarding) with a filter that
 * sends every call to this process as a user notification.  Each one is
 * answered CONTINUE and reported (on_call) once the answer is accepted, so
 * a call interrupted before it ran and restarted later is counted once.
 * docs/learn.md explains why user notification rather than ptrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <syscage/oci.h>

#include "learn_sources.h"
#include "run.h"

enum { EXIT_SETUP = 125 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage learn [-o FILE] [--format policy|oci] [--args[=fd]] [--merge FILE]\n"
		"                     [--counts FILE] [--deny kill|eperm] [--phases TRIGGER]\n"
		"                     -- CMD [ARG...]\n"
		"  -o, --output FILE   write the policy to FILE (default: stdout, and the\n"
		"                      program's standard output goes to stderr)\n"
		"  -f, --format F      policy (policy language, default) or oci (OCI JSON)\n"
		"  -a, --args[=fd]     also record the values of flag-like arguments (=fd: and\n"
		"                      of descriptor numbers)\n"
		"  -m, --merge FILE    start from the policy in FILE (written by learn), widen it\n"
		"      --counts FILE   write the calls per syscall as JSON to FILE\n"
		"      --deny V        verdict for calls not seen: kill (default) or eperm\n"
		"      --phases TRIGGER  record each process before and after its first call\n"
		"                      that matches TRIGGER ('accept4', 'epoll_wait if\n"
		"                      timeout == -1') and write a policy with a serving\n"
		"                      phase (docs/phases.md); the dropped calls on stderr\n"
		"From the kernel's seccomp audit records, or through eBPF:\n"
		"       syscage learn --from-log FILE|- [--exe PATH] [--comm NAME] [...]\n"
		"       syscage learn --ebpf [--cgroup PATH | --pid PID | -- CMD] [...]\n"
		"  ('syscage learn --from-log - --help' lists their options)\n");
}

struct learn_opts {
	const char *output, *merge, *counts;
	const char *phases; /* --phases TRIGGER */
	bool oci, args, args_fd, eperm;
};

/*
 * A thread seen by learn --phases: its process, and the calls it made while
 * that process was in its start phase (NULL once it is past the trigger).
 */
struct seen_task {
	pid_t tid, tgid;
	struct scg_learn *early;
};

struct learner {
	struct scg_learn *rec;
	unsigned long lost;     /* calls that could not be recorded (no memory) */
	unsigned long foreign;  /* calls from an ABI syscage does not know */
	/* --phases: the trigger, the serving phase's recording, the processes past it */
	struct scg_policy *trigger;
	struct scg_learn *serving;
	struct seen_task *tasks;
	size_t ntasks, tasks_cap;
	pid_t *served;
	size_t nserved, served_cap;
	unsigned flags; /* SCG_LEARN_* of the recordings */
};

/* "Tgid:" or "PPid:" of @pid from /proc (0 when it cannot be read). */
static pid_t proc_status_field(pid_t pid, const char *field)
{
	char path[64], line[128];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	pid_t v = 0;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n)) {
			v = (pid_t)strtol(line + n, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

static void count_result(struct learner *l, int r)
{
	if (r == -EAFNOSUPPORT)
		l->foreign++;
	else if (r < 0)
		l->lost++;
}

static bool is_served(const struct learner *l, pid_t tgid)
{
	for (size_t i = 0; i < l->nserved; i++)
		if (l->served[i] == tgid)
			return true;
	return false;
}

static void mark_served(struct learner *l, pid_t tgid)
{
	if (is_served(l, tgid))
		return;
	if (l->nserved == l->served_cap) {
		size_t cap = l->served_cap ? 2 * l->served_cap : 16;
		pid_t *grown = reallocarray(l->served, cap, sizeof(*grown));
		if (!grown) {
			l->lost++;
			return;
		}
		l->served = grown;
		l->served_cap = cap;
	}
	l->served[l->nserved++] = tgid;
}

/* The task @tid; one seen for the first time is past the trigger when its parent process is. */
static struct seen_task *task_of(struct learner *l, pid_t tid)
{
	for (size_t i = 0; i < l->ntasks; i++)
		if (l->tasks[i].tid == tid)
			return &l->tasks[i];
	pid_t tgid = proc_status_field(tid, "Tgid:");
	if (!tgid)
		tgid = tid;
	bool new_process = true;
	for (size_t i = 0; i < l->ntasks; i++)
		new_process &= l->tasks[i].tgid != tgid;
	/* a forked worker has its parent's filters, so its parent's phase */
	if (new_process && is_served(l, proc_status_field(tgid, "PPid:")))
		mark_served(l, tgid);
	if (l->ntasks == l->tasks_cap) {
		size_t cap = l->tasks_cap ? 2 * l->tasks_cap : 64;
		struct seen_task *grown = reallocarray(l->tasks, cap, sizeof(*grown));
		if (!grown)
			return NULL;
		l->tasks = grown;
		l->tasks_cap = cap;
	}
	l->tasks[l->ntasks] = (struct seen_task){ tid, tgid, NULL };
	return &l->tasks[l->ntasks++];
}

/* Whether thread @tid of process @tgid still runs (a thread that ended can make no more calls). */
static bool task_alive(pid_t tgid, pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)tgid, (int)tid);
	return access(path, F_OK) == 0;
}

/*
 * Process @tgid made its trigger in thread @tid.  Its other threads run on
 * their own: what they did before the trigger in this run (a new thread's
 * start-up above all) can come after it in the next, so it is the serving
 * phase's too, for each of them that still runs.
 */
static void enter_serving(struct learner *l, pid_t tgid, pid_t tid)
{
	for (size_t i = 0; i < l->ntasks; i++) {
		struct seen_task *t = &l->tasks[i];
		if (t->tgid != tgid || !t->early)
			continue;
		size_t n = t->tid != tid && task_alive(tgid, t->tid) ? scg_learn_count(t->early) : 0;
		for (size_t k = 0; k < n; k++) {
			struct scg_learn_entry e;
			struct scg_learn_pairs pairs;
			bool paired = scg_learn_pairs_at(t->early, k, &pairs) == 0;
			if (scg_learn_entry_at(t->early, k, &e) == 0)
				count_result(l, scg_learn_add_paired(l->serving, e.arch, e.nr, e.calls,
								     e.listed, e.nvalues, e.values,
								     paired ? &pairs : NULL));
		}
		scg_learn_free(t->early);
		t->early = NULL;
	}
	mark_served(l, tgid);
}

static void learner_release(struct learner *l)
{
	scg_learn_free(l->rec);
	scg_learn_free(l->serving);
	scg_policy_free(l->trigger);
	for (size_t i = 0; i < l->ntasks; i++)
		scg_learn_free(l->tasks[i].early);
	free(l->tasks);
	free(l->served);
}

/* options.on_call: one call the program made (refused by the guard or not, it made it). */
static void on_call(pid_t tid, const struct scg_seccomp_data *data, void *front)
{
	struct learner *l = ((struct run_front *)front)->data;
	/* the start phase allows every call: its filter stays in force in the next */
	count_result(l, scg_learn_record(l->rec, data));
	if (!l->trigger)
		return;
	struct seen_task *t = task_of(l, tid);
	if (!t) {
		l->lost++;
		return;
	}
	pid_t tgid = t->tgid;
	struct scg_verdict v;
	scg_policy_eval(l->trigger, data, &v);
	bool trigger = v.source == SCG_VERDICT_RULE;
	bool served = is_served(l, tgid);
	/* the trigger runs again in the new phase: it is the serving phase's too */
	if (served || trigger)
		count_result(l, scg_learn_record(l->serving, data));
	else if (t->early || (t->early = scg_learn_new(l->flags)))
		count_result(l, scg_learn_record(t->early, data));
	else
		l->lost++;
	if (trigger && !served)
		enter_serving(l, tgid, tid);
}

static int parse_policy_text(const char *text, size_t len, const char *name,
			     struct scg_policy **out)
{
	struct scg_policy_source_options so = { .filename = name };
	struct scg_diag *diag = scg_diag_new();
	if (!diag)
		return -ENOMEM;
	int r = scg_policy_parse(text, len, &so, out, diag);
	cli_print_diag(diag);
	scg_diag_free(diag);
	return r;
}

int learn_merge_file(struct scg_learn *rec, const char *path)
{
	char *text;
	size_t len;
	int r = cli_read_file(path, &text, &len);
	if (r < 0)
		return r;
	struct scg_policy *p = NULL;
	r = parse_policy_text(text, len, path, &p);
	if (r == 0)
		r = scg_learn_merge_policy(rec, p, text, len);
	if (r < 0)
		cli_error("cannot merge '%s': %s", path, strerror(-r));
	scg_policy_free(p);
	free(text);
	return r;
}

/* "ls -l /": the command line, for the policy's first comment. */
static char *command_line(char *const *argv)
{
	size_t len = 1;
	for (char *const *a = argv; *a; a++)
		len += strlen(*a) + 1;
	char *s = malloc(len), *p = s;
	for (char *const *a = argv; s && *a; a++) {
		/* Newlines would end the comment: show them as spaces. */
		for (const char *c = *a; *c; c++)
			*p++ = (*c == '\n' || *c == '\r') ? ' ' : *c;
		*p++ = a[1] ? ' ' : '\0';
	}
	if (s && p == s)
		*p = '\0';
	return s;
}

int learn_policy_to_oci(const char *text, size_t len, char **json)
{
	struct scg_policy *p = NULL;
	int r = parse_policy_text(text, len, "<learned>", &p);
	if (r < 0)
		return r;
	struct scg_diag *diag = scg_diag_new();
	r = diag ? scg_oci_export(p, json, diag) : -ENOMEM;
	if (diag)
		cli_print_diag(diag);
	scg_diag_free(diag);
	scg_policy_free(p);
	return r;
}

/* Whether @path (NULL: the default) is standard output: "-", or the same file (/dev/stdout). */
static bool to_stdout(const char *path)
{
	if (!path || !strcmp(path, "-"))
		return true;
	struct stat out, st;
	return fstat(STDOUT_FILENO, &out) == 0 && stat(path, &st) == 0 &&
	       out.st_dev == st.st_dev && out.st_ino == st.st_ino;
}

/*
 * The calls an OCI runtime makes under the container's filter before the
 * program's first instruction, which learning never sees
 * (scg_oci_runtime_call()): added to the OCI export only, on the native ABI,
 * as seen 0 times, without argument restrictions; a policy for `syscage run`
 * needs none of them (its launcher's exec passes with the exec cookie).
 */
static int add_runtime_start_calls(struct scg_learn *rec)
{
	const struct scg_arch *native = scg_arch_native();
	const char *name;
	for (size_t i = 0; (name = scg_oci_runtime_call(i)); i++) {
		uint32_t nr;
		if (scg_syscall_lookup(native, name, &nr) < 0)
			continue;
		int r = scg_learn_add_calls(rec, native, nr, 0);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Calls a serving phase should not need: those that change who or where a process is. */
static const char *const dangerous_calls[] = {
	"execve", "execveat", "ptrace", "process_vm_writev", "mount", "umount2", "pivot_root",
	"chroot", "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
	"setgroups", "setfsuid", "setfsgid", "capset", "bpf", "init_module", "finit_module",
	"delete_module", "kexec_load", "kexec_file_load", "unshare", "setns", "bind", "listen",
	"perf_event_open", "userfaultfd", "keyctl", "add_key", "chown", "fchown", "fchownat",
	"setrlimit", "prlimit64", "seccomp",
};

static bool dangerous(const char *name)
{
	for (size_t i = 0; name && i < sizeof(dangerous_calls) / sizeof(dangerous_calls[0]); i++)
		if (!strcmp(name, dangerous_calls[i]))
			return true;
	return false;
}

static bool learned(const struct scg_learn *rec, const struct scg_learn_entry *e)
{
	for (size_t i = 0; i < scg_learn_count(rec); i++) {
		struct scg_learn_entry f;
		if (scg_learn_entry_at(rec, i, &f) == 0 && f.arch == e->arch && f.nr == e->nr)
			return true;
	}
	return false;
}

/* What the serving phase drops, on stderr: how many calls, the dangerous ones by name. */
static void report_dropped(const struct learner *l)
{
	size_t all = scg_learn_count(l->rec), kept = scg_learn_count(l->serving), dropped = 0;
	size_t ndanger = 0, nall_danger = 0;
	char names[1024] = "", danger[1024] = "";
	for (size_t i = 0; i < all; i++) {
		struct scg_learn_entry e;
		if (scg_learn_entry_at(l->rec, i, &e) < 0)
			continue;
		nall_danger += dangerous(e.name);
		if (learned(l->serving, &e))
			continue;
		dropped++;
		char *list = dangerous(e.name) ? danger : names;
		ndanger += dangerous(e.name);
		size_t len = strlen(list);
		snprintf(list + len, sizeof(names) - len, "%s%s", len ? ", " : "",
			 e.name ? e.name : "?");
	}
	cli_error("phases: start allows %zu syscalls (%zu dangerous), serving %zu (%zu dangerous); "
		  "serving drops %zu",
		  all, nall_danger, kept, nall_danger - ndanger, dropped);
	if (ndanger)
		cli_error("phases: dropped dangerous calls: %s", danger);
	if (*names)
		cli_error("phases: dropped others: %s", names);
	if (!l->nserved)
		cli_error("warning: no process made the trigger: the serving phase is empty");
}

/* The learned policy with phases: the start phase (every call), then serving. */
static int phased_text(const struct learn_opts *o, const struct learner *l,
		       const struct scg_learn_text_options *to, char **text)
{
	char *start = NULL, *serving = NULL;
	int r = scg_learn_to_text(l->rec, to, &start);
	if (r == 0)
		r = scg_learn_to_text(l->serving, to, &serving);
	if (r == 0 && asprintf(text,
			       "%s\n# The serving phase: what each process does once it has made the "
			       "trigger\n# (docs/phases.md).\nphase serving after %s\n%s",
			       start, o->phases, serving) < 0)
		r = -ENOMEM;
	free(start);
	free(serving);
	return r;
}

/* Writes the policy (and the counts); 0 or -errno, errors printed. */
static int write_results(const struct learn_opts *o, const struct learner *l, char *const *argv)
{
	struct scg_learn *rec = l->rec;
	char *origin = command_line(argv);
	if (origin && o->merge) {
		char *merged = NULL;
		if (asprintf(&merged, "%s (merged into %s)", origin, o->merge) < 0)
			merged = NULL;
		free(origin);
		origin = merged;
	}
	struct scg_learn_text_options to = { .origin = origin, .deny_with_eperm = o->eperm };
	char *text = NULL, *out = NULL, *json = NULL;
	/* The counts are what the program did: taken before the runtime's calls are added. */
	int r = o->counts ? scg_learn_counts_json(rec, &json) : 0;
	if (r == 0 && o->oci)
		r = add_runtime_start_calls(rec);
	if (r == 0 && l->trigger) {
		r = phased_text(o, l, &to, &text);
		report_dropped(l);
	} else if (r == 0) {
		r = scg_learn_to_text(rec, &to, &text);
	}
	free(origin);
	if (r == 0 && o->oci)
		r = learn_policy_to_oci(text, strlen(text), &out);
	if (r < 0) {
		cli_error("cannot write the learned policy: %s", strerror(-r));
		free(text);
		free(json);
		return r;
	}
	const char *data = o->oci ? out : text;
	/* Standard output by another name (/dev/stdout) is written as such, not
	 * replaced by a new file. */
	const char *dest = to_stdout(o->output) ? NULL : o->output;
	r = data ? cli_write_output(dest, data, strlen(data), false) : -ENOMEM;
	free(text);
	free(out);
	if (r == 0 && json)
		r = cli_write_output(to_stdout(o->counts) ? NULL : o->counts, json, strlen(json),
				     false);
	free(json);
	return r;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct learn_opts *o = ctx;
	switch (c) {
	case 'o': o->output = arg; break;
	case 'a':
		if (arg && strcmp(arg, "fd")) {
			cli_error("learn: --args takes nothing or =fd, not '%s'", arg);
			return -1;
		}
		o->args = true;
		o->args_fd = arg != NULL;
		break;
	case 'm': o->merge = arg; break;
	case 'P': o->phases = arg; break;
	case 'c': o->counts = arg; break;
	case 'f':
		if (strcmp(arg, "policy") && strcmp(arg, "oci")) {
			cli_error("learn: unknown format '%s' (policy or oci)", arg);
			return -1;
		}
		o->oci = !strcmp(arg, "oci");
		break;
	case 'd':
		if (strcmp(arg, "kill") && strcmp(arg, "eperm")) {
			cli_error("learn: --deny takes kill or eperm, not '%s'", arg);
			return -1;
		}
		o->eperm = !strcmp(arg, "eperm");
		break;
	}
	return 0;
}

/* The index of the program in @argv, CLI_OPTIONS_HELP, or -1 after a reported usage error. */
static int parse_args(int argc, char **argv, struct learn_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' }, { "format", required_argument, NULL, 'f' },
		{ "args", optional_argument, NULL, 'a' },   { "merge", required_argument, NULL, 'm' },
		{ "counts", required_argument, NULL, 'c' }, { "deny", required_argument, NULL, 'd' },
		{ "phases", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "learn", "+:o:f:am:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first > 0 && first >= argc) {
		cli_error("learn: no program given");
		usage(stderr);
		return -1;
	}
	return first;
}

/* The kernel must know USER_NOTIF (5.0) and CONTINUE (5.5, no probe: 5.5 came with it). */
static bool kernel_can_learn(void)
{
	struct scg_features f;
	if (cli_features_probe(&f) < 0 || !f.filter_mode ||
	    !(f.actions & (1U << SCG_ACTION_USER_NOTIF))) {
		cli_error("learn needs seccomp user notification (Linux 5.5 or later)");
		return false;
	}
	return true;
}

static int learn_program(char **argv, struct learner *l)
{
	char *path = scg_launch_resolve(argv[0]);
	if (!path) {
		int e = errno;
		cli_error("%s: %s", argv[0], e == ENOENT ? "command not found" : strerror(e));
		return e == ENOENT ? 127 : 126;
	}
	/* Every call goes to the supervisor.  Should the supervisor be gone,
	 * nothing is recorded any more, and the watchdog ends each process of
	 * the program at its next call (RECORD's fallback). */
	struct scg_features buf;
	struct run_front front = { .policy_name = "learn", .command = argv[0],
				   .supervisor_only = true, .wait = true, .data = l };
	SCG_OPTS(scg_launch_options, o, .mode = SCG_LAUNCH_RECORD, .path = path,
		 .features = run_front_features(&buf), .on_call = on_call);
	run_front_events(&front, &o);
	struct scg_launch_result res;
	int r = scg_launch(argv, NULL, &o, &res);
	int code = run_front_result(&front, r, &res);
	free(path);
	return code;
}

/*
 * When the policy (or the counts) goes to standard output, the program must
 * not write there too: `syscage learn -- CMD > x.policy` would mix its
 * output into the policy.  Its standard output becomes syscage's standard
 * error for the run, so it is still seen.  Returns a copy of the real
 * standard output to restore with restore_stdout(), or -1 when there is
 * nothing to restore.
 */
static int divert_stdout(void)
{
	fflush(stdout);
	int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0)
		return -1; /* no standard output: nothing to mix with */
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		/* No standard error either: the program writes to nothing. */
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			close(STDOUT_FILENO);
		if (null >= 0)
			close(null);
	}
	return saved;
}

static void restore_stdout(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

int cmd_learn(int argc, char **argv)
{
	if (learn_source_wanted(argc, argv))
		return cmd_learn_source(argc, argv);
	struct learn_opts o = { 0 };
	int program = parse_args(argc, argv, &o);
	if (program <= 0)
		return program == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (!kernel_can_learn())
		return EXIT_SETUP;
	struct learner l = { .rec = scg_learn_new((o.args ? SCG_LEARN_ARGS : 0) |
						(o.args_fd ? SCG_LEARN_ARGS_FD : 0)) };
	if (!l.rec) {
		cli_error("cannot set up: %s", strerror(ENOMEM));
		return EXIT_SETUP;
	}
	if (o.merge && learn_merge_file(l.rec, o.merge) < 0) {
		scg_learn_free(l.rec);
		return CLI_EXIT_USAGE;
	}
	if (o.phases && (o.oci || o.merge)) {
		cli_error("learn: --phases writes the policy language, and merges nothing");
		scg_learn_free(l.rec);
		return CLI_EXIT_USAGE;
	}
	if (o.phases) {
		/* the trigger as the phase line will say it: a rule of the native ABI */
		char *text = NULL;
		const struct scg_arch *native = scg_arch_native();
		SCG_OPTS(scg_policy_source_options, so, .filename = "--phases", .arches = &native,
			 .narches = 1);
		if (asprintf(&text, "allow %s\n", o.phases) < 0)
			text = NULL;
		struct scg_diag *diag = scg_diag_new();
		int r = text && diag ? scg_policy_parse(text, strlen(text), &so, &l.trigger, diag)
				     : -ENOMEM;
		cli_print_diag(diag);
		scg_diag_free(diag);
		free(text);
		l.flags = (o.args ? SCG_LEARN_ARGS : 0) | (o.args_fd ? SCG_LEARN_ARGS_FD : 0);
		l.serving = r == 0 ? scg_learn_new(l.flags) : NULL;
		if (!l.serving) {
			scg_policy_free(l.trigger);
			scg_learn_free(l.rec);
			return CLI_EXIT_USAGE;
		}
	}
	uint64_t before = scg_learn_total(l.rec);
	int saved = to_stdout(o.output) || (o.counts && to_stdout(o.counts)) ? divert_stdout() : -1;
	int code = learn_program(argv + program, &l);
	restore_stdout(saved);
	if (scg_learn_total(l.rec) == before && code >= 125) {
		/* The program never ran: there is nothing to write. */
		learner_release(&l);
		return code;
	}
	if (l.lost)
		cli_error("out of memory: %lu calls were not recorded; the policy is incomplete",
			  l.lost);
	if (l.foreign)
		cli_error("warning: %lu calls came from an ABI syscage does not know", l.foreign);
	if (write_results(&o, &l, argv + program) < 0 || l.lost)
		code = EXIT_SETUP;
	learner_release(&l);
	return code;
}
