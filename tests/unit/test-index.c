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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),
		cmocka_unit_test(test_every_value),
		cmocka_unit_test(test_captures),
	};

	return cmocka_run_group_tests_name("index", tests, NULL, NULL);
}
