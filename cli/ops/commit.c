// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Commit a set as one transaction (or --check it) and report it: the one
 * way every command and the shell change the kernel's state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/commit.h"
#include "ops/state.h"
#include "output/json.h"
#include "output/message.h"
#include "output/progress.h"

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

/* The members after "changes", the same for every set --json. */
static void json_tail(struct json_writer *w, unsigned int writes, bool expanded,
		      bool verified, long keys)
{
	json_key(w, "writes");
	json_uint(w, writes);
	json_key(w, "split");
	json_bool(w, writes > 1);
	json_key(w, "expanded");
	json_bool(w, expanded);
	json_key(w, "verified");
	json_bool(w, verified);
	json_key(w, "keys_patched");
	if (keys >= 0)
		json_int(w, keys);
	else
		json_null(w);
}

static void json_begin(struct json_writer *w, const struct cli_commit *how)
{
	json_init(w, stdout);
	json_begin_object(w);
	if (how->json_head)
		how->json_head(w, how->data);
}

static void print_json(struct cli *cli, struct ddctl_queryset *set,
		       struct ddctl_txn *txn, const struct cli_commit *how)
{
	struct ddctl_plan *plan = ddctl_txn_get_plan(txn);
	char a[DDCTL_FLAGS_BUFSZ], b[DDCTL_FLAGS_BUFSZ];
	const struct ddctl_site *site;
	struct json_writer w;
	unsigned int of, nf, m, c;
	size_t i;

	json_begin(&w, how);
	json_key(&w, "queries");
	json_begin_array(&w);
	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		query_counts(txn, i, &m, &c);
		json_begin_object(&w);
		json_key(&w, "query");
		json_string(&w, ddctl_query_get_text(ddctl_queryset_get_query(set, i)));
		json_key(&w, "matched");
		json_uint(&w, m);
		json_key(&w, "changed");
		json_uint(&w, c);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_key(&w, "changes");
	json_begin_array(&w);
	for (i = 0; i < ddctl_plan_get_change_count(plan); i++) {
		ddctl_plan_get_change(plan, i, &site, &of, &nf);
		json_begin_object(&w);
		json_site(&w, site);
		json_key(&w, "old");
		json_string(&w, ddctl_flags_format(of, a));
		json_key(&w, "new");
		json_string(&w, ddctl_flags_format(nf, b));
		json_end_object(&w);
	}
	json_end_array(&w);
	json_tail(&w, cli->check ? 0 : ddctl_txn_get_write_count(txn),
		  ddctl_txn_was_expanded(txn), !cli->check && ddctl_txn_was_verified(txn),
		  cli->check ? -1 : ddctl_txn_get_keys_patched(txn));
	json_end_object(&w);
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

/* An empty set: the JSON of one, or "nothing to change" when @say. */
static int print_nothing(struct cli *cli, const struct cli_commit *how, bool say)
{
	struct json_writer w;

	if (cli->json) {
		json_begin(&w, how);
		json_key(&w, "queries");
		json_begin_array(&w);
		json_end_array(&w);
		json_key(&w, "changes");
		json_begin_array(&w);
		json_end_array(&w);
		json_tail(&w, 0, false, false, -1);
		json_end_object(&w);
	} else if (say) {
		printf("nothing to change\n");
	}
	return EXIT_OK;
}

/* Why the set was not committed, unless the library has said it. */
static void report_failure(struct cli *cli, struct ddctl_txn *txn, int r)
{
	if (cli_lib_error())
		return;
	if (ddctl_txn_get_kernel_message(txn))
		cli_error(cli, "the kernel refused the set, nothing was changed: %s\n",
			  ddctl_txn_get_kernel_message(txn));
	else if (r == -ENOENT)
		cli_error(cli, "%s\n", CLI_NO_CONTROL);
	else
		cli_error(cli, "%s%s\n", strerror(-r),
			  r == -EACCES || r == -EPERM ?
			  " (writing the control file needs root); nothing was changed" : "");
}

/*
 * Commit @set as one transaction (or --check it) and report as `set` does;
 * @how->quiet: a session's own change, only a refusal is reported. An
 * empty set changes nothing and succeeds. Returns an exit status;
 * @how->error gets the library's -errno.
 */
int cli_set_commit(struct cli *cli, struct ddctl_queryset *set,
		   struct cli_commit *how)
{
	struct ddctl_txn *txn = NULL;
	int r, st;

	how->error = 0;
	if (ddctl_queryset_get_count(set) == 0)
		return how->quiet ? EXIT_OK :
		       print_nothing(cli, how, cli->check || cli->verbose);
	cli_lib_error_forget();
	r = ddctl_txn_new(cli->ctx, set, &txn);
	if (r == 0 && how->table)
		ddctl_txn_set_table(txn, how->table);
	if (r == 0 && !how->quiet) {
		ddctl_txn_set_flags(txn, cli->check ? DDCTL_TXN_CHECK : 0);
		cli_progress_attach(cli, txn);
	}
	if (r == 0)
		r = ddctl_txn_commit(txn);
	how->error = r < 0 ? r : 0;
	if (how->quiet) {
		if (r < 0 && ddctl_txn_get_kernel_message(txn))
			cli_error(cli, "the kernel refused the set: %s\n",
				  ddctl_txn_get_kernel_message(txn));
		st = r < 0 ? EXIT_REFUSED : EXIT_OK;
		goto out;
	}
	if (r < 0 && r != -EPROTO) {
		report_failure(cli, txn, r);
		st = txn ? EXIT_REFUSED : cli_errno_status(r);
		goto out;
	}
	if (cli->json)
		print_json(cli, set, txn, how);
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
	struct cli_commit how = { 0 };

	return print_nothing(cli, &how, !cli->quiet);
}

/* Bring the state to what @script gives, as one set (restore, reset). */
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *table = NULL;
	struct cli_commit how = { 0 };
	int r, st = cli_read_table(cli, &table);

	if (st)
		return st;
	r = ddctl_queryset_new_from_script(cli->ctx, table, script, &set);
	if (r < 0) {
		cli_error(cli, "cannot restore %s: %s\n", what, strerror(-r));
		st = cli_errno_status(r);
	} else {
		how.table = table;
		st = cli_set_commit(cli, set, &how);
	}
	ddctl_queryset_unref(set);
	ddctl_table_unref(table);
	return st;
}
