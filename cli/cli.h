/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SPDX-FileCopyrightText: the ddctl authors */
/*
 * The CLI's shared context, the options only some commands take, and the
 * shape of a command in the dispatcher's table. Types only: every cli/
 * file may include this.
 */
#ifndef DDCTL_CLI_H
#define DDCTL_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include <ddctl/ddctl.h>

/* Exit statuses, documented in ddctl(8). */
enum {
	EXIT_HELP = -1, /* internal: help was printed, run nothing */
	EXIT_OK = 0,
	EXIT_REFUSED = 1, /* the kernel or the system refused */
	EXIT_USAGE = 2,   /* usage or query error */
	EXIT_DIFFER = 1,  /* diff: the states differ (as diff(1)) */
};

/* What every command and the output share. */
struct cli {
	struct ddctl_ctx *ctx;
	bool json, check, verbose, quiet; /* how a command reports */
	bool no_pager;
	bool pretty;        /* --pretty: JSON indented */
	int color;          /* --color: 0 auto (default), 1 always, 2 never */
	bool in_shell;      /* messages and help for the shell */
	unsigned int line;  /* shell: the script line being run, for messages */
	struct ddctl_table *table; /* shell: the current state; NULL: read it */
};

/*
 * The options that only some commands take (the dispatcher's option table
 * says which), filled by the dispatcher and handed to the command.
 */
struct cli_opts {
	const char *file;   /* set, follow, run: -f, --file */
	bool expand;        /* the dispatcher applies it to the context */
	bool enabled;       /* list, modules */
	bool persistent;    /* list */
	const char *flags, *sort; /* list */
	const char *output; /* list: the columns; follow, run: a FILE */
	bool raw, all, since_boot, stats, top; /* follow, run */
	const char *kmsg;   /* follow, run: a stand-in for /dev/kmsg */
	const char *device, *grep, *since, *lines; /* follow, run: the filters */
	const char *timestamps; /* follow, run: "" or "monotonic", "realtime" */
	const char *duration; /* follow, run, set: --for DURATION */
	const char *max_rate, *max_lines; /* follow, run: the guard */
	bool cmdline;       /* persist: the kernel command line's words */
	bool restore;       /* sessions */
	bool boot;          /* save */
	bool keep_going;    /* shell: go on after an error in a script */
	bool full, no_legend; /* list, modules, sessions: nothing cut; no header */
	bool yes;           /* set: no question before a large set */
	unsigned long long given; /* the dispatcher: the options given, by index */
};

/* How many arguments a command takes, and what it says otherwise. */
struct cli_arity {
	int min, max;       /* max -1: no limit */
	const char *error;  /* the message when the count is outside */
};

/* A command of the dispatcher's table. */
struct cli_command {
	const char *name;
	int (*run)(struct cli *cli, const struct cli_opts *opts, int argc,
		   char **argv);
	const char *args, *help;
	unsigned int bit;       /* which options apply: cli_option.commands */
	struct cli_arity arity;
	bool keep_dashdash;     /* "--" stays among the arguments (run) */
	const char *grammar;    /* help: what the arguments are, or NULL */
	const char *examples;   /* help: one or two, a line each, or NULL */
};

#endif
