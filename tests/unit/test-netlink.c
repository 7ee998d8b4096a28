// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The netlink backend's parsers, fed messages built in a buffer (as the
 * kernel's "dyndbg" family would send them).
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "testlib.h"
#include "kernel/dyndbg.h"
#include "kernel/monitor.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"
#include "util/util.h"

static struct nlmsghdr *msg(char *buf, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = 0x20;
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

static void put_result(struct nlmsghdr *nlh, uint32_t idx, uint32_t m, uint32_t c)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY_RESULT);

	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_INDEX, idx);
	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_MATCHED, m);
	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_CHANGED, c);
	mnl_attr_nest_end(nlh, n);
}

static void test_exec_reply(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_EXEC);
	unsigned int matched[3] = { 0 }, changed[3] = { 0 };
	struct backend_result res = { .nqueries = 2, .matched = matched, .changed = changed };

	put_result(nlh, 1, 10, 4);
	put_result(nlh, 2, 10, 10);
	put_result(nlh, 7, 1, 1); /* out of range: ignored */
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, 6);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 6);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 2);
	assert_int_equal(matched[0], 10);
	assert_int_equal(changed[0], 4);
	assert_int_equal(changed[1], 10);
	assert_int_equal(res.keys_patched, 6);
	assert_int_equal(res.sites_changed, 6);
}

static void put_site(struct nlmsghdr *nlh, const char *mod, const char *file,
		     const char *func, uint32_t line, const char *fmt,
		     uint32_t flags, const char *cls, int cls_id)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, mod);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FILE, file);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FUNCTION, func);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_LINE, line);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FORMAT, fmt);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_FLAGS, flags);
	if (cls)
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_CLASS, cls);
	if (cls_id >= 0)
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_CLASS_ID, (uint32_t)cls_id);
	mnl_attr_nest_end(nlh, n);
}

/* A dump becomes a table equal to the control file's. */
static void test_dump_to_table(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	struct strbuf sb = { 0 };
	char buf[4096];
	struct nlmsghdr *nlh;
	const struct ddctl_site *s;

	strbuf_adds(&sb, "# filename:lineno [module]function flags format\n");
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "virtio", "drivers/virtio/virtio.c", "virtio_dev_probe", 300,
		 "probe %s\t\"x\"\n", 1 | 4, NULL, -1);
	assert_int_equal(nl_get_parse(nlh, &sb), 0);
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "test_dynamic_debug", "lib/test_dynamic_debug.c", "do_cats", 50,
		 "LOW msg\n", 0, "LOW", 1);
	assert_int_equal(nl_get_parse(nlh, &sb), 0);
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "test_dynamic_debug", "lib/test_dynamic_debug.c", "do_cats", 51,
		 "MID msg\n", 0, NULL, 13);
	assert_int_equal(nl_get_parse(nlh, &sb), 0);
	assert_int_equal(ddctl_table_new_from_buffer(ctx, sb.buf, sb.len, &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 3);
	s = ddctl_table_get_site(t, 0);
	assert_string_equal(ddctl_site_get_format(s), "probe %s\t\"x\"\n");
	assert_int_equal(ddctl_site_get_flags(s), DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME);
	assert_string_equal(ddctl_site_get_class(ddctl_table_get_site(t, 1)), "LOW");
	assert_int_equal(ddctl_site_get_class_id(ddctl_table_get_site(t, 2)), 13);
	/* a site without its required attributes is refused */
	nlh = msg(buf, DYNDBG_CMD_GET);
	{
		struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, "m");
		mnl_attr_nest_end(nlh, n);
	}
	assert_int_equal(nl_get_parse(nlh, &sb), -EBADMSG);
	strbuf_release(&sb);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_event(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	struct ddctl_event ev;

	mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, "module virtio* +p");
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 12);
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, 12);
	assert_int_equal(nl_event_parse(nlh, &ev), 0);
	assert_string_equal(ev.queries, "module virtio* +p");
	assert_int_equal(ev.sites_changed, 12);
	assert_int_equal(ev.keys_patched, 12);
	nlh = msg(buf, DYNDBG_CMD_EXEC);
	assert_int_equal(nl_event_parse(nlh, &ev), -ENOMSG);
}

/* NLMSG_ERROR with NETLINK_CAP_ACK and an extended-ack message. */
static void test_extack(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EINVAL;
	e->msg.nlmsg_len = 200; /* the request's length; capped: not echoed */
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG,
			  "query 2 \"modul x +p\": unknown keyword \"modul\"");
	assert_string_equal(nl_extack_msg(nlh),
			    "query 2 \"modul x +p\": unknown keyword \"modul\"");
	nlh->nlmsg_flags = NLM_F_CAPPED;
	assert_null(nl_extack_msg(nlh));
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(*(int *)data)++;
	return 0;
}

