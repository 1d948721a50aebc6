/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One descriptor carried beside a message over a Unix socket (SCM_RIGHTS), as the
 * launcher, the child and the watchdog of `run` hand each other the listener and the
 * program's pidfd.
 */
#ifndef SCG_CLI_FD_PASSING_H
#define SCG_CLI_FD_PASSING_H

#include <sys/socket.h>
#include <sys/types.h>

/* Room for one descriptor's control message, aligned as the kernel wants it. */
union fd_control {
	char buf[CMSG_SPACE(sizeof(int))];
	struct cmsghdr align;
};

/* Makes @msg carry @fd in @control; @fd < 0 carries nothing. */
void fd_attach(struct msghdr *msg, union fd_control *control, int fd);
/* Receives into @msg (its control buffer set by this call), retrying on EINTR; a descriptor
 * that came with it is stored in *@fd, which is left alone otherwise.  Returns recvmsg's
 * result. */
ssize_t fd_receive(int sock, struct msghdr *msg, union fd_control *control, int *fd);

#endif
