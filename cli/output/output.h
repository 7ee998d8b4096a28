/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * Output: how ddctl prints. The JSON writer, escaping, messages on stderr,
 * aligned tables, the pager and the progress line. Nothing here decides
 * what to print; it only knows the shared context (cli.h).
 */
#ifndef DDCTL_CLI_OUTPUT_H
#define DDCTL_CLI_OUTPUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* escape.c: text that is safe on a terminal */
size_t utf8_len(const unsigned char *p);
void print_escaped_format(FILE *f, const char *fmt);
char *cli_escape(const char *s, bool quote);

/*
 * json.c: the one JSON writer. Compact, members in the order written; a
 * top-level value ends with a newline. Arrays begun with
 * json_begin_array_lines() put each element on a line of its own.
 */
#define JSON_MAX_DEPTH 8

struct json_writer {
	FILE *f;
	unsigned int depth;
	bool after_key;
	bool first[JSON_MAX_DEPTH], lines[JSON_MAX_DEPTH];
};

void json_init(struct json_writer *w, FILE *f);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_begin_array_lines(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s); /* NULL: null */
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);
void json_site(struct json_writer *w, const struct ddctl_site *site);

/* suggest.c: did-you-mean */
const char *cli_suggest(const char *word, const char *const *candidates);

/* message.c: errors, warnings and notes on stderr (JSON with --json) */
#define CLI_NO_CONTROL "no dynamic debug control file: the kernel lacks CONFIG_DYNAMIC_DEBUG, or debugfs is not mounted"

void cli_verror(const struct cli *cli, const char *format, va_list args);
void cli_vwarn(const struct cli *cli, const char *format, va_list args);
void cli_error(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void cli_note(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void cli_error_query(unsigned int index, unsigned int column, const char *word);
void cli_json_errors(int status);
int cli_errno_status(int r);
int cli_check_stdout(struct cli *cli, int st);
void cli_log(void *data, int priority, const char *file, int line,
	     const char *fn, const char *format, va_list args);
void cli_lib_error_forget(void);
const char *cli_lib_error(void);

/* table.c: aligned columns, cut to a terminal's width */
struct cli_column {
	const char *name;   /* the header, on a terminal */
	unsigned int cap;   /* the widest the column gets (0: no limit) */
	bool left_cut;      /* cut at the left (paths keep their end) */
	bool right;         /* right-aligned (numbers) */
};

struct cli_table {
	const struct cli_column *cols;
	size_t ncols, nrows, alloc;
	char **cells; /* nrows * ncols, owned */
};

int cli_table_add(struct cli_table *t, char **cells);
void cli_table_print(const struct cli_table *t, FILE *f, unsigned int width);
void cli_table_free(struct cli_table *t);

/* pager.c */
unsigned int cli_output_width(void);
void cli_pager_start(struct cli *cli);
void cli_pager_end(void);
bool cli_pager_running(void);

/* progress.c */
void cli_progress_attach(struct cli *cli, struct ddctl_txn *txn);

#endif
