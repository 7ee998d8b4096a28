// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The shell command: lines from a terminal (tty.c), or a script on stdin. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/message.h"
#include "shell/shell.h"
#include "util/read-file.h"

/*
 * The next line of @f into *@line (with its newline): 1, 0 at EOF, or
 * -errno (a directory: -EISDIR). A line longer than the limit of an input
 * is -EFBIG, found while reading it.
 */
static int read_line(FILE *f, char **line, size_t *alloc)
{
	size_t len = 0;
	char *n;
	int c;

	errno = 0;
	while ((c = getc(f)) != EOF) {
		if (len + 2 > *alloc) {
			if (*alloc > READ_FILE_MAX)
				return -EFBIG;
			n = realloc(*line, *alloc ? *alloc * 2 : 256);
			if (!n)
				return -ENOMEM;
			*line = n;
			*alloc = *alloc ? *alloc * 2 : 256;
		}
		(*line)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (ferror(f))
		return errno ? -errno : -EIO;
	if (len && memchr(*line, '\0', len))
		return -EBADMSG;
	if (len)
		(*line)[len] = '\0';
	return len > 0;
}

/* A script on stdin: the first failing line stops it unless --keep-going. */
static int shell_script_run(struct shell *sh, FILE *f)
{
	const char *complete = NULL;
	int r, st, status = EXIT_OK;
	size_t alloc = 0;
	char *line = NULL;
	bool eof = false;

	while (!sh->quit) {
		r = read_line(f, &line, &alloc);
		if (r < 0) {
			cli_error(sh->cli, "cannot read stdin: %s\n", read_file_strerror(r));
			status = EXIT_REFUSED;
			break;
		}
		eof = r == 0;
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
