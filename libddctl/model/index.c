// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The table's index: its sites grouped by module, file (full path and
 * basename) and function, each key's distinct values sorted, and the sites
 * sorted by line. A query then touches only candidate sites: those of the
 * values its most selective positive match-spec can match (a pattern's
 * literal prefix is a range of sorted values), or of its line range. The
 * candidates are checked with ddctl_query_matches(), so the index changes
 * the cost of a query, never its result. Built on first use; a table
 * derived from another (same sites, same order) uses its parent's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/index.h"
#include "model/match.h"
#include "model/query.h"
#include "model/table.h"
#include "model/wildcard.h"
#include "util/util.h"

struct dd_key_index {
	size_t nvalues;
	const char **values; /* distinct, sorted */
	size_t *start;       /* value v's sites: sites[start[v] .. start[v + 1]) */
	size_t *sites;
	size_t *rank;        /* per site: its value's id */
};

struct dd_index {
	struct dd_key_index key[DD_KEY_NR];
	size_t nbase;
	const char **base;  /* the files' basenames, sorted */
	size_t *base_file;  /* the file value of base[i] */
	size_t *by_line;    /* site indices sorted by line */
	size_t nsites;
};

static const char *site_key(const struct ddctl_site *s, enum dd_key key)
{
	switch (key) {
	case DD_KEY_MODULE: return s->module;
	case DD_KEY_FILE: return s->file;
	default: return s->function;
	}
}

struct sort_ctx {
	const struct ddctl_site *sites;
	enum dd_key key;
};

static int cmp_by_key(const void *pa, const void *pb, void *data)
{
	const struct sort_ctx *c = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = strcmp(site_key(&c->sites[a], c->key), site_key(&c->sites[b], c->key));

	return r ? r : (a > b) - (a < b);
}

static int cmp_by_line(const void *pa, const void *pb, void *data)
{
	const struct ddctl_site *sites = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (sites[a].line != sites[b].line)
		return sites[a].line > sites[b].line ? 1 : -1;
	return (a > b) - (a < b);
}

static int build_key(const struct ddctl_table *t, enum dd_key key,
		     struct dd_key_index *k)
{
	struct sort_ctx c = { t->sites, key };
	size_t i, v = 0;

	k->sites = malloc((t->count + 1) * sizeof(*k->sites));
	k->values = malloc((t->count + 1) * sizeof(*k->values));
	k->start = malloc((t->count + 2) * sizeof(*k->start));
	if (!k->sites || !k->values || !k->start)
		return -ENOMEM;
	for (i = 0; i < t->count; i++)
		k->sites[i] = i;
	qsort_r(k->sites, t->count, sizeof(*k->sites), cmp_by_key, &c);
	for (i = 0; i < t->count; i++) {
		const char *s = site_key(&t->sites[k->sites[i]], key);

		if (v == 0 || strcmp(k->values[v - 1], s)) {
			k->values[v] = s;
			k->start[v++] = i;
		}
	}
	k->start[v] = t->count;
	k->nvalues = v;
	k->rank = malloc((t->count + 1) * sizeof(*k->rank));
	if (!k->rank)
		return -ENOMEM;
	for (v = 0; v < k->nvalues; v++)
		for (i = k->start[v]; i < k->start[v + 1]; i++)
			k->rank[k->sites[i]] = v;
	return 0;
}

static const char *basename_of(const char *file)
{
	const char *p = strrchr(file, '/');

	return p ? p + 1 : file;
}

static int cmp_base(const void *pa, const void *pb, void *data)
{
	const struct dd_key_index *files = data;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r = strcmp(basename_of(files->values[a]), basename_of(files->values[b]));

	return r ? r : (a > b) - (a < b);
}

