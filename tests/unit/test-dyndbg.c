// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: the ddctl authors
/*
 * The dyndbg commands (kernel/dyndbg.c): EXEC replies and their per-query
 * counts, GET dumps written out as a control file; fed messages built in
 * a buffer, as the kernel's "dyndbg" family would send them. Against the
 * fake peer (nltest.h): the exact attributes of each query sent (uapi
 * v3), what the family cannot carry, splitting at the kernel's
 * QUERIES_MAX, a dump cut by NLM_F_DUMP_INTR done again.
 */
#include <errno.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nltest.h"
#include "testlib.h"
#include "kernel/dyndbg.h"
#include "kernel/monitor.h"
#include "kernel/netlink.h"
#include "model/queryset.h"
#include "util/strbuf.h"
#include "util/util.h"

static void put_result(struct nlmsghdr *nlh, uint32_t idx, uint32_t m, uint32_t c)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_QUERY_RESULT);

	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_INDEX, idx);
	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_MATCHED, m);
	mnl_attr_put_u32(nlh, DYNDBG_A_QUERY_RESULT_CHANGED, c);
	mnl_attr_nest_end(nlh, n);
}

static void test_exec_reply(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_EXEC);
	unsigned int matched[3] = { 0 }, changed[3] = { 0 };
	struct backend_result res = { .nqueries = 2, .matched = matched, .changed = changed };

	put_result(nlh, 1, 10, 4);
	put_result(nlh, 2, 10, 10);
	put_result(nlh, 7, 1, 1); /* out of range: ignored */
	mnl_attr_put_u32(nlh, DYNDBG_A_KEYS_PATCHED, 6);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITES_CHANGED, 6);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 2);
	assert_int_equal(matched[0], 10);
	assert_int_equal(changed[0], 4);
	assert_int_equal(changed[1], 10);
	assert_int_equal(res.keys_patched, 6);
	assert_int_equal(res.sites_changed, 6);
}

/*
 * The kernel reports each query once, in order: a repeated or skipped
 * index must not make an incomplete reply look complete (found by
 * fuzz-netlink: two results for query 1 counted as two queries).
 */
static void test_exec_reply_repeated_index(void **state)
{
	char buf[4096];
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_EXEC);
	unsigned int matched[2] = { 0 }, changed[2] = { 0 };
	struct backend_result res = { .nqueries = 2, .matched = matched, .changed = changed };

	put_result(nlh, 1, 10, 4);
	put_result(nlh, 1, 99, 99);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 1);
	assert_int_equal(matched[0], 10);
	nlh = msg(buf, DYNDBG_CMD_EXEC);
	res.reported = 0;
	put_result(nlh, 2, 5, 5);
	put_result(nlh, 1, 3, 3);
	assert_int_equal(nl_exec_parse(nlh, &res), 0);
	assert_int_equal(res.reported, 1);
	assert_int_equal(matched[0], 3);
}

static void put_site(struct nlmsghdr *nlh, const char *mod, const char *file,
		     const char *func, uint32_t line, const char *fmt,
		     uint32_t flags, const char *cls, int cls_id)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, mod);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FILE, file);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FUNCTION, func);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_LINE, line);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FORMAT, fmt);
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_FLAGS, flags);
	if (cls)
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_CLASS, cls);
	if (cls_id >= 0)
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_CLASS_ID, (uint32_t)cls_id);
	mnl_attr_nest_end(nlh, n);
}

