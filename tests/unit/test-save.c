// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Saved settings: save, reset, restore gives the same table. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"
#include "../fuzz/save-roundtrip.h"

static const char *const fixtures[] = {
	"hand-escapes.txt", "control-6.12-stock.txt",
	"control-6.12-stock-enabled.txt",
};

/* restore @text on @from; every site must end as in @t */
static void check_restore(struct ddctl_ctx *ctx, struct ddctl_table *from,
			  struct ddctl_table *t, const char *text)
{
	struct ddctl_queryset *script = test_parse(ctx, text), *set = NULL;
	struct ddctl_plan *plan = NULL;
	size_t i;

	assert_int_equal(ddctl_queryset_new_from_script(ctx, from, script, &set), 0);
	assert_int_equal(ddctl_plan_new(set, from, &plan), 0);
	assert_int_equal(ddctl_table_get_count(from), ddctl_table_get_count(t));
	for (i = 0; i < ddctl_table_get_count(t); i++)
		if (ddctl_plan_get_final_flags(plan, i) !=
		    ddctl_site_get_flags(ddctl_table_get_site(t, i)))
			fail_msg("site %zu not restored by:\n%s", i, text);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	ddctl_queryset_unref(script);
}

/* the state after @text on @t */
static struct ddctl_table *derive(struct ddctl_ctx *ctx, struct ddctl_table *t,
				  const char *text)
{
	struct ddctl_queryset *set = test_parse(ctx, text);
	struct ddctl_table *out = NULL;
	struct ddctl_plan *plan = NULL;

	assert_int_equal(ddctl_plan_new(set, t, &plan), 0);
	assert_int_equal(ddctl_table_new_from_plan(plan, &out), 0);
	ddctl_plan_unref(plan);
	ddctl_queryset_unref(set);
	return out;
}

static void check_states(struct ddctl_ctx *ctx, struct ddctl_table *t)
{
	static const char *const scrambles[] = {
		"=_", "+pmflt", "module virtio* =pf; func *probe* +l",
		"class LOW +p; class DDCTL_IO +ps",
	};
	struct ddctl_table *zero = NULL, *other;
	char *text = NULL;
	size_t i;

	assert_int_equal(ddctl_table_format_script(t, &text), 0);
	assert_non_null(strstr(text, "# ddctl saved state"));
	assert_int_equal(ddctl_table_new_with_flags(t, 0, &zero), 0);
	check_restore(ctx, zero, t, text);
	for (i = 0; i < sizeof(scrambles) / sizeof(scrambles[0]); i++) {
		other = derive(ctx, t, scrambles[i]);
		check_restore(ctx, other, t, text);
		ddctl_table_unref(other);
	}
	free(text);
	ddctl_table_unref(zero);
}

static void test_save_restore_fixtures(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t, *s;
	size_t f;

	for (f = 0; f < sizeof(fixtures) / sizeof(fixtures[0]); f++) {
		t = test_table(ctx, fixtures[f]);
		check_states(ctx, t);
		/* states the fixtures do not have, classes included */
		s = derive(ctx, t, "module virtio* =pmf; class DDCTL_CORE +p; file init/* =_");
		check_states(ctx, s);
		ddctl_table_unref(s);
		s = derive(ctx, t, "+p; func *probe* =t");
		check_states(ctx, s);
		ddctl_table_unref(s);
		ddctl_table_unref(t);
	}
	ddctl_unref(ctx);
}

