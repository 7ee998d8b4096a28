/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Commands: one file each, run by the dispatcher after it has parsed the
 * options and checked the number of arguments. A command uses ops/ and
 * output/ (and the shell's completer), never another command.
 */
#ifndef DDCTL_CLI_COMMANDS_H
#define DDCTL_CLI_COMMANDS_H

#include "cli.h"

/* Each: the context, its options, the arguments after them. */
int cmd_list(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv);
int cmd_set(struct cli *cli, const struct cli_opts *opts, int argc,
	    char **argv);
int cmd_modules(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv);
int cmd_info(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv);
int cmd_save(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv);
int cmd_restore(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv);
int cmd_apply_config(struct cli *cli, const struct cli_opts *opts, int argc,
	             char **argv);
int cmd_persist(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv);
int cmd_watch(struct cli *cli, const struct cli_opts *opts, int argc,
	      char **argv);
int cmd_monitor(struct cli *cli, const struct cli_opts *opts, int argc,
	        char **argv);
int cmd_follow(struct cli *cli, const struct cli_opts *opts, int argc,
	       char **argv);
int cmd_run(struct cli *cli, const struct cli_opts *opts, int argc,
	    char **argv);
int cmd_sessions(struct cli *cli, const struct cli_opts *opts, int argc,
	         char **argv);
int cmd_reset(struct cli *cli, const struct cli_opts *opts, int argc,
	      char **argv);
int cmd_status(struct cli *cli, const struct cli_opts *opts, int argc,
	       char **argv);
int cmd_diff(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv);
int cmd_complete(struct cli *cli, const struct cli_opts *opts, int argc,
	         char **argv);

#endif
