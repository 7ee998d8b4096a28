// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * Transactions (kernel/txn.c) on the control-file backend: a capture file
 * (ddctl_set_write_capture()) receives what would be written to the
 * control file; the bytes written, the number of write(2) calls and the
 * progress reports of a split set are checked. A regular file as the
 * control file is never written; the caller's set is never changed. The
 * same loop on a transactional backend (as netlink is), faked: per-query
 * counts put in place across execs, a later refusal restored, a refused
 * first exec not, a dry run without privilege left to the prediction.
 */
#include <errno.h>
#include <unistd.h>

#include <libkmod.h>

#include "core/ctx.h"
#include "kernel/backends.h"
#include "model/query.h"
#include "testlib.h"

struct sub {
	struct ddctl_ctx *ctx;
	struct ddctl_table *table;
	char path[64];
};

static int setup(void **state)
{
	struct sub *s = calloc(1, sizeof(*s));
	int fd;

	s->ctx = test_ctx();
	s->table = test_table(s->ctx, "hand-escapes.txt");
	strcpy(s->path, "/tmp/ddctl-submit-XXXXXX");
	fd = mkstemp(s->path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ddctl_set_control_path(s->ctx, s->path), 0);
	assert_int_equal(ddctl_set_write_capture(s->ctx, s->path), 0);
	ddctl_set_features(s->ctx, 0);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct sub *s = *state;

	unlink(s->path);
	ddctl_table_unref(s->table);
	ddctl_unref(s->ctx);
	free(s);
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static struct ddctl_txn *commit(struct sub *s, const char *text, int expect)
{
	struct ddctl_queryset *set = test_parse(s->ctx, text);
	struct ddctl_txn *txn = NULL;

	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	assert_int_equal(ddctl_txn_commit(txn), expect);
	ddctl_queryset_unref(set);
	return txn;
}

static void test_one_write(void **state)
{
	struct sub *s = *state;
	struct ddctl_txn *txn = commit(s, "module virtio +p ; module virtio-net +f ; func nothing_matches +p", 0);
	char *got = slurp(s->path);

	assert_string_equal(got, "module virtio +p\nmodule virtio_net +f\n");
	assert_int_equal(ddctl_txn_get_write_count(txn), 1);
	assert_false(ddctl_txn_was_verified(txn)); /* not a kernel file */
	free(got);
	ddctl_txn_unref(txn);
}

static void test_no_net_effect_sends_nothing(void **state)
{
	struct sub *s = *state;
	struct ddctl_txn *txn = commit(s, "module virtio +p; module virtio -p", 0);
	char *got = slurp(s->path);

	assert_string_equal(got, "");
	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	assert_int_equal(ddctl_plan_get_changed(ddctl_txn_get_plan(txn), 0), 2);
	free(got);
	ddctl_txn_unref(txn);
}

static void test_partial_net_effect(void **state)
{
	struct sub *s = *state;
	/* the first pair cancels out; the last query is the only effect */
	struct ddctl_txn *txn = commit(s, "module virtio +p; module virtio -p; module main +p", 0);
	char *got = slurp(s->path);

	assert_string_equal(got, "module main +p\n");
	assert_int_equal(ddctl_txn_get_write_count(txn), 1);
	free(got);
	ddctl_txn_unref(txn);
}

static void test_check_writes_nothing(void **state)
{
	struct sub *s = *state;
	struct ddctl_queryset *set = test_parse(s->ctx, "+p");
	struct ddctl_txn *txn = NULL;
	char *got;

	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	ddctl_txn_set_flags(txn, DDCTL_TXN_CHECK);
	assert_int_equal(ddctl_txn_commit(txn), 0);
	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	assert_string_equal(ddctl_txn_get_sent(txn), "+p\n");
	got = slurp(s->path);
	assert_string_equal(got, "");
	free(got);
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
}

static void test_negation_expanded(void **state)
{
	struct sub *s = *state;
	struct ddctl_txn *txn = commit(s, "!module virtio* +p", 0);
	char *got = slurp(s->path);

	assert_true(ddctl_txn_was_expanded(txn));
	/* dynamic_debug and do_prints are already p: only two queries have an effect */
	assert_string_equal(got, "module foo +p\nmodule main +p\n");
	assert_int_equal(ddctl_txn_get_write_count(txn), 1);
	free(got);
	ddctl_txn_unref(txn);
}

static void test_negation_passed_through(void **state)
{
	struct sub *s = *state;
	struct ddctl_txn *txn;
	char *got;

	ddctl_set_features(s->ctx, DDCTL_FEATURE_CONTROL | DDCTL_FEATURE_NEGATION);
	txn = commit(s, "module !virtio* +p", 0);
	got = slurp(s->path);
	assert_false(ddctl_txn_was_expanded(txn));
	assert_string_equal(got, "!module virtio* +p\n");
	free(got);
	ddctl_txn_unref(txn);
}

/* Longer than 4095 bytes: split at query boundaries, each write fits. */
static void test_split(void **state)
{
	struct sub *s = *state;
	char *ctl = malloc(1 << 20), *q = malloc(1 << 20), *got;
	struct ddctl_table *big = NULL;
	struct ddctl_queryset *set;
	struct ddctl_txn *txn = NULL;
	size_t off = 0, qoff = 0;
	int i;

	off += (size_t)sprintf(ctl, "# filename:lineno [module]function flags format\n");
	for (i = 1; i <= 600; i++) {
		off += (size_t)sprintf(ctl + off, "big.c:%d [big]f%d =_ \"m%d\\n\"\n", i, i, i);
		qoff += (size_t)sprintf(q + qoff, "file big.c line %d +p\n", i);
	}
	assert_int_equal(ddctl_table_new_from_buffer(s->ctx, ctl, off, &big), 0);
	set = test_parse(s->ctx, q);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, big);
	assert_int_equal(ddctl_txn_commit(txn), 0);
	got = slurp(s->path);
	assert_string_equal(got, q);
	assert_true(ddctl_txn_get_write_count(txn) >= (qoff + 4094) / 4095);
	assert_true(ddctl_txn_get_write_count(txn) <= (qoff + 4094) / 4095 + 1);
	free(got);
	free(ctl);
	free(q);
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
	ddctl_table_unref(big);
}

