/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The ddctl.d configuration. */
#ifndef DDCTL_CLI_OPS_CONFIG_H
#define DDCTL_CLI_OPS_CONFIG_H

#include "cli.h"

/* The configuration, all or nothing: a query error in any file loads nothing. */
int cli_load_config(struct cli *cli, struct ddctl_queryset **set);
/*
 * The configuration without the files that have a query error (each said
 * with FILE:LINE and the reason; @skipped counts them): what a boot unit
 * applies. A file that cannot be read or trusted still loads nothing.
 */
int cli_load_config_valid(struct cli *cli, struct ddctl_queryset **set,
			  unsigned int *skipped);

#endif
