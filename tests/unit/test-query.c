// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The query language (model/query.c, model/queryset.c): every grammar
 * case of Linux 6.12's lib/dynamic_debug.c, accepted and rejected, plus
 * negation.
 */
#include <errno.h>

#include "testlib.h"

struct ok_case {
	const char *text;
	unsigned int nqueries;
	const char *canonical; /* of the first query */
};

static const struct ok_case accepted[] = {
	{ "+p", 1, "+p" },
	{ "-p", 1, "-p" },
	{ "=_", 1, "=" },
	{ "=", 1, "=" },
	{ "+", 1, "+" },
	{ "+pmflts", 1, "+pmfslt" },
	{ "+_", 1, "+" },
	{ "func foo +p", 1, "func foo +p" },
	{ "func foo* +p", 1, "func foo* +p" },
	{ "func f?o -p", 1, "func f?o -p" },
	{ "file drivers/net/virtio_net.c +p", 1, "file drivers/net/virtio_net.c +p" },
	{ "file virtio_net.c +p", 1, "file virtio_net.c +p" },
	{ "file *virtio* +p", 1, "file *virtio* +p" },
	{ "file x.c:foo +p", 1, "file x.c func foo +p" },
	{ "file x.c:*oo +p", 1, "file x.c func *oo +p" },
	{ "file x.c:?oo +p", 1, "file x.c func ?oo +p" },
	{ "file x.c:10-20 +p", 1, "file x.c line 10-20 +p" },
	{ "file x.c:10 +p", 1, "file x.c line 10 +p" },
	{ "file x.c: +p", 1, "file x.c +p" },
	/* within the kernel's 4 match-specs: FILE:LINES, else FILE:FUNC kept */
	{ "module m file x.c:105 format LOW class MID +p", 1,
	  "module m file x.c:105 format LOW class MID +p" },
	{ "module m file x.c:10-20 func f format LOW +p", 1,
	  "module m file x.c:10-20 func f format LOW +p" },
	{ "module m file x.c:f format LOW class MID +p", 1,
	  "module m file x.c:f format LOW class MID +p" },
	{ "file x.c:f line 3 module m class MID +p", 1,
	  "module m file x.c:3 func f class MID +p" },
	{ "module virtio_net +p", 1, "module virtio_net +p" },
	{ "module virtio-net +p", 1, "module virtio_net +p" },
	{ "module virtio* +p", 1, "module virtio* +p" },
	{ "format hello +p", 1, "format hello +p" },
	{ "format ^hello +p", 1, "format ^hello +p" },
	{ "format \"hello world\" +p", 1, "format hello\\040world +p" },
	{ "format 'hello world' +p", 1, "format hello\\040world +p" },
	{ "format hello\\040world +p", 1, "format hello\\040world +p" },
	{ "format a\\tb +p", 1, "format a\\011b +p" },
	{ "format a\\nb +p", 1, "format a\\012b +p" },
	{ "format a\\\\b +p", 1, "format a\\134b +p" },
	{ "format \\q +p", 1, "format \\134q +p" },
	{ "format '' +p", 1, "format '' +p" },
	{ "line 10 +p", 1, "line 10 +p" },
	{ "line 10-20 +p", 1, "line 10-20 +p" },
	{ "line -20 +p", 1, "line 0-20 +p" },
	{ "line 10- +p", 1, "line 10- +p" },
	{ "line 10-0 +p", 1, "line 10- +p" },
	{ "line +10 +p", 1, "line 10 +p" },
	{ "line 0 +p", 1, "+p" },
	{ "line 0 line 5 +p", 1, "line 5 +p" }, /* the kernel's quirk: 0 is unset */
	{ "class LOW +p", 1, "class LOW +p" },
	{ "module m file f func g format h +p", 1, "module m file f func g format h +p" },
	{ "+p ; -p", 2, "+p" },
	{ "+p\n-p\n", 2, "+p" },
	{ "  +p  ", 1, "+p" },
	{ "# comment\n+p", 1, "+p" },
	{ "+p # trailing comment", 1, "+p" },
	{ ";;+p;;", 1, "+p" },
	{ "module \"a b\" +p", 1, "module \"a b\" +p" },
	{ "module \"x\"y +p", 1, NULL }, /* "x" and y: a word each => 3 words */
	{ "module a\"b +p", 1, "module a\"b +p" },
	{ "!module virtio* +p", 1, "!module virtio* +p" },
	{ "module !virtio* +p", 1, "!module virtio* +p" },
	{ "!file x.c +p", 1, "!file x.c +p" },
	{ "file !x.c +p", 1, "!file x.c +p" },
	{ "!func probe* +p", 1, "!func probe* +p" },
	{ "func !probe* +p", 1, "!func probe* +p" },
	{ "!format hello +p", 1, "!format hello +p" },
	/* "format !x" is the text "!x", as it always was (not a negation) */
	{ "format !hello +p", 1, "format \\041hello +p" },
	{ "!format !hello +p", 1, "!format \\041hello +p" },
	{ "format !!x +p", 1, "format \\041!x +p" },
	{ "format \\041hello +p", 1, "format \\041hello +p" }, /* a literal '!' */
	{ "module a\tfunc b\t+p", 1, "module a func b +p" },
	{ "\"+p\"", 1, "+p" },
};

