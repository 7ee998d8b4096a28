// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The kernel command line's dyndbg words (model/cmdline.c): a set written
 * as words, read back as the kernel's next_arg() and parse_args() split
 * them, and the same flags on every site either way.
 */
#include <errno.h>

#include "testlib.h"

static char *format(struct ddctl_queryset *set, unsigned int flags, int want,
		    size_t *bad, const char **reason)
{
	char *text = NULL;

	assert_int_equal(ddctl_queryset_format_cmdline(set, flags, &text, bad, reason), want);
	return text;
}

static void test_words(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx,
		"module smpboot func wakeup_* =pl; module smpboot -l\n"
		"file kernel/irq/irqdomain.c format \"virq allocation\" +pf\n"
		"module virtio* +p; func 'a b' +m; module virtio-net +t; module smpboot +f");
	size_t bad;
	const char *why;
	char *text = format(set, 0, 0, &bad, &why);

	assert_string_equal(text,
		"smpboot.dyndbg=\"func wakeup_* =pl; -l\" "
		"dyndbg=\"file kernel/irq/irqdomain.c format virq\\040allocation +pf; "
		"module virtio* +p; func 'a b' +m\" virtio_net.dyndbg=\"+t\" smpboot.dyndbg=\"+f\"");
	free(text);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

static void test_refused(void **state)
{
	static const struct { const char *query, *why; } cases[] = {
		{ "func a\"b +p", "holds a '\"'" },
		{ "func \"a' b\" +p", "both a blank and a '" },
		{ "!module virtio* +p", "negation" },
	};
	struct ddctl_ctx *ctx = test_ctx();
	size_t i, bad = 99;
	const char *why = NULL;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q;
		struct ddctl_queryset *set;

		assert_true(asprintf(&q, "module pci +p; %s", cases[i].query) > 0);
		set = test_parse(ctx, q);
		assert_null(format(set, 0, -EINVAL, &bad, &why));
		assert_int_equal(bad, 1);
		assert_non_null(strstr(why, cases[i].why));
		ddctl_queryset_unref(set);
		free(q);
	}
	/* a kernel that parses negation takes it */
	{
		struct ddctl_queryset *set = test_parse(ctx, "!module virtio* +p");
		char *text = format(set, DDCTL_CMDLINE_NEGATION, 0, &bad, &why);

		assert_string_equal(text, "dyndbg=\"!module virtio* +p\"");
		free(text);
		ddctl_queryset_unref(set);
	}
	ddctl_unref(ctx);
}

/* next_arg()'s rules: a quoted word (GRUB's form), "--", a bare MODULE.dyndbg. */
static void test_parse_line(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;
	static const char *const want[] = {
		"file kernel/irq/irqdomain.c +p", "module smpboot func wakeup_* =pl",
		"module virtio_ring +p", "module pci format a\\040b +m",
	};
	size_t i, words = 0;

	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse_cmdline(set,
		"BOOT_IMAGE=/vmlinuz \"dyndbg=file kernel/irq/irqdomain.c +p\" quiet "
		"smpboot.dyndbg=\"func wakeup_* =pl\" dyndbg=\"bogus +p\" virtio_ring.dyndbg "
		"foo.other=\"x y\" pci.dyndbg=\"format 'a b' +m\"   -- dyndbg=+p", &words), 0);
	assert_int_equal(words, 4);
	assert_int_equal(ddctl_queryset_get_count(set), 4);
	for (i = 0; i < 4; i++)
		assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(set, i)), want[i]);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

/* Written, read back: every site of the fixture ends with the same flags. */
static void test_round_trip(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "control-6.12-stock.txt");
	struct ddctl_queryset *set = test_parse(ctx,
		"module smpboot func wakeup_secondary_cpu_via_init =pl\n"
		"file kernel/irq/irqdomain.c format \"virq allocation failed\" +pf\n"
		"module kobject format \"'%s' (%p)\" +pm; module kobject line 600-700 -m\n"
		"format \"\\\\\" +p; func *probe* +f; module acpi class FOO +p; module mei +t");
	struct ddctl_queryset *back = NULL;
	struct ddctl_plan *a = NULL, *b = NULL;
	size_t i, bad, words;
	const char *why;
	char *text = format(set, 0, 0, &bad, &why);

	assert_int_equal(ddctl_queryset_new(ctx, &back), 0);
	assert_int_equal(ddctl_queryset_parse_cmdline(back, text, &words), 0);
	assert_int_equal(ddctl_queryset_get_count(back), ddctl_queryset_get_count(set));
	assert_int_equal(ddctl_plan_new(set, t, &a), 0);
	assert_int_equal(ddctl_plan_new(back, t, &b), 0);
	assert_true(ddctl_plan_get_change_count(a) > 20);
	for (i = 0; i < ddctl_table_get_count(t); i++)
		assert_int_equal(ddctl_plan_get_final_flags(a, i), ddctl_plan_get_final_flags(b, i));
	ddctl_plan_unref(a);
	ddctl_plan_unref(b);
	ddctl_queryset_unref(back);
	ddctl_queryset_unref(set);
	free(text);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
