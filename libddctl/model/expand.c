// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Expansion: negated queries rewritten as positive ones with the same effect. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/address.h"
#include "model/index.h"
#include "model/plan.h"
#include "model/queryset.h"
#include "model/table.h"
#include "util/strbuf.h"

/* The flags word of @q as the kernel reads it, e.g. "+pf" or "=". */
static const char *flags_word(const struct ddctl_query *q)
{
	const char *sp = strrchr(q->canonical, ' ');

	return sp ? sp + 1 : q->canonical;
}

/*
 * @q's sites as positive queries. Sites @q selects whose flags it would not
 * change (@cur: the flags when the set reaches @q), and sites it does not
 * select that its flags would leave as they are, may be named too: the
 * expansion is exact, never changing a site @q leaves alone, and can use
 * whole modules, module wildcards and short spellings more often.
 */
static int expand_one(struct ddctl_table *t, const struct ddctl_query *q,
		      const bool *selected, const unsigned int *cur,
		      struct strbuf *out)
{
	bool *need = calloc(t->count + 1, sizeof(*need));
	bool *allowed = calloc(t->count + 1, sizeof(*allowed));
	size_t s;
	int r = need && allowed ? 0 : -ENOMEM;

	for (s = 0; !r && s < t->count; s++) {
		bool change = query_apply(q, cur[s]) != cur[s];

		need[s] = selected[s] && change;
		allowed[s] = selected[s] || !change;
	}
	if (!r)
		r = address_sites(t, need, allowed, true, flags_word(q), out);
	free(need);
	free(allowed);
	return r;
}

static int same_effect(struct ddctl_queryset *a, struct ddctl_queryset *b,
		       struct ddctl_table *t)
{
	struct ddctl_plan *pa = NULL, *pb = NULL;
	size_t s;
	int r;

	r = ddctl_plan_new(a, t, &pa);
	if (!r)
		r = ddctl_plan_new(b, t, &pb);
	for (s = 0; !r && s < t->count; s++) {
		if (pa->final[s] != pb->final[s]) {
			err(t->ctx, "expansion differs at %s:%u [%s]%s\n",
			    t->sites[s].file, t->sites[s].line,
			    t->sites[s].module, t->sites[s].function);
			r = -ENOTRECOVERABLE;
		}
	}
	ddctl_plan_unref(pa);
	ddctl_plan_unref(pb);
	return r;
}

DDCTL_EXPORT int ddctl_queryset_expand(struct ddctl_queryset *set,
				       struct ddctl_table *table,
				       struct ddctl_queryset **out)
{
	struct ddctl_queryset *n = NULL;
	struct strbuf sb = { 0 };
	struct dd_sites m = { 0 };
	unsigned int *cur = NULL;
	bool *selected = NULL;
	size_t i, s;
	int r;

	for (i = 0; i < set->count; i++)
		if (!set->queries[i].has_flags)
			return -EINVAL;
	cur = calloc(table->count + 1, sizeof(*cur));
	selected = calloc(table->count + 1, sizeof(*selected));
	r = cur && selected ? ddctl_queryset_new(set->ctx, &n) : -ENOMEM;
	for (s = 0; !r && s < table->count; s++)
		cur[s] = table->sites[s].flags;
	for (i = 0; !r && i < set->count; i++) {
		const struct ddctl_query *q = &set->queries[i];

		strbuf_reset(&sb);
		r = index_query_sites(table, q, &m);
		for (s = 0; !r && s < m.n; s++)
			selected[m.idx[s]] = true;
		if (!r && ddctl_query_is_negated(q))
			r = expand_one(table, q, selected, cur, &sb);
		else if (!r)
			r = strbuf_adds(&sb, q->canonical);
		for (s = 0; s < m.n; s++) {
			selected[m.idx[s]] = false;
			cur[m.idx[s]] = query_apply(q, cur[m.idx[s]]);
		}
		if (!r && sb.len)
			r = ddctl_queryset_parse(n, sb.buf, 0);
		if (r == -EINVAL)
			err(set->ctx, "expansion of query %zu does not parse: %s\n",
			    i + 1, ddctl_queryset_get_error(n, NULL, NULL, NULL));
	}
	free(m.idx);
	free(cur);
	free(selected);
	strbuf_release(&sb);
	if (!r)
		r = same_effect(set, n, table);
	if (r < 0) {
		ddctl_queryset_unref(n);
		return r == -EINVAL ? -ENOTRECOVERABLE : r;
	}
	*out = n;
	return 0;
}
