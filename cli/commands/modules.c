// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl modules: callsites, enabled callsites and the classes per module
 * (a class'd site is selected only by a query that names its class).
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/pager.h"
#include "output/table.h"

#define MAX_CLASSES 64

struct modstat {
	const char *name;
	unsigned int sites, enabled;
	const char *classes[MAX_CLASSES]; /* the distinct names, in table order */
	size_t nclasses;
};

/* Count @cls (a site's class, NULL: none) among @m's classes. */
static void add_class(struct modstat *m, const char *cls)
{
	size_t i;

	if (!cls || !*cls)
		return;
	for (i = 0; i < m->nclasses; i++)
		if (!strcmp(m->classes[i], cls))
			return;
	if (m->nclasses < MAX_CLASSES)
		m->classes[m->nclasses++] = cls;
}

/* "MID,HI,D2_CORE", or "-". */
static char *class_cell(const struct modstat *m)
{
	size_t i, len = 2;
	char *s, *p;

	for (i = 0; i < m->nclasses; i++)
		len += strlen(m->classes[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, m->nclasses ? "" : "-");
	for (i = 0, p = s; i < m->nclasses; i++)
		p += sprintf(p, "%s%s", i ? "," : "", m->classes[i]);
	return s;
}

static const struct cli_column columns[] = {
	{ "MODULE", 0, false, false },
	{ "SITES", 0, false, true },
	{ "ENABLED", 0, false, true },
	{ "CLASSES", 0, false, false },
};

static int print_table(struct cli *cli, const struct cli_opts *opts,
		       const struct modstat *mods, size_t count)
{
	struct cli_table t = { columns, 4, 0, 0, NULL };
	char *cells[4];
	size_t i, j;

	for (i = 0; i < count; i++) {
		cells[0] = strdup(mods[i].name);
		if (asprintf(&cells[1], "%u", mods[i].sites) < 0)
			cells[1] = NULL;
		if (asprintf(&cells[2], "%u", mods[i].enabled) < 0)
			cells[2] = NULL;
		cells[3] = class_cell(&mods[i]);
		for (j = 0; j < 4 && cells[j]; j++)
			;
		if (j < 4 || cli_table_add(&t, cells) < 0) {
			for (j = 0; j < 4; j++)
				free(cells[j]);
			cli_table_free(&t);
			return EXIT_REFUSED;
		}
	}
	cli_pager_start(cli); /* 1,500 modules on a distribution kernel */
	cli_table_show(&t, opts, stdout);
	cli_table_free(&t);
	return EXIT_OK;
}

static int cmp_mod(const void *a, const void *b)
{
	return strcmp(((const struct modstat *)a)->name,
		      ((const struct modstat *)b)->name);
}

/* '-' and '_' are the same in module names, as for the kernel. */
static void underscores(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* ddctl modules [PATTERN...] [--enabled] */
static bool wanted(bool enabled, const struct modstat *m, int argc, char **argv)
{
	char name[256], pat[256];
	int i;

	if (enabled && !m->enabled)
		return false;
	snprintf(name, sizeof(name), "%s", m->name);
	underscores(name);
	for (i = 0; i < argc; i++) {
		snprintf(pat, sizeof(pat), "%s", argv[i]);
		underscores(pat);
		if (fnmatch(pat, name, 0) == 0)
			return true;
	}
	return argc == 0;
}

int cmd_modules(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv)
{
	struct ddctl_table *table = NULL;
	struct json_writer w;
	struct modstat *mods = NULL, *m;
	size_t i, j, n, count = 0;
	int st;

	st = cli_read_table(cli, &table);
	if (st)
		return st;
	n = ddctl_table_get_count(table);
	mods = calloc(n + 1, sizeof(*mods));
	if (!mods) {
		ddctl_table_unref(table);
		return EXIT_REFUSED;
	}
	/* The kernel lists each module's sites together. */
	for (i = 0; i < n; i++) {
		const struct ddctl_site *s = ddctl_table_get_site(table, i);
		const char *name = ddctl_site_get_module(s);

		m = count && !strcmp(mods[count - 1].name, name) ? &mods[count - 1] : NULL;
		for (j = 0; !m && j < count; j++)
			if (!strcmp(mods[j].name, name))
				m = &mods[j];
		if (!m) {
			m = &mods[count++];
			m->name = name;
		}
		m->sites++;
		m->enabled += !!(ddctl_site_get_flags(s) & DDCTL_FLAG_PRINT);
		add_class(m, ddctl_site_get_class(s));
	}
	for (i = 0, j = 0; i < count; i++)
		if (wanted(opts->enabled, &mods[i], argc, argv))
			mods[j++] = mods[i];
	count = j;
	qsort(mods, count, sizeof(*mods), cmp_mod);
	if (!cli->json) {
		st = print_table(cli, opts, mods, count);
		goto out;
	}
	json_init(&w, stdout);
	json_begin_array(&w);
	for (i = 0; i < count; i++) {
		json_begin_object(&w);
		json_key(&w, "module");
		json_string(&w, mods[i].name);
		json_key(&w, "sites");
		json_uint(&w, mods[i].sites);
		json_key(&w, "enabled");
		json_uint(&w, mods[i].enabled);
		json_key(&w, "classes");
		json_begin_array(&w);
		for (j = 0; j < mods[i].nclasses; j++)
			json_string(&w, mods[i].classes[j]);
		json_end_array(&w);
		json_end_object(&w);
	}
	json_end_array(&w);
out:
	free(mods);
	ddctl_table_unref(table);
	return st;
}
