// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * sd_notify's protocol (sd_notify(3), "Notes"), small enough to carry
 * instead of linking libsystemd: one datagram to the AF_UNIX socket named
 * by $NOTIFY_SOCKET. A leading '@' means the abstract namespace (the '@'
 * becomes a NUL and the address length counts only the name); the kernel
 * attaches the sender's credentials, by which the service manager checks
 * NotifyAccess= (the main process, for ddctl watch).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ops/notify.h"

int cli_notify(const char *state)
{
	const char *e = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	size_t n;
	ssize_t k;
	int fd, r = 1;

	if (!e || !*e)
		return 0;
	n = strlen(e);
	if (e[0] != '/' && e[0] != '@')
		return -EAFNOSUPPORT; /* e.g. vsock: (not a local service manager's) */
	if (n >= sizeof(sa.sun_path) || (e[0] == '@' && n < 2))
		return -EINVAL;
	memcpy(sa.sun_path, e, n);
	if (e[0] == '@')
		sa.sun_path[0] = '\0';
	/* a path's address includes its NUL; an abstract name's does not */
	len = offsetof(struct sockaddr_un, sun_path) + n + (e[0] == '/');
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	k = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, len);
	if (k < 0)
		r = -errno;
	else if ((size_t)k != strlen(state))
		r = -EMSGSIZE;
	close(fd);
	return r;
}
