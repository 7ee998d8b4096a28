// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The table's index: its sites grouped by module, file (full path and
 * basename) and function, each key's distinct values sorted, and the sites
 * sorted by line. A query then touches only candidate sites: those of the
 * values its most selective positive match-spec can match (a pattern's
 * literal prefix is a range of sorted values), or of its line range. The
 * candidates are checked with ddctl_query_matches(), so the index changes
 * the cost of a query, never its result. Each part is built on first use
 * (a key's strings compared once per distinct value, its sites then placed
 * by counting); a table derived from another (same sites, same order) uses
 * its parent's.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
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
	bool built;
	size_t nvalues;
	const char **values; /* distinct, sorted */
	size_t *start;       /* value v's sites: sites[start[v] .. start[v + 1]) */
	size_t *sites;
	size_t *rank;        /* per site: its value's id */
};

/* Each part is built when a caller first needs it. */
struct dd_index {
	const struct ddctl_table *t; /* the table whose sites these are */
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

/*
 * Stable counting sort: @out gets the @n site indices of @in (NULL: 0 to
 * n - 1) ordered by @digit (below @nbuckets); @start, when given, gets
 * each digit's first position and @start[nbuckets] = @n.
 */
static int sort_by_digit(const size_t *in, size_t n, size_t nbuckets,
			 size_t (*digit)(const void *data, size_t site),
			 const void *data, size_t *out, size_t *start)
{
	size_t *pos = calloc(nbuckets + 1, sizeof(*pos)), i, d, sum = 0, c;

	if (!pos)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pos[digit(data, in ? in[i] : i)]++;
	for (d = 0; d <= nbuckets; d++) {
		c = pos[d];
		pos[d] = sum;
		sum += c;
	}
	if (start)
		memcpy(start, pos, (nbuckets + 1) * sizeof(*start));
	for (i = 0; i < n; i++) {
		size_t s = in ? in[i] : i;

		out[pos[digit(data, s)]++] = s;
	}
	free(pos);
	return 0;
}

static size_t rank_digit(const void *data, size_t site)
{
	return ((const size_t *)data)[site];
}

static size_t line_low_digit(const void *data, size_t site)
{
	return ((const struct ddctl_site *)data)[site].line & 0xffff;
}

static size_t line_high_digit(const void *data, size_t site)
{
	return ((const struct ddctl_site *)data)[site].line >> 16;
}

static size_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)(h ^ h >> 32);
}

/* Where @s is in @slot (@mask + 1 of them: value ids + 1, 0 free), or goes. */
static size_t slot_of(const size_t *slot, size_t mask, const char *const *values,
		      const char *s)
{
	size_t h = hash_str(s) & mask;

	while (slot[h] && strcmp(values[slot[h] - 1], s))
		h = (h + 1) & mask;
	return h;
}

/* @slot twice as big, with the @n values placed again; NULL: no memory. */
static size_t *grow_slots(size_t *slot, size_t *mask, const char *const *values,
			  size_t n)
{
	size_t bigger = *mask * 2 + 1, v, *to = calloc(bigger + 1, sizeof(*to));

	if (!to)
		return NULL;
	for (v = 0; v < n; v++)
		to[slot_of(to, bigger, values, values[v])] = v + 1;
	free(slot);
	*mask = bigger;
	return to;
}

/*
 * Each site's string of @key as a value id, 0, 1, ... in order of first
 * appearance; @values[id] is the string of the first site with it.
 * Neighbours often share a string (the kernel lists a module's sites
 * together): compared first, hashed only when they differ. The hash
 * table stays at most half full, its size a matter of distinct values.
 */
static int intern(const struct ddctl_table *t, enum dd_key key,
		  const char **values, size_t *id, size_t *nvalues)
{
	size_t mask = 255, h, i, n = 0, *slot = calloc(mask + 1, sizeof(*slot)), *to;
	const char *prev = NULL;

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->count; i++) {
		const char *s = site_key(&t->sites[i], key);

		if (prev && (s == prev || !strcmp(s, prev))) {
			id[i] = id[i - 1];
			continue;
		}
		prev = s;
		h = slot_of(slot, mask, values, s);
		if (!slot[h] && 2 * (n + 1) > mask + 1) {
			to = grow_slots(slot, &mask, values, n);
			if (!to) {
				free(slot);
				return -ENOMEM;
			}
			slot = to;
			h = slot_of(slot, mask, values, s);
		}
		if (!slot[h]) {
			values[n] = s;
			slot[h] = ++n;
		}
		id[i] = slot[h] - 1;
	}
	free(slot);
	*nvalues = n;
	return 0;
}

static int cmp_value(const void *pa, const void *pb, void *data)
{
	const char *const *values = data;

	return strcmp(values[*(const size_t *)pa], values[*(const size_t *)pb]);
}

/*
 * The key's distinct values sorted (the strings compared once per value,
 * not per site) and its sites by value, in table order within a value.
 */
static int build_key(const struct ddctl_table *t, enum dd_key key,
		     struct dd_key_index *k)
{
	size_t n = t->count, i, v, *order = NULL, *rank_of = NULL;
	const char **seen = NULL;
	int r;