/*
 * The limit itself: a set of exactly 4095 bytes is one write, one byte
 * more is two (the same chunk_end() cuts netlink EXECs at 16383 bytes).
 */
static void test_split_at_limit(void **state)
{
	struct sub *s = *state;
	char *ctl = malloc(1 << 16), *q = malloc(1 << 16), *got;
	struct ddctl_table *big = NULL;
	int extra;

	for (extra = 0; extra <= 1; extra++) {
		struct ddctl_queryset *set;
		struct ddctl_txn *txn = NULL;
		size_t off = 0, qoff = 0;
		int i;

		off += (size_t)sprintf(ctl, "# filename:lineno [module]function flags format\n");
		for (i = 1; i <= 1000; i++)
			off += (size_t)sprintf(ctl + off, "big.c:%d [big]f%d =_ \"m%d\\n\"\n", i, i, i);
		off += (size_t)sprintf(ctl + off, "big.c:10000 [big]g =_ \"g\\n\"\n");
		/* 177 queries of 23 bytes (lines 100-276), then one of 24: 4095 bytes, or of 25: 4096 */
		for (i = 100; i <= 276; i++)
			qoff += (size_t)sprintf(q + qoff, "file big.c line %d +p\n", i);
		qoff += (size_t)sprintf(q + qoff, "file big.c line %s +p\n", extra ? "10000" : "1000");
		assert_int_equal(qoff, 4095 + extra);
		if (!big)
			assert_int_equal(ddctl_table_new_from_buffer(s->ctx, ctl, off, &big), 0);
		set = test_parse(s->ctx, q);
		assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
		ddctl_txn_set_table(txn, big);
		assert_int_equal(truncate(s->path, 0), 0);
		assert_int_equal(ddctl_txn_commit(txn), 0);
		got = slurp(s->path);
		assert_string_equal(got, q);
		assert_int_equal(ddctl_txn_get_write_count(txn), 1 + extra);
		free(got);
		ddctl_txn_unref(txn);
		ddctl_queryset_unref(set);
	}
	free(ctl);
	free(q);
	ddctl_table_unref(big);
}

