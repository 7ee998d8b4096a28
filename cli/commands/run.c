// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl run QUERY... -- COMMAND: a follow session for as long as COMMAND runs. */
#include <string.h>

#include "cli.h"

int cmd_run(struct cli *cli, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (i >= argc - 1) {
		cli_error(cli, "run needs queries, '--' and a command: ddctl run QUERY... -- COMMAND [ARGS]\n");
		return EXIT_USAGE;
	}
	argv[i] = NULL; /* the queries end here; the command ends at argv[argc] */
	return cli_follow(cli, "run", i, argv, argv + i + 1);
}
