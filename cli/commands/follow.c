// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl follow QUERY...: apply, show the lines their callsites print, restore on exit. */
#include "commands/commands.h"
#include "ops/follow.h"

int cmd_follow(struct cli *cli, const struct cli_opts *opts, int argc,
	       char **argv)
{
	return cli_follow(cli, opts, "follow", argc, argv, NULL);
}
