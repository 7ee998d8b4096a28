/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The interactive shell: a session of commands over one library context. */
#ifndef DDCTL_SHELL_H
#define DDCTL_SHELL_H

#include "cli.h"

#define SHELL_UNDO_MAX 16

struct completer;

struct shell {
	struct cli *cli;
	struct ddctl_table *table;	/* the current state, last read */
	bool kernel;			/* the control file is the kernel's */
	bool stale;			/* re-read the kernel's state first */
	struct ddctl_queryset *pending;	/* begin ... commit */
	struct ddctl_table *undo[SHELL_UNDO_MAX]; /* state before each set */
	size_t nundo;
	bool interactive, quit;
	unsigned int lineno;		/* physical lines read */
	unsigned int first_line;	/* where the current logical line began */
	char *cont;			/* a line continued with '\' */
	char *complete;			/* the last complete logical line */
};

/* shell.c */
void shell_init(struct shell *sh, struct cli *cli, bool interactive);
void shell_release(struct shell *sh);
size_t shell_pending_count(const struct shell *sh);
void shell_prompt(struct shell *sh, char *buf, size_t size);
int shell_feed(struct shell *sh, const char *line, const char **complete);
int shell_run_line(struct shell *sh, const char *line);
struct ddctl_table *shell_current_table(struct shell *sh);
const char *const *shell_command_names(void);
const char *const *shell_query_commands(void);

/* shell-tty.c: readline, history, Ctrl-C */
int shell_tty_run(struct shell *sh);

/* shell-complete.c: context-aware candidates from sorted lists */
int completer_new(struct ddctl_ctx *ctx, const char *const *commands,
		  const char *const *query_commands, struct completer **out);
void completer_free(struct completer *c);
int completer_set_table(struct completer *c, struct ddctl_table *table);
size_t completer_complete(struct completer *c, const char *line, size_t point,
			  size_t *start, char *const **candidates);

#endif
