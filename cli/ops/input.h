/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Queries from arguments, files and stdin; the number of arguments. */
#ifndef DDCTL_CLI_OPS_INPUT_H
#define DDCTL_CLI_OPS_INPUT_H

#include <stddef.h>

#include "cli.h"

int cli_parse_queries(struct cli *cli, const char *text, unsigned int flags,
		      struct ddctl_queryset **set);
int cli_parse_file(struct cli *cli, const char *path, struct ddctl_queryset **set,
		   char **text);
char *cli_join_args(int argc, char **argv);
char *cli_read_text(const char *path, size_t *len);
const char *cli_read_strerror(int e);
char *cli_read_file(const char *path);
int cli_check_saved_end(struct cli *cli, const char *name, const char *text);
int cli_check_arity(struct cli *cli, const struct cli_arity *a, int argc);

#endif
