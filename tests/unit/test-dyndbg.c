// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg commands (kernel/dyndbg.c): EXEC replies and their per-query
 * counts, GET dumps written out as a control file; fed messages built in
 * a buffer, as the kernel's "dyndbg" family would send them.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_reply),
		cmocka_unit_test(test_exec_reply_repeated_index),
		cmocka_unit_test(test_dump_to_table),
		cmocka_unit_test(test_site_bad_attrs),
	};

	return cmocka_run_group_tests_name("dyndbg", tests, NULL, NULL);
}
