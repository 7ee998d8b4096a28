// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl run QUERY... -- COMMAND: a follow session for as long as COMMAND runs. */
#include <string.h>

#include "commands/commands.h"
#include "ops/follow.h"
#include "output/message.h"

int cmd_run(struct cli *cli, const struct cli_opts *opts, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (i >= argc - 1) {
		cli_error(cli, "run needs queries, '--' and a command: ddctl run QUERY... -- COMMAND [ARGS]\n");
		return EXIT_USAGE;
	}
	if (i == 0 && !opts->file) {
		cli_error(cli, "run needs at least one query, or -f FILE\n");
		return EXIT_USAGE;
	}
	argv[i] = NULL; /* the queries end here; the command ends at argv[argc] */
	return cli_follow(cli, opts, "run", i, argv, argv + i + 1);
}
