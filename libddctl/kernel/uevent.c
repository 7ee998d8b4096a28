// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Module-load uevents: a NETLINK_KOBJECT_UEVENT listener that accepts only
 * what the kernel sent, and the parser that finds the module a uevent
 * announces. Anything else on the socket (a forged message, a truncated
 * one, a name that is not a module name) is refused and reported, never
 * turned into a query.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "core/ctx.h"
#include "kernel/uevent.h"

#define UEVENT_GROUP_KERNEL 1
#define UEVENT_RCVBUF (1 << 20)
/* The kernel's uevents are at most UEVENT_BUFFER_SIZE (2048) bytes. */
#define UEVENT_BUFSZ 8192
/* MODULE_NAME_LEN (64 - sizeof(unsigned long)) with its NUL */
#define MODULE_NAME_MAX 55

struct ddctl_uevent_listener {
	struct ddctl_ctx *ctx;
	int fd;
	uevent_recvmsg_fn recv;
	char buf[UEVENT_BUFSZ];
};

/* A name the kernel could give a module: [A-Za-z0-9_-], 1 to 55 bytes. */
static bool valid_module_name(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > MODULE_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

DDCTL_EXPORT int ddctl_uevent_get_module(const char *buf, size_t len,
					 char *module, size_t size)
{
	const char *p, *end = buf + len, *name = NULL;
	bool add = false, subsys = false;
	size_t n, name_len = 0;

	for (p = buf; p < end; p += n + 1) {
		n = strnlen(p, (size_t)(end - p));
		if (n == 10 && !memcmp(p, "ACTION=add", 10))
			add = true;
		else if (n == 16 && !memcmp(p, "SUBSYSTEM=module", 16))
			subsys = true;
		else if (n > 16 && !memcmp(p, "DEVPATH=/module/", 16)) {
			name = p + 16;
			name_len = n - 16;
		}
	}
	if (!add || !subsys || !name || memchr(name, '/', name_len))
		return 0;
	if (!valid_module_name(name, name_len))
		return -EINVAL;
	if (name_len >= size)
		return -ENAMETOOLONG;
	memcpy(module, name, name_len);
	module[name_len] = '\0';
	return 1;
}

static ssize_t recvmsg_fn(int fd, struct msghdr *msg, int flags)
{
	return recvmsg(fd, msg, flags);
}

int uevent_listener_new_fd(struct ddctl_ctx *ctx, int fd, uevent_recvmsg_fn recv,
			   struct ddctl_uevent_listener **out)
{
	struct ddctl_uevent_listener *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->ctx = ddctl_ref(ctx);
	l->fd = fd;
	l->recv = recv ? recv : recvmsg_fn;
	*out = l;
	return 0;
}

DDCTL_EXPORT int ddctl_uevent_listener_new(struct ddctl_ctx *ctx,
					   struct ddctl_uevent_listener **out)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = UEVENT_GROUP_KERNEL };
	int fd, sz = UEVENT_RCVBUF, r;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	/* room for a burst; SO_RCVBUFFORCE passes rmem_max with CAP_NET_ADMIN */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	r = uevent_listener_new_fd(ctx, fd, NULL, out);
	if (r < 0)
		close(fd);
	return r;
}

DDCTL_EXPORT void ddctl_uevent_listener_free(struct ddctl_uevent_listener *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	ddctl_unref(l->ctx);
	free(l);
}

DDCTL_EXPORT int ddctl_uevent_listener_get_fd(const struct ddctl_uevent_listener *l)
{
	return l->fd;
}

DDCTL_EXPORT int ddctl_uevent_listener_read(struct ddctl_uevent_listener *l,
					    char *module, size_t size)
{
	struct sockaddr_nl sa = { 0 };
	struct iovec iov = { l->buf, sizeof(l->buf) };
	struct msghdr msg = { .msg_name = &sa, .msg_namelen = sizeof(sa),
			      .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n = l->recv(l->fd, &msg, 0);

	if (n < 0)
		return -errno;
	if (msg.msg_flags & MSG_TRUNC) {
		dbg(l->ctx, "uevent longer than %zu bytes dropped\n", sizeof(l->buf));
		return -EMSGSIZE;
	}
	if (msg.msg_namelen != sizeof(sa) || sa.nl_family != AF_NETLINK ||
	    sa.nl_pid != 0) {
		dbg(l->ctx, "uevent from port %u dropped: not sent by the kernel\n",
		    sa.nl_pid);
		return -EPERM;
	}
	return ddctl_uevent_get_module(l->buf, (size_t)n, module, size);
}