static void test_bad_set_refused(void **state)
{
	struct sub *s = *state;
	struct ddctl_queryset *set = NULL;
	struct ddctl_txn *txn = NULL;

	assert_int_equal(ddctl_queryset_new(s->ctx, &set), 0);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), -EINVAL); /* empty */
	assert_int_equal(ddctl_queryset_parse(set, "+p; module x +z", 0), -EINVAL);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), -EINVAL);
	ddctl_queryset_unref(set);
	assert_int_equal(ddctl_queryset_new(s->ctx, &set), 0);
	assert_int_equal(ddctl_queryset_parse(set, "module x", DDCTL_PARSE_MATCH_ONLY), 0);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), -EINVAL);
	ddctl_queryset_unref(set);
}

static void test_unwritable(void **state)
{
	struct sub *s = *state;
	struct ddctl_txn *txn;

	assert_int_equal(ddctl_set_write_capture(s->ctx, "/"), 0);
	txn = commit(s, "+p", -EISDIR);
	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	ddctl_txn_unref(txn);
}

/* A control path that is a regular file is never written. */
static void test_regular_file_not_written(void **state)
{
	static const char before[] = "# filename:lineno [module]function flags format\n";
	struct sub *s = *state;
	struct ddctl_txn *txn;
	FILE *f = fopen(s->path, "w");
	char *got;

	assert_non_null(f);
	fputs(before, f);
	fclose(f);
	assert_int_equal(ddctl_set_write_capture(s->ctx, NULL), 0);
	txn = commit(s, "module virtio +p", -EMEDIUMTYPE);
	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	got = slurp(s->path);
	assert_string_equal(got, before);
	free(got);
	ddctl_txn_unref(txn);
}

/*
 * A module alias is resolved for the kernel, in the transaction's own copy
 * of the set: the caller's set keeps the words it was given.
 */
static void test_alias_leaves_callers_set(void **state)
{
	struct sub *s = *state;
	char dir[] = "/tmp/ddctl-alias-XXXXXX", conf[64];
	const char *configs[] = { conf, NULL };
	struct ddctl_queryset *set;
	struct ddctl_txn *txn = NULL;
	char *got;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/alias.conf", dir);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs("alias nic0 virtio_net\n", f);
	fclose(f);
	ctx_set_kmod(s->ctx, kmod_new(dir, configs));
	assert_non_null(ctx_get_kmod(s->ctx));
	set = test_parse(s->ctx, "module nic0 +p");
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	assert_int_equal(ddctl_txn_commit(txn), 0);
	got = slurp(s->path);
	assert_string_equal(got, "module virtio_net +p\n");
	assert_string_equal(ddctl_query_get_canonical(ddctl_queryset_get_query(set, 0)),
			    "module nic0 +p");
	assert_string_equal(ddctl_query_get_text(ddctl_queryset_get_query(set, 0)),
			    "module nic0 +p");
	free(got);
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
	unlink(conf);
	rmdir(dir);
}

struct seen {
	unsigned int calls, done[64], total[64];
};

static void progress(void *data, unsigned int done, unsigned int total)
{
	struct seen *s = data;

	if (s->calls < 64) {
		s->done[s->calls] = done;
		s->total[s->calls] = total;
	}
	s->calls++;
}

/* Commit @nq queries "file big.c line N +p" on a table of @nq sites. */
static void commit_lines(unsigned int nq, struct seen *seen, unsigned int *writes)
{
	char path[] = "/tmp/ddctl-progress-XXXXXX";
	char *ctl = malloc(1 << 20), *q = malloc(1 << 20);
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *big = NULL;
	struct ddctl_queryset *set;
	struct ddctl_txn *txn = NULL;
	size_t off = 0, qoff = 0;
	unsigned int i;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ddctl_set_control_path(ctx, path), 0);
	assert_int_equal(ddctl_set_write_capture(ctx, path), 0);
	off += (size_t)sprintf(ctl, "# filename:lineno [module]function flags format\n");
	for (i = 1; i <= nq; i++) {
		off += (size_t)sprintf(ctl + off, "big.c:%u [big]f%u =_ \"m%u\\n\"\n", i, i, i);
		qoff += (size_t)sprintf(q + qoff, "file big.c line %u +p\n", i);
	}
	assert_int_equal(ddctl_table_new_from_buffer(ctx, ctl, off, &big), 0);
	set = test_parse(ctx, q);
	assert_int_equal(ddctl_txn_new(ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, big);
	ddctl_txn_set_progress_fn(txn, progress, seen);
	assert_int_equal(ddctl_txn_commit(txn), 0);
	*writes = ddctl_txn_get_write_count(txn);
	unlink(path);
	free(ctl);
	free(q);
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
	ddctl_table_unref(big);
	ddctl_unref(ctx);
}

