// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl info: which control file, which kernel features, which backend. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"

static void print_json(struct cli *cli, const char *path, unsigned int features,
		       bool known, size_t sites)
{
	struct json_writer w;

	json_init(&w, stdout);
	json_begin_object(&w);
	json_key(&w, "control");
	json_string(&w, path);
	json_key(&w, "kernel_control");
	json_bool(&w, features & DDCTL_FEATURE_CONTROL);
	json_key(&w, "negation");
	json_bool(&w, features & DDCTL_FEATURE_NEGATION);
	json_key(&w, "transactions");
	json_bool(&w, features & DDCTL_FEATURE_TRANSACTIONS);
	json_key(&w, "netlink");
	json_bool(&w, features & DDCTL_FEATURE_NETLINK);
	json_key(&w, "backend");
	json_string(&w, cli_backend_name(cli));
	json_key(&w, "sites");
	if (known)
		json_uint(&w, sites);
	else
		json_null(&w);
	json_end_object(&w);
}

int cmd_info(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv)
{
	struct ddctl_table *table = NULL;
	unsigned int features = 0;
	const char *path = NULL;
	size_t sites = 0;
	int r, st = EXIT_REFUSED;

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
		print_json(cli, path, features, st == EXIT_OK, sites);
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
