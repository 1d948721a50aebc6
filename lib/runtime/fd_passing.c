/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "runtime/launch_internal.h"

void fd_attach(struct msghdr *msg, union fd_control *control, int fd)
{
	if (fd < 0)
		return;
	memset(control, 0, sizeof(*control));
	msg->msg_control = control->buf;
	msg->msg_controllen = sizeof(control->buf);
	struct cmsghdr *c = CMSG_FIRSTHDR(msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
}

ssize_t fd_receive(int sock, struct msghdr *msg, union fd_control *control, int *fd)
{
	msg->msg_control = control->buf;
	msg->msg_controllen = sizeof(control->buf);
	ssize_t n;
	do
		n = recvmsg(sock, msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(msg) : NULL;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return n;
}
