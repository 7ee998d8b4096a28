// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg "notify" group: a subscription that announces each committed
 * change (the queries, the keys patched, the sites changed, the
 * generation). The kernel sends the queries structured; the event carries
 * them as control-file text, spelt by the library's one formatter.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "core/ctx.h"
#include "kernel/dyndbg.h"
#include "kernel/monitor.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"

struct ddctl_monitor {
	struct ddctl_ctx *ctx;
	struct mnl_socket *nl;
	char *buf;
	size_t size;
};

struct ntf {
	struct ddctl_event *ev;
	struct strbuf *sb;
	uint32_t valid;
};

static int ntf_attr_cb(const struct nlattr *attr, void *data)
{
	struct ntf *n = data;
	struct ddctl_event *ev = n->ev;

	switch (mnl_attr_get_type(attr)) {
	case DYNDBG_A_QUERY:
		if (nl_query_format(attr, n->valid, n->sb) < 0)
			return MNL_CB_ERROR;
		break;
	case DYNDBG_A_GENERATION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ev->generation = mnl_attr_get_u32(attr);
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

int nl_event_parse(const struct nlmsghdr *nlh, uint32_t valid,
		   struct ddctl_event *ev, struct strbuf *sb)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct ntf n = { ev, sb, valid ? valid : NL_FLAGS_BASE };

	memset(ev, 0, sizeof(*ev));
	strbuf_release(sb);
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*g)) ||
	    g->cmd != DYNDBG_CMD_CHANGE_NTF)
		return -ENOMSG;
	if (mnl_attr_parse(nlh, sizeof(*g), ntf_attr_cb, &n) == MNL_CB_ERROR)
		return -EBADMSG;
	/* the lines without the last newline, as the text family sent them */
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		sb->buf[--sb->len] = '\0';
	/* NULL: the kernel left the queries out (more than 16 KiB of them) */
	if (sb->buf)
		ev->queries = sb->buf;
	return 0;
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
	uint32_t valid;
	struct strbuf sb;
};

static int monitor_msg(const struct nlmsghdr *m, void *data)
{
	struct monitor_call *c = data;
	struct ddctl_event ev;

	return nl_event_parse(m, c->valid, &ev, &c->sb) == 0 ?
	       c->fn(&ev, c->data) : 0;
}

DDCTL_EXPORT int ddctl_monitor_read(struct ddctl_monitor *m,
				    int (*fn)(const struct ddctl_event *ev,
					      void *data),
				    void *data)
{
	struct monitor_call c = { fn, data, 0, { 0 } };
	uint32_t max, features;
	size_t n;
	int r = nl_recv(m->nl, &m->buf, &m->size, &n);

	if (r < 0)
		return r;
	ctx_get_nl_features(m->ctx, &max, &features, &c.valid);
	r = nl_walk(m->buf, n, monitor_msg, &c);
	strbuf_release(&c.sb);
	return r;
}
