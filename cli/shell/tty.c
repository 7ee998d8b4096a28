// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The shell on a terminal: readline's callback interface, so that Ctrl-C
 * cancels the line being typed and not the shell; history in the XDG state
 * directory without duplicates, appended line by line, never through a
 * directory someone else could change; Tab completion from complete.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "output/message.h"
#include "shell/shell.h"

#define HISTORY_MAX 1000

static struct {
	struct shell *sh;
	struct completer *comp;
	char *history;
	int history_dir; /* the directory the history is in */
	bool confirm; /* asking whether to quit with queries pending */
	char prompt[160];
	char *const *cands;
	size_t ncands, next;
} tty;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	interrupted = 1;
}

/*
 * A directory of the history's path: @name in @at (not a symbolic link
 * unless @at is AT_FDCWD, i.e. $HOME or $XDG_STATE_HOME itself), made 0700
 * when missing and @create, and the euid's and writable by no one else:
 * its descriptor, or -errno (-EPERM: someone else's).
 */
static int open_own_dir(int at, const char *name, bool create)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    (at == AT_FDCWD ? 0 : O_NOFOLLOW);
	struct stat st;
	int fd;

	fd = openat(at, name, flags);
	/* EEXIST: another shell made it between our openat() and mkdirat() */
	if (fd < 0 && errno == ENOENT && create &&
	    (mkdirat(at, name, 0700) == 0 || errno == EEXIST))
		fd = openat(at, name, flags);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* @base, then each of @names in it, as open_own_dir(). */
static int open_own_path(const char *base, const char *const *names, bool create)
{
	int fd = open_own_dir(AT_FDCWD, base, create), next;

	for (; fd >= 0 && *names; names++) {
		next = open_own_dir(fd, *names, create);
		close(fd);
		fd = next;
	}
	return fd;
}

/*
 * $XDG_STATE_HOME/ddctl/history, ~/.local/state/ddctl/history, else
 * ~/.ddctl_history. HOME and XDG_STATE_HOME are the user's (`sudo -E`
 * keeps them): every directory from there on must be the euid's, is
 * reached through descriptors without following a symbolic link, and is
 * named as /proc/self/fd/N for readline, so that no one else can redirect
 * the history. None such: no history. Returns the path, or NULL.
 */
static char *history_path(const struct shell *sh)
{
	static const char *const xdg[] = { "ddctl", NULL };
	static const char *const home_state[] = { ".local", "state", "ddctl", NULL };
	static const char *const none[] = { NULL };
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	const char *file = "history";
	char *path = NULL;
	int fd = -ENOENT;

	if (state && state[0] == '/')
		fd = open_own_path(state, xdg, true);
	else if (home && home[0])
		fd = open_own_path(home, home_state, true);
	if (fd < 0 && home && home[0]) {
		fd = open_own_path(home, none, false);
		file = ".ddctl_history";
	}
	if (fd == -EPERM)
		cli_error(sh->cli, "a directory of the history under %s is another user's or writable by others: no history kept\n",
			  state && state[0] == '/' ? state : home);
	if (fd < 0)
		return NULL;
	tty.history_dir = fd;
	if (asprintf(&path, "/proc/self/fd/%d/%s", fd, file) < 0)
		return NULL;
	return path;
}

/* Add @line as the newest entry; an older identical entry goes. */
static void history_add_unique(const char *line)
{
	HIST_ENTRY *e;
	int i;

	for (i = history_length - 1; i >= 0; i--) {
		e = history_get(history_base + i);
		if (e && !strcmp(e->line, line))
			free_history_entry(remove_history(i));
	}
	add_history(line);
}

/*
 * The history file is ours only as a regular file: the path comes from
 * HOME/XDG_STATE_HOME, which `sudo -E` keeps, so a symlink there is never
 * followed (no history then), for reading or writing.
 */
