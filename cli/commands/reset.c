// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl reset: back to the state the kernel booted with, the snapshot
 * ddctl.service keeps (`ddctl save --boot`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/input.h"
#include "ops/state.h"
#include "output/message.h"

int cmd_reset(struct cli *cli, const struct cli_opts *opts, int argc,
	      char **argv)
{
	struct ddctl_queryset *script = NULL;
	const char *boot = cli_boot_snapshot_name();
	char *text = NULL;
	int r, st;

	r = ddctl_boot_state_load(cli->ctx, &text);
	if (r == -ENOENT) {
		cli_error(cli, "no boot snapshot %s: %s; nothing was changed\n",
			  boot, cli_no_snapshot_reason());
		return EXIT_REFUSED;
	}
	if (r < 0) {
		cli_error(cli, "cannot read the boot snapshot %s: %s; nothing was changed\n",
			  boot, strerror(-r));
		return EXIT_REFUSED;
	}
	st = cli_check_saved_end(cli, boot, text);
	if (!st)
		st = cli_parse_queries(cli, text, 0, &script);
	if (!st)
		st = cli_restore_script(cli, boot, script, text);
	free(text);
	ddctl_queryset_unref(script);
	return st;
}
