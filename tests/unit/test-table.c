// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A table of callsites (model/table.c): the control file's text parsed,
 * on hand-written and real-kernel fixtures.
 */
#include <errno.h>

#include "testlib.h"

static void test_hand_fixture(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "hand-escapes.txt");
	const struct ddctl_site *s;
	char buf[DDCTL_FLAGS_BUFSZ];

	assert_int_equal(ddctl_table_get_count(t), 11);
	s = ddctl_table_get_site(t, 0);
	assert_string_equal(ddctl_site_get_file(s), "init/main.c");
	assert_int_equal(ddctl_site_get_line(s), 1234);
	assert_string_equal(ddctl_site_get_module(s), "main");
	assert_string_equal(ddctl_site_get_function(s), "do_one_initcall");
	assert_string_equal(ddctl_site_get_format(s), "calling  %pS @ %i\n");
	assert_int_equal(ddctl_site_get_flags(s), 0);
	assert_null(ddctl_site_get_class(s));

	/* 6.12 escapes only \t \r \n; a raw quote stays raw */
	s = ddctl_table_get_site(t, 2);
	assert_string_equal(ddctl_site_get_format(s), "probe %s\t\"x\"\n");
	/* 6.12 prints backslashes raw: \" \\ and \012 are what they show */
	s = ddctl_table_get_site(t, 3);
	assert_string_equal(ddctl_site_get_format(s), "old \\\"quoted\\\" \\\\ \\012 octal");

	s = ddctl_table_get_site(t, 4);
	assert_int_equal(ddctl_site_get_flags(s),
			 DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME);
	assert_string_equal(ddctl_flags_format(ddctl_site_get_flags(s), buf), "=pf");

	s = ddctl_table_get_site(t, 7);
	assert_string_equal(ddctl_site_get_class(s), "LOW");
	assert_int_equal(ddctl_site_get_class_id(s), -1);
	s = ddctl_table_get_site(t, 8);
	assert_string_equal(ddctl_site_get_class(s), "");
	assert_int_equal(ddctl_site_get_class_id(s), 3);

	/* all flags, printed in the kernel's order */
	s = ddctl_table_get_site(t, 9);
	assert_int_equal(ddctl_site_get_flags(s), 0x3f);
	assert_string_equal(ddctl_flags_format(0x3f, buf), "=pmfslt");
	assert_string_equal(ddctl_site_get_format(s), "plain\r\n");

	s = ddctl_table_get_site(t, 10);
	assert_string_equal(ddctl_site_get_file(s), "/tmp/out-of-tree/foo.c");
	assert_null(ddctl_table_get_site(t, 11));
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static struct ddctl_table *table_from(struct ddctl_ctx *ctx, const char *text)
{
	struct ddctl_table *t = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, text, strlen(text), &t), 0);
	return t;
}

/*
 * What each kernel prints (lib/dynamic_debug.c ddebug_proc_show()):
 * 6.1 and later seq_escape_str(ESCAPE_SPACE, "\t\r\n\""): only TAB, CR
 * and LF become \t \r \n, quotes and backslashes are printed raw; before
 * 6.1 seq_escape(m, fmt, "\t\r\n\"") (ESCAPE_OCTAL): TAB, LF, CR and '"'
 * become \011 \012 \015 \042, backslashes raw. Lines as those kernels
 * print them (the first two as Debian's 6.1 and 6.12 show cifs and
 * integrity sites).
 */
static const char lines_6_1[] =
	"# filename:lineno [module]function flags format\n"
	"fs/smb/client/smb2misc.c:861 [cifs]smb2_handle_cancelled_close =_ \"CIFS: %s: \\\\%s tid=0x%x\\n\"\n"
	"security/integrity/digsig_asymmetric.c:29 [integrity]request_asymmetric_key =_ \"key search: \"%s\"\\n\"\n"
	"a/b.c:3 [m]f =_ \"tab\\tcr\\r \\012 \\042 \\\" raw \\ in path\\n\"\n"
	"a/b.c:4 [m]g =p \"\"\n";

static const char lines_5_10[] =
	"# filename:lineno [module]function flags format\n"
	"fs/cifs/smb2misc.c:861 [cifs]smb2_handle_cancelled_close =_ \"CIFS: %s: \\\\%s tid=0x%x\\012\"\n"
	"security/integrity/digsig_asymmetric.c:29 [integrity]request_asymmetric_key =_ \"key search: \\042%s\\042\\012\"\n"
	"a/b.c:3 [m]f =_ \"tab\\011cr\\015 \\n \\t raw \\ in path\\012\"\n"
	"a/b.c:4 [m]g =p \"\"\n";

