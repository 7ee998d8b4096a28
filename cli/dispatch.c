// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dispatcher: the command table and the option table, as data. Each
 * command says how many arguments it takes, each option which commands
 * take it; getopt's strings, the long options and --help are made from
 * the tables. Argv mode and the shell (through struct shell_host) run
 * commands through the same entry, cli_run_command().
 */
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands/commands.h"
#include "dispatch.h"
#include "ops/input.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"
#include "output/suggest.h"
#include "shell/shell.h"

/* The commands, as bits: which options a command takes. */
enum {
	C_LIST = 1u << 0, C_SET = 1u << 1, C_MODULES = 1u << 2, C_INFO = 1u << 3,
	C_SHELL = 1u << 4, C_SAVE = 1u << 5, C_RESTORE = 1u << 6,
	C_APPLY_CONFIG = 1u << 7, C_PERSIST = 1u << 8, C_WATCH = 1u << 9,
	C_MONITOR = 1u << 10, C_FOLLOW = 1u << 11, C_RUN = 1u << 12,
	C_SESSIONS = 1u << 13, C_RESET = 1u << 14, C_DIFF = 1u << 15,
	C_HELP = 1u << 16, C_COMPLETE = 1u << 17, C_STATUS = 1u << 18,
	/* the commands that commit a set, and those that take queries with flags */
	C_COMMIT = C_SET | C_FOLLOW | C_RUN | C_RESTORE | C_RESET | C_APPLY_CONFIG |
		   C_SESSIONS | C_SHELL | C_WATCH,
	C_FLAGS = C_SET | C_FOLLOW | C_RUN,
};

static int cmd_help(struct cli *cli, const struct cli_opts *opts, int argc, char **argv);
static int run_shell(struct cli *cli, const struct cli_opts *opts, int argc, char **argv);

#define ANY { 0, -1, NULL }
#define NONE(name) { 0, 0, name " takes no arguments" }

