// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Commit a set as one transaction (or --check it) and report it: the one
 * way every command and the shell change the kernel's state.
 */
#include <errno.h>
#include <signal.h>
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
	if (txn && ddctl_txn_get_kernel_message(txn))
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
 * @set with module aliases resolved on @table (*@out: a new reference),
 * each resolution said unless @quiet.
 */
int cli_resolve_aliases(struct cli *cli, struct ddctl_queryset *set,
			struct ddctl_table *table, bool quiet,
			struct ddctl_queryset **out)
{
	int r = ddctl_queryset_resolve_aliases(set, table, out);
	size_t i;

	if (r < 0) {
		cli_error(cli, "cannot resolve module aliases: %s\n", strerror(-r));
		return r;
	}
	for (i = 0; !quiet && *out != set && i < ddctl_queryset_get_count(set); i++) {
		const char *a = ddctl_query_get_canonical(ddctl_queryset_get_query(set, i));
		const char *b = ddctl_query_get_canonical(ddctl_queryset_get_query(*out, i));

		if (strcmp(a, b))
			cli_note(cli, "query %zu: an alias resolved: \"%s\" is \"%s\"\n",
				 i + 1, a, b);
	}
	return 0;
}

/*
 * A commit in several writes: a signal that would end ddctl waits until
 * the set is written, then the sites it changed are put back as one set
 * (a half-applied set never stays); a signal that comes only after the
 * last write, or during a set of one write (all or nothing), leaves the
 * set applied: ddctl then just ends by it (the watcher stopped while it
 * applies a module's configuration keeps it); a record of the set under the run
 * directory's sessions, written before the first write, lets
 * 'ddctl sessions --restore' (and the boot unit) undo it if ddctl dies
 * anyway (SIGKILL). The record goes once the commit has ended.
 */
static const int commit_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
};
#define COMMIT_SIGNALS (sizeof(commit_signals) / sizeof(commit_signals[0]))

/* The first of our signals that came while they were blocked, or 0. */
static int pending_signal(const sigset_t *before)
{
	sigset_t pending;
	size_t i;

	if (sigpending(&pending) < 0)
		return 0;
	for (i = 0; i < COMMIT_SIGNALS; i++)
		if (sigismember(&pending, commit_signals[i]) &&
		    !sigismember(before, commit_signals[i]))
			return commit_signals[i];
	return 0;
}

struct journal {
	struct cli *cli;
	struct ddctl_queryset *set;
	struct ddctl_table *before;
	struct ddctl_session *record;
	const sigset_t *mask; /* the signal mask before the commit blocked its signals */
	bool show; /* the status line on the terminal */
	bool cut;  /* a signal came with writes still to go: put the set back */
};

/* Before the first write of a split set: the record that undoes it. */
static void journal_begin(struct journal *j)
{
	int r = ddctl_session_new(j->set, j->before, 0, &j->record);

	if (!r && ddctl_session_get_change_count(j->record))
		r = ddctl_session_save(j->record, "ddctl: a set of several writes");
	if (r < 0)
		cli_error(j->cli, "warning: cannot keep a record of the set: %s; it is not undone if ddctl is killed while writing\n",
			    strerror(-r));
}

static void on_write(void *data, unsigned int done, unsigned int total)
{
	struct journal *j = data;

	if (done == 0 && !j->record)
		journal_begin(j);
	/* one write is all or nothing; a signal after the last changes nothing */
	if (total > 1 && done < total && j->mask && pending_signal(j->mask))
		j->cut = true;
	if (j->show)
		cli_progress_show(done, total);
}

/* After @sig came during the commit of @txn: its changes put back as one set. */
static int undo_interrupted(struct cli *cli, struct journal *j,
			    struct ddctl_txn *txn, int sig)
{
	struct ddctl_table *after = NULL;
	struct ddctl_queryset *undo = NULL;
	struct cli_commit how = { .quiet = true };
	int r;

	cli_error(cli, "%s during the commit: putting back the sites the set changed\n",
		  strsignal(sig));
	r = ddctl_table_new_from_plan(ddctl_txn_get_plan(txn), &after);
	if (!r)
		r = ddctl_queryset_new_restore(cli->ctx, after, j->before, &undo);
	if (!r) {
		how.table = after;
		cli_set_commit(cli, undo, &how);
		r = how.error;
	}
	if (r < 0)
		cli_error(cli, "could not put the sites back: %s%s%s\n", strerror(-r),
			  j->record ? "; the record stays: run 'ddctl sessions --restore': " : "",
			  j->record ? ddctl_session_get_path(j->record) : "");
	else
		cli_error(cli, "restored %zu quer%s: nothing of the set is left\n",
			  ddctl_queryset_get_count(undo),
			  ddctl_queryset_get_count(undo) == 1 ? "y" : "ies");
	ddctl_queryset_unref(undo);
	ddctl_table_unref(after);
	return r;
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
	struct journal j = { .cli = cli };
	bool guard = !how->quiet && !cli->check, locked, read_failed;
	struct ddctl_queryset *resolved = NULL;
	struct ddctl_txn *txn = NULL;
	sigset_t block, before;
	int r, st, sig = 0;
	size_t i;