static void test_kernel_escapes(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = table_from(ctx, lines_6_1);

	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 0)),
			    "CIFS: %s: \\\\%s tid=0x%x\n");
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 1)),
			    "key search: \"%s\"\n");
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 2)),
			    "tab\tcr\r \\012 \\042 \\\" raw \\ in path\n");
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 3)), "");
	ddctl_table_unref(t);

	t = table_from(ctx, lines_5_10);
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 0)),
			    "CIFS: %s: \\\\%s tid=0x%x\n");
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 1)),
			    "key search: \"%s\"\n");
	assert_string_equal(ddctl_site_get_format(ddctl_table_get_site(t, 2)),
			    "tab\tcr\r \\n \\t raw \\ in path\n");
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Format queries over raw backslashes and quotes: predicted as the kernel matches. */
static void test_format_queries_on_raw_bytes(void **state)
{
	static const struct {
		const char *query;
		unsigned int matched;
	} cases[] = {
		{ "format \\\\\\\\%s +p", 1 },       /* two backslashes */
		{ "format \\\\%s +p", 1 },               /* one: a substring */
		{ "format ': \\\\\\\\%s tid' +p", 1 },
		{ "format \\\\\\\\\\\\ +p", 0 },      /* three: none */
		{ "format '\\\"%s\\\"' +p", 1 },          /* raw quotes */
		{ "format \\\\012 +p", 1 },              /* raw backslash, 012 */
		{ "format \\\\\\\" +p", 1 },          /* backslash quote */
		{ "!format \\\\\\\\ +p", 3 },
		{ "module cifs !format \\\\\\\\ +p", 0 },
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = table_from(ctx, lines_6_1);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ddctl_queryset *set = test_parse(ctx, cases[i].query), *x = NULL;
		struct ddctl_plan *plan = NULL;

		assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
		if (ddctl_plan_get_matched(plan, 0) != cases[i].matched)
			fail_msg("\"%s\": matched %u, expected %u", cases[i].query,
				 ddctl_plan_get_matched(plan, 0), cases[i].matched);
		/* the expansion names the same sites through their formats */
		assert_int_equal(ddctl_queryset_expand(set, t, &x), 0);
		ddctl_queryset_unref(x);
		ddctl_plan_unref(plan);
		ddctl_queryset_unref(set);
	}
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Debian 12's 6.1 kernel: cifs prints five formats with two backslash bytes. */
static void test_debian_raw_backslashes(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table_xz(ctx, "debian-6.1-control.txt.xz");
	struct ddctl_queryset *set;
	struct ddctl_plan *plan = NULL;

	assert_int_equal(ddctl_table_get_count(t), 30392);
	set = test_parse(ctx, "module cifs format \\\\\\\\%s +p; format \\\\\\\\ +p; format '\"%s\"' +p");
	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_plan_get_matched(plan, 0), 5);
	assert_int_equal(ddctl_plan_get_matched(plan, 1), 5);
	assert_true(ddctl_plan_get_matched(plan, 2) >= 10);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_bad_lines(void **state)
{
	static const char *const bad[] = {
		"foo.c [m]f =p \"x\"\n",          /* no line number */
		"foo.c:12 m]f =p \"x\"\n",        /* no [ */
		"foo.c:12 [m f =p \"x\"\n",       /* no ] */
		"foo.c:12 [m]f =q \"x\"\n",       /* unknown flag */
		"foo.c:12 [m]f p \"x\"\n",        /* no = */
		"foo.c:12 [m]f =p x\n",           /* no quote */
		"foo.c:12 [m]f =p \"x\" junk\n",  /* trailing junk */
		"foo.c:x12 [m]f =p \"x\"\n",      /* bad number */
		"foo.c:12x [m]f =p \"x\"\n",      /* junk after the number */
		"foo.c: [m]f =p \"x\"\n",         /* empty number */
		"foo.c:4294967296 [m]f =p \"x\"\n",            /* above 32 bits */
		"foo.c:99999999999999999999999 [m]f =p \"x\"\n", /* above 64 bits */
		"foo.c:12 [m]f =p \"x\" class:\n",/* empty class */
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ddctl_table_new_from_buffer(ctx, bad[i], strlen(bad[i]), &t),
				 -EBADMSG);
		assert_null(t);
	}
	assert_int_equal(ddctl_table_new_from_buffer(ctx, "a\0b", 3, &t), -EBADMSG);
	ddctl_unref(ctx);
}