static const struct cli_command commands[] = {
	{ "list", cmd_list, "[QUERY]", "list callsites, or those QUERY's match-specs select",
	  C_LIST, ANY, false,
	  "QUERY is match-specs without flags, e.g. module NAME, func NAME, file PATH;\n"
	  "several queries (';' or separate arguments) list the sites any selects",
	  "ddctl list module xhci_hcd\nddctl list --enabled -o module,function,format" },
	{ "set", cmd_set, "QUERY...", "apply the queries as one set",
	  C_SET, { 1, -1, "set needs at least one query" }, false,
	  "QUERY is match-specs then flags: [func F] [file F] [module M] [format F]\n"
	  "[line N[-M]] [class C] [+-=]FLAGS; a ';' argument or ';' in one separates queries",
	  "ddctl set module xhci_hcd +p\nddctl set module usbcore +p ';' func hub_event -p" },
	{ "modules", cmd_modules, "[PATTERN...]", "per module: callsites, how many are enabled, their classes",
	  C_MODULES, ANY, false,
	  "PATTERN: module names, with the kernel's wildcards * and ?",
	  "ddctl modules\nddctl modules 'usb*'" },
	{ "info", cmd_info, "", "the control file, kernel features and backend in use",
	  C_INFO, NONE("info"), false, NULL, "ddctl info\nddctl info --json" },
	{ "shell", run_shell, "", "interactive shell (commands from stdin when not a terminal)",
	  C_SHELL, NONE("shell"), false, NULL, "ddctl shell\necho 'module xhci_hcd +p' | ddctl shell" },
	{ "save", cmd_save, "[FILE]", "write the non-default state as a query script",
	  C_SAVE, { 0, 1, "save takes at most one FILE" }, false,
	  "FILE: where the script goes (default: standard output)",
	  "ddctl save /tmp/debug.conf\nddctl save --boot" },
	{ "restore", cmd_restore, "FILE", "bring the state exactly to a saved script, as one set",
	  C_RESTORE, { 1, 1, "restore needs one FILE ('-' is stdin)" }, false,
	  "FILE: a script written by ddctl save ('-': standard input)",
	  "ddctl --check restore /tmp/debug.conf" },
	{ "apply-config", cmd_apply_config, "", "apply the ddctl.d configuration as one set (see ddctl.d(5))",
	  C_APPLY_CONFIG, NONE("apply-config"), false, NULL,
	  "ddctl --check apply-config" },
	{ "persist", cmd_persist, "[FILE] | --cmdline [QUERY...]",
	  "write the configuration as dyndbg= modprobe options, or print it as kernel command line words",
	  C_PERSIST, { 0, 1, "persist takes at most one FILE" }, false,
	  "FILE: the modprobe.d file (default: /etc/modprobe.d/ddctl.conf);\n"
	  "--cmdline: dyndbg=\"...\" and MODULE.dyndbg=\"...\" words for the boot loader",
	  "ddctl --check persist\nddctl persist --cmdline module usbcore +p" },
	{ "watch", cmd_watch, "", "apply the configuration to each module as it loads",
	  C_WATCH, NONE("watch"), false, NULL, "ddctl watch" },
	{ "monitor", cmd_monitor, "", "print the kernel's change notifications as they happen (netlink)",
	  C_MONITOR, NONE("monitor"), false, NULL, "ddctl monitor --json" },
	{ "follow", cmd_follow, "QUERY...", "apply the queries, show the lines their callsites print, restore on exit",
	  C_FOLLOW, { 1, -1, "follow needs at least one query, or -f FILE" }, false,
	  "QUERY as for set; the sites are restored when follow ends (Ctrl-C)",
	  "ddctl follow module xhci_hcd +p\nddctl follow --stats 'func hub_event +p'" },
	/* run checks its QUERY... -- COMMAND itself */
	{ "run", cmd_run, "QUERY... -- COMMAND", "apply the queries while COMMAND runs, show their lines, restore",
	  C_RUN, ANY, true,
	  "QUERY as for set; COMMAND runs with the sites enabled, then they are restored",
	  "ddctl run module usbcore +p -- lsusb" },
	{ "sessions", cmd_sessions, "", "follow/run sessions; --restore undoes those whose process is gone",
	  C_SESSIONS, { 0, 0, "sessions takes no arguments (--restore undoes ended sessions)" }, false,
	  NULL, "ddctl sessions\nddctl sessions --restore" },
	{ "reset", cmd_reset, "", "back to the state the kernel booted with (/run/ddctl/boot.conf)",
	  C_RESET, NONE("reset"), false, NULL, "ddctl --check reset" },
	{ "status", cmd_status, "", "what is on now: enabled sites per module, sessions, the boot configuration",
	  C_STATUS, NONE("status"), false, NULL, "ddctl status\nddctl status --json" },
	{ "diff", cmd_diff, "A B", "compare two saved states ('-': the live state) site by site",
	  C_DIFF, { 2, 2, "diff needs two states: saved files or '-' for the live state" }, false,
	  "A, B: scripts written by ddctl save, or '-' for the live state;\n"
	  "exit status 0: the same, 1: they differ",
	  "ddctl diff /run/ddctl/boot.conf -" },
	/* help names an unknown COMMAND itself */
	{ "help", cmd_help, "[COMMAND]", "this help, a command's; help flags: the flag letters", C_HELP, ANY, false,
	  NULL, "ddctl help set\nddctl help flags" },
	{ "__complete", cmd_complete, "WORD...", "candidates for the last word (shell completions)",
	  C_COMPLETE, ANY, false, NULL, NULL },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Where an option goes. */
enum opt_kind {
	O_CLI,     /* a bool in struct cli at .offset */
	O_OPTS,    /* a bool, or with an argument a string, in struct cli_opts */
	O_BACKEND, O_CONTROL, O_KERNEL, O_CAPTURE, O_HELP, O_VERSION, O_COLOR,
};

struct cli_option {
	const char *name;
	char shortopt;          /* 0: long only */
	int val;                /* what getopt returns */
	int has_arg;            /* 0, 1: required, OPT_OPTIONAL: "--name[=ARG]" */
	bool shell;             /* applies to one line of the shell too */
	unsigned int commands;  /* the commands that take it; 0: all */
	const char *arg, *help;
	enum opt_kind kind;
	size_t offset;
	/* given to one of @arity_for, it replaces the command's arity */
	const struct cli_arity *arity;
	unsigned int arity_for;
};

static const struct cli_arity file_arity = ANY;
static const struct cli_arity boot_arity = {
	0, 0, "save --boot takes no FILE (it writes /run/ddctl/boot.conf)"
};

#define OPT_OPTIONAL 2

#define CLI(field) O_CLI, offsetof(struct cli, field), NULL, 0
#define OPT(field) O_OPTS, offsetof(struct cli_opts, field), NULL, 0
#define OPT_ARITY(field, arity, cmds) O_OPTS, offsetof(struct cli_opts, field), arity, cmds
#define ACT(kind) kind, 0, NULL, 0

/* One table makes the short options, the long options and --help. */
static const struct cli_option options[] = {
	{ "check", 'c', 'c', false, true, C_COMMIT | C_PERSIST | C_SAVE, NULL,
	  "print what would change; write nothing", CLI(check) },
	{ "file", 'f', 'f', true, false, C_SET | C_FOLLOW, "FILE",
	  "read queries from FILE ('-' is stdin) and apply them as one set (-f: before the command)",
	  OPT_ARITY(file, &file_arity, C_SET | C_FOLLOW) },
	{ "json", 'j', 'j', false, true, 0, NULL, "print JSON", CLI(json) },
	{ "pretty", 0, 1010, false, true, 0, NULL, "with --json: indented, one member a line", CLI(pretty) },
	{ "verbose", 'v', 'v', false, true, C_COMMIT, NULL, "per-query matched/changed counts", CLI(verbose) },
	{ "quiet", 'q', 'q', false, true, 0, NULL, "no status line and no notes, only errors", CLI(quiet) },
	{ "enabled", 'e', 'e', false, true, C_LIST | C_MODULES, NULL, "list, modules: only sites with the p flag",
	  OPT(enabled) },
	{ "persistent", 'P', 'P', false, true, C_LIST, NULL, "list: the dyndbg= modprobe options that will apply",
	  OPT(persistent) },
	{ "flags", 0, 'F', true, true, C_LIST, "FLAGS", "list: only sites with all these flags ('_': none)",
	  OPT(flags) },
	{ "output", 'o', 'o', true, true, C_LIST | C_FOLLOW | C_RUN, "COLUMNS",
	  "list: the columns, e.g. module,function,format; follow, run: a FILE for the lines", OPT(output) },
	{ "sort", 0, 'S', true, true, C_LIST, "COLUMNS", "list: sort by these columns (default: the kernel's order)",
	  OPT(sort) },
	{ "full", 'l', 'l', false, true, C_LIST | C_MODULES | C_SESSIONS, NULL,
	  "list, modules, sessions: never cut a cell, even on a narrow terminal", OPT(full) },
	{ "no-legend", 0, 1011, false, true, C_LIST | C_MODULES | C_SESSIONS, NULL,
	  "list, modules, sessions: no header line", OPT(no_legend) },
	{ "no-pager", 0, 'N', false, false, C_LIST | C_MODULES, NULL,
	  "do not pipe long output into $PAGER on a terminal", CLI(no_pager) },
	{ "color", 0, 1012, true, true, 0, "WHEN", "auto (default: a terminal, unless NO_COLOR is set), always or never",
	  ACT(O_COLOR) },
	{ "yes", 'y', 'y', false, true, C_SET, NULL,
	  "set: no question before a set enables thousands of sites", OPT(yes) },
	{ "control", 'C', 'C', true, false, 0, "PATH", "use PATH as the control file", ACT(O_CONTROL) },
	{ "kernel", 0, 1020, true, false, 0, "VERSION",
	  "the query language of Linux VERSION, e.g. 6.1 (default: the running one)",
	  ACT(O_KERNEL) },
	{ "expand", 0, 'X', false, true, C_COMMIT | C_INFO | C_STATUS, NULL,
	  "expand negated queries even if the kernel parses them",
	  OPT(expand) },
	{ "backend", 'B', 'B', true, false, 0, "NAME", "auto (default), control or netlink", ACT(O_BACKEND) },
	{ "keep-going", 'k', 'k', false, false, C_SHELL, NULL, "shell: go on after an error in a script",
	  OPT(keep_going) },
	{ "raw", 0, 1001, false, true, C_FOLLOW | C_RUN, NULL, "follow, run: keep the kernel's decoration on each line",
	  OPT(raw) },
	{ "all", 0, 1002, false, true, C_FOLLOW | C_RUN, NULL, "follow, run: also the lines of other sources",
	  OPT(all) },
	{ "since-boot", 0, 1003, false, true, C_FOLLOW | C_RUN, NULL,
	  "follow, run: include the messages already in the kernel log", OPT(since_boot) },
	{ "device", 0, 1013, true, true, C_FOLLOW | C_RUN, "DEV",
	  "follow, run: only the lines of device DEV (its DEVICE= value, e.g. +pci:0000:00:03.0, or its name)",
	  OPT(device) },
	{ "grep", 0, 1014, true, true, C_FOLLOW | C_RUN, "PATTERN",
	  "follow, run: only the lines whose message matches PATTERN (an extended regex)", OPT(grep) },
	{ "since", 0, 1015, true, true, C_FOLLOW | C_RUN, "TIME",
	  "follow, run: the logged lines from TIME on: seconds since boot (12.5) or ago (30s, 5min, 2h)",
	  OPT(since) },
	{ "lines", 'n', 'n', true, true, C_FOLLOW | C_RUN, "N", "follow, run: stop after N lines", OPT(lines) },
	{ "timestamps", 0, 1016, OPT_OPTIONAL, true, C_FOLLOW | C_RUN, "[=WHEN]",
	  "follow, run: each line's time, WHEN: monotonic (since boot, the default) or realtime", OPT(timestamps) },
	{ "for", 0, 1017, true, false, C_FOLLOW | C_RUN | C_SET, "DURATION",
	  "follow, run, set: restore the sites after DURATION (30s, 5min, 2h)", OPT(duration) },
	{ "max-rate", 0, 1018, true, true, C_FOLLOW | C_RUN, "N/s",
	  "follow, run: restore at once when the sites print over N lines a second (default 5000; 0: off)",
	  OPT(max_rate) },
	{ "max-lines", 0, 1019, true, true, C_FOLLOW | C_RUN, "N",
	  "follow, run: end the session after N lines of the followed sites, shown or not", OPT(max_lines) },
	{ "stats", 0, 1004, false, true, C_FOLLOW | C_RUN, NULL, "follow, run: per-callsite counts while running too",
	  OPT(stats) },
	{ "top", 0, 1005, false, true, C_FOLLOW | C_RUN, NULL, "follow, run: only the per-callsite counts, refreshed",
	  OPT(top) },
	{ "kmsg", 0, 1006, true, false, C_FOLLOW | C_RUN, "PATH",
	  "follow, run: read the kernel log from PATH (/dev/kmsg format)", OPT(kmsg) },
	{ "cmdline", 0, 1021, false, false, C_PERSIST, NULL,
	  "persist: print the kernel command line's dyndbg= words of the configuration or of QUERY...",
	  OPT_ARITY(cmdline, &file_arity, C_PERSIST) },
	{ "restore", 0, 1007, false, true, C_SESSIONS, NULL, "sessions: restore the callsites of ended sessions",
	  OPT(restore) },
	{ "boot", 0, 1008, false, true, C_SAVE, NULL, "save: the boot snapshot /run/ddctl/boot.conf, unless it exists",
	  OPT_ARITY(boot, &boot_arity, C_SAVE) },
	{ "capture-writes", 0, 1009, true, false, 0, "FILE",
	  "append what would be written to the kernel to FILE instead (tests)", ACT(O_CAPTURE) },
	{ "help", 'h', 'h', false, true, 0, NULL, "show this help", ACT(O_HELP) },
	{ "version", 'V', 'V', false, false, 0, NULL, "show the version", ACT(O_VERSION) },
};

#define N_OPTS (sizeof(options) / sizeof(options[0]))

/* Does option @o apply to @cmd (NULL: to every command, for the overview)? */
static bool applies_to(const struct cli_option *o, const struct cli_command *cmd)
{
	return !cmd || !o->commands || (o->commands & cmd->bit);
}

/*
 * The option list of --help; @shell: only what applies to a shell line;
 * @cmd: only what applies to that command (NULL: all).
 */
static void print_options(FILE *f, bool shell, const struct cli_command *cmd)
{
	size_t i;

	for (i = 0; i < N_OPTS; i++) {
		char left[40];
		int c = options[i].shortopt;

		if ((shell && !options[i].shell) || !applies_to(&options[i], cmd))
			continue;
		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", c ? "-" : " ",
			 c ? c : ' ', c ? ", " : "  ", options[i].name,
			 options[i].arg && options[i].has_arg != OPT_OPTIONAL ? " " : "",
			 options[i].arg ? options[i].arg : "");
		fprintf(f, "  %-24s %s\n", left, options[i].help);
	}
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: ddctl [OPTIONS] COMMAND [ARGS]\n"
		   "       ddctl [OPTIONS] -f FILE\n\nCommands:\n");
	for (i = 0; i < N_COMMANDS; i++)
		if (commands[i].name[0] != '_')
			fprintf(f, "  %-12s %-12s %s\n", commands[i].name,
				commands[i].args, commands[i].help);
	fprintf(f, "\nOptions:\n");
	print_options(f, false, NULL);
	fprintf(f, "\nA query is match-specs (func, file, module, format, line, class;\n"
		   "module, file, func and format may be negated: '!module virtio*')\n"
		   "followed by flags: [+-=][pmfsltd_] (ddctl help flags; s: Linux 6.6+,\n"
		   "d: 7.2+). Queries are separated by ';'.\n"
		   "Options may also follow the command; '--' ends them.\n"
		   "Exit status: 0 success, 1 the kernel or the system refused,\n"
		   "2 usage or query error. See ddctl(8).\n");
}

