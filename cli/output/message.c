// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* Helpers the commands share. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_errno_status(int r)
{
	return r == -EINVAL ? EXIT_USAGE : EXIT_REFUSED;
}

/* Edit distance with transpositions (optimal string alignment), capped. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[33][33];

	if (la > 32 || lb > 32)
		return 99;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

/* " (did you mean 'list'?)" for the closest of @candidates, or "". */
const char *cli_suggest(const char *word, const char *const *candidates)
{
	static char buf[80];
	size_t best = 3, d;
	const char *found = NULL;

	for (; *candidates; candidates++) {
		d = distance(word, *candidates);
		if (d < best && d < strlen(word)) {
			best = d;
			found = *candidates;
		}
	}
	if (!found)
		return "";
	snprintf(buf, sizeof(buf), " (did you mean '%s'?)", found);
	return buf;
}

/* With --json (not in the shell) messages wait for cli_json_errors(). */
static struct {
	char **msgs;
	size_t n;
	int query, column; /* of a query error, 0: none */
	char *word;
} pending;

static void collect(const char *format, va_list args)
{
	char *msg = NULL, **tmp;

	if (vasprintf(&msg, format, args) < 0)
		return;
	msg[strcspn(msg, "\n")] = '\0';
	tmp = realloc(pending.msgs, (pending.n + 1) * sizeof(*tmp));
	if (!tmp) {
		free(msg);
		return;
	}
	pending.msgs = tmp;
	pending.msgs[pending.n++] = msg;
}

static void json_int_or_null(FILE *f, int v)
{
	if (v > 0)
		fprintf(f, "%d", v);
	else
		fputs("null", f);
}

/*
 * The messages collected since the last call as one line on stderr:
 * {"error":{"status":N,"message":LAST,"messages":[...],"query":I,
 * "column":C,"word":W}} (the last three null unless a query was wrong).
 */
void cli_json_errors(int status)
{
	size_t i;

	if (!pending.n)
		return;
	fprintf(stderr, "{\"error\":{\"status\":%d,\"message\":", status);
	json_string(stderr, pending.msgs[pending.n - 1]);
	fputs(",\"messages\":[", stderr);
	for (i = 0; i < pending.n; i++) {
		fputs(i ? "," : "", stderr);
		json_string(stderr, pending.msgs[i]);
		free(pending.msgs[i]);
	}
	fputs("],\"query\":", stderr);
	json_int_or_null(stderr, pending.query);
	fputs(",\"column\":", stderr);
	json_int_or_null(stderr, pending.column);
	fputs(",\"word\":", stderr);
	if (pending.word)
		json_string(stderr, pending.word);
	else
		fputs("null", stderr);
	fputs("}}\n", stderr);
	free(pending.msgs);
	free(pending.word);
	memset(&pending, 0, sizeof(pending));
}

/* A warning: with --json one {"warning":MESSAGE} line, at once. */
void cli_vwarn(const struct cli *cli, const char *format, va_list args)
{
	char *msg = NULL;

	if (!cli->json || cli->in_shell) {
		cli_verror(cli, format, args);
		return;
	}
	if (vasprintf(&msg, format, args) < 0)
		return;
	msg[strcspn(msg, "\n")] = '\0';
	fputs("{\"warning\":", stderr);
	json_string(stderr, msg + (strncmp(msg, "warning: ", 9) ? 0 : 9));
	fputs("}\n", stderr);
	free(msg);
}

/* "ddctl: [line N: ]message": the shell names the script line. */
void cli_verror(const struct cli *cli, const char *format, va_list args)
{
	if (cli->json && !cli->in_shell) {
		collect(format, args);
		return;
	}
	fprintf(stderr, "ddctl: ");
	if (cli->line)
		fprintf(stderr, "line %u: ", cli->line);
	vfprintf(stderr, format, args);
}

void cli_error(const struct cli *cli, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	cli_verror(cli, format, args);
	va_end(args);
}

/* How sets reach the kernel. */
const char *cli_backend_name(struct cli *cli)
{
	const char *path;

	if (ddctl_get_control_path(cli->ctx, &path) < 0)
		return "none";
	return ddctl_get_backend(cli->ctx) == DDCTL_BACKEND_NETLINK ? "netlink" : "control-file";
}

