// SPDX-License-Identifier: LGPL-2.1-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Transactions: a validated query set, its aliases resolved (in a copy),
 * predicted, sent over the context's backend (kernel/backend.h) in one
 * exec (split only when it cannot fit), read back and compared; restored
 * when the kernel refuses part of it. One loop serves both backends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ctx.h"
#include "kernel/backend.h"
#include "kernel/backends.h"
#include "kernel/control.h"
#include "kernel/features.h"
#include "model/diff.h"
#include "model/index.h"
#include "model/match.h"
#include "model/plan.h"
#include "model/queryset.h"
#include "model/table.h"
#include "model/wildcard.h"
#include "util/strbuf.h"

struct ddctl_txn {
	int refcount;
	struct ddctl_ctx *ctx;
	struct ddctl_queryset *set;
	struct ddctl_table *table;
	struct ddctl_plan *plan;
	unsigned int flags;
	char *sent;
	struct ddctl_queryset *work; /* the sent queries, parsed (transactional) */
	unsigned int writes;
	bool expanded, verified;
	size_t mismatches;
	/* what the kernel reported (netlink) */
	unsigned int *kmatched, *kchanged;
	bool kreported;
	long keys_patched;
	unsigned int generation;
	char *kmsg;
	void (*progress_fn)(void *data, unsigned int done, unsigned int total);
	void *progress_data;
};

DDCTL_EXPORT void ddctl_txn_set_progress_fn(struct ddctl_txn *txn,
					    void (*fn)(void *data, unsigned int done,
						       unsigned int total),
					    void *data)
{
	txn->progress_fn = fn;
	txn->progress_data = data;
}

DDCTL_EXPORT int ddctl_txn_new(struct ddctl_ctx *ctx,
			       struct ddctl_queryset *set,
			       struct ddctl_txn **out)
{
	struct ddctl_txn *txn;
	size_t i;

	if (!set->count || set->error)
		return -EINVAL;
	for (i = 0; i < set->count; i++)
		if (!set->queries[i].has_flags)
			return -EINVAL;
	txn = calloc(1, sizeof(*txn));
	if (!txn)
		return -ENOMEM;
	txn->refcount = 1;
	txn->keys_patched = -1;
	txn->ctx = ddctl_ref(ctx);
	txn->set = ddctl_queryset_ref(set);
	*out = txn;
	return 0;
}

DDCTL_EXPORT struct ddctl_txn *ddctl_txn_ref(struct ddctl_txn *txn)
{
	if (txn)
		txn->refcount++;
	return txn;
}

DDCTL_EXPORT struct ddctl_txn *ddctl_txn_unref(struct ddctl_txn *txn)
{
	if (!txn || --txn->refcount > 0)
		return txn;
	ddctl_plan_unref(txn->plan);
	ddctl_table_unref(txn->table);
	ddctl_queryset_unref(txn->set);
	ddctl_queryset_unref(txn->work);
	ddctl_unref(txn->ctx);
	free(txn->sent);
	free(txn->kmatched);
	free(txn->kchanged);
	free(txn->kmsg);
	free(txn);
	return NULL;
}

DDCTL_EXPORT void ddctl_txn_set_flags(struct ddctl_txn *txn, unsigned int flags)
{
	txn->flags = flags;
}

DDCTL_EXPORT void ddctl_txn_set_table(struct ddctl_txn *txn,
				      struct ddctl_table *table)
{
	ddctl_table_unref(txn->table);
	txn->table = ddctl_table_ref(table);
}

struct mismatch {
	struct ddctl_txn *txn;
	const struct ddctl_table *now;
	const bool *relevant; /* sites of txn->table the set selects */
};

static void note_mismatch(size_t want_idx, size_t idx, unsigned int want,
			  void *data)
{
	struct mismatch *m = data;
	const struct ddctl_site *s = &m->now->sites[idx];
	char a[DDCTL_FLAGS_BUFSZ], b[DDCTL_FLAGS_BUFSZ];

	if (!m->relevant[want_idx])
		return;
	if (m->txn->mismatches++ < 10)
		err(m->txn->ctx, "%s:%u [%s]%s is %s, predicted %s\n", s->file,
		    s->line, s->module, s->function,
		    ddctl_flags_format(s->flags, a),
		    ddctl_flags_format(want, b));
}

