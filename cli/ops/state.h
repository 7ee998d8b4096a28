/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The kernel's state, the backend, the run directory. */
#ifndef DDCTL_CLI_OPS_STATE_H
#define DDCTL_CLI_OPS_STATE_H

#include <stdbool.h>

#include "cli.h"

int cli_read_table(struct cli *cli, struct ddctl_table **table);
const char *cli_backend_name(struct cli *cli);
const char *cli_boot_snapshot_name(void);
const char *cli_no_snapshot_reason(void);
void cli_check_sessions(struct cli *cli);
bool cli_lock(struct cli *cli);
void cli_unlock(void);

#endif
