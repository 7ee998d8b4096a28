// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Two tables compared site by site (libddctl/model/diff.c): sites matched
 * by identity, repeated identities in table order, the differences in
 * identity order, whether or not the tables list the same sites.
 */
#include "testlib.h"
#include "model/diff.h"

struct calls {
	size_t n;
	size_t want[8], now[8];
	unsigned int flags[8];
};

static void record(size_t want_idx, size_t now_idx, unsigned int want_flags, void *data)
{
	struct calls *c = data;

	assert_true(c->n < 8);
	c->want[c->n] = want_idx;
	c->now[c->n] = now_idx;
	c->flags[c->n++] = want_flags;
}

static struct ddctl_table *table(struct ddctl_ctx *ctx, const char *text)
{
	struct ddctl_table *t = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, text, strlen(text), &t), 0);
	return t;
}

static void check(const struct calls *c, size_t n, const size_t (*want)[3])
{
	size_t i;

	assert_int_equal(c->n, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(c->want[i], want[i][0]);
		assert_int_equal(c->now[i], want[i][1]);
		assert_int_equal(c->flags[i], want[i][2]);
	}
}

/* listed not in identity order; sites 2 and 3 share their identity */
static const char want_text[] =
	"z.c:5 [zmod]f =p \"a\\n\"\n"
	"a.c:9 [amod]g =_ \"b\\n\"\n"
	"a.c:2 [amod]g =_ \"c\\n\"\n"
	"a.c:2 [amod]g =_ \"c\\n\"\n"
	"m.c:1 [amod]h =p \"d\\n\"\n";

static void test_same_sites(void **state)
{
	static const char now_text[] =
		"z.c:5 [zmod]f =_ \"a\\n\"\n"
		"a.c:9 [amod]g =p \"b\\n\"\n"
		"a.c:2 [amod]g =p \"c\\n\"\n"
		"a.c:2 [amod]g =p \"c\\n\"\n"
		"m.c:1 [amod]h =p \"d\\n\"\n";
	static const size_t by_identity[][3] = {
		{ 2, 2, 0 }, { 3, 3, 0 }, { 1, 1, 0 }, { 0, 0, DDCTL_FLAG_PRINT },
	};
	static const unsigned int wflags[] = { 0, 0, 0, DDCTL_FLAG_PRINT, 0 };
	static const size_t with_flags[][3] = {
		{ 2, 2, 0 }, { 1, 1, 0 }, { 4, 4, 0 },
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *want = table(ctx, want_text), *now = table(ctx, now_text);
	struct calls c = { 0 };

	assert_int_equal(table_diff(want, NULL, now, record, &c), 0);
	check(&c, 4, by_identity);
	memset(&c, 0, sizeof(c));
	assert_int_equal(table_diff(want, wflags, now, record, &c), 0);
	check(&c, 3, with_flags);
	memset(&c, 0, sizeof(c));
	assert_int_equal(table_diff(now, NULL, now, record, &c), 0);
	assert_int_equal(c.n, 0);
	ddctl_table_unref(want);
	ddctl_table_unref(now);
	ddctl_unref(ctx);
}

/* @now in another order, with a site @want lacks and without one it has */
static void test_other_sites(void **state)
{
	static const char now_text[] =
		"a.c:2 [amod]g =_ \"c\\n\"\n"
		"new.c:1 [amod]x =p \"n\\n\"\n"
		"a.c:9 [amod]g =p \"b\\n\"\n"
		"a.c:2 [amod]g =p \"c\\n\"\n"
		"z.c:5 [zmod]f =_ \"a\\n\"\n";
	static const size_t by_identity[][3] = {
		{ 3, 3, 0 }, { 1, 2, 0 }, { 0, 4, DDCTL_FLAG_PRINT },
	};
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *want = table(ctx, want_text), *now = table(ctx, now_text);
	struct calls c = { 0 };

	assert_int_equal(table_diff(want, NULL, now, record, &c), 0);
	check(&c, 3, by_identity);
	ddctl_table_unref(want);
	ddctl_table_unref(now);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_sites),
		cmocka_unit_test(test_other_sites),
	};

	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
