// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl shell: the CLI's commands, bare queries, begin ... commit sets and
 * undo, read from a terminal (tty.c) or from a script on stdin. The
 * CLI's commands run through the dispatcher's entry points (struct
 * shell_host), as in argv mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/commit.h"
#include "ops/input.h"
#include "ops/state.h"
#include "output/message.h"
#include "output/suggest.h"
#include "shell/shell.h"

#define SHELL_MAX_ARGS 64

struct shell_cmd {
	const char *name;
	int (*run)(struct shell *sh, int argc, char **argv);
	bool query; /* the words after the options are query text, kept whole */
	const char *args, *help;
	struct cli_arity arity;
};

static const struct shell_cmd *shell_find(const char *name);

/* The state commands work on: re-read from a kernel, the model otherwise. */
static struct ddctl_table *shell_table(struct shell *sh)
{
	struct ddctl_table *t = NULL;

	if (sh->table && !(sh->kernel && sh->stale))
		return sh->table;
	sh->cli->table = NULL;
	if (cli_read_table(sh->cli, &t))
		return NULL;
	ddctl_table_unref(sh->table);
	sh->table = t;
	sh->stale = false;
	return t;
}

/* The last state read, for completion: no re-read on every Tab. */
struct ddctl_table *shell_current_table(struct shell *sh)
{
	return sh->table ? sh->table : shell_table(sh);
}

/* Keep @before and @after (taken over) of a committed set for undo. */
static void undo_push(struct shell *sh, struct ddctl_table *before,
		      struct ddctl_table *after)
{
	if (sh->nundo == SHELL_UNDO_MAX) {
		ddctl_table_unref(sh->undo[0]);
		ddctl_table_unref(sh->undo_after[0]);
		memmove(sh->undo, sh->undo + 1, (sh->nundo - 1) * sizeof(sh->undo[0]));
		memmove(sh->undo_after, sh->undo_after + 1,
			(sh->nundo - 1) * sizeof(sh->undo_after[0]));
		sh->nundo--;
	}
	sh->undo[sh->nundo] = before;
	sh->undo_after[sh->nundo++] = after;
}

static void undo_pop(struct shell *sh)
{
	sh->nundo--;
	ddctl_table_unref(sh->undo[sh->nundo]);
	ddctl_table_unref(sh->undo_after[sh->nundo]);
}

/*
 * Commit @set on the current state (cli_set_commit(), as `set` does) and
 * keep the shell's state: a kernel is read again before the next command;
 * a file that is not the kernel's keeps the state the plan predicts. With
 * @undoable the state before is kept for undo.
 */
static int shell_submit(struct shell *sh, struct ddctl_queryset *set,
			bool undoable)
{
	struct ddctl_table *before = shell_table(sh), *after = NULL;
	struct cli_commit how = { .table = before };
	struct ddctl_queryset *resolved = NULL;
	struct ddctl_plan *plan = NULL;
	int r, st;

	if (!before)
		return EXIT_REFUSED;
	ddctl_table_ref(before);
	st = cli_set_commit(sh->cli, set, &how);
	if (st || sh->cli->check) {
		ddctl_table_unref(before);
		return st;
	}
	sh->stale = true;
	/* the state the set leaves: the model's, and undo's (its sites only) */
	r = ddctl_queryset_resolve_aliases(set, before, &resolved);
	if (r == 0)
		r = ddctl_plan_new(resolved, before, &plan);
	ddctl_queryset_unref(resolved);
	if (r == 0)
		r = ddctl_table_new_from_plan(plan, &after);
	ddctl_plan_unref(plan);
	if (r < 0) {
		cli_error(sh->cli, "%s\n", strerror(-r));
		ddctl_table_unref(before);
		return EXIT_REFUSED;
	}
	if (!sh->kernel) {
		ddctl_table_unref(sh->table);
		sh->table = ddctl_table_ref(after);
	}
	if (undoable) {
		undo_push(sh, before, after);
	} else {
		ddctl_table_unref(before);
		ddctl_table_unref(after);
	}
	return st;
}

