// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The generic netlink backend: the "dyndbg" family of patched kernels
 * (kernel-patches/, part 2). EXEC runs a query set as one transaction
 * (or a dry run) and reports per-query counts; GET dumps the callsites;
 * the "notify" group announces committed changes. Built on libmnl, with
 * NETLINK_EXT_ACK so the kernel's message for a refused query reaches
 * the caller.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libddctl-private.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

int nl_open(struct ddctl_ctx *ctx, struct mnl_socket **out)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
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
	nlh->nlmsg_seq = ++ctx->nl_seq;
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
	ssize_t n = recv(mnl_socket_get_fd(nl), NULL, 0, MSG_PEEK | MSG_TRUNC);

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
	n = mnl_socket_recvfrom(nl, *buf, *size);
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
static int nl_walk(const void *buf, size_t len,
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

/* Send @nlh and read replies until the ack (or NLMSG_DONE for a dump). */
static int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, nl_msg_cb cb,
		   void *data, char **errmsg)
{
	struct nl_reply st = { .portid = mnl_socket_get_portid(nl),
			       .seq = nlh->nlmsg_seq, .cb = cb, .data = data,
			       .errmsg = errmsg };
	size_t size = 32768, len = 0;
	char *buf = NULL;
	int r = 0;

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

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_family *f = data;
	const struct nlattr *grp, *a;

	switch (mnl_attr_get_type(attr)) {
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

/*
 * Open a socket and find the family: its id from the context once known
 * (the family is built in, its id does not change), the kernel asked again
 * only when the caller needs the multicast group too.
 */
static int nl_connect(struct ddctl_ctx *ctx, bool need_group,
		      struct mnl_socket **nl, struct nl_family *f)
{
	int r = nl_open(ctx, nl);

	if (r < 0) {
		*nl = NULL;
		return r;
	}
	memset(f, 0, sizeof(*f));
	if (ctx->nl_family && !need_group) {
		f->id = (uint16_t)ctx->nl_family;
		return 0;
	}
	r = nl_resolve(ctx, *nl, f);
	if (r < 0) {
		mnl_socket_close(*nl);
		*nl = NULL;
		return r;
	}
	ctx->nl_family = f->id;
	return 0;
}

int nl_probe(struct ddctl_ctx *ctx)
{
	struct mnl_socket *nl;
	struct nl_family f;
	int r = nl_connect(ctx, true, &nl, &f);

	if (r == 0)
		mnl_socket_close(nl);
	return r;
}

/* ---- EXEC ---- */

static int result_cb(const struct nlattr *attr, void *data)
{
	uint32_t *v = data;
	int t = mnl_attr_get_type(attr);

	if (t >= DYNDBG_A_QUERY_RESULT_INDEX && t <= DYNDBG_A_QUERY_RESULT_CHANGED &&
	    mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		v[t] = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int exec_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_exec_result *res = data;
	uint32_t v[DYNDBG_A_QUERY_RESULT_CHANGED + 1] = { 0 };

	switch (mnl_attr_get_type(attr)) {
	case DYNDBG_A_QUERY_RESULT:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		mnl_attr_parse_nested(attr, result_cb, v);
		/* the kernel reports each query once, in order: anything else
		 * is not counted, so an incomplete reply never looks whole */
		if (v[DYNDBG_A_QUERY_RESULT_INDEX] == res->reported + 1 &&
		    v[DYNDBG_A_QUERY_RESULT_INDEX] <= res->nqueries) {
			size_t i = v[DYNDBG_A_QUERY_RESULT_INDEX] - 1;

			res->matched[i] = v[DYNDBG_A_QUERY_RESULT_MATCHED];
			res->changed[i] = v[DYNDBG_A_QUERY_RESULT_CHANGED];
			res->reported++;
		}
		break;
	case DYNDBG_A_KEYS_PATCHED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			res->keys_patched = mnl_attr_get_u32(attr);
		break;
	case DYNDBG_A_SITES_CHANGED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			res->sites_changed = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

int nl_exec_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), exec_attr_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

#define EXEC_RCVBUF (1 << 20)

int nl_exec(struct ddctl_ctx *ctx, const char *queries, bool dry_run,
	    struct nl_exec_result *res, char **errmsg)
{
	size_t len = strlen(queries) + 1;
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	char *buf;
	int r;

	if (len > 0xffff - 64)
		return -E2BIG;
	buf = malloc(len + 1024);
	if (!buf)
		return -ENOMEM;
	r = nl_connect(ctx, false, &nl, &f);
	if (!r) {
		/*
		 * The reply (28 bytes per query: ~150 KB for the 5,000 queries
		 * a 16 KiB set can hold) and the ACK behind it must both fit,
		 * or the ACK is dropped and recv() fails with ENOBUFS although
		 * the set was applied. SO_RCVBUFFORCE passes rmem_max with
		 * CAP_NET_ADMIN, which EXEC needs anyway.
		 */
		int sz = EXEC_RCVBUF;

		if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE,
			       &sz, sizeof(sz)) < 0)
			setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF,
				   &sz, sizeof(sz));
		nlh = nl_request(ctx, buf, len + 1024, f.id, NLM_F_ACK,
				 DYNDBG_CMD_EXEC);
		mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, queries);
		if (dry_run)
			mnl_attr_put(nlh, DYNDBG_A_DRY_RUN, 0, NULL);
		r = nl_talk(nl, nlh, nl_exec_parse, res, errmsg);
	}
	if (nl)
		mnl_socket_close(nl);
	free(buf);
	return r;
}

