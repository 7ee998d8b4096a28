// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A module's own defaults (kernel/module-defaults.c): xz objects
 * uncompressed (as Debian ships modules), a module without an object
 * leaves the table as it was, reset's set for a module the boot snapshot
 * does not list.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#ifdef HAVE_LIBLZMA
#include <lzma.h>
#endif

#include "testlib.h"
#include "kernel/module-defaults.h"

static void test_unxz(void **state)
{
	static char plain[200000], packed[220000];
	char *out = NULL;
	size_t i, n = 0, len = 0;

	(void)state;
	for (i = 0; i < sizeof(plain); i++)
		plain[i] = (char)(i * 7 % 251);
#ifdef HAVE_LIBLZMA
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, (uint8_t *)plain,
						 sizeof(plain), (uint8_t *)packed, &n,
						 sizeof(packed)), LZMA_OK);
	assert_int_equal(module_object_unxz(packed, n, &out, &len), 0);
	assert_int_equal(len, sizeof(plain));
	assert_memory_equal(out, plain, len);
	free(out);
	/* cut short, and damaged */
	assert_int_equal(module_object_unxz(packed, n / 2, &out, &len), -EBADMSG);
	packed[n / 2] ^= 0x55;
	assert_int_equal(module_object_unxz(packed, n, &out, &len), -EBADMSG);
#else
	assert_int_equal(module_object_unxz(packed, n, &out, &len), -EOPNOTSUPP);
#endif
}

/* no object for the module: an error, and the table as it was */
static void test_no_object(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_table *copy = NULL;
	struct ddctl_queryset *set = NULL;
	size_t i;

	(void)state;
	assert_int_equal(ddctl_table_new_with_flags(t, DDCTL_FLAG_LINENO, &copy), 0);
	assert_true(ddctl_table_set_module_defaults(copy, "virtio_net") < 0);
	for (i = 0; i < ddctl_table_get_count(copy); i++)
		assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(copy, i)),
				 DDCTL_FLAG_LINENO);
	assert_true(ddctl_queryset_new_module_defaults(t, "virtio_net", &set) < 0);
	ddctl_table_unref(copy);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * reset: the snapshot lists every module but virtio_net, whose defaults
 * cannot be read here: its sites are left as they are, the others go to
 * the snapshot's state (all off)
 */
static void test_snapshot(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_queryset *script = test_parse(ctx, "# nothing on\n"), *set = NULL;
	struct ddctl_plan *plan = NULL;
	char text[4096] = "# ddctl saved state, format 2: the callsites\n# modules:";
	size_t i, n = ddctl_table_get_count(t);

	(void)state;
	for (i = 0; i < n; i++) {
		const char *m = ddctl_site_get_module(ddctl_table_get_site(t, i));

		if (strcmp(m, "virtio_net") && !strstr(text, m)) {
			strcat(text, " ");
			strcat(text, m);
		}
	}
	strcat(text, "\n# end of the ddctl saved state\n");
	assert_int_equal(ddctl_queryset_new_from_snapshot(ctx, t, script, text, &set), 0);
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(t, i);

		assert_int_equal(ddctl_plan_get_final_flags(plan, i),
				 strcmp(ddctl_site_get_module(s), "virtio_net") ? 0 :
				 ddctl_site_get_flags(s));
	}
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	/* an older snapshot, without the list: the script alone, all off */
	assert_int_equal(ddctl_queryset_new_from_snapshot(ctx, t, script, "# old\n", &set), 0);
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(ddctl_plan_get_final_flags(plan, i), 0);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_queryset_unref(script);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unxz),
		cmocka_unit_test(test_no_object),
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests_name("module-defaults", tests, NULL, NULL);
}
