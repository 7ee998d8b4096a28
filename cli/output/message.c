// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Messages on stderr: errors, warnings, notes, and the library's log.
 *
 * Errors are reported once by this rule: the library's error-level log
 * messages, printed by cli_log() as they come, are the report of a failed
 * library call; the CLI prints its own line for a failed call only when the
 * library did not say why. cli_log() keeps the library's last error
 * message for that: a call site forgets it before the call
 * (cli_lib_error_forget()) and asks after a failure (cli_lib_error()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "output/json.h"
#include "output/message.h"
#include "output/pager.h"

int cli_errno_status(int r)
{
	return r == -EINVAL ? EXIT_USAGE : EXIT_REFUSED;
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

/* Where a query error is, for the JSON error line: 1-based, 0 unknown. */
void cli_error_query(unsigned int index, unsigned int column, const char *word)
{
	pending.query = (int)index;
	pending.column = (int)column;
	free(pending.word);
	pending.word = word ? strdup(word) : NULL;
}

static void int_or_null(struct json_writer *w, int v)
{
	if (v > 0)
		json_int(w, v);
	else
		json_null(w);
}

/*
 * The messages collected since the last call as one line on stderr:
 * {"error":{"status":N,"message":LAST,"messages":[...],"query":I,
 * "column":C,"word":W}} (the last three null unless a query was wrong).
 */
void cli_json_errors(int status)
{
	struct json_writer w;
	size_t i;

	if (!pending.n)
		return;
	json_init(&w, stderr);
	json_begin_object(&w);
	json_key(&w, "error");
	json_begin_object(&w);
	json_key(&w, "status");
	json_int(&w, status);
	json_key(&w, "message");
	json_string(&w, pending.msgs[pending.n - 1]);
	json_key(&w, "messages");
	json_begin_array(&w);
	for (i = 0; i < pending.n; i++) {
		json_string(&w, pending.msgs[i]);
		free(pending.msgs[i]);
	}
	json_end_array(&w);
	json_key(&w, "query");
	int_or_null(&w, pending.query);
	json_key(&w, "column");
	int_or_null(&w, pending.column);
	json_key(&w, "word");
	json_string(&w, pending.word);
	json_end_object(&w);
	json_end_object(&w);
	free(pending.msgs);
	free(pending.word);
	memset(&pending, 0, sizeof(pending));
}

/*
 * Is stderr the journal? systemd sets $JOURNAL_STREAM to the device and
 * inode of the stream it connects (systemd.exec(5)); a process that
 * inherited the variable but writes elsewhere does not match.
 */
static bool stderr_is_journal(void)
{
	static int known = -1;
	unsigned long long dev, ino;
	const char *e;
	struct stat st;

	if (known >= 0)
		return known;
	e = getenv("JOURNAL_STREAM");
	known = e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 && fstat(STDERR_FILENO, &st) == 0 &&
		(unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
	return known;
}

/*
 * "ddctl: [line N: ]message" on stderr. To the journal each line starts
 * with its syslog priority, "<3>" for an error (sd-daemon(3)), so that
 * journalctl -p err shows the errors and only them.
 */
static void emit(const struct cli *cli, int priority, const char *format, va_list args)
{
	char *msg = NULL, *p, *nl;

	if (!stderr_is_journal()) {
		fprintf(stderr, "ddctl: ");
		if (cli->line)
			fprintf(stderr, "line %u: ", cli->line);
		vfprintf(stderr, format, args);
		return;
	}
	if (vasprintf(&msg, format, args) < 0)
		return;
	fprintf(stderr, "<%d>ddctl: ", priority);
	if (cli->line)
		fprintf(stderr, "line %u: ", cli->line);
	for (p = msg; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "%s\n", p);
			break;
		}
		fprintf(stderr, "%.*s\n", (int)(nl - p), p);
		if (nl[1])
			fprintf(stderr, "<%d>", priority);
	}
	free(msg);
}

/* A warning: "ddctl: warning: ..." on stderr; with --json one {"warning":MESSAGE} line, at once. */
void cli_vwarn(const struct cli *cli, const char *format, va_list args)
{
	struct json_writer w;
	char *msg = NULL;

	if (!cli->json || cli->in_shell) {
		emit(cli, LOG_WARNING, format, args);
		return;
	}
	if (vasprintf(&msg, format, args) < 0)
		return;
	msg[strcspn(msg, "\n")] = '\0';
	json_init(&w, stderr);
	json_begin_object(&w);
	json_key(&w, "warning");
	json_string(&w, msg + (strncmp(msg, "warning: ", 9) ? 0 : 9));
	json_end_object(&w);
	free(msg);
}

void cli_warn(const struct cli *cli, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	cli_vwarn(cli, format, args);
	va_end(args);
}

/* "ddctl: [line N: ]message": the shell names the script line. */
void cli_verror(const struct cli *cli, const char *format, va_list args)
{
	if (cli->json && !cli->in_shell) {
		collect(format, args);
		return;
	}
	emit(cli, LOG_ERR, format, args);
}

void cli_error(const struct cli *cli, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	cli_verror(cli, format, args);
	va_end(args);
}

/* A remark on stderr, not an error: quiet and --json leave it out. */
void cli_note(const struct cli *cli, const char *format, ...)
{
	va_list args;

	if (cli->quiet || cli->json)
		return;
	va_start(args, format);
	emit(&(struct cli){ 0 }, LOG_NOTICE, format, args);
	va_end(args);
}


/*
 * Colour on @fd: --color=always or never; auto: a terminal, unless
 * NO_COLOR is set to a non-empty value (no-color.org).
 */
bool cli_color(const struct cli *cli, int fd)
{
	const char *no = getenv("NO_COLOR");

	if (cli->color)
		return cli->color == 1;
	return isatty(fd) && !(no && *no);
}

/* The library's last error-level message since cli_lib_error_forget(). */
static char lib_error[256];

void cli_lib_error_forget(void)
{
	lib_error[0] = '\0';
}

const char *cli_lib_error(void)
{
	return lib_error[0] ? lib_error : NULL;
}

/* The library's log hook (@data: the struct cli). */
void cli_log(void *data, int priority, const char *file, int line,
	     const char *fn, const char *format, va_list args)
{
	const struct cli *cli = data;
	va_list copy;

	if (priority <= LOG_ERR) {
		va_copy(copy, args);
		if (vsnprintf(lib_error, sizeof(lib_error), format, copy) <= 0)
			snprintf(lib_error, sizeof(lib_error), "error");
		va_end(copy);
	}
	if (priority == LOG_WARNING)
		cli_vwarn(cli, format, args);
	else if (priority <= LOG_ERR || cli->json)
		cli_verror(cli, format, args);
	else
		emit(cli, priority, format, args);
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