static int txn_verify(struct ddctl_txn *txn)
{
	struct ddctl_table *now = NULL;
	struct mismatch m = { .txn = txn };
	int r;

	r = ddctl_table_read(txn->ctx, &now);
	if (r < 0)
		return r;
	/* only the sites the set selects: others may change concurrently */
	m.now = now;
	m.relevant = txn->plan->selected;
	r = table_diff(txn->table, txn->plan->final, now, note_mismatch, &m);
	txn->verified = r == 0;
	ddctl_table_unref(now);
	if (!r && txn->mismatches)
		r = -EPROTO; /* the caller says how many (once) */
	return r;
}

/*
 * The queries that put the sites the set changes back to the flags they
 * had before the transaction, into *@set and one per line into @sb: only
 * those sites, never another writer's change to other sites since the read.
 */
static int txn_restore_text(struct ddctl_txn *txn, struct ddctl_queryset **set,
			    struct strbuf *sb)
{
	struct ddctl_table *after = NULL;
	int r;

	r = ddctl_table_new_from_plan(txn->plan, &after);
	if (!r)
		r = ddctl_queryset_new_restore(txn->ctx, after, txn->table, set);
	if (!r)
		r = queryset_format(*set, sb);
	ddctl_table_unref(after);
	return r;
}

/* Can query @i go without changing the final state? */
static bool query_is_redundant(struct ddctl_queryset *set, const bool *keep,
			       size_t i, struct ddctl_table *t,
			       const unsigned int *final)
{
	struct dd_sites m = { 0 };
	bool same = index_query_sites(t, &set->queries[i], &m) == 0;
	size_t k, s, j;

	for (k = 0; same && k < m.n; k++) {
		unsigned int f = t->sites[s = m.idx[k]].flags;

		for (j = 0; j < set->count; j++)
			if (j != i && keep[j] &&
			    ddctl_query_matches(&set->queries[j], &t->sites[s]))
				f = query_apply(&set->queries[j], f);
		same = f == final[s];
	}
	free(m.idx);
	return same;
}

#define REDUNDANCY_CHECK_MAX 64

/* The text to send: the queries of @set that have a net effect. */
static int build_text(struct ddctl_txn *txn, struct ddctl_queryset *set)
{
	struct ddctl_plan *plan = NULL;
	struct strbuf sb = { 0 };
	bool *keep;
	size_t i;
	int r;

	r = ddctl_plan_new(set, txn->table, &plan);
	if (r < 0)
		return r;
	keep = calloc(set->count + 1, sizeof(*keep));
	if (!keep) {
		ddctl_plan_unref(plan);
		return -ENOMEM;
	}
	for (i = 0; i < set->count; i++)
		keep[i] = plan->changed[i] > 0 && plan->nchanges > 0;
	for (i = 0; set->count <= REDUNDANCY_CHECK_MAX && i < set->count; i++)
		if (keep[i] && query_is_redundant(set, keep, i, txn->table,
						  plan->final))
			keep[i] = false;
	for (i = 0; !r && i < set->count; i++) {
		if (!keep[i]) {
			dbg(txn->ctx, "query %zu has no net effect: not sent\n",
			    i + 1);
			continue;
		}
		r = strbuf_adds(&sb, set->queries[i].canonical);
		if (!r)
			r = strbuf_addch(&sb, '\n');
	}
	free(keep);
	ddctl_plan_unref(plan);
	if (r < 0) {
		strbuf_release(&sb);
		return r;
	}
	free(txn->sent);
	txn->sent = strbuf_steal(&sb);
	return txn->sent ? 0 : -ENOMEM;
}

/*
 * Module words that name no loaded module may be aliases (libkmod): the
 * transaction's set becomes a copy with them resolved, the caller's set
 * is never changed.
 */
static int resolve_aliases(struct ddctl_txn *txn)
{
	struct ddctl_queryset *resolved = NULL;
	int r = ddctl_queryset_resolve_aliases(txn->set, txn->table, &resolved);

	if (r < 0)
		return r;
	ddctl_queryset_unref(txn->set);
	txn->set = resolved;
	return 0;
}

static bool set_is_negated(const struct ddctl_queryset *set)
{
	size_t i;

	for (i = 0; i < set->count; i++)
		if (ddctl_query_is_negated(&set->queries[i]))
			return true;
	return false;
}

/* The set to send: @txn's own, or its expansion for a kernel without negation. */
static int txn_work_set(struct ddctl_txn *txn, struct ddctl_queryset **work)
{
	unsigned int features = 0;
	int r;

	if (set_is_negated(txn->set)) {
		/* a check writes nothing: no negation probe */
		features_get(txn->ctx, !(txn->flags & DDCTL_TXN_CHECK), &features);
		if (!(features & DDCTL_FEATURE_NEGATION)) {
			r = ddctl_queryset_expand(txn->set, txn->table, work);
			if (r == 0)
				txn->expanded = true;
			return r;
		}
	}
	*work = ddctl_queryset_ref(txn->set);
	return 0;
}

