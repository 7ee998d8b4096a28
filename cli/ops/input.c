// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* The input: queries from arguments, files and stdin, parsed once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ops/input.h"
#include "ops/state.h"
#include "output/message.h"
#include "output/suggest.h"
#include "util/read-file.h"

static const char *const keywords[] = { "func", "file", "module", "format",
	"line", "class", NULL };

static bool is_keyword(const char *word)
{
	size_t i;

	for (i = 0; keywords[i]; i++)
		if (!strcmp(word + (*word == '!'), keywords[i]))
			return true;
	return false;
}

/*
 * What to do about a parse error: a did-you-mean for a misspelt keyword,
 * "module NAME" for a bare name, and for a filter (list) that flags do
 * not belong there.
 */
static void query_error(struct cli *cli, const char *msg, const char *word,
			unsigned int flags, const char *text)
{
	if (strstr(msg, "unknown keyword")) {
		cli_error(cli, "%s%s\n", msg, cli_suggest(word + (*word == '!'), keywords));
	} else if (strstr(msg, "has no value") && (flags & DDCTL_PARSE_MATCH_ONLY) &&
		   word && strchr("+-=", *word)) {
		cli_error(cli, "list selects sites and takes no flags ('%s'): to change them, 'ddctl set %s'\n",
			  word, text && !strpbrk(text, ";\n") ? text : "QUERY FLAGS");
	} else if (strstr(msg, "has no value") && word && !is_keyword(word)) {
		cli_error(cli, "%s (did you mean 'module %s'?)\n", msg, word);
	} else {
		cli_error(cli, "%s\n", msg);
	}
}

/* The outcome of parsing into @set (with @flags): the error, if any, once. */
static int parse_status(struct cli *cli, struct ddctl_queryset *set, int r,
			unsigned int flags, const char *text)
{
	const char *word;

	if (r == -EINVAL) {
		unsigned int index, column;
		const char *msg = ddctl_queryset_get_error(set, &index, &column, &word);

		cli_error_query(index, column, word);
		query_error(cli, msg, word, flags, text);
		return EXIT_USAGE;
	}
	if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

int cli_parse_queries(struct cli *cli, const char *text, unsigned int flags,
		      struct ddctl_queryset **set)
{
	int r = ddctl_queryset_new(cli->ctx, set);

	if (r == 0)
		r = ddctl_queryset_parse(*set, text, flags);
	return parse_status(cli, *set, r, flags, text);
}

/*
 * The queries of file @path ('-': stdin), errors named FILE:LINE. A file
 * that cannot be read (a directory, an I/O error) is an error, never an
 * empty set. @text, when not NULL, gets the file's contents.
 */
int cli_parse_file(struct cli *cli, const char *path, struct ddctl_queryset **set,
		   char **text)
{
	const char *name = strcmp(path, "-") ? path : "stdin";
	size_t len = 0;
	char *buf = cli_read_text(path, &len);
	int r;

	*set = NULL;
	if (!buf && errno == ENOENT && !strcmp(path, cli_boot_snapshot_name())) {
		cli_error(cli, "no boot snapshot %s: %s; nothing was changed\n", name,
			  cli_no_snapshot_reason());
		return EXIT_REFUSED;
	}
	if (!buf) {
		cli_error(cli, "cannot read %s: %s; nothing was changed\n", name,
			  cli_read_strerror(errno));
		return EXIT_REFUSED;
	}
	r = ddctl_queryset_new(cli->ctx, set);
	if (r == 0)
		r = ddctl_queryset_parse_buffer(*set, name, buf, len, 0);
	if (text)
		*text = buf;
	else
		free(buf);
	return parse_status(cli, *set, r, 0, NULL);
}

/* An argument that is a query of its own: "module a +p", "a +p; b -p". */
static bool is_query_arg(const char *arg)
{
	const char *last = arg + strlen(arg);

	if (strpbrk(arg, ";\n"))
		return true;
	while (last > arg && strchr(" \t", last[-1]))
		last--;
	while (last > arg && !strchr(" \t", last[-1]))
		last--;
	return last > arg && strchr("+-=", *last);
}

/*
 * One group of arguments (between standalone ';'), at @p: words of one
 * query (`ddctl set module foo +p`), an argument with blanks one quoted
 * word (`ddctl set format 'rx error' +p`), unless the first holds blanks or
 * one ends in flags, a whole query (`ddctl set 'module a +p' 'module b
 * +p'`): then each is a query of its own. Returns the end.
 */
static char *join_group(char *p, int argc, char **argv)
{
	bool words = true;
	int i;

	for (i = 0; i < argc; i++)
		if (is_query_arg(argv[i]) || (i == 0 && strpbrk(argv[i], " \t")))
			words = false;
	for (i = 0; i < argc; i++) {
		bool quote = words && strpbrk(argv[i], " \t");
		char q = strchr(argv[i], '"') ? '\'' : '"';

		if (i)
			*p++ = words ? ' ' : '\n';
		if (quote)
			*p++ = q;
		p = stpcpy(p, argv[i]);
		if (quote)
			*p++ = q;
	}
	return p;
}

/*
 * The arguments as query text. A standalone ';' argument separates queries
 * (`ddctl set module a +p ';' module b +p`); each group between them is
 * joined by join_group()'s rule.
 */
char *cli_join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;
	int i, start;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = start = 0, p = s; i <= argc; i++) {
		if (i < argc && strcmp(argv[i], ";"))
			continue;
		if (i > start) {
			if (p > s)
				*p++ = '\n';
			p = join_group(p, i - start, argv + start);
		}
		start = i + 1;
	}
	return s;
}

