/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as the frequency profile of `syscage compile
 * --workload FILE` (cli/common/workload.c), and when they are accepted, the
 * weights fed to the compiler on a fixed policy whose verdicts must not
 * change: a workload only moves code around.
 *
 * The reader takes a path, so the input goes into a memfd named through
 * /proc/self/fd.  Its complaints go to /dev/null through a FILE of their
 * own while it reads: fd 2 and the FILE libFuzzer prints through stay
 * open, so a crash report, the crash input's path and the final stats are
 * still seen.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <syscage/syscage.h>

#include "common/cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char policy_text[] = "arch x86_64, x86, x32\n"
				  "default errno(EPERM)\n"
				  "allow read, write, close, mmap, openat\n"
				  "allow clone if (arg0 & 0x10000000) == 0\n"
				  "errno(ENOSYS) clone3\n"
				  "allow personality if arg0 in {0, 8, 0xffffffff}\n";

static struct scg_policy *policy;
static FILE *quiet;
static int input_fd = -1;
static char input_path[64];

static void setup(void)
{
	if (scg_policy_parse(policy_text, strlen(policy_text), NULL, &policy, NULL) != 0)
		abort();
	input_fd = memfd_create("workload", 0);
	quiet = fopen("/dev/null", "w");
	if (input_fd < 0 || !quiet)
		abort();
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
}

/* The weighted program decides like the unweighted one on every call tried. */
static void check_same_verdicts(const struct scg_prog *a, const struct scg_prog *b)
{
	static const char *const names[] = { "read", "clone", "clone3", "personality", "mount" };
	static const uint64_t args[] = { 0, 8, 0x10000000, 0xffffffff, 0x1ffffffffULL };
	const struct scg_arch *x64 = scg_arch_lookup("x86_64");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct scg_seccomp_data d = { .arch = scg_arch_audit(x64) };
		if (scg_syscall_lookup(x64, names[i], &d.nr) < 0)
			abort();
		for (size_t k = 0; k < sizeof(args) / sizeof(args[0]); k++) {
			d.args[0] = args[k];
			uint32_t ra, rb;
			if (scg_emu_run(a, &d, &ra, NULL, NULL, NULL) < 0 ||
			    scg_emu_run(b, &d, &rb, NULL, NULL, NULL) < 0 || ra != rb)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (input_fd < 0)
		setup();
	if (ftruncate(input_fd, 0) != 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size)
		abort();
	struct scg_syscall_weight *w = NULL;
	size_t n = 0;
	FILE *err = stderr;
	stderr = quiet; /* glibc: stderr is a variable; libFuzzer holds the FILE itself */
	int r = cli_load_workload(input_path, &w, &n);
	stderr = err;
	if (r < 0)
		return 0;
	struct scg_compile_options weighted = { .optimize = 1, .weights = w, .nweights = n };
	struct scg_compile_options plain = { .optimize = 1, .unweighted = true };
	struct scg_prog a, b;
	if (scg_compile(policy, &weighted, &a, NULL) != 0 || scg_compile(policy, &plain, &b, NULL) != 0)
		abort();
	check_same_verdicts(&a, &b);
	scg_prog_release(&a);
	scg_prog_release(&b);
	cli_workload_free(w, n);
	return 0;
}