/* nlmsg_len >= 2^31 must not pass the length check (an int cast did). */
static void test_reply_huge_len(void **state)
{
	char buf[64] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int calls = 0;
	struct nl_reply st = { .cb = count_cb, .data = &calls };

	nlh->nlmsg_len = 0x80000010u;
	nlh->nlmsg_type = 0x20;
	assert_int_equal(nl_reply_parse(buf, sizeof(buf), &st), -EBADMSG);
	assert_int_equal(calls, 0);
	nlh->nlmsg_len = 0xfffffff0u;
	assert_int_equal(nl_reply_parse(buf, sizeof(buf), &st), -EBADMSG);
	assert_int_equal(calls, 0);
}

/* An NLMSG_ERROR too short for its struct nlmsgerr is malformed. */
static void test_reply_short_error(void **state)
{
	char buf[64] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nl_reply st = { 0 };

	nlh->nlmsg_len = sizeof(*nlh); /* no payload; zeros follow it */
	nlh->nlmsg_type = NLMSG_ERROR;
	assert_int_equal(nl_reply_parse(buf, sizeof(*nlh), &st), -EBADMSG);
}

/* A positive error is no success. */
static void test_reply_positive_error(void **state)
{
	char buf[64] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;
	struct nl_reply st = { 0 };

	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = 5;
	assert_int_equal(nl_reply_parse(buf, nlh->nlmsg_len, &st), -EPROTO);
	e->error = 0;
	st.done = false;
	assert_int_equal(nl_reply_parse(buf, nlh->nlmsg_len, &st), 0);
	assert_true(st.done);
	e->error = -EPERM;
	st.done = false;
	assert_int_equal(nl_reply_parse(buf, nlh->nlmsg_len, &st), -EPERM);
}

/* A site whose attribute @bad (0: none) has the wrong type or length. */
static struct nlmsghdr *site_with_bad(char *buf, int bad)
{
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_GET);
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, "m");
	if (bad == DYNDBG_A_SITE_FILE)
		mnl_attr_put(nlh, DYNDBG_A_SITE_FILE, 3, "abc"); /* no NUL */
	else
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FILE, "a.c");
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FUNCTION, "f");
	if (bad == DYNDBG_A_SITE_LINE)
		mnl_attr_put_u16(nlh, DYNDBG_A_SITE_LINE, 1); /* u16, not u32 */
	else
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_LINE, 1);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FORMAT, "x");
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_FLAGS, 0);
	if (bad == DYNDBG_A_SITE_CLASS)
		mnl_attr_put(nlh, DYNDBG_A_SITE_CLASS, 2, "LO"); /* no NUL */
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* Site attributes of the wrong type or length: the message is refused. */
static void test_site_bad_attrs(void **state)
{
	static const int bad[] = { DYNDBG_A_SITE_FILE, DYNDBG_A_SITE_LINE,
				   DYNDBG_A_SITE_CLASS };
	char buf[4096];
	struct strbuf sb = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(nl_get_parse(site_with_bad(buf, bad[i]), &sb), -EBADMSG);
	assert_true(sb.len == 0);
	assert_int_equal(nl_get_parse(site_with_bad(buf, 0), &sb), 0);
	assert_non_null(strstr(sb.buf, "a.c:1 [m]f =_ \"x\""));
	strbuf_release(&sb);
}

static void put_group(struct nlmsghdr *nlh, const char *name, size_t name_len,
		      bool id_u16, uint32_t id)
{
	struct nlattr *g = mnl_attr_nest_start(nlh, 1);

	mnl_attr_put(nlh, CTRL_ATTR_MCAST_GRP_NAME, name_len, name);
	if (id_u16)
		mnl_attr_put_u16(nlh, CTRL_ATTR_MCAST_GRP_ID, (uint16_t)id);
	else
		mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, id);
	mnl_attr_nest_end(nlh, g);
}

static void test_family_attrs(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, CTRL_CMD_NEWFAMILY);
	struct nlattr *n;
	struct nl_family f = { 0 };

	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x1d);
	n = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, "notify", 6, false, 9);  /* name without its NUL */
	put_group(nlh, "notify", 7, true, 10);  /* id of 2 bytes */
	mnl_attr_nest_end(nlh, n);
	nl_family_parse(nlh, &f);
	assert_int_equal(f.id, 0x1d);
	assert_int_equal(f.notify_group, 0);
	nlh = msg(buf, CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x1d);
	n = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, "other", 6, false, 3);
	put_group(nlh, "notify", 7, false, 11);
	mnl_attr_nest_end(nlh, n);
	nl_family_parse(nlh, &f);
	assert_int_equal(f.notify_group, 11);
}