static const struct cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* `ddctl COMMAND --help`, `ddctl help COMMAND`. */
static void command_usage(FILE *f, const struct cli_command *cmd, bool shell)
{
	const char *p, *nl;

	fprintf(f, "Usage: %s%s %s\n%s.\n", shell ? "" : "ddctl [OPTIONS] ",
		cmd->name, cmd->args, cmd->help);
	if (cmd->grammar)
		fprintf(f, "%s.\n", cmd->grammar);
	fprintf(f, "\nOptions:\n");
	print_options(f, shell, cmd);
	if (!cmd->examples)
		return;
	fprintf(f, "\nExamples:\n");
	for (p = cmd->examples; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		/* the shell runs the same line without "ddctl " */
		if (shell && !strncmp(p, "ddctl ", 6))
			p += 6;
		fprintf(f, "  %.*s\n", (int)(nl - p), p);
	}
}

/* The command names, NULL-terminated, for did-you-mean. */
static const char *const *command_names(void)
{
	static const char *names[N_COMMANDS + 1];
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	return names;
}

/* help flags: the letters, what each does, which this kernel has. */
static void flags_help(struct cli *cli)
{
	unsigned int bit, have = ddctl_get_query_flags(cli->ctx);
	const char *kernel = ddctl_get_kernel(cli->ctx), *what, *since;
	size_t i;
	char c;

	printf("Flags: an operator (+ adds, - removes, = sets exactly) and letters, e.g. +pmfl\n");
	for (i = 0; ddctl_flag_get_info(i, &c, &bit, &what, &since) == 0; i++) {
		printf("  %c  %-*s", c, *since ? 46 : 0, what);
		if (*since)
			printf("  Linux %s and later%s", since,
			       kernel && !(have & bit) ? " (not this kernel)" : "");
		printf("\n");
	}
	printf("m f s l t decorate the message as module:function:file:line: ([tid] first);\n"
	       "the kernel prints the flags in this order (=pmfslt), =_ for none.\n");
	if (kernel)
		printf("This kernel: %s (--kernel VERSION for another).\n", kernel);
	else
		printf("The kernel of the control file is not known: every flag is taken\n"
		       "(--kernel VERSION or DDCTL_KERNEL names it).\n");
}