/* A bare query or `set`: applied at once, or queued inside begin ... commit. */
static int shell_apply_text(struct shell *sh, const char *text)
{
	struct ddctl_queryset *set = NULL;
	int r, st;

	st = cli_parse_queries(sh->cli, text, 0, &set);
	if (!st && ddctl_queryset_get_count(set) == 0) {
		cli_error(sh->cli, "no queries given\n");
		st = EXIT_USAGE;
	}
	if (!st && sh->pending && !sh->cli->check) {
		r = ddctl_queryset_parse(sh->pending, text, 0);
		if (r < 0) {
			cli_error(sh->cli, "%s\n", strerror(-r));
			st = EXIT_REFUSED;
		}
	} else if (!st) {
		st = shell_submit(sh, set, true);
	}
	ddctl_queryset_unref(set);
	return st;
}

static int sh_set(struct shell *sh, int argc, char **argv)
{
	return shell_apply_text(sh, argv[0]);
}

static int sh_check(struct shell *sh, int argc, char **argv)
{
	sh->cli->check = true;
	return sh_set(sh, argc, argv);
}

static int need_pending(struct shell *sh, const char *name)
{
	if (!sh->pending)
		cli_error(sh->cli, "%s: no set is open (begin starts one)\n", name);
	return sh->pending ? EXIT_OK : EXIT_USAGE;
}

static void drop_pending(struct shell *sh)
{
	sh->pending = ddctl_queryset_unref(sh->pending);
}

static int sh_begin(struct shell *sh, int argc, char **argv)
{
	int r;

	if (sh->pending) {
		cli_error(sh->cli, "begin: a set is already open (%zu pending); commit or abort it\n",
			  shell_pending_count(sh));
		return EXIT_USAGE;
	}
	r = ddctl_queryset_new(sh->cli->ctx, &sh->pending);
	return r < 0 ? EXIT_REFUSED : EXIT_OK;
}

static int sh_commit(struct shell *sh, int argc, char **argv)
{
	size_t n;
	int st;

	if (need_pending(sh, "commit"))
		return EXIT_USAGE;
	if (shell_pending_count(sh) == 0) {
		printf("nothing to commit\n");
		drop_pending(sh);
		return EXIT_OK;
	}
	n = shell_pending_count(sh);
	st = shell_submit(sh, sh->pending, true);
	if (st == EXIT_OK && !sh->cli->check && !sh->cli->quiet && !sh->cli->json)
		printf("committed %zu quer%s as one set\n", n, n == 1 ? "y" : "ies");
	if (st == EXIT_OK && !sh->cli->check)
		drop_pending(sh);
	else if (st)
		cli_error(sh->cli, "the set stays open: commit again or abort\n");
	return st;
}

static int sh_abort(struct shell *sh, int argc, char **argv)
{
	if (need_pending(sh, "abort"))
		return EXIT_USAGE;
	printf("dropped %zu quer%s\n", shell_pending_count(sh),
	       shell_pending_count(sh) == 1 ? "y" : "ies");
	drop_pending(sh);
	return EXIT_OK;
}

/* The queued queries and what they would change, as `check` prints it. */
static int sh_pending(struct shell *sh, int argc, char **argv)
{
	if (need_pending(sh, "pending"))
		return EXIT_USAGE;
	if (shell_pending_count(sh) == 0) {
		printf("no queries pending\n");
		return EXIT_OK;
	}
	sh->cli->check = true;
	return shell_submit(sh, sh->pending, false);
}

/*
 * Revert the last committed set: its sites back to their flags before it
 * (the restore set from the state it left to the state before), so that
 * another writer's change to other sites since then stays.
 */