/* An extended ack whose echoed header is shorter than a header. */
static void test_extack_short_echo(void **state)
{
	char buf[256] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_ACK_TLVS; /* not capped: the request is echoed */
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EINVAL;
	/* 4 < 16: off would wrap to point inside e->msg, which reads as an
	 * NLMSGERR_ATTR_MSG attribute "abc" */
	e->msg.nlmsg_len = 4;
	e->msg.nlmsg_type = 8;
	e->msg.nlmsg_flags = NLMSGERR_ATTR_MSG;
	memcpy(&e->msg.nlmsg_seq, "abc", 4);
	assert_null(nl_extack_msg(nlh));
	/* no room for the struct nlmsgerr at all */
	nlh->nlmsg_len = sizeof(*nlh) + 4;
	assert_null(nl_extack_msg(nlh));
}

/* Requests: every byte initialised, sequence numbers that differ. */
static void test_request_bytes(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char a[256], b[256];
	struct nlmsghdr *na, *nb;
	uint32_t now = (uint32_t)time(NULL);
	size_t i;

	memset(a, 0xAA, sizeof(a));
	memset(b, 0xAA, sizeof(b));
	na = nl_build_getfamily(ctx, a, sizeof(a));
	nb = nl_build_getfamily(ctx, b, sizeof(b));
	for (i = 0; i < na->nlmsg_len; i++)
		if ((unsigned char)a[i] == 0xAA)
			fail_msg("byte %zu of %u of the family request is not initialised",
				 i, na->nlmsg_len);
	assert_int_not_equal(na->nlmsg_seq, nb->nlmsg_seq);
	assert_true(na->nlmsg_seq - now > 5 && now - na->nlmsg_seq > 5);
	ddctl_unref(ctx);
}

/* A second netlink socket sends to @to's port: @len bytes. */
static void send_to(struct mnl_socket *to, const void *data, size_t len)
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

static struct mnl_socket *receiver(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);

	assert_non_null(nl);
	assert_int_equal(mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID), 0);
	return nl;
}

/* A reply larger than the first buffer (an EXEC of ~1,500 queries). */
static void test_recv_large(void **state)
{
	struct mnl_socket *nl = receiver();
	size_t size = 32768, len = 0;
	char *big = calloc(1, 60000), *buf = NULL;

	memset(big, 'x', 60000);
	send_to(nl, big, 60000);
	assert_int_equal(nl_recv(nl, &buf, &size, &len), 0);
	assert_int_equal(len, 60000);
	assert_memory_equal(buf, big, 60000);
	free(buf);
	free(big);
	mnl_socket_close(nl);
}

static int got_event(const struct ddctl_event *ev, void *data)
{
	*(size_t *)data = strlen(ev->queries);
	return 0;
}

/* A notification carrying a set of ~6 KB reaches the monitor whole. */
static void test_monitor_large(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_monitor *m = NULL;
	struct mnl_socket *nl = receiver();
	char *buf = calloc(1, 8192), *q = malloc(6001);
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	size_t got = 0;

	memset(q, 'q', 6000);
	q[6000] = '\0';
	mnl_attr_put_strz(nlh, DYNDBG_A_QUERIES, q);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 1);
	assert_int_equal(nl_monitor_new_socket(ctx, nl, &m), 0);
	send_to(nl, nlh, nlh->nlmsg_len);
	assert_int_equal(ddctl_monitor_read(m, got_event, &got), 0);
	assert_int_equal(got, 6000);
	ddctl_monitor_free(m);
	free(q);
	free(buf);
	ddctl_unref(ctx);
}

/*
 * The kernel reports each query once, in order: a repeated or skipped
 * index must not make an incomplete reply look complete (found by
 * fuzz-netlink: two results for query 1 counted as two queries).
 */
static void test_exec_reply_repeated_index(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_EXEC);
	unsigned int matched[2] = { 0 }, changed[2] = { 0 };
	struct backend_result res = { .nqueries = 2, .matched = matched, .changed = changed };

	put_result(nlh, 1, 10, 4);
	put_result(nlh, 1, 99, 99);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 1);
	assert_int_equal(matched[0], 10);
	nlh = msg(buf, DYNDBG_CMD_EXEC);
	res.reported = 0;
	put_result(nlh, 2, 5, 5);
	put_result(nlh, 1, 3, 3);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 1);
	assert_int_equal(matched[0], 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_reply),
		cmocka_unit_test(test_exec_reply_repeated_index),
		cmocka_unit_test(test_dump_to_table),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_extack),
		cmocka_unit_test(test_reply_huge_len),
		cmocka_unit_test(test_reply_short_error),
		cmocka_unit_test(test_reply_positive_error),
		cmocka_unit_test(test_site_bad_attrs),
		cmocka_unit_test(test_family_attrs),
		cmocka_unit_test(test_extack_short_echo),
		cmocka_unit_test(test_request_bytes),
		cmocka_unit_test(test_recv_large),
		cmocka_unit_test(test_monitor_large),
	};

	return cmocka_run_group_tests_name("netlink", tests, NULL, NULL);
}
