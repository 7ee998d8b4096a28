/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
#ifndef DDCTL_CLI_H
#define DDCTL_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include <ddctl/ddctl.h>

/* Exit statuses, documented in ddctl(8). */
enum {
	EXIT_HELP = -1, /* internal: help was printed, run nothing */
	EXIT_OK = 0,
	EXIT_REFUSED = 1, /* the kernel or the system refused */
	EXIT_USAGE = 2,   /* usage or query error */
};

struct cli {
	struct ddctl_ctx *ctx;
	bool json, check, verbose, enabled, expand;
	bool persistent; /* list --persistent */
	const char *file; /* -f */
	bool keep_going;  /* shell: go on after an error in a script */
	unsigned int line; /* shell: the script line being run, for messages */
	struct ddctl_table *table; /* shell: the current state; NULL: read it */
	bool in_shell;     /* messages and help for the shell */
	bool no_pager, quiet;
	const char *output, *sort, *flags; /* list: columns, sort keys, flag filter */
	const char *json_head; /* set --json: members before "queries" */
	unsigned int lib_errors; /* errors libddctl has printed */
	/* follow, run, sessions, save --boot */
	bool raw, all, since_boot, stats, top, restore, boot;
	const char *kmsg; /* --kmsg: a stand-in for /dev/kmsg */
};

struct cli_cmd {
	const char *name;
	int (*run)(struct cli *cli, int argc, char **argv);
	const char *args;
	const char *help;
};

int cmd_list(struct cli *cli, int argc, char **argv);
int cmd_set(struct cli *cli, int argc, char **argv);
int cmd_modules(struct cli *cli, int argc, char **argv);
int cmd_info(struct cli *cli, int argc, char **argv);
int cmd_monitor(struct cli *cli, int argc, char **argv);
int cmd_shell(struct cli *cli, int argc, char **argv);
int cmd_complete(struct cli *cli, int argc, char **argv);

/* ddctl.c: the command table, for the shell. */
const struct cli_cmd *cli_get_command(size_t idx);
int cli_run_command(struct cli *cli, int argc, char **argv);
int cli_parse_command_options(struct cli *cli, int argc, char **argv,
			      int *consumed);
bool cli_is_option_word(const char *word);
void cli_command_usage(FILE *f, const struct cli_cmd *cmd, bool shell);
void cli_print_options(FILE *f, bool shell, const char *cmd);
const char *const *cli_command_names(void);
int cmd_save(struct cli *cli, int argc, char **argv);
int cmd_restore(struct cli *cli, int argc, char **argv);
int cmd_apply_config(struct cli *cli, int argc, char **argv);
int cmd_persist(struct cli *cli, int argc, char **argv);
int cmd_watch(struct cli *cli, int argc, char **argv);

/* Scoped debugging: cmd-follow.c, cmd-run.c, cmd-sessions.c, cmd-reset.c, cmd-diff.c */
int cmd_follow(struct cli *cli, int argc, char **argv);
int cmd_run(struct cli *cli, int argc, char **argv);
int cmd_sessions(struct cli *cli, int argc, char **argv);
int cmd_reset(struct cli *cli, int argc, char **argv);
int cmd_diff(struct cli *cli, int argc, char **argv);
int cli_follow(struct cli *cli, const char *name, int argc, char **argv,
	       char **command);
int cli_session_restore(struct cli *cli, struct ddctl_session *s);
void cli_check_sessions(struct cli *cli);
int cli_save_boot(struct cli *cli);
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script);

#define CLI_NO_CONTROL "no dynamic debug control file: the kernel lacks CONFIG_DYNAMIC_DEBUG, or debugfs is not mounted"

/* Helpers shared by the commands. */
void cli_verror(const struct cli *cli, const char *format, va_list args);
void cli_vwarn(const struct cli *cli, const char *format, va_list args);
void cli_error(const struct cli *cli, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void cli_json_errors(int status);
const char *cli_backend_name(struct cli *cli);
int cli_errno_status(int r);
const char *cli_suggest(const char *word, const char *const *candidates);
int cli_read_table(struct cli *cli, struct ddctl_table **table);
int cli_parse_queries(struct cli *cli, const char *text, unsigned int flags,
		      struct ddctl_queryset **set);
char *cli_join_args(int argc, char **argv);
char *cli_read_file(const char *path);
char *cli_read_text(const char *path, size_t *len);
int cli_parse_file(struct cli *cli, const char *path, struct ddctl_queryset **set,
		   char **text);
int cli_check_stdout(struct cli *cli, int st);
int cli_nothing_to_change(struct cli *cli);
int cli_commit_set(struct cli *cli, struct ddctl_queryset *set,
		   struct ddctl_table *table);
int cli_load_config(struct cli *cli, struct ddctl_queryset **set);
int cli_list_persistent(struct cli *cli);

/* table-output.c: aligned columns, cut to a terminal's width. */
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

/* progress.c */
void cli_progress_attach(struct cli *cli, struct ddctl_txn *txn);

/* pager.c */
unsigned int cli_output_width(void);
void cli_pager_start(struct cli *cli);
void cli_pager_end(void);
bool cli_pager_running(void);

/* json.c */
size_t utf8_len(const unsigned char *p);
char *cli_escape(const char *s, bool quote);
void json_string(FILE *f, const char *s);
void json_site_fields(FILE *f, const struct ddctl_site *site);
void print_escaped_format(FILE *f, const char *fmt);

#endif
