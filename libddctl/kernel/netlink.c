// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The generic netlink transport, on libmnl: a socket with NETLINK_EXT_ACK
 * (so the kernel's message for a refused request reaches the caller), a
 * request with the context's next sequence number, replies received whole
 * and walked with every length checked, and the "dyndbg" family's id,
 * notify group and operations resolved through the controller, its
 * features asked once (GET_FEATURES).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "core/ctx.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

int nl_open(struct ddctl_ctx *ctx, struct mnl_socket **out)
{
	/* close-on-exec: run's command must not inherit it */
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	int one = 1;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int e = -errno;

		mnl_socket_close(nl);
		return e;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	*out = nl;
	return 0;
}

/*
 * A request in @buf (@size bytes, all zeroed: libmnl leaves attribute
 * padding as it was), with the context's next sequence number.
 */
struct nlmsghdr *nl_request(struct ddctl_ctx *ctx, char *buf, size_t size,
			    uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	memset(buf, 0, size);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ctx_next_nl_seq(ctx);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = DYNDBG_GENL_VERSION;
	return nlh;
}

/*
 * The extended ack's message of an NLMSG_ERROR whose nlmsg_len fits the
 * buffer, or NULL.
 */
const char *nl_extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;
	size_t off = sizeof(*nlh) + sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < off)
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		/* the request is echoed: its header says how long it is */
		if (e->msg.nlmsg_len < sizeof(e->msg) ||
		    e->msg.nlmsg_len > nlh->nlmsg_len)
			return NULL;
		off = NLMSG_ALIGN(off + e->msg.nlmsg_len - sizeof(e->msg));
	}
	if (off > nlh->nlmsg_len)
		return NULL;
	mnl_attr_for_each_payload((const void *)((const char *)nlh + off),
				  nlh->nlmsg_len - off) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			return mnl_attr_get_str(attr);
	}
	return NULL;
}

/*
 * Receive one datagram into *@buf, (re)allocated to hold it whole: its
 * length is peeked first (MSG_PEEK|MSG_TRUNC); *@size is the buffer's
 * size (the first allocation's when *@buf is NULL), its length in *@len.
 */
