// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg notifications (kernel/monitor.c): a change notification
 * parsed, and a large one read whole by a monitor on a socket.
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

/* A structured query of a notification: its specs, flags {value, selector}. */
static void put_query(struct nlmsghdr *nlh, const char *module, const char *format,
		      uint32_t negate, uint32_t line_min, uint32_t value,
		      uint32_t selector)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY);
	struct nla_bitfield32 bf = { value, selector };

	if (module)
		mnl_attr_put_strz(nlh, DYNDBG_A_QUERY_MODULE, module);
	if (format)
		mnl_attr_put_strz(nlh, DYNDBG_A_QUERY_FORMAT, format);
	if (line_min)
		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_LINE_MIN, line_min);
	if (negate)
		mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_NEGATE, negate);
	mnl_attr_put(nlh, DYNDBG_A_QUERY_FLAGS, sizeof(bf), &bf);
	mnl_attr_nest_end(nlh, n);
}

/*
 * A structured notification reads back as control-file text, spelt by the
 * library's formatter (formats escaped, as canonical queries are): + - =
 * from the bitfield, a mixed one as its '-' then its '+'; the generation.
 */
static void test_event(void **state)
{
	char buf[4096] = { 0 };
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	struct strbuf sb = { 0 };
	struct ddctl_event ev;

	put_query(nlh, "virtio*", NULL, 0, 0, 1, 1);
	put_query(nlh, "foo", "a \"b\"\n", DYNDBG_MATCH_MODULE, 0, 0, 4);
	put_query(nlh, NULL, NULL, 0, 7, 1, 0x7f);
	put_query(nlh, "m", NULL, 0, 0, 1, 1 | 4);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 12);
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, 12);
	mnl_attr_put_u32(nlh, DYNDBG_A_GENERATION, 99);
	assert_int_equal(nl_event_parse(nlh, 0x7f, &ev, &sb), 0);
	assert_string_equal(ev.queries,
			    "module virtio* +p\n"
			    "!module foo format a\\040\\042b\\042\\012 -f\n"
			    "line 7- =p\n"
			    "module m -f\n"
			    "module m +p");
	assert_int_equal(ev.sites_changed, 12);
	assert_int_equal(ev.keys_patched, 12);
	assert_int_equal(ev.generation, 99);
	/* the text parses back to the same queries */
	{
		struct ddctl_ctx *ctx = test_ctx();
		struct ddctl_queryset *set = test_parse(ctx, ev.queries);

		assert_int_equal(ddctl_queryset_get_count(set), 5);
		assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(set, 1)),
				    "!module foo format a\\040\\042b\\042\\012 -f");
		ddctl_queryset_unref(set);
		ddctl_unref(ctx);
	}
	/*
	 * A set whose queries take more than 16 KiB is announced without
	 * them (results, counts, generation only): no queries, not "".
	 */
	nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 3);
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, 2);
	mnl_attr_put_u32(nlh, DYNDBG_A_GENERATION, 100);
	assert_int_equal(nl_event_parse(nlh, 0x7f, &ev, &sb), 0);
	assert_null(ev.queries);
	assert_int_equal(ev.sites_changed, 3);
	assert_int_equal(ev.generation, 100);
	/* a v2 text attribute (a string where the nest is) is refused */
	nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	mnl_attr_put_strz(nlh, DYNDBG_A_QUERY, "module virtio* +p");
	assert_int_equal(nl_event_parse(nlh, 0x7f, &ev, &sb), -EBADMSG);
	nlh = msg(buf, DYNDBG_CMD_EXEC);
	assert_int_equal(nl_event_parse(nlh, 0x7f, &ev, &sb), -ENOMSG);
	strbuf_release(&sb);
}

static int got_event(const struct ddctl_event *ev, void *data)
{
	*(size_t *)data = strlen(ev->queries);
	return 0;
}

/* A notification carrying 300 queries (~9 KB) reaches the monitor whole. */
static void test_monitor_large(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_monitor *m = NULL;
	struct mnl_socket *nl = receiver();
	char *buf = calloc(1, 16384);
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_CHANGE_NTF);
	size_t got = 0, i;

	/* "module m123456789 +p\n": 21 bytes a query */
	for (i = 0; i < 300; i++)
		put_query(nlh, "m123456789", NULL, 0, 0, 1, 1);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 1);
	assert_true(nlh->nlmsg_len > 8192);
	assert_int_equal(nl_monitor_new_socket(ctx, nl, &m), 0);
	send_to(nl, nlh, nlh->nlmsg_len);
	assert_int_equal(ddctl_monitor_read(m, got_event, &got), 0);
	assert_int_equal(got, 300 * 21 - 1);
	ddctl_monitor_free(m);
	free(buf);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_monitor_large),
	};

	return cmocka_run_group_tests_name("monitor", tests, NULL, NULL);
}
