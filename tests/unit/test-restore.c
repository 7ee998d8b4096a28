// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Restore sets: bring one state to another exactly (undo, saved settings). */
#include <errno.h>

#include "testlib.h"

/* apply @text to @t, then restore back to @t: every site as before */
static void check_roundtrip(struct ddctl_ctx *ctx, struct ddctl_table *t,
			    const char *text)
{
	struct ddctl_queryset *set = test_parse(ctx, text), *undo = NULL;
	struct ddctl_plan *plan = NULL, *back = NULL;
	struct ddctl_table *after = NULL;
	size_t i;

	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_table_new_from_plan(plan, &after), 0);
	assert_int_equal(ddctl_queryset_new_restore(ctx, after, t, &undo), 0);
	assert_int_equal(ddctl_plan_new(undo, after, &back), 0);
	assert_int_equal(ddctl_plan_get_change_count(back),
			 ddctl_plan_get_change_count(plan));
	for (i = 0; i < ddctl_table_get_count(t); i++)
		if (ddctl_plan_get_final_flags(back, i) !=
		    ddctl_site_get_flags(ddctl_table_get_site(t, i)))
			fail_msg("\"%s\": site %zu not restored", text, i);
	ddctl_plan_unref(back);
	ddctl_queryset_unref(undo);
	ddctl_table_unref(after);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
}

static void test_roundtrips(void **state)
{
	static const char *const sets[] = {
		"+p", "=_", "module virtio* +pf", "!module virtio* +p; func *probe* +l",
		"format %s +mt", "file drivers/* =pflmst", "class LOW +p",
	};
	struct ddctl_ctx *ctx = test_ctx();
	const char *fixtures[] = { "hand-escapes.txt", "control-6.12-stock-enabled.txt" };
	size_t f, i;

	for (f = 0; f < 2; f++) {
		struct ddctl_table *t = test_table(ctx, fixtures[f]);

		for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
			check_roundtrip(ctx, t, sets[i]);
		ddctl_table_unref(t);
	}
	ddctl_unref(ctx);
}

static void test_nothing_to_restore(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_queryset *set = NULL;

	assert_int_equal(ddctl_queryset_new_restore(ctx, t, t, &set), 0);
	assert_int_equal(ddctl_queryset_get_count(set), 0);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_with_flags(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt"), *zero = NULL;
	struct ddctl_queryset *set = NULL;

	assert_int_equal(ddctl_table_new_with_flags(t, 0, &zero), 0);
	ddctl_table_unref(t); /* the derived table keeps the strings alive */
	assert_int_equal(ddctl_table_get_count(zero), 11);
	assert_int_equal(ddctl_site_get_flags(ddctl_table_get_site(zero, 1)), 0);
	assert_string_equal(ddctl_site_get_module(ddctl_table_get_site(zero, 1)),
			    "dynamic_debug");
	t = test_table(ctx, "hand-escapes.txt");
	/* from all-off to the fixture: its three enabled sites */
	assert_int_equal(ddctl_queryset_new_restore(ctx, zero, t, &set), 0);
	assert_true(ddctl_queryset_get_count(set) >= 1);
	ddctl_queryset_unref(set);
	ddctl_table_unref(zero);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * Debian 12's table (distribution scale): restoring a save made after
 * "!format error +p" (29,396 sites on) onto the boot state is exact, and
 * in few writes: the set is sent at once, so it may name sites already
 * right and use module wildcards and short spellings.
 */
static void test_debian_restore_writes(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table_xz(ctx, "debian-6.1-control.txt.xz");
	struct ddctl_queryset *set = test_parse(ctx, "!format error +p; func *probe* +f"), *script, *undo = NULL;
	struct ddctl_plan *plan = NULL, *check = NULL;
	struct ddctl_table *after = NULL;
	char *text = NULL;
	size_t i;

	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_table_new_from_plan(plan, &after), 0);
	assert_int_equal(ddctl_table_format_script(after, &text), 0);
	script = test_parse(ctx, text);
	assert_int_equal(ddctl_queryset_new_from_script(ctx, t, script, &undo), 0);
	assert_int_equal(ddctl_plan_new(undo, t, &check), 0);
	for (i = 0; i < ddctl_table_get_count(t); i++)
		if (ddctl_plan_get_final_flags(check, i) !=
		    ddctl_site_get_flags(ddctl_table_get_site(after, i)))
			fail_msg("site %zu not restored", i);
	if (test_writes_of(undo) > 43)
		fail_msg("restore: %u writes (%zu queries), at most 43 expected (site by site: 118)",
			 test_writes_of(undo), ddctl_queryset_get_count(undo));
	ddctl_plan_unref(check);
	ddctl_queryset_unref(undo);
	ddctl_queryset_unref(script);
	free(text);
	ddctl_table_unref(after);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_restore_writes),
		cmocka_unit_test(test_roundtrips),
		cmocka_unit_test(test_nothing_to_restore),
		cmocka_unit_test(test_with_flags),
	};

	return cmocka_run_group_tests_name("restore", tests, NULL, NULL);
}