	how->error = 0;
	if (ddctl_queryset_get_count(set) == 0)
		return how->quiet ? EXIT_OK :
		       print_nothing(cli, how, cli->check || cli->verbose);
	cli_lib_error_forget();
	locked = cli_lock(cli);
	if (guard) {
		sigemptyset(&block);
		for (i = 0; i < COMMIT_SIGNALS; i++)
			sigaddset(&block, commit_signals[i]);
		sigprocmask(SIG_BLOCK, &block, &before);
		j.mask = &before;
	}
	/* the set is checked first, as the commit did (its exit status) */
	r = ddctl_txn_new(cli->ctx, set, &txn);
	ddctl_txn_unref(txn);
	txn = NULL;
	/* the state before: the plan's, the record's and the undo's */
	read_failed = false;
	if (r == 0 && !how->table) {
		r = ddctl_table_read(cli->ctx, &j.before);
		read_failed = r < 0;
	}
	if (r == 0 && how->table)
		j.before = ddctl_table_ref(how->table);
	/* aliases resolved before anything is planned, and said */
	if (r == 0)
		r = cli_resolve_aliases(cli, set, j.before, how->quiet, &resolved);
	j.set = resolved;
	if (r == 0)
		r = ddctl_txn_new(cli->ctx, resolved, &txn);
	if (r == 0)
		ddctl_txn_set_table(txn, j.before);
	if (r == 0 && !how->quiet) {
		ddctl_txn_set_flags(txn, cli->check ? DDCTL_TXN_CHECK : 0);
		j.show = cli_progress_wanted(cli);
		if (guard || j.show)
			ddctl_txn_set_progress_fn(txn, on_write, &j);
	}
	if (r == 0)
		r = ddctl_txn_commit(txn);
	how->error = r < 0 ? r : 0;
	if (guard && (sig = pending_signal(&before)) && j.cut &&
	    (r == 0 || r == -EPROTO) && ddctl_txn_get_plan(txn) &&
	    undo_interrupted(cli, &j, txn, sig) < 0) {
		ddctl_session_free(j.record); /* the record stays */
		j.record = NULL;
	}
	if (j.record && ddctl_session_remove(j.record) < 0)
		cli_error(cli, "cannot remove the record %s\n", ddctl_session_get_path(j.record));
	ddctl_session_free(j.record);
	ddctl_table_unref(j.before);
	ddctl_queryset_unref(resolved);
	if (sig) {
		st = EXIT_REFUSED;
		goto out;
	}
	if (how->quiet) {
		if (r < 0 && txn && ddctl_txn_get_kernel_message(txn))
			cli_error(cli, "the kernel refused the set: %s\n",
				  ddctl_txn_get_kernel_message(txn));
		st = r < 0 ? EXIT_REFUSED : EXIT_OK;
		goto out;
	}
	if (r < 0 && r != -EPROTO) {
		report_failure(cli, txn, r);
		st = txn || read_failed ? EXIT_REFUSED : cli_errno_status(r);
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
	if (locked)
		cli_unlock();
	if (guard) /* a signal that came now has its way (after the undo) */
		sigprocmask(SIG_SETMASK, &before, NULL);
	return st;
}

/* A file of only comments and blank lines: a valid set that changes nothing. */
int cli_nothing_to_change(struct cli *cli)
{
	struct cli_commit how = { 0 };

	return print_nothing(cli, &how, !cli->quiet);
}

/*
 * Bring the state to what @script gives, as one set (restore, reset);
 * @snapshot: the boot snapshot's text (reset: modules loaded after it get
 * their own defaults), or NULL.
 */
int cli_restore_script(struct cli *cli, const char *what,
		       struct ddctl_queryset *script, const char *snapshot)
{
	struct ddctl_queryset *set = NULL;
	struct ddctl_table *table = NULL;
	struct cli_commit how = { 0 };
	bool locked = cli_lock(cli); /* before the read the set comes from */
	int r, st = cli_read_table(cli, &table);

	if (st) {
		if (locked)
			cli_unlock();
		return st;
	}
	r = snapshot ? ddctl_queryset_new_from_snapshot(cli->ctx, table, script, snapshot, &set) :
		       ddctl_queryset_new_from_script(cli->ctx, table, script, &set);
	if (r < 0) {
		cli_error(cli, "cannot restore %s: %s\n", what, strerror(-r));
		st = cli_errno_status(r);
	} else {
		how.table = table;
		st = cli_set_commit(cli, set, &how);
	}
	ddctl_queryset_unref(set);
	ddctl_table_unref(table);
	if (locked)
		cli_unlock();
	return st;
}