int nl_recv(struct mnl_socket *nl, char **buf, size_t *size, size_t *len)
{
	ssize_t n;

	/* a signal without SA_RESTART must not lose a reply (a restore's) */
	do
		n = recv(mnl_socket_get_fd(nl), NULL, 0, MSG_PEEK | MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!*buf || (size_t)n > *size) {
		size_t want = (size_t)n > *size ? (size_t)n : *size;
		char *b = realloc(*buf, want);

		if (!b)
			return -ENOMEM;
		*buf = b;
		*size = want;
	}
	do
		n = mnl_socket_recvfrom(nl, *buf, *size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	*len = (size_t)n;
	return 0;
}

/*
 * Each netlink message of a received datagram to @fn, stopping at @fn's
 * non-zero return. Lengths are checked as unsigned numbers against what
 * was received: a message that does not fit is -EBADMSG.
 */
int nl_walk(const void *buf, size_t len,
		   int (*fn)(const struct nlmsghdr *m, void *data), void *data)
{
	const char *p = buf;
	int r = 0;

	while (len > 0 && r == 0) {
		const struct nlmsghdr *m = (const struct nlmsghdr *)p;
		size_t step;

		if (len < sizeof(*m) || m->nlmsg_len < sizeof(*m) || m->nlmsg_len > len)
			return -EBADMSG;
		r = fn(m, data);
		step = NLMSG_ALIGN((size_t)m->nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return r;
}

/* NLMSG_ERROR: 0 (an ack), the kernel's negative errno, or -EBADMSG/-EPROTO. */
static int nl_error_parse(const struct nlmsghdr *m, char **errmsg)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);
	const char *msg;

	if (m->nlmsg_len < sizeof(*m) + sizeof(*e))
		return -EBADMSG;
	if (e->error > 0)
		return -EPROTO;
	msg = nl_extack_msg(m);
	if (e->error && msg && errmsg)
		*errmsg = strdup(msg);
	return e->error;
}

static int reply_msg(const struct nlmsghdr *m, void *data)
{
	struct nl_reply *st = data;

	if (!mnl_nlmsg_portid_ok(m, st->portid) || !mnl_nlmsg_seq_ok(m, st->seq))
		return 0;
	/* a dump that a module load/unload cut: not a whole view */
	if (m->nlmsg_flags & NLM_F_DUMP_INTR)
		st->intr = true;
	if (m->nlmsg_type == NLMSG_DONE) {
		st->done = true;
		return 1;
	}
	if (m->nlmsg_type == NLMSG_ERROR) {
		st->done = true;
		return nl_error_parse(m, st->errmsg) ?: 1;
	}
	return st->cb ? st->cb(m, st->data) : 0;
}

/*
 * One received datagram of replies to @st's request: each data message to
 * @st->cb; NLMSG_DONE or NLMSG_ERROR end it (st->done). On a kernel error
 * its extended-ack message is copied to *@st->errmsg (malloc'd) when given.
 */
int nl_reply_parse(const void *buf, size_t size, struct nl_reply *st)
{
	int r = nl_walk(buf, size, reply_msg, st);

	return r > 0 ? 0 : r;
}

static nl_peer_fn peer_fn;
static void *peer_data;

void nl_set_peer(nl_peer_fn fn, void *data)
{
	peer_fn = fn;
	peer_data = data;
}

/* The test peer's replies to @nlh, parsed as the kernel's would be. */
static int peer_talk(struct nlmsghdr *nlh, struct nl_reply *st)
{
	struct strbuf sb = { 0 };
	int r = peer_fn(peer_data, nlh, &sb);

	if (!r)
		r = nl_reply_parse(sb.buf, sb.len, st);
	if (!r && !st->done)
		r = -EPROTO;
	strbuf_release(&sb);
	return r;
}

/* Send @nlh and read replies until the ack (or NLMSG_DONE for a dump). */
int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, nl_msg_cb cb,
		   void *data, char **errmsg)
{
	struct nl_reply st = { .portid = mnl_socket_get_portid(nl),
			       .seq = nlh->nlmsg_seq, .cb = cb, .data = data,
			       .errmsg = errmsg };
	size_t size = 32768, len = 0;
	char *buf = NULL;
	int r = 0;

	if (peer_fn) {
		r = peer_talk(nlh, &st);
		return !r && st.intr ? -EINTR : r;
	}
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (!st.done && r == 0) {
		r = nl_recv(nl, &buf, &size, &len);
		if (r == 0)
			r = nl_reply_parse(buf, len, &st);
	}
	if (!r && st.intr)
		r = -EINTR;
	free(buf);
	return r;
}

/* Does the controller's op list name DYNDBG_CMD_GET_FEATURES? */
static bool ops_have_get_features(const struct nlattr *ops)
{
	const struct nlattr *op, *a;

	mnl_attr_for_each_nested(op, ops) {
		if (mnl_attr_validate(op, MNL_TYPE_NESTED) < 0)
			continue;
		mnl_attr_for_each_nested(a, op)
			if (mnl_attr_get_type(a) == CTRL_ATTR_OP_ID &&
			    mnl_attr_validate(a, MNL_TYPE_U32) == 0 &&
			    mnl_attr_get_u32(a) == DYNDBG_CMD_GET_FEATURES)
				return true;
	}
	return false;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_family *f = data;
	const struct nlattr *grp, *a;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_OPS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) == 0)
			f->get_features = ops_have_get_features(attr);
		break;
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			f->id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			break;
		mnl_attr_for_each_nested(grp, attr) {
			const char *name = NULL;
			uint32_t id = 0;

			if (mnl_attr_validate(grp, MNL_TYPE_NESTED) < 0)
				continue;
			mnl_attr_for_each_nested(a, grp) {
				if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
				    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
					name = mnl_attr_get_str(a);
				else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
					 mnl_attr_validate(a, MNL_TYPE_U32) == 0)
					id = mnl_attr_get_u32(a);
			}
			if (name && !strcmp(name, DYNDBG_MCGRP_NOTIFY))
				f->notify_group = id;
		}
		break;
	}
	return MNL_CB_OK;
}

int nl_family_parse(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, data);
	return 0;
}

