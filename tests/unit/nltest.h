/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Netlink messages for the tests of kernel/netlink.c, dyndbg.c and monitor.c. */
#ifndef DDCTL_NLTEST_H
#define DDCTL_NLTEST_H

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "testlib.h"

/* A dyndbg message with command @cmd at the start of @buf. */
static inline struct nlmsghdr *msg(char *buf, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = 0x20;
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* A second netlink socket sends to @to's port: @len bytes. */
static inline void send_to(struct mnl_socket *to, const void *data, size_t len)
{
	struct mnl_socket *from = mnl_socket_open(NETLINK_GENERIC);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_pid = mnl_socket_get_portid(to) };

	assert_non_null(from);
	assert_int_equal(mnl_socket_bind(from, 0, MNL_SOCKET_AUTOPID), 0);
	assert_int_equal(sendto(mnl_socket_get_fd(from), data, len, 0,
				(struct sockaddr *)&sa, sizeof(sa)), (ssize_t)len);
	mnl_socket_close(from);
}

/* A bound netlink socket that receives. */
static inline struct mnl_socket *receiver(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);

	assert_non_null(nl);
	assert_int_equal(mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID), 0);
	return nl;
}

#endif
