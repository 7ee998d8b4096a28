/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A follow session (follow, run), and restoring one (sessions). */
#ifndef DDCTL_CLI_OPS_FOLLOW_H
#define DDCTL_CLI_OPS_FOLLOW_H

#include "cli.h"

int cli_follow(struct cli *cli, const struct cli_opts *opts, const char *name,
	       int argc, char **argv, char **command);
int cli_session_restore(struct cli *cli, struct ddctl_session *s);

#endif
