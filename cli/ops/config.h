/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The ddctl.d configuration. */
#ifndef DDCTL_CLI_OPS_CONFIG_H
#define DDCTL_CLI_OPS_CONFIG_H

#include "cli.h"

int cli_load_config(struct cli *cli, struct ddctl_queryset **set);

#endif
