// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
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

#include "core/ctx.h"
#include "model/address.h"
#include "model/index.h"
#include "model/query.h"
#include "model/table.h"
#include "util/strbuf.h"
#include "util/util.h"
#include "model/wildcard.h"

struct addr {
	struct ddctl_table *t;
	const bool *selected; /* to name (need) */
	const bool *allowed;  /* may be named too: need, or no change */
	bool compact;         /* short spellings, module wildcards */
	bool *whole;          /* compact: per module value, named whole */
	const size_t *module_rank;
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

/* Does @q name only allowed sites? Then they count as covered. */
static int names_only_allowed(struct addr *a, const struct ddctl_query *q,
			      bool *ok)
{
	size_t i;
	int r = index_query_sites(a->t, q, &a->m);

	*ok = false;
	for (i = 0; !r && i < a->m.n; i++)
		if (!a->allowed[a->m.idx[i]])
			return 0;
	for (i = 0; !r && i < a->m.n; i++)
		a->covered[a->m.idx[i]] = true;
	*ok = r == 0;
	return r;
}

/*
 * A file name as a file match-spec: the kernel (and ddctl's parser) split
 * a file word at its first ':' (FILE:LINES) and read a leading '!' as a
 * negation, so each ':' of the name and a leading '!' become the wildcard
 * '?' (which matches them); the candidate is then checked like any other
 * to name only its sites.
 */
static char *file_spec(const char *file)
{
	char *word = strdup(file), *p;

	if (word && *word == '!')
		*word = '?';
	for (p = word; p && (p = strchr(p, ':')); p++)
		*p = '?';
	return word;
}

/* A function name as a func match-spec: a leading '!' (a negation) is '?'. */
static char *func_spec(const char *function)
{
	char *word = strdup(function);

	if (word && *word == '!')
		*word = '?';
	return word;
}

/* @q's match-specs, then the flags word. */
static int emit_query(struct addr *a, struct ddctl_query *q)
{
	int r = query_build_canonical(q);

	if (!r)
		r = strbuf_addf(a->out, "%s %s\n", q->canonical, a->flags);
	return r;
}

/*
 * The shortest spelling that names only allowed sites, for a set sent now
 * (not a save): the function, file or file:line alone, by basename before
 * the full path, before the module-qualified form that always does. A
 * whole module is left to emit_modules().
 */
static int emit_compact(struct addr *a, const struct ddctl_site *site, int depth)
{
	const char *module[] = { NULL, NULL, NULL, site->module };
	const char *file[] = { NULL, site->basename, site->file, site->file };
	char *spec[DD_SPEC_NR];
	struct ddctl_query q;
	unsigned int line = depth == 3 ? site->line : 0;
	size_t i;
	bool ok = false;
	int r = 0;

	if (depth == 0) {
		a->whole[a->module_rank[site - a->t->sites]] = true;
		return 0;
	}
	for (i = depth == 2 ? 0 : 1; !r && !ok && i < ARRAY_SIZE(file); i++) {
		memset(spec, 0, sizeof(spec));
		spec[DD_SPEC_MODULE] = module[i] ? strdup(module[i]) : NULL;
		if (depth != 2 || i > 0)
			spec[DD_SPEC_FILE] = file_spec(file[i]);
		if (depth == 2)
			spec[DD_SPEC_FUNC] = func_spec(site->function);
		query_init(&q, spec, line, line);
		if ((module[i] && !q.spec[DD_SPEC_MODULE]) ||
		    ((depth != 2 || i > 0) && !q.spec[DD_SPEC_FILE]) ||
		    (depth == 2 && !q.spec[DD_SPEC_FUNC]))
			r = -ENOMEM;
		if (!r)
			r = names_only_allowed(a, &q, &ok);
		if (!r && ok)
			r = emit_query(a, &q);
		query_release(&q);
	}
	return r || ok ? r : -ENOTRECOVERABLE;
}

/* Try one candidate; emit it when it names only allowed sites. */
static int try_candidate(struct addr *a, const struct ddctl_site *site,
			 int depth, bool *done)
{
	char *spec[DD_SPEC_NR] = { 0 };
	struct ddctl_query q;
	char line[16], *fileword = NULL;
	unsigned int lineno = depth >= 3 ? site->line : 0;
	int r = -ENOMEM;

	*done = false;
	spec[DD_SPEC_MODULE] = strdup(site->module);
	if (site->class_name)
		spec[DD_SPEC_CLASS] = strdup(site->class_name);
	if (depth >= 1)
		spec[DD_SPEC_FILE] = file_spec(site->file);
	if (depth == 2)
		spec[DD_SPEC_FUNC] = func_spec(site->function);
	if (depth == 4 && asprintf(&spec[DD_SPEC_FORMAT], "^%s", site->format) < 0)
		spec[DD_SPEC_FORMAT] = NULL;
	query_init(&q, spec, lineno, lineno);
	if (!q.spec[DD_SPEC_MODULE] || (site->class_name && !q.spec[DD_SPEC_CLASS]) ||
	    (depth >= 1 && !q.spec[DD_SPEC_FILE]) ||
	    (depth == 2 && !q.spec[DD_SPEC_FUNC]) ||
	    (depth == 4 && !q.spec[DD_SPEC_FORMAT]))
		goto out;
	r = names_only_allowed(a, &q, done);
	if (r < 0 || !*done)
		goto out;
	*done = false;
	if (a->compact && !site->class_name && depth <= 3) {
		r = emit_compact(a, site, depth);
		*done = r == 0;
		goto out;
	}
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
		if (asprintf(&fileword, "%s%s", q.spec[DD_SPEC_FILE], depth == 4 ? line : "") < 0)
			fileword = NULL;
		r = fileword ? strbuf_adds(a->out, " file ") : -ENOMEM;
		if (!r)
			r = strbuf_add_word(a->out, fileword);
	}
	if (!r && depth == 2) {
		r = strbuf_adds(a->out, " func ");
		if (!r)
			r = strbuf_add_word(a->out, q.spec[DD_SPEC_FUNC]);
	}
	if (!r && depth == 3)
		r = strbuf_addf(a->out, " line %u", site->line);
	if (!r && depth == 4) {
		char *fspec[DD_SPEC_NR] = { [DD_SPEC_FORMAT] = strdup(q.spec[DD_SPEC_FORMAT]) };
		struct ddctl_query fq;

		query_init(&fq, fspec, 0, 0);
		r = fq.spec[DD_SPEC_FORMAT] ? query_build_canonical(&fq) : -ENOMEM;
		if (!r)
			r = strbuf_addf(a->out, " %s", fq.canonical);
		query_release(&fq);
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

/* `module NAME`, or with @star `module PREFIX*` (@name's first @len bytes). */
static int emit_module(struct addr *a, const char *name, size_t len, bool star,
		       bool *ok)
{
	struct ddctl_query q = { 0 };
	int r = -ENOMEM;

	*ok = false;
	if (asprintf(&q.spec[DD_SPEC_MODULE], "%.*s%s", (int)len, name,
		     star ? "*" : "") < 0)
		return r;
	r = names_only_allowed(a, &q, ok);
	if (!r && *ok)
		r = emit_query(a, &q);
	query_release(&q);
	return r;
}

/*
 * The modules named whole, as few `module PREFIX*` queries as name only
 * modules all of whose (unclassed) sites are allowed: a walk down the
 * sorted module names, @v[lo..hi) sharing their first @d bytes.
 */
static int emit_prefixes(struct addr *a, const char *const *v, const bool *ok,
			 size_t lo, size_t hi, size_t d)
{
	bool all_ok = true, any = false, done = false;
	size_t i, j;
	int r = 0;

	for (i = lo; i < hi; i++) {
		all_ok &= ok[i];
		any |= a->whole[i];
	}
	if (!any)
		return 0;
	if (hi - lo == 1) {
		r = emit_module(a, v[lo], strlen(v[lo]), false, &done);
		return r || done ? r : -ENOTRECOVERABLE;
	}
	if (all_ok) {
		r = emit_module(a, v[lo], d, true, &done);
		if (r || done)
			return r;
	}
	i = lo;
	if (!v[i][d]) {
		if (a->whole[i])
			r = emit_module(a, v[i], d, false, &done);
		if (!r && a->whole[i] && !done)
			r = -ENOTRECOVERABLE;
		i++;
	}
	for (; !r && i < hi; i = j) {
		for (j = i + 1; j < hi && v[j][d] == v[i][d]; j++)
			;
		r = emit_prefixes(a, v, ok, i, j, d + 1);
	}
	return r;
}

static int emit_modules(struct addr *a)
{
	size_t n, i;
	const char *const *v = index_values(a->t, DD_KEY_MODULE, &n);
	bool *ok = malloc(n + 1);
	int r;

	if (!ok || !v) {
		free(ok);
		return -ENOMEM;
	}
	memset(ok, true, n + 1);
	for (i = 0; i < a->t->count; i++)
		if (!a->t->sites[i].class_name && !a->allowed[i])
			ok[a->module_rank[i]] = false;
	r = emit_prefixes(a, v, ok, 0, n, 0);
	free(ok);
	return r;
}

int address_sites(struct ddctl_table *table, const bool *selected,
		  const bool *allowed, bool compact,
		  const char *flags_word, struct strbuf *out)
{
	struct addr a = { .t = table, .selected = selected,
			  .allowed = allowed ? allowed : selected,
			  .compact = compact, .flags = flags_word, .out = out };
	size_t nmodules = 0;
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
	a.module_rank = o.module;
	index_values(table, DD_KEY_MODULE, &nmodules);
	a.whole = calloc(nmodules + 1, sizeof(*a.whole));
	if (!a.whole) {
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
		/* a module word is a wildcard; '-' reads as '_', a leading '!' negates */
		if (dd_has_wildcard(first->module) || strchr(first->module, '-') ||
		    first->module[0] == '!' ||
		    (first->class_name && !*first->class_name)) {
			err(table->ctx, "sites of module %s cannot be named by a query\n",
			    first->module);
			r = -ENOTRECOVERABLE;
			break;
		}
		r = address_group(&a);
	}
	if (!r && compact)
		r = emit_modules(&a);
out:
	free(a.whole);
	free(a.idx);
	free(a.covered);
	free(a.m.idx);
	return r;
}
