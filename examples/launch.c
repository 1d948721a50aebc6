/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Embedding the launcher: run a command under one of syscage's built-in
 * profiles and print each call the profile denies, decoded.
 *
 *   launch [-p PROFILE] [--] CMD [ARG...]   (PROFILE: default, docker-default, ...)
 *
 * Built by meson with the library (build/examples/launch), not installed;
 * on its own: cc launch.c $(pkg-config --cflags --libs libsyscage).
 */
#include <stdio.h>
#include <string.h>

#include <syscage/syscage.h>

static void on_denial(const struct scg_launch_denial *d, void *ctx)
{
	unsigned *count = ctx;
	char verdict[64];
	scg_ret_format(d->action, verdict, sizeof(verdict));
	fprintf(stderr, "launch: denied %s in thread %d: %s\n", d->call, (int)d->tid, verdict);
	++*count;
}

int main(int argc, char **argv)
{
	const char *profile = "default";
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "-p")) {
		profile = argv[2];
		first = 3;
	}
	if (first < argc && !strcmp(argv[first], "--"))
		first++;
	if (first >= argc) {
		fprintf(stderr, "usage: launch [-p PROFILE] [--] CMD [ARG...]\n");
		return 2;
	}
	unsigned denials = 0;
	SCG_OPTS(scg_launch_options, opts, .mode = SCG_LAUNCH_REPORT, .profile = profile,
		 .ctx = &denials, .on_denial = on_denial);
	struct scg_launch_result res;
	int r = scg_launch(argv + first, NULL, &opts, &res);
	if (r < 0)
		fprintf(stderr, "launch: cannot start %s: %s\n", argv[first], strerror(-r));
	else if (res.end == SCG_LAUNCH_SIGNALED)
		fprintf(stderr, "launch: %s ended by signal %d%s\n", argv[first], res.status,
			res.killed_by_verdict ? " (the profile's KILL verdict)" : "");
	fprintf(stderr, "launch: %u call%s denied\n", denials, denials == 1 ? "" : "s");
	return scg_launch_exit_status(&res);
}
