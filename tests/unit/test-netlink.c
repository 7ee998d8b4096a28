// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netlink backend's parsers, fed messages built in a buffer (as the
 * kernel's "dyndbg" family would send them).
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "testlib.h"
#include "libddctl-private.h"

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
	struct nl_exec_result res = { .nqueries = 2, .matched = matched, .changed = changed };

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_reply),
		cmocka_unit_test(test_dump_to_table),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_extack),
	};

	return cmocka_run_group_tests_name("netlink", tests, NULL, NULL);
}
