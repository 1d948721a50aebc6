/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage dump: the filters a running process has installed, or the filter
 * a program is about to install, caught and never allowed to take effect.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/analyze.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: syscage dump [--format asm|table|raw|policy] [--arch ARCH] [-o DIR] PID\n"
		"       syscage dump [--format ...] [-o DIR] [--timeout SEC] -- CMD [ARG...]\n"
		"\n"
		"With PID: copies the filters installed in that process (ptrace; needs\n"
		"CAP_SYS_ADMIN), which is stopped only for the copy.  Filters are numbered as\n"
		"the kernel numbers them: filter 0 is the oldest (installed first), the last\n"
		"one the newest.  Every thread is read: threads holding other filters than\n"
		"the process's are named and dumped one after the other (-o DIR: a directory\n"
		"per thread).  A thread id (TID) dumps that thread alone.\n"
		"With -- CMD: runs CMD traced and stops it at its first attempt to install a\n"
		"filter, in any process or thread it creates; the filter is read from its\n"
		"memory and the program is killed before the install can happen.\n"
		"\n"
		"  -f, --format FORMAT  asm: annotated assembler (default); table: index, code,\n"
		"                       jt, jf, k and pseudo-C; raw: struct sock_filter records;\n"
		"                       policy: one policy meaning what the whole stack means\n"
		"                       (syscage decompile), which syscage compile reads, or\n"
		"                       the annotated assembler when no policy can say it or\n"
		"                       the decompiler's time budget runs out\n"
		"  -a, --arch ARCH      ABI for names in comments (default: native, or the ABI\n"
		"                       of the captured install)\n"
		"  -o, --output DIR     write DIR/filter-N.bpf (raw), .s (asm), .policy or .txt\n"
		"                       (table), each atomically; DIR is created if missing\n"
		"  -t, --timeout SEC    give up after SEC seconds (default 10 for PID, 60 for CMD);\n"
		"                       --format policy: the decompiler's budget (default 10)\n"
		"  -h, --help           this text\n"
		"\n"
		"A filter that returns USER_NOTIF (notify) hands those calls to a supervisor,\n"
		"whose answer the program sees; dump says so and names the supervisor when\n"
		"one of the process's ancestors holds the listener.\n"
		"\n"
		"Exit status: 0 filters printed; 1 the process has no filter, or CMD ended\n"
		"without installing one (or asked for strict mode); 2 bad usage or an error;\n"
		"3 the decompiler's time ran out (the assembler is printed instead).\n");
}

enum dump_format { DUMP_ASM, DUMP_TABLE, DUMP_RAW, DUMP_POLICY };

/* --format policy: the decompiler's time, shared by every filter of the dump. */
struct policy_budget {
	uint64_t ms, used_ms;
	bool ran_out;
};

struct dump_opts {
	enum dump_format format;
	const char *arch_name;
	const char *dir;
	unsigned timeout_ms;
	pid_t pid;        /* 0 in CMD mode */
	char **cmd;       /* NULL in PID mode */
	struct policy_budget *budget;
};

static int parse_format(const char *name, enum dump_format *format)
{
	static const char *const names[] = { "asm", "table", "raw", "policy" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*format = (enum dump_format)i;
			return 0;
		}
	}
	cli_error("dump: unknown format '%s' (asm, table, raw or policy)", name);
	return -1;
}

static int parse_timeout(const char *text, unsigned *ms)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v == 0 || v > 86400) {
		cli_error("dump: --timeout wants whole seconds (1..86400), not '%s'", text);
		return -1;
	}
	*ms = (unsigned)v * 1000U;
	return 0;
}

/* The operands from @first on: one PID, or "--" then a command. */
static int parse_target(const struct cli_command *cmd, int argc, char **argv, int first,
			struct dump_opts *o)
{
	if (first > 1 && !strcmp(argv[first - 1], "--") && first < argc) {
		o->cmd = argv + first;
		return 0;
	}
	if (cli_check_operands(cmd, argc - first, 1, 1, "give one PID, or -- and a command") < 0)
		return -1;
	char *end;
	errno = 0;
	long v = strtol(argv[first], &end, 10);
	if (errno || end == argv[first] || *end || v <= 0 || v > 0x3fffffffL) {
		cli_error("dump: '%s' is not a process id (to run a command: dump -- %s)",
			  argv[first], argv[first]);
		return -1;
	}
	o->pid = (pid_t)v;
	return 0;
}

