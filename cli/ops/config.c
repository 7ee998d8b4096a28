// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The ddctl.d configuration, merged into one set (apply-config, persist, watch). */
#include <errno.h>
#include <string.h>

#include "ops/config.h"
#include "output/message.h"

int cli_load_config(struct cli *cli, struct ddctl_queryset **set)
{
	int r = ddctl_queryset_new(cli->ctx, set);

	if (r == 0)
		r = ddctl_config_load(cli->ctx, *set);
	if (r == -EINVAL) {
		cli_error(cli, "%s; nothing applied\n",
			ddctl_queryset_get_error(*set, NULL, NULL, NULL));
		return EXIT_USAGE;
	}
	if (r < 0) {
		cli_error(cli, "cannot load the configuration: %s\n",
			strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

int cli_load_config_valid(struct cli *cli, struct ddctl_queryset **set,
			  unsigned int *skipped)
{
	int r = ddctl_queryset_new(cli->ctx, set);

	*skipped = 0;
	cli_lib_error_forget();
	if (r == 0)
		r = ddctl_config_load_valid(cli->ctx, *set, skipped);
	if (r < 0) {
		/* the library said which file and why */
		if (!cli_lib_error())
			cli_error(cli, "cannot load the configuration: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}