/* Compare what the kernel counted with the prediction. */
static void txn_check_kernel_counts(struct ddctl_txn *txn)
{
	size_t i;

	for (i = 0; i < txn->set->count; i++) {
		if (txn->kmatched[i] == txn->plan->matched[i] &&
		    txn->kchanged[i] == txn->plan->changed[i])
			continue;
		err(txn->ctx, "query %zu: the kernel counted %u matched, %u changed; predicted %u, %u\n",
		    i + 1, txn->kmatched[i], txn->kchanged[i],
		    txn->plan->matched[i], txn->plan->changed[i]);
		txn->mismatches++;
	}
}

/*
 * The end of the chunk that starts at @p: whole queries, at most @max
 * bytes and, when @maxq is not 0, at most @maxq queries.
 */
static const char *chunk_end(const char *p, size_t max, size_t maxq)
{
	const char *end = p, *nl;
	size_t n = 0;

	while ((!maxq || n < maxq) && (nl = strchr(end, '\n')) &&
	       (size_t)(nl + 1 - p) <= max) {
		end = nl + 1;
		n++;
	}
	return end == p ? p + strlen(p) : end;
}

/*
 * Send @text (one query per line; @qs: the same queries parsed, or NULL)
 * over @b in as few execs as its limits (bytes, queries: the kernel's
 * number on netlink) allow, each of whole queries, the kernel's per-query
 * results put at their place in @res. With @count (the set itself, not a restore) each
 * exec counts as a write and a split set reports to the progress hook.
 * Returns the first error; *@done is the number of execs before it.
 */
static int send_text(struct ddctl_txn *txn, struct backend *b, const char *text,
		     const struct ddctl_queryset *qs, bool dry,
		     struct backend_result *res, bool count, unsigned int *done)
{
	size_t max = b->ops->max_len, maxq = b->max_queries, base = 0, len, n;
	unsigned int total = 0;
	const char *p, *end, *q;
	int r = 0;

	*done = 0;
	for (p = text; *p; p = chunk_end(p, max, maxq))
		total++;
	for (p = text; *p; p = end) {
		struct backend_result part = { 0 };

		end = chunk_end(p, max, maxq);
		len = (size_t)(end - p);
		if (len > max) {
			err(txn->ctx, "a single query is longer than the kernel accepts\n");
			return -E2BIG;
		}
		for (q = p, n = 0; q < end; q++)
			n += *q == '\n';
		if (end[-1] != '\n')
			n++;
		if (res->matched && base + n <= res->nqueries) {
			part.nqueries = n;
			part.matched = res->matched + base;
			part.changed = res->changed + base;
		}
		if (qs && base + n > qs->count)
			return -EPROTO; /* not the set's own lines */
		if (count && total > 1 && txn->progress_fn)
			txn->progress_fn(txn->progress_data, *done, total);
		r = b->ops->exec(b, p, len, qs ? qs->queries + base : NULL, n, dry,
				 &part, &txn->kmsg);
		if (r < 0) {
			if (count && total > 1)
				err(txn->ctx, "%s %u of %u, from query \"%.*s\", was refused: %s\n",
				    b->ops->exec_name, *done + 1, total,
				    (int)strcspn(p, "\n"), p, strerror(-r));
			return r;
		}
		res->reported += part.reported;
		res->keys_patched += part.keys_patched;
		res->sites_changed += part.sites_changed;
		if (part.generation)
			res->generation = part.generation;
		base += n;
		(*done)++;
		if (count && !dry)
			txn->writes++;
	}
	if (count && total > 1 && txn->progress_fn)
		txn->progress_fn(txn->progress_data, *done, total);
	return 0;
}

/* After a refused exec: put every site back to the flags it had before. */
static int txn_restore(struct ddctl_txn *txn, struct backend *b)
{
	struct backend_result res = { 0 };
	struct ddctl_queryset *set = NULL;
	struct strbuf sb = { 0 };
	unsigned int done;
	int r;

	r = txn_restore_text(txn, &set, &sb);
	if (!r && sb.len)
		r = send_text(txn, b, sb.buf, set, false, &res, false, &done);
	if (!r)
		err(txn->ctx, "the sites already changed were restored: nothing was changed\n");
	ddctl_queryset_unref(set);
	strbuf_release(&sb);
	return r;
}