static int on_option(int c, const char *arg, void *ctx)
{
	struct dump_opts *o = ctx;
	switch (c) {
	case 'f':
		return parse_format(arg, &o->format);
	case 'a':
		o->arch_name = arg;
		break;
	case 'o':
		o->dir = arg;
		break;
	case 't':
		return parse_timeout(arg, &o->timeout_ms);
	}
	return 0;
}

/* Options, then a PID or -- CMD; returns as cli_parse_options() does. */
static int parse_options(int argc, char **argv, struct dump_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "arch", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' }, { "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
	};
	static const struct cli_command cmd = { "dump", "+:f:a:o:t:h", longopts, usage, on_option };
	int first = cli_parse_options(&cmd, argc, argv, o);
	if (first <= 0)
		return first;
	return parse_target(&cmd, argc, argv, first, o) < 0 ? -1 : first;
}

static const char *extension(enum dump_format format)
{
	switch (format) {
	case DUMP_RAW:
		return "bpf";
	case DUMP_TABLE:
		return "txt";
	case DUMP_POLICY:
		return "policy";
	case DUMP_ASM:
		break;
	}
	return "s";
}

/* "syscage: dump: MESSAGE" for each diagnostic of the library, hints beneath. */
static void print_errors(const struct scg_diag *diag)
{
	for (size_t i = 0; i < scg_diag_count(diag); i++) {
		const struct scg_diag_entry *e = scg_diag_get(diag, i);
		cli_error("dump: %s", e->message);
		if (e->hint)
			cli_error("dump: hint: %s", cli_hint(e));
	}
}

/* --- policy text ------------------------------------------------------- */

#if SYSCAGE_WITH_ANALYSIS /* the decompiler's output; without it dump writes assembler */
static uint64_t clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}
#endif

/*
 * The policy equivalent to the stack @progs, as syscage decompile writes it,
 * or NULL when the language cannot say it or @budget runs out (then
 * *@out_of_time).
 */
static char *render_policy(const struct scg_prog *progs, size_t n, struct policy_budget *budget,
			   bool *out_of_time)
{
	*out_of_time = false;
	struct scg_policy *policy = NULL;
	char *text = NULL;
	struct scg_diag *diag = scg_diag_new();
#if SYSCAGE_WITH_ANALYSIS
	uint64_t start = clock_ms();
	SCG_OPTS(scg_analysis_options, ao);
	if (budget->ms) /* what the earlier filters left of it, 1 ms at least */
		ao.timeout_ms = budget->used_ms < budget->ms ? budget->ms - budget->used_ms : 1;
	int r = diag ? scg_decompile_opts(progs, n, &ao, &policy, diag) : -ENOMEM;
	budget->used_ms += clock_ms() - start;
	if (r == -ETIMEDOUT)
		budget->ran_out = *out_of_time = true;
	if (r == 0 && scg_policy_to_text(policy, &text) < 0)
		text = NULL;
#else
	(void)progs; /* no decompiler in this build: the caller falls back to assembler */
	(void)n;
	(void)budget;
#endif
	scg_policy_free(policy);
	scg_diag_free(diag);
	return text;
}

/* @text behind @note; frees @text.  NULL after an error message. */
static char *prepend(const char *note, char *text)
{
	size_t nl = strlen(note);
	char *both = malloc(nl + strlen(text) + 1);
	if (both) {
		memcpy(both, note, nl);
		strcpy(both + nl, text);
	}
	free(text);
	if (!both)
		cli_error("dump: out of memory");
	return both;
}

/* The assembler of a filter --format policy could not say, with a note on why. */
static char *policy_fallback(const struct scg_prog *prog, const struct scg_arch *arch,
			     bool out_of_time)
{
	char *text;
	int r = scg_disasm(prog, arch, SCG_DISASM_ASM, &text);
	if (r < 0) {
		cli_error("dump: cannot render a filter: %s", strerror(-r));
		return NULL;
	}
	static const char cannot[] = "; this filter tests what the policy language cannot say\n"
				     "; (see 'syscage decompile'); its annotated assembler instead:\n";
	static const char no_time[] = "; the decompiler's time budget ran out before the policy\n"
				      "; was complete (--timeout SEC); the annotated assembler:\n";
	return prepend(out_of_time ? no_time : cannot, text);
}

/*
 * The text of one filter in a text format; NULL after an error message.
 * *@is_policy says whether --format policy got a policy.
 */