struct bad_case {
	const char *text;
	unsigned int index, column;
	const char *word;
	const char *reason; /* a substring of the message */
};

static const struct bad_case rejected[] = {
	{ "p", 1, 1, "p", "flags" },
	{ "module foo", 1, 8, "foo", "flags" },
	{ "+q", 1, 1, "+q", "unknown flag 'q'" },
	{ "module foo +pX", 1, 12, "+pX", "unknown flag 'X'" },
	{ "modul foo +p", 1, 1, "modul", "unknown keyword" },
	{ "module +p", 1, 1, "module", "no value" },
	{ "module foo bar +p", 1, 12, "bar", "no value" },
	{ "module a module b +p", 1, 10, "module", "twice" },
	{ "func a file x.c:b +p", 1, 13, "x.c:b", "twice" },
	{ "file x.c:b func a +p", 1, 12, "func", "twice" },
	{ "line 1 line 2 +p", 1, 13, "2", "twice" },
	{ "file x.c:1 line 2 +p", 1, 17, "2", "twice" },
	{ "line 5-3 +p", 1, 6, "5-3", "before first line" },
	{ "line x +p", 1, 6, "x", "bad line number" },
	{ "line 1-2-3 +p", 1, 6, "1-2-3", "bad line number" },
	{ "line 0x10 +p", 1, 6, "0x10", "bad line number" },
	{ "line -1-2 +p", 1, 6, "-1-2", "bad line number" },
	{ "line 99999999999 +p", 1, 6, "99999999999", "out of range" },
	{ "line + +p", 1, 6, "+", "bad line number" },
	{ "file x.c:_f +p", 1, 6, "x.c:_f", "bad line number" },
	{ "module \"foo +p", 1, 8, "\"foo +p", "unclosed quote" },
	{ "module 'foo +p", 1, 8, "'foo +p", "unclosed quote" },
	{ "func a file b module c format d line 1 +p", 1, 38, "1", "too many words" },
	{ "+p; modul x +p", 2, 1, "modul", "unknown keyword" },
	{ "!modul x +p", 1, 1, "!modul", "unknown keyword" },
	{ "+p\n-p\nmodule x +y", 3, 10, "+y", "unknown flag" },
	{ "!line 5 +p", 1, 1, "!line", "cannot be negated" },
	{ "!class LOW +p", 1, 1, "!class", "cannot be negated" },
	{ "class !LOW +p", 1, 7, "!LOW", "cannot be negated" },
	{ "line !1 +p", 1, 6, "!1", "cannot be negated" },
	{ "!module !x +p", 1, 9, "!x", "negated twice" },
	{ "module !!x +p", 1, 8, "!!x", "negated twice" },
	{ "!file x.c:foo +p", 1, 7, "x.c:foo", "negated file" },
	/* the empty pattern matches nothing: negated, it would select every site */
	{ "module ! +p", 1, 8, "!", "a negated module needs a value" },
	{ "func ! +p", 1, 6, "!", "a negated func needs a value" },
	{ "file ! +p", 1, 6, "!", "a negated file needs a value" },
	{ "!module '' +p", 1, 9, "", "a negated module needs a value" },
	{ "!func \"\" +p", 1, 7, "", "a negated func needs a value" },
	{ "!format '' +p", 1, 9, "", "a negated format needs a value" },
	{ "!module a module b +p", 1, 11, "module", "twice" },
	{ "class a class b +p", 1, 9, "class", "twice" },
	{ "format a format b +p", 1, 10, "format", "twice" },
};

