// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The once-per-boot cache of the negation probe (kernel/features.c): the
 * kernel logs a refused probe at most once per boot.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel/features.h"
#include "testlib.h"

static char dir[] = "/tmp/ddctl-features-XXXXXX";

static void test_same_boot(void **state)
{
	(void)state;
	assert_int_equal(features_cache_read(dir, "boot-a"), -ENOENT);
	assert_int_equal(features_cache_write(dir, "boot-a", 1), 0);
	assert_int_equal(features_cache_read(dir, "boot-a"), 1);
	assert_int_equal(features_cache_write(dir, "boot-a", 0), 0);
	assert_int_equal(features_cache_read(dir, "boot-a"), 0);
}

static void test_other_boot(void **state)
{
	(void)state;
	assert_int_equal(features_cache_write(dir, "boot-a", 1), 0);
	assert_int_equal(features_cache_read(dir, "boot-b"), -ENOENT);
}

static void test_garbage(void **state)
{
	char path[4096];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/features", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("boot-a negation=7\n", f);
	fclose(f);
	assert_int_equal(features_cache_read(dir, "boot-a"), -ENOENT);
}

static void test_no_dir(void **state)
{
	(void)state;
	assert_int_equal(features_cache_read("/nonexistent/ddctl", "boot-a"), -ENOENT);
	assert_true(features_cache_write("/nonexistent/ddctl", "boot-a", 1) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_boot),
		cmocka_unit_test(test_other_boot),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_no_dir),
	};
	char path[4096];
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(path, sizeof(path), "%s/features", dir);
	unlink(path);
	rmdir(dir);
	return r;
}
