// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl save: the non-default state as a query script; save --boot: the
 * boot snapshot that ddctl reset goes back to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"

/* save --json: {"file":PATH|null,"queries":[...]}, the script's queries. */
static void print_json(const char *path, const char *text)
{
	struct json_writer w;
	const char *p, *end;

	json_init(&w, stdout);
	json_begin_object(&w);
	json_key(&w, "file");
	json_string(&w, path);
	json_key(&w, "queries");
	json_begin_array(&w);
	for (p = text; *p; p = *end ? end + 1 : end) {
		char *line;

		end = strchrnul(p, '\n');
		if (end == p || *p == '#')
			continue;
		line = strndup(p, (size_t)(end - p));
		if (!line)
			continue;
		json_string(&w, line);
		free(line);
	}
	json_end_array(&w);
	json_end_object(&w);
}

/*
 * The script to @path (all or nothing, see ddctl_file_write()) or stdout.
 * --check writes no file: it prints what would be written.
 */
static int save_output(struct cli *cli, const char *path, const char *text)
{
	int r;

	if (path && cli->check) {
		if (cli->json)
			print_json(path, text);
		else
			printf("would write %s:\n%s", path, text);
		return EXIT_OK;
	}
	if (path) {
		r = ddctl_file_write(cli->ctx, path, text, strlen(text), 0);
		if (r < 0)
			return EXIT_REFUSED; /* libddctl said why */
	} else if (!cli->json && fputs(text, stdout) < 0) {
		return EXIT_REFUSED; /* main() reports it */
	}
	if (cli->json)
		print_json(path, text);
	return EXIT_OK;
}

/* save --boot: keep the current state as the boot snapshot, once. */
static int save_boot(struct cli *cli)
{
	struct ddctl_table *table = NULL;
	char *path = NULL;
	int r, st;

	/* kept already (ddctl-watch.service took it): no need to read the state */
	r = ddctl_boot_state_get_path(&path) == 0 && access(path, F_OK) == 0 ? -EEXIST : 0;
	free(path);
	if (!r) {
		st = cli_read_table(cli, &table);
		if (st)
			return st;
		r = cli->check ? 0 : ddctl_boot_state_save(table);
		ddctl_table_unref(table);
	}
	if (r == -EEXIST) {
		if (!cli->quiet && !cli->json)
			printf("kept the boot snapshot %s\n", cli_boot_snapshot_name());
		return EXIT_OK;
	}
	if (r < 0) {
		cli_error(cli, "cannot write the boot snapshot %s: %s\n",
			  cli_boot_snapshot_name(), strerror(-r));
		return EXIT_REFUSED;
	}
	if (!cli->quiet && !cli->json)
		printf("%s the boot snapshot %s\n", cli->check ? "would write" : "wrote",
		       cli_boot_snapshot_name());
	return EXIT_OK;
}

int cmd_save(struct cli *cli, const struct cli_opts *opts, int argc,
	     char **argv)
{
	struct ddctl_table *table = NULL;
	char *text = NULL;
	int r, st;

	if (opts->boot)
		return save_boot(cli);
	st = cli_read_table(cli, &table);
	if (st)
		return st;
	r = ddctl_table_format_script(table, &text);
	ddctl_table_unref(table);
	if (r < 0) {
		cli_error(cli, "cannot save the state: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	st = save_output(cli, argc == 1 && strcmp(argv[0], "-") ? argv[0] : NULL, text);
	free(text);
	return st;
}
