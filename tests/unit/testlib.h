/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_TESTLIB_H
#define DDCTL_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ddctl/ddctl.h>

static inline struct ddctl_ctx *test_ctx(void)
{
	struct ddctl_ctx *ctx = NULL;

	assert_int_equal(ddctl_new(&ctx), 0);
	ddctl_set_log_fn(ctx, NULL, NULL);
	/* the newest rules, whatever the host runs */
	assert_int_equal(ddctl_set_kernel(ctx, "7.2"), 0);
	return ctx;
}

static inline struct ddctl_table *test_table(struct ddctl_ctx *ctx,
					     const char *fixture)
{
	struct ddctl_table *t = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, fixture);
	assert_int_equal(ddctl_set_control_path(ctx, path), 0);
	assert_int_equal(ddctl_table_read(ctx, &t), 0);
	return t;
}

/* A table from an xz-compressed fixture (decompressed with xz -dc). */
static inline struct ddctl_table *test_table_xz(struct ddctl_ctx *ctx,
						const char *fixture)
{
	struct ddctl_table *t = NULL;
	char cmd[4096], *buf = malloc(16 << 20);
	size_t len = 0, n;
	FILE *p;

	assert_non_null(buf);
	snprintf(cmd, sizeof(cmd), "xz -dc %s/%s", FIXTURE_DIR, fixture);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(buf + len, 1, (16 << 20) - len, p)) > 0)
		len += n;
	assert_int_equal(pclose(p), 0);
	assert_int_equal(ddctl_table_new_from_buffer(ctx, buf, len, &t), 0);
	free(buf);
	return t;
}

/* The writes @set needs: whole queries, at most 4095 bytes each. */
static inline unsigned int test_writes_of(struct ddctl_queryset *set)
{
	size_t i, fill = 0;
	unsigned int writes = 0;

	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		size_t len = strlen(ddctl_query_get_canonical(ddctl_queryset_get_query(set, i))) + 1;

		if (!writes || fill + len > 4095) {
			writes++;
			fill = 0;
		}
		fill += len;
	}
	return writes;
}

static inline struct ddctl_queryset *test_parse(struct ddctl_ctx *ctx,
						const char *text)
{
	struct ddctl_queryset *set = NULL;

	assert_int_equal(ddctl_queryset_new(ctx, &set), 0);
	if (ddctl_queryset_parse(set, text, 0) != 0)
		fail_msg("parse of \"%s\" failed: %s", text,
			 ddctl_queryset_get_error(set, NULL, NULL, NULL));
	return set;
}

static inline int find_site(struct ddctl_table *t, const char *file,
			    unsigned int line)
{
	size_t i;

	for (i = 0; i < ddctl_table_get_count(t); i++) {
		const struct ddctl_site *s = ddctl_table_get_site(t, i);

		if (!strcmp(ddctl_site_get_file(s), file) &&
		    ddctl_site_get_line(s) == line)
			return (int)i;
	}
	return -1;
}

/* A group's DDCTL_RUN_DIR: @root (a mkdtemp() template) + /run/ddctl. */
static inline int test_run_dir_setup(char *root)
{
	char dir[128];

	if (!mkdtemp(root))
		return -1;
	snprintf(dir, sizeof(dir), "%s/run/ddctl", root);
	return setenv("DDCTL_RUN_DIR", dir, 1);
}

static inline int test_run_dir_teardown(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

/*
 * A group's setup() and teardown(): a run directory made below
 * /tmp/ddctl-NAME-XXXXXX before the group and removed after it.
 */
#define TEST_RUN_DIR_GROUP(name)					\
	static char root[] = "/tmp/ddctl-" name "-XXXXXX";		\
	static int setup(void **state)					\
	{								\
		(void)state;						\
		return test_run_dir_setup(root);			\
	}								\
	static int teardown(void **state)				\
	{								\
		(void)state;						\
		return test_run_dir_teardown(root);			\
	}

/* A uevent's payload and its length, NULs inside included. */
#define UEVENT(s) s, sizeof(s) - 1

#endif
