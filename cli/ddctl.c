// SPDX-License-Identifier: GPL-2.0-or-later
/* ddctl: the command line, a thin client of libddctl. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "ddctl-cli.h"

static const struct cli_cmd commands[] = {
	{ "list", cmd_list, "[QUERY]", "list callsites, or those QUERY's match-specs select" },
	{ "set", cmd_set, "QUERY...", "apply the queries as one set" },
	{ "modules", cmd_modules, "", "per module: callsites and how many are enabled" },
	{ "info", cmd_info, "", "the control file, kernel features and backend in use" },
	{ "save", cmd_save, "[FILE]", "write the non-default state as a query script" },
	{ "restore", cmd_restore, "FILE", "bring the state exactly to a saved script, as one set" },
	{ "apply-config", cmd_apply_config, "", "apply the ddctl.d configuration as one set (see ddctl.d(5))" },
	{ "persist", cmd_persist, "[FILE]", "write the configuration as dyndbg= modprobe options" },
	{ "watch", cmd_watch, "", "apply the configuration to each module as it loads" },
};

struct opt {
	struct option lo;
	const char *arg, *help;
};

/* One table makes the short options, the long options and --help. */
static const struct opt opts[] = {
	{ { "check", no_argument, NULL, 'c' }, NULL, "print what would change; write nothing" },
	{ { "file", required_argument, NULL, 'f' }, "FILE", "read queries from FILE ('-' is stdin) and apply them as one set" },
	{ { "json", no_argument, NULL, 'j' }, NULL, "print JSON" },
	{ { "verbose", no_argument, NULL, 'v' }, NULL, "per-query matched/changed counts" },
	{ { "enabled", no_argument, NULL, 'e' }, NULL, "list: only sites with the p flag" },
	{ { "persistent", no_argument, NULL, 'P' }, NULL, "list: the dyndbg= modprobe options that will apply" },
	{ { "control", required_argument, NULL, 'C' }, "PATH", "use PATH as the control file" },
	{ { "expand", no_argument, NULL, 'X' }, NULL, "expand negated queries even if the kernel parses them" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "show this help" },
	{ { "version", no_argument, NULL, 'V' }, NULL, "show the version" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ddctl [OPTIONS] COMMAND [ARGS]\n"
		   "       ddctl [OPTIONS] -f FILE\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s %-9s %s\n", commands[i].name, commands[i].args,
			commands[i].help);
	fprintf(f, "\nOptions:\n");
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char left[40];
		int c = opts[i].lo.val;

		snprintf(left, sizeof(left), "%s%c%s--%s%s%s",
			 c < 'A' || c == 'X' || c == 'V' ? "  " : "-",
			 c < 'A' || c == 'X' || c == 'V' ? ' ' : c,
			 c < 'A' || c == 'X' || c == 'V' ? "  " : ", ",
			 opts[i].lo.name, opts[i].arg ? " " : "",
			 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-24s %s\n", left, opts[i].help);
	}
	fprintf(f, "\nA query is match-specs (func, file, module, format, line, class;\n"
		   "module, file, func and format may be negated: '!module virtio*')\n"
		   "followed by flags: [+-=][pmflts_]. Queries are separated by ';'.\n"
		   "Exit status: 0 success, 1 the kernel or the system refused,\n"
		   "2 usage or query error. See ddctl(8).\n");
}

/*
 * Parse options. A word that looks like query flags ("-p", "-pf") is a
 * query word, not an option, once a command has been named.
 */
static int parse_options(struct cli *cli, int argc, char **argv, bool after_cmd,
			 int *consumed)
{
	struct option lo[sizeof(opts) / sizeof(opts[0]) + 1];
	size_t i;
	int c;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		lo[i] = opts[i].lo;
	memset(&lo[i], 0, sizeof(lo[i]));
	optind = 1;
	opterr = 1;
	for (;;) {
		if (after_cmd && optind < argc && argv[optind][0] == '-' &&
		    argv[optind][1] != '-' && strcmp(argv[optind], "-j") &&
		    strcmp(argv[optind], "-c") && strcmp(argv[optind], "-v") &&
		    strcmp(argv[optind], "-e") && strcmp(argv[optind], "-h"))
			break;
		c = getopt_long(argc, argv, after_cmd ? "+jcveh" : "+cf:jvehVC:", lo, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'c': cli->check = true; break;
		case 'f': cli->file = optarg; break;
		case 'j': cli->json = true; break;
		case 'v': cli->verbose = true; break;
		case 'e': cli->enabled = true; break;
		case 'X': cli->expand = true; break;
		case 'P': cli->persistent = true; break;
		case 'C':
			if (ddctl_set_control_path(cli->ctx, optarg) < 0)
				return EXIT_REFUSED;
			break;
		case 'h': usage(stdout); exit(EXIT_OK);
		case 'V': printf("ddctl %s\n", DDCTL_VERSION); exit(EXIT_OK);
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	*consumed = optind;
	return EXIT_OK;
}

static void log_to_stderr(void *data, int priority, const char *file, int line,
			  const char *fn, const char *format, va_list args)
{
	fprintf(stderr, "ddctl: ");
	vfprintf(stderr, format, args);
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	const struct cli_cmd *cmd = NULL;
	int r, n, n2;
	size_t i;

	if (ddctl_new(&cli.ctx) < 0) {
		fprintf(stderr, "ddctl: out of memory\n");
		return EXIT_REFUSED;
	}
	ddctl_set_log_fn(cli.ctx, log_to_stderr, NULL);
	r = parse_options(&cli, argc, argv, false, &n);
	if (r)
		goto out;
	argc -= n;
	argv += n;
	if (cli.expand)
		ddctl_set_features(cli.ctx, DDCTL_FEATURE_CONTROL);
	if (cli.file) {
		if (argc > 0) {
			fprintf(stderr, "ddctl: -f takes no command\n");
			r = EXIT_USAGE;
			goto out;
		}
		r = cmd_set(&cli, 0, NULL);
		goto out;
	}
	if (argc < 1) {
		usage(stderr);
		r = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[0], commands[i].name))
			cmd = &commands[i];
	if (!cmd) {
		fprintf(stderr, "ddctl: unknown command '%s' (try ddctl --help)\n",
			argv[0]);
		r = EXIT_USAGE;
		goto out;
	}
	r = parse_options(&cli, argc, argv, true, &n2);
	if (r)
		goto out;
	if (cli.expand)
		ddctl_set_features(cli.ctx, DDCTL_FEATURE_CONTROL);
	r = cmd->run(&cli, argc - n2, argv + n2);
out:
	ddctl_unref(cli.ctx);
	return r;
}
