// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl: the command line, a thin client of libddctl. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "cli.h"

static int cmd_help(struct cli *cli, int argc, char **argv);

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
	{ "follow", cmd_follow, "QUERY...", "apply the queries, show the lines their callsites print, restore on exit" },
	{ "run", cmd_run, "QUERY... -- COMMAND", "apply the queries while COMMAND runs, show their lines, restore" },
	{ "sessions", cmd_sessions, "", "follow/run sessions; --restore undoes those whose process is gone" },
	{ "reset", cmd_reset, "", "back to the state the kernel booted with (/run/ddctl/boot.conf)" },
	{ "diff", cmd_diff, "A B", "compare two saved states ('-': the live state) site by site" },
	{ "help", cmd_help, "[COMMAND]", "this help, or a command's" },
	{ "__complete", cmd_complete, "WORD...", "candidates for the last word (shell completions)" },
};

struct opt {
	struct option lo;
	char shortopt; /* 0: long only */
	bool shell;    /* applies to one line of the shell too */
	const char *arg, *help;
};

/* One table makes the short options, the long options and --help. */
static const struct opt opts[] = {
	{ { "check", no_argument, NULL, 'c' }, 'c', true, NULL, "print what would change; write nothing" },
	{ { "file", required_argument, NULL, 'f' }, 'f', false, "FILE", "read queries from FILE ('-' is stdin) and apply them as one set" },
	{ { "json", no_argument, NULL, 'j' }, 'j', true, NULL, "print JSON" },
	{ { "verbose", no_argument, NULL, 'v' }, 'v', true, NULL, "per-query matched/changed counts" },
	{ { "quiet", no_argument, NULL, 'q' }, 'q', true, NULL, "no status line and no notes, only errors" },
	{ { "enabled", no_argument, NULL, 'e' }, 'e', true, NULL, "list, modules: only sites with the p flag" },
	{ { "persistent", no_argument, NULL, 'P' }, 'P', true, NULL, "list: the dyndbg= modprobe options that will apply" },
	{ { "flags", required_argument, NULL, 'F' }, 0, true, "FLAGS", "list: only sites with all these flags ('_': none)" },
	{ { "output", required_argument, NULL, 'o' }, 'o', true, "COLUMNS", "list: the columns, e.g. module,function,format; follow, run: a FILE for the lines" },
	{ { "sort", required_argument, NULL, 'S' }, 0, true, "COLUMNS", "list: sort by these columns (default: the kernel's order)" },
	{ { "no-pager", no_argument, NULL, 'N' }, 0, false, NULL, "do not pipe long output into $PAGER on a terminal" },
	{ { "control", required_argument, NULL, 'C' }, 'C', false, "PATH", "use PATH as the control file" },
	{ { "expand", no_argument, NULL, 'X' }, 0, true, NULL, "expand negated queries even if the kernel parses them" },
	{ { "backend", required_argument, NULL, 'B' }, 'B', false, "NAME", "auto (default), control or netlink" },
	{ { "keep-going", no_argument, NULL, 'k' }, 'k', false, NULL, "shell: go on after an error in a script" },
	{ { "raw", no_argument, NULL, 1001 }, 0, true, NULL, "follow, run: keep the kernel's decoration on each line" },
	{ { "all", no_argument, NULL, 1002 }, 0, true, NULL, "follow, run: also the lines of other sources" },
	{ { "since-boot", no_argument, NULL, 1003 }, 0, true, NULL, "follow, run: include the messages already in the kernel log" },
	{ { "stats", no_argument, NULL, 1004 }, 0, true, NULL, "follow, run: per-callsite counts while running too" },
	{ { "top", no_argument, NULL, 1005 }, 0, true, NULL, "follow, run: only the per-callsite counts, refreshed" },
	{ { "kmsg", required_argument, NULL, 1006 }, 0, false, "PATH", "follow, run: read the kernel log from PATH (/dev/kmsg format)" },
	{ { "restore", no_argument, NULL, 1007 }, 0, true, NULL, "sessions: restore the callsites of ended sessions" },
	{ { "boot", no_argument, NULL, 1008 }, 0, true, NULL, "save: the boot snapshot /run/ddctl/boot.conf, unless it exists" },
	{ { "capture-writes", required_argument, NULL, 1009 }, 0, false, "FILE", "append what would be written to the kernel to FILE instead (tests)" },
	{ { "help", no_argument, NULL, 'h' }, 'h', true, NULL, "show this help" },
	{ { "version", no_argument, NULL, 'V' }, 'V', false, NULL, "show the version" },
};

