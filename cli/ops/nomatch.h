/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Why a query selects no site: the warnings of an empty query. */
#ifndef DDCTL_CLI_OPS_NOMATCH_H
#define DDCTL_CLI_OPS_NOMATCH_H

#include "cli.h"

/*
 * For each query of @set that selects no site of @table (@matched: the
 * count per query), a warning naming it and why; 'line 0' (every line) is
 * said too. Returns EXIT_USAGE when @strict and a module name exists
 * nowhere (an error, as nft's for a table that does not exist), else
 * EXIT_OK.
 */
int cli_explain_empty(struct cli *cli, struct ddctl_queryset *set,
		      struct ddctl_table *table, const unsigned int *matched,
		      bool strict);

#endif