int cli_read_table(struct cli *cli, struct ddctl_table **table)
{
	unsigned int errors;
	const char *path;
	int r;

	if (cli->table) {
		*table = ddctl_table_ref(cli->table);
		return EXIT_OK;
	}
	r = ddctl_get_control_path(cli->ctx, &path);
	if (r == -ENOENT) {
		cli_error(cli, "%s\n", CLI_NO_CONTROL);
		return EXIT_REFUSED;
	}
	errors = cli->lib_errors;
	if (r == 0)
		r = ddctl_table_read(cli->ctx, table);
	if (r < 0 && cli->lib_errors == errors) /* once: libddctl may have said it */
		cli_error(cli, "cannot read %s: %s\n", path, strerror(-r));
	return r < 0 ? EXIT_REFUSED : EXIT_OK;
}

/* The outcome of parsing into @set: the error, if any, once. */
static int parse_status(struct cli *cli, struct ddctl_queryset *set, int r)
{
	const char *word;

	if (r == -EINVAL) {
		static const char *const keywords[] = { "func", "file", "module",
			"format", "line", "class", NULL };
		unsigned int index, column;
		const char *msg = ddctl_queryset_get_error(set, &index, &column, &word);

		pending.query = (int)index;
		pending.column = (int)column;
		free(pending.word);
		pending.word = strdup(word);

		cli_error(cli, "%s%s\n", msg, strstr(msg, "unknown keyword") ?
			  cli_suggest(word + (*word == '!'), keywords) : "");
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
	return parse_status(cli, *set, r);
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
	if (!buf) {
		cli_error(cli, "cannot read %s: %s; nothing was changed\n", name,
			strerror(errno));
		return EXIT_REFUSED;
	}
	r = ddctl_queryset_new(cli->ctx, set);
	if (r == 0)
		r = ddctl_queryset_parse_buffer(*set, name, buf, len, 0);
	if (text)
		*text = buf;
	else
		free(buf);
	return parse_status(cli, *set, r);
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
 * Arguments are words of one query (`ddctl set module foo +p`), an argument
 * with blanks one quoted word (`ddctl set format 'rx error' +p`), unless the
 * first holds blanks or one ends in flags, a whole query (`ddctl set
 * 'module a +p' 'module b +p'`): then each is a query of its own.
 */
char *cli_join_args(int argc, char **argv)
{
	bool words = true;
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = 0; i < argc; i++) {
		len += strlen(argv[i]) + 3;
		if (is_query_arg(argv[i]) || (i == 0 && strpbrk(argv[i], " \t")))
			words = false;
	}
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (i = 0, p = s; i < argc; i++) {
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
	return s;
}

/*
 * The whole of @path ('-': stdin) and its length, NUL-terminated; NULL with
 * errno set when it cannot be opened or read (a directory: EISDIR).
 */
char *cli_read_text(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	size_t alloc = 4096, n;
	char *buf, *tmp;
	int e = 0;

	*len = 0;
	if (!f)
		return NULL;
	buf = malloc(alloc);
	while (buf && (n = fread(buf + *len, 1, alloc - *len - 1, f)) > 0) {
		*len += n;
		if (alloc - *len < 2) {
			alloc *= 2;
			tmp = realloc(buf, alloc);
			if (!tmp)
				free(buf);
			buf = tmp;
		}
	}
	if (!buf)
		e = ENOMEM;
	else if (ferror(f))
		e = errno ? errno : EIO;
	if (f != stdin)
		fclose(f);
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}

char *cli_read_file(const char *path)
{
	size_t len;

	return cli_read_text(path, &len);
}

/* Standard output, checked: a full disk or closed pipe is an error. */
int cli_check_stdout(struct cli *cli, int st)
{
	if (cli_pager_running())
		return st;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return st;
	cli_error(cli, "cannot write standard output: %s\n",
		errno ? strerror(errno) : "I/O error");
	return st ? st : EXIT_REFUSED;
}