static int sh_undo(struct shell *sh, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *now;
	int r, st;

	if (sh->nundo == 0) {
		cli_error(sh->cli, "undo: no committed set to revert\n");
		return EXIT_USAGE;
	}
	now = shell_table(sh);
	if (!now)
		return EXIT_REFUSED;
	r = ddctl_queryset_new_restore(sh->cli->ctx, sh->undo_after[sh->nundo - 1],
				       sh->undo[sh->nundo - 1], &set);
	if (r < 0) {
		cli_error(sh->cli, "undo: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	if (ddctl_queryset_get_count(set) == 0) {
		printf("nothing to undo: the state is as before the last set\n");
		st = EXIT_OK;
	} else {
		st = shell_submit(sh, set, false);
	}
	if (st == EXIT_OK && !sh->cli->check)
		undo_pop(sh);
	ddctl_queryset_unref(set);
	return st;
}

static int sh_quit(struct shell *sh, int argc, char **argv)
{
	sh->quit = true;
	if (sh->pending && !sh->interactive) {
		cli_error(sh->cli, "quit with %zu queries pending: nothing of them was applied\n",
			  shell_pending_count(sh));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int sh_help(struct shell *sh, int argc, char **argv);

#define ANY { 0, -1, NULL }
#define NONE(name) { 0, 0, name " takes no arguments" }

/* "list" is the CLI's command; the shell lists it among its own. */
static const struct shell_cmd shell_cmds[] = {
	{ "set", sh_set, true, "QUERY", "apply the queries as one set (inside begin: queue them)",
	  { 1, -1, "set needs at least one query" } },
	{ "check", sh_check, true, "QUERY", "print what the queries would change; write nothing",
	  { 1, -1, "check needs at least one query" } },
	{ "list", NULL, true, "[QUERY]", "list callsites, or those QUERY's match-specs select", ANY },
	{ "begin", sh_begin, false, "", "open a set: queries are queued until commit", NONE("begin") },
	{ "commit", sh_commit, false, "", "apply the queued queries as one set, in one transaction",
	  NONE("commit") },
	{ "abort", sh_abort, false, "", "drop the queued queries", NONE("abort") },
	{ "pending", sh_pending, false, "", "the queued queries and what they would change",
	  NONE("pending") },
	{ "undo", sh_undo, false, "", "revert the last committed set exactly", NONE("undo") },
	{ "help", sh_help, false, "[COMMAND]", "this help, or a command's", ANY },
	{ "quit", sh_quit, false, "", "leave the shell (also exit, Ctrl-D)", NONE("quit") },
	{ "exit", sh_quit, false, "", NULL, NONE("quit") },
};

static const struct shell_cmd *shell_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(shell_cmds) / sizeof(shell_cmds[0]); i++)
		if (!strcmp(name, shell_cmds[i].name))
			return &shell_cmds[i];
	return NULL;
}

/* The dispatcher's command @name, when the shell runs it; else NULL. */
static const struct cli_command *cli_knows(const struct shell *sh, const char *name)
{
	const struct cli_command *c;
	size_t i;

	for (i = 0; i < sh->host->ncommands; i++) {
		c = &sh->host->commands[i];
		if (!strcmp(c->name, name) && strcmp(name, "shell") && name[0] != '_')
			return c;
	}
	return NULL;
}

static int sh_help(struct shell *sh, int argc, char **argv)
{
	const struct shell_cmd *sc = argc > 0 ? shell_find(argv[0]) : NULL;
	const struct cli_command *c;
	size_t i;

	if (argc > 0 && !sc && !cli_knows(sh, argv[0])) {
		cli_error(sh->cli, "help: unknown command '%s'%s\n", argv[0],
			  cli_suggest(argv[0], shell_command_names(sh)));
		return EXIT_USAGE;
	}
	for (i = 0; argc > 0 && i < sh->host->ncommands; i++) {
		c = &sh->host->commands[i];
		if (!strcmp(c->name, argv[0]) && (!sc || sc->query)) {
			sh->host->command_usage(stdout, c, true);
			return EXIT_OK;
		}
	}
	if (sc) {
		printf("Usage: %s %s\n%s.\n", sc->name, sc->args, sc->help);
		return EXIT_OK;
	}
	printf("Commands:\n");
	for (i = 0; i < sizeof(shell_cmds) / sizeof(shell_cmds[0]); i++)
		if (shell_cmds[i].help)
			printf("  %-12s %-8s %s\n", shell_cmds[i].name,
			       shell_cmds[i].args, shell_cmds[i].help);
	for (i = 0; i < sh->host->ncommands; i++) {
		c = &sh->host->commands[i];
		if (!shell_find(c->name) && cli_knows(sh, c->name))
			printf("  %-12s %-8s %s\n", c->name, c->args, c->help);
	}
	printf("\nOptions after a command apply to that line alone:\n");
	sh->host->print_options(stdout, true, NULL);
	printf("\nA line that starts with a match-spec (module virtio_net +p) is a\n"
	       "query applied at once, or queued inside begin ... commit. A line\n"
	       "ending in \\ continues on the next. Tab completes keywords, module,\n"
	       "file, function and class names and flags. help COMMAND for one.\n");
	return EXIT_OK;
}

/* The next word of @*pp with quotes removed, in place. */
static char *next_word(char **pp)
{
	char *p = *pp, *out = p, *word = p, quote = 0, end;

	for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
		if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (quote && *p == quote)
			quote = 0;
		else
			*out++ = *p;
	}
	end = *p;
	*out = '\0';
	*pp = end ? p + 1 : p;
	return word;
}