static int cmd_help(struct cli *cli, const struct cli_opts *opts, int argc, char **argv)
{
	const struct cli_command *cmd;

	if (argc < 1) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc == 1 && !strcmp(argv[0], "flags")) {
		flags_help(cli);
		return EXIT_OK;
	}
	cmd = find_command(argv[0]);
	if (!cmd || argc > 1) {
		cli_error(cli, "help: unknown command '%s'%s\n", argv[0],
			  cli_suggest(argv[0], command_names()));
		return EXIT_USAGE;
	}
	command_usage(stdout, cmd, cli->in_shell);
	return EXIT_OK;
}

/* Is @word query flags ("-p", "-pf", "+p") rather than an option? */
static bool is_flags_word(const char *word)
{
	return word[0] == '-' && word[1] && strspn(word + 1, "pmfsltd_") == strlen(word + 1);
}

static const struct cli_option *find_short(char c)
{
	size_t i;

	for (i = 0; c && i < N_OPTS; i++)
		if (options[i].shortopt == c)
			return &options[i];
	return NULL;
}

static const struct cli_option *find_long(const char *word)
{
	size_t i, len = strcspn(word, "=");
	const struct cli_option *found = NULL;

	for (i = 0; i < N_OPTS; i++) {
		if (strncmp(options[i].name, word, len))
			continue;
		if (strlen(options[i].name) == len)
			return &options[i];
		found = found ? NULL : &options[i]; /* a unique prefix */
	}
	return found;
}

