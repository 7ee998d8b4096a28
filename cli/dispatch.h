/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The dispatcher: the command and option tables, argv mode and the shell's entry. */
#ifndef DDCTL_CLI_DISPATCH_H
#define DDCTL_CLI_DISPATCH_H

#include "cli.h"

/* Parse argv (options, the command, its options) and run it. */
int cli_dispatch(struct cli *cli, int argc, char **argv);

#endif