/* The request for the "dyndbg" family's id and groups. */
struct nlmsghdr *nl_build_getfamily(struct ddctl_ctx *ctx, char *buf, size_t size)
{
	struct nlmsghdr *nlh = nl_request(ctx, buf, size, GENL_ID_CTRL, NLM_F_ACK,
					  CTRL_CMD_GETFAMILY);

	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DYNDBG_GENL_NAME);
	return nlh;
}

static int nl_resolve(struct ddctl_ctx *ctx, struct mnl_socket *nl,
		      struct nl_family *f)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = nl_build_getfamily(ctx, buf, sizeof(buf));
	int r;

	memset(f, 0, sizeof(*f));
	r = nl_talk(nl, nlh, nl_family_parse, f, NULL);
	if (r == 0 && !f->id)
		r = -ENOENT;
	return r;
}

static int features_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_features *ft = data;
	uint32_t *field[DYNDBG_A_MAX + 1] = {
		[DYNDBG_A_QUERIES_MAX] = &ft->queries_max,
		[DYNDBG_A_FEATURES] = &ft->features,
		[DYNDBG_A_VALID_FLAGS] = &ft->valid_flags,
		[DYNDBG_A_GENERATION] = &ft->generation,
	};
	unsigned int t = mnl_attr_get_type(attr);

	if (t <= DYNDBG_A_MAX && field[t] &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		*field[t] = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

int nl_features_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), features_attr_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

/*
 * GET_FEATURES, kept in the context: a reply without QUERIES_MAX or
 * VALID_FLAGS gets the uapi header's number and the flags every kernel
 * has (pmflts).
 */
static int nl_ask_features(struct ddctl_ctx *ctx, struct mnl_socket *nl,
			   uint16_t id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nl_features ft = { 0 };
	struct nlmsghdr *nlh = nl_request(ctx, buf, sizeof(buf), id, NLM_F_ACK,
					  DYNDBG_CMD_GET_FEATURES);
	int r = nl_talk(nl, nlh, nl_features_parse, &ft, NULL);

	if (r < 0)
		return r;
	if (!ft.queries_max)
		ft.queries_max = DYNDBG_QUERIES_MAX;
	if (!ft.valid_flags)
		ft.valid_flags = NL_FLAGS_BASE;
	dbg(ctx, "dyndbg family: at most %u queries per exec, features 0x%x, flags 0x%x\n",
	    ft.queries_max, ft.features, ft.valid_flags);
	ctx_set_nl_features(ctx, ft.queries_max, ft.features, ft.valid_flags);
	return 0;
}

static int nl_find(struct ddctl_ctx *ctx, struct mnl_socket *nl,
		   struct nl_family *f)
{
	uint32_t max, features, valid;
	int r = nl_resolve(ctx, nl, f);

	if (r < 0)
		return r;
	if (!f->get_features) {
		dbg(ctx, "the kernel's dyndbg netlink family has no GET_FEATURES (the v2 series' text family): not used, the control file instead\n");
		return -ENOENT;
	}
	ctx_get_nl_features(ctx, &max, &features, &valid);
	if (!max) {
		r = nl_ask_features(ctx, nl, f->id);
		if (r < 0) {
			dbg(ctx, "the dyndbg family's GET_FEATURES failed (%s): not used\n",
			    strerror(-r));
			return r;
		}
	}
	ctx_set_nl_family(ctx, f->id);
	return 0;
}

/*
 * Open a socket and find the family: its id from the context once known
 * (the family is built in, its id does not change), the kernel asked again
 * only when the caller needs the multicast group too.
 */
int nl_connect(struct ddctl_ctx *ctx, bool need_group,
		      struct mnl_socket **nl, struct nl_family *f)
{
	int r = nl_open(ctx, nl);

	if (r < 0) {
		*nl = NULL;
		return r;
	}
	memset(f, 0, sizeof(*f));
	if (ctx_get_nl_family(ctx) && !need_group) {
		f->id = (uint16_t)ctx_get_nl_family(ctx);
		f->get_features = true;
		return 0;
	}
	r = nl_find(ctx, *nl, f);
	if (r < 0) {
		mnl_socket_close(*nl);
		*nl = NULL;
		return r;
	}
	return 0;
}