/* The length of the word at @p, quotes kept. */
static size_t word_len(const char *p)
{
	const char *s = p;
	char quote = 0;

	for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
		if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (quote && *p == quote)
			quote = 0;
	}
	return (size_t)(p - s);
}

/* Is the word at @p an option (as after a command on the command line)? */
static bool option_at(const struct shell *sh, const char *p, size_t len, bool *next)
{
	char word[128];

	*next = false;
	if (*p != '-' || len >= sizeof(word))
		return false;
	memcpy(word, p, len);
	word[len] = '\0';
	return sh->host->is_option_word(word, next);
}

/*
 * Split @p into words in place. With @query, what follows the command name
 * stays one argument, query text for the library's parser, except the
 * options in it (and their arguments), wherever they are, as on the
 * command line (`list module M --flags p`): those are copied to @store.
 */
static int split_line(const struct shell *sh, char *p, bool query, char **argv,
		      int max, char *store, size_t size)
{
	int argc = 0;
	size_t len, used = 0;
	char *out, *text;
	bool next;

	while (argc < max - 1) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		if (query && argc > 0)
			break;
		argv[argc++] = next_word(&p);
	}
	if (!query || !*p) {
		argv[argc] = NULL;
		return argc;
	}
	/* the query text, compacted in place, with the option words taken out */
	for (text = out = p; *p && argc < max - 2; ) {
		len = word_len(p);
		if (option_at(sh, p, len, &next) && used + len + 1 < size) {
			char *w = store + used, *end;

			memcpy(w, p, len);
			w[len] = '\0';
			used += len + 1;
			argv[argc++] = w;
			p += len;
			p += strspn(p, " \t");
			if (next && *p) {
				len = word_len(p);
				if (used + len + 1 < size) {
					end = w = store + used;
					memcpy(w, p, len);
					w[len] = '\0';
					argv[argc++] = next_word(&end); /* quotes removed */
					used += len + 1;
				}
				p += len;
				p += strspn(p, " \t");
			}
			continue;
		}
		memmove(out, p, len);
		out += len;
		p += len;
		if (*p) {
			*out++ = ' ';
			p += strspn(p, " \t");
		}
	}
	while (out > text && (out[-1] == ' ' || out[-1] == '\t'))
		out--;
	*out = '\0';
	if (*text)
		argv[argc++] = text;
	argv[argc] = NULL;
	return argc;
}

/* Does a line starting with @word read as a query (a keyword, or flags)? */
static bool is_query_start(const char *word)
{
	static const char *const keywords[] = { "func", "file", "module", "format",
		"line", "class", NULL };
	size_t i;

	if (strchr("+-=!", *word))
		return true;
	for (i = 0; keywords[i]; i++)
		if (!strcmp(word, keywords[i]))
			return true;
	return false;
}

/* Does @text end in a flags word ("... +p"), as a query does? */
static bool ends_in_flags(const char *text)
{
	const char *end = text + strlen(text), *w;

	while (end > text && strchr(" \t;", end[-1]))
		end--;
	for (w = end; w > text && !strchr(" \t", w[-1]); w--)
		;
	return w < end && strchr("+-=", *w);
}

static int shell_dispatch(struct shell *sh, struct cli_opts *opts, char *text)
{
	char *argv[SHELL_MAX_ARGS], name[32], store[1024];
	const struct shell_cmd *cmd;
	size_t len = strcspn(text, " \t");
	int argc, n, st;

	snprintf(name, sizeof(name), "%.*s", (int)len, text);
	cmd = shell_find(name);
	if (!cmd && !cli_knows(sh, name) && !is_query_start(name) && !ends_in_flags(text) &&
	    *cli_suggest(name, shell_command_names(sh))) {
		/* as on the command line: a mistyped command, not a query */
		cli_error(sh->cli, "unknown command '%s'%s (see help)\n", name,
			  cli_suggest(name, shell_command_names(sh)));
		return EXIT_USAGE;
	}
	if (!cmd && !cli_knows(sh, name))
		return shell_apply_text(sh, text);
	argc = split_line(sh, text, cmd && cmd->query, argv, SHELL_MAX_ARGS, store,
			  sizeof(store));
	if (!cmd || !cmd->run)
		return sh->host->run(sh->cli, opts, argc, argv);
	st = sh->host->parse_options(sh->cli, opts, argc, argv, &n);
	if (st == EXIT_HELP)
		return EXIT_OK;
	if (st)
		return st;
	/* `set --check` with no query says "check", as the check command does */
	if (cmd->run == sh_set && sh->cli->check)
		cmd = shell_find("check");
	st = cli_check_arity(sh->cli, &cmd->arity, argc - n);
	return st ? st : cmd->run(sh, argc - n, argv + n);
}

