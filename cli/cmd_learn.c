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
		"                     [--counts FILE] [--deny kill|eperm] -- CMD [ARG...]\n"
		"  -o, --output FILE   write the policy to FILE (default: stdout, and the\n"
		"                      program's standard output goes to stderr)\n"
		"  -f, --format F      policy (policy language, default) or oci (OCI JSON)\n"
		"  -a, --args[=fd]     also record the values of flag-like arguments (=fd: and\n"
		"                      of descriptor numbers)\n"
		"  -m, --merge FILE    start from the policy in FILE (written by learn), widen it\n"
		"      --counts FILE   write the calls per syscall as JSON to FILE\n"
		"      --deny V        verdict for calls not seen: kill (default) or eperm\n"
		"From the kernel's seccomp audit records, or through eBPF:\n"
		"       syscage learn --from-log FILE|- [--exe PATH] [--comm NAME] [...]\n"
		"       syscage learn --ebpf [--cgroup PATH | --pid PID | -- CMD] [...]\n"
		"  ('syscage learn --from-log - --help' lists their options)\n");
}

struct learn_opts {
	const char *output, *merge, *counts;
	bool oci, args, args_fd, eperm;
};

struct learner {
	struct scg_learn *rec;
	unsigned long lost;     /* calls that could not be recorded (no memory) */
	unsigned long foreign;  /* calls from an ABI syscage does not know */
};

/* options.on_call: one call the program made (refused by the guard or not, it made it). */
static void on_call(pid_t tid, const struct scg_seccomp_data *data, void *front)
{
	struct learner *l = ((struct run_front *)front)->data;
	(void)tid;
	int r = scg_learn_record(l->rec, data);
	if (r == -EAFNOSUPPORT)
		l->foreign++;
	else if (r < 0)
		l->lost++;
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

/* Writes the policy (and the counts); 0 or -errno, errors printed. */
static int write_results(const struct learn_opts *o, struct scg_learn *rec, char *const *argv)
{
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
	if (r == 0)
		r = scg_learn_to_text(rec, &to, &text);
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
	uint64_t before = scg_learn_total(l.rec);
	int saved = to_stdout(o.output) || (o.counts && to_stdout(o.counts)) ? divert_stdout() : -1;
	int code = learn_program(argv + program, &l);
	restore_stdout(saved);
	if (scg_learn_total(l.rec) == before && code >= 125) {
		/* The program never ran: there is nothing to write. */
		scg_learn_free(l.rec);
		return code;
	}
	if (l.lost)
		cli_error("out of memory: %lu calls were not recorded; the policy is incomplete",
			  l.lost);
	if (l.foreign)
		cli_error("warning: %lu calls came from an ABI syscage does not know", l.foreign);
	if (write_results(&o, l.rec, argv + program) < 0 || l.lost)
		code = EXIT_SETUP;
	scg_learn_free(l.rec);
	return code;
}
