// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Comparing two site tables: callsites matched by identity, flags compared. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/diff.h"
#include "model/index.h"
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

/*
 * Sites in identity order: the index's ranks (model/index.c) sort as the
 * strings do, so the strings are compared only where all else ties.
 */
struct ranks {
	const struct ddctl_table *t;
	const size_t *module, *file, *function;
};

static int cmp_rank(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int cmp_ranked(const void *pa, const void *pb, void *data)
{
	const struct ranks *k = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = cmp_rank(k->module[a], k->module[b]);

	if (!r)
		r = cmp_rank(k->file[a], k->file[b]);
	if (!r)
		r = cmp_rank(k->t->sites[a].line, k->t->sites[b].line);
	if (!r)
		r = cmp_rank(k->function[a], k->function[b]);
	if (!r)
		r = strcmp(k->t->sites[a].format, k->t->sites[b].format);
	return r ? r : cmp_rank(a, b);
}

/* @idx's @n sites of @t sorted by identity, then by index. */
static int sort_identity(struct ddctl_table *t, size_t *idx, size_t n)
{
	struct ranks k = {
		.t = t,
		.module = index_ranks(t, DD_KEY_MODULE),
		.file = index_ranks(t, DD_KEY_FILE),
		.function = index_ranks(t, DD_KEY_FUNC),
	};

	if (!k.module || !k.file || !k.function)
		return -ENOMEM;
	qsort_r(idx, n, sizeof(*idx), cmp_ranked, &k);
	return 0;
}

static size_t *sorted_index(struct ddctl_table *t)
{
	size_t *idx = malloc((t->count + 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	for (i = 0; i < t->count; i++)
		idx[i] = i;
	if (sort_identity(t, idx, t->count) < 0) {
		free(idx);
		return NULL;
	}
	return idx;
}

/* Has @now @want's sites, in @want's order (a read-back, a derived table)? */
static bool same_sites(const struct ddctl_table *want, const struct ddctl_table *now)
{
	size_t i;

	if (want->count != now->count)
		return false;
	for (i = 0; i < want->count; i++)
		if (cmp_identity(&want->sites[i], &now->sites[i]))
			return false;
	return true;
}

/*
 * table_diff() on tables of the same sites in the same order: each site
 * is its own match, and the differing ones are reported in the order the
 * merge below reports them (by identity, then by index).
 */
static int diff_in_place(struct ddctl_table *want, const unsigned int *wflags,
			 const struct ddctl_table *now,
			 void (*fn)(size_t want_idx, size_t now_idx,
				    unsigned int want_flags, void *data),
			 void *data)
{
	size_t *idx = malloc((want->count + 1) * sizeof(*idx)), i, n = 0;
	int r = 0;

	if (!idx)
		return -ENOMEM;
	for (i = 0; i < want->count; i++)
		if ((wflags ? wflags[i] : want->sites[i].flags) != now->sites[i].flags)
			idx[n++] = i;
	if (n > 1)
		r = sort_identity(want, idx, n);
	for (i = 0; !r && i < n; i++)
		fn(idx[i], idx[i], wflags ? wflags[idx[i]] : want->sites[idx[i]].flags,
		   data);
	free(idx);
	return r;
}

/*
 * For each site of @now, the flags @want says it should have (sites
 * matched by identity). Calls @fn for every site that differs.
 */
int table_diff(struct ddctl_table *want, const unsigned int *wflags,
	       struct ddctl_table *now,
	       void (*fn)(size_t want_idx, size_t now_idx,
			  unsigned int want_flags,
			  void *data),
	       void *data)
{
	size_t *wi, *ni, i = 0, j = 0;

	if (same_sites(want, now))
		return diff_in_place(want, wflags, now, fn, data);
	wi = sorted_index(want);
	ni = sorted_index(now);
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
