/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The status line while a split set is written. */
#ifndef DDCTL_CLI_OUTPUT_PROGRESS_H
#define DDCTL_CLI_OUTPUT_PROGRESS_H

#include "cli.h"

#include <stdbool.h>

bool cli_progress_wanted(struct cli *cli);
void cli_progress_show(unsigned int done, unsigned int total);

#endif
