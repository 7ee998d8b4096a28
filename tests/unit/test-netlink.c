// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The generic netlink transport (kernel/netlink.c): replies walked with
 * every length checked, extended acks, the family, requests, receiving
 * whole datagrams; fed messages built in a buffer.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nltest.h"
#include "testlib.h"
#include "kernel/dyndbg.h"
#include "kernel/monitor.h"
#include "kernel/netlink.h"
#include "util/strbuf.h"
#include "util/util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extack),
		cmocka_unit_test(test_reply_huge_len),
		cmocka_unit_test(test_reply_short_error),
		cmocka_unit_test(test_reply_positive_error),
		cmocka_unit_test(test_family_attrs),
		cmocka_unit_test(test_extack_short_echo),
		cmocka_unit_test(test_request_bytes),
		cmocka_unit_test(test_recv_large),
	};

	return cmocka_run_group_tests_name("netlink", tests, NULL, NULL);
}
