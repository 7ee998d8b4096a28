// SPDX-License-Identifier: GPL-2.0-or-later
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

int cmd_save(struct cli *cli, int argc, char **argv)
{
	struct ddctl_table *table = NULL;
	char *text = NULL;
	FILE *f = stdout;
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
	r = ddctl_table_save(table, &text);
	ddctl_table_unref(table);
	if (r < 0) {
		cli_error(cli, "cannot save the state: %s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	if (argc == 1 && strcmp(argv[0], "-"))
		f = fopen(argv[0], "we");
	else if (cli->json)
		f = NULL; /* only the JSON on stdout */
	st = !f || fputs(text, f) >= 0 ? EXIT_OK : EXIT_REFUSED;
	if (f && f != stdout && fclose(f))
		st = EXIT_REFUSED;
	if (argc == 1 && strcmp(argv[0], "-") && !f)
		st = EXIT_REFUSED;
	if (st)
		cli_error(cli, "cannot write %s: %s\n", argv[0],
			strerror(errno));
	else if (cli->json)
		print_json(argc == 1 && strcmp(argv[0], "-") ? argv[0] : NULL, text);
	free(text);
	return st;
}

int cmd_restore(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *script = NULL, *set = NULL;
	struct ddctl_table *table = NULL;
	char *text;
	int r, st;

	if (argc != 1) {
		cli_error(cli, "restore needs one FILE ('-' is stdin)\n");
		return EXIT_USAGE;
	}
	text = cli_read_file(argv[0]);
	if (!text) {
		cli_error(cli, "cannot read %s: %s\n", argv[0], strerror(errno));
		return EXIT_REFUSED;
	}
	st = cli_parse_queries(cli, text, 0, &script);
	free(text);
	if (!st)
		st = cli_read_table(cli, &table);
	if (st)
		goto out;
	r = ddctl_queryset_new_from_script(cli->ctx, table, script, &set);
	if (r < 0) {
		cli_error(cli, "cannot restore %s: %s\n", argv[0], strerror(-r));
		st = cli_errno_status(r);
	} else {
		st = cli_commit_set(cli, set, table);
	}
out:
	ddctl_queryset_unref(set);
	ddctl_queryset_unref(script);
	ddctl_table_unref(table);
	return st;
}