#define N_OPTS (sizeof(opts) / sizeof(opts[0]))
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Is the text before the ':' at @p + @n a list of command names? */
static bool names_prefix(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(p[i] >= 'a' && p[i] <= 'z') && !strchr(", -", p[i]))
			return false;
	return n > 0;
}

/*
 * Does option @o apply to command @cmd? Help text like "list, modules: ..."
 * or "list: ...; follow, run: ..." names the commands it is for; without
 * such a prefix it is for all.
 */
static bool applies_to(const struct opt *o, const char *cmd)
{
	const char *seg, *p;
	bool restricted = false;
	size_t n, w, len = cmd ? strlen(cmd) : 0;

	for (seg = o->help; cmd && seg; seg = strstr(seg, "; ") ? strstr(seg, "; ") + 2 : NULL) {
		n = strcspn(seg, ":;");
		if (seg[n] != ':' || !names_prefix(seg, n))
			continue;
		restricted = true;
		for (p = seg; p < seg + n; p += strspn(p, ", ")) {
			w = strcspn(p, ",:");
			if (w == len && !strncmp(p, cmd, len))
				return true;
			p += w;
		}
	}
	return !restricted;
}

/*
 * The option list of --help; @shell: only what applies to a shell line;
 * @cmd: only what applies to that command (NULL: all).
 */
void cli_print_options(FILE *f, bool shell, const char *cmd)
{
	size_t i;

	for (i = 0; i < N_OPTS; i++) {
		char left[40];
		int c = opts[i].shortopt;

		if ((shell && !opts[i].shell) || !applies_to(&opts[i], cmd) ||
		    (cmd && c == 'f'))
			continue;
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", c ? "-" : " ",
			 c ? c : ' ', c ? ", " : "  ", opts[i].lo.name,
			 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-24s %s\n", left, opts[i].help);
	}
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ddctl [OPTIONS] COMMAND [ARGS]\n"
		   "       ddctl [OPTIONS] -f FILE\n\nCommands:\n");
	for (i = 0; i < N_COMMANDS; i++)
		if (commands[i].name[0] != '_')
			fprintf(f, "  %-12s %-9s %s\n", commands[i].name,
				commands[i].args, commands[i].help);
	fprintf(f, "\nOptions:\n");
	cli_print_options(f, false, NULL);
	fprintf(f, "\nA query is match-specs (func, file, module, format, line, class;\n"
		   "module, file, func and format may be negated: '!module virtio*')\n"
		   "followed by flags: [+-=][pmflts_]. Queries are separated by ';'.\n"
		   "Options may also follow the command; '--' ends them.\n"
		   "Exit status: 0 success, 1 the kernel or the system refused,\n"
		   "2 usage or query error. See ddctl(8).\n");
}

static const struct cli_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* `ddctl COMMAND --help`, `ddctl help COMMAND`. */
void cli_command_usage(FILE *f, const struct cli_cmd *cmd, bool shell)
{
	fprintf(f, "Usage: %s%s %s\n%s.\n\nOptions:\n", shell ? "" : "ddctl [OPTIONS] ",
		cmd->name, cmd->args, cmd->help);
	cli_print_options(f, shell, cmd->name);
}

static int cmd_help(struct cli *cli, int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 1) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = find_command(argv[0]);
	if (!cmd || argc > 1) {
		cli_error(cli, "help: unknown command '%s'%s\n", argv[0],
			  cli_suggest(argv[0], cli_command_names()));
		return EXIT_USAGE;
	}
	cli_command_usage(stdout, cmd, cli->in_shell);
	return EXIT_OK;
}

/* The command names, NULL-terminated, for did-you-mean. */
const char *const *cli_command_names(void)
{
	static const char *names[N_COMMANDS + 1];
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	return names;
}

/* Is @word query flags ("-p", "-pf", "+p") rather than an option? */
static bool is_flags_word(const char *word)
{
	return word[0] == '-' && word[1] && strspn(word + 1, "pmflts_") == strlen(word + 1);
}

static const struct opt *find_short(char c)
{
	size_t i;

	for (i = 0; c && i < N_OPTS; i++)
		if (opts[i].shortopt == c)
			return &opts[i];
	return NULL;
}

