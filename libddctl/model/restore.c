// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Restoring a state: the queries that bring the sites of one table to the
 * flags they have in another, and tables derived from a plan's outcome.
 * Used to undo a set, to restore saved settings and to repair a refused
 * write.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/address.h"
#include "model/diff.h"
#include "model/limits.h"
#include "model/plan.h"
#include "model/queryset.h"
#include "model/restore.h"
#include "model/table.h"
#include "util/strbuf.h"

struct restore {
	bool *selected;
	unsigned int *want;
};

static void note_restore(size_t want_idx, size_t idx, unsigned int want,
			 void *data)
{
	struct restore *r = data;

	r->selected[idx] = true;
	r->want[idx] = want;
}

/*
 * The `=flags` queries that bring @now to @want. @compact (a set sent at
 * once): sites already at a group's flags that stay there may be named
 * along, with module wildcards and short spellings; otherwise the set names
 * exactly the sites that differ, in spellings that do not depend on @now.
 */
static int restore_set(struct ddctl_ctx *ctx, struct ddctl_table *now,
		       struct ddctl_table *want, bool compact,
		       struct ddctl_queryset **out)
{
	struct restore rs = { 0 };
	struct strbuf sb = { 0 };
	struct ddctl_queryset *set = NULL;
	char flags[DDCTL_FLAGS_BUFSZ];
	bool *sel = NULL, *ok = NULL, wanted[DD_FLAGS_ALL + 1] = { false };
	unsigned int f;
	size_t s;
	int r;

	rs.selected = calloc(now->count + 1, sizeof(*rs.selected));
	rs.want = calloc(now->count + 1, sizeof(*rs.want));
	sel = calloc(now->count + 1, sizeof(*sel));
	ok = calloc(now->count + 1, sizeof(*ok));
	r = rs.selected && rs.want && sel && ok ? 0 : -ENOMEM;
	if (!r)
		r = table_diff(want, NULL, now, note_restore, &rs);
	for (s = 0; !r && s < now->count; s++)
		if (rs.selected[s] && rs.want[s] <= DD_FLAGS_ALL)
			wanted[rs.want[s]] = true;
	/* one group of queries per target flag value: "=flags" */
	for (f = 0; !r && f <= DD_FLAGS_ALL; f++) {
		bool any = false;

		if (!wanted[f])
			continue;

		for (s = 0; s < now->count; s++) {
			sel[s] = rs.selected[s] && rs.want[s] == f;
			ok[s] = sel[s] || (!rs.selected[s] && now->sites[s].flags == f);
			any |= sel[s];
		}
		ddctl_flags_format(f, flags);
		if (any)
			r = address_sites(now, sel, compact ? ok : NULL, compact,
					  f ? flags : "=", &sb);
	}
	if (!r)
		r = ddctl_queryset_new(ctx, &set);
	if (!r && sb.len)
		r = ddctl_queryset_parse(set, sb.buf, 0);
	if (r == -EINVAL)
		r = -ENOTRECOVERABLE;
	strbuf_release(&sb);
	free(rs.selected);
	free(rs.want);
	free(sel);
	free(ok);
	if (r < 0) {
		ddctl_queryset_unref(set);
		return r;
	}
	*out = set;
	return 0;
}

DDCTL_EXPORT int ddctl_queryset_new_restore(struct ddctl_ctx *ctx,
					    struct ddctl_table *now,
					    struct ddctl_table *want,
					    struct ddctl_queryset **out)
{
	return restore_set(ctx, now, want, false, out);
}

/* A set sent at once: compact (model/save.c). */
int restore_set_now(struct ddctl_ctx *ctx, struct ddctl_table *now,
		    struct ddctl_table *want, struct ddctl_queryset **out)
{
	return restore_set(ctx, now, want, true, out);
}

DDCTL_EXPORT int ddctl_table_new_from_plan(struct ddctl_plan *plan,
					   struct ddctl_table **out)
{
	struct ddctl_table *t;
	size_t s;
	int r = table_derive(plan->table, &t);

	if (r < 0)
		return r;
	for (s = 0; s < t->count; s++)
		table_set_site_flags(t, s, plan->final[s]);
	*out = t;
	return 0;
}

DDCTL_EXPORT int ddctl_table_new_with_flags(struct ddctl_table *from,
					    unsigned int flags,
					    struct ddctl_table **out)
{
	struct ddctl_table *t;
	size_t s;
	int r = table_derive(from, &t);

	if (r < 0)
		return r;
	for (s = 0; s < t->count; s++)
		table_set_site_flags(t, s, flags & DD_FLAGS_ALL);
	*out = t;
	return 0;
}
