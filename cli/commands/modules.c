// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl modules: callsites and enabled callsites per module. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/pager.h"

struct modstat {
	const char *name;
	unsigned int sites, enabled;
};

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
	}
	for (i = 0, j = 0; i < count; i++)
		if (wanted(opts->enabled, &mods[i], argc, argv))
			mods[j++] = mods[i];
	count = j;
	qsort(mods, count, sizeof(*mods), cmp_mod);
	json_init(&w, stdout);
	if (cli->json) {
		json_begin_array(&w);
	} else {
		cli_pager_start(cli); /* 1,500 modules on a distribution kernel */
		printf("%-32s %7s %7s\n", "MODULE", "SITES", "ENABLED");
	}
	for (i = 0; i < count; i++) {
		if (cli->json) {
			json_begin_object(&w);
			json_key(&w, "module");
			json_string(&w, mods[i].name);
			json_key(&w, "sites");
			json_uint(&w, mods[i].sites);
			json_key(&w, "enabled");
			json_uint(&w, mods[i].enabled);
			json_end_object(&w);
		} else {
			printf("%-32s %7u %7u\n", mods[i].name, mods[i].sites,
			       mods[i].enabled);
		}
	}
	if (cli->json)
		json_end_array(&w);
	free(mods);
	ddctl_table_unref(table);
	return EXIT_OK;
}