/* Line numbers: the whole 32-bit range, leading zeros */
static void test_line_numbers(void **state)
{
	static const char txt[] = "a.c:4294967295 [m]f =_ \"x\"\n"
				  "a.c:007 [m]f =_ \"x\"\n"
				  "a.c:0 [m]f =_ \"x\"\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 3);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, 0)), 4294967295U);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, 1)), 7);
	assert_int_equal(ddctl_site_get_line(ddctl_table_get_site(t, 2)), 0);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_empty_and_header(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	const char *txt = "# filename:lineno [module]function flags format\n";

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 0);
	ddctl_table_unref(t);
	/* no trailing newline */
	txt = "a.c:1 [m]f =_ \"x\"";
	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 1);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * Linux 7.2 has a seventh flag, 'd' (_DPRINTK_FLAGS_INCL_STACK, 1 << 6:
 * dump_stack() after the message), printed last: "=pd", "=pmfsltd". A
 * control file with such a site must read like any other, on every kernel.
 */
static void test_stack_flag(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	const char *txt = "# filename:lineno [module]function flags format\n"
			  "lib/a.c:1 [m]f =pd \"x\"\n"
			  "lib/a.c:2 [m]g =d \"y\"\n"
			  "lib/a.c:3 [m]h =pmfsltd \"z\"\n";
	char buf[DDCTL_FLAGS_BUFSZ];
	const struct ddctl_site *s;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 3);
	s = ddctl_table_get_site(t, 0);
	assert_int_equal(ddctl_site_get_flags(s), DDCTL_FLAG_PRINT | DDCTL_FLAG_STACK);
	assert_string_equal(ddctl_flags_format(ddctl_site_get_flags(s), buf), "=pd");
	s = ddctl_table_get_site(t, 1);
	assert_int_equal(ddctl_site_get_flags(s), DDCTL_FLAG_STACK);
	assert_string_equal(ddctl_flags_format(ddctl_site_get_flags(s), buf), "=d");
	s = ddctl_table_get_site(t, 2);
	assert_string_equal(ddctl_flags_format(ddctl_site_get_flags(s), buf), "=pmfsltd");
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_missing_file(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;

	assert_int_equal(ddctl_set_control_path(ctx, "/nonexistent/control"), 0);
	assert_int_equal(ddctl_table_read(ctx, &t), -ENOENT);
	ddctl_unref(ctx);
}

/* Every line of a real kernel's control file parses, and re-prints the same. */
static void check_real(const char *fixture, size_t min_sites)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t;
	char path[4096], line[8192], flags[DDCTL_FLAGS_BUFSZ];
	FILE *f;
	size_t i = 0;

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, fixture);
	f = fopen(path, "r");
	if (!f)
		fail_msg("fixture %s is missing", path);
	t = test_table(ctx, fixture);
	assert_true(ddctl_table_get_count(t) >= min_sites);
	while (fgets(line, sizeof(line), f)) {
		const struct ddctl_site *s;
		char head[8192];

		if (line[0] == '#')
			continue;
		s = ddctl_table_get_site(t, i++);
		assert_non_null(s);
		snprintf(head, sizeof(head), "%s:%u [%s]%s %s \"",
			 ddctl_site_get_file(s), ddctl_site_get_line(s),
			 ddctl_site_get_module(s), ddctl_site_get_function(s),
			 ddctl_flags_format(ddctl_site_get_flags(s), flags));
		assert_memory_equal(line, head, strlen(head));
	}
	assert_int_equal(i, ddctl_table_get_count(t));
	fclose(f);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_real_stock(void **state)
{
	check_real("control-6.12-stock.txt", 1000);
}

static void test_real_enabled(void **state)
{
	check_real("control-6.12-stock-enabled.txt", 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_fixture),
		cmocka_unit_test(test_kernel_escapes),
		cmocka_unit_test(test_format_queries_on_raw_bytes),
		cmocka_unit_test(test_debian_raw_backslashes),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_line_numbers),
		cmocka_unit_test(test_empty_and_header),
		cmocka_unit_test(test_stack_flag),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_real_stock),
		cmocka_unit_test(test_real_enabled),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
