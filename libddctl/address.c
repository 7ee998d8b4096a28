// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Naming an exact set of callsites with positive queries: whole modules
 * where possible, then files, functions, lines and single sites. Used to
 * expand negated queries for kernels that cannot parse them and to restore
 * sites after a refused write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libddctl-private.h"

struct addr {
	struct ddctl_table *t;
	const bool *selected;
	bool *covered;
	const char *flags;
	struct strbuf *out;
	size_t *idx; /* the selected sites, sorted */
	size_t lo, hi; /* the (module, class) group in idx[] */
	struct dd_sites m; /* what a candidate matches */
};

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

struct order {
	const struct ddctl_table *t;
	const size_t *module, *file, *func; /* index ranks: string order */
};

static int cmp_rank(const size_t *rank, size_t a, size_t b)
{
	return (rank[a] > rank[b]) - (rank[a] < rank[b]);
}

static int cmp_site(const void *pa, const void *pb, void *data)
{
	const struct order *o = data;
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct ddctl_site *a = &o->t->sites[ia];
	const struct ddctl_site *b = &o->t->sites[ib];
	int r;

	r = cmp_rank(o->module, ia, ib);
	if (!r)
		r = strcmp_null(a->class_name, b->class_name);
	if (!r)
		r = cmp_rank(o->file, ia, ib);
	if (!r)
		r = cmp_rank(o->func, ia, ib);
	if (!r)
		r = (a->line > b->line) - (a->line < b->line);
	if (!r)
		r = (ia > ib) - (ia < ib);
	return r;
}

/* Try one candidate; emit it when it selects only selected sites. */
static int try_candidate(struct addr *a, const struct ddctl_site *site,
			 int depth, bool *done)
{
	struct ddctl_query q = { 0 };
	char line[16], *fileword = NULL;
	size_t i;
	int r = -ENOMEM;

	*done = false;
	q.spec[DD_SPEC_MODULE] = strdup(site->module);
	if (site->class_name)
		q.spec[DD_SPEC_CLASS] = strdup(site->class_name);
	if (depth >= 1)
		q.spec[DD_SPEC_FILE] = strdup(site->file);
	if (depth == 2)
		q.spec[DD_SPEC_FUNC] = strdup(site->function);
	if (depth >= 3)
		q.first_line = q.last_line = site->line;
	if (depth == 4) {
		q.spec[DD_SPEC_FORMAT] = malloc(strlen(site->format) + 2);
		if (q.spec[DD_SPEC_FORMAT]) {
			q.spec[DD_SPEC_FORMAT][0] = '^';
			strcpy(q.spec[DD_SPEC_FORMAT] + 1, site->format);
		}
	}
	if (!q.spec[DD_SPEC_MODULE] || (site->class_name && !q.spec[DD_SPEC_CLASS]) ||
	    (depth >= 1 && !q.spec[DD_SPEC_FILE]) ||
	    (depth == 2 && !q.spec[DD_SPEC_FUNC]) ||
	    (depth == 4 && !q.spec[DD_SPEC_FORMAT]))
		goto out;
	r = index_query_sites(a->t, &q, &a->m);
	for (i = 0; !r && i < a->m.n; i++)
		if (!a->selected[a->m.idx[i]])
			goto out;
	for (i = 0; !r && i < a->m.n; i++)
		a->covered[a->m.idx[i]] = true;
	r = strbuf_adds(a->out, q.spec[DD_SPEC_CLASS] ? "class " : "");
	if (!r && q.spec[DD_SPEC_CLASS])
		r = strbuf_add_word(a->out, q.spec[DD_SPEC_CLASS]);
	if (!r)
		r = strbuf_addf(a->out, "%smodule ", q.spec[DD_SPEC_CLASS] ? " " : "");
	if (!r)
		r = strbuf_add_word(a->out, site->module);
	/* file:line keeps the single-site form within the word limit */
	if (!r && depth >= 1) {
		if (depth == 4)
			snprintf(line, sizeof(line), ":%u", site->line);
		if (asprintf(&fileword, "%s%s", site->file, depth == 4 ? line : "") < 0)
			fileword = NULL;
		r = fileword ? strbuf_adds(a->out, " file ") : -ENOMEM;
		if (!r)
			r = strbuf_add_word(a->out, fileword);
	}
	if (!r && depth == 2) {
		r = strbuf_adds(a->out, " func ");
		if (!r)
			r = strbuf_add_word(a->out, site->function);
	}
	if (!r && depth == 3)
		r = strbuf_addf(a->out, " line %u", site->line);
	if (!r && depth == 4) {
		struct ddctl_query fq = { 0 };

		fq.spec[DD_SPEC_FORMAT] = q.spec[DD_SPEC_FORMAT];
		r = query_build_canonical(&fq);
		if (!r)
			r = strbuf_addf(a->out, " %s", fq.canonical);
		free(fq.canonical);
		fq.spec[DD_SPEC_FORMAT] = NULL;
	}
	if (!r)
		r = strbuf_addf(a->out, " %s\n", a->flags);
	*done = r == 0;
out:
	free(fileword);
	query_release(&q);
	return r;
}

