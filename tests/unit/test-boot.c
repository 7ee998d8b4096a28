// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The boot snapshot (store/boot.c): its path below DDCTL_RUN_DIR, saved
 * once, kept, loaded back.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

TEST_RUN_DIR_GROUP("boot")

static void test_boot_state(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t, *e;
	char *text = NULL, *path = NULL, want[160];
	FILE *f;

	assert_int_equal(ddctl_boot_state_get_path(&path), 0);
	snprintf(want, sizeof(want), "%s/run/ddctl/boot.conf", root);
	assert_string_equal(path, want);
	assert_int_equal(ddctl_boot_state_load(ctx, &text), -ENOENT);
	t = test_table(ctx, "hand-escapes.txt");
	assert_int_equal(ddctl_boot_state_save(t), 0);
	assert_int_equal(ddctl_boot_state_load(ctx, &text), 0);
	assert_non_null(strstr(text, "\nmodule dynamic_debug =p\n"));
	free(text);
	/* the snapshot is the file the path names */
	f = fopen(path, "r");
	assert_non_null(f);
	fclose(f);
	free(path);
	/* kept: a second save does not replace it */
	e = test_table(ctx, "control-6.12-stock-enabled.txt");
	assert_int_equal(ddctl_boot_state_save(e), -EEXIST);
	assert_int_equal(ddctl_boot_state_load(ctx, &text), 0);
	assert_non_null(strstr(text, "\nmodule dynamic_debug =p\n"));
	free(text);
	ddctl_table_unref(e);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_state),
	};

	return cmocka_run_group_tests_name("boot", tests, setup, teardown);
}
