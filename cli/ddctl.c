// SPDX-License-Identifier: GPL-2.0-or-later
/* ddctl: the command line, a thin client of libddctl. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "ddctl-cli.h"

static const struct cli_cmd commands[] = {
	{ "list", cmd_list, "[QUERY]", "list callsites, or those QUERY's match-specs select" },
	{ "set", cmd_set, "QUERY...", "apply the queries as one set" },
	{ "modules", cmd_modules, "", "per module: callsites and how many are enabled" },
	{ "info", cmd_info, "", "the control file, kernel features and backend in use" },
	{ "shell", cmd_shell, "", "interactive shell (commands from stdin when not a terminal)" },
	{ "save", cmd_save, "[FILE]", "write the non-default state as a query script" },
	{ "restore", cmd_restore, "FILE", "bring the state exactly to a saved script, as one set" },
	{ "apply-config", cmd_apply_config, "", "apply the ddctl.d configuration as one set (see ddctl.d(5))" },
	{ "persist", cmd_persist, "[FILE]", "write the configuration as dyndbg= modprobe options" },
	{ "watch", cmd_watch, "", "apply the configuration to each module as it loads" },
	{ "monitor", cmd_monitor, "", "print the kernel's change notifications as they happen (netlink)" },
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
	{ { "backend", required_argument, NULL, 'B' }, "NAME", "auto (default), control or netlink" },
	{ { "keep-going", no_argument, NULL, 'k' }, NULL, "shell: go on after an error in a script" },
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

/* Is @word an option of a command rather than query flags ("-p")? */
bool cli_is_option_word(const char *word)
{
	return word[0] == '-' && (word[1] == '-' || (word[1] && !word[2] &&
						     strchr("jcvehP", word[1])));
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
	optind = 0; /* glibc: start afresh, the shell parses many argv */
	opterr = 1;
	for (;;) {
		if (after_cmd && optind < argc && argv[optind][0] == '-' &&
		    !cli_is_option_word(argv[optind]))
			break;
		c = getopt_long(argc, argv, after_cmd ? "+jcvehP" : "+cf:jvehVC:kPB:", lo, NULL);
		if (c < 0)
			break;
		switch (c) {
		case 'c': cli->check = true; break;
		case 'f': cli->file = optarg; break;
		case 'j': cli->json = true; break;
		case 'v': cli->verbose = true; break;
		case 'e': cli->enabled = true; break;
		case 'X': cli->expand = true; break;
		case 'B':
			if (!strcmp(optarg, "auto"))
				ddctl_set_backend(cli->ctx, DDCTL_BACKEND_AUTO);
			else if (!strcmp(optarg, "control"))
				ddctl_set_backend(cli->ctx, DDCTL_BACKEND_CONTROL);
			else if (!strcmp(optarg, "netlink"))
				ddctl_set_backend(cli->ctx, DDCTL_BACKEND_NETLINK);
			else {
				cli_error(cli, "unknown backend '%s' (auto, control or netlink)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'P': cli->persistent = true; break;
		case 'k': cli->keep_going = true; break;
		case 'C':
			if (ddctl_set_control_path(cli->ctx, optarg) < 0)
				return EXIT_REFUSED;
			break;
		case 'h':
			usage(stdout);
			if (!after_cmd)
				exit(EXIT_OK);
			*consumed = optind;
			return EXIT_HELP; /* the shell goes on */
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
	cli_verror(data, format, args);
}

const struct cli_cmd *cli_get_command(size_t idx)
{
	return idx < sizeof(commands) / sizeof(commands[0]) ? &commands[idx] : NULL;
}

/* The options after the command name argv[0]: argv mode and the shell. */
int cli_parse_command_options(struct cli *cli, int argc, char **argv,
			      int *consumed)
{
	int r = parse_options(cli, argc, argv, true, consumed);

	if (r == 0 && cli->expand)
		ddctl_set_features(cli->ctx, DDCTL_FEATURE_CONTROL);
	return r;
}

/* Run argv[0] with its options and arguments: argv mode and the shell. */
int cli_run_command(struct cli *cli, int argc, char **argv)
{
	const struct cli_cmd *cmd = NULL;
	size_t i;
	int r, n;

	for (i = 0; cli_get_command(i); i++)
		if (!strcmp(argv[0], commands[i].name))
			cmd = &commands[i];
	if (!cmd) {
		cli_error(cli, "unknown command '%s' (try ddctl --help)\n", argv[0]);
		return EXIT_USAGE;
	}
	r = cli_parse_command_options(cli, argc, argv, &n);
	if (r == EXIT_HELP)
		return EXIT_OK;
	if (r)
		return r;
	return cmd->run(cli, argc - n, argv + n);
}

int main(int argc, char **argv)
{
	struct cli cli = { 0 };
	char *shell[] = { "shell", NULL };
	int r, n;

	if (ddctl_new(&cli.ctx) < 0) {
		fprintf(stderr, "ddctl: out of memory\n");
		return EXIT_REFUSED;
	}
	ddctl_set_log_fn(cli.ctx, log_to_stderr, &cli);
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
	if (argc < 1 && !isatty(STDIN_FILENO)) {
		usage(stderr);
		r = EXIT_USAGE;
		goto out;
	}
	r = cli_run_command(&cli, argc < 1 ? 1 : argc, argc < 1 ? shell : argv);
out:
	ddctl_unref(cli.ctx);
	return r;
}