static int build_bases(struct dd_index *x)
{
	struct dd_key_index *files = &x->key[DD_KEY_FILE];
	size_t i;

	x->nbase = files->nvalues;
	x->base = malloc((x->nbase + 1) * sizeof(*x->base));
	x->base_file = malloc((x->nbase + 1) * sizeof(*x->base_file));
	if (!x->base || !x->base_file)
		return -ENOMEM;
	for (i = 0; i < x->nbase; i++)
		x->base_file[i] = i;
	qsort_r(x->base_file, x->nbase, sizeof(*x->base_file), cmp_base, files);
	for (i = 0; i < x->nbase; i++)
		x->base[i] = basename_of(files->values[x->base_file[i]]);
	return 0;
}

static void index_free(void *p)
{
	struct dd_index *x = p;
	int k;

	if (!x)
		return;
	for (k = 0; k < DD_KEY_NR; k++) {
		free(x->key[k].values);
		free(x->key[k].start);
		free(x->key[k].sites);
		free(x->key[k].rank);
	}
	free(x->base);
	free(x->base_file);
	free(x->by_line);
	free(x);
}

static struct dd_index *index_get(struct ddctl_table *t)
{
	struct dd_index *x;
	size_t i;
	int k, r = 0;

	if (t->parent && t->parent->count == t->count)
		return index_get(t->parent);
	if (t->index)
		return t->index;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->nsites = t->count;
	for (k = 0; !r && k < DD_KEY_NR; k++)
		r = build_key(t, k, &x->key[k]);
	if (!r)
		r = build_bases(x);
	x->by_line = r ? NULL : malloc((t->count + 1) * sizeof(*x->by_line));
	if (r || !x->by_line) {
		index_free(x);
		return NULL;
	}
	for (i = 0; i < t->count; i++)
		x->by_line[i] = i;
	qsort_r(x->by_line, t->count, sizeof(*x->by_line), cmp_by_line, t->sites);
	table_set_index(t, x, index_free);
	return x;
}

