// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The predictor: apply a query set to a site table, as the kernel would. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/index.h"
#include "model/plan.h"
#include "model/queryset.h"
#include "model/table.h"

/* Each query touches only the sites the table's index names as candidates. */
static int plan_evaluate(struct ddctl_plan *plan)
{
	struct ddctl_table *t = plan->table;
	struct ddctl_queryset *set = plan->set;
	struct dd_sites m = { 0 };
	size_t i, j, s;
	int r = 0;

	for (s = 0; s < t->count; s++)
		plan->final[s] = t->sites[s].flags;
	for (i = 0; !r && i < set->count; i++) {
		const struct ddctl_query *q = &set->queries[i];

		r = index_query_sites(t, q, &m);
		for (j = 0; !r && j < m.n; j++) {
			unsigned int n;

			s = m.idx[j];
			plan->selected[s] = true;
			plan->matched[i]++;
			n = query_apply(q, plan->final[s]);
			if (n != plan->final[s]) {
				plan->changed[i]++;
				plan->final[s] = n;
			}
		}
	}
	free(m.idx);
	for (s = 0; !r && s < t->count; s++)
		if (plan->final[s] != t->sites[s].flags)
			plan->changes[plan->nchanges++] = s;
	return r;
}

DDCTL_EXPORT int ddctl_plan_new(struct ddctl_queryset *set,
				struct ddctl_table *table,
				struct ddctl_plan **out)
{
	struct ddctl_plan *plan;
	size_t i;
	int r;

	for (i = 0; i < set->count; i++)
		if (!set->queries[i].has_flags)
			return -EINVAL;
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	plan->refcount = 1;
	plan->set = ddctl_queryset_ref(set);
	plan->table = ddctl_table_ref(table);
	plan->matched = calloc(set->count + 1, sizeof(*plan->matched));
	plan->changed = calloc(set->count + 1, sizeof(*plan->changed));
	plan->final = calloc(table->count + 1, sizeof(*plan->final));
	plan->selected = calloc(table->count + 1, sizeof(*plan->selected));
	plan->changes = calloc(table->count + 1, sizeof(*plan->changes));
	if (!plan->matched || !plan->changed || !plan->final || !plan->changes ||
	    !plan->selected) {
		ddctl_plan_unref(plan);
		return -ENOMEM;
	}
	r = plan_evaluate(plan);
	if (r < 0) {
		ddctl_plan_unref(plan);
		return r;
	}
	*out = plan;
	return 0;
}

DDCTL_EXPORT struct ddctl_plan *ddctl_plan_ref(struct ddctl_plan *plan)
{
	if (plan)
		plan->refcount++;
	return plan;
}

DDCTL_EXPORT struct ddctl_plan *ddctl_plan_unref(struct ddctl_plan *plan)
{
	if (!plan || --plan->refcount > 0)
		return plan;
	ddctl_queryset_unref(plan->set);
	ddctl_table_unref(plan->table);
	free(plan->matched);
	free(plan->changed);
	free(plan->final);
	free(plan->selected);
	free(plan->changes);
	free(plan);
	return NULL;
}

DDCTL_EXPORT unsigned int ddctl_plan_get_matched(const struct ddctl_plan *plan,
						 size_t idx)
{
	return idx < plan->set->count ? plan->matched[idx] : 0;
}

DDCTL_EXPORT unsigned int ddctl_plan_get_changed(const struct ddctl_plan *plan,
						 size_t idx)
{
	return idx < plan->set->count ? plan->changed[idx] : 0;
}

DDCTL_EXPORT size_t ddctl_plan_get_change_count(const struct ddctl_plan *plan)
{
	return plan->nchanges;
}

DDCTL_EXPORT int ddctl_plan_get_change(const struct ddctl_plan *plan,
				       size_t idx,
				       const struct ddctl_site **site,
				       unsigned int *old_flags,
				       unsigned int *new_flags)
{
	size_t s;

	if (idx >= plan->nchanges)
		return -ERANGE;
	s = plan->changes[idx];
	*site = &plan->table->sites[s];
	if (old_flags)
		*old_flags = plan->table->sites[s].flags;
	if (new_flags)
		*new_flags = plan->final[s];
	return 0;
}

DDCTL_EXPORT unsigned int ddctl_plan_get_final_flags(const struct ddctl_plan *plan,
						     size_t idx)
{
	return idx < plan->table->count ? plan->final[idx] : 0;
}