/*
 * The whole of @path ('-': stdin) and its length, NUL-terminated; NULL with
 * errno set when it cannot be opened or read (a directory: EISDIR; more
 * than the limit of an input: EFBIG, see cli_read_strerror()).
 */
char *cli_read_text(const char *path, size_t *len)
{
	char *buf = NULL;
	int r;

	*len = 0;
	r = strcmp(path, "-") ? read_full_file(path, 0, &buf, len) :
		read_full_fd(STDIN_FILENO, 0, &buf, len);
	if (r < 0) {
		errno = -r;
		return NULL;
	}
	return buf;
}

/* Why cli_read_text() failed with @e (an errno), for a message. */
const char *cli_read_strerror(int e)
{
	return read_file_strerror(-e);
}

char *cli_read_file(const char *path)
{
	size_t len;

	return cli_read_text(path, &len);
}

/*
 * A saved script whose header says that an end line follows must end with
 * it (only blanks after): else it was cut short (a full disk) and is
 * refused. Scripts from before the end line are read as they are.
 */
int cli_check_saved_end(struct cli *cli, const char *name, const char *text)
{
	const char *end;
	size_t len;

	if (strncmp(text, DDCTL_SAVE_MAGIC_ENDED, strlen(DDCTL_SAVE_MAGIC_ENDED)))
		return EXIT_OK;
	len = strlen(text);
	while (len && strchr(" \t\n", text[len - 1]))
		len--;
	end = text + len - strlen(DDCTL_SAVE_END);
	if (end >= text && !strncmp(end, DDCTL_SAVE_END, strlen(DDCTL_SAVE_END)) &&
	    (end == text || end[-1] == '\n'))
		return EXIT_OK;
	cli_error(cli, "%s is cut short: a saved script ends with the line \"%s\", this one does not; nothing was changed\n",
		  strcmp(name, "-") ? name : "stdin", DDCTL_SAVE_END);
	return EXIT_USAGE;
}

/* Whether @argc arguments are what @a allows; says so when not. */
int cli_check_arity(struct cli *cli, const struct cli_arity *a, int argc)
{
	if (argc >= a->min && (a->max < 0 || argc <= a->max))
		return EXIT_OK;
	cli_error(cli, "%s\n", a->error);
	return EXIT_USAGE;
}