/* A dump becomes a table equal to the control file's. */
static void test_dump_to_table(void **state)
{
	struct ddctl_ctx *ctx = test_ctx();
	struct ddctl_table *t = NULL;
	struct nl_dump_state st = { 0 };
	struct strbuf *sbp = &st.sb;
	char buf[4096];
	struct nlmsghdr *nlh;
	const struct ddctl_site *s;

	strbuf_adds(sbp, "# filename:lineno [module]function flags format\n");
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "virtio", "drivers/virtio/virtio.c", "virtio_dev_probe", 300,
		 "probe %s\t\"x\"\n", 1 | 4, NULL, -1);
	assert_int_equal(nl_get_parse(nlh, &st), 0);
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "test_dynamic_debug", "lib/test_dynamic_debug.c", "do_cats", 50,
		 "LOW msg\n", 0, "LOW", 1);
	assert_int_equal(nl_get_parse(nlh, &st), 0);
	nlh = msg(buf, DYNDBG_CMD_GET);
	put_site(nlh, "test_dynamic_debug", "lib/test_dynamic_debug.c", "do_cats", 51,
		 "MID msg\n", 0, NULL, 13);
	assert_int_equal(nl_get_parse(nlh, &st), 0);
	assert_int_equal(ddctl_table_new_from_buffer(ctx, sbp->buf, sbp->len, &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 3);
	s = ddctl_table_get_site(t, 0);
	assert_string_equal(ddctl_site_get_format(s), "probe %s\t\"x\"\n");
	assert_int_equal(ddctl_site_get_flags(s), DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME);
	assert_string_equal(ddctl_site_get_class(ddctl_table_get_site(t, 1)), "LOW");
	assert_int_equal(ddctl_site_get_class_id(ddctl_table_get_site(t, 2)), 13);
	/* a site without its required attributes is refused */
	nlh = msg(buf, DYNDBG_CMD_GET);
	{
		struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, "m");
		mnl_attr_nest_end(nlh, n);
	}
	assert_int_equal(nl_get_parse(nlh, &st), -EBADMSG);
	strbuf_release(sbp);
	ddctl_table_unref(t);
	ddctl_unref(ctx);
}

/* A site whose attribute @bad (0: none) has the wrong type or length. */
static struct nlmsghdr *site_with_bad(char *buf, int bad)
{
	struct nlmsghdr *nlh = msg(buf, DYNDBG_CMD_GET);
	struct nlattr *n = mnl_attr_nest_start(nlh, DYNDBG_A_SITE);

	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_MODULE, "m");
	if (bad == DYNDBG_A_SITE_FILE)
		mnl_attr_put(nlh, DYNDBG_A_SITE_FILE, 3, "abc"); /* no NUL */
	else
		mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FILE, "a.c");
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FUNCTION, "f");
	if (bad == DYNDBG_A_SITE_LINE)
		mnl_attr_put_u16(nlh, DYNDBG_A_SITE_LINE, 1); /* u16, not u32 */
	else
		mnl_attr_put_u32(nlh, DYNDBG_A_SITE_LINE, 1);
	mnl_attr_put_strz(nlh, DYNDBG_A_SITE_FORMAT, "x");
	mnl_attr_put_u32(nlh, DYNDBG_A_SITE_FLAGS, 0);
	if (bad == DYNDBG_A_SITE_CLASS)
		mnl_attr_put(nlh, DYNDBG_A_SITE_CLASS, 2, "LO"); /* no NUL */
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* Site attributes of the wrong type or length: the message is refused. */
static void test_site_bad_attrs(void **state)
{
	static const int bad[] = { DYNDBG_A_SITE_FILE, DYNDBG_A_SITE_LINE,
				   DYNDBG_A_SITE_CLASS };
	char buf[4096];
	struct nl_dump_state st = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(nl_get_parse(site_with_bad(buf, bad[i]), &st), -EBADMSG);
	assert_true(st.sb.len == 0);
	assert_int_equal(nl_get_parse(site_with_bad(buf, 0), &st), 0);
	assert_non_null(strstr(st.sb.buf, "a.c:1 [m]f =_ \"x\""));
	strbuf_release(&st.sb);
}

/* ---- against the fake peer ---- */

static struct peer peer;

static struct ddctl_ctx *peer_ctx(uint32_t queries_max)
{
	struct ddctl_ctx *ctx = test_ctx();

	peer_start(&peer, queries_max);
	return ctx;
}

