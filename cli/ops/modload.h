/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Modules loaded during a follow/run session (ops/modload.c). */
#ifndef DDCTL_CLI_OPS_MODLOAD_H
#define DDCTL_CLI_OPS_MODLOAD_H

#include "cli.h"

/* Listen for module loads (@l NULL when it cannot, with a warning). */
void cli_modload_open(struct cli *cli, struct ddctl_uevent_listener **l);
/* Say which modules the session's load-time file configures. */
void cli_modload_say(struct cli *cli, struct ddctl_session *s);
/*
 * One uevent: a module @user selects was loaded: recorded in the session,
 * @user's queries for it and the decoration applied, its printing sites
 * followed (@added: how many; ddctl_session_get_sites() has them last).
 */
int cli_modload_handle(struct cli *cli, struct ddctl_uevent_listener *l,
		       struct ddctl_session *s, struct ddctl_queryset *user,
		       unsigned int decoration, size_t *added);
/* Append to @set what gives the session's later modules their defaults. */
int cli_modload_restore(struct cli *cli, struct ddctl_session *s,
			struct ddctl_table *now, struct ddctl_queryset *set);

#endif
