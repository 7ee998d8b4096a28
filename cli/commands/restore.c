// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl restore FILE: bring the state exactly to a saved script, as one set. */
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/input.h"

int cmd_restore(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv)
{
	struct ddctl_queryset *script = NULL;
	char *text = NULL;
	int st;

	st = cli_parse_file(cli, argv[0], &script, &text);
	if (!st)
		st = cli_check_saved_end(cli, argv[0], text);
	/* no queries: "all default" only when ddctl saved it so */
	if (!st && ddctl_queryset_get_count(script) == 0 &&
	    strncmp(text, DDCTL_SAVE_MAGIC, strlen(DDCTL_SAVE_MAGIC))) {
		st = cli_nothing_to_change(cli);
		goto out;
	}
	if (!st)
		st = cli_restore_script(cli, argv[0], script, NULL);
out:
	free(text);
	ddctl_queryset_unref(script);
	return st;
}