/*
 * Each query a nested DYNDBG_A_QUERY built from ddctl's parse: strings as
 * parsed (module dashes as underscores, the format's raw bytes with its
 * spaces, quotes and unescaped \t), the line range, negate bits, and the
 * flags as bitfield32: + {F, F}, - {0, F}, = {F, valid}.
 */
static void test_exec_attrs(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	unsigned int matched[6] = { 0 }, changed[6] = { 0 };
	struct backend_result res = { .nqueries = 6, .matched = matched,
				      .changed = changed };
	struct sent_query q[6];
	char *msg = NULL;

	assert_int_equal(nl_exec(ctx,
		"module virtio-net* file drivers/net/* +pf\n"
		"!module foo format 'a \"b\" c' -p\n"
		"func bar line 10-20 =p\n"
		"class LOW module i915 +t\n"
		"file !x.c format \"tab\\there\" func !y* line 5- =\n"
		"module m line -7 +mfls", false, &res, &msg), 0);
	assert_null(msg);
	assert_int_equal(peer.execs, 1);
	assert_int_equal(sent_queries(peer.req[0], q, 6), 6);
	/* +pf */
	assert_string_equal(sent_str(&q[0], DYNDBG_A_QUERY_MODULE), "virtio_net*");
	assert_string_equal(sent_str(&q[0], DYNDBG_A_QUERY_FILE), "drivers/net/*");
	assert_null(sent_str(&q[0], DYNDBG_A_QUERY_FORMAT));
	assert_int_equal(sent_u32(&q[0], DYNDBG_A_QUERY_NEGATE), -1);
	assert_int_equal(sent_u32(&q[0], DYNDBG_A_QUERY_LINE_MIN), -1);
	sent_flags(&q[0], DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME,
		   DDCTL_FLAG_PRINT | DDCTL_FLAG_FUNCNAME);
	/* -p, negated module, raw format */
	assert_string_equal(sent_str(&q[1], DYNDBG_A_QUERY_MODULE), "foo");
	assert_string_equal(sent_str(&q[1], DYNDBG_A_QUERY_FORMAT), "a \"b\" c");
	assert_int_equal(sent_u32(&q[1], DYNDBG_A_QUERY_NEGATE), DYNDBG_MATCH_MODULE);
	sent_flags(&q[1], 0, DDCTL_FLAG_PRINT);
	/* =p: every valid flag selected */
	assert_string_equal(sent_str(&q[2], DYNDBG_A_QUERY_FUNC), "bar");
	assert_int_equal(sent_u32(&q[2], DYNDBG_A_QUERY_LINE_MIN), 10);
	assert_int_equal(sent_u32(&q[2], DYNDBG_A_QUERY_LINE_MAX), 20);
	sent_flags(&q[2], DDCTL_FLAG_PRINT, 0x7f);
	/* class */
	assert_string_equal(sent_str(&q[3], DYNDBG_A_QUERY_CLASS), "LOW");
	assert_string_equal(sent_str(&q[3], DYNDBG_A_QUERY_MODULE), "i915");
	sent_flags(&q[3], DDCTL_FLAG_TID, DDCTL_FLAG_TID);
	/* two negations, a tab byte, an open range, "=" alone */
	assert_string_equal(sent_str(&q[4], DYNDBG_A_QUERY_FILE), "x.c");
	assert_string_equal(sent_str(&q[4], DYNDBG_A_QUERY_FUNC), "y*");
	assert_string_equal(sent_str(&q[4], DYNDBG_A_QUERY_FORMAT), "tab\there");
	assert_int_equal(sent_u32(&q[4], DYNDBG_A_QUERY_NEGATE),
			 DYNDBG_MATCH_FILE | DYNDBG_MATCH_FUNC);
	assert_int_equal(sent_u32(&q[4], DYNDBG_A_QUERY_LINE_MIN), 5);
	assert_int_equal(sent_u32(&q[4], DYNDBG_A_QUERY_LINE_MAX), -1);
	sent_flags(&q[4], 0, 0x7f);
	/* line -7: no minimum */
	assert_int_equal(sent_u32(&q[5], DYNDBG_A_QUERY_LINE_MIN), -1);
	assert_int_equal(sent_u32(&q[5], DYNDBG_A_QUERY_LINE_MAX), 7);
	sent_flags(&q[5], 0x2e, 0x2e); /* m f l s */
	/* the results by index, the generation of the reply */
	assert_int_equal(res.reported, 6);
	assert_int_equal(matched[0], 10);
	assert_int_equal(matched[5], 15);
	assert_int_equal(changed[5], 5);
	assert_int_equal(res.generation, 42);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

static bool has_attr(const struct nlmsghdr *req, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return true;
	return false;
}

/* A dry run carries DYNDBG_A_DRY_RUN, an exec none. */
static void test_exec_dry_run(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct backend_result res = { 0 };

	assert_int_equal(nl_exec(ctx, "module a +p", true, &res, NULL), 0);
	assert_int_equal(nl_exec(ctx, "module a +p", false, &res, NULL), 0);
	assert_true(has_attr(peer.req[0], DYNDBG_A_DRY_RUN));
	assert_false(has_attr(peer.req[1], DYNDBG_A_DRY_RUN));
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/*
 * What the family cannot carry is refused before anything is sent, the
 * message naming the query and the word: an empty module, '+' without
 * letters, a flag the kernel's VALID_FLAGS lacks, a value over the
 * policy's length. An empty format is carried as no format.
 */
static void test_exec_inexpressible(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "module a +p; module '' +p", "query 2 \"module \"\" +p\": word \"module\"" },
		{ "module foo +", "query 1 \"module foo +\": word \"+\"" },
		{ "module foo -_", "word \"-\"" },
		{ "module foo +pd", "no flag d" },
	};
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct backend_result res = { 0 };
	struct sent_query q[1];
	char longname[80];
	char *msg = NULL;
	size_t i;

	peer.valid_flags = 0x3f; /* no 'd' */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(nl_exec(ctx, bad[i].text, false, &res, &msg), -EINVAL);
		assert_non_null(msg);
		if (!strstr(msg, bad[i].want))
			fail_msg("\"%s\": %s", bad[i].text, msg);
		free(msg);
		msg = NULL;
	}
	strcpy(longname, "module ");
	memset(longname + 7, 'm', 64);
	strcpy(longname + 7 + 64, " +p");
	assert_int_equal(nl_exec(ctx, longname, false, &res, &msg), -EINVAL);
	assert_non_null(strstr(msg, "64 bytes"));
	free(msg);
	assert_int_equal(peer.execs, 0);
	assert_int_equal(nl_exec(ctx, "module foo format '' +p", false, &res, NULL), 0);
	assert_int_equal(sent_queries(peer.req[0], q, 1), 1);
	assert_null(sent_str(&q[0], DYNDBG_A_QUERY_FORMAT));
	/* "=" alone sets no flag and is a query the family has: {0, valid} */
	assert_int_equal(nl_exec(ctx, "module foo =_", false, &res, NULL), 0);
	assert_int_equal(sent_queries(peer.req[1], q, 1), 1);
	sent_flags(&q[0], 0, 0x3f);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/* The GET filter: one nested query, no flags; the dump's generation. */
