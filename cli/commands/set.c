// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl set / ddctl -f: apply queries as one set, or --check them. */
#include <stdlib.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/input.h"
#include "output/message.h"

int cmd_set(struct cli *cli, const struct cli_opts *opts, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { 0 };
	char *text;
	int st;

	if (opts->file) {
		st = cli_parse_file(cli, opts->file, &set, NULL);
		if (!st && ddctl_queryset_get_count(set) == 0)
			st = cli_nothing_to_change(cli);
		else if (!st)
			st = cli_set_commit(cli, set, &how);
		goto out;
	}
	text = cli_join_args(argc, argv);
	if (!text)
		return EXIT_REFUSED;
	st = cli_parse_queries(cli, text, 0, &set);
	free(text);
	if (st)
		goto out;
	if (ddctl_queryset_get_count(set) == 0) {
		cli_error(cli, "no queries given\n");
		st = EXIT_USAGE;
		goto out;
	}
	st = cli_set_commit(cli, set, &how);
out:
	ddctl_queryset_unref(set);
	return st;
}
