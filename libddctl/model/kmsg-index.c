// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Attribution: the callsite a decorated kernel log line came from, found
 * in a table's sites sorted by module, function, file and line, the
 * format telling apart several callsites on one source line; lines
 * without a decoration, or with one the kernel cut, by their text
 * (model/kmsg-match.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/kmsg-match.h"
#include "model/table.h"

#define DECORATION_FLAGS (DDCTL_FLAG_MODNAME | DDCTL_FLAG_FUNCNAME | \
			  DDCTL_FLAG_SOURCENAME | DDCTL_FLAG_LINENO)

struct ddctl_kmsg_index {
	struct ddctl_table *table;
	size_t *order; /* site indices sorted by module, function, file, line */
};

static int cmp_key(const struct ddctl_site *s, const char *module,
		   const char *function, const char *file, unsigned int line)
{
	int r = strcmp(s->module, module);

	if (!r)
		r = strcmp(s->function, function);
	if (!r)
		r = strcmp(s->file, file);
	if (!r)
		r = (s->line > line) - (s->line < line);
	return r;
}

static int cmp_sites(const void *pa, const void *pb, void *data)
{
	const struct ddctl_table *t = data;
	const struct ddctl_site *b = &t->sites[*(const size_t *)pb];
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	int r = cmp_key(&t->sites[ia], b->module, b->function, b->file, b->line);

	return r ? r : (ia > ib) - (ia < ib);
}

DDCTL_EXPORT int ddctl_kmsg_index_new(struct ddctl_table *table,
				      struct ddctl_kmsg_index **out)
{
	struct ddctl_kmsg_index *idx = calloc(1, sizeof(*idx));
	size_t i;

	if (idx)
		idx->order = malloc((table->count + 1) * sizeof(*idx->order));
	if (!idx || !idx->order) {
		free(idx);
		return -ENOMEM;
	}
	for (i = 0; i < table->count; i++)
		idx->order[i] = i;
	qsort_r(idx->order, table->count, sizeof(*idx->order), cmp_sites, table);
	idx->table = ddctl_table_ref(table);
	*out = idx;
	return 0;
}

DDCTL_EXPORT void ddctl_kmsg_index_free(struct ddctl_kmsg_index *idx)
{
	if (!idx)
		return;
	ddctl_table_unref(idx->table);
	free(idx->order);
	free(idx);
}

static bool site_fits(const struct ddctl_site *s,
		      const struct ddctl_kmsg_prefix *p)
{
	return (!(p->flags & DDCTL_FLAG_MODNAME) || !strcmp(s->module, p->module)) &&
	       (!(p->flags & DDCTL_FLAG_FUNCNAME) || !strcmp(s->function, p->function)) &&
	       (!(p->flags & DDCTL_FLAG_SOURCENAME) || !strcmp(s->file, p->file)) &&
	       (!(p->flags & DDCTL_FLAG_LINENO) || s->line == p->line);
}

DDCTL_EXPORT int ddctl_kmsg_index_find(const struct ddctl_kmsg_index *idx,
				       const struct ddctl_kmsg_prefix *prefix,
				       size_t *site)
{
	const struct ddctl_table *t = idx->table;
	size_t lo = 0, hi = t->count, i;
	int n = 0;

	if ((prefix->flags & DECORATION_FLAGS) != DECORATION_FLAGS) {
		/* a partial decoration: every site that fits */
		for (i = 0; i < t->count; i++) {
			if (!site_fits(&t->sites[idx->order[i]], prefix))
				continue;
			if (!n++)
				*site = idx->order[i];
		}
		return n ? n : -ENOENT;
	}
	while (lo < hi) { /* the first site not before the key */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(&t->sites[idx->order[mid]], prefix->module,
			    prefix->function, prefix->file, prefix->line) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < t->count && site_fits(&t->sites[idx->order[i]], prefix); i++)
		if (!n++)
			*site = idx->order[i];
	if (n > 1 && prefix->message) {
		/* one source line, several callsites: the format tells */
		size_t fit = 0, m = 0;

		for (i = lo; i < lo + (size_t)n; i++)
			if (kmsg_format_fits(t->sites[idx->order[i]].format, prefix->message) &&
			    !m++)
				fit = idx->order[i];
		if (m) {
			*site = fit;
			return (int)m;
		}
	}
	return n ? n : -ENOENT;
}

DDCTL_EXPORT int ddctl_kmsg_index_find_message(const struct ddctl_kmsg_index *idx,
					       const char *text, size_t *site)
{
	return kmsg_match_message(idx->table, idx->order, idx->table->count,
				  text, site);
}

DDCTL_EXPORT int ddctl_kmsg_index_find_cut(const struct ddctl_kmsg_index *idx,
					   const char *text, unsigned int flags,
					   size_t *site, const char **message)
{
	return kmsg_match_cut(idx->table, idx->order, idx->table->count, text,
			      flags, site, message);
}
