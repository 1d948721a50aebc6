/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as the input of `syscage emu --batch`
 * (cli/emu_batch.c), run through a fixed stack of two filters (a compiled
 * policy with argument conditions on three ABIs, and a second policy that
 * traps one syscall).  Whatever the lines hold, the batch must neither crash
 * nor read out of bounds, and must return OK or USAGE (bad lines).
 *
 * The batch reads a path, so the input goes into a memfd named through
 * /proc/self/fd; its output goes to /dev/null.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <syscage/syscage.h>

#include "common/cli.h"
#include "emu_batch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const policies[2] = {
	"default errno(EPERM)\n"
	"arch x86_64, i386, mips\n"
	"allow read, write, close\n"
	"errno(ENOENT) openat if (arg2 & 0x40) != 0\n"
	"allow mmap if arg0 == 0 && arg2 <= 7\n"
	"kill ioctl if arg1 in {0x5401, 0x5413}\n"
	"trace(7) 999\n",
	"default allow\n"
	"arch x86_64, i386, mips\n"
	"trap(3) getpid\n",
};

static struct scg_prog progs[2];
static int input_fd = -1;
static char input_path[64];

static void compile_or_die(const char *text, struct scg_prog *out)
{
	struct scg_policy *p = NULL;
	if (scg_policy_parse(text, strlen(text), NULL, &p, NULL) != 0 ||
	    scg_compile(p, NULL, out, NULL) != 0) {
		fprintf(stderr, "fuzz_emu_batch: the built-in policy does not compile\n");
		abort();
	}
	scg_policy_free(p);
}

static void setup(void)
{
	for (size_t i = 0; i < 2; i++)
		compile_or_die(policies[i], &progs[i]);
	input_fd = memfd_create("emu-batch", 0);
	if (input_fd < 0 || !freopen("/dev/null", "w", stdout))
		abort();
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (input_fd < 0)
		setup();
	if (ftruncate(input_fd, 0) != 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size)
		abort();
	int status = cli_emu_batch(input_path, progs, 2, 0x7f0000001000ULL);
	if (status != CLI_EXIT_OK && status != CLI_EXIT_USAGE)
		abort();
	return 0;
}
