// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* libFuzzer: the query parser, then prediction and expansion of what parses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ddctl/ddctl.h>

static const char table_text[] =
	"a/b.c:1 [m]f =_ \"x %s\\n\"\n"
	"a/c.c:2 [m]g =p \"y\"\n"
	"d.c:3 [n_x]h =pf \"z\" class:LOW\n"
	"d.c:3 [n_x]h =_ \"zz\"\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ddctl_ctx *ctx;
	static struct ddctl_table *table;
	struct ddctl_queryset *set = NULL, *exp = NULL;
	struct ddctl_plan *plan = NULL;
	char *text = malloc(size + 1);

	if (!ctx) {
		ddctl_new(&ctx);
		ddctl_set_log_fn(ctx, NULL, NULL);
		ddctl_table_new_from_buffer(ctx, table_text, strlen(table_text), &table);
	}
	memcpy(text, data, size);
	text[size] = '\0';
	ddctl_queryset_new(ctx, &set);
	if (ddctl_queryset_parse(set, text, 0) == 0) {
		if (ddctl_plan_new(set, table, &plan) == 0)
			ddctl_plan_unref(plan);
		if (ddctl_queryset_expand(set, table, &exp) == 0)
			ddctl_queryset_unref(exp);
	}
	ddctl_queryset_parse(set, text, DDCTL_PARSE_MATCH_ONLY);
	ddctl_queryset_unref(set);
	free(text);
	return 0;
}