/* Whether @s would be named by the same candidate as @prev at @depth. */
static bool same_candidate(const struct ddctl_site *prev,
			   const struct ddctl_site *s, int depth)
{
	if (!prev || depth == 0 || depth == 4 || strcmp(prev->file, s->file))
		return false;
	if (depth == 2)
		return !strcmp(prev->function, s->function);
	return depth == 1 || prev->line == s->line;
}

static int address_group(struct addr *a)
{
	const struct ddctl_site *failed;
	size_t i;
	int depth, r;
	bool done;

	for (depth = 0; depth <= 4; depth++) {
		failed = NULL;
		for (i = a->lo; i < a->hi; i++) {
			size_t s = a->idx[i];

			if (!a->selected[s] || a->covered[s] ||
			    same_candidate(failed, &a->t->sites[s], depth))
				continue;
			r = try_candidate(a, &a->t->sites[s], depth, &done);
			failed = done ? NULL : &a->t->sites[s];
			if (r < 0)
				return r;
			if (depth == 0)
				break;
		}
	}
	for (i = a->lo; i < a->hi; i++) {
		const struct ddctl_site *s = &a->t->sites[a->idx[i]];

		if (a->selected[a->idx[i]] && !a->covered[a->idx[i]]) {
			err(a->t->ctx, "no query can name %s:%u [%s]%s alone\n",
			    s->file, s->line, s->module, s->function);
			return -ENOTRECOVERABLE;
		}
	}
	return 0;
}

int address_sites(struct ddctl_table *table, const bool *selected,
		  const char *flags_word, struct strbuf *out)
{
	struct addr a = { .t = table, .selected = selected,
			  .flags = flags_word, .out = out };
	struct order o = { .t = table };
	size_t i, n = 0;
	int r = 0;

	a.idx = malloc((table->count + 1) * sizeof(*a.idx));
	a.covered = calloc(table->count + 1, sizeof(*a.covered));
	if (!a.idx || !a.covered) {
		r = -ENOMEM;
		goto out;
	}
	o.module = index_ranks(table, DD_KEY_MODULE);
	o.file = index_ranks(table, DD_KEY_FILE);
	o.func = index_ranks(table, DD_KEY_FUNC);
	if (!o.module || !o.file || !o.func) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < table->count; i++)
		if (selected[i])
			a.idx[n++] = i;
	qsort_r(a.idx, n, sizeof(*a.idx), cmp_site, &o);
	for (a.lo = 0; a.lo < n && r == 0; a.lo = a.hi) {
		const struct ddctl_site *first = &table->sites[a.idx[a.lo]];

		for (a.hi = a.lo; a.hi < n; a.hi++) {
			const struct ddctl_site *s = &table->sites[a.idx[a.hi]];

			if (strcmp(s->module, first->module) ||
			    strcmp_null(s->class_name, first->class_name))
				break;
		}
		if (dd_has_wildcard(first->module) ||
		    (first->class_name && !*first->class_name)) {
			err(table->ctx, "sites of module %s cannot be named by a query\n",
			    first->module);
			r = -ENOTRECOVERABLE;
			break;
		}
		r = address_group(&a);
	}
out:
	free(a.idx);
	free(a.covered);
	free(a.m.idx);
	return r;
}