static const struct opt *find_long(const char *word)
{
	size_t i, len = strcspn(word, "=");
	const struct opt *found = NULL;

	for (i = 0; i < N_OPTS; i++) {
		if (strncmp(opts[i].lo.name, word, len))
			continue;
		if (strlen(opts[i].lo.name) == len)
			return &opts[i];
		found = found ? NULL : &opts[i]; /* a unique prefix */
	}
	return found;
}

/*
 * After the command name: is @word an option (not query flags "-p" or a
 * query word)? *@takes_next: its argument is the next word.
 */
static bool is_option(const char *word, bool *takes_next)
{
	const struct opt *o;
	const char *p;

	*takes_next = false;
	if (word[0] != '-' || !word[1] || is_flags_word(word))
		return false;
	if (word[1] == '-') {
		o = find_long(word + 2);
		*takes_next = o && o->lo.has_arg == required_argument &&
			      !strchr(word, '=');
		return true;
	}
	for (p = word + 1; *p; p++) {
		o = find_short(*p);
		if (!o || o->shortopt == 'f')
			return false;
		if (o->lo.has_arg == required_argument) {
			*takes_next = !p[1];
			return true;
		}
	}
	return true;
}

/* Is @word, after a command, an option rather than query words? */
bool cli_is_option_word(const char *word)
{
	bool next;

	return is_option(word, &next);
}

/*
 * Options go anywhere after the command: move them (and their arguments)
 * before the other words, stably. Returns the number of option words;
 * *@dashdash: a "--" follows them. @keep: the "--" stays in place among
 * the other words instead (ddctl run QUERY... -- COMMAND).
 */
static int hoist_options(int argc, char **argv, bool *dashdash, bool keep)
{
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	int i, nopt = 1, npos = 0;
	bool next;

	*dashdash = false;
	if (!pos)
		return -1;
	for (i = 1; i < argc; i++) {
		if (*dashdash) {
			pos[npos++] = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			*dashdash = true;
			if (keep)
				pos[npos++] = argv[i];
		} else if (is_option(argv[i], &next)) {
			argv[nopt++] = argv[i];
			if (next && i + 1 < argc)
				argv[nopt++] = argv[++i];
		} else {
			pos[npos++] = argv[i];
		}
	}
	if (keep)
		*dashdash = false;
	if (*dashdash)
		argv[nopt] = "--";
	memcpy(argv + nopt + *dashdash, pos, (size_t)npos * sizeof(*pos));
	free(pos);
	return nopt;
}

/* The long option names, NULL-terminated, for did-you-mean. */
static const char *const *long_names(void)
{
	static const char *names[N_OPTS + 1];
	size_t i;

	for (i = 0; i < N_OPTS; i++)
		names[i] = opts[i].lo.name;
	return names;
}

static void option_error(struct cli *cli, int c, char **argv)
{
	const char *word = argv[optind - 1];
	char s[3] = { '-', (char)optopt, 0 };

	if (optopt && word[0] == '-' && word[1] != '-')
		word = s;
	if (c == ':')
		cli_error(cli, "option '%s' needs an argument%s\n", word,
			  cli->in_shell ? "" : " (see ddctl --help)");
	else
		cli_error(cli, "unknown option '%s'%s (see %s)\n", word,
			  word[1] == '-' ? cli_suggest(word + 2, long_names()) : "",
			  cli->in_shell ? "help" : "ddctl --help");
}

/*
 * Parse options. Before the command, the first word that is not an option
 * is the command; after it, options may come anywhere and a word that
 * looks like query flags ("-p", "-pf") is a query word.
 */
