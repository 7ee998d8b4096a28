/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* A follow session (follow, run), a timed set, and restoring one (sessions). */
#ifndef DDCTL_CLI_OPS_FOLLOW_H
#define DDCTL_CLI_OPS_FOLLOW_H

#include "cli.h"

int cli_follow(struct cli *cli, const struct cli_opts *opts, const char *name,
	       int argc, char **argv, char **command);
int cli_session_restore(struct cli *cli, struct ddctl_session *s);
/* set --for: @set applied with a session record, restored when the time is up. */
int cli_timed_set(struct cli *cli, const struct cli_opts *opts,
		  struct ddctl_queryset *set, int argc, char **argv);

#endif
