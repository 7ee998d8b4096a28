// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl save / restore: the non-default state as a query script, and back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ddctl-cli.h"

/* save --json: {"file":PATH|null,"queries":[...]}, the script's queries. */
static void print_json(const char *path, const char *text)
{
	const char *p, *end;
	bool first = true;

	printf("{\"file\":");
	if (path)
		json_string(stdout, path);
	else
		printf("null");
	printf(",\"queries\":[");
	for (p = text; *p; p = *end ? end + 1 : end) {
		char *line;

		end = strchrnul(p, '\n');
		if (end == p || *p == '#')
			continue;
		line = strndup(p, (size_t)(end - p));
		if (!line)
			continue;
		printf("%s", first ? "" : ",");
		json_string(stdout, line);
		first = false;
		free(line);
	}
	printf("]}\n");
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

int cmd_save(struct cli *cli, int argc, char **argv)
{
	struct ddctl_table *table = NULL;
	char *text = NULL;
	int r, st;

	if (cli->boot && argc > 0) {
		cli_error(cli, "save --boot takes no FILE (it writes /run/ddctl/boot.conf)\n");
		return EXIT_USAGE;
	}
	if (cli->boot)
		return cli_save_boot(cli);
	if (argc > 1) {
		cli_error(cli, "save takes at most one FILE\n");
		return EXIT_USAGE;
	}
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

/* A ddctl save starts so; without queries it is the default state. */
#define SAVE_MAGIC "# ddctl saved state"

/* Bring the state to what @script gives, as one set (restore, reset). */
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *table = NULL;
	int r, st = cli_read_table(cli, &table);

	if (st)
		return st;
	r = ddctl_queryset_new_from_script(cli->ctx, table, script, &set);
	if (r < 0) {
		cli_error(cli, "cannot restore %s: %s\n", what, strerror(-r));
		st = cli_errno_status(r);
	} else {
		st = cli_commit_set(cli, set, table);
	}
	ddctl_queryset_unref(set);
	ddctl_table_unref(table);
	return st;
}

int cmd_restore(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *script = NULL;
	char *text = NULL;
	int st;

	if (argc != 1) {
		cli_error(cli, "restore needs one FILE ('-' is stdin)\n");
		return EXIT_USAGE;
	}
	st = cli_parse_file(cli, argv[0], &script, &text);
	/* no queries: "all default" only when ddctl saved it so */
	if (!st && ddctl_queryset_get_count(script) == 0 &&
	    strncmp(text, SAVE_MAGIC, strlen(SAVE_MAGIC))) {
		st = cli_nothing_to_change(cli);
		goto out;
	}
	if (!st)
		st = cli_restore_script(cli, argv[0], script);
out:
	free(text);
	ddctl_queryset_unref(script);
	return st;
}
