/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/* Completion candidates from sorted lists: the shell's Tab, ddctl __complete. */
#ifndef DDCTL_CLI_SHELL_COMPLETE_H
#define DDCTL_CLI_SHELL_COMPLETE_H

#include <stddef.h>

#include <ddctl/ddctl.h>

struct completer;

int completer_new(struct ddctl_ctx *ctx, const char *const *commands,
		  const char *const *query_commands, struct completer **out);
void completer_free(struct completer *c);
int completer_set_table(struct completer *c, struct ddctl_table *table);
size_t completer_complete(struct completer *c, const char *line, size_t point,
			  size_t *start, char *const **candidates);

#endif
