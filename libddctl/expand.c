// SPDX-License-Identifier: LGPL-2.1-or-later
/* Expansion: negated queries rewritten as positive ones with the same effect. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libddctl-private.h"

/* The flags word of @q as the kernel reads it, e.g. "+pf" or "=". */
static const char *flags_word(const struct ddctl_query *q)
{
	const char *sp = strrchr(q->canonical, ' ');

	return sp ? sp + 1 : q->canonical;
}

static int expand_one(struct ddctl_table *t, const struct ddctl_query *q,
		      struct strbuf *out)
{
	bool *selected = calloc(t->count + 1, sizeof(*selected));
	struct dd_sites m = { 0 };
	size_t i;
	int r;

	if (!selected)
		return -ENOMEM;
	r = index_query_sites(t, q, &m);
	for (i = 0; !r && i < m.n; i++)
		selected[m.idx[i]] = true;
	if (!r)
		r = address_sites(t, selected, flags_word(q), out);
	free(m.idx);
	free(selected);
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
	size_t i;
	int r;

	for (i = 0; i < set->count; i++)
		if (!set->queries[i].has_flags)
			return -EINVAL;
	r = ddctl_queryset_new(set->ctx, &n);
	for (i = 0; !r && i < set->count; i++) {
		const struct ddctl_query *q = &set->queries[i];

		sb.len = 0;
		if (sb.buf)
			sb.buf[0] = '\0';
		if (ddctl_query_is_negated(q))
			r = expand_one(table, q, &sb);
		else
			r = strbuf_adds(&sb, q->canonical);
		if (!r && sb.len)
			r = ddctl_queryset_parse(n, sb.buf, 0);
		if (r == -EINVAL)
			err(set->ctx, "expansion of query %zu does not parse: %s\n",
			    i + 1, ddctl_queryset_get_error(n, NULL, NULL, NULL));
	}
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