static void test_split_reports_each_write(void **state)
{
	struct seen seen = { 0 };
	unsigned int writes, i;

	(void)state;
	commit_lines(600, &seen, &writes);
	assert_true(writes > 1);
	assert_int_equal(seen.calls, writes + 1);
	for (i = 0; i <= writes; i++) {
		assert_int_equal(seen.done[i], i);
		assert_int_equal(seen.total[i], writes);
	}
}

static void test_one_write_is_silent(void **state)
{
	struct seen seen = { 0 };
	unsigned int writes;

	(void)state;
	commit_lines(10, &seen, &writes);
	assert_int_equal(writes, 1);
	assert_int_equal(seen.calls, 0);
}

/* ---- the loop on a transactional backend (a fake, as netlink is) ---- */

struct fake {
	unsigned int execs, refuse; /* refuse exec number @refuse (0: none) */
	int refusal;
	const char *other_path, *other_text; /* another writer, after exec 1 */
	char sent[4096];
	char log[4096];
};

static struct fake fake;

static int fake_read(struct ddctl_ctx *ctx, char **text)
{
	(void)ctx;
	*text = NULL;
	return -ENOTSUP;
}

static int fake_open(struct backend *b)
{
	b->reaches_kernel = true;
	return 0;
}

/* Each query's "matched" is its length: where the counts land shows. */
static int fake_exec(struct backend *b, const char *text, size_t len,
		     const struct ddctl_query *queries, size_t n, bool dry,
		     struct backend_result *res, char **errmsg)
{
	const char *p = text, *end = text + len, *nl;
	size_t k = 0;

	(void)dry;
	if (++fake.execs == fake.refuse) {
		*errmsg = strdup("fake says no");
		return fake.refusal;
	}
	if (fake.execs == 1 && fake.other_path) {
		FILE *f = fopen(fake.other_path, "w");

		assert_non_null(f);
		fputs(fake.other_text, f);
		fclose(f);
	}
	assert_true(len <= b->ops->max_len);
	assert_int_equal(text[len - 1], '\n');
	strncat(fake.sent, text, len);
	/* the parsed queries come with the text, line for line */
	assert_non_null(queries);
	for (; p < end; p = nl + 1, k++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		assert_true(k < n);
		assert_int_equal(strlen(ddctl_query_get_canonical(&queries[k])), (size_t)(nl - p));
		assert_memory_equal(ddctl_query_get_canonical(&queries[k]), p, (size_t)(nl - p));
		if (res->matched && k < res->nqueries) {
			res->matched[k] = (unsigned int)(nl - p);
			res->changed[k] = 0;
			res->reported++;
		}
	}
	assert_int_equal(k, n);
	if (b->max_queries)
		assert_true(k <= b->max_queries);
	return 0;
}

static void fake_close(struct backend *b)
{
	(void)b;
}

/* not const: a test sets the netlink family's other limit, max_queries */
static struct backend_ops fake_backend = {
	.name = "fake",
	.max_len = 64,
	.transactional = true,
	.exec_name = "transaction",
	.split_note = "sent as %u fake transactions\n",
	.read = fake_read,
	.open = fake_open,
	.exec = fake_exec,
	.close = fake_close,
};

static void fake_log(void *data, int priority, const char *file, int line,
		     const char *fn, const char *format, va_list args)
{
	size_t n = strlen(fake.log);

	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(fake.log + n, sizeof(fake.log) - n, format, args);
}

#define FAKE_SET "module virtio +p; module virtio_net +f; module main +p; " \
	"module foo +p; module dynamic_debug +pm; module test_dynamic_debug +t"

/* A set over two execs whose restore fits the fake's 64 bytes a query. */
#define FAKE_SET_RESTORABLE "module virtio +p; module foo +p; " \
	"module dynamic_debug +m; module virtio +t"

