// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl list: the callsites, optionally those a match-spec selects. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/input.h"
#include "ops/nomatch.h"
#include "ops/state.h"
#include "output/escape.h"
#include "output/json.h"
#include "output/message.h"
#include "output/pager.h"
#include "output/suggest.h"
#include "output/table.h"

enum field { F_FLAGS, F_LOCATION, F_FILE, F_LINE, F_MODULE, F_FUNCTION,
	     F_CLASS, F_FORMAT, F_COUNT };

static const char *const field_names[F_COUNT + 1] = {
	"flags", "location", "file", "line", "module", "function", "class",
	"format", NULL
};

static const struct cli_column field_columns[F_COUNT] = {
	[F_FLAGS] = { "FLAGS", 0, false, false },
	[F_LOCATION] = { "LOCATION", 48, true, false },
	[F_FILE] = { "FILE", 40, true, false },
	[F_LINE] = { "LINE", 0, false, true },
	[F_MODULE] = { "MODULE", 24, false, false },
	[F_FUNCTION] = { "FUNCTION", 32, false, false },
	[F_CLASS] = { "CLASS", 16, false, false },
	[F_FORMAT] = { "FORMAT", 0, false, false },
};

#define MAX_FIELDS 16

/* "module,function" into field numbers; 0 or an exit status. */
static int parse_fields(struct cli *cli, const char *opt, const char *list,
			enum field *fields, size_t *n)
{
	char *copy = strdup(list), *save = NULL, *name;
	size_t i;

