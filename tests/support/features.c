/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "support/features.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <syscage/syscage.h>

static const struct scg_features *probed(void)
{
	static struct scg_features f;
	static bool done;
	if (!done) {
		if (scg_features_probe(&f) < 0)
			memset(&f, 0, sizeof(f));
		done = true;
	}
	return &f;
}

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{ "tsync", SCG_FILTER_FLAG_TSYNC },
	{ "log", SCG_FILTER_FLAG_LOG },
	{ "spec-allow", SCG_FILTER_FLAG_SPEC_ALLOW },
	{ "new-listener", SCG_FILTER_FLAG_NEW_LISTENER },
	{ "tsync-esrch", SCG_FILTER_FLAG_TSYNC_ESRCH },
	{ "wait-killable-recv", SCG_FILTER_FLAG_WAIT_KILLABLE_RECV },
};

/* uretprobe(2) (x86_64 335, Linux 6.11) is the first call seccomp never filters.  Called
 * from anywhere but its trampoline it raises SIGILL, so a child asks: a kernel without it
 * answers ENOSYS and the child exits 0. */
static bool have_uretprobe(void)
{
#if defined(__x86_64__)
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGILL, SIG_DFL);
		long r = syscall(335);
		_exit(r == -1 && errno == ENOSYS ? 0 : 1);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#else
	return false;
#endif
}

bool feature_have(const char *name)
{
	const struct scg_features *f = probed();
	if (!strcmp(name, "i386-emulation"))
		return f->ia32_emulation;
	if (!strcmp(name, "x32"))
		return f->x32;
	if (!strcmp(name, "ptrace-get-filter"))
		return f->ptrace_get_filter;
	if (!strcmp(name, "user-notif"))
		return (f->actions & (1U << SCG_ACTION_USER_NOTIF)) &&
		       (f->flags & SCG_FILTER_FLAG_NEW_LISTENER);
	if (!strcmp(name, "uretprobe"))
		return have_uretprobe();
	if (!strcmp(name, "landlock"))
		return f->landlock_abi >= 1;
	if (!strcmp(name, "landlock-scope"))
		return f->landlock_abi >= 6;
	if (!strcmp(name, "cgroup-kill"))
		return f->cgroup_kill;
	if (!strcmp(name, "no-inherited-filter"))
		return prctl(PR_GET_SECCOMP, 0L, 0L, 0L, 0L) == 0;
	/* tools whose output the importers are held against */
	if (!strcmp(name, "systemd-analyze"))
		return system("systemd-analyze --version >/dev/null 2>&1") == 0;
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (!strcmp(name, flag_names[i].name))
			return (f->flags & flag_names[i].flag) != 0;
	fprintf(stderr, "feature_have: unknown feature '%s'\n", name);
	abort();
}

__attribute__((format(printf, 2, 0)))
static void print_skip(const char *name, const char *fmt, va_list ap)
{
	fflush(stderr);
	printf("SKIP: %s: ", name);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

void feature_skip(const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	print_skip(name, fmt, ap);
	va_end(ap);
}

bool feature_require(const char *name, const char *fmt, ...)
{
	if (feature_have(name))
		return true;
	va_list ap;
	va_start(ap, fmt);
	print_skip(name, fmt, ap);
	va_end(ap);
	return false;
}
