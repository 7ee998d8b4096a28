// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Modules loaded later (store/modprobe.c): the queries written as dyndbg=
 * modprobe options.
 */
#include <errno.h>
#include <unistd.h>

#include "testlib.h"

static void test_modprobe(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx,
		"module virtio_net +p; module virtio* +t; func foo +p\n"
		"module failover file failover.c =pf; !module a +p; module virtio_net func virtnet_probe +l");
	char path[] = "/tmp/ddctl-modprobe-XXXXXX", text[1024] = "";
	FILE *f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ddctl_config_write_modprobe(set, path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	unlink(path);
	assert_non_null(strstr(text, "\noptions virtio_net dyndbg=\"+p; func virtnet_probe +l\"\n"
				     "options failover dyndbg=\"file failover.c =pf\"\n"));
	assert_null(strstr(text, "virtio*"));
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modprobe),
	};

	return cmocka_run_group_tests_name("modprobe", tests, NULL, NULL);
}
