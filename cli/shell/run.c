// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The shell command: lines from a terminal (tty.c), or a script on stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "output/message.h"
#include "shell/shell.h"

/* A script on stdin: the first failing line stops it unless --keep-going. */
static int shell_script_run(struct shell *sh, FILE *f)
{
	const char *complete = NULL;
	int st, status = EXIT_OK;
	size_t alloc = 0;
	char *line = NULL;
	bool eof = false;

	while (!sh->quit) {
		eof = getline(&line, &alloc, f) < 0;
		if (eof && !sh->cont)
			break;
		if (shell_feed(sh, eof ? "" : line, &complete) < 0) {
			status = EXIT_REFUSED;
			break;
		}
		if (!complete)
			continue;
		st = shell_run_line(sh, complete);
		if (st && !status)
			status = st;
		if (st && !sh->opts.keep_going)
			break;
	}
	free(line);
	if (sh->pending && !sh->quit && (!status || sh->opts.keep_going)) {
		sh->cli->line = sh->lineno;
		cli_error(sh->cli, "end of input with a set open (%zu pending): nothing of it was applied\n",
			  shell_pending_count(sh));
		sh->cli->line = 0;
		status = status ? status : EXIT_USAGE;
	}
	return status;
}

/* The shell command: lines from a terminal, or a script on stdin. */
int shell_main(struct cli *cli, const struct cli_opts *opts,
	       const struct shell_host *host)
{
	bool interactive = isatty(STDIN_FILENO);
	struct shell sh;
	int st;

	shell_init(&sh, cli, opts, host, interactive);
	st = interactive ? shell_tty_run(&sh) : shell_script_run(&sh, stdin);
	shell_release(&sh);
	return st;
}