/* After a refused exec: restore what was applied, or say why not. */
static void txn_recover(struct ddctl_txn *txn, struct backend *b,
			unsigned int done)
{
	int r;

	if (!b->reaches_kernel) {
		if (done > 0)
			err(txn->ctx, "%u earlier writes not restored: they went to a capture file\n",
			    done);
		return;
	}
	/* a refused write to the control file may have applied its first queries */
	if (done == 0 && b->ops->transactional)
		return;
	r = txn_restore(txn, b);
	if (r < 0)
		err(txn->ctx, "restoring failed: %s; the kernel may be left half-configured\n",
		    strerror(-r));
}

/*
 * The text to send. A transactional backend (netlink) takes every query
 * of the work set, so that the kernel's counts match the set's queries; the
 * control file only the queries with a net effect.
 */
static int txn_prepare(struct ddctl_txn *txn, const struct backend_ops *ops)
{
	struct ddctl_queryset *work = NULL;
	struct strbuf sb = { 0 };
	int r;

	r = txn_work_set(txn, &work);
	if (r < 0)
		return r;
	if (!ops->transactional) {
		r = build_text(txn, work);
		ddctl_queryset_unref(work);
		return r;
	}
	r = queryset_format(work, &sb);
	ddctl_queryset_unref(txn->work);
	txn->work = work;
	free(txn->sent);
	txn->sent = strbuf_steal(&sb);
	if (r < 0 || !txn->sent)
		return r < 0 ? r : -ENOMEM;
	txn->kmatched = calloc(txn->set->count + 1, sizeof(*txn->kmatched));
	txn->kchanged = calloc(txn->set->count + 1, sizeof(*txn->kchanged));
	return txn->kmatched && txn->kchanged ? 0 : -ENOMEM;
}

/*
 * Send the prepared text over @ops: in one exec when it fits, else split
 * in whole queries; restored when the kernel refuses a later part; then the
 * kernel's counts and the control file compared with the prediction.
 */
static int txn_send(struct ddctl_txn *txn, const struct backend_ops *ops)
{
	struct backend_result res = { .nqueries = txn->set->count,
				      .matched = txn->kmatched,
				      .changed = txn->kchanged };
	bool dry = txn->flags & DDCTL_TXN_CHECK;
	struct backend b;
	unsigned int done = 0;
	int r;

	r = backend_open(&b, txn->ctx, ops);
	if (r < 0)
		return r;
	r = send_text(txn, &b, txn->sent, ops->transactional ? txn->work : NULL,
		      dry, &res, true, &done);
	if (r < 0 && ops->transactional)
		err(txn->ctx, "the kernel refused the set: %s\n",
		    txn->kmsg ? txn->kmsg : strerror(-r));
	if (r < 0 && dry && (r == -EPERM || r == -EACCES)) {
		info(txn->ctx, "no kernel dry run without privilege: prediction only\n");
		r = 0;
		goto out;
	}
	if (r < 0) {
		if (!dry)
			txn_recover(txn, &b, done);
		goto out;
	}
	if (ops->transactional) {
		txn->keys_patched = res.keys_patched;
		txn->generation = res.generation;
		txn->kreported = !txn->expanded && res.reported == res.nqueries;
		if (txn->kreported)
			txn_check_kernel_counts(txn);
	}
	if (!dry && !(txn->flags & DDCTL_TXN_NO_VERIFY) && b.reaches_kernel)
		r = txn_verify(txn);
	if (r == 0 && txn->mismatches)
		r = -EPROTO;
out:
	backend_close(&b);
	if (done > 1)
		info(txn->ctx, ops->split_note, done);
	return r;
}

/*
 * A set predicted to change nothing is not sent, but its sites are read
 * back as a sent set's are: another writer may have changed them since
 * the table was read, and the set would then not have been a no-op.
 */
static int txn_verify_unsent(struct ddctl_txn *txn, const struct backend_ops *ops)
{
	int r;

	/* the kernel's state, as a sent set's read-back (not a capture file's) */
	if ((txn->flags & DDCTL_TXN_NO_VERIFY) ||
	    !(ops->transactional || control_writes_kernel(txn->ctx)))
		return 0;
	r = txn_verify(txn);
	if (r == -EPROTO)
		err(txn->ctx, "the state changed under the set (another writer?): it was not sent\n");
	return r;
}

