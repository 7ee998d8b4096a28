/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The terminal's width, and the pager for long output. */
#ifndef DDCTL_CLI_OUTPUT_PAGER_H
#define DDCTL_CLI_OUTPUT_PAGER_H

#include <stdbool.h>

#include "cli.h"

unsigned int cli_output_width(void);
void cli_pager_start(struct cli *cli);
void cli_pager_end(void);
bool cli_pager_running(void);

#endif
