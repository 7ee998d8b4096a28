/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Ops: what several commands share. Reading the state and the input,
 * the configuration, committing and reporting a set, the follow session.
 * Ops print through output/ and never call a command.
 */
#ifndef DDCTL_CLI_OPS_H
#define DDCTL_CLI_OPS_H

#include "cli.h"
#include "output/output.h"

/* state.c: the kernel's state, the backend, the run directory */
int cli_read_table(struct cli *cli, struct ddctl_table **table);
const char *cli_backend_name(struct cli *cli);
const char *cli_boot_snapshot_name(void);
void cli_check_sessions(struct cli *cli);

/* input.c: queries from arguments, files and stdin */
int cli_parse_queries(struct cli *cli, const char *text, unsigned int flags,
		      struct ddctl_queryset **set);
int cli_parse_file(struct cli *cli, const char *path, struct ddctl_queryset **set,
		   char **text);
char *cli_join_args(int argc, char **argv);
char *cli_read_text(const char *path, size_t *len);
char *cli_read_file(const char *path);
int cli_check_arity(struct cli *cli, const struct cli_arity *a, int argc);

/* config.c: the ddctl.d configuration */
int cli_load_config(struct cli *cli, struct ddctl_queryset **set);

/* commit.c: commit a set as one transaction, and report it */
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
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script);

/* follow.c: a follow session (follow, run), and restoring one (sessions) */
int cli_follow(struct cli *cli, const struct cli_opts *opts, const char *name,
	       int argc, char **argv, char **command);
int cli_session_restore(struct cli *cli, struct ddctl_session *s);

#endif