/*
 * A backend that cannot carry a query of the set (netlink: an empty
 * module, a '+' without flags, a flag the kernel lacks; see
 * nl_query_check()): the set goes to the control file as a whole when the
 * backend was left to ddctl (AUTO), else it is refused (-EINVAL) naming
 * the query and the word. Nothing is sent before.
 */
static int txn_route(struct ddctl_txn *txn, const struct backend_ops **ops)
{
	struct ddctl_queryset *work = NULL;
	struct backend b;
	char *why = NULL;
	size_t i;
	int r;

	if (!(*ops)->check)
		return 0;
	r = txn_work_set(txn, &work);
	if (r < 0)
		return r;
	r = backend_open(&b, txn->ctx, *ops);
	for (i = 0; !r && i < work->count; i++)
		r = (*ops)->check(&b, &work->queries[i], i, &why);
	if (r == -EINVAL && ctx_get_backend_setting(txn->ctx) == DDCTL_BACKEND_AUTO) {
		info(txn->ctx, "query %zu \"%s\": %s: the set goes to the control file\n",
		     i, work->queries[i - 1].canonical, why ? why : "");
		*ops = &control_backend;
		r = 0;
	} else if (r == -EINVAL) {
		err(txn->ctx, "query %zu \"%s\": %s\n", i,
		    work->queries[i - 1].canonical, why ? why : "");
	}
	backend_close(&b);
	free(why);
	ddctl_queryset_unref(work);
	return r;
}

DDCTL_EXPORT int ddctl_txn_commit(struct ddctl_txn *txn)
{
	const struct backend_ops *ops;
	int r;

	if (!txn->table) {
		r = ddctl_table_read(txn->ctx, &txn->table);
		if (r < 0)
			return r;
	}
	r = resolve_aliases(txn);
	if (r < 0)
		return r;
	ddctl_plan_unref(txn->plan);
	txn->plan = NULL;
	r = ddctl_plan_new(txn->set, txn->table, &txn->plan);
	if (r < 0)
		return r;
	ops = backend_for_write(txn->ctx);
	r = txn_route(txn, &ops);
	if (r < 0)
		return r;
	/* nothing to change: nothing sent, unless the kernel can check the set */
	if (txn->plan->nchanges == 0 &&
	    !(ops->transactional && (txn->flags & DDCTL_TXN_CHECK))) {
		free(txn->sent);
		txn->sent = strdup("");
		if (!txn->sent)
			return -ENOMEM;
		return txn->flags & DDCTL_TXN_CHECK ? 0 : txn_verify_unsent(txn, ops);
	}
	r = txn_prepare(txn, ops);
	/* the control file has no dry run: a check is the prediction */
	if (r < 0 || ((txn->flags & DDCTL_TXN_CHECK) && !ops->transactional))
		return r;
	return txn_send(txn, ops);
}

DDCTL_EXPORT struct ddctl_plan *ddctl_txn_get_plan(const struct ddctl_txn *txn)
{
	return txn->plan;
}

DDCTL_EXPORT const char *ddctl_txn_get_sent(const struct ddctl_txn *txn)
{
	return txn->sent;
}

DDCTL_EXPORT unsigned int ddctl_txn_get_write_count(const struct ddctl_txn *txn)
{
	return txn->writes;
}

DDCTL_EXPORT bool ddctl_txn_was_expanded(const struct ddctl_txn *txn)
{
	return txn->expanded;
}

DDCTL_EXPORT size_t ddctl_txn_get_mismatch_count(const struct ddctl_txn *txn)
{
	return txn->mismatches;
}

DDCTL_EXPORT bool ddctl_txn_was_verified(const struct ddctl_txn *txn)
{
	return txn->verified;
}

DDCTL_EXPORT int ddctl_txn_get_kernel_counts(const struct ddctl_txn *txn,
					     size_t idx, unsigned int *matched,
					     unsigned int *changed)
{
	if (!txn->kreported || idx >= txn->set->count)
		return -ENODATA;
	if (matched)
		*matched = txn->kmatched[idx];
	if (changed)
		*changed = txn->kchanged[idx];
	return 0;
}

DDCTL_EXPORT long ddctl_txn_get_keys_patched(const struct ddctl_txn *txn)
{
	return txn->keys_patched;
}

DDCTL_EXPORT const char *ddctl_txn_get_kernel_message(const struct ddctl_txn *txn)
{
	return txn->kmsg;
}

DDCTL_EXPORT unsigned int ddctl_txn_get_generation(const struct ddctl_txn *txn)
{
	return txn->generation;
}
