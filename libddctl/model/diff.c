// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Comparing two site tables: callsites matched by identity, flags compared. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/diff.h"
#include "model/table.h"

/* Sites are the same callsite when module, file, line and function agree. */
static int cmp_identity(const struct ddctl_site *a, const struct ddctl_site *b)
{
	int r = strcmp(a->module, b->module);

	if (!r)
		r = strcmp(a->file, b->file);
	if (!r)
		r = (a->line > b->line) - (a->line < b->line);
	if (!r)
		r = strcmp(a->function, b->function);
	if (!r)
		r = strcmp(a->format, b->format);
	return r;
}

static int cmp_idx(const void *pa, const void *pb, void *data)
{
	const struct ddctl_table *t = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = cmp_identity(&t->sites[a], &t->sites[b]);

	return r ? r : (a > b) - (a < b);
}

static size_t *sorted_index(const struct ddctl_table *t)
{
	size_t *idx = malloc((t->count + 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	for (i = 0; i < t->count; i++)
		idx[i] = i;
	qsort_r(idx, t->count, sizeof(*idx), cmp_idx, (void *)t);
	return idx;
}

/*
 * For each site of @now, the flags @want says it should have (sites
 * matched by identity). Calls @fn for every site that differs.
 */
int table_diff(const struct ddctl_table *want, const unsigned int *wflags,
		      const struct ddctl_table *now,
		      void (*fn)(size_t want_idx, size_t now_idx,
				 unsigned int want_flags,
				 void *data),
		      void *data)
{
	size_t *wi = sorted_index(want), *ni = sorted_index(now);
	size_t i = 0, j = 0;

	if (!wi || !ni) {
		free(wi);
		free(ni);
		return -ENOMEM;
	}
	while (i < want->count && j < now->count) {
		int c = cmp_identity(&want->sites[wi[i]], &now->sites[ni[j]]);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			unsigned int wf = wflags ? wflags[wi[i]] :
						   want->sites[wi[i]].flags;

			if (wf != now->sites[ni[j]].flags)
				fn(wi[i], ni[j], wf, data);
			i++;
			j++;
		}
	}
	free(wi);
	free(ni);
	return 0;
}
