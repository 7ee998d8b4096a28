// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The predictor (model/plan.c): the kernel's matching semantics and net
 * effects.
 */
#include <errno.h>

#include "testlib.h"

struct pcase {
	const char *queries;
	unsigned int matched0; /* matched by the first query */
	size_t changes;        /* net changes of the whole set */
};

/* Against hand-escapes.txt: 11 sites, 2 enabled, 2 with a class. */
static const struct pcase cases[] = {
	{ "+p", 9, 6 },                         /* class'd sites untouched */
	{ "-p", 9, 3 },
	{ "+p ; -p", 9, 3 },                     /* net: the three enabled lose p */
	{ "module virtio* +p; module virtio* -p", 5, 1 },
	{ "=_", 9, 3 },
	{ "=p", 9, 8 },                          /* pmflst and pf become p */
	{ "module virtio +p", 2, 2 },
	{ "module virtio_net -p", 3, 1 },
	{ "module virtio-net -p", 3, 1 },
	{ "module virtio? +p", 0, 0 },
	{ "module virtio?net +p", 3, 2 },
	{ "file virtio.c +p", 2, 2 },             /* basename */
	{ "file drivers/virtio/virtio.c +p", 2, 2 },
	{ "file drivers/*/virtio*.c +p", 5, 4 },
	{ "file foo.c +p", 1, 1 },                /* basename of an absolute path */
	{ "file /tmp/out-of-tree/foo.c +p", 1, 1 },
	{ "func virtnet_* +p", 3, 2 },
	{ "file virtio_net.c:virtnet_remove +p", 2, 2 },
	{ "file virtio_net.c:15-25 +p", 2, 2 },
	{ "line 20 +p", 2, 2 },
	{ "line -20 +p", 4, 3 },
	{ "line 1000- +p", 2, 1 },
	{ "line 300-310 +p", 2, 2 },
	{ "format hello +p", 1, 0 },              /* already p */
	{ "format hello +m", 1, 1 },
	{ "format ^bye +p", 2, 2 },
	{ "format ^ye +p", 0, 0 },
	{ "format ye +p", 2, 2 },
	{ "format \"bye again\" +p", 1, 1 },
	{ "format bye\\040again +p", 1, 1 },
	{ "format %s\\n +p", 1, 0 },              /* only one format has "%s\n" */
	{ "format \\t\"x +p", 1, 1 },
	{ "class LOW +p", 1, 1 },
	{ "class MID +p", 0, 0 },                 /* unknown class: never */
	{ "class LOW module virtio +p", 0, 0 },
	/* no class map has an empty name: the kernel matches nothing */
	{ "class '' +p", 0, 0 },
	{ "class \"\" module test_dynamic_debug +p", 0, 0 },
	{ "!module virtio* +p", 4, 2 },
	{ "module !virtio* +p", 4, 2 },
	{ "!file drivers/* +p", 4, 2 },
	{ "!func virt* +p", 4, 2 },
	{ "!format %s +p", 7, 5 },
	{ "!module virtio* !func do_* +p", 2, 1 },
	{ "+m; -m", 9, 1 },                       /* do_prints had m */
	{ "=pf; -f; +f", 9, 8 },
	{ "-pmflst", 9, 3 },
	{ "+t; =_", 9, 3 },
};

static void test_cases(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ddctl_queryset *set = test_parse(ctx, cases[i].queries);
		struct ddctl_plan *plan = NULL;

		assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
		if (ddctl_plan_get_matched(plan, 0) != cases[i].matched0 ||
		    ddctl_plan_get_change_count(plan) != cases[i].changes)
			fail_msg("\"%s\": matched %u changes %zu, expected %u %zu",
				 cases[i].queries, ddctl_plan_get_matched(plan, 0),
				 ddctl_plan_get_change_count(plan),
				 cases[i].matched0, cases[i].changes);
		ddctl_plan_unref(plan);
		ddctl_queryset_unref(set);
	}
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_per_query_counts_and_flags(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_queryset *set = test_parse(ctx, "module virtio_net +p; module virtio_net -p; func virtnet_probe +fl");
	struct ddctl_plan *plan = NULL;
	const struct ddctl_site *site;
	unsigned int of, nf;
	int idx;

	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_plan_get_matched(plan, 0), 3);
	assert_int_equal(ddctl_plan_get_changed(plan, 0), 2);
	assert_int_equal(ddctl_plan_get_matched(plan, 1), 3);
	assert_int_equal(ddctl_plan_get_changed(plan, 1), 3);
	assert_int_equal(ddctl_plan_get_matched(plan, 2), 1);
	assert_int_equal(ddctl_plan_get_changed(plan, 2), 1);
	assert_int_equal(ddctl_plan_get_change_count(plan), 1);
	assert_int_equal(ddctl_plan_get_change(plan, 0, &site, &of, &nf), 0);
	assert_string_equal(ddctl_site_get_function(site), "virtnet_probe");
	assert_int_equal(of, DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME);
	assert_int_equal(nf, DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_LINENO);
	assert_int_equal(ddctl_plan_get_change(plan, 1, &site, &of, &nf), -ERANGE);
	idx = find_site(t, "drivers/net/virtio_net.c", 10);
	assert_int_equal(ddctl_plan_get_final_flags(plan, (size_t)idx),
			 DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_LINENO);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * 7.2's 'd' flag: queries cannot name it, but '+' and '-' keep it and '='
 * clears it, as the kernel does (flags = (flags & mask) | set).
 */
static void test_stack_flag_kept(void **state)
{
	static const char txt[] = "lib/a.c:1 [m]f =pd \"x\"\nlib/a.c:2 [m]g =d \"y\"\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	struct ddctl_queryset *set = test_parse(ctx, "func f +f; func g -p; func f -p");
	struct ddctl_plan *plan = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_plan_get_final_flags(plan, 0),
			 DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_STACK);
	assert_int_equal(ddctl_plan_get_final_flags(plan, 1), DDCTL_FLAG_STACK);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	set = test_parse(ctx, "func f =l");
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_plan_get_final_flags(plan, 0), DDCTL_FLAG_LINENO);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_match_only_set_has_no_plan(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_queryset *set = NULL;
	struct ddctl_plan *plan = NULL;

	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse(set, "module x", DDCTL_PARSE_MATCH_ONLY), 0);
	assert_int_equal(ddctl_plan_new(set, t, &plan), -EINVAL);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* On a real kernel's table: module counts add up. */
static void test_real_fixture(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t;
	struct ddctl_queryset *set;
	struct ddctl_plan *plan = NULL;

	/* test_table() fails the test when the fixture is missing */
	t = test_table(ctx, "control-6.12-stock.txt");
	set = test_parse(ctx, "module virtio* +p; !module virtio* +p; +p; -p");
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	/* virtio* and !virtio* partition the unclassed sites */
	assert_int_equal(ddctl_plan_get_matched(plan, 0) + ddctl_plan_get_matched(plan, 1),
			 ddctl_plan_get_matched(plan, 2));
	assert_true(ddctl_plan_get_matched(plan, 0) > 0);
	assert_int_equal(ddctl_plan_get_changed(plan, 3), ddctl_plan_get_matched(plan, 2));
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_per_query_counts_and_flags),
		cmocka_unit_test(test_stack_flag_kept),
		cmocka_unit_test(test_match_only_set_has_no_plan),
		cmocka_unit_test(test_real_fixture),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