static void test_dump_filter(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct sent_query q[2];
	unsigned int gen = 0;
	char *text = NULL;

	assert_int_equal(nl_dump_gen(ctx, "module virtio* format 'x y' line 3", &text, &gen), 0);
	assert_int_equal(peer.dumps, 1);
	assert_int_equal(sent_queries(peer.req[0], q, 2), 1);
	assert_string_equal(sent_str(&q[0], DYNDBG_A_QUERY_MODULE), "virtio*");
	assert_string_equal(sent_str(&q[0], DYNDBG_A_QUERY_FORMAT), "x y");
	assert_int_equal(sent_u32(&q[0], DYNDBG_A_QUERY_LINE_MIN), 3);
	assert_int_equal(sent_u32(&q[0], DYNDBG_A_QUERY_LINE_MAX), 3);
	assert_null(q[0].a[DYNDBG_A_QUERY_FLAGS]);
	assert_int_equal(gen, 41);
	assert_non_null(strstr(text, "drivers/virtio/virtio.c:301 [virtio]virtio_dev_probe =_ \"probe\\n\""));
	free(text);
	/* no filter: no query attribute */
	assert_int_equal(nl_dump(ctx, NULL, &text), 0);
	assert_int_equal(sent_queries(peer.req[1], q, 2), 0);
	free(text);
	/* two queries, or flags, are no filter: nothing sent */
	assert_int_equal(nl_dump(ctx, "module a; module b", &text), -EINVAL);
	assert_int_equal(nl_dump(ctx, "module a +p", &text), -EINVAL);
	assert_int_equal(peer.dumps, 2);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/*
 * NLM_F_DUMP_INTR: the dump is done again, at most NL_DUMP_RETRIES more
 * times, then -EAGAIN with a log line.
 */
static void test_dump_intr_retry(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct ddctl_table *t = NULL;
	char *text = NULL;

	peer.intr = 2;
	assert_int_equal(nl_dump(ctx, NULL, &text), 0);
	assert_int_equal(peer.dumps, 3);
	/* the last dump's two sites only, not the cut dumps' too */
	assert_int_equal(ddctl_table_new_from_buffer(ctx, text, strlen(text), &t), 0);
	assert_int_equal(ddctl_table_get_count(t), 2);
	ddctl_table_unref(t);
	free(text);
	text = NULL;
	logbuf[0] = '\0';
	ddctl_set_log_fn(ctx, log_to_buf, NULL);
	peer.dumps = 0;
	peer.intr = 100;
	assert_int_equal(nl_dump(ctx, NULL, &text), -EAGAIN);
	assert_null(text);
	assert_int_equal(peer.dumps, 1 + NL_DUMP_RETRIES);
	assert_non_null(strstr(logbuf, "NLM_F_DUMP_INTR"));
	peer_stop(&peer);
	ddctl_unref(ctx);
}

#define SPLIT_SITES "# filename:lineno [module]function flags format\n" \
	"a.c:1 [m1]f =_ \"x\"\na.c:2 [m2]f =_ \"x\"\na.c:3 [m3]f =_ \"x\"\n" \
	"a.c:4 [m4]f =_ \"x\"\na.c:5 [m5]f =_ \"x\"\na.c:6 [m6]f =_ \"x\"\n" \
	"a.c:7 [m7]f =_ \"x\"\n"

/*
 * Commit @text over the peer (log in logbuf at LOG_INFO, the table of
 * SPLIT_SITES): the commit's return in *@r, the transaction (and the
 * context with it) kept until peer_txn_done().
 */
static struct ddctl_txn *peer_txn(struct ddctl_ctx *ctx, const char *text,
				  unsigned int flags, int *r)
{
	struct ddctl_table *t = NULL;
	struct ddctl_queryset *set = test_parse(ctx, text);
	struct ddctl_txn *txn = NULL;

	assert_int_equal(ddctl_table_new_from_buffer(ctx, SPLIT_SITES,
						     strlen(SPLIT_SITES), &t), 0);
	assert_int_equal(ddctl_txn_new(ctx, set, &txn), 0);
	ddctl_txn_set_table(txn, t);
	ddctl_txn_set_flags(txn, flags);
	logbuf[0] = '\0';
	ddctl_set_log_fn(ctx, log_to_buf, NULL);
	ddctl_set_log_priority(ctx, LOG_INFO);
	*r = ddctl_txn_commit(txn);
	ddctl_queryset_unref(set);
	ddctl_table_unref(t);
	return txn;
}

static void peer_txn_done(struct ddctl_ctx *ctx, struct ddctl_txn *txn)
{
	ddctl_txn_unref(txn);
	peer_stop(&peer);
	ddctl_unref(ctx);
}

/*
 * A set over the netlink backend is split at the QUERIES_MAX the kernel
 * reported (3 here), not the header's constant: 7 queries, 3 + 3 + 1,
 * each exec of structured queries; the last exec's generation kept.
 */
static void test_split_at_queries_max(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(3);
	struct sent_query q[3];
	struct ddctl_txn *txn;
	int r;

	peer.results = false; /* counts compared with the plan otherwise */
	ddctl_set_backend(ctx, DDCTL_BACKEND_NETLINK);
	txn = peer_txn(ctx, "module m1 +p; module m2 +p; module m3 +p; module m4 +p; "
		       "module m5 +p; module m6 +p; module m7 +p", DDCTL_TXN_NO_VERIFY, &r);
	assert_int_equal(r, 0);
	assert_int_equal(peer.getfeatures, 1);
	assert_int_equal(peer.execs, 3);
	assert_int_equal(peer.exec_queries[0], 3);
	assert_int_equal(peer.exec_queries[1], 3);
	assert_int_equal(peer.exec_queries[2], 1);
	assert_int_equal(sent_queries(peer.req[2], q, 3), 1);
	assert_string_equal(sent_str(&q[0], DYNDBG_A_QUERY_MODULE), "m7");
	assert_int_equal(ddctl_txn_get_write_count(txn), 3);
	assert_int_equal(ddctl_txn_get_generation(txn), 44);
	peer_txn_done(ctx, txn);
}

/*
 * With netlink asked for, a set with a query the family cannot carry is
 * refused whole (-EINVAL, the query and the word logged): nothing sent.
 */
static void test_txn_inexpressible_netlink(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct ddctl_txn *txn;
	int r;

	ddctl_set_backend(ctx, DDCTL_BACKEND_NETLINK);
	txn = peer_txn(ctx, "module m1 +p; module '' +p", 0, &r);
	assert_int_equal(r, -EINVAL);
	assert_non_null(strstr(logbuf, "query 2 \"module \"\" +p\": word \"module\""));
	assert_int_equal(peer.execs, 0);
	peer_txn_done(ctx, txn);
}

/*
 * Left to ddctl (AUTO), the same set goes to the control file as a whole,
 * an info line naming the query and the word: nothing over netlink (this
 * host has no control file, so the commit then fails to open it).
 */
static void test_txn_inexpressible_auto(void **state)
{
	struct ddctl_ctx *ctx = peer_ctx(1024);
	struct ddctl_txn *txn;
	int r;

	assert_int_equal(ddctl_get_backend(ctx), DDCTL_BACKEND_NETLINK);
	txn = peer_txn(ctx, "module m1 +p; module m2 +", 0, &r);
	assert_true(r < 0);
	assert_non_null(strstr(logbuf, "query 2 \"module m2 +\": word \"+\""));
	assert_non_null(strstr(logbuf, "the set goes to the control file"));
	assert_int_equal(peer.execs, 0);
	peer_txn_done(ctx, txn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_reply),
		cmocka_unit_test(test_exec_reply_repeated_index),
		cmocka_unit_test(test_dump_to_table),
		cmocka_unit_test(test_site_bad_attrs),
		cmocka_unit_test(test_exec_attrs),
		cmocka_unit_test(test_exec_dry_run),
		cmocka_unit_test(test_exec_inexpressible),
		cmocka_unit_test(test_dump_filter),
		cmocka_unit_test(test_dump_intr_retry),
		cmocka_unit_test(test_split_at_queries_max),
		cmocka_unit_test(test_txn_inexpressible_netlink),
		cmocka_unit_test(test_txn_inexpressible_auto),
	};

	return cmocka_run_group_tests_name("dyndbg", tests, NULL, NULL);
}
