/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Netlink messages for the tests of kernel/netlink.c, dyndbg.c and
 * monitor.c, and a fake kernel peer (nl_set_peer()) that answers the
 * controller and the dyndbg family as a kernel of uapi v3 (or the v2
 * series' text family, without GET_FEATURES) would, keeping a copy of
 * every request so a test can check the exact attributes sent.
 */
#ifndef DDCTL_NLTEST_H
#define DDCTL_NLTEST_H

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kernel/netlink.h"
#include "util/strbuf.h"
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

/* ---- the library's log, kept for a test to search ---- */

static char logbuf[8192];

static inline void log_to_buf(void *data, int priority, const char *file,
			      int line, const char *fn, const char *format,
			      va_list args)
{
	size_t n = strlen(logbuf);

	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(logbuf + n, sizeof(logbuf) - n, format, args);
}

/* ---- the fake peer ---- */

#define PEER_FAMILY_ID 0x20
#define PEER_MAX_REQ 16

struct peer {
	bool family;          /* the controller knows "dyndbg" */
	bool get_features_op; /* its op list has DYNDBG_CMD_GET_FEATURES */
	bool results;         /* EXEC replies carry per-query results */
	uint32_t queries_max, features, valid_flags, generation;
	unsigned int intr;    /* dumps still to mark NLM_F_DUMP_INTR */
	int refuse;           /* EXEC fails with this errno (0: accepted) */
	unsigned int getfamily, getfeatures, execs, dumps;
	size_t nreq;
	struct nlmsghdr *req[PEER_MAX_REQ]; /* EXEC and GET requests, copied */
	size_t exec_queries[PEER_MAX_REQ];  /* QUERY attrs of each EXEC */
};

static inline void peer_add(struct strbuf *sb, struct nlmsghdr *nlh)
{
	assert_int_equal(strbuf_add(sb, (const char *)nlh,
				    NLMSG_ALIGN(nlh->nlmsg_len)), 0);
}

static inline void peer_ack(struct strbuf *sb, const struct nlmsghdr *req,
			    int error)
{
	char buf[256] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	e->error = error;
	e->msg = *req;
	peer_add(sb, nlh);
}

static inline struct nlmsghdr *peer_msg(char *buf, const struct nlmsghdr *req,
					uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = req->nlmsg_seq;
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

static inline void peer_family(struct peer *p, const struct nlmsghdr *req,
			       struct strbuf *sb)
{
	static const uint32_t ops[] = { DYNDBG_CMD_EXEC, DYNDBG_CMD_GET,
					DYNDBG_CMD_GET_FEATURES };
	char buf[4096] = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *list, *op, *grp;
	size_t i, nops = p->get_features_op ? 3 : 2;

	p->getfamily++;
	if (!p->family) {
		peer_ack(sb, req, -ENOENT);
		return;
	}
	nlh = peer_msg(buf, req, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "dyndbg");
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, PEER_FAMILY_ID);
	list = mnl_attr_nest_start(nlh, CTRL_ATTR_OPS);
	for (i = 0; i < nops; i++) {
		op = mnl_attr_nest_start(nlh, (uint16_t)(i + 1));
		mnl_attr_put_u32(nlh, CTRL_ATTR_OP_ID, ops[i]);
		mnl_attr_put_u32(nlh, CTRL_ATTR_OP_FLAGS, 0);
		mnl_attr_nest_end(nlh, op);
	}
	mnl_attr_nest_end(nlh, list);
	list = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	grp = mnl_attr_nest_start(nlh, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, "notify");
	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, 9);
	mnl_attr_nest_end(nlh, grp);
	mnl_attr_nest_end(nlh, list);
	peer_add(sb, nlh);
	peer_ack(sb, req, 0);
}

static inline size_t peer_count_queries(const struct nlmsghdr *req)
{
	const struct nlattr *a;
	size_t n = 0;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr))
		n += mnl_attr_get_type(a) == DYNDBG_A_QUERY;
	return n;
}

