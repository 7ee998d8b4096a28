// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl apply-config: the ddctl.d drop-ins, merged, applied as one set. */
#include <stdio.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/config.h"
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

int cmd_apply_config(struct cli *cli, const struct cli_opts *opts, int argc,
	             char **argv)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { .json_head = json_files, .data = cli };
	int st;

	st = cli_load_config(cli, &set);
	if (st)
		goto out;
	if ((cli->check || cli->verbose) && !cli->json)
		ddctl_config_foreach_file(cli->ctx, print_file, NULL);
	st = cli_set_commit(cli, set, &how);
out:
	ddctl_queryset_unref(set);
	return st;
}