/* Commit @text over the fake backend, which refuses exec @refuse with @refusal. */
static struct ddctl_txn *fake_commit_set(struct sub *s, const char *text,
					 unsigned int flags, unsigned int refuse,
					 int refusal, int expect)
{
	struct ddctl_queryset *set = test_parse(s->ctx, text);
	struct ddctl_txn *txn = NULL;

	memset(&fake, 0, sizeof(fake));
	fake.refuse = refuse;
	fake.refusal = refusal;
	ddctl_set_log_fn(s->ctx, fake_log, NULL);
	ddctl_set_log_priority(s->ctx, LOG_INFO);
	backend_override_for_write(&fake_backend);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	ddctl_txn_set_flags(txn, flags);
	assert_int_equal(ddctl_txn_commit(txn), expect);
	backend_override_for_write(NULL);
	ddctl_queryset_unref(set);
	return txn;
}

static struct ddctl_txn *fake_commit(struct sub *s, unsigned int flags,
				     unsigned int refuse, int refusal, int expect)
{
	return fake_commit_set(s, FAKE_SET, flags, refuse, refusal, expect);
}

static void test_transactional_split_counts(void **state)
{
	struct sub *s = *state;
	/* the counts are the lengths, not the prediction: -EPROTO */
	struct ddctl_txn *txn = fake_commit(s, DDCTL_TXN_NO_VERIFY, 0, 0, -EPROTO);
	struct ddctl_queryset *set = test_parse(s->ctx, FAKE_SET);
	unsigned int matched = 0, changed = 1;
	size_t i;

	assert_string_equal(fake.sent, ddctl_txn_get_sent(txn));
	assert_true(fake.execs >= 2);
	assert_int_equal(ddctl_txn_get_write_count(txn), fake.execs);
	assert_non_null(strstr(fake.log, "fake transactions"));
	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		const char *q = ddctl_query_get_canonical(ddctl_queryset_get_query(set, i));

		assert_int_equal(ddctl_txn_get_kernel_counts(txn, i, &matched, &changed), 0);
		assert_int_equal(matched, strlen(q));
		assert_int_equal(changed, 0);
	}
	assert_int_equal(ddctl_txn_get_kernel_counts(txn, i, NULL, NULL), -ENODATA);
	ddctl_queryset_unref(set);
	ddctl_txn_unref(txn);
}

/*
 * An exec takes at most max_queries queries however short: six queries
 * go in three execs of two, each query's counts at its place, one
 * transaction to the caller.
 */
static void test_transactional_split_by_count(void **state)
{
	struct sub *s = *state;
	struct ddctl_queryset *set = test_parse(s->ctx, FAKE_SET);
	struct ddctl_txn *txn;
	unsigned int matched = 0, changed = 1;
	size_t i;

	fake_backend.max_len = 4096;
	fake_backend.max_queries = 2;
	txn = fake_commit(s, DDCTL_TXN_NO_VERIFY, 0, 0, -EPROTO);
	fake_backend.max_len = 64;
	fake_backend.max_queries = 0;
	assert_string_equal(fake.sent, ddctl_txn_get_sent(txn));
	assert_int_equal(fake.execs, 3);
	assert_int_equal(ddctl_txn_get_write_count(txn), 3);
	assert_non_null(strstr(fake.log, "sent as 3 fake transactions"));
	for (i = 0; i < ddctl_queryset_get_count(set); i++) {
		const char *q = ddctl_query_get_canonical(ddctl_queryset_get_query(set, i));

		assert_int_equal(ddctl_txn_get_kernel_counts(txn, i, &matched, &changed), 0);
		assert_int_equal(matched, strlen(q));
		assert_int_equal(changed, 0);
	}
	ddctl_queryset_unref(set);
	ddctl_txn_unref(txn);
}

/* A refused second exec of a set split by count: the first one restored. */
static void test_transactional_count_refusal_restored(void **state)
{
	struct ddctl_txn *txn;

	fake_backend.max_len = 4096;
	fake_backend.max_queries = 2;
	txn = fake_commit_set(*state, FAKE_SET_RESTORABLE, 0, 2, -EINVAL, -EINVAL);
	fake_backend.max_len = 64;
	fake_backend.max_queries = 0;
	assert_int_equal(ddctl_txn_get_write_count(txn), 1);
	assert_non_null(strstr(fake.log, "transaction 2 of 2"));
	assert_non_null(strstr(fake.log, "restored"));
	assert_true(fake.execs >= 3); /* the restore went out */
	ddctl_txn_unref(txn);
}

