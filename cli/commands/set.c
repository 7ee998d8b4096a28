// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * ddctl set / ddctl -f: apply queries as one set, or --check them. A query
 * that selects nothing is said (a module that exists nowhere is an error);
 * on a terminal, a set that enables thousands of sites asks first.
 * --for DURATION: a session that restores the sites when the time is up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands/commands.h"
#include "ops/commit.h"
#include "ops/follow.h"
#include "ops/guard.h"
#include "ops/input.h"
#include "ops/nomatch.h"
#include "ops/state.h"
#include "output/message.h"

/* More newly printing sites than this ask first, on a terminal. */
#define ASK_ABOVE 2000

/* The sites the plan switches printing on for. */
static size_t newly_enabled(struct ddctl_plan *plan)
{
	size_t i, n = 0;
	const struct ddctl_site *site;
	unsigned int of, nf;

	for (i = 0; i < ddctl_plan_get_change_count(plan); i++) {
		ddctl_plan_get_change(plan, i, &site, &of, &nf);
		n += !(of & DDCTL_FLAG_PRINT) && (nf & DDCTL_FLAG_PRINT);
	}
	return n;
}

/* On a terminal, unless --yes: go on? Without a terminal, never asked. */
static bool confirmed(struct cli *cli, const struct cli_opts *opts, size_t enabled)
{
	char answer[16] = "";

	if (enabled <= ASK_ABOVE || opts->yes || cli->check || cli->json ||
	    !isatty(STDIN_FILENO) || !isatty(STDERR_FILENO) || opts->file)
		return true;
	fprintf(stderr, "ddctl: this set enables %zu sites, which may flood the kernel log and the console. Go on? [y/N] ",
		enabled);
	fflush(stderr);
	if (!fgets(answer, sizeof(answer), stdin))
		return false;
	return answer[0] == 'y' || answer[0] == 'Y';
}

/*
 * The prediction before the commit: why a query selects nothing, and the
 * question before a large set. EXIT_OK: go on and commit.
 */
static int before_commit(struct cli *cli, const struct cli_opts *opts,
			 struct ddctl_queryset *set, struct ddctl_table *table)
{
	size_t i, n = ddctl_queryset_get_count(set);
	struct ddctl_plan *plan = NULL;
	unsigned int *matched = calloc(n + 1, sizeof(*matched));
	int st = EXIT_OK;

	if (!matched || ddctl_plan_new(set, table, &plan) < 0) {
		free(matched);
		return EXIT_OK; /* the commit says what is wrong */
	}
	for (i = 0; i < n; i++)
		matched[i] = ddctl_plan_get_matched(plan, i);
	st = cli_explain_empty(cli, set, table, matched, !opts->file);
	if (st)
		cli_error(cli, "nothing was changed\n");
	else if (!confirmed(cli, opts, newly_enabled(plan))) {
		cli_error(cli, "nothing was changed\n");
		st = EXIT_REFUSED;
	}
	ddctl_plan_unref(plan);
	free(matched);
	return st;
}

int cmd_set(struct cli *cli, const struct cli_opts *opts, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	struct cli_commit how = { 0 };
	struct ddctl_table *table = NULL;
	struct session_guard guard;
	char *text;
	int st;

	/* a --for that makes no sense is a usage error before anything */
	if (opts->duration && (st = cli_guard_init(cli, opts, false, &guard)))
		return st;
	if (opts->file) {
		st = cli_parse_file(cli, opts->file, &set, NULL);
		if (!st && ddctl_queryset_get_count(set) == 0) {
			st = cli_nothing_to_change(cli);
			goto out;
		}
	} else {
		text = cli_join_args(argc, argv);
		if (!text)
			return EXIT_REFUSED;
		st = cli_parse_queries(cli, text, 0, &set);
		free(text);
		if (!st && ddctl_queryset_get_count(set) == 0) {
			cli_error(cli, "no queries given\n");
			st = EXIT_USAGE;
		}
	}
	if (!st)
		st = cli_read_table(cli, &table);
	if (!st)
		st = before_commit(cli, opts, set, table);
	how.table = table;
	if (!st && opts->duration) /* a session: recorded, restored in time */
		st = cli_timed_set(cli, opts, set, argc, argv);
	else if (!st)
		st = cli_set_commit(cli, set, &how);
out:
	ddctl_table_unref(table);
	ddctl_queryset_unref(set);
	return st;
}
