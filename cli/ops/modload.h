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
/* udevd told to read modprobe.d again (a load-time file came or went). */
void cli_modload_udev_reload(struct cli *cli);
/*
 * One uevent: a module @user selects was loaded: @user's queries for it
 * and the decoration applied (the record has them first; @cmdline for a
 * record not written yet), its printing sites followed (@added: how many;
 * ddctl_session_get_sites() has them last).
 */
int cli_modload_handle(struct cli *cli, struct ddctl_uevent_listener *l,
		       struct ddctl_session *s, struct ddctl_queryset *user,
		       unsigned int decoration, const char *cmdline, size_t *added);
/* Append to @set what gives the modules configured at load their defaults. */
int cli_modload_restore(struct cli *cli, struct ddctl_session *s,
			struct ddctl_table *now, struct ddctl_queryset *set);

/*
 * The kernel log lines no followed site claimed, kept (the last
 * CLI_MODLOAD_KEPT) until a module loads: its init prints before its
 * load uevent comes, so its lines are read before its sites are followed.
 */
#define CLI_MODLOAD_KEPT 1024
struct cli_modload_lines {
	struct ddctl_kmsg_record *recs; /* a ring, copies */
	size_t first, count;
};
void cli_modload_keep(struct cli_modload_lines *k, const struct ddctl_kmsg_record *rec);
/* @fn on each kept line, oldest first; then none is kept. */
void cli_modload_replay(struct cli_modload_lines *k,
			void (*fn)(const struct ddctl_kmsg_record *rec, void *data), void *data);
void cli_modload_lines_free(struct cli_modload_lines *k);

#endif