static inline void peer_keep(struct peer *p, const struct nlmsghdr *req)
{
	assert_true(p->nreq < PEER_MAX_REQ);
	p->req[p->nreq] = malloc(req->nlmsg_len);
	assert_non_null(p->req[p->nreq]);
	memcpy(p->req[p->nreq++], req, req->nlmsg_len);
}

static inline void peer_exec(struct peer *p, const struct nlmsghdr *req,
			     struct strbuf *sb)
{
	char *buf = calloc(1, 65536);
	struct nlmsghdr *nlh;
	size_t i, n = peer_count_queries(req);

	assert_non_null(buf);
	p->exec_queries[p->execs++] = n;
	peer_keep(p, req);
	if (p->refuse) {
		peer_ack(sb, req, -p->refuse);
		free(buf);
		return;
	}
	nlh = peer_msg(buf, req, PEER_FAMILY_ID, DYNDBG_CMD_EXEC);
	for (i = 0; p->results && i < n; i++) {
		struct nlattr *r = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY_RESULT);

		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_INDEX, (uint32_t)i + 1);
		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_MATCHED, (uint32_t)i + 10);
		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_CHANGED, (uint32_t)i);
		mnl_attr_nest_end(nlh, r);
	}
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, (uint32_t)n);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, (uint32_t)n);
	mnl_attr_put_u32(nlh, DYNDBG_A_GENERATION, ++p->generation);
	peer_add(sb, nlh);
	peer_ack(sb, req, 0);
	free(buf);
}

/* Two sites per dump, one message each, with the generation. */
static inline void peer_dump(struct peer *p, const struct nlmsghdr *req,
			     struct strbuf *sb)
{
	char buf[4096] = { 0 };
	struct nlmsghdr *nlh;
	bool intr = p->intr > 0;
	int i;

	p->dumps++;
	peer_keep(p, req);
	if (intr)
		p->intr--;
	for (i = 0; i < 2; i++) {
		struct nlattr *n;

		memset(buf, 0, sizeof(buf));
		nlh = peer_msg(buf, req, PEER_FAMILY_ID, DYNDBG_CMD_GET);
		nlh->nlmsg_flags = NLM_F_MULTI | (intr ? NLM_F_DUMP_INTR : 0);
		n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, "virtio");
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FILE, "drivers/virtio/virtio.c");
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FUNCTION, "virtio_dev_probe");
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_LINE, (uint32_t)(300 + i));
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FORMAT, "probe\n");
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_FLAGS, 0);
		mnl_attr_nest_end(nlh, n);
		mnl_attr_put_u32(nlh, DYNDBG_A_GENERATION, p->generation);
		peer_add(sb, nlh);
	}
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI | (intr ? NLM_F_DUMP_INTR : 0);
	nlh->nlmsg_seq = req->nlmsg_seq;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	peer_add(sb, nlh);
}

static inline void peer_features(struct peer *p, const struct nlmsghdr *req,
				 struct strbuf *sb)
{
	char buf[4096] = { 0 };
	struct nlmsghdr *nlh = peer_msg(buf, req, PEER_FAMILY_ID,
					DYNDBG_CMD_GET_FEATURES);

	p->getfeatures++;
	mnl_attr_put_u32(nlh, DYNDBG_A_QUERIES_MAX, p->queries_max);
	mnl_attr_put_u32(nlh, DYNDBG_A_FEATURES, p->features);
	mnl_attr_put_u32(nlh, DYNDBG_A_VALID_FLAGS, p->valid_flags);
	mnl_attr_put_u32(nlh, DYNDBG_A_GENERATION, p->generation);
	peer_add(sb, nlh);
	peer_ack(sb, req, 0);
}

