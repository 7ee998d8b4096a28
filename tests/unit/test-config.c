// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Configuration drop-ins: precedence, order, masking, errors by file:line. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#define ROOT FIXTURE_DIR "/config-root"

static int collect(const char *path, void *data)
{
	char *out = data;

	strcat(out, path + strlen(ROOT));
	strcat(out, "\n");
	return 0;
}

static void test_precedence(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char files[4096] = "";

	assert_int_equal(ddctl_set_config_root(ctx, ROOT), 0);
	assert_int_equal(ddctl_config_foreach_file(ctx, collect, files), 0);
	/* /etc hides /run and /usr/lib, /run hides /usr/lib, 30 is masked */
	assert_string_equal(files, "/etc/ddctl.d/10-virtio.conf\n"
				   "/etc/ddctl.d/20-file.conf\n"
				   "/run/ddctl.d/50-net.conf\n"
				   "/usr/lib/ddctl.d/90-test.conf\n");
	ddctl_unref(ctx);
}

static void test_load(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;
	static const char *const want[] = {
		"module virtio_ring +pfl", "file drivers/virtio/virtio.c +p",
		"module virtio_net +pf", "module test_dynamic_debug +p",
		"func do_levels -p",
	};
	size_t i;

	setenv("DDCTL_CONFIG_ROOT", ROOT, 1);
	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_config_load(ctx, set), 0);
	unsetenv("DDCTL_CONFIG_ROOT");
	assert_int_equal(ddctl_queryset_get_count(set), 5);
	for (i = 0; i < 5; i++)
		assert_string_equal(ddctl_query_get_canonical(
			ddctl_queryset_get_query(set, i)), want[i]);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_bad_line(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;
	char root[] = "/tmp/ddctl-config-XXXXXX", path[512], want[600];
	unsigned int index = 0;
	const char *msg;

	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/etc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/etc/ddctl.d", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/etc/ddctl.d/10-good.conf", root);
	write_file(path, "module a +p\n");
	snprintf(path, sizeof(path), "%s/etc/ddctl.d/20-bad.conf", root);
	write_file(path, "# comment\nmodule b +p; module c +p\n\nmodule d +x\n");
	assert_int_equal(ddctl_set_config_root(ctx, root), 0);
	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse(set, "module before +p", 0), 0);
	assert_int_equal(ddctl_config_load(ctx, set), -EINVAL);
	/* nothing of the configuration stays; what was there before does */
	assert_int_equal(ddctl_queryset_get_count(set), 1);
	msg = ddctl_queryset_get_error(set, &index, NULL, NULL);
	snprintf(want, sizeof(want), "%s:4: \"module d +x\", column 10, word \"+x\": ", path);
	assert_non_null(msg);
	assert_memory_equal(msg, want, strlen(want));
	assert_int_equal(index, 5);
	unlink(path);
	snprintf(path, sizeof(path), "%s/etc/ddctl.d/10-good.conf", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/etc/ddctl.d", root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/etc", root);
	rmdir(path);
	rmdir(root);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

static void test_no_config(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;

	assert_int_equal(ddctl_set_config_root(ctx, "/nonexistent"), 0);
	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_config_load(ctx, set), 0);
	assert_int_equal(ddctl_queryset_get_count(set), 0);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

/* Files of queries: FILE:LINE errors, NUL bytes, comments only. */
static void test_parse_buffer(void **state)
{
	static const char nul[] = "module a +p\nmodule b +p\0module c +p\nmodule d +p\n";
	static const char bad[] = "# x\n\nmodule a +p\nmodule b +x\n";
	static const char empty[] = "# only\n\n  \n# comments\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;
	unsigned int column;
	const char *msg;

	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse_buffer(set, "f.conf", nul, sizeof(nul) - 1, 0),
			 -EINVAL);
	msg = ddctl_queryset_get_error(set, NULL, &column, NULL);
	assert_non_null(strstr(msg, "f.conf:2:"));
	assert_non_null(strstr(msg, "NUL"));
	assert_int_equal(column, 12);
	assert_int_equal(ddctl_queryset_get_count(set), 0); /* nothing of the file */
	assert_int_equal(ddctl_queryset_parse_buffer(set, "g.conf", bad, sizeof(bad) - 1, 0),
			 -EINVAL);
	msg = ddctl_queryset_get_error(set, NULL, NULL, NULL);
	assert_non_null(strstr(msg, "g.conf:4: \"module b +x\", column 10, word \"+x\""));
	assert_int_equal(ddctl_queryset_get_count(set), 0);
	assert_int_equal(ddctl_queryset_parse_buffer(set, "e.conf", empty, sizeof(empty) - 1, 0), 0);
	assert_int_equal(ddctl_queryset_get_count(set), 0);
	/* no NUL at the end needed: the length counts */
	assert_int_equal(ddctl_queryset_parse_buffer(set, "h.conf", bad + 5, 11, 0), 0);
	assert_int_equal(ddctl_queryset_get_count(set), 1);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_bad_line),
		cmocka_unit_test(test_no_config),
		cmocka_unit_test(test_parse_buffer),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
