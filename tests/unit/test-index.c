// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The table index (libddctl/model/index.c) changes the cost of a query, never its
 * result: on Debian 12's real table and the 6.12 captures, the sites every
 * query selects through the index are the sites ddctl_query_matches()
 * selects site by site.
 */
#include <errno.h>

#include "testlib.h"
#include "model/index.h"
#include "model/queryset.h"
#include "model/table.h"

static struct ddctl_table *debian_table(struct ddctl_ctx *ctx)
{
	return test_table_xz(ctx, "debian-6.1-control.txt.xz");
}

static void check_same(struct ddctl_table *t, const char *text)
{
	struct ddctl_queryset *set = test_parse(t->ctx, text);
	struct dd_sites m = { 0 };
	size_t i, s, brute;
	bool *hit = calloc(t->count + 1, 1);

	assert_non_null(hit);
	for (i = 0; i < set->count; i++) {
		memset(hit, 0, t->count + 1);
		assert_int_equal(index_query_sites(t, &set->queries[i], &m), 0);
		for (s = 0; s < m.n; s++) {
			if (hit[m.idx[s]])
				fail_msg("\"%s\": site %zu twice", set->queries[i].text, m.idx[s]);
			hit[m.idx[s]] = true;
		}
		for (s = 0, brute = 0; s < t->count; s++) {
			bool want = ddctl_query_matches(&set->queries[i], &t->sites[s]);

			brute += want;
			if (want != hit[s])
				fail_msg("\"%s\": site %s:%u [%s]%s: index %d, matcher %d",
					 set->queries[i].text, t->sites[s].file, t->sites[s].line,
					 t->sites[s].module, t->sites[s].function, hit[s], want);
		}
		assert_int_equal(m.n, brute);
	}
	free(m.idx);
	free(hit);
	ddctl_queryset_unref(set);
}

static const char *const queries[] = {
	"module cifs +p", "module snd_* +p", "module snd_hda_codec_? +p",
	"module ?fs +p", "module *usb* +p", "module nosuch +p", "module x*z +p",
	"module xt_LOG +p", "module kvm +p", "module '' +p",
	"file drivers/net/* +p", "file *usb* +pf", "file core.c +p",
	"file main.c +p", "file fs/smb/client/connect.c +p", "file connect.c:639 +p",
	"file *.h +p", "file include/linux/*.h +p", "file drivers/*/core.c +p",
	"file ../* +p", "file *../* +p", "file smb2misc.c:800-900 +p",
	"func *probe* +p", "func nfs4_* -p", "func ?probe +p", "func probe +p",
	"func cifs_echo_request +p", "func *_init module ??? +p",
	"format error +p", "format ^%s: +p", "format \\\\\\\\%s +p",
	"line 100-200 +p", "line 1 +p", "line -5 +p", "line 5000- +p",
	"module cifs line 600-700 +p", "module cifs file connect.c func cifs_* line 600- +p",
	"!module virtio* -p", "!func *probe* -p", "!file drivers/* +p",
	"module !snd_* file *sound* +p", "!format error module cifs +p",
	"class LOW +p", "+p",
};

static void test_debian(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = debian_table(ctx);
	size_t i;

	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		check_same(t, queries[i]);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Every site named by module, by file (both spellings), by function. */
static void test_every_value(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = debian_table(ctx);
	char q[8192];
	size_t s;

	for (s = 0; s < t->count; s += 97) {
		const struct ddctl_site *site = &t->sites[s];

		snprintf(q, sizeof(q), "module %s +p; file %s +p; file %s +p; func %s +p; func %.3s* module %.2s* +p; file %s:%u +p",
			 site->module, site->file, site->basename, site->function,
			 site->function, site->module, site->basename, site->line);
		check_same(t, q);
	}
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_captures(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "control-6.12-stock.txt");
	size_t i;

	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		check_same(t, queries[i]);
	check_same(t, "class DDCTL_CORE +p; class DDCTL_IO module ddctl_* +p; file /var/cache/* +p; file part03.c +p");
	ddctl_table_unref(t);
	t = test_table(ctx, "hand-escapes.txt");
	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
		check_same(t, queries[i]);
	check_same(t, "file foo.c +p; file /tmp/out-of-tree/foo.c +p; class MID +p");
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Each key's values sorted and distinct, and each site's rank naming its own value */
static void test_ranks(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = debian_table(ctx);
	const char *const *v;
	const size_t *rank;
	size_t n, i;
	int k;

	for (k = 0; k < DD_KEY_NR; k++) {
		v = index_values(t, k, &n);
		rank = index_ranks(t, k);
		assert_non_null(v);
		assert_non_null(rank);
		for (i = 1; i < n; i++)
			assert_true(strcmp(v[i - 1], v[i]) < 0);
		for (i = 0; i < t->count; i++) {
			const struct ddctl_site *s = &t->sites[i];

			assert_true(rank[i] < n);
			assert_string_equal(v[rank[i]], k == DD_KEY_MODULE ? s->module :
					    k == DD_KEY_FILE ? s->file : s->function);
		}
	}
	assert_int_equal(n, 15366); /* the distinct function names, as sort -u counts them */
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* Line numbers past 16 bits, out of order, repeated */
static void test_big_lines(void **state)
{
	static const char txt[] =
		"a.c:70000 [m]f =_ \"x\"\n"
		"a.c:65536 [m]f =_ \"x\"\n"
		"b.c:1 [n]g =_ \"x\"\n"
		"b.c:4294967295 [n]g =_ \"x\"\n"
		"b.c:65535 [n]g =_ \"x\"\n"
		"a.c:65536 [m]h =_ \"y\"\n"
		"c.c:131072 [o]f =_ \"x\"\n"
		"c.c:65537 [o]f =_ \"x\"\n"
		"c.c:3 [o]f =_ \"x\"\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, strlen(txt), &t), 0);
	check_same(t, "line 65536 +p; line 65535-65537 +p; line 70000- +p; line -65535 +p");
	check_same(t, "line 4294967295 +p; line 2-131072 +p; line 131073- +p; line 1 +p");
	check_same(t, "module m line 65536 +p; file c.c line 4-131072 +p; func f line 3 +p");
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),
		cmocka_unit_test(test_every_value),
		cmocka_unit_test(test_captures),
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_big_lines),
	};

	return cmocka_run_group_tests_name("index", tests, NULL, NULL);
}
