/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs inside the container of tests/cli/compat.sh: calls personality(2)
 * with a value Docker's default profile allows and one it denies, then
 * (with an argument) waits so the test can copy the container's filter; the test
 * ends it with 'runc delete -f' once it has, so a slow start cannot outlast it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void try_personality(unsigned long value, const char *label)
{
	long r = syscall(SYS_personality, value);
	printf("personality(%s): %s\n", label, r < 0 ? strerror(errno) : "allowed");
}

int main(int argc, char **argv)
{
	(void)argv;
	try_personality(0xffffffffUL, "0xffffffff"); /* query, allowed */
	try_personality(0, "0");
	try_personality(0x0200000UL, "ADDR_COMPAT_LAYOUT");
	fflush(stdout);
	if (argc > 1)
		sleep(60);
	return 0;
}
