// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * No silent no-op: a query that selects no site gets a warning that names
 * it and says why (no such module, loaded or installed, with a
 * did-you-mean; a module not loaded yet; a class no site has), and a
 * "line 0" that selects every line is said to. libkmod, through the
 * library, tells an installed module from a typo.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/nomatch.h"
#include "output/message.h"
#include "output/suggest.h"

#define MAX_NAMES 4096

/* The value of match-spec @key in query text @p, into @buf; NULL: none. */
static const char *spec_value(const char *p, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), n;

	while (p && *p) {
		p += strspn(p, " \t");
		if (!strncmp(p, key, klen) && (p[klen] == ' ' || p[klen] == '\t')) {
			p += klen;
			p += strspn(p, " \t");
			if (*p == '"' || *p == '\'') {
				n = strcspn(p + 1, *p == '"' ? "\"" : "'");
				p++;
			} else {
				n = strcspn(p, " \t");
			}
			snprintf(buf, size, "%.*s", (int)n, p);
			return buf;
		}
		if (*p == '"' || *p == '\'') {
			const char *end = strchr(p + 1, *p);

			p = end ? end + 1 : p + strlen(p);
		} else {
			p += strcspn(p, " \t");
		}
	}
	return NULL;
}

/* The distinct module names (or class names, @classes) of @table, NULL-terminated. */
static const char **table_names(struct ddctl_table *table, bool classes)
{
	size_t i, j, n = 0, count = ddctl_table_get_count(table);
	const char **names = calloc(MAX_NAMES + 1, sizeof(*names));

	for (i = 0; names && i < count && n < MAX_NAMES; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);
		const char *name = classes ? ddctl_site_get_class(s) : ddctl_site_get_module(s);

		if (!name || !*name || (n && !strcmp(names[n - 1], name)))
			continue;
		for (j = 0; j < n && strcmp(names[j], name); j++)
			;
		if (j == n)
			names[n++] = name;
	}
	return names;
}

static bool has_name(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/*
 * What the warnings of one set look up, each once however many of its
 * queries are empty: the table's module and class names, the loaded
 * modules (libkmod reads /proc/modules), whether a module index exists.
 */
struct lookups {
	const char **mods;
	const char **classes;
	char **loaded;    /* NULL-terminated; NULL: not read yet */
	size_t nloaded;
	int indexed;      /* -1: not looked up yet */
};

static int add_loaded(const char *name, void *data)
{
	struct lookups *l = data;
	char **grown = realloc(l->loaded, (l->nloaded + 2) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	l->loaded = grown;
	l->loaded[l->nloaded] = strdup(name);
	if (!l->loaded[l->nloaded])
		return -ENOMEM;
	l->loaded[++l->nloaded] = NULL;
	return 0;
}

static bool is_loaded(struct cli *cli, struct lookups *l, const char *name)
{
	if (!l->loaded) {
		l->loaded = calloc(1, sizeof(*l->loaded));
		if (!l->loaded)
			return false;
		ddctl_module_foreach_loaded(cli->ctx, add_loaded, l);
	}
	return has_name((const char *const *)l->loaded, name);
}

static int stop_at_first(const char *name, void *data)
{
	(void)name;
	(void)data;
	return 1;
}

static bool has_index(struct cli *cli, struct lookups *l)
{
	if (l->indexed < 0)
		l->indexed = ddctl_module_foreach_available(cli->ctx, stop_at_first, NULL) > 0;
	return l->indexed;
}


/*
 * Why query @i (@q) that selects nothing does: a warning. Returns
 * EXIT_USAGE for a module name that exists nowhere (not loaded, unknown to
 * libkmod's index) when @strict, else EXIT_OK.
 */
static int explain(struct cli *cli, struct lookups *l, size_t i,
		   const struct ddctl_query *q, bool strict)
{
	const char **mods = l->mods, **classes = l->classes;
	char mod[256], cls[256], *real = NULL;
	const char *text = ddctl_query_get_text(q);
	int r;

	if (!ddctl_query_is_negated(q) && spec_value(ddctl_query_get_canonical(q), "module", mod, sizeof(mod)) &&
	    !strpbrk(mod, "*?") && !has_name(mods, mod)) {
		r = ddctl_module_resolve(cli->ctx, mod, &real);
		free(real);
		if (r == 0) {
			cli_warn(cli, "warning: query %zu \"%s\" selects no site: module %s is not loaded; its callsites appear when it loads ('ddctl persist' or the watcher, ddctl watch, apply the query then)\n",
				 i + 1, text, mod);
			return EXIT_OK;
		}
		if (is_loaded(cli, l, mod)) {
			cli_warn(cli, "warning: query %zu \"%s\" selects no site: module %s is loaded but has no callsites\n",
				 i + 1, text, mod);
			return EXIT_OK;
		}
		if (has_index(cli, l)) {
			cli_error(cli, "query %zu \"%s\": no module %s is loaded or installed%s\n",
				  i + 1, text, mod, cli_suggest(mod, mods));
			return strict ? EXIT_USAGE : EXIT_OK;
		}
		cli_warn(cli, "warning: query %zu \"%s\" selects no site: no module %s is loaded (no module index tells whether it is installed)%s\n",
			 i + 1, text, mod, cli_suggest(mod, mods));
		return EXIT_OK;
	}
	if (spec_value(ddctl_query_get_canonical(q), "class", cls, sizeof(cls)) && !has_name(classes, cls)) {
		cli_warn(cli, "warning: query %zu \"%s\" selects no site: no loaded site has class %s%s\n",
			 i + 1, text, cls, cli_suggest(cls, classes));
		return EXIT_OK;
	}
	if (spec_value(ddctl_query_get_canonical(q), "module", mod, sizeof(mod)) && strpbrk(mod, "*?") &&
	    !ddctl_query_is_negated(q)) {
		cli_warn(cli, "warning: query %zu \"%s\" selects no site: no loaded module matches %s\n",
			 i + 1, text, mod);
		return EXIT_OK;
	}
	cli_warn(cli, "warning: query %zu \"%s\" selects no site: no callsite matches all its match-specs%s\n",
		 i + 1, text, spec_value(ddctl_query_get_canonical(q), "class", cls, sizeof(cls)) || !classes[0] ? "" :
		 " (a query without 'class' selects only sites without a class)");
	return EXIT_OK;
}

int cli_explain_empty(struct cli *cli, struct ddctl_queryset *set,
		      struct ddctl_table *table, const unsigned int *matched,
		      bool strict)
{
	size_t i, n = ddctl_queryset_get_count(set);
	struct lookups l = { .indexed = -1 };
	char line[64];
	int st = EXIT_OK, r;

	for (i = 0; i < n; i++) {
		const struct ddctl_query *q = ddctl_queryset_get_query(set, i);

		if (matched[i] == 0) {
			if (!l.mods) {
				l.mods = table_names(table, false);
				l.classes = table_names(table, true);
			}
			r = explain(cli, &l, i, q, strict);
			st = st ? st : r;
		} else if (spec_value(ddctl_query_get_text(q), "line", line, sizeof(line)) && !strcmp(line, "0")) {
			cli_warn(cli, "warning: query %zu \"%s\": 'line 0' is no line limit for the kernel: it selects %u site%s, every line\n",
				 i + 1, ddctl_query_get_text(q), matched[i],
				 matched[i] == 1 ? "" : "s");
		}
	}
	free(l.mods);
	free(l.classes);
	for (i = 0; i < l.nloaded; i++)
		free(l.loaded[i]);
	free(l.loaded);
	return st;
}