static char *render(const struct scg_prog *prog, const struct scg_arch *arch,
		    const struct dump_opts *o, bool *is_policy)
{
	char *text;
	bool out_of_time = false;
	*is_policy = false;
	if (o->format == DUMP_POLICY) {
		if ((text = render_policy(prog, 1, o->budget, &out_of_time))) {
			*is_policy = true;
			return text;
		}
		return policy_fallback(prog, arch, out_of_time);
	}
	int r = scg_disasm(prog, arch, o->format == DUMP_TABLE ? SCG_DISASM_TABLE : SCG_DISASM_ASM,
			   &text);
	if (r < 0) {
		cli_error("dump: cannot render a filter: %s", strerror(-r));
		return NULL;
	}
	return text;
}

/* --- notes: threads, supervisors ----------------------------------------- */

/* Lines a dump explains itself with, each ending in '\n', printed as comments or on stderr. */
struct notes {
	char *text;
	size_t len;
	FILE *f;
};

static bool notes_open(struct notes *nt)
{
	*nt = (struct notes){ 0 };
	nt->f = open_memstream(&nt->text, &nt->len);
	return nt->f != NULL;
}

static void notes_close(struct notes *nt)
{
	if (nt->f)
		fclose(nt->f);
	nt->f = NULL;
	if (!nt->text)
		nt->text = strdup("");
}

/* Prints every line of @text behind @prefix to @out. */
static void print_lines(FILE *out, const char *prefix, const char *text)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");
		fprintf(out, "%s%.*s\n", prefix, (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static bool returns_notify(const struct scg_prog *progs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < progs[i].len; k++)
			if (progs[i].insns[k].code == 0x06 /* BPF_RET | BPF_K */ &&
			    (progs[i].insns[k].k & SCG_RET_ACTION_FULL) == SCG_RET_USER_NOTIF)
				return true;
	return false;
}

/* The policy a `syscage run` command line names, as given: -p P, --policy P, --policy=P. */
static const char *run_policy(char **argv)
{
	for (size_t i = 2; argv[i] && strcmp(argv[i], "--"); i++) {
		if ((!strcmp(argv[i], "-p") || !strcmp(argv[i], "--policy")) && argv[i + 1])
			return argv[i + 1];
		if (!strncmp(argv[i], "--policy=", 9))
			return argv[i] + 9;
		if (!strncmp(argv[i], "-p", 2) && argv[i][2] && argv[i][1] != '-')
			return argv[i] + 2;
	}
	return NULL;
}

/* Which syscage subcommand @h runs, or NULL when it is not syscage. */
static const char *syscage_subcommand(const struct scg_notify_holder *h)
{
	if (!h->argv || !h->argv[0] || !h->argv[1])
		return NULL;
	const char *base = strrchr(h->argv[0], '/');
	base = base ? base + 1 : h->argv[0];
	if (strcmp(base, "syscage") && strcmp(h->name, "syscage"))
		return NULL;
	return h->argv[1];
}

/* Says how `syscage run` @h answers, and where its policy's own verdicts are. */
static void note_run(FILE *f, const struct scg_notify_holder *h)
{
	const char *policy = run_policy(h->argv);
	char abs[8192];
	if (policy && policy[0] != '/' && h->cwd[0]) {
		snprintf(abs, sizeof(abs), "%s/%s", h->cwd, policy);
		if (access(abs, F_OK) == 0)
			policy = abs;
	}
	fprintf(f,
		"process %d is `syscage run`, which holds the listener: it installs its policy\n"
		"with every denying verdict (errno, kill) turned into notify, so that it can\n"
		"report each denied call, and answers each one with the policy's verdict.\n",
		(int)h->pid);
	if (policy)
		fprintf(f, "Its policy's own verdicts: syscage compile -f policy %s\n", policy);
	else
		fprintf(f, "Its policy is the built-in profile 'default': "
			   "syscage compile -f policy default\n");
}

/* Who answers the USER_NOTIF verdicts of @progs, the filters of process @pid. */
static void note_notify(FILE *f, pid_t pid, const struct scg_prog *progs, size_t n)
{
	if (!returns_notify(progs, n))
		return;
	fprintf(f, "This filter returns USER_NOTIF (notify) for some calls: a supervisor holding\n"
		   "the filter's listener answers them, and the program sees that answer (an\n"
		   "errno, a kill, or the call let through), not notify.\n");
	struct scg_notify_holder h;
	int r = pid > 0 ? scg_inspect_notify_holder(pid, &h) : -ENOENT;
	if (r < 0) {
		fprintf(f, "No ancestor of process %d holds a seccomp listener syscage can see\n"
			   "(seeing another user's descriptors needs CAP_SYS_PTRACE).\n", (int)pid);
		return;
	}
	const char *sub = syscage_subcommand(&h);
	if (sub && !strcmp(sub, "run"))
		note_run(f, &h);
	else if (sub)
		fprintf(f, "process %d (`syscage %s`) holds the listener and answers them as its\n"
			   "options say.\n", (int)h.pid, sub);
	else
		fprintf(f, "process %d (%s), an ancestor, holds a seccomp listener (probably this\n"
			   "filter's) and answers them.\n", (int)h.pid, h.name);
	scg_notify_holder_release(&h);
}

/* Which threads hold a group's filters, when not every thread of the process does. */
static void note_threads(FILE *f, const struct scg_process_filters *pf,
			 const struct scg_thread_filters *g, pid_t asked)
{
	if (asked != pf->pid) {
		fprintf(f, "thread %d of process %d alone\n", (int)asked, (int)pf->pid);
		return;
	}
	if (g->ntids == pf->nthreads)
		return;
	fprintf(f, "thread%s", g->ntids == 1 ? "" : "s");
	for (size_t i = 0; i < g->ntids; i++)
		fprintf(f, "%s %d", i ? "," : "", (int)g->tids[i]);
	fprintf(f, " of process %d (%zu thread%s) hold%s these filters%s\n", (int)pf->pid,
		pf->nthreads, pf->nthreads == 1 ? "" : "s", g->ntids == 1 ? "s" : "",
		pf->ngroups == 1 ? "; the other threads hold none" : "");
}

/* --- output ------------------------------------------------------------ */

static const char *age(size_t i, size_t n)
{
	if (n == 1)
		return "the only one";
	return i == 0 ? "oldest, installed first" : i + 1 == n ? "newest, installed last"
						      : "installed in between";
}

/* What to write: the filters of one thread group, or of one capture. */
struct target {
	const struct scg_prog *progs;
	size_t n;
	const char *dir; /* -o: where the files go */
	const char *notes;
};

static int write_file(const char *dir, size_t i, const char *ext, const void *data, size_t len,
		      bool binary)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/filter-%zu.%s", dir, i, ext);
	if (cli_write_output(path, data, len, binary) < 0)
		return -1;
	printf("%s: ", path);
	return 0;
}

