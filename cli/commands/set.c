// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* ddctl set / ddctl -f: apply queries as one set, or --check them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void print_json_tail(unsigned int writes, bool expanded, bool verified,
			    long keys);

/* Per-query counts: the kernel's when it reported them, else predicted. */
static void query_counts(struct ddctl_txn *txn, size_t i, unsigned int *m,
			 unsigned int *c)
{
	struct ddctl_plan *plan = ddctl_txn_get_plan(txn);

	if (ddctl_txn_get_kernel_counts(txn, i, m, c) == 0)
		return;
	*m = ddctl_plan_get_matched(plan, i);
	*c = ddctl_plan_get_changed(plan, i);
}

static void print_json(struct cli *cli, struct ddctl_queryset *set,
		       struct ddctl_txn *txn, bool check)
{
	struct ddctl_plan *plan = ddctl_txn_get_plan(txn);
	char a[DDCTL_FLAGS_BUFSZ], b[DDCTL_FLAGS_BUFSZ];
	const struct ddctl_site *site;
	unsigned int of, nf;
	size_t i;

	printf("{%s\"queries\":[", cli->json_head ? cli->json_head : "");
	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		unsigned int m, c;

		query_counts(txn, i, &m, &c);
		printf("%s{\"query\":", i ? "," : "");
		json_string(stdout, ddctl_query_get_text(ddctl_queryset_get_query(set, i)));
		printf(",\"matched\":%u,\"changed\":%u}", m, c);
	}
	printf("],\"changes\":[");
	for (i = 0; i < ddctl_plan_get_change_count(plan); i++) {
		ddctl_plan_get_change(plan, i, &site, &of, &nf);
		printf("%s{", i ? "," : "");
		json_site_fields(stdout, site);
		printf(",\"old\":\"%s\",\"new\":\"%s\"}",
		       ddctl_flags_format(of, a), ddctl_flags_format(nf, b));
	}
	printf("]");
	print_json_tail(check ? 0 : ddctl_txn_get_write_count(txn),
			ddctl_txn_was_expanded(txn), !check && ddctl_txn_was_verified(txn),
			check ? -1 : ddctl_txn_get_keys_patched(txn));
}

/* The members after "changes", the same for every set --json. */
static void print_json_tail(unsigned int writes, bool expanded, bool verified,
			    long keys)
{
	printf(",\"writes\":%u,\"split\":%s,\"expanded\":%s,\"verified\":%s,\"keys_patched\":",
	       writes, writes > 1 ? "true" : "false", expanded ? "true" : "false",
	       verified ? "true" : "false");
	if (keys >= 0)
		printf("%ld}\n", keys);
	else
		printf("null}\n");
}

static void print_text(struct cli *cli, struct ddctl_queryset *set,
		       struct ddctl_txn *txn)
{
	struct ddctl_plan *plan = ddctl_txn_get_plan(txn);
	char a[DDCTL_FLAGS_BUFSZ], b[DDCTL_FLAGS_BUFSZ];
	const struct ddctl_site *site;
	size_t i, n = ddctl_plan_get_change_count(plan);
	unsigned int of, nf;

	if (cli->verbose || cli->check) {
		for (i = 0; i < ddctl_queryset_get_count(set); i++) {
			unsigned int m, c;

			query_counts(txn, i, &m, &c);
			printf("query %zu: %-40s matched %u, changed %u%s\n", i + 1,
			       ddctl_query_get_text(ddctl_queryset_get_query(set, i)),
			       m, c, ddctl_txn_get_kernel_counts(txn, i, NULL, NULL) == 0 ?
			       " (kernel)" : "");
		}
	}
	if (cli->check) {
		for (i = 0; i < n; i++) {
			ddctl_plan_get_change(plan, i, &site, &of, &nf);
			printf("%s:%u [%s]%s %s -> %s\n", ddctl_site_get_file(site),
			       ddctl_site_get_line(site), ddctl_site_get_module(site),
			       ddctl_site_get_function(site),
			       ddctl_flags_format(of, a), ddctl_flags_format(nf, b));
		}
		printf("would change %zu site%s\n", n, n == 1 ? "" : "s");
		return;
	}
	if (cli->verbose) {
		printf("changed %zu site%s in %u write%s%s\n", n, n == 1 ? "" : "s",
		       ddctl_txn_get_write_count(txn),
		       ddctl_txn_get_write_count(txn) == 1 ? "" : "s",
		       ddctl_txn_was_expanded(txn) ? " (negation expanded by ddctl)" : "");
		if (ddctl_txn_get_keys_patched(txn) >= 0)
			printf("the kernel patched %ld static key%s in one transaction\n",
			       ddctl_txn_get_keys_patched(txn),
			       ddctl_txn_get_keys_patched(txn) == 1 ? "" : "s");
	}
	if (ddctl_txn_get_write_count(txn) > 1 && !cli->quiet)
		cli_error(cli, "the set was longer than the kernel accepts in one write: split into %u writes\n",
			ddctl_txn_get_write_count(txn));
}

