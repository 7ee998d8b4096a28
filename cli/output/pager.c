// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Output on a terminal: its width, and a pager for long output as systemctl
 * and git have ($DDCTL_PAGER, $PAGER, else less; --no-pager). With
 * privileges someone else handed over (sudo, pkexec, euid != uid) the pager
 * is less in its secure mode (LESSSECURE=1: no shell, editor or log file)
 * and $DDCTL_PAGER/$PAGER are ignored, unless DDCTL_PAGERSECURE=0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output/pager.h"

static pid_t pager_pid;
static int width = -1;

/* Columns of the terminal stdout goes to ($COLUMNS first); 0 when piped. */
unsigned int cli_output_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (width >= 0)
		return (unsigned int)width;
	width = 0;
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (env && atoi(env) > 0)
		width = atoi(env);
	else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		width = ws.ws_col;
	else
		width = 80;
	return (unsigned int)width;
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char buf[4096];

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, prog);
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

/*
 * Must the pager be a secure one? DDCTL_PAGERSECURE decides when set (0 or
 * 1); else when ddctl runs with privileges another user handed it.
 */
static bool pager_secure(void)
{
	const char *env = getenv("DDCTL_PAGERSECURE");

	if (env && (!strcmp(env, "0") || !strcmp(env, "1")))
		return env[0] == '1';
	return geteuid() != getuid() ||
	       (geteuid() == 0 && (getenv("SUDO_UID") || getenv("PKEXEC_UID")));
}

/* From here on stdout goes through the pager, when it is a terminal. */
void cli_pager_start(struct cli *cli)
{
	bool secure = pager_secure();
	const char *pager = secure ? NULL : getenv("DDCTL_PAGER");
	int fd[2];

	if (!pager_pid)
		width = -1; /* the shell: the terminal may have been resized */
	cli_output_width(); /* the terminal's, before stdout is a pipe */
	if (cli->no_pager || cli->in_shell || pager_pid || !isatty(STDOUT_FILENO))
		return;
	if (!pager && !secure)
		pager = getenv("PAGER");
	if (!pager)
		pager = in_path("less") ? "less" : "";
	if (!*pager || !strcmp(pager, "cat") || pipe(fd) < 0)
		return;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pager_pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", "FRSXMK", 0); /* quit if one screen, keep colours */
		if (secure) {
			setenv("LESSSECURE", "1", 1);
			execlp("less", "less", (char *)NULL);
			_exit(127);
		}
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], STDOUT_FILENO);
	close(fd[0]);
	close(fd[1]);
	signal(SIGPIPE, SIG_IGN); /* the user may quit the pager early */
}

bool cli_pager_running(void)
{
	return pager_pid != 0;
}

/* Wait for the pager to finish reading. */
void cli_pager_end(void)
{
	if (!pager_pid)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}
