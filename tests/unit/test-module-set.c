// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A set restricted to one module (model/module-set.c): which queries apply
 * to a module loaded later, and what they predict.
 */
#include <errno.h>
#include <unistd.h>

#include "testlib.h"

static void test_for_module(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx,
		"module virtio* +p; module failover =_; !module virtio_net +m\n"
		"func *probe* +l; !module virtio* +t; module virtio_net file virtio_net.c -p");
	struct ddctl_queryset *out = NULL;
	static const char *const want[] = {
		"module virtio_net +p", "module virtio_net func *probe* +l",
		"module virtio_net file virtio_net.c -p",
	};
	size_t i;

	assert_int_equal(ddctl_queryset_new_for_module(set, "virtio_net", &out), 0);
	assert_int_equal(ddctl_queryset_get_count(out), 3);
	for (i = 0; i < 3; i++)
		assert_string_equal(ddctl_query_get_canonical(
			ddctl_queryset_get_query(out, i)), want[i]);
	ddctl_queryset_unref(out);
	assert_int_equal(ddctl_queryset_new_for_module(set, "failover", &out), 0);
	assert_int_equal(ddctl_queryset_get_count(out), 4);
	assert_string_equal(ddctl_query_get_canonical(
		ddctl_queryset_get_query(out, 1)), "module failover +m");
	ddctl_queryset_unref(out);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

/* The per-module set changes exactly the new module's sites. */
static void test_for_module_predicts(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "control-6.12-stock.txt");
	struct ddctl_queryset *set = test_parse(ctx, "!module virtio_ring +p; func *probe* +f");
	struct ddctl_queryset *out = NULL;
	struct ddctl_plan *all = NULL, *one = NULL;
	const struct ddctl_site *s;
	size_t i;

	assert_int_equal(ddctl_queryset_new_for_module(set, "virtio_net", &out), 0);
	assert_int_equal(ddctl_plan_new(set, t, &all), 0);
	assert_int_equal(ddctl_plan_new(out, t, &one), 0);
	assert_true(ddctl_plan_get_change_count(one) > 0);
	for (i = 0; i < ddctl_table_get_count(t); i++) {
		s = ddctl_table_get_site(t, i);
		if (!strcmp(ddctl_site_get_module(s), "virtio_net"))
			assert_int_equal(ddctl_plan_get_final_flags(one, i),
					 ddctl_plan_get_final_flags(all, i));
		else
			assert_int_equal(ddctl_plan_get_final_flags(one, i),
					 ddctl_site_get_flags(s));
	}
	ddctl_plan_unref(all);
	ddctl_plan_unref(one);
	ddctl_queryset_unref(out);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_for_module),
		cmocka_unit_test(test_for_module_predicts),
	};

	return cmocka_run_group_tests_name("module-set", tests, NULL, NULL);
}
