// SPDX-License-Identifier: GPL-2.0-or-later
/* ddctl persist / list --persistent: the configuration as modprobe options. */
#include <errno.h>
#include <string.h>

#include "ddctl-cli.h"

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