static int parse_options(struct cli *cli, int argc, char **argv,
			 const struct cli_cmd *cmd, int *consumed)
{
	struct option lo[N_OPTS + 1];
	char optstring[3 * N_OPTS + 3] = "+:"; /* zero-filled */
	bool dashdash = false;
	size_t i, len = 2;
	int c, end = argc;

	for (i = 0; i < N_OPTS; i++) {
		lo[i] = opts[i].lo;
		if (!opts[i].shortopt || (cmd && opts[i].shortopt == 'f'))
			continue;
		optstring[len++] = opts[i].shortopt;
		if (opts[i].lo.has_arg == required_argument)
			optstring[len++] = ':';
	}
	memset(&lo[i], 0, sizeof(lo[i]));
	if (cmd) {
		end = hoist_options(argc, argv, &dashdash, cmd->run == cmd_run);
		if (end < 0)
			return EXIT_REFUSED;
	}
	optind = 0; /* glibc: start afresh, the shell parses many argv */
	opterr = 0;
	while ((c = getopt_long(end, argv, optstring, lo, NULL)) >= 0) {
		const struct opt *o = NULL;

		for (i = 0; i < N_OPTS; i++)
			if (opts[i].lo.val == c)
				o = &opts[i];

		if (c != '?' && c != ':' && cli->in_shell && o && !o->shell) {
			cli_error(cli, "option '%s' does not apply in the shell\n",
				  argv[optind - 1]);
			return EXIT_USAGE;
		}
		switch (c) {
		case 'c': cli->check = true; break;
		case 'f': cli->file = optarg; break;
		case 'j': cli->json = true; break;
		case 'v': cli->verbose = true; break;
		case 'q': cli->quiet = true; break;
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
		case 'F': cli->flags = optarg; break;
		case 'o': cli->output = optarg; break;
		case 'S': cli->sort = optarg; break;
		case 'N': cli->no_pager = true; break;
		case 'k': cli->keep_going = true; break;
		case 1001: cli->raw = true; break;
		case 1002: cli->all = true; break;
		case 1003: cli->since_boot = true; break;
		case 1004: cli->stats = true; break;
		case 1005: cli->top = true; break;
		case 1006: cli->kmsg = optarg; break;
		case 1007: cli->restore = true; break;
		case 1008: cli->boot = true; break;
		case 1009:
			if (ddctl_set_write_capture(cli->ctx, optarg) < 0)
				return EXIT_REFUSED;
			break;
		case 'C':
			if (ddctl_set_control_path(cli->ctx, optarg) < 0)
				return EXIT_REFUSED;
			break;
		case 'h':
			if (!cmd) {
				usage(stdout);
				exit(EXIT_OK);
			}
			cli_command_usage(stdout, cmd, cli->in_shell);
			return EXIT_HELP; /* the shell goes on */
		case 'V': printf("ddctl %s\n", DDCTL_VERSION); exit(EXIT_OK);
		default:
			option_error(cli, c, argv);
			return EXIT_USAGE;
		}
	}
	*consumed = cmd ? end + dashdash : optind;
	return EXIT_OK;
}

static void log_to_stderr(void *data, int priority, const char *file, int line,
			  const char *fn, const char *format, va_list args)
{
	struct cli *cli = data;

	if (priority <= LOG_ERR)
		cli->lib_errors++;
	if (priority == LOG_WARNING)
		cli_vwarn(cli, format, args);
	else
		cli_verror(cli, format, args);
}

const struct cli_cmd *cli_get_command(size_t idx)
{
	return idx < N_COMMANDS ? &commands[idx] : NULL;
}

/* The options after the command name argv[0]: argv mode and the shell. */
int cli_parse_command_options(struct cli *cli, int argc, char **argv,
			      int *consumed)
{
	const struct cli_cmd *cmd = find_command(argv[0]);
	struct cli_cmd other = { argv[0], NULL, "", "" };
	int r = parse_options(cli, argc, argv, cmd ? cmd : &other, consumed);

	if (r == 0 && cli->expand)
		ddctl_set_features(cli->ctx, DDCTL_FEATURE_CONTROL);
	return r;
}

/* Run argv[0] with its options and arguments: argv mode and the shell. */
int cli_run_command(struct cli *cli, int argc, char **argv)
{
	const struct cli_cmd *cmd = find_command(argv[0]);
	int r, n;

	if (!cmd) {
		cli_error(cli, "unknown command '%s'%s (see %s)\n", argv[0],
			  cli_suggest(argv[0], cli_command_names()),
			  cli->in_shell ? "help" : "ddctl --help");
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
	r = parse_options(&cli, argc, argv, NULL, &n);
	if (r)
		goto out;
	argc -= n;
	argv += n;
	if (cli.expand)
		ddctl_set_features(cli.ctx, DDCTL_FEATURE_CONTROL);
	if (argc < 1 || strcmp(argv[0], "sessions"))
		cli_check_sessions(&cli); /* killed follow/run sessions */
	if (cli.file) {
		if (argc > 0) {
			cli_error(&cli, "-f takes no command\n");
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
	r = cli_check_stdout(&cli, r);
	cli_json_errors(r);
	cli_pager_end();
	ddctl_unref(cli.ctx);
	return r;
}
