// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Saved settings: a state written as the query script that brings the
 * default state (every flag off) to it, and the set that restores such a
 * script exactly.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/ctx.h"
#include "model/queryset.h"
#include "model/restore.h"
#include "model/table.h"
#include "util/strbuf.h"

/*
 * No ';' in the header: it separates queries even inside a comment. The
 * header says that an end line follows (DDCTL_SAVE_MAGIC_ENDED), so that
 * restore can refuse a script cut short and still read older ones.
 */
#define SAVE_HEADER                                                         \
	DDCTL_SAVE_MAGIC_ENDED " the callsites whose flags\n"                \
	"# differ from the default (=_). Restoring it brings a system to\n" \
	"# exactly this state: callsites not named here are switched off.\n" \
	"# An end marker closes it: without one the script was cut short.\n"

DDCTL_EXPORT int ddctl_table_format_script(struct ddctl_table *table, char **text)
{
	struct ddctl_table *zero = NULL;
	struct ddctl_queryset *set = NULL;
	struct strbuf sb = { 0 };
	int r;

	r = ddctl_table_new_with_flags(table, 0, &zero);
	if (!r)
		r = ddctl_queryset_new_restore(table->ctx, zero, table, &set);
	if (!r)
		r = strbuf_adds(&sb, SAVE_HEADER);
	if (!r)
		r = queryset_format(set, &sb);
	if (!r)
		r = strbuf_adds(&sb, DDCTL_SAVE_END "\n");
	ddctl_queryset_unref(set);
	ddctl_table_unref(zero);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	*text = strbuf_steal(&sb);
	return *text ? 0 : -ENOMEM;
}

DDCTL_EXPORT int ddctl_table_new_from_script(struct ddctl_table *table,
					     struct ddctl_queryset *script,
					     struct ddctl_table **out)
{
	struct ddctl_table *zero = NULL;
	struct ddctl_plan *plan = NULL;
	int r;

	r = ddctl_table_new_with_flags(table, 0, &zero);
	if (!r)
		r = ddctl_plan_new(script, zero, &plan);
	if (!r)
		r = ddctl_table_new_from_plan(plan, out);
	ddctl_plan_unref(plan);
	ddctl_table_unref(zero);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new_from_script(struct ddctl_ctx *ctx,
						struct ddctl_table *now,
						struct ddctl_queryset *script,
						struct ddctl_queryset **out)
{
	struct ddctl_table *want = NULL;
	int r;

	r = ddctl_table_new_from_script(now, script, &want);
	if (!r)
		r = restore_set_now(ctx, now, want, out);
	ddctl_table_unref(want);
	return r;
}
