/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_KERNEL_UEVENT_H
#define DDCTL_KERNEL_UEVENT_H

#include <sys/types.h>

#include <ddctl/ddctl.h>

struct msghdr;

/* A listener on @fd reading through @recv (NULL: recvmsg(2)); tests pass their own. */
typedef ssize_t (*uevent_recvmsg_fn)(int fd, struct msghdr *msg, int flags);
int uevent_listener_new_fd(struct ddctl_ctx *ctx, int fd, uevent_recvmsg_fn recv,
			   struct ddctl_uevent_listener **out);

#endif
