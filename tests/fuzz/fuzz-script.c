// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * libFuzzer: the save/restore script reader. A script that parses gives a
 * state; saving that state and reading the save back must give the same
 * state, and the restore set is computed from it as `ddctl restore` does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ddctl/ddctl.h>

static const char table_text[] =
	"# filename:lineno [module]function flags format\n"
	"a/b.c:1 [m]f =_ \"x %s\\n\"\n"
	"a/b.c:7 [m]f =p \"y\"\n"
	"a/c.c:2 [m]g =p \"y\"\n"
	"a/c.c:9 [m]g2 =pfl \"probe %d\"\n"
	"d.c:3 [n_x]h =pf \"z\" class:LOW\n"
	"d.c:3 [n_x]h =_ \"zz\"\n"
	"d.c:4 [n_x]h =_ \"zz\" class unknown, _id:9\n"
	"e/f.c:10 [virtio_net]virtnet_probe =_ \"probe\\t\\\"q\\\"\"\n";

/* The state @script gives @table's sites, or NULL. */
static struct ddctl_table *state_of(struct ddctl_ctx *ctx, struct ddctl_table *table,
				    const char *text)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *want = NULL;

	ddctl_queryset_new(ctx, &set);
	if (ddctl_queryset_parse(set, text, 0) == 0)
		ddctl_table_new_from_script(table, set, &want);
	ddctl_queryset_unref(set);
	return want;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	static struct ddctl_table *table;
	struct ddctl_queryset *set = NULL, *restore = NULL;
	struct ddctl_table *want, *again;
	char *text = malloc(size + 1), *saved = NULL;
	size_t i;

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
		ddctl_table_new_from_buffer(ctx, table_text, strlen(table_text), &table);
	}
	memcpy(text, data, size);
	text[size] = '\0';
	ddctl_queryset_new(ctx, &set);
	if (ddctl_queryset_parse(set, text, 0) == 0 &&
	    ddctl_queryset_new_from_script(ctx, table, set, &restore) == 0)
		ddctl_queryset_unref(restore);
	ddctl_queryset_unref(set);
	want = state_of(ctx, table, text);
	if (want && ddctl_table_format_script(want, &saved) == 0) {
		again = state_of(ctx, table, saved);
		if (!again || ddctl_table_get_count(again) != ddctl_table_get_count(want))
			abort();
		for (i = 0; i < ddctl_table_get_count(want); i++)
			if (ddctl_site_get_flags(ddctl_table_get_site(want, i)) !=
			    ddctl_site_get_flags(ddctl_table_get_site(again, i)))
				abort(); /* the save does not restore the state */
		ddctl_table_unref(again);
		free(saved);
	}
	ddctl_table_unref(want);
	free(text);
	return 0;
}