static void test_save_is_compact(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "control-6.12-stock-enabled.txt");
	char *text = NULL;

	assert_int_equal(ddctl_table_format_script(t, &text), 0);
	assert_non_null(strstr(text, "\nmodule test_dynamic_debug =p\n"));
	assert_non_null(strstr(text, "\nmodule virtio_ring =pfl\n"));
	assert_null(strstr(text, " line "));
	free(text);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static void test_default_state(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = test_table(ctx, "control-6.12-stock.txt"), *zero = NULL;
	char *text = NULL, *p;

	assert_int_equal(ddctl_table_new_with_flags(t, 0, &zero), 0);
	assert_int_equal(ddctl_table_format_script(zero, &text), 0);
	/* only comments: the header, no query */
	for (p = text; *p; p = strchr(p, '\n') + 1)
		assert_int_equal(*p, '#');
	check_restore(ctx, t, zero, text);
	free(text);
	ddctl_table_unref(zero);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/*
 * Every input fuzz-save-roundtrip found (tests/fuzz/crashes-save-roundtrip/)
 * passes its round trip: file names with high bytes and the kernel's
 * spaces, class unknown, two sites of one identity, the 'd' flag.
 */
static void test_fuzz_findings(void **state)
{
	static const char dir[] = FIXTURE_DIR "/../fuzz/crashes-save-roundtrip";
	struct ddctl_ctx *ctx = test_ctx();
	char path[4096], *data;
	struct dirent *de;
	const char *why;
	size_t size, site = 0, n = 0;
	DIR *d = opendir(dir);
	FILE *f;

	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strstr(de->d_name, ".md"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		data = malloc(1 << 16);
		assert_non_null(data);
		size = fread(data, 1, 1 << 16, f);
		fclose(f);
		why = save_roundtrip_check(ctx, (const uint8_t *)data, size, &site);
		if (why)
			fail_msg("%s: %s (site %zu)", de->d_name, why, site);
		free(data);
		n++;
	}
	closedir(d);
	assert_true(n >= 3);
	ddctl_unref(ctx);
}

/* 'd' (Linux 7.2) is a flag queries set there: save keeps it. */
static void test_stack_flag_saved(void **state)
{
	static const char txt[] = "a.c:10 [m]f =pd \"x\\n\"\na.c:11 [m]g =d \"y\\n\"\n"
				  "a.c:12 [m]h =_ \"z\\n\"\n";
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL, *zero = NULL;
	char *text = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, txt, sizeof(txt) - 1, &t), 0);
	assert_int_equal(ddctl_table_format_script(t, &text), 0);
	assert_null(strstr(text, "saved without"));
	assert_int_equal(ddctl_table_new_with_flags(t, 0, &zero), 0);
	check_restore(ctx, zero, t, text);
	free(text);
	ddctl_table_unref(zero);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

/* ddctl_file_write(): all or nothing, modes kept, symlinks refused (item 4, 6). */
static void test_file_write(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	char dir[] = "/tmp/ddctl-file-XXXXXX", path[128], link[128], got[64] = "";
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/saved.conf", dir);
	snprintf(link, sizeof(link), "%s/link.conf", dir);
	assert_int_equal(ddctl_file_write(ctx, path, "one\n", 4, 0), 0);
	assert_int_equal(mode_of(path), 0644);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(ddctl_file_write(ctx, path, "two\n", 4, 0), 0);
	assert_int_equal(mode_of(path), 0640); /* the old file's mode */
	assert_int_equal(ddctl_file_write(ctx, path, "three\n", 6, DDCTL_FILE_EXCL), -EEXIST);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(ddctl_file_write(ctx, link, "evil\n", 5, 0), -ELOOP);
	assert_int_equal(ddctl_file_write(ctx, dir, "x", 1, 0), -EINVAL);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(got, sizeof(got), f));
	fclose(f);
	assert_string_equal(got, "two\n");
	unlink(link);
	unlink(path);
	assert_int_equal(ddctl_file_write(ctx, path, "", 0, DDCTL_FILE_PRIVATE), 0);
	assert_int_equal(mode_of(path), 0600);
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* no temporary file left behind */
	ddctl_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_restore_fixtures),
		cmocka_unit_test(test_save_is_compact),
		cmocka_unit_test(test_default_state),
		cmocka_unit_test(test_file_write),
		cmocka_unit_test(test_fuzz_findings),
		cmocka_unit_test(test_stack_flag_saved),
	};

	return cmocka_run_group_tests_name("save", tests, NULL, NULL);
}
