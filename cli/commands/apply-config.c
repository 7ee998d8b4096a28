// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl apply-config: the ddctl.d drop-ins, merged, applied as one set. */
#include <stdio.h>
#include <stdlib.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/config.h"
#include "ops/nomatch.h"
#include "ops/state.h"
#include "output/json.h"

static int print_file(const char *path, void *data)
{
	struct json_writer *w = data;

	if (w)
		json_string(w, path);
	else
		printf("configuration: %s\n", path);
	return 0;
}

/* apply-config --json: "files":[...] before the set's members. */
static void json_files(struct json_writer *w, void *data)
{
	struct cli *cli = data;

	json_key(w, "files");
	json_begin_array(w);
	ddctl_config_foreach_file(cli->ctx, print_file, w);
	json_end_array(w);
}

/*
 * A configuration query that selects nothing is a warning, never an error:
 * the module may not be loaded yet (ddctl watch applies it then).
 */
static void explain_empty(struct cli *cli, struct ddctl_queryset *set,
			  struct ddctl_table *table)
{
	size_t i, n = ddctl_queryset_get_count(set);
	unsigned int *matched = calloc(n + 1, sizeof(*matched));
	struct ddctl_plan *plan = NULL;

	if (matched && ddctl_plan_new(set, table, &plan) == 0) {
		for (i = 0; i < n; i++)
			matched[i] = ddctl_plan_get_matched(plan, i);
		cli_explain_empty(cli, set, table, matched, false);
	}
	ddctl_plan_unref(plan);
	free(matched);
}

int cmd_apply_config(struct cli *cli, const struct cli_opts *opts, int argc,
	             char **argv)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { .json_head = json_files, .data = cli };
	struct ddctl_table *table = NULL;
	unsigned int skipped = 0;
	int st;

	/* a file with a broken line is left out (said), the others apply */
	st = cli_load_config_valid(cli, &set, &skipped);
	if (st)
		goto out;
	if ((cli->check || cli->verbose) && !cli->json)
		ddctl_config_foreach_file(cli->ctx, print_file, NULL);
	st = cli_read_table(cli, &table);
	if (!st) {
		explain_empty(cli, set, table);
		how.table = table;
		st = cli_set_commit(cli, set, &how);
	}
	if (!st && skipped)
		st = EXIT_USAGE; /* applied, but the broken files are not */
out:
	ddctl_table_unref(table);
	ddctl_queryset_unref(set);
	return st;
}
