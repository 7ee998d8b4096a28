// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: module-load uevents. The input is one received datagram; its
 * first byte picks the sender (0: the kernel) and whether it was
 * truncated, so the listener's checks run too. A module name that comes
 * out must be a valid one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "kernel/uevent.h"

static const uint8_t *in;
static size_t in_len;

static ssize_t fake_recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sockaddr_nl *sa = msg->msg_name;
	size_t room = msg->msg_iov[0].iov_len;
	size_t n = in_len - 1 < room ? in_len - 1 : room;

	memset(sa, 0, sizeof(*sa));
	sa->nl_family = AF_NETLINK;
	sa->nl_pid = in[0] & 1 ? 1234 : 0;
	msg->msg_namelen = sizeof(*sa);
	memcpy(msg->msg_iov[0].iov_base, in + 1, n);
	msg->msg_flags = (in[0] & 2) || in_len - 1 > room ? MSG_TRUNC : 0;
	return (ssize_t)n;
}

static void check_name(const char *m)
{
	size_t i, n = strlen(m);

	if (n == 0 || n > 55)
		abort();
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", m[i]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	static struct ddctl_uevent_listener *l;
	char m[64], small[8];
	int r;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
		uevent_listener_new_fd(ctx, -1, fake_recvmsg, &l);
	}
	if (size < 1)
		return 0;
	/* the parser on the bytes exactly as received */
	r = ddctl_uevent_get_module((const char *)data + 1, size - 1, m, sizeof(m));
	if (r == 1)
		check_name(m);
	r = ddctl_uevent_get_module((const char *)data + 1, size - 1, small, sizeof(small));
	if (r == 1)
		check_name(small);
	/* the listener: sender, truncation, then the parser */
	in = data;
	in_len = size;
	r = ddctl_uevent_listener_read(l, m, sizeof(m));
	if (r == 1) {
		check_name(m);
		if ((data[0] & 3) != 0)
			abort(); /* forged or truncated, yet accepted */
	}
	return 0;
}
