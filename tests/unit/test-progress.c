// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/* A split set reports its writes through the progress callback (issue 13
 * item 11); a set in one write does not. */
#include <errno.h>
#include <unistd.h>

#include "testlib.h"

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
static void commit(unsigned int nq, struct seen *seen, unsigned int *writes)
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
	commit(600, &seen, &writes);
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
	commit(10, &seen, &writes);
	assert_int_equal(writes, 1);
	assert_int_equal(seen.calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_reports_each_write),
		cmocka_unit_test(test_one_write_is_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