/* The first of @n sorted strings not below @s (compared on @len bytes). */
static size_t lower_bound(const char *const *v, size_t n, const char *s, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(v[mid], s, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct idlist {
	size_t *id;
	size_t n, alloc;
};

static int idlist_add(struct idlist *l, size_t id)
{
	size_t *n;

	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 16;
		n = realloc(l->id, l->alloc * sizeof(*n));
		if (!n)
			return -ENOMEM;
		l->id = n;
	}
	l->id[l->n++] = id;
	return 0;
}

/*
 * Add to @out the values of @v[0..n) that @pattern matches: the range of
 * its literal prefix, each checked; @map turns an entry into a value id.
 */
static int match_range(const char *const *v, size_t n, const size_t *map,
		       const char *pattern, struct idlist *out)
{
	size_t plen = strcspn(pattern, "*?"), i;
	bool exact = !pattern[plen];
	int r = 0;

	for (i = lower_bound(v, n, pattern, plen); !r && i < n; i++) {
		if (strncmp(v[i], pattern, plen))
			break;
		if (exact ? !strcmp(v[i], pattern) : dd_match_wildcard(pattern, v[i]))
			r = idlist_add(out, map ? map[i] : i);
		else if (exact)
			break;
	}
	return r;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/* The values of @key a positive @pattern matches, without repeats. */
static int key_values(struct dd_index *x, enum dd_key key, const char *pattern,
		      struct idlist *out)
{
	struct dd_key_index *k = &x->key[key];
	size_t i, n = 0;
	int r;

	r = match_range(k->values, k->nvalues, NULL, pattern, out);
	if (r || key != DD_KEY_FILE)
		return r;
	r = match_range(x->base, x->nbase, x->base_file, pattern, out);
	if (r)
		return r;
	if (out->n < 2) /* (qsort() on a NULL array is undefined) */
		return 0;
	qsort(out->id, out->n, sizeof(*out->id), cmp_size);
	for (i = 0; i < out->n; i++)
		if (!n || out->id[n - 1] != out->id[i])
			out->id[n++] = out->id[i];
	out->n = n;
	return 0;
}

static size_t key_cost(const struct dd_key_index *k, const struct idlist *l)
{
	size_t i, c = 0;

	for (i = 0; i < l->n; i++)
		c += k->start[l->id[i] + 1] - k->start[l->id[i]];
	return c;
}

static const enum dd_spec key_spec[DD_KEY_NR] = {
	[DD_KEY_MODULE] = DD_SPEC_MODULE,
	[DD_KEY_FILE] = DD_SPEC_FILE,
	[DD_KEY_FUNC] = DD_SPEC_FUNC,
};

/* The first of the sites sorted by line whose line is at least @line. */
static size_t line_bound(const struct ddctl_table *t, const struct dd_index *x,
			 unsigned int line)
{
	size_t lo = 0, hi = x->nsites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->sites[x->by_line[mid]].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int add_if_matches(struct ddctl_table *t, const struct ddctl_query *q,
			  size_t s, enum dd_spec known, struct dd_sites *out)
{
	size_t *n;

	if (!query_matches_but(q, &t->sites[s], known))
		return 0;
	if (out->n == out->alloc) {
		out->alloc = out->alloc ? out->alloc * 2 : 64;
		n = realloc(out->idx, out->alloc * sizeof(*n));
		if (!n)
			return -ENOMEM;
		out->idx = n;
	}
	out->idx[out->n++] = s;
	return 0;
}

int index_query_sites(struct ddctl_table *t, const struct ddctl_query *q,
		      struct dd_sites *out)
{
	struct dd_index *x = index_get(t);
	struct idlist l[DD_KEY_NR] = { 0 };
	size_t best_cost = t->count, lo = 0, hi = t->count, i, j;
	int best = -1, k, r = 0;

	out->n = 0;
	if (!x)
		return -ENOMEM;
	/* functions first: usually the fewest sites; stop when few enough */
	for (k = DD_KEY_NR - 1; !r && k >= 0 && best_cost > 16; k--) {
		enum dd_spec s = key_spec[k];

		if (!q->spec[s] || q->negated[s])
			continue;
		r = key_values(x, k, q->spec[s], &l[k]);
		if (!r && key_cost(&x->key[k], &l[k]) < best_cost) {
			best_cost = key_cost(&x->key[k], &l[k]);
			best = k;
		}
	}
	if (!r && (q->first_line || q->last_line)) {
		lo = line_bound(t, x, q->first_line);
		hi = q->last_line && q->last_line < UINT_MAX ?
		     line_bound(t, x, q->last_line + 1) : x->nsites;
		if (hi - lo < best_cost)
			best = DD_KEY_NR;
	}
	if (!r && best >= 0 && best < DD_KEY_NR) {
		const struct dd_key_index *ki = &x->key[best];

		for (i = 0; !r && i < l[best].n; i++)
			for (j = ki->start[l[best].id[i]]; !r && j < ki->start[l[best].id[i] + 1]; j++)
				r = add_if_matches(t, q, ki->sites[j], key_spec[best], out);
	} else if (!r && best == DD_KEY_NR) {
		for (i = lo; !r && i < hi; i++)
			r = add_if_matches(t, q, x->by_line[i], DD_SPEC_NR, out);
	} else {
		for (i = 0; !r && i < t->count; i++)
			r = add_if_matches(t, q, i, DD_SPEC_NR, out);
	}
	for (k = 0; k < DD_KEY_NR; k++)
		free(l[k].id);
	return r;
}

const char *const *index_values(struct ddctl_table *t, enum dd_key key, size_t *n)
{
	struct dd_index *x = index_get(t);

	*n = x ? x->key[key].nvalues : 0;
	return x ? x->key[key].values : NULL;
}

const size_t *index_ranks(struct ddctl_table *t, enum dd_key key)
{
	struct dd_index *x = index_get(t);

	return x ? x->key[key].rank : NULL;
}

bool index_has_value(struct ddctl_table *t, enum dd_key key, const char *value)
{
	struct dd_index *x = index_get(t);
	struct dd_key_index *k;
	size_t i;

	if (!x) {
		for (i = 0; i < t->count; i++)
			if (!strcmp(site_key(&t->sites[i], key), value))
				return true;
		return false;
	}
	k = &x->key[key];
	i = lower_bound(k->values, k->nvalues, value, strlen(value) + 1);
	return i < k->nvalues && !strcmp(k->values[i], value);
}
