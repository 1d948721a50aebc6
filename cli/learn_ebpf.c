/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscage learn --ebpf: the options into scg_ebpf_learn() (libsyscage-ebpf,
 * <syscage/ebpf.h>), its reports onto the terminal.  docs/learn.md,
 * "Learning with eBPF".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <syscage/ebpf.h>

#include "common/cli.h"
#include "learn_sources.h"

enum { EXIT_SETUP = 125 };

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_log(void *ctx, enum scg_severity severity, const char *message)
{
	(void)ctx;
	if (severity == SCG_SEV_NOTE)
		fputs(message, stderr); /* libbpf's own, "libbpf: " included */
	else
		cli_error("learn --ebpf: %s", message);
}

static void on_recording(void *ctx)
{
	const struct learn_ebpf_request *req = ctx;
	if (!req->argv)
		cli_error("learn --ebpf: recording; SIGINT (Ctrl-C) or SIGTERM ends it%s",
			  req->pid ? ", or the end of the process" : "");
}

int learn_ebpf(const struct learn_ebpf_request *req, struct scg_learn *rec)
{
	struct scg_ebpf_learn_opts o = {
		.argv = req->argv,
		.pid = (pid_t)req->pid,
		.cgroup = req->cgroup,
		.args = req->args,
		.stdout_to_stderr = req->divert_stdout,
		.stop = &stop_signal,
		.log = on_log,
		.recording = on_recording,
		.ctx = (void *)req,
	};
	/* SIGINT and SIGTERM end the recording, and later ones (a second Ctrl-C,
	 * timeout(1)'s copy to its process group) must not end syscage before
	 * the policy is written: the handler stays until the exit. */
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct scg_ebpf_learn_result res;
	int r = scg_ebpf_learn(&o, rec, &res);
	if (r == -ENOTSUP) {
		cli_error("learn --ebpf: this syscage was built without eBPF (the build needs x86_64, "
			  "libbpf's headers (libbpf-dev), bpftool and clang: meson setup "
			  "-Debpf=enabled)");
		return EXIT_SETUP;
	}
	if (r < 0 && res.command_error) {
		int e = res.command_error;
		cli_error("%s: %s", req->argv[0], e == ENOENT ? "command not found" : strerror(e));
		return e == ENOENT ? 127 : 126; /* as a shell, and learn, say it */
	}
	if (r < 0)
		return EXIT_SETUP;
	if (res.lost)
		cli_error("warning: learn --ebpf: %llu calls (or new processes) were lost to a "
			  "full %s: the policy may be incomplete", res.lost,
			  req->args ? "ring buffer" : "map");
	if (res.foreign)
		cli_error("warning: %llu calls came from an ABI syscage does not know", res.foreign);
	if (res.unrecorded) {
		cli_error("out of memory: %llu calls were not recorded; the policy is incomplete",
			  res.unrecorded);
		return EXIT_SETUP;
	}
	return res.status;
}