/* ---- GET: the callsites, written out in the control-file format ---- */

/* Each known site attribute, of its type: strings with their NUL. */
static int site_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int t = mnl_attr_get_type(attr);
	enum mnl_attr_data_type type = MNL_TYPE_NUL_STRING;

	if (t <= 0 || t > DYNDBG_A_SITE_CLASS_ID)
		return MNL_CB_OK;
	if (t == DYNDBG_A_SITE_LINE || t == DYNDBG_A_SITE_FLAGS ||
	    t == DYNDBG_A_SITE_CLASS_ID)
		type = MNL_TYPE_U32;
	if (mnl_attr_validate(attr, type) < 0)
		return MNL_CB_ERROR;
	tb[t] = attr;
	return MNL_CB_OK;
}

static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			strbuf_adds(sb, "\\n");
		else if (*s == '\t')
			strbuf_adds(sb, "\\t");
		else if (*s == '\r')
			strbuf_adds(sb, "\\r");
		else
			strbuf_addch(sb, *s);
	}
}

static int site_nest_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr *tb[DYNDBG_A_SITE_CLASS_ID + 1] = { 0 };
	struct strbuf *sb = data;
	char flags[DDCTL_FLAGS_BUFSZ];

	if (mnl_attr_get_type(attr) != DYNDBG_A_SITE)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, site_attr_cb, tb) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[DYNDBG_A_SITE_MODULE] || !tb[DYNDBG_A_SITE_FILE] ||
	    !tb[DYNDBG_A_SITE_FUNCTION] || !tb[DYNDBG_A_SITE_LINE] ||
	    !tb[DYNDBG_A_SITE_FORMAT] || !tb[DYNDBG_A_SITE_FLAGS])
		return MNL_CB_ERROR;
	strbuf_addf(sb, "%s:%u [%s]%s %s \"", mnl_attr_get_str(tb[DYNDBG_A_SITE_FILE]),
		    mnl_attr_get_u32(tb[DYNDBG_A_SITE_LINE]),
		    mnl_attr_get_str(tb[DYNDBG_A_SITE_MODULE]),
		    mnl_attr_get_str(tb[DYNDBG_A_SITE_FUNCTION]),
		    ddctl_flags_format(mnl_attr_get_u32(tb[DYNDBG_A_SITE_FLAGS]), flags));
	add_escaped(sb, mnl_attr_get_str(tb[DYNDBG_A_SITE_FORMAT]));
	strbuf_addch(sb, '"');
	if (tb[DYNDBG_A_SITE_CLASS])
		strbuf_addf(sb, " class:%s", mnl_attr_get_str(tb[DYNDBG_A_SITE_CLASS]));
	else if (tb[DYNDBG_A_SITE_CLASS_ID])
		strbuf_addf(sb, " class unknown, _id:%u",
			    mnl_attr_get_u32(tb[DYNDBG_A_SITE_CLASS_ID]));
	return strbuf_addch(sb, '\n') < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

