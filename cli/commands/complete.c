// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl __complete WORD...: the candidates for the last word of a query, one
 * a line, for the bash, zsh and fish completions. The shell's completer does
 * the work: keywords, flags, and after module/file/func/class the names of
 * the table in use (-C honoured) plus, for module, every module libkmod can
 * load. Hidden: not in --help, not in the shell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "shell/complete.h"

int cmd_complete(struct cli *cli, const struct cli_opts *opts, int argc,
	         char **argv)
{
	static const char *const query_commands[] = { "q", NULL };
	static const char *const commands[] = { "q", NULL };
	struct ddctl_table *table = NULL;
	struct completer *comp = NULL;
	char *const *cands;
	size_t i, n, start, len = 3;
	char *line;

	for (i = 0; i < (size_t)argc; i++)
		len += strlen(argv[i]) + 1;
	line = malloc(len);
	if (!line || completer_new(cli->ctx, commands, query_commands, &comp) < 0) {
		free(line);
		return EXIT_REFUSED;
	}
	strcpy(line, "q");
	for (i = 0; i < (size_t)argc; i++) {
		strcat(line, " ");
		strcat(line, argv[i]);
	}
	if (argc == 0)
		strcat(line, " ");
	if (ddctl_table_read(cli->ctx, &table) == 0) /* else keywords and modules */
		completer_set_table(comp, table);
	n = completer_complete(comp, line, strlen(line), &start, &cands);
	for (i = 0; i < n; i++)
		printf("%s\n", cands[i]);
	completer_free(comp);
	ddctl_table_unref(table);
	free(line);
	return EXIT_OK;
}