/*
 * After the command name: is @word an option (not query flags "-p" or a
 * query word)? *@takes_next: its argument is the next word. @flag_words:
 * the command takes queries with flags, so "-l" is flags, not --full.
 */
static bool is_option(const char *word, bool *takes_next, bool flag_words)
{
	const struct cli_option *o;
	const char *p;

	*takes_next = false;
	if (word[0] != '-' || !word[1] || (flag_words && is_flags_word(word)))
		return false;
	if (word[1] == '-') {
		o = find_long(word + 2);
		*takes_next = o && o->has_arg == 1 && !strchr(word, '=');
		return true;
	}
	for (p = word + 1; *p; p++) {
		o = find_short(*p);
		if (!o || o->shortopt == 'f')
			return false;
		if (o->has_arg) {
			*takes_next = !p[1];
			return true;
		}
	}
	return true;
}

/* Is @word, after a command, an option rather than query words? */
static bool is_option_word(const char *word, bool *takes_next)
{
	return is_option(word, takes_next, true);
}

/*
 * Options go anywhere after the command: move them (and their arguments)
 * before the other words, stably. Returns the number of option words;
 * *@dashdash: a "--" follows them. @keep: the "--" stays in place among
 * the other words instead (ddctl run QUERY... -- COMMAND).
 */
