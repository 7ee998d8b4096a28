/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Aligned columns, cut only when a line does not fit the terminal. */
#ifndef DDCTL_CLI_OUTPUT_TABLE_H
#define DDCTL_CLI_OUTPUT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

struct cli_column {
	const char *name;   /* the header, on a terminal */
	unsigned int cap;   /* the widest the column gets (0: no limit) */
	bool left_cut;      /* cut at the left (paths keep their end) */
	bool right;         /* right-aligned (numbers) */
};

struct cli_table {
	const struct cli_column *cols;
	size_t ncols, nrows, alloc;
	char **cells; /* nrows * ncols, owned */
};

int cli_table_add(struct cli_table *t, char **cells);
void cli_table_print(const struct cli_table *t, FILE *f, unsigned int width,
		     bool header);
void cli_table_show(const struct cli_table *t, const struct cli_opts *opts, FILE *f);
void cli_table_free(struct cli_table *t);

#endif
