// SPDX-License-Identifier: GPL-2.0-or-later
/* ddctl persist / list --persistent: the configuration as modprobe options. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ddctl-cli.h"

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

/* persist --json: {"file":PATH,"modules":[{"module":M,"options":O}]}. */
static void print_json(struct cli *cli, const char *path)
{
	struct written w = { path, 0 };
	char line[8192], module[256], *opts;
	FILE *f;

	printf("{\"file\":");
	if (!path) {
		ddctl_module_foreach_persistent(cli->ctx, own_options, &w);
		if (!w.file)
			printf("null,\"modules\":[");
		free((char *)w.file);
		printf("]}\n");
		return;
	}
	json_string(stdout, path);
	printf(",\"modules\":[");
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "options %255s", module) != 1)
			continue;
		opts = strstr(line, module) + strlen(module);
		print_module(&w, module, opts + strspn(opts, " "));
	}
	if (f)
		fclose(f);
	printf("]}\n");
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
	r = ddctl_config_write_modprobe(set, argc ? argv[0] : NULL);
	ddctl_queryset_unref(set);
	if (r < 0)
		return EXIT_REFUSED;
	if (cli->json)
		print_json(cli, argc ? argv[0] : NULL);
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
