/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* The interactive shell: a session of commands over one library context. */
#ifndef DDCTL_SHELL_H
#define DDCTL_SHELL_H

#include <stdio.h>

#include "cli.h"
#include "complete.h"

#define SHELL_UNDO_MAX 16

/*
 * What the shell uses of the dispatcher, handed to it as data: the command
 * table and the entry points argv mode uses too. The shell never includes
 * the dispatcher's header, so the two are no circle.
 */
struct shell_host {
	const struct cli_command *commands;
	size_t ncommands;
	/* parse the options after argv[0], then run it (argv mode's path) */
	int (*run)(struct cli *cli, struct cli_opts *opts, int argc, char **argv);
	/* only the options after argv[0]; *consumed: the words they took */
	int (*parse_options)(struct cli *cli, struct cli_opts *opts, int argc,
			     char **argv, int *consumed);
	/* is @word an option; *takes_next: its argument is the next word */
	bool (*is_option_word)(const char *word, bool *takes_next);
	void (*command_usage)(FILE *f, const struct cli_command *cmd, bool shell);
	void (*print_options)(FILE *f, bool shell, const struct cli_command *cmd);
};

struct shell {
	struct cli *cli;
	const struct shell_host *host;
	struct cli_opts opts;		/* the options of the shell command itself */
	struct ddctl_table *table;	/* the current state, last read */
	bool kernel;			/* the control file is the kernel's */
	bool stale;			/* re-read the kernel's state first */
	struct ddctl_queryset *pending;	/* begin ... commit */
	struct ddctl_table *undo[SHELL_UNDO_MAX]; /* state before each set */
	struct ddctl_table *undo_after[SHELL_UNDO_MAX]; /* as each set left it */
	size_t nundo;
	bool interactive, quit;
	unsigned int lineno;		/* physical lines read */
	unsigned int first_line;	/* where the current logical line began */
	char *cont;			/* a line continued with '\' */
	char *complete;			/* the last complete logical line */
};

/* run.c: the shell command */
int shell_main(struct cli *cli, const struct cli_opts *opts,
	       const struct shell_host *host);

/* shell.c: lines, the shell's own commands, the state and undo */
void shell_init(struct shell *sh, struct cli *cli, const struct cli_opts *opts,
		const struct shell_host *host, bool interactive);
void shell_release(struct shell *sh);
size_t shell_pending_count(const struct shell *sh);
void shell_prompt(struct shell *sh, char *buf, size_t size);
int shell_feed(struct shell *sh, const char *line, const char **complete);
int shell_run_line(struct shell *sh, const char *line);
struct ddctl_table *shell_current_table(struct shell *sh);
const char *const *shell_command_names(const struct shell *sh);
const char *const *shell_query_commands(void);

/* tty.c: readline, history, Ctrl-C */
int shell_tty_run(struct shell *sh);

#endif
