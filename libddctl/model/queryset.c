// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * A query set: queries parsed from text (';' or a newline between them,
 * '#' comments), kept in order, with the error of the first bad query
 * (its index, column and word) when parsing failed; parsed from a buffer
 * per line with the file name and line in the error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "model/query.h"
#include "model/queryset.h"
#include "util/strbuf.h"
#include "util/util.h"

int queryset_set_spec(struct ddctl_queryset *set, size_t idx, enum dd_spec spec,
		      char *value)
{
	return query_set_spec(&set->queries[idx], spec, value);
}

/* Drop the queries from @count on (what a failed parse added). */
void queryset_truncate(struct ddctl_queryset *set, size_t count)
{
	while (set->count > count)
		query_release(&set->queries[--set->count]);
}

int queryset_append(struct ddctl_queryset *set, struct ddctl_query *q)
{
	struct ddctl_query *n;

	if (set->count == set->alloc) {
		size_t alloc = set->alloc ? set->alloc * 2 : 8;

		n = realloc(set->queries, alloc * sizeof(*n));
		if (!n)
			return -ENOMEM;
		set->queries = n;
		set->alloc = alloc;
	}
	set->queries[set->count++] = *q;
	memset(q, 0, sizeof(*q));
	return 0;
}

static void set_error(struct ddctl_queryset *set, unsigned int index,
		      const char *query, struct query_error *e)
{
	free(set->error);
	free(set->error_word);
	set->error_index = index;
	set->error_column = (unsigned int)e->column;
	set->error_word = e->word;
	e->word = NULL;
	if (asprintf(&set->error, "query %u \"%s\", column %u, word \"%s\": %s",
		     index, query, set->error_column,
		     set->error_word ? set->error_word : "",
		     e->msg ? e->msg : "invalid") < 0)
		set->error = NULL;
	free(set->error_reason);
	set->error_reason = e->msg;
	e->msg = NULL;
}

void queryset_clear_error(struct ddctl_queryset *set)
{
	free(set->error);
	free(set->error_word);
	free(set->error_reason);
	set->error = NULL;
	set->error_word = NULL;
	set->error_reason = NULL;
	set->error_index = set->error_column = 0;
}