	*n = 0;
	if (!copy)
		return EXIT_REFUSED;
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		for (i = 0; field_names[i] && strcmp(field_names[i], name); i++)
			;
		if (!field_names[i] || *n == MAX_FIELDS) {
			cli_error(cli, "%s: unknown column '%s'%s (columns: flags, location, file, line, module, function, class, format)\n",
				  opt, name, cli_suggest(name, field_names));
			free(copy);
			return EXIT_USAGE;
		}
		fields[(*n)++] = (enum field)i;
	}
	free(copy);
	if (*n == 0) {
		cli_error(cli, "%s needs at least one column\n", opt);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --flags pf: the sites with all of these flags; _: with none. */
static int parse_flag_filter(struct cli *cli, const char *flags, unsigned int *want,
			     bool *none)
{
	static const char letters[] = "pmfltsd"; /* bit i is letter i */
	const char *p, *at;

	*want = 0;
	*none = false;
	for (p = flags; p && *p; p++) {
		at = strchr(letters, *p);
		if (*p == '_')
			*none = true;
		else if (at && *p)
			*want |= 1u << (at - letters);
		else {
			cli_error(cli, "--flags: unknown flag '%c' (flags are p m f s l t d, or _ for none)\n", *p);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

static int cmp_field(const struct ddctl_site *a, const struct ddctl_site *b,
		     enum field f)
{
	unsigned int x, y;
	int r;

	switch (f) {
	case F_FLAGS:
		x = ddctl_site_get_flags(a);
		y = ddctl_site_get_flags(b);
		return x < y ? -1 : x > y;
	case F_LOCATION:
		r = strcmp(ddctl_site_get_file(a), ddctl_site_get_file(b));
		return r ? r : cmp_field(a, b, F_LINE);
	case F_FILE: return strcmp(ddctl_site_get_file(a), ddctl_site_get_file(b));
	case F_LINE:
		x = ddctl_site_get_line(a);
		y = ddctl_site_get_line(b);
		return x < y ? -1 : x > y;
	case F_MODULE: return strcmp(ddctl_site_get_module(a), ddctl_site_get_module(b));
	case F_FUNCTION: return strcmp(ddctl_site_get_function(a), ddctl_site_get_function(b));
	case F_CLASS:
		return strcmp(ddctl_site_get_class(a) ? ddctl_site_get_class(a) : "",
			      ddctl_site_get_class(b) ? ddctl_site_get_class(b) : "");
	default: return strcmp(ddctl_site_get_format(a), ddctl_site_get_format(b));
	}
}

struct sort_keys {
	enum field keys[MAX_FIELDS];
	size_t n;
};

static int cmp_sites(const void *pa, const void *pb, void *data)
{
	const struct ddctl_site *const *a = pa, *const *b = pb;
	const struct sort_keys *k = data;
	size_t i;
	int r;

	for (i = 0; i < k->n; i++) {
		r = cmp_field(*a, *b, k->keys[i]);
		if (r)
			return r;
	}
	return a < b ? -1 : a > b; /* stable: the kernel's order */
}

static char *cell(const struct ddctl_site *site, enum field f)
{
	char flags[DDCTL_FLAGS_BUFSZ], *s = NULL, *esc;
	const char *cls;

	switch (f) {
	case F_FLAGS:
		return strdup(ddctl_flags_format(ddctl_site_get_flags(site), flags));
	case F_LOCATION:
		esc = cli_escape(ddctl_site_get_file(site), false);
		if (esc && asprintf(&s, "%s:%u", esc, ddctl_site_get_line(site)) < 0)
			s = NULL;
		free(esc);
		return s;
	case F_FILE: return cli_escape(ddctl_site_get_file(site), false);
	case F_LINE:
		return asprintf(&s, "%u", ddctl_site_get_line(site)) < 0 ? NULL : s;
	case F_MODULE: return cli_escape(ddctl_site_get_module(site), false);
	case F_FUNCTION: return cli_escape(ddctl_site_get_function(site), false);
	case F_CLASS:
		cls = ddctl_site_get_class(site);
		if (cls && !*cls)
			return asprintf(&s, "_id:%d", ddctl_site_get_class_id(site)) < 0 ? NULL : s;
		return cli_escape(cls ? cls : "-", false);
	default: return cli_escape(ddctl_site_get_format(site), true);
	}
}

static void print_json_site(struct json_writer *w, const struct ddctl_site *site)
{
	char flags[DDCTL_FLAGS_BUFSZ];
	const char *cls = ddctl_site_get_class(site);

	json_begin_object(w);
	json_site(w, site);
	json_key(w, "flags");
	json_string(w, ddctl_flags_format(ddctl_site_get_flags(site), flags));
	json_key(w, "format");
	json_string(w, ddctl_site_get_format(site));
	json_key(w, "class");
	json_string(w, cls && *cls ? cls : NULL);
	json_key(w, "class_id");
	if (cls && !*cls)
		json_int(w, ddctl_site_get_class_id(site));
	else
		json_null(w);
	json_end_object(w);
}

static int print_text(struct cli *cli, const struct cli_opts *opts,
		      const struct ddctl_site **sites, size_t n)
{
	static const enum field dflt[] = { F_FLAGS, F_LOCATION, F_MODULE, F_FUNCTION,
					   F_CLASS, F_FORMAT };
	struct cli_column cols[MAX_FIELDS];
	struct cli_table t = { cols, 0, 0, 0, NULL };
	enum field fields[MAX_FIELDS];
	char *cells[MAX_FIELDS];
	bool classes = false;
	size_t i, j, nf;
	int st;

	if (opts->output) {
		st = parse_fields(cli, "--output", opts->output, fields, &nf);
		if (st)
			return st;
	} else {
		for (i = 0; i < n && !classes; i++)
			classes = ddctl_site_get_class(sites[i]) != NULL;
		for (i = 0, nf = 0; i < sizeof(dflt) / sizeof(dflt[0]); i++)
			if (dflt[i] != F_CLASS || classes)
				fields[nf++] = dflt[i];
	}
	for (i = 0; i < nf; i++)
		cols[i] = field_columns[fields[i]];
	t.ncols = nf;
	for (i = 0; i < n; i++) {
		for (j = 0; j < nf; j++)
			cells[j] = cell(sites[i], fields[j]);
		for (j = 0; j < nf && cells[j]; j++)
			;
		if (j < nf || cli_table_add(&t, cells) < 0) {
			for (j = 0; j < nf; j++)
				free(cells[j]);
			cli_table_free(&t);
			return EXIT_REFUSED;
		}
	}
	cli_pager_start(cli);
	cli_table_show(&t, opts, stdout);
	cli_table_free(&t);
	return EXIT_OK;
}

static const struct cli_column persistent_columns[] = {
	{ "MODULE", 0, false, false },
	{ "OPTIONS", 0, false, false },
	{ "SOURCE", 0, true, false },
};

struct persistent {
	struct json_writer *w; /* --json; else rows of t */
	struct cli_table t;
};

static int print_options(const char *module, const char *options,
			 const char *source, void *data)
{
	struct persistent *p = data;
	struct json_writer *w = p->w;

	if (w) {
		json_begin_object(w);
		json_key(w, "module");
		json_string(w, module);
		json_key(w, "options");
		json_string(w, options);
		json_key(w, "source");
		json_string(w, source);
		json_end_object(w);
	} else {
		char *cells[3] = { strdup(module), strdup(options), strdup(source) };

		if (!cells[0] || !cells[1] || !cells[2] || cli_table_add(&p->t, cells) < 0) {
			free(cells[0]);
			free(cells[1]);
			free(cells[2]);
			return -ENOMEM;
		}
	}
	return 0;
}

/* list --persistent: the dyndbg= modprobe options that will apply. */
static int list_persistent(struct cli *cli, const struct cli_opts *opts)
{
	struct json_writer w;
	struct persistent p = { cli->json ? &w : NULL, { persistent_columns, 3, 0, 0, NULL } };
	int r;

	json_init(&w, stdout);
	if (cli->json)
		json_begin_array_lines(&w);
	r = ddctl_module_foreach_persistent(cli->ctx, print_options, &p);
	if (cli->json)
		json_end_array(&w);
	else if (r >= 0)
		cli_table_show(&p.t, opts, stdout);
	cli_table_free(&p.t);
	if (r < 0) {
		cli_error(cli, "cannot read the modprobe configuration: %s\n",
			strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/*
 * The kernel's rule: a query without "class" selects only the sites
 * without a class. Say how many a filter passed over that way, and how to
 * list them (test_dynamic_debug: 5 listed, 27 with classes).
 */
static void note_hidden_classes(struct cli *cli, struct ddctl_queryset *filter,
				struct ddctl_table *table)
{
	size_t i, j, n = ddctl_table_get_count(table), hidden = 0;
	struct ddctl_queryset *with = NULL;
	char names[256] = "", *text = NULL;
	size_t len = 0;

	for (j = 0; j < ddctl_queryset_get_count(filter); j++)
		if (strstr(ddctl_query_get_canonical(ddctl_queryset_get_query(filter, j)), "class "))
			return; /* it names classes itself */
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);
		const char *cls = ddctl_site_get_class(s);
		bool any = false;

		if (!cls || !*cls)
			continue;
		/* the same filter with this site's class */
		free(text);
		text = NULL;
		for (j = 0; j < ddctl_queryset_get_count(filter); j++) {
			const char *q = ddctl_query_get_canonical(ddctl_queryset_get_query(filter, j));
			char *t;

			if (asprintf(&t, "%s%s%s class %s", text ? text : "", text ? "\n" : "",
				     q, cls) < 0)
				t = NULL;
			free(text);
			text = t;
			if (!text)
				return;
		}
		ddctl_queryset_unref(with);
		with = NULL;
		if (ddctl_queryset_new(cli->ctx, &with) < 0 ||
		    ddctl_queryset_parse(with, text, DDCTL_PARSE_MATCH_ONLY) < 0)
			continue;
		for (j = 0; j < ddctl_queryset_get_count(with) && !any; j++)
			any = ddctl_query_matches(ddctl_queryset_get_query(with, j), s);
		if (!any)
			continue;
		hidden++;
		if (!strstr(names, cls) && len + strlen(cls) + 8 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", cls);
	}
	free(text);
	ddctl_queryset_unref(with);
	if (hidden)
		cli_note(cli, "%zu more site%s of this selection ha%s a class (%s), which a query without 'class' does not select: 'ddctl list %s class NAME'\n",
			 hidden, hidden == 1 ? "" : "s", hidden == 1 ? "s" : "ve", names,
			 ddctl_queryset_get_count(filter) == 1 ?
			 ddctl_query_get_canonical(ddctl_queryset_get_query(filter, 0)) : "QUERY");
}

int cmd_list(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv)
{
	struct ddctl_queryset *filter = NULL;
	struct ddctl_table *table = NULL;
	const struct ddctl_site **sites = NULL;
	struct sort_keys keys = { .n = 0 };
	size_t i, j, n, count = 0, nq;
	unsigned int want, *matched = NULL;
	bool none;
	char *text;
	int st;

	if (opts->persistent)
		return list_persistent(cli, opts);
	st = parse_flag_filter(cli, opts->flags, &want, &none);
	if (!st && opts->sort)
		st = parse_fields(cli, "--sort", opts->sort, keys.keys, &keys.n);
	if (st)
		return st;
	if (opts->enabled)
		want |= DDCTL_FLAG_PRINT;
	if (argc > 0) {
		text = cli_join_args(argc, argv);
		if (!text)
			return EXIT_REFUSED;
		st = cli_parse_queries(cli, text, DDCTL_PARSE_MATCH_ONLY, &filter);
		free(text);
		if (st)
			goto out; /* the set holds the error: unref it */
	}
	st = cli_read_table(cli, &table);
	if (st)
		goto out;
	n = ddctl_table_get_count(table);
	nq = filter ? ddctl_queryset_get_count(filter) : 0;
	sites = calloc(n + 1, sizeof(*sites));
	matched = calloc(nq + 1, sizeof(*matched));
	if (!sites || !matched) {
		st = EXIT_REFUSED;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);
		unsigned int fl = ddctl_site_get_flags(s);
		bool any = nq == 0;

		for (j = 0; j < nq; j++)
			if (ddctl_query_matches(ddctl_queryset_get_query(filter, j), s)) {
				matched[j]++;
				any = true;
			}
		if ((fl & want) != want || (none && fl))
			continue;
		if (any)
			sites[count++] = s;
	}
	if (filter) {
		st = cli_explain_empty(cli, filter, table, matched, true);
		if (st)
			goto out;
		note_hidden_classes(cli, filter, table);
	}
	if (keys.n)
		qsort_r(sites, count, sizeof(*sites), cmp_sites, &keys);
	if (cli->json) {
		struct json_writer w;

		json_init(&w, stdout);
		json_begin_array_lines(&w);
		for (i = 0; i < count; i++)
			print_json_site(&w, sites[i]);
		json_end_array(&w);
	} else {
		st = print_text(cli, opts, sites, count);
	}
out:
	free(matched);
	free(sites);
	ddctl_table_unref(table);
	ddctl_queryset_unref(filter);
	return st;
}