static int hoist_options(int argc, char **argv, bool *dashdash, bool keep,
			 bool flag_words)
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
		} else if (is_option(argv[i], &next, flag_words)) {
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
		names[i] = options[i].name;
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

static int set_backend(struct cli *cli, const char *name)
{
	if (!strcmp(name, "auto"))
		ddctl_set_backend(cli->ctx, DDCTL_BACKEND_AUTO);
	else if (!strcmp(name, "control"))
		ddctl_set_backend(cli->ctx, DDCTL_BACKEND_CONTROL);
	else if (!strcmp(name, "netlink"))
		ddctl_set_backend(cli->ctx, DDCTL_BACKEND_NETLINK);
	else {
		cli_error(cli, "unknown backend '%s' (auto, control or netlink)\n", name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int set_color(struct cli *cli, const char *when)
{
	static const char *const names[] = { "auto", "always", "never", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(when, names[i])) {
			cli->color = (int)i;
			return EXIT_OK;
		}
	cli_error(cli, "--color: unknown value '%s' (auto, always or never)%s\n", when,
		  cli_suggest(when, names));
	return EXIT_USAGE;
}

/* -V: the tool, the library it runs with, and what the build has (as nft -V). */
static void print_version(void)
{
	Dl_info lib;

	printf("ddctl %s\n", DDCTL_VERSION);
	if (dladdr((void *)ddctl_new, &lib) && lib.dli_fname)
		printf("  library:  %s\n", lib.dli_fname);
	printf("  features: +netlink +libkmod +readline %csystemd\n",
	       DDCTL_SYSTEMD ? '+' : '-');
}

/* Where option @o's value lives in @opts. */
static void *opt_field(const struct cli_option *o, struct cli_opts *opts)
{
	return (char *)opts + o->offset;
}

/* Apply option @o (@arg: its argument); EXIT_HELP: help was printed. */
static int apply_option(struct cli *cli, struct cli_opts *opts, const struct cli_option *o,
			const struct cli_command *cmd, const char *arg)
{
	switch (o->kind) {
	case O_CLI:
		*(bool *)((char *)cli + o->offset) = true;
		return EXIT_OK;
	case O_OPTS:
		if (o->has_arg)
			*(const char **)opt_field(o, opts) = arg ? arg : "";
		else
			*(bool *)opt_field(o, opts) = true;
		return EXIT_OK;
	case O_BACKEND:
		return set_backend(cli, arg);
	case O_CAPTURE:
		return ddctl_set_write_capture(cli->ctx, arg) < 0 ? EXIT_REFUSED : EXIT_OK;
	case O_CONTROL:
		return ddctl_set_control_path(cli->ctx, arg) < 0 ? EXIT_REFUSED : EXIT_OK;
	case O_KERNEL:
		if (!*arg || ddctl_set_kernel(cli->ctx, arg) < 0) {
			cli_error(cli, "--kernel: a release such as 6.1 or 6.12.57, not '%s'\n", arg);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case O_HELP:
		if (!cmd) {
			usage(stdout);
			exit(EXIT_OK);
		}
		command_usage(stdout, cmd, cli->in_shell);
		return EXIT_HELP; /* the shell goes on */
	case O_VERSION:
		print_version();
		exit(EXIT_OK);
	case O_COLOR:
		return set_color(cli, arg);
	}
	return EXIT_OK;
}

/*
 * Parse options. Before the command, the first word that is not an option
 * is the command; after it, options may come anywhere and a word that
 * looks like query flags ("-p", "-pf") is a query word.
 */
static int parse_options(struct cli *cli, struct cli_opts *opts, int argc, char **argv,
			 const struct cli_command *cmd, int *consumed)
{
	struct option lo[N_OPTS + 1];
	char optstring[3 * N_OPTS + 3] = "+:"; /* zero-filled */
	bool dashdash = false;
	size_t i, len = 2;
	int c, r, end = argc;

	for (i = 0; i < N_OPTS; i++) {
		lo[i] = (struct option){ options[i].name,
					 options[i].has_arg == OPT_OPTIONAL ? optional_argument :
					 options[i].has_arg ? required_argument : no_argument,
					 NULL, options[i].val };
		if (!options[i].shortopt || (cmd && options[i].shortopt == 'f'))
			continue;
		optstring[len++] = options[i].shortopt;
		if (options[i].has_arg)
			optstring[len++] = ':';
	}
	memset(&lo[i], 0, sizeof(lo[i]));
	if (cmd) {
		/* a command that is not one of the table's: the shell's own */
		end = hoist_options(argc, argv, &dashdash, cmd->keep_dashdash,
				    !cmd->bit || (cmd->bit & C_FLAGS));
		if (end < 0)
			return EXIT_REFUSED;
	}
	optind = 0; /* glibc: start afresh, the shell parses many argv */
	opterr = 0;
	while ((c = getopt_long(end, argv, optstring, lo, NULL)) >= 0) {
		const struct cli_option *o = NULL;

		for (i = 0; i < N_OPTS; i++)
			if (options[i].val == c)
				o = &options[i];
		if (c != '?' && c != ':' && cli->in_shell && o && !o->shell) {
			cli_error(cli, "option '%s' does not apply in the shell\n",
				  argv[optind - 1]);
			return EXIT_USAGE;
		}
		if (c == '?' || c == ':' || !o) {
			option_error(cli, c, argv);
			return EXIT_USAGE;
		}
		opts->given |= 1ULL << (o - options);
		r = apply_option(cli, opts, o, cmd, optarg);
		if (r)
			return r;
	}
	*consumed = cmd ? end + dashdash : optind;
	return EXIT_OK;
}

/* The options after the command name argv[0]: argv mode and the shell. */
static int parse_command_options(struct cli *cli, struct cli_opts *opts, int argc,
				 char **argv, int *consumed)
{
	const struct cli_command *cmd = find_command(argv[0]);
	struct cli_command other = { argv[0], NULL, "", "", 0, ANY, false, NULL, NULL };
	int r = parse_options(cli, opts, argc, argv, cmd ? cmd : &other, consumed);

	if (r == 0 && opts->expand)
		ddctl_set_features(cli->ctx, DDCTL_FEATURE_CONTROL);
	return r;
}

/* The arguments @cmd takes: its own, or those an option given changes. */
static const struct cli_arity *arity_of(const struct cli_command *cmd,
					struct cli_opts *opts)
{
	size_t i;

	for (i = 0; i < N_OPTS; i++) {
		const struct cli_option *o = &options[i];
		void *field = opt_field(o, opts);

		if (!o->arity || !(o->arity_for & cmd->bit))
			continue;
		if (o->has_arg ? *(const char **)field != NULL : *(bool *)field)
			return o->arity;
	}
	return &cmd->arity;
}

/*
 * An option given (before or after the command) that @cmd does not take is
 * an error naming the commands that do, not silently ignored.
 */
static int check_applies(struct cli *cli, const struct cli_opts *opts,
			 const struct cli_command *cmd)
{
	char takers[256];
	size_t i, j, len;

	/* the shell's options are its lines' defaults: any a line may take */
	if (cmd->bit & (C_HELP | C_COMPLETE | C_SHELL))
		return EXIT_OK;
	for (i = 0; i < N_OPTS; i++) {
		if (!(opts->given & (1ULL << i)) || applies_to(&options[i], cmd))
			continue;
		takers[0] = '\0';
		for (j = 0, len = 0; j < N_COMMANDS && len < sizeof(takers); j++)
			if ((options[i].commands & commands[j].bit) &&
			    commands[j].name[0] != '_')
				len += (size_t)snprintf(takers + len, sizeof(takers) - len, "%s%s",
							len ? ", " : "", commands[j].name);
		cli_error(cli, "option '--%s' does not apply to %s (it is for: %s; see %s%s --help)\n",
			  options[i].name, cmd->name, takers, cli->in_shell ? "" : "ddctl ",
			  cmd->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Run argv[0] with its options and arguments: argv mode and the shell. */
static int cli_run_command(struct cli *cli, struct cli_opts *opts, int argc, char **argv)
{
	const struct cli_command *cmd = find_command(argv[0]);
	int r, n;

	if (!cmd) {
		cli_error(cli, "unknown command '%s'%s (see %s)\n", argv[0],
			  cli_suggest(argv[0], command_names()),
			  cli->in_shell ? "help" : "ddctl --help");
		return EXIT_USAGE;
	}
	r = parse_command_options(cli, opts, argc, argv, &n);
	if (r == EXIT_HELP)
		return EXIT_OK;
	if (!r)
		r = check_applies(cli, opts, cmd);
	if (!r)
		r = cli_check_arity(cli, arity_of(cmd, opts), argc - n);
	if (r)
		return r;
	json_set_pretty(cli->pretty);
	return cmd->run(cli, opts, argc - n, argv + n);
}

static const struct shell_host host = {
	.commands = commands,
	.ncommands = N_COMMANDS,
	.run = cli_run_command,
	.parse_options = parse_command_options,
	.is_option_word = is_option_word,
	.command_usage = command_usage,
	.print_options = print_options,
};

static int run_shell(struct cli *cli, const struct cli_opts *opts, int argc, char **argv)
{
	return shell_main(cli, opts, &host);
}

int cli_dispatch(struct cli *cli, int argc, char **argv)
{
	struct cli_opts opts = { 0 };
	char *shell[] = { "shell", NULL };
	int r, n;

	r = parse_options(cli, &opts, argc, argv, NULL, &n);
	if (r)
		return r;
	argc -= n;
	argv += n;
	if (opts.expand)
		ddctl_set_features(cli->ctx, DDCTL_FEATURE_CONTROL);
	if (argc < 1 || strcmp(argv[0], "sessions"))
		cli_check_sessions(cli); /* killed follow/run sessions */
	if (opts.file) {
		if (argc > 0) {
			cli_error(cli, "-f takes no command\n");
			return EXIT_USAGE;
		}
		return cmd_set(cli, &opts, 0, NULL);
	}
	if (argc < 1 && !isatty(STDIN_FILENO)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	return cli_run_command(cli, &opts, argc < 1 ? 1 : argc, argc < 1 ? shell : argv);
}
