// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl sessions: the records of follow, run and set --for sessions under
 * /run/ddctl/sessions, with the time a timed one has left; --restore
 * undoes those whose process is gone (killed, crashed). Every other
 * command warns about such records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands/commands.h"
#include "ops/follow.h"
#include "output/json.h"
#include "output/message.h"
#include "output/table.h"

static const struct cli_column columns[] = {
	{ "PID", 0, false, false },
	{ "STARTED", 0, false, false },
	{ "STATE", 0, false, false },
	{ "LEFT", 0, false, false },
	{ "COMMAND", 0, false, false },
};

struct walk {
	struct cli *cli;
	bool restore;
	struct json_writer w;
	struct cli_table t;
	unsigned int listed, ended, restored, failed;
};

/* A timed session's time left: "1h02m", "4m05s", "12s"; "-" untimed, "0s" when due. */
static char *time_left(const struct ddctl_session *s)
{
	long long until = ddctl_session_get_until(s), left = until - (long long)time(NULL);
	char *text = NULL;
	int r;

	if (!until)
		return strdup("-");
	left = left < 0 ? 0 : left;
	if (left >= 3600)
		r = asprintf(&text, "%lldh%02lldm", left / 3600, left / 60 % 60);
	else if (left >= 60)
		r = asprintf(&text, "%lldm%02llds", left / 60, left % 60);
	else
		r = asprintf(&text, "%llds", left);
	return r < 0 ? NULL : text;
}

static void print_session(struct walk *w, struct ddctl_session *s, bool running)
{
	time_t t = (time_t)ddctl_session_get_start(s);
	char when[32] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (w->cli->json) {
		json_begin_object(&w->w);
		json_key(&w->w, "pid");
		json_int(&w->w, ddctl_session_get_pid(s));
		json_key(&w->w, "start");
		json_int(&w->w, ddctl_session_get_start(s));
		json_key(&w->w, "running");
		json_bool(&w->w, running);
		json_key(&w->w, "until");
		if (ddctl_session_get_until(s))
			json_int(&w->w, ddctl_session_get_until(s));
		else
			json_null(&w->w);
		json_key(&w->w, "command");
		json_string(&w->w, ddctl_session_get_command(s));
		json_key(&w->w, "record");
		json_string(&w->w, ddctl_session_get_path(s));
		json_key(&w->w, "restore");
		json_string(&w->w, ddctl_session_get_restore_script(s));
		json_end_object(&w->w);
	} else {
		char *cells[5];

		if (asprintf(&cells[0], "%ld", ddctl_session_get_pid(s)) < 0)
			cells[0] = NULL;
		cells[1] = strdup(when);
		cells[2] = strdup(running ? "running" : "ended");
		cells[3] = time_left(s);
		cells[4] = strdup(ddctl_session_get_command(s));
		if (!cells[0] || !cells[1] || !cells[2] || !cells[3] || !cells[4] ||
		    cli_table_add(&w->t, cells) < 0)
			for (size_t i = 0; i < 5; i++)
				free(cells[i]);
	}
	w->listed++;
}

static int on_session(struct ddctl_session *s, void *data)
{
	struct walk *w = data;
	bool running = ddctl_session_is_running(s);

	if (!w->restore) {
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

static void print_restored(struct walk *w)
{
	json_begin_object(&w->w);
	json_key(&w->w, "ended");
	json_uint(&w->w, w->ended);
	json_key(&w->w, "restored");
	json_uint(&w->w, w->restored);
	json_key(&w->w, "failed");
	json_uint(&w->w, w->failed);
	json_end_object(&w->w);
}

int cmd_sessions(struct cli *cli, const struct cli_opts *opts, int argc,
	         char **argv)
{
	struct walk w = { .cli = cli, .restore = opts->restore,
			  .t = { columns, 5, 0, 0, NULL } };
	int r;

	json_init(&w.w, stdout);
	if (cli->json && !w.restore)
		json_begin_array(&w.w);
	r = ddctl_session_foreach(cli->ctx, on_session, &w);
	if (cli->json && !w.restore)
		json_end_array(&w.w);
	else if (cli->json)
		print_restored(&w);
	else if (w.restore && !w.ended && !cli->quiet)
		printf("no ended session to restore\n");
	else if (!w.restore && w.t.nrows)
		cli_table_show(&w.t, opts, stdout);
	cli_table_free(&w.t);
	if (r < 0) {
		cli_error(cli, "cannot read the session records: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	return w.failed ? EXIT_REFUSED : EXIT_OK;
}
