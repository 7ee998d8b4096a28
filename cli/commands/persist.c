// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl persist / list --persistent: the configuration as modprobe options. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct written {
	const char *file; /* NULL: ddctl's own file in modprobe.d */
	unsigned int n;
};

static void print_module(struct written *w, const char *module, const char *options)
{
	printf("%s{\"module\":", w->n++ ? "," : "");
	json_string(stdout, module);
	printf(",\"options\":");
	json_string(stdout, options);
	printf("}");
}

static int own_options(const char *module, const char *options,
		       const char *source, void *data)
{
	struct written *w = data;

	if (strcmp(source, "modprobe.d")) { /* ddctl's own file */
		if (!w->file) {
			w->file = strdup(source);
			json_string(stdout, source);
			printf(",\"modules\":[");
		}
		print_module(w, module, options);
	}
	return 0;
}

/* The "options MODULE ..." lines of @text as JSON members; @text is cut up. */
static void print_options_lines(struct written *w, char *text)
{
	char *line, *save = NULL, *opts, module[256];

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "options %255s", module) != 1)
			continue;
		opts = strstr(line, module) + strlen(module);
		print_module(w, module, opts + strspn(opts, " "));
	}
}

/*
 * persist --json: {"file":PATH,"modules":[{"module":M,"options":O}]}, from
 * @text (what is or would be written) or else the file ddctl wrote.
 */
static void print_json(struct cli *cli, const char *path, char *text)
{
	struct written w = { path, 0 };
	char *own = NULL;

	printf("{\"file\":");
	if (!path && !text) {
		ddctl_module_foreach_persistent(cli->ctx, own_options, &w);
		if (!w.file)
			printf("null,\"modules\":[");
		free((char *)w.file);
		printf("]}\n");
		return;
	}
	if (path)
		json_string(stdout, path);
	else
		printf("null");
	printf(",\"modules\":[");
	if (!text)
		text = own = cli_read_file(path);
	if (text)
		print_options_lines(&w, text);
	free(own);
	printf("]}\n");
}

/* persist --check: the text that would be written, written nowhere. */
static int persist_check(struct cli *cli, struct ddctl_queryset *set,
			 const char *path)
{
	char *text = NULL;
	int r = ddctl_config_format_modprobe(set, &text);

	if (r < 0) {
		cli_error(cli, "%s\n", strerror(-r));
		return EXIT_REFUSED;
	}
	if (cli->json)
		print_json(cli, path, text);
	else
		printf("would write %s:\n%s", path ? path : "/etc/modprobe.d/ddctl.conf", text);
	free(text);
	return EXIT_OK;
}

int cmd_persist(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	int r, st;

	if (argc > 1) {
		cli_error(cli, "persist takes at most one FILE\n");
		return EXIT_USAGE;
	}
	st = cli_load_config(cli, &set);
	if (st)
		return st;
	if (cli->check) {
		st = persist_check(cli, set, argc ? argv[0] : NULL);
		ddctl_queryset_unref(set);
		return st;
	}
	r = ddctl_config_write_modprobe(set, argc ? argv[0] : NULL);
	ddctl_queryset_unref(set);
	if (r < 0)
		return EXIT_REFUSED;
	if (cli->json)
		print_json(cli, argc ? argv[0] : NULL, NULL);
	return EXIT_OK;
}

struct shown {
	struct cli *cli;
	unsigned int n;
};

static int print_options(const char *module, const char *options,
			 const char *source, void *data)
{
	struct shown *sh = data;

	if (sh->cli->json) {
		printf("%s\n{\"module\":", sh->n++ ? "," : "");
		json_string(stdout, module);
		printf(",\"options\":");
		json_string(stdout, options);
		printf(",\"source\":");
		json_string(stdout, source);
		printf("}");
	} else {
		printf("%-20s %-40s %s\n", module, options, source);
	}
	return 0;
}

int cli_list_persistent(struct cli *cli)
{
	struct shown sh = { .cli = cli };
	int r;

	if (cli->json)
		printf("[");
	else
		printf("%-20s %-40s %s\n", "MODULE", "OPTIONS", "SOURCE");
	r = ddctl_module_foreach_persistent(cli->ctx, print_options, &sh);
	if (cli->json)
		printf("%s]\n", sh.n ? "\n" : "");
	if (r < 0) {
		cli_error(cli, "cannot read the modprobe configuration: %s\n",
			strerror(-r));
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}