static char *trim(char *s)
{
	char *e;

	while (dd_isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && dd_isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

DDCTL_EXPORT int ddctl_queryset_parse(struct ddctl_queryset *set,
				      const char *text, unsigned int flags)
{
	size_t first = set->count;
	char *copy = strdup(text), *query, *split;
	unsigned int index = (unsigned int)set->count;
	struct query_error e;
	struct ddctl_query q;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	queryset_clear_error(set);
	for (query = copy; query && r == 0; query = split) {
		split = strpbrk(query, ";\n");
		if (split)
			*split++ = '\0';
		query = trim(query);
		if (!*query || *query == '#')
			continue;
		index++;
		r = query_parse(query, flags, ddctl_get_kernel(set->ctx), &q, &e);
		if (r == 0)
			r = queryset_append(set, &q);
		if (r == -EINVAL)
			set_error(set, index, query, &e);
		free(e.word);
		free(e.msg);
		query_release(&q);
	}
	free(copy);
	if (r < 0) {
		queryset_truncate(set, first);
	}
	return r;
}

/* The parse error of @set, restated with the file and line. */
static void config_error(struct ddctl_queryset *set, const char *path,
			 unsigned int line, const char *text)
{
	char *msg;

	if (asprintf(&msg, "%s:%u: \"%s\", column %u, word \"%s\": %s", path,
		     line, text, set->error_column,
		     set->error_word ? set->error_word : "",
		     set->error_reason ? set->error_reason : "invalid") < 0)
		return;
	free(set->error);
	set->error = msg;
}

/* The error at @name:@line for a byte that has no place in a text file. */
static void nul_error(struct ddctl_queryset *set, const char *name,
		      unsigned int line, size_t column)
{
	char *msg;

	if (asprintf(&msg, "%s:%u: column %zu: a NUL byte (not a text file): nothing applied",
		     name, line, column) < 0)
		return;
	free(set->error);
	free(set->error_word);
	free(set->error_reason);
	set->error = msg;
	set->error_word = NULL;
	set->error_reason = strdup("a NUL byte (not a text file)");
	set->error_index = (unsigned int)set->count + 1;
	set->error_column = (unsigned int)column;
}

DDCTL_EXPORT int ddctl_queryset_parse_buffer(struct ddctl_queryset *set,
					     const char *name, const char *buf,
					     size_t len, unsigned int flags)
{
	size_t first = set->count, n;
	const char *p = buf, *end = buf + len, *nl, *nul;
	unsigned int line = 0;
	char *text;
	int r = 0;

	for (; p < end && !r; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		line++;
		nul = memchr(p, '\0', n);
		if (nul) {
			nul_error(set, name, line, (size_t)(nul - p) + 1);
			r = -EINVAL;
			break;
		}
		text = strndup(p, n);
		if (!text) {
			r = -ENOMEM;
			break;
		}
		r = ddctl_queryset_parse(set, text, flags);
		if (r == -EINVAL)
			config_error(set, name, line, text);
		free(text);
	}
	if (r < 0) {
		queryset_truncate(set, first);
	}
	return r;
}

DDCTL_EXPORT int ddctl_queryset_new(struct ddctl_ctx *ctx,
				    struct ddctl_queryset **out)
{
	struct ddctl_queryset *set = calloc(1, sizeof(*set));

	if (!set)
		return -ENOMEM;
	set->refcount = 1;
	set->ctx = ddctl_ref(ctx);
	*out = set;
	return 0;
}

/* A deep copy of @set's queries (not its error), to change without the caller seeing it. */
int queryset_copy(const struct ddctl_queryset *set, struct ddctl_queryset **out)
{
	struct ddctl_queryset *n = NULL;
	struct ddctl_query q;
	size_t i;
	int r = ddctl_queryset_new(set->ctx, &n);

	for (i = 0; !r && i < set->count; i++) {
		r = query_copy(&q, &set->queries[i]);
		if (!r)
			r = queryset_append(n, &q);
		if (r)
			query_release(&q);
	}
	if (r < 0) {
		ddctl_queryset_unref(n);
		return r;
	}
	*out = n;
	return 0;
}

DDCTL_EXPORT struct ddctl_queryset *ddctl_queryset_ref(struct ddctl_queryset *set)
{
	if (set)
		set->refcount++;
	return set;
}

DDCTL_EXPORT struct ddctl_queryset *
ddctl_queryset_unref(struct ddctl_queryset *set)
{
	size_t i;

	if (!set || --set->refcount > 0)
		return set;
	for (i = 0; i < set->count; i++)
		query_release(&set->queries[i]);
	free(set->queries);
	queryset_clear_error(set);
	ddctl_unref(set->ctx);
	free(set);
	return NULL;
}

DDCTL_EXPORT const char *ddctl_queryset_get_error(const struct ddctl_queryset *set,
						  unsigned int *index,
						  unsigned int *column,
						  const char **word)
{
	if (index)
		*index = set->error_index;
	if (column)
		*column = set->error_column;
	if (word)
		*word = set->error_word ? set->error_word : "";
	return set->error;
}

DDCTL_EXPORT size_t ddctl_queryset_get_count(const struct ddctl_queryset *set)
{
	return set->count;
}

DDCTL_EXPORT const struct ddctl_query *
ddctl_queryset_get_query(const struct ddctl_queryset *set, size_t idx)
{
	return idx < set->count ? &set->queries[idx] : NULL;
}

/* The canonical queries of @set, one per line. */
int queryset_format(const struct ddctl_queryset *set, struct strbuf *sb)
{
	size_t i;
	int r = 0;

	for (i = 0; !r && i < set->count; i++) {
		r = strbuf_adds(sb, set->queries[i].canonical);
		if (!r)
			r = strbuf_addch(sb, '\n');
	}
	return r;
}
