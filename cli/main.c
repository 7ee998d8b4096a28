// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl: the command line, a thin client of libddctl. */
#include <stdio.h>
#include <stdlib.h>

#include "dispatch.h"
#include "output/message.h"
#include "output/pager.h"

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	const char *kernel;
	int r;

	if (ddctl_new(&cli.ctx) < 0) {
		fprintf(stderr, "ddctl: out of memory\n");
		return EXIT_REFUSED;
	}
	ddctl_set_log_fn(cli.ctx, cli_log, &cli);
	/* the kernel of a --control FILE; --kernel overrides it */
	kernel = getenv("DDCTL_KERNEL");
	if (kernel && *kernel && ddctl_set_kernel(cli.ctx, kernel) < 0) {
		fprintf(stderr, "ddctl: out of memory\n");
		return EXIT_REFUSED;
	}
	r = cli_dispatch(&cli, argc, argv);
	r = cli_check_stdout(&cli, r);
	cli_json_errors(r);
	cli_pager_end();
	ddctl_unref(cli.ctx);
	return r;
}