static void test_accepted(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	size_t i;

	for (i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		const struct ok_case *c = &accepted[i];
		struct ddctl_queryset *set = NULL;
		int r;

		assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
		r = ddctl_queryset_parse(set, c->text, 0);
		if (c->canonical == NULL) {
			assert_int_equal(r, -EINVAL);
			ddctl_queryset_unref(set);
			continue;
		}
		if (r != 0)
			fail_msg("\"%s\" rejected: %s", c->text,
				 ddctl_queryset_get_error(set, NULL, NULL, NULL));
		assert_int_equal(ddctl_queryset_get_count(set), c->nqueries);
		assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(set, 0)),
				    c->canonical);
		/* the canonical text parses to itself */
		{
			struct ddctl_queryset *again = test_parse(ctx,
				ddctl_query_get_canonical(ddctl_queryset_get_query(set, 0)));

			assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(again, 0)),
					    c->canonical);
			ddctl_queryset_unref(again);
		}
		assert_null(ddctl_queryset_get_error(set, NULL, NULL, NULL));
		ddctl_queryset_unref(set);
	}
	ddctl_unref(ctx);
}

static void test_rejected(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	size_t i;

	for (i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		const struct bad_case *c = &rejected[i];
		struct ddctl_queryset *set = NULL;
		unsigned int index, column;
		const char *word, *msg;

		assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
		if (ddctl_queryset_parse(set, c->text, 0) != -EINVAL)
			fail_msg("\"%s\" accepted", c->text);
		msg = ddctl_queryset_get_error(set, &index, &column, &word);
		assert_non_null(msg);
		if (index != c->index || column != c->column ||
		    strcmp(word, c->word) || !strstr(msg, c->reason))
			fail_msg("\"%s\": got query %u column %u word \"%s\": %s",
				 c->text, index, column, word, msg);
		/* nothing of a failed parse is kept */
		assert_int_equal(ddctl_queryset_get_count(set), 0);
		ddctl_queryset_unref(set);
	}
	ddctl_unref(ctx);
}

static void test_error_message_names_query(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx, "module a +p");
	const char *msg;

	assert_int_equal(ddctl_queryset_parse(set, "module b +p; func x -z", 0), -EINVAL);
	msg = ddctl_queryset_get_error(set, NULL, NULL, NULL);
	assert_string_equal(msg, "query 3 \"func x -z\", column 8, word \"-z\": "
				 "unknown flag 'z' (flags are p m f s l t d _: `ddctl help flags`)");
	/* the earlier call's query stays, the failed call adds nothing */
	assert_int_equal(ddctl_queryset_get_count(set), 1);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

