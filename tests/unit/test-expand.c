// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Expansion: negated queries rewritten with the same net effect. */
#include <errno.h>

#include "testlib.h"

static void check_expansion(struct ddctl_ctx *ctx, struct ddctl_table *t,
			    const char *text)
{
	struct ddctl_queryset *set = test_parse(ctx, text), *exp = NULL;
	struct ddctl_plan *a = NULL, *b = NULL;
	size_t i;

	if (ddctl_queryset_expand(set, t, &exp) != 0)
		fail_msg("expansion of \"%s\" failed", text);
	for (i = 0; i < ddctl_queryset_get_count(exp); i++)
		assert_false(ddctl_query_is_negated(ddctl_queryset_get_query(exp, i)));
	assert_int_equal(ddctl_plan_new(set, t, &a), 0);
	assert_int_equal(ddctl_plan_new(exp, t, &b), 0);
	assert_int_equal(ddctl_plan_get_change_count(a), ddctl_plan_get_change_count(b));
	for (i = 0; i < ddctl_table_get_count(t); i++)
		if (ddctl_plan_get_final_flags(a, i) != ddctl_plan_get_final_flags(b, i))
			fail_msg("\"%s\": site %zu differs", text, i);
	ddctl_plan_unref(a);
	ddctl_plan_unref(b);
	ddctl_queryset_unref(exp);
	ddctl_queryset_unref(set);
}

static const char *const negations[] = {
	"!module virtio* +p",
	"module !virtio* +p",
	"!module virtio* -p",
	"!module virtio* =mf",
	"!file drivers/* +p",
	"!func virt* +p",
	"!format again +p",          /* two sites share file:line: needs format */
	"!format \\n +p",
	"!module virtio* !func do_* +p",
	"!module main +p; module virtio -p; !module virtio_net +l",
	"!module * +p",              /* selects nothing */
	"class LOW !module virtio* +p",
	"!module virtio* line 1-1000 +p",
};

static void test_hand(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	size_t i;

	for (i = 0; i < sizeof(negations) / sizeof(negations[0]); i++)
		check_expansion(ctx, t, negations[i]);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_real(void **state)
{
	static const char *const real[] = {
		"!module virtio* +p",
		"!module virtio* +p ; -p",
		"!file drivers/* +pf",
		"!func *probe* +p",
		"!format %s +p",
		"module test_dynamic_debug !func do_cats +p",
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t;
	size_t i;

	/* test_table() fails the test when the fixture is missing */
	t = test_table(ctx, "control-6.12-stock.txt");
	for (i = 0; i < sizeof(real) / sizeof(real[0]); i++)
		check_expansion(ctx, t, real[i]);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Whole modules are named by module, not site by site. */
static void test_compact(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	struct ddctl_queryset *set = test_parse(ctx, "!module virtio* +p"), *exp = NULL;

	assert_int_equal(ddctl_queryset_expand(set, t, &exp), 0);
	/* main and foo; dynamic_debug and test_dynamic_debug already print */
	assert_int_equal(ddctl_queryset_get_count(exp), 2);
	assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(exp, 0)),
			    "module foo +p");
	assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(exp, 1)),
			    "module main +p");
	ddctl_queryset_unref(exp);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * Debian 12's 30,392-site table (distribution scale): the expansions for a
 * kernel without negation in few writes (site by site they took 8, 84 and
 * 52): module wildcards, whole modules, sites that would not change named
 * along, functions and files without their module. Exact all the same.
 */
static void test_debian_writes(void **state)
{
	static const struct {
		const char *query;
		unsigned int max_writes;
	} cases[] = {
		{ "!module virtio* +p", 1 },
		{ "!format error +p", 30 },
		{ "!func *probe* +p", 18 },
		{ "!func *probe* -p", 1 },
		{ "!module virtio* =pf", 8 },
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table_xz(ctx, "debian-6.1-control.txt.xz");
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ddctl_queryset *set = test_parse(ctx, cases[i].query), *exp = NULL;

		check_expansion(ctx, t, cases[i].query);
		assert_int_equal(ddctl_queryset_expand(set, t, &exp), 0);
		if (test_writes_of(exp) > cases[i].max_writes)
			fail_msg("\"%s\": %u writes (%zu queries), at most %u expected",
				 cases[i].query, test_writes_of(exp), ddctl_queryset_get_count(exp),
				 cases[i].max_writes);
		ddctl_queryset_unref(exp);
		ddctl_queryset_unref(set);
	}
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_debian_writes),
	};

	return cmocka_run_group_tests_name("expansion", tests, NULL, NULL);
}
