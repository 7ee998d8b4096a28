// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl sessions: the records of follow and run sessions under
 * /run/ddctl/sessions; --restore undoes those whose process is gone
 * (killed, crashed). Every other command warns about such records.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cli.h"

struct walk {
	struct cli *cli;
	unsigned int listed, ended, restored, failed;
};

static void print_session(struct walk *w, struct ddctl_session *s, bool running)
{
	time_t t = (time_t)ddctl_session_get_start(s);
	char when[32] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (w->cli->json) {
		printf("%s{\"pid\":%ld,\"start\":%lld,\"running\":%s,\"command\":",
		       w->listed ? "," : "", ddctl_session_get_pid(s),
		       ddctl_session_get_start(s), running ? "true" : "false");
		json_string(stdout, ddctl_session_get_command(s));
		printf(",\"record\":");
		json_string(stdout, ddctl_session_get_path(s));
		printf(",\"restore\":");
		json_string(stdout, ddctl_session_get_restore_script(s));
		printf("}");
	} else {
		if (!w->listed)
			printf("%-8s %-19s %-7s %s\n", "PID", "STARTED", "STATE", "COMMAND");
		printf("%-8ld %-19s %-7s %s\n", ddctl_session_get_pid(s), when,
		       running ? "running" : "ended", ddctl_session_get_command(s));
	}
	w->listed++;
}

static int on_session(struct ddctl_session *s, void *data)
{
	struct walk *w = data;
	bool running = ddctl_session_is_running(s);

	if (!w->cli->restore) {
		print_session(w, s, running);
		return 0;
	}
	if (running)
		return 0;
	w->ended++;
	if (w->cli->check) {
		printf("session of pid %ld (%s) would be restored:\n%s",
		       ddctl_session_get_pid(s), ddctl_session_get_command(s),
		       ddctl_session_get_restore_script(s));
		return 0;
	}
	if (cli_session_restore(w->cli, s) == EXIT_OK) {
		w->restored++;
		if (!w->cli->json && !w->cli->quiet)
			printf("restored the session of pid %ld (%s)\n",
			       ddctl_session_get_pid(s), ddctl_session_get_command(s));
	} else {
		w->failed++;
	}
	return 0;
}

int cmd_sessions(struct cli *cli, int argc, char **argv)
{
	struct walk w = { .cli = cli };
	int r;

	if (argc > 0) {
		cli_error(cli, "sessions takes no arguments (--restore undoes ended sessions)\n");
		return EXIT_USAGE;
	}
	if (cli->json && !cli->restore)
		printf("[");
	r = ddctl_session_foreach(cli->ctx, on_session, &w);
	if (cli->json && !cli->restore)
		printf("]\n");
	else if (cli->json)
		printf("{\"ended\":%u,\"restored\":%u,\"failed\":%u}\n", w.ended,
		       w.restored, w.failed);
	else if (cli->restore && !w.ended && !cli->quiet)
		printf("no ended session to restore\n");
	if (r < 0) {
		cli_error(cli, "cannot read the session records: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	return w.failed ? EXIT_REFUSED : EXIT_OK;
}

static int warn_ended(struct ddctl_session *s, void *data)
{
	if (!ddctl_session_is_running(s))
		fprintf(stderr, "ddctl: the session of pid %ld (%s) ended without restoring its callsites: run 'ddctl sessions --restore'\n",
			  ddctl_session_get_pid(s), ddctl_session_get_command(s));
	return 0;
}

/* Any command: say so when a session was killed before it could restore. */
void cli_check_sessions(struct cli *cli)
{
	ddctl_session_foreach(cli->ctx, warn_ended, NULL);
}