/* The flags of each kernel: 6.1 has no 's', 6.12 no 'd', 7.2 all. */
static void test_flags_per_kernel(void **state)
{
	static const struct {
		const char *kernel, *text, *error;
	} cases[] = {
		{ "6.1.0-57-amd64", "module M +s",
		  "query 1 \"module M +s\", column 10, word \"+s\": this kernel (6.1.0-57-amd64) has no flag 's' (Linux 6.6 and later)" },
		{ "6.1.0-57-amd64", "module M -pd",
		  "query 1 \"module M -pd\", column 10, word \"-pd\": this kernel (6.1.0-57-amd64) has no flag 'd' (Linux 7.2 and later)" },
		{ "6.1.0-57-amd64", "module M +x",
		  "query 1 \"module M +x\", column 10, word \"+x\": unknown flag 'x' (flags are p m f l t _: `ddctl help flags`)" },
		{ "6.1.0-57-amd64", "module M =pmflt_", NULL },
		{ "6.5.0", "module M +s", "query 1 \"module M +s\", column 10, word \"+s\": this kernel (6.5.0) has no flag 's' (Linux 6.6 and later)" },
		{ "6.6.0", "module M +s", NULL },
		{ "6.12.57+deb12-amd64", "module M +pmfslt", NULL },
		{ "6.12.57+deb12-amd64", "module M +d",
		  "query 1 \"module M +d\", column 10, word \"+d\": this kernel (6.12.57+deb12-amd64) has no flag 'd' (Linux 7.2 and later)" },
		{ "7.2.13-amd64", "module M +d", NULL },
		{ "8.0", "module M =pmfsltd", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ddctl_ctx *ctx = test_ctx();
		struct ddctl_queryset *set = NULL;
		int r;

		assert_int_equal(ddctl_set_kernel(ctx, cases[i].kernel), 0);
		assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
		r = ddctl_queryset_parse(set, cases[i].text, 0);
		if (!cases[i].error) {
			assert_int_equal(r, 0);
		} else {
			assert_int_equal(r, -EINVAL);
			assert_string_equal(ddctl_queryset_get_error(set, NULL, NULL, NULL),
					    cases[i].error);
		}
		ddctl_queryset_unref(set);
		ddctl_unref(ctx);
	}
}

/* The flags per release, and a named control file without one: all. */
static void test_query_flags_of_kernel(void **state)
{
	struct ddctl_ctx *ctx = NULL;
	unsigned int old = DDCTL_FLAG_PRINT | DDCTL_FLAG_MODNAME |
			   DDCTL_FLAG_FUNCNAME | DDCTL_FLAG_LINENO | DDCTL_FLAG_TID;

	(void)state;
	assert_int_equal(ddctl_new(&ctx), 0);
	assert_int_equal(ddctl_set_control_path(ctx, "/nonexistent"), 0);
	assert_null(ddctl_get_kernel(ctx));
	assert_int_equal(ddctl_get_query_flags(ctx), old | DDCTL_FLAG_SOURCENAME | DDCTL_FLAG_STACK);
	assert_int_equal(ddctl_set_kernel(ctx, "6.1.0-57-amd64"), 0);
	assert_string_equal(ddctl_get_kernel(ctx), "6.1.0-57-amd64");
	assert_int_equal(ddctl_get_query_flags(ctx), old);
	assert_int_equal(ddctl_set_kernel(ctx, "6.12.57"), 0);
	assert_int_equal(ddctl_get_query_flags(ctx), old | DDCTL_FLAG_SOURCENAME);
	assert_int_equal(ddctl_set_kernel(ctx, ""), -EINVAL);
	ddctl_unref(ctx);
}

static void test_flag_info(void **state)
{
	const char *what, *since;
	unsigned int bit;
	char letters[16], c;
	size_t i;

	(void)state;
	for (i = 0; ddctl_flag_get_info(i, &c, &bit, &what, &since) == 0; i++) {
		letters[i] = c;
		assert_non_null(what);
	}
	letters[i] = '\0';
	assert_string_equal(letters, "pmfsltd_");
	assert_int_equal(ddctl_flag_get_info(3, &c, &bit, NULL, &since), 0);
	assert_int_equal(bit, DDCTL_FLAG_SOURCENAME);
	assert_string_equal(since, "6.6");
}

static void test_match_only(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = NULL;

	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse(set, "module virtio*", DDCTL_PARSE_MATCH_ONLY), 0);
	assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(set, 0)),
			    "module virtio*");
	assert_int_equal(ddctl_queryset_parse(set, "module", DDCTL_PARSE_MATCH_ONLY), -EINVAL);
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

static void test_negated_flag(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_queryset *set = test_parse(ctx, "module a +p; !module b +p");

	assert_false(ddctl_query_is_negated(ddctl_queryset_get_query(set, 0)));
	assert_true(ddctl_query_is_negated(ddctl_queryset_get_query(set, 1)));
	ddctl_queryset_unref(set);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_error_message_names_query),
		cmocka_unit_test(test_flags_per_kernel),
		cmocka_unit_test(test_query_flags_of_kernel),
		cmocka_unit_test(test_flag_info),
		cmocka_unit_test(test_match_only),
		cmocka_unit_test(test_negated_flag),
	};

	return cmocka_run_group_tests_name("query", tests, NULL, NULL);
}