int nl_get_parse(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), site_nest_cb,
			      data) == MNL_CB_ERROR ? -EBADMSG : 0;
}

int nl_dump(struct ddctl_ctx *ctx, const char *filter, char **text)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct strbuf sb = { 0 };
	struct mnl_socket *nl = NULL;
	struct nlmsghdr *nlh;
	struct nl_family f;
	int r;

	r = nl_connect(ctx, false, &nl, &f);
	if (!r) {
		nlh = nl_request(ctx, buf, sizeof(buf), f.id, NLM_F_DUMP,
				 DYNDBG_CMD_GET);
		if (filter)
			mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, filter);
		strbuf_adds(&sb, "# filename:lineno [module]function flags format\n");
		r = nl_talk(nl, nlh, nl_get_parse, &sb, NULL);
	}
	if (nl)
		mnl_socket_close(nl);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

/* ---- notifications ---- */

struct ddctl_monitor {
	struct ddctl_ctx *ctx;
	struct mnl_socket *nl;
	char *buf;
	size_t size;
};

static int ntf_attr_cb(const struct nlattr *attr, void *data)
{
	struct ddctl_event *ev = data;

	switch (mnl_attr_get_type(attr)) {
	case DYNDBG_A_QUERIES:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			ev->queries = mnl_attr_get_str(attr);
		break;
	case DYNDBG_A_KEYS_PATCHED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ev->keys_patched = mnl_attr_get_u32(attr);
		break;
	case DYNDBG_A_SITES_CHANGED:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ev->sites_changed = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

int nl_event_parse(const struct nlmsghdr *nlh, struct ddctl_event *ev)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	memset(ev, 0, sizeof(*ev));
	ev->queries = "";
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*g)) ||
	    g->cmd != DYNDBG_CMD_CHANGE_NTF)
		return -ENOMSG;
	return mnl_attr_parse(nlh, sizeof(*g), ntf_attr_cb, ev) == MNL_CB_ERROR ?
		       -EBADMSG : 0;
}

int nl_monitor_new_socket(struct ddctl_ctx *ctx, struct mnl_socket *nl,
			  struct ddctl_monitor **out)
{
	struct ddctl_monitor *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->ctx = ddctl_ref(ctx);
	m->nl = nl;
	m->size = MNL_SOCKET_BUFFER_SIZE;
	*out = m;
	return 0;
}

DDCTL_EXPORT int ddctl_monitor_new(struct ddctl_ctx *ctx,
				   struct ddctl_monitor **out)
{
	struct mnl_socket *nl = NULL;
	struct nl_family f;
	int r;

	r = nl_connect(ctx, true, &nl, &f);
	if (!r && !f.notify_group)
		r = -ENOENT;
	if (!r && mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP,
					&f.notify_group, sizeof(f.notify_group)) < 0)
		r = -errno;
	if (!r)
		r = nl_monitor_new_socket(ctx, nl, out);
	if (r < 0 && nl)
		mnl_socket_close(nl);
	return r;
}

DDCTL_EXPORT void ddctl_monitor_free(struct ddctl_monitor *m)
{
	if (!m)
		return;
	mnl_socket_close(m->nl);
	ddctl_unref(m->ctx);
	free(m->buf);
	free(m);
}

DDCTL_EXPORT int ddctl_monitor_get_fd(const struct ddctl_monitor *m)
{
	return mnl_socket_get_fd(m->nl);
}

struct monitor_call {
	int (*fn)(const struct ddctl_event *ev, void *data);
	void *data;
};

static int monitor_msg(const struct nlmsghdr *m, void *data)
{
	struct monitor_call *c = data;
	struct ddctl_event ev;

	return nl_event_parse(m, &ev) == 0 ? c->fn(&ev, c->data) : 0;
}

DDCTL_EXPORT int ddctl_monitor_read(struct ddctl_monitor *m,
				    int (*fn)(const struct ddctl_event *ev,
					      void *data),
				    void *data)
{
	struct monitor_call c = { fn, data };
	size_t n;
	int r = nl_recv(m->nl, &m->buf, &m->size, &n);

	return r < 0 ? r : nl_walk(m->buf, n, monitor_msg, &c);
}
