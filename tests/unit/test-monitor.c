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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_monitor_large),
	};

	return cmocka_run_group_tests_name("monitor", tests, NULL, NULL);
}