static void test_transactional_later_refusal_restored(void **state)
{
	struct ddctl_txn *txn = fake_commit_set(*state, FAKE_SET_RESTORABLE, 0, 2,
						-EINVAL, -EINVAL);

	assert_int_equal(ddctl_txn_get_write_count(txn), 1);
	assert_non_null(strstr(fake.log, "the kernel refused the set: fake says no"));
	assert_non_null(strstr(fake.log, "transaction 2 of "));
	assert_non_null(strstr(fake.log, "restored"));
	ddctl_txn_unref(txn);
}

/*
 * A refused second exec restores the sites the set changed, and only
 * those: another writer's change between the read and the restore stays.
 */
static void test_refusal_restores_only_the_sets_sites(void **state)
{
	struct sub *s = *state;
	struct ddctl_queryset *set = test_parse(s->ctx, FAKE_SET_RESTORABLE);
	struct ddctl_txn *txn = NULL;
	char *text = slurp(FIXTURE_DIR "/hand-escapes.txt"), *main_site;

	/* the other writer: init/main.c's site turned on */
	main_site = strstr(text, "[main]do_one_initcall =_");
	assert_non_null(main_site);
	main_site[strlen("[main]do_one_initcall =")] = 'p';
	memset(&fake, 0, sizeof(fake));
	fake.refuse = 2;
	fake.refusal = -EINVAL;
	fake.other_path = s->path;
	fake.other_text = text;
	ddctl_set_log_fn(s->ctx, fake_log, NULL);
	backend_override_for_write(&fake_backend);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	assert_int_equal(ddctl_txn_commit(txn), -EINVAL);
	backend_override_for_write(NULL);
	assert_true(fake.execs >= 3); /* the restore went out */
	assert_non_null(strstr(fake.log, "were restored"));
	assert_null(strstr(fake.sent, "main"));
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
	free(text);
}

/*
 * A set predicted to change nothing is still read back: another writer's
 * change to its sites between the read and the commit is reported.
 */
static void test_no_op_verified(void **state)
{
	struct sub *s = *state;
	struct ddctl_queryset *set = test_parse(s->ctx, "module dynamic_debug +p");
	struct ddctl_txn *txn = NULL;
	char *text = slurp(FIXTURE_DIR "/hand-escapes.txt"), *site;
	FILE *f;

	/* the other writer: dynamic_debug's site (=p when read) turned off */
	site = strstr(text, "ddebug_add_module =p");
	assert_non_null(site);
	site[strlen("ddebug_add_module =")] = '_';
	f = fopen(s->path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	memset(&fake, 0, sizeof(fake));
	backend_override_for_write(&fake_backend);
	assert_int_equal(ddctl_txn_new(s->ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, s->table);
	assert_int_equal(ddctl_txn_commit(txn), -EPROTO);
	backend_override_for_write(NULL);
	assert_int_equal(fake.execs, 0); /* nothing sent */
	assert_int_equal(ddctl_txn_get_mismatch_count(txn), 1);
	ddctl_txn_unref(txn);
	ddctl_queryset_unref(set);
	free(text);
}

static void test_transactional_first_refusal_not_restored(void **state)
{
	struct ddctl_txn *txn = fake_commit(*state, 0, 1, -EINVAL, -EINVAL);

	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	assert_non_null(strstr(fake.log, "the kernel refused the set: fake says no"));
	assert_null(strstr(fake.log, "restored"));
	ddctl_txn_unref(txn);
}

static void test_transactional_dry_run_unprivileged(void **state)
{
	struct ddctl_txn *txn = fake_commit(*state, DDCTL_TXN_CHECK, 1, -EPERM, 0);

	assert_int_equal(ddctl_txn_get_write_count(txn), 0);
	assert_non_null(strstr(fake.log, "prediction only"));
	assert_null(strstr(fake.log, "restored"));
	ddctl_txn_unref(txn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_net_effect_sends_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_net_effect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_writes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negation_expanded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negation_passed_through, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_at_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_set_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_regular_file_not_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_leaves_callers_set, setup, teardown),
		cmocka_unit_test(test_split_reports_each_write),
		cmocka_unit_test(test_one_write_is_silent),
		cmocka_unit_test_setup_teardown(test_transactional_split_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactional_split_by_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactional_count_refusal_restored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactional_later_refusal_restored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactional_first_refusal_not_restored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusal_restores_only_the_sets_sites, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_op_verified, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transactional_dry_run_unprivileged, setup, teardown),
	};

	return cmocka_run_group_tests_name("txn", tests, NULL, NULL);
}