	k->rank = malloc((n + 1) * sizeof(*k->rank));
	k->sites = malloc((n + 1) * sizeof(*k->sites));
	seen = malloc((n + 1) * sizeof(*seen));
	r = k->rank && k->sites && seen ? intern(t, key, seen, k->rank, &k->nvalues) : -ENOMEM;
	if (!r) {
		order = malloc((k->nvalues + 1) * sizeof(*order));
		rank_of = malloc((k->nvalues + 1) * sizeof(*rank_of));
		k->values = malloc((k->nvalues + 1) * sizeof(*k->values));
		k->start = malloc((k->nvalues + 1) * sizeof(*k->start));
		r = order && rank_of && k->values && k->start ? 0 : -ENOMEM;
	}
	if (!r) {
		for (v = 0; v < k->nvalues; v++)
			order[v] = v;
		qsort_r(order, k->nvalues, sizeof(*order), cmp_value, seen);
		for (v = 0; v < k->nvalues; v++) {
			rank_of[order[v]] = v;
			k->values[v] = seen[order[v]];
		}
		for (i = 0; i < n; i++)
			k->rank[i] = rank_of[k->rank[i]];
		r = sort_by_digit(NULL, n, k->nvalues, rank_digit, k->rank,
				  k->sites, k->start);
	}
	free(order);
	free(rank_of);
	free(seen);
	k->built = r == 0;
	return r;
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

/* The sites by line, in table order within a line: 16 bits at a time. */
static int build_lines(struct dd_index *x)
{
	const struct ddctl_table *t = x->t;
	unsigned int max = 0;
	size_t i, *tmp;
	int r;

	for (i = 0; i < t->count; i++)
		if (t->sites[i].line > max)
			max = t->sites[i].line;
	x->by_line = malloc((t->count + 1) * sizeof(*x->by_line));
	tmp = malloc((t->count + 1) * sizeof(*tmp));
	r = x->by_line && tmp ? 0 : -ENOMEM;
	if (!r && max <= 0xffff)
		r = sort_by_digit(NULL, t->count, max + 1, line_low_digit, t->sites,
				  x->by_line, NULL);
	else if (!r)
		r = sort_by_digit(NULL, t->count, 0x10000, line_low_digit, t->sites,
				  tmp, NULL);
	if (!r && max > 0xffff)
		r = sort_by_digit(tmp, t->count, (max >> 16) + 1, line_high_digit,
				  t->sites, x->by_line, NULL);
	free(tmp);
	return r;
}

static void key_free(struct dd_key_index *k)
{
	free(k->values);
	free(k->start);
	free(k->sites);
	free(k->rank);
	memset(k, 0, sizeof(*k));
}

static void index_free(void *p)
{
	struct dd_index *x = p;
	int k;

	if (!x)
		return;
	for (k = 0; k < DD_KEY_NR; k++)
		key_free(&x->key[k]);
	free(x->base);
	free(x->base_file);
	free(x->by_line);
	free(x);
}

static struct dd_index *index_get(struct ddctl_table *t)
{
	struct dd_index *x;

	if (t->parent && t->parent->count == t->count)
		return index_get(t->parent);
	if (t->index)
		return t->index;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	x->t = t;
	x->nsites = t->count;
	table_set_index(t, x, index_free);
	return x;
}

/* @x's index of @key, built on first use; NULL: no memory */
static struct dd_key_index *key_get(struct dd_index *x, enum dd_key key)
{
	struct dd_key_index *k = &x->key[key];

	if (!k->built && build_key(x->t, key, k) < 0)
		key_free(k);
	return k->built ? k : NULL;
}

/* The files' basenames sorted, built on first use. */
static int bases_get(struct dd_index *x)
{
	if (x->base)
		return 0;
	if (!key_get(x, DD_KEY_FILE) || build_bases(x) < 0) {
		free(x->base);
		free(x->base_file);
		x->base = NULL;
		x->base_file = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The sites by line, built on first use. */
static int lines_get(struct dd_index *x)
{
	if (x->by_line)
		return 0;
	if (build_lines(x) < 0) {
		free(x->by_line);
		x->by_line = NULL;
		return -ENOMEM;
	}
	return 0;
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
	struct dd_key_index *k = key_get(x, key);
	size_t i, n = 0;
	int r;

	if (!k)
		return -ENOMEM;
	r = match_range(k->values, k->nvalues, NULL, pattern, out);
	if (r || key != DD_KEY_FILE)
		return r;
	r = bases_get(x);
	if (!r)
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
	if (!r && (q->first_line || q->last_line))
		r = lines_get(x);
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
	struct dd_key_index *k = x ? key_get(x, key) : NULL;

	*n = k ? k->nvalues : 0;
	return k ? k->values : NULL;
}

const size_t *index_ranks(struct ddctl_table *t, enum dd_key key)
{
	struct dd_index *x = index_get(t);
	struct dd_key_index *k = x ? key_get(x, key) : NULL;

	return k ? k->rank : NULL;
}

bool index_has_value(struct ddctl_table *t, enum dd_key key, const char *value)
{
	struct dd_index *x = index_get(t);
	struct dd_key_index *k = x ? key_get(x, key) : NULL;
	size_t i;

	if (!k) {
		for (i = 0; i < t->count; i++)
			if (!strcmp(site_key(&t->sites[i], key), value))
				return true;
		return false;
	}
	i = lower_bound(k->values, k->nvalues, value, strlen(value) + 1);
	return i < k->nvalues && !strcmp(k->values[i], value);
}
