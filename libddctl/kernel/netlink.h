/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The generic netlink transport (kernel/netlink.c). */
#ifndef DDCTL_KERNEL_NETLINK_H
#define DDCTL_KERNEL_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ddctl/ddctl.h>

#include "kernel/dyndbg-nl.h"

struct mnl_socket;
struct nlmsghdr;

typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);

/* The state of one request's replies. */
struct nl_reply {
	uint32_t portid, seq;
	nl_msg_cb cb;
	void *data;
	char **errmsg;
	bool done, intr; /* intr: NLM_F_DUMP_INTR seen */
};

/* The dyndbg family as the controller reports it. */
struct nl_family {
	uint16_t id;
	uint32_t notify_group;
	bool get_features; /* CTRL_ATTR_OPS lists DYNDBG_CMD_GET_FEATURES */
};

/* The flags every kernel has (pmflts), when GET_FEATURES does not say. */
#define NL_FLAGS_BASE 0x3fu

/* The family's GET_FEATURES reply. */
struct nl_features {
	uint32_t queries_max, features, valid_flags, generation;
};

struct strbuf;

/*
 * Tests: a peer that answers each request in place of the kernel, its
 * replies (whole netlink messages, NLMSG_DONE or NLMSG_ERROR last)
 * appended to @reply; NULL: the kernel again.
 */
typedef int (*nl_peer_fn)(void *data, const struct nlmsghdr *req,
			  struct strbuf *reply);
void nl_set_peer(nl_peer_fn fn, void *data);

int nl_open(struct ddctl_ctx *ctx, struct mnl_socket **out);
struct nlmsghdr *nl_request(struct ddctl_ctx *ctx, char *buf, size_t size,
			    uint16_t type, uint16_t flags, uint8_t cmd);
const char *nl_extack_msg(const struct nlmsghdr *nlh);
int nl_recv(struct mnl_socket *nl, char **buf, size_t *size, size_t *len);
int nl_walk(const void *buf, size_t len,
	    int (*fn)(const struct nlmsghdr *m, void *data), void *data);
int nl_reply_parse(const void *buf, size_t size, struct nl_reply *st);
int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, nl_msg_cb cb,
	    void *data, char **errmsg);
int nl_family_parse(const struct nlmsghdr *nlh, void *data);
int nl_features_parse(const struct nlmsghdr *nlh, void *data);
struct nlmsghdr *nl_build_getfamily(struct ddctl_ctx *ctx, char *buf, size_t size);
/*
 * A socket, the family's id (and with @need_group its notify group). A
 * family without DYNDBG_CMD_GET_FEATURES (the v2 series' text family) is
 * -ENOENT, as no family: it is never sent structured attributes. The
 * first connect of a context asks GET_FEATURES (ctx_get_nl_features()).
 */
int nl_connect(struct ddctl_ctx *ctx, bool need_group,
	       struct mnl_socket **nl, struct nl_family *f);

#endif
