// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Attribution (model/kmsg-index.c): the callsite a decorated kernel log
 * line came from.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#define MFSL (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_SOURCENAME | \
	      DDCTL_FLAG_LINENO)

static void test_index(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_kmsg_index *idx = NULL;
	struct ddctl_kmsg_prefix p;
	size_t site = 99;

	assert_int_equal(ddctl_kmsg_index_new(t, &idx), 0);
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio:virtio_dev_probe:drivers/virtio/virtio.c:300: probe virtio0\\x09\"x\"", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 1);
	assert_int_equal(site, 2);
	/* one source line, two callsites: the format decides */
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye again", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 1);
	assert_int_equal(site, 6);
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: bye", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 1);
	assert_int_equal(site, 5);
	/* neither format fits: both are candidates, the first is taken */
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio_net:virtnet_remove:drivers/net/virtio_net.c:20: other", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 2);
	assert_int_equal(site, 5);
	/* a conversion stands for any text, escapes as /dev/kmsg prints them */
	assert_int_equal(ddctl_kmsg_prefix_parse("main:do_one_initcall:init/main.c:1234: calling  foo+0x0/0x10 @ 1", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 1);
	assert_int_equal(site, 0);
	/* wrong line, wrong file, wrong module: no site */
	assert_int_equal(ddctl_kmsg_prefix_parse("main:do_one_initcall:init/main.c:1235: x", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), -ENOENT);
	assert_int_equal(ddctl_kmsg_prefix_parse("main:do_one_initcall:init/other.c:1234: x", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), -ENOENT);
	assert_int_equal(ddctl_kmsg_prefix_parse("foo2:foo_init:/tmp/out-of-tree/foo.c:7: x", MFSL, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), -ENOENT);
	/* a partial decoration: every site that fits */
	assert_int_equal(ddctl_kmsg_prefix_parse("virtio_net: x", DDCTL_FLAG_MODNAME, &p), 0);
	assert_int_equal(ddctl_kmsg_index_find(idx, &p, &site), 3);
	ddctl_kmsg_index_free(idx);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests_name("kmsg-index", tests, NULL, NULL);
}
