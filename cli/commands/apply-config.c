// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl apply-config: the ddctl.d drop-ins, merged, applied as one set. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int print_file(const char *path, void *data)
{
	FILE *json = data;

	if (!json) {
		printf("configuration: %s\n", path);
		return 0;
	}
	fputs(ftell(json) > 10 ? "," : "", json);
	json_string(json, path);
	return 0;
}

/* apply-config --json: "files":[...] before the set's members. */
static char *json_files(struct cli *cli)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputs("\"files\":[", f);
	ddctl_config_foreach_file(cli->ctx, print_file, f);
	fputs("],", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int cli_load_config(struct cli *cli, struct ddctl_queryset **set)
{
	int r = ddctl_queryset_new(cli->ctx, set);

	if (r == 0)
		r = ddctl_config_load(cli->ctx, *set);
	if (r == -EINVAL) {
		cli_error(cli, "%s; nothing applied\n",
			ddctl_queryset_get_error(*set, NULL, NULL, NULL));
		return EXIT_USAGE;
	}
	if (r < 0) {
		cli_error(cli, "cannot load the configuration: %s\n",
			strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

int cmd_apply_config(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	char *head = NULL;
	int st;

	if (argc > 0) {
		cli_error(cli, "apply-config takes no arguments\n");
		return EXIT_USAGE;
	}
	st = cli_load_config(cli, &set);
	if (st)
		goto out;
	if ((cli->check || cli->verbose) && !cli->json)
		ddctl_config_foreach_file(cli->ctx, print_file, NULL);
	if (cli->json)
		cli->json_head = head = json_files(cli);
	st = cli_commit_set(cli, set, NULL);
	cli->json_head = NULL;
	free(head);
out:
	ddctl_queryset_unref(set);
	return st;
}