/* Run one logical line; options given to a command last for it alone. */
int shell_run_line(struct shell *sh, const char *line)
{
	struct cli saved = *sh->cli;
	struct cli_opts opts = sh->opts;
	char *text;
	int st;

	opts.given = 0; /* the options of the shell's own command line are not this line's */
	line += strspn(line, " \t");
	if (!*line || *line == '#')
		return EXIT_OK;
	text = strdup(line);
	if (!text)
		return EXIT_REFUSED;
	sh->cli->line = sh->interactive ? 0 : sh->first_line;
	if (sh->kernel)
		sh->stale = true;
	sh->cli->table = sh->kernel ? NULL : sh->table;
	st = shell_dispatch(sh, &opts, text);
	*sh->cli = saved;
	free(text);
	fflush(stdout);
	return st;
}

/*
 * Take one physical line. *@complete is the logical line once it is whole
 * (a line ending in '\' continues on the next, joined with a space), NULL
 * while it continues.
 */
int shell_feed(struct shell *sh, const char *line, const char **complete)
{
	size_t len = strlen(line);
	char *joined;
	bool more;

	*complete = NULL;
	sh->lineno++;
	if (!sh->cont)
		sh->first_line = sh->lineno;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	more = len && line[len - 1] == '\\';
	if (asprintf(&joined, "%s%s%.*s", sh->cont ? sh->cont : "",
		     sh->cont ? " " : "", (int)(len - more), line) < 0)
		return -ENOMEM;
	free(sh->cont);
	sh->cont = NULL;
	if (more) {
		sh->cont = joined;
		return 0;
	}
	free(sh->complete);
	sh->complete = joined;
	*complete = joined;
	return 0;
}

size_t shell_pending_count(const struct shell *sh)
{
	return sh->pending ? ddctl_queryset_get_count(sh->pending) : 0;
}

void shell_prompt(struct shell *sh, char *buf, size_t size)
{
	if (sh->cont)
		snprintf(buf, size, "> ");
	else if (sh->pending)
		snprintf(buf, size, "ddctl[%s] %zu pending> ",
			 cli_backend_name(sh->cli), shell_pending_count(sh));
	else
		snprintf(buf, size, "ddctl[%s]> ", cli_backend_name(sh->cli));
}

const char *const *shell_command_names(const struct shell *sh)
{
	static const char *names[sizeof(shell_cmds) / sizeof(shell_cmds[0]) + 32];
	const struct cli_command *c;
	size_t i, n = 0;

	if (names[0])
		return names;
	for (i = 0; i < sizeof(shell_cmds) / sizeof(shell_cmds[0]); i++)
		names[n++] = shell_cmds[i].name;
	for (i = 0; i < sh->host->ncommands && n + 1 < sizeof(names) / sizeof(names[0]); i++) {
		c = &sh->host->commands[i];
		if (!shell_find(c->name) && cli_knows(sh, c->name))
			names[n++] = c->name;
	}
	return names;
}

const char *const *shell_query_commands(void)
{
	static const char *names[sizeof(shell_cmds) / sizeof(shell_cmds[0]) + 1];
	size_t i, n = 0;

	if (names[0])
		return names;
	for (i = 0; i < sizeof(shell_cmds) / sizeof(shell_cmds[0]); i++)
		if (shell_cmds[i].query)
			names[n++] = shell_cmds[i].name;
	return names;
}

void shell_init(struct shell *sh, struct cli *cli, const struct cli_opts *opts,
		const struct shell_host *host, bool interactive)
{
	unsigned int features = 0;

	memset(sh, 0, sizeof(*sh));
	sh->cli = cli;
	sh->opts = *opts;
	sh->host = host;
	cli->in_shell = true;
	sh->interactive = interactive;
	sh->stale = true;
	if (ddctl_get_features(cli->ctx, &features) == 0)
		sh->kernel = features & DDCTL_FEATURE_CONTROL;
}

void shell_release(struct shell *sh)
{
	while (sh->nundo)
		undo_pop(sh);
	drop_pending(sh);
	ddctl_table_unref(sh->table);
	free(sh->cont);
	free(sh->complete);
	sh->cli->table = NULL;
}