static int write_dir(const struct target *t, const struct scg_arch *arch,
		     const struct dump_opts *o)
{
	if (mkdir(t->dir, 0777) < 0 && errno != EEXIST) {
		cli_error("dump: cannot create %s: %s", t->dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct scg_prog *p = &t->progs[i];
		int r;
		if (o->format == DUMP_RAW) {
			r = write_file(t->dir, i, "bpf", p->insns, p->len * sizeof(struct scg_insn), true);
		} else {
			bool is_policy;
			char *text = render(p, arch, o, &is_policy);
			if (!text)
				return -1;
			/* a filter no policy can say goes to .s: its text is assembler */
			const char *ext = o->format == DUMP_POLICY && !is_policy ? "s"
										  : extension(o->format);
			r = write_file(t->dir, i, ext, text, strlen(text), false);
			free(text);
		}
		if (r < 0)
			return -1;
		printf("filter %zu (%s), %zu instructions\n", i, age(i, t->n), p->len);
	}
	return 0;
}

/* --format policy to standard output: one policy for the whole stack, else the assembler. */
static int write_policy(const struct target *t, const struct scg_arch *arch,
			const struct dump_opts *o)
{
	bool out_of_time = false;
	char *text = render_policy(t->progs, t->n, o->budget, &out_of_time);
	if (text) {
		print_lines(stdout, "# ", t->notes);
		if (t->n > 1)
			printf("# one policy meaning what the stack of %zu filters means: the kernel runs\n"
			       "# every one on each syscall, newest first, and the most restrictive\n"
			       "# result wins; 'syscage compile' reads it\n",
			       t->n);
		fputs(text, stdout);
		free(text);
		return 0;
	}
	cli_error("dump: %s; the annotated assembler is printed instead (syscage asm reads "
		  "one filter of it)",
		  out_of_time ? "the decompiler's time ran out"
			      : "the policy language cannot say what these filters test");
	print_lines(stdout, "; ", t->notes);
	for (size_t i = 0; i < t->n; i++) {
		char *asm_text = policy_fallback(&t->progs[i], arch, out_of_time);
		if (!asm_text)
			return -1;
		if (t->n > 1)
			printf("%s; --- filter %zu (%s) ---\n", i ? "\n" : "", i, age(i, t->n));
		fputs(asm_text, stdout);
		free(asm_text);
	}
	return 0;
}

static int write_stdout(const struct target *t, const struct scg_arch *arch,
			const struct dump_opts *o)
{
	if (o->format == DUMP_RAW) {
		if (t->n != 1) {
			cli_error("dump: %zu filters do not fit one raw stream; use -o DIR", t->n);
			return -1;
		}
		print_lines(stderr, "syscage: dump: note: ", t->notes);
		return cli_write_output(NULL, t->progs[0].insns,
					t->progs[0].len * sizeof(struct scg_insn), true) < 0 ? -1 : 0;
	}
	if (o->format == DUMP_POLICY)
		return write_policy(t, arch, o);
	print_lines(stdout, "; ", t->notes);
	if (t->n > 1)
		printf("; %zu filters, oldest first (the kernel's numbering); the kernel runs\n"
		       "; every one on each syscall, newest first, and the most restrictive\n"
		       "; result wins\n",
		       t->n);
	for (size_t i = 0; i < t->n; i++) {
		bool is_policy;
		char *text = render(&t->progs[i], arch, o, &is_policy);
		if (!text)
			return -1;
		printf("%s; --- filter %zu (%s) ---\n%s", i ? "\n" : "", i, age(i, t->n), text);
		free(text);
	}
	return 0;
}

static int emit_one(const struct target *t, const struct scg_arch *arch,
		    const struct dump_opts *o)
{
	if (!t->dir)
		return write_stdout(t, arch, o);
	print_lines(stderr, "syscage: dump: note: ", t->notes);
	return write_dir(t, arch, o);
}

/* The exit status once everything is written (@r < 0: something failed). */
static int finish(int r, const struct dump_opts *o)
{
	if (fflush(stdout) != 0)
		r = -1;
	if (r == 0 && o->budget->ran_out) {
		cli_error("dump: the decompiler's time budget of %llu s ran out; the assembler is "
			  "printed instead of a policy (--timeout SEC)",
			  (unsigned long long)o->budget->ms / 1000);
		return CLI_EXIT_BUDGET;
	}
	return r < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

/* --- dump PID ----------------------------------------------------------- */

/* The notes for group @g of @pf: threads, then supervisors.  NULL on ENOMEM. */
static char *group_notes(const struct scg_process_filters *pf, const struct scg_thread_filters *g,
			 pid_t asked)
{
	struct notes nt;
	if (!notes_open(&nt))
		return NULL;
	note_threads(nt.f, pf, g, asked);
	note_notify(nt.f, g->tids[0], g->progs, g->nprogs);
	notes_close(&nt);
	return nt.text;
}

/* Several groups of threads with different filters, one after the other. */
static int emit_groups(const struct scg_process_filters *pf, const struct scg_arch *arch,
		       const struct dump_opts *o)
{
	if (!o->dir && (o->format == DUMP_RAW || o->format == DUMP_POLICY)) {
		cli_error("dump: the threads of process %d hold different filters, which do not "
			  "fit one %s; use -o DIR (a directory per thread), or dump one thread: "
			  "syscage dump TID", (int)pf->pid,
			  o->format == DUMP_RAW ? "raw stream" : "policy");
		for (size_t i = 0; i < pf->ngroups; i++)
			cli_error("dump: thread %d%s: %zu filters", (int)pf->groups[i].tids[0],
				  pf->groups[i].ntids > 1 ? " and others" : "",
				  pf->groups[i].nprogs);
		return -1;
	}
	if (o->dir && mkdir(o->dir, 0777) < 0 && errno != EEXIST) {
		cli_error("dump: cannot create %s: %s", o->dir, strerror(errno));
		return -1;
	}
	int r = 0;
	for (size_t i = 0; r == 0 && i < pf->ngroups; i++) {
		const struct scg_thread_filters *g = &pf->groups[i];
		char *notes = group_notes(pf, g, pf->pid);
		char dir[4096];
		if (o->dir)
			snprintf(dir, sizeof(dir), "%s/thread-%d", o->dir, (int)g->tids[0]);
		else
			printf("%s; ===== threads of process %d holding other filters: group %zu of "
			       "%zu =====\n", i ? "\n" : "", (int)pf->pid, i + 1, pf->ngroups);
		struct target t = { g->progs, g->nprogs, o->dir ? dir : NULL, notes ? notes : "" };
		r = emit_one(&t, arch, o);
		free(notes);
	}
	return r;
}

static int dump_pid(const struct dump_opts *o, const struct scg_arch *arch)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_process_filters pf;
	int r = scg_inspect_process_filters(o->pid, o->timeout_ms ? o->timeout_ms : 10000U, &pf,
					    diag);
	print_errors(diag);
	scg_diag_free(diag);
	if (r < 0)
		return CLI_EXIT_USAGE;
	if (pf.ngroups == 0) {
		cli_error("dump: %s %d has no seccomp filter%s", pf.pid == o->pid ? "process" : "thread",
			  (int)o->pid, pf.nthreads > 1 ? " in any of its threads" : "");
		scg_process_filters_release(&pf);
		return CLI_EXIT_NEGATIVE;
	}
	if (pf.ngroups > 1) {
		r = emit_groups(&pf, arch, o);
	} else {
		char *notes = group_notes(&pf, &pf.groups[0], o->pid);
		struct target t = { pf.groups[0].progs, pf.groups[0].nprogs, o->dir,
				    notes ? notes : "" };
		r = emit_one(&t, arch, o);
		free(notes);
	}
	scg_process_filters_release(&pf);
	return finish(r, o);
}

/* --- dump -- CMD --------------------------------------------------------- */

static void describe_capture(const struct scg_capture *c)
{
	const struct scg_arch *arch = scg_arch_from_audit(c->audit_arch, c->nr);
	const char *abi = arch ? scg_arch_name(arch) : NULL;
	if (c->call == SCG_CAPTURE_SECCOMP)
		fprintf(stderr,
			"syscage: dump: process %d called seccomp(SECCOMP_SET_MODE_FILTER, 0x%lx, "
			"...) as %s",
			(int)c->pid, c->flags, abi ? abi : "an unknown ABI");
	else
		fprintf(stderr, "syscage: dump: process %d called prctl(PR_SET_SECCOMP, ...) as %s",
			(int)c->pid, abi ? abi : "an unknown ABI");
	fprintf(stderr, "; the program was killed before the install\n");
}

static int report_no_filter(const struct scg_capture *c, const char *cmd)
{
	if (c->outcome == SCG_CAPTURE_STRICT) {
		fprintf(stderr, "syscage: dump: process %d asked for strict mode; no filter to show, "
				"killed it\n", (int)c->pid);
	} else if (WIFEXITED(c->exit_status)) {
		cli_error("dump: '%s' exited with status %d without installing a filter", cmd,
			  WEXITSTATUS(c->exit_status));
	} else {
		cli_error("dump: '%s' died of signal %d without installing a filter", cmd,
			  WTERMSIG(c->exit_status));
	}
	return CLI_EXIT_NEGATIVE;
}

static int dump_cmd(const struct dump_opts *o, const struct scg_arch *arch)
{
	struct scg_diag *diag = scg_diag_new();
	struct scg_capture c;
	int r = scg_inspect_capture(o->cmd, o->timeout_ms ? o->timeout_ms : 60000U, &c, diag);
	print_errors(diag);
	scg_diag_free(diag);
	if (r < 0)
		return CLI_EXIT_USAGE;
	if (c.outcome != SCG_CAPTURE_FILTER)
		return report_no_filter(&c, o->cmd[0]);
	describe_capture(&c);
	if (!o->arch_name) {
		const struct scg_arch *seen = scg_arch_from_audit(c.audit_arch, c.nr);
		if (seen)
			arch = seen;
	}
	/* the program is dead: no supervisor answers this filter's notify verdicts yet */
	struct target t = { &c.prog, 1, o->dir, "" };
	r = emit_one(&t, arch, o);
	scg_prog_release(&c.prog);
	return finish(r, o);
}

int cmd_dump(int argc, char **argv)
{
	struct policy_budget budget = { 0 };
	struct dump_opts o = { .format = DUMP_ASM, .budget = &budget };
	int r = parse_options(argc, argv, &o);
	if (r <= 0)
		return r == CLI_OPTIONS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	budget.ms = o.timeout_ms ? o.timeout_ms : 10000U;
	const struct scg_arch *arch = cli_arch(o.arch_name);
	if (!arch)
		return CLI_EXIT_USAGE;
	return o.cmd ? dump_cmd(&o, arch) : dump_pid(&o, arch);
}