static bool history_usable(const struct shell *sh, const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT;
	if (S_ISREG(st.st_mode))
		return true;
	/* @path names a descriptor: say what the user set */
	cli_error(sh->cli, "the history file (in $XDG_STATE_HOME or $HOME) is %s: no history kept\n",
		  S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
	return false;
}

/*
 * The newest line appended to the history file, so that shells running at
 * the same time keep each other's lines (the file is made 0600 if missing).
 */
static void history_append(void)
{
	int fd = open(tty.history, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
		      O_CLOEXEC, 0600);

	if (fd < 0)
		return;
	close(fd);
	append_history(1, tty.history);
}

/* The history file into readline's list, duplicates dropped (the last kept). */
static void history_read_unique(void)
{
	HIST_ENTRY **list;
	char **lines;
	int i, n;

	clear_history();
	if (read_history(tty.history))
		return;
	/* Files written by other tools and other shells hold duplicates. */
	list = history_list();
	n = history_length;
	lines = calloc((size_t)n + 1, sizeof(*lines));
	for (i = 0; lines && list && i < n; i++)
		lines[i] = strdup(list[i]->line);
	clear_history();
	for (i = 0; lines && i < n; i++) {
		if (lines[i])
			history_add_unique(lines[i]);
		free(lines[i]);
	}
	free(lines);
}

/* The history as the file readline reads, replaced all or nothing. */
static void history_save(const struct shell *sh)
{
	HIST_ENTRY **list = history_list();
	size_t len = 0, size = 1;
	char *text;
	int i;

	for (i = 0; list && i < history_length; i++)
		size += strlen(list[i]->line) + 1;
	text = malloc(size);
	for (i = 0; text && list && i < history_length; i++)
		len += (size_t)sprintf(text + len, "%s\n", list[i]->line);
	if (text)
		ddctl_file_write(sh->cli->ctx, tty.history, text, len, DDCTL_FILE_PRIVATE);
	free(text);
}

static void history_load(const struct shell *sh)
{
	stifle_history(HISTORY_MAX);
	tty.history_dir = -1;
	tty.history = history_path(sh);
	if (tty.history && !history_usable(sh, tty.history)) {
		free(tty.history);
		tty.history = NULL;
	}
	if (tty.history)
		history_read_unique();
}

/*
 * At the end: the file again (with the lines other shells appended
 * meanwhile), written back without duplicates.
 */
static void history_end(const struct shell *sh)
{
	if (tty.history && !access(tty.history, F_OK)) {
		history_read_unique();
		history_save(sh);
	}
	free(tty.history);
	tty.history = NULL;
	if (tty.history_dir >= 0)
		close(tty.history_dir);
	tty.history_dir = -1;
}

static char *complete_next(const char *text, int state)
{
	if (state == 0)
		tty.next = 0;
	return tty.next < tty.ncands ? strdup(tty.cands[tty.next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
	size_t from;

	rl_attempted_completion_over = 1;
	tty.ncands = completer_complete(tty.comp, rl_line_buffer, (size_t)rl_point,
					&from, &tty.cands);
	if (tty.ncands == 0)
		return NULL;
	/* A directory of a source path, or flags: more may follow. */
	if (tty.ncands == 1) {
		const char *c = tty.cands[0];
		size_t len = strlen(c);

		rl_completion_suppress_append = len && c[len - 1] == '/';
	}
	return rl_completion_matches(text, complete_next);
}

static void update_prompt(void)
{
	if (tty.confirm)
		snprintf(tty.prompt, sizeof(tty.prompt),
			 "%zu quer%s pending: quit and drop %s? [y/N] ",
			 shell_pending_count(tty.sh),
			 shell_pending_count(tty.sh) == 1 ? "y" : "ies",
			 shell_pending_count(tty.sh) == 1 ? "it" : "them");
	else
		shell_prompt(tty.sh, tty.prompt, sizeof(tty.prompt));
	rl_set_prompt(tty.prompt);
}

static void on_line(char *line)
{
	struct shell *sh = tty.sh;
	bool answer = tty.confirm;
	const char *whole;

	if (!line)
		putchar('\n');
	if (answer) {
		tty.confirm = false;
		sh->quit = !line || line[0] == 'y' || line[0] == 'Y';
	} else if (!line) {
		sh->quit = true;
	} else if (shell_feed(sh, line, &whole) == 0 && whole) {
		if (whole[strspn(whole, " \t")]) {
			history_add_unique(whole);
			if (tty.history)
				history_append();
		}
		shell_run_line(sh, whole);
		completer_set_table(tty.comp, sh->table);
	}
	free(line);
	if (sh->quit && !answer && shell_pending_count(sh)) {
		sh->quit = false;
		tty.confirm = true;
	}
	if (sh->quit) {
		rl_callback_handler_remove();
		return;
	}
	update_prompt();
}

/* Ctrl-C: drop the line being typed (and a continued one), keep the shell. */
static void cancel_line(void)
{
	interrupted = 0;
	free(tty.sh->cont);
	tty.sh->cont = NULL;
	tty.confirm = false;
	rl_free_line_state();
	rl_callback_sigcleanup();
	rl_replace_line("", 0);
	rl_crlf();
	update_prompt();
	rl_on_new_line();
	rl_redisplay();
}

int shell_tty_run(struct shell *sh)
{
	struct sigaction sa = { .sa_handler = on_sigint }, old;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	sigset_t sigint, unblocked;
	int r;

	tty.sh = sh;
	r = completer_new(sh->cli->ctx, shell_command_names(sh),
			  shell_query_commands(), &tty.comp);
	if (r < 0)
		return EXIT_REFUSED;
	completer_set_table(tty.comp, shell_current_table(sh));
	history_load(sh);
	rl_readline_name = "ddctl";
	rl_catch_signals = 0;
	rl_attempted_completion_function = complete;
	rl_completer_word_break_characters = " \t\n;";
	/* SIGINT arrives only while waiting for input: no line is half read. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	sigemptyset(&sigint);
	sigaddset(&sigint, SIGINT);
	sigprocmask(SIG_BLOCK, &sigint, &unblocked);
	sigdelset(&unblocked, SIGINT);
	shell_prompt(sh, tty.prompt, sizeof(tty.prompt));
	rl_callback_handler_install(tty.prompt, on_line);
	while (!sh->quit) {
		if (interrupted) {
			cancel_line();
			continue;
		}
		if (ppoll(&pfd, 1, NULL, &unblocked) < 0) {
			if (errno == EINTR)
				continue;
			rl_callback_handler_remove();
			break;
		}
		if (!interrupted)
			rl_callback_read_char();
	}
	sigprocmask(SIG_UNBLOCK, &sigint, NULL);
	sigaction(SIGINT, &old, NULL);
	completer_free(tty.comp);
	history_end(sh);
	return EXIT_OK;
}
