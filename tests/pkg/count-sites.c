// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* A libddctl client built against the installed libddctl-dev package by
 * tests/pkg/check-deb.sh: prints the number of callsites in a control file. */
#include <stdio.h>
#include <ddctl/ddctl.h>

int main(int argc, char **argv)
{
	struct ddctl_ctx *ctx = NULL;
	struct ddctl_table *table = NULL;
	int r;

	if (argc != 2)
		return 2;
	r = ddctl_new(&ctx);
	if (r == 0)
		r = ddctl_set_control_path(ctx, argv[1]);
	if (r == 0)
		r = ddctl_table_read(ctx, &table);
	if (r == 0)
		printf("%zu\n", ddctl_table_get_count(table));
	ddctl_table_unref(table);
	ddctl_unref(ctx);
	return r == 0 ? 0 : 1;
}