/*
 * Commit @set as one transaction (or --check it) and report as `set` does.
 * @table, when not NULL, is the current state the set was computed from.
 * An empty set changes nothing and succeeds.
 */
/* An empty set: the JSON of one, or "nothing to change" when @say. */
static int print_nothing(struct cli *cli, bool say)
{
	if (cli->json) {
		printf("{%s\"queries\":[],\"changes\":[]",
		       cli->json_head ? cli->json_head : "");
		print_json_tail(0, false, false, -1);
	} else if (say) {
		printf("nothing to change\n");
	}
	return EXIT_OK;
}

int cli_commit_set(struct cli *cli, struct ddctl_queryset *set,
		   struct ddctl_table *table)
{
	unsigned int errors = cli->lib_errors;
	struct ddctl_txn *txn = NULL;
	int r, st;

	if (ddctl_queryset_get_count(set) == 0)
		return print_nothing(cli, cli->check || cli->verbose);
	r = ddctl_txn_new(cli->ctx, set, &txn);
	if (r == 0 && table)
		ddctl_txn_set_table(txn, table);
	if (r == 0) {
		ddctl_txn_set_flags(txn, cli->check ? DDCTL_TXN_CHECK : 0);
		cli_progress_attach(cli, txn);
		r = ddctl_txn_commit(txn);
	}
	if (r < 0 && r != -EPROTO) {
		if (cli->lib_errors != errors) /* libddctl has said why */
			;
		else if (ddctl_txn_get_kernel_message(txn))
			cli_error(cli, "the kernel refused the set, nothing was changed: %s\n",
				  ddctl_txn_get_kernel_message(txn));
		else if (r == -ENOENT)
			cli_error(cli, "%s\n", CLI_NO_CONTROL);
		else
			cli_error(cli, "%s%s\n", strerror(-r),
				r == -EACCES || r == -EPERM ?
				" (writing the control file needs root); nothing was changed" : "");
		st = txn ? EXIT_REFUSED : cli_errno_status(r);
		goto out;
	}
	if (cli->json)
		print_json(cli, set, txn, cli->check);
	else
		print_text(cli, set, txn);
	st = r == -EPROTO ? EXIT_REFUSED : EXIT_OK;
	if (r == -EPROTO)
		cli_error(cli, "%zu sites differ from the prediction after writing\n",
			ddctl_txn_get_mismatch_count(txn));
out:
	ddctl_txn_unref(txn);
	return st;
}

/* A file of only comments and blank lines: a valid set that changes nothing. */
int cli_nothing_to_change(struct cli *cli)
{
	return print_nothing(cli, !cli->quiet);
}

int cmd_set(struct cli *cli, int argc, char **argv)
{
	struct ddctl_queryset *set = NULL;
	char *text;
	int st;

	if (cli->file) {
		st = cli_parse_file(cli, cli->file, &set, NULL);
		if (!st && ddctl_queryset_get_count(set) == 0)
			st = cli_nothing_to_change(cli);
		else if (!st)
			st = cli_commit_set(cli, set, NULL);
		goto out;
	}
	if (argc < 1) {
		cli_error(cli, "set needs at least one query\n");
		return EXIT_USAGE;
	}
	text = cli_join_args(argc, argv);
	if (!text)
		return EXIT_REFUSED;
	st = cli_parse_queries(cli, text, 0, &set);
	free(text);
	if (st)
		goto out;
	if (ddctl_queryset_get_count(set) == 0) {
		cli_error(cli, "no queries given\n");
		st = EXIT_USAGE;
		goto out;
	}
	st = cli_commit_set(cli, set, NULL);
out:
	ddctl_queryset_unref(set);
	return st;
}
