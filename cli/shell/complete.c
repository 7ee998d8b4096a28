// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Shell completion: sorted, de-duplicated candidate lists built once per
 * table read (modules, including those libkmod can load, source files,
 * functions, classes), looked up by binary search, and the context that
 * picks the list: the command, the keyword before the word, an operator.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"

#define WORD_BREAKS " \t\n;"

struct strv {
	const char **v;
	size_t n, alloc;
};

struct completer {
	struct ddctl_ctx *ctx;
	struct ddctl_table *table;
	const char *const *query_commands;
	struct strv first; /* commands and keywords */
	struct strv keywords;
	struct strv commands, modules, files, funcs, classes;
	char **available; /* modules libkmod knows, loaded or not */
	size_t navailable;
	bool available_read;
	char **out;
	size_t nout, outalloc;
};

static const char *const keywords[] = {
	"func", "file", "module", "format", "line", "class",
	"!func", "!file", "!module", "!format", NULL,
};

static int strv_push(struct strv *sv, const char *s)
{
	const char **v;

	/* The kernel lists a module's, a file's, a function's sites together. */
	if (sv->n && !strcmp(sv->v[sv->n - 1], s))
		return 0;
	if (sv->n == sv->alloc) {
		v = realloc(sv->v, (sv->alloc ? sv->alloc * 2 : 64) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		sv->v = v;
		sv->alloc = sv->alloc ? sv->alloc * 2 : 64;
	}
	sv->v[sv->n++] = s;
	return 0;
}

static int strv_push_all(struct strv *sv, const char *const *list)
{
	int r = 0;

	for (; !r && list && *list; list++)
		r = strv_push(sv, *list);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void strv_sort_unique(struct strv *sv)
{
	size_t i, n = 0;

	if (!sv->n) /* qsort() must not get NULL, even for no entries */
		return;
	qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
	for (i = 0; i < sv->n; i++)
		if (n == 0 || strcmp(sv->v[n - 1], sv->v[i]))
			sv->v[n++] = sv->v[i];
	sv->n = n;
}

/* The first entry from @lo whose first @len bytes sort after @prefix
 * (@after) or do not sort before it. */
static size_t strv_bound(const struct strv *sv, size_t lo, const char *prefix,
			 size_t len, bool after)
{
	size_t hi = sv->n, mid;
	int cmp;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		cmp = strncmp(sv->v[mid], prefix, len);
		if (cmp < 0 || (after && cmp == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t strv_lower_bound(const struct strv *sv, const char *prefix,
			       size_t len)
{
	return strv_bound(sv, 0, prefix, len, false);
}

static void out_clear(struct completer *c)
{
	while (c->nout)
		free(c->out[--c->nout]);
}

static int out_add(struct completer *c, const char *pre, const char *s,
		   size_t len)
{
	char **v, *cand;

	if (asprintf(&cand, "%s%.*s", pre, (int)len, s) < 0)
		return -ENOMEM;
	if (c->nout && !strcmp(c->out[c->nout - 1], cand)) {
		free(cand);
		return 0;
	}
	if (c->nout == c->outalloc) {
		v = realloc(c->out, (c->outalloc ? c->outalloc * 2 : 64) * sizeof(*v));
		if (!v) {
			free(cand);
			return -ENOMEM;
		}
		c->out = v;
		c->outalloc = c->outalloc ? c->outalloc * 2 : 64;
	}
	c->out[c->nout++] = cand;
	return 0;
}

enum {
	VALUES = 1 << 0, /* a value after a keyword: '!' negates, kept */
	DIRS = 1 << 1,	 /* paths complete a directory at a time */
};

/* Entries of @sv that start with @word. */
static void complete_from(struct completer *c, const struct strv *sv,
			  const char *word, size_t len, unsigned int how)
{
	const char *pre = "", *slash;
	size_t i, clen;

	if ((how & VALUES) && len && word[0] == '!') {
		pre = "!";
		word++;
		len--;
	}
	i = strv_lower_bound(sv, word, len);
	while (i < sv->n && !strncmp(sv->v[i], word, len)) {
		clen = strlen(sv->v[i]);
		slash = how & DIRS ? strchr(sv->v[i] + len, '/') : NULL;
		if (slash)
			clen = (size_t)(slash - sv->v[i]) + 1;
		if (out_add(c, pre, sv->v[i], clen) < 0)
			break;
		/* past every path in that directory */
		i = slash ? strv_bound(sv, i, sv->v[i], clen, true) : i + 1;
	}
}

static bool strv_contains(const struct strv *sv, const char *word, size_t len)
{
	size_t i = strv_lower_bound(sv, word, len);

	return i < sv->n && strlen(sv->v[i]) == len && !strncmp(sv->v[i], word, len);
}

/* "+p" -> "+pm", "+pf", ...: the letters the kernel has, not yet given. */
static void complete_flags(struct completer *c, const char *word, size_t len)
{
	unsigned int bit, have = ddctl_get_query_flags(c->ctx);
	char cand[16], letter;
	size_t i;

	if (len + 1 >= sizeof(cand) || memchr(word, '_', len))
		return;
	memcpy(cand, word, len);
	for (i = 0; ddctl_flag_get_info(i, &letter, &bit, NULL, NULL) == 0; i++) {
		if (bit ? !(have & bit) : !(len == 1 && word[0] == '='))
			continue;
		if (memchr(word, letter, len))
			continue;
		cand[len] = letter;
		out_add(c, "", cand, len + 1);
	}
}

static int add_available(const char *name, void *data)
{
	struct completer *c = data;
	char **v, *s = strdup(name);

	v = s ? realloc(c->available, (c->navailable + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	c->available = v;
	c->available[c->navailable++] = s;
	return 0;
}

int completer_new(struct ddctl_ctx *ctx, const char *const *commands,
		  const char *const *query_commands, struct completer **out)
{
	struct completer *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return -ENOMEM;
	c->ctx = ddctl_ref(ctx);
	c->query_commands = query_commands;
	r = strv_push_all(&c->commands, commands);
	if (!r)
		r = strv_push_all(&c->first, commands);
	if (!r)
		r = strv_push_all(&c->first, keywords);
	if (!r)
		r = strv_push_all(&c->keywords, keywords);
	if (r < 0) {
		completer_free(c);
		return r;
	}
	strv_sort_unique(&c->commands);
	strv_sort_unique(&c->first);
	strv_sort_unique(&c->keywords);
	*out = c;
	return 0;
}

void completer_free(struct completer *c)
{
	if (!c)
		return;
	out_clear(c);
	free(c->out);
	while (c->navailable)
		free(c->available[--c->navailable]);
	free(c->available);
	free(c->first.v);
	free(c->keywords.v);
	free(c->commands.v);
	free(c->modules.v);
	free(c->files.v);
	free(c->funcs.v);
	free(c->classes.v);
	ddctl_table_unref(c->table);
	ddctl_unref(c->ctx);
	free(c);
}

static int push_site(struct completer *c, const struct ddctl_site *s)
{
	const char *cls = ddctl_site_get_class(s);
	int r;

	r = strv_push(&c->modules, ddctl_site_get_module(s));
	if (!r)
		r = strv_push(&c->files, ddctl_site_get_file(s));
	if (!r)
		r = strv_push(&c->funcs, ddctl_site_get_function(s));
	if (!r && cls && *cls)
		r = strv_push(&c->classes, cls);
	return r;
}

/* Build the lists for @table; nothing to do when they are for it already. */
int completer_set_table(struct completer *c, struct ddctl_table *table)
{
	size_t i, n = table ? ddctl_table_get_count(table) : 0;
	int r = 0;

	if (table == c->table)
		return 0;
	ddctl_table_unref(c->table);
	c->table = table ? ddctl_table_ref(table) : NULL;
	c->modules.n = c->files.n = c->funcs.n = c->classes.n = 0;
	if (!c->available_read) {
		c->available_read = true;
		ddctl_module_foreach_available(c->ctx, add_available, c);
	}
	for (i = 0; !r && i < c->navailable; i++)
		r = strv_push(&c->modules, c->available[i]);
	for (i = 0; !r && i < n; i++)
		r = push_site(c, ddctl_table_get_site(table, i));
	strv_sort_unique(&c->modules);
	strv_sort_unique(&c->files);
	strv_sort_unique(&c->funcs);
	strv_sort_unique(&c->classes);
	return r;
}

static bool in_list(const char *const *list, const char *word, size_t len)
{
	for (; list && *list; list++)
		if (strlen(*list) == len && !strncmp(*list, word, len))
			return true;
	return false;
}

static bool word_is(const char *word, size_t len, const char *kw)
{
	if (len && word[0] == '!') {
		word++;
		len--;
	}
	return strlen(kw) == len && !strncmp(word, kw, len);
}

/* The word before @end, not before @from: *len is 0 when there is none. */
static const char *word_before(const char *line, size_t from, size_t end,
			       size_t *len)
{
	size_t e = end, s;

	while (e > from && strchr(WORD_BREAKS, line[e - 1]))
		e--;
	s = e;
	while (s > from && !strchr(WORD_BREAKS, line[s - 1]))
		s--;
	*len = e - s;
	return line + s;
}

/* Inside a query: the keyword before the word picks the list. */
static void complete_query(struct completer *c, const char *line, size_t from,
			   size_t start, const char *word, size_t len)
{
	size_t plen, i;
	const char *prev;

	for (i = start; i > from; i--)
		if (line[i - 1] == ';') {
			from = i;
			break;
		}
	prev = word_before(line, from, start, &plen);
	if (word_is(prev, plen, "module"))
		complete_from(c, &c->modules, word, len, VALUES);
	else if (word_is(prev, plen, "file"))
		complete_from(c, &c->files, word, len, VALUES | DIRS);
	else if (word_is(prev, plen, "func"))
		complete_from(c, &c->funcs, word, len, VALUES);
	else if (plen == 5 && !strncmp(prev, "class", 5))
		complete_from(c, &c->classes, word, len, 0);
	else if (word_is(prev, plen, "format") || word_is(prev, plen, "line"))
		return;
	else if (len && strchr("+-=", word[0]))
		complete_flags(c, word, len);
	else
		complete_from(c, &c->keywords, word, len, 0);
}

size_t completer_complete(struct completer *c, const char *line, size_t point,
			  size_t *start, char *const **candidates)
{
	size_t s = point, first = strspn(line, " \t"), clen;
	const char *word;

	out_clear(c);
	while (s > 0 && !strchr(WORD_BREAKS, line[s - 1]))
		s--;
	*start = s;
	word = line + s;
	clen = strcspn(line + first, WORD_BREAKS);
	if (s <= first)
		complete_from(c, &c->first, word, point - s, 0);
	else if (in_list(c->query_commands, line + first, clen))
		complete_query(c, line, first + clen, s, word, point - s);
	else if (clen == 4 && !strncmp(line + first, "help", 4))
		complete_from(c, &c->commands, word, point - s, 0);
	else if (!strv_contains(&c->commands, line + first, clen))
		complete_query(c, line, first, s, word, point - s);
	*candidates = c->out;
	return c->nout;
}
