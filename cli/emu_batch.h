/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syscage emu --batch: many cases, one line each, through filters checked once. */
#ifndef SCG_CLI_EMU_BATCH_H
#define SCG_CLI_EMU_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include <syscage/syscage.h>

/*
 * Reads cases "ARCH SYSCALL [ARG0 .. ARG5] [IP]" from @path ("-": stdin)
 * and prints one canonical action per case.  @progs must have passed
 * scg_verify().  A case without IP uses @default_ip.  Bad lines are
 * reported as file:line:column on stderr and print "ERROR", so the output
 * keeps one line per case.  Returns an exit status (CLI_EXIT_*).
 */
int cli_emu_batch(const char *path, const struct scg_prog *progs, size_t n, uint64_t default_ip);

#endif
