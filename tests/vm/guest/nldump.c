// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * nldump: one DYNDBG_CMD_GET dump of the kernel's "dyndbg" generic netlink
 * family, optionally filtered by a match-spec, printed in the control
 * file's format, so the VM suite can test the kernel's dump (that it ends,
 * that each site comes once, that the filter selects the right sites)
 * without ddctl's own filtering in between.
 *
 *   nldump [MATCH-SPEC]
 *
 * Exit status 0 when the dump ended without an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dyndbg.h"

int main(int argc, char **argv)
{
	struct ddctl_ctx *ctx;
	char *text = NULL;
	int r;

	if (argc > 2) {
		fprintf(stderr, "usage: nldump [MATCH-SPEC]\n");
		return 2;
	}
	if (ddctl_new(&ctx) < 0)
		return 1;
	r = nl_dump(ctx, argc == 2 ? argv[1] : NULL, &text);
	if (r < 0)
		fprintf(stderr, "nldump: %s\n", strerror(-r));
	else
		fputs(text, stdout);
	free(text);
	ddctl_unref(ctx);
	return r < 0;
}
