/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program written against libseccomp's API, nothing else: it builds and
 * behaves the same with libseccomp and with syscage's libseccomp.so.2
 * (docs/libseccomp.md).
 *
 *   cc seccomp-user.c $(pkg-config --cflags --libs libseccomp)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <seccomp.h>

static int check(int rc, const char *what)
{
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", what, strerror(-rc));
	return rc;
}

int main(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return 1;
	/* No parent pid for this program, and no faked terminal input. */
	if (check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(getppid), 0), "getppid") < 0 ||
	    check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 1,
				   SCMP_A1(SCMP_CMP_EQ, TIOCSTI)), "ioctl") < 0 ||
	    check(seccomp_load(ctx), "load") < 0) {
		seccomp_release(ctx);
		return 1;
	}
	seccomp_release(ctx);

	errno = 0;
	long ppid = syscall(SCMP_SYS(getppid)); /* the raw call: glibc's wrapper keeps no errno */
	printf("getppid: %ld (%s)\n", ppid, ppid < 0 ? strerror(errno) : "allowed");
	char c = 'x';
	int rc = ioctl(0, TIOCSTI, &c);
	printf("ioctl(TIOCSTI): %d (%s)\n", rc, rc < 0 ? strerror(errno) : "allowed");
	printf("write: still allowed\n");
	return 0;
}
