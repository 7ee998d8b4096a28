// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl reset: back to the state the kernel booted with, the snapshot
 * ddctl.service keeps in /run/ddctl/boot.conf (`ddctl save --boot`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define BOOT_CONF "/run/ddctl/boot.conf"

/* ddctl save --boot: keep the current state as the boot snapshot, once. */
int cli_save_boot(struct cli *cli)
{
	struct ddctl_table *table = NULL;
	int r, st = cli_read_table(cli, &table);

	if (st)
		return st;
	r = cli->check ? 0 : ddctl_boot_state_save(table);
	ddctl_table_unref(table);
	if (r == -EEXIST) {
		if (!cli->quiet && !cli->json)
			printf("kept the boot snapshot %s\n", BOOT_CONF);
		return EXIT_OK;
	}
	if (r < 0) {
		cli_error(cli, "cannot write the boot snapshot %s: %s\n", BOOT_CONF,
			  strerror(-r));
		return EXIT_REFUSED;
	}
	if (!cli->quiet && !cli->json)
		printf("%s the boot snapshot %s\n", cli->check ? "would write" : "wrote",
		       BOOT_CONF);
	return EXIT_OK;
}

int cmd_reset(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *script = NULL;
	char *text = NULL;
	int r, st;

	if (argc > 0) {
		cli_error(cli, "reset takes no arguments\n");
		return EXIT_USAGE;
	}
	r = ddctl_boot_state_load(cli->ctx, &text);
	if (r == -ENOENT) {
		cli_error(cli, "no boot snapshot %s: ddctl.service writes it at boot ('ddctl save --boot'); nothing was changed\n",
			  BOOT_CONF);
		return EXIT_REFUSED;
	}
	if (r < 0) {
		cli_error(cli, "cannot read the boot snapshot %s: %s; nothing was changed\n",
			  BOOT_CONF, strerror(-r));
		return EXIT_REFUSED;
	}
	st = cli_parse_queries(cli, text, 0, &script);
	free(text);
	if (!st)
		st = cli_restore_script(cli, BOOT_CONF, script);
	ddctl_queryset_unref(script);
	return st;
}