static inline int peer_answer(void *data, const struct nlmsghdr *req,
			      struct strbuf *sb)
{
	struct peer *p = data;
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);

	if (req->nlmsg_type == GENL_ID_CTRL && g->cmd == CTRL_CMD_GETFAMILY)
		peer_family(p, req, sb);
	else if (req->nlmsg_type != PEER_FAMILY_ID)
		peer_ack(sb, req, -EOPNOTSUPP);
	else if (g->cmd == DYNDBG_CMD_EXEC)
		peer_exec(p, req, sb);
	else if (g->cmd == DYNDBG_CMD_GET && (req->nlmsg_flags & NLM_F_DUMP))
		peer_dump(p, req, sb);
	else if (g->cmd == DYNDBG_CMD_GET_FEATURES && p->get_features_op)
		peer_features(p, req, sb);
	else
		peer_ack(sb, req, -EOPNOTSUPP);
	return 0;
}

/* A v3 kernel: GET_FEATURES with @queries_max, negation, classes, dry run. */
static inline void peer_start(struct peer *p, uint32_t queries_max)
{
	memset(p, 0, sizeof(*p));
	p->family = p->get_features_op = p->results = true;
	p->queries_max = queries_max;
	p->features = DYNDBG_FEATURE_NEGATE | DYNDBG_FEATURE_DRY_RUN |
		      DYNDBG_FEATURE_CLASS;
	p->valid_flags = 0x7f;
	p->generation = 41;
	nl_set_peer(peer_answer, p);
}

static inline void peer_stop(struct peer *p)
{
	size_t i;

	nl_set_peer(NULL, NULL);
	for (i = 0; i < p->nreq; i++)
		free(p->req[i]);
	p->nreq = 0;
}

/* ---- a sent query, taken apart ---- */

struct sent_query {
	const struct nlattr *a[DYNDBG_A_QUERY_FLAGS + 1];
};

static inline int sent_query_cb(const struct nlattr *attr, void *data)
{
	struct sent_query *q = data;
	int t = mnl_attr_get_type(attr);

	assert_true(t > 0 && t <= DYNDBG_A_QUERY_FLAGS);
	assert_null(q->a[t]); /* each attribute once */
	q->a[t] = attr;
	return MNL_CB_OK;
}

/* The @n QUERY attrs of request @req, in order; returns their number. */
static inline size_t sent_queries(const struct nlmsghdr *req,
				  struct sent_query *q, size_t n)
{
	const struct nlattr *a;
	size_t k = 0;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != DYNDBG_A_QUERY)
			continue;
		assert_true(k < n);
		memset(&q[k], 0, sizeof(q[k]));
		assert_int_equal(mnl_attr_parse_nested(a, sent_query_cb, &q[k]),
				 MNL_CB_OK);
		k++;
	}
	return k;
}

static inline const char *sent_str(const struct sent_query *q, int t)
{
	if (!q->a[t])
		return NULL;
	assert_int_equal(mnl_attr_validate(q->a[t], MNL_TYPE_NUL_STRING), 0);
	return mnl_attr_get_str(q->a[t]);
}

static inline long sent_u32(const struct sent_query *q, int t)
{
	if (!q->a[t])
		return -1;
	assert_int_equal(mnl_attr_validate(q->a[t], MNL_TYPE_U32), 0);
	return (long)mnl_attr_get_u32(q->a[t]);
}

/* The FLAGS bitfield32 of @q, asserted present. */
static inline void sent_flags(const struct sent_query *q, uint32_t value,
			      uint32_t selector)
{
	const struct nla_bitfield32 *bf;

	assert_non_null(q->a[DYNDBG_A_QUERY_FLAGS]);
	assert_int_equal(mnl_attr_get_payload_len(q->a[DYNDBG_A_QUERY_FLAGS]),
			 sizeof(*bf));
	bf = mnl_attr_get_payload(q->a[DYNDBG_A_QUERY_FLAGS]);
	assert_int_equal(bf->value, value);
	assert_int_equal(bf->selector, selector);
}

#endif
