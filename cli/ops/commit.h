/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Commit a set as one transaction, and report it. */
#ifndef DDCTL_CLI_OPS_COMMIT_H
#define DDCTL_CLI_OPS_COMMIT_H

#include <stdbool.h>

#include "cli.h"
#include "output/json.h"

struct cli_commit {
	struct ddctl_table *table; /* the state the set was computed from, or NULL */
	bool quiet;  /* a session's own change: no report, no progress line */
	/* --json: members written before "queries" (NULL: none) */
	void (*json_head)(struct json_writer *w, void *data);
	void *data;
	int error;   /* out: the library's -errno when the commit failed */
};

int cli_set_commit(struct cli *cli, struct ddctl_queryset *set,
		   struct cli_commit *how);
int cli_nothing_to_change(struct cli *cli);
int cli_resolve_aliases(struct cli *cli, struct ddctl_queryset *set,
			struct ddctl_table *table, bool quiet,
			struct ddctl_queryset **out);
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script, const char *snapshot);

#endif
