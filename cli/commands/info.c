// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl info: which control file, which kernel features, which backend. */
#include <errno.h>
#include <string.h>

#include "cli.h"

int cmd_info(struct cli *cli, int argc, char **argv)
{
	struct ddctl_table *table = NULL;
	unsigned int features = 0;
	const char *path = NULL;
	size_t sites = 0;
	int r, st = EXIT_REFUSED;

	if (argc > 0) {
		cli_error(cli, "info takes no arguments\n");
		return EXIT_USAGE;
	}
	r = ddctl_get_control_path(cli->ctx, &path);
	if (r == 0)
		r = ddctl_get_features(cli->ctx, &features);
	if (r == 0)
		st = cli_read_table(cli, &table); /* says why it cannot */
	else
		cli_error(cli, "%s\n", CLI_NO_CONTROL);
	if (table)
		sites = ddctl_table_get_count(table);
	ddctl_table_unref(table);
	if (cli->json) {
		printf("{\"control\":");
		if (path)
			json_string(stdout, path);
		else
			printf("null");
		printf(",\"kernel_control\":%s,\"negation\":%s,\"transactions\":%s,\"netlink\":%s,\"backend\":\"%s\",\"sites\":",
		       features & DDCTL_FEATURE_CONTROL ? "true" : "false",
		       features & DDCTL_FEATURE_NEGATION ? "true" : "false",
		       features & DDCTL_FEATURE_TRANSACTIONS ? "true" : "false",
		       features & DDCTL_FEATURE_NETLINK ? "true" : "false",
		       cli_backend_name(cli));
		if (st == EXIT_OK)
			printf("%zu}\n", sites);
		else
			printf("null}\n");
	} else {
		printf("control file:  %s%s\n", path ? path : "none",
		       path && !(features & DDCTL_FEATURE_CONTROL) ? " (not a kernel file)" : "");
		if (st == EXIT_OK)
			printf("callsites:     %zu\n", sites);
		else
			printf("callsites:     unknown\n");
		printf("negation:      %s\n", features & DDCTL_FEATURE_NEGATION ?
		       "kernel" : "expanded by ddctl");
		printf("transactions:  %s\n", features & DDCTL_FEATURE_TRANSACTIONS ?
		       "kernel (atomic, one flush per set)" : "no (one write per set)");
		printf("netlink:       %s\n", features & DDCTL_FEATURE_NETLINK ?
		       "dyndbg family" : "no");
		printf("backend:       %s\n", cli_backend_name(cli));
	}
	return r < 0 ? EXIT_REFUSED : st;
}
